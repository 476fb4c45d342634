/* morphkit/blend.h - the blend kernels: out = (1 - w) * A + w * B.
 *
 * Streams are tightly packed float3 (x y z per vertex); `count` is a vertex
 * count. The caller owns every buffer. `out` may be the same pointer as `a`
 * or `b` (in-place); any other overlap is undefined.
 *
 * w is not clamped: values outside [0, 1] extrapolate along the same line
 * (w = -1 gives 2A - B). The players only produce w in [0, 1).
 *
 * Normals are re-normalized after blending. A blended normal whose length is
 * below 1e-12 (opposite inputs at w = 0.5, or zero inputs) is written as
 * (0, 0, 0), never NaN, so a caller can detect it.
 *
 * The kernels are chosen once per process, at the first call (thread-safe):
 * AVX-512, AVX2 (on CPUs with AVX2 and FMA), SSE2 or plain C, the best the
 * CPU runs. The environment variable MK_SIMD=scalar|sse2|avx2|avx512 forces
 * a lower variant (a higher one than the CPU has is ignored). Every variant
 * gives the plain C reference's results bit for bit (tested per variant).
 * Outputs of 2^20 vertices or more are written with non-temporal stores by
 * the AVX-512 variant: they would not stay in cache anyway, and streaming
 * them saves reading each output line before it is overwritten. */
#ifndef MORPHKIT_BLEND_H
#define MORPHKIT_BLEND_H

#include <stddef.h>
#include <stdint.h>

#include "morphkit/frame_set.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The raw stream kernels: `count` vertices are read from a and b and written
 * to out, which must each hold count float3. They check nothing (like
 * memcpy): the caller states the sizes. Use mk_blend_frames for checked
 * access to a frame set. */
MK_API void mk_blend_positions(float *out, const float *a, const float *b, float w, size_t count);
MK_API void mk_blend_normals(float *out, const float *a, const float *b, float w, size_t count);

/* Blends frames fa and fb of a set into out_positions and (when both the set
 * and out_normals have them) out_normals, vertex_count float3 each.
 * out_capacity is the number of vertices each output buffer holds (the one
 * rule of the checked kernels: capacities count vertices, not floats).
 * MK_ERR_INVALID_ARGUMENT, with nothing written, for a NULL set or
 * out_positions, fa or fb >= frame_count, a non-finite w, or out_capacity
 * below vertex_count. Checked once per call, in every build type. */
MK_API mk_status mk_blend_frames(const mk_frame_set *set, uint32_t fa, uint32_t fb, float w,
                                 float *out_positions, float *out_normals, size_t out_capacity,
                                 mk_error *err);

/* The job form of mk_blend_frames: blends only vertices [begin, end), so
 * threads can each take a range of one large set (the library starts no
 * threads). The outputs are the whole buffers (vertex 0 first; only the
 * range is written) and out_capacity their size in vertices, as above.
 * Ranges split anywhere give the same bytes as one whole call. Also
 * MK_ERR_INVALID_ARGUMENT for begin > end or end > vertex_count. */
MK_API mk_status mk_blend_frames_range(const mk_frame_set *set, uint32_t fa, uint32_t fb, float w,
                                       uint32_t begin, uint32_t end, float *out_positions,
                                       float *out_normals, size_t out_capacity, mk_error *err);

/* The name of the kernel variant in use: "avx512", "avx2", "sse2" or
 * "scalar". */
MK_API const char *mk_blend_kernel_name(void);

#ifdef __cplusplus
}
#endif

#endif
