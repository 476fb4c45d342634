/* The skinned target path (mk_gl_draw_morph_skin / mk_gl_capture_morph_skin)
 * against the CPU kernels: morph targets then a skin, captured with
 * transform feedback, within 1e-5 of mk_morph_evaluate + mk_skin_apply, on
 * generated data (2 targets moving positions, normals and tangents, 8
 * influences per vertex, 13 joints) and on RiggedFigure posed by its
 * animation; then the misuse checks. Runs headless on EGL (llvmpipe without
 * a GPU); exits 77 (skipped) where no EGL display gives an OpenGL 3.3 core
 * context. */
#include <math.h>
#include <stdint.h>

#include "gl_internal.h"
#include "mk_test.h"
#include "morphkit/gl.h"
#include "morphkit/morphkit.h"

static mk_gl_renderer *renderer;

static void check_close(const float *gpu, const float *cpu, size_t n, double tol, const char *what)
{
    double worst = 0;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)gpu[i] - (double)cpu[i]);
        if (!(d <= worst)) {
            worst = d;
            at = i;
        }
    }
    if (!(worst <= tol)) {
        fprintf(stderr, "%s: float %zu is %.9g on the GPU, %.9g on the CPU\n", what, at,
                (double)gpu[at], (double)cpu[at]);
        mk_test_failures++;
    }
}

static uint32_t seed = 99;
#define RND() ((seed = seed * 1664525u + 1013904223u), (float)(seed >> 8) / 16777216.0f - 0.5f)

/* Runs both paths on (set, weights, skin, jm) and compares. */
static void compare(const mk_morph_set *set, const float *weights, const mk_skin *skin,
                    const float *jm, const char *what)
{
    size_t vc = set->vertex_count;
    float *cp = calloc(vc * 3, 4), *cn = calloc(vc * 3, 4), *ct = calloc(vc * 4, 4);
    float *gp = calloc(vc * 3, 4), *gn = calloc(vc * 3, 4), *gt = calloc(vc * 4, 4);
    mk_error err;
    bool nrm = set->base_normals != NULL, tan = set->base_tangents != NULL;
    CHECK(mk_morph_evaluate(set, weights, cp, cn, ct, set->vertex_count, &err) == MK_OK);
    CHECK(mk_skin_apply(skin, jm, skin->joint_count, cp, nrm ? cn : NULL, tan ? ct : NULL, cp,
                        nrm ? cn : NULL, tan ? ct : NULL, skin->vertex_count, &err) == MK_OK);
    mk_gl_morph *gm = NULL;
    mk_gl_skin *gs = NULL;
    CHECK(mk_gl_morph_create(renderer, set, NULL, 0, &gm, &err) == MK_OK);
    CHECK(mk_gl_skin_create(renderer, skin, &gs, &err) == MK_OK);
    CHECK(mk_gl_capture_morph_skin(renderer, gm, weights, gs, jm, skin->joint_count, gp, gn, gt,
                                   &err) == MK_OK);
    char label[128];
    snprintf(label, sizeof label, "%s positions", what);
    check_close(gp, cp, vc * 3, 1e-5, label);
    if (nrm) {
        snprintf(label, sizeof label, "%s normals", what);
        check_close(gn, cn, vc * 3, 1e-5, label);
    }
    if (tan) {
        snprintf(label, sizeof label, "%s tangents", what);
        check_close(gt, ct, vc * 4, 1e-5, label);
    }
    /* The draw call itself runs without a GL error (into an offscreen target:
     * a surfaceless context has no default framebuffer). */
    mk_gl_target *target = NULL;
    mk_gl_target_desc td = {16, 16, 0};
    CHECK(mk_gl_target_create(&td, NULL, &target, &err) == MK_OK);
    CHECK(mk_gl_target_begin(target, NULL, &err) == MK_OK);
    CHECK(mk_gl_draw_morph_skin(renderer, gm, weights, gs, jm, skin->joint_count, NULL, &err) ==
          MK_OK);
    CHECK(mk_gl_check("skinned draw", &err) == MK_OK);
    mk_gl_target_destroy(target);
    mk_gl_skin_destroy(gs);
    mk_gl_morph_destroy(gm);
    free(cp), free(cn), free(ct), free(gp), free(gn), free(gt);
}

static void test_generated(void)
{
    enum { VC = 300, JC = 13, IC = 8 };
    uint32_t counts[6] = {MK_MORPH_DENSE, MK_MORPH_DENSE, MK_MORPH_DENSE, 30, 0, MK_MORPH_DENSE};
    mk_morph_set_desc md = {VC, 2, true, true, counts};
    mk_morph_set *set = NULL;
    mk_skin *skin = NULL;
    mk_error err;
    CHECK(mk_morph_set_create(&md, NULL, &set, &err) == MK_OK);
    mk_skin_desc sd = {VC, JC, IC};
    CHECK(mk_skin_create(&sd, NULL, &skin, &err) == MK_OK);
    if (!set || !skin)
        return;
    for (size_t i = 0; i < VC * 3; i++)
        set->base_positions[i] = 2 * RND(), set->base_normals[i] = RND();
    for (size_t i = 0; i < VC * 4; i++)
        set->base_tangents[i] = i % 4 == 3 ? (RND() < 0 ? -1.0f : 1.0f) : RND();
    for (int t = 0; t < 2; t++)
        for (int a = 0; a < 3; a++) {
            mk_morph_delta *d = &set->targets[t].delta[a];
            for (uint32_t e = 0; e < d->entry_count; e++) {
                if (d->indices)
                    d->indices[e] = e * 10;
                for (int c = 0; c < 3; c++)
                    d->values[3 * e + c] = 0.3f * RND();
            }
        }
    for (size_t i = 0; i < (size_t)VC * IC; i++) {
        skin->joints[i] = (uint16_t)((RND() + 0.5f) * JC) % JC;
        skin->weights[i] = RND() < -0.2f ? 0.0f : RND() + 0.5f;
    }
    for (uint32_t j = 0; j < JC; j++)
        skin->joint_nodes[j] = j;
    CHECK(mk_skin_prepare(skin, &err) == MK_OK);
    static float jm[JC * 16];
    for (int j = 0; j < JC; j++)
        for (int k = 0; k < 16; k++)
            jm[j * 16 + k] = k % 4 == 3 ? (k == 15 ? 1.0f : 0.0f) : 2 * RND();
    const float w[2] = {0.7f, -0.4f};
    compare(set, w, skin, jm, "generated");
    compare(set, NULL, skin, jm, "generated, default weights");
    mk_skin_destroy(skin);
    mk_morph_set_destroy(set);
}

/* RiggedFigure (19 joints, 4 influences) at 0.9 s of its animation. */
static void test_rigged_figure(void)
{
    mk_gltf *g = NULL;
    mk_error err;
    CHECK(mk_gltf_load(MK_TEST_SOURCE_DIR "/tests/data/gltf/RiggedFigure/glTF-Binary/RiggedFigure.glb",
                       NULL, NULL, &g, &err) == MK_OK);
    if (!g)
        return;
    uint32_t node = 0;
    while (node < g->node_count && g->nodes[node].skin == MK_NONE)
        node++;
    CHECK(node < g->node_count);
    mk_morph_set *set = NULL;
    mk_skin *skin = NULL;
    mk_track_clip *clip = NULL;
    mk_scene *scene = NULL;
    mk_scene_pose *pose = NULL;
    uint32_t mesh = g->nodes[node].mesh;
    CHECK(mk_gltf_build_morph_set(g, mesh, 0, NULL, &set, &err) == MK_OK);
    CHECK(mk_gltf_build_skin(g, g->nodes[node].skin, mesh, 0, NULL, &skin, &err) == MK_OK);
    CHECK(mk_gltf_build_track_clip(g, 0, NULL, &clip, &err) == MK_OK);
    CHECK(mk_gltf_build_scene(g, NULL, &scene, &err) == MK_OK);
    CHECK(mk_scene_pose_create(scene, NULL, &pose, &err) == MK_OK);
    if (set && skin && clip && pose) {
        float *values = calloc(clip->output_count + 1, sizeof(float));
        uint32_t *cursors = calloc(clip->track_count + 1, sizeof(uint32_t));
        float *world = calloc((size_t)g->node_count * 16, sizeof(float));
        float *jm = calloc((size_t)skin->joint_count * 16, sizeof(float));
        mk_track_clip_state st;
        mk_track_clip_state_init(&st, clip, false, cursors);
        mk_track_clip_state_set_time(&st, 900000);
        mk_track_clip_state_sample(&st, values);
        CHECK(mk_scene_pose_apply(scene, pose, clip, values, &err) == MK_OK);
        CHECK(mk_scene_pose_world(scene, pose, world, g->node_count, &err) == MK_OK);
        CHECK(mk_skin_joint_matrices(skin, world, g->node_count, jm, skin->joint_count, &err) ==
              MK_OK);
        compare(set, NULL, skin, jm, "RiggedFigure t=0.9");
        free(values), free(cursors), free(world), free(jm);
    }
    mk_scene_pose_destroy(pose);
    mk_scene_destroy(scene);
    mk_track_clip_destroy(clip);
    mk_skin_destroy(skin);
    mk_morph_set_destroy(set);
    mk_gltf_destroy(g);
}

static void test_misuse(void)
{
    uint32_t counts[3] = {0, 0, 0};
    mk_morph_set_desc md = {3, 1, false, false, counts};
    mk_morph_set *set = NULL;
    mk_skin *skin = NULL;
    mk_gl_morph *gm = NULL;
    mk_gl_skin *gs = NULL;
    mk_error err;
    mk_skin_desc sd = {3, 2, 4}, other = {4, 2, 4};
    CHECK(mk_morph_set_create(&md, NULL, &set, &err) == MK_OK);
    CHECK(mk_skin_create(&sd, NULL, &skin, &err) == MK_OK);
    if (!set || !skin)
        return;
    CHECK(mk_gl_skin_create(renderer, skin, &gs, &err) == MK_ERR_INVALID_ARGUMENT); /* unprepared */
    CHECK(gs == NULL);
    CHECK(mk_skin_prepare(skin, &err) == MK_OK);
    CHECK(mk_gl_skin_create(NULL, skin, &gs, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_gl_skin_create(renderer, NULL, &gs, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_gl_skin_create(renderer, skin, &gs, &err) == MK_OK);
    CHECK(mk_gl_morph_create(renderer, set, NULL, 0, &gm, &err) == MK_OK);
    float jm[32] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
                    1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    float out[9];
    CHECK(mk_gl_capture_morph_skin(renderer, gm, NULL, gs, jm, 1, out, NULL, NULL, &err) ==
          MK_ERR_INVALID_ARGUMENT); /* one matrix for two joints */
    CHECK(mk_gl_capture_morph_skin(renderer, gm, NULL, NULL, jm, 2, out, NULL, NULL, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_gl_draw_morph_skin(renderer, gm, NULL, gs, NULL, 2, NULL, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    jm[20] = NAN;
    CHECK(mk_gl_draw_morph_skin(renderer, gm, NULL, gs, jm, 2, NULL, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "joint matrix 1");
    jm[20] = 0;
    mk_skin *skin4 = NULL;
    mk_gl_skin *gs4 = NULL;
    CHECK(mk_skin_create(&other, NULL, &skin4, &err) == MK_OK);
    CHECK(mk_skin_prepare(skin4, &err) == MK_OK);
    CHECK(mk_gl_skin_create(renderer, skin4, &gs4, &err) == MK_OK);
    CHECK(mk_gl_draw_morph_skin(renderer, gm, NULL, gs4, jm, 2, NULL, &err) ==
          MK_ERR_INVALID_ARGUMENT); /* 4 skinned vertices, 3 morphed */
    CHECK(glGetError() == GL_NO_ERROR);
    /* Unweighted vertices follow joint 0 (identity here): unchanged. */
    CHECK(mk_gl_capture_morph_skin(renderer, gm, NULL, gs, jm, 2, out, NULL, NULL, &err) ==
          MK_OK);
    CHECK(out[0] == 0.0f && out[8] == 0.0f);
    mk_gl_skin_destroy(gs4);
    mk_skin_destroy(skin4);
    mk_gl_skin_destroy(gs);
    mk_gl_skin_destroy(NULL);
    mk_gl_morph_destroy(gm);
    mk_skin_destroy(skin);
    mk_morph_set_destroy(set);
}

int main(int argc, char **argv)
{
    static const mk_test_case cases[] = {
        MK_TEST(test_generated),
        MK_TEST(test_rigged_figure),
        MK_TEST(test_misuse),
    };
    mk_gl_context *context = NULL;
    mk_error err;
    if (mk_gl_context_create(NULL, NULL, &context, &err) != MK_OK) {
        fprintf(stderr, "skipped: %s\n", err.message);
        return err.code == MK_ERR_UNSUPPORTED ? 77 : 1;
    }
    printf("GL: %s\n", mk_gl_context_description(context));
    if (mk_gl_renderer_create(NULL, &renderer, &err) != MK_OK) {
        fprintf(stderr, "renderer: %s: %s\n", err.file, err.message);
        mk_gl_context_destroy(context);
        return 1;
    }
    int rc = mk_test_run(cases, sizeof cases / sizeof cases[0], argc, argv);
    mk_gl_renderer_destroy(renderer);
    mk_gl_context_destroy(context);
    return rc;
}
