/* morphkit/clip.h - frame-sequence clips: a unit's animations as immutable
 * runtime data (anim layer).
 *
 * A clip is an ordered list of frames (indices into the unit's mk_frame_set)
 * with one duration per frame in integer microseconds: D_k is the time from
 * frame k becoming current to its successor becoming current (the blend from
 * k to k+1). After the last frame a clip continues at its loop frame, or, if
 * it is `once`, either holds its last frame (finished) or switches to its
 * `next` clip. Frames may be `no_blend` (shown as is for their whole
 * duration, then cut to the successor). Events are names reported when their
 * frame becomes the current frame. Interpolation says how a frame blends
 * towards its successor: linear, step (no blend) or smooth (a C1 cubic
 * through the neighbouring frames; see player.h).
 *
 * A clip set holds all clips of a unit, built once from plain descriptor
 * structs (mk_clip_set_create copies everything it needs) into ONE
 * allocation; afterwards it is immutable and may be shared between threads
 * and by any number of players. Clip ids are indices into `clips`. */
#ifndef MORPHKIT_CLIP_H
#define MORPHKIT_CLIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"
#include "morphkit/interpolation.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest allowed frame duration: 2^40 us (about 12.7 days). Keeping
 * durations this small lets the player add any time step without overflow. */
#define MK_CLIP_MAX_DURATION_US ((int64_t)1 << 40)

/* Default frame duration (animation.cfg "FrameTime": 100 ms). */
#define MK_CLIP_DEFAULT_FRAME_TIME_US 100000

/* ---- descriptors (input to mk_clip_set_create; zero = default) ---------- */

typedef struct mk_clip_event_desc {
    uint32_t frame;   /* clip-local frame index, < frame_count */
    const char *name; /* non-empty; copied */
} mk_clip_event_desc;

typedef struct mk_clip_desc {
    const char *name;             /* required, non-empty, unique in the set; copied */
    uint32_t frame_count;         /* >= 1 */
    uint32_t first_frame;         /* frame-set index of frame 0 when `frames` is NULL
                                     (frames are then first_frame + k) */
    const uint32_t *frames;       /* optional: frame_count frame-set indices */
    const int64_t *durations_us;  /* optional: frame_count durations, each in
                                     1..MK_CLIP_MAX_DURATION_US; NULL: frame_time_us */
    int64_t frame_time_us;        /* 0: MK_CLIP_DEFAULT_FRAME_TIME_US */
    uint32_t loop_frame;          /* clip-local frame to continue at after the last; 0 default */
    bool once;                    /* play once instead of looping */
    const char *next;             /* with once: clip to switch to at the end; NULL: hold */
    const bool *no_blend;         /* optional: frame_count flags */
    mk_interpolation interpolation; /* 0: linear */
    const mk_clip_event_desc *events; /* event_count entries; order is kept per frame */
    uint32_t event_count;
} mk_clip_desc;

typedef struct mk_clip_set_desc {
    const mk_clip_desc *clips;
    uint32_t clip_count;          /* >= 1 */
    uint32_t frame_set_count;     /* when not 0, every frame index must be below it */
} mk_clip_set_desc;

/* ---- the runtime data ------------------------------------------------ */

/* Per-frame flag bits in mk_clip.frame_flags. */
#define MK_CLIP_FRAME_NO_BLEND 1u

typedef struct mk_clip_event {
    uint32_t frame;   /* clip-local */
    const char *name; /* points into the set's block */
} mk_clip_event;

typedef struct mk_clip {
    const char *name;
    uint32_t frame_count;
    uint32_t loop_frame;           /* clip-local; meaningful when !once */
    uint32_t next_clip;            /* with once: clip id, else MK_NONE */
    bool once;
    bool loop_has_events;          /* some event lies on a frame >= loop_frame */
    mk_interpolation interpolation;
    const uint32_t *frames;        /* frame_count frame-set indices */
    const int64_t *durations_us;   /* frame_count */
    const uint8_t *frame_flags;    /* frame_count, MK_CLIP_FRAME_* bits */
    const uint32_t *event_first;   /* frame_count + 1: frame k's events are
                                      events[event_first[k] .. event_first[k + 1]) */
    const mk_clip_event *events;   /* sorted by frame, stable */
    uint32_t event_count;
    int64_t cycle_us;              /* sum of durations from loop_frame to the last
                                      frame (the length of one loop); 0 for once */
    int64_t length_us;             /* time from frame 0 becoming current until the
                                      end: all durations, but for a once clip without
                                      next the last frame's is not counted (it is held) */
} mk_clip;

typedef struct mk_clip_set {
    uint32_t clip_count;
    const mk_clip *clips;
    uint32_t frame_set_count;      /* as given in the descriptor (0: unchecked) */
    mk_allocator allocator;
    size_t byte_size;              /* size of the one block */
} mk_clip_set;

/* Builds a clip set. Errors (nothing is allocated): MK_ERR_INVALID_ARGUMENT
 * for a missing or duplicate name, frame_count 0, a duration out of range, a
 * loop frame or event frame out of range, `next` without `once`, a bad
 * interpolation value; MK_ERR_NOT_FOUND for a `next` naming no clip;
 * MK_ERR_RANGE for a frame index >= frame_set_count; MK_ERR_LIMIT on size
 * overflow; MK_ERR_OUT_OF_MEMORY. The message names the clip. */
MK_API mk_status mk_clip_set_create(const mk_clip_set_desc *desc, const mk_allocator *allocator,
                                    mk_clip_set **out, mk_error *err);
MK_API void mk_clip_set_destroy(mk_clip_set *set);

/* Clip id by exact (case-sensitive) name, or MK_NONE. */
MK_API uint32_t mk_clip_set_find(const mk_clip_set *set, const char *name);

#ifdef __cplusplus
}
#endif

#endif
