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

/* An event log as a string "Clip:frame:name ..." for easy comparison. */
typedef struct tp_log {
    const mk_clip_set *set;
    char text[8192];
    size_t len;
    unsigned count;
} tp_log;

static inline void tp_log_fn(void *user, const mk_player_event *e)
{
    tp_log *log = (tp_log *)user;
    int n = snprintf(log->text + log->len, sizeof log->text - log->len, "%s%s:%u:%s",
                     log->len ? " " : "", log->set->clips[e->clip].name, e->frame, e->name);
    if (n > 0 && (size_t)n < sizeof log->text - log->len)
        log->len += (size_t)n;
    log->count++;
}

#endif
