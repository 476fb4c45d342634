/* OBJ materials: the one .mtl reader (mk_mtl_parse) and, on top of it, the
 * diffuse colour of a material and of a unit (see material.h). Lines are
 * scanned in place; numbers go through the one float scanner the OBJ reader
 * uses. */
#include <string.h>
#include <strings.h>

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

/* map_Kd options and how many arguments each takes at most (-o, -s, -t
 * take one to three numbers; the others a fixed count). */
static int option_args(const char *o, size_t n, bool *numbers)
{
    static const struct {
        const char *name;
        int args;
        bool numbers;
    } opts[] = {{"-blendu", 1, false}, {"-blendv", 1, false}, {"-bm", 1, true},
                {"-boost", 1, true},   {"-cc", 1, false},     {"-clamp", 1, false},
                {"-imfchan", 1, false}, {"-mm", 2, true},     {"-o", 3, true},
                {"-s", 3, true},       {"-t", 3, true},       {"-texres", 1, true}};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (strlen(opts[i].name) == n && memcmp(opts[i].name, o, n) == 0) {
            *numbers = opts[i].numbers;
            return opts[i].args;
        }
    return -1;
}

static const char *skip_blanks(const char *v, const char *end)
{
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    return v;
}

/* Parses map_Kd's options into m and returns where the file name starts. */
static const char *map_options(const char *v, const char *end, mk_mtl_material *m)
{
    while (v < end && *v == '-') {
        const char *o = v;
        while (v < end && *v != ' ' && *v != '\t')
            v++;
        bool numbers = false;
        int args = option_args(o, (size_t)(v - o), &numbers);
        if (args < 0)
            return skip_blanks(v, end); /* unknown: skip the option word only */
        float *dst = (v - o == 2 && o[1] == 'o') ? m->map_offset
                     : (v - o == 2 && o[1] == 's') ? m->map_scale
                                                   : NULL;
        for (int i = 0; i < args; i++) {
            v = skip_blanks(v, end);
            if (numbers) {
                mk_decimal d;
                const char *q = mk_decimal_scan(v, end, MK_DECIMAL_OBJ, &d);
                if (!q || (q < end && *q != ' ' && *q != '\t'))
                    break; /* -o/-s/-t take one to three numbers */
                if (dst)
                    dst[i] = mk_decimal_float(&d);
                v = q;
            } else {
                while (v < end && *v != ' ' && *v != '\t')
                    v++;
            }
        }
        v = skip_blanks(v, end);
    }
    return v;
}

/* One pass over the text: counts materials and string bytes (lib NULL) or
 * fills lib's materials, copying strings to *strings. */
static void mtl_pass(const char *text, size_t size, mk_mtl_library *lib, char *strings,
                     uint32_t *count, size_t *string_bytes)
{
    const char *p = text, *end = text + size;
    if (size >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) /* UTF-8 byte order mark */
        p += 3;
    uint32_t n = 0;
    size_t bytes = 0;
    mk_mtl_material *m = NULL;
    line_view l = {NULL, NULL, 0};
    while (next_line(&p, end, &l)) {
        const char *v;
        const char *str = NULL, *str_end = NULL;
        if ((v = after_keyword(&l, "newmtl")) != NULL) {
            m = lib ? &lib->materials[n] : NULL;
            n++;
            str = v, str_end = l.end;
            if (m) {
                for (int i = 0; i < 4; i++)
                    m->diffuse[i] = 1.0f;
                for (int i = 0; i < 3; i++)
                    m->map_scale[i] = 1.0f;
                m->line = l.number;
                m->diffuse_map = "";
            }
        } else if (!m) {
            if (lib || n == 0 || !(v = after_keyword(&l, "map_Kd")))
                continue;
            /* sizing pass: a map_Kd file name is at most the rest of its line */
            bytes += (size_t)(l.end - v) + 1;
            continue;
        } else if ((v = after_keyword(&l, "Kd")) != NULL) {
            float c[3];
            if (scan_floats(v, l.end, c, 3)) {
                memcpy(m->diffuse, c, sizeof c);
                m->has_diffuse = true;
            } else if (!m->error_line) {
                m->error_line = l.number;
                m->error = "Kd needs three numbers (red green blue)";
            }
        } else if ((v = after_keyword(&l, "d")) != NULL ||
                   (v = after_keyword(&l, "Tr")) != NULL) {
            float x;
            bool tr = l.start[0] == 'T';
            if (scan_floats(v, l.end, &x, 1))
                m->diffuse[3] = tr ? 1.0f - x : x;
            else if (!m->error_line) {
                m->error_line = l.number;
                m->error = tr ? "Tr needs one number" : "d needs one number";
            }
        } else if ((v = after_keyword(&l, "map_Kd")) != NULL) {
            str = map_options(v, l.end, m), str_end = l.end;
            m->diffuse_map_line = l.number;
        }
        if (!str)
            continue;
        size_t len = (size_t)(str_end - str);
        if (lib) {
            memcpy(strings, str, len);
            strings[len] = '\0';
            if (m->diffuse_map_line == l.number)
                m->diffuse_map = strings;
            else
                m->name = strings;
            strings += len + 1;
        }
        bytes += len + 1;
    }
    *count = n;
    *string_bytes = bytes;
}

mk_status mk_mtl_parse(const char *text, size_t size, const char *name,
                       const mk_allocator *allocator, mk_mtl_library **out, mk_error *err)
{
    if ((!text && size) || !out)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, name, 0,
                            "mk_mtl_parse: out (and text, when size > 0) must not be NULL");
    *out = NULL;
    uint32_t count = 0;
    size_t bytes = 0;
    mtl_pass(text, size, NULL, NULL, &count, &bytes);
    size_t total = sizeof(mk_mtl_library), o_mat, o_str;
    if (!mk_layout_add(&total, count, sizeof(mk_mtl_material), &o_mat) ||
        !mk_layout_add(&total, bytes + 1, 1, &o_str))
        return mk_error_set(err, MK_ERR_LIMIT, name, 0, "material library too large");
    unsigned char *block = mk_alloc(allocator, total);
    if (!block)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, name, 0, "out of memory");
    memset(block, 0, total);
    mk_mtl_library *lib = (mk_mtl_library *)block;
    lib->materials = (mk_mtl_material *)(block + o_mat);
    char *strings = (char *)(block + o_str);
    lib->material_count = count;
    lib->allocator = mk_allocator_copy(allocator);
    lib->byte_size = total;
    mtl_pass(text, size, lib, strings, &count, &bytes);
    *out = lib;
    return MK_OK;
}

void mk_mtl_library_destroy(mk_mtl_library *lib)
{
    if (!lib)
        return;
    mk_allocator a = lib->allocator;
    mk_free(&a, lib, lib->byte_size);
}

const mk_mtl_material *mk_mtl_library_find(const mk_mtl_library *lib, const char *material)
{
    if (!lib || lib->material_count == 0)
        return NULL;
    if (!material || !material[0])
        return &lib->materials[0];
    for (uint32_t i = 0; i < lib->material_count; i++)
        if (strcmp(lib->materials[i].name, material) == 0)
            return &lib->materials[i];
    return NULL;
}

/* The wanted material of a parsed library as mk_mtl_diffuse answers it;
 * textured: a material with a map_Kd but no Kd counts as white. */
static mk_status library_diffuse(const mk_mtl_library *lib, const char *name,
                                 const char *material, bool textured, float rgba[4],
                                 const mk_mtl_material **found, mk_error *err)
{
    bool want_first = !material || !material[0];
    const mk_mtl_material *m = mk_mtl_library_find(lib, material);
    if (m && m->error_line)
        return mk_error_set(err, MK_ERR_PARSE, name, m->error_line, "%s", m->error);
    if (!m || !(m->has_diffuse || (textured && m->diffuse_map[0])))
        return mk_error_set(err, MK_ERR_NOT_FOUND, name, 0, "%s%s%s has no Kd",
                            want_first ? "the first material" : "material '",
                            want_first ? "" : material, want_first ? "" : "'");
    memcpy(rgba, m->diffuse, sizeof m->diffuse);
    *found = m;
    return MK_OK;
}

mk_status mk_mtl_diffuse(const char *text, size_t size, const char *name, const char *material,
                         float rgba[4], mk_error *err)
{
    if ((!text && size) || !rgba)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, name, 0,
                            "mk_mtl_diffuse: rgba (and text, when size > 0) must not be NULL");
    mk_mtl_library *lib;
    mk_status st = mk_mtl_parse(text, size, name, NULL, &lib, err);
    if (st != MK_OK)
        return st;
    const mk_mtl_material *m;
    st = library_diffuse(lib, name, material, false, rgba, &m, err);
    mk_mtl_library_destroy(lib);
    return st;
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

static mk_status unit_material(const mk_unit *unit, const mk_unit_options *options,
                               const mk_allocator *allocator, bool textured, float rgba[4],
                               char **texture_path, mk_error *err)
{
    if (!unit || !rgba || !unit->files || unit->files->frame_count == 0)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "%s: unit and rgba must not be NULL",
                            textured ? "mk_unit_material" : "mk_unit_diffuse");
    if (texture_path)
        *texture_path = NULL;
    const mk_file_callbacks *files = options ? options->files : NULL;
    char *frame = mk_path_join(allocator, unit->files->dir, unit->files->frame_files[0]);
    if (!frame)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, unit->files->dir, 0, "out of memory");
    void *data = NULL;
    size_t size = 0;
    char lib[1024], use[256] = "";
    mk_status st = mk_file_read(files, frame, allocator, 0, &data, &size, err);
    const char *dir = unit->files->dir;
    size_t dn = strlen(dir);
    if (st != MK_OK && st != MK_ERR_OUT_OF_MEMORY &&
        ((dn > 4 && strcasecmp(dir + dn - 4, ".glb") == 0) ||
         (dn > 5 && strcasecmp(dir + dn - 5, ".gltf") == 0)))
        /* a packed unit has no frame files: its materials are glTF's */
        st = mk_error_set(err, MK_ERR_NOT_FOUND, dir, 0,
                          "a packed unit: its materials are glTF materials in the file");
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
        mk_mtl_library *mtl = NULL;
        st = mk_mtl_parse(data, size, path, allocator, &mtl, err);
        mk_file_release(files, allocator, data, size);
        const mk_mtl_material *m = NULL;
        float c[4];
        if (st == MK_OK)
            st = library_diffuse(mtl, path, use, textured, c, &m, err);
        if (st == MK_OK && texture_path && m->diffuse_map[0]) {
            *texture_path = mk_path_join(allocator, unit->files->dir, m->diffuse_map);
            if (!*texture_path)
                st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
        }
        if (st == MK_OK)
            memcpy(rgba, c, sizeof c);
        mk_mtl_library_destroy(mtl);
    }
    mk_strfree(allocator, path);
    return st;
}

mk_status mk_unit_diffuse(const mk_unit *unit, const mk_unit_options *options,
                          const mk_allocator *allocator, float rgba[4], mk_error *err)
{
    return unit_material(unit, options, allocator, false, rgba, NULL, err);
}

mk_status mk_unit_material(const mk_unit *unit, const mk_unit_options *options,
                           const mk_allocator *allocator, float rgba[4], char **texture_path,
                           mk_error *err)
{
    return unit_material(unit, options, allocator, true, rgba, texture_path, err);
}
