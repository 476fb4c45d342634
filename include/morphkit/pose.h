/* morphkit/pose.h - a pose of a frame set and its CPU evaluation (runtime).
 *
 * A pose is a short list of (frame, weight) entries: 1 for a held or
 * hard-cut frame, 2 for a linear blend, 4 for a smooth (cubic) blend. The
 * players produce poses; mk_pose_eval turns one into vertex streams:
 *
 *     out = sum_i weights[i] * F[frames[i]]
 *
 * Weights are used exactly as given: they are not clamped or re-scaled, so
 * they should sum to 1 (the players' poses do, up to float rounding). Smooth
 * poses carry negative weights (a cubic overshoots its control frames'
 * convex hull), which is fine. A frame may appear more than once; its
 * weights simply add up.
 *
 * Normals are blended the same way and then re-normalized; a result shorter
 * than 1e-12 is written as (0, 0, 0), never NaN (as in blend.h).
 *
 * No allocation; the caller owns every buffer. */
#ifndef MORPHKIT_POSE_H
#define MORPHKIT_POSE_H

#include <stddef.h>
#include <stdint.h>

#include "morphkit/frame_set.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MK_POSE_MAX_ENTRIES 4

typedef struct mk_pose {
    uint32_t count;                        /* 0 (nothing playing), 1, 2 or 4 */
    uint32_t frames[MK_POSE_MAX_ENTRIES];  /* indices into the frame set */
    float weights[MK_POSE_MAX_ENTRIES];
} mk_pose;

/* The raw stream kernels: weighted sum of n float3 streams (n in 1..4) into
 * out, count vertices; every buffer holds count float3. They check nothing
 * (like memcpy): n, the pointers and the sizes are the caller's promise.
 * out may alias one of the inputs only when n == 1 or n == 2 and out is that
 * input; otherwise the buffers must not overlap. */
MK_API void mk_pose_blend_positions(float *out, const float *const *frames, const float *weights,
                                    uint32_t n, size_t count);
/* The same for normals, re-normalized afterwards. */
MK_API void mk_pose_blend_normals(float *out, const float *const *frames, const float *weights,
                                  uint32_t n, size_t count);

/* Evaluates pose into out_positions and (when the set has normals and
 * out_normals is not NULL) out_normals, set->vertex_count float3 each.
 * out_capacity is the number of vertices each output buffer holds.
 * A pose with count 0 (nothing playing) writes nothing and returns MK_OK.
 * MK_ERR_INVALID_ARGUMENT, with nothing written, for a NULL set, pose or
 * out_positions, a count other than 0, 1, 2 or 4, a frame >= frame_count, a
 * NaN or infinite weight, or out_capacity below vertex_count. Checked once
 * per call in every build type; the per-vertex loops carry no checks. */
MK_API mk_status mk_pose_eval(const mk_frame_set *set, const mk_pose *pose, float *out_positions,
                              float *out_normals, size_t out_capacity, mk_error *err);

#ifdef __cplusplus
}
#endif

#endif
