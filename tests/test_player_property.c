/* Slicing invariance (random slicings of the same script give the same
 * state and the same events) and long runs that must not drift. */
#include <stdint.h>

#include "test_player_util.h"

/* A small fixed-seed generator, so failures reproduce. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static mk_clip_set *mixed_set(void)
{
    static const int64_t da[4] = {100 * MS, 37 * MS, 250 * MS, 61 * MS};
    static const bool nba[4] = {false, true, false, false};
    static const mk_clip_event_desc ea[3] = {{0, "a0"}, {2, "a2"}, {3, "a3"}};
    static const int64_t db[3] = {80 * MS, 80 * MS, 33 * MS};
    static const mk_clip_event_desc eb[2] = {{0, "b0"}, {2, "b2"}};
    static const mk_clip_event_desc ec[2] = {{1, "c1"}, {1, "c1bis"}};
    static const mk_clip_event_desc ed[1] = {{1, "d1"}};
    mk_clip_desc d[4] = {
        {.name = "A", .frame_count = 4, .durations_us = da, .no_blend = nba, .loop_frame = 2,
         .events = ea, .event_count = 3},
        {.name = "B", .frame_count = 3, .first_frame = 4, .durations_us = db, .once = true,
         .next = "C", .events = eb, .event_count = 2},
        {.name = "C", .frame_count = 3, .first_frame = 7, .frame_time_us = 45 * MS,
         .interpolation = MK_INTERPOLATION_SMOOTH, .events = ec, .event_count = 2},
        {.name = "D", .frame_count = 2, .first_frame = 10, .once = true,
         .interpolation = MK_INTERPOLATION_STEP, .events = ed, .event_count = 1},
    };
    return tp_set(d, 4);
}

/* The script: at `at_us`, request `clip` (or set speed when clip is -1). */
typedef struct cue {
    int64_t at_us;
    int clip;
    double speed;
} cue;

static const cue script[] = {
    {0, 0, 0},         {123457, 1, 0},  {130000, 3, 0},   {500001, 0, 0},  {900000, 2, 0},
    {1700000, 3, 0},   {2000000, -1, 1.5}, {2500000, 3, 0}, {2600000, 3, 0}, {3000000, -1, 0.75},
    {3100000, 1, 0},   {3100001, 0, 0}, {3100002, 1, 0},  {4000000, -1, 0}, {4500000, -1, 3.0},
    {4600000, 2, 0},   {7777777, 0, 0},
};
#define SCRIPT_END 12000000

typedef struct run_result {
    mk_player player;
    mk_pose pose;
    tp_log log;
} run_result;

/* Plays the script; max_piece 0 = one advance per interval, else random
 * pieces of 0..max_piece us. */
static void run(const mk_clip_set *set, int64_t max_piece, run_result *r)
{
    memset(r, 0, sizeof *r);
    r->log.set = set;
    mk_event_sink sink = {tp_log_fn, &r->log};
    mk_player_init(&r->player, set);
    const size_t n = sizeof script / sizeof script[0];
    for (size_t i = 0; i < n; i++) {
        if (script[i].clip >= 0)
            mk_player_play(&r->player, (uint32_t)script[i].clip, &sink);
        else
            mk_player_set_speed(&r->player, script[i].speed);
        int64_t left = (i + 1 < n ? script[i + 1].at_us : SCRIPT_END) - script[i].at_us;
        while (left > 0) {
            int64_t piece = left;
            if (max_piece > 0) {
                piece = (int64_t)(rng_next() % (uint64_t)(max_piece + 1));
                if (piece > left)
                    piece = left;
            }
            mk_player_advance(&r->player, piece, &sink);
            tp_log_flush(&r->log);
            left -= piece;
        }
    }
    mk_player_pose(&r->player, &r->pose);
}

static void check_same(const run_result *a, const run_result *b)
{
    const mk_player *p = &a->player, *q = &b->player;
    CHECK_EQ_INT(p->clip, q->clip);
    CHECK_EQ_INT(p->frame, q->frame);
    CHECK_EQ_INT(p->time_us, q->time_us);
    CHECK_EQ_INT(p->duration_us, q->duration_us);
    CHECK_EQ_INT(p->pending, q->pending);
    CHECK_EQ_INT(p->prev_frame, q->prev_frame);
    CHECK_EQ_INT(p->prev_duration_us, q->prev_duration_us);
    CHECK_EQ_INT(p->speed_q16, q->speed_q16);
    CHECK_EQ_INT(p->speed_frac, q->speed_frac);
    CHECK_EQ_INT(p->flags, q->flags);
    CHECK_EQ_INT(a->pose.count, b->pose.count);
    for (uint32_t i = 0; i < a->pose.count; i++) {
        CHECK_EQ_INT(a->pose.frames[i], b->pose.frames[i]);
        CHECK(a->pose.weights[i] == b->pose.weights[i]);
    }
    CHECK_EQ_INT(a->log.count, b->log.count);
    CHECK(strcmp(a->log.text, b->log.text) == 0);
}

static void test_random_slicings(void)
{
    mk_clip_set *set = mixed_set();
    static run_result ref, other;
    run(set, 0, &ref);
    CHECK(ref.log.count > 50); /* the script does exercise events */
    static const int64_t pieces[] = {1, 7, 999, 16667, 40000, 123456, 2000000};
    for (int trial = 0; trial < 60; trial++) {
        const int64_t maxp = pieces[trial % (int)(sizeof pieces / sizeof pieces[0])];
        if (maxp == 1 && trial > 7)
            continue; /* 1-us pieces are slow; twice is enough */
        run(set, maxp, &other);
        int before = mk_test_failures;
        check_same(&ref, &other);
        if (mk_test_failures != before) {
            fprintf(stderr, "slicing with pieces up to %lld us differs\n", (long long)maxp);
            break;
        }
    }
    mk_clip_set_destroy(set);
}

/* 24 hours at 60 Hz of a looping clip with an intro (loop to frame 1):
 * durations 110, 170, 90, 47 ms; the loop is frames 1..3 = 307 ms. */
static const int64_t long_dur[4] = {110 * MS, 170 * MS, 90 * MS, 47 * MS};

static void expect_at(int64_t total, uint32_t *frame, int64_t *t, uint64_t *frame1_entries)
{
    /* independent arithmetic: past the intro, reduce by the loop length */
    const int64_t intro = long_dur[0], loop = long_dur[1] + long_dur[2] + long_dur[3];
    int64_t r = total - intro;
    *frame1_entries = (uint64_t)(r / loop) + 1;
    r %= loop;
    uint32_t f = 1;
    while (r >= long_dur[f]) {
        r -= long_dur[f];
        f++;
    }
    *frame = f;
    *t = r;
}

static void test_24_hours_at_60hz(void)
{
    static const mk_clip_event_desc ev[1] = {{1, "loop"}};
    mk_clip_desc d[1] = {{.name = "Walk", .frame_count = 4, .durations_us = long_dur,
                          .loop_frame = 1, .events = ev, .event_count = 1}};
    mk_clip_set *set = tp_set(d, 1);
    const int64_t steps = 24LL * 3600 * 60, day = 24LL * 3600 * 1000000;
    uint32_t ef;
    int64_t et;
    uint64_t entries;

    /* an integer clock: step i ends at round(i * 1e6 / 60) us, so the day
     * adds up exactly; events counted on the way */
    mk_player p;
    tp_log log = {.set = set};
    mk_event_sink sink = {tp_log_fn, &log};
    mk_player_init(&p, set);
    mk_player_play(&p, 0, &sink);
    int64_t prev = 0;
    for (int64_t i = 1; i <= steps; i++) {
        const int64_t now = (i * 1000000 + 30) / 60;
        log.len = 0; /* keep only the count */
        mk_player_advance(&p, now - prev, &sink);
        prev = now;
    }
    CHECK_EQ_INT(prev, day);
    expect_at(day, &ef, &et, &entries);
    /* 86 400 000 000 - 110 000 = 281 432 loops of 307 000 + 266 000:
     * past frames 1 (170 000) and 2 (90 000): frame 3 at 6 000 of 47 000 */
    CHECK_EQ_INT(ef, 3);
    CHECK_EQ_INT(et, 6000);
    mk_player_state st;
    mk_player_get_state(&p, &st);
    CHECK_EQ_INT(st.frame, ef);
    CHECK_EQ_INT(st.time_us, et);
    CHECK(st.weight == (float)(6000.0 / 47000.0));
    CHECK_EQ_INT(log.count, entries);

    /* the seconds convenience rounds every 1/60 s to 16 667 us */
    mk_player_init(&p, set);
    mk_player_play(&p, 0, NULL);
    for (int64_t i = 0; i < steps; i++)
        mk_player_advance_seconds(&p, 1.0 / 60.0, NULL);
    expect_at(steps * 16667, &ef, &et, &entries);
    mk_player_get_state(&p, &st);
    CHECK_EQ_INT(st.frame, ef);
    CHECK_EQ_INT(st.time_us, et);
    CHECK(st.weight == (float)((double)et / (double)long_dur[ef]));

    /* and the whole day in one call, with and without events */
    mk_player_init(&p, set);
    mk_player_play(&p, 0, NULL);
    mk_player_advance(&p, day, NULL);
    mk_player_get_state(&p, &st);
    CHECK_EQ_INT(st.frame, 3);
    CHECK_EQ_INT(st.time_us, 6000);
    log.count = 0;
    mk_player_init(&p, set);
    mk_player_play(&p, 0, &sink);
    log.len = 0;
    mk_player_advance(&p, day, &sink);
    mk_player_get_state(&p, &st);
    CHECK_EQ_INT(st.time_us, 6000);
    expect_at(day, &ef, &et, &entries);
    CHECK_EQ_INT(log.count, entries);
    mk_clip_set_destroy(set);
}

MK_TEST_MAIN(MK_TEST(test_random_slicings), MK_TEST(test_24_hours_at_60hz))
