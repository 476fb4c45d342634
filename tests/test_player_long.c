/* Long advances: one call of any length finishes fast and leaves exactly
 * the state (and event counts) that small steps give. The expected state
 * for a huge T comes from a hand reduction: once the player is inside its
 * cycle of length L (a sum of durations written here), T and
 * T_small = prefix + (T - prefix) mod L end in the same state, and every
 * event occurs (T - T_small) / L more times, once per cycle. T_small is
 * then walked in pieces shorter than any frame, which never skips. Also:
 * misuse answered in every build type, and the player's size. */
#include <stdint.h>
#include <time.h>

#include "test_player_util.h"

_Static_assert(sizeof(void *) != 8 || sizeof(mk_player) == MK_PLAYER_SIZE,
               "player.h states the size");

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Clip ids below. Durations are odd microsecond counts so no two cycles
 * line up by accident. */
enum { LOOP, SMOOTH, CHAIN1, CHAIN2, CHAINLOOP, RING1, RING2, STEPPY, CLIP_COUNT };

static const int64_t d_loop[5] = {1013, 377, 2503, 611, 907};
static const bool nb_loop[5] = {false, false, false, true, false};
static const mk_clip_event_desc ev_loop[5] = {
    {0, "l0"}, {2, "l2"}, {3, "l3a"}, {3, "l3b"}, {4, "l4"}};
static const int64_t d_smooth[4] = {700, 1900, 433, 1201};
static const bool nb_smooth[4] = {false, false, true, false};
static const mk_clip_event_desc ev_smooth[2] = {{1, "s1"}, {3, "s3"}};
static const int64_t d_c1[2] = {500, 800}, d_c2[3] = {300, 301, 302}, d_cl[3] = {1500, 999, 1777};
static const mk_clip_event_desc ev_c1[1] = {{1, "c1"}}, ev_cl[2] = {{0, "cl0"}, {2, "cl2"}};
static const int64_t d_r1[3] = {211, 1999, 887}, d_r2[2] = {1409, 613};
static const mk_clip_event_desc ev_r1[2] = {{0, "r10"}, {2, "r12"}}, ev_r2[1] = {{1, "r21"}};

/* The cycle each clip ends in, by hand. */
#define L_LOOP (2503 + 611 + 907)       /* loop frame 2 */
#define L_SMOOTH (1900 + 433 + 1201)    /* loop frame 1 */
#define L_CHAINLOOP (999 + 1777)        /* CHAIN1 -> CHAIN2 -> CHAINLOOP, loop frame 1 */
#define L_RING (211 + 1999 + 887 + 1409 + 613) /* RING1 -> RING2 -> RING1 */
#define L_STEPPY (3 * 555)

static mk_clip_set *long_set(void)
{
    mk_clip_desc d[CLIP_COUNT] = {
        {.name = "loop", .frame_count = 5, .durations_us = d_loop, .no_blend = nb_loop,
         .loop_frame = 2, .events = ev_loop, .event_count = 5},
        {.name = "smooth", .frame_count = 4, .first_frame = 5, .durations_us = d_smooth,
         .no_blend = nb_smooth, .loop_frame = 1, .interpolation = MK_INTERPOLATION_SMOOTH,
         .events = ev_smooth, .event_count = 2},
        {.name = "chain1", .frame_count = 2, .first_frame = 9, .durations_us = d_c1, .once = true,
         .next = "chain2", .events = ev_c1, .event_count = 1},
        {.name = "chain2", .frame_count = 3, .first_frame = 11, .durations_us = d_c2,
         .once = true, .next = "chainloop", .interpolation = MK_INTERPOLATION_SMOOTH},
        {.name = "chainloop", .frame_count = 3, .first_frame = 14, .durations_us = d_cl,
         .loop_frame = 1, .interpolation = MK_INTERPOLATION_SMOOTH, .events = ev_cl,
         .event_count = 2},
        {.name = "ring1", .frame_count = 3, .first_frame = 17, .durations_us = d_r1,
         .once = true, .next = "ring2", .interpolation = MK_INTERPOLATION_SMOOTH,
         .events = ev_r1, .event_count = 2},
        {.name = "ring2", .frame_count = 2, .first_frame = 20, .durations_us = d_r2,
         .once = true, .next = "ring1", .events = ev_r2, .event_count = 1},
        {.name = "steppy", .frame_count = 3, .first_frame = 22, .frame_time_us = 555,
         .interpolation = MK_INTERPOLATION_STEP, .events = ev_loop, .event_count = 1},
    };
    return tp_set(d, CLIP_COUNT);
}

/* A scenario: play `first`, advance `lead` us, then request `second` (or
 * none), and the cycle the player ends in. */
typedef struct scenario {
    uint32_t first;
    int64_t lead;
    uint32_t second;
    int64_t cycle;
} scenario;

static const scenario scenarios[] = {
    {LOOP, 0, MK_NONE, L_LOOP},
    {SMOOTH, 0, MK_NONE, L_SMOOTH},
    {CHAIN1, 0, MK_NONE, L_CHAINLOOP},
    {RING1, 0, MK_NONE, L_RING},
    {RING2, 5, MK_NONE, L_RING},
    {STEPPY, 0, MK_NONE, L_STEPPY},
    {LOOP, 1500, SMOOTH, L_SMOOTH},    /* a pending switch taken during the long advance */
    {SMOOTH, 2000, CHAIN1, L_CHAINLOOP},
    {STEPPY, 100, RING2, L_RING},
};

/* Per-event occurrence counts, [clip][event]. */
typedef struct counts {
    uint64_t n[CLIP_COUNT][8];
} counts;

static void count_fn(void *user, const mk_player_event *e)
{
    ((counts *)user)->n[e->clip][e->event] += e->repeat;
}

static void start(mk_player *p, const mk_clip_set *set, const scenario *s, counts *c)
{
    mk_event_sink sink = {count_fn, c};
    const mk_event_sink *k = c ? &sink : NULL;
    CHECK(mk_player_init(p, set) == MK_OK);
    CHECK(mk_player_play(p, s->first, k) == MK_OK);
    CHECK(mk_player_advance(p, s->lead, k) == MK_OK);
    if (s->second != MK_NONE)
        CHECK(mk_player_play(p, s->second, k) == MK_OK);
}

/* Advances in pieces shorter than every frame (so nothing is skipped). */
static void walk(mk_player *p, int64_t t, counts *c)
{
    mk_event_sink sink = {count_fn, c};
    while (t > 0) {
        int64_t piece = t < 97 ? t : 97;
        CHECK(mk_player_advance(p, piece, &sink) == MK_OK);
        t -= piece;
    }
}

static void check_same_player(const mk_player *a, const mk_player *b)
{
    mk_player_state sa, sb;
    mk_pose pa, pb;
    CHECK(mk_player_get_state(a, &sa) == MK_OK && mk_player_get_state(b, &sb) == MK_OK);
    CHECK(mk_player_pose(a, &pa) == MK_OK && mk_player_pose(b, &pb) == MK_OK);
    CHECK_EQ_INT(sa.clip, sb.clip);
    CHECK_EQ_INT(sa.frame, sb.frame);
    CHECK_EQ_INT(sa.time_us, sb.time_us);
    CHECK_EQ_INT(sa.pending, sb.pending);
    CHECK_EQ_INT(pa.count, pb.count);
    for (uint32_t i = 0; i < pa.count && i < MK_POSE_MAX_ENTRIES; i++)
        CHECK(pa.frames[i] == pb.frames[i] && pa.weights[i] == pb.weights[i]);
    CHECK(memcmp(a, b, sizeof *a) == 0); /* every private field, too */
}

static void test_huge_advances_match_hand_reduction(void)
{
    mk_clip_set *set = long_set();
    const int64_t huge[] = {INT64_MAX / 16, INT64_MAX, INT64_MAX - 12345, 1000000000000007,
                            (int64_t)1 << 52, ((int64_t)1 << 52) + 1, 3 * ((int64_t)1 << 52) - 1};
    for (size_t si = 0; si < sizeof scenarios / sizeof scenarios[0]; si++) {
        const scenario *s = &scenarios[si];
        /* by 20 cycles plus the frames before the cycle the player is in it */
        const int64_t prefix = 20 * s->cycle + 20000;
        mk_player base;
        counts c_base = {{{0}}};
        start(&base, set, s, &c_base);
        /* the reference cycle: walking one more L returns to the same state */
        mk_player r1 = base, r2;
        counts c1 = c_base, c2;
        walk(&r1, prefix, &c1);
        r2 = r1;
        c2 = c1;
        walk(&r2, s->cycle, &c2);
        check_same_player(&r1, &r2);
        for (size_t hi = 0; hi < sizeof huge / sizeof huge[0]; hi++) {
            const int64_t T = huge[hi];
            const int64_t reduced = prefix + (T - prefix) % s->cycle;
            const uint64_t cycles = (uint64_t)((T - reduced) / s->cycle);
            mk_player ref = base, big = base, quiet = base;
            counts c_ref = c_base, c_big = c_base;
            walk(&ref, reduced, &c_ref);
            mk_event_sink sink = {count_fn, &c_big};
            double t0 = now_ms();
            CHECK(mk_player_advance(&big, T, &sink) == MK_OK);
            CHECK(mk_player_advance(&quiet, T, NULL) == MK_OK);
            double ms = now_ms() - t0;
            if (ms >= 50.0)
                fprintf(stderr, "scenario %zu: advance(%lld) took %.1f ms\n", si, (long long)T,
                        ms);
            CHECK(ms < 50.0);
            check_same_player(&big, &ref);
            check_same_player(&quiet, &ref);
            for (int c = 0; c < CLIP_COUNT; c++)
                for (int e = 0; e < 8; e++)
                    CHECK(c_big.n[c][e] ==
                          c_ref.n[c][e] + cycles * (c2.n[c][e] - c1.n[c][e]));
        }
    }
    mk_clip_set_destroy(set);
}

/* Moderate totals with a skip inside: one call equals small steps, state
 * and the expanded event sequence (tp_log writes a batch out as cycles). */
static void test_one_call_equals_small_steps(void)
{
    mk_clip_set *set = long_set();
    static tp_log la, lb;
    for (size_t si = 0; si < sizeof scenarios / sizeof scenarios[0]; si++) {
        const scenario *s = &scenarios[si];
        for (int64_t T = 1; T < 400000; T = T * 3 + 7) {
            memset(&la, 0, sizeof la);
            memset(&lb, 0, sizeof lb);
            la.set = lb.set = set;
            mk_event_sink sa = {tp_log_fn, &la}, sb = {tp_log_fn, &lb};
            mk_player a, b;
            CHECK(mk_player_init(&a, set) == MK_OK && mk_player_init(&b, set) == MK_OK);
            mk_player_play(&a, s->first, &sa);
            mk_player_play(&b, s->first, &sb);
            mk_player_advance(&a, s->lead, &sa);
            mk_player_advance(&b, s->lead, &sb);
            if (s->second != MK_NONE) {
                mk_player_play(&a, s->second, &sa);
                mk_player_play(&b, s->second, &sb);
            }
            CHECK(mk_player_advance(&a, T, &sa) == MK_OK);
            for (int64_t left = T; left > 0; left -= 61)
                mk_player_advance(&b, left < 61 ? left : 61, &sb);
            tp_log_flush(&la);
            tp_log_flush(&lb);
            check_same_player(&a, &b);
            CHECK(la.count == lb.count);
            CHECK(strcmp(la.text, lb.text) == 0);
        }
    }
    mk_clip_set_destroy(set);
}

/* A long advance reports each event of the skipped cycles once, with the
 * number of cycles as its repeat count, so a sink is called a bounded
 * number of times. */
static void test_skipped_cycles_report_once_with_repeat(void)
{
    mk_clip_set *set = long_set();
    mk_player_event items[64];
    mk_event_buffer buf = {items, 64, 0, 0};
    mk_event_sink sink = {mk_event_buffer_push, &buf};
    mk_player p;
    mk_player_init(&p, set);
    mk_player_play(&p, LOOP, &sink); /* l0 */
    CHECK(buf.count == 1 && items[0].repeat == 1);
    /* 1013 + 377 into frame 2 (l2 reported), then 100 whole cycles */
    mk_player_advance(&p, 1013 + 377 + 100 * (int64_t)L_LOOP, &sink);
    CHECK_EQ_INT(buf.lost, 0);
    uint64_t total = 0;
    for (uint32_t i = 0; i < buf.count; i++)
        total += items[i].repeat;
    /* l2 once on entry, then l3a, l3b, l4, l2 once per cycle */
    CHECK_EQ_INT(total, 1 + 1 + 4 * 100);
    CHECK(buf.count <= 1 + 1 + 4 * 2 + 4); /* bounded: at most ~2 cycles single */
    mk_player_state st;
    mk_player_get_state(&p, &st);
    CHECK_EQ_INT(st.frame, 2);
    CHECK_EQ_INT(st.time_us, 0);
    mk_clip_set_destroy(set);
}

/* Misuse: an error and no change, in every build type. */
static void test_misuse_changes_nothing(void)
{
    mk_clip_set *set = long_set();
    mk_player p, before;
    CHECK(mk_player_init(NULL, set) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_player_init(&p, NULL) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_player_init(&p, set) == MK_OK);
    CHECK(mk_player_play(&p, LOOP, NULL) == MK_OK);
    CHECK(mk_player_advance(&p, 1500, NULL) == MK_OK);
    before = p;
    CHECK(mk_player_play(&p, CLIP_COUNT, NULL) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_player_play(&p, MK_NONE, NULL) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_player_advance(&p, -1, NULL) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_player_advance(&p, INT64_MIN, NULL) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_player_advance_seconds(&p, -0.5, NULL) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_player_advance_seconds(&p, NAN, NULL) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_player_play_name(&p, "nope", NULL) == MK_ERR_NOT_FOUND);
    CHECK(mk_player_play_name(&p, NULL, NULL) == MK_ERR_INVALID_ARGUMENT);
    CHECK(memcmp(&p, &before, sizeof p) == 0);
    CHECK(mk_player_play(NULL, 0, NULL) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_player_advance(NULL, 1, NULL) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_player_set_speed(NULL, 1.0) == MK_ERR_INVALID_ARGUMENT);
    mk_pose pose = {7, {0}, {0}};
    mk_player_state st;
    CHECK(mk_player_pose(NULL, &pose) == MK_ERR_INVALID_ARGUMENT && pose.count == 7);
    CHECK(mk_player_pose(&p, NULL) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_player_get_state(NULL, &st) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_player_clip(NULL) == MK_NONE && mk_player_pending(NULL) == MK_NONE);
    CHECK(!mk_player_finished(NULL) && mk_player_weight(NULL) == 0.0f);
    /* the accessors are real functions over the private fields */
    CHECK(mk_player_clip(&p) == LOOP && mk_player_frame(&p) == 2);
    CHECK(mk_player_play(&p, SMOOTH, NULL) == MK_OK && mk_player_pending(&p) == SMOOTH);
    mk_clip_set_destroy(set);
}

MK_TEST_MAIN(MK_TEST(test_huge_advances_match_hand_reduction),
             MK_TEST(test_one_call_equals_small_steps),
             MK_TEST(test_skipped_cycles_report_once_with_repeat),
             MK_TEST(test_misuse_changes_nothing))
