/* The crowd path over quantized frames: what the GPU computes from the
 * stored 16-bit data must be what mk_blend_qframes computes on the CPU, and
 * the picture must match the float crowd's within the quantization error.
 * Runs headless on EGL (llvmpipe without a GPU); 77 (skipped) without one. */
#include <math.h>
#include <stdint.h>

#include "mk_test.h"
#include "sphere_fixture.h"
#include "morphkit/gl.h"
#include "morphkit/morphkit.h"

static mk_gl_renderer *renderer;

enum { N = 24 };

static void make_instances(mk_gl_instance *inst, uint32_t frames)
{
    for (uint32_t i = 0; i < N; i++) {
        memset(&inst[i], 0, sizeof inst[i]);
        inst[i].frame_a = i % frames;
        inst[i].frame_b = (i / 3 + 1) % frames;
        inst[i].weight = (float)(i % 9) / 8.0f;
        float *m = inst[i].model;
        m[0] = m[5] = m[10] = 0.45f;
        m[15] = 1;
        m[12] = (float)(i % 6) - 2.5f;
        m[13] = (float)(i / 6) - 1.5f;
    }
}

static void test_quantized_capture_matches_cpu(void)
{
    mk_frame_set *set = mk_fx_blob(4, 10, 14);
    mk_qframe_set *q = NULL;
    mk_error err;
    CHECK(mk_qframe_set_quantize(set, NULL, &q, &err) == MK_OK);
    mk_gl_frames *g = NULL;
    CHECK(mk_gl_frames_create_quantized(renderer, q, &g, &err) == MK_OK);
    if (!g)
        return;
    CHECK(mk_gl_frames_frame_count(g) == 4);
    mk_gl_instance inst[N];
    make_instances(inst, 4);
    const uint32_t vc = q->vertex_count;
    float *gp = calloc((size_t)N * vc * 3, sizeof(float)), *gn = calloc((size_t)N * vc * 3, 4);
    float *cp = calloc((size_t)vc * 3, sizeof(float)), *cn = calloc((size_t)vc * 3, 4);
    CHECK(mk_gl_capture_crowd(renderer, g, inst, N, gp, gn, &err) == MK_OK);
    double worst_p = 0, worst_n = 0;
    for (uint32_t i = 0; i < N; i++) {
        CHECK(mk_blend_qframes(q, inst[i].frame_a, inst[i].frame_b, inst[i].weight, cp, cn, vc,
                               NULL) == MK_OK);
        for (size_t k = 0; k < (size_t)vc * 3; k++) {
            worst_p = fmax(worst_p, fabs(gp[(size_t)i * vc * 3 + k] - cp[k]));
            worst_n = fmax(worst_n, fabs(gn[(size_t)i * vc * 3 + k] - cn[k]));
        }
    }
    CHECK(worst_p <= 1e-5);
    CHECK(worst_n <= 1e-5);
    /* the pair path does not take quantized frames */
    mk_pose pose = {2, {0, 1}, {0.5f, 0.5f}};
    CHECK(mk_gl_draw_pose(renderer, g, &pose, NULL, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "crowd path only");
    inst[3].frame_a = 4;
    CHECK(mk_gl_capture_crowd(renderer, g, inst, N, gp, gn, &err) == MK_ERR_INVALID_ARGUMENT);
    mk_gl_frames *none = g;
    CHECK(mk_gl_frames_create_quantized(renderer, NULL, &none, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(none == NULL);
    free(gp), free(gn), free(cp), free(cn);
    mk_gl_frames_destroy(g);
    mk_qframe_set_destroy(q);
    mk_frame_set_destroy(set);
}

/* The quantized crowd's picture is the float crowd's (positions move by at
 * most half a quantization step, far below a pixel). */
static void test_quantized_picture_matches_float(void)
{
    enum { W = 160, H = 160 };
    mk_frame_set *set = mk_fx_blob(4, 10, 14);
    mk_qframe_set *q = NULL;
    mk_error err;
    CHECK(mk_qframe_set_quantize(set, NULL, &q, &err) == MK_OK);
    mk_gl_frames *gf = NULL, *gq = NULL;
    mk_gl_target *target = NULL;
    mk_gl_target_desc td = {W, H, 0};
    CHECK(mk_gl_frames_create(renderer, set, &gf, &err) == MK_OK);
    CHECK(mk_gl_frames_create_quantized(renderer, q, &gq, &err) == MK_OK);
    CHECK(mk_gl_target_create(&td, NULL, &target, &err) == MK_OK);
    if (!gf || !gq || !target)
        return;
    mk_gl_instance inst[N];
    make_instances(inst, 4);
    mk_gl_draw_params params;
    memset(&params, 0, sizeof params);
    const float center[3] = {0, 0, 0}, clear[4] = {0, 0, 0, 1};
    mk_gl_orbit_camera(center, 4.0f, 0.0f, 0.0f, 0.8f, 1.0f, params.view_projection);
    uint8_t *a = calloc(W * H, 4), *b = calloc(W * H, 4);
    CHECK(mk_gl_target_begin(target, clear, &err) == MK_OK);
    CHECK(mk_gl_draw_crowd(renderer, gf, inst, N, &params, &err) == MK_OK);
    CHECK(mk_gl_target_read(target, a, &err) == MK_OK);
    CHECK(mk_gl_target_begin(target, clear, &err) == MK_OK);
    CHECK(mk_gl_draw_crowd(renderer, gq, inst, N, &params, &err) == MK_OK);
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
    CHECK(differ <= (size_t)W * H / 500); /* a few edge pixels at most */
    free(a), free(b);
    mk_gl_target_destroy(target);
    mk_gl_frames_destroy(gf);
    mk_gl_frames_destroy(gq);
    mk_qframe_set_destroy(q);
    mk_frame_set_destroy(set);
}

int main(int argc, char **argv)
{
    static const mk_test_case cases[] = {MK_TEST(test_quantized_capture_matches_cpu),
                                         MK_TEST(test_quantized_picture_matches_float)};
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
    int rc = mk_test_run(cases, sizeof cases / sizeof cases[0], argc, argv);
    mk_gl_renderer_destroy(renderer);
    mk_gl_context_destroy(context);
    return rc;
}
