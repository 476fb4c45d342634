/* Internal: the per-vertex kernels behind blend.c, pose.c and qblend.c, one
 * table per instruction set, chosen once (simd.c). Not installed.
 *
 * Every variant computes each output value with the same operations in the
 * same order as the scalar reference (no FMA contraction: the library is
 * built as ISO C and the SIMD code uses separate multiplies and adds), so
 * all variants agree with it bit for bit; tests/test_kernels.c checks that
 * for every variant the machine can run. */
#ifndef MK_KERNELS_H
#define MK_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum mk_simd_level {
    MK_SIMD_SCALAR = 0,
    MK_SIMD_SSE2,
    MK_SIMD_AVX2,   /* AVX2 + FMA CPUs (the kernels themselves do not fuse) */
    MK_SIMD_AVX512, /* AVX-512F */
    MK_SIMD_LEVEL_COUNT
} mk_simd_level;

/* out = (1 - w) a + w b over count float3 (normals re-normalized). */
typedef void (*mk_lerp3_fn)(float *out, const float *a, const float *b, float w, size_t count);
/* out = sum of 4 weighted float3 streams (normals re-normalized); out must
 * not overlap the inputs. */
typedef void (*mk_sum4_fn)(float *out, const float *const f[4], const float w[4], size_t count);
/* Quantized positions (uint16 x y z): out = offset + scale * ((1-w) qa + w qb). */
typedef void (*mk_qlerp_positions_fn)(float *out, const uint16_t *a, const uint16_t *b, float w,
                                      const float scale[3], const float offset[3], size_t count);
/* Octahedral snorm16 normals (u v per vertex): decode, normalize, lerp,
 * normalize. */
typedef void (*mk_qlerp_normals_fn)(float *out, const int16_t *a, const int16_t *b, float w,
                                    size_t count);

/* out = src + w[0] d[0] + ... + w[k-1] d[k-1] over n floats (k in 1..4),
 * summed left to right; out may be src, no other overlap. (The dense
 * morph-target sum: no padding terms, since w * 0 could turn -0 into +0.) */
typedef void (*mk_madd_fn)(float *out, const float *src, const float *const *d, const float *w,
                           uint32_t k, size_t n);

/* The same over quantized deltas: out = src + c[0] q[0] + ... (c already
 * holds weight * scale), summed left to right; out may be src. */
typedef void (*mk_qmadd_fn)(float *out, const float *src, const int16_t *const *q,
                            const float *c, uint32_t k, size_t n);

typedef struct mk_kernels {
    const char *name; /* "scalar", "sse2", "avx2", "avx512" */
    mk_simd_level level;
    mk_lerp3_fn blend_positions;
    mk_lerp3_fn blend_normals;
    mk_sum4_fn sum4_positions;
    mk_sum4_fn sum4_normals;
    mk_qlerp_positions_fn qblend_positions;
    mk_qlerp_normals_fn qblend_normals;
    mk_madd_fn madd;
    mk_qmadd_fn qmadd;
} mk_kernels;

/* The table in use: the best the CPU runs, or the level MK_SIMD names
 * when that is lower (scalar|sse2|avx2|avx512). Chosen at the first call,
 * thread-safely; never changes afterwards. */
const mk_kernels *mk_kernels_active(void);

/* The table of one level, or NULL when this build or this CPU lacks it
 * (tests compare every available table with the scalar one). */
const mk_kernels *mk_kernels_for_level(mk_simd_level level);

extern const mk_kernels mk_kernels_scalar;
#if defined(__x86_64__) || defined(__i386__)
#if defined(__SSE2__)
#define MK_HAVE_SSE2 1
extern const mk_kernels mk_kernels_sse2;
void mk_blend_positions_sse2(float *out, const float *a, const float *b, float w, size_t count);
void mk_blend_normals_sse2(float *out, const float *a, const float *b, float w, size_t count);
#endif
#if defined(__GNUC__) && defined(__x86_64__)
#define MK_HAVE_AVX2 1
#define MK_HAVE_AVX512 1
extern const mk_kernels mk_kernels_avx2;
extern const mk_kernels mk_kernels_avx512;
void mk_blend_normals_avx2(float *out, const float *a, const float *b, float w, size_t count);
void mk_qblend_normals_avx2(float *out, const int16_t *a, const int16_t *b, float w,
                            size_t count);
#endif
#endif

/* The reference kernels, also used for the tails of the SIMD loops. */
void mk_blend_positions_scalar(float *out, const float *a, const float *b, float w, size_t count);
void mk_blend_normals_scalar(float *out, const float *a, const float *b, float w, size_t count);
void mk_sum4_positions_scalar(float *out, const float *const f[4], const float w[4], size_t count);
void mk_sum4_normals_scalar(float *out, const float *const f[4], const float w[4], size_t count);
void mk_qblend_positions_scalar(float *out, const uint16_t *a, const uint16_t *b, float w,
                                const float scale[3], const float offset[3], size_t count);
void mk_qblend_normals_scalar(float *out, const int16_t *a, const int16_t *b, float w,
                              size_t count);
void mk_madd_scalar(float *out, const float *src, const float *const *d, const float *w,
                    uint32_t k, size_t n);
void mk_qmadd_scalar(float *out, const float *src, const int16_t *const *q, const float *c,
                     uint32_t k, size_t n);

/* 1 / 32767: an snorm16 value q decodes as q * this (the same product in
 * every variant). */
#define MK_SNORM16_SCALE (1.0f / 32767.0f)

#endif
