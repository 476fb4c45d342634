/* Internal: normalizing 4 packed float3 vectors held in 3 SSE registers, the
 * step the blend and pose kernels share. Not installed. */
#ifndef MK_NORMALIZE_SSE2_H
#define MK_NORMALIZE_SSE2_H

#include <emmintrin.h>
#include <stddef.h>

#include "internal.h"

/* r0 = x0 y0 z0 x1, r1 = y1 z1 x2 y2, r2 = z2 x3 y3 z3 (4 vertices, AoS).
 * Transposes the squares to per-vertex lanes to sum them, then scales the
 * AoS registers by the broadcast inverse lengths and stores 12 floats at
 * out. The same operations in the same order as the scalar reference
 * (x*x + y*y + z*z, 1 / sqrt), so results match it bit for bit. */
static inline void mk_normalize4_store_sse2(float *out, __m128 r0, __m128 r1, __m128 r2)
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

#endif
