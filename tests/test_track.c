/* Keyframe tracks and clip playback with hand-computed values (runtime
 * layer only). */
#include <stdint.h>
#include <string.h>

#include "mk_test.h"
#include "morphkit/track.h"

#define MK_PI 3.14159265358979323846

static mk_track_clip *one_track(mk_track_path path, mk_interpolation interp, uint32_t keys,
                                uint32_t comps, const int64_t *times, const float *values)
{
    mk_track_desc d = {path, interp, 0, keys, comps};
    mk_track_clip *c = NULL;
    mk_error err;
    CHECK(mk_track_clip_create(&d, 1, NULL, &c, &err) == MK_OK);
    if (!c)
        return NULL;
    size_t n = (size_t)keys * comps * (interp == MK_INTERPOLATION_CUBICSPLINE ? 3 : 1);
    memcpy(c->tracks[0].times_us, times, keys * sizeof(int64_t));
    memcpy(c->tracks[0].values, values, n * sizeof(float));
    CHECK(mk_track_clip_validate(c, &err) == MK_OK);
    return c;
}

/* Two weights, keys at 0.5 s, 2.5 s, 3.0 s (intervals 2 s and 0.5 s). */
static const int64_t times3[3] = {500000, 2500000, 3000000};

static void test_step_weights(void)
{
    const float v[6] = {0, 1, 1, 0, 0.25f, 0.75f};
    mk_track_clip *c = one_track(MK_TRACK_WEIGHTS, MK_INTERPOLATION_STEP, 3, 2, times3, v);
    const mk_track *t = &c->tracks[0];
    float o[2];
    mk_track_sample(t, 0, o); /* before the first key: first value */
    CHECK(o[0] == 0.0f && o[1] == 1.0f);
    mk_track_sample(t, 2499999, o);
    CHECK(o[0] == 0.0f && o[1] == 1.0f);
    mk_track_sample(t, 2500000, o); /* on a key: that key */
    CHECK(o[0] == 1.0f && o[1] == 0.0f);
    mk_track_sample(t, 2999999, o);
    CHECK(o[0] == 1.0f && o[1] == 0.0f);
    mk_track_sample(t, 3000000, o);
    CHECK(o[0] == 0.25f && o[1] == 0.75f);
    mk_track_sample(t, 99000000, o);
    CHECK(o[0] == 0.25f && o[1] == 0.75f);
    CHECK(mk_track_clip_duration(c) == 3000000);
    CHECK(c->output_count == 2);
    mk_track_clip_destroy(c);
}

static void test_linear_weights(void)
{
    const float v[6] = {0, 1, 1, 0, 0.25f, 0.75f};
    mk_track_clip *c = one_track(MK_TRACK_WEIGHTS, MK_INTERPOLATION_LINEAR, 3, 2, times3, v);
    float o[2];
    /* 1.0 s is a quarter of the way from 0.5 s to 2.5 s. */
    mk_track_sample(&c->tracks[0], 1000000, o);
    CHECK_NEAR(o[0], 0.25, 1e-7);
    CHECK_NEAR(o[1], 0.75, 1e-7);
    /* 2.9 s is 0.8 of the way from 2.5 s to 3.0 s: 1 + 0.8 (0.25 - 1). */
    mk_track_sample(&c->tracks[0], 2900000, o);
    CHECK_NEAR(o[0], 0.4, 1e-6);
    CHECK_NEAR(o[1], 0.6, 1e-6);
    mk_track_clip_destroy(c);
}

/* Hermite with tangents scaled by the key interval (td = 2 s here):
 * key 0: a = 9 (unused), v = 1, b = 0.5; key 1: a = -1, v = 3, b = 4.
 * s = 0.5: h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125
 *   p = 0.5*1 + 2*0.125*0.5 + 0.5*3 + 2*(-0.125)*(-1) = 2.375
 * s = 0.25: h00 = 0.84375, h10 = 0.140625, h01 = 0.15625, h11 = -0.046875
 *   p = 0.84375 + 2*0.140625*0.5 + 0.15625*3 + 2*0.046875 = 1.546875 */
static void test_cubic_weights(void)
{
    const int64_t t2[2] = {500000, 2500000};
    /* one weight: a v b per key */
    const float v[6] = {9, 1, 0.5f, -1, 3, 4};
    mk_track_clip *c = one_track(MK_TRACK_WEIGHTS, MK_INTERPOLATION_CUBICSPLINE, 2, 1, t2, v);
    float o;
    mk_track_sample(&c->tracks[0], 1500000, &o);
    CHECK_NEAR(o, 2.375, 1e-6);
    mk_track_sample(&c->tracks[0], 1000000, &o);
    CHECK_NEAR(o, 1.546875, 1e-6);
    mk_track_sample(&c->tracks[0], 0, &o); /* clamped: the value, not a tangent */
    CHECK_NEAR(o, 1.0, 0);
    mk_track_sample(&c->tracks[0], 5000000, &o);
    CHECK_NEAR(o, 3.0, 0);
    mk_track_clip_destroy(c);
}

static void test_rotation_slerp_and_cubic(void)
{
    const int64_t t2[2] = {0, 1000000};
    const float s45 = (float)sin(MK_PI / 4), c45 = (float)cos(MK_PI / 4);
    /* identity to 90 degrees about z */
    const float q[8] = {0, 0, 0, 1, 0, 0, s45, c45};
    mk_track_clip *c = one_track(MK_TRACK_ROTATION, MK_INTERPOLATION_LINEAR, 2, 4, t2, q);
    float o[4];
    mk_track_sample(&c->tracks[0], 500000, o); /* 45 degrees: slerp, not nlerp */
    CHECK_NEAR(o[2], sin(MK_PI / 8), 1e-6);
    CHECK_NEAR(o[3], cos(MK_PI / 8), 1e-6);
    mk_track_sample(&c->tracks[0], 250000, o); /* 22.5 degrees */
    CHECK_NEAR(o[2], sin(MK_PI / 16), 1e-6);
    CHECK_NEAR(o[3], cos(MK_PI / 16), 1e-6);
    mk_track_clip_destroy(c);
    /* The second key negated is the same rotation: take the short arc. */
    const float qn[8] = {0, 0, 0, 1, 0, 0, -s45, -c45};
    c = one_track(MK_TRACK_ROTATION, MK_INTERPOLATION_LINEAR, 2, 4, t2, qn);
    mk_track_sample(&c->tracks[0], 500000, o);
    CHECK_NEAR(fabs(o[2]), sin(MK_PI / 8), 1e-6);
    CHECK_NEAR(fabs(o[3]), cos(MK_PI / 8), 1e-6);
    mk_track_clip_destroy(c);
    /* Cubic with zero tangents at s = 0.5: (q0 + q1) / 2, then normalized. */
    const float qc[24] = {0, 0, 0, 0, 0, 0, 0,   1,   0, 0, 0, 0,
                          0, 0, 0, 0, 0, 0, s45, c45, 0, 0, 0, 0};
    c = one_track(MK_TRACK_ROTATION, MK_INTERPOLATION_CUBICSPLINE, 2, 4, t2, qc);
    mk_track_sample(&c->tracks[0], 500000, o);
    double len = sqrt(s45 * s45 / 4.0 + (1 + c45) * (1 + c45) / 4.0);
    CHECK_NEAR(o[2], s45 / 2.0 / len, 1e-6);
    CHECK_NEAR(o[3], (1 + c45) / 2.0 / len, 1e-6);
    mk_track_clip_destroy(c);
}

static void test_cursor_matches_search(void)
{
    enum { K = 50 };
    int64_t t[K];
    float v[K * 3];
    for (int k = 0; k < K; k++) {
        t[k] = 1000 + (int64_t)k * k * 997;
        v[3 * k] = (float)k;
        v[3 * k + 1] = (float)(k * k);
        v[3 * k + 2] = -(float)k;
    }
    mk_track_clip *c = one_track(MK_TRACK_TRANSLATION, MK_INTERPOLATION_LINEAR, K, 3, t, v);
    uint32_t cursor = 0;
    uint32_t seed = 12345;
    for (int i = 0; i < 3000; i++) {
        int64_t time;
        if (i < 2000) {
            time = (int64_t)i * 1300 - 5000; /* forward, from before the first key */
        } else {
            seed = seed * 1664525u + 1013904223u; /* random jumps both ways */
            time = (int64_t)(seed % 2600000u) - 10000;
        }
        float a[3], b[3];
        mk_track_sample(&c->tracks[0], time, a);
        mk_track_sample_cursor(&c->tracks[0], time, &cursor, b);
        CHECK(memcmp(a, b, sizeof a) == 0);
    }
    mk_track_clip_destroy(c);
}

static void test_state_loops_and_holds(void)
{
    const int64_t t2[2] = {0, 1000000};
    const float v[2] = {0, 1};
    mk_track_clip *c = one_track(MK_TRACK_WEIGHTS, MK_INTERPOLATION_LINEAR, 2, 1, t2, v);
    uint32_t cur[1];
    mk_track_clip_state st, st2;
    mk_track_clip_state_init(&st, c, true, cur);
    mk_track_clip_state_advance(&st, 2250000); /* loops twice, 0.25 s in */
    CHECK_EQ_INT(st.time_us, 250000);
    float o;
    mk_track_clip_state_sample(&st, &o);
    CHECK_NEAR(o, 0.25, 1e-7);
    /* Many small steps end where one big step does. */
    uint32_t cur2[1];
    mk_track_clip_state_init(&st2, c, true, cur2);
    for (int i = 0; i < 2250; i++)
        mk_track_clip_state_advance(&st2, 1000);
    CHECK_EQ_INT(st2.time_us, st.time_us);
    /* Not looping: the end holds. */
    mk_track_clip_state_init(&st, c, false, cur);
    mk_track_clip_state_advance(&st, 5000000);
    CHECK_EQ_INT(st.time_us, 1000000);
    mk_track_clip_state_sample(&st, &o);
    CHECK_NEAR(o, 1.0, 0);
    mk_track_clip_state_advance(&st, INT64_MAX); /* no overflow */
    CHECK_EQ_INT(st.time_us, 1000000);
    mk_track_clip_state_set_time(&st, -5);
    CHECK_EQ_INT(st.time_us, 0);
    mk_track_clip_destroy(c);
}

static void test_validate_and_create_errors(void)
{
    mk_error err;
    mk_track_clip *c = NULL;
    mk_track_desc bad_rot = {MK_TRACK_ROTATION, MK_INTERPOLATION_LINEAR, 0, 2, 3};
    CHECK(mk_track_clip_create(&bad_rot, 1, NULL, &c, &err) == MK_ERR_INVALID_ARGUMENT && !c);
    mk_track_desc no_keys = {MK_TRACK_WEIGHTS, MK_INTERPOLATION_LINEAR, 0, 0, 2};
    CHECK(mk_track_clip_create(&no_keys, 1, NULL, &c, &err) == MK_ERR_INVALID_ARGUMENT && !c);
    mk_track_desc ok = {MK_TRACK_SCALE, MK_INTERPOLATION_STEP, 0, 3, 3};
    CHECK(mk_track_clip_create(&ok, 1, NULL, &c, &err) == MK_OK);
    c->tracks[0].times_us[0] = 0;
    c->tracks[0].times_us[1] = 10;
    c->tracks[0].times_us[2] = 10;
    CHECK(mk_track_clip_validate(c, &err) == MK_ERR_RANGE);
    CHECK_CONTAINS(err.message, "key 2");
    c->tracks[0].times_us[2] = 11;
    c->tracks[0].values[4] = INFINITY;
    CHECK(mk_track_clip_validate(c, &err) == MK_ERR_RANGE);
    c->tracks[0].values[4] = 0;
    CHECK(mk_track_clip_validate(c, &err) == MK_OK);
    mk_track_clip_destroy(c);
    CHECK(mk_track_clip_create(NULL, 0, NULL, &c, &err) == MK_OK && c->track_count == 0);
    CHECK(mk_track_clip_validate(c, &err) == MK_OK && mk_track_clip_duration(c) == 0);
    mk_track_clip_state st;
    mk_track_clip_state_init(&st, c, true, NULL);
    mk_track_clip_state_advance(&st, 12345);
    CHECK_EQ_INT(st.time_us, 0);
    mk_track_clip_destroy(c);
    CHECK(strcmp(mk_interpolation_name(MK_INTERPOLATION_CUBICSPLINE), "cubicspline") == 0);
    CHECK(strcmp(mk_track_path_name(MK_TRACK_WEIGHTS), "weights") == 0);
}

/* validate only reads: the whole block is byte-identical afterwards (it once
 * stored the duration), and a looping clip whose validate was skipped still
 * loops at its last key time. */
static void test_validate_does_not_write_and_loop_needs_no_validate(void)
{
    mk_track_desc d[2] = {{MK_TRACK_WEIGHTS, MK_INTERPOLATION_LINEAR, 0, 2, 1},
                          {MK_TRACK_SCALE, MK_INTERPOLATION_STEP, 0, 3, 3}};
    mk_track_clip *c = NULL;
    mk_error err;
    CHECK(mk_track_clip_create(d, 2, NULL, &c, &err) == MK_OK);
    if (!c)
        return;
    c->tracks[0].times_us[0] = 0;
    c->tracks[0].times_us[1] = 2000000; /* 2 s: weight 0 -> 1 */
    c->tracks[0].values[1] = 1.0f;
    c->tracks[1].times_us[0] = 0;
    c->tracks[1].times_us[1] = 1000;
    c->tracks[1].times_us[2] = 1500000;
    uint32_t cursors[2];
    mk_track_clip_state st;
    CHECK(mk_track_clip_state_init(&st, c, true, cursors) == MK_OK);
    CHECK_EQ_INT(st.duration_us, 2000000);
    CHECK(mk_track_clip_state_advance(&st, 5500000) == MK_OK); /* 2 loops + 1.5 s */
    CHECK_EQ_INT(st.time_us, 1500000);
    float out[4];
    mk_track_clip_state_sample(&st, out);
    CHECK(out[0] == 0.75f);
    unsigned char *copy = malloc(c->byte_size);
    memcpy(copy, c, c->byte_size);
    CHECK(mk_track_clip_validate(c, &err) == MK_OK);
    CHECK(memcmp(copy, c, c->byte_size) == 0);
    free(copy);
    CHECK_EQ_INT(mk_track_clip_duration(c), 2000000);
    CHECK_EQ_INT(mk_track_clip_duration(NULL), 0);
    /* misuse: an error and no change */
    CHECK(mk_track_clip_state_advance(&st, -1) == MK_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(st.time_us, 1500000);
    CHECK(mk_track_clip_state_advance(NULL, 1) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_track_clip_state_init(&st, c, true, NULL) == MK_ERR_INVALID_ARGUMENT);
    CHECK(st.clip == c && st.time_us == 1500000);
    CHECK(mk_track_clip_state_init(NULL, c, true, cursors) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_track_clip_validate(NULL, &err) == MK_ERR_INVALID_ARGUMENT);
    mk_track_clip_destroy(c);
}

MK_TEST_MAIN(MK_TEST(test_step_weights), MK_TEST(test_linear_weights), MK_TEST(test_cubic_weights),
             MK_TEST(test_rotation_slerp_and_cubic), MK_TEST(test_cursor_matches_search),
             MK_TEST(test_state_loops_and_holds), MK_TEST(test_validate_and_create_errors),
             MK_TEST(test_validate_does_not_write_and_loop_needs_no_validate))
