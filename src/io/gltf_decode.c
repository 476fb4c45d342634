/* glTF reader: decoding accessor data to float / uint32 (dense, strided,
 * sparse, quantized). Ranges were checked when the accessor was parsed. */
#include <string.h>

#include "gltf_internal.h"

const uint8_t *mk_gltf_accessor_base(const mk_gltf *g, const mk_gltf_accessor *a)
{
    if (a->buffer_view == MK_NONE)
        return NULL;
    const mk_gltf_buffer_view *v = &g->buffer_views[a->buffer_view];
    return v->data + a->byte_offset;
}

/* Normalized integers map to [-1, 1] or [0, 1] (glTF 2.0 §3.11, table of
 * "normalized integer to float" conversions): signed values use
 * max(c / (2^(n-1) - 1), -1), unsigned c / (2^n - 1). */
/* A signed normalized value: c / max, clamped at -1 (the most negative code). */
static float snorm(float c, float max)
{
    float f = c / max;
    return f < -1.0f ? -1.0f : f;
}

float mk_gltf_read_component(const uint8_t *p, mk_gltf_component_type type, bool normalized)
{
    switch (type) {
    case MK_GLTF_BYTE: {
        int8_t v;
        memcpy(&v, p, 1);
        return normalized ? snorm((float)v, 127.0f) : (float)v;
    }
    case MK_GLTF_UNSIGNED_BYTE:
        return normalized ? (float)p[0] / 255.0f : (float)p[0];
    case MK_GLTF_SHORT: {
        int16_t v;
        memcpy(&v, p, 2);
        return normalized ? snorm((float)v, 32767.0f) : (float)v;
    }
    case MK_GLTF_UNSIGNED_SHORT: {
        uint16_t v;
        memcpy(&v, p, 2);
        return normalized ? (float)v / 65535.0f : (float)v;
    }
    case MK_GLTF_UNSIGNED_INT: {
        uint32_t v;
        memcpy(&v, p, 4);
        return (float)v;
    }
    case MK_GLTF_FLOAT: {
        float v;
        memcpy(&v, p, 4);
        return v;
    }
    }
    return 0.0f;
}

uint32_t mk_gltf_read_uindex(const uint8_t *p, mk_gltf_component_type type)
{
    if (type == MK_GLTF_UNSIGNED_BYTE)
        return p[0];
    if (type == MK_GLTF_UNSIGNED_SHORT) {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

void mk_gltf_read_uindices(const uint8_t *p, size_t stride, mk_gltf_component_type type,
                           uint32_t n, uint32_t *out)
{
    /* one loop per type: a test per element would cost more than the read */
    if (type == MK_GLTF_UNSIGNED_BYTE) {
        for (uint32_t i = 0; i < n; i++)
            out[i] = p[(size_t)i * stride];
    } else if (type == MK_GLTF_UNSIGNED_SHORT) {
        for (uint32_t i = 0; i < n; i++) {
            uint16_t v;
            memcpy(&v, p + (size_t)i * stride, 2);
            out[i] = v;
        }
    } else {
        for (uint32_t i = 0; i < n; i++)
            memcpy(&out[i], p + (size_t)i * stride, 4);
    }
}

/* Decodes one element at p into out (components floats), honouring the
 * matrix column padding of §3.6.2.4. */
static void decode_element(const mk_gltf_accessor *a, const uint8_t *p, float *out)
{
    uint32_t csize = mk_gltf_component_size(a->component_type);
    uint32_t rows = a->components, colstride = 0;
    if (a->type >= MK_GLTF_MAT2) {
        rows = a->type == MK_GLTF_MAT2 ? 2 : a->type == MK_GLTF_MAT3 ? 3 : 4;
        colstride = (rows * csize + 3) / 4 * 4;
    }
    for (uint32_t j = 0; j < a->components; j++) {
        size_t off = (size_t)(j / rows) * colstride + (size_t)(j % rows) * csize;
        out[j] = mk_gltf_read_component(p + off, a->component_type, a->normalized);
    }
}

static const uint8_t *view_data(const mk_gltf *g, uint32_t view, size_t offset)
{
    const mk_gltf_buffer_view *v = &g->buffer_views[view];
    return v->data + offset;
}

mk_status mk_gltf_accessor_read_float(const mk_gltf *g, uint32_t accessor, float *out,
                                      size_t out_count, mk_error *err)
{
    if (accessor >= g->accessor_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, g->path, 0,
                            "accessor %u out of range (%u accessors)", accessor, g->accessor_count);
    const mk_gltf_accessor *a = &g->accessors[accessor];
    size_t n = (size_t)a->count * a->components;
    if (out_count < n)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, g->path, 0,
                            "accessors[%u]: output holds %zu floats, %zu needed", accessor,
                            out_count, n);
    const uint8_t *base = mk_gltf_accessor_base(g, a);
    if (!base) {
        memset(out, 0, n * sizeof(float)); /* §3.6.2.3: no bufferView reads as zeros */
    } else if (a->component_type == MK_GLTF_FLOAT && a->stride == a->element_size) {
        memcpy(out, base, n * sizeof(float));
    } else {
        for (uint32_t i = 0; i < a->count; i++)
            decode_element(a, base + (size_t)i * a->stride, out + (size_t)i * a->components);
    }
    const mk_gltf_accessor_sparse *s = &a->sparse;
    if (s->count) {
        const uint8_t *ind = view_data(g, s->indices_buffer_view, s->indices_byte_offset);
        const uint8_t *val = view_data(g, s->values_buffer_view, s->values_byte_offset);
        uint32_t isize = mk_gltf_component_size(s->indices_component_type);
        for (uint32_t e = 0; e < s->count; e++) {
            uint32_t idx = mk_gltf_read_uindex(ind + (size_t)e * isize, s->indices_component_type);
            decode_element(a, val + (size_t)e * a->element_size, out + (size_t)idx * a->components);
        }
    }
    return MK_OK;
}

mk_status mk_gltf_accessor_read_index(const mk_gltf *g, uint32_t accessor, uint32_t *out,
                                      size_t out_count, mk_error *err)
{
    if (accessor >= g->accessor_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, g->path, 0,
                            "accessor %u out of range (%u accessors)", accessor, g->accessor_count);
    const mk_gltf_accessor *a = &g->accessors[accessor];
    if (a->type != MK_GLTF_SCALAR ||
        (a->component_type != MK_GLTF_UNSIGNED_BYTE &&
         a->component_type != MK_GLTF_UNSIGNED_SHORT && a->component_type != MK_GLTF_UNSIGNED_INT))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, g->path, 0,
                            "accessors[%u]: not an unsigned integer SCALAR accessor", accessor);
    if (out_count < a->count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, g->path, 0,
                            "accessors[%u]: output holds %zu values, %u needed", accessor,
                            out_count, a->count);
    const uint8_t *base = mk_gltf_accessor_base(g, a);
    if (!base)
        memset(out, 0, (size_t)a->count * sizeof(uint32_t));
    else
        mk_gltf_read_uindices(base, a->stride, a->component_type, a->count, out);
    const mk_gltf_accessor_sparse *s = &a->sparse;
    if (s->count) {
        const uint8_t *ind = view_data(g, s->indices_buffer_view, s->indices_byte_offset);
        const uint8_t *val = view_data(g, s->values_buffer_view, s->values_byte_offset);
        uint32_t isize = mk_gltf_component_size(s->indices_component_type);
        for (uint32_t e = 0; e < s->count; e++) {
            uint32_t idx = mk_gltf_read_uindex(ind + (size_t)e * isize, s->indices_component_type);
            out[idx] = mk_gltf_read_uindex(val + (size_t)e * a->element_size, a->component_type);
        }
    }
    return MK_OK;
}

const float *mk_gltf_accessor_float_data(const mk_gltf *g, uint32_t accessor)
{
    if (accessor >= g->accessor_count)
        return NULL;
    const mk_gltf_accessor *a = &g->accessors[accessor];
    const uint8_t *base = mk_gltf_accessor_base(g, a);
    if (!base || a->sparse.count || a->component_type != MK_GLTF_FLOAT ||
        a->stride != a->element_size || ((uintptr_t)base & 3u) != 0)
        return NULL;
    return (const float *)(const void *)base;
}
