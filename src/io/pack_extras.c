/* Unit packer: extras.morphkit - the animations, frame names, frame ->
 * target map and clips of a packed unit, each malformed member named with
 * its path ("extras.morphkit.clips[1]: durations_us: ..."). The clip set
 * is built by mk_clip_set_create, which checks names, frame indices,
 * durations, loop frames and next names once more. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"
#include "pack_internal.h"

/* ---- extras.morphkit ---------------------------------------------------------- */


mk_status mk_pack_bad(mk_pack_reader *r, const char *path, uint32_t index, const char *what)
{
    if (index == MK_NONE)
        return mk_error_set(r->err, MK_ERR_PARSE, r->file, 0, "extras.morphkit.%s: %s", path,
                            what);
    return mk_error_set(r->err, MK_ERR_PARSE, r->file, 0, "extras.morphkit.%s[%u]: %s", path,
                        index, what);
}

/* "name[index]" into out (64 bytes): the path of an element, made for
 * every element read, so without snprintf's cost. */
static void element_path(char out[64], const char *name, uint32_t index)
{
    size_t n = strlen(name);
    if (n > 48)
        n = 48;
    memcpy(out, name, n);
    char digits[10];
    int k = 0;
    do {
        digits[k++] = (char)('0' + index % 10);
        index /= 10;
    } while (index);
    out[n++] = '[';
    while (k)
        out[n++] = digits[--k];
    out[n++] = ']';
    out[n] = '\0';
}

/* A whole number in [lo, hi]. */
bool mk_pack_whole(mk_pack_reader *r, const mk_gltf_json_value *v, double lo, double hi, int64_t *out)
{
    if (!mk_gltf_json_is(v, MK_GLTF_JSON_NUMBER))
        return false;
    double d = mk_gltf_json_double(r->doc, v);
    if (!(d >= lo && d <= hi) || d != floor(d))
        return false;
    *out = (int64_t)d;
    return true;
}

mk_status mk_pack_get_u32(mk_pack_reader *r, const mk_gltf_json_value *obj, const char *key,
                         const char *path, uint32_t *out)
{
    int64_t v;
    if (!mk_pack_whole(r, mk_gltf_json_get(r->doc, obj, key), 0, UINT32_MAX - 1.0, &v)) {
        char p[160];
        snprintf(p, sizeof p, "%s%s%s", path, *path ? "." : "", key);
        return mk_pack_bad(r, p, MK_NONE, "missing or not a whole number");
    }
    *out = (uint32_t)v;
    return MK_OK;
}

/* An optional whole number: `fallback` when the member is absent
 * (version 3 leaves out members that have their default value). */
static mk_status get_u32_or(mk_pack_reader *r, const mk_gltf_json_value *obj, const char *key,
                            const char *path, uint32_t fallback, uint32_t *out)
{
    if (!mk_gltf_json_get(r->doc, obj, key)) {
        *out = fallback;
        return MK_OK;
    }
    return mk_pack_get_u32(r, obj, key, path, out);
}

/* An optional true/false member. */
static mk_status get_bool_or(mk_pack_reader *r, const mk_gltf_json_value *obj, const char *key,
                             const char *path, bool fallback, bool *out)
{
    const mk_gltf_json_value *v = mk_gltf_json_get(r->doc, obj, key);
    if (!v) {
        *out = fallback;
        return MK_OK;
    }
    if (!mk_gltf_json_is(v, MK_GLTF_JSON_TRUE) && !mk_gltf_json_is(v, MK_GLTF_JSON_FALSE)) {
        char p[160];
        snprintf(p, sizeof p, "%s%s%s", path, *path ? "." : "", key);
        return mk_pack_bad(r, p, MK_NONE, "not true/false");
    }
    *out = mk_gltf_json_is(v, MK_GLTF_JSON_TRUE);
    return MK_OK;
}

/* A string member copied through the allocator (NULL when absent and optional). */
mk_status mk_pack_get_string(mk_pack_reader *r, const mk_allocator *al, const mk_gltf_json_value *obj,
                            const char *key, const char *path, bool required, char **out)
{
    const mk_gltf_json_value *v = mk_gltf_json_get(r->doc, obj, key);
    *out = NULL;
    if (!v && !required)
        return MK_OK;
    char p[160];
    if (!mk_gltf_json_is(v, MK_GLTF_JSON_STRING)) {
        snprintf(p, sizeof p, "%s%s%s", path, *path ? "." : "", key);
        return mk_pack_bad(r, p, MK_NONE, "missing or not a string");
    }
    size_t n = mk_gltf_json_string_copy(r->doc, v, NULL, 0);
    *out = mk_alloc(al, n + 1);
    if (!*out)
        return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    mk_gltf_json_string_copy(r->doc, v, *out, n + 1);
    if (strlen(*out) != n) {
        mk_free(al, *out, n + 1);
        *out = NULL;
        return mk_pack_bad(r, p, MK_NONE, "contains a NUL character");
    }
    return MK_OK;
}

static const mk_gltf_json_value *get_array(mk_pack_reader *r, const mk_gltf_json_value *obj,
                                           const char *key, uint32_t want)
{
    const mk_gltf_json_value *v = mk_gltf_json_get(r->doc, obj, key);
    if (!mk_gltf_json_is(v, MK_GLTF_JSON_ARRAY) || (want != MK_NONE && v->size != want))
        return NULL;
    return v;
}

mk_status mk_pack_read_files(mk_pack_reader *r, const mk_gltf_json_value *x, mk_unit *u,
                             uint32_t targets, uint32_t **frame_target, uint32_t *frames)
{
    const mk_allocator *al = &u->allocator;
    mk_unit_files *f = mk_alloc(al, sizeof *f);
    if (!f)
        return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    memset(f, 0, sizeof *f);
    f->allocator = u->allocator;
    u->files = f;
    if (!(f->dir = mk_strdup(al, r->file)))
        return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    mk_status st = get_bool_or(r, x, "config", "", false, &f->has_config);
    if (st != MK_OK)
        return st;
    const mk_gltf_json_value *anims = get_array(r, x, "animations", MK_NONE), *e;
    if (!anims || anims->size == 0)
        return mk_pack_bad(r, "animations", MK_NONE, "missing or not a non-empty array");
    f->animations = mk_alloc(al, anims->size * sizeof *f->animations);
    if (!f->animations)
        return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    memset(f->animations, 0, anims->size * sizeof *f->animations);
    uint32_t total = 0;
    MK_GLTF_JSON_EACH (r->doc, e, anims) {
        char path[64];
        element_path(path, "animations", f->animation_count);
        mk_unit_animation *an = &f->animations[f->animation_count++];
        mk_status s;
        if (!mk_gltf_json_is(e, MK_GLTF_JSON_OBJECT))
            return mk_pack_bad(r, path, MK_NONE, "not an object");
        if ((s = mk_pack_get_string(r, al, e, "name", path, true, &an->name)) != MK_OK ||
            (s = get_u32_or(r, e, "first_number", path, 1, &an->first_number)) != MK_OK ||
            (s = mk_pack_get_u32(r, e, "frame_count", path, &an->frame_count)) != MK_OK)
            return s;
        if (an->frame_count == 0 || an->frame_count > UINT32_MAX - total)
            return mk_pack_bad(r, path, MK_NONE, "frame_count is 0 or too large");
        an->first_frame = total;
        total += an->frame_count;
    }
    /* files: absent when every name is <Name>_<N>.obj */
    const mk_gltf_json_value *files = mk_gltf_json_get(r->doc, x, "files");
    if (files && !get_array(r, x, "files", total))
        return mk_pack_bad(r, "files", MK_NONE, "not one name per frame of the animations");
    f->frame_files = mk_alloc(al, (size_t)total * sizeof *f->frame_files);
    if (!f->frame_files)
        return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    memset(f->frame_files, 0, (size_t)total * sizeof *f->frame_files);
    f->frame_count = total;
    for (uint32_t a = 0; !files && a < f->animation_count; a++) {
        const mk_unit_animation *an = &f->animations[a];
        const size_t base = strlen(an->name);
        if (base + 16 > MK_ERROR_MESSAGE_MAX)
            return mk_pack_bad(r, "animations", a, "name too long");
        char name[MK_ERROR_MESSAGE_MAX];
        memcpy(name, an->name, base);
        name[base] = '_';
        for (uint32_t k = 0; k < an->frame_count; k++) {
            /* <Name>_<N>.obj, without printf: a load names every frame */
            char digits[10];
            uint32_t x = an->first_number + k, nd = 0;
            do
                digits[nd++] = (char)('0' + x % 10);
            while ((x /= 10) != 0);
            size_t len = base + 1;
            while (nd)
                name[len++] = digits[--nd];
            memcpy(name + len, ".obj", 5);
            if (!(f->frame_files[an->first_frame + k] = mk_strdup(al, name)))
                return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
        }
    }
    uint32_t i = 0;
    MK_GLTF_JSON_EACH (r->doc, e, files) {
        if (!mk_gltf_json_is(e, MK_GLTF_JSON_STRING))
            return mk_pack_bad(r, "files", i, "not a string");
        size_t n = mk_gltf_json_string_copy(r->doc, e, NULL, 0);
        if (!(f->frame_files[i] = mk_alloc(al, n + 1)))
            return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
        mk_gltf_json_string_copy(r->doc, e, f->frame_files[i], n + 1);
        if (strlen(f->frame_files[i]) != n) {
            f->frame_files[i][0] = '\0'; /* freed by its strlen: keep a valid string */
            mk_free(al, f->frame_files[i], n + 1);
            f->frame_files[i] = NULL;
            return mk_pack_bad(r, "files", i, "contains a NUL character");
        }
        i++;
    }
    *frames = total;
    *frame_target = mk_alloc(al, (size_t)total * sizeof(uint32_t));
    if (!*frame_target)
        return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    const mk_gltf_json_value *ft = mk_gltf_json_get(r->doc, x, "frame_targets");
    if (!ft) { /* absent: frame 0 is the base, frame f is target f - 1 */
        if (targets != total - 1)
            return mk_pack_bad(r, "frame_targets", MK_NONE,
                               "absent, but the mesh does not have a target per frame after the first");
        for (i = 0; i < total; i++)
            (*frame_target)[i] = i ? i - 1 : MK_NONE;
        return MK_OK;
    }
    if (!get_array(r, x, "frame_targets", total))
        return mk_pack_bad(r, "frame_targets", MK_NONE, "not one entry per frame");
    i = 0;
    bool base = false;
    MK_GLTF_JSON_EACH (r->doc, e, ft) {
        int64_t t;
        if (!mk_pack_whole(r, e, -1, (double)targets - 1, &t))
            return mk_pack_bad(r, "frame_targets", i, "not -1 or a morph target index of the mesh");
        base |= t < 0;
        (*frame_target)[i++] = t < 0 ? MK_NONE : (uint32_t)t;
    }
    if (!base)
        return mk_pack_bad(r, "frame_targets", MK_NONE, "no frame is the base (-1)");
    return MK_OK;
}

static mk_interpolation interpolation_of(mk_pack_reader *r, const mk_gltf_json_value *v, bool *ok)
{
    *ok = true;
    if (!v || mk_gltf_json_string_is(r->doc, v, "linear"))
        return MK_INTERPOLATION_LINEAR;
    if (mk_gltf_json_string_is(r->doc, v, "step"))
        return MK_INTERPOLATION_STEP;
    if (mk_gltf_json_string_is(r->doc, v, "smooth"))
        return MK_INTERPOLATION_SMOOTH;
    *ok = false;
    return MK_INTERPOLATION_LINEAR;
}

/* One clip descriptor; its arrays come from *scratch (freed by the caller). */
typedef struct clip_scratch {
    uint32_t *frames;
    int64_t *durations;
    bool *no_blend;
    mk_clip_event_desc *events;
    char **event_names;
    char *name, *next;
    uint32_t frame_count, event_count;
} clip_scratch;

static void free_clip_scratch(const mk_allocator *al, clip_scratch *c)
{
    mk_free(al, c->frames, (size_t)c->frame_count * sizeof *c->frames);
    mk_free(al, c->durations, (size_t)c->frame_count * sizeof *c->durations);
    mk_free(al, c->no_blend, (size_t)c->frame_count * sizeof *c->no_blend);
    for (uint32_t e = 0; c->event_names && e < c->event_count; e++)
        mk_strfree(al, c->event_names[e]);
    mk_free(al, c->event_names, (size_t)c->event_count * sizeof *c->event_names);
    mk_free(al, c->events, (size_t)c->event_count * sizeof *c->events);
    mk_strfree(al, c->name);
    mk_strfree(al, c->next);
}

static mk_status read_clip(mk_pack_reader *r, const mk_allocator *al, const mk_gltf_json_value *v,
                           uint32_t index, const mk_unit_animation *an, clip_scratch *c,
                           mk_clip_desc *d)
{
    char path[64];
    element_path(path, "clips", index);
    mk_status s;
    if (!mk_gltf_json_is(v, MK_GLTF_JSON_OBJECT))
        return mk_pack_bad(r, path, MK_NONE, "not an object");
    /* absent members have their defaults: the animation's name and
     * frames, loop frame 0, not once, no NoBlend frames, linear, no events */
    if ((s = mk_pack_get_string(r, al, v, "name", path, false, &c->name)) != MK_OK ||
        (s = mk_pack_get_string(r, al, v, "next", path, false, &c->next)) != MK_OK ||
        (s = get_u32_or(r, v, "loop_frame", path, 0, &d->loop_frame)) != MK_OK ||
        (s = get_bool_or(r, v, "once", path, false, &d->once)) != MK_OK)
        return s;
    if (!c->name && !(c->name = mk_strdup(al, an->name)))
        return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    const mk_gltf_json_value *frames = mk_gltf_json_get(r->doc, v, "frames");
    if (frames && (!mk_gltf_json_is(frames, MK_GLTF_JSON_ARRAY) || frames->size == 0))
        return mk_pack_bad(r, path, MK_NONE, "frames is not a non-empty array");
    uint32_t n = c->frame_count = frames ? frames->size : an->frame_count;
    /* durations_us: one per frame, or one number for every frame */
    const mk_gltf_json_value *durs = mk_gltf_json_get(r->doc, v, "durations_us");
    bool one_duration = mk_gltf_json_is(durs, MK_GLTF_JSON_NUMBER);
    if (!one_duration && !get_array(r, v, "durations_us", n))
        return mk_pack_bad(r, path, MK_NONE, "durations_us is not a number or an array of one per frame");
    c->frames = mk_alloc(al, (size_t)n * sizeof *c->frames);
    c->durations = mk_alloc(al, (size_t)n * sizeof *c->durations);
    c->no_blend = mk_alloc(al, (size_t)n * sizeof *c->no_blend);
    if (!c->frames || !c->durations || !c->no_blend)
        return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    memset(c->no_blend, 0, (size_t)n * sizeof *c->no_blend);
    const mk_gltf_json_value *e;
    uint32_t i = 0;
    for (; !frames && i < n; i++)
        c->frames[i] = an->first_frame + i;
    MK_GLTF_JSON_EACH (r->doc, e, frames) {
        int64_t x;
        if (!mk_pack_whole(r, e, 0, UINT32_MAX - 1.0, &x))
            return mk_pack_bad(r, path, MK_NONE, "frames: an entry is not a frame index");
        c->frames[i++] = (uint32_t)x;
    }
    i = 0;
    const mk_gltf_json_value *each = one_duration ? NULL : durs;
    int64_t x;
    if (one_duration && !mk_pack_whole(r, durs, 1, (double)MK_CLIP_MAX_DURATION_US, &x))
        return mk_pack_bad(r, path, MK_NONE, "durations_us is not 1..2^40 microseconds");
    for (; one_duration && i < n; i++)
        c->durations[i] = x;
    MK_GLTF_JSON_EACH (r->doc, e, each) {
        if (!mk_pack_whole(r, e, 1, (double)MK_CLIP_MAX_DURATION_US, &x))
            return mk_pack_bad(r, path, MK_NONE, "durations_us: an entry is not 1..2^40 microseconds");
        c->durations[i++] = x;
    }
    const mk_gltf_json_value *nb = mk_gltf_json_get(r->doc, v, "no_blend");
    if (nb && !mk_gltf_json_is(nb, MK_GLTF_JSON_ARRAY))
        return mk_pack_bad(r, path, MK_NONE, "no_blend is not an array");
    MK_GLTF_JSON_EACH (r->doc, e, nb) {
        if (!mk_pack_whole(r, e, 0, n - 1.0, &x))
            return mk_pack_bad(r, path, MK_NONE, "no_blend: an entry is not a frame of the clip");
        c->no_blend[x] = true;
    }
    bool ok;
    d->interpolation = interpolation_of(r, mk_gltf_json_get(r->doc, v, "interpolation"), &ok);
    if (!ok)
        return mk_pack_bad(r, path, MK_NONE, "interpolation is not \"linear\", \"step\" or \"smooth\"");
    const mk_gltf_json_value *ev = mk_gltf_json_get(r->doc, v, "events");
    if (ev && !mk_gltf_json_is(ev, MK_GLTF_JSON_ARRAY))
        return mk_pack_bad(r, path, MK_NONE, "events is not an array");
    if (ev && ev->size) {
        c->events = mk_alloc(al, (size_t)ev->size * sizeof *c->events);
        c->event_names = mk_alloc(al, (size_t)ev->size * sizeof *c->event_names);
        if (!c->events || !c->event_names)
            return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
        memset(c->event_names, 0, (size_t)ev->size * sizeof *c->event_names);
        c->event_count = ev->size;
    }
    i = 0;
    MK_GLTF_JSON_EACH (r->doc, e, ev) {
        const mk_gltf_json_value *fr = mk_gltf_json_is(e, MK_GLTF_JSON_ARRAY) && e->size == 2 ? e + 1 : NULL;
        const mk_gltf_json_value *nm = fr ? r->doc->values + fr->next : NULL;
        if (!fr || !mk_pack_whole(r, fr, 0, UINT32_MAX - 1.0, &x) || !mk_gltf_json_is(nm, MK_GLTF_JSON_STRING))
            return mk_pack_bad(r, path, MK_NONE, "events: an entry is not [frame, \"name\"]");
        size_t len = mk_gltf_json_string_copy(r->doc, nm, NULL, 0);
        if (!(c->event_names[i] = mk_alloc(al, len + 1)))
            return mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
        mk_gltf_json_string_copy(r->doc, nm, c->event_names[i], len + 1);
        if (strlen(c->event_names[i]) != len) {
            mk_free(al, c->event_names[i], len + 1);
            c->event_names[i] = NULL;
            return mk_pack_bad(r, path, MK_NONE, "events: a name contains a NUL character");
        }
        c->events[i].frame = (uint32_t)x;
        c->events[i].name = c->event_names[i];
        i++;
    }
    d->name = c->name;
    d->frame_count = n;
    d->frames = c->frames;
    d->durations_us = c->durations;
    d->next = c->next;
    d->no_blend = c->no_blend;
    d->events = c->events;
    d->event_count = c->event_count;
    return MK_OK;
}

mk_status mk_pack_read_clips(mk_pack_reader *r, const mk_gltf_json_value *x, mk_unit *u)
{
    const mk_allocator *al = &u->allocator;
    const mk_gltf_json_value *clips = get_array(r, x, "clips", u->files->animation_count), *e;
    if (!clips)
        return mk_pack_bad(r, "clips", MK_NONE, "missing, or not one clip per animation");
    uint32_t n = clips->size;
    clip_scratch *cs = mk_alloc(al, (size_t)n * sizeof *cs);
    mk_clip_desc *ds = mk_alloc(al, (size_t)n * sizeof *ds);
    mk_status s = MK_OK;
    if (!cs || !ds) {
        s = mk_error_set(r->err, MK_ERR_OUT_OF_MEMORY, r->file, 0, "out of memory");
    } else {
        memset(cs, 0, (size_t)n * sizeof *cs);
        memset(ds, 0, (size_t)n * sizeof *ds);
        uint32_t i = 0;
        MK_GLTF_JSON_EACH (r->doc, e, clips) {
            if (s == MK_OK)
                s = read_clip(r, al, e, i, &u->files->animations[i], &cs[i], &ds[i]);
            if (s == MK_OK && strcmp(cs[i].name, u->files->animations[i].name) != 0)
                s = mk_pack_bad(r, "clips", i, "name differs from the animation's");
            i++;
        }
        if (s == MK_OK) {
            mk_clip_set_desc sd = {ds, n, u->files->frame_count};
            mk_error e2;
            s = mk_clip_set_create(&sd, al, &u->clips, &e2);
            if (s != MK_OK)
                s = mk_error_set(r->err, s, r->file, 0, "extras.morphkit.clips: %s", e2.message);
        }
        for (uint32_t k = 0; k < n; k++)
            free_clip_scratch(al, &cs[k]);
    }
    mk_free(al, cs, (size_t)n * sizeof *cs);
    mk_free(al, ds, (size_t)n * sizeof *ds);
    return s;
}

