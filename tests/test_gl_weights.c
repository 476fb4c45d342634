/* GPU pose weights against the CPU, and the GL layer's argument checks.
 *
 * Every pose shape (1, 2 and 4 entries, affine or not, negative weights, a
 * repeated frame, a zero-length normal) is captured with transform feedback
 * and compared with mk_pose_eval and with a double-precision weighted sum
 * computed here; the crowd path is compared with mk_blend_frames the same
 * way. Then every misuse of a draw or capture call must give
 * MK_ERR_INVALID_ARGUMENT, draw nothing and leave no GL error. Runs headless
 * on EGL (llvmpipe without a GPU); exits 77 (skipped) where no EGL display
 * gives an OpenGL 3.3 core context. */
#include <math.h>
#include <stdint.h>

#include "gl_internal.h"
#include "mk_test.h"
#include "sphere_fixture.h"
#include "morphkit/gl.h"
#include "morphkit/morphkit.h"

static mk_gl_renderer *renderer;

/* ---- helpers ------------------------------------------------------------- */

static void check_close(const float *gpu, const float *want, size_t n, double tol,
                        const char *what)
{
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)gpu[i] - (double)want[i]);
        if (!(d <= tol)) {
            fprintf(stderr, "%s: float %zu is %.9g, expected %.9g\n", what, i, (double)gpu[i],
                    (double)want[i]);
            mk_test_failures++;
            return;
        }
    }
}

/* out = sum_k w_k * F[f_k] in double, normals normalized (zero below a
 * length of 1e-12): the definition, independent of the float kernels. */
static void reference_pose(const mk_frame_set *set, const mk_pose *pose, float *out_p,
                           float *out_n)
{
    for (uint32_t v = 0; v < set->vertex_count; v++) {
        double p[3] = {0, 0, 0}, n[3] = {0, 0, 0};
        for (uint32_t k = 0; k < pose->count; k++) {
            const float *fp = mk_frame_set_positions(set, pose->frames[k]) + 3 * v;
            const float *fn = mk_frame_set_normals(set, pose->frames[k]) + 3 * v;
            for (int c = 0; c < 3; c++) {
                p[c] += (double)pose->weights[k] * fp[c];
                n[c] += (double)pose->weights[k] * fn[c];
            }
        }
        double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int c = 0; c < 3; c++) {
            out_p[3 * v + c] = (float)p[c];
            out_n[3 * v + c] = len >= 1e-12 ? (float)(n[c] / len) : 0.0f;
        }
    }
}

/* Captures the pose on the GPU and compares it with mk_pose_eval and with
 * the reference, positions and normals, within 1e-5. */
static void compare_pose(mk_gl_frames *g, const mk_frame_set *set, const mk_pose *pose,
                         const char *what)
{
    size_t n = (size_t)set->vertex_count * 3;
    float *gp = calloc(n, 4), *gn = calloc(n, 4), *cp = calloc(n, 4), *cn = calloc(n, 4);
    float *rp = calloc(n, 4), *rn = calloc(n, 4);
    mk_error err;
    CHECK(mk_gl_capture_pose(renderer, g, pose, gp, gn, &err) == MK_OK);
    CHECK(mk_pose_eval(set, pose, cp, cn, set->vertex_count, &err) == MK_OK);
    reference_pose(set, pose, rp, rn);
    char label[160];
    snprintf(label, sizeof label, "%s: positions vs mk_pose_eval", what);
    check_close(gp, cp, n, 1e-5, label);
    snprintf(label, sizeof label, "%s: normals vs mk_pose_eval", what);
    check_close(gn, cn, n, 1e-5, label);
    snprintf(label, sizeof label, "%s: positions vs reference", what);
    check_close(gp, rp, n, 1e-5, label);
    snprintf(label, sizeof label, "%s: normals vs reference", what);
    check_close(gn, rn, n, 1e-5, label);
    free(gp), free(gn), free(cp), free(cn), free(rp), free(rn);
}

/* Three vertices, one triangle, three frames. Vertex 0 of frame 0 is
 * (1, 2, 3); frame 1's normals are frame 0's reversed, so an even mix of
 * the two has no normal at all. */
static mk_frame_set *hand_set(void)
{
    mk_frame_set_desc d = {3, 3, 3, true, false};
    mk_frame_set *set = NULL;
    mk_error err;
    if (mk_frame_set_create(&d, NULL, &set, &err) != MK_OK)
        return NULL;
    static const float positions[3][9] = {
        {1, 2, 3, 4, 0, 0, 0, 4, 0},
        {3, 2, 1, 5, 1, 0, -1, 6, 0},
        {0, 0, 8, 4, 0, 2, 0, 4, -2},
    };
    static const float normals[3][9] = {
        {0, 0, 1, 0, 0.6f, 0.8f, 1, 0, 0},
        {0, 0, -1, 0, -0.6f, -0.8f, -1, 0, 0},
        {0, 1, 0, 0.8f, 0, 0.6f, 0, 0, 1},
    };
    memcpy(set->positions, positions, sizeof positions);
    memcpy(set->normals, normals, sizeof normals);
    const uint32_t tri[3] = {0, 1, 2};
    memcpy(set->indices, tri, sizeof tri);
    return set;
}

/* ---- pose weights -------------------------------------------------------- */

/* The numbers worked by hand: the GPU used to ignore the weight of a
 * one-entry pose and drew (1, 2, 3) where the CPU gives (0.5, 1, 1.5). */
static void test_hand_values(void)
{
    mk_frame_set *set = hand_set();
    CHECK(set != NULL);
    if (!set)
        return;
    mk_gl_frames *g = NULL;
    mk_error err;
    CHECK(mk_gl_frames_create(renderer, set, &g, &err) == MK_OK);
    float p[9], n[9];

    mk_pose half = {1, {0}, {0.5f}};
    CHECK(mk_gl_capture_pose(renderer, g, &half, p, n, &err) == MK_OK);
    const float half_p0[3] = {0.5f, 1.0f, 1.5f}, n0[3] = {0, 0, 1};
    check_close(p, half_p0, 3, 1e-6, "w = 0.5, vertex 0 position");
    check_close(n, n0, 3, 1e-6, "w = 0.5, vertex 0 normal (re-normalized)");

    /* a negative single weight mirrors the vertex and flips the normal */
    mk_pose neg = {1, {0}, {-2.0f}};
    CHECK(mk_gl_capture_pose(renderer, g, &neg, p, n, &err) == MK_OK);
    const float neg_p0[3] = {-2, -4, -6}, neg_n1[3] = {0, -0.6f, -0.8f};
    check_close(p, neg_p0, 3, 1e-6, "w = -2, vertex 0 position");
    check_close(n + 3, neg_n1, 3, 1e-6, "w = -2, vertex 1 normal");

    /* 0.3 * (1, 2, 3) + 0.9 * (3, 2, 1) = (3, 2.4, 1.8); normals
     * 0.3 * (0, 0, 1) + 0.9 * (0, 0, -1) = (0, 0, -0.6) -> (0, 0, -1) */
    mk_pose pair = {2, {0, 1}, {0.3f, 0.9f}};
    CHECK(mk_gl_capture_pose(renderer, g, &pair, p, n, &err) == MK_OK);
    const float pair_p0[3] = {3.0f, 2.4f, 1.8f}, pair_n0[3] = {0, 0, -1};
    check_close(p, pair_p0, 3, 1e-6, "(0.3, 0.9), vertex 0 position");
    check_close(n, pair_n0, 3, 1e-6, "(0.3, 0.9), vertex 0 normal");

    /* opposite normals mixed evenly: no length left, (0, 0, 0) as on the CPU */
    mk_pose even = {2, {0, 1}, {0.5f, 0.5f}};
    CHECK(mk_gl_capture_pose(renderer, g, &even, p, n, &err) == MK_OK);
    const float zero[9] = {0};
    check_close(n, zero, 9, 0, "opposite normals, even mix");
    const float even_p0[3] = {2, 2, 2};
    check_close(p, even_p0, 3, 1e-6, "even mix, vertex 0 position");

    /* four entries, a repeated frame, weights summing to 0.7:
     * 0.5 * (1,2,3) + 0.25 * (0,0,8) + 0.25 * (0,0,8) - 0.3 * (3,2,1)
     * = (0.5 - 0.9, 1 - 0.6, 1.5 + 4 - 0.3) = (-0.4, 0.4, 5.2) */
    mk_pose four = {4, {0, 2, 2, 1}, {0.5f, 0.25f, 0.25f, -0.3f}};
    CHECK(mk_gl_capture_pose(renderer, g, &four, p, n, &err) == MK_OK);
    const float four_p0[3] = {-0.4f, 0.4f, 5.2f};
    check_close(p, four_p0, 3, 1e-6, "four entries, vertex 0 position");
    compare_pose(g, set, &four, "hand set, four entries");

    mk_gl_frames_destroy(g);
    mk_frame_set_destroy(set);
}

/* The shapes the API promises, on a curved mesh with many vertices. */
static void test_poses_match_cpu(void)
{
    mk_frame_set *set = mk_fx_blob(4, 10, 14);
    mk_gl_frames *g = NULL;
    mk_error err;
    CHECK(mk_gl_frames_create(renderer, set, &g, &err) == MK_OK);
    const struct {
        mk_pose pose;
        const char *what;
    } cases[] = {
        {{1, {2}, {0.5f}}, "one entry, w = 0.5"},
        {{1, {1}, {2.0f}}, "one entry, w = 2"},
        {{1, {3}, {-0.75f}}, "one entry, w = -0.75"},
        {{1, {0}, {1.0f}}, "one entry, w = 1"},
        {{2, {0, 3}, {0.3f, 0.9f}}, "two entries, 0.3 / 0.9"},
        {{2, {1, 2}, {-0.5f, 0.25f}}, "two entries, -0.5 / 0.25"},
        {{2, {2, 2}, {0.6f, 0.5f}}, "two entries, the same frame twice"},
        {{2, {0, 1}, {0.75f, 0.25f}}, "two entries, affine"},
        {{4, {0, 2, 2, 3}, {0.4f, -0.2f, 0.6f, -0.1f}}, "four entries summing to 0.7"},
        {{4, {3, 1, 0, 2}, {1.5f, 1.0f, -0.25f, 0.5f}}, "four entries summing to 2.75"},
        {{4, {0, 1, 2, 3}, {-0.0625f, 0.5625f, 0.5625f, -0.0625f}}, "four entries, affine"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        compare_pose(g, set, &cases[i].pose, cases[i].what);

    /* entries past count are not looked at */
    mk_pose tail = {1, {1, 999, 999, 999}, {2.0f, NAN, INFINITY, NAN}};
    compare_pose(g, set, &tail, "one entry, garbage after it");

    /* count 0 leaves the outputs as they were, as mk_pose_eval does */
    size_t n = (size_t)set->vertex_count * 3;
    float *gp = malloc(n * 4), *gn = malloc(n * 4);
    for (size_t i = 0; i < n; i++)
        gp[i] = gn[i] = 42.0f;
    mk_pose none = {0, {0}, {0}};
    CHECK(mk_gl_capture_pose(renderer, g, &none, gp, gn, &err) == MK_OK);
    CHECK(gp[0] == 42.0f && gp[n - 1] == 42.0f && gn[0] == 42.0f && gn[n - 1] == 42.0f);
    free(gp), free(gn);
    mk_gl_frames_destroy(g);
    mk_frame_set_destroy(set);
}

/* The crowd path shows (1 - w) * F[a] + w * F[b] per instance; captured
 * before each instance's model matrix and compared with mk_blend_frames. */
static void test_crowd_capture_matches_cpu(void)
{
    enum { N = 7 };
    mk_frame_set *set = mk_fx_blob(4, 8, 12);
    mk_gl_frames *g = NULL;
    mk_error err;
    CHECK(mk_gl_frames_create(renderer, set, &g, &err) == MK_OK);
    mk_gl_instance inst[N];
    memset(inst, 0, sizeof inst);
    const uint32_t fa[N] = {0, 1, 3, 2, 2, 0, 3};
    const uint32_t fb[N] = {1, 3, 0, 2, 1, 3, 3};
    const float w[N] = {0.0f, 0.25f, 1.0f, 0.6f, -0.25f, 1.5f, 0.5f};
    for (uint32_t i = 0; i < N; i++) {
        inst[i].frame_a = fa[i];
        inst[i].frame_b = fb[i];
        inst[i].weight = w[i];
        /* a transform that would show if the capture were in world space */
        inst[i].model[0] = inst[i].model[5] = inst[i].model[10] = 3.0f;
        inst[i].model[15] = 1.0f;
        inst[i].model[12] = (float)i;
    }
    size_t per = (size_t)set->vertex_count * 3;
    float *gp = calloc(per * N, 4), *gn = calloc(per * N, 4);
    float *cp = calloc(per, 4), *cn = calloc(per, 4), *rp = calloc(per, 4), *rn = calloc(per, 4);
    CHECK(mk_gl_capture_crowd(renderer, g, inst, N, gp, gn, &err) == MK_OK);
    for (uint32_t i = 0; i < N; i++) {
        CHECK(mk_blend_frames(set, fa[i], fb[i], w[i], cp, cn, set->vertex_count, &err) == MK_OK);
        mk_pose pose = {2, {fa[i], fb[i]}, {1.0f - w[i], w[i]}};
        reference_pose(set, &pose, rp, rn);
        char label[96];
        snprintf(label, sizeof label, "crowd instance %u positions vs mk_blend_frames", i);
        check_close(gp + per * i, cp, per, 1e-5, label);
        snprintf(label, sizeof label, "crowd instance %u normals vs mk_blend_frames", i);
        check_close(gn + per * i, cn, per, 1e-5, label);
        snprintf(label, sizeof label, "crowd instance %u vs reference", i);
        check_close(gp + per * i, rp, per, 1e-5, label);
        check_close(gn + per * i, rn, per, 1e-5, label);
    }
    free(gp), free(gn), free(cp), free(cn), free(rp), free(rn);
    mk_gl_frames_destroy(g);
    mk_frame_set_destroy(set);
}

/* ---- argument checks ----------------------------------------------------- */

static size_t covered_pixels(const uint8_t *img, size_t pixels)
{
    size_t n = 0;
    for (size_t i = 0; i < pixels; i++)
        n += img[4 * i] != 0 || img[4 * i + 1] != 0 || img[4 * i + 2] != 0;
    return n;
}

/* Checks that the call was refused as misuse and left no GL error. */
#define REFUSED(call)                                                                   \
    do {                                                                                \
        mk_error e_;                                                                    \
        memset(&e_, 0, sizeof e_);                                                      \
        CHECK((call) == MK_ERR_INVALID_ARGUMENT);                                       \
        CHECK(e_.code == MK_ERR_INVALID_ARGUMENT || e_.code == MK_OK);                  \
        CHECK(glGetError() == GL_NO_ERROR);                                             \
    } while (0)

static void test_bad_arguments_draw_nothing(void)
{
    enum { W = 48, H = 48 };
    mk_frame_set *set = mk_fx_blob(3, 8, 12);
    mk_error err;
    mk_gl_frames *g = NULL;
    mk_gl_mesh *mesh = NULL;
    mk_gl_target *target = NULL;
    mk_gl_morph *gm = NULL;
    mk_morph_set *ms = NULL;
    uint32_t counts[3] = {MK_MORPH_DENSE, 0, 0};
    mk_morph_set_desc md = {set->vertex_count, 1, false, false, counts};
    const mk_gl_target_desc td = {W, H, 0};
    CHECK(mk_gl_frames_create(renderer, set, &g, &err) == MK_OK);
    CHECK(mk_gl_mesh_create(renderer, set->vertex_count, set->indices, set->index_count, true,
                            &mesh, &err) == MK_OK);
    CHECK(mk_gl_target_create(&td, NULL, &target, &err) == MK_OK);
    CHECK(mk_morph_set_create(&md, NULL, &ms, &err) == MK_OK);
    if (!g || !mesh || !target || !ms)
        return;
    memcpy(ms->base_positions, set->positions, (size_t)set->vertex_count * 12);
    CHECK(mk_gl_morph_create(renderer, ms, set->indices, set->index_count, &gm, &err) == MK_OK);
    CHECK(mk_gl_mesh_update(mesh, set->positions, set->normals, &err) == MK_OK);
    mk_gl_draw_params params;
    memset(&params, 0, sizeof params);
    const float center[3] = {0, 0, 0}, clear[4] = {0, 0, 0, 1};
    mk_gl_orbit_camera(center, 1.2f, 0.4f, 0.2f, 0.8f, 1.0f, params.view_projection);
    uint8_t *img = calloc(W * H, 4);
    while (glGetError() != GL_NO_ERROR) {
    }

    /* Every good call below covers pixels, so "nothing drawn" means something. */
    const mk_pose good = {2, {0, 2}, {0.5f, 0.5f}};
    mk_gl_instance inst[2];
    memset(inst, 0, sizeof inst);
    inst[1].frame_a = 1;
    inst[1].frame_b = 2;
    inst[1].weight = 0.5f;
    const float morph_w[1] = {0.5f};
    for (int which = 0; which < 4; which++) {
        CHECK(mk_gl_target_begin(target, clear, &err) == MK_OK);
        mk_status s = which == 0   ? mk_gl_draw_pose(renderer, g, &good, &params, &err)
                      : which == 1 ? mk_gl_draw_mesh(renderer, mesh, &params, &err)
                      : which == 2 ? mk_gl_draw_crowd(renderer, g, inst, 2, &params, &err)
                                   : mk_gl_draw_morph(renderer, gm, morph_w, &params, &err);
        CHECK(s == MK_OK);
        CHECK(mk_gl_target_read(target, img, &err) == MK_OK);
        CHECK(covered_pixels(img, W * H) > W * H / 10);
    }

    CHECK(mk_gl_target_begin(target, clear, &err) == MK_OK);
    /* poses */
    const mk_pose bad_count3 = {3, {0, 1, 2}, {0.2f, 0.3f, 0.5f}};
    const mk_pose bad_count5 = {5, {0, 1, 2, 0}, {0.25f, 0.25f, 0.25f, 0.25f}};
    const mk_pose bad_frame1 = {1, {3}, {1.0f}};
    const mk_pose bad_frame4 = {4, {0, 1, 2, 7}, {0.25f, 0.25f, 0.25f, 0.25f}};
    const mk_pose bad_nan = {2, {0, 1}, {0.5f, NAN}};
    const mk_pose bad_inf = {4, {0, 1, 2, 0}, {INFINITY, 0.0f, 0.0f, 0.0f}};
    const mk_pose bad_ninf = {1, {0}, {-INFINITY}};
    const mk_pose *bad_poses[] = {&bad_count3, &bad_count5, &bad_frame1, &bad_frame4,
                                  &bad_nan,     &bad_inf,    &bad_ninf};
    size_t n = (size_t)set->vertex_count * 3;
    float *out_p = malloc(n * 4), *out_n = malloc(n * 4);
    for (size_t i = 0; i < n; i++)
        out_p[i] = out_n[i] = 42.0f;
    for (size_t i = 0; i < sizeof bad_poses / sizeof bad_poses[0]; i++) {
        REFUSED(mk_gl_draw_pose(renderer, g, bad_poses[i], &params, &e_));
        REFUSED(mk_gl_capture_pose(renderer, g, bad_poses[i], out_p, out_n, &e_));
    }
    CHECK(mk_gl_draw_pose(renderer, g, &bad_frame4, &params, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "frame 7 of 3");
    CHECK(mk_gl_draw_pose(renderer, g, &bad_nan, &params, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "entry 1");
    CHECK(out_p[0] == 42.0f && out_p[n - 1] == 42.0f && out_n[0] == 42.0f);
    REFUSED(mk_gl_draw_pose(NULL, g, &good, &params, &e_));
    REFUSED(mk_gl_draw_pose(renderer, NULL, &good, &params, &e_));
    REFUSED(mk_gl_draw_pose(renderer, g, NULL, &params, &e_));
    REFUSED(mk_gl_capture_pose(renderer, g, &good, NULL, out_n, &e_));
    /* a NULL err is allowed: the status still says it */
    CHECK(mk_gl_draw_pose(renderer, g, &bad_nan, &params, NULL) == MK_ERR_INVALID_ARGUMENT);
    /* meshes */
    REFUSED(mk_gl_draw_mesh(NULL, mesh, &params, &e_));
    REFUSED(mk_gl_draw_mesh(renderer, NULL, &params, &e_));
    REFUSED(mk_gl_mesh_update(NULL, set->positions, set->normals, &e_));
    REFUSED(mk_gl_mesh_update(mesh, NULL, set->normals, &e_));
    /* crowd */
    mk_gl_instance bad_inst[2];
    memcpy(bad_inst, inst, sizeof inst);
    bad_inst[1].frame_a = 3;
    REFUSED(mk_gl_draw_crowd(renderer, g, bad_inst, 2, &params, &e_));
    REFUSED(mk_gl_capture_crowd(renderer, g, bad_inst, 2, out_p, out_n, &e_));
    memcpy(bad_inst, inst, sizeof inst);
    bad_inst[0].weight = NAN;
    REFUSED(mk_gl_draw_crowd(renderer, g, bad_inst, 2, &params, &e_));
    CHECK(mk_gl_draw_crowd(renderer, g, bad_inst, 2, &params, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "instance 0");
    REFUSED(mk_gl_draw_crowd(renderer, g, NULL, 2, &params, &e_));
    REFUSED(mk_gl_draw_crowd(renderer, NULL, inst, 2, &params, &e_));
    REFUSED(mk_gl_draw_crowd(NULL, g, inst, 2, &params, &e_));
    CHECK(mk_gl_draw_crowd(renderer, g, NULL, 0, &params, &err) == MK_OK); /* nothing to draw */
    /* morph targets */
    const float nan_w[1] = {NAN}, inf_w[1] = {INFINITY};
    float morph_out[3] = {42, 42, 42};
    REFUSED(mk_gl_draw_morph(renderer, gm, nan_w, &params, &e_));
    REFUSED(mk_gl_capture_morph(renderer, gm, inf_w, morph_out, NULL, NULL, &e_));
    CHECK(morph_out[0] == 42.0f);
    REFUSED(mk_gl_draw_morph(renderer, NULL, morph_w, &params, &e_));
    REFUSED(mk_gl_draw_morph(NULL, gm, morph_w, &params, &e_));
    /* creating calls and the target */
    mk_gl_frames *g2 = NULL;
    REFUSED(mk_gl_frames_create(renderer, NULL, &g2, &e_));
    CHECK(g2 == NULL);
    REFUSED(mk_gl_frames_create(NULL, set, &g2, &e_));
    REFUSED(mk_gl_target_begin(NULL, clear, &e_));
    REFUSED(mk_gl_target_read(target, NULL, &e_));
    CHECK(mk_gl_frames_frame_count(NULL) == 0);
    CHECK(strcmp(mk_gl_context_description(NULL), "") == 0);

    /* nothing of all that reached the picture */
    CHECK(mk_gl_target_read(target, img, &err) == MK_OK);
    CHECK(covered_pixels(img, W * H) == 0);
    CHECK(glGetError() == GL_NO_ERROR);

    free(out_p), free(out_n), free(img);
    mk_gl_morph_destroy(gm);
    mk_morph_set_destroy(ms);
    mk_gl_target_destroy(target);
    mk_gl_mesh_destroy(mesh);
    mk_gl_frames_destroy(g);
    mk_frame_set_destroy(set);
}

/* The allocator given to the renderer serves its objects and buffers. */
typedef struct counting {
    size_t live, calls;
} counting;

static void *count_alloc(void *user, size_t size)
{
    counting *c = user;
    c->live += size;
    c->calls++;
    return malloc(size);
}

static void *count_realloc(void *user, void *p, size_t old_size, size_t new_size)
{
    counting *c = user;
    c->live += new_size - old_size;
    c->calls++;
    return realloc(p, new_size);
}

static void count_free(void *user, void *p, size_t size)
{
    counting *c = user;
    if (p)
        c->live -= size;
    free(p);
}

static void test_allocator_parameter(void)
{
    counting c = {0, 0};
    mk_allocator a = {count_alloc, count_realloc, count_free, &c};
    mk_gl_renderer *r = NULL;
    mk_gl_target *t = NULL;
    mk_error err;
    CHECK(mk_gl_renderer_create(&a, &r, &err) == MK_OK);
    CHECK(c.calls >= 1 && c.live > 0);
    size_t after_renderer = c.live;
    const mk_gl_target_desc td = {8, 8, 0};
    CHECK(mk_gl_target_create(&td, &a, &t, &err) == MK_OK);
    CHECK(c.live > after_renderer);
    mk_frame_set *set = mk_fx_blob(2, 4, 6);
    mk_gl_frames *g = NULL;
    CHECK(mk_gl_frames_create(r, set, &g, &err) == MK_OK);
    size_t before_mesh = c.live;
    mk_gl_mesh *mesh = NULL;
    CHECK(mk_gl_mesh_create(r, set->vertex_count, set->indices, set->index_count, true, &mesh,
                            &err) == MK_OK);
    CHECK(c.live > before_mesh);
    mk_pose pose = {1, {1}, {1.0f}};
    float *p = malloc((size_t)set->vertex_count * 12);
    CHECK(mk_gl_capture_pose(r, g, &pose, p, NULL, &err) == MK_OK);
    free(p);
    mk_gl_mesh_destroy(mesh);
    mk_gl_frames_destroy(g);
    mk_gl_target_destroy(t);
    mk_gl_renderer_destroy(r);
    CHECK(c.live == 0);
    mk_frame_set_destroy(set);
}

/* Destroying NULL is a no-op, as gl.h says. */
static void test_destroy_null(void)
{
    mk_gl_renderer_destroy(NULL);
    mk_gl_frames_destroy(NULL);
    mk_gl_mesh_destroy(NULL);
    mk_gl_morph_destroy(NULL);
    mk_gl_target_destroy(NULL);
    CHECK(glGetError() == GL_NO_ERROR);
}

static void project(const float m[16], const float p[3], float ndc[3])
{
    float clip[4];
    for (int r = 0; r < 4; r++)
        clip[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
    for (int r = 0; r < 3; r++)
        ndc[r] = clip[r] / clip[3];
}

/* The orbit camera centres the sphere and makes it fill the narrower side:
 * with the eye at distance d = r / sin(h) (h half the narrower field of
 * view), the sphere's outline touches that side's edge, so the silhouette
 * point seen from the eye at angle h projects to NDC 1. */
static void test_orbit_camera(void)
{
    const float center[3] = {1, 2, 3}, radius = 2.0f, fov = 0.8f;
    float vp[16];
    /* yaw 0, pitch 0: the eye is on +z of the centre, looking along -z */
    mk_gl_orbit_camera(center, radius, 0.0f, 0.0f, fov, 1.0f, vp);
    float ndc[3];
    project(vp, center, ndc);
    CHECK_NEAR(ndc[0], 0.0, 1e-5);
    CHECK_NEAR(ndc[1], 0.0, 1e-5);
    CHECK(ndc[2] > -1.0f && ndc[2] < 1.0f);
    double h = fov / 2;
    /* the tangent point in the x-z plane: from the centre, at angle
     * (pi/2 - h) away from the eye direction (+z), towards +x */
    float tangent[3] = {center[0] + radius * (float)cos(h), center[1],
                        center[2] + radius * (float)sin(h)};
    project(vp, tangent, ndc);
    CHECK_NEAR(ndc[0], 1.0, 1e-4);
    CHECK_NEAR(ndc[1], 0.0, 1e-5);
    /* a point nearer the eye than the centre is nearer in depth */
    float front[3] = {center[0], center[1], center[2] + 0.5f * radius};
    float ndc_front[3], ndc_center[3];
    project(vp, front, ndc_front);
    project(vp, center, ndc_center);
    CHECK(ndc_front[2] < ndc_center[2]);
    /* wide view (aspect 2): the height is the narrower side */
    mk_gl_orbit_camera(center, radius, 0.0f, 0.0f, fov, 2.0f, vp);
    float top[3] = {center[0], center[1] + radius * (float)cos(h), center[2] + radius * (float)sin(h)};
    project(vp, top, ndc);
    CHECK_NEAR(ndc[1], 1.0, 1e-4);
    /* a radius and aspect that are not > 0 count as 1 */
    float a[16], b[16];
    mk_gl_orbit_camera(center, -3.0f, 0.3f, 0.2f, fov, 0.0f, a);
    mk_gl_orbit_camera(center, 1.0f, 0.3f, 0.2f, fov, 1.0f, b);
    for (int i = 0; i < 16; i++)
        CHECK(a[i] == b[i]);
    /* mat4_multiply: out may alias an input */
    float m[16] = {2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1}, id[16] = {0};
    id[0] = id[5] = id[10] = id[15] = 1;
    float want[16];
    memcpy(want, m, sizeof m);
    mk_gl_mat4_multiply(m, m, id);
    for (int i = 0; i < 16; i++)
        CHECK(m[i] == want[i]);
    /* (translate by t) * (scale by 2) maps x to 2x + t */
    float s2[16] = {2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1};
    float t[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1};
    mk_gl_mat4_multiply(s2, t, s2);
    CHECK(s2[0] == 2 && s2[12] == 5 && s2[13] == 6 && s2[14] == 7 && s2[15] == 1);
}

int main(int argc, char **argv)
{
    static const mk_test_case cases[] = {
        MK_TEST(test_hand_values),
        MK_TEST(test_poses_match_cpu),
        MK_TEST(test_crowd_capture_matches_cpu),
        MK_TEST(test_bad_arguments_draw_nothing),
        MK_TEST(test_allocator_parameter),
        MK_TEST(test_destroy_null),
        MK_TEST(test_orbit_camera),
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
