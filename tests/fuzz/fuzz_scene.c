/* Fuzz target: the scene graph (morphkit/scene.h) on hierarchies and
 * transforms decoded from the input, animated by a track clip decoded from
 * it too. The input is read as bytes (each value one byte, missing bytes
 * read as 0):
 *   node count (mod 33), a mode byte (bit 0: glTF-style child lists;
 *   bit 1: a node lists itself now and then), then per node a parent byte
 *   (255: a root; else mod node count + 1, so one past the end occurs), a
 *   matrix flag and 10 or 16 value bytes (a table of interesting floats:
 *   0, +-1, halves, large, tiny, NaN, inf); with child lists a count and
 *   the child indices; then a track count (mod 9) and per track its path,
 *   interpolation (CUBICSPLINE included), target node, key count, key time
 *   steps and values.
 * Checks: the create call accepts or refuses without crashing; when the
 * scene exists, every world matrix equals the parent's world matrix times
 * the node's local matrix (recomputed here, in double precision, from
 * mk_scene_pose_local), and apply refuses a track aimed past the nodes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_pipeline.h"
#include "morphkit/morphkit.h"

#define MAX_NODES 32
#define MAX_TRACKS 8

typedef struct reader {
    const uint8_t *p, *end;
} reader;

static uint8_t next(reader *r)
{
    return r->p < r->end ? *r->p++ : 0;
}

static float value(reader *r, bool *finite)
{
    static const float table[16] = {0.0f, 1.0f,  -1.0f, 0.5f,  -0.5f,  2.0f,     0.70710678f,
                                    3.0f, -2.0f, 1e-6f, 1e30f, -1e30f, -0.0f,    0.25f,
                                    NAN,  INFINITY};
    uint8_t b = next(r);
    float v = table[b & 15];
    if (b & 16)
        v += (float)(b >> 5) * 0.125f; /* a few more moderate values */
    if (!isfinite(v) || fabsf(v) > 1e6f)
        *finite = false;
    return v;
}

static void check_world(const mk_scene *scene, const mk_scene_pose *pose, const float *world)
{
    mk_error err;
    for (uint32_t k = 0; k < scene->node_count; k++) {
        uint32_t i = scene->order[k], p = scene->parents[i];
        float local[16];
        if (mk_scene_pose_local(scene, pose, i, local, &err) != MK_OK)
            __builtin_trap();
        double expect[16], scale = 1.0;
        for (int c = 0; c < 4; c++)
            for (int row = 0; row < 4; row++) {
                double s = 0, a = 0;
                if (p == MK_NONE)
                    s = a = local[c * 4 + row];
                else
                    for (int j = 0; j < 4; j++) {
                        double term = (double)world[p * 16 + j * 4 + row] * local[c * 4 + j];
                        s += term;
                        a += fabs(term);
                    }
                expect[c * 4 + row] = s;
                scale = fmax(scale, fabs(a)); /* rounding is relative to the terms */
            }
        if (!(scale < 1e30))
            continue; /* float overflow is allowed in a deep chain of large scales */
        for (int e = 0; e < 16; e++)
            if (!(fabs(expect[e] - world[i * 16 + e]) <= 1e-4 * scale))
                __builtin_trap();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, data + size};
    bool finite = true;
    uint32_t n = next(&r) % (MAX_NODES + 1);
    uint8_t mode = next(&r);
    mk_scene_node_desc nodes[MAX_NODES];
    uint32_t child_counts[MAX_NODES], children[MAX_NODES * 3], child_total = 0;
    for (uint32_t i = 0; i < n; i++) {
        mk_scene_node_desc_init(&nodes[i]);
        uint8_t b = next(&r);
        nodes[i].parent = b == 255 ? MK_NONE : b % (n + 1);
        nodes[i].has_matrix = next(&r) & 1;
        if (nodes[i].has_matrix)
            for (int e = 0; e < 16; e++)
                nodes[i].matrix[e] = value(&r, &finite);
        else {
            for (int e = 0; e < 3; e++)
                nodes[i].trs.translation[e] = value(&r, &finite);
            for (int e = 0; e < 4; e++)
                nodes[i].trs.rotation[e] = value(&r, &finite);
            for (int e = 0; e < 3; e++)
                nodes[i].trs.scale[e] = value(&r, &finite);
        }
        if (mode & 1) {
            child_counts[i] = next(&r) % 4;
            for (uint32_t c = 0; c < child_counts[i]; c++) {
                uint8_t cb = next(&r);
                children[child_total++] = (mode & 2) && cb == 0 ? i : cb % (n + 1);
            }
        }
    }
    mk_scene_desc desc = {n, n ? nodes : NULL, NULL, NULL};
    if (mode & 1) {
        desc.child_counts = child_counts;
        desc.children = children;
    }
    /* the track clip */
    mk_track_desc tracks[MAX_TRACKS];
    uint32_t track_count = next(&r) % (MAX_TRACKS + 1);
    for (uint32_t t = 0; t < track_count; t++) {
        tracks[t].path = (mk_track_path)(next(&r) % MK_TRACK_PATH_COUNT);
        tracks[t].interpolation = (mk_interpolation)(next(&r) % MK_INTERPOLATION_COUNT);
        tracks[t].target = next(&r) % (n + 2);
        tracks[t].key_count = 1 + next(&r) % 5;
        static const uint32_t comps[MK_TRACK_PATH_COUNT] = {0, 3, 4, 3};
        tracks[t].components = comps[tracks[t].path] ? comps[tracks[t].path] : 1u + next(&r) % 3u;
    }
    mk_error err;
    mk_track_clip *clip = NULL;
    if (track_count && mk_track_clip_create(tracks, track_count, NULL, &clip, &err) == MK_OK) {
        for (uint32_t t = 0; t < clip->track_count; t++) {
            mk_track *tr = &clip->tracks[t];
            int64_t time = 0;
            size_t per_key = (size_t)tr->components *
                             (tr->interpolation == MK_INTERPOLATION_CUBICSPLINE ? 3 : 1);
            for (uint32_t k = 0; k < tr->key_count; k++) {
                time += (int64_t)next(&r) * 10000;
                tr->times_us[k] = time;
                for (size_t c = 0; c < per_key; c++)
                    tr->values[k * per_key + c] = value(&r, &finite);
            }
        }
        if (mk_track_clip_validate(clip, &err) != MK_OK) {
            mk_track_clip_destroy(clip);
            clip = NULL;
        }
    }
    mk_scene *scene;
    if (mk_scene_create(&desc, NULL, &scene, &err) == MK_OK) {
        mk_scene_pose *pose;
        float *world = malloc(((size_t)n + 1) * 16 * sizeof(float));
        float *values = clip ? malloc(((size_t)clip->output_count + 1) * sizeof(float)) : NULL;
        uint32_t *cursors = clip ? calloc(clip->track_count + 1, sizeof *cursors) : NULL;
        if (world && mk_scene_pose_create(scene, NULL, &pose, &err) == MK_OK) {
            if (mk_scene_pose_world(scene, pose, world, n, &err) != MK_OK)
                __builtin_trap();
            if (finite)
                check_world(scene, pose, world);
            if (clip && values && cursors) {
                bool aimed_past = false;
                for (uint32_t t = 0; t < clip->track_count; t++)
                    aimed_past |= clip->tracks[t].path != MK_TRACK_WEIGHTS &&
                                  clip->tracks[t].target >= n;
                mk_track_clip_state s;
                mk_track_clip_state_init(&s, clip, true, cursors);
                for (int k = 0; k < 6; k++) {
                    mk_track_clip_state_sample(&s, values);
                    mk_status st = mk_scene_pose_apply(scene, pose, clip, values, &err);
                    if ((st == MK_ERR_INVALID_ARGUMENT) != aimed_past)
                        __builtin_trap();
                    if (n && k == 3) {
                        mk_scene_trs trs = {{1, 0, 0}, {0, 0, 1, 1}, {2, 2, 2}};
                        if (mk_scene_pose_set_override(pose, k % n, MK_SCENE_OVERRIDE_TRS, &trs,
                                                       &err) != MK_OK)
                            __builtin_trap();
                    }
                    if (mk_scene_pose_world(scene, pose, world, n, &err) != MK_OK)
                        __builtin_trap();
                    if (finite)
                        check_world(scene, pose, world);
                    mk_track_clip_state_advance(&s, 7777 * (k + 1));
                }
            }
            mk_scene_pose_destroy(pose);
        }
        free(world);
        free(values);
        free(cursors);
        mk_scene_destroy(scene);
    }
    mk_track_clip_destroy(clip);
    return 0;
}
