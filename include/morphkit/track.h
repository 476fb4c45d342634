/* morphkit/track.h - keyframe tracks, track clips and a per-instance clip
 * state (runtime layer: no I/O, no allocation while sampling). These are the
 * glTF-style animations (TRS and morph weights sampled from keys); the
 * frame-sequence clips of clip.h are a different thing.
 *
 * A track is one animated value: morph weights (N floats), a translation or
 * a scale (3 floats) or a rotation quaternion (x y z w). Key times are
 * integer microseconds (the player time base); the glTF builder
 * rounds the file's float seconds to the nearest microsecond, and keys that
 * then collide are rejected by mk_track_clip_validate.
 *
 * Interpolation (glTF 2.0 Appendix C "Animation Sampler Interpolation Modes"):
 *   STEP         the value of the last key at or before t.
 *   LINEAR       (1 - s) v_k + s v_k+1 with s = (t - t_k) / (t_k+1 - t_k);
 *                rotations use slerp along the shorter arc (nlerp when the
 *                two keys are almost equal).
 *   CUBICSPLINE  each key stores in-tangent a, value v, out-tangent b
 *                (3 * components floats, in that order);
 *                p(s) = (2s^3 - 3s^2 + 1) v_k + td (s^3 - 2s^2 + s) b_k
 *                     + (-2s^3 + 3s^2) v_k+1 + td (s^3 - s^2) a_k+1,
 *                td = t_k+1 - t_k in seconds; rotations are normalized after.
 * Before the first key the first value holds, after the last key the last
 * value holds (clamped). A track with one key is constant.
 *
 * A track clip (one allocation, immutable once filled, shareable between threads)
 * is a list of tracks; its duration is the largest last key time
 * (mk_track_clip_duration), computed from the keys, never stored. Its
 * sampled output is one float array: track i writes `components` floats
 * (4 for rotations) at value_offset[i]. */
#ifndef MORPHKIT_TRACK_H
#define MORPHKIT_TRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"
#include "morphkit/interpolation.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mk_track_path {
    MK_TRACK_WEIGHTS = 0, /* components = number of morph targets */
    MK_TRACK_TRANSLATION, /* components = 3 */
    MK_TRACK_ROTATION, /* components = 4, unit quaternion x y z w */
    MK_TRACK_SCALE, /* components = 3 */
    MK_TRACK_PATH_COUNT
} mk_track_path;

typedef struct mk_track_desc {
    mk_track_path path;
    mk_interpolation interpolation;
    uint32_t target; /* what it animates (glTF: the node index); not interpreted */
    uint32_t key_count; /* >= 1 */
    uint32_t components; /* >= 1; must be 3 / 4 / 3 for translation / rotation / scale */
} mk_track_desc;

typedef struct mk_track {
    mk_track_path path;
    mk_interpolation interpolation;
    uint32_t target;
    uint32_t key_count;
    uint32_t components;
    uint32_t value_offset; /* where its sample goes in the clip output */
    int64_t *times_us; /* key_count, strictly increasing, >= 0 */
    float *values; /* key_count * components (* 3 for CUBICSPLINE: a, v, b per key) */
} mk_track;

typedef struct mk_track_clip {
    uint32_t track_count;
    mk_track *tracks;
    uint32_t output_count; /* floats one full sample writes */
    mk_allocator allocator;
    size_t byte_size;
} mk_track_clip;

/* Creates a clip with zeroed key times and values for the caller to fill;
 * loaders then check it with mk_track_clip_validate.
 * MK_ERR_INVALID_ARGUMENT for a zero key or component count, a TRS track
 * with the wrong component count or an unknown path/interpolation;
 * MK_ERR_LIMIT on size overflow; MK_ERR_OUT_OF_MEMORY. track_count may be 0. */
MK_API mk_status mk_track_clip_create(const mk_track_desc *tracks, uint32_t track_count,
                                      const mk_allocator *allocator, mk_track_clip **out,
                                      mk_error *err);
MK_API void mk_track_clip_destroy(mk_track_clip *clip);

/* Checks that key times are >= 0 and strictly increasing and that every
 * value is finite; changes nothing. The message names the track and key.
 * MK_ERR_INVALID_ARGUMENT for a NULL clip. */
MK_API mk_status mk_track_clip_validate(const mk_track_clip *clip, mk_error *err);

/* The clip's duration: the largest last key time over its tracks (0 for no
 * tracks; negative times count as 0). O(tracks); a NULL clip gives 0. */
MK_API int64_t mk_track_clip_duration(const mk_track_clip *clip);

/* Samples one track at time_us (any value; clamped to the key range) into
 * out (track->components floats). Binary search: O(log keys). */
MK_API void mk_track_sample(const mk_track *track, int64_t time_us, float *out);

/* The same with a cursor: *cursor is a key index remembered between calls
 * (start with 0). Moving forward by less than a key interval per call costs
 * O(1); jumps and backward moves fall back to a binary search. */
MK_API void mk_track_sample_cursor(const mk_track *track, int64_t time_us, uint32_t *cursor,
                                   float *out);

/* Per-instance playback of one clip: a plain struct the caller owns. The
 * cursor array (one uint32_t per track) is caller storage too, so playback
 * never allocates. */
typedef struct mk_track_clip_state {
    const mk_track_clip *clip;
    int64_t duration_us; /* mk_track_clip_duration(clip), taken at init */
    int64_t time_us; /* clip-local time, in [0, duration] (< duration when looping
                        with a positive duration) */
    bool looping; /* true: wrap at the duration; false: hold the end */
    uint32_t *cursors;
} mk_track_clip_state;

/* Starts the clip at time 0 and takes its duration from the keys (so a
 * filled clip plays right whether or not it was validated). cursors must
 * hold clip->track_count values (may be NULL when the clip has no tracks).
 * MK_ERR_INVALID_ARGUMENT (state unchanged) for a NULL state or clip, or
 * NULL cursors for a clip with tracks. */
MK_API mk_status mk_track_clip_state_init(mk_track_clip_state *state, const mk_track_clip *clip,
                                     bool looping, uint32_t *cursors);

/* Moves to time_us (negative: 0; past the end: wraps or holds). */
MK_API void mk_track_clip_state_set_time(mk_track_clip_state *state, int64_t time_us);

/* Advances by dt_us >= 0. Many small steps end in the same state as one
 * large step of their sum. MK_ERR_INVALID_ARGUMENT (state unchanged) for a
 * negative dt_us or a NULL state. */
MK_API mk_status mk_track_clip_state_advance(mk_track_clip_state *state, int64_t dt_us);

/* Samples every track at the current time into out (clip->output_count
 * floats, track i at tracks[i].value_offset). */
MK_API void mk_track_clip_state_sample(mk_track_clip_state *state, float *out);

MK_API const char *mk_track_path_name(mk_track_path path);

#ifdef __cplusplus
}
#endif

#endif
