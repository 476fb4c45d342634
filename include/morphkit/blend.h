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
 * The kernels use AVX where the CPU has it (checked at run time), else SSE2
 * on x86-64, else plain C; every variant matches the plain C reference
 * within 2e-7 per component (in practice bit for bit). */
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

/* The name of the kernel variant in use ("avx", "sse2" or "scalar"). */
MK_API const char *mk_blend_kernel_name(void);

#ifdef __cplusplus
}
#endif

#endif
