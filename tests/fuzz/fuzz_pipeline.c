/* The after-load pipeline of fuzz_pipeline.h. */
#include "fuzz_pipeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REQUIRE(cond)                                                                              \
    do {                                                                                           \
        if (!(cond))                                                                               \
            __builtin_trap();                                                                      \
    } while (0)

static void exercise_morph_set(const mk_morph_set *set)
{
    mk_error err;
    size_t n = set->vertex_count;
    if (n == 0 || n > FZ_MAX_VERTICES || set->target_count > 4096)
        return;
    float *out = malloc(n * 10 * sizeof(float));
    float *weights = malloc((set->target_count + 1) * sizeof(float));
    uint32_t *targets = malloc((set->target_count + 1) * sizeof(uint32_t));
    if (!out || !weights || !targets)
        goto done;
    (void)mk_morph_set_validate(set, &err);
    REQUIRE(mk_morph_evaluate(set, NULL, out, out + 3 * n, out + 6 * n, n, &err) == MK_OK);
    /* weights outside [0, 1] are allowed (glTF does not clamp them) */
    for (uint32_t t = 0; t < set->target_count; t++) {
        weights[t] = (t % 3 == 0) ? 1.0f : (t % 3 == 1) ? -0.5f : 2.0f;
        targets[t] = set->target_count - 1 - t;
    }
    REQUIRE(mk_morph_evaluate(set, weights, out, out + 3 * n, NULL, n, &err) == MK_OK);
    REQUIRE(mk_morph_evaluate_pose(set, targets, weights, set->target_count, out, NULL,
                                   out + 6 * n, n, &err) == MK_OK);
    /* misuse is refused, nothing written */
    REQUIRE(mk_morph_evaluate(set, NULL, out, NULL, NULL, n - 1, &err) == MK_ERR_INVALID_ARGUMENT);
    if (set->target_count) {
        targets[0] = set->target_count;
        REQUIRE(mk_morph_evaluate_pose(set, targets, weights, 1, out, NULL, NULL, n, &err) ==
                MK_ERR_INVALID_ARGUMENT);
    }
done:
    free(out);
    free(weights);
    free(targets);
}

static void exercise_accessors(const mk_gltf *g)
{
    mk_error err;
    for (uint32_t a = 0; a < g->accessor_count; a++) {
        const mk_gltf_accessor *acc = &g->accessors[a];
        size_t n = (size_t)acc->count * acc->components;
        if (n > FZ_MAX_FLOATS)
            continue;
        float *out = malloc((n + 1) * sizeof(float));
        if (!out)
            continue;
        REQUIRE(mk_gltf_accessor_read_float(g, a, out, n, &err) == MK_OK);
        const float *direct = mk_gltf_accessor_float_data(g, a);
        if (direct)
            REQUIRE(n == 0 || memcmp(direct, out, n * sizeof(float)) == 0);
        if (acc->type == MK_GLTF_SCALAR && acc->component_type != MK_GLTF_FLOAT &&
            acc->component_type != MK_GLTF_BYTE && acc->component_type != MK_GLTF_SHORT)
            (void)mk_gltf_accessor_read_index(g, a, (uint32_t *)out, acc->count, &err);
        free(out);
    }
}

static void exercise_scene(const mk_gltf *g, mk_scene *scene, const mk_track_clip *clip,
                           const float *values)
{
    mk_error err;
    mk_scene_pose *pose;
    if (mk_scene_pose_create(scene, NULL, &pose, &err) != MK_OK)
        return;
    float *world = malloc(((size_t)scene->node_count + 1) * 16 * sizeof(float));
    if (world) {
        REQUIRE(mk_scene_pose_reset(scene, pose, &err) == MK_OK);
        if (clip)
            REQUIRE(mk_scene_pose_apply(scene, pose, clip, values, &err) == MK_OK);
        if (scene->node_count) {
            mk_scene_trs trs = {{1, 2, 3}, {0, 0, 0, 2}, {1, -1, 0.5f}};
            uint32_t node = scene->node_count / 2;
            REQUIRE(mk_scene_pose_set_override(pose, node, MK_SCENE_OVERRIDE_ROTATION, &trs,
                                               &err) == MK_OK);
            REQUIRE(mk_scene_pose_world(scene, pose, world, scene->node_count, &err) == MK_OK);
            const float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 4, 5, 6, 1};
            REQUIRE(mk_scene_pose_set_override_matrix(pose, 0, m, &err) == MK_OK);
            REQUIRE(mk_scene_pose_local(scene, pose, 0, world, &err) == MK_OK);
            REQUIRE(mk_scene_pose_world(scene, pose, world, scene->node_count - 1, &err) ==
                    MK_ERR_INVALID_ARGUMENT);
            REQUIRE(mk_scene_pose_clear_override(pose, MK_NONE, &err) == MK_OK);
        }
        REQUIRE(mk_scene_pose_world(scene, pose, world, scene->node_count, &err) == MK_OK);
        for (uint32_t i = 0; i < g->node_count && i < scene->node_count; i++)
            REQUIRE(scene->parents[i] == g->nodes[i].parent);
    }
    free(world);
    mk_scene_pose_destroy(pose);
}

static void exercise_animation(const mk_gltf *g, uint32_t a, mk_scene *scene)
{
    mk_error err;
    mk_track_clip *clip;
    if (mk_gltf_build_track_clip(g, a, NULL, &clip, &err) != MK_OK)
        return;
    REQUIRE(mk_track_clip_validate(clip, &err) == MK_OK);
    if (clip->output_count > FZ_MAX_FLOATS) {
        mk_track_clip_destroy(clip);
        return;
    }
    uint32_t *cursors = calloc(clip->track_count + 1, sizeof *cursors);
    float *out = malloc((clip->output_count + 1) * sizeof(float));
    if (cursors && out) {
        int64_t duration = mk_track_clip_duration(clip);
        for (int looping = 0; looping < 2; looping++) {
            mk_track_clip_state s;
            REQUIRE(mk_track_clip_state_init(&s, clip, looping, cursors) == MK_OK);
            for (int k = 0; k < 8; k++) {
                mk_track_clip_state_sample(&s, out);
                if (scene)
                    exercise_scene(g, scene, clip, out);
                REQUIRE(mk_track_clip_state_advance(&s, 1 + duration / 5 + 250000 * k) == MK_OK);
                REQUIRE(s.time_us >= 0 && s.time_us <= (s.duration_us > 0 ? s.duration_us : 0));
            }
            mk_track_clip_state_set_time(&s, -5);
            mk_track_clip_state_set_time(&s, INT64_MAX / 2);
            mk_track_clip_state_sample(&s, out);
        }
        for (uint32_t t = 0; t < clip->track_count; t++) {
            uint32_t cursor = 0;
            const mk_track *tr = &clip->tracks[t];
            mk_track_sample(tr, -1, out + tr->value_offset);
            mk_track_sample_cursor(tr, duration / 3, &cursor, out + tr->value_offset);
            mk_track_sample_cursor(tr, duration + 1, &cursor, out + tr->value_offset);
            REQUIRE(cursor < tr->key_count);
        }
    }
    free(cursors);
    free(out);
    mk_track_clip_destroy(clip);
}

/* Every skinned primitive skinned at the scene's rest pose: joint matrices
 * from the world matrices, then the kernel in place (positions, normals). */
static void exercise_skins(const mk_gltf *g, const mk_scene *scene)
{
    mk_error err;
    mk_scene_pose *pose = NULL;
    float *world = NULL;
    if (!scene || g->node_count > FZ_MAX_VERTICES ||
        mk_scene_pose_create(scene, NULL, &pose, &err) != MK_OK ||
        !(world = malloc(((size_t)g->node_count + 1) * 16 * sizeof(float))) ||
        mk_scene_pose_world(scene, pose, world, g->node_count, &err) != MK_OK)
        goto done;
    for (uint32_t n = 0; n < g->node_count; n++) {
        const mk_gltf_node *node = &g->nodes[n];
        if (node->skin == MK_NONE || node->mesh == MK_NONE)
            continue;
        for (uint32_t p = 0; p < g->meshes[node->mesh].primitive_count; p++) {
            mk_skin *skin;
            if (mk_gltf_build_skin(g, node->skin, node->mesh, p, NULL, &skin, &err) != MK_OK)
                continue;
            size_t vc = skin->vertex_count;
            float *jm = vc <= FZ_MAX_VERTICES
                            ? malloc(((size_t)skin->joint_count + 1) * 16 * sizeof(float))
                            : NULL;
            float *v = jm ? calloc(vc * 6 + 1, sizeof(float)) : NULL;
            if (v && mk_skin_joint_matrices(skin, world, g->node_count, jm, skin->joint_count,
                                            &err) == MK_OK)
                mk_skin_apply(skin, jm, skin->joint_count, v, v + 3 * vc, NULL, v, v + 3 * vc,
                              NULL, vc, &err);
            free(jm);
            free(v);
            mk_skin_destroy(skin);
        }
    }
done:
    free(world);
    mk_scene_pose_destroy(pose);
}

void fz_exercise_gltf(const mk_gltf *g)
{
    mk_error err;
    for (uint32_t m = 0; m < g->mesh_count; m++)
        for (uint32_t p = 0; p < g->meshes[m].primitive_count; p++) {
            mk_morph_set *set;
            if (mk_gltf_build_morph_set(g, m, p, NULL, &set, &err) != MK_OK)
                continue;
            REQUIRE(set->target_count == g->meshes[m].target_count);
            exercise_morph_set(set);
            mk_morph_set_destroy(set);
        }
    float weights[8];
    for (uint32_t i = 0; i < g->node_count; i++)
        mk_gltf_node_default_weights(g, i, weights, 8);
    exercise_accessors(g);
    mk_scene *scene = NULL;
    if (mk_gltf_build_scene(g, NULL, &scene, &err) == MK_OK) {
        REQUIRE(scene->node_count == g->node_count);
        exercise_scene(g, scene, NULL, NULL);
    }
    for (uint32_t a = 0; a < g->animation_count; a++)
        exercise_animation(g, a, scene);
    exercise_skins(g, scene);
    mk_scene_destroy(scene);
}

typedef struct event_check {
    const mk_clip_set *clips;
    uint32_t events;
} event_check;

static void on_event(void *user, const mk_player_event *e)
{
    event_check *c = user;
    REQUIRE(e->clip < c->clips->clip_count);
    const mk_clip *clip = &c->clips->clips[e->clip];
    REQUIRE(e->frame < clip->frame_count && e->event < clip->event_count);
    REQUIRE(e->name == clip->events[e->event].name && e->repeat >= 1);
    c->events++;
}

static void check_pose(const mk_clip_set *clips, const mk_frame_set *frames, const mk_pose *pose,
                       float *out)
{
    mk_error err;
    REQUIRE(pose->count == 0 || pose->count == 1 || pose->count == 2 || pose->count == 4);
    double sum = 0, magnitude = 0;
    for (uint32_t e = 0; e < pose->count; e++) {
        REQUIRE(isfinite(pose->weights[e]));
        REQUIRE(clips->frame_set_count == 0 || pose->frames[e] < clips->frame_set_count);
        sum += pose->weights[e];
        magnitude += fabsf(pose->weights[e]);
    }
    /* 1 up to the float rounding of the weights: smooth weights reach tens
     * of thousands when frame durations differ by a factor of 10^5 */
    REQUIRE(pose->count == 0 || fabs(sum - 1.0) < 1e-3 + 4.0 * magnitude / 16777216.0);
    if (frames && out)
        REQUIRE(mk_pose_eval(frames, pose, out, frames->normals ? out : NULL,
                             frames->vertex_count, &err) == MK_OK);
}

void fz_exercise_clips(const mk_clip_set *clips, const mk_frame_set *frames)
{
    if (clips->clip_count == 0)
        return;
    mk_player p;
    mk_pose pose;
    event_check check = {clips, 0};
    mk_event_sink sink = {on_event, &check};
    float *out = NULL;
    if (frames && frames->vertex_count <= FZ_MAX_VERTICES)
        out = malloc((size_t)frames->vertex_count * 3 * sizeof(float) + 1);
    REQUIRE(mk_player_init(&p, clips) == MK_OK);
    /* steps from 1 us to hours: short ones walk frame by frame, long ones
     * take the skip-whole-cycles path */
    static const int64_t steps[] = {1, 999, 16667, 100000, 1000000, 3600000000LL};
    for (uint32_t c = 0; c < clips->clip_count && c < 64; c++) {
        REQUIRE(mk_player_play(&p, c, &sink) == MK_OK);
        for (int k = 0; k < 24; k++) {
            REQUIRE(mk_player_advance(&p, steps[k % 6] + k, &sink) == MK_OK);
            REQUIRE(mk_player_pose(&p, &pose) == MK_OK);
            check_pose(clips, frames, &pose, out);
            uint32_t clip = mk_player_clip(&p);
            REQUIRE(clip == MK_NONE || clip < clips->clip_count);
            REQUIRE(clip == MK_NONE || mk_player_frame(&p) < clips->clips[clip].frame_count);
            if (k == 11)
                REQUIRE(mk_player_set_speed(&p, k % 2 ? -2.5 : 3.0) == MK_OK);
            if (k == 17)
                REQUIRE(mk_player_play(&p, (c + 1) % clips->clip_count, &sink) == MK_OK);
        }
        REQUIRE(mk_player_set_speed(&p, 1.0) == MK_OK);
        REQUIRE(mk_player_advance_seconds(&p, 1e9, &sink) == MK_OK);
        REQUIRE(mk_player_pose(&p, &pose) == MK_OK);
        check_pose(clips, frames, &pose, out);
        if (clips->clips[c].name)
            REQUIRE(mk_clip_set_find(clips, clips->clips[c].name) <= c);
    }
    free(out);
}

void fz_exercise_unit(const mk_unit *unit)
{
    const mk_frame_set *frames = unit->frames;
    REQUIRE(unit->clips->clip_count == unit->files->animation_count);
    REQUIRE(frames->frame_count == unit->files->frame_count);
    fz_exercise_clips(unit->clips, frames);
    for (uint32_t a = 0; a < unit->files->animation_count; a++)
        REQUIRE(mk_unit_find_animation(unit, unit->files->animations[a].name) == a);
    size_t n = frames->vertex_count;
    if (n > FZ_MAX_VERTICES)
        return;
    size_t m = unit->position_count > unit->normal_count ? unit->position_count
                                                         : unit->normal_count;
    float *out = malloc((m + 1) * 3 * sizeof(float));
    if (!out)
        return;
    for (uint32_t v = 0; v < n; v++)
        REQUIRE(unit->source_index[v] < unit->position_count);
    mk_unit_to_source_order(unit, frames->positions, out);
    if (frames->normals)
        mk_unit_normals_to_source_order(unit, frames->normals, out);
    free(out);
}

void fz_note(const char *what, mk_status status, const mk_error *err)
{
    static int verbose = -1;
    if (verbose < 0)
        verbose = getenv("MK_FUZZ_VERBOSE") != NULL;
    if (verbose)
        fprintf(stderr, "%s: %s%s%s\n", what, status == MK_OK ? "ok" : "failed",
                status == MK_OK ? "" : ": ", status == MK_OK ? "" : err->message);
}
