/* OBJ materials: the diffuse colour of a .mtl material and of a unit (see
 * material.h). Lines are scanned in place; numbers go through the one float
 * scanner the OBJ reader uses. */
#include <string.h>

#include "decimal.h"
#include "file_internal.h"
#include "internal.h"
#include "io_internal.h"
#include "morphkit/material.h"

/* One line of text: [start, end) without the newline, a CR, or a comment. */
typedef struct line_view {
    const char *start, *end;
    int number;
} line_view;

static bool next_line(const char **p, const char *end, line_view *l)
{
    if (*p >= end)
        return false;
    const char *s = *p, *e = s;
    while (e < end && *e != '\n')
        e++;
    *p = e < end ? e + 1 : e;
    const char *hash = memchr(s, '#', (size_t)(e - s));
    if (hash)
        e = hash;
    while (e > s && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
        e--;
    while (s < e && (*s == ' ' || *s == '\t'))
        s++;
    l->start = s, l->end = e;
    l->number++;
    return true;
}

/* When the line starts with keyword and a blank, the rest (trimmed). */
static const char *after_keyword(const line_view *l, const char *keyword)
{
    size_t k = strlen(keyword);
    if ((size_t)(l->end - l->start) <= k || memcmp(l->start, keyword, k) != 0 ||
        (l->start[k] != ' ' && l->start[k] != '\t'))
        return NULL;
    const char *v = l->start + k;
    while (v < l->end && (*v == ' ' || *v == '\t'))
        v++;
    return v;
}

static bool rest_is(const line_view *l, const char *v, const char *s)
{
    return (size_t)(l->end - v) == strlen(s) && memcmp(v, s, strlen(s)) == 0;
}

/* Scans n blank-separated floats that fill the rest of the line. */
static bool scan_floats(const char *v, const char *end, float *out, int n)
{
    for (int i = 0; i < n; i++) {
        while (v < end && (*v == ' ' || *v == '\t'))
            v++;
        mk_decimal d;
        v = mk_decimal_scan(v, end, MK_DECIMAL_OBJ, &d);
        if (!v || (v < end && *v != ' ' && *v != '\t'))
            return false;
        out[i] = mk_decimal_float(&d);
    }
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    return v == end;
}

mk_status mk_mtl_diffuse(const char *text, size_t size, const char *name, const char *material,
                         float rgba[4], mk_error *err)
{
    if ((!text && size) || !rgba)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, name, 0,
                            "mk_mtl_diffuse: rgba (and text, when size > 0) must not be NULL");
    const char *p = text, *end = text + size;
    if (size >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) /* UTF-8 byte order mark */
        p += 3;
    bool want_first = !material || !material[0], active = false, seen = false, found = false;
    float c[4] = {0, 0, 0, 1};
    line_view l = {NULL, NULL, 0};
    while (next_line(&p, end, &l)) {
        const char *v;
        if ((v = after_keyword(&l, "newmtl")) != NULL) {
            if (found)
                break; /* the wanted material is complete */
            active = want_first ? !seen : rest_is(&l, v, material);
            seen = true;
        } else if (active && (v = after_keyword(&l, "Kd")) != NULL) {
            if (!scan_floats(v, l.end, c, 3))
                return mk_error_set(err, MK_ERR_PARSE, name, l.number,
                                    "Kd needs three numbers (red green blue)");
            found = true;
        } else if (active && (v = after_keyword(&l, "d")) != NULL) {
            if (!scan_floats(v, l.end, &c[3], 1))
                return mk_error_set(err, MK_ERR_PARSE, name, l.number, "d needs one number");
        }
    }
    if (!found)
        return mk_error_set(err, MK_ERR_NOT_FOUND, name, 0, "%s%s%s has no Kd",
                            want_first ? "the first material" : "material '",
                            want_first ? "" : material, want_first ? "" : "'");
    memcpy(rgba, c, sizeof c);
    return MK_OK;
}

/* The rest of the first line starting with keyword, copied (NUL-terminated). */
static bool find_value(const char *text, size_t size, const char *keyword, char *out,
                       size_t out_size)
{
    const char *p = text, *end = text + size;
    line_view l = {NULL, NULL, 0};
    while (next_line(&p, end, &l)) {
        const char *v = after_keyword(&l, keyword);
        if (v) {
            size_t n = (size_t)(l.end - v);
            if (n >= out_size)
                return false; /* a name this long is not one we can open */
            memcpy(out, v, n);
            out[n] = '\0';
            return true;
        }
    }
    return false;
}

mk_status mk_unit_diffuse(const mk_unit *unit, const mk_unit_options *options,
                          const mk_allocator *allocator, float rgba[4], mk_error *err)
{
    if (!unit || !rgba || !unit->files || unit->files->frame_count == 0)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "mk_unit_diffuse: unit and rgba must not be NULL");
    const mk_file_callbacks *files = options ? options->files : NULL;
    char *frame = mk_path_join(allocator, unit->files->dir, unit->files->frame_files[0]);
    if (!frame)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, unit->files->dir, 0, "out of memory");
    void *data = NULL;
    size_t size = 0;
    char lib[1024], use[256] = "";
    mk_status st = mk_file_read(files, frame, allocator, 0, &data, &size, err);
    if (st == MK_OK) {
        if (!find_value(data, size, "mtllib", lib, sizeof lib))
            st = mk_error_set(err, MK_ERR_NOT_FOUND, frame, 0, "no mtllib line");
        find_value(data, size, "usemtl", use, sizeof use);
        mk_file_release(files, allocator, data, size);
    }
    mk_strfree(allocator, frame);
    if (st != MK_OK)
        return st;
    char *path = mk_path_join(allocator, unit->files->dir, lib);
    if (!path)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, unit->files->dir, 0, "out of memory");
    st = mk_file_read(files, path, allocator, (size_t)16 << 20, &data, &size, err);
    if (st == MK_OK) {
        st = mk_mtl_diffuse(data, size, path, use, rgba, err);
        mk_file_release(files, allocator, data, size);
    }
    mk_strfree(allocator, path);
    return st;
}
