/* Pose evaluation: 1, 2 and 4 entries against a double-precision
 * reference, the blend-kernel path for linear poses, normals. */
#include <stdint.h>

#include "mk_test.h"
#include "morphkit/blend.h"
#include "morphkit/pose.h"

static mk_frame_set *make_set(uint32_t frames, uint32_t verts)
{
    mk_frame_set_desc fd = {frames, verts, 0, true, false};
    mk_frame_set *fs = NULL;
    mk_error err;
    if (mk_frame_set_create(&fd, NULL, &fs, &err) != MK_OK)
        exit(1);
    uint32_t s = 12345;
    for (size_t i = 0; i < (size_t)frames * verts * 3; i++) {
        s = s * 1664525u + 1013904223u;
        fs->positions[i] = (float)((s >> 8) % 2000) / 100.0f - 10.0f;
        s = s * 1664525u + 1013904223u;
        fs->normals[i] = (float)((s >> 8) % 2000) / 1000.0f - 1.0f;
    }
    return fs;
}

static void reference(const mk_frame_set *fs, const mk_pose *pose, double *pos, double *nrm)
{
    for (uint32_t v = 0; v < fs->vertex_count; v++) {
        double n[3] = {0, 0, 0};
        for (int a = 0; a < 3; a++) {
            pos[3 * v + a] = 0;
            for (uint32_t i = 0; i < pose->count; i++) {
                pos[3 * v + a] += pose->weights[i] * mk_frame_set_positions(fs, pose->frames[i])[3 * v + a];
                n[a] += pose->weights[i] * mk_frame_set_normals(fs, pose->frames[i])[3 * v + a];
            }
        }
        double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int a = 0; a < 3; a++)
            nrm[3 * v + a] = len > 1e-12 ? n[a] / len : 0.0;
    }
}

static void check_pose(const mk_frame_set *fs, const mk_pose *pose)
{
    const uint32_t n = fs->vertex_count;
    float *pos = malloc(n * 12), *nrm = malloc(n * 12);
    double *rp = malloc(n * 24), *rn = malloc(n * 24);
    CHECK(mk_pose_eval(fs, pose, pos, nrm, fs->vertex_count, NULL) == MK_OK);
    reference(fs, pose, rp, rn);
    double ep = 0, en = 0;
    for (uint32_t i = 0; i < 3 * n; i++) {
        ep = fmax(ep, fabs(pos[i] - rp[i]));
        en = fmax(en, fabs(nrm[i] - rn[i]));
    }
    CHECK(ep < 1e-4); /* positions up to 10 in size, up to 4 terms */
    CHECK(en < 1e-4);
    free(pos), free(nrm), free(rp), free(rn);
}

static void test_counts(void)
{
    mk_frame_set *fs = make_set(6, 37); /* 37: not a multiple of the SIMD width */
    mk_pose one = {1, {3}, {1.0f}};
    check_pose(fs, &one);
    mk_pose two = {2, {1, 4}, {0.7f, 0.3f}};
    check_pose(fs, &two);
    mk_pose smooth = {4, {0, 1, 2, 3}, {-0.06f, 0.81f, 0.29f, -0.04f}};
    check_pose(fs, &smooth);
    mk_pose dup = {4, {2, 2, 3, 3}, {-0.1f, 0.6f, 0.6f, -0.1f}};
    check_pose(fs, &dup);
    mk_pose odd2 = {2, {0, 5}, {0.5f, 0.25f}}; /* not affine: general path */
    check_pose(fs, &odd2);
    mk_pose held_half = {1, {2}, {0.5f}};
    check_pose(fs, &held_half);
    mk_frame_set_destroy(fs);
}

static void test_linear_matches_blend_frames(void)
{
    mk_frame_set *fs = make_set(3, 50);
    float a[150], an[150], b[150], bn[150];
    mk_pose two = {2, {0, 2}, {1.0f - 0.375f, 0.375f}};
    CHECK(mk_pose_eval(fs, &two, a, an, fs->vertex_count, NULL) == MK_OK);
    CHECK(mk_blend_frames(fs, 0, 2, 0.375f, b, bn, fs->vertex_count, NULL) == MK_OK);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(memcmp(an, bn, sizeof an) == 0);
    /* one entry: an exact copy of the frame's positions */
    mk_pose one = {1, {1}, {1.0f}};
    CHECK(mk_pose_eval(fs, &one, a, NULL, fs->vertex_count, NULL) == MK_OK);
    CHECK(memcmp(a, mk_frame_set_positions(fs, 1), sizeof a) == 0);
    /* count 0 leaves the output alone */
    mk_pose none = {0, {0}, {0}};
    a[0] = 1234.0f;
    CHECK(mk_pose_eval(fs, &none, a, an, fs->vertex_count, NULL) == MK_OK);
    CHECK(a[0] == 1234.0f);
    mk_frame_set_destroy(fs);
}

static void test_normals_zero_and_unit(void)
{
    mk_frame_set *fs = make_set(4, 1);
    const float up[3] = {0, 0, 1}, down[3] = {0, 0, -1}, side[3] = {1, 0, 0};
    memcpy(mk_frame_set_normals_to_fill(fs, 0), up, 12);
    memcpy(mk_frame_set_normals_to_fill(fs, 1), down, 12);
    memcpy(mk_frame_set_normals_to_fill(fs, 2), side, 12);
    memcpy(mk_frame_set_normals_to_fill(fs, 3), side, 12);
    float p[3], n[3];
    mk_pose cancel = {4, {0, 1, 2, 3}, {0.5f, 0.5f, 0.25f, -0.25f}}; /* sums to zero */
    CHECK(mk_pose_eval(fs, &cancel, p, n, fs->vertex_count, NULL) == MK_OK);
    CHECK(n[0] == 0.0f && n[1] == 0.0f && n[2] == 0.0f);
    mk_pose tilt = {4, {0, 1, 2, 3}, {1.2f, -0.1f, 0.3f, -0.4f}};
    CHECK(mk_pose_eval(fs, &tilt, p, n, fs->vertex_count, NULL) == MK_OK);
    CHECK_NEAR(n[0] * n[0] + n[1] * n[1] + n[2] * n[2], 1.0, 1e-6);
    CHECK(n[0] < 0 && n[2] > 0);
    mk_frame_set_destroy(fs);
}

/* Misuse is answered in every build type: an error and nothing written. */
static void test_eval_rejects_misuse(void)
{
    mk_frame_set *fs = make_set(3, 5);
    float p[15], n[15];
    for (int i = 0; i < 15; i++)
        p[i] = n[i] = 42.0f;
    mk_error err;
    const mk_pose bad_frame = {2, {0, 3}, {0.5f, 0.5f}};
    const mk_pose bad_count = {3, {0, 1, 2}, {0.25f, 0.25f, 0.5f}};
    const mk_pose big_count = {5, {0, 1, 2, 0}, {1, 0, 0, 0}};
    const mk_pose nan_weight = {2, {0, 1}, {0.5f, NAN}};
    const mk_pose inf_weight = {4, {0, 1, 2, 0}, {INFINITY, 0, 0, 0}};
    const mk_pose ok = {1, {2}, {1.0f}};
    CHECK(mk_pose_eval(fs, &bad_frame, p, n, 5, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "frame 3");
    CHECK(mk_pose_eval(fs, &bad_count, p, n, 5, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "count 3");
    CHECK(mk_pose_eval(fs, &big_count, p, n, 5, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_pose_eval(fs, &nan_weight, p, n, 5, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_pose_eval(fs, &inf_weight, p, n, 5, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_pose_eval(fs, &ok, p, n, 4, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_pose_eval(NULL, &ok, p, n, 5, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_pose_eval(fs, NULL, p, n, 5, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_pose_eval(fs, &ok, NULL, n, 5, NULL) == MK_ERR_INVALID_ARGUMENT);
    for (int i = 0; i < 15; i++)
        CHECK(p[i] == 42.0f && n[i] == 42.0f);
    CHECK(mk_pose_eval(fs, &ok, p, n, 5, &err) == MK_OK);
    CHECK(memcmp(p, mk_frame_set_positions(fs, 2), sizeof p) == 0);
    mk_frame_set_destroy(fs);
}

MK_TEST_MAIN(MK_TEST(test_counts), MK_TEST(test_linear_matches_blend_frames),
             MK_TEST(test_normals_zero_and_unit), MK_TEST(test_eval_rejects_misuse))
