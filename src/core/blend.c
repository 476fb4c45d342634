/* The blend entry points: argument checks once per call, then the kernel
 * table chosen once per process (simd.c, kernels_*.c). */
#include <math.h>

#include "internal.h"
#include "kernels.h"
#include "morphkit/blend.h"

void mk_blend_positions(float *out, const float *a, const float *b, float w, size_t count)
{
    mk_kernels_active()->blend_positions(out, a, b, w, count);
}

void mk_blend_normals(float *out, const float *a, const float *b, float w, size_t count)
{
    mk_kernels_active()->blend_normals(out, a, b, w, count);
}

mk_status mk_blend_frames_range(const mk_frame_set *set, uint32_t fa, uint32_t fb, float w,
                                uint32_t begin, uint32_t end, float *out_positions,
                                float *out_normals, size_t out_capacity, mk_error *err)
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
    if (begin > end || end > set->vertex_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "blend frames: range [%u, %u) is not within [0, %u)", begin, end,
                            set->vertex_count);
    const mk_kernels *k = mk_kernels_active();
    size_t at = (size_t)begin * 3, n = end - begin;
    k->blend_positions(out_positions + at, mk_frame_set_positions(set, fa) + at,
                       mk_frame_set_positions(set, fb) + at, w, n);
    if (set->normals && out_normals)
        k->blend_normals(out_normals + at, mk_frame_set_normals(set, fa) + at,
                         mk_frame_set_normals(set, fb) + at, w, n);
    return MK_OK;
}

mk_status mk_blend_frames(const mk_frame_set *set, uint32_t fa, uint32_t fb, float w,
                          float *out_positions, float *out_normals, size_t out_capacity,
                          mk_error *err)
{
    return mk_blend_frames_range(set, fa, fb, w, 0, set ? set->vertex_count : 0, out_positions,
                                 out_normals, out_capacity, err);
}

const char *mk_blend_kernel_name(void)
{
    return mk_kernels_active()->name;
}
