/* Keyframe tracks, clips and clip playback (see morphkit/track.h). */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "morphkit/track.h"

static uint32_t key_floats(const mk_track_desc *d)
{
    return d->components * (d->interpolation == MK_INTERPOLATION_CUBICSPLINE ? 3u : 1u);
}

static bool desc_ok(const mk_track_desc *d)
{
    if ((unsigned)d->path >= MK_TRACK_PATH_COUNT ||
        (unsigned)d->interpolation >= MK_INTERPOLATION_COUNT ||
        d->interpolation == MK_INTERPOLATION_SMOOTH || d->key_count == 0 ||
        d->components == 0 || d->components > (UINT32_MAX / 3u))
        return false;
    if (d->path == MK_TRACK_ROTATION)
        return d->components == 4;
    if (d->path != MK_TRACK_WEIGHTS)
        return d->components == 3;
    return true;
}

/* Sizes (b->base == NULL) or fills the block (see mk_block). */
static void layout(const mk_track_desc *tracks, uint32_t track_count, mk_block *b)
{
    mk_track_clip *clip = (mk_track_clip *)b->base; /* NULL while sizing */
    mk_track *t = mk_block_take(b, track_count, sizeof(mk_track));
    if (clip) {
        clip->track_count = track_count;
        clip->tracks = track_count ? t : NULL;
    }
    uint32_t offset = 0;
    for (uint32_t i = 0; i < track_count; i++) {
        const mk_track_desc *d = &tracks[i];
        size_t values = 0;
        if (!mk_size_mul(d->key_count, key_floats(d), &values))
            b->overflow = true;
        int64_t *times = mk_block_take(b, d->key_count, sizeof(int64_t));
        float *v = mk_block_take(b, values, sizeof(float));
        if (!clip)
            continue;
        t[i].path = d->path;
        t[i].interpolation = d->interpolation;
        t[i].target = d->target;
        t[i].key_count = d->key_count;
        t[i].components = d->components;
        t[i].value_offset = offset;
        t[i].times_us = times;
        t[i].values = v;
        offset += d->components;
    }
    if (clip)
        clip->output_count = offset;
}

mk_status mk_track_clip_create(const mk_track_desc *tracks, uint32_t track_count,
                               const mk_allocator *allocator, mk_track_clip **out, mk_error *err)
{
    *out = NULL;
    uint64_t outputs = 0;
    for (uint32_t i = 0; i < track_count; i++) {
        if (!desc_ok(&tracks[i]))
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "clip: track %u has a bad path, interpolation or count", i);
        outputs += tracks[i].components;
    }
    mk_block b;
    mk_block_begin(&b, sizeof(mk_track_clip));
    layout(tracks, track_count, &b);
    if (b.overflow)
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0, "clip: size overflows");
    if (outputs > UINT32_MAX)
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0, "clip: too many output values");
    void *block;
    mk_status st = mk_block_alloc(&b, allocator, "clip", &block, err);
    if (st != MK_OK)
        return st;
    mk_track_clip *clip = block;
    clip->allocator = mk_allocator_copy(allocator);
    layout(tracks, track_count, &b);
    clip->byte_size = mk_block_size(&b);
    *out = clip;
    return MK_OK;
}

void mk_track_clip_destroy(mk_track_clip *clip)
{
    if (!clip)
        return;
    mk_allocator a = clip->allocator;
    mk_free(&a, clip, clip->byte_size);
}

mk_status mk_track_clip_validate(const mk_track_clip *clip, mk_error *err)
{
    if (!clip)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "track clip: NULL clip");
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const mk_track *t = &clip->tracks[i];
        for (uint32_t k = 0; k < t->key_count; k++) {
            if (t->times_us[k] < 0 || (k > 0 && t->times_us[k] <= t->times_us[k - 1]))
                return mk_error_set(err, MK_ERR_RANGE, NULL, 0,
                                    "tracks[%u]: key %u time %lld us is negative or not after the "
                                    "previous key",
                                    i, k, (long long)t->times_us[k]);
        }
        size_t n = (size_t)t->key_count * t->components *
                   (t->interpolation == MK_INTERPOLATION_CUBICSPLINE ? 3u : 1u);
        for (size_t v = 0; v < n; v++)
            if (!isfinite(t->values[v]))
                return mk_error_set(err, MK_ERR_RANGE, NULL, 0,
                                    "tracks[%u]: value %zu is NaN or infinite", i, v);
    }
    return MK_OK;
}

int64_t mk_track_clip_duration(const mk_track_clip *clip)
{
    int64_t duration = 0;
    for (uint32_t i = 0; clip && i < clip->track_count; i++) {
        const mk_track *t = &clip->tracks[i];
        if (t->times_us[t->key_count - 1] > duration)
            duration = t->times_us[t->key_count - 1];
    }
    return duration;
}

/* Largest k in [lo, hi) with times[k] <= t, given times[lo] <= t. */
static uint32_t search(const int64_t *times, uint32_t lo, uint32_t hi, int64_t t)
{
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (times[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static void normalize4(float *q)
{
    double len =
        sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
    if (len < 1e-12)
        return;
    for (int i = 0; i < 4; i++)
        q[i] = (float)(q[i] / len);
}

/* Spherical interpolation along the shorter arc (glTF 2.0 Appendix C). */
static void slerp(const float *a, const float *b, double s, float *out)
{
    double d =
        (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2] + (double)a[3] * b[3];
    double sign = 1.0;
    if (d < 0.0) {
        d = -d;
        sign = -1.0; /* q and -q are the same rotation: take the short way */
    }
    double wa, wb;
    if (d > 0.9995) {
        wa = 1.0 - s; /* nearly equal: lerp avoids dividing by sin(~0) */
        wb = s * sign;
    } else {
        double theta = acos(d), st = sin(theta);
        wa = sin((1.0 - s) * theta) / st;
        wb = sign * sin(s * theta) / st;
    }
    for (int i = 0; i < 4; i++)
        out[i] = (float)(wa * a[i] + wb * b[i]);
    normalize4(out);
}

static void sample_at(const mk_track *tr, int64_t time_us, uint32_t k, float *out)
{
    uint32_t c = tr->components;
    bool cubic = tr->interpolation == MK_INTERPOLATION_CUBICSPLINE;
    size_t stride = (size_t)c * (cubic ? 3u : 1u), vo = cubic ? c : 0;
    const float *v0 = tr->values + k * stride + vo;
    if (tr->key_count == 1 || time_us <= tr->times_us[0] ||
        time_us >= tr->times_us[tr->key_count - 1] || tr->interpolation == MK_INTERPOLATION_STEP) {
        /* Clamped ends, single keys and STEP all show one key's value. */
        if (time_us >= tr->times_us[tr->key_count - 1])
            v0 = tr->values + (tr->key_count - 1) * stride + vo;
        else if (time_us <= tr->times_us[0])
            v0 = tr->values + vo;
        memcpy(out, v0, c * sizeof(float));
        return;
    }
    const float *v1 = v0 + stride;
    int64_t t0 = tr->times_us[k], t1 = tr->times_us[k + 1];
    double s = (double)(time_us - t0) / (double)(t1 - t0);
    if (!cubic) {
        if (tr->path == MK_TRACK_ROTATION) {
            slerp(v0, v1, s, out);
            return;
        }
        for (uint32_t i = 0; i < c; i++)
            out[i] = (float)((1.0 - s) * v0[i] + s * v1[i]);
        return;
    }
    /* Hermite basis; tangents are per second, so scale by the interval. */
    double td = (double)(t1 - t0) * 1e-6, s2 = s * s, s3 = s2 * s;
    double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
    const float *b0 = v0 + c; /* out-tangent of key k */
    const float *a1 = v1 - c; /* in-tangent of key k + 1 */
    for (uint32_t i = 0; i < c; i++)
        out[i] = (float)(h00 * v0[i] + h10 * td * b0[i] + h01 * v1[i] + h11 * td * a1[i]);
    if (tr->path == MK_TRACK_ROTATION)
        normalize4(out);
}

void mk_track_sample(const mk_track *track, int64_t time_us, float *out)
{
    uint32_t k = 0;
    if (track->key_count > 1 && time_us > track->times_us[0])
        k = search(track->times_us, 0, track->key_count, time_us);
    sample_at(track, time_us, k, out);
}

void mk_track_sample_cursor(const mk_track *track, int64_t time_us, uint32_t *cursor, float *out)
{
    const int64_t *times = track->times_us;
    uint32_t n = track->key_count, k = *cursor;
    if (n <= 1 || time_us <= times[0]) {
        k = 0;
    } else if (k < n && times[k] <= time_us) {
        /* Forward playback: a step or two from where we were. A long jump
         * ends in a binary search over what is left. */
        int steps = 0;
        while (k + 1 < n && times[k + 1] <= time_us && steps < 4) {
            k++;
            steps++;
        }
        if (k + 1 < n && times[k + 1] <= time_us)
            k = search(times, k, n, time_us);
    } else {
        k = search(times, 0, n, time_us);
    }
    *cursor = k;
    sample_at(track, time_us, k, out);
}

mk_status mk_track_clip_state_init(mk_track_clip_state *state, const mk_track_clip *clip,
                                   bool looping, uint32_t *cursors)
{
    if (!state || !clip || (!cursors && clip->track_count))
        return MK_ERR_INVALID_ARGUMENT;
    state->clip = clip;
    state->duration_us = mk_track_clip_duration(clip);
    state->time_us = 0;
    state->looping = looping;
    state->cursors = cursors;
    if (cursors)
        memset(cursors, 0, clip->track_count * sizeof(uint32_t));
    return MK_OK;
}

void mk_track_clip_state_set_time(mk_track_clip_state *state, int64_t time_us)
{
    int64_t d = state->duration_us;
    if (time_us < 0)
        time_us = 0;
    if (state->looping && d > 0)
        time_us %= d;
    else if (time_us > d)
        time_us = d;
    state->time_us = time_us;
}

mk_status mk_track_clip_state_advance(mk_track_clip_state *state, int64_t dt_us)
{
    if (!state || dt_us < 0)
        return MK_ERR_INVALID_ARGUMENT;
    int64_t d = state->duration_us;
    if (state->looping && d > 0)
        dt_us %= d; /* keeps time + dt far from int64 overflow */
    else if (dt_us > d)
        dt_us = d;
    mk_track_clip_state_set_time(state, state->time_us + dt_us);
    return MK_OK;
}

void mk_track_clip_state_sample(mk_track_clip_state *state, float *out)
{
    const mk_track_clip *clip = state->clip;
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const mk_track *t = &clip->tracks[i];
        mk_track_sample_cursor(t, state->time_us, &state->cursors[i], out + t->value_offset);
    }
}

const char *mk_track_path_name(mk_track_path path)
{
    static const char *const names[MK_TRACK_PATH_COUNT] = {"weights", "translation", "rotation",
                                                           "scale"};
    return (unsigned)path < MK_TRACK_PATH_COUNT ? names[path] : "?";
}
