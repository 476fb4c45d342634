/* Quantized frame sets: one allocation like frame_set.c, the quantizer
 * (the offline step) and the checked blend entry points over the kernel
 * table (kernels.h). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "internal.h"
#include "kernels.h"
#include "morphkit/qframe_set.h"

typedef struct layout {
    size_t total, positions, normals, texcoords, indices;
} layout;

static bool plan(const mk_frame_set_desc *d, layout *l)
{
    size_t fv;
    memset(l, 0, sizeof *l);
    l->total = sizeof(mk_qframe_set);
    if (!mk_size_mul(d->frame_count, d->vertex_count, &fv) ||
        !mk_layout_add(&l->total, fv, 6, &l->positions))
        return false;
    if (d->has_normals && !mk_layout_add(&l->total, fv, 4, &l->normals))
        return false;
    if (d->has_texcoords && !mk_layout_add(&l->total, d->vertex_count, 8, &l->texcoords))
        return false;
    return mk_layout_add(&l->total, d->index_count, 4, &l->indices);
}

size_t mk_qframe_set_byte_size(const mk_frame_set_desc *desc)
{
    layout l;
    return desc && plan(desc, &l) ? l.total : 0;
}

mk_status mk_qframe_set_create(const mk_frame_set_desc *d, const mk_allocator *allocator,
                               mk_qframe_set **out, mk_error *err)
{
    if (!out || !d)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "quantized frame set: NULL description or output");
    *out = NULL;
    if (d->frame_count == 0 || d->vertex_count == 0 || d->index_count % 3 != 0)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "quantized frame set needs frames and vertices and whole triangles "
                            "(%u frames, %u vertices, %u indices)",
                            d->frame_count, d->vertex_count, d->index_count);
    layout l;
    if (!plan(d, &l))
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0, "quantized frame set size overflows");
    unsigned char *block = mk_alloc(allocator, l.total);
    if (!block)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0,
                            "out of memory for a quantized frame set of %zu bytes", l.total);
    memset(block, 0, l.total);
    mk_qframe_set *s = (mk_qframe_set *)block;
    s->frame_count = d->frame_count;
    s->vertex_count = d->vertex_count;
    s->index_count = d->index_count;
    s->positions = (uint16_t *)(block + l.positions);
    s->normals = d->has_normals ? (int16_t *)(block + l.normals) : NULL;
    s->texcoords = d->has_texcoords ? (float *)(block + l.texcoords) : NULL;
    s->indices = (uint32_t *)(block + l.indices);
    s->allocator = mk_allocator_copy(allocator);
    s->byte_size = l.total;
    *out = s;
    return MK_OK;
}

void mk_qframe_set_destroy(mk_qframe_set *s)
{
    if (s) {
        mk_allocator a = s->allocator;
        mk_free(&a, s, s->byte_size);
    }
}

static int16_t snorm16(float v)
{
    v = v < -1.0f ? -1.0f : v > 1.0f ? 1.0f : v;
    return (int16_t)lrintf(v * 32767.0f);
}

void mk_octahedral_encode(const float n[3], int16_t out[2])
{
    float l1 = fabsf(n[0]) + fabsf(n[1]) + fabsf(n[2]);
    if (!(l1 > 0.0f)) { /* zero (or NaN): +z */
        out[0] = out[1] = 0;
        return;
    }
    float u = n[0] / l1, v = n[1] / l1;
    if (n[2] < 0.0f) { /* fold the lower half over the diagonals */
        float fu = (1.0f - fabsf(v)) * (u < 0.0f ? -1.0f : 1.0f);
        float fv = (1.0f - fabsf(u)) * (v < 0.0f ? -1.0f : 1.0f);
        u = fu;
        v = fv;
    }
    out[0] = snorm16(u);
    out[1] = snorm16(v);
}

void mk_octahedral_decode(const int16_t q[2], float out[3])
{
    /* the reference kernel at w = 0 decodes with the same operations */
    mk_qblend_normals_scalar(out, q, q, 0.0f, 1);
}

mk_status mk_qframe_set_quantize(const mk_frame_set *src, const mk_allocator *allocator,
                                 mk_qframe_set **out, mk_error *err)
{
    if (!src || !out)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "quantize: NULL frame set or output");
    *out = NULL;
    const size_t n = (size_t)src->frame_count * src->vertex_count;
    float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            float p = src->positions[3 * i + c];
            if (!isfinite(p))
                return mk_error_set(err, MK_ERR_RANGE, NULL, 0,
                                    "quantize: position value %zu is not finite", 3 * i + c);
            lo[c] = p < lo[c] ? p : lo[c];
            hi[c] = p > hi[c] ? p : hi[c];
        }
    float scale[3];
    for (int c = 0; c < 3; c++) {
        scale[c] = (hi[c] - lo[c]) / 65535.0f;
        if (!isfinite(scale[c]))
            return mk_error_set(err, MK_ERR_RANGE, NULL, 0,
                                "quantize: axis %d spans more than a float holds", c);
    }
    mk_frame_set_desc d = {src->frame_count, src->vertex_count, src->index_count,
                           src->normals != NULL, src->texcoords != NULL};
    mk_qframe_set *q;
    mk_status st = mk_qframe_set_create(&d, allocator, &q, err);
    if (st != MK_OK)
        return st;
    for (int c = 0; c < 3; c++) {
        q->position_scale[c] = scale[c];
        q->position_offset[c] = lo[c];
    }
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            float t = scale[c] > 0.0f ? (src->positions[3 * i + c] - lo[c]) / scale[c] : 0.0f;
            t = t < 0.0f ? 0.0f : t > 65535.0f ? 65535.0f : t;
            q->positions[3 * i + c] = (uint16_t)lrintf(t);
        }
    if (src->normals)
        for (size_t i = 0; i < n; i++)
            mk_octahedral_encode(src->normals + 3 * i, q->normals + 2 * i);
    if (src->texcoords)
        memcpy(q->texcoords, src->texcoords, (size_t)src->vertex_count * 2 * sizeof(float));
    memcpy(q->indices, src->indices, (size_t)src->index_count * sizeof(uint32_t));
    *out = q;
    return MK_OK;
}

mk_status mk_blend_qframes_range(const mk_qframe_set *set, uint32_t fa, uint32_t fb, float w,
                                 uint32_t begin, uint32_t end, float *out_positions,
                                 float *out_normals, size_t out_capacity, mk_error *err)
{
    if (!set || !out_positions)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "blend quantized frames: NULL frame set or output");
    if (fa >= set->frame_count || fb >= set->frame_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "blend quantized frames: frame %u or %u is not below the frame "
                            "count %u",
                            fa, fb, set->frame_count);
    if (!isfinite(w))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "blend quantized frames: the weight is NaN or infinite");
    if (out_capacity < set->vertex_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "blend quantized frames: output holds %zu vertices, the set has %u",
                            out_capacity, set->vertex_count);
    if (begin > end || end > set->vertex_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "blend quantized frames: range [%u, %u) is not within [0, %u)",
                            begin, end, set->vertex_count);
    const mk_kernels *k = mk_kernels_active();
    const size_t vc = set->vertex_count, n = end - begin;
    k->qblend_positions(out_positions + 3 * (size_t)begin,
                        set->positions + (fa * vc + begin) * 3,
                        set->positions + (fb * vc + begin) * 3, w, set->position_scale,
                        set->position_offset, n);
    if (set->normals && out_normals)
        k->qblend_normals(out_normals + 3 * (size_t)begin, set->normals + (fa * vc + begin) * 2,
                          set->normals + (fb * vc + begin) * 2, w, n);
    return MK_OK;
}

mk_status mk_blend_qframes(const mk_qframe_set *set, uint32_t fa, uint32_t fb, float w,
                           float *out_positions, float *out_normals, size_t out_capacity,
                           mk_error *err)
{
    return mk_blend_qframes_range(set, fa, fb, w, 0, set ? set->vertex_count : 0, out_positions,
                                  out_normals, out_capacity, err);
}
