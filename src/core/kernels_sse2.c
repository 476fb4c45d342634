/* SSE2 kernels (x86-64 baseline). Packed float3 is processed 4 vertices
 * (12 floats, 3 registers) a step: blends are plain lane-wise arithmetic;
 * normals transpose the squared components to per-vertex lanes to sum
 * them, then scale the AoS registers by the broadcast inverse lengths. The
 * same operations in the same order as kernels_scalar.c; tails go to it. */
#include "internal.h"
#include "kernels.h"

#if defined(MK_HAVE_SSE2)
#include <emmintrin.h>

/* r0 = x0 y0 z0 x1, r1 = y1 z1 x2 y2, r2 = z2 x3 y3 z3 (4 vertices, AoS). */
static inline void normalize4_store(float *out, __m128 r0, __m128 r1, __m128 r2)
{
    const __m128 one = _mm_set1_ps(1.0f), min_len2 = _mm_set1_ps(MK_NORMAL_MIN_LENGTH2);
    __m128 s0 = _mm_mul_ps(r0, r0), s1 = _mm_mul_ps(r1, r1), s2 = _mm_mul_ps(r2, r2);
    __m128 t = _mm_shuffle_ps(s1, s2, _MM_SHUFFLE(2, 1, 3, 2));   /* x2 y2 x3 y3 */
    __m128 xx = _mm_shuffle_ps(s0, t, _MM_SHUFFLE(2, 0, 3, 0));   /* x0 x1 x2 x3 */
    __m128 u = _mm_shuffle_ps(s0, s1, _MM_SHUFFLE(0, 0, 2, 1));   /* y0 z0 y1 y1 */
    __m128 yy = _mm_shuffle_ps(u, t, _MM_SHUFFLE(3, 1, 2, 0));    /* y0 y1 y2 y3 */
    __m128 z01 = _mm_shuffle_ps(s0, s1, _MM_SHUFFLE(1, 1, 2, 2)); /* z0 z0 z1 z1 */
    __m128 z23 = _mm_shuffle_ps(s2, s2, _MM_SHUFFLE(3, 3, 0, 0)); /* z2 z2 z3 z3 */
    __m128 zz = _mm_shuffle_ps(z01, z23, _MM_SHUFFLE(2, 0, 2, 0));
    __m128 len2 = _mm_add_ps(_mm_add_ps(xx, yy), zz);
    __m128 inv = _mm_div_ps(one, _mm_sqrt_ps(len2));
    inv = _mm_and_ps(inv, _mm_cmpge_ps(len2, min_len2));
    /* broadcast back: i0 i0 i0 i1 | i1 i1 i2 i2 | i2 i3 i3 i3 */
    _mm_storeu_ps(out, _mm_mul_ps(r0, _mm_shuffle_ps(inv, inv, _MM_SHUFFLE(1, 0, 0, 0))));
    _mm_storeu_ps(out + 4, _mm_mul_ps(r1, _mm_shuffle_ps(inv, inv, _MM_SHUFFLE(2, 2, 1, 1))));
    _mm_storeu_ps(out + 8, _mm_mul_ps(r2, _mm_shuffle_ps(inv, inv, _MM_SHUFFLE(3, 3, 3, 2))));
}

static inline __m128 lerp4(__m128 wa, __m128 wb, const float *a, const float *b)
{
    return _mm_add_ps(_mm_mul_ps(wa, _mm_loadu_ps(a)), _mm_mul_ps(wb, _mm_loadu_ps(b)));
}

void mk_blend_positions_sse2(float *out, const float *a, const float *b, float w, size_t count)
{
    const __m128 wa = _mm_set1_ps(1.0f - w), wb = _mm_set1_ps(w);
    size_t n = count * 3, i = 0;
    for (; i + 8 <= n; i += 8) {
        _mm_storeu_ps(out + i, lerp4(wa, wb, a + i, b + i));
        _mm_storeu_ps(out + i + 4, lerp4(wa, wb, a + i + 4, b + i + 4));
    }
    for (; i < n; i++)
        out[i] = (1.0f - w) * a[i] + w * b[i];
}

void mk_blend_normals_sse2(float *out, const float *a, const float *b, float w, size_t count)
{
    const __m128 wa = _mm_set1_ps(1.0f - w), wb = _mm_set1_ps(w);
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        const float *pa = a + 3 * i, *pb = b + 3 * i;
        normalize4_store(out + 3 * i, lerp4(wa, wb, pa, pb), lerp4(wa, wb, pa + 4, pb + 4),
                         lerp4(wa, wb, pa + 8, pb + 8));
    }
    mk_blend_normals_scalar(out + 3 * i, a + 3 * i, b + 3 * i, w, count - i);
}

static inline __m128 wsum4(const float *const f[4], size_t at, const __m128 w[4])
{
    __m128 r = _mm_add_ps(_mm_mul_ps(w[0], _mm_loadu_ps(f[0] + at)),
                          _mm_mul_ps(w[1], _mm_loadu_ps(f[1] + at)));
    r = _mm_add_ps(r, _mm_mul_ps(w[2], _mm_loadu_ps(f[2] + at)));
    return _mm_add_ps(r, _mm_mul_ps(w[3], _mm_loadu_ps(f[3] + at)));
}

static void tail4(mk_sum4_fn ref, float *out, const float *const f[4], const float w[4], size_t i,
                  size_t count)
{
    const float *g[4] = {f[0] + 3 * i, f[1] + 3 * i, f[2] + 3 * i, f[3] + 3 * i};
    ref(out + 3 * i, g, w, count - i);
}

static void sum4_positions_sse2(float *out, const float *const f[4], const float w[4],
                                size_t count)
{
    const __m128 wv[4] = {_mm_set1_ps(w[0]), _mm_set1_ps(w[1]), _mm_set1_ps(w[2]),
                          _mm_set1_ps(w[3])};
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        const size_t j = 3 * i;
        _mm_storeu_ps(out + j, wsum4(f, j, wv));
        _mm_storeu_ps(out + j + 4, wsum4(f, j + 4, wv));
        _mm_storeu_ps(out + j + 8, wsum4(f, j + 8, wv));
    }
    tail4(mk_sum4_positions_scalar, out, f, w, i, count);
}

static void sum4_normals_sse2(float *out, const float *const f[4], const float w[4], size_t count)
{
    const __m128 wv[4] = {_mm_set1_ps(w[0]), _mm_set1_ps(w[1]), _mm_set1_ps(w[2]),
                          _mm_set1_ps(w[3])};
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        const size_t j = 3 * i;
        normalize4_store(out + j, wsum4(f, j, wv), wsum4(f, j + 4, wv), wsum4(f, j + 8, wv));
    }
    tail4(mk_sum4_normals_scalar, out, f, w, i, count);
}

/* 8 vertices (24 uint16) a step: 6 registers of 4 components whose x y z
 * pattern repeats every 3 registers. */
static void qblend_positions_sse2(float *out, const uint16_t *a, const uint16_t *b, float w,
                                  const float scale[3], const float offset[3], size_t count)
{
    const __m128 wa = _mm_set1_ps(1.0f - w), wb = _mm_set1_ps(w);
    const __m128i zero = _mm_setzero_si128();
    __m128 s[3], o[3];
    for (int k = 0; k < 3; k++) {
        s[k] = _mm_setr_ps(scale[(4 * k) % 3], scale[(4 * k + 1) % 3], scale[(4 * k + 2) % 3],
                           scale[(4 * k + 3) % 3]);
        o[k] = _mm_setr_ps(offset[(4 * k) % 3], offset[(4 * k + 1) % 3],
                           offset[(4 * k + 2) % 3], offset[(4 * k + 3) % 3]);
    }
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const size_t j = 3 * i;
        for (int m = 0; m < 3; m++) {
            __m128i qa = _mm_loadu_si128((const __m128i *)(a + j + 8 * m));
            __m128i qb = _mm_loadu_si128((const __m128i *)(b + j + 8 * m));
            for (int h = 0; h < 2; h++) {
                __m128i ia = h ? _mm_unpackhi_epi16(qa, zero) : _mm_unpacklo_epi16(qa, zero);
                __m128i ib = h ? _mm_unpackhi_epi16(qb, zero) : _mm_unpacklo_epi16(qb, zero);
                __m128 t = _mm_add_ps(_mm_mul_ps(wa, _mm_cvtepi32_ps(ia)),
                                      _mm_mul_ps(wb, _mm_cvtepi32_ps(ib)));
                int p = (2 * m + h) % 3;
                _mm_storeu_ps(out + j + 8 * m + 4 * h, _mm_add_ps(o[p], _mm_mul_ps(s[p], t)));
            }
        }
    }
    mk_qblend_positions_scalar(out + 3 * i, a + 3 * i, b + 3 * i, w, scale, offset, count - i);
}

const mk_kernels mk_kernels_sse2 = {
    "sse2",
    MK_SIMD_SSE2,
    mk_blend_positions_sse2,
    mk_blend_normals_sse2,
    sum4_positions_sse2,
    sum4_normals_sse2,
    qblend_positions_sse2,
    mk_qblend_normals_scalar,
    mk_madd_scalar, /* the compiler vectorizes it for SSE2 */
    mk_qmadd_scalar,
};
#endif
