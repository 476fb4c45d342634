/* AVX2 kernels (CPUs with AVX2 and FMA; chosen at run time, compiled per
 * function with the target attribute). Packed float3 normals run 8
 * vertices a step with each 128-bit lane holding the SSE2 layout of 4
 * vertices, so the in-lane shuffles of kernels_sse2.c work unchanged.
 * Separate multiplies and adds (no FMA): bit-identical to the reference. */
#include <math.h>

#include "internal.h"
#include "kernels.h"

#if defined(MK_HAVE_AVX2)
#include <immintrin.h>

#define MK_AVX2 __attribute__((target("avx2,fma")))

MK_AVX2 static inline __m256 load_lanes(const float *p)
{
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p)), _mm_loadu_ps(p + 12), 1);
}

MK_AVX2 static inline void store_lanes(float *p, __m256 v)
{
    _mm_storeu_ps(p, _mm256_castps256_ps128(v));
    _mm_storeu_ps(p + 12, _mm256_extractf128_ps(v, 1));
}

/* 8 vertices as 2 x 4 in lanes (see above): normalize and store 24 floats. */
MK_AVX2 static inline void normalize8_store(float *out, __m256 r0, __m256 r1, __m256 r2)
{
    const __m256 min_len2 = _mm256_set1_ps(MK_NORMAL_MIN_LENGTH2), one = _mm256_set1_ps(1.0f);
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
    store_lanes(out, _mm256_mul_ps(r0, _mm256_shuffle_ps(inv, inv, _MM_SHUFFLE(1, 0, 0, 0))));
    store_lanes(out + 4, _mm256_mul_ps(r1, _mm256_shuffle_ps(inv, inv, _MM_SHUFFLE(2, 2, 1, 1))));
    store_lanes(out + 8, _mm256_mul_ps(r2, _mm256_shuffle_ps(inv, inv, _MM_SHUFFLE(3, 3, 3, 2))));
}

MK_AVX2 static inline __m256 lerp8(__m256 wa, __m256 wb, __m256 a, __m256 b)
{
    return _mm256_add_ps(_mm256_mul_ps(wa, a), _mm256_mul_ps(wb, b));
}

MK_AVX2 static void blend_positions_avx2(float *out, const float *a, const float *b, float w,
                                         size_t count)
{
    const __m256 wa = _mm256_set1_ps(1.0f - w), wb = _mm256_set1_ps(w);
    size_t n = count * 3, i = 0;
    for (; i + 16 <= n; i += 16) {
        _mm256_storeu_ps(out + i, lerp8(wa, wb, _mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
        _mm256_storeu_ps(out + i + 8,
                         lerp8(wa, wb, _mm256_loadu_ps(a + i + 8), _mm256_loadu_ps(b + i + 8)));
    }
    _mm256_zeroupper(); /* dirty upper halves slow down the SSE code that follows */
    for (; i < n; i++)
        out[i] = (1.0f - w) * a[i] + w * b[i];
}

MK_AVX2 void mk_blend_normals_avx2(float *out, const float *a, const float *b, float w,
                                   size_t count)
{
    const __m256 wa = _mm256_set1_ps(1.0f - w), wb = _mm256_set1_ps(w);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const float *pa = a + 3 * i, *pb = b + 3 * i;
        normalize8_store(out + 3 * i, lerp8(wa, wb, load_lanes(pa), load_lanes(pb)),
                         lerp8(wa, wb, load_lanes(pa + 4), load_lanes(pb + 4)),
                         lerp8(wa, wb, load_lanes(pa + 8), load_lanes(pb + 8)));
    }
    _mm256_zeroupper();
    mk_blend_normals_sse2(out + 3 * i, a + 3 * i, b + 3 * i, w, count - i);
}

MK_AVX2 static inline __m256 wsum8(const float *const f[4], size_t at, const __m256 w[4])
{
    __m256 r = _mm256_add_ps(_mm256_mul_ps(w[0], load_lanes(f[0] + at)),
                             _mm256_mul_ps(w[1], load_lanes(f[1] + at)));
    r = _mm256_add_ps(r, _mm256_mul_ps(w[2], load_lanes(f[2] + at)));
    return _mm256_add_ps(r, _mm256_mul_ps(w[3], load_lanes(f[3] + at)));
}

static void tail4(mk_sum4_fn ref, float *out, const float *const f[4], const float w[4], size_t i,
                  size_t count)
{
    const float *g[4] = {f[0] + 3 * i, f[1] + 3 * i, f[2] + 3 * i, f[3] + 3 * i};
    ref(out + 3 * i, g, w, count - i);
}

MK_AVX2 static void sum4_positions_avx2(float *out, const float *const f[4], const float w[4],
                                        size_t count)
{
    const __m256 wv[4] = {_mm256_set1_ps(w[0]), _mm256_set1_ps(w[1]), _mm256_set1_ps(w[2]),
                          _mm256_set1_ps(w[3])};
    size_t n = 3 * count, i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 r = _mm256_add_ps(_mm256_mul_ps(wv[0], _mm256_loadu_ps(f[0] + i)),
                                 _mm256_mul_ps(wv[1], _mm256_loadu_ps(f[1] + i)));
        r = _mm256_add_ps(r, _mm256_mul_ps(wv[2], _mm256_loadu_ps(f[2] + i)));
        _mm256_storeu_ps(out + i, _mm256_add_ps(r, _mm256_mul_ps(wv[3], _mm256_loadu_ps(f[3] + i))));
    }
    _mm256_zeroupper();
    for (; i < n; i++)
        out[i] = w[0] * f[0][i] + w[1] * f[1][i] + w[2] * f[2][i] + w[3] * f[3][i];
}

MK_AVX2 static void sum4_normals_avx2(float *out, const float *const f[4], const float w[4],
                                      size_t count)
{
    const __m256 wv[4] = {_mm256_set1_ps(w[0]), _mm256_set1_ps(w[1]), _mm256_set1_ps(w[2]),
                          _mm256_set1_ps(w[3])};
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const size_t j = 3 * i;
        normalize8_store(out + j, wsum8(f, j, wv), wsum8(f, j + 4, wv), wsum8(f, j + 8, wv));
    }
    _mm256_zeroupper();
    tail4(mk_kernels_sse2.sum4_normals, out, f, w, i, count);
}

/* 8 vertices (24 uint16) a step: 3 registers of 8 components whose x y z
 * pattern repeats every 3 registers. */
MK_AVX2 static void qblend_positions_avx2(float *out, const uint16_t *a, const uint16_t *b,
                                          float w, const float scale[3], const float offset[3],
                                          size_t count)
{
    const __m256 wa = _mm256_set1_ps(1.0f - w), wb = _mm256_set1_ps(w);
    __m256 s[3], o[3];
    for (int k = 0; k < 3; k++) {
        float sv[8], ov[8];
        for (int l = 0; l < 8; l++) {
            sv[l] = scale[(8 * k + l) % 3];
            ov[l] = offset[(8 * k + l) % 3];
        }
        s[k] = _mm256_loadu_ps(sv);
        o[k] = _mm256_loadu_ps(ov);
    }
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const size_t j = 3 * i;
        for (int m = 0; m < 3; m++) {
            __m256 fa = _mm256_cvtepi32_ps(
                _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(a + j + 8 * m))));
            __m256 fb = _mm256_cvtepi32_ps(
                _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(b + j + 8 * m))));
            _mm256_storeu_ps(out + j + 8 * m,
                             _mm256_add_ps(o[m], _mm256_mul_ps(s[m], lerp8(wa, wb, fa, fb))));
        }
    }
    _mm256_zeroupper();
    mk_qblend_positions_scalar(out + 3 * i, a + 3 * i, b + 3 * i, w, scale, offset, count - i);
}

/* Octahedral decode of 8 vertices held as 8 words (v << 16 | u), SoA, and
 * their lengths: the same steps as the scalar oct_decode. */
MK_AVX2 static inline void oct_decode8(__m256i q, __m256 *x, __m256 *y, __m256 *z, __m256 *len)
{
    const __m256 k = _mm256_set1_ps(MK_SNORM16_SCALE), one = _mm256_set1_ps(1.0f);
    const __m256 sign = _mm256_set1_ps(-0.0f), zero = _mm256_setzero_ps();
    __m256 u = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srai_epi32(_mm256_slli_epi32(q, 16), 16)), k);
    __m256 v = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srai_epi32(q, 16)), k);
    __m256 zz = _mm256_sub_ps(_mm256_sub_ps(one, _mm256_andnot_ps(sign, u)),
                              _mm256_andnot_ps(sign, v));
    __m256 t = _mm256_and_ps(_mm256_sub_ps(zero, zz), _mm256_cmp_ps(zz, zero, _CMP_LT_OQ));
    __m256 xx = _mm256_sub_ps(u, _mm256_or_ps(t, _mm256_and_ps(u, sign)));
    __m256 yy = _mm256_sub_ps(v, _mm256_or_ps(t, _mm256_and_ps(v, sign)));
    *x = xx;
    *y = yy;
    *z = zz;
    *len = _mm256_sqrt_ps(_mm256_add_ps(
        _mm256_add_ps(_mm256_mul_ps(xx, xx), _mm256_mul_ps(yy, yy)), _mm256_mul_ps(zz, zz)));
}

MK_AVX2 void mk_qblend_normals_avx2(float *out, const int16_t *a, const int16_t *b, float w,
                                    size_t count)
{
    const __m256 wa = _mm256_set1_ps(1.0f - w), wb = _mm256_set1_ps(w);
    const __m256 min_len2 = _mm256_set1_ps(MK_NORMAL_MIN_LENGTH2), one = _mm256_set1_ps(1.0f);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256 ax, ay, az, la, bx, by, bz, lb;
        oct_decode8(_mm256_loadu_si256((const __m256i *)(a + 2 * i)), &ax, &ay, &az, &la);
        oct_decode8(_mm256_loadu_si256((const __m256i *)(b + 2 * i)), &bx, &by, &bz, &lb);
        __m256 ca = _mm256_mul_ps(wa, lb), cb = _mm256_mul_ps(wb, la);
        __m256 x = lerp8(ca, cb, ax, bx), y = lerp8(ca, cb, ay, by), z = lerp8(ca, cb, az, bz);
        __m256 len2 = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(x, x), _mm256_mul_ps(y, y)),
                                    _mm256_mul_ps(z, z));
        __m256 inv = _mm256_div_ps(one, _mm256_sqrt_ps(len2));
        inv = _mm256_and_ps(inv, _mm256_cmp_ps(len2, min_len2, _CMP_GE_OQ));
        x = _mm256_mul_ps(x, inv);
        y = _mm256_mul_ps(y, inv);
        z = _mm256_mul_ps(z, inv);
        /* SoA back to packed float3, per 128-bit lane (vertices 0-3 and
         * 4-7): r0 = x0 y0 z0 x1, r1 = y1 z1 x2 y2, r2 = z2 x3 y3 z3 */
        __m256 xy_lo = _mm256_unpacklo_ps(x, y), xy_hi = _mm256_unpackhi_ps(x, y);
        __m256 zx = _mm256_shuffle_ps(z, x, _MM_SHUFFLE(1, 1, 0, 0));  /* z0 z0 x1 x1 */
        __m256 yz = _mm256_shuffle_ps(y, z, _MM_SHUFFLE(1, 1, 1, 1));  /* y1 y1 z1 z1 */
        __m256 zxy = _mm256_shuffle_ps(z, xy_hi, _MM_SHUFFLE(3, 2, 3, 2)); /* z2 z3 x3 y3 */
        float *o = out + 3 * i;
        store_lanes(o, _mm256_shuffle_ps(xy_lo, zx, _MM_SHUFFLE(2, 0, 1, 0)));
        store_lanes(o + 4, _mm256_shuffle_ps(yz, xy_hi, _MM_SHUFFLE(1, 0, 2, 0)));
        store_lanes(o + 8, _mm256_shuffle_ps(zxy, zxy, _MM_SHUFFLE(1, 3, 2, 0)));
    }
    _mm256_zeroupper();
    mk_qblend_normals_scalar(out + 3 * i, a + 2 * i, b + 2 * i, w, count - i);
}

/* k is a constant in each call of the switch below, so each inlined copy
 * has a fixed number of streams. */
MK_AVX2 static inline size_t madd_avx2_k(float *out, const float *src, const float *const *d,
                                     const float *w, uint32_t k, size_t n)
{
    __m256 wv[4];
    for (uint32_t j = 0; j < k; j++)
        wv[j] = _mm256_set1_ps(w[j]);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 r = _mm256_loadu_ps(src + i);
        for (uint32_t j = 0; j < k; j++)
            r = _mm256_add_ps(r, _mm256_mul_ps(wv[j], _mm256_loadu_ps(d[j] + i)));
        _mm256_storeu_ps(out + i, r);
    }
    return i;
}

MK_AVX2 static void madd_avx2(float *out, const float *src, const float *const *d,
                              const float *w, uint32_t k, size_t n)
{
    size_t i = k == 1   ? madd_avx2_k(out, src, d, w, 1, n)
               : k == 2 ? madd_avx2_k(out, src, d, w, 2, n)
               : k == 3 ? madd_avx2_k(out, src, d, w, 3, n)
                        : madd_avx2_k(out, src, d, w, 4, n);
    _mm256_zeroupper();
    const float *dt[4] = {d[0] + i, d[k > 1 ? 1 : 0] + i, d[k > 2 ? 2 : 0] + i, d[k > 3 ? 3 : 0] + i};
    mk_madd_scalar(out + i, src + i, dt, w, k, n - i);
}

/* k is a constant in each call of the switch below. */
MK_AVX2 static inline size_t qmadd_avx2_k(float *out, const float *src, const int16_t *const *q,
                                     const float *c, uint32_t k, size_t n)
{
    __m256 cv[4];
    for (uint32_t j = 0; j < k; j++)
        cv[j] = _mm256_set1_ps(c[j]);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 r = _mm256_loadu_ps(src + i);
        for (uint32_t j = 0; j < k; j++)
            r = _mm256_add_ps(r, _mm256_mul_ps(cv[j], _mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(q[j] + i))))));
        _mm256_storeu_ps(out + i, r);
    }
    return i;
}

MK_AVX2 static void qmadd_avx2(float *out, const float *src, const int16_t *const *q,
                               const float *c, uint32_t k, size_t n)
{
    size_t i = k == 1   ? qmadd_avx2_k(out, src, q, c, 1, n)
               : k == 2 ? qmadd_avx2_k(out, src, q, c, 2, n)
               : k == 3 ? qmadd_avx2_k(out, src, q, c, 3, n)
                        : qmadd_avx2_k(out, src, q, c, 4, n);
    _mm256_zeroupper();
    const int16_t *qt[4] = {q[0] + i, q[k > 1 ? 1 : 0] + i, q[k > 2 ? 2 : 0] + i,
                            q[k > 3 ? 3 : 0] + i};
    mk_qmadd_scalar(out + i, src + i, qt, c, k, n - i);
}

const mk_kernels mk_kernels_avx2 = {
    "avx2",
    MK_SIMD_AVX2,
    blend_positions_avx2,
    mk_blend_normals_avx2,
    sum4_positions_avx2,
    sum4_normals_avx2,
    qblend_positions_avx2,
    mk_qblend_normals_avx2,
    madd_avx2,
    qmadd_avx2,
};
#endif
