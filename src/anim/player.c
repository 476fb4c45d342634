/* The frame-sequence player: play requests, time, events (see player.h).
 *
 * The hot path of mk_player_advance is one multiply, one add and one compare
 * against the cached duration of the current frame; everything that happens
 * at a frame boundary lives in cross(). */
#include <math.h>

#include "morphkit/player.h"

#define FLAG_FINISHED 1u

/* advance() scales caller time in parts of at most 2^52 us (143 years):
 * scale() splits each part so that no product exceeds 2^62 at the maximum
 * speed (2^26 in Q16). Splitting is invisible: the carried fraction makes
 * the result depend only on the total. A call of INT64_MAX us is 2048
 * parts. */
#define PART_US ((int64_t)1 << 52)

/* The clip layout is private, but its size is public (players live in
 * arrays): player.h states it. */
_Static_assert(sizeof(void *) != 8 || sizeof(mk_player) == MK_PLAYER_SIZE,
               "player.h states the size of mk_player");

static inline const mk_clip *clip_of(const mk_player *p, uint32_t id)
{
    return &p->clips->clips[id];
}

/* True when frame f of c, once current, finishes the clip (held for good). */
static inline bool ends_clip(const mk_clip *c, uint32_t f)
{
    return c->once && c->next_clip == MK_NONE && f + 1 == c->frame_count;
}

/* The frame that follows (clip, frame) when nothing is requested. For a
 * finishing frame it is the frame itself. */
static void successor(const mk_clip_set *set, uint32_t clip, uint32_t frame, uint32_t *out_clip,
                      uint32_t *out_frame)
{
    const mk_clip *c = &set->clips[clip];
    *out_clip = clip;
    if (frame + 1 < c->frame_count)
        *out_frame = frame + 1;
    else if (!c->once)
        *out_frame = c->loop_frame;
    else if (c->next_clip != MK_NONE) {
        *out_clip = c->next_clip;
        *out_frame = 0;
    } else
        *out_frame = frame;
}

/* A segment that does not blend: its end is a hard cut. */
static inline bool holds(const mk_clip *c, uint32_t f)
{
    return (c->frame_flags[f] & MK_CLIP_FRAME_NO_BLEND) ||
           c->interpolation == MK_INTERPOLATION_STEP;
}

/* Reports frame `frame` of clip `clip` becoming current `repeat` times. */
static void report(const mk_player *p, uint32_t clip, uint32_t frame, uint64_t repeat,
                   const mk_event_sink *sink)
{
    if (!sink || !sink->fn)
        return;
    const mk_clip *c = clip_of(p, clip);
    for (uint32_t e = c->event_first[frame]; e < c->event_first[frame + 1]; e++) {
        mk_player_event ev = {clip, frame, e, c->events[e].name, repeat};
        sink->fn(sink->user, &ev);
    }
}

/* Makes (clip, frame) current. `cut`: it was reached by a hard cut, so a
 * smooth curve starts afresh here (its previous frame is itself repeated). */
static void enter(mk_player *p, uint32_t clip, uint32_t frame, bool cut, const mk_event_sink *sink)
{
    const mk_clip *c = clip_of(p, clip);
    if (cut) {
        p->prev_frame = c->frames[frame];
        p->prev_duration_us = c->durations_us[frame];
    }
    p->clip = clip;
    p->frame = frame;
    p->duration_us = c->durations_us[frame];
    if (ends_clip(c, frame)) {
        p->flags |= FLAG_FINISHED;
        p->time_us = 0;
    }
    report(p, clip, frame, 1, sink);
}

static void start(mk_player *p, uint32_t clip, const mk_event_sink *sink)
{
    p->flags &= (uint16_t)~FLAG_FINISHED;
    p->pending = MK_NONE;
    p->time_us = 0;
    enter(p, clip, 0, true, sink);
}

/* The current frame's segment is over: make its successor (or the pending
 * clip's first frame) current. */
static void step(mk_player *p, const mk_event_sink *sink)
{
    const mk_clip *c = clip_of(p, p->clip);
    const uint32_t old_frame = c->frames[p->frame];
    const int64_t old_duration = p->duration_us;
    uint32_t clip, frame;
    bool cut = holds(c, p->frame);
    if (p->pending != MK_NONE) {
        clip = p->pending;
        frame = 0;
        p->pending = MK_NONE;
        cut = true;
    } else {
        successor(p->clips, p->clip, p->frame, &clip, &frame);
    }
    if (!cut) {
        p->prev_frame = old_frame;
        p->prev_duration_us = old_duration;
    }
    enter(p, clip, frame, cut, sink);
}

/* The frame played just before (clip, frame) when it is reached inside its
 * cycle, in *pc, *pf, and the cycle's length. A cycle is the loop of a
 * looping clip (from its loop frame on) or a ring of once clips whose
 * `next` links come back to the start; for a ring only its first frame is
 * considered (cheap enough to ask at every clip start). False when (clip,
 * frame) lies on no cycle. */
static bool cycle_at(const mk_clip_set *set, uint32_t clip, uint32_t frame, int64_t *length,
                     uint32_t *pc, uint32_t *pf)
{
    const mk_clip *c = &set->clips[clip];
    if (!c->once) {
        if (frame < c->loop_frame)
            return false;
        *length = c->cycle_us;
        *pc = clip;
        *pf = frame > c->loop_frame ? frame - 1 : c->frame_count - 1;
        return true;
    }
    if (frame != 0)
        return false;
    int64_t total = 0;
    uint32_t at = clip;
    for (uint32_t hops = 0; hops < set->clip_count; hops++) {
        const mk_clip *k = &set->clips[at];
        if (!k->once || k->next_clip == MK_NONE || total > INT64_MAX - k->length_us)
            return false;
        total += k->length_us;
        if (k->next_clip == clip) {
            *length = total;
            *pc = at;
            *pf = k->frame_count - 1;
            return true;
        }
        at = k->next_clip;
    }
    return false;
}

/* Skips whole cycles while crossing a long stretch. Legal when the state
 * now is exactly the state one cycle later: no pending request, on a cycle,
 * and the smooth-curve history (previous frame and duration) is the one the
 * cycle itself produces here. Then n cycles change nothing but the time,
 * and each event of the cycle occurred n times: it is reported once with
 * repeat = n, in the cycle's order starting after the current frame. */
static void skip_cycles(mk_player *p, const mk_event_sink *sink)
{
    int64_t length;
    uint32_t pc, pf;
    if (p->pending != MK_NONE || p->time_us < p->duration_us ||
        !cycle_at(p->clips, p->clip, p->frame, &length, &pc, &pf) || p->time_us < length)
        return;
    const mk_clip *prev = clip_of(p, pc), *c = clip_of(p, p->clip);
    const bool cut = holds(prev, pf);
    const uint32_t want_frame = cut ? c->frames[p->frame] : prev->frames[pf];
    const int64_t want_duration = cut ? c->durations_us[p->frame] : prev->durations_us[pf];
    if (p->prev_frame != want_frame || p->prev_duration_us != want_duration)
        return; /* not yet: one more walk through the cycle sets the history */
    const int64_t n = p->time_us / length;
    p->time_us -= n * length;
    if (!sink || !sink->fn)
        return;
    uint32_t clip = p->clip, frame = p->frame;
    do {
        successor(p->clips, clip, frame, &clip, &frame);
        report(p, clip, frame, (uint64_t)n, sink);
    } while (clip != p->clip || frame != p->frame);
}

/* Called with time_us >= duration_us: crosses every boundary inside. */
static void cross(mk_player *p, const mk_event_sink *sink)
{
    do {
        p->time_us -= p->duration_us;
        step(p, sink);
        if (p->flags & FLAG_FINISHED)
            return;
        skip_cycles(p, sink);
    } while (p->time_us >= p->duration_us);
}

/* Scales `part` (<= PART_US) caller microseconds by the speed: whole clip
 * microseconds are returned, the fraction stays in speed_frac. Exact:
 * part * s + frac = (part >> 16) * s * 2^16 + ((part & 0xffff) * s + frac). */
static int64_t scale(mk_player *p, int64_t part)
{
    const uint64_t u = (uint64_t)part;
    const uint64_t low = (u & 0xffffu) * p->speed_q16 + p->speed_frac;
    p->speed_frac = (uint16_t)(low & 0xffffu);
    return (int64_t)((u >> 16) * p->speed_q16 + (low >> 16));
}

void mk_event_buffer_push(void *buffer, const mk_player_event *event)
{
    mk_event_buffer *b = (mk_event_buffer *)buffer;
    if (b->count < b->capacity)
        b->items[b->count++] = *event;
    else
        b->lost++;
}

mk_status mk_player_init(mk_player *p, const mk_clip_set *clips)
{
    if (!p || !clips)
        return MK_ERR_INVALID_ARGUMENT;
    p->clips = clips;
    p->time_us = 0;
    p->duration_us = 0;
    p->prev_duration_us = 0;
    p->clip = MK_NONE;
    p->frame = 0;
    p->pending = MK_NONE;
    p->prev_frame = 0;
    p->speed_q16 = 65536;
    p->speed_frac = 0;
    p->flags = 0;
    return MK_OK;
}

mk_status mk_player_play(mk_player *p, uint32_t clip, const mk_event_sink *sink)
{
    if (!p || !p->clips || clip >= p->clips->clip_count)
        return MK_ERR_INVALID_ARGUMENT;
    if (p->clip == MK_NONE || (p->flags & FLAG_FINISHED))
        start(p, clip, sink);
    else if (clip == p->clip)
        p->pending = MK_NONE; /* the standing request is the clip playing */
    else
        p->pending = clip;
    return MK_OK;
}

mk_status mk_player_play_name(mk_player *p, const char *name, const mk_event_sink *sink)
{
    if (!p || !p->clips || !name)
        return MK_ERR_INVALID_ARGUMENT;
    uint32_t id = mk_clip_set_find(p->clips, name);
    if (id == MK_NONE)
        return MK_ERR_NOT_FOUND;
    return mk_player_play(p, id, sink);
}

mk_status mk_player_advance(mk_player *p, int64_t dt_us, const mk_event_sink *sink)
{
    if (!p || dt_us < 0)
        return MK_ERR_INVALID_ARGUMENT;
    if (p->clip == MK_NONE)
        return MK_OK;
    if (dt_us < ((int64_t)1 << 32) && !(p->flags & FLAG_FINISHED)) {
        /* the usual call: one product, exact below 2^58 */
        const uint64_t scaled = (uint64_t)dt_us * p->speed_q16 + p->speed_frac;
        p->speed_frac = (uint16_t)(scaled & 0xffffu);
        p->time_us += (int64_t)(scaled >> 16);
        if (p->time_us >= p->duration_us)
            cross(p, sink);
        return MK_OK;
    }
    while (dt_us > 0) {
        if (p->flags & FLAG_FINISHED) {
            /* Time changes nothing any more but the carried fraction, whose
             * 16 low bits a wrapping 64-bit product gives exactly. */
            p->speed_frac = (uint16_t)(((uint64_t)dt_us * p->speed_q16 + p->speed_frac) & 0xffffu);
            break;
        }
        const int64_t part = dt_us < PART_US ? dt_us : PART_US;
        dt_us -= part;
        p->time_us += scale(p, part);
        if (p->time_us >= p->duration_us)
            cross(p, sink);
    }
    return MK_OK;
}

mk_status mk_player_advance_seconds(mk_player *p, double dt_s, const mk_event_sink *sink)
{
    /* !(x >= 0) also catches NaN */
    if (!p || !(dt_s >= 0.0))
        return MK_ERR_INVALID_ARGUMENT;
    double us = floor(dt_s * 1e6 + 0.5);
    if (us > 9.2e18)
        us = 9.2e18;
    return mk_player_advance(p, (int64_t)us, sink);
}

mk_status mk_player_set_speed(mk_player *p, double speed)
{
    if (!p)
        return MK_ERR_INVALID_ARGUMENT;
    if (!(speed > 0.0)) /* negative, zero, NaN */
        speed = 0.0;
    if (speed > MK_PLAYER_SPEED_MAX)
        speed = MK_PLAYER_SPEED_MAX;
    p->speed_q16 = (uint32_t)floor(speed * 65536.0 + 0.5);
    return MK_OK;
}

double mk_player_speed(const mk_player *p)
{
    return p ? p->speed_q16 / 65536.0 : 0.0;
}

uint32_t mk_player_clip(const mk_player *p)
{
    return p ? p->clip : MK_NONE;
}

uint32_t mk_player_frame(const mk_player *p)
{
    return p ? p->frame : MK_NONE;
}

uint32_t mk_player_pending(const mk_player *p)
{
    return p ? p->pending : MK_NONE;
}

bool mk_player_finished(const mk_player *p)
{
    return p && (p->flags & FLAG_FINISHED) != 0;
}

float mk_player_weight(const mk_player *p)
{
    if (!p || p->clip == MK_NONE || (p->flags & FLAG_FINISHED) ||
        holds(clip_of(p, p->clip), p->frame))
        return 0.0f;
    return (float)((double)p->time_us / (double)p->duration_us);
}

mk_status mk_player_get_state(const mk_player *p, mk_player_state *out)
{
    if (!p || !out)
        return MK_ERR_INVALID_ARGUMENT;
    *out = (mk_player_state){MK_NONE, 0, MK_NONE, 0, MK_NONE, false, 0.0f, 0, 0};
    if (p->clip == MK_NONE)
        return MK_OK;
    out->clip = p->clip;
    out->frame = p->frame;
    successor(p->clips, p->clip, p->frame, &out->next_clip, &out->next_frame);
    out->pending = p->pending;
    out->finished = mk_player_finished(p);
    out->weight = mk_player_weight(p);
    out->time_us = p->time_us;
    out->duration_us = p->duration_us;
    return MK_OK;
}

/* ---- poses ---------------------------------------------------------------- */

/* Frame (clip, frame) ends a smooth run: the curve does not continue past it. */
static bool run_ends_at(const mk_clip_set *set, uint32_t clip, uint32_t frame)
{
    const mk_clip *c = &set->clips[clip];
    return holds(c, frame) || ends_clip(c, frame);
}

mk_status mk_player_pose(const mk_player *p, mk_pose *out)
{
    if (!p || !out)
        return MK_ERR_INVALID_ARGUMENT;
    out->count = 0;
    if (p->clip == MK_NONE)
        return MK_OK;
    const mk_clip *c = clip_of(p, p->clip);
    const uint32_t f1 = c->frames[p->frame];
    if ((p->flags & FLAG_FINISHED) || holds(c, p->frame)) {
        out->count = 1;
        out->frames[0] = f1;
        out->weights[0] = 1.0f;
        return MK_OK;
    }
    uint32_t nc, nf;
    successor(p->clips, p->clip, p->frame, &nc, &nf);
    const mk_clip *n = clip_of(p, nc);
    const uint32_t f2 = n->frames[nf];
    const double s = (double)p->time_us / (double)p->duration_us;
    if (c->interpolation != MK_INTERPOLATION_SMOOTH) {
        /* (1 - w, w) exactly, so mk_pose_eval takes the blend-kernel path */
        const float w = (float)s;
        out->count = 2;
        out->frames[0] = f1;
        out->frames[1] = f2;
        out->weights[0] = 1.0f - w;
        out->weights[1] = w;
        return MK_OK;
    }

    /* Non-uniform Catmull-Rom: Hermite segment from P1 to P2 over h1 with the
     * tangents m1, m2 of the parabolas through (P0, P1, P2) and (P1, P2, P3)
     * at their real times:
     *   m1 = a (P1 - P0) + b (P2 - P1),  a = h1 / ((h0 + h1) h0),  b = h0 / ((h0 + h1) h1)
     *   m2 = c (P2 - P1) + d (P3 - P2),  c = h2 / ((h1 + h2) h1),  d = h1 / ((h1 + h2) h2)
     *   P(s) = H00 P1 + H01 P2 + h1 H10 m1 + h1 H11 m2,  s = t / h1
     * Collecting the coefficient of each P gives the four weights (they sum
     * to 1 because the tangent terms are differences). */
    const uint32_t f0 = p->prev_frame;
    const double h0 = (double)p->prev_duration_us, h1 = (double)p->duration_us;
    uint32_t f3;
    double h2;
    if (run_ends_at(p->clips, nc, nf)) {
        f3 = f2; /* the end frame repeated */
        h2 = h1;
    } else {
        uint32_t nnc, nnf;
        successor(p->clips, nc, nf, &nnc, &nnf);
        f3 = clip_of(p, nnc)->frames[nnf];
        h2 = (double)n->durations_us[nf];
    }
    const double s2 = s * s, s3 = s2 * s;
    const double H00 = 2 * s3 - 3 * s2 + 1, H10 = s3 - 2 * s2 + s;
    const double H01 = -2 * s3 + 3 * s2, H11 = s3 - s2;
    const double ha = h1 * h1 / ((h0 + h1) * h0), hb = h0 / (h0 + h1);
    const double hc = h2 / (h1 + h2), hd = h1 * h1 / ((h1 + h2) * h2);
    out->count = 4;
    out->frames[0] = f0;
    out->frames[1] = f1;
    out->frames[2] = f2;
    out->frames[3] = f3;
    out->weights[0] = (float)(-H10 * ha);
    out->weights[1] = (float)(H00 + H10 * (ha - hb) - H11 * hc);
    out->weights[2] = (float)(H01 + H10 * hb + H11 * (hc - hd));
    out->weights[3] = (float)(H11 * hd);
    return MK_OK;
}
