/* AVX-512F kernels (chosen at run time, compiled per function with the
 * target attribute). Packed float3 runs 16 vertices (48 floats, 3 zmm
 * registers) a step: lane-wise blends on the AoS registers; for normals the
 * squared components are gathered to per-vertex lanes with two-source
 * permutes, summed, and the inverse lengths permuted back to AoS. The same
 * operations in the same order as the reference; tails go to the AVX2
 * kernels (an AVX-512 CPU has AVX2). */
#include "internal.h"
#include "kernels.h"

#if defined(MK_HAVE_AVX512)
#include <immintrin.h>

#define MK_AVX512 __attribute__((target("avx512f,avx2,fma")))

/* Permute indices (kernels comment): component c of 16 vertices from
 * three AoS registers, first from r0|r1 (GATHER_A), then r2 (GATHER_B);
 * SCATTER_* the reverse, building AoS register r from SoA x|y, then z;
 * SPREAD[r] the vertex of each float of AoS register r. */
static const int32_t GATHER_A[3][16] = {
    {0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 0, 0, 0, 0, 0},
    {1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 0, 0, 0, 0, 0},
    {2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 0, 0, 0, 0, 0, 0}};
static const int32_t GATHER_B[3][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 17, 20, 23, 26, 29},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 18, 21, 24, 27, 30},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 19, 22, 25, 28, 31}};
static const int32_t SPREAD[3][16] = {
    {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5},
    {5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10},
    {10, 11, 11, 11, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15}};

MK_AVX512 static inline __m512i idx(const int32_t *p)
{
    return _mm512_loadu_si512((const void *)p);
}

/* Outputs of at least this many vertices are written with non-temporal
 * stores: they cannot stay in cache anyway, and streaming them saves the
 * read of every output line before it is written. */
#define STREAM_MIN_VERTICES ((size_t)1 << 20)
#define NO_STREAM ((size_t)-1)

/* Vertices to write normally before out + 3 * h is 64-byte aligned, or
 * NO_STREAM when the output is small (or not float aligned). */
static size_t stream_head(const float *out, size_t count)
{
    uintptr_t p = (uintptr_t)out;
    if (count < STREAM_MIN_VERTICES || p % 4)
        return NO_STREAM;
    for (size_t h = 0; h < 16; h++)
        if ((p + 12 * h) % 64 == 0)
            return h;
    return NO_STREAM;
}

MK_AVX512 static inline void put(float *p, __m512 v, bool nt)
{
    if (nt)
        _mm512_stream_ps(p, v);
    else
        _mm512_storeu_ps(p, v);
}

MK_AVX512 static inline __m512 component(__m512 s0, __m512 s1, __m512 s2, int c)
{
    return _mm512_permutex2var_ps(_mm512_permutex2var_ps(s0, idx(GATHER_A[c]), s1),
                                  idx(GATHER_B[c]), s2);
}

MK_AVX512 static inline void normalize16_store(float *out, __m512 r0, __m512 r1, __m512 r2,
                                               bool nt)
{
    const __m512 one = _mm512_set1_ps(1.0f), min_len2 = _mm512_set1_ps(MK_NORMAL_MIN_LENGTH2);
    __m512 s0 = _mm512_mul_ps(r0, r0), s1 = _mm512_mul_ps(r1, r1), s2 = _mm512_mul_ps(r2, r2);
    __m512 len2 = _mm512_add_ps(_mm512_add_ps(component(s0, s1, s2, 0), component(s0, s1, s2, 1)),
                                component(s0, s1, s2, 2));
    __m512 inv = _mm512_div_ps(one, _mm512_sqrt_ps(len2));
    __mmask16 ok = _mm512_cmp_ps_mask(len2, min_len2, _CMP_GE_OQ);
    inv = _mm512_maskz_mov_ps(ok, inv);
    put(out, _mm512_mul_ps(r0, _mm512_permutexvar_ps(idx(SPREAD[0]), inv)), nt);
    put(out + 16, _mm512_mul_ps(r1, _mm512_permutexvar_ps(idx(SPREAD[1]), inv)), nt);
    put(out + 32, _mm512_mul_ps(r2, _mm512_permutexvar_ps(idx(SPREAD[2]), inv)), nt);
}

MK_AVX512 static inline __m512 lerp16(__m512 wa, __m512 wb, __m512 a, __m512 b)
{
    return _mm512_add_ps(_mm512_mul_ps(wa, a), _mm512_mul_ps(wb, b));
}

MK_AVX512 static void blend_positions_avx512(float *out, const float *a, const float *b, float w,
                                             size_t count)
{
    const __m512 wa = _mm512_set1_ps(1.0f - w), wb = _mm512_set1_ps(w);
    size_t n = count * 3, i = 0;
    const bool nt = stream_head(out, count) != NO_STREAM;
    for (; nt && ((uintptr_t)(out + i)) % 64; i++) /* up to 15 floats to align */
        out[i] = (1.0f - w) * a[i] + w * b[i];
    for (; i + 32 <= n; i += 32) {
        put(out + i, lerp16(wa, wb, _mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i)), nt);
        put(out + i + 16, lerp16(wa, wb, _mm512_loadu_ps(a + i + 16), _mm512_loadu_ps(b + i + 16)),
            nt);
    }
    if (nt)
        _mm_sfence();
    if (i < n) { /* masked tail: up to 31 floats */
        for (; i < n; i += 16) {
            size_t left = n - i < 16 ? n - i : 16;
            __mmask16 m = (__mmask16)((1u << left) - 1u);
            _mm512_mask_storeu_ps(out + i, m,
                                  lerp16(wa, wb, _mm512_maskz_loadu_ps(m, a + i),
                                         _mm512_maskz_loadu_ps(m, b + i)));
        }
    }
    _mm256_zeroupper();
}

MK_AVX512 static inline void blend_normals_body(float *out, const float *a, const float *b,
                                                float w, size_t count, bool nt)
{
    const __m512 wa = _mm512_set1_ps(1.0f - w), wb = _mm512_set1_ps(w);
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        const float *pa = a + 3 * i, *pb = b + 3 * i;
        normalize16_store(out + 3 * i, lerp16(wa, wb, _mm512_loadu_ps(pa), _mm512_loadu_ps(pb)),
                          lerp16(wa, wb, _mm512_loadu_ps(pa + 16), _mm512_loadu_ps(pb + 16)),
                          lerp16(wa, wb, _mm512_loadu_ps(pa + 32), _mm512_loadu_ps(pb + 32)),
                          nt);
    }
    _mm256_zeroupper();
    mk_blend_normals_avx2(out + 3 * i, a + 3 * i, b + 3 * i, w, count - i);
}

MK_AVX512 static void blend_normals_avx512(float *out, const float *a, const float *b, float w,
                                           size_t count)
{
    size_t h = stream_head(out, count);
    if (h == NO_STREAM) {
        blend_normals_body(out, a, b, w, count, false);
        return;
    }
    mk_blend_normals_avx2(out, a, b, w, h);
    blend_normals_body(out + 3 * h, a + 3 * h, b + 3 * h, w, count - h, true);
    _mm_sfence();
}

MK_AVX512 static inline __m512 wsum16(const float *const f[4], size_t at, const __m512 w[4])
{
    __m512 r = _mm512_add_ps(_mm512_mul_ps(w[0], _mm512_loadu_ps(f[0] + at)),
                             _mm512_mul_ps(w[1], _mm512_loadu_ps(f[1] + at)));
    r = _mm512_add_ps(r, _mm512_mul_ps(w[2], _mm512_loadu_ps(f[2] + at)));
    return _mm512_add_ps(r, _mm512_mul_ps(w[3], _mm512_loadu_ps(f[3] + at)));
}

static void tail4(mk_sum4_fn next, float *out, const float *const f[4], const float w[4], size_t i,
                  size_t count)
{
    const float *g[4] = {f[0] + 3 * i, f[1] + 3 * i, f[2] + 3 * i, f[3] + 3 * i};
    next(out + 3 * i, g, w, count - i);
}

MK_AVX512 static inline void sum4_positions_body(float *out, const float *const f[4],
                                                 const float w[4], size_t count, bool nt)
{
    const __m512 wv[4] = {_mm512_set1_ps(w[0]), _mm512_set1_ps(w[1]), _mm512_set1_ps(w[2]),
                          _mm512_set1_ps(w[3])};
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        const size_t j = 3 * i;
        put(out + j, wsum16(f, j, wv), nt);
        put(out + j + 16, wsum16(f, j + 16, wv), nt);
        put(out + j + 32, wsum16(f, j + 32, wv), nt);
    }
    _mm256_zeroupper();
    tail4(mk_kernels_avx2.sum4_positions, out, f, w, i, count);
}

MK_AVX512 static inline void sum4_normals_body(float *out, const float *const f[4],
                                               const float w[4], size_t count, bool nt)
{
    const __m512 wv[4] = {_mm512_set1_ps(w[0]), _mm512_set1_ps(w[1]), _mm512_set1_ps(w[2]),
                          _mm512_set1_ps(w[3])};
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        const size_t j = 3 * i;
        normalize16_store(out + j, wsum16(f, j, wv), wsum16(f, j + 16, wv), wsum16(f, j + 32, wv),
                          nt);
    }
    _mm256_zeroupper();
    tail4(mk_kernels_avx2.sum4_normals, out, f, w, i, count);
}

/* The 4-stream sums: a head to align the output, then streaming stores
 * when the output is large (see stream_head). */
MK_AVX512 static void sum4_avx512(float *out, const float *const f[4], const float w[4],
                                  size_t count, bool normals)
{
    size_t h = stream_head(out, count);
    bool nt = h != NO_STREAM;
    if (!nt)
        h = 0;
    const mk_kernels *lower = &mk_kernels_avx2;
    (normals ? lower->sum4_normals : lower->sum4_positions)(out, f, w, h);
    const float *g[4] = {f[0] + 3 * h, f[1] + 3 * h, f[2] + 3 * h, f[3] + 3 * h};
    if (normals)
        sum4_normals_body(out + 3 * h, g, w, count - h, nt);
    else
        sum4_positions_body(out + 3 * h, g, w, count - h, nt);
    if (nt)
        _mm_sfence();
}

MK_AVX512 static void sum4_positions_avx512(float *out, const float *const f[4], const float w[4],
                                            size_t count)
{
    sum4_avx512(out, f, w, count, false);
}

MK_AVX512 static void sum4_normals_avx512(float *out, const float *const f[4], const float w[4],
                                          size_t count)
{
    sum4_avx512(out, f, w, count, true);
}

/* 16 vertices (48 uint16) a step: 3 registers whose x y z pattern repeats
 * every 3 registers. */
MK_AVX512 static inline void qblend_positions_body(float *out, const uint16_t *a,
                                                   const uint16_t *b, float w,
                                                   const float scale[3], const float offset[3],
                                                   size_t count, bool nt)
{
    const __m512 wa = _mm512_set1_ps(1.0f - w), wb = _mm512_set1_ps(w);
    __m512 s[3], o[3];
    for (int k = 0; k < 3; k++) {
        float sv[16], ov[16];
        for (int l = 0; l < 16; l++) {
            sv[l] = scale[(16 * k + l) % 3];
            ov[l] = offset[(16 * k + l) % 3];
        }
        s[k] = _mm512_loadu_ps(sv);
        o[k] = _mm512_loadu_ps(ov);
    }
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        const size_t j = 3 * i;
        for (int m = 0; m < 3; m++) {
            __m512 fa = _mm512_cvtepi32_ps(
                _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(a + j + 16 * m))));
            __m512 fb = _mm512_cvtepi32_ps(
                _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(b + j + 16 * m))));
            put(out + j + 16 * m, _mm512_add_ps(o[m], _mm512_mul_ps(s[m], lerp16(wa, wb, fa, fb))),
                nt);
        }
    }
    _mm256_zeroupper();
    mk_kernels_avx2.qblend_positions(out + 3 * i, a + 3 * i, b + 3 * i, w, scale, offset,
                                     count - i);
}

MK_AVX512 static void qblend_positions_avx512(float *out, const uint16_t *a, const uint16_t *b,
                                              float w, const float scale[3],
                                              const float offset[3], size_t count)
{
    size_t h = stream_head(out, count);
    if (h == NO_STREAM) {
        qblend_positions_body(out, a, b, w, scale, offset, count, false);
        return;
    }
    mk_kernels_avx2.qblend_positions(out, a, b, w, scale, offset, h);
    qblend_positions_body(out + 3 * h, a + 3 * h, b + 3 * h, w, scale, offset, count - h, true);
    _mm_sfence();
}

/* As oct_decode8 in kernels_avx2.c, 16 vertices. */
MK_AVX512 static inline void oct_decode16(__m512i q, __m512 *x, __m512 *y, __m512 *z, __m512 *len)
{
    const __m512 k = _mm512_set1_ps(MK_SNORM16_SCALE), one = _mm512_set1_ps(1.0f);
    const __m512 zero = _mm512_setzero_ps();
    const __m512i sign = _mm512_set1_epi32(INT32_MIN);
    __m512 u = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_srai_epi32(_mm512_slli_epi32(q, 16), 16)), k);
    __m512 v = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_srai_epi32(q, 16)), k);
    __m512i ui = _mm512_castps_si512(u), vi = _mm512_castps_si512(v);
    __m512 au = _mm512_castsi512_ps(_mm512_andnot_si512(sign, ui));
    __m512 av = _mm512_castsi512_ps(_mm512_andnot_si512(sign, vi));
    __m512 zz = _mm512_sub_ps(_mm512_sub_ps(one, au), av);
    __m512 t = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(zz, zero, _CMP_LT_OQ),
                                   _mm512_sub_ps(zero, zz));
    __m512i ti = _mm512_castps_si512(t);
    __m512 xx = _mm512_sub_ps(u, _mm512_castsi512_ps(_mm512_or_si512(ti, _mm512_and_si512(ui, sign))));
    __m512 yy = _mm512_sub_ps(v, _mm512_castsi512_ps(_mm512_or_si512(ti, _mm512_and_si512(vi, sign))));
    *x = xx;
    *y = yy;
    *z = zz;
    *len = _mm512_sqrt_ps(_mm512_add_ps(
        _mm512_add_ps(_mm512_mul_ps(xx, xx), _mm512_mul_ps(yy, yy)), _mm512_mul_ps(zz, zz)));
}

MK_AVX512 static inline void qblend_normals_body(float *out, const int16_t *a,
                                                 const int16_t *b, float w, size_t count, bool nt)
{
    const __m512 wa = _mm512_set1_ps(1.0f - w), wb = _mm512_set1_ps(w);
    const __m512 min_len2 = _mm512_set1_ps(MK_NORMAL_MIN_LENGTH2), one = _mm512_set1_ps(1.0f);
    /* SoA x y z to AoS: register r takes float 16 r + j from x|y, then z */
    int32_t first[3][16], second[3][16];
    for (int r = 0; r < 3; r++)
        for (int j = 0; j < 16; j++) {
            int f = 16 * r + j, v = f / 3, c = f % 3;
            first[r][j] = c == 0 ? v : c == 1 ? 16 + v : 0;
            second[r][j] = c == 2 ? 16 + v : j;
        }
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m512 ax, ay, az, la, bx, by, bz, lb;
        oct_decode16(_mm512_loadu_si512((const void *)(a + 2 * i)), &ax, &ay, &az, &la);
        oct_decode16(_mm512_loadu_si512((const void *)(b + 2 * i)), &bx, &by, &bz, &lb);
        __m512 ca = _mm512_mul_ps(wa, lb), cb = _mm512_mul_ps(wb, la);
        __m512 x = lerp16(ca, cb, ax, bx), y = lerp16(ca, cb, ay, by), z = lerp16(ca, cb, az, bz);
        __m512 len2 = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(x, x), _mm512_mul_ps(y, y)),
                                    _mm512_mul_ps(z, z));
        __m512 inv = _mm512_div_ps(one, _mm512_sqrt_ps(len2));
        inv = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(len2, min_len2, _CMP_GE_OQ), inv);
        x = _mm512_mul_ps(x, inv);
        y = _mm512_mul_ps(y, inv);
        z = _mm512_mul_ps(z, inv);
        for (int r = 0; r < 3; r++) {
            __m512 xy = _mm512_permutex2var_ps(x, idx(first[r]), y);
            put(out + 3 * i + 16 * r, _mm512_permutex2var_ps(xy, idx(second[r]), z), nt);
        }
    }
    _mm256_zeroupper();
    mk_qblend_normals_avx2(out + 3 * i, a + 2 * i, b + 2 * i, w, count - i);
}

MK_AVX512 static void qblend_normals_avx512(float *out, const int16_t *a, const int16_t *b,
                                            float w, size_t count)
{
    size_t h = stream_head(out, count);
    if (h == NO_STREAM) {
        qblend_normals_body(out, a, b, w, count, false);
        return;
    }
    mk_qblend_normals_avx2(out, a, b, w, h);
    qblend_normals_body(out + 3 * h, a + 2 * h, b + 2 * h, w, count - h, true);
    _mm_sfence();
}

/* k is a constant in each call of the switch below, so each inlined copy
 * has a fixed number of streams. */
MK_AVX512 static inline size_t madd_avx512_k(float *out, const float *src, const float *const *d,
                                     const float *w, uint32_t k, size_t n)
{
    __m512 wv[4];
    for (uint32_t j = 0; j < k; j++)
        wv[j] = _mm512_set1_ps(w[j]);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512 r = _mm512_loadu_ps(src + i);
        for (uint32_t j = 0; j < k; j++)
            r = _mm512_add_ps(r, _mm512_mul_ps(wv[j], _mm512_loadu_ps(d[j] + i)));
        _mm512_storeu_ps(out + i, r);
    }
    return i;
}

MK_AVX512 static void madd_avx512(float *out, const float *src, const float *const *d,
                              const float *w, uint32_t k, size_t n)
{
    size_t i = k == 1   ? madd_avx512_k(out, src, d, w, 1, n)
               : k == 2 ? madd_avx512_k(out, src, d, w, 2, n)
               : k == 3 ? madd_avx512_k(out, src, d, w, 3, n)
                        : madd_avx512_k(out, src, d, w, 4, n);
    _mm256_zeroupper();
    mk_kernels_avx2.madd(out + i, src + i, (const float *const[4]){d[0] + i, d[k > 1 ? 1 : 0] + i,
                                                                    d[k > 2 ? 2 : 0] + i,
                                                                    d[k > 3 ? 3 : 0] + i},
                         w, k, n - i);
}

/* k is a constant in each call of the switch below. */
MK_AVX512 static inline size_t qmadd_avx512_k(float *out, const float *src, const int16_t *const *q,
                                     const float *c, uint32_t k, size_t n)
{
    __m512 cv[4];
    for (uint32_t j = 0; j < k; j++)
        cv[j] = _mm512_set1_ps(c[j]);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512 r = _mm512_loadu_ps(src + i);
        for (uint32_t j = 0; j < k; j++)
            r = _mm512_add_ps(r, _mm512_mul_ps(cv[j], _mm512_cvtepi32_ps(_mm512_cvtepi16_epi32(_mm256_loadu_si256((const __m256i *)(q[j] + i))))));
        _mm512_storeu_ps(out + i, r);
    }
    return i;
}

MK_AVX512 static void qmadd_avx512(float *out, const float *src, const int16_t *const *q,
                               const float *c, uint32_t k, size_t n)
{
    size_t i = k == 1   ? qmadd_avx512_k(out, src, q, c, 1, n)
               : k == 2 ? qmadd_avx512_k(out, src, q, c, 2, n)
               : k == 3 ? qmadd_avx512_k(out, src, q, c, 3, n)
                        : qmadd_avx512_k(out, src, q, c, 4, n);
    _mm256_zeroupper();
    const int16_t *qt[4] = {q[0] + i, q[k > 1 ? 1 : 0] + i, q[k > 2 ? 2 : 0] + i,
                            q[k > 3 ? 3 : 0] + i};
    mk_kernels_avx2.qmadd(out + i, src + i, qt, c, k, n - i);
}

const mk_kernels mk_kernels_avx512 = {
    "avx512",
    MK_SIMD_AVX512,
    blend_positions_avx512,
    blend_normals_avx512,
    sum4_positions_avx512,
    sum4_normals_avx512,
    qblend_positions_avx512,
    qblend_normals_avx512,
    madd_avx512,
    qmadd_avx512,
};
#endif
