/* glTF reader: meshes, primitives and morph targets (§3.7.2). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"

/* Reads attribute `key` of obj (an accessor index) and checks its type. */
static mk_status attribute(mk_gltf_ctx *c, const cJSON *obj, const char *key, const char *path,
                           mk_gltf_type type, mk_gltf_type alt, uint32_t *out)
{
    char apath[160];
    snprintf(apath, sizeof apath, "%s.%s", path, key);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = MK_GLTF_NONE;
    if (!v)
        return MK_OK;
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) || v->valuedouble != floor(v->valuedouble))
        return mk_gltf_fail(c, MK_ERR_PARSE, apath, "must be an accessor index");
    if (v->valuedouble >= (double)c->g->accessor_count)
        return mk_gltf_fail(c, MK_ERR_RANGE, apath, "accessor %.0f out of range (%u accessors)",
                            v->valuedouble, c->g->accessor_count);
    uint32_t idx = (uint32_t)v->valuedouble;
    const mk_gltf_accessor *a = &c->g->accessors[idx];
    if (a->type != type && a->type != alt)
        return mk_gltf_fail(c, MK_ERR_PARSE, apath, "accessor %u has type %s, expected %s", idx,
                            mk_gltf_type_name(a->type), mk_gltf_type_name(type));
    *out = idx;
    return MK_OK;
}

/* Every attribute of a primitive (and every target attribute) has the
 * vertex count of POSITION (§3.7.2.1). */
static mk_status check_count(mk_gltf_ctx *c, const char *path, const char *key, uint32_t acc,
                             uint32_t vertex_count, const char *base)
{
    if (acc == MK_GLTF_NONE || vertex_count == 0)
        return MK_OK;
    uint32_t n = c->g->accessors[acc].count;
    if (n != vertex_count) {
        char kpath[200];
        snprintf(kpath, sizeof kpath, "%s.%s", path, key);
        return mk_gltf_fail(c, MK_ERR_MISMATCH, kpath, "accessor %u has count %u, %s has %u", acc,
                            n, base, vertex_count);
    }
    return MK_OK;
}

/* Index values must address existing vertices. */
static mk_status check_indices(mk_gltf_ctx *c, const char *path, uint32_t acc, uint32_t vertices)
{
    const mk_gltf_accessor *a = &c->g->accessors[acc];
    if (a->type != MK_GLTF_SCALAR || a->normalized ||
        (a->component_type != MK_GLTF_UNSIGNED_BYTE &&
         a->component_type != MK_GLTF_UNSIGNED_SHORT && a->component_type != MK_GLTF_UNSIGNED_INT))
        return mk_gltf_fail(c, MK_ERR_PARSE, path,
                            "indices: accessor %u must be an unsigned integer SCALAR", acc);
    if (vertices == 0 || a->sparse.count)
        return MK_OK; /* sparse index buffers: checked by mk_gltf_accessor_read_index users */
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

static mk_status parse_primitive(mk_gltf_ctx *c, const cJSON *item, const char *path,
                                 mk_gltf_primitive *p)
{
    mk_status s;
    char apath[160];
    uint32_t mode;
    if ((s = mk_gltf_json_object(c, item, path)) != MK_OK)
        return s;
    const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(item, "attributes");
    snprintf(apath, sizeof apath, "%s.attributes", path);
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
        (s = mk_gltf_json_uint(c, item, "material", path, false, MK_GLTF_NONE, &p->material)) !=
            MK_OK ||
        (s = mk_gltf_json_uint(c, item, "mode", path, false, MK_GLTF_TRIANGLES, &mode)) != MK_OK)
        return s;
    if (mode > MK_GLTF_TRIANGLE_FAN)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "mode %u is not 0..6", mode);
    p->mode = (mk_gltf_mode)mode;
    uint32_t vc = p->position != MK_GLTF_NONE ? c->g->accessors[p->position].count : 0;
    if ((s = check_count(c, apath, "NORMAL", p->normal, vc, "POSITION")) != MK_OK ||
        (s = check_count(c, apath, "TANGENT", p->tangent, vc, "POSITION")) != MK_OK ||
        (s = check_count(c, apath, "TEXCOORD_0", p->texcoord0, vc, "POSITION")) != MK_OK ||
        (s = check_count(c, apath, "COLOR_0", p->color0, vc, "POSITION")) != MK_OK)
        return s;
    if (p->indices != MK_GLTF_NONE && (s = check_indices(c, path, p->indices, vc)) != MK_OK)
        return s;

    const cJSON *targets, *t;
    if ((s = mk_gltf_json_array(c, item, "targets", path, &targets, &p->target_count)) != MK_OK)
        return s;
    if (p->target_count == 0)
        return MK_OK;
    p->targets = (mk_gltf_target *)mk_gltf_arena_array(c->st, p->target_count, sizeof *p->targets);
    if (!p->targets)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, path, "out of memory");
    uint32_t i = 0;
    cJSON_ArrayForEach (t, targets) {
        char tpath[192];
        snprintf(tpath, sizeof tpath, "%s.targets[%u]", path, i);
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

static mk_status parse_target_names(mk_gltf_ctx *c, const cJSON *item, mk_gltf_mesh *m)
{
    const cJSON *extras = cJSON_GetObjectItemCaseSensitive(item, "extras");
    const cJSON *names =
        cJSON_IsObject(extras) ? cJSON_GetObjectItemCaseSensitive(extras, "targetNames") : NULL;
    /* extras are application data: a malformed list is ignored, not an error. */
    if (!cJSON_IsArray(names) || (uint32_t)cJSON_GetArraySize(names) != m->target_count ||
        m->target_count == 0)
        return MK_OK;
    m->target_names = (char **)mk_gltf_arena_array(c->st, m->target_count, sizeof(char *));
    if (!m->target_names)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, "meshes", "out of memory");
    uint32_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach (e, names) {
        if (cJSON_IsString(e) &&
            !(m->target_names[i] = mk_gltf_arena_strdup(c->st, e->valuestring)))
            return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, "meshes", "out of memory");
        i++;
    }
    return MK_OK;
}

static mk_status parse_mesh(mk_gltf_ctx *c, const cJSON *item, const char *path, mk_gltf_mesh *m)
{
    mk_status s;
    const cJSON *prims, *p;
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
    cJSON_ArrayForEach (p, prims) {
        char ppath[96];
        snprintf(ppath, sizeof ppath, "%s.primitives[%u]", path, i);
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
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(item, "weights");
    if (w) {
        if (!cJSON_IsArray(w) || (uint32_t)cJSON_GetArraySize(w) != m->target_count)
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

mk_status mk_gltf_parse_meshes(mk_gltf_ctx *c, const cJSON *root)
{
    const cJSON *arr, *item;
    uint32_t count;
    mk_status s = mk_gltf_json_array(c, root, "meshes", "", &arr, &count);
    if (s != MK_OK || count == 0)
        return s;
    mk_gltf *g = c->g;
    g->meshes = (mk_gltf_mesh *)mk_gltf_arena_array(c->st, count, sizeof(mk_gltf_mesh));
    if (!g->meshes)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, "meshes", "out of memory");
    g->mesh_count = count;
    uint32_t i = 0;
    cJSON_ArrayForEach (item, arr) {
        char path[64];
        snprintf(path, sizeof path, "meshes[%u]", i);
        if ((s = parse_mesh(c, item, path, &g->meshes[i++])) != MK_OK)
            return s;
    }
    return MK_OK;
}
