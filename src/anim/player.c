/* The frame-sequence player: play requests, time, events (see player.h).
 *
 * The hot path of mk_player_advance is one multiply, one add and one compare
 * against the cached duration of the current frame; everything that happens
 * at a frame boundary lives in cross(). */
#include <assert.h>
#include <math.h>

#include "morphkit/player.h"

#define FLAG_FINISHED 1u

/* advance() works in parts of at most 2^32 us (71 minutes) so that
 * part * speed_q16 (speed_q16 <= 2^26) cannot overflow 64 bits. Splitting is
 * invisible: the carried fraction makes the result depend only on the total. */
#define PART_US ((int64_t)1 << 32)

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

static void report(const mk_player *p, const mk_event_sink *sink)
{
    if (!sink || !sink->fn)
        return;
    const mk_clip *c = clip_of(p, p->clip);
    for (uint32_t e = c->event_first[p->frame]; e < c->event_first[p->frame + 1]; e++) {
        mk_player_event ev = {p->clip, p->frame, e, c->events[e].name};
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
    report(p, sink);
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

/* Called with time_us >= duration_us: crosses every boundary inside. */
static void cross(mk_player *p, const mk_event_sink *sink)
{
    const bool emit = sink && sink->fn;
    do {
        p->time_us -= p->duration_us;
        step(p, sink);
        if (p->flags & FLAG_FINISHED)
            return;
        /* Many whole loops left and nothing to report in them: drop all but
         * one. One is still walked so that the smooth-curve history (the
         * previous frame) is what a full walk would leave. */
        const mk_clip *c = clip_of(p, p->clip);
        if (p->time_us >= p->duration_us && p->pending == MK_NONE && !c->once &&
            p->frame >= c->loop_frame && !(emit && c->loop_has_events) &&
            p->time_us >= 2 * c->cycle_us)
            p->time_us = c->cycle_us + p->time_us % c->cycle_us;
    } while (p->time_us >= p->duration_us);
}

void mk_event_buffer_push(void *buffer, const mk_player_event *event)
{
    mk_event_buffer *b = (mk_event_buffer *)buffer;
    if (b->count < b->capacity)
        b->items[b->count++] = *event;
    else
        b->lost++;
}

void mk_player_init(mk_player *p, const mk_clip_set *clips)
{
    assert(p && clips);
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
}

void mk_player_play(mk_player *p, uint32_t clip, const mk_event_sink *sink)
{
    assert(p && clip < p->clips->clip_count);
    if (p->clip == MK_NONE || (p->flags & FLAG_FINISHED))
        start(p, clip, sink);
    else if (clip == p->clip)
        p->pending = MK_NONE; /* the standing request is the clip playing */
    else
        p->pending = clip;
}

bool mk_player_play_name(mk_player *p, const char *name, const mk_event_sink *sink)
{
    uint32_t id = mk_clip_set_find(p->clips, name);
    if (id == MK_NONE)
        return false;
    mk_player_play(p, id, sink);
    return true;
}

void mk_player_advance(mk_player *p, int64_t dt_us, const mk_event_sink *sink)
{
    assert(p && dt_us >= 0);
    if (p->clip == MK_NONE)
        return;
    while (dt_us > 0) {
        const int64_t part = dt_us < PART_US ? dt_us : PART_US;
        dt_us -= part;
        const uint64_t scaled = (uint64_t)part * p->speed_q16 + p->speed_frac;
        p->speed_frac = (uint16_t)(scaled & 0xffffu);
        if (p->flags & FLAG_FINISHED)
            continue;
        p->time_us += (int64_t)(scaled >> 16);
        if (p->time_us >= p->duration_us)
            cross(p, sink);
    }
}

void mk_player_advance_seconds(mk_player *p, double dt_s, const mk_event_sink *sink)
{
    /* !(x > 0) also catches NaN */
    if (!(dt_s > 0.0))
        return;
    double us = floor(dt_s * 1e6 + 0.5);
    if (us > 9.2e18)
        us = 9.2e18;
    mk_player_advance(p, (int64_t)us, sink);
}

void mk_player_set_speed(mk_player *p, double speed)
{
    if (!(speed > 0.0)) /* negative, zero, NaN */
        speed = 0.0;
    if (speed > MK_PLAYER_SPEED_MAX)
        speed = MK_PLAYER_SPEED_MAX;
    p->speed_q16 = (uint32_t)floor(speed * 65536.0 + 0.5);
}

double mk_player_speed(const mk_player *p)
{
    return p->speed_q16 / 65536.0;
}

bool mk_player_finished(const mk_player *p)
{
    return (p->flags & FLAG_FINISHED) != 0;
}

float mk_player_weight(const mk_player *p)
{
    if (p->clip == MK_NONE || (p->flags & FLAG_FINISHED) ||
        holds(clip_of(p, p->clip), p->frame))
        return 0.0f;
    return (float)((double)p->time_us / (double)p->duration_us);
}

void mk_player_get_state(const mk_player *p, mk_player_state *out)
{
    *out = (mk_player_state){MK_NONE, 0, MK_NONE, 0, MK_NONE, false, 0.0f, 0, 0};
    if (p->clip == MK_NONE)
        return;
    out->clip = p->clip;
    out->frame = p->frame;
    successor(p->clips, p->clip, p->frame, &out->next_clip, &out->next_frame);
    out->pending = p->pending;
    out->finished = mk_player_finished(p);
    out->weight = mk_player_weight(p);
    out->time_us = p->time_us;
    out->duration_us = p->duration_us;
}

/* ---- poses ---------------------------------------------------------------- */

/* Frame (clip, frame) ends a smooth run: the curve does not continue past it. */
static bool run_ends_at(const mk_clip_set *set, uint32_t clip, uint32_t frame)
{
    const mk_clip *c = &set->clips[clip];
    return holds(c, frame) || ends_clip(c, frame);
}

void mk_player_pose(const mk_player *p, mk_pose *out)
{
    out->count = 0;
    if (p->clip == MK_NONE)
        return;
    const mk_clip *c = clip_of(p, p->clip);
    const uint32_t f1 = c->frames[p->frame];
    if ((p->flags & FLAG_FINISHED) || holds(c, p->frame)) {
        out->count = 1;
        out->frames[0] = f1;
        out->weights[0] = 1.0f;
        return;
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
        return;
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
}
