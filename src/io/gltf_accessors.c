/* glTF reader: bufferViews (§3.6.1.2) and accessors (§3.6.2), each range
 * checked against what holds it, sparse indices checked against the count. */
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"

static const mk_gltf_json_key type_names[MK_GLTF_TYPE_COUNT] = {
    MK_GLTF_KEY("SCALAR"), MK_GLTF_KEY("VEC2"), MK_GLTF_KEY("VEC3"), MK_GLTF_KEY("VEC4"),
    MK_GLTF_KEY("MAT2"),   MK_GLTF_KEY("MAT3"), MK_GLTF_KEY("MAT4")};

uint32_t mk_gltf_type_components(mk_gltf_type type)
{
    static const uint32_t n[MK_GLTF_TYPE_COUNT] = {1, 2, 3, 4, 4, 9, 16};
    return (unsigned)type < MK_GLTF_TYPE_COUNT ? n[type] : 0;
}

const char *mk_gltf_type_name(mk_gltf_type type)
{
    return (unsigned)type < MK_GLTF_TYPE_COUNT ? type_names[type].s : "?";
}

uint32_t mk_gltf_component_size(mk_gltf_component_type type)
{
    switch (type) {
    case MK_GLTF_BYTE:
    case MK_GLTF_UNSIGNED_BYTE:
        return 1;
    case MK_GLTF_SHORT:
    case MK_GLTF_UNSIGNED_SHORT:
        return 2;
    case MK_GLTF_UNSIGNED_INT:
    case MK_GLTF_FLOAT:
        return 4;
    }
    return 0;
}

mk_status mk_gltf_parse_buffer_views(mk_gltf_ctx *c, const mk_gltf_json_value *root)
{
    const mk_gltf_json_value *arr, *item;
    uint32_t count;
    mk_status s = mk_gltf_json_array(c, root, "bufferViews", NULL, &arr, &count);
    if (s != MK_OK || count == 0)
        return s;
    mk_gltf *g = c->g;
    g->buffer_views =
        (mk_gltf_buffer_view *)mk_gltf_arena_array(c->st, count, sizeof(mk_gltf_buffer_view));
    if (!g->buffer_views)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, MK_GLTF_PATH("bufferViews"), "out of memory");
    g->buffer_view_count = count;
    enum { BUFFER, OFFSET, LENGTH, STRIDE, TARGET, NAME, KEYS };
    static const mk_gltf_json_key keys[KEYS] = {
        MK_GLTF_KEY("buffer"),     MK_GLTF_KEY("byteOffset"), MK_GLTF_KEY("byteLength"),
        MK_GLTF_KEY("byteStride"), MK_GLTF_KEY("target"),     MK_GLTF_KEY("name")};
    mk_gltf_json_key_set set;
    mk_gltf_json_key_set_init(&set, keys, KEYS);
    uint32_t i = 0;
    MK_GLTF_JSON_EACH (c->json, item, arr) {
        const mk_gltf_path path_node = {NULL, "bufferViews", i}, *path = &path_node;
        mk_gltf_buffer_view *v = &g->buffer_views[i++];
        size_t end;
        const mk_gltf_json_value *m[KEYS];
        if ((s = mk_gltf_json_object(c, item, path)) != MK_OK)
            return s;
        mk_gltf_json_pick(c->json, item, &set, m);
        if ((s = mk_gltf_json_index_value(c, m[BUFFER], "buffer", path, true, g->buffer_count,
                                          "buffers", &v->buffer)) != MK_OK ||
            (s = mk_gltf_json_size_value(c, m[OFFSET], "byteOffset", path, false,
                                         &v->byte_offset)) != MK_OK ||
            (s = mk_gltf_json_size_value(c, m[LENGTH], "byteLength", path, true,
                                         &v->byte_length)) != MK_OK ||
            (s = mk_gltf_json_uint_value(c, m[STRIDE], "byteStride", path, false, 0,
                                         &v->byte_stride)) != MK_OK ||
            (s = mk_gltf_json_uint_value(c, m[TARGET], "target", path, false, 0, &v->target)) !=
                MK_OK ||
            (s = mk_gltf_json_string_value(c, m[NAME], "name", path, &v->name)) != MK_OK)
            return s;
        /* §3.6.1.2: byteStride is 4..252 and a multiple of 4 when present. */
        if (v->byte_stride != 0 &&
            (v->byte_stride < 4 || v->byte_stride > 252 || v->byte_stride % 4 != 0))
            return mk_gltf_fail(c, MK_ERR_RANGE, path,
                                "byteStride %u must be a multiple of 4 in 4..252", v->byte_stride);
        const mk_gltf_buffer *b = &g->buffers[v->buffer];
        if (!mk_size_add(v->byte_offset, v->byte_length, &end) || end > b->byte_length)
            return mk_gltf_fail(c, MK_ERR_RANGE, path,
                                "byteOffset %zu + byteLength %zu exceeds buffer %u (%zu bytes)",
                                v->byte_offset, v->byte_length, v->buffer, b->byte_length);
        v->data = b->data ? b->data + v->byte_offset : NULL; /* NULL: a fallback buffer */
    }
    return MK_OK;
}

static mk_status parse_type(mk_gltf_ctx *c, const mk_gltf_json_value *t,
                            const mk_gltf_path *path, mk_gltf_type *out)
{
    if (!mk_gltf_json_is(t, MK_GLTF_JSON_STRING))
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "missing required string 'type'");
    for (int i = 0; i < MK_GLTF_TYPE_COUNT; i++) {
        if (mk_gltf_json_string_is_n(c->json, t, type_names[i].s, type_names[i].n)) {
            *out = (mk_gltf_type)i;
            return MK_OK;
        }
    }
    char name[256];
    mk_gltf_json_string_copy(c->json, t, name, sizeof name);
    return mk_gltf_fail(c, MK_ERR_PARSE, path, "unknown type '%s'", name);
}

static mk_status parse_min_max(mk_gltf_ctx *c, const mk_gltf_json_value *v, const char *key,
                               const mk_gltf_path *path, uint32_t n, double *out, bool *has)
{
    *has = v != NULL;
    if (!v)
        return MK_OK;
    if (!mk_gltf_json_is(v, MK_GLTF_JSON_ARRAY) || v->size != n)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "%s must be an array of %u numbers", key, n);
    uint32_t i = 0;
    const mk_gltf_json_value *e;
    MK_GLTF_JSON_EACH (c->json, e, v) {
        if (e->type != MK_GLTF_JSON_NUMBER)
            return mk_gltf_fail(c, MK_ERR_PARSE, path, "%s[%u] must be a number", key, i);
        out[i++] = mk_gltf_json_double(c->json, e);
    }
    return MK_OK;
}

/* Checks that `count` elements of `elem` bytes, `stride` apart, starting at
 * `offset`, fit in bufferView `view`. */
static mk_status check_range(mk_gltf_ctx *c, const mk_gltf_path *path, const char *what,
                             uint32_t view, size_t offset, size_t stride, size_t elem, size_t count)
{
    const mk_gltf_buffer_view *v = &c->g->buffer_views[view];
    size_t span, end;
    if (!mk_size_mul(stride, count - 1, &span) || !mk_size_add(span, elem, &span) ||
        !mk_size_add(offset, span, &end) || end > v->byte_length)
        return mk_gltf_fail(c, MK_ERR_RANGE, path,
                            "%s: %zu elements of %zu bytes (stride %zu) at byteOffset %zu exceed "
                            "bufferView %u (%zu bytes)",
                            what, count, elem, stride, offset, view, v->byte_length);
    return MK_OK;
}

static mk_status parse_sparse(mk_gltf_ctx *c, const mk_gltf_json_value *sp,
                              const mk_gltf_path *apath, mk_gltf_accessor *a)
{
    const mk_gltf_path path_node = {apath, "sparse", MK_NONE}, *path = &path_node;
    const mk_gltf_path ipath_node = {path, "indices", MK_NONE}, *ipath = &ipath_node;
    const mk_gltf_path vpath_node = {path, "values", MK_NONE}, *vpath = &vpath_node;
    mk_gltf_accessor_sparse *s = &a->sparse;
    const mk_gltf *g = c->g;
    uint32_t ct = 0;
    mk_status st;
    if ((st = mk_gltf_json_object(c, sp, path)) != MK_OK ||
        (st = mk_gltf_json_uint(c, sp, "count", path, true, 0, &s->count)) != MK_OK)
        return st;
    if (s->count == 0 || s->count > a->count)
        return mk_gltf_fail(c, MK_ERR_RANGE, path, "count %u must be in 1..%u (the accessor count)",
                            s->count, a->count);
    const mk_gltf_json_value *ind = mk_gltf_json_get(c->json, sp, "indices");
    const mk_gltf_json_value *val = mk_gltf_json_get(c->json, sp, "values");
    if (!ind || !val)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "missing required 'indices' or 'values'");
    if ((st = mk_gltf_json_object(c, ind, ipath)) != MK_OK ||
        (st = mk_gltf_json_index(c, ind, "bufferView", ipath, true, g->buffer_view_count,
                                 "bufferViews", &s->indices_buffer_view)) != MK_OK ||
        (st = mk_gltf_json_size(c, ind, "byteOffset", ipath, false, &s->indices_byte_offset)) !=
            MK_OK ||
        (st = mk_gltf_json_uint(c, ind, "componentType", ipath, true, 0, &ct)) != MK_OK)
        return st;
    if (ct != MK_GLTF_UNSIGNED_BYTE && ct != MK_GLTF_UNSIGNED_SHORT && ct != MK_GLTF_UNSIGNED_INT)
        return mk_gltf_fail(c, MK_ERR_PARSE, ipath, "componentType %u must be 5121, 5123 or 5125",
                            ct);
    s->indices_component_type = (mk_gltf_component_type)ct;
    if ((st = mk_gltf_json_object(c, val, vpath)) != MK_OK ||
        (st = mk_gltf_json_index(c, val, "bufferView", vpath, true, g->buffer_view_count,
                                 "bufferViews", &s->values_buffer_view)) != MK_OK ||
        (st = mk_gltf_json_size(c, val, "byteOffset", vpath, false, &s->values_byte_offset)) !=
            MK_OK)
        return st;
    uint32_t isize = mk_gltf_component_size(s->indices_component_type);
    if ((st = check_range(c, ipath, "indices", s->indices_buffer_view, s->indices_byte_offset,
                          isize, isize, s->count)) != MK_OK ||
        (st = check_range(c, vpath, "values", s->values_buffer_view, s->values_byte_offset,
                          a->element_size, a->element_size, s->count)) != MK_OK)
        return st;
    /* §3.6.2.3: indices strictly increase and address existing elements. */
    const mk_gltf_buffer_view *v = &g->buffer_views[s->indices_buffer_view];
    const uint8_t *p = v->data + s->indices_byte_offset;
    uint32_t chunk[256], prev = 0; /* a chunk at a time: one loop per index type */
    for (uint32_t at = 0; at < s->count; at += 256) {
        const uint32_t n = s->count - at < 256 ? s->count - at : 256;
        mk_gltf_read_uindices(p + (size_t)at * isize, isize, s->indices_component_type, n, chunk);
        for (uint32_t k = 0; k < n; k++) {
            const uint32_t i = at + k, idx = chunk[k];
            if (idx >= a->count)
                return mk_gltf_fail(c, MK_ERR_RANGE, ipath,
                                    "index %u at entry %u is out of range (accessor count %u)",
                                    idx, i, a->count);
            if (i > 0 && idx <= prev)
                return mk_gltf_fail(c, MK_ERR_PARSE, ipath,
                                    "indices must strictly increase (entry %u: %u after %u)", i,
                                    idx, prev);
            prev = idx;
        }
    }
    return MK_OK;
}

/* An accessor's members, found in one pass (a file has thousands). */
enum { VIEW, OFFSET, COMPONENT, COUNT, TYPE, NAME, NORMALIZED, MIN, MAX, SPARSE, ACCESSOR_KEYS };
static const mk_gltf_json_key accessor_keys[ACCESSOR_KEYS] = {
    MK_GLTF_KEY("bufferView"), MK_GLTF_KEY("byteOffset"), MK_GLTF_KEY("componentType"),
    MK_GLTF_KEY("count"),      MK_GLTF_KEY("type"),       MK_GLTF_KEY("name"),
    MK_GLTF_KEY("normalized"), MK_GLTF_KEY("min"),        MK_GLTF_KEY("max"),
    MK_GLTF_KEY("sparse")};

static mk_status parse_accessor(mk_gltf_ctx *c, const mk_gltf_json_value *item,
                                const mk_gltf_path *path, const mk_gltf_json_key_set *set,
                                mk_gltf_accessor *a)
{
    const mk_gltf *g = c->g;
    uint32_t ct = 0;
    mk_status s;
    const mk_gltf_json_value *m[ACCESSOR_KEYS];
    if ((s = mk_gltf_json_object(c, item, path)) != MK_OK)
        return s;
    mk_gltf_json_pick(c->json, item, set, m);
    if ((s = mk_gltf_json_index_value(c, m[VIEW], "bufferView", path, false, g->buffer_view_count,
                                      "bufferViews", &a->buffer_view)) != MK_OK ||
        (s = mk_gltf_json_size_value(c, m[OFFSET], "byteOffset", path, false, &a->byte_offset)) !=
            MK_OK ||
        (s = mk_gltf_json_uint_value(c, m[COMPONENT], "componentType", path, true, 0, &ct)) !=
            MK_OK ||
        (s = mk_gltf_json_uint_value(c, m[COUNT], "count", path, true, 0, &a->count)) != MK_OK ||
        (s = parse_type(c, m[TYPE], path, &a->type)) != MK_OK ||
        (s = mk_gltf_json_string_value(c, m[NAME], "name", path, &a->name)) != MK_OK)
        return s;
    a->component_type = (mk_gltf_component_type)ct;
    uint32_t csize = mk_gltf_component_size(a->component_type);
    if (csize == 0)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "unknown componentType %u", ct);
    const mk_gltf_json_value *norm = m[NORMALIZED];
    if (norm && norm->type != MK_GLTF_JSON_TRUE && norm->type != MK_GLTF_JSON_FALSE)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "normalized must be a boolean");
    a->normalized = mk_gltf_json_is(norm, MK_GLTF_JSON_TRUE);
    if (a->normalized && csize == 4)
        return mk_gltf_fail(c, MK_ERR_PARSE, path,
                            "normalized is not allowed for FLOAT or UNSIGNED_INT");
    if (a->count == 0)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "count must be at least 1");
    if (a->count > c->max_count)
        return mk_gltf_fail(c, MK_ERR_LIMIT, path, "count %u is above the limit %u", a->count,
                            c->max_count);
    a->components = mk_gltf_type_components(a->type);
    /* §3.6.2.4: matrix columns of 1- and 2-byte components start on 4-byte
     * boundaries, so MAT2/MAT3 of bytes and MAT3 of shorts are padded. */
    if (a->type >= MK_GLTF_MAT2) {
        uint32_t rows = a->type == MK_GLTF_MAT2 ? 2 : a->type == MK_GLTF_MAT3 ? 3 : 4;
        a->element_size = rows * ((rows * csize + 3) / 4 * 4);
    } else {
        a->element_size = a->components * csize;
    }
    a->stride = a->element_size;
    if ((s = parse_min_max(c, m[MIN], "min", path, a->components, a->min, &a->has_min)) != MK_OK ||
        (s = parse_min_max(c, m[MAX], "max", path, a->components, a->max, &a->has_max)) != MK_OK)
        return s;
    if (a->buffer_view != MK_NONE) {
        const mk_gltf_buffer_view *v = &g->buffer_views[a->buffer_view];
        if (v->byte_stride) {
            if (v->byte_stride < a->element_size)
                return mk_gltf_fail(c, MK_ERR_RANGE, path,
                                    "bufferView %u byteStride %u is smaller than one element (%u "
                                    "bytes)",
                                    a->buffer_view, v->byte_stride, a->element_size);
            a->stride = v->byte_stride;
        }
        if ((s = check_range(c, path, "data", a->buffer_view, a->byte_offset, a->stride,
                             a->element_size, a->count)) != MK_OK)
            return s;
    }
    a->sparse.indices_buffer_view = a->sparse.values_buffer_view = MK_NONE;
    if (m[SPARSE] && (s = parse_sparse(c, m[SPARSE], path, a)) != MK_OK)
        return s;
    return MK_OK;
}

mk_status mk_gltf_parse_accessors(mk_gltf_ctx *c, const mk_gltf_json_value *root)
{
    const mk_gltf_json_value *arr, *item;
    uint32_t count;
    mk_status s = mk_gltf_json_array(c, root, "accessors", NULL, &arr, &count);
    if (s != MK_OK || count == 0)
        return s;
    mk_gltf *g = c->g;
    g->accessors = (mk_gltf_accessor *)mk_gltf_arena_array(c->st, count, sizeof(mk_gltf_accessor));
    if (!g->accessors)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, MK_GLTF_PATH("accessors"), "out of memory");
    g->accessor_count = count;
    mk_gltf_json_key_set set;
    mk_gltf_json_key_set_init(&set, accessor_keys, ACCESSOR_KEYS);
    uint32_t i = 0;
    MK_GLTF_JSON_EACH (c->json, item, arr) {
        const mk_gltf_path path = {NULL, "accessors", i};
        if ((s = parse_accessor(c, item, &path, &set, &g->accessors[i++])) != MK_OK)
            return s;
    }
    return MK_OK;
}
