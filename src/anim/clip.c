/* Clip sets: validation and packing of a unit's clips into one block.
 *
 * The block is laid out by one function run twice: first without a base
 * pointer to add up the (overflow-checked, 16-aligned) sizes, then with the
 * allocated block to fill it at exactly the same offsets. */
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

/* Sizes (base == NULL) or fills (base != NULL) the block. Returns false on
 * size overflow. */
static bool layout(const mk_clip_set_desc *desc, char *base, size_t *total)
{
    size_t at = 0, off;
    if (!mk_layout_add(&at, 1, sizeof(mk_clip_set), &off) ||
        !mk_layout_add(&at, desc->clip_count, sizeof(mk_clip), &off))
        return false;
    mk_clip *clips = base ? (mk_clip *)(base + off) : NULL;
    if (base) {
        mk_clip_set *set = (mk_clip_set *)base;
        set->clip_count = desc->clip_count;
        set->clips = clips;
        set->frame_set_count = desc->frame_set_count;
    }
    for (uint32_t ci = 0; ci < desc->clip_count; ci++) {
        const mk_clip_desc *d = &desc->clips[ci];
        const uint32_t n = d->frame_count;
        size_t o_frames, o_dur, o_flags, o_first, o_events, o_names, names = 0, len;
        if (!mk_size_add(strlen(d->name), 1, &names))
            return false;
        for (uint32_t e = 0; e < d->event_count; e++)
            if (!mk_size_add(strlen(d->events[e].name), 1, &len) ||
                !mk_size_add(names, len, &names))
                return false;
        if (!mk_layout_add(&at, n, sizeof(uint32_t), &o_frames) ||
            !mk_layout_add(&at, n, sizeof(int64_t), &o_dur) ||
            !mk_layout_add(&at, n, 1, &o_flags) ||
            !mk_layout_add(&at, (size_t)n + 1, sizeof(uint32_t), &o_first) ||
            !mk_layout_add(&at, d->event_count, sizeof(mk_clip_event), &o_events) ||
            !mk_layout_add(&at, names, 1, &o_names))
            return false;
        if (!base)
            continue;

        mk_clip *c = &clips[ci];
        uint32_t *frames = (uint32_t *)(base + o_frames);
        int64_t *dur = (int64_t *)(base + o_dur);
        uint8_t *flags = (uint8_t *)(base + o_flags);
        uint32_t *first = (uint32_t *)(base + o_first);
        mk_clip_event *events = (mk_clip_event *)(base + o_events);
        char *text = base + o_names;
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
    *total = at;
    return true;
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
    size_t size = 0;
    if (!layout(desc, NULL, &size))
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0, "clip set size overflows");
    char *block = mk_alloc(allocator, size);
    if (!block)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0,
                            "out of memory for a %zu-byte clip set", size);
    memset(block, 0, size);
    layout(desc, block, &size);
    mk_clip_set *set = (mk_clip_set *)block;
    set->allocator = mk_allocator_copy(allocator);
    set->byte_size = size;
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
