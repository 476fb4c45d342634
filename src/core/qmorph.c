/* Quantized morph sets (see morphkit/qmorph.h): the quantizer and the
 * evaluation, in blocks like morph.c, over the qmadd kernel (kernels.h). */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "kernels.h"
#include "morphkit/qmorph.h"

/* Walks the layout of the one block; when set is not NULL, also points its
 * arrays into block. */
static bool layout(const mk_morph_set *src, size_t *total, mk_qmorph_set *set, uint8_t *block)
{
    size_t t = sizeof(mk_qmorph_set), vc = src->vertex_count, off;
    size_t o_targets, o_weights, o_pos, o_nrm = 0;
    if (!mk_layout_add(&t, src->target_count, sizeof(mk_qmorph_target), &o_targets) ||
        !mk_layout_add(&t, src->target_count, sizeof(float), &o_weights) ||
        !mk_layout_add(&t, vc, 3 * sizeof(float), &o_pos) ||
        (src->base_normals && !mk_layout_add(&t, vc, 3 * sizeof(float), &o_nrm)))
        return false;
    if (set) {
        set->targets = (mk_qmorph_target *)(block + o_targets);
        set->default_weights = (float *)(block + o_weights);
        set->base_positions = (float *)(block + o_pos);
        set->base_normals = src->base_normals ? (float *)(block + o_nrm) : NULL;
    }
    for (uint32_t i = 0; i < src->target_count; i++)
        for (int a = 0; a < 2; a++) {
            const mk_morph_delta *d = &src->targets[i].delta[a];
            if (!d->entry_count)
                continue;
            if (d->indices) {
                if (!mk_layout_add(&t, d->entry_count, sizeof(uint32_t), &off))
                    return false;
                if (set)
                    set->targets[i].delta[a].indices = (uint32_t *)(block + off);
            }
            if (!mk_layout_add(&t, d->entry_count, 3 * sizeof(int16_t), &off))
                return false;
            if (set) {
                set->targets[i].delta[a].entry_count = d->entry_count;
                set->targets[i].delta[a].values = (int16_t *)(block + off);
            }
        }
    *total = t;
    return true;
}

mk_status mk_qmorph_set_quantize(const mk_morph_set *src, const mk_allocator *allocator,
                                 mk_qmorph_set **out, mk_error *err)
{
    if (!src || !out)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "quantize morph set: NULL set or output");
    *out = NULL;
    float largest[2] = {0.0f, 0.0f};
    for (uint32_t i = 0; i < src->target_count; i++) {
        if (src->targets[i].delta[MK_MORPH_TANGENT].entry_count)
            return mk_error_set(err, MK_ERR_UNSUPPORTED, NULL, 0,
                                "quantize morph set: target %u moves tangents, which stay float",
                                i);
        for (int a = 0; a < 2; a++) {
            const mk_morph_delta *d = &src->targets[i].delta[a];
            for (size_t k = 0; k < (size_t)d->entry_count * 3; k++) {
                if (!isfinite(d->values[k]))
                    return mk_error_set(err, MK_ERR_RANGE, NULL, 0,
                                        "quantize morph set: target %u has a non-finite delta",
                                        i);
                largest[a] = fmaxf(largest[a], fabsf(d->values[k]));
            }
        }
    }
    size_t total;
    if (!layout(src, &total, NULL, NULL))
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0, "quantize morph set: size overflows");
    uint8_t *block = mk_alloc(allocator, total);
    if (!block)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0,
                            "quantize morph set: out of memory (%zu bytes)", total);
    memset(block, 0, total);
    mk_qmorph_set *q = (mk_qmorph_set *)block;
    q->vertex_count = src->vertex_count;
    q->target_count = src->target_count;
    q->allocator = mk_allocator_copy(allocator);
    q->byte_size = total;
    layout(src, &total, q, block);
    size_t vc = src->vertex_count;
    memcpy(q->base_positions, src->base_positions, vc * 3 * sizeof(float));
    if (src->base_normals)
        memcpy(q->base_normals, src->base_normals, vc * 3 * sizeof(float));
    memcpy(q->default_weights, src->default_weights, src->target_count * sizeof(float));
    for (int a = 0; a < 2; a++)
        q->delta_scale[a] = largest[a] / 32767.0f;
    for (uint32_t i = 0; i < src->target_count; i++)
        for (int a = 0; a < 2; a++) {
            const mk_morph_delta *d = &src->targets[i].delta[a];
            mk_qmorph_delta *qd = &q->targets[i].delta[a];
            if (d->indices)
                memcpy(qd->indices, d->indices, d->entry_count * sizeof(uint32_t));
            for (size_t k = 0; k < (size_t)d->entry_count * 3; k++) {
                float t = q->delta_scale[a] > 0.0f ? d->values[k] / q->delta_scale[a] : 0.0f;
                t = t < -32767.0f ? -32767.0f : t > 32767.0f ? 32767.0f : t;
                qd->values[k] = (int16_t)lrintf(t);
            }
        }
    *out = q;
    return MK_OK;
}

void mk_qmorph_set_destroy(mk_qmorph_set *set)
{
    if (set) {
        mk_allocator a = set->allocator;
        mk_free(&a, set, set->byte_size);
    }
}

/* First entry of a sparse delta whose vertex index is >= v. */
static size_t lower_entry(const mk_qmorph_delta *d, uint32_t v)
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

/* One attribute for vertices [v0, v1) (out and base are whole arrays):
 * base plus the active deltas in target order, dense runs fused up to 4 at
 * a time by the kernel. */
static void accumulate(const mk_qmorph_set *set, int a, const float *base, const float *weights,
                       float *out, uint32_t v0, uint32_t v1)
{
    const mk_kernels *kern = mk_kernels_active();
    const size_t at = (size_t)v0 * 3, n = (size_t)(v1 - v0) * 3;
    const int16_t *dense[4];
    float c[4];
    uint32_t k = 0;
    const float *src = base + at;
    for (uint32_t i = 0; i < set->target_count; i++) {
        const mk_qmorph_delta *d = &set->targets[i].delta[a];
        if (weights[i] == 0.0f || !d->entry_count)
            continue;
        const float ci = weights[i] * set->delta_scale[a];
        if (!d->indices) {
            dense[k] = d->values + at;
            c[k++] = ci;
            if (k < 4)
                continue;
        }
        if (k) {
            kern->qmadd(out + at, src, dense, c, k, n);
            src = out + at;
            k = 0;
        }
        if (d->indices) {
            if (src != out + at)
                memcpy(out + at, src, n * sizeof(float));
            src = out + at;
            for (size_t e = lower_entry(d, v0); e < d->entry_count && d->indices[e] < v1; e++) {
                float *o = out + (size_t)d->indices[e] * 3;
                const int16_t *q = d->values + 3 * e;
                o[0] = o[0] + ci * (float)q[0];
                o[1] = o[1] + ci * (float)q[1];
                o[2] = o[2] + ci * (float)q[2];
            }
        }
    }
    if (k)
        kern->qmadd(out + at, src, dense, c, k, n);
    else if (src != out + at)
        memcpy(out + at, src, n * sizeof(float));
}

mk_status mk_qmorph_evaluate(const mk_qmorph_set *set, const float *weights,
                             float *out_positions, float *out_normals, size_t out_capacity,
                             mk_error *err)
{
    if (!set || !out_positions)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "quantized morph evaluate: NULL set or output");
    if (!weights)
        weights = set->default_weights;
    if (out_capacity < set->vertex_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "quantized morph evaluate: output holds %zu vertices, the set has %u",
                            out_capacity, set->vertex_count);
    for (uint32_t i = 0; i < set->target_count; i++)
        if (!isfinite(weights[i]))
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "quantized morph evaluate: weight %u is NaN or infinite", i);
    float *nrm = set->base_normals ? out_normals : NULL;
    const uint32_t vc = set->vertex_count, block = 1024;
    for (uint32_t v0 = 0; v0 < vc; v0 += block) {
        uint32_t v1 = vc - v0 < block ? vc : v0 + block;
        accumulate(set, MK_MORPH_POSITION, set->base_positions, weights, out_positions, v0, v1);
        if (nrm) {
            accumulate(set, MK_MORPH_NORMAL, set->base_normals, weights, nrm, v0, v1);
            float *p = nrm + (size_t)v0 * 3; /* re-normalized while in L1 */
            mk_kernels_active()->blend_normals(p, p, p, 0.0f, v1 - v0);
        }
    }
    return MK_OK;
}
