/* Morph target sets and their evaluation (see morphkit/morph.h). */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "kernels.h"
#include "morphkit/blend.h"
#include "morphkit/morph.h"

static bool desc_ok(const mk_morph_set_desc *d)
{
    if (!d || d->vertex_count == 0)
        return false;
    if (!d->entry_counts)
        return true;
    for (size_t i = 0; i < (size_t)d->target_count * MK_MORPH_ATTRIBUTE_COUNT; i++) {
        uint32_t n = d->entry_counts[i];
        int attr = (int)(i % MK_MORPH_ATTRIBUTE_COUNT);
        if (n != MK_MORPH_DENSE && n > d->vertex_count)
            return false;
        if (n && ((attr == MK_MORPH_NORMAL && !d->has_normals) ||
                  (attr == MK_MORPH_TANGENT && !d->has_tangents)))
            return false;
    }
    return true;
}

/* Lays out the one block (see mk_block); in the filling pass also points
 * the set's arrays into it. */
static void layout(const mk_morph_set_desc *d, mk_block *b)
{
    mk_morph_set *set = (mk_morph_set *)b->base; /* NULL while sizing */
    size_t vc = d->vertex_count;
    mk_morph_target *targets = mk_block_take(b, d->target_count, sizeof(mk_morph_target));
    float *weights = mk_block_take(b, d->target_count, sizeof(float));
    float *pos = mk_block_take(b, vc, 3 * sizeof(float));
    float *nrm = mk_block_take(b, d->has_normals ? vc : 0, 3 * sizeof(float));
    float *tan = mk_block_take(b, d->has_tangents ? vc : 0, 4 * sizeof(float));
    if (set) {
        set->targets = targets;
        set->default_weights = weights;
        set->base_positions = pos;
        set->base_normals = d->has_normals ? nrm : NULL;
        set->base_tangents = d->has_tangents ? tan : NULL;
    }
    for (size_t i = 0; d->entry_counts && i < (size_t)d->target_count * MK_MORPH_ATTRIBUTE_COUNT;
         i++) {
        uint32_t n = d->entry_counts[i];
        if (n == 0)
            continue;
        bool dense = n == MK_MORPH_DENSE;
        size_t entries = dense ? vc : n;
        uint32_t *idx = dense ? NULL : mk_block_take(b, entries, sizeof(uint32_t));
        float *val = mk_block_take(b, entries, 3 * sizeof(float));
        if (set) {
            mk_morph_delta *dl =
                &set->targets[i / MK_MORPH_ATTRIBUTE_COUNT].delta[i % MK_MORPH_ATTRIBUTE_COUNT];
            dl->entry_count = (uint32_t)entries;
            dl->indices = idx;
            dl->values = val;
        }
    }
}

size_t mk_morph_set_byte_size(const mk_morph_set_desc *desc)
{
    if (!desc_ok(desc))
        return 0;
    mk_block b;
    mk_block_begin(&b, sizeof(mk_morph_set));
    layout(desc, &b);
    return mk_block_size(&b);
}

mk_status mk_morph_set_create(const mk_morph_set_desc *desc, const mk_allocator *allocator,
                              mk_morph_set **out, mk_error *err)
{
    *out = NULL;
    if (!desc_ok(desc))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "morph set: zero vertices, an entry count above the vertex count, or "
                            "a NORMAL/TANGENT delta without that base attribute");
    mk_block b;
    mk_block_begin(&b, sizeof(mk_morph_set));
    layout(desc, &b);
    void *block;
    mk_status st = mk_block_alloc(&b, allocator, "morph set", &block, err);
    if (st != MK_OK)
        return st;
    mk_morph_set *set = block;
    set->vertex_count = desc->vertex_count;
    set->target_count = desc->target_count;
    set->allocator = mk_allocator_copy(allocator);
    layout(desc, &b);
    set->byte_size = mk_block_size(&b);
    *out = set;
    return MK_OK;
}

void mk_morph_set_destroy(mk_morph_set *set)
{
    if (!set)
        return;
    mk_allocator a = set->allocator;
    mk_free(&a, set, set->byte_size);
}

static bool all_finite(const float *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(p[i]))
            return false;
    return true;
}

mk_status mk_morph_set_validate(const mk_morph_set *set, mk_error *err)
{
    static const char *const names[] = {"POSITION", "NORMAL", "TANGENT"};
    if (!set)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "morph set: NULL set");
    size_t vc = set->vertex_count;
    if (!all_finite(set->base_positions, vc * 3) ||
        (set->base_normals && !all_finite(set->base_normals, vc * 3)) ||
        (set->base_tangents && !all_finite(set->base_tangents, vc * 4)) ||
        !all_finite(set->default_weights, set->target_count))
        return mk_error_set(err, MK_ERR_RANGE, NULL, 0,
                            "base attributes or default weights hold NaN or infinity");
    for (uint32_t t = 0; t < set->target_count; t++) {
        for (int a = 0; a < MK_MORPH_ATTRIBUTE_COUNT; a++) {
            const mk_morph_delta *d = &set->targets[t].delta[a];
            if (!all_finite(d->values, (size_t)d->entry_count * 3))
                return mk_error_set(err, MK_ERR_RANGE, NULL, 0,
                                    "targets[%u].%s: a delta is NaN or infinite", t, names[a]);
            for (uint32_t e = 0; d->indices && e < d->entry_count; e++) {
                if (d->indices[e] >= set->vertex_count ||
                    (e > 0 && d->indices[e] <= d->indices[e - 1]))
                    return mk_error_set(err, MK_ERR_RANGE, NULL, 0,
                                        "targets[%u].%s: sparse index %u at entry %u is out of "
                                        "range or not increasing",
                                        t, names[a], d->indices[e], e);
            }
        }
    }
    return MK_OK;
}

/* Re-normalizes xyz of each vertex; (0 0 0) below 1e-12, as blend.h does.
 * Packed float3 goes through the blend kernel (in place, w = 0: the same
 * SIMD normalization); tangents (stride 4) take the plain loop. */
static void normalize3(float *p, size_t count, size_t stride)
{
    if (stride == 3) {
        mk_blend_normals(p, p, p, 0.0f, count);
        return;
    }
    for (size_t i = 0; i < count; i++, p += stride) {
        float len2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
        if (len2 < MK_NORMAL_MIN_LENGTH2) {
            p[0] = p[1] = p[2] = 0.0f;
            continue;
        }
        float inv = 1.0f / sqrtf(len2);
        p[0] *= inv;
        p[1] *= inv;
        p[2] *= inv;
    }
}

/* out = src + sum of k (1..4) weighted dense float3 streams, one pass over
 * n floats, through the kernel table (kernels.h: mk_madd_fn). Fusing the
 * targets reads each output once instead of once per target; the sum is
 * evaluated left to right, so it rounds exactly like k separate
 * `out += w * delta` passes in the same order (the sparse path): that is
 * what makes dense and sparse storage agree. */
static void fused_sum(float *out, const float *src, const float *const *d, const float *w,
                      uint32_t k, size_t n)
{
    mk_kernels_active()->madd(out, src, d, w, k, n);
}

/* First entry of a sparse delta whose vertex index is >= v (indices
 * strictly increase: validated). */
static size_t lower_entry(const mk_morph_delta *d, uint32_t v)
{
    size_t lo = 0, hi = d->entry_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->indices[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* out (vertex v0 at out[0], stride floats a vertex) += w * the sparse
 * entries of d whose vertices lie in [v0, v1). */
static void add_sparse_range(float *restrict out, size_t stride, const mk_morph_delta *d,
                             float w, uint32_t v0, uint32_t v1)
{
    const float *restrict v = d->values;
    for (size_t e = lower_entry(d, v0); e < d->entry_count && d->indices[e] < v1; e++) {
        float *o = out + (size_t)(d->indices[e] - v0) * stride;
        o[0] += w * v[3 * e];
        o[1] += w * v[3 * e + 1];
        o[2] += w * v[3 * e + 2];
    }
}

/* One packed float3 attribute (positions or normals) for vertices
 * [v0, v1): base plus every active target's delta in the order given
 * (base is the whole array, out points at vertex v0). Runs of dense deltas are fused up to
 * 4 at a time; a sparse delta first flushes the run, so every vertex sees
 * its additions in target order whatever the storage. */
static void accumulate3(const mk_morph_set *set, int attribute, const float *base,
                        const uint32_t *targets, const float *weights, size_t count, float *out,
                        uint32_t v0, uint32_t v1)
{
    const size_t at = (size_t)v0 * 3, n = (size_t)(v1 - v0) * 3;
    const float *dense[4];
    float dw[4];
    uint32_t k = 0;
    bool started = false; /* out holds base plus what was added so far */
    base += at;
    for (size_t i = 0; i < count; i++) {
        float w = weights[i];
        if (w == 0.0f)
            continue; /* inactive targets cost nothing */
        uint32_t t = targets ? targets[i] : (uint32_t)i;
        const mk_morph_delta *d = &set->targets[t].delta[attribute];
        if (!d->entry_count)
            continue; /* absent */
        if (!d->indices) {
            dense[k] = d->values + at;
            dw[k++] = w;
            if (k < 4)
                continue;
        }
        if (k) {
            fused_sum(out, started ? out : base, dense, dw, k, n);
            started = true;
            k = 0;
        }
        if (d->indices) {
            if (!started)
                memcpy(out, base, n * sizeof(float));
            started = true;
            add_sparse_range(out, 3, d, w, v0, v1);
        }
    }
    if (k)
        fused_sum(out, started ? out : base, dense, dw, k, n);
    else if (!started)
        memcpy(out, base, n * sizeof(float));
}

/* Tangents of vertices [v0, v1) (tan points at vertex v0): base, every
 * active target's delta in order, re-normalized xyz; w (handedness) is
 * left as the base had it. */
static void tangents_range(const mk_morph_set *set, const uint32_t *targets,
                           const float *weights, size_t count, uint32_t v0, uint32_t v1,
                           float *restrict tan)
{
    memcpy(tan, set->base_tangents + (size_t)v0 * 4, (size_t)(v1 - v0) * 4 * sizeof(float));
    for (size_t i = 0; i < count; i++) {
        float w = weights[i];
        if (w == 0.0f)
            continue;
        uint32_t t = targets ? targets[i] : (uint32_t)i;
        const mk_morph_delta *d = &set->targets[t].delta[MK_MORPH_TANGENT];
        if (!d->entry_count)
            continue;
        if (d->indices) {
            add_sparse_range(tan, 4, d, w, v0, v1);
            continue;
        }
        const float *restrict v = d->values + (size_t)v0 * 3;
        for (size_t e = 0; e < v1 - v0; e++) {
            float *o = tan + e * 4;
            o[0] += w * v[3 * e];
            o[1] += w * v[3 * e + 1];
            o[2] += w * v[3 * e + 2];
        }
    }
    normalize3(tan, v1 - v0, 4);
}

/* Vertices [v0, v1) of the morph, each output pointing at vertex v0 (NULL:
 * not wanted, or the set lacks that attribute). */
static void evaluate_range(const mk_morph_set *set, const uint32_t *targets,
                           const float *weights, size_t count, uint32_t v0, uint32_t v1,
                           float *pos, float *nrm, float *tan)
{
    accumulate3(set, MK_MORPH_POSITION, set->base_positions, targets, weights, count, pos, v0,
                v1);
    if (nrm) {
        accumulate3(set, MK_MORPH_NORMAL, set->base_normals, targets, weights, count, nrm, v0,
                    v1);
        normalize3(nrm, v1 - v0, 3);
    }
    if (tan)
        tangents_range(set, targets, weights, count, v0, v1, tan);
}

void mk_morph_evaluate_range(const mk_morph_set *set, const float *weights, uint32_t v0,
                             uint32_t v1, float *pos, float *nrm, float *tan)
{
    evaluate_range(set, NULL, weights, set->target_count, v0, v1, pos,
                   set->base_normals ? nrm : NULL, set->base_tangents ? tan : NULL);
}

/* Vertices per block: every attribute is finished block by block, so each
 * normal block is re-normalized while it is still in L1 (12 KB) instead of
 * in a second pass over the whole output. */
#define MORPH_BLOCK 1024u

static void evaluate(const mk_morph_set *set, const uint32_t *targets, const float *weights,
                     size_t count, float *pos, float *nrm, float *tan)
{
    size_t vc = set->vertex_count;
    if (!set->base_normals)
        nrm = NULL;
    if (!set->base_tangents)
        tan = NULL;
    for (uint32_t v0 = 0; v0 < vc; v0 += MORPH_BLOCK) {
        uint32_t v1 = vc - v0 < MORPH_BLOCK ? (uint32_t)vc : v0 + MORPH_BLOCK;
        evaluate_range(set, targets, weights, count, v0, v1, pos + (size_t)v0 * 3,
                       nrm ? nrm + (size_t)v0 * 3 : NULL, tan ? tan + (size_t)v0 * 4 : NULL);
    }
}

/* The once-per-call checks shared by both entry points; nothing is written
 * when they fail. */
static mk_status check_call(const mk_morph_set *set, const uint32_t *targets,
                            const float *weights, size_t count, const float *out_positions,
                            size_t out_capacity, mk_error *err)
{
    if (!set || !out_positions || (count && !weights))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "morph evaluate: NULL set, output or weights");
    if (out_capacity < set->vertex_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "morph evaluate: output holds %zu vertices, the set has %u",
                            out_capacity, set->vertex_count);
    for (size_t i = 0; i < count; i++) {
        if (targets && targets[i] >= set->target_count)
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "morph evaluate: entry %zu names target %u, the set has %u", i,
                                targets[i], set->target_count);
        if (!isfinite(weights[i]))
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "morph evaluate: weight %zu is NaN or infinite", i);
    }
    return MK_OK;
}

mk_status mk_morph_evaluate(const mk_morph_set *set, const float *weights, float *out_positions,
                            float *out_normals, float *out_tangents, size_t out_capacity,
                            mk_error *err)
{
    if (set && !weights)
        weights = set->default_weights;
    mk_status s = check_call(set, NULL, weights, set ? set->target_count : 0, out_positions,
                             out_capacity, err);
    if (s != MK_OK)
        return s;
    evaluate(set, NULL, weights, set->target_count, out_positions, out_normals, out_tangents);
    return MK_OK;
}

mk_status mk_morph_evaluate_pose(const mk_morph_set *set, const uint32_t *targets,
                                 const float *weights, size_t count, float *out_positions,
                                 float *out_normals, float *out_tangents, size_t out_capacity,
                                 mk_error *err)
{
    if (count && !targets)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "morph evaluate: NULL target list");
    mk_status s = check_call(set, targets, weights, count, out_positions, out_capacity, err);
    if (s != MK_OK)
        return s;
    evaluate(set, targets, weights, count, out_positions, out_normals, out_tangents);
    return MK_OK;
}
