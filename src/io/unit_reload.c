/* Live reload of a unit folder: load it again, compare with what is loaded,
 * hand back a new unit only when something changed; the old unit is never
 * touched (see unit.h, mk_unit_reload). */
#include <string.h>

#include "internal.h"
#include "morphkit/unit.h"

static bool same_floats(const float *a, const float *b, size_t n)
{
    if (!a || !b)
        return a == b;
    return memcmp(a, b, n * sizeof *a) == 0;
}

static bool same_frames(const mk_frame_set *a, const mk_frame_set *b)
{
    if (a->frame_count != b->frame_count || a->vertex_count != b->vertex_count ||
        a->index_count != b->index_count)
        return false;
    size_t per_frame = (size_t)a->frame_count * a->vertex_count * 3;
    return same_floats(a->positions, b->positions, per_frame) &&
           same_floats(a->normals, b->normals, per_frame) &&
           same_floats(a->texcoords, b->texcoords, (size_t)a->vertex_count * 2) &&
           memcmp(a->indices, b->indices, (size_t)a->index_count * sizeof *a->indices) == 0;
}

static bool same_clip(const mk_clip *a, const mk_clip *b)
{
    if (strcmp(a->name, b->name) != 0 || a->frame_count != b->frame_count ||
        a->loop_frame != b->loop_frame || a->next_clip != b->next_clip || a->once != b->once ||
        a->interpolation != b->interpolation || a->event_count != b->event_count)
        return false;
    size_t n = a->frame_count;
    if (memcmp(a->frames, b->frames, n * sizeof *a->frames) != 0 ||
        memcmp(a->durations_us, b->durations_us, n * sizeof *a->durations_us) != 0 ||
        memcmp(a->frame_flags, b->frame_flags, n * sizeof *a->frame_flags) != 0)
        return false;
    for (uint32_t e = 0; e < a->event_count; e++)
        if (a->events[e].frame != b->events[e].frame ||
            strcmp(a->events[e].name, b->events[e].name) != 0)
            return false;
    return true;
}

static bool same_unit(const mk_unit *a, const mk_unit *b)
{
    if (a->clips->clip_count != b->clips->clip_count || a->position_count != b->position_count ||
        a->normal_count != b->normal_count || !same_frames(a->frames, b->frames))
        return false;
    for (uint32_t c = 0; c < a->clips->clip_count; c++)
        if (!same_clip(&a->clips->clips[c], &b->clips->clips[c]))
            return false;
    /* the OBJ order maps: a reordered `v` list can give the same render data */
    return memcmp(a->source_index, b->source_index,
                  (size_t)a->frames->vertex_count * sizeof *a->source_index) == 0;
}

mk_status mk_unit_reload(const mk_unit *old, const mk_unit_options *options,
                         const mk_allocator *allocator, mk_unit **out, bool *changed,
                         mk_report *report, mk_error *err)
{
    if (out)
        *out = NULL;
    if (changed)
        *changed = false;
    if (!old || !out || !changed || !old->files || !old->files->dir)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "mk_unit_reload: old, out and changed must not be NULL");
    mk_unit *fresh = NULL;
    mk_status st = mk_unit_load(old->files->dir, options, allocator, &fresh, report, err);
    if (st != MK_OK)
        return st; /* the old unit stays what the caller shows */
    if (same_unit(old, fresh)) {
        mk_unit_destroy(fresh);
        return MK_OK;
    }
    *out = fresh;
    *changed = true;
    return MK_OK;
}
