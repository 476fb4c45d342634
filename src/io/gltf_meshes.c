/* glTF reader: meshes, primitives and morph targets (§3.7.2). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"

/* Reads attribute `key` of obj (an accessor index) and checks its type. */
static mk_status attribute(mk_gltf_ctx *c, const mk_gltf_json_value *obj, const char *key,
                           const mk_gltf_path *path, mk_gltf_type type, mk_gltf_type alt,
                           uint32_t *out)
{
    const mk_gltf_path apath = {path, key, MK_NONE};
    const mk_gltf_json_value *v = mk_gltf_json_get(c->json, obj, key);
    *out = MK_NONE;
    if (!v)
        return MK_OK;
    double d = mk_gltf_json_is(v, MK_GLTF_JSON_NUMBER) ? mk_gltf_json_double(c->json, v) : -1.0;
    if (!(d >= 0) || d != floor(d))
        return mk_gltf_fail(c, MK_ERR_PARSE, &apath, "must be an accessor index");
    if (d >= (double)c->g->accessor_count)
        return mk_gltf_fail(c, MK_ERR_RANGE, &apath, "accessor %.0f out of range (%u accessors)", d,
                            c->g->accessor_count);
    uint32_t idx = (uint32_t)d;
    const mk_gltf_accessor *a = &c->g->accessors[idx];
    if (a->type != type && a->type != alt)
        return mk_gltf_fail(c, MK_ERR_PARSE, &apath, "accessor %u has type %s, expected %s", idx,
                            mk_gltf_type_name(a->type), mk_gltf_type_name(type));
    *out = idx;
    return MK_OK;
}

/* Every attribute of a primitive (and every target attribute) has the
 * vertex count of POSITION (§3.7.2.1). */
static mk_status check_count(mk_gltf_ctx *c, const mk_gltf_path *path, const char *key,
                             uint32_t acc, uint32_t vertex_count, const char *base)
{
    if (acc == MK_NONE || vertex_count == 0)
        return MK_OK;
    uint32_t n = c->g->accessors[acc].count;
    if (n != vertex_count) {
        const mk_gltf_path kpath = {path, key, MK_NONE};
        return mk_gltf_fail(c, MK_ERR_MISMATCH, &kpath, "accessor %u has count %u, %s has %u", acc,
                            n, base, vertex_count);
    }
    return MK_OK;
}

/* Index values must address existing vertices. */
static mk_status check_indices(mk_gltf_ctx *c, const mk_gltf_path *path, uint32_t acc,
                               uint32_t vertices)
{
    const mk_gltf_accessor *a = &c->g->accessors[acc];
    if (a->type != MK_GLTF_SCALAR || a->normalized ||
        (a->component_type != MK_GLTF_UNSIGNED_BYTE &&
         a->component_type != MK_GLTF_UNSIGNED_SHORT && a->component_type != MK_GLTF_UNSIGNED_INT))
        return mk_gltf_fail(c, MK_ERR_PARSE, path,
                            "indices: accessor %u must be an unsigned integer SCALAR", acc);
    if (vertices == 0)
        return MK_OK;
    if (a->sparse.count) { /* a sparse index list (rare): decoded once to check */
        uint32_t *v = mk_alloc(&c->st->allocator, ((size_t)a->count + 1) * sizeof *v);
        if (!v)
            return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, path, "out of memory");
        mk_error e;
        mk_status s = mk_gltf_accessor_read_index(c->g, acc, v, a->count, &e);
        if (s != MK_OK)
            s = mk_gltf_fail(c, s, path, "indices: %s", e.message);
        for (uint32_t i = 0; s == MK_OK && i < a->count; i++)
            if (v[i] >= vertices)
                s = mk_gltf_fail(c, MK_ERR_RANGE, path,
                                 "indices: accessor %u value %u at %u is not below the vertex "
                                 "count %u",
                                 acc, v[i], i, vertices);
        mk_free(&c->st->allocator, v, ((size_t)a->count + 1) * sizeof *v);
        return s;
    }
    const uint8_t *p = mk_gltf_accessor_base(c->g, a);
    if (!p)
        return MK_OK; /* all zeros */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* Fast path: the largest value of a tightly packed u16/u32 index list in
     * one branch-free (vectorizable) pass; only a list that fails goes
     * through the per-element loop below, which names the first bad value. */
    uint32_t size = mk_gltf_component_size(a->component_type), largest = 0;
    if (a->stride == size && size == 4) {
        for (uint32_t i = 0; i < a->count; i++) {
            uint32_t v;
            memcpy(&v, p + (size_t)i * 4, 4);
            largest = v > largest ? v : largest;
        }
        if (largest < vertices)
            return MK_OK;
    } else if (a->stride == size && size == 2) {
        for (uint32_t i = 0; i < a->count; i++) {
            uint16_t v;
            memcpy(&v, p + (size_t)i * 2, 2);
            largest = v > largest ? v : largest;
        }
        if (largest < vertices)
            return MK_OK;
    }
#endif
    for (uint32_t i = 0; i < a->count; i++) {
        uint32_t v = mk_gltf_read_uindex(p + (size_t)i * a->stride, a->component_type);
        if (v >= vertices)
            return mk_gltf_fail(c, MK_ERR_RANGE, path,
                                "indices: accessor %u value %u at %u is not below the vertex "
                                "count %u",
                                acc, v, i, vertices);
    }
    return MK_OK;
}

static mk_status parse_primitive(mk_gltf_ctx *c, const mk_gltf_json_value *item,
                                 const mk_gltf_path *path, mk_gltf_primitive *p)
{
    mk_status s;
    const mk_gltf_path apath_node = {path, "attributes", MK_NONE}, *apath = &apath_node;
    uint32_t mode;
    if ((s = mk_gltf_json_object(c, item, path)) != MK_OK)
        return s;
    const mk_gltf_json_value *attrs = mk_gltf_json_get(c->json, item, "attributes");
    if (!attrs)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "missing required 'attributes'");
    if ((s = mk_gltf_json_object(c, attrs, apath)) != MK_OK ||
        (s = attribute(c, attrs, "POSITION", apath, MK_GLTF_VEC3, MK_GLTF_VEC3, &p->position)) !=
            MK_OK ||
        (s = attribute(c, attrs, "NORMAL", apath, MK_GLTF_VEC3, MK_GLTF_VEC3, &p->normal)) !=
            MK_OK ||
        (s = attribute(c, attrs, "TANGENT", apath, MK_GLTF_VEC4, MK_GLTF_VEC4, &p->tangent)) !=
            MK_OK ||
        (s = attribute(c, attrs, "TEXCOORD_0", apath, MK_GLTF_VEC2, MK_GLTF_VEC2, &p->texcoord0)) !=
            MK_OK ||
        (s = attribute(c, attrs, "COLOR_0", apath, MK_GLTF_VEC3, MK_GLTF_VEC4, &p->color0)) !=
            MK_OK ||
        (s = mk_gltf_json_index(c, item, "indices", path, false, c->g->accessor_count, "accessors",
                                &p->indices)) != MK_OK ||
        (s = mk_gltf_json_uint(c, item, "material", path, false, MK_NONE, &p->material)) !=
            MK_OK ||
        (s = mk_gltf_json_uint(c, item, "mode", path, false, MK_GLTF_TRIANGLES, &mode)) != MK_OK)
        return s;
    if (mode > MK_GLTF_TRIANGLE_FAN)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "mode %u is not 0..6", mode);
    p->mode = (mk_gltf_mode)mode;
    uint32_t vc = p->position != MK_NONE ? c->g->accessors[p->position].count : 0;
    if ((s = check_count(c, apath, "NORMAL", p->normal, vc, "POSITION")) != MK_OK ||
        (s = check_count(c, apath, "TANGENT", p->tangent, vc, "POSITION")) != MK_OK ||
        (s = check_count(c, apath, "TEXCOORD_0", p->texcoord0, vc, "POSITION")) != MK_OK ||
        (s = check_count(c, apath, "COLOR_0", p->color0, vc, "POSITION")) != MK_OK)
        return s;
    if (p->indices != MK_NONE && (s = check_indices(c, path, p->indices, vc)) != MK_OK)
        return s;
    if ((s = mk_gltf_parse_skin_attributes(c, attrs, apath, p, vc)) != MK_OK)
        return s;

    const mk_gltf_json_value *targets, *t;
    if ((s = mk_gltf_json_array(c, item, "targets", path, &targets, &p->target_count)) != MK_OK)
        return s;
    if (p->target_count == 0)
        return MK_OK;
    p->targets = (mk_gltf_target *)mk_gltf_arena_array(c->st, p->target_count, sizeof *p->targets);
    if (!p->targets)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, path, "out of memory");
    uint32_t i = 0;
    MK_GLTF_JSON_EACH (c->json, t, targets) {
        const mk_gltf_path tpath_node = {path, "targets", i}, *tpath = &tpath_node;
        mk_gltf_target *tg = &p->targets[i++];
        /* §3.7.2.2: target POSITION/NORMAL/TANGENT are all VEC3 deltas. */
        if ((s = mk_gltf_json_object(c, t, tpath)) != MK_OK ||
            (s = attribute(c, t, "POSITION", tpath, MK_GLTF_VEC3, MK_GLTF_VEC3, &tg->position)) !=
                MK_OK ||
            (s = attribute(c, t, "NORMAL", tpath, MK_GLTF_VEC3, MK_GLTF_VEC3, &tg->normal)) !=
                MK_OK ||
            (s = attribute(c, t, "TANGENT", tpath, MK_GLTF_VEC3, MK_GLTF_VEC3, &tg->tangent)) !=
                MK_OK ||
            (s = check_count(c, tpath, "POSITION", tg->position, vc, "the base POSITION")) !=
                MK_OK ||
            (s = check_count(c, tpath, "NORMAL", tg->normal, vc, "the base POSITION")) != MK_OK ||
            (s = check_count(c, tpath, "TANGENT", tg->tangent, vc, "the base POSITION")) != MK_OK)
            return s;
    }
    return MK_OK;
}

static mk_status parse_target_names(mk_gltf_ctx *c, const mk_gltf_json_value *item,
                                    mk_gltf_mesh *m)
{
    const mk_gltf_json_value *extras = mk_gltf_json_get(c->json, item, "extras");
    const mk_gltf_json_value *names = mk_gltf_json_get(c->json, extras, "targetNames");
    /* extras are application data: a malformed list is ignored, not an error. */
    if (!mk_gltf_json_is(names, MK_GLTF_JSON_ARRAY) || names->size != m->target_count ||
        m->target_count == 0)
        return MK_OK;
    m->target_names = (char **)mk_gltf_arena_array(c->st, m->target_count, sizeof(char *));
    if (!m->target_names)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, MK_GLTF_PATH("meshes"), "out of memory");
    uint32_t i = 0;
    const mk_gltf_json_value *e;
    MK_GLTF_JSON_EACH (c->json, e, names) {
        if (e->type == MK_GLTF_JSON_STRING && !(m->target_names[i] = mk_gltf_json_strdup(c, e)))
            return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, MK_GLTF_PATH("meshes"), "out of memory");
        i++;
    }
    return MK_OK;
}

static mk_status parse_mesh(mk_gltf_ctx *c, const mk_gltf_json_value *item,
                            const mk_gltf_path *path, mk_gltf_mesh *m)
{
    mk_status s;
    const mk_gltf_json_value *prims, *p;
    if ((s = mk_gltf_json_object(c, item, path)) != MK_OK ||
        (s = mk_gltf_json_string(c, item, "name", path, &m->name)) != MK_OK ||
        (s = mk_gltf_json_array(c, item, "primitives", path, &prims, &m->primitive_count)) != MK_OK)
        return s;
    if (m->primitive_count == 0)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "needs at least one primitive");
    m->primitives =
        (mk_gltf_primitive *)mk_gltf_arena_array(c->st, m->primitive_count, sizeof *m->primitives);
    if (!m->primitives)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, path, "out of memory");
    uint32_t i = 0;
    MK_GLTF_JSON_EACH (c->json, p, prims) {
        const mk_gltf_path ppath_node = {path, "primitives", i}, *ppath = &ppath_node;
        mk_gltf_primitive *pr = &m->primitives[i];
        if ((s = parse_primitive(c, p, ppath, pr)) != MK_OK)
            return s;
        /* §3.7.2.2: all primitives of a mesh have the same number of targets. */
        if (i > 0 && pr->target_count != m->target_count)
            return mk_gltf_fail(c, MK_ERR_MISMATCH, ppath,
                                "has %u morph targets, primitives[0] has %u", pr->target_count,
                                m->target_count);
        m->target_count = pr->target_count;
        i++;
    }
    const mk_gltf_json_value *w = mk_gltf_json_get(c->json, item, "weights");
    if (w) {
        if (!mk_gltf_json_is(w, MK_GLTF_JSON_ARRAY) || w->size != m->target_count)
            return mk_gltf_fail(c, MK_ERR_MISMATCH, path,
                                "weights must be an array of %u numbers (one per target)",
                                m->target_count);
        if (m->target_count) {
            m->weights = (float *)mk_gltf_arena_array(c->st, m->target_count, sizeof(float));
            if (!m->weights)
                return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, path, "out of memory");
            if ((s = mk_gltf_json_floats(c, item, "weights", path, m->weights, m->target_count,
                                         NULL)) != MK_OK)
                return s;
        }
    }
    return parse_target_names(c, item, m);
}

mk_status mk_gltf_parse_meshes(mk_gltf_ctx *c, const mk_gltf_json_value *root)
{
    const mk_gltf_json_value *arr, *item;
    uint32_t count;
    mk_status s = mk_gltf_json_array(c, root, "meshes", NULL, &arr, &count);
    if (s != MK_OK || count == 0)
        return s;
    mk_gltf *g = c->g;
    g->meshes = (mk_gltf_mesh *)mk_gltf_arena_array(c->st, count, sizeof(mk_gltf_mesh));
    if (!g->meshes)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, MK_GLTF_PATH("meshes"), "out of memory");
    g->mesh_count = count;
    uint32_t i = 0;
    MK_GLTF_JSON_EACH (c->json, item, arr) {
        const mk_gltf_path path = {NULL, "meshes", i};
        if ((s = parse_mesh(c, item, &path, &g->meshes[i++])) != MK_OK)
            return s;
    }
    return MK_OK;
}
