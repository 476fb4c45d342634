/* Unit folder discovery: `<Animation>_<N>.obj` files (or `<Animation><N>`,
 * `.<N>`, `-<N>`), grouped and checked for gaps and duplicate numbers. Directory order is arbitrary, so everything is
 * sorted (animation names by bytes, then frame numbers). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "file_internal.h"
#include "internal.h"
#include "morphkit/anim_config.h"
#include "morphkit/unit.h"

#define MK_MAX_FRAME_DIGITS 9 /* keeps N well inside uint32_t */

typedef struct entry {
    char *file;       /* file name */
    size_t name_len;  /* animation name = file[0, name_len) */
    uint32_t number;
    int digits;       /* as written, for naming a missing file with the same padding */
    char sep;         /* separator before the number ('_', '.', '-'), 0 for none */
} entry;

/* Splits a frame file name: the trailing digits before `.obj` are the frame
 * number (any zero padding), the animation name is what precedes them minus
 * one separator (`_`, `.` or `-`), so `Walk_0042.obj`, `Walk42.obj`,
 * `Walk.42.obj` and `Walk-42.obj` are all frame 42 of `Walk` (Blender 3.4's
 * OBJ exporter writes `Walk42.obj`). False when the file is not a frame file. */
static bool parse_frame_name(const char *file, size_t *name_len, uint32_t *number, int *digits,
                             char *sep)
{
    size_t len = strlen(file);
    if (len < 6 || strcasecmp(file + len - 4, ".obj") != 0)
        return false;
    const char *end = file + len - 4, *d = end;
    while (d > file && d[-1] >= '0' && d[-1] <= '9')
        d--;
    if (d == end)
        return false;
    const char *name_end = d;
    *sep = 0;
    if (name_end > file && (name_end[-1] == '_' || name_end[-1] == '.' || name_end[-1] == '-'))
        *sep = *--name_end;
    if (name_end == file)
        return false;
    const char *p = d;
    while (p < end - 1 && *p == '0') /* padding does not count against the digit limit */
        p++;
    if (end - p > MK_MAX_FRAME_DIGITS)
        return false;
    uint32_t n = 0;
    for (; p < end; p++)
        n = n * 10 + (uint32_t)(*p - '0');
    *name_len = (size_t)(name_end - file);
    *number = n;
    *digits = (int)(end - d);
    return true;
}

static const mk_file_callbacks *files_of(const mk_unit_options *options)
{
    return options ? options->files : NULL;
}

static int compare_entries(const void *pa, const void *pb)
{
    const entry *a = pa, *b = pb;
    size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
    int c = memcmp(a->file, b->file, n);
    if (c != 0)
        return c;
    if (a->name_len != b->name_len)
        return a->name_len < b->name_len ? -1 : 1;
    if (a->number != b->number)
        return a->number < b->number ? -1 : 1;
    return strcmp(a->file, b->file); /* duplicates are named in a stable order */
}

static bool same_animation(const entry *a, const entry *b)
{
    return a->name_len == b->name_len && memcmp(a->file, b->file, a->name_len) == 0;
}

/* What listing a unit folder collects. */
typedef struct frame_list {
    const mk_allocator *al;
    entry *items;
    uint32_t count, capacity;
    bool has_config;
    bool out_of_memory;
} frame_list;

static bool collect_frame(void *context, const char *name, mk_file_kind kind)
{
    frame_list *l = context;
    entry e;
    if (kind != MK_FILE_REGULAR)
        return true;
    if (strcmp(name, MK_ANIM_CONFIG_FILE) == 0)
        l->has_config = true;
    if (!parse_frame_name(name, &e.name_len, &e.number, &e.digits, &e.sep))
        return true;
    if (l->count == l->capacity) {
        uint32_t nc = l->capacity ? l->capacity * 2 : 32;
        entry *p = nc < l->capacity ? NULL
                                    : mk_realloc(l->al, l->items, l->capacity * sizeof *p,
                                                 nc * sizeof *p);
        if (!p) {
            l->out_of_memory = true;
            return false;
        }
        l->items = p;
        l->capacity = nc;
    }
    e.file = mk_strdup(l->al, name);
    if (!e.file) {
        l->out_of_memory = true;
        return false;
    }
    l->items[l->count++] = e;
    return true;
}

static void free_frame_list(frame_list *l)
{
    for (uint32_t i = 0; i < l->count; i++)
        mk_strfree(l->al, l->items[i].file);
    mk_free(l->al, l->items, l->capacity * sizeof *l->items);
}

/* Lists the frame files of dir into a sorted array. */
static mk_status list_entries(const char *dir, const mk_file_callbacks *files, frame_list *l,
                              mk_error *err)
{
    mk_status st = mk_file_list(files, dir, collect_frame, l, err);
    if (st == MK_OK && l->out_of_memory)
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, dir, 0, "out of memory listing frames");
    if (st != MK_OK)
        return st;
    if (l->count)
        qsort(l->items, l->count, sizeof *l->items, compare_entries);
    return MK_OK;
}

/* Names the first missing or duplicated frame of a sorted list, if any. */
static mk_status check_sequence(const char *dir, const entry *items, uint32_t n, mk_error *err)
{
    for (uint32_t i = 1; i < n; i++) {
        const entry *a = &items[i - 1], *b = &items[i];
        if (!same_animation(a, b))
            continue;
        if (a->number == b->number)
            return mk_error_set(err, MK_ERR_PARSE, dir, 0,
                                "'%s' and '%s' are both frame %u of animation '%.*s'", a->file,
                                b->file, a->number, (int)a->name_len, a->file);
        if (b->number != a->number + 1) {
            /* name the gap with the separator and padding its neighbour uses */
            int width = a->digits;
            return mk_error_set(err, MK_ERR_NOT_FOUND, dir, 0,
                                "missing frame file '%.*s%.*s%0*u.obj' (animation '%.*s' has "
                                "'%s' and '%s')",
                                (int)a->name_len, a->file, a->sep ? 1 : 0, &a->sep, width,
                                a->number + 1,
                                (int)a->name_len, a->file, a->file, b->file);
        }
    }
    return MK_OK;
}

void mk_unit_files_destroy(mk_unit_files *f)
{
    if (!f)
        return;
    mk_allocator a = f->allocator;
    for (uint32_t i = 0; i < f->animation_count; i++)
        mk_strfree(&a, f->animations[i].name);
    for (uint32_t i = 0; i < f->frame_count; i++)
        mk_strfree(&a, f->frame_files[i]);
    mk_free(&a, f->animations, f->animation_count * sizeof *f->animations);
    mk_free(&a, f->frame_files, f->frame_count * sizeof *f->frame_files);
    mk_strfree(&a, f->dir);
    mk_free(&a, f, sizeof *f);
}

static mk_status build_files(const char *dir, const mk_allocator *al, entry *items, uint32_t n,
                             bool has_config, mk_unit_files **out, mk_error *err)
{
    mk_unit_files *f = mk_alloc(al, sizeof *f);
    if (!f)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, dir, 0, "out of memory");
    memset(f, 0, sizeof *f);
    f->allocator = mk_allocator_copy(al);
    uint32_t anims = 1;
    for (uint32_t i = 1; i < n; i++)
        anims += !same_animation(&items[i - 1], &items[i]);
    f->dir = mk_strdup(al, dir);
    f->animations = mk_alloc(al, anims * sizeof *f->animations);
    f->frame_files = mk_alloc(al, n * sizeof *f->frame_files);
    if (!f->dir || !f->animations || !f->frame_files) {
        mk_free(al, f->animations, anims * sizeof *f->animations);
        mk_free(al, f->frame_files, n * sizeof *f->frame_files);
        mk_strfree(al, f->dir);
        mk_free(al, f, sizeof *f);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, dir, 0, "out of memory");
    }
    memset(f->animations, 0, anims * sizeof *f->animations);
    /* the file names move from items into f */
    for (uint32_t i = 0; i < n; i++) {
        f->frame_files[i] = items[i].file;
        items[i].file = NULL;
    }
    f->frame_count = n;
    f->animation_count = anims;
    uint32_t a = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i > 0 && !(items[i].name_len == items[i - 1].name_len &&
                       memcmp(f->frame_files[i], f->frame_files[i - 1], items[i].name_len) == 0))
            a++;
        mk_unit_animation *an = &f->animations[a];
        if (an->frame_count++ == 0) {
            an->first_frame = i;
            an->first_number = items[i].number;
            an->name = mk_alloc(al, items[i].name_len + 1);
            if (!an->name) {
                mk_unit_files_destroy(f);
                return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, dir, 0, "out of memory");
            }
            memcpy(an->name, f->frame_files[i], items[i].name_len);
            an->name[items[i].name_len] = '\0';
        }
    }
    f->has_config = has_config;
    *out = f;
    return MK_OK;
}

mk_status mk_unit_discover(const char *dir, const mk_unit_options *options,
                           const mk_allocator *al, mk_unit_files **out, mk_error *err)
{
    if (!dir || !out)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, dir, 0,
                            "mk_unit_discover: dir and out must not be NULL");
    *out = NULL;
    frame_list l = {al, NULL, 0, 0, false, false};
    mk_status st = list_entries(dir, files_of(options), &l, err);
    if (st == MK_OK && l.count == 0)
        st = mk_error_set(err, MK_ERR_NOT_FOUND, dir, 0,
                          "no frame files (named <Animation>_<N>.obj or <Animation><N>.obj) in this folder");
    if (st == MK_OK)
        st = check_sequence(dir, l.items, l.count, err);
    if (st == MK_OK)
        st = build_files(dir, al, l.items, l.count, l.has_config, out, err);
    free_frame_list(&l);
    return st;
}

static bool find_frame(void *context, const char *name, mk_file_kind kind)
{
    size_t nl;
    uint32_t num;
    int digits;
    char sep;
    bool *found = context;
    *found = kind == MK_FILE_REGULAR && parse_frame_name(name, &nl, &num, &digits, &sep);
    return !*found;
}

bool mk_is_unit_folder(const char *dir, const mk_unit_options *options)
{
    bool found = false;
    if (!dir || mk_file_list(files_of(options), dir, find_frame, &found, NULL) != MK_OK)
        return false;
    return found;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void mk_unit_list_free(const mk_allocator *al, char **paths, uint32_t count)
{
    if (!paths)
        return;
    for (uint32_t i = 0; i < count; i++)
        mk_strfree(al, paths[i]);
    mk_free(al, paths, count * sizeof *paths);
}

/* A growing array of strings (mk_strdup'd). */
typedef struct name_list {
    const mk_allocator *al;
    char **items;
    uint32_t count, capacity;
    bool out_of_memory;
} name_list;

static bool name_list_push(name_list *l, char *s)
{
    if (!s) {
        l->out_of_memory = true;
        return false;
    }
    if (l->count == l->capacity) {
        uint32_t nc = l->capacity ? l->capacity * 2 : 16;
        char **p = nc < l->capacity ? NULL
                                    : mk_realloc(l->al, l->items, l->capacity * sizeof *p,
                                                 nc * sizeof *p);
        if (!p) {
            mk_strfree(l->al, s);
            l->out_of_memory = true;
            return false;
        }
        l->items = p;
        l->capacity = nc;
    }
    l->items[l->count++] = s;
    return true;
}

static void name_list_free(name_list *l)
{
    for (uint32_t i = 0; i < l->count; i++)
        mk_strfree(l->al, l->items[i]);
    mk_free(l->al, l->items, l->capacity * sizeof *l->items);
}

static bool collect_folder(void *context, const char *name, mk_file_kind kind)
{
    name_list *l = context;
    if (kind != MK_FILE_FOLDER || name[0] == '.')
        return true;
    return name_list_push(l, mk_strdup(l->al, name));
}

mk_status mk_unit_list(const char *root, const mk_unit_options *options, const mk_allocator *al,
                       char ***out, uint32_t *count, mk_error *err)
{
    if (!root || !out || !count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, root, 0,
                            "mk_unit_list: root, paths and count must not be NULL");
    *out = NULL;
    *count = 0;
    /* Sub-folders are collected first and checked after the listing, so a
     * callback never has to list while it is listing. */
    name_list subs = {al, NULL, 0, 0, false}, units = {al, NULL, 0, 0, false};
    mk_status st = mk_file_list(files_of(options), root, collect_folder, &subs, err);
    for (uint32_t i = 0; st == MK_OK && !subs.out_of_memory && i < subs.count; i++) {
        char *p = mk_path_join(al, root, subs.items[i]);
        if (!p) {
            units.out_of_memory = true;
            break;
        }
        if (mk_is_unit_folder(p, options))
            name_list_push(&units, p);
        else
            mk_strfree(al, p);
    }
    name_list_free(&subs);
    if (st == MK_OK && (subs.out_of_memory || units.out_of_memory))
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, root, 0, "out of memory");
    if (st == MK_OK && units.count == 0)
        st = mk_error_set(err, MK_ERR_NOT_FOUND, root, 0,
                          "neither a unit folder (no <Animation>_<N>.obj or <Animation><N>.obj "
                          "files) nor a library "
                          "root (no sub-folder holds any)");
    /* shrink so mk_unit_list_free can pass the exact size */
    if (st == MK_OK && units.capacity != units.count) {
        char **np = mk_realloc(al, units.items, units.capacity * sizeof *np,
                               units.count * sizeof *np);
        if (!np)
            st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, root, 0, "out of memory");
        else
            units.items = np, units.capacity = units.count;
    }
    if (st != MK_OK) {
        name_list_free(&units);
        return st;
    }
    qsort(units.items, units.count, sizeof *units.items, compare_strings);
    *out = units.items;
    *count = units.count;
    return MK_OK;
}

/* ---- naming notes ---------------------------------------------------------- */

/* Every .obj name of a folder listing (not hidden ones). */
typedef struct obj_names {
    const mk_allocator *al;
    char **items;
    uint32_t count, capacity;
    bool out_of_memory;
} obj_names;

static bool collect_obj(void *context, const char *name, mk_file_kind kind)
{
    obj_names *l = context;
    (void)kind; /* any entry named like a frame file is worth a note */
    size_t n = strlen(name);
    if (n < 4 || strcasecmp(name + n - 4, ".obj") != 0 || name[0] == '.')
        return true;
    if (l->count == l->capacity) {
        uint32_t nc = l->capacity ? l->capacity * 2 : 16;
        char **p = nc < l->capacity ? NULL
                                    : mk_realloc(l->al, l->items, l->capacity * sizeof *p,
                                                 nc * sizeof *p);
        if (!p) {
            l->out_of_memory = true;
            return false;
        }
        l->items = p;
        l->capacity = nc;
    }
    if (!(l->items[l->count] = mk_strdup(l->al, name))) {
        l->out_of_memory = true;
        return false;
    }
    l->count++;
    return true;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

uint32_t mk_unit_naming_notes(const char *dir, const mk_unit_files *files,
                              const mk_unit_options *options, const mk_allocator *al,
                              mk_report *report)
{
    if (!dir || !report)
        return 0;
    uint32_t notes = 0;
    obj_names l = {al, NULL, 0, 0, false};
    mk_error e;
    if (mk_file_list(files_of(options), dir, collect_obj, &l, &e) == MK_OK && !l.out_of_memory) {
        if (l.count)
            qsort(l.items, l.count, sizeof *l.items, compare_names); /* stable output */
        for (uint32_t i = 0; i < l.count; i++) {
            bool frame = false;
            for (uint32_t f = 0; files && f < files->frame_count && !frame; f++)
                frame = strcmp(files->frame_files[f], l.items[i]) == 0;
            if (!frame)
                notes += mk_report_add(report, MK_SEVERITY_NOTE, MK_CHECK_NAMING, dir, 0, NULL,
                                       0,
                                       "'%s' is not a frame: frame files are named "
                                       "<Animation>_<N>.obj",
                                       l.items[i]);
        }
    }
    for (uint32_t i = 0; i < l.count; i++)
        mk_strfree(al, l.items[i]);
    mk_free(al, l.items, l.capacity * sizeof *l.items);
    for (uint32_t a = 0; files && a < files->animation_count; a++)
        for (uint32_t b = a + 1; b < files->animation_count; b++)
            if (strcasecmp(files->animations[a].name, files->animations[b].name) == 0)
                notes += mk_report_add(report, MK_SEVERITY_NOTE, MK_CHECK_NAMING, dir, 0, NULL,
                                       0,
                                       "animations '%s' and '%s' differ only in case (one "
                                       "animation on a case-insensitive disk)",
                                       files->animations[a].name, files->animations[b].name);
    return notes;
}
