/* glTF reader: nodes (§3.5.2, §3.5.3), scenes (§3.5.1) and animations
 * (§3.11). */
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"

/* An array of indices below `limit` into the arena. */
static mk_status index_array(mk_gltf_ctx *c, const cJSON *obj, const char *key, const char *path,
                             uint32_t limit, const char *what, uint32_t **out, uint32_t *count)
{
    const cJSON *arr, *e;
    mk_status s = mk_gltf_json_array(c, obj, key, path, &arr, count);
    if (s != MK_OK || *count == 0)
        return s;
    *out = (uint32_t *)mk_gltf_arena_array(c->st, *count, sizeof(uint32_t));
    if (!*out)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, path, "out of memory");
    uint32_t i = 0;
    cJSON_ArrayForEach (e, arr) {
        if (!cJSON_IsNumber(e) || !(e->valuedouble >= 0) || e->valuedouble >= (double)limit ||
            e->valuedouble != (double)(uint32_t)e->valuedouble)
            return mk_gltf_fail(c, MK_ERR_RANGE, path, "%s[%u] is not one of the %u %s", key, i,
                                limit, what);
        (*out)[i++] = (uint32_t)e->valuedouble;
    }
    return MK_OK;
}

static mk_status parse_node(mk_gltf_ctx *c, const cJSON *item, const char *path, mk_gltf_node *n)
{
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    mk_gltf *g = c->g;
    mk_status s;
    memcpy(n->matrix, identity, sizeof identity);
    n->rotation[3] = 1.0f;
    n->scale[0] = n->scale[1] = n->scale[2] = 1.0f;
    n->parent = MK_GLTF_NONE;
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
        (s = mk_gltf_json_floats(c, item, "scale", path, n->scale, 3, NULL)) != MK_OK)
        return s;
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(item, "weights");
    has_weights = w != NULL;
    if (!has_weights)
        return MK_OK;
    /* §3.7.2.2: node.weights has one entry per target of the node's mesh. */
    uint32_t want = n->mesh != MK_GLTF_NONE ? g->meshes[n->mesh].target_count : 0;
    if (n->mesh == MK_GLTF_NONE || !cJSON_IsArray(w) || (uint32_t)cJSON_GetArraySize(w) != want)
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
            if (ch->parent != MK_GLTF_NONE || n->children[k] == i) {
                char path[64];
                snprintf(path, sizeof path, "nodes[%u].children[%u]", i, k);
                return mk_gltf_fail(c, MK_ERR_PARSE, path,
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
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, "nodes", "out of memory");
    /* 0 = unknown, 1 = reaches a root, 2 + i = being walked from node i. */
    for (uint32_t i = 0; i < g->node_count; i++) {
        uint32_t n = i;
        while (n != MK_GLTF_NONE && depth_mark[n] == 0) {
            depth_mark[n] = 2 + i;
            n = g->nodes[n].parent;
        }
        if (n != MK_GLTF_NONE && depth_mark[n] == 2 + i) {
            char path[64];
            snprintf(path, sizeof path, "nodes[%u]", n);
            return mk_gltf_fail(c, MK_ERR_PARSE, path, "is part of a cycle of children");
        }
        for (n = i; n != MK_GLTF_NONE && depth_mark[n] == 2 + i; n = g->nodes[n].parent)
            depth_mark[n] = 1;
    }
    return MK_OK;
}

mk_status mk_gltf_parse_nodes(mk_gltf_ctx *c, const cJSON *root)
{
    const cJSON *arr, *item;
    uint32_t count;
    mk_status s = mk_gltf_json_array(c, root, "nodes", "", &arr, &count);
    if (s != MK_OK || count == 0)
        return s;
    mk_gltf *g = c->g;
    g->nodes = (mk_gltf_node *)mk_gltf_arena_array(c->st, count, sizeof(mk_gltf_node));
    if (!g->nodes)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, "nodes", "out of memory");
    g->node_count = count;
    uint32_t i = 0;
    cJSON_ArrayForEach (item, arr) {
        char path[64];
        snprintf(path, sizeof path, "nodes[%u]", i);
        if ((s = parse_node(c, item, path, &g->nodes[i++])) != MK_OK)
            return s;
    }
    return check_hierarchy(c);
}

mk_status mk_gltf_parse_scenes(mk_gltf_ctx *c, const cJSON *root)
{
    const cJSON *arr, *item;
    uint32_t count;
    mk_status s = mk_gltf_json_array(c, root, "scenes", "", &arr, &count);
    if (s != MK_OK || count == 0)
        return s;
    mk_gltf *g = c->g;
    g->scenes = (mk_gltf_scene *)mk_gltf_arena_array(c->st, count, sizeof(mk_gltf_scene));
    if (!g->scenes)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, "scenes", "out of memory");
    g->scene_count = count;
    uint32_t i = 0;
    cJSON_ArrayForEach (item, arr) {
        char path[64];
        snprintf(path, sizeof path, "scenes[%u]", i);
        mk_gltf_scene *sc = &g->scenes[i++];
        if ((s = mk_gltf_json_object(c, item, path)) != MK_OK ||
            (s = mk_gltf_json_string(c, item, "name", path, &sc->name)) != MK_OK ||
            (s = index_array(c, item, "nodes", path, g->node_count, "nodes", &sc->nodes,
                             &sc->node_count)) != MK_OK)
            return s;
    }
    return MK_OK;
}

static mk_status parse_sampler(mk_gltf_ctx *c, const cJSON *item, const char *path,
                               mk_gltf_sampler *sm)
{
    mk_gltf *g = c->g;
    mk_status s;
    if ((s = mk_gltf_json_object(c, item, path)) != MK_OK ||
        (s = mk_gltf_json_index(c, item, "input", path, true, g->accessor_count, "accessors",
                                &sm->input)) != MK_OK ||
        (s = mk_gltf_json_index(c, item, "output", path, true, g->accessor_count, "accessors",
                                &sm->output)) != MK_OK)
        return s;
    const cJSON *in = cJSON_GetObjectItemCaseSensitive(item, "interpolation");
    sm->interpolation = MK_TRACK_INTERP_LINEAR;
    if (in) {
        if (!cJSON_IsString(in))
            return mk_gltf_fail(c, MK_ERR_PARSE, path, "interpolation must be a string");
        if (strcmp(in->valuestring, "STEP") == 0)
            sm->interpolation = MK_TRACK_INTERP_STEP;
        else if (strcmp(in->valuestring, "CUBICSPLINE") == 0)
            sm->interpolation = MK_TRACK_INTERP_CUBICSPLINE;
        else if (strcmp(in->valuestring, "LINEAR") != 0)
            return mk_gltf_fail(c, MK_ERR_PARSE, path, "unknown interpolation '%s'",
                                in->valuestring);
    }
    const mk_gltf_accessor *a = &g->accessors[sm->input];
    if (a->type != MK_GLTF_SCALAR || a->component_type != MK_GLTF_FLOAT)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "input: accessor %u must be SCALAR FLOAT times",
                            sm->input);
    return MK_OK;
}

/* Output layout checks (§3.11): keys x components (x 3 for CUBICSPLINE). */
static mk_status check_channel(mk_gltf_ctx *c, const char *path, const mk_gltf_channel *ch,
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
        if (mesh == MK_GLTF_NONE || g->meshes[mesh].target_count == 0)
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
        (uint64_t)in->count * comps * (sm->interpolation == MK_TRACK_INTERP_CUBICSPLINE ? 3 : 1);
    if ((uint64_t)out->count != want)
        return mk_gltf_fail(c, MK_ERR_MISMATCH, path,
                            "output accessor %u has %u elements, %u keys need %llu", sm->output,
                            out->count, in->count, (unsigned long long)want);
    return MK_OK;
}

static mk_status parse_animation(mk_gltf_ctx *c, const cJSON *item, const char *path,
                                 mk_gltf_animation *an)
{
    mk_gltf *g = c->g;
    mk_status s;
    const cJSON *samplers, *channels, *e;
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
    cJSON_ArrayForEach (e, samplers) {
        char spath[96];
        snprintf(spath, sizeof spath, "%s.samplers[%u]", path, i);
        if ((s = parse_sampler(c, e, spath, &an->samplers[i++])) != MK_OK)
            return s;
    }
    i = 0;
    cJSON_ArrayForEach (e, channels) {
        char cpath[96], tpath[112];
        snprintf(cpath, sizeof cpath, "%s.channels[%u]", path, i);
        snprintf(tpath, sizeof tpath, "%s.target", cpath);
        mk_gltf_channel *ch = &an->channels[i++];
        if ((s = mk_gltf_json_object(c, e, cpath)) != MK_OK ||
            (s = mk_gltf_json_index(c, e, "sampler", cpath, true, an->sampler_count, "samplers",
                                    &ch->sampler)) != MK_OK)
            return s;
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "target");
        if (!t)
            return mk_gltf_fail(c, MK_ERR_PARSE, cpath, "missing required 'target'");
        if ((s = mk_gltf_json_object(c, t, tpath)) != MK_OK ||
            (s = mk_gltf_json_index(c, t, "node", tpath, false, g->node_count, "nodes",
                                    &ch->node)) != MK_OK)
            return s;
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(t, "path");
        if (!cJSON_IsString(p))
            return mk_gltf_fail(c, MK_ERR_PARSE, tpath, "missing required string 'path'");
        static const char *const names[] = {"weights", "translation", "rotation", "scale"};
        for (int k = 0; k < MK_TRACK_PATH_COUNT; k++) {
            if (strcmp(p->valuestring, names[k]) == 0) {
                ch->path = (mk_track_path)k;
                ch->supported = true;
            }
        }
        if (ch->supported && ch->node != MK_GLTF_NONE &&
            (s = check_channel(c, cpath, ch, &an->samplers[ch->sampler])) != MK_OK)
            return s;
    }
    return MK_OK;
}

mk_status mk_gltf_parse_animations(mk_gltf_ctx *c, const cJSON *root)
{
    const cJSON *arr, *item;
    uint32_t count;
    mk_status s = mk_gltf_json_array(c, root, "animations", "", &arr, &count);
    if (s != MK_OK || count == 0)
        return s;
    mk_gltf *g = c->g;
    g->animations =
        (mk_gltf_animation *)mk_gltf_arena_array(c->st, count, sizeof(mk_gltf_animation));
    if (!g->animations)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, "animations", "out of memory");
    g->animation_count = count;
    uint32_t i = 0;
    cJSON_ArrayForEach (item, arr) {
        char path[64];
        snprintf(path, sizeof path, "animations[%u]", i);
        if ((s = parse_animation(c, item, path, &g->animations[i++])) != MK_OK)
            return s;
    }
    return MK_OK;
}
