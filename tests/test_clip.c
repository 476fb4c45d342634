/* Clip sets: packing into one allocation, defaults, lookup, events order,
 * derived lengths, and every descriptor error. */
#include <stdint.h>

#include "mk_test.h"
#include "morphkit/clip.h"

typedef struct counting {
    int allocs, frees;
    size_t bytes;
} counting;

static void *c_alloc(void *user, size_t size)
{
    counting *c = user;
    c->allocs++;
    c->bytes += size;
    return malloc(size);
}

static void c_free(void *user, void *ptr, size_t size)
{
    counting *c = user;
    (void)size;
    c->frees++;
    free(ptr);
}

static void test_one_allocation_and_contents(void)
{
    counting cnt = {0, 0, 0};
    mk_allocator al = {c_alloc, NULL, c_free, &cnt};
    static const int64_t dur[3] = {10, 20, 30};
    static const bool nb[3] = {false, true, false};
    static const mk_clip_event_desc ev[4] = {{2, "z"}, {0, "a"}, {2, "y"}, {1, "m"}};
    static const uint32_t frames[2] = {7, 3};
    mk_clip_desc d[3] = {
        {.name = "Walk", .frame_count = 3, .first_frame = 0, .durations_us = dur, .no_blend = nb,
         .loop_frame = 1, .events = ev, .event_count = 4},
        {.name = "Attack", .frame_count = 2, .frames = frames, .once = true, .next = "Walk",
         .interpolation = MK_INTERPOLATION_SMOOTH},
        {.name = "Die", .frame_count = 4, .first_frame = 3, .frame_time_us = 5000, .once = true},
    };
    mk_clip_set_desc sd = {d, 3, 8};
    mk_clip_set *set = NULL;
    mk_error err;
    CHECK_EQ_INT(mk_clip_set_create(&sd, &al, &set, &err), MK_OK);
    CHECK_EQ_INT(cnt.allocs, 1);
    CHECK_EQ_INT(set->clip_count, 3);
    const mk_clip *w = &set->clips[0], *a = &set->clips[1], *x = &set->clips[2];
    CHECK(strcmp(w->name, "Walk") == 0);
    CHECK_EQ_INT(w->frames[2], 2);
    CHECK_EQ_INT(w->durations_us[1], 20);
    CHECK_EQ_INT(w->frame_flags[1], MK_CLIP_FRAME_NO_BLEND);
    CHECK_EQ_INT(w->frame_flags[0], 0);
    CHECK_EQ_INT(w->cycle_us, 50);
    CHECK_EQ_INT(w->length_us, 60);
    CHECK(w->loop_has_events);
    /* events by frame, input order kept within a frame */
    CHECK_EQ_INT(w->event_count, 4);
    CHECK(strcmp(w->events[0].name, "a") == 0);
    CHECK(strcmp(w->events[1].name, "m") == 0);
    CHECK(strcmp(w->events[2].name, "z") == 0);
    CHECK(strcmp(w->events[3].name, "y") == 0);
    CHECK_EQ_INT(w->event_first[2], 2);
    CHECK_EQ_INT(w->event_first[3], 4);
    CHECK_EQ_INT(a->frames[0], 7);
    CHECK_EQ_INT(a->next_clip, 0);
    CHECK_EQ_INT(a->durations_us[0], MK_CLIP_DEFAULT_FRAME_TIME_US);
    CHECK_EQ_INT(a->interpolation, MK_INTERPOLATION_SMOOTH);
    CHECK_EQ_INT(a->length_us, 2 * MK_CLIP_DEFAULT_FRAME_TIME_US); /* next: last frame counts */
    CHECK_EQ_INT(x->length_us, 15000); /* held last frame does not count */
    CHECK_EQ_INT(x->next_clip, MK_NONE);
    CHECK_EQ_INT(mk_clip_set_find(set, "Die"), 2);
    CHECK_EQ_INT(mk_clip_set_find(set, "die"), MK_NONE);
    CHECK(strcmp(mk_interpolation_name(MK_INTERPOLATION_STEP), "step") == 0);
    mk_clip_set_destroy(set);
    CHECK_EQ_INT(cnt.frees, 1);
}

static void expect_error(mk_clip_desc *d, uint32_t n, uint32_t fs_count, mk_status code,
                         const char *text)
{
    mk_clip_set_desc sd = {d, n, fs_count};
    mk_clip_set *set = (mk_clip_set *)&sd; /* must be reset to NULL */
    mk_error err;
    CHECK_EQ_INT(mk_clip_set_create(&sd, NULL, &set, &err), code);
    CHECK(set == NULL);
    CHECK_CONTAINS(err.message, text);
}

static void test_errors(void)
{
    static const int64_t bad_dur[2] = {10, 0};
    static const mk_clip_event_desc bad_ev[1] = {{5, "x"}};
    mk_clip_desc d[2] = {{.name = "A", .frame_count = 2}, {.name = "B", .frame_count = 2}};
    expect_error(d, 0, 0, MK_ERR_INVALID_ARGUMENT, "needs clips");
    d[1].name = "A";
    expect_error(d, 2, 0, MK_ERR_INVALID_ARGUMENT, "used twice");
    d[1].name = NULL;
    expect_error(d, 2, 0, MK_ERR_INVALID_ARGUMENT, "no name");
    d[1].name = "B";
    d[1].frame_count = 0;
    expect_error(d, 2, 0, MK_ERR_INVALID_ARGUMENT, "no frames");
    d[1].frame_count = 2;
    d[0].durations_us = bad_dur;
    expect_error(d, 2, 0, MK_ERR_INVALID_ARGUMENT, "duration 0 us");
    d[0].durations_us = NULL;
    d[0].loop_frame = 2;
    expect_error(d, 2, 0, MK_ERR_INVALID_ARGUMENT, "loop frame 2");
    d[0].loop_frame = 0;
    d[0].next = "B";
    expect_error(d, 2, 0, MK_ERR_INVALID_ARGUMENT, "needs once");
    d[0].once = true;
    d[0].next = "C";
    expect_error(d, 2, 0, MK_ERR_NOT_FOUND, "'C' does not exist");
    d[0].next = NULL;
    d[1].events = bad_ev;
    d[1].event_count = 1;
    expect_error(d, 2, 0, MK_ERR_INVALID_ARGUMENT, "event on frame 5");
    d[1].event_count = 0;
    d[1].first_frame = 9;
    expect_error(d, 2, 10, MK_ERR_RANGE, "frame-set index 10");
    d[1].interpolation = (mk_interpolation)7;
    d[1].first_frame = 0;
    expect_error(d, 2, 10, MK_ERR_INVALID_ARGUMENT, "interpolation");
}

MK_TEST_MAIN(MK_TEST(test_one_allocation_and_contents), MK_TEST(test_errors))
