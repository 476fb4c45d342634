/* The compute path of the crowd (OpenGL 4.3): the poses the compute shader
 * blends must be the CPU's (mk_blend_frames) and the float crowd's, and
 * its picture the crowd's. Headless on EGL; 77 (skipped) without EGL or
 * without GL 4.3 (llvmpipe has 4.5). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "mk_test.h"
#include "sphere_fixture.h"
#include "morphkit/gl.h"
#include "morphkit/morphkit.h"

static mk_gl_renderer *renderer;

enum { N = 30 };

static void make_instances(mk_gl_instance *inst)
{
    for (uint32_t i = 0; i < N; i++) {
        memset(&inst[i], 0, sizeof inst[i]);
        inst[i].frame_a = i % 5;
        inst[i].frame_b = (i / 5 + 2) % 5;
        inst[i].weight = (float)(i % 11) / 10.0f - (i == 29 ? 1.5f : 0.0f); /* one extrapolates */
        float *m = inst[i].model;
        m[0] = m[5] = m[10] = 0.4f;
        m[15] = 1;
        m[12] = (float)(i % 6) - 2.5f;
        m[13] = (float)(i / 6) - 2.0f;
    }
}

static void test_compute_poses_match_cpu(void)
{
    mk_frame_set *set = mk_fx_blob(5, 9, 13);
    mk_error err;
    mk_gl_frames *g = NULL;
    CHECK(mk_gl_frames_create(renderer, set, &g, &err) == MK_OK);
    if (!g)
        return;
    mk_gl_instance inst[N];
    make_instances(inst);
    const uint32_t vc = set->vertex_count;
    size_t n = (size_t)N * vc * 3;
    float *gp = calloc(n, 4), *gn = calloc(n, 4), *tp = calloc(n, 4), *tn = calloc(n, 4);
    float *cp = calloc((size_t)vc * 3, 4), *cn = calloc((size_t)vc * 3, 4);
    CHECK(mk_gl_capture_crowd_compute(renderer, g, inst, N, gp, gn, &err) == MK_OK);
    CHECK(mk_gl_capture_crowd(renderer, g, inst, N, tp, tn, &err) == MK_OK);
    double worst_cpu = 0, worst_tf = 0;
    for (uint32_t i = 0; i < N; i++) {
        CHECK(mk_blend_frames(set, inst[i].frame_a, inst[i].frame_b, inst[i].weight, cp, cn, vc,
                              NULL) == MK_OK);
        for (size_t k = 0; k < (size_t)vc * 3; k++) {
            size_t at = (size_t)i * vc * 3 + k;
            worst_cpu = fmax(worst_cpu, fmax(fabs(gp[at] - cp[k]), fabs(gn[at] - cn[k])));
            worst_tf = fmax(worst_tf, fmax(fabs(gp[at] - tp[at]), fabs(gn[at] - tn[at])));
        }
    }
    CHECK(worst_cpu <= 1e-5);
    CHECK(worst_tf <= 1e-5);
    /* misuse: the crowd's checks, and quantized frames are refused */
    inst[4].frame_b = 5;
    CHECK(mk_gl_draw_crowd_compute(renderer, g, inst, N, NULL, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "instance 4");
    CHECK(mk_gl_draw_crowd_compute(renderer, NULL, inst, N, NULL, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_gl_capture_crowd_compute(renderer, g, inst, 0, NULL, NULL, &err) == MK_OK);
    mk_qframe_set *q = NULL;
    mk_gl_frames *gq = NULL;
    CHECK(mk_qframe_set_quantize(set, NULL, &q, &err) == MK_OK);
    CHECK(mk_gl_frames_create_quantized(renderer, q, &gq, &err) == MK_OK);
    inst[4].frame_b = 1;
    CHECK(mk_gl_draw_crowd_compute(renderer, gq, inst, N, NULL, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_gl_check("after refused calls", &err) == MK_OK);
    mk_gl_frames_destroy(gq);
    mk_qframe_set_destroy(q);
    free(gp), free(gn), free(tp), free(tn), free(cp), free(cn);
    mk_gl_frames_destroy(g);
    mk_frame_set_destroy(set);
}

/* More than 65535 groups of 64 (4.19M poses): dispatched in rows; the last
 * instance must still be blended. */
static void test_compute_many_groups(void)
{
    mk_frame_set *set = mk_fx_blob(2, 40, 48); /* 2009 vertices */
    mk_error err;
    mk_gl_frames *g = NULL;
    CHECK(mk_gl_frames_create(renderer, set, &g, &err) == MK_OK);
    if (!g)
        return;
    enum { M = 2100 };
    mk_gl_instance *inst = calloc(M, sizeof *inst);
    for (uint32_t i = 0; i < M; i++)
        inst[i].frame_b = 1, inst[i].weight = (float)(i % 5) / 4.0f;
    const uint32_t vc = set->vertex_count;
    CHECK((uint64_t)M * vc > 65535u * 64u);
    float *gp = malloc((size_t)M * vc * 12), *cp = malloc((size_t)vc * 12);
    CHECK(mk_gl_capture_crowd_compute(renderer, g, inst, M, gp, NULL, &err) == MK_OK);
    double worst = 0;
    for (uint32_t i = M - 3; i < M; i++) {
        CHECK(mk_blend_frames(set, 0, 1, inst[i].weight, cp, NULL, vc, NULL) == MK_OK);
        for (size_t k = 0; k < (size_t)vc * 3; k++)
            worst = fmax(worst, fabs(gp[(size_t)i * vc * 3 + k] - cp[k]));
    }
    CHECK(worst <= 1e-5);
    free(gp), free(cp), free(inst);
    mk_gl_frames_destroy(g);
    mk_frame_set_destroy(set);
}

static void test_compute_picture_matches_crowd(void)
{
    enum { W = 160, H = 160 };
    mk_frame_set *set = mk_fx_blob(5, 9, 13);
    mk_error err;
    mk_gl_frames *g = NULL;
    mk_gl_target *target = NULL;
    mk_gl_target_desc td = {W, H, 0};
    CHECK(mk_gl_frames_create(renderer, set, &g, &err) == MK_OK);
    CHECK(mk_gl_target_create(&td, NULL, &target, &err) == MK_OK);
    if (!g || !target)
        return;
    mk_gl_instance inst[N];
    make_instances(inst);
    mk_gl_draw_params params;
    memset(&params, 0, sizeof params);
    const float center[3] = {0, 0, 0}, clear[4] = {0, 0, 0, 1};
    mk_gl_orbit_camera(center, 4.0f, 0.0f, 0.0f, 0.8f, 1.0f, params.view_projection);
    uint8_t *a = calloc(W * H, 4), *b = calloc(W * H, 4);
    CHECK(mk_gl_target_begin(target, clear, &err) == MK_OK);
    CHECK(mk_gl_draw_crowd(renderer, g, inst, N, &params, &err) == MK_OK);
    CHECK(mk_gl_target_read(target, a, &err) == MK_OK);
    CHECK(mk_gl_target_begin(target, clear, &err) == MK_OK);
    CHECK(mk_gl_draw_crowd_compute(renderer, g, inst, N, &params, &err) == MK_OK);
    CHECK(mk_gl_target_read(target, b, &err) == MK_OK);
    size_t covered = 0, differ = 0;
    for (size_t p = 0; p < (size_t)W * H; p++) {
        covered += a[4 * p] + a[4 * p + 1] + a[4 * p + 2] > 0;
        for (int c = 0; c < 3; c++)
            if (abs(a[4 * p + c] - b[4 * p + c]) > 2) {
                differ++;
                break;
            }
    }
    CHECK(covered > (size_t)W * H / 10);
    CHECK(differ <= (size_t)W * H / 1000);
    free(a), free(b);
    mk_gl_target_destroy(target);
    mk_gl_frames_destroy(g);
    mk_frame_set_destroy(set);
}

int main(int argc, char **argv)
{
    static const mk_test_case cases[] = {MK_TEST(test_compute_poses_match_cpu),
                                         MK_TEST(test_compute_many_groups),
                                         MK_TEST(test_compute_picture_matches_crowd)};
    mk_gl_context *context = NULL;
    mk_error err;
    if (mk_gl_context_create(NULL, NULL, &context, &err) != MK_OK) {
        fprintf(stderr, "skipped: %s\n", err.message);
        return err.code == MK_ERR_UNSUPPORTED ? 77 : 1;
    }
    if (mk_gl_renderer_create(NULL, &renderer, &err) != MK_OK) {
        fprintf(stderr, "renderer: %s: %s\n", err.file, err.message);
        mk_gl_context_destroy(context);
        return 1;
    }
    int rc = 77;
    if (mk_gl_renderer_has_compute(renderer))
        rc = mk_test_run(cases, sizeof cases / sizeof cases[0], argc, argv);
    else
        printf("skipped: %s has no OpenGL 4.3\n", mk_gl_context_description(context));
    mk_gl_renderer_destroy(renderer);
    mk_gl_context_destroy(context);
    return rc;
}
