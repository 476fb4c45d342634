/* morphkit/player.h - the per-instance frame-sequence player (anim layer).
 *
 * An mk_player is a plain struct the caller owns (MK_PLAYER_SIZE = 56 bytes
 * on 64-bit targets, checked when the library is built; one per unit
 * instance, so players can live in arrays). Its fields are private: read it
 * through the functions below, which stay when the layout changes. It reads
 * an immutable mk_clip_set and never allocates, locks or does I/O. Time is
 * integer microseconds; the state after advancing by a total time T is the
 * same however T is sliced into calls.
 *
 * Rules (also in docs/player.md); clip time t runs within the current
 * frame k, whose duration is D_k:
 *  - play(A) at rest starts A at its first frame: current = 0, next = its
 *    successor, t = 0.
 *  - In frame k at t in [0, D_k) the blend weight is w = t / D_k (w = 0 for a
 *    no-blend frame, with step interpolation, or when finished). At t = D_k
 *    the successor becomes current with t = 0. The successor of the last
 *    frame is the loop frame; for a once clip with a next clip, that clip's
 *    first frame; for a once clip without one, the last frame itself.
 *  - A once clip without a next clip is FINISHED as soon as its last frame
 *    becomes current: from then on it holds that frame (next = the same
 *    frame, w = 0, one-entry pose) and time no longer changes anything. (The
 *    last frame's duration is therefore unused for such a clip.)
 *  - play(B) while A plays lets the current frame's segment finish (its
 *    blend towards its successor, or its hold for a no-blend frame); at the
 *    moment the successor would become current, B's first frame becomes
 *    current instead (t = 0). A later request replaces a pending one. A
 *    request for the clip that is playing (and not finished) does nothing
 *    except cancel a pending request. On a finished player any request,
 *    including one for the same clip (a restart), takes effect at once.
 *  - Events: every event of a frame is reported, in the clip's order, each
 *    time that frame becomes the current frame: by play() when it starts a
 *    clip at once (at rest, or when finished), and by advance() for every
 *    boundary it crosses, in time order, however many frames or loops one
 *    call crosses. Pass a sink to receive them (NULL: not reported).
 *  - Long advances skip whole cycles (a looping clip's loop, or a ring of
 *    once clips whose `next` links come back) arithmetically, so one call
 *    costs at most a walk through the frames of about two cycles (plus the
 *    frames before the cycle), plus one step per 2^52 us of caller time,
 *    whatever the time. The events of skipped cycles are reported once
 *    each, in the cycle's order, with `repeat` = the number of cycles
 *    skipped (every other report has repeat = 1): a sink that sums
 *    `repeat` counts every occurrence. At most one such batch is reported
 *    per 2^52 us (143 years) of caller time.
 *
 * Speed: a multiplier on the time given to advance, stored as a fixed-point
 * number with 16 fractional bits. The fraction of a microsecond left over by
 * each call is carried in the player, so slicing stays exact at any speed.
 * 0 pauses. Negative values and NaN are clamped to 0 (paused), values above
 * MK_PLAYER_SPEED_MAX to that maximum; the speed is rounded to the nearest
 * 1/65536.
 *
 * Smooth interpolation: the pose of frame k's segment is a cubic Hermite
 * curve in time from F_k to F_k+1 (non-uniform Catmull-Rom). The tangent at
 * each frame is the slope of the parabola through it and its two
 * neighbours, placed at their real times (so unequal durations are taken
 * into account), and the same tangent is used on both sides of the frame:
 * the curve passes through every frame and its velocity is continuous
 * across frame boundaries. The neighbours are the frames actually played:
 * the previous one is the frame that preceded this one (so a loop or a Next
 * transition is smooth too). A smooth run ends at a frame that is not
 * blended onward (a no-blend frame, the held last frame of a finished once
 * clip): the missing frame after it is taken as that frame repeated with
 * the same duration as the segment before it. A run starts after a hard cut
 * (play start, a switch, after a no-blend frame or a step clip): the missing
 * frame before it is that frame repeated. The pose then lists the 4 frames
 * (prev, k, k+1, after) with the Hermite basis weights, which sum to 1 and
 * may be negative; a repeated frame appears twice.
 *
 * Misuse is checked in every build type: the calls that change a player
 * return MK_ERR_INVALID_ARGUMENT and change nothing for a NULL player, a
 * clip id out of range, a negative (or NaN) time step. They take no
 * mk_error: each has one way to fail, named in its comment. */
#ifndef MORPHKIT_PLAYER_H
#define MORPHKIT_PLAYER_H

#include <stdbool.h>
#include <stdint.h>

#include "morphkit/clip.h"
#include "morphkit/pose.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MK_PLAYER_SPEED_MAX 1024.0

/* sizeof(mk_player) on 64-bit targets. */
#define MK_PLAYER_SIZE 56

/* One reported event. */
typedef struct mk_player_event {
    uint32_t clip;    /* clip id */
    uint32_t frame;   /* clip-local frame that became current */
    uint32_t event;   /* index into the clip's events array */
    const char *name; /* the event's name (owned by the clip set) */
    uint64_t repeat;  /* how many times it occurred: 1, or the number of whole
                         cycles skipped by a long advance (see above) */
} mk_player_event;

typedef void (*mk_player_event_fn)(void *user, const mk_player_event *event);

/* Where events go: fn(user, event) for each, in order. */
typedef struct mk_event_sink {
    mk_player_event_fn fn;
    void *user;
} mk_event_sink;

/* A ready-made sink target: a caller-provided array. Use
 * `mk_event_sink s = {mk_event_buffer_push, &buffer};`. Events beyond
 * capacity are counted in `lost` (size the buffer, or use a callback, to
 * lose none). The player never resets `count`; the caller does. */
typedef struct mk_event_buffer {
    mk_player_event *items;
    uint32_t capacity;
    uint32_t count;
    uint32_t lost;
} mk_event_buffer;

MK_API void mk_event_buffer_push(void *buffer, const mk_player_event *event);

/* Player state. The fields are private (they may change in any version);
 * only the size is public. Read a player through the functions below. */
typedef struct mk_player {
    const mk_clip_set *clips;
    int64_t time_us;          /* clip time into the current frame, < duration_us */
    int64_t duration_us;      /* the current frame's duration (cached) */
    int64_t prev_duration_us; /* smooth: time from the previous frame to this one */
    uint32_t clip;            /* current clip id, or MK_NONE at rest */
    uint32_t frame;           /* clip-local current frame */
    uint32_t pending;         /* requested clip id, or MK_NONE */
    uint32_t prev_frame;      /* smooth: frame-set index of the previous frame */
    uint32_t speed_q16;       /* speed * 65536 */
    uint16_t speed_frac;      /* leftover fraction of a microsecond, in 1/65536 */
    uint16_t flags;
} mk_player;

/* Puts the player at rest (no clip, speed 1) over a clip set, which must
 * outlive it. Required before any other call; a player may be copied.
 * MK_ERR_INVALID_ARGUMENT for a NULL player or clip set. */
MK_API mk_status mk_player_init(mk_player *player, const mk_clip_set *clips);

/* Requests clip `clip` following the rules above. sink may be NULL; it
 * receives the first frame's events when the clip starts at once.
 * MK_ERR_INVALID_ARGUMENT (nothing changes) for a NULL player or a clip id
 * >= clip_count. */
MK_API mk_status mk_player_play(mk_player *player, uint32_t clip, const mk_event_sink *sink);

/* play() by exact name. MK_ERR_NOT_FOUND (nothing changes) when the set has
 * no clip of that name; MK_ERR_INVALID_ARGUMENT for a NULL player or name. */
MK_API mk_status mk_player_play_name(mk_player *player, const char *name,
                                     const mk_event_sink *sink);

/* Advances by dt_us microseconds of caller time, scaled by the speed.
 * Reports the events of every frame that becomes current, in order. Cost:
 * O(1) while no frame boundary is crossed, one step per boundary crossed,
 * and whole cycles skipped (see above): a call of any length is bounded.
 * MK_ERR_INVALID_ARGUMENT (nothing changes) for a NULL player or dt_us < 0. */
MK_API mk_status mk_player_advance(mk_player *player, int64_t dt_us, const mk_event_sink *sink);

/* advance() with seconds, rounded to the nearest microsecond per call.
 * Rounding happens per call: 60 calls of 1/60 s advance 60 x 16667 us. Keep
 * an integer microsecond clock when many calls must add up exactly.
 * MK_ERR_INVALID_ARGUMENT (nothing changes) for a negative or NaN dt_s. */
MK_API mk_status mk_player_advance_seconds(mk_player *player, double dt_s,
                                           const mk_event_sink *sink);

/* Sets the speed multiplier (see above for clamping; a clamp is not an
 * error). MK_ERR_INVALID_ARGUMENT for a NULL player. */
MK_API mk_status mk_player_set_speed(mk_player *player, double speed);
/* The speed (0 for a NULL player). */
MK_API double mk_player_speed(const mk_player *player);

/* The pose to show now: count 0 at rest; 1 entry for a held frame (no-blend,
 * step, finished); 2 for linear ((F_k, 1 - w), (F_next, w)); 4 for smooth
 * (see above). Frames are frame-set indices. MK_ERR_INVALID_ARGUMENT (out
 * untouched) for a NULL player or out. */
MK_API mk_status mk_player_pose(const mk_player *player, mk_pose *out);

/* A snapshot of what the player shows, for tools and tests. */
typedef struct mk_player_state {
    uint32_t clip;        /* MK_NONE at rest (all else zero then) */
    uint32_t frame;       /* clip-local current frame */
    uint32_t next_clip;   /* clip of the successor (differs from clip across Next) */
    uint32_t next_frame;  /* clip-local successor frame (the current one when finished) */
    uint32_t pending;     /* requested clip not yet started, or MK_NONE */
    bool finished;        /* holding the last frame of a finished once clip */
    float weight;         /* t / D for a blended frame; 0 when held */
    int64_t time_us;      /* clip time into the current frame */
    int64_t duration_us;  /* the current frame's duration */
} mk_player_state;

/* MK_ERR_INVALID_ARGUMENT (out untouched) for a NULL player or out. */
MK_API mk_status mk_player_get_state(const mk_player *player, mk_player_state *out);

/* Small accessors (the fields are private). A NULL player reads as at rest:
 * MK_NONE for the clip, frame and pending clip, false, 0. */
MK_API uint32_t mk_player_clip(const mk_player *player);    /* MK_NONE at rest */
MK_API uint32_t mk_player_frame(const mk_player *player);   /* clip-local; 0 at rest */
MK_API uint32_t mk_player_pending(const mk_player *player); /* requested clip, or MK_NONE */
MK_API bool mk_player_finished(const mk_player *player);
/* The blend weight w (see mk_player_state.weight). */
MK_API float mk_player_weight(const mk_player *player);

#ifdef __cplusplus
}
#endif

#endif
