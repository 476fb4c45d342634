/* Pose evaluation: 1, 2 or 4 weighted frames into caller buffers.
 *
 * One- and two-entry poses whose weights are (1) or (1 - w, w) go through the
 * blend kernels of blend.c, so a linear pose gives bit-for-bit what
 * mk_blend_frames gives. Anything else (smooth poses, with weights that may
 * be negative) uses the general weighted sums below, written as plain loops
 * over a fixed number of inputs so the compiler can vectorize them. */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "internal.h"
#include "morphkit/blend.h"
#include "morphkit/pose.h"


static void sum4_positions(float *restrict out, const float *restrict a, const float *restrict b,
                           const float *restrict c, const float *restrict d, const float *w,
                           size_t count)
{
    const float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
    const size_t n = count * 3;
    for (size_t i = 0; i < n; i++)
        out[i] = w0 * a[i] + w1 * b[i] + w2 * c[i] + w3 * d[i];
}

static void sum4_normals(float *restrict out, const float *restrict a, const float *restrict b,
                         const float *restrict c, const float *restrict d, const float *w,
                         size_t count)
{
    const float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
    for (size_t i = 0; i < count; i++) {
        const size_t j = 3 * i;
        float x = w0 * a[j] + w1 * b[j] + w2 * c[j] + w3 * d[j];
        float y = w0 * a[j + 1] + w1 * b[j + 1] + w2 * c[j + 1] + w3 * d[j + 1];
        float z = w0 * a[j + 2] + w1 * b[j + 2] + w2 * c[j + 2] + w3 * d[j + 2];
        float len2 = x * x + y * y + z * z;
        float inv = len2 >= MK_NORMAL_MIN_LENGTH2 ? 1.0f / sqrtf(len2) : 0.0f;
        out[j] = x * inv;
        out[j + 1] = y * inv;
        out[j + 2] = z * inv;
    }
}

#if defined(MK_HAVE_SSE2)
#include "normalize_sse2.h"

static inline __m128 wsum4(const float *a, const float *b, const float *c, const float *d,
                           size_t at, __m128 w0, __m128 w1, __m128 w2, __m128 w3);

/* The same sums, 4 vertices (12 floats) a step; the tail goes to the
 * scalar reference. */
static void sum4_positions_sse2(float *out, const float *a, const float *b, const float *c,
                                const float *d, const float *w, size_t count)
{
    const __m128 w0 = _mm_set1_ps(w[0]), w1 = _mm_set1_ps(w[1]);
    const __m128 w2 = _mm_set1_ps(w[2]), w3 = _mm_set1_ps(w[3]);
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        const size_t j = 3 * i;
        _mm_storeu_ps(out + j, wsum4(a, b, c, d, j, w0, w1, w2, w3));
        _mm_storeu_ps(out + j + 4, wsum4(a, b, c, d, j + 4, w0, w1, w2, w3));
        _mm_storeu_ps(out + j + 8, wsum4(a, b, c, d, j + 8, w0, w1, w2, w3));
    }
    sum4_positions(out + 3 * i, a + 3 * i, b + 3 * i, c + 3 * i, d + 3 * i, w, count - i);
}

static inline __m128 wsum4(const float *a, const float *b, const float *c, const float *d,
                           size_t at, __m128 w0, __m128 w1, __m128 w2, __m128 w3)
{
    __m128 r = _mm_add_ps(_mm_mul_ps(w0, _mm_loadu_ps(a + at)), _mm_mul_ps(w1, _mm_loadu_ps(b + at)));
    r = _mm_add_ps(r, _mm_mul_ps(w2, _mm_loadu_ps(c + at)));
    return _mm_add_ps(r, _mm_mul_ps(w3, _mm_loadu_ps(d + at)));
}

/* 4 vertices (12 floats, 3 registers r0 = x0 y0 z0 x1, r1 = y1 z1 x2 y2,
 * r2 = z2 x3 y3 z3) per step: the squared components are transposed to
 * per-vertex lanes, summed, and the inverse lengths broadcast back. */
static void sum4_normals_sse2(float *out, const float *a, const float *b, const float *c,
                              const float *d, const float *w, size_t count)
{
    const __m128 w0 = _mm_set1_ps(w[0]), w1 = _mm_set1_ps(w[1]);
    const __m128 w2 = _mm_set1_ps(w[2]), w3 = _mm_set1_ps(w[3]);
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        const size_t j = 3 * i;
        __m128 r0 = wsum4(a, b, c, d, j, w0, w1, w2, w3);
        __m128 r1 = wsum4(a, b, c, d, j + 4, w0, w1, w2, w3);
        __m128 r2 = wsum4(a, b, c, d, j + 8, w0, w1, w2, w3);
        mk_normalize4_store_sse2(out + j, r0, r1, r2);
    }
    sum4_normals(out + 3 * i, a + 3 * i, b + 3 * i, c + 3 * i, d + 3 * i, w, count - i);
}
#define SUM4_POSITIONS sum4_positions_sse2
#define SUM4_NORMALS sum4_normals_sse2
#else
#define SUM4_POSITIONS sum4_positions
#define SUM4_NORMALS sum4_normals
#endif

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
    SUM4_POSITIONS(out, f[0], f[1], f[2], f[3], w, count);
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
    SUM4_NORMALS(out, f[0], f[1], f[2], f[3], w, count);
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
