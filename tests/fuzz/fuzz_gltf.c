/* Fuzz target: the glTF/GLB reader (no external files), then building and
 * evaluating every primitive's morph set, sampling every animation, and
 * skinning every skinned primitive at the rest pose of the scene. */
#include <stdlib.h>

#include "fuzz.h"
#include "morphkit/morphkit.h"

static void exercise_morphs(const mk_gltf *g)
{
    mk_error err;
    for (uint32_t m = 0; m < g->mesh_count; m++)
        for (uint32_t p = 0; p < g->meshes[m].primitive_count; p++) {
            mk_morph_set *set;
            if (mk_gltf_build_morph_set(g, m, p, NULL, &set, &err) != MK_OK)
                continue;
            size_t n = (size_t)set->vertex_count;
            float *out = malloc(n * 10 * sizeof(float));
            if (out)
                mk_morph_evaluate(set, NULL, out, out + 3 * n, out + 6 * n, set->vertex_count,
                                  NULL);
            free(out);
            mk_morph_set_destroy(set);
        }
}

static void exercise_animations(const mk_gltf *g)
{
    mk_error err;
    for (uint32_t a = 0; a < g->animation_count; a++) {
        mk_track_clip *clip;
        if (mk_gltf_build_track_clip(g, a, NULL, &clip, &err) != MK_OK)
            continue;
        uint32_t *cursors = calloc(clip->track_count + 1, sizeof *cursors);
        float *out = malloc((clip->output_count + 1) * sizeof(float));
        if (cursors && out) {
            mk_track_clip_state s;
            mk_track_clip_state_init(&s, clip, true, cursors);
            for (int k = 0; k < 8; k++) {
                mk_track_clip_state_sample(&s, out);
                mk_track_clip_state_advance(&s, 250000);
            }
        }
        free(cursors);
        free(out);
        mk_track_clip_destroy(clip);
    }
}

static void exercise_skins(const mk_gltf *g)
{
    mk_error err;
    mk_scene *scene = NULL;
    mk_scene_pose *pose = NULL;
    float *world = NULL;
    if (mk_gltf_build_scene(g, NULL, &scene, &err) != MK_OK ||
        mk_scene_pose_create(scene, NULL, &pose, &err) != MK_OK ||
        !(world = malloc(((size_t)g->node_count + 1) * 16 * sizeof(float))) ||
        mk_scene_pose_world(scene, pose, world, g->node_count, &err) != MK_OK)
        goto done;
    for (uint32_t n = 0; n < g->node_count; n++) {
        const mk_gltf_node *node = &g->nodes[n];
        if (node->skin == MK_NONE)
            continue;
        for (uint32_t p = 0; p < g->meshes[node->mesh].primitive_count; p++) {
            mk_skin *skin;
            if (mk_gltf_build_skin(g, node->skin, node->mesh, p, NULL, &skin, &err) != MK_OK)
                continue;
            size_t vc = skin->vertex_count;
            float *jm = malloc((size_t)skin->joint_count * 16 * sizeof(float));
            float *v = calloc(vc * 6, sizeof(float));
            if (jm && v &&
                mk_skin_joint_matrices(skin, world, g->node_count, jm, skin->joint_count, &err) ==
                    MK_OK)
                mk_skin_apply(skin, jm, skin->joint_count, v, v + 3 * vc, NULL, v, v + 3 * vc,
                              NULL, skin->vertex_count, &err);
            free(jm);
            free(v);
            mk_skin_destroy(skin);
        }
    }
done:
    free(world);
    mk_scene_pose_destroy(pose);
    mk_scene_destroy(scene);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mk_gltf_options opt = {0};
    opt.max_buffer_size = 1u << 24;
    opt.max_count = 1u << 16;
    mk_gltf *g;
    mk_error err;
    if (mk_gltf_parse(data, size, NULL, "<fuzz>", &opt, NULL, &g, &err) != MK_OK)
        return 0;
    exercise_morphs(g);
    exercise_animations(g);
    exercise_skins(g);
    mk_gltf_destroy(g);
    return 0;
}
