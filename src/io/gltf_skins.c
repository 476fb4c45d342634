/* glTF reader: skins (§3.7.3), the JOINTS_n / WEIGHTS_n attributes of
 * primitives, the checks that tie them together, and the runtime skin
 * (skin.h) of a skinned primitive. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"
#include "morphkit/skin.h"

/* The set number of an attribute name "<prefix><n>" (n a plain decimal
 * without leading zeros), or MK_NONE when name is not of that form. */
static uint32_t set_number(const char *name, const char *prefix)
{
    size_t pl = strlen(prefix);
    if (strncmp(name, prefix, pl) != 0)
        return MK_NONE;
    const char *d = name + pl;
    if (d[0] < '0' || d[0] > '9' || (d[0] == '0' && d[1] != '\0') || strlen(d) > 6)
        return MK_NONE;
    uint32_t n = 0;
    for (; *d; d++) {
        if (*d < '0' || *d > '9')
            return MK_NONE;
        n = n * 10 + (uint32_t)(*d - '0');
    }
    return n;
}

/* Accessor `acc` named `key` must be VEC4 of one of the allowed component
 * forms and have vertex_count elements. */
static mk_status check_influence_accessor(mk_gltf_ctx *c, const mk_gltf_path *apath,
                                          const char *key, uint32_t acc, uint32_t vertex_count,
                                          bool weights)
{
    const mk_gltf_path kpath = {apath, key, MK_NONE};
    const mk_gltf_accessor *a = &c->g->accessors[acc];
    bool ok;
    if (weights)
        ok = a->component_type == MK_GLTF_FLOAT ||
             (a->normalized && (a->component_type == MK_GLTF_UNSIGNED_BYTE ||
                                a->component_type == MK_GLTF_UNSIGNED_SHORT));
    else
        ok = !a->normalized && (a->component_type == MK_GLTF_UNSIGNED_BYTE ||
                                a->component_type == MK_GLTF_UNSIGNED_SHORT);
    if (a->type != MK_GLTF_VEC4 || !ok)
        return mk_gltf_fail(c, MK_ERR_PARSE, &kpath,
                            weights ? "accessor %u must be VEC4 of FLOAT or normalized "
                                      "UNSIGNED_BYTE/UNSIGNED_SHORT"
                                    : "accessor %u must be VEC4 of UNSIGNED_BYTE or "
                                      "UNSIGNED_SHORT (not normalized)",
                            acc);
    if (vertex_count && a->count != vertex_count)
        return mk_gltf_fail(c, MK_ERR_MISMATCH, &kpath, "accessor %u has count %u, POSITION has %u",
                            acc, a->count, vertex_count);
    return MK_OK;
}

mk_status mk_gltf_parse_skin_attributes(mk_gltf_ctx *c, const mk_gltf_json_value *attrs,
                                        const mk_gltf_path *apath, mk_gltf_primitive *p,
                                        uint32_t vertex_count)
{
    const mk_gltf_json_value *k;
    uint32_t sets = 0;
    char name[32];
    /* §3.7.2.1: set numbers start at 0 and have no gaps; the count is one
     * past the highest number of either name. */
    MK_GLTF_JSON_EACH (c->json, k, attrs) {
        mk_gltf_json_string_copy(c->json, k, name, sizeof name);
        uint32_t n = set_number(name, "JOINTS_");
        if (n == MK_NONE)
            n = set_number(name, "WEIGHTS_");
        if (n != MK_NONE && n + 1 > sets)
            sets = n + 1;
    }
    if (sets == 0)
        return MK_OK;
    p->joints = (uint32_t *)mk_gltf_arena_array(c->st, sets, sizeof(uint32_t));
    p->weights = (uint32_t *)mk_gltf_arena_array(c->st, sets, sizeof(uint32_t));
    if (!p->joints || !p->weights)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, apath, "out of memory");
    p->joint_set_count = sets;
    for (uint32_t n = 0; n < sets; n++) {
        char jkey[24], wkey[24];
        snprintf(jkey, sizeof jkey, "JOINTS_%u", n);
        snprintf(wkey, sizeof wkey, "WEIGHTS_%u", n);
        mk_status s;
        if ((s = mk_gltf_json_index(c, attrs, jkey, apath, false, c->g->accessor_count,
                                    "accessors", &p->joints[n])) != MK_OK ||
            (s = mk_gltf_json_index(c, attrs, wkey, apath, false, c->g->accessor_count,
                                    "accessors", &p->weights[n])) != MK_OK)
            return s;
        if (p->joints[n] == MK_NONE && p->weights[n] == MK_NONE)
            return mk_gltf_fail(c, MK_ERR_PARSE, apath,
                                "%s and %s are missing (influence sets are numbered 0..%u "
                                "without gaps)",
                                jkey, wkey, sets - 1);
        if (p->joints[n] == MK_NONE || p->weights[n] == MK_NONE)
            return mk_gltf_fail(c, MK_ERR_PARSE, apath,
                                "%s without %s (influence sets must come in pairs numbered 0..%u)",
                                p->joints[n] == MK_NONE ? wkey : jkey,
                                p->joints[n] == MK_NONE ? jkey : wkey, sets - 1);
        if ((s = check_influence_accessor(c, apath, jkey, p->joints[n], vertex_count, false)) !=
                MK_OK ||
            (s = check_influence_accessor(c, apath, wkey, p->weights[n], vertex_count, true)) !=
                MK_OK)
            return s;
    }
    return MK_OK;
}

static mk_status parse_skin(mk_gltf_ctx *c, const mk_gltf_json_value *item,
                            const mk_gltf_path *path, mk_gltf_skin *sk)
{
    const mk_gltf *g = c->g;
    const mk_gltf_json_value *arr, *e;
    mk_status s;
    if ((s = mk_gltf_json_object(c, item, path)) != MK_OK ||
        (s = mk_gltf_json_string(c, item, "name", path, &sk->name)) != MK_OK ||
        (s = mk_gltf_json_index(c, item, "inverseBindMatrices", path, false, g->accessor_count,
                                "accessors", &sk->inverse_bind_matrices)) != MK_OK ||
        (s = mk_gltf_json_index(c, item, "skeleton", path, false, g->node_count, "nodes",
                                &sk->skeleton)) != MK_OK ||
        (s = mk_gltf_json_array(c, item, "joints", path, &arr, &sk->joint_count)) != MK_OK)
        return s;
    if (sk->joint_count == 0)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "needs at least one joint");
    if (sk->joint_count > MK_SKIN_MAX_JOINTS)
        return mk_gltf_fail(c, MK_ERR_LIMIT, path, "has %u joints, more than %u", sk->joint_count,
                            MK_SKIN_MAX_JOINTS);
    sk->joints = (uint32_t *)mk_gltf_arena_array(c->st, sk->joint_count, sizeof(uint32_t));
    if (!sk->joints)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, path, "out of memory");
    uint32_t i = 0;
    MK_GLTF_JSON_EACH (c->json, e, arr) {
        double d = e->type == MK_GLTF_JSON_NUMBER ? mk_gltf_json_double(c->json, e) : -1.0;
        if (!(d >= 0) || d >= (double)g->node_count || d != (double)(uint32_t)d)
            return mk_gltf_fail(c, MK_ERR_RANGE, path, "joints[%u] is not one of the %u nodes", i,
                                g->node_count);
        sk->joints[i++] = (uint32_t)d;
    }
    if (sk->inverse_bind_matrices != MK_NONE) {
        const mk_gltf_accessor *a = &g->accessors[sk->inverse_bind_matrices];
        if (a->type != MK_GLTF_MAT4 || a->component_type != MK_GLTF_FLOAT)
            return mk_gltf_fail(c, MK_ERR_PARSE, path,
                                "inverseBindMatrices: accessor %u is %s, not MAT4 FLOAT",
                                sk->inverse_bind_matrices, mk_gltf_type_name(a->type));
        if (a->count < sk->joint_count)
            return mk_gltf_fail(c, MK_ERR_RANGE, path,
                                "inverseBindMatrices: accessor %u has %u matrices for %u joints",
                                sk->inverse_bind_matrices, a->count, sk->joint_count);
    }
    return MK_OK;
}

/* The largest value of an unsigned integer accessor, sparse values
 * included (the dense values they replace too: a conservative bound). */
static uint32_t accessor_max_uint(const mk_gltf *g, uint32_t acc)
{
    const mk_gltf_accessor *a = &g->accessors[acc];
    uint32_t size = mk_gltf_component_size(a->component_type), largest = 0;
    const uint8_t *base = mk_gltf_accessor_base(g, a);
    for (uint32_t i = 0; base && i < a->count; i++)
        for (uint32_t k = 0; k < a->components; k++) {
            uint32_t v = mk_gltf_read_uindex(base + (size_t)i * a->stride + k * size,
                                             a->component_type);
            largest = v > largest ? v : largest;
        }
    if (a->sparse.count) {
        const mk_gltf_buffer_view *v = &g->buffer_views[a->sparse.values_buffer_view];
        const uint8_t *p = g->buffers[v->buffer].data + v->byte_offset + a->sparse.values_byte_offset;
        for (size_t i = 0; i < (size_t)a->sparse.count * a->components; i++) {
            uint32_t x = mk_gltf_read_uindex(p + i * size, a->component_type);
            largest = x > largest ? x : largest;
        }
    }
    return largest;
}

/* node.skin: a skin, on a node with a mesh whose every primitive has
 * influences, whose JOINTS values all address the skin's joints. */
static mk_status check_skinned_node(mk_gltf_ctx *c, uint32_t node)
{
    const mk_gltf *g = c->g;
    const mk_gltf_node *n = &g->nodes[node];
    const mk_gltf_path npath = {NULL, "nodes", node}, path = {&npath, "skin", MK_NONE};
    if (n->skin >= g->skin_count)
        return mk_gltf_fail(c, MK_ERR_RANGE, &path, "skin %u out of range (%u skins)", n->skin,
                            g->skin_count);
    if (n->mesh == MK_NONE)
        return mk_gltf_fail(c, MK_ERR_PARSE, &path, "a skinned node needs a mesh");
    const mk_gltf_mesh *m = &g->meshes[n->mesh];
    uint32_t joints = g->skins[n->skin].joint_count;
    for (uint32_t i = 0; i < m->primitive_count; i++) {
        const mk_gltf_primitive *p = &m->primitives[i];
        const mk_gltf_path mpath = {NULL, "meshes", n->mesh}, ppath = {&mpath, "primitives", i};
        if (p->joint_set_count == 0)
            return mk_gltf_fail(c, MK_ERR_RANGE, &ppath,
                                "has no JOINTS_0/WEIGHTS_0, but node %u skins it with skin %u",
                                node, n->skin);
        for (uint32_t s = 0; s < p->joint_set_count; s++) {
            uint32_t largest = accessor_max_uint(g, p->joints[s]);
            if (largest >= joints) {
                const mk_gltf_path apath = {&ppath, "attributes", MK_NONE};
                char key[24];
                snprintf(key, sizeof key, "JOINTS_%u", s);
                const mk_gltf_path kpath = {&apath, key, MK_NONE};
                return mk_gltf_fail(c, MK_ERR_RANGE, &kpath,
                                    "joint index %u is not below the %u joints of skin %u (used "
                                    "by node %u)",
                                    largest, joints, n->skin, node);
            }
        }
    }
    return MK_OK;
}

mk_status mk_gltf_parse_skins(mk_gltf_ctx *c, const mk_gltf_json_value *root)
{
    const mk_gltf_json_value *arr, *item;
    uint32_t count;
    mk_status s = mk_gltf_json_array(c, root, "skins", NULL, &arr, &count);
    if (s != MK_OK)
        return s;
    mk_gltf *g = c->g;
    if (count) {
        g->skins = (mk_gltf_skin *)mk_gltf_arena_array(c->st, count, sizeof(mk_gltf_skin));
        if (!g->skins)
            return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, MK_GLTF_PATH("skins"), "out of memory");
        g->skin_count = count;
        uint32_t i = 0;
        MK_GLTF_JSON_EACH (c->json, item, arr) {
            const mk_gltf_path path = {NULL, "skins", i};
            if ((s = parse_skin(c, item, &path, &g->skins[i++])) != MK_OK)
                return s;
        }
    }
    for (uint32_t i = 0; i < g->node_count; i++)
        if (g->nodes[i].skin != MK_NONE && (s = check_skinned_node(c, i)) != MK_OK)
            return s;
    return MK_OK;
}

mk_status mk_gltf_build_skin(const mk_gltf *g, uint32_t skin, uint32_t mesh, uint32_t primitive,
                             const mk_allocator *allocator, mk_skin **out, mk_error *err)
{
    if (!out)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "build skin: out is NULL");
    *out = NULL;
    if (!g || skin >= g->skin_count || mesh >= g->mesh_count ||
        primitive >= g->meshes[mesh].primitive_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, g ? g->path : NULL, 0,
                            "build skin: no skin %u or no primitive %u in mesh %u", skin,
                            primitive, mesh);
    const mk_gltf_skin *sk = &g->skins[skin];
    const mk_gltf_primitive *p = &g->meshes[mesh].primitives[primitive];
    if (p->joint_set_count == 0 || p->position == MK_NONE)
        return mk_error_set(err, MK_ERR_NOT_FOUND, g->path, 0,
                            "meshes[%u].primitives[%u]: no POSITION or no JOINTS_0/WEIGHTS_0",
                            mesh, primitive);
    uint32_t vc = g->accessors[p->position].count, n = p->joint_set_count * 4;
    mk_skin_desc desc = {vc, sk->joint_count, n};
    mk_skin *s = NULL;
    mk_status st = mk_skin_create(&desc, allocator, &s, err);
    if (st != MK_OK)
        return st;
    size_t n4 = (size_t)vc * 4;
    float *tmp = (float *)mk_alloc(allocator, n4 * sizeof(float));
    if (!tmp) {
        mk_skin_destroy(s);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, g->path, 0, "out of memory");
    }
    for (uint32_t set = 0; set < p->joint_set_count && st == MK_OK; set++) {
        /* Joint indices below 65536 are exact in float. */
        if ((st = mk_gltf_accessor_read_float(g, p->joints[set], tmp, n4, err)) != MK_OK)
            break;
        for (size_t v = 0; v < vc; v++)
            for (int k = 0; k < 4; k++)
                s->joints[v * n + set * 4 + (uint32_t)k] = (uint16_t)tmp[v * 4 + (size_t)k];
        if ((st = mk_gltf_accessor_read_float(g, p->weights[set], tmp, n4, err)) != MK_OK)
            break;
        for (size_t v = 0; v < vc; v++)
            memcpy(s->weights + v * n + set * 4, tmp + v * 4, 4 * sizeof(float));
    }
    mk_free(allocator, tmp, n4 * sizeof(float));
    if (st == MK_OK && sk->inverse_bind_matrices != MK_NONE) {
        /* The accessor may hold more matrices than joints: read all, keep joint_count. */
        size_t nm = (size_t)g->accessors[sk->inverse_bind_matrices].count * 16;
        float *m = (float *)mk_alloc(allocator, nm * sizeof(float));
        if (!m)
            st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, g->path, 0, "out of memory");
        else if ((st = mk_gltf_accessor_read_float(g, sk->inverse_bind_matrices, m, nm, err)) ==
                 MK_OK)
            memcpy(s->inverse_bind_matrices, m, (size_t)sk->joint_count * 16 * sizeof(float));
        mk_free(allocator, m, nm * sizeof(float));
    }
    if (st == MK_OK) {
        memcpy(s->joint_nodes, sk->joints, (size_t)sk->joint_count * sizeof(uint32_t));
        st = mk_skin_prepare(s, err);
        if (st != MK_OK && err) {
            char msg[MK_ERROR_MESSAGE_MAX];
            memcpy(msg, err->message, sizeof msg);
            mk_error_set(err, st, g->path, 0, "skins[%u] on meshes[%u].primitives[%u]: %s", skin,
                         mesh, primitive, msg);
        }
    }
    if (st != MK_OK) {
        mk_skin_destroy(s);
        return st;
    }
    *out = s;
    return MK_OK;
}
