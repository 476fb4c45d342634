/* glTF reader: nodes (§3.5.2, §3.5.3), scenes (§3.5.1) and animations
 * (§3.11). */
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"

/* An array of indices below `limit` into the arena. */
static mk_status index_array(mk_gltf_ctx *c, const mk_gltf_json_value *obj, const char *key,
                             const mk_gltf_path *path, uint32_t limit, const char *what,
                             uint32_t **out, uint32_t *count)
{
    const mk_gltf_json_value *arr, *e;
    mk_status s = mk_gltf_json_array(c, obj, key, path, &arr, count);
    if (s != MK_OK || *count == 0)
        return s;
    *out = (uint32_t *)mk_gltf_arena_array(c->st, *count, sizeof(uint32_t));
    if (!*out)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, path, "out of memory");
    uint32_t i = 0;
    MK_GLTF_JSON_EACH (c->json, e, arr) {
        double d = e->type == MK_GLTF_JSON_NUMBER ? mk_gltf_json_double(c->json, e) : -1.0;
        if (!(d >= 0) || d >= (double)limit || d != (double)(uint32_t)d)
            return mk_gltf_fail(c, MK_ERR_RANGE, path, "%s[%u] is not one of the %u %s", key, i,
                                limit, what);
        (*out)[i++] = (uint32_t)d;
    }
    return MK_OK;
}

static mk_status parse_node(mk_gltf_ctx *c, const mk_gltf_json_value *item,
                            const mk_gltf_path *path, mk_gltf_node *n)
{
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    mk_gltf *g = c->g;
    mk_status s;
    memcpy(n->matrix, identity, sizeof identity);
    n->rotation[3] = 1.0f;
    n->scale[0] = n->scale[1] = n->scale[2] = 1.0f;
    n->parent = MK_NONE;
    bool has_weights;
    if ((s = mk_gltf_json_object(c, item, path)) != MK_OK ||
        (s = mk_gltf_json_string(c, item, "name", path, &n->name)) != MK_OK ||
        (s = mk_gltf_json_index(c, item, "mesh", path, false, g->mesh_count, "meshes", &n->mesh)) !=
            MK_OK ||
        (s = index_array(c, item, "children", path, g->node_count, "nodes", &n->children,
                         &n->child_count)) != MK_OK ||
        (s = mk_gltf_json_floats(c, item, "matrix", path, n->matrix, 16, &n->has_matrix)) !=
            MK_OK ||
        (s = mk_gltf_json_floats(c, item, "translation", path, n->translation, 3, NULL)) != MK_OK ||
        (s = mk_gltf_json_floats(c, item, "rotation", path, n->rotation, 4, NULL)) != MK_OK ||
        (s = mk_gltf_json_floats(c, item, "scale", path, n->scale, 3, NULL)) != MK_OK ||
        /* checked against the skins in mk_gltf_parse_skins, read after nodes */
        (s = mk_gltf_json_uint(c, item, "skin", path, false, MK_NONE, &n->skin)) != MK_OK)
        return s;
    const mk_gltf_json_value *w = mk_gltf_json_get(c->json, item, "weights");
    has_weights = w != NULL;
    if (!has_weights)
        return MK_OK;
    /* §3.7.2.2: node.weights has one entry per target of the node's mesh. */
    uint32_t want = n->mesh != MK_NONE ? g->meshes[n->mesh].target_count : 0;
    if (n->mesh == MK_NONE || !mk_gltf_json_is(w, MK_GLTF_JSON_ARRAY) || w->size != want)
        return mk_gltf_fail(c, MK_ERR_MISMATCH, path,
                            "weights needs a mesh and one number per morph target (%u)", want);
    n->weight_count = want;
    if (want == 0)
        return MK_OK;
    n->weights = (float *)mk_gltf_arena_array(c->st, want, sizeof(float));
    if (!n->weights)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, path, "out of memory");
    return mk_gltf_json_floats(c, item, "weights", path, n->weights, want, NULL);
}

/* §3.5.3: the nodes form disjoint trees - one parent at most, no cycles. */
static mk_status check_hierarchy(mk_gltf_ctx *c)
{
    mk_gltf *g = c->g;
    for (uint32_t i = 0; i < g->node_count; i++) {
        const mk_gltf_node *n = &g->nodes[i];
        for (uint32_t k = 0; k < n->child_count; k++) {
            mk_gltf_node *ch = &g->nodes[n->children[k]];
            if (ch->parent != MK_NONE || n->children[k] == i) {
                const mk_gltf_path node = {NULL, "nodes", i}, path = {&node, "children", k};
                return mk_gltf_fail(c, MK_ERR_PARSE, &path,
                                    "node %u already has a parent (node %u) or is the node itself",
                                    n->children[k], ch->parent);
            }
            ch->parent = i;
        }
    }
    /* With one parent each, a node is in a cycle exactly when walking up
     * never reaches a root; roots mark their trees so each node is walked
     * a bounded number of times. */
    uint32_t *depth_mark =
        (uint32_t *)mk_gltf_arena_array(c->st, g->node_count ? g->node_count : 1, sizeof(uint32_t));
    if (!depth_mark)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, MK_GLTF_PATH("nodes"), "out of memory");
    /* 0 = unknown, 1 = reaches a root, 2 + i = being walked from node i. */
    for (uint32_t i = 0; i < g->node_count; i++) {
        uint32_t n = i;
        while (n != MK_NONE && depth_mark[n] == 0) {
            depth_mark[n] = 2 + i;
            n = g->nodes[n].parent;
        }
        if (n != MK_NONE && depth_mark[n] == 2 + i) {
            const mk_gltf_path path = {NULL, "nodes", n};
            return mk_gltf_fail(c, MK_ERR_PARSE, &path, "is part of a cycle of children");
        }
        for (n = i; n != MK_NONE && depth_mark[n] == 2 + i; n = g->nodes[n].parent)
            depth_mark[n] = 1;
    }
    return MK_OK;
}

mk_status mk_gltf_parse_nodes(mk_gltf_ctx *c, const mk_gltf_json_value *root)
{
    const mk_gltf_json_value *arr, *item;
    uint32_t count;
    mk_status s = mk_gltf_json_array(c, root, "nodes", NULL, &arr, &count);
    if (s != MK_OK || count == 0)
        return s;
    mk_gltf *g = c->g;
    g->nodes = (mk_gltf_node *)mk_gltf_arena_array(c->st, count, sizeof(mk_gltf_node));
    if (!g->nodes)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, MK_GLTF_PATH("nodes"), "out of memory");
    g->node_count = count;
    uint32_t i = 0;
    MK_GLTF_JSON_EACH (c->json, item, arr) {
        const mk_gltf_path path = {NULL, "nodes", i};
        if ((s = parse_node(c, item, &path, &g->nodes[i++])) != MK_OK)
            return s;
    }
    return check_hierarchy(c);
}

mk_status mk_gltf_parse_scenes(mk_gltf_ctx *c, const mk_gltf_json_value *root)
{
    const mk_gltf_json_value *arr, *item;
    uint32_t count;
    mk_status s = mk_gltf_json_array(c, root, "scenes", NULL, &arr, &count);
    if (s != MK_OK || count == 0)
        return s;
    mk_gltf *g = c->g;
    g->scenes = (mk_gltf_scene *)mk_gltf_arena_array(c->st, count, sizeof(mk_gltf_scene));
    if (!g->scenes)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, MK_GLTF_PATH("scenes"), "out of memory");
    g->scene_count = count;
    uint32_t i = 0;
    MK_GLTF_JSON_EACH (c->json, item, arr) {
        const mk_gltf_path path_node = {NULL, "scenes", i}, *path = &path_node;
        mk_gltf_scene *sc = &g->scenes[i++];
        if ((s = mk_gltf_json_object(c, item, path)) != MK_OK ||
            (s = mk_gltf_json_string(c, item, "name", path, &sc->name)) != MK_OK ||
            (s = index_array(c, item, "nodes", path, g->node_count, "nodes", &sc->nodes,
                             &sc->node_count)) != MK_OK)
            return s;
    }
    return MK_OK;
}

static mk_status parse_sampler(mk_gltf_ctx *c, const mk_gltf_json_value *item,
                               const mk_gltf_path *path, mk_gltf_sampler *sm)
{
    mk_gltf *g = c->g;
    mk_status s;
    if ((s = mk_gltf_json_object(c, item, path)) != MK_OK ||
        (s = mk_gltf_json_index(c, item, "input", path, true, g->accessor_count, "accessors",
                                &sm->input)) != MK_OK ||
        (s = mk_gltf_json_index(c, item, "output", path, true, g->accessor_count, "accessors",
                                &sm->output)) != MK_OK)
        return s;
    const mk_gltf_json_value *in = mk_gltf_json_get(c->json, item, "interpolation");
    sm->interpolation = MK_INTERPOLATION_LINEAR;
    if (in) {
        if (!mk_gltf_json_is(in, MK_GLTF_JSON_STRING))
            return mk_gltf_fail(c, MK_ERR_PARSE, path, "interpolation must be a string");
        if (mk_gltf_json_string_is(c->json, in, "STEP")) {
            sm->interpolation = MK_INTERPOLATION_STEP;
        } else if (mk_gltf_json_string_is(c->json, in, "CUBICSPLINE")) {
            sm->interpolation = MK_INTERPOLATION_CUBICSPLINE;
        } else if (!mk_gltf_json_string_is(c->json, in, "LINEAR")) {
            char name[256];
            mk_gltf_json_string_copy(c->json, in, name, sizeof name);
            return mk_gltf_fail(c, MK_ERR_PARSE, path, "unknown interpolation '%s'", name);
        }
    }
    const mk_gltf_accessor *a = &g->accessors[sm->input];
    if (a->type != MK_GLTF_SCALAR || a->component_type != MK_GLTF_FLOAT)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "input: accessor %u must be SCALAR FLOAT times",
                            sm->input);
    return MK_OK;
}

/* Output layout checks (§3.11): keys x components (x 3 for CUBICSPLINE). */
static mk_status check_channel(mk_gltf_ctx *c, const mk_gltf_path *path, const mk_gltf_channel *ch,
                               const mk_gltf_sampler *sm)
{
    const mk_gltf *g = c->g;
    const mk_gltf_accessor *in = &g->accessors[sm->input], *out = &g->accessors[sm->output];
    uint32_t comps;
    mk_gltf_type type = ch->path == MK_TRACK_ROTATION  ? MK_GLTF_VEC4
                        : ch->path == MK_TRACK_WEIGHTS ? MK_GLTF_SCALAR
                                                       : MK_GLTF_VEC3;
    if (ch->path == MK_TRACK_WEIGHTS) {
        uint32_t mesh = g->nodes[ch->node].mesh;
        if (mesh == MK_NONE || g->meshes[mesh].target_count == 0)
            return mk_gltf_fail(c, MK_ERR_MISMATCH, path,
                                "animates the weights of node %u, which has no morph targets",
                                ch->node);
        comps = g->meshes[mesh].target_count;
    } else {
        comps = 1; /* counted in elements of the VEC type */
    }
    if (out->type != type)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "output accessor %u has type %s, expected %s",
                            sm->output, mk_gltf_type_name(out->type), mk_gltf_type_name(type));
    uint64_t want =
        (uint64_t)in->count * comps * (sm->interpolation == MK_INTERPOLATION_CUBICSPLINE ? 3 : 1);
    if ((uint64_t)out->count != want)
        return mk_gltf_fail(c, MK_ERR_MISMATCH, path,
                            "output accessor %u has %u elements, %u keys need %llu", sm->output,
                            out->count, in->count, (unsigned long long)want);
    return MK_OK;
}

static mk_status parse_animation(mk_gltf_ctx *c, const mk_gltf_json_value *item,
                                 const mk_gltf_path *path, mk_gltf_animation *an)
{
    mk_gltf *g = c->g;
    mk_status s;
    const mk_gltf_json_value *samplers, *channels, *e;
    if ((s = mk_gltf_json_object(c, item, path)) != MK_OK ||
        (s = mk_gltf_json_string(c, item, "name", path, &an->name)) != MK_OK ||
        (s = mk_gltf_json_array(c, item, "samplers", path, &samplers, &an->sampler_count)) !=
            MK_OK ||
        (s = mk_gltf_json_array(c, item, "channels", path, &channels, &an->channel_count)) != MK_OK)
        return s;
    if (an->sampler_count == 0 || an->channel_count == 0)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "needs at least one sampler and one channel");
    an->samplers =
        (mk_gltf_sampler *)mk_gltf_arena_array(c->st, an->sampler_count, sizeof(mk_gltf_sampler));
    an->channels =
        (mk_gltf_channel *)mk_gltf_arena_array(c->st, an->channel_count, sizeof(mk_gltf_channel));
    if (!an->samplers || !an->channels)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, path, "out of memory");
    uint32_t i = 0;
    MK_GLTF_JSON_EACH (c->json, e, samplers) {
        const mk_gltf_path spath = {path, "samplers", i};
        if ((s = parse_sampler(c, e, &spath, &an->samplers[i++])) != MK_OK)
            return s;
    }
    i = 0;
    MK_GLTF_JSON_EACH (c->json, e, channels) {
        const mk_gltf_path cpath_node = {path, "channels", i}, *cpath = &cpath_node;
        const mk_gltf_path tpath_node = {cpath, "target", MK_NONE}, *tpath = &tpath_node;
        mk_gltf_channel *ch = &an->channels[i++];
        if ((s = mk_gltf_json_object(c, e, cpath)) != MK_OK ||
            (s = mk_gltf_json_index(c, e, "sampler", cpath, true, an->sampler_count, "samplers",
                                    &ch->sampler)) != MK_OK)
            return s;
        const mk_gltf_json_value *t = mk_gltf_json_get(c->json, e, "target");
        if (!t)
            return mk_gltf_fail(c, MK_ERR_PARSE, cpath, "missing required 'target'");
        if ((s = mk_gltf_json_object(c, t, tpath)) != MK_OK ||
            (s = mk_gltf_json_index(c, t, "node", tpath, false, g->node_count, "nodes",
                                    &ch->node)) != MK_OK)
            return s;
        const mk_gltf_json_value *p = mk_gltf_json_get(c->json, t, "path");
        if (!mk_gltf_json_is(p, MK_GLTF_JSON_STRING))
            return mk_gltf_fail(c, MK_ERR_PARSE, tpath, "missing required string 'path'");
        static const char *const names[] = {"weights", "translation", "rotation", "scale"};
        for (int k = 0; k < MK_TRACK_PATH_COUNT; k++) {
            if (mk_gltf_json_string_is(c->json, p, names[k])) {
                ch->path = (mk_track_path)k;
                ch->supported = true;
            }
        }
        if (ch->supported && ch->node != MK_NONE &&
            (s = check_channel(c, cpath, ch, &an->samplers[ch->sampler])) != MK_OK)
            return s;
    }
    return MK_OK;
}

mk_status mk_gltf_parse_animations(mk_gltf_ctx *c, const mk_gltf_json_value *root)
{
    const mk_gltf_json_value *arr, *item;
    uint32_t count;
    mk_status s = mk_gltf_json_array(c, root, "animations", NULL, &arr, &count);
    if (s != MK_OK || count == 0)
        return s;
    mk_gltf *g = c->g;
    g->animations =
        (mk_gltf_animation *)mk_gltf_arena_array(c->st, count, sizeof(mk_gltf_animation));
    if (!g->animations)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, MK_GLTF_PATH("animations"), "out of memory");
    g->animation_count = count;
    uint32_t i = 0;
    MK_GLTF_JSON_EACH (c->json, item, arr) {
        const mk_gltf_path path = {NULL, "animations", i};
        if ((s = parse_animation(c, item, &path, &g->animations[i++])) != MK_OK)
            return s;
    }
    return MK_OK;
}
