/* The GL layer against the CPU kernels: pair and smooth poses (transform
 * feedback and pictures), glTF morph targets (AnimatedMorphCube and a
 * 64-target fixture) and the crowd path. Runs headless on EGL (Mesa's
 * llvmpipe without a GPU); exits 77 (CTest: skipped) where no EGL display
 * can give an OpenGL 3.3 core context. */
#include <math.h>
#include <stdint.h>

#include "gl_internal.h"
#include "mk_test.h"
#include "sphere_fixture.h"
#include "morphkit/gl.h"
#include "morphkit/morphkit.h"

#define SAMPLE(rel) MK_TEST_SOURCE_DIR "/tests/data/gltf/" rel

static mk_gl_renderer *renderer;

/* ---- fixtures ------------------------------------------------------------ */

static void check_streams(const float *gpu, const float *cpu, size_t n, double tol,
                          const char *what)
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
        fprintf(stderr, "%s: GPU and CPU differ by %g at float %zu (%g vs %g)\n", what, worst,
                at, (double)gpu[at], (double)cpu[at]);
        mk_test_failures++;
    }
}

/* Fraction of pixels whose channels differ by more than tol. */
static double image_difference(const uint8_t *a, const uint8_t *b, size_t pixels, int tol)
{
    size_t bad = 0;
    for (size_t i = 0; i < pixels; i++)
        for (int c = 0; c < 4; c++)
            if (abs((int)a[4 * i + c] - (int)b[4 * i + c]) > tol) {
                bad++;
                break;
            }
    return (double)bad / (double)pixels;
}

static size_t covered_pixels(const uint8_t *img, size_t pixels)
{
    size_t n = 0;
    for (size_t i = 0; i < pixels; i++)
        n += img[4 * i] != 0 || img[4 * i + 1] != 0 || img[4 * i + 2] != 0;
    return n;
}

static void camera(mk_gl_draw_params *p, float radius)
{
    memset(p, 0, sizeof *p);
    const float center[3] = {0.1f, 0, 0};
    mk_gl_orbit_camera(center, radius, 0.5f, 0.3f, 0.8f, 1.0f, p->view_projection);
}

/* ---- pair path -------------------------------------------------------------- */

static void test_pair_capture_matches_cpu(void)
{
    mk_frame_set *set = mk_fx_blob(3, 12, 16);
    mk_gl_frames *g = NULL;
    mk_error err;
    CHECK(mk_gl_frames_create(renderer, set, &g, &err) == MK_OK);
    size_t n = (size_t)set->vertex_count * 3;
    float *gp = calloc(n, 4), *gn = calloc(n, 4), *cp = calloc(n, 4), *cn = calloc(n, 4);
    const float ws[] = {0.0f, 0.25f, 0.5f, 1.0f};
    for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++) {
        mk_pose pose = {2, {0, 2}, {1.0f - ws[i], ws[i]}};
        CHECK(mk_gl_capture_pose(renderer, g, &pose, gp, gn, &err) == MK_OK);
        CHECK(mk_blend_frames(set, 0, 2, ws[i], cp, cn, set->vertex_count, NULL) == MK_OK);
        check_streams(gp, cp, n, 1e-5, "pair positions");
        check_streams(gn, cn, n, 1e-5, "pair normals");
    }
    /* one entry of weight 1: the standard single-stream shader shows the frame as is */
    mk_pose held = {1, {1}, {1.0f}};
    CHECK(mk_gl_capture_pose(renderer, g, &held, gp, gn, &err) == MK_OK);
    check_streams(gp, mk_frame_set_positions(set, 1), n, 0, "held positions");
    /* four entries: a smooth pose with negative weights and a repeated frame */
    mk_pose smooth = {4, {0, 1, 2, 2}, {-0.0625f, 0.5625f, 0.5625f, -0.0625f}};
    CHECK(mk_gl_capture_pose(renderer, g, &smooth, gp, gn, &err) == MK_OK);
    CHECK(mk_pose_eval(set, &smooth, cp, cn, set->vertex_count, NULL) == MK_OK);
    check_streams(gp, cp, n, 1e-5, "smooth positions");
    check_streams(gn, cn, n, 1e-5, "smooth normals");
    mk_pose bad = {3, {0, 1, 2}, {0.3f, 0.3f, 0.4f}};
    CHECK(mk_gl_capture_pose(renderer, g, &bad, gp, gn, &err) == MK_ERR_INVALID_ARGUMENT);
    free(gp), free(gn), free(cp), free(cn);
    mk_gl_frames_destroy(g);
    mk_frame_set_destroy(set);
}

/* A smooth pose from the real player (4 entries, Hermite weights). */
static void test_smooth_player_pose(void)
{
    mk_frame_set *set = mk_fx_blob(4, 8, 12);
    mk_clip_desc cd = {0};
    cd.name = "Wave";
    cd.frame_count = 4;
    cd.frame_time_us = 100000;
    cd.interpolation = MK_INTERPOLATION_SMOOTH;
    mk_clip_set_desc sd = {&cd, 1, 4};
    mk_clip_set *clips = NULL;
    mk_error err;
    CHECK(mk_clip_set_create(&sd, NULL, &clips, &err) == MK_OK);
    mk_gl_frames *g = NULL;
    CHECK(mk_gl_frames_create(renderer, set, &g, &err) == MK_OK);
    size_t n = (size_t)set->vertex_count * 3;
    float *gp = calloc(n, 4), *gn = calloc(n, 4), *cp = calloc(n, 4), *cn = calloc(n, 4);
    mk_player p;
    mk_player_init(&p, clips);
    mk_player_play(&p, 0, NULL);
    int fours = 0;
    for (int step = 0; step < 12; step++) {
        mk_player_advance(&p, 37000, NULL);
        mk_pose pose;
        mk_player_pose(&p, &pose);
        fours += pose.count == 4;
        CHECK(mk_gl_capture_pose(renderer, g, &pose, gp, gn, &err) == MK_OK);
        CHECK(mk_pose_eval(set, &pose, cp, cn, set->vertex_count, NULL) == MK_OK);
        check_streams(gp, cp, n, 1e-5, "player smooth positions");
        check_streams(gn, cn, n, 1e-5, "player smooth normals");
    }
    CHECK(fours > 0);
    free(gp), free(gn), free(cp), free(cn);
    mk_gl_frames_destroy(g);
    mk_clip_set_destroy(clips);
    mk_frame_set_destroy(set);
}

/* The blended draw gives the same picture as the CPU-blended mesh drawn
 * through the standard path. */
static void test_pair_image_matches_cpu_blend(void)
{
    enum { W = 160, H = 160 };
    mk_frame_set *set = mk_fx_blob(2, 16, 24);
    mk_error err;
    mk_gl_frames *g = NULL;
    mk_gl_mesh *mesh = NULL;
    mk_gl_target *target = NULL;
    mk_gl_target_desc td = {W, H, 0};
    CHECK(mk_gl_frames_create(renderer, set, &g, &err) == MK_OK);
    CHECK(mk_gl_mesh_create(renderer, set->vertex_count, set->indices, set->index_count, true,
                            &mesh, &err) == MK_OK);
    CHECK(mk_gl_target_create(&td, NULL, &target, &err) == MK_OK);
    size_t n = (size_t)set->vertex_count * 3;
    float *cp = calloc(n, 4), *cn = calloc(n, 4);
    uint8_t *a = calloc(W * H, 4), *b = calloc(W * H, 4);
    const float clear[4] = {0, 0, 0, 1};
    mk_gl_draw_params params;
    camera(&params, 1.5f);
    const float ws[] = {0.0f, 0.37f, 0.5f, 1.0f};
    for (size_t i = 0; i < 4; i++) {
        mk_pose pose = {2, {0, 1}, {1.0f - ws[i], ws[i]}};
        CHECK(mk_gl_target_begin(target, clear, &err) == MK_OK);
        CHECK(mk_gl_draw_pose(renderer, g, &pose, &params, &err) == MK_OK);
        CHECK(mk_gl_target_read(target, a, &err) == MK_OK);
        CHECK(mk_blend_frames(set, 0, 1, ws[i], cp, cn, set->vertex_count, NULL) == MK_OK);
        CHECK(mk_gl_mesh_update(mesh, cp, cn, &err) == MK_OK);
        CHECK(mk_gl_target_begin(target, clear, &err) == MK_OK);
        CHECK(mk_gl_draw_mesh(renderer, mesh, &params, &err) == MK_OK);
        CHECK(mk_gl_target_read(target, b, &err) == MK_OK);
        CHECK(covered_pixels(a, W * H) > W * H / 8);
        /* Equal up to the last bits of the blend: at most a handful of
         * edge pixels may flip. */
        CHECK(image_difference(a, b, W * H, 2) < 0.002);
    }
    /* and the two frames differ, so the comparison means something */
    mk_pose p0 = {1, {0}, {1}}, p1 = {1, {1}, {1}};
    CHECK(mk_gl_target_begin(target, clear, &err) == MK_OK);
    CHECK(mk_gl_draw_pose(renderer, g, &p0, &params, &err) == MK_OK);
    CHECK(mk_gl_target_read(target, a, &err) == MK_OK);
    CHECK(mk_gl_target_begin(target, clear, &err) == MK_OK);
    CHECK(mk_gl_draw_pose(renderer, g, &p1, &params, &err) == MK_OK);
    CHECK(mk_gl_target_read(target, b, &err) == MK_OK);
    CHECK(image_difference(a, b, W * H, 2) > 0.02);
    free(a), free(b), free(cp), free(cn);
    mk_gl_target_destroy(target);
    mk_gl_mesh_destroy(mesh);
    mk_gl_frames_destroy(g);
    mk_frame_set_destroy(set);
}

/* ---- target path ------------------------------------------------------------ */

static void compare_morph(mk_gl_morph *gm, const mk_morph_set *set, const float *weights,
                          const char *what)
{
    size_t v = set->vertex_count;
    float *gp = calloc(v * 3, 4), *gn = calloc(v * 3, 4), *gt = calloc(v * 4, 4);
    float *cp = calloc(v * 3, 4), *cn = calloc(v * 3, 4), *ct = calloc(v * 4, 4);
    mk_error err;
    CHECK(mk_gl_capture_morph(renderer, gm, weights, gp, gn, gt, &err) == MK_OK);
    CHECK(mk_morph_evaluate(set, weights, cp, cn, ct, set->vertex_count, NULL) == MK_OK);
    /* Summation order differs (GPU: active targets in index order; CPU: the
     * same, but with FMA or not), so allow float rounding of the sums. */
    check_streams(gp, cp, v * 3, 1e-5, what);
    if (set->base_normals)
        check_streams(gn, cn, v * 3, 1e-5, what);
    if (set->base_tangents)
        check_streams(gt, ct, v * 4, 1e-5, what);
    free(gp), free(gn), free(gt), free(cp), free(cn), free(ct);
}

static void test_morph_animated_cube(void)
{
    mk_gltf *gltf = NULL;
    mk_error err;
    CHECK(mk_gltf_load(SAMPLE("AnimatedMorphCube/glTF/AnimatedMorphCube.gltf"), NULL, NULL, &gltf,
                       &err) == MK_OK);
    if (!gltf)
        return;
    mk_morph_set *set = NULL;
    CHECK(mk_gltf_build_morph_set(gltf, 0, 0, NULL, &set, &err) == MK_OK);
    const mk_gltf_primitive *prim = &gltf->meshes[0].primitives[0];
    uint32_t count = gltf->accessors[prim->indices].count;
    uint32_t *indices = calloc(count, 4);
    CHECK(mk_gltf_accessor_read_index(gltf, prim->indices, indices, count, &err) == MK_OK);
    mk_gl_morph *gm = NULL;
    CHECK(mk_gl_morph_create(renderer, set, indices, count, &gm, &err) == MK_OK);
    CHECK(set->target_count == 2);
    const float sets[][2] = {{0, 0}, {1, 0}, {0, 1}, {0.3f, 0.7f}, {-0.5f, 1.5f}};
    for (size_t i = 0; i < 5; i++)
        compare_morph(gm, set, sets[i], "AnimatedMorphCube fixed weights");
    /* the file's animation, sampled at several times */
    mk_track_clip *clip = NULL;
    CHECK(mk_gltf_build_track_clip(gltf, 0, NULL, &clip, &err) == MK_OK);
    float out[16];
    for (int k = 0; clip && k <= 8; k++) {
        int64_t t = mk_track_clip_duration(clip) * k / 8;
        for (uint32_t tr = 0; tr < clip->track_count; tr++)
            if (clip->tracks[tr].path == MK_TRACK_WEIGHTS && clip->tracks[tr].components == 2) {
                mk_track_sample(&clip->tracks[tr], t, out);
                compare_morph(gm, set, out, "AnimatedMorphCube animation");
            }
    }
    /* a picture of it is not empty */
    mk_gl_target_desc td = {64, 64, 4};
    mk_gl_target *target = NULL;
    CHECK(mk_gl_target_create(&td, NULL, &target, &err) == MK_OK);
    uint8_t *img = calloc(64 * 64, 4);
    mk_gl_draw_params params;
    memset(&params, 0, sizeof params);
    const float center[3] = {0, 0, 0}, clear[4] = {0, 0, 0, 1};
    mk_gl_orbit_camera(center, 0.02f, 0.6f, 0.4f, 0.8f, 1.0f, params.view_projection);
    CHECK(mk_gl_target_begin(target, clear, &err) == MK_OK);
    CHECK(mk_gl_draw_morph(renderer, gm, sets[3], &params, &err) == MK_OK);
    CHECK(mk_gl_target_read(target, img, &err) == MK_OK);
    CHECK(covered_pixels(img, 64 * 64) > 64 * 64 / 10);
    free(img);
    mk_gl_target_destroy(target);
    mk_track_clip_destroy(clip);
    mk_gl_morph_destroy(gm);
    free(indices);
    mk_morph_set_destroy(set);
    mk_gltf_destroy(gltf);
}

/* 64 targets: dense and sparse deltas, normals and tangents; all active,
 * a few active, none active. */
static void test_morph_64_targets(void)
{
    enum { V = 257, T = 64 };
    uint32_t counts[T * 3];
    for (uint32_t t = 0; t < T; t++) {
        counts[t * 3 + 0] = t % 3 == 0 ? 40 : MK_MORPH_DENSE;
        counts[t * 3 + 1] = t % 4 == 1 ? 0 : (t % 2 ? 17 : MK_MORPH_DENSE);
        counts[t * 3 + 2] = t % 5 == 2 ? MK_MORPH_DENSE : 0;
    }
    mk_morph_set_desc d = {V, T, true, true, counts};
    mk_morph_set *set = NULL;
    mk_error err;
    CHECK(mk_morph_set_create(&d, NULL, &set, &err) == MK_OK);
    if (!set)
        return;
    uint32_t seed = 12345;
#define RND() ((seed = seed * 1664525u + 1013904223u), (float)(seed >> 8) / 16777216.0f - 0.5f)
    for (uint32_t v = 0; v < V; v++) {
        for (int c = 0; c < 3; c++) {
            set->base_positions[3 * v + c] = 4 * RND();
            set->base_normals[3 * v + c] = RND();
            set->base_tangents[4 * v + c] = RND();
        }
        set->base_tangents[4 * v + 3] = v % 2 ? 1.0f : -1.0f;
    }
    for (uint32_t t = 0; t < T; t++)
        for (int a = 0; a < 3; a++) {
            mk_morph_delta *dl = &set->targets[t].delta[a];
            for (uint32_t e = 0; e < dl->entry_count; e++) {
                if (dl->indices)
                    dl->indices[e] = e * 6 + t % 5;
                for (int c = 0; c < 3; c++)
                    dl->values[3 * e + c] = 0.2f * RND();
            }
        }
#undef RND
    CHECK(mk_morph_set_validate(set, &err) == MK_OK);
    mk_gl_morph *gm = NULL;
    CHECK(mk_gl_morph_create(renderer, set, NULL, 0, &gm, &err) == MK_OK);
    float w[T];
    for (uint32_t t = 0; t < T; t++)
        w[t] = 0.5f + 0.5f * sinf((float)t);
    compare_morph(gm, set, w, "64 targets, all active");
    for (uint32_t t = 0; t < T; t++)
        w[t] = t % 9 == 4 ? 1.0f - (float)t / 64.0f : 0.0f;
    compare_morph(gm, set, w, "64 targets, some active");
    memset(w, 0, sizeof w);
    compare_morph(gm, set, w, "64 targets, none active");
    compare_morph(gm, set, NULL, "64 targets, default weights");
    mk_gl_morph_destroy(gm);
    mk_morph_set_destroy(set);
}

/* ---- crowd path ----------------------------------------------------------------- */

/* 100 instances at different frames and weights in one instanced call give
 * the picture of 100 separate pair-path draws. */
static void test_crowd_matches_pair_draws(void)
{
    enum { W = 200, H = 200, N = 100 };
    mk_frame_set *set = mk_fx_blob(4, 8, 12);
    mk_error err;
    mk_gl_frames *g = NULL;
    mk_gl_target *target = NULL;
    mk_gl_target_desc td = {W, H, 0};
    CHECK(mk_gl_frames_create(renderer, set, &g, &err) == MK_OK);
    CHECK(mk_gl_target_create(&td, NULL, &target, &err) == MK_OK);
    mk_gl_instance *inst = calloc(N, sizeof *inst);
    for (uint32_t i = 0; i < N; i++) {
        inst[i].frame_a = i % 4;
        inst[i].frame_b = (i / 4 + 1) % 4;
        inst[i].weight = (float)(i % 7) / 6.0f;
        float s = 0.3f, *m = inst[i].model;
        m[0] = m[5] = m[10] = s;
        m[15] = 1;
        m[12] = (float)(i % 10) - 4.5f;
        m[13] = (float)(i / 10) - 4.5f;
        m[14] = 0.1f * (float)(i % 3);
    }
    mk_gl_draw_params params;
    memset(&params, 0, sizeof params);
    const float center[3] = {0, 0, 0}, clear[4] = {0, 0, 0, 1};
    mk_gl_orbit_camera(center, 7.0f, 0.0f, 0.0f, 0.8f, 1.0f, params.view_projection);
    uint8_t *a = calloc(W * H, 4), *b = calloc(W * H, 4);
    CHECK(mk_gl_target_begin(target, clear, &err) == MK_OK);
    CHECK(mk_gl_draw_crowd(renderer, g, inst, N, &params, &err) == MK_OK);
    CHECK(mk_gl_target_read(target, a, &err) == MK_OK);
    CHECK(mk_gl_target_begin(target, clear, &err) == MK_OK);
    for (uint32_t i = 0; i < N; i++) {
        mk_pose pose = {2, {inst[i].frame_a, inst[i].frame_b},
                        {1.0f - inst[i].weight, inst[i].weight}};
        memcpy(params.model, inst[i].model, sizeof params.model);
        CHECK(mk_gl_draw_pose(renderer, g, &pose, &params, &err) == MK_OK);
    }
    CHECK(mk_gl_target_read(target, b, &err) == MK_OK);
    CHECK(covered_pixels(a, W * H) > W * H / 8);
    CHECK(image_difference(a, b, W * H, 2) < 0.002);
    /* out-of-range frames are refused */
    inst[7].frame_b = 4;
    CHECK(mk_gl_draw_crowd(renderer, g, inst, N, &params, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "instance 7");
    free(a), free(b), free(inst);
    mk_gl_target_destroy(target);
    mk_gl_frames_destroy(g);
    mk_frame_set_destroy(set);
}

/* ---- errors --------------------------------------------------------------------- */

static void test_errors(void)
{
    mk_error err;
    mk_gl_target *t = NULL;
    mk_gl_target_desc td = {0, 10, 0};
    CHECK(mk_gl_target_create(&td, NULL, &t, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(t == NULL);
    CHECK_CONTAINS(err.message, "0x10");
    const uint32_t bad[3] = {0, 1, 5};
    mk_gl_mesh *m = NULL;
    CHECK(mk_gl_mesh_create(renderer, 3, bad, 3, true, &m, &err) == MK_ERR_RANGE);
    CHECK(m == NULL);
    mk_morph_set_desc d = {3, 0, false, false, NULL};
    mk_morph_set *set = NULL;
    CHECK(mk_morph_set_create(&d, NULL, &set, &err) == MK_OK);
    mk_gl_morph *gm = NULL;
    CHECK(mk_gl_morph_create(renderer, set, bad, 3, &gm, &err) == MK_ERR_RANGE);
    CHECK(gm == NULL);
    /* zero targets is fine */
    CHECK(mk_gl_morph_create(renderer, set, NULL, 0, &gm, &err) == MK_OK);
    compare_morph(gm, set, NULL, "no targets");
    mk_gl_morph_destroy(gm);
    mk_morph_set_destroy(set);
    /* a shader that does not compile: the error names it and carries the log */
    GLuint shader = 0;
    const char *broken = "#version 330 core\nvoid main() { gl_Position = vec4(undefined_name); }\n";
    CHECK(mk_gl_compile_shader(GL_VERTEX_SHADER, "broken.vert", broken, &shader, &err) ==
          MK_ERR_PARSE);
    CHECK(shader == 0);
    CHECK_CONTAINS(err.file, "broken.vert");
    CHECK_CONTAINS(err.message, "shader does not compile: ");
    CHECK_CONTAINS(err.message, "undefined_name");
}

int main(int argc, char **argv)
{
    static const mk_test_case cases[] = {
        MK_TEST(test_pair_capture_matches_cpu), MK_TEST(test_smooth_player_pose),
        MK_TEST(test_pair_image_matches_cpu_blend), MK_TEST(test_morph_animated_cube),
        MK_TEST(test_morph_64_targets), MK_TEST(test_crowd_matches_pair_draws),
        MK_TEST(test_errors),
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
