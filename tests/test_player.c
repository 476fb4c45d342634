/* The player rules of player.h and docs/player.md, each with hand-computed expectations.
 * Times are in ms (x MS for microseconds); weights are t / D. */
#include <stdint.h>

#include "test_player_util.h"

#define A 0u
#define B 1u
#define C 2u

static void test_size_and_rest(void)
{
    CHECK(sizeof(mk_player) <= 64);
    mk_clip_desc d[1] = {{.name = "A", .frame_count = 3}};
    mk_clip_set *set = tp_set(d, 1);
    mk_player p;
    mk_player_init(&p, set);
    mk_player_state st;
    mk_player_get_state(&p, &st);
    CHECK_EQ_INT(st.clip, MK_NONE);
    mk_pose pose;
    mk_player_pose(&p, &pose);
    CHECK_EQ_INT(pose.count, 0);
    mk_player_advance(&p, 500 * MS, NULL); /* at rest: nothing happens */
    CHECK_EQ_INT(mk_player_clip(&p), MK_NONE);
    CHECK(mk_player_play_name(&p, "a", NULL) == MK_ERR_NOT_FOUND); /* names are case-sensitive */
    CHECK(mk_player_play_name(&p, "A", NULL) == MK_OK);
    CHECK_STATE(&p, A, 0, A, 1, 0.0);
    mk_clip_set_destroy(set);
}

static void test_default_frame_time_and_loop(void)
{
    /* 3 frames of the default 100 ms, looping to the first */
    mk_clip_desc d[1] = {{.name = "A", .frame_count = 3, .first_frame = 5}};
    mk_clip_set *set = tp_set(d, 1);
    mk_player p;
    mk_player_init(&p, set);
    mk_player_play(&p, A, NULL);
    mk_pose pose;
    mk_player_pose(&p, &pose);
    CHECK_EQ_INT(pose.count, 2);
    CHECK_EQ_INT(pose.frames[0], 5);
    CHECK_EQ_INT(pose.frames[1], 6);
    CHECK_NEAR(pose.weights[0], 1.0, 0);
    CHECK_NEAR(pose.weights[1], 0.0, 0);
    mk_player_advance(&p, 25 * MS, NULL);
    CHECK_STATE(&p, A, 0, A, 1, 0.25);
    mk_player_pose(&p, &pose);
    CHECK_NEAR(pose.weights[0], 0.75, 1e-7);
    CHECK_NEAR(pose.weights[1], 0.25, 1e-7);
    mk_player_advance(&p, 75 * MS, NULL); /* t = 100: frame 1 at weight 0 */
    CHECK_STATE(&p, A, 1, A, 2, 0.0);
    mk_player_advance(&p, 150 * MS, NULL); /* t = 250: frame 2, 50/100 */
    CHECK_STATE(&p, A, 2, A, 0, 0.5);
    mk_player_pose(&p, &pose);
    CHECK_EQ_INT(pose.frames[0], 7);
    CHECK_EQ_INT(pose.frames[1], 5);
    mk_player_advance(&p, 50 * MS, NULL); /* t = 300: back at frame 0 */
    CHECK_STATE(&p, A, 0, A, 1, 0.0);
    mk_clip_set_destroy(set);
}

static void test_per_frame_durations(void)
{
    const int64_t dur[3] = {100 * MS, 200 * MS, 300 * MS};
    mk_clip_desc d[1] = {{.name = "A", .frame_count = 3, .durations_us = dur}};
    mk_clip_set *set = tp_set(d, 1);
    mk_player p;
    mk_player_init(&p, set);
    mk_player_play(&p, A, NULL);
    mk_player_advance(&p, 99 * MS, NULL);
    CHECK_STATE(&p, A, 0, A, 1, 0.99);
    mk_player_advance(&p, 1 * MS, NULL); /* 100 */
    CHECK_STATE(&p, A, 1, A, 2, 0.0);
    mk_player_advance(&p, 150 * MS, NULL); /* 250: 150 / 200 */
    CHECK_STATE(&p, A, 1, A, 2, 0.75);
    mk_player_advance(&p, 50 * MS, NULL); /* 300 */
    CHECK_STATE(&p, A, 2, A, 0, 0.0);
    mk_player_advance(&p, 100 * MS, NULL); /* 400: 100 / 300 */
    CHECK_STATE(&p, A, 2, A, 0, 1.0 / 3.0);
    mk_player_advance(&p, 200 * MS + 600 * MS * 10 + 1 * MS, NULL); /* 10 loops + 1 ms */
    CHECK_STATE(&p, A, 0, A, 1, 0.01);
    mk_clip_set_destroy(set);
}

static void test_loop_to_middle_frame(void)
{
    /* frames 0 1 2 3, loop to 2: 0 1 2 3 2 3 2 3 ... */
    mk_clip_desc d[1] = {{.name = "A", .frame_count = 4, .loop_frame = 2}};
    mk_clip_set *set = tp_set(d, 1);
    CHECK_EQ_INT(set->clips[0].cycle_us, 200 * MS);
    mk_player p;
    mk_player_init(&p, set);
    mk_player_play(&p, A, NULL);
    static const uint32_t expect[] = {0, 1, 2, 3, 2, 3, 2, 3, 2};
    for (int i = 0; i < 9; i++) {
        CHECK_EQ_INT(mk_player_frame(&p), expect[i]);
        mk_player_advance(&p, 100 * MS, NULL);
    }
    mk_player_init(&p, set);
    mk_player_play(&p, A, NULL);
    mk_player_advance(&p, 350 * MS, NULL); /* frame 3 halfway to 2 */
    CHECK_STATE(&p, A, 3, A, 2, 0.5);
    /* a long jump: 1 000 001 loops later + 0.7 frame -> frame 2 at 0.7 */
    mk_player_advance(&p, 50 * MS + 200 * MS * 1000001LL + 70 * MS, NULL);
    CHECK_STATE(&p, A, 2, A, 3, 0.7);
    mk_clip_set_destroy(set);
}

static void test_once_without_next(void)
{
    mk_clip_desc d[1] = {{.name = "A", .frame_count = 3, .once = true}};
    mk_clip_set *set = tp_set(d, 1);
    CHECK_EQ_INT(set->clips[0].length_us, 200 * MS);
    mk_player p;
    mk_player_init(&p, set);
    mk_player_play(&p, A, NULL);
    mk_player_advance(&p, 150 * MS, NULL);
    CHECK_STATE(&p, A, 1, A, 2, 0.5);
    CHECK(!mk_player_finished(&p));
    mk_player_advance(&p, 50 * MS, NULL); /* 200: the last frame becomes current: finished */
    CHECK_STATE(&p, A, 2, A, 2, 0.0);
    CHECK(mk_player_finished(&p));
    mk_pose pose;
    mk_player_pose(&p, &pose);
    CHECK_EQ_INT(pose.count, 1);
    CHECK_EQ_INT(pose.frames[0], 2);
    CHECK_NEAR(pose.weights[0], 1.0, 0);
    mk_player_advance(&p, 10000 * MS, NULL);
    CHECK_STATE(&p, A, 2, A, 2, 0.0);
    CHECK(mk_player_finished(&p));
    /* one advance straight past the end lands on the same state */
    mk_player_init(&p, set);
    mk_player_play(&p, A, NULL);
    mk_player_advance(&p, 12345 * MS, NULL);
    CHECK_STATE(&p, A, 2, A, 2, 0.0);
    CHECK(mk_player_finished(&p));
    mk_clip_set_destroy(set);
}

static void test_once_with_next(void)
{
    mk_clip_desc d[2] = {
        {.name = "A", .frame_count = 2, .once = true, .next = "B"},
        {.name = "B", .frame_count = 2, .first_frame = 2},
    };
    mk_clip_set *set = tp_set(d, 2);
    mk_player p;
    mk_player_init(&p, set);
    mk_player_play(&p, A, NULL);
    mk_player_advance(&p, 100 * MS, NULL);
    CHECK_STATE(&p, A, 1, B, 0, 0.0); /* the last frame blends towards B's first */
    mk_player_advance(&p, 40 * MS, NULL);
    CHECK_STATE(&p, A, 1, B, 0, 0.4);
    mk_pose pose;
    mk_player_pose(&p, &pose);
    CHECK_EQ_INT(pose.frames[0], 1);
    CHECK_EQ_INT(pose.frames[1], 2);
    mk_player_advance(&p, 60 * MS, NULL); /* 200: B starts */
    CHECK_STATE(&p, B, 0, B, 1, 0.0);
    CHECK(!mk_player_finished(&p));
    mk_player_advance(&p, 250 * MS, NULL); /* B0 200, B1 300, B0 400: 450 = B0 + 50 */
    CHECK_STATE(&p, B, 0, B, 1, 0.5);
    mk_player_advance(&p, 100 * MS, NULL); /* 550 = B1 + 50, blending back to B0 */
    CHECK_STATE(&p, B, 1, B, 0, 0.5);
    mk_clip_set_destroy(set);
}

static void test_no_blend(void)
{
    const bool nb[3] = {false, true, false};
    const int64_t dur[3] = {100 * MS, 200 * MS, 100 * MS};
    mk_clip_desc d[1] = {{.name = "A", .frame_count = 3, .durations_us = dur, .no_blend = nb}};
    mk_clip_set *set = tp_set(d, 1);
    mk_player p;
    mk_player_init(&p, set);
    mk_player_play(&p, A, NULL);
    mk_player_advance(&p, 100 * MS, NULL);
    CHECK_STATE(&p, A, 1, A, 2, 0.0);
    mk_player_advance(&p, 150 * MS, NULL); /* held: weight stays 0 */
    CHECK_STATE(&p, A, 1, A, 2, 0.0);
    mk_pose pose;
    mk_player_pose(&p, &pose);
    CHECK_EQ_INT(pose.count, 1);
    CHECK_EQ_INT(pose.frames[0], 1);
    mk_player_advance(&p, 50 * MS, NULL); /* 300: cut to frame 2 */
    CHECK_STATE(&p, A, 2, A, 0, 0.0);
    mk_player_advance(&p, 50 * MS, NULL); /* frame 2 blends normally */
    CHECK_STATE(&p, A, 2, A, 0, 0.5);
    mk_player_pose(&p, &pose);
    CHECK_EQ_INT(pose.count, 2);
    mk_clip_set_destroy(set);
}

static void test_step_interpolation(void)
{
    mk_clip_desc d[1] = {
        {.name = "A", .frame_count = 3, .interpolation = MK_INTERPOLATION_STEP}};
    mk_clip_set *set = tp_set(d, 1);
    mk_player p;
    mk_player_init(&p, set);
    mk_player_play(&p, A, NULL);
    mk_player_advance(&p, 50 * MS, NULL);
    CHECK_STATE(&p, A, 0, A, 1, 0.0);
    mk_pose pose;
    mk_player_pose(&p, &pose);
    CHECK_EQ_INT(pose.count, 1);
    CHECK_EQ_INT(pose.frames[0], 0);
    mk_player_advance(&p, 199 * MS, NULL); /* 249 */
    CHECK_STATE(&p, A, 2, A, 0, 0.0);
    mk_player_advance(&p, 51 * MS, NULL); /* 300 */
    CHECK_STATE(&p, A, 0, A, 1, 0.0);
    mk_clip_set_destroy(set);
}

static mk_clip_set *three_clips(void)
{
    static const bool nb[3] = {false, true, false};
    static const int64_t dur[3] = {100 * MS, 200 * MS, 100 * MS};
    mk_clip_desc d[3] = {
        {.name = "A", .frame_count = 3, .durations_us = dur, .no_blend = nb},
        {.name = "B", .frame_count = 2, .first_frame = 3},
        {.name = "C", .frame_count = 2, .first_frame = 5, .once = true},
    };
    return tp_set(d, 3);
}

static void test_switch_mid_blend(void)
{
    mk_clip_set *set = three_clips();
    mk_player p;
    mk_player_init(&p, set);
    mk_player_play(&p, A, NULL);
    mk_player_advance(&p, 30 * MS, NULL);
    mk_player_play(&p, B, NULL); /* frame 0's blend to 1 finishes first */
    CHECK_EQ_INT(mk_player_pending(&p), B);
    CHECK_STATE(&p, A, 0, A, 1, 0.3);
    mk_player_advance(&p, 69 * MS, NULL); /* 99 */
    CHECK_STATE(&p, A, 0, A, 1, 0.99);
    mk_pose pose;
    mk_player_pose(&p, &pose);
    CHECK_EQ_INT(pose.frames[1], 1); /* still blending towards A's frame 1 */
    mk_player_advance(&p, 1 * MS, NULL); /* 100: B starts instead of A1 */
    CHECK_STATE(&p, B, 0, B, 1, 0.0);
    CHECK_EQ_INT(mk_player_pending(&p), MK_NONE);
    mk_player_advance(&p, 50 * MS, NULL);
    CHECK_STATE(&p, B, 0, B, 1, 0.5);
    /* the same in one advance that crosses the switch */
    mk_player_init(&p, set);
    mk_player_play(&p, A, NULL);
    mk_player_advance(&p, 30 * MS, NULL);
    mk_player_play(&p, B, NULL);
    mk_player_advance(&p, 120 * MS, NULL);
    CHECK_STATE(&p, B, 0, B, 1, 0.5);
    mk_clip_set_destroy(set);
}

static void test_switch_during_no_blend(void)
{
    mk_clip_set *set = three_clips();
    mk_player p;
    mk_player_init(&p, set);
    mk_player_play(&p, A, NULL);
    mk_player_advance(&p, 150 * MS, NULL); /* A1 (no-blend, 200 ms) at 50 */
    mk_player_play(&p, B, NULL);
    mk_player_advance(&p, 149 * MS, NULL); /* 299: the hold finishes first */
    CHECK_STATE(&p, A, 1, A, 2, 0.0);
    mk_player_advance(&p, 1 * MS, NULL); /* 300 */
    CHECK_STATE(&p, B, 0, B, 1, 0.0);
    mk_clip_set_destroy(set);
}

static void test_replaced_request(void)
{
    mk_clip_set *set = three_clips();
    mk_player p;
    mk_player_init(&p, set);
    mk_player_play(&p, A, NULL);
    mk_player_advance(&p, 10 * MS, NULL);
    mk_player_play(&p, B, NULL);
    mk_player_advance(&p, 10 * MS, NULL);
    mk_player_play(&p, C, NULL); /* replaces B */
    CHECK_EQ_INT(mk_player_pending(&p), C);
    mk_player_advance(&p, 80 * MS, NULL);
    CHECK_STATE(&p, C, 0, C, 1, 0.0);
    mk_clip_set_destroy(set);
}

static void test_request_for_playing_clip(void)
{
    mk_clip_set *set = three_clips();
    mk_player p;
    mk_player_init(&p, set);
    mk_player_play(&p, B, NULL);
    mk_player_advance(&p, 50 * MS, NULL);
    mk_player_play(&p, B, NULL); /* does nothing: no restart */
    CHECK_STATE(&p, B, 0, B, 1, 0.5);
    CHECK_EQ_INT(mk_player_pending(&p), MK_NONE);
    mk_player_play(&p, A, NULL);
    mk_player_play(&p, B, NULL); /* the standing request is B, still playing: cancels A */
    CHECK_EQ_INT(mk_player_pending(&p), MK_NONE);
    mk_player_advance(&p, 50 * MS, NULL);
    CHECK_STATE(&p, B, 1, B, 0, 0.0);
    mk_clip_set_destroy(set);
}

static void test_finished_once_switches_at_once(void)
{
    mk_clip_set *set = three_clips();
    mk_player p;
    mk_player_init(&p, set);
    mk_player_play(&p, C, NULL);
    mk_player_advance(&p, 100 * MS, NULL);
    CHECK(mk_player_finished(&p));
    CHECK_STATE(&p, C, 1, C, 1, 0.0);
    mk_player_play(&p, B, NULL); /* no segment to wait for */
    CHECK_STATE(&p, B, 0, B, 1, 0.0);
    CHECK(!mk_player_finished(&p));
    CHECK_EQ_INT(mk_player_pending(&p), MK_NONE);
    /* a request made while the once clip still plays waits for the segment */
    mk_player_init(&p, set);
    mk_player_play(&p, C, NULL);
    mk_player_advance(&p, 40 * MS, NULL);
    mk_player_play(&p, B, NULL);
    CHECK_STATE(&p, C, 0, C, 1, 0.4);
    mk_player_advance(&p, 60 * MS, NULL); /* at 100 B replaces C's last frame */
    CHECK_STATE(&p, B, 0, B, 1, 0.0);
    CHECK(!mk_player_finished(&p));
    mk_clip_set_destroy(set);
}

static void test_restart_finished_once(void)
{
    static const mk_clip_event_desc ev[2] = {{0, "start"}, {1, "end"}};
    mk_clip_desc d[1] = {{.name = "C", .frame_count = 2, .once = true, .events = ev,
                          .event_count = 2}};
    mk_clip_set *set = tp_set(d, 1);
    tp_log log = {.set = set};
    mk_event_sink sink = {tp_log_fn, &log};
    mk_player p;
    mk_player_init(&p, set);
    mk_player_play(&p, 0, &sink);
    mk_player_advance(&p, 100 * MS, &sink);
    CHECK(mk_player_finished(&p));
    mk_player_play(&p, 0, &sink); /* restarts */
    CHECK_STATE(&p, 0, 0, 0, 1, 0.0);
    CHECK(!mk_player_finished(&p));
    mk_player_play(&p, 0, &sink); /* now it plays: nothing */
    mk_player_advance(&p, 60 * MS, &sink);
    CHECK_STATE(&p, 0, 0, 0, 1, 0.6);
    mk_player_advance(&p, 40 * MS, &sink);
    CHECK(mk_player_finished(&p));
    tp_log_flush(&log);
    CHECK_CONTAINS(log.text, "C:0:start C:1:end C:0:start C:1:end");
    CHECK_EQ_INT(log.count, 4);
    mk_clip_set_destroy(set);
}

static void test_events(void)
{
    static const mk_clip_event_desc ev[4] = {{2, "c"}, {0, "a1"}, {1, "b"}, {0, "a2"}};
    static const mk_clip_event_desc evb[1] = {{0, "b0"}};
    mk_clip_desc d[2] = {
        {.name = "A", .frame_count = 3, .events = ev, .event_count = 4},
        {.name = "B", .frame_count = 1, .first_frame = 3, .events = evb, .event_count = 1},
    };
    mk_clip_set *set = tp_set(d, 2);
    tp_log log = {.set = set};
    mk_event_sink sink = {tp_log_fn, &log};
    mk_player p;
    mk_player_init(&p, set);
    mk_player_play(&p, A, &sink); /* play() reports the first frame's events */
    tp_log_flush(&log);
    CHECK_CONTAINS(log.text, "A:0:a1 A:0:a2");
    CHECK_EQ_INT(log.count, 2);
    /* one advance over two loops and a bit reports every crossing in order */
    mk_player_advance(&p, 650 * MS, &sink);
    tp_log_flush(&log);
    CHECK(strcmp(log.text, "A:0:a1 A:0:a2 A:1:b A:2:c A:0:a1 A:0:a2 A:1:b A:2:c A:0:a1 "
                           "A:0:a2") == 0);
    CHECK_EQ_INT(log.count, 10);
    /* a switch reports the new clip's first frame; a 1-frame loop repeats it */
    mk_player_play(&p, B, &sink);
    mk_player_advance(&p, 50 * MS + 300 * MS, &sink);
    CHECK_EQ_INT(log.count, 14);
    tp_log_flush(&log);
    CHECK_CONTAINS(log.text, "A:0:a2 B:0:b0 B:0:b0 B:0:b0 B:0:b0");
    /* no sink: nothing reported, state the same */
    mk_player_advance(&p, 1000 * MS, NULL);
    CHECK_EQ_INT(log.count, 14);
    /* the array sink, too small: the rest counted as lost */
    mk_player_event items[3];
    mk_event_buffer buf = {items, 3, 0, 0};
    mk_event_sink bsink = {mk_event_buffer_push, &buf};
    mk_player_init(&p, set);
    mk_player_play(&p, A, &bsink);
    mk_player_advance(&p, 300 * MS, &bsink);
    CHECK_EQ_INT(buf.count, 3);
    CHECK_EQ_INT(buf.lost, 3);
    CHECK(strcmp(items[0].name, "a1") == 0 && items[0].event == 0);
    CHECK(strcmp(items[2].name, "b") == 0 && items[2].frame == 1 && items[2].clip == A);
    mk_clip_set_destroy(set);
}

static void test_speed(void)
{
    mk_clip_desc d[1] = {{.name = "A", .frame_count = 3}};
    mk_clip_set *set = tp_set(d, 1);
    mk_player p;
    mk_player_init(&p, set);
    CHECK_NEAR(mk_player_speed(&p), 1.0, 0);
    mk_player_play(&p, A, NULL);
    mk_player_set_speed(&p, 2.0);
    mk_player_advance(&p, 75 * MS, NULL); /* 150 ms of clip time */
    CHECK_STATE(&p, A, 1, A, 2, 0.5);
    mk_player_set_speed(&p, 0.0); /* paused */
    mk_player_advance(&p, 1000 * MS, NULL);
    CHECK_STATE(&p, A, 1, A, 2, 0.5);
    mk_player_set_speed(&p, -3.0); /* clamped to 0 */
    CHECK_NEAR(mk_player_speed(&p), 0.0, 0);
    mk_player_set_speed(&p, NAN);
    CHECK_NEAR(mk_player_speed(&p), 0.0, 0);
    mk_player_set_speed(&p, 1e9);
    CHECK_NEAR(mk_player_speed(&p), MK_PLAYER_SPEED_MAX, 0);
    /* 0.5 in 3 calls of 1 us: the half microseconds are carried */
    mk_player_init(&p, set);
    mk_player_play(&p, A, NULL);
    mk_player_set_speed(&p, 0.5);
    for (int i = 0; i < 3; i++)
        mk_player_advance(&p, 1, NULL);
    mk_player_state st;
    mk_player_get_state(&p, &st);
    CHECK_EQ_INT(st.time_us, 1); /* floor(1.5) */
    mk_player_advance(&p, 1, NULL);
    mk_player_get_state(&p, &st);
    CHECK_EQ_INT(st.time_us, 2);
    mk_clip_set_destroy(set);
}

static void test_seconds(void)
{
    mk_clip_desc d[1] = {{.name = "A", .frame_count = 3}};
    mk_clip_set *set = tp_set(d, 1);
    mk_player p;
    mk_player_init(&p, set);
    mk_player_play(&p, A, NULL);
    mk_player_advance_seconds(&p, 0.1234564, NULL); /* 123456 us */
    mk_player_state st;
    mk_player_get_state(&p, &st);
    CHECK_EQ_INT(st.frame, 1);
    CHECK_EQ_INT(st.time_us, 23456);
    mk_player_advance_seconds(&p, 0.0000005, NULL); /* rounds half up to 1 us */
    mk_player_get_state(&p, &st);
    CHECK_EQ_INT(st.time_us, 23457);
    mk_player_advance_seconds(&p, -1.0, NULL); /* ignored */
    mk_player_get_state(&p, &st);
    CHECK_EQ_INT(st.time_us, 23457);
    mk_clip_set_destroy(set);
}

static void test_next_pending_overrides_next_clip(void)
{
    mk_clip_desc d[3] = {
        {.name = "A", .frame_count = 2, .once = true, .next = "B"},
        {.name = "B", .frame_count = 2, .first_frame = 2},
        {.name = "C", .frame_count = 2, .first_frame = 4},
    };
    mk_clip_set *set = tp_set(d, 3);
    mk_player p;
    mk_player_init(&p, set);
    mk_player_play(&p, A, NULL);
    mk_player_advance(&p, 150 * MS, NULL);
    mk_player_play(&p, C, NULL);
    mk_player_advance(&p, 50 * MS, NULL);
    CHECK_STATE(&p, C, 0, C, 1, 0.0);
    mk_clip_set_destroy(set);
}

MK_TEST_MAIN(MK_TEST(test_size_and_rest), MK_TEST(test_default_frame_time_and_loop),
             MK_TEST(test_per_frame_durations), MK_TEST(test_loop_to_middle_frame),
             MK_TEST(test_once_without_next), MK_TEST(test_once_with_next),
             MK_TEST(test_no_blend), MK_TEST(test_step_interpolation),
             MK_TEST(test_switch_mid_blend), MK_TEST(test_switch_during_no_blend),
             MK_TEST(test_replaced_request), MK_TEST(test_request_for_playing_clip),
             MK_TEST(test_finished_once_switches_at_once), MK_TEST(test_restart_finished_once),
             MK_TEST(test_events), MK_TEST(test_speed), MK_TEST(test_seconds),
             MK_TEST(test_next_pending_overrides_next_clip))
