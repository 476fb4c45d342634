/* Unit folder discovery: `<Animation>_<N>.obj` files (or `<Animation><N>`,
 * `.<N>`, `-<N>`), grouped and checked for gaps and duplicate numbers. Directory order is arbitrary, so everything is
 * sorted (animation names by bytes, then frame numbers). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "internal.h"
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

static bool is_regular_file(const char *dir, const char *file)
{
    char path[4096];
    struct stat st;
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, file) >= sizeof path)
        return false;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
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

/* Reads the frame files of dir into a sorted array. */
static mk_status list_entries(const char *dir, const mk_allocator *al, entry **out,
                              uint32_t *count, uint32_t *capacity, mk_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return mk_error_set(err, MK_ERR_IO, dir, 0, "cannot open folder: %s", strerror(errno));
    entry *items = NULL;
    uint32_t n = 0, cap = 0;
    mk_status st = MK_OK;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        entry e;
        if (!parse_frame_name(de->d_name, &e.name_len, &e.number, &e.digits, &e.sep) ||
            !is_regular_file(dir, de->d_name))
            continue;
        if (n == cap) {
            uint32_t nc = cap ? cap * 2 : 32;
            entry *p = mk_realloc(al, items, cap * sizeof *items, nc * sizeof *items);
            if (!p || nc < cap) {
                st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, dir, 0, "out of memory listing frames");
                break;
            }
            items = p;
            cap = nc;
        }
        e.file = mk_strdup(al, de->d_name);
        if (!e.file) {
            st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, dir, 0, "out of memory listing frames");
            break;
        }
        items[n++] = e;
    }
    closedir(d);
    if (st != MK_OK) {
        for (uint32_t i = 0; i < n; i++)
            mk_strfree(al, items[i].file);
        mk_free(al, items, cap * sizeof *items);
        return st;
    }
    if (n)
        qsort(items, n, sizeof *items, compare_entries);
    *out = items;
    *count = n;
    *capacity = cap;
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
                             mk_unit_files **out, mk_error *err)
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
    char path[4096];
    struct stat st;
    f->has_config = (size_t)snprintf(path, sizeof path, "%s/animation.cfg", dir) < sizeof path &&
                    stat(path, &st) == 0 && S_ISREG(st.st_mode);
    *out = f;
    return MK_OK;
}

mk_status mk_unit_discover(const char *dir, const mk_allocator *al, mk_unit_files **out,
                           mk_error *err)
{
    *out = NULL;
    entry *items = NULL;
    uint32_t n = 0, cap = 0;
    mk_status st = list_entries(dir, al, &items, &n, &cap, err);
    if (st != MK_OK)
        return st;
    if (n == 0)
        st = mk_error_set(err, MK_ERR_NOT_FOUND, dir, 0,
                          "no frame files (named <Animation>_<N>.obj or <Animation><N>.obj) in this folder");
    if (st == MK_OK)
        st = check_sequence(dir, items, n, err);
    if (st == MK_OK)
        st = build_files(dir, al, items, n, out, err);
    for (uint32_t i = 0; i < n; i++)
        mk_strfree(al, items[i].file);
    mk_free(al, items, cap * sizeof *items);
    return st;
}

bool mk_is_unit_folder(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool found = false;
    for (struct dirent *de; !found && (de = readdir(d)) != NULL;) {
        size_t nl;
        uint32_t num;
        int digits;
        char sep;
        found = parse_frame_name(de->d_name, &nl, &num, &digits, &sep) &&
                is_regular_file(dir, de->d_name);
    }
    closedir(d);
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

mk_status mk_unit_list(const char *root, const mk_allocator *al, char ***out, uint32_t *count,
                       mk_error *err)
{
    *out = NULL;
    *count = 0;
    DIR *d = opendir(root);
    if (!d)
        return mk_error_set(err, MK_ERR_IO, root, 0, "cannot open folder: %s", strerror(errno));
    char **paths = NULL;
    uint32_t n = 0, cap = 0;
    mk_status st = MK_OK;
    for (struct dirent *de; st == MK_OK && (de = readdir(d)) != NULL;) {
        if (de->d_name[0] == '.')
            continue;
        size_t len = strlen(root) + strlen(de->d_name) + 2;
        char *p = mk_alloc(al, len);
        if (!p) {
            st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, root, 0, "out of memory");
            break;
        }
        snprintf(p, len, "%s/%s", root, de->d_name);
        if (!mk_is_unit_folder(p)) {
            mk_free(al, p, len);
            continue;
        }
        if (n == cap) {
            uint32_t nc = cap ? cap * 2 : 16;
            char **np = mk_realloc(al, paths, cap * sizeof *paths, nc * sizeof *paths);
            if (!np) {
                mk_free(al, p, len);
                st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, root, 0, "out of memory");
                break;
            }
            paths = np;
            cap = nc;
        }
        paths[n++] = p;
    }
    closedir(d);
    if (st == MK_OK && n == 0)
        st = mk_error_set(err, MK_ERR_NOT_FOUND, root, 0,
                          "neither a unit folder (no <Animation>_<N>.obj or <Animation><N>.obj "
                          "files) nor a library "
                          "root (no sub-folder holds any)");
    if (st != MK_OK) {
        for (uint32_t i = 0; i < n; i++)
            mk_strfree(al, paths[i]);
        mk_free(al, paths, cap * sizeof *paths);
        return st;
    }
    qsort(paths, n, sizeof *paths, compare_strings);
    /* shrink so mk_unit_list_free can pass the exact size */
    if (cap != n) {
        char **np = mk_realloc(al, paths, cap * sizeof *paths, n * sizeof *paths);
        if (!np) {
            for (uint32_t i = 0; i < n; i++)
                mk_strfree(al, paths[i]);
            mk_free(al, paths, cap * sizeof *paths);
            return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, root, 0, "out of memory");
        }
        paths = np;
    }
    *out = paths;
    *count = n;
    return MK_OK;
}
