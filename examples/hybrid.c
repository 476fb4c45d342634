/* A hybrid character: blend-shape frames played by the frame player
 * (player.h) on a mesh whose skin (skin.h) follows the file's node
 * animation, with one joint turned from code on top (scene.h overrides);
 * morph first, then skin, on the CPU.
 *
 * Every morph target of the skinned mesh is one frame of a looping clip:
 * target i holds frame i as a delta from the base, so the player's pose
 * (frames a, b with weights 1 - w, w) is the morph pose of targets a, b,
 * base + (1 - w) d_a + w d_b = (1 - w) F_a + w F_b - the way a unit packed
 * into a .glb stores its frames.
 * usage: example_hybrid FILE.gltf|FILE.glb [--frames N] */
#include <math.h>
#include <morphkit/morphkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const mk_error *err)
{
    char msg[1200];
    mk_error_format(err, msg, sizeof msg);
    fprintf(stderr, "%s\n", msg);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE.gltf|FILE.glb [--frames N]\n", argv[0]);
        return 2;
    }
    int frames = argc > 3 && strcmp(argv[2], "--frames") == 0 ? atoi(argv[3]) : 90;
    mk_error err;
    mk_gltf *g;
    if (mk_gltf_load(argv[1], NULL, NULL, &g, &err) != MK_OK)
        return fail(&err);
    uint32_t node = 0;
    while (node < g->node_count &&
           (g->nodes[node].skin == MK_NONE || g->meshes[g->nodes[node].mesh].target_count == 0))
        node++;
    if (node == g->node_count) {
        fprintf(stderr, "%s: no skinned mesh with morph targets\n", argv[1]);
        mk_gltf_destroy(g);
        return 1;
    }
    const mk_gltf_node *n = &g->nodes[node];
    const mk_gltf_skin *gs = &g->skins[n->skin];

    /* Immutable runtime data, built once and shareable by many characters. */
    mk_morph_set *set = NULL;
    mk_skin *skin = NULL;
    mk_scene *scene = NULL;
    mk_track_clip *nodes_clip = NULL;
    mk_clip_set *clips = NULL;
    uint32_t targets = g->meshes[n->mesh].target_count;
    mk_clip_desc cd = {.name = "Frames", .frame_count = targets, .frame_time_us = 250000};
    mk_clip_set_desc csd = {&cd, 1, targets};
    if (mk_gltf_build_morph_set(g, n->mesh, 0, NULL, &set, &err) != MK_OK ||
        mk_gltf_build_skin(g, n->skin, n->mesh, 0, NULL, &skin, &err) != MK_OK ||
        mk_gltf_build_scene(g, NULL, &scene, &err) != MK_OK ||
        (g->animation_count && mk_gltf_build_track_clip(g, 0, NULL, &nodes_clip, &err) != MK_OK) ||
        mk_clip_set_create(&csd, NULL, &clips, &err) != MK_OK)
        return fail(&err);

    /* One character's state: a frame player, a scene pose, the node clip's
     * cursors, and the buffers the kernels write (nothing allocates later). */
    mk_player player;
    mk_player_init(&player, clips);
    mk_player_play(&player, 0, NULL);
    mk_scene_pose *pose = NULL;
    if (mk_scene_pose_create(scene, NULL, &pose, &err) != MK_OK)
        return fail(&err);
    size_t vc = set->vertex_count;
    uint32_t tracks = nodes_clip ? nodes_clip->track_count : 0;
    uint32_t *cursors = calloc(tracks + 1, sizeof(uint32_t));
    float *values = calloc((nodes_clip ? nodes_clip->output_count : 0) + 1, sizeof(float));
    float *world = malloc((size_t)scene->node_count * 16 * sizeof(float));
    float *jm = malloc((size_t)skin->joint_count * 16 * sizeof(float));
    float *pos = malloc(vc * 3 * sizeof(float)), *nrm = malloc(vc * 3 * sizeof(float));
    if (!cursors || !values || !world || !jm || !pos || !nrm)
        return 1;
    mk_track_clip_state nodes_state;
    if (nodes_clip)
        mk_track_clip_state_init(&nodes_state, nodes_clip, true, cursors);
    float *normals = set->base_normals ? nrm : NULL;
    /* The vertex farthest from the origin in the bind pose, to follow. */
    size_t tip = 0;
    for (size_t v = 1; v < vc; v++)
        if (fabsf(set->base_positions[3 * v + 1]) > fabsf(set->base_positions[3 * tip + 1]))
            tip = v;

    const int64_t dt = 1000000 / 30;
    int status = 0;
    for (int f = 0; f <= frames; f++) {
        double t = (double)f * (double)dt / 1e6;
        /* 1. Blend-shape frames: the player's pose is a morph pose. */
        mk_pose p;
        mk_player_pose(&player, &p);
        mk_morph_evaluate_pose(set, p.frames, p.weights, p.count, pos, normals, NULL, set->vertex_count,
                               NULL);
        /* 2. Joints: the node animation, then the root joint turned from
         *    code about y (a head turning to look at something). */
        mk_scene_pose_reset(scene, pose, NULL);
        if (nodes_clip) {
            mk_track_clip_state_sample(&nodes_state, values);
            mk_scene_pose_apply(scene, pose, nodes_clip, values, NULL);
        }
        float half = (float)(0.25 * sin(6.283185307179586 * t)); /* half of +-0.5 rad */
        mk_scene_trs turn = {{0, 0, 0}, {0, sinf(half), 0, cosf(half)}, {1, 1, 1}};
        if (mk_scene_pose_set_override(pose, gs->joints[0], MK_SCENE_OVERRIDE_ROTATION, &turn,
                                       &err) != MK_OK ||
            mk_scene_pose_world(scene, pose, world, scene->node_count, &err) != MK_OK ||
            /* 3. Skin: joint matrices, then the morphed vertices in place. */
            mk_skin_joint_matrices(skin, world, scene->node_count, jm, skin->joint_count, &err) !=
                MK_OK ||
            mk_skin_apply(skin, jm, skin->joint_count, pos, normals, NULL, pos, normals, NULL, skin->vertex_count,
                          &err) != MK_OK) {
            status = fail(&err);
            break;
        }
        const float *q = pos + 3 * tip;
        if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2])) {
            fprintf(stderr, "frame %d: vertex %zu is not finite\n", f, tip);
            status = 1;
            break;
        }
        if (f % 15 == 0) {
            printf("t=%.2fs targets", t);
            for (uint32_t k = 0; k < p.count; k++)
                printf(" %u*%.2f", p.frames[k], (double)p.weights[k]);
            printf("  vertex %zu at (%.4f, %.4f, %.4f)\n", tip, (double)q[0], (double)q[1],
                   (double)q[2]);
        }
        mk_player_advance(&player, dt, NULL);
        if (nodes_clip)
            mk_track_clip_state_advance(&nodes_state, dt);
    }
    free(cursors), free(values), free(world), free(jm), free(pos), free(nrm);
    mk_scene_pose_destroy(pose);
    mk_clip_set_destroy(clips);
    mk_track_clip_destroy(nodes_clip);
    mk_scene_destroy(scene);
    mk_skin_destroy(skin);
    mk_morph_set_destroy(set);
    mk_gltf_destroy(g);
    return status;
}
