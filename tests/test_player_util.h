/* Helpers shared by the player tests: clip sets from descriptors, state
 * checks with readable failures. */
#ifndef TEST_PLAYER_UTIL_H
#define TEST_PLAYER_UTIL_H

#include "mk_test.h"
#include "morphkit/clip.h"
#include "morphkit/player.h"

#define MS 1000 /* microseconds per millisecond */

static inline mk_clip_set *tp_set(const mk_clip_desc *descs, uint32_t n)
{
    mk_clip_set_desc sd = {descs, n, 0};
    mk_clip_set *set = NULL;
    mk_error err;
    if (mk_clip_set_create(&sd, NULL, &set, &err) != MK_OK) {
        fprintf(stderr, "clip set: %s\n", err.message);
        exit(1);
    }
    return set;
}

/* Checks clip, frame, next (clip, frame) and weight. */
#define CHECK_STATE(p, c, f, nc, nf, w)                                                  \
    do {                                                                                 \
        mk_player_state st_;                                                             \
        mk_player_get_state((p), &st_);                                                  \
        CHECK_EQ_INT(st_.clip, (c));                                                     \
        CHECK_EQ_INT(st_.frame, (f));                                                    \
        CHECK_EQ_INT(st_.next_clip, (nc));                                               \
        CHECK_EQ_INT(st_.next_frame, (nf));                                              \
        CHECK_NEAR(st_.weight, (w), 1e-6);                                               \
    } while (0)

/* An event log as a string "Clip:frame:name ..." for easy comparison.
 * Events with repeat = n > 1 come from whole cycles skipped by one advance:
 * one cycle's events in order, each once. The log keeps such a batch and
 * writes it out as n cycles (as single reports would have come) when a
 * single event arrives or on tp_log_flush, while the text has room.
 * `count` adds every repeat at once. */
typedef struct tp_log_item {
    uint32_t clip, frame;
    const char *name;
} tp_log_item;

typedef struct tp_log {
    const mk_clip_set *set;
    char text[8192];
    size_t len;
    uint64_t count;
    tp_log_item batch[64];
    uint32_t batch_count;
    uint64_t batch_repeat;
} tp_log;

static inline void tp_log_text(tp_log *log, uint32_t clip, uint32_t frame, const char *name)
{
    int n = snprintf(log->text + log->len, sizeof log->text - log->len, "%s%s:%u:%s",
                     log->len ? " " : "", log->set->clips[clip].name, frame, name);
    if (n > 0 && (size_t)n < sizeof log->text - log->len)
        log->len += (size_t)n;
}

static inline void tp_log_flush(tp_log *log)
{
    for (uint64_t r = 0; r < log->batch_repeat && log->len + 64 < sizeof log->text; r++)
        for (uint32_t i = 0; i < log->batch_count; i++)
            tp_log_text(log, log->batch[i].clip, log->batch[i].frame, log->batch[i].name);
    log->batch_count = 0;
    log->batch_repeat = 0;
}

static inline void tp_log_fn(void *user, const mk_player_event *e)
{
    tp_log *log = (tp_log *)user;
    log->count += e->repeat;
    if (e->repeat == 1 || e->repeat != log->batch_repeat)
        tp_log_flush(log);
    if (e->repeat == 1) {
        tp_log_text(log, e->clip, e->frame, e->name);
        return;
    }
    log->batch_repeat = e->repeat;
    if (log->batch_count < 64)
        log->batch[log->batch_count++] = (tp_log_item){e->clip, e->frame, e->name};
}

#endif
