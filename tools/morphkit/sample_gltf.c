/* `morphkit sample` for glTF files (docs/json.md):
 * one entry per (node with a mesh, primitive) in node then primitive order,
 * morphed in local space with the weights in effect at the clip's own time
 * (ends held). With --space world the morphed vertices then go through the
 * node's skin (joint matrices from the animated scene pose; the node's own
 * transform is not used, §3.7.3) or, without a skin, the node's world
 * matrix (normals with its inverse transpose). The weights of a node are its default weights (node.weights,
 * else mesh.weights, else zeros) unless the animation has a weights channel
 * for it, which then replaces them, as glTF §3.11 says. */
#include <math.h>
#include <string.h>

#include "cli.h"

typedef struct gltf_entry {
    uint32_t node, mesh, primitive;
    mk_morph_set *set;
    mk_skin *skin; /* --space world and a skinned node, else NULL */
} gltf_entry;

typedef struct gltf_sampler {
    const mk_gltf *g;
    uint32_t anim; /* MK_NONE: no animation, default weights */
    mk_track_clip *clip;
    uint32_t *cursors;
    float *clip_out; /* clip->output_count */
    float *weights; /* per node: weight_offset[node] */
    size_t *weight_offset;
    size_t weight_total;
    gltf_entry *entries;
    uint32_t entry_count;
    float *pos, *nrm, *tan; /* largest primitive */
    bool world; /* --space world */
    mk_scene *scene;
    mk_scene_pose *pose;
    float *world_m; /* 16 per node */
    float *joint_m; /* 16 per joint of the largest skin */
} gltf_sampler;

static void print_floats(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
    {
        printf("%s", i ? ", " : "");
        mk_cli_json_number(stdout, (double)v[i], true);
    }
}

static void print_name(const char *s)
{
    if (s)
        mk_cli_json_string(stdout, s);
    else
        printf("null");
}

/* --anim: an exact name first, then a decimal index. */
static int find_animation(const mk_gltf *g, const char *anim, uint32_t *out)
{
    for (uint32_t i = 0; i < g->animation_count; i++) {
        if (g->animations[i].name && strcmp(g->animations[i].name, anim) == 0) {
            *out = i;
            return MK_EXIT_OK;
        }
    }
    char *end;
    unsigned long idx = strtoul(anim, &end, 10);
    if (anim[0] >= '0' && anim[0] <= '9' && !*end && idx < g->animation_count) {
        *out = (uint32_t)idx;
        return MK_EXIT_OK;
    }
    if (g->animation_count == 0) {
        mk_cli_fail("%s: has no animations (without --anim the default weights are sampled)",
                    g->path);
        return MK_EXIT_USAGE;
    }
    fprintf(stderr, "morphkit: %s has no animation '%s'; it has:", g->path, anim);
    for (uint32_t i = 0; i < g->animation_count; i++) {
        if (g->animations[i].name)
            fprintf(stderr, " %u (%s)", i, g->animations[i].name);
        else
            fprintf(stderr, " %u", i);
    }
    fprintf(stderr, "\n");
    return MK_EXIT_USAGE;
}

static void *xcalloc(size_t n, size_t size, bool *ok)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        *ok = false;
    return p;
}

/* Builds the clip, the per-node weight slots, one morph set per entry and
 * the output buffers. */
static int prepare(gltf_sampler *s)
{
    const mk_gltf *g = s->g;
    mk_error err;
    bool ok = true;
    if (s->anim != MK_NONE) {
        if (mk_gltf_build_track_clip(g, s->anim, NULL, &s->clip, &err) != MK_OK) {
            mk_cli_print_error(&err);
            return MK_EXIT_INVALID;
        }
        s->cursors = xcalloc(s->clip->track_count, sizeof(uint32_t), &ok);
        s->clip_out = xcalloc(s->clip->output_count, sizeof(float), &ok);
    }
    s->weight_offset = xcalloc(g->node_count, sizeof(size_t), &ok);
    uint32_t max_vertices = 0, entries = 0;
    for (uint32_t n = 0; ok && n < g->node_count; n++) {
        s->weight_offset[n] = s->weight_total;
        if (g->nodes[n].mesh == MK_NONE)
            continue;
        const mk_gltf_mesh *m = &g->meshes[g->nodes[n].mesh];
        s->weight_total += m->target_count;
        entries += m->primitive_count;
    }
    s->weights = xcalloc(s->weight_total, sizeof(float), &ok);
    s->entries = xcalloc(entries, sizeof(gltf_entry), &ok);
    if (!ok) {
        mk_cli_fail("out of memory");
        return MK_EXIT_INVALID;
    }
    for (uint32_t n = 0; n < g->node_count; n++) {
        uint32_t mi = g->nodes[n].mesh;
        for (uint32_t p = 0; mi != MK_NONE && p < g->meshes[mi].primitive_count; p++) {
            gltf_entry *e = &s->entries[s->entry_count];
            e->node = n;
            e->mesh = mi;
            e->primitive = p;
            s->entry_count++; /* counted first: the cleanup frees what was built */
            if (mk_gltf_build_morph_set(g, mi, p, NULL, &e->set, &err) != MK_OK ||
                (s->world && g->nodes[n].skin != MK_NONE &&
                 mk_gltf_build_skin(g, g->nodes[n].skin, mi, p, NULL, &e->skin, &err) != MK_OK)) {
                mk_cli_print_error(&err);
                return MK_EXIT_INVALID;
            }
            if (e->set->vertex_count > max_vertices)
                max_vertices = e->set->vertex_count;
        }
    }
    s->pos = xcalloc((size_t)max_vertices * 3, sizeof(float), &ok);
    s->nrm = xcalloc((size_t)max_vertices * 3, sizeof(float), &ok);
    s->tan = xcalloc((size_t)max_vertices * 4, sizeof(float), &ok);
    if (s->world) {
        uint32_t max_joints = 0;
        for (uint32_t k = 0; k < g->skin_count; k++)
            max_joints = g->skins[k].joint_count > max_joints ? g->skins[k].joint_count : max_joints;
        s->world_m = xcalloc((size_t)g->node_count * 16, sizeof(float), &ok);
        s->joint_m = xcalloc((size_t)max_joints * 16, sizeof(float), &ok);
        if (ok && (mk_gltf_build_scene(g, NULL, &s->scene, &err) != MK_OK ||
                   mk_scene_pose_create(s->scene, NULL, &s->pose, &err) != MK_OK)) {
            mk_cli_print_error(&err);
            return MK_EXIT_INVALID;
        }
    }
    if (!ok) {
        mk_cli_fail("out of memory");
        return MK_EXIT_INVALID;
    }
    return MK_EXIT_OK;
}

/* The weights of every node at clip time t (microseconds). */
static void weights_at(gltf_sampler *s, int64_t t)
{
    const mk_gltf *g = s->g;
    for (uint32_t n = 0; n < g->node_count; n++) {
        if (g->nodes[n].mesh != MK_NONE)
            mk_gltf_node_default_weights(g, n, s->weights + s->weight_offset[n],
                                         g->meshes[g->nodes[n].mesh].target_count);
    }
    mk_error err;
    if (s->world)
        mk_scene_pose_reset(s->scene, s->pose, &err);
    if (s->clip) {
        mk_track_clip_state st;
        mk_track_clip_state_init(&st, s->clip, false, s->cursors);
        mk_track_clip_state_set_time(&st, t); /* not looping: past the end holds */
        mk_track_clip_state_sample(&st, s->clip_out);
        if (s->world)
            mk_scene_pose_apply(s->scene, s->pose, s->clip, s->clip_out, &err);
    }
    /* Both cannot fail: the scene and pose were built from this model. */
    if (s->world)
        mk_scene_pose_world(s->scene, s->pose, s->world_m, s->g->node_count, &err);
    if (!s->clip)
        return;
    for (uint32_t i = 0; i < s->clip->track_count; i++) {
        const mk_track *tr = &s->clip->tracks[i];
        if (tr->path == MK_TRACK_WEIGHTS)
            memcpy(s->weights + s->weight_offset[tr->target], s->clip_out + tr->value_offset,
                   tr->components * sizeof(float));
    }
}

/* out = normalize(m3 * v) for count vectors `stride` floats apart (xyz). */
static void transform_dirs(const double m3[9], float *v, size_t count, size_t stride)
{
    for (size_t i = 0; i < count; i++) {
        float *p = v + i * stride;
        double x = m3[0] * p[0] + m3[3] * p[1] + m3[6] * p[2];
        double y = m3[1] * p[0] + m3[4] * p[1] + m3[7] * p[2];
        double z = m3[2] * p[0] + m3[5] * p[1] + m3[8] * p[2];
        double l = sqrt(x * x + y * y + z * z);
        l = l > 1e-12 ? 1.0 / l : 0.0;
        p[0] = (float)(x * l), p[1] = (float)(y * l), p[2] = (float)(z * l);
    }
}

/* Moves a morphed primitive into scene space: through its skin, or by the
 * node's world matrix (positions), its inverse transpose (normals) and its
 * linear part (tangents, w kept). */
static void to_world(const gltf_sampler *s, const gltf_entry *e)
{
    const mk_morph_set *set = e->set;
    size_t vc = set->vertex_count;
    bool has_n = set->base_normals != NULL, has_t = set->base_tangents != NULL;
    if (e->skin) {
        mk_error err;
        mk_skin_joint_matrices(e->skin, s->world_m, s->g->node_count, s->joint_m,
                               e->skin->joint_count, &err);
        mk_skin_apply(e->skin, s->joint_m, e->skin->joint_count, s->pos, has_n ? s->nrm : NULL,
                      has_t ? s->tan : NULL, s->pos, has_n ? s->nrm : NULL,
                      has_t ? s->tan : NULL, e->skin->vertex_count, &err);
        return;
    }
    const float *m = s->world_m + (size_t)e->node * 16;
    for (size_t v = 0; v < vc; v++) {
        float *p = s->pos + v * 3;
        double x = p[0], y = p[1], z = p[2];
        for (int r = 0; r < 3; r++)
            p[r] = (float)(m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r]);
    }
    double lin[9], cof[9];
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            lin[c * 3 + r] = m[c * 4 + r];
    /* The cofactor matrix is det * inverse transpose: normalizing removes
     * |det|, the sign keeps mirrored nodes' normals outward. */
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) {
            int c1 = (c + 1) % 3, c2 = (c + 2) % 3, r1 = (r + 1) % 3, r2 = (r + 2) % 3;
            cof[c * 3 + r] =
                lin[c1 * 3 + r1] * lin[c2 * 3 + r2] - lin[c2 * 3 + r1] * lin[c1 * 3 + r2];
        }
    double det = lin[0] * cof[0] + lin[3] * cof[3] + lin[6] * cof[6];
    if (det < 0)
        for (int i = 0; i < 9; i++)
            cof[i] = -cof[i];
    if (has_n)
        transform_dirs(cof, s->nrm, vc, 3);
    if (has_t)
        transform_dirs(lin, s->tan, vc, 4);
}

static void print_json_entry(const gltf_sampler *s, const gltf_entry *e, bool first)
{
    const mk_gltf *g = s->g;
    const mk_morph_set *set = e->set;
    const mk_gltf_mesh *m = &g->meshes[e->mesh];
    const float *w = s->weights + s->weight_offset[e->node];
    printf("%s\n    {\"node\": %u, \"mesh\": %u, \"primitive\": %u, \"name\": ", first ? "" : ",",
           e->node, e->mesh, e->primitive);
    print_name(m->name);
    printf(", \"node_name\": ");
    print_name(g->nodes[e->node].name);
    printf(", \"weights\": [");
    print_floats(w, m->target_count);
    mk_morph_evaluate(set, m->target_count ? w : NULL, s->pos, s->nrm, s->tan, set->vertex_count,
                      NULL);
    printf("]");
    if (s->world) {
        to_world(s, e);
        if (g->nodes[e->node].skin != MK_NONE)
            printf(", \"skin\": %u", g->nodes[e->node].skin);
        else
            printf(", \"skin\": null");
    }
    printf(",\n     \"positions\": [");
    print_floats(s->pos, (size_t)set->vertex_count * 3);
    printf("]");
    if (set->base_normals) {
        printf(",\n     \"normals\": [");
        print_floats(s->nrm, (size_t)set->vertex_count * 3);
        printf("]");
    }
    if (set->base_tangents) {
        printf(",\n     \"tangents\": [");
        print_floats(s->tan, (size_t)set->vertex_count * 4);
        printf("]");
    }
    printf("}");
}

static void print_animation_json(const gltf_sampler *s)
{
    if (s->anim == MK_NONE) {
        printf("null, \"animation_index\": null");
        return;
    }
    /* an unnamed animation is null; the index always says which one */
    const char *name = s->g->animations[s->anim].name;
    if (name)
        mk_cli_json_string(stdout, name);
    else
        printf("null");
    printf(", \"animation_index\": %u", s->anim);
}

static void run(gltf_sampler *s, const mk_sample_args *a)
{
    const mk_gltf *g = s->g;
    char anim[64];
    if (s->anim == MK_NONE)
        snprintf(anim, sizeof anim, "(default weights)");
    else if (g->animations[s->anim].name)
        snprintf(anim, sizeof anim, "%s", g->animations[s->anim].name);
    else
        snprintf(anim, sizeof anim, "%u", s->anim);
    if (a->json)
        printf("{\"version\": %d, %s\"samples\": [", MK_CLI_JSON_VERSION,
               s->world ? "\"space\": \"world\", " : "");
    else
        printf("%-12s %-20s %5s %5s %5s  %s\n", "time", "animation", "node", "mesh", "prim",
               "weights");
    for (uint32_t i = 0; i < a->time_count; i++) {
        weights_at(s, a->times_us[i]);
        if (a->json) {
            printf("%s\n  {\"time\": %s, \"animation\": ", i ? "," : "", a->time_text[i]);
            print_animation_json(s);
            printf(",\n   \"meshes\": [");
            for (uint32_t k = 0; k < s->entry_count; k++)
                print_json_entry(s, &s->entries[k], k == 0);
            printf("]}");
            continue;
        }
        for (uint32_t k = 0; k < s->entry_count; k++) {
            const gltf_entry *e = &s->entries[k];
            const float *w = s->weights + s->weight_offset[e->node];
            printf("%-12s %-20s %5u %5u %5u ", a->time_text[i], anim, e->node, e->mesh,
                   e->primitive);
            for (uint32_t t = 0; t < g->meshes[e->mesh].target_count; t++)
                printf(" %.6f", (double)w[t]);
            printf("\n");
        }
        if (s->entry_count == 0)
            printf("%-12s %-20s (no node has a mesh)\n", a->time_text[i], anim);
    }
    if (a->json)
        printf("\n]}\n");
}

int mk_cli_sample_gltf(const mk_sample_args *a)
{
    if (a->then_count) {
        mk_cli_fail("sample: --then is meaningless for glTF (an animation is a clip sampled at "
                    "its own time; pick it with --anim)");
        return MK_EXIT_USAGE;
    }
    mk_gltf *g = NULL;
    mk_error err;
    if (mk_gltf_load(a->path, NULL, NULL, &g, &err) != MK_OK) {
        mk_cli_print_error(&err);
        return MK_EXIT_INVALID;
    }
    gltf_sampler s;
    memset(&s, 0, sizeof s);
    s.g = g;
    s.world = a->world;
    s.anim = g->animation_count ? 0 : MK_NONE;
    int code = a->anim ? find_animation(g, a->anim, &s.anim) : MK_EXIT_OK;
    if (code == MK_EXIT_OK)
        code = prepare(&s);
    if (code == MK_EXIT_OK)
        run(&s, a);
    for (uint32_t k = 0; k < s.entry_count; k++) {
        mk_morph_set_destroy(s.entries[k].set);
        mk_skin_destroy(s.entries[k].skin);
    }
    mk_scene_pose_destroy(s.pose);
    mk_scene_destroy(s.scene);
    free(s.world_m), free(s.joint_m);
    mk_track_clip_destroy(s.clip);
    free(s.cursors), free(s.clip_out), free(s.weights), free(s.weight_offset), free(s.entries);
    free(s.pos), free(s.nrm), free(s.tan);
    mk_gltf_destroy(g);
    return code;
}
