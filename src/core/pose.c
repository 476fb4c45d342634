/* Pose evaluation: 1, 2 or 4 weighted frames into caller buffers.
 *
 * One- and two-entry poses whose weights are (1) or (1 - w, w) go through the
 * blend kernels of blend.c, so a linear pose gives bit-for-bit what
 * mk_blend_frames gives. Anything else (smooth poses, with weights that may
 * be negative) uses the 4-stream weighted sums of the kernel table
 * (kernels.h). */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "internal.h"
#include "kernels.h"
#include "morphkit/blend.h"
#include "morphkit/pose.h"


/* Pads a 1..4 entry list to 4 with zero weights on the first frame, so one
 * kernel serves every count (only the rare non-affine 1/2/3-entry cases). */
static void pad4(const float *const *frames, const float *weights, uint32_t n, const float *f[4],
                 float w[4])
{
    for (uint32_t i = 0; i < 4; i++) {
        f[i] = i < n ? frames[i] : frames[0];
        w[i] = i < n ? weights[i] : 0.0f;
    }
}

void mk_pose_blend_positions(float *out, const float *const *frames, const float *weights,
                             uint32_t n, size_t count)
{
    assert(n >= 1 && n <= MK_POSE_MAX_ENTRIES);
    if (n == 1 && weights[0] == 1.0f) {
        if (out != frames[0])
            memcpy(out, frames[0], count * 3 * sizeof(float));
        return;
    }
    if (n == 2 && weights[0] == 1.0f - weights[1]) {
        mk_blend_positions(out, frames[0], frames[1], weights[1], count);
        return;
    }
    const float *f[4];
    float w[4];
    pad4(frames, weights, n, f, w);
    mk_kernels_active()->sum4_positions(out, f, w, count);
}

void mk_pose_blend_normals(float *out, const float *const *frames, const float *weights,
                           uint32_t n, size_t count)
{
    assert(n >= 1 && n <= MK_POSE_MAX_ENTRIES);
    if (n == 1 && weights[0] == 1.0f) {
        /* still re-normalized, so a held frame's normals look like blended ones */
        mk_blend_normals(out, frames[0], frames[0], 0.0f, count);
        return;
    }
    if (n == 2 && weights[0] == 1.0f - weights[1]) {
        mk_blend_normals(out, frames[0], frames[1], weights[1], count);
        return;
    }
    const float *f[4];
    float w[4];
    pad4(frames, weights, n, f, w);
    mk_kernels_active()->sum4_normals(out, f, w, count);
}

mk_status mk_pose_eval(const mk_frame_set *set, const mk_pose *pose, float *out_positions,
                       float *out_normals, size_t out_capacity, mk_error *err)
{
    if (!set || !pose || !out_positions)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "pose eval: NULL frame set, pose or output");
    const uint32_t n = pose->count;
    if (n != 0 && n != 1 && n != 2 && n != 4)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "pose eval: pose count %u is not 0, 1, 2 or 4", n);
    if (out_capacity < set->vertex_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "pose eval: output holds %zu vertices, the set has %u", out_capacity,
                            set->vertex_count);
    const float *pos[MK_POSE_MAX_ENTRIES], *nrm[MK_POSE_MAX_ENTRIES];
    for (uint32_t i = 0; i < n; i++) {
        if (pose->frames[i] >= set->frame_count)
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "pose eval: entry %u names frame %u, the set has %u", i,
                                pose->frames[i], set->frame_count);
        if (!isfinite(pose->weights[i]))
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "pose eval: entry %u has a NaN or infinite weight", i);
        pos[i] = mk_frame_set_positions(set, pose->frames[i]);
        nrm[i] = mk_frame_set_normals(set, pose->frames[i]);
    }
    if (n == 0)
        return MK_OK;
    mk_pose_blend_positions(out_positions, pos, pose->weights, n, set->vertex_count);
    if (set->normals && out_normals)
        mk_pose_blend_normals(out_normals, nrm, pose->weights, n, set->vertex_count);
    return MK_OK;
}
