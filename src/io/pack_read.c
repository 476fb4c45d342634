/* Unit packer: reading a packed .glb back into an mk_unit.
 *
 * The glTF reader checks the container, accessors and mesh; this file reads
 * extras.morphkit (with the path of a bad member in the message), checks it
 * against the mesh, and rebuilds every frame as base + its target's delta.
 * The clip set is built by mk_clip_set_create, which checks names, frame
 * indices, durations, loop frames and next names once more. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"
#include "file_internal.h"
#include "io_internal.h"
#include "morphkit/pack.h"
#include "pack_internal.h"

static uint32_t u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The JSON of a GLB (its JSON chunk) or of a .gltf (all of it, when it
 * starts with '{' after blanks); false for anything else. */
static bool glb_json(const void *data, size_t size, const char **json, size_t *json_size)
{
    const uint8_t *p = data;
    size_t lead = 0;
    while (p && lead < size && (p[lead] == ' ' || p[lead] == '\t' || p[lead] == '\n' || p[lead] == '\r'))
        lead++;
    if (p && lead < size && p[lead] == '{') {
        *json = (const char *)p;
        *json_size = size;
        return true;
    }
    if (!p || size < 20 || u32le(p) != 0x46546C67u || u32le(p + 4) != 2)
        return false;
    uint32_t length = u32le(p + 8), clen = u32le(p + 12);
    if (length < 20 || length > size || u32le(p + 16) != 0x4E4F534Au || clen > length - 20)
        return false;
    *json = (const char *)p + 20;
    *json_size = clen;
    return true;
}

static const mk_gltf_json_value *morphkit_extras(const mk_gltf_json *doc)
{
    const mk_gltf_json_value *x = mk_gltf_json_get(doc, doc->values, "extras");
    x = mk_gltf_json_get(doc, x, "morphkit");
    return mk_gltf_json_is(x, MK_GLTF_JSON_OBJECT) ? x : NULL;
}

bool mk_pack_is_unit(const void *data, size_t size)
{
    const char *json;
    size_t json_size;
    if (!glb_json(data, size, &json, &json_size))
        return false;
    mk_gltf_json doc;
    size_t where;
    if (mk_gltf_json_parse(&doc, json, json_size, NULL, &where) != MK_OK)
        return false;
    bool yes = morphkit_extras(&doc) != NULL;
    mk_gltf_json_free(&doc, NULL);
    return yes;
}

bool mk_pack_is_unit_file(const char *path, const mk_file_callbacks *files)
{
    /* through the file layer: only regular files, a FIFO never blocks */
    void *data = NULL;
    size_t size = 0;
    if (!path || mk_file_read(files, path, NULL, (size_t)1 << 28, &data, &size, NULL) != MK_OK)
        return false;
    bool yes = mk_pack_is_unit(data, size);
    mk_file_release(files, NULL, data, size);
    return yes;
}

/* ---- building the unit ---------------------------------------------------------- */

typedef struct packed {
    const mk_gltf *g;
    const mk_gltf_primitive *prim;
    uint32_t vertices, targets, frames;
    uint32_t version;
    uint32_t obj_v, obj_vn; /* accessors or MK_NONE */
    bool map_deltas;        /* version 4: map entry i holds x_i - i */
    uint32_t index_turns;   /* version 4: accessor of the corners' turns, or MK_NONE */
    bool flat_normals;      /* version 5: no normals stored, computed from the positions */
    bool first_use_order;   /* version 6: the unit's vertices are in order of first use */
    uint32_t *new_of_old;   /* then: each file vertex's number in the unit, or NULL when
                               the file's order is the unit's */
    uint32_t *frame_target;
    uint32_t *target_parent; /* version 7: each target's parent target, MK_NONE: the base */
    bool tree;               /* some target's parent is another target */
    uint32_t tree_depth;     /* targets on the longest path */
    uint32_t *target_first;  /* each target's first frame (MK_NONE: no frame's) */
    const struct mk_gltf_json_value *x; /* extras.morphkit */
    bool transform; /* the node moves the mesh: positions are on a grid */
    float translation[3], scale[3];
} packed;

/* An application attribute (`_OBJ_V`) of the primitive from the JSON. */
static uint32_t attribute(mk_pack_reader *r, const char *name, uint32_t accessor_count)
{
    const mk_gltf_json_value *m = mk_gltf_json_get(r->doc, r->doc->values, "meshes");
    if (!mk_gltf_json_is(m, MK_GLTF_JSON_ARRAY) || m->size < 1)
        return MK_NONE;
    const mk_gltf_json_value *p = mk_gltf_json_get(r->doc, m + 1, "primitives");
    if (!mk_gltf_json_is(p, MK_GLTF_JSON_ARRAY) || p->size < 1)
        return MK_NONE;
    const mk_gltf_json_value *a = mk_gltf_json_get(r->doc, mk_gltf_json_get(r->doc, p + 1, "attributes"), name);
    int64_t v;
    return mk_pack_whole(r, a, 0, (double)accessor_count - 1, &v) ? (uint32_t)v : MK_NONE;
}

/* A FLOAT SCALAR attribute of whole numbers in [-1, 2^24) (-1: MK_NONE),
 * or an UNSIGNED_SHORT one (65535: MK_NONE), as uint32_t. */
static mk_status read_numbers(mk_pack_reader *r, const mk_gltf *g, uint32_t accessor, const char *name,
                              uint32_t *out, uint32_t n)
{
    const mk_gltf_accessor *a = &g->accessors[accessor];
    if (a->type != MK_GLTF_SCALAR || a->count != n || a->normalized ||
        (a->component_type != MK_GLTF_FLOAT && a->component_type != MK_GLTF_UNSIGNED_SHORT))
        return mk_error_set(r->err, MK_ERR_PARSE, r->file, 0,
                            "%s is not a FLOAT or UNSIGNED_SHORT SCALAR attribute with one entry "
                            "per vertex", name);
    if (a->component_type == MK_GLTF_UNSIGNED_SHORT) {
        mk_status s = mk_gltf_accessor_read_index(g, accessor, out, n, r->err);
        for (uint32_t v = 0; s == MK_OK && v < n; v++)
            if (out[v] == 65535)
                out[v] = MK_NONE;
        return s;
    }
    float *f = (float *)out; /* same size: converted in place */
    mk_status s = mk_gltf_accessor_read_float(g, accessor, f, n, r->err);
    if (s != MK_OK)
        return s;
    for (uint32_t v = 0; v < n; v++) {
        float x = f[v];
        if (!(x >= -1.0f && x < 16777216.0f) || x != floorf(x))
            return mk_error_set(r->err, MK_ERR_RANGE, r->file, 0, "%s[%u] is not a vertex number",
                                name, v);
        out[v] = x < 0 ? MK_NONE : (uint32_t)x;
    }
    return MK_OK;
}

/* extras.morphkit.<key>: an unsigned SCALAR accessor of count numbers
 * (version 2's maps), or MK_NONE when absent (the identity). */
static mk_status map_accessor(mk_pack_reader *r, const packed *p, const char *key, uint32_t count,
                              uint32_t *out)
{
    *out = MK_NONE;
    const mk_gltf_json_value *v = mk_gltf_json_get(r->doc, p->x, key);
    if (!v)
        return MK_OK;
    int64_t i;
    if (!mk_pack_whole(r, v, 0, (double)p->g->accessor_count - 1, &i))
        return mk_pack_bad(r, key, MK_NONE, "not an accessor index");
    const mk_gltf_accessor *a = &p->g->accessors[i];
    if (a->type != MK_GLTF_SCALAR || a->normalized ||
        (a->component_type != MK_GLTF_UNSIGNED_BYTE &&
         a->component_type != MK_GLTF_UNSIGNED_SHORT &&
         a->component_type != MK_GLTF_UNSIGNED_INT))
        return mk_pack_bad(r, key, MK_NONE, "not an unsigned integer SCALAR accessor");
    if (a->count != count)
        return mk_error_set(r->err, MK_ERR_MISMATCH, r->file, 0,
                            "extras.morphkit.%s has %u entries, not %u", key, a->count, count);
    *out = (uint32_t)i;
    return MK_OK;
}

static mk_status read_attr(mk_pack_reader *r, const mk_gltf *g, uint32_t accessor, float *out, size_t n);

/* The largest number of an unsigned component type (the maps' "none"). */
static uint32_t type_max(mk_gltf_component_type ct)
{
    return ct == MK_GLTF_UNSIGNED_BYTE ? 255u : ct == MK_GLTF_UNSIGNED_SHORT ? 65535u : UINT32_MAX;
}

/* Reads map accessor acc's count numbers into out; with version 4's
 * map_deltas entry i holds (x_i - i) modulo the type's range (pack_mesh.c
 * put_map), so i is added back. */
static mk_status read_map(mk_pack_reader *r, const packed *p, uint32_t acc, uint32_t *out,
                          uint32_t count)
{
    mk_status s = mk_gltf_accessor_read_index(p->g, acc, out, count, r->err);
    if (s != MK_OK || !p->map_deltas)
        return s;
    const uint32_t mask = type_max(p->g->accessors[acc].component_type);
    for (uint32_t i = 0; i < count; i++)
        out[i] = (out[i] + i) & mask;
    return MK_OK;
}

/* Version 3's maps told by the base pose (pack_order.c): extras.morphkit.
 * <key>_order (name) is true (the classes in order) or the accessor of their
 * permutation. A `v` map gives each vertex the `v` of its class (out: n
 * entries), a `vn` map each `vn` the first vertex of its class (by_first;
 * out: count entries). *told: the member was there. */
static mk_status read_order(mk_pack_reader *r, packed *p, const mk_allocator *al, const char *key,
                            const char *name, uint32_t attribute, uint32_t count, bool by_first,
                            uint32_t *out, bool *told)
{
    const mk_gltf_json_value *v = mk_gltf_json_get(r->doc, p->x, name);
    *told = v != NULL;
    if (!v)
        return MK_OK;
    if (mk_gltf_json_get(r->doc, p->x, key))
        return mk_pack_bad(r, name, MK_NONE, "given together with the map itself");
    if (attribute == MK_NONE)
        return mk_pack_bad(r, name, MK_NONE, "the primitive has no such attribute");
    const uint32_t n = p->vertices;
    const size_t words = 3 * (size_t)n + 2 * (size_t)n + 2 * (size_t)count;
    uint32_t *e = mk_alloc(al, words * sizeof(uint32_t));
    if (!e)
        return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    uint32_t *class_of = e + 3 * (size_t)n, *first = class_of + n, *perm = first + n,
             *seen = perm + count;
    uint32_t classes = 0, acc = MK_NONE;
    /* the base elements as floats; their bits are the classes' keys */
    mk_status s = read_attr(r, p->g, attribute, (float *)(void *)e, 3 * (size_t)n);
    if (s == MK_OK && mk_pack_first_uses(e, n, al, class_of, first, &classes) != MK_OK)
        s = mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    if (s == MK_OK && classes != count)
        s = mk_error_set(r->err, MK_ERR_MISMATCH, r->file, 0,
                         "extras.morphkit.%s: the base pose has %u distinct %s, not %u", name,
                         classes, by_first ? "normals" : "positions", count);
    if (s == MK_OK && mk_gltf_json_is(v, MK_GLTF_JSON_TRUE)) {
        for (uint32_t c = 0; c < count; c++)
            perm[c] = c;
    } else if (s == MK_OK && (s = map_accessor(r, p, name, count, &acc)) == MK_OK) {
        s = read_map(r, p, acc, perm, count);
        memset(seen, 0, (size_t)count * sizeof(uint32_t));
        for (uint32_t c = 0; s == MK_OK && c < count; c++) {
            if (perm[c] >= count || seen[perm[c]])
                s = mk_error_set(r->err, MK_ERR_RANGE, r->file, 0,
                                 "extras.morphkit.%s[%u] = %u is out of range or repeated", name,
                                 c, perm[c]);
            else
                seen[perm[c]] = 1;
        }
    }
    for (uint32_t c = 0; s == MK_OK && by_first && c < count; c++)
        out[perm[c]] = first[c];
    for (uint32_t i = 0; s == MK_OK && !by_first && i < n; i++)
        out[i] = perm[class_of[i]];
    mk_free(al, e, words * sizeof(uint32_t));
    return s;
}

/* Version 2's maps: source_index from extras.morphkit.obj_v (absent: the
 * identity), normal_vertex from obj_vn (the vertex of each `vn`; the
 * type's largest code: none; absent: the identity). */
static mk_status read_maps_v2(mk_pack_reader *r, mk_unit *u, packed *p, uint32_t *scratch)
{
    const mk_allocator *al = &u->allocator;
    const uint32_t n = p->vertices;
    uint32_t acc;
    mk_status s;
    if (!(u->source_index = mk_alloc(al, (size_t)n * sizeof(uint32_t))))
        return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    bool told;
    if ((s = read_order(r, p, al, "obj_v", "obj_v_order", p->prim->position, u->position_count,
                        false, u->source_index, &told)) != MK_OK ||
        (s = map_accessor(r, p, "obj_v", n, &acc)) != MK_OK)
        return s;
    if (told) {
        /* read_order set source_index */
    } else if (acc == MK_NONE) {
        if (n != u->position_count)
            return mk_pack_bad(r, "obj_v", MK_NONE,
                               "absent (the identity) but position_count is not the vertex count");
        for (uint32_t v = 0; v < n; v++)
            u->source_index[v] = v;
    } else if ((s = read_map(r, p, acc, u->source_index, n)) != MK_OK) {
        return s;
    }
    /* scratch: one flag per `v` (the count and map in locals: the flags'
       stores could alias them) */
    const uint32_t *const source = u->source_index, positions = u->position_count;
    memset(scratch, 0, (size_t)positions * sizeof(uint32_t));
    for (uint32_t v = 0; v < n; v++) {
        if (source[v] >= positions)
            return mk_error_set(r->err, MK_ERR_RANGE, r->file, 0,
                                "extras.morphkit.obj_v[%u] = %u is not below position_count %u",
                                v, source[v], positions);
        scratch[source[v]] = 1;
    }
    for (uint32_t i = 0; i < positions; i++)
        if (!scratch[i])
            return mk_error_set(r->err, MK_ERR_MISMATCH, r->file, 0,
                                "extras.morphkit.obj_v has no vertex for `v` %u", i + 1);
    if (!u->frames->normals)
        return u->normal_count ? mk_error_set(r->err, MK_ERR_MISMATCH, r->file, 0,
                                              "normal_count %u without normals", u->normal_count)
                               : MK_OK;
    if (!u->normal_count)
        return MK_OK;
    if (!(u->normal_vertex = mk_alloc(al, (size_t)u->normal_count * sizeof(uint32_t))))
        return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    if ((s = read_order(r, p, al, "obj_vn", "obj_vn_order", p->prim->normal, u->normal_count,
                        true, u->normal_vertex, &told)) != MK_OK)
        return s;
    if (told)
        return MK_OK;
    if ((s = map_accessor(r, p, "obj_vn", u->normal_count, &acc)) != MK_OK)
        return s;
    if (acc == MK_NONE) {
        if (u->normal_count > n)
            return mk_pack_bad(r, "obj_vn", MK_NONE,
                               "absent (the identity) but normal_count is above the vertex count");
        for (uint32_t j = 0; j < u->normal_count; j++)
            u->normal_vertex[j] = j;
        return MK_OK;
    }
    if ((s = read_map(r, p, acc, u->normal_vertex, u->normal_count)) != MK_OK)
        return s;
    const uint32_t none = type_max(p->g->accessors[acc].component_type);
    uint32_t *const normal_vertex = u->normal_vertex, normals = u->normal_count;
    memset(scratch, 0, (size_t)n * sizeof(uint32_t));
    for (uint32_t j = 0; j < normals; j++) {
        uint32_t v = normal_vertex[j];
        if (v == none) {
            normal_vertex[j] = MK_NONE;
            continue;
        }
        if (v >= n || scratch[v])
            return mk_error_set(r->err, MK_ERR_RANGE, r->file, 0,
                                "extras.morphkit.obj_vn[%u] = %u is out of range or repeated",
                                j, v);
        scratch[v] = 1;
    }
    return MK_OK;
}

/* Index maps: source_index from _OBJ_V (every `v` must have a vertex),
 * normal_vertex from _OBJ_VN (each `vn` at most once). */
static mk_status read_maps(mk_pack_reader *r, mk_unit *u, packed *p, uint32_t *scratch)
{
    if (p->version >= 2)
        return read_maps_v2(r, u, p, scratch);
    const mk_allocator *al = &u->allocator;
    const uint32_t n = p->vertices;
    mk_status s;
    if (p->obj_v == MK_NONE)
        return mk_error_set(r->err, MK_ERR_PARSE, r->file, 0, "the primitive has no _OBJ_V attribute");
    if (!(u->source_index = mk_alloc(al, (size_t)n * sizeof(uint32_t))))
        return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    if ((s = read_numbers(r, p->g, p->obj_v, "_OBJ_V", u->source_index, n)) != MK_OK)
        return s;
    /* scratch: one flag per `v` */
    memset(scratch, 0, (size_t)u->position_count * sizeof(uint32_t));
    for (uint32_t v = 0; v < n; v++) {
        if (u->source_index[v] >= u->position_count)
            return mk_error_set(r->err, MK_ERR_RANGE, r->file, 0,
                                "_OBJ_V[%u] = %u is not below position_count %u", v,
                                u->source_index[v], u->position_count);
        scratch[u->source_index[v]] = 1;
    }
    for (uint32_t i = 0; i < u->position_count; i++)
        if (!scratch[i])
            return mk_error_set(r->err, MK_ERR_MISMATCH, r->file, 0,
                                "_OBJ_V has no vertex for `v` %u", i + 1);
    if (!u->frames->normals)
        return u->normal_count ? mk_error_set(r->err, MK_ERR_MISMATCH, r->file, 0,
                                              "normal_count %u without normals", u->normal_count)
                               : MK_OK;
    if (p->obj_vn == MK_NONE)
        return mk_error_set(r->err, MK_ERR_PARSE, r->file, 0,
                            "the primitive has normals but no _OBJ_VN attribute");
    if (u->normal_count &&
        !(u->normal_vertex = mk_alloc(al, (size_t)u->normal_count * sizeof(uint32_t))))
        return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    for (uint32_t j = 0; j < u->normal_count; j++)
        u->normal_vertex[j] = MK_NONE;
    if ((s = read_numbers(r, p->g, p->obj_vn, "_OBJ_VN", scratch, n)) != MK_OK)
        return s;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t j = scratch[v];
        if (j == MK_NONE)
            continue;
        if (j >= u->normal_count || u->normal_vertex[j] != MK_NONE)
            return mk_error_set(r->err, MK_ERR_RANGE, r->file, 0,
                                "_OBJ_VN[%u] = %u is out of range or repeated", v, j);
        u->normal_vertex[j] = v;
    }
    return MK_OK;
}

/* x, or lowest where x is below it (normalized values: -1 for the
 * smallest code, §3.11). */
static inline float clamp_below(float x, float lowest)
{
    return x < lowest ? lowest : x;
}

/* A sparse VEC3 of BYTE / SHORT values without a bufferView (the pack's
 * sparse targets; the glTF reader checked its indices and views): zeros,
 * then each value at its index, as read_attr's dense loops convert them
 * (normalized: lowest is -1). */
static void read_sparse3(const mk_gltf *g, const mk_gltf_accessor *a, float scale, float lowest,
                         float *out)
{
    const mk_gltf_accessor_sparse *sp = &a->sparse;
    const uint8_t *idx = g->buffer_views[sp->indices_buffer_view].data + sp->indices_byte_offset;
    const uint8_t *val = g->buffer_views[sp->values_buffer_view].data + sp->values_byte_offset;
    const size_t isize = mk_gltf_component_size(sp->indices_component_type);
    memset(out, 0, (size_t)a->count * 3 * sizeof(float));
    uint32_t chunk[256]; /* indices a chunk at a time: one loop per type */
    for (uint32_t at = 0; at < sp->count; at += 256) {
        const uint32_t n = sp->count - at < 256 ? sp->count - at : 256;
        mk_gltf_read_uindices(idx + at * isize, isize, sp->indices_component_type, n, chunk);
        if (a->component_type == MK_GLTF_BYTE) {
            const int8_t *v = (const int8_t *)(val + (size_t)at * 3);
            for (uint32_t k = 0; k < n; k++) {
                float *o = out + 3 * (size_t)chunk[k];
                o[0] = clamp_below((float)v[3 * k] * scale, lowest);
                o[1] = clamp_below((float)v[3 * k + 1] * scale, lowest);
                o[2] = clamp_below((float)v[3 * k + 2] * scale, lowest);
            }
        } else {
            const uint8_t *v = val + (size_t)at * 6;
            for (uint32_t k = 0; k < n; k++) {
                int16_t e[3];
                memcpy(e, v + 6 * (size_t)k, sizeof e); /* little-endian host, as glTF */
                float *o = out + 3 * (size_t)chunk[k];
                o[0] = clamp_below((float)e[0] * scale, lowest);
                o[1] = clamp_below((float)e[1] * scale, lowest);
                o[2] = clamp_below((float)e[2] * scale, lowest);
            }
        }
    }
}

/* VEC3 of BYTE or SHORT in the pack's own strides (4 and 8 bytes: one
 * padding component), as floats times scale: whole elements of four, so
 * the loops vectorize (little-endian host, as glTF). */
MK_AVX2_CLONE static void bytes4_to_floats3(float *restrict out, const uint8_t *restrict in,
                                            size_t count, float scale, float lowest)
{
    for (size_t i = 0; i < count; i++)
        for (int c = 0; c < 3; c++)
            out[3 * i + c] = clamp_below((float)(int8_t)in[4 * i + c] * scale, lowest);
}

MK_AVX2_CLONE static void shorts4_to_floats3(float *restrict out, const uint8_t *restrict in,
                                             size_t count, float scale, float lowest)
{
    for (size_t i = 0; i < count; i++)
        for (int c = 0; c < 3; c++) {
            int16_t v;
            memcpy(&v, in + 8 * i + 2 * c, sizeof v);
            out[3 * i + c] = clamp_below((float)v * scale, lowest);
        }
}

/* An attribute into out (count * components floats): the pack's own forms
 * (dense or sparse BYTE / SHORT, normalized or not) in tight loops, any
 * other through the glTF reader's general decoder. */
static mk_status read_attr(mk_pack_reader *r, const mk_gltf *g, uint32_t accessor, float *out, size_t n)
{
    const mk_gltf_accessor *a = &g->accessors[accessor];
    const mk_gltf_component_type ct = a->component_type;
    if ((ct != MK_GLTF_BYTE && ct != MK_GLTF_SHORT) || (size_t)a->count * a->components > n ||
        (a->buffer_view != MK_NONE && a->sparse.count))
        return mk_gltf_accessor_read_float(g, accessor, out, n, r->err);
    const float scale = !a->normalized ? 1.0f : ct == MK_GLTF_BYTE ? 1.0f / 127.0f : 1.0f / 32767.0f;
    /* the most negative code of a normalized value reads as -1 (§3.11) */
    const float lowest = a->normalized ? -1.0f : -INFINITY;
    const uint32_t comps = a->components, csize = ct == MK_GLTF_BYTE ? 1 : 2;
    const uint8_t *base = mk_gltf_accessor_base(g, a);
    if (!base) {
        if (!a->sparse.count) {
            memset(out, 0, (size_t)a->count * comps * sizeof(float));
            return MK_OK;
        }
        if (comps != 3) /* not the pack's: the glTF reader's path */
            return mk_gltf_accessor_read_float(g, accessor, out, n, r->err);
        read_sparse3(g, a, scale, lowest, out);
        return MK_OK;
    }
    /* one loop per form: the per-component tests cost more than the work */
    const size_t count = a->count, stride = a->stride;
    if (csize == 1 && comps == 3 && stride == 4)
        bytes4_to_floats3(out, base, count, scale, lowest);
    else if (csize == 2 && comps == 3 && stride == 8)
        shorts4_to_floats3(out, base, count, scale, lowest);
    else if (csize == 1 && comps == 3) {
        for (size_t i = 0; i < count; i++) {
            const int8_t *p = (const int8_t *)(base + i * stride);
            float *o = out + 3 * i;
            o[0] = clamp_below((float)p[0] * scale, lowest);
            o[1] = clamp_below((float)p[1] * scale, lowest);
            o[2] = clamp_below((float)p[2] * scale, lowest);
        }
    } else if (comps == 3) {
        for (size_t i = 0; i < count; i++) {
            int16_t v[3];
            memcpy(v, base + i * stride, sizeof v); /* little-endian host, as glTF */
            float *o = out + 3 * i;
            o[0] = clamp_below((float)v[0] * scale, lowest);
            o[1] = clamp_below((float)v[1] * scale, lowest);
            o[2] = clamp_below((float)v[2] * scale, lowest);
        }
    } else if (csize == 1) {
        for (size_t i = 0; i < count; i++) {
            const int8_t *p = (const int8_t *)(base + i * stride);
            float *o = out + i * comps;
            for (uint32_t c = 0; c < comps; c++)
                o[c] = clamp_below((float)p[c] * scale, lowest);
        }
    } else {
        for (size_t i = 0; i < count; i++) {
            const uint8_t *p = base + i * stride;
            float *o = out + i * comps;
            for (uint32_t c = 0; c < comps; c++)
                o[c] = clamp_below(
                    (float)(int16_t)(uint16_t)(p[2 * c] | p[2 * c + 1] << 8) * scale, lowest);
        }
    }
    return MK_OK;
}

/* Puts back each triangle's first corner where meshopt's triangle codec
 * turned it (extras.morphkit.index_turns, version 4: a byte per triangle,
 * primitives in order; turn k: the file's triangle starts at the unit's
 * corner k). idx: count indices in that order. */
static mk_status unturn(mk_pack_reader *r, const packed *p, const mk_allocator *al, uint32_t *idx,
                        uint32_t count)
{
    if (p->index_turns == MK_NONE)
        return MK_OK;
    const mk_gltf_accessor *a = &p->g->accessors[p->index_turns];
    if (a->type != MK_GLTF_SCALAR || a->component_type != MK_GLTF_UNSIGNED_BYTE || a->normalized ||
        a->count != count / 3)
        return mk_pack_bad(r, "index_turns", MK_NONE, "not one unsigned byte per triangle");
    uint32_t *turn = mk_alloc(al, ((size_t)count / 3 + 1) * sizeof *turn);
    if (!turn)
        return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    mk_status s = mk_gltf_accessor_read_index(p->g, p->index_turns, turn, count / 3, r->err);
    for (uint32_t t = 0; s == MK_OK && t < count / 3; t++) {
        if (turn[t] > 2) {
            s = mk_pack_bad(r, "index_turns", t, "not 0, 1 or 2");
            break;
        }
        uint32_t *T = idx + 3 * (size_t)t, f[3] = {T[0], T[1], T[2]};
        for (uint32_t c = 0; c < 3; c++) /* file corner c is the unit's corner c + turn */
            T[(c + turn[t]) % 3] = f[c];
    }
    mk_free(al, turn, ((size_t)count / 3 + 1) * sizeof *turn);
    return s;
}

/* The unit's triangle list: one primitive's indices, or the material
 * primitives' interleaved by extras.morphkit.material_runs. */
static mk_status read_indices(mk_pack_reader *r, const packed *p, const mk_allocator *al,
                              uint32_t *out, uint32_t count)
{
    const mk_gltf *g = p->g;
    const mk_gltf_mesh *mesh = &g->meshes[0];
    if (mesh->primitive_count == 1) {
        mk_status s = mk_gltf_accessor_read_index(g, p->prim->indices, out, count, r->err);
        return s == MK_OK ? unturn(r, p, al, out, count) : s;
    }
    const mk_gltf_json_value *runs = mk_gltf_json_get(r->doc, p->x, "material_runs"), *e;
    if (!mk_gltf_json_is(runs, MK_GLTF_JSON_ARRAY))
        return mk_pack_bad(r, "material_runs", MK_NONE,
                           "missing with more than one primitive (or not an array)");
    /* every primitive's indices, one after the other */
    uint32_t *all = mk_alloc(al, (size_t)count * sizeof *all), start[1001], cursor[1000] = {0};
    if (!all)
        return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    mk_status st = MK_OK;
    start[0] = 0;
    for (uint32_t k = 0; k < mesh->primitive_count && st == MK_OK; k++) {
        uint32_t n = g->accessors[mesh->primitives[k].indices].count;
        st = mk_gltf_accessor_read_index(g, mesh->primitives[k].indices, all + start[k], n, r->err);
        start[k + 1] = start[k] + n;
    }
    if (st == MK_OK && start[mesh->primitive_count] == count)
        st = unturn(r, p, al, all, count);
    uint32_t done = 0, i = 0;
    MK_GLTF_JSON_EACH (r->doc, e, runs) {
        if (st != MK_OK)
            break;
        int64_t prim, tris;
        const mk_gltf_json_value *a = mk_gltf_json_is(e, MK_GLTF_JSON_ARRAY) && e->size == 2 ? e + 1 : NULL;
        if (!a || !mk_pack_whole(r, a, 0, mesh->primitive_count - 1.0, &prim) ||
            !mk_pack_whole(r, r->doc->values + a->next, 1, count / 3.0, &tris)) {
            st = mk_pack_bad(r, "material_runs", i, "not [primitive, triangles]");
            break;
        }
        const uint32_t have = (start[prim + 1] - start[prim]) / 3;
        if ((uint64_t)cursor[prim] + (uint64_t)tris > have ||
            (uint64_t)done + (uint64_t)tris > count / 3) {
            st = mk_pack_bad(r, "material_runs", i, "more triangles than the primitive has");
            break;
        }
        memcpy(out + 3 * (size_t)done, all + start[prim] + 3 * (size_t)cursor[prim],
               3 * (size_t)tris * sizeof *out);
        cursor[prim] += (uint32_t)tris;
        done += (uint32_t)tris;
        i++;
    }
    if (st == MK_OK && done != count / 3)
        st = mk_pack_bad(r, "material_runs", MK_NONE, "do not cover every triangle");
    mk_free(al, all, (size_t)count * sizeof *all);
    return st;
}

/* Texture coordinates as OBJ has them (v up; glTF's v runs down): the
 * pack's (normalized UNSIGNED_SHORT VEC2, dense) as the glTF reader
 * converts them, c / 65535, in one loop the compiler vectorizes; any other
 * form through the glTF reader. */
MK_AVX2_CLONE static void unorm16_to_texcoords(float *restrict out, const uint8_t *restrict in,
                                               size_t count)
{
    for (size_t i = 0; i < 2 * count; i++) {
        uint16_t x;
        memcpy(&x, in + 2 * i, sizeof x); /* little-endian host, as glTF */
        const float f = (float)x / 65535.0f;
        out[i] = i & 1 ? 1.0f - f : f;
    }
}

static mk_status read_texcoords(mk_pack_reader *r, const mk_gltf *g, uint32_t accessor,
                                float *out, size_t n2)
{
    const mk_gltf_accessor *a = &g->accessors[accessor];
    const uint8_t *base = mk_gltf_accessor_base(g, a);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (base && !a->sparse.count && a->component_type == MK_GLTF_UNSIGNED_SHORT &&
        a->normalized && a->components == 2 && a->stride == 4 && (size_t)a->count * 2 <= n2) {
        unorm16_to_texcoords(out, base, a->count);
        return MK_OK;
    }
#endif
    mk_status s = mk_gltf_accessor_read_float(g, accessor, out, n2, r->err);
    for (size_t i = 1; s == MK_OK && i < n2; i += 2)
        out[i] = 1.0f - out[i];
    return s;
}

/* The per-frame loops of read_frames, branch-free over restrict arrays so
 * the compiler vectorizes them (pack_read.c is built with -O3, no FMA
 * contraction: the results are those of mk_pack_dequantize one by one,
 * which the writer measured its error with). */
MK_AVX2_CLONE static void add_arrays(float *restrict o, const float *restrict a, const float *restrict b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        o[i] = a[i] + b[i];
}

MK_AVX2_CLONE static void place_on_grid(float *restrict o, const float *restrict a, const float *restrict b,
                          size_t n3, const float *t, const float *s)
{
    const float t0 = t[0], t1 = t[1], t2 = t[2], s0 = s[0], s1 = s[1], s2 = s[2];
    for (size_t i = 0; i < n3; i += 3) {
        o[i] = mk_pack_dequantize(t0, s0, a[i] + b[i]);
        o[i + 1] = mk_pack_dequantize(t1, s1, a[i + 1] + b[i + 1]);
        o[i + 2] = mk_pack_dequantize(t2, s2, a[i + 2] + b[i + 2]);
    }
}

MK_AVX2_CLONE static void place_on_grid_in_place(float *restrict o, size_t n3, const float *t,
                                                 const float *s)
{
    const float t0 = t[0], t1 = t[1], t2 = t[2], s0 = s[0], s1 = s[1], s2 = s[2];
    for (size_t i = 0; i < n3; i += 3) {
        o[i] = mk_pack_dequantize(t0, s0, o[i]);
        o[i + 1] = mk_pack_dequantize(t1, s1, o[i + 1]);
        o[i + 2] = mk_pack_dequantize(t2, s2, o[i + 2]);
    }
}

/* Frame f's positions (attr 0) or normals (1), to fill. */
static float *frame_data(mk_frame_set *s, int attr, uint32_t f)
{
    return attr ? mk_frame_set_normals_to_fill(s, f) : mk_frame_set_positions_to_fill(s, f);
}

/* A frame's summed normals: quantized ones normalized after the sum, and
 * zero where no face reaches (len: n floats of scratch). */
static void finish_normals(float *o, float *len, uint32_t n, bool unit_normals,
                           const uint32_t *used, uint32_t unused)
{
    if (unit_normals)
        mk_pack_normalize_all(o, len, n);
    for (uint32_t v = 0; unused && v < n; v++)
        if (!used[v])
            o[3 * (size_t)v] = o[3 * (size_t)v + 1] = o[3 * (size_t)v + 2] = 0.0f;
}

/* Frame f = base + the deltas of its target's path (version 7: a target's
 * parent, its parent's, ... up to the base; before, the target alone);
 * zero normals where no face reaches. Each target's pose is built once, in
 * its first frame, the target's other frames copy it.
 * delta: 4 x vertices floats of scratch, 7 x with first_use_order (version
 * 6: what is read is renumbered as it is read, before the frames are built
 * from it, so the frames need no pass of their own).
 * Quantized positions are integers until the node's translation and scale
 * place them (pack.h); quantized normals are normalized after the sum (in
 * a tree, after every sum: children add to their parent's raw pose). */
static mk_status read_frames(mk_pack_reader *r, mk_unit *u, packed *p, float *delta, uint32_t *used)
{
    const mk_gltf *g = p->g;
    const mk_gltf_primitive *pr = p->prim;
    mk_frame_set *s = u->frames;
    const size_t n3 = 3 * (size_t)p->vertices;
    mk_status st;
    /* the base pose: the first frame without a target (frame 0 before version 2) */
    uint32_t b = 0;
    while (p->frame_target[b] != MK_NONE)
        b++;
    float *base = mk_frame_set_positions_to_fill(s, b);
    float *nbase = pr->normal != MK_NONE ? mk_frame_set_normals_to_fill(s, b) : NULL;
    if ((st = read_attr(r, g, pr->position, base, n3)) != MK_OK)
        return st;
    if (nbase && (st = read_attr(r, g, pr->normal, nbase, n3)) != MK_OK)
        return st;
    if (s->texcoords &&
        (st = read_texcoords(r, g, pr->texcoord0, s->texcoords, 2 * (size_t)p->vertices)) != MK_OK)
        return st;
    if ((st = read_indices(r, p, &u->allocator, s->indices, s->index_count)) != MK_OK)
        return st;
    float *file_order = delta + 4 * (size_t)p->vertices;
    if (p->first_use_order && !mk_unit_first_use_numbers(s, p->new_of_old)) {
        const uint32_t *renum = p->new_of_old;
        mk_renumber_floats(base, file_order, renum, p->vertices, 3);
        if (nbase)
            mk_renumber_floats(nbase, file_order, renum, p->vertices, 3);
        if (s->texcoords)
            mk_renumber_floats(s->texcoords, file_order, renum, p->vertices, 2);
        for (uint32_t i = 0; i < s->index_count; i++)
            s->indices[i] = renum[s->indices[i]];
    } else {
        p->new_of_old = NULL;
    }
    /* (counts and arrays in locals: the flags' stores could alias them) */
    const uint32_t *const indices = s->indices, index_count = s->index_count;
    const uint32_t vertices = p->vertices;
    memset(used, 0, (size_t)vertices * sizeof(uint32_t));
    for (uint32_t i = 0; i < index_count; i++) /* the glTF reader checked them */
        used[indices[i]] = 1;
    uint32_t unused = 0;
    for (uint32_t v = 0; v < vertices; v++)
        unused += !used[v];
    for (uint32_t v = 0; nbase && unused && v < vertices; v++)
        if (!used[v])
            nbase[3 * (size_t)v] = nbase[3 * (size_t)v + 1] = nbase[3 * (size_t)v + 2] = 0.0f;
    /* each frame is built once, in one pass: targets first (from the raw
     * base), then the base itself, then its copies */
    const bool unit_normals = nbase && g->accessors[pr->normal].component_type != MK_GLTF_FLOAT;
    for (uint32_t t = 0; t < p->targets; t++) {
        const mk_gltf_target *tg = &pr->targets[t];
        for (int attr = 0; attr < (nbase ? 2 : 1); attr++) {
            uint32_t acc = attr ? tg->normal : tg->position;
            if (acc == MK_NONE) {
                memset(delta, 0, n3 * sizeof(float));
            } else if (p->new_of_old) {
                if ((st = read_attr(r, g, acc, file_order, n3)) != MK_OK)
                    return st;
                mk_scatter_floats(delta, file_order, p->new_of_old, p->vertices, 3);
            } else if ((st = read_attr(r, g, acc, delta, n3)) != MK_OK) {
                return st;
            }
            /* the target's pose in its first frame: its parent's pose (the
             * raw base, or the parent's first frame, still raw in a tree)
             * plus its deltas */
            if (p->target_first[t] == MK_NONE)
                continue; /* no frame's (read all the same, as before version 7) */
            const uint32_t parent = p->tree ? p->target_parent[t] : MK_NONE;
            const float *bs = parent != MK_NONE ? frame_data(s, attr, p->target_first[parent])
                              : attr           ? nbase
                                               : base;
            float *o = frame_data(s, attr, p->target_first[t]);
            if (!attr && p->transform && !p->tree) {
                /* quantized positions are placed by the node (pack.h) */
                place_on_grid(o, bs, delta, n3, p->translation, p->scale);
                continue;
            }
            add_arrays(o, bs, delta, n3);
            if (attr && !p->tree)
                finish_normals(o, delta + n3, p->vertices, unit_normals, used, unused);
        }
    }
    /* a tree's poses are all summed: now placed and normalized */
    for (uint32_t t = 0; p->tree && t < p->targets; t++) {
        if (p->target_first[t] == MK_NONE)
            continue;
        if (p->transform)
            place_on_grid_in_place(frame_data(s, 0, p->target_first[t]), n3, p->translation,
                                   p->scale);
        if (nbase)
            finish_normals(frame_data(s, 1, p->target_first[t]), delta + n3, p->vertices,
                           unit_normals, used, unused);
    }
    if (p->transform)
        place_on_grid_in_place(base, n3, p->translation, p->scale);
    if (unit_normals)
        mk_pack_normalize_all(nbase, delta + n3, p->vertices);
    /* the other frames of each target, and of the base, are copies */
    for (uint32_t f = 0; f < p->frames; f++) {
        const uint32_t t = p->frame_target[f];
        const uint32_t from = t == MK_NONE ? b : p->target_first[t];
        if (from == f)
            continue;
        memcpy(mk_frame_set_positions_to_fill(s, f), frame_data(s, 0, from), n3 * sizeof(float));
        if (nbase)
            memcpy(mk_frame_set_normals_to_fill(s, f), frame_data(s, 1, from), n3 * sizeof(float));
    }
    /* flat shaded: the normals the writer checked, from the positions read
     * (once per target: frames that share one are copies) */
    for (uint32_t f = 0; p->flat_normals && f < p->frames; f++) {
        uint32_t g = 0;
        while (g < f && p->frame_target[g] != p->frame_target[f])
            g++;
        if (g < f)
            memcpy(mk_frame_set_normals_to_fill(s, f), mk_frame_set_normals(s, g), n3 * sizeof(float));
        else
            mk_pack_flat_normals(mk_frame_set_positions(s, f), s->indices, s->index_count,
                                 p->vertices, mk_frame_set_normals_to_fill(s, f), delta);
    }
    return MK_OK;
}

/* An attribute of 8- or 16-bit integers (or none). */
static bool small_integers(const mk_gltf *g, uint32_t accessor)
{
    return accessor == MK_NONE || mk_gltf_component_size(g->accessors[accessor].component_type) <= 2;
}

/* Whether the frames read are finite without looking: every attribute and
 * delta is of 8- or 16-bit integers, paths are at most MK_PACK_TREE_DEPTH
 * targets long (a position at most 2^19 grid steps from the origin), and
 * the node's origin is below 1e8 and its step below 100, so no sum, no
 * product and no flat normal's cross product overflows; normals are
 * normalized. The glTF reader checked the indices against the vertex
 * count: the frame set's check would find nothing (it reads every float
 * of every frame). */
static bool surely_finite(const packed *p)
{
    const mk_gltf *g = p->g;
    const mk_gltf_primitive *pr = p->prim;
    if (p->tree_depth > MK_PACK_TREE_DEPTH)
        return false;
    if (!small_integers(g, pr->position) || !small_integers(g, pr->normal) ||
        !small_integers(g, pr->texcoord0))
        return false;
    for (uint32_t t = 0; t < p->targets; t++)
        if (!small_integers(g, pr->targets[t].position) ||
            !small_integers(g, pr->targets[t].normal))
            return false;
    for (int c = 0; c < 3; c++)
        if (!(fabsf(p->translation[c]) < 1e8f && fabsf(p->scale[c]) < 100.0f))
            return false;
    return true;
}

/* Each target's first frame, its parent (version 7's target_parents: -1,
 * the base, or an earlier target that some frame shows; absent: the base)
 * and the longest path. One block: target_first, target_parent, then each
 * target's depth. */
static mk_status read_parents(mk_pack_reader *r, packed *p, const mk_allocator *al)
{
    p->tree = false;
    p->tree_depth = p->targets ? 1 : 0;
    if (!p->targets)
        return MK_OK;
    p->target_first = mk_alloc(al, 3 * (size_t)p->targets * sizeof(uint32_t));
    if (!p->target_first)
        return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    p->target_parent = p->target_first + p->targets;
    uint32_t *depth = p->target_parent + p->targets;
    for (uint32_t t = 0; t < p->targets; t++)
        p->target_first[t] = p->target_parent[t] = MK_NONE;
    for (uint32_t f = p->frames; f-- > 0;)
        if (p->frame_target[f] != MK_NONE)
            p->target_first[p->frame_target[f]] = f;
    const mk_gltf_json_value *tp = mk_gltf_json_get(r->doc, p->x, "target_parents"), *e;
    if (!tp)
        return MK_OK;
    if (p->version < 7 || !mk_gltf_json_is(tp, MK_GLTF_JSON_ARRAY) || tp->size != p->targets)
        return mk_pack_bad(r, "target_parents", MK_NONE,
                           "not one entry per morph target (version 7)");
    uint32_t t = 0;
    MK_GLTF_JSON_EACH (r->doc, e, tp) {
        int64_t v;
        if (!mk_pack_whole(r, e, -1, (double)t - 1, &v))
            return mk_pack_bad(r, "target_parents", t, "not -1 or an earlier target");
        if (v >= 0 && p->target_first[v] == MK_NONE)
            return mk_pack_bad(r, "target_parents", t, "a target no frame shows");
        p->target_parent[t] = v < 0 ? MK_NONE : (uint32_t)v;
        depth[t] = v < 0 ? 1 : depth[v] + 1;
        p->tree_depth = depth[t] > p->tree_depth ? depth[t] : p->tree_depth;
        p->tree |= v >= 0;
        t++;
    }
    return MK_OK;
}

static bool is_accessor(const mk_gltf *g, uint32_t a, mk_gltf_type type, uint32_t count)
{
    return a != MK_NONE && g->accessors[a].type == type && g->accessors[a].count == count;
}

static mk_status build(mk_pack_reader *r, const mk_gltf *g, const mk_gltf_json_value *x, mk_unit *u)
{
    const mk_allocator *al = &u->allocator;
    mk_status s;
    int64_t version;
    if (!mk_pack_whole(r, mk_gltf_json_get(r->doc, x, "version"), 0, 1e9, &version))
        return mk_pack_bad(r, "version", MK_NONE, "missing or not a whole number");
    if (version < 1 || version > MK_PACK_VERSION)
        return mk_error_set(r->err, MK_ERR_UNSUPPORTED, r->file, 0,
                            "packed unit version %lld is not supported (this reader reads 1 to %d)",
                            (long long)version, MK_PACK_VERSION);
    if (g->mesh_count != 1 || g->meshes[0].primitive_count == 0 ||
        g->meshes[0].primitive_count > 1000)
        return mk_error_set(r->err, MK_ERR_UNSUPPORTED, r->file, 0,
                            "a packed unit has one mesh (with a primitive per material)");
    packed p;
    memset(&p, 0, sizeof p);
    p.version = (uint32_t)version;
    p.g = g;
    p.prim = &g->meshes[0].primitives[0];
    p.targets = g->meshes[0].target_count;
    p.obj_v = p.obj_vn = MK_NONE;
    uint32_t node = 0;
    while (node < g->node_count && g->nodes[node].mesh != 0)
        node++;
    if (node == g->node_count)
        return mk_error_set(r->err, MK_ERR_PARSE, r->file, 0, "no node shows the mesh");
    const mk_gltf_node *nd = &g->nodes[node];
    if (nd->has_matrix || nd->parent != MK_NONE || nd->rotation[0] != 0.0f ||
        nd->rotation[1] != 0.0f || nd->rotation[2] != 0.0f || nd->rotation[3] != 1.0f)
        return mk_error_set(r->err, MK_ERR_UNSUPPORTED, r->file, 0,
                            "the mesh's node may only translate and scale it");
    for (int c = 0; c < 3; c++) {
        p.translation[c] = nd->translation[c];
        p.scale[c] = nd->scale[c];
        p.transform |= nd->translation[c] != 0.0f || nd->scale[c] != 1.0f;
    }
    const mk_gltf_primitive *pr = p.prim;
    if (pr->position == MK_NONE || pr->indices == MK_NONE || pr->mode != MK_GLTF_TRIANGLES)
        return mk_error_set(r->err, MK_ERR_PARSE, r->file, 0,
                            "the primitive needs POSITION, indices and triangles");
    p.vertices = g->accessors[pr->position].count;
    p.x = x;
    /* the material primitives share everything but their indices */
    uint64_t total = 0;
    for (uint32_t k = 0; k < g->meshes[0].primitive_count; k++) {
        const mk_gltf_primitive *q = &g->meshes[0].primitives[k];
        bool same = q->position == pr->position && q->normal == pr->normal &&
                    q->texcoord0 == pr->texcoord0 && q->indices != MK_NONE &&
                    q->mode == MK_GLTF_TRIANGLES;
        for (uint32_t t = 0; same && t < p.targets; t++)
            same = q->targets[t].position == pr->targets[t].position &&
                   q->targets[t].normal == pr->targets[t].normal;
        if (!same)
            return mk_error_set(r->err, MK_ERR_PARSE, r->file, 0,
                                "primitive %u does not share primitive 0's attributes and targets", k);
        total += g->accessors[q->indices].count;
    }
    if (total > UINT32_MAX / 2)
        return mk_error_set(r->err, MK_ERR_LIMIT, r->file, 0, "too many indices");
    uint32_t index_count = (uint32_t)total;
    if (p.vertices == 0 || index_count == 0 || index_count % 3 ||
        g->accessors[pr->position].type != MK_GLTF_VEC3 ||
        (pr->normal != MK_NONE && !is_accessor(g, pr->normal, MK_GLTF_VEC3, p.vertices)) ||
        (pr->texcoord0 != MK_NONE && !is_accessor(g, pr->texcoord0, MK_GLTF_VEC2, p.vertices)))
        return mk_error_set(r->err, MK_ERR_PARSE, r->file, 0,
                            "the primitive's POSITION, NORMAL, TEXCOORD_0 or indices have the wrong form");
    for (uint32_t t = 0; t < p.targets; t++) {
        const mk_gltf_target *tg = &pr->targets[t];
        if ((tg->position != MK_NONE && !is_accessor(g, tg->position, MK_GLTF_VEC3, p.vertices)) ||
            (tg->normal != MK_NONE && !is_accessor(g, tg->normal, MK_GLTF_VEC3, p.vertices)))
            return mk_error_set(r->err, MK_ERR_PARSE, r->file, 0,
                                "morph target %u does not have one VEC3 per vertex", t);
    }
    p.obj_v = attribute(r, "_OBJ_V", g->accessor_count);
    p.obj_vn = attribute(r, "_OBJ_VN", g->accessor_count);
    const mk_gltf_json_value *md = mk_gltf_json_get(r->doc, x, "map_deltas");
    if (md && (p.version < 4 || (!mk_gltf_json_is(md, MK_GLTF_JSON_TRUE) &&
                                 !mk_gltf_json_is(md, MK_GLTF_JSON_FALSE))))
        return mk_pack_bad(r, "map_deltas", MK_NONE, "not true/false (version 4)");
    p.map_deltas = mk_gltf_json_is(md, MK_GLTF_JSON_TRUE);
    p.index_turns = MK_NONE;
    const mk_gltf_json_value *turns = mk_gltf_json_get(r->doc, x, "index_turns");
    int64_t turns_at;
    if (turns && (p.version < 4 ||
                  !mk_pack_whole(r, turns, 0, (double)g->accessor_count - 1, &turns_at)))
        return mk_pack_bad(r, "index_turns", MK_NONE, "not an accessor index (version 4)");
    if (turns)
        p.index_turns = (uint32_t)turns_at;
    const mk_gltf_json_value *flat = mk_gltf_json_get(r->doc, x, "flat_normals");
    if (flat && (p.version < 5 || (!mk_gltf_json_is(flat, MK_GLTF_JSON_TRUE) &&
                                   !mk_gltf_json_is(flat, MK_GLTF_JSON_FALSE))))
        return mk_pack_bad(r, "flat_normals", MK_NONE, "not true/false (version 5)");
    p.flat_normals = mk_gltf_json_is(flat, MK_GLTF_JSON_TRUE);
    const mk_gltf_json_value *fu = mk_gltf_json_get(r->doc, x, "first_use_order");
    if (fu && (p.version < 6 || (!mk_gltf_json_is(fu, MK_GLTF_JSON_TRUE) &&
                                 !mk_gltf_json_is(fu, MK_GLTF_JSON_FALSE))))
        return mk_pack_bad(r, "first_use_order", MK_NONE, "not true/false (version 6)");
    p.first_use_order = mk_gltf_json_is(fu, MK_GLTF_JSON_TRUE);
    for (uint32_t t = 0; p.flat_normals && t <= p.targets; t++)
        if ((t == p.targets ? pr->normal : pr->targets[t].normal) != MK_NONE)
            return mk_pack_bad(r, "flat_normals", MK_NONE,
                               "true, but the mesh stores normals (NORMAL)");
    if ((s = mk_pack_get_string(r, al, x, "unit", "", true, &u->name)) != MK_OK ||
        (s = mk_pack_get_u32(r, x, "position_count", "", &u->position_count)) != MK_OK ||
        (s = mk_pack_get_u32(r, x, "normal_count", "", &u->normal_count)) != MK_OK)
        return s;
    if ((s = mk_pack_read_files(r, x, u, p.targets, &p.frame_target, &p.frames)) != MK_OK ||
        (s = read_parents(r, &p, al)) != MK_OK) {
        mk_free(al, p.frame_target, (size_t)p.frames * sizeof(uint32_t));
        mk_free(al, p.target_first, 3 * (size_t)p.targets * sizeof(uint32_t));
        return s;
    }
    if ((s = mk_pack_read_clips(r, x, u)) == MK_OK) {
        mk_frame_set_desc fd = {p.frames, p.vertices, index_count,
                                pr->normal != MK_NONE || p.flat_normals,
                                pr->texcoord0 != MK_NONE};
        s = mk_frame_set_create(&fd, al, &u->frames, r->err);
    }
    /* read_frames: deltas, then lengths (and what is read in the file's order) */
    size_t scratch_size = (p.first_use_order ? 7 : 4) * (size_t)p.vertices;
    if (scratch_size < u->position_count)
        scratch_size = u->position_count;
    float *scratch = s == MK_OK ? mk_alloc(al, scratch_size * sizeof(float)) : NULL;
    uint32_t *used = s == MK_OK ? mk_alloc(al, (size_t)p.vertices * sizeof(uint32_t)) : NULL;
    uint32_t *new_of_old = s == MK_OK && p.first_use_order
                               ? mk_alloc(al, (size_t)p.vertices * sizeof(uint32_t))
                               : NULL;
    p.new_of_old = new_of_old;
    if (s == MK_OK && (!scratch || !used || (p.first_use_order && !new_of_old)))
        s = mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    if (s == MK_OK)
        s = read_frames(r, u, &p, scratch, used);
    if (s == MK_OK)
        s = read_maps(r, u, &p, (uint32_t *)scratch);
    if (s == MK_OK && p.new_of_old) /* the maps were read in the file's order */
        mk_renumber_maps(u, p.new_of_old, used);
    if (s == MK_OK && !surely_finite(&p)) {
        mk_error fe; /* its message, with this file's name */
        if ((s = mk_frame_set_validate(u->frames, &fe)) != MK_OK)
            s = mk_error_set(r->err, s, r->file, 0, "%s", fe.message);
    }
    mk_free(al, scratch, scratch_size * sizeof(float));
    mk_free(al, used, (size_t)p.vertices * sizeof(uint32_t));
    mk_free(al, new_of_old, (size_t)p.vertices * sizeof(uint32_t));
    mk_free(al, p.frame_target, (size_t)p.frames * sizeof(uint32_t));
    mk_free(al, p.target_first, 3 * (size_t)p.targets * sizeof(uint32_t));
    return s;
}

/* base_dir: the folder of a .gltf's external .bin (NULL: none allowed). */
static mk_status parse_packed(const void *data, size_t size, const char *name,
                              const char *base_dir, const mk_file_callbacks *files,
                              const mk_allocator *al, mk_unit **out, mk_error *err)
{
    *out = NULL;
    const char *file = name ? name : "<memory>";
    const char *json;
    size_t json_size;
    if (!glb_json(data, size, &json, &json_size))
        return mk_error_set(err, MK_ERR_PARSE, file, 0,
                            "not a packed unit: neither a GLB nor glTF JSON");
    mk_gltf_options go = {0, 0, files};
    mk_gltf *g;
    mk_gltf_json doc; /* the glTF reader's own parse, read once more for the extras */
    mk_status s = mk_gltf_parse_keep_json(data, size, base_dir, file, &go, al, &g, &doc, err);
    if (s != MK_OK)
        return s;
    mk_pack_reader r = {&doc, file, err};
    const mk_gltf_json_value *x = morphkit_extras(&doc);
    mk_unit *u = x ? mk_alloc(al, sizeof *u) : NULL;
    if (!x) {
        s = mk_error_set(err, MK_ERR_PARSE, file, 0,
                         "not a packed unit: no extras.morphkit object (a plain glTF file?)");
    } else if (!u) {
        s = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, file, 0, "out of memory");
    } else {
        memset(u, 0, sizeof *u);
        u->allocator = mk_allocator_copy(al);
        s = build(&r, g, x, u);
        u->bytes_on_disk = size;
        /* a .gltf's buffers in files of their own (its .bin) count too */
        for (uint32_t k = 0; base_dir && k < g->buffer_count; k++) {
            const mk_gltf_buffer *bf = &g->buffers[k];
            if (bf->uri && !bf->fallback && strncmp(bf->uri, "data:", 5) != 0)
                u->bytes_on_disk += bf->byte_length;
        }
    }
    mk_gltf_json_free(&doc, al);
    mk_gltf_destroy(g);
    if (s != MK_OK) {
        mk_unit_destroy(u);
        return s;
    }
    *out = u;
    return MK_OK;
}

mk_status mk_unit_parse_packed(const void *data, size_t size, const char *name,
                               const mk_allocator *allocator, mk_unit **out, mk_error *err)
{
    if (!out || (!data && size))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "mk_unit_parse_packed: data and out are required");
    return parse_packed(data, size, name, NULL, NULL, allocator, out, err);
}

mk_status mk_unit_load_packed(const char *path, const mk_unit_options *options,
                              const mk_allocator *allocator, mk_unit **out, mk_error *err)
{
    if (!path || !out)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "mk_unit_load_packed: path and out are required");
    *out = NULL;
    const mk_allocator *al = allocator;
    const mk_file_callbacks *files = options ? options->files : NULL;
    void *data;
    size_t size;
    mk_status s = mk_file_read(files, path, al, 0, &data, &size, err);
    if (s != MK_OK)
        return s;
    /* a .gltf's .bin lies beside it */
    char *dir = mk_path_parent(al, path);
    if (!dir)
        s = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
    else
        s = parse_packed(data, size, path, dir, files, allocator, out, err);
    mk_strfree(al, dir);
    mk_file_release(files, al, data, size);
    return s;
}
