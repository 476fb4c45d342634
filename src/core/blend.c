/* Blend kernels: a plain C reference and an SSE2 variant for normals.
 *
 * Positions are a straight lerp over 3 * count floats, which compilers
 * vectorize on their own. Normals need a per-vertex length: the SSE2 path
 * takes 4 vertices (12 floats, 3 registers) at a time, transposes the squared
 * components to sum them per vertex, and scales the AoS registers by the
 * broadcast inverse lengths, with the same operations in the same order as
 * the reference. Where the CPU has AVX (checked at run time) the same scheme
 * runs on 8 vertices at a time. (1 - w) * a + w * b rather than a + w * (b - a) so that
 * w = 0 and w = 1 give the inputs exactly. */
#include <math.h>

#include "internal.h"
#include "morphkit/blend.h"

#if defined(MK_HAVE_SSE2)
#include "normalize_sse2.h"
#endif
#if defined(MK_HAVE_AVX)
#include <immintrin.h>
#endif


void mk_blend_positions_scalar(float *out, const float *a, const float *b, float w, size_t count)
{
    const float wa = 1.0f - w;
    const size_t n = count * 3;
    for (size_t i = 0; i < n; i++)
        out[i] = wa * a[i] + w * b[i];
}

void mk_blend_normals_scalar(float *out, const float *a, const float *b, float w, size_t count)
{
    const float wa = 1.0f - w;
    for (size_t i = 0; i < count; i++) {
        float x = wa * a[3 * i] + w * b[3 * i];
        float y = wa * a[3 * i + 1] + w * b[3 * i + 1];
        float z = wa * a[3 * i + 2] + w * b[3 * i + 2];
        float len2 = x * x + y * y + z * z;
        float inv = len2 >= MK_NORMAL_MIN_LENGTH2 ? 1.0f / sqrtf(len2) : 0.0f;
        out[3 * i] = x * inv;
        out[3 * i + 1] = y * inv;
        out[3 * i + 2] = z * inv;
    }
}

#if defined(MK_HAVE_SSE2)
void mk_blend_normals_sse2(float *out, const float *a, const float *b, float w, size_t count)
{
    const __m128 wa = _mm_set1_ps(1.0f - w), wb = _mm_set1_ps(w);
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        const float *pa = a + 3 * i, *pb = b + 3 * i;
        /* r0 = x0 y0 z0 x1, r1 = y1 z1 x2 y2, r2 = z2 x3 y3 z3 */
        __m128 r0 = _mm_add_ps(_mm_mul_ps(wa, _mm_loadu_ps(pa)), _mm_mul_ps(wb, _mm_loadu_ps(pb)));
        __m128 r1 = _mm_add_ps(_mm_mul_ps(wa, _mm_loadu_ps(pa + 4)),
                               _mm_mul_ps(wb, _mm_loadu_ps(pb + 4)));
        __m128 r2 = _mm_add_ps(_mm_mul_ps(wa, _mm_loadu_ps(pa + 8)),
                               _mm_mul_ps(wb, _mm_loadu_ps(pb + 8)));
        mk_normalize4_store_sse2(out + 3 * i, r0, r1, r2);
    }
    mk_blend_normals_scalar(out + 3 * i, a + 3 * i, b + 3 * i, w, count - i);
}
#endif

#if defined(MK_HAVE_AVX)
/* AVX: each 128-bit lane holds the SSE2 layout of 4 vertices (lane 0 the
 * first 4 of a block of 8, lane 1 the next 4), so the in-lane shuffles of
 * the SSE2 path work unchanged on 8 vertices. No FMA, to stay bit-identical
 * with the reference. */
#define MK_AVX __attribute__((target("avx")))

MK_AVX static inline __m256 load_lanes(const float *p)
{
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p)), _mm_loadu_ps(p + 12), 1);
}

MK_AVX static inline void store_lanes(float *p, __m256 v)
{
    _mm_storeu_ps(p, _mm256_castps256_ps128(v));
    _mm_storeu_ps(p + 12, _mm256_extractf128_ps(v, 1));
}

MK_AVX void mk_blend_positions_avx(float *out, const float *a, const float *b, float w,
                                   size_t count)
{
    const __m256 wa = _mm256_set1_ps(1.0f - w), wb = _mm256_set1_ps(w);
    size_t n = count * 3, i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(out + i, _mm256_add_ps(_mm256_mul_ps(wa, _mm256_loadu_ps(a + i)),
                                                _mm256_mul_ps(wb, _mm256_loadu_ps(b + i))));
    _mm256_zeroupper(); /* dirty upper halves slow down the SSE code that follows */
    for (; i < n; i++)
        out[i] = (1.0f - w) * a[i] + w * b[i];
}

MK_AVX void mk_blend_normals_avx(float *out, const float *a, const float *b, float w,
                                 size_t count)
{
    const __m256 wa = _mm256_set1_ps(1.0f - w), wb = _mm256_set1_ps(w);
    const __m256 min_len2 = _mm256_set1_ps(MK_NORMAL_MIN_LENGTH2), one = _mm256_set1_ps(1.0f);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const float *pa = a + 3 * i, *pb = b + 3 * i;
        __m256 r0 = _mm256_add_ps(_mm256_mul_ps(wa, load_lanes(pa)), _mm256_mul_ps(wb, load_lanes(pb)));
        __m256 r1 = _mm256_add_ps(_mm256_mul_ps(wa, load_lanes(pa + 4)),
                                  _mm256_mul_ps(wb, load_lanes(pb + 4)));
        __m256 r2 = _mm256_add_ps(_mm256_mul_ps(wa, load_lanes(pa + 8)),
                                  _mm256_mul_ps(wb, load_lanes(pb + 8)));
        __m256 s0 = _mm256_mul_ps(r0, r0), s1 = _mm256_mul_ps(r1, r1), s2 = _mm256_mul_ps(r2, r2);
        __m256 t = _mm256_shuffle_ps(s1, s2, _MM_SHUFFLE(2, 1, 3, 2));
        __m256 xx = _mm256_shuffle_ps(s0, t, _MM_SHUFFLE(2, 0, 3, 0));
        __m256 u = _mm256_shuffle_ps(s0, s1, _MM_SHUFFLE(0, 0, 2, 1));
        __m256 yy = _mm256_shuffle_ps(u, t, _MM_SHUFFLE(3, 1, 2, 0));
        __m256 z01 = _mm256_shuffle_ps(s0, s1, _MM_SHUFFLE(1, 1, 2, 2));
        __m256 z23 = _mm256_shuffle_ps(s2, s2, _MM_SHUFFLE(3, 3, 0, 0));
        __m256 zz = _mm256_shuffle_ps(z01, z23, _MM_SHUFFLE(2, 0, 2, 0));
        __m256 len2 = _mm256_add_ps(_mm256_add_ps(xx, yy), zz);
        __m256 inv = _mm256_div_ps(one, _mm256_sqrt_ps(len2));
        inv = _mm256_and_ps(inv, _mm256_cmp_ps(len2, min_len2, _CMP_GE_OQ));
        __m256 k0 = _mm256_shuffle_ps(inv, inv, _MM_SHUFFLE(1, 0, 0, 0));
        __m256 k1 = _mm256_shuffle_ps(inv, inv, _MM_SHUFFLE(2, 2, 1, 1));
        __m256 k2 = _mm256_shuffle_ps(inv, inv, _MM_SHUFFLE(3, 3, 3, 2));
        store_lanes(out + 3 * i, _mm256_mul_ps(r0, k0));
        store_lanes(out + 3 * i + 4, _mm256_mul_ps(r1, k1));
        store_lanes(out + 3 * i + 8, _mm256_mul_ps(r2, k2));
    }
    _mm256_zeroupper();
    mk_blend_normals_sse2(out + 3 * i, a + 3 * i, b + 3 * i, w, count - i);
}

static bool have_avx(void)
{
    return __builtin_cpu_supports("avx");
}
#endif

void mk_blend_positions(float *out, const float *a, const float *b, float w, size_t count)
{
#if defined(MK_HAVE_AVX)
    if (have_avx()) {
        mk_blend_positions_avx(out, a, b, w, count);
        return;
    }
#endif
    mk_blend_positions_scalar(out, a, b, w, count);
}

void mk_blend_normals(float *out, const float *a, const float *b, float w, size_t count)
{
#if defined(MK_HAVE_AVX)
    if (have_avx()) {
        mk_blend_normals_avx(out, a, b, w, count);
        return;
    }
#endif
#if defined(MK_HAVE_SSE2)
    mk_blend_normals_sse2(out, a, b, w, count);
#else
    mk_blend_normals_scalar(out, a, b, w, count);
#endif
}

mk_status mk_blend_frames(const mk_frame_set *set, uint32_t fa, uint32_t fb, float w,
                          float *out_positions, float *out_normals, size_t out_capacity,
                          mk_error *err)
{
    if (!set || !out_positions)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "blend frames: NULL frame set or output");
    if (fa >= set->frame_count || fb >= set->frame_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "blend frames: frame %u or %u is not below the frame count %u", fa,
                            fb, set->frame_count);
    if (!isfinite(w))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "blend frames: the weight is NaN or infinite");
    if (out_capacity < set->vertex_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "blend frames: output holds %zu vertices, the set has %u",
                            out_capacity, set->vertex_count);
    mk_blend_positions(out_positions, mk_frame_set_positions(set, fa),
                       mk_frame_set_positions(set, fb), w, set->vertex_count);
    if (set->normals && out_normals)
        mk_blend_normals(out_normals, mk_frame_set_normals(set, fa), mk_frame_set_normals(set, fb),
                         w, set->vertex_count);
    return MK_OK;
}

const char *mk_blend_kernel_name(void)
{
#if defined(MK_HAVE_AVX)
    if (have_avx())
        return "avx";
#endif
#if defined(MK_HAVE_SSE2)
    return "sse2";
#else
    return "scalar";
#endif
}
