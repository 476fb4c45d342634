/* Clip sets: validation and packing of a unit's clips into one block.
 *
 * The block is laid out by one function run twice over an mk_block: first
 * to add up the sizes, then to fill the allocated block at the same
 * offsets. */
#include <string.h>

#include "internal.h"
#include "morphkit/clip.h"

const char *mk_interpolation_name(mk_interpolation interpolation)
{
    switch (interpolation) {
    case MK_INTERPOLATION_LINEAR: return "linear";
    case MK_INTERPOLATION_STEP: return "step";
    case MK_INTERPOLATION_SMOOTH: return "smooth";
    case MK_INTERPOLATION_CUBICSPLINE: return "cubicspline";
    default: return "unknown";
    }
}

static uint32_t find_desc(const mk_clip_set_desc *desc, const char *name)
{
    for (uint32_t i = 0; i < desc->clip_count; i++)
        if (strcmp(desc->clips[i].name, name) == 0)
            return i;
    return MK_NONE;
}

static mk_status check_clip(const mk_clip_set_desc *desc, uint32_t ci, mk_error *err)
{
    const mk_clip_desc *c = &desc->clips[ci];
    if (!c->name || !c->name[0])
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "clip %u has no name", ci);
    for (uint32_t j = 0; j < ci; j++)
        if (strcmp(desc->clips[j].name, c->name) == 0)
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "clip '%s': the name is used twice", c->name);
    if (c->frame_count == 0)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "clip '%s' has no frames",
                            c->name);
    if ((unsigned)c->interpolation >= MK_INTERPOLATION_COUNT ||
        c->interpolation == MK_INTERPOLATION_CUBICSPLINE)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "clip '%s': bad interpolation %d", c->name, (int)c->interpolation);
    if (c->frame_time_us < 0 || c->frame_time_us > MK_CLIP_MAX_DURATION_US)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "clip '%s': frame time %lld us out of range", c->name,
                            (long long)c->frame_time_us);
    for (uint32_t k = 0; k < c->frame_count; k++) {
        uint32_t f = c->frames ? c->frames[k] : c->first_frame + k;
        if (!c->frames && c->first_frame > UINT32_MAX - k)
            return mk_error_set(err, MK_ERR_RANGE, NULL, 0,
                                "clip '%s': frame index overflows", c->name);
        if (desc->frame_set_count && f >= desc->frame_set_count)
            return mk_error_set(err, MK_ERR_RANGE, NULL, 0,
                                "clip '%s': frame %u uses frame-set index %u, the set has %u",
                                c->name, k, f, desc->frame_set_count);
        if (c->durations_us &&
            (c->durations_us[k] <= 0 || c->durations_us[k] > MK_CLIP_MAX_DURATION_US))
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "clip '%s': frame %u duration %lld us out of range", c->name, k,
                                (long long)c->durations_us[k]);
    }
    if (c->loop_frame >= c->frame_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "clip '%s': loop frame %u, the clip has %u frames", c->name,
                            c->loop_frame, c->frame_count);
    if (c->next) {
        if (!c->once)
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "clip '%s': next '%s' needs once", c->name, c->next);
        if (find_desc(desc, c->next) == MK_NONE)
            return mk_error_set(err, MK_ERR_NOT_FOUND, NULL, 0,
                                "clip '%s': next clip '%s' does not exist", c->name, c->next);
    }
    if (c->event_count && !c->events)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "clip '%s': event_count without events", c->name);
    for (uint32_t e = 0; e < c->event_count; e++) {
        if (c->events[e].frame >= c->frame_count)
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "clip '%s': event on frame %u, the clip has %u frames", c->name,
                                c->events[e].frame, c->frame_count);
        if (!c->events[e].name || !c->events[e].name[0])
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "clip '%s': event %u has no name", c->name, e);
    }
    return MK_OK;
}

/* Sizes (b->base == NULL) or fills the block (see mk_block). */
static void layout(const mk_clip_set_desc *desc, mk_block *b)
{
    mk_clip *clips = mk_block_take(b, desc->clip_count, sizeof(mk_clip));
    if (b->base) {
        mk_clip_set *set = (mk_clip_set *)b->base;
        set->clip_count = desc->clip_count;
        set->clips = clips;
        set->frame_set_count = desc->frame_set_count;
    }
    for (uint32_t ci = 0; ci < desc->clip_count; ci++) {
        const mk_clip_desc *d = &desc->clips[ci];
        const uint32_t n = d->frame_count;
        size_t names = 0, len;
        if (!mk_size_add(strlen(d->name), 1, &names))
            b->overflow = true;
        for (uint32_t e = 0; e < d->event_count; e++)
            if (!mk_size_add(strlen(d->events[e].name), 1, &len) ||
                !mk_size_add(names, len, &names))
                b->overflow = true;
        uint32_t *frames = mk_block_take(b, n, sizeof(uint32_t));
        int64_t *dur = mk_block_take(b, n, sizeof(int64_t));
        uint8_t *flags = mk_block_take(b, n, 1);
        uint32_t *first = mk_block_take(b, (size_t)n + 1, sizeof(uint32_t));
        mk_clip_event *events = mk_block_take(b, d->event_count, sizeof(mk_clip_event));
        char *text = mk_block_take(b, names, 1);
        if (!b->base)
            continue;

        mk_clip *c = &clips[ci];
        const int64_t ft = d->frame_time_us ? d->frame_time_us : MK_CLIP_DEFAULT_FRAME_TIME_US;

        len = strlen(d->name) + 1;
        memcpy(text, d->name, len);
        c->name = text;
        text += len;
        c->frame_count = n;
        c->once = d->once;
        c->loop_frame = d->once ? 0 : d->loop_frame;
        c->next_clip = d->next ? find_desc(desc, d->next) : MK_NONE;
        c->interpolation = d->interpolation;
        c->cycle_us = 0;
        c->length_us = 0;
        for (uint32_t k = 0; k < n; k++) {
            frames[k] = d->frames ? d->frames[k] : d->first_frame + k;
            dur[k] = d->durations_us ? d->durations_us[k] : ft;
            flags[k] = (d->no_blend && d->no_blend[k]) ? MK_CLIP_FRAME_NO_BLEND : 0;
            if (!d->once && k >= c->loop_frame)
                c->cycle_us += dur[k];
            if (!(d->once && !d->next && k + 1 == n))
                c->length_us += dur[k];
        }
        /* events sorted by frame with a counting pass; input order kept per frame */
        memset(first, 0, ((size_t)n + 1) * sizeof(uint32_t));
        for (uint32_t e = 0; e < d->event_count; e++)
            first[d->events[e].frame + 1]++;
        for (uint32_t k = 0; k < n; k++)
            first[k + 1] += first[k];
        c->loop_has_events = !d->once && first[n] > first[c->loop_frame];
        for (uint32_t k = 0; k < n; k++) {
            uint32_t slot = first[k];
            for (uint32_t e = 0; e < d->event_count; e++) {
                if (d->events[e].frame != k)
                    continue;
                len = strlen(d->events[e].name) + 1;
                memcpy(text, d->events[e].name, len);
                events[slot].frame = k;
                events[slot].name = text;
                text += len;
                slot++;
            }
        }
        c->frames = frames;
        c->durations_us = dur;
        c->frame_flags = flags;
        c->event_first = first;
        c->events = events;
        c->event_count = d->event_count;
    }
}

mk_status mk_clip_set_create(const mk_clip_set_desc *desc, const mk_allocator *allocator,
                             mk_clip_set **out, mk_error *err)
{
    *out = NULL;
    if (!desc || desc->clip_count == 0 || !desc->clips)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "a clip set needs clips");
    if (desc->clip_count >= MK_NONE)
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0, "too many clips");
    for (uint32_t ci = 0; ci < desc->clip_count; ci++) {
        mk_status st = check_clip(desc, ci, err);
        if (st != MK_OK)
            return st;
    }
    mk_block b;
    mk_block_begin(&b, sizeof(mk_clip_set));
    layout(desc, &b);
    void *block;
    mk_status st = mk_block_alloc(&b, allocator, "clip set", &block, err);
    if (st != MK_OK)
        return st;
    layout(desc, &b);
    mk_clip_set *set = block;
    set->allocator = mk_allocator_copy(allocator);
    set->byte_size = mk_block_size(&b);
    *out = set;
    return MK_OK;
}

void mk_clip_set_destroy(mk_clip_set *set)
{
    if (!set)
        return;
    mk_allocator a = set->allocator;
    mk_free(&a, set, set->byte_size);
}

uint32_t mk_clip_set_find(const mk_clip_set *set, const char *name)
{
    for (uint32_t i = 0; i < set->clip_count; i++)
        if (strcmp(set->clips[i].name, name) == 0)
            return i;
    return MK_NONE;
}
