/* Unit packer: a clip as glTF weights keys that reproduce the player.
 *
 * The walk follows the player's rules (player.h) from play start over one
 * pass of the clip: frame k becomes current at T_k = D_0 + ... + D_k-1 and
 * its segment ends at T_k+1 in its successor (the next frame, the loop
 * frame, or the next clip's first frame). A frame's weights are 1 on its
 * target and the target's ancestors (pack format 7: a target's delta is
 * taken from its parent's pose), 0 elsewhere (the base frame: all zero),
 * and the mesh is linear in the weights, so keying the weights keys the
 * pose:
 *  - linear segment: keys (T_k, F_k), (T_k+1, F_k+1);
 *  - held segment (no-blend frame): an extra key (T_k+1 - 1 us, F_k) makes
 *    the blend to F_k+1 a cut a viewer cannot see;
 *  - step clip: STEP keys at every boundary;
 *  - smooth clip: CUBICSPLINE, whose segment is the Hermite curve
 *      p = H00 v_k + td H10 b_k + H01 v_k+1 + td H11 a_k+1.
 *    The player's segment is H00 P1 + H01 P2 + h1 H10 m1 + h1 H11 m2, so
 *    the out-tangent of key k is b_k = h1 m1 / td and the in-tangent of key
 *    k+1 is a_k+1 = h1 m2 / td, with td the difference of the float key
 *    times (which absorbs their rounding) and m1, m2 the player's
 *    non-uniform Catmull-Rom tangents with the same neighbours it uses. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pack_internal.h"

static bool ends_clip(const mk_clip *c, uint32_t f)
{
    return c->once && c->next_clip == MK_NONE && f + 1 == c->frame_count;
}

static bool holds(const mk_clip *c, uint32_t f)
{
    return (c->frame_flags[f] & MK_CLIP_FRAME_NO_BLEND) || c->interpolation == MK_INTERPOLATION_STEP;
}

static void successor(const mk_clip_set *set, uint32_t clip, uint32_t frame, uint32_t *oc,
                      uint32_t *of)
{
    const mk_clip *c = &set->clips[clip];
    *oc = clip;
    if (frame + 1 < c->frame_count)
        *of = frame + 1;
    else if (!c->once)
        *of = c->loop_frame;
    else if (c->next_clip != MK_NONE) {
        *oc = c->next_clip;
        *of = 0;
    } else
        *of = frame;
}

typedef struct keyer {
    mk_pack_keys *k;
    const uint32_t *frame_target;
    const uint32_t *target_parent; /* MK_NONE: the base */
    uint32_t targets;
    uint32_t stride; /* floats per key: targets, or 3 * targets for cubic */
    uint32_t cap;
} keyer;

/* Where key i's part (0 in-tangent, 1 value, 2 out-tangent) starts. */
static float *part(const keyer *q, uint32_t i, uint32_t which)
{
    uint32_t off = q->stride == q->targets ? 0 : which * q->targets;
    return q->k->values + (size_t)i * q->stride + off;
}

static mk_status add_key(keyer *q, float t, uint32_t frame, mk_error *err)
{
    mk_pack_keys *k = q->k;
    if (k->key_count && !(t > k->times[k->key_count - 1]))
        return mk_error_set(err, MK_ERR_UNSUPPORTED, NULL, 0,
                            "frame times %.9g s apart cannot be keyed as distinct float seconds",
                            (double)t);
    k->times[k->key_count] = t;
    float *v = part(q, k->key_count, 1);
    for (uint32_t x = q->frame_target[frame]; x != MK_NONE; x = q->target_parent[x])
        v[x] = 1.0f;
    k->key_count++;
    return MK_OK;
}

/* tangent[x] += coeff for the targets x of frame's path (the base frame
 * has no weight). */
static void add_tangent(const keyer *q, float *tangent, uint32_t frame, double coeff)
{
    for (uint32_t x = q->frame_target[frame]; x != MK_NONE; x = q->target_parent[x])
        tangent[x] += (float)coeff;
}

static float seconds(int64_t us)
{
    return (float)((double)us / 1e6);
}

mk_status mk_pack_key_clip(const mk_clip_set *set, uint32_t clip, const uint32_t *frame_target,
                           const uint32_t *target_parent, uint32_t target_count,
                           const mk_allocator *allocator, mk_pack_keys *out, mk_error *err)
{
    const mk_clip *c = &set->clips[clip];
    const bool step = c->interpolation == MK_INTERPOLATION_STEP;
    const bool smooth = c->interpolation == MK_INTERPOLATION_SMOOTH;
    memset(out, 0, sizeof *out);
    out->interpolation = step ? MK_INTERPOLATION_STEP
                         : smooth ? MK_INTERPOLATION_CUBICSPLINE
                                  : MK_INTERPOLATION_LINEAR;
    keyer q = {out, frame_target, target_parent, target_count,
               smooth ? 3 * target_count : target_count, 2 * c->frame_count + 2};
    size_t nvalues;
    if (!mk_size_mul(q.cap, q.stride, &nvalues))
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0, "clip '%s' is too large", c->name);
    out->times = mk_alloc(allocator, q.cap * sizeof(float));
    out->times_cap = q.cap;
    out->values = nvalues ? mk_alloc(allocator, nvalues * sizeof(float)) : NULL;
    out->values_count = nvalues;
    if (!out->times || (nvalues && !out->values)) {
        mk_pack_keys_free(out, target_count, allocator);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    }
    memset(out->values, 0, nvalues * sizeof(float));

    int64_t t = 0;
    uint32_t f0 = c->frames[0]; /* smooth: the frame before, after a cut itself */
    int64_t h0 = c->durations_us[0];
    mk_status st = add_key(&q, 0.0f, c->frames[0], err);
    for (uint32_t k = 0; st == MK_OK && k < c->frame_count && !ends_clip(c, k); k++) {
        const uint32_t f1 = c->frames[k];
        const int64_t h1 = c->durations_us[k], end = t + h1;
        uint32_t nc, nf;
        successor(set, clip, k, &nc, &nf);
        const uint32_t f2 = set->clips[nc].frames[nf];
        const uint32_t start_key = out->key_count - 1;
        if (holds(c, k) && !step) {
            /* a microsecond before the cut, so readers that round key times
             * to microseconds still see two keys; one float step where a
             * microsecond is below the float resolution */
            float hold = seconds(end - 1);
            if (!(hold < seconds(end)))
                hold = nextafterf(seconds(end), 0.0f);
            if (hold > out->times[start_key])
                st = add_key(&q, hold, f1, err);
        }
        if (st == MK_OK)
            st = add_key(&q, seconds(end), f2, err);
        if (st != MK_OK)
            break;
        if (smooth && !holds(c, k)) {
            /* the player's neighbours: P3 is F2's successor unless the run ends at F2 */
            const mk_clip *n = &set->clips[nc];
            uint32_t f3 = f2;
            int64_t h2 = h1;
            if (!holds(n, nf) && !ends_clip(n, nf)) {
                uint32_t nnc, nnf;
                successor(set, nc, nf, &nnc, &nnf);
                f3 = set->clips[nnc].frames[nnf];
                h2 = n->durations_us[nf];
            }
            const double H0 = (double)h0, H1 = (double)h1, H2 = (double)h2;
            const double ha = H1 * H1 / ((H0 + H1) * H0), hb = H0 / (H0 + H1);
            const double hc = H2 / (H1 + H2), hd = H1 * H1 / ((H1 + H2) * H2);
            const double td = (double)out->times[start_key + 1] - (double)out->times[start_key];
            float *b = part(&q, start_key, 2), *a = part(&q, start_key + 1, 0);
            /* h1 m1 = ha (P1 - P0) + hb (P2 - P1); h1 m2 = hc (P2 - P1) + hd (P3 - P2) */
            add_tangent(&q, b, f1, (ha - hb) / td);
            add_tangent(&q, b, f0, -ha / td);
            add_tangent(&q, b, f2, hb / td);
            add_tangent(&q, a, f2, (hc - hd) / td);
            add_tangent(&q, a, f1, -hc / td);
            add_tangent(&q, a, f3, hd / td);
        }
        /* the next segment's previous frame: this one, or itself after a cut */
        if (holds(c, k)) {
            f0 = f2;
            h0 = set->clips[nc].durations_us[nf];
        } else {
            f0 = f1;
            h0 = h1;
        }
        t = end;
    }
    if (st != MK_OK) {
        mk_pack_keys_free(out, target_count, allocator);
        if (err)
            snprintf(err->message + strlen(err->message),
                     sizeof err->message - strlen(err->message), " (clip '%s')", c->name);
    }
    return st;
}

void mk_pack_keys_free(mk_pack_keys *keys, uint32_t target_count, const mk_allocator *allocator)
{
    (void)target_count;
    mk_free(allocator, keys->times, keys->times_cap * sizeof(float));
    mk_free(allocator, keys->values, keys->values_count * sizeof(float));
    memset(keys, 0, sizeof *keys);
}
