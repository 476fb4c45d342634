/* Morph target sets: creation, validation and evaluation with hand-computed
 * values (runtime layer only, no files). */
#include <stdint.h>
#include <string.h>

#include "mk_test.h"
#include "morphkit/morph.h"

/* 3 vertices, 3 targets:
 *   t0: dense POSITION (+1 x on every vertex), dense NORMAL (+1 x on vertex 0)
 *   t1: sparse POSITION on vertex 2 only (+2 y), sparse TANGENT on vertex 1 (+1 y)
 *   t2: no deltas at all */
static mk_morph_set *make_set(void)
{
    const uint32_t counts[9] = {MK_MORPH_DENSE, MK_MORPH_DENSE, 0, 1, 0, 1, 0, 0, 0};
    mk_morph_set_desc d = {3, 3, true, true, counts};
    mk_morph_set *s = NULL;
    mk_error err;
    CHECK(mk_morph_set_create(&d, NULL, &s, &err) == MK_OK);
    if (!s)
        return NULL;
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const float nrm[9] = {0, 0, 1, 0, 0, 1, 0, 0, 1};
    const float tan[12] = {1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1};
    memcpy(s->base_positions, pos, sizeof pos);
    memcpy(s->base_normals, nrm, sizeof nrm);
    memcpy(s->base_tangents, tan, sizeof tan);
    mk_morph_delta *p0 = &s->targets[0].delta[MK_MORPH_POSITION];
    CHECK(p0->indices == NULL && p0->entry_count == 3);
    for (int v = 0; v < 3; v++)
        p0->values[3 * v] = 1.0f;
    s->targets[0].delta[MK_MORPH_NORMAL].values[0] = 1.0f;
    mk_morph_delta *p1 = &s->targets[1].delta[MK_MORPH_POSITION];
    CHECK(p1->indices != NULL && p1->entry_count == 1);
    p1->indices[0] = 2;
    p1->values[1] = 2.0f;
    mk_morph_delta *t1 = &s->targets[1].delta[MK_MORPH_TANGENT];
    t1->indices[0] = 1;
    t1->values[1] = 1.0f;
    CHECK(mk_morph_set_validate(s, &err) == MK_OK);
    return s;
}

static void test_zero_weights_give_base(void)
{
    mk_morph_set *s = make_set();
    float pos[9], nrm[9], tan[12];
    /* default weights are zero */
    CHECK(mk_morph_evaluate(s, NULL, pos, nrm, tan, s->vertex_count, NULL) == MK_OK);
    CHECK(memcmp(pos, s->base_positions, sizeof pos) == 0);
    CHECK(memcmp(nrm, s->base_normals, sizeof nrm) == 0);
    CHECK(memcmp(tan, s->base_tangents, sizeof tan) == 0);
    mk_morph_set_destroy(s);
}

static void test_weighted_sum(void)
{
    mk_morph_set *s = make_set();
    const float w[3] = {0.5f, 0.25f, 7.0f};
    float pos[9], nrm[9], tan[12];
    CHECK(mk_morph_evaluate(s, w, pos, nrm, tan, s->vertex_count, NULL) == MK_OK);
    /* v0 = (0,0,0) + 0.5 (1,0,0); v1 = (1,0,0) + 0.5 (1,0,0); v2 = (0,1,0)
     * + 0.5 (1,0,0) + 0.25 (0,2,0). t2 has no deltas, its weight does nothing. */
    const float want[9] = {0.5f, 0, 0, 1.5f, 0, 0, 0.5f, 1.5f, 0};
    for (int i = 0; i < 9; i++)
        CHECK_NEAR(pos[i], want[i], 1e-7);
    /* n0 = normalize((0,0,1) + 0.5 (1,0,0)) = (0.5, 0, 1) / sqrt(1.25). */
    CHECK_NEAR(nrm[0], 0.5 / sqrt(1.25), 1e-6);
    CHECK_NEAR(nrm[2], 1.0 / sqrt(1.25), 1e-6);
    CHECK_NEAR(nrm[5], 1.0, 1e-7);
    /* tangent 1 = normalize((1,0,0) + 0.25 (0,1,0)), w = -1 kept. */
    CHECK_NEAR(tan[4], 1.0 / sqrt(1.0625), 1e-6);
    CHECK_NEAR(tan[5], 0.25 / sqrt(1.0625), 1e-6);
    CHECK_NEAR(tan[6], 0.0, 1e-7);
    CHECK_NEAR(tan[7], -1.0, 0);
    CHECK_NEAR(tan[11], 1.0, 0);
    mk_morph_set_destroy(s);
}

static void test_negative_and_large_weights_extrapolate(void)
{
    mk_morph_set *s = make_set();
    const float w[3] = {-1.0f, 2.0f, 0.0f};
    float pos[9];
    CHECK(mk_morph_evaluate(s, w, pos, NULL, NULL, s->vertex_count, NULL) == MK_OK);
    CHECK_NEAR(pos[0], -1.0, 1e-7);
    CHECK_NEAR(pos[6], -1.0, 1e-7);
    CHECK_NEAR(pos[7], 5.0, 1e-7);
    mk_morph_set_destroy(s);
}

static void test_pose_matches_dense(void)
{
    mk_morph_set *s = make_set();
    const float w[3] = {0.0f, 0.75f, 0.0f};
    float a[9], b[9], na[9], nb[9];
    CHECK(mk_morph_evaluate(s, w, a, na, NULL, s->vertex_count, NULL) == MK_OK);
    const uint32_t idx[1] = {1};
    const float pw[1] = {0.75f};
    CHECK(mk_morph_evaluate_pose(s, idx, pw, 1, b, nb, NULL, s->vertex_count, NULL) == MK_OK);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(memcmp(na, nb, sizeof na) == 0);
    /* A target listed twice adds twice. */
    const uint32_t idx2[2] = {1, 1};
    const float pw2[2] = {0.5f, 0.25f};
    CHECK(mk_morph_evaluate_pose(s, idx2, pw2, 2, b, NULL, NULL, s->vertex_count, NULL) == MK_OK);
    CHECK_NEAR(b[7], 1.0 + 0.75 * 2.0, 1e-6);
    mk_morph_set_destroy(s);
}

static void test_zero_length_normal_is_zero(void)
{
    mk_morph_set *s = make_set();
    /* n0 + w * (1,0,0) with n0 = (0,0,1) never vanishes; make the delta
     * cancel the base instead. */
    s->targets[0].delta[MK_MORPH_NORMAL].values[0] = 0.0f;
    s->targets[0].delta[MK_MORPH_NORMAL].values[2] = -1.0f;
    const float w[3] = {1.0f, 0.0f, 0.0f};
    float pos[9], nrm[9];
    CHECK(mk_morph_evaluate(s, w, pos, nrm, NULL, s->vertex_count, NULL) == MK_OK);
    CHECK(nrm[0] == 0.0f && nrm[1] == 0.0f && nrm[2] == 0.0f);
    mk_morph_set_destroy(s);
}

static void test_create_rejects_bad_desc(void)
{
    mk_error err;
    mk_morph_set *s = NULL;
    mk_morph_set_desc zero = {0, 0, false, false, NULL};
    CHECK(mk_morph_set_create(&zero, NULL, &s, &err) == MK_ERR_INVALID_ARGUMENT && !s);
    const uint32_t too_many[3] = {5, 0, 0};
    mk_morph_set_desc d1 = {3, 1, false, false, too_many};
    CHECK(mk_morph_set_create(&d1, NULL, &s, &err) == MK_ERR_INVALID_ARGUMENT && !s);
    const uint32_t normal_without_base[3] = {0, MK_MORPH_DENSE, 0};
    mk_morph_set_desc d2 = {3, 1, false, false, normal_without_base};
    CHECK(mk_morph_set_create(&d2, NULL, &s, &err) == MK_ERR_INVALID_ARGUMENT && !s);
    CHECK(mk_morph_set_byte_size(&d2) == 0);
    mk_morph_set_desc d4 = {3, 0, false, false, NULL};
    CHECK(mk_morph_set_create(&d4, NULL, &s, &err) == MK_OK && s && s->target_count == 0);
    mk_morph_set_destroy(s);
}

static void test_validate_catches_bad_sparse(void)
{
    mk_morph_set *s = make_set();
    mk_error err;
    s->targets[1].delta[MK_MORPH_POSITION].indices[0] = 3; /* == vertex_count */
    CHECK(mk_morph_set_validate(s, &err) == MK_ERR_RANGE);
    CHECK_CONTAINS(err.message, "targets[1].POSITION");
    s->targets[1].delta[MK_MORPH_POSITION].indices[0] = 2;
    s->targets[0].delta[MK_MORPH_POSITION].values[4] = NAN;
    CHECK(mk_morph_set_validate(s, &err) == MK_ERR_RANGE);
    CHECK_CONTAINS(err.message, "targets[0].POSITION");
    mk_morph_set_destroy(s);
}

/* Inactive targets are skipped: with every weight but one zero, a set with
 * many targets gives exactly the one-target result. */
static void test_many_targets_few_active(void)
{
    enum { V = 100, T = 64 };
    uint32_t counts[T * 3];
    for (int t = 0; t < T; t++) {
        counts[3 * t] = MK_MORPH_DENSE;
        counts[3 * t + 1] = counts[3 * t + 2] = 0;
    }
    mk_morph_set_desc d = {V, T, false, false, counts};
    mk_morph_set *s = NULL;
    mk_error err;
    CHECK(mk_morph_set_create(&d, NULL, &s, &err) == MK_OK);
    for (int t = 0; t < T; t++)
        for (int i = 0; i < V * 3; i++)
            s->targets[t].delta[0].values[i] = (float)(t + 1);
    float w[T] = {0};
    w[10] = 0.5f;
    w[40] = 0.25f;
    float pos[V * 3];
    CHECK(mk_morph_evaluate(s, w, pos, NULL, NULL, s->vertex_count, NULL) == MK_OK);
    CHECK_NEAR(pos[0], 0.5 * 11 + 0.25 * 41, 1e-5);
    CHECK_NEAR(pos[V * 3 - 1], 0.5 * 11 + 0.25 * 41, 1e-5);
    mk_morph_set_destroy(s);
}

/* Misuse is answered in every build type: an error and nothing written. */
static void test_evaluate_rejects_misuse(void)
{
    mk_morph_set *s = make_set();
    if (!s)
        return;
    float pos[9], nrm[9], tan[12];
    for (int i = 0; i < 9; i++)
        pos[i] = nrm[i] = 42.0f;
    mk_error err;
    const float w_nan[3] = {0.5f, NAN, 0}, w_inf[3] = {0, 0, -INFINITY}, w_ok[3] = {1, 0, 0};
    const uint32_t idx_bad[2] = {0, 3}, idx_ok[1] = {1};
    const float pw[2] = {1, 1};
    CHECK(mk_morph_evaluate(s, w_nan, pos, nrm, tan, 3, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "weight 1");
    CHECK(mk_morph_evaluate(s, w_inf, pos, nrm, tan, 3, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_morph_evaluate(s, w_ok, pos, nrm, tan, 2, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "holds 2 vertices");
    CHECK(mk_morph_evaluate(NULL, w_ok, pos, nrm, tan, 3, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_morph_evaluate(s, w_ok, NULL, nrm, tan, 3, NULL) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_morph_evaluate_pose(s, idx_bad, pw, 2, pos, nrm, tan, 3, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "target 3");
    CHECK(mk_morph_evaluate_pose(s, NULL, pw, 1, pos, nrm, tan, 3, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_morph_evaluate_pose(s, idx_ok, NULL, 1, pos, nrm, tan, 3, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_morph_evaluate_pose(s, idx_ok, w_nan + 1, 1, pos, nrm, tan, 3, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    for (int i = 0; i < 9; i++)
        CHECK(pos[i] == 42.0f && nrm[i] == 42.0f);
    CHECK(mk_morph_set_validate(NULL, &err) == MK_ERR_INVALID_ARGUMENT);
    /* an empty pose is the base */
    CHECK(mk_morph_evaluate_pose(s, NULL, NULL, 0, pos, NULL, NULL, 3, &err) == MK_OK);
    CHECK(memcmp(pos, s->base_positions, sizeof pos) == 0);
    mk_morph_set_destroy(s);
}

static uint32_t lcg = 987654321u;
static float rnd(void)
{
    lcg = lcg * 1664525u + 1013904223u;
    return (float)(lcg >> 8) / 16777216.0f * 2.0f - 1.0f;
}

/* morph.h: a mostly-zero dense delta stored sparse gives the same result bit
 * for bit (positions, normals, tangents). 12 targets on 4099 vertices (odd, so SIMD tails run), each moving
 * about 1 vertex in 16; built once dense (zeros spelled out) and once sparse
 * (only the moving vertices), mixed storage in the second set for half of
 * the targets, several random weight vectors including negative ones and
 * zeros, and a pose with a repeated target. */
static void test_sparse_equals_dense_bit_for_bit(void)
{
    enum { V = 4099, T = 12 };
    static uint8_t moves[T][V];
    static float delta[T][3][V * 3], base[2][V * 3], base_tan[V * 4];
    for (int i = 0; i < V * 3; i++) {
        base[0][i] = (float)(i % 7) - 3.0f + rnd();
        base[1][i] = i % 3 == 1 ? 1.0f : 0.25f * rnd();
    }
    for (int i = 0; i < V * 4; i++)
        base_tan[i] = i % 4 == 0 ? 1.0f : 0.25f * rnd();
    uint32_t entries[T] = {0};
    for (int t = 0; t < T; t++)
        for (int v = 0; v < V; v++) {
            moves[t][v] = (lcg >> 4) % 16 == 0 || v % 97 == t;
            rnd();
            for (int a = 0; a < 3; a++)
                for (int c = 0; c < 3; c++)
                    delta[t][a][3 * v + c] = moves[t][v] ? rnd() * 0.1f : 0.0f;
            entries[t] += moves[t][v];
        }
    uint32_t dense_counts[T * 3], sparse_counts[T * 3], mixed_counts[T * 3];
    for (int t = 0; t < T; t++) {
        for (int a = 0; a < 3; a++) {
            dense_counts[3 * t + a] = MK_MORPH_DENSE;
            sparse_counts[3 * t + a] = entries[t];
            mixed_counts[3 * t + a] = (t + a) % 2 ? entries[t] : MK_MORPH_DENSE;
        }
    }
    const uint32_t *layouts[3] = {dense_counts, sparse_counts, mixed_counts};
    mk_morph_set *sets[3] = {NULL, NULL, NULL};
    mk_error err;
    for (int k = 0; k < 3; k++) {
        mk_morph_set_desc d = {V, T, true, true, layouts[k]};
        CHECK(mk_morph_set_create(&d, NULL, &sets[k], &err) == MK_OK);
        if (!sets[k])
            return;
        mk_morph_set *s = sets[k];
        memcpy(s->base_positions, base[0], sizeof base[0]);
        memcpy(s->base_normals, base[1], sizeof base[1]);
        memcpy(s->base_tangents, base_tan, sizeof base_tan);
        for (int t = 0; t < T; t++)
            for (int a = 0; a < 3; a++) {
                mk_morph_delta *dl = &s->targets[t].delta[a];
                uint32_t e = 0;
                for (int v = 0; v < V; v++) {
                    if (dl->indices && !moves[t][v])
                        continue;
                    if (dl->indices)
                        dl->indices[e] = (uint32_t)v;
                    memcpy(dl->values + 3 * e, delta[t][a] + 3 * v, 3 * sizeof(float));
                    e++;
                }
                CHECK(e == dl->entry_count);
            }
        CHECK(mk_morph_set_validate(s, &err) == MK_OK);
    }
    static float pos[3][V * 3], nrm[3][V * 3], tan[3][V * 4];
    for (int round = 0; round < 6; round++) {
        float w[T];
        for (int t = 0; t < T; t++)
            w[t] = (t + round) % 5 == 0 ? 0.0f : rnd() * 1.5f;
        for (int k = 0; k < 3; k++)
            CHECK(mk_morph_evaluate(sets[k], w, pos[k], nrm[k], tan[k], V, &err) == MK_OK);
        for (int k = 1; k < 3; k++) {
            CHECK(memcmp(pos[0], pos[k], sizeof pos[0]) == 0);
            CHECK(memcmp(nrm[0], nrm[k], sizeof nrm[0]) == 0);
            CHECK(memcmp(tan[0], tan[k], sizeof tan[0]) == 0);
        }
    }
    const uint32_t idx[7] = {11, 2, 2, 5, 0, 9, 4};
    const float pw[7] = {0.3f, -0.7f, 0.2f, 1.25f, 0.5f, -0.1f, 0.9f};
    for (int k = 0; k < 3; k++)
        CHECK(mk_morph_evaluate_pose(sets[k], idx, pw, 7, pos[k], nrm[k], tan[k], V, &err) ==
              MK_OK);
    for (int k = 1; k < 3; k++) {
        CHECK(memcmp(pos[0], pos[k], sizeof pos[0]) == 0);
        CHECK(memcmp(nrm[0], nrm[k], sizeof nrm[0]) == 0);
        CHECK(memcmp(tan[0], tan[k], sizeof tan[0]) == 0);
    }
    for (int k = 0; k < 3; k++)
        mk_morph_set_destroy(sets[k]);
}

MK_TEST_MAIN(MK_TEST(test_zero_weights_give_base), MK_TEST(test_weighted_sum),
             MK_TEST(test_negative_and_large_weights_extrapolate), MK_TEST(test_pose_matches_dense),
             MK_TEST(test_zero_length_normal_is_zero), MK_TEST(test_create_rejects_bad_desc),
             MK_TEST(test_validate_catches_bad_sparse), MK_TEST(test_many_targets_few_active),
             MK_TEST(test_evaluate_rejects_misuse), MK_TEST(test_sparse_equals_dense_bit_for_bit))
