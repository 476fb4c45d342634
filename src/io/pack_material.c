/* Unit packer: materials from the unit's .mtl files.
 *
 * The unit's first frame file is read again for its `mtllib` and `usemtl`
 * statements: every `f` adds (corners - 2) triangles, as the OBJ reader
 * fan-triangulates, to the current material's run, so the runs cover the
 * unit's triangle list in order. The .mtl files, read by the one .mtl
 * reader (material.h), give each material its diffuse colour (Kd), opacity
 * (d, or 1 - Tr) and diffuse texture (map_Kd, PNG or JPEG, embedded). Anything missing (an .mtl, a material, a texture,
 * an image in another format) is a warning in the report, never a failure. */
#include <stdio.h>
#include <string.h>

#include "file_internal.h"
#include "io_internal.h"
#include "morphkit/material.h"
#include "pack_internal.h"

static void warn(mk_report *rep, const char *file, int line, const char *msg, const char *what)
{
    if (rep)
        mk_report_add(rep, MK_SEVERITY_WARNING, MK_CHECK_FILE, file, line, NULL, 0, "%s '%s'",
                      msg, what);
}

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* The rest of the line as a trimmed string into out (cap bytes). */
static void rest_of_line(const char *p, const char *end, char *out, size_t cap)
{
    p = skip_blanks(p, end);
    const char *e = p;
    while (e < end && *e != '\n' && *e != '\r' && *e != '#')
        e++;
    while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    size_t n = (size_t)(e - p) < cap - 1 ? (size_t)(e - p) : cap - 1;
    memcpy(out, p, n);
    out[n] = '\0';
}

static bool keyword(const char *p, const char *end, const char *word, const char **after)
{
    size_t n = strlen(word);
    if ((size_t)(end - p) < n || memcmp(p, word, n) != 0 ||
        (p + n < end && p[n] != ' ' && p[n] != '\t'))
        return false;
    *after = p + n;
    return true;
}

/* The slot of a material name (added on first use); MK_NONE when full. */
static uint32_t slot_of(mk_pack_materials *m, const char *name)
{
    for (uint32_t i = 0; i < m->count; i++)
        if (strcmp(m->items[i].name, name) == 0)
            return i;
    if (m->count == MK_PACK_MAX_MATERIALS)
        return MK_NONE;
    mk_pack_material *it = &m->items[m->count];
    memset(it, 0, sizeof *it);
    snprintf(it->name, sizeof it->name, "%s", name);
    it->color[0] = it->color[1] = it->color[2] = it->color[3] = 1.0f;
    return m->count++;
}

static bool add_triangles(mk_pack_materials *m, uint32_t slot, uint32_t n)
{
    if (m->run_count && m->runs[2 * (m->run_count - 1)] == slot) {
        m->runs[2 * (m->run_count - 1) + 1] += n;
        return true;
    }
    if (m->run_count == MK_PACK_MAX_RUNS)
        return false;
    m->runs[2 * m->run_count] = slot;
    m->runs[2 * m->run_count + 1] = n;
    m->run_count++;
    return true;
}

static const char *mime_of(const uint8_t *p, size_t n)
{
    if (n >= 8 && memcmp(p, "\x89PNG\r\n\x1a\n", 8) == 0)
        return "image/png";
    if (n >= 3 && p[0] == 0xFF && p[1] == 0xD8 && p[2] == 0xFF)
        return "image/jpeg";
    return NULL;
}

/* Embeds a material's map_Kd image (PNG or JPEG) read from dir. */
static void load_texture(mk_pack_material *cur, const mk_file_callbacks *files, const char *dir,
                         const char *mtl_path, const mk_mtl_material *mm, const mk_allocator *al,
                         mk_report *rep)
{
    const char *file = mm->diffuse_map;
    char tex[4096 + 512];
    snprintf(tex, sizeof tex, "%s/%s", dir, file);
    char *img;
    size_t img_size;
    mk_error e;
    if (mk_read_file(files, tex, al, 1u << 28, &img, &img_size, &e) != MK_OK) {
        warn(rep, mtl_path, mm->diffuse_map_line, "cannot read the texture", file);
    } else if (!mime_of((const uint8_t *)img, img_size)) {
        warn(rep, tex, 0, "not a PNG or JPEG image, not embedded:", file);
        mk_free(al, img, img_size + 1);
    } else {
        if (cur->image)
            mk_free(al, cur->image, cur->image_size + 1);
        cur->image = (uint8_t *)img;
        cur->image_size = img_size;
        cur->mime = mime_of(cur->image, img_size);
    }
}

/* False when the library cannot be read (warned). The one .mtl reader
 * (mk_mtl_parse) gives the materials; a later definition of a name wins. */
static bool load_mtl(mk_pack_materials *m, const mk_file_callbacks *files, const char *dir,
                     const char *name, const mk_allocator *al, mk_report *rep)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) {
        warn(rep, dir, 0, "path too long for the material library", name);
        return false;
    }
    char *text;
    size_t size;
    mk_error e;
    if (mk_read_file(files, path, al, 1u << 26, &text, &size, &e) != MK_OK) {
        warn(rep, path, 0, "cannot read the material library", name);
        return false;
    }
    mk_mtl_library *lib = NULL;
    mk_status st = mk_mtl_parse(text, size, path, al, &lib, &e);
    mk_free(al, text, size + 1);
    if (st != MK_OK) {
        warn(rep, path, 0, "cannot read the material library", name);
        return false;
    }
    for (uint32_t k = 0; k < lib->material_count; k++) {
        const mk_mtl_material *mm = &lib->materials[k];
        mk_pack_material *cur = NULL;
        for (uint32_t i = 0; i < m->count; i++)
            if (strcmp(m->items[i].name, mm->name) == 0)
                cur = &m->items[i];
        if (!cur)
            continue; /* not used by the unit */
        cur->defined = true;
        if (mm->has_diffuse)
            memcpy(cur->color, mm->diffuse, 3 * sizeof(float));
        cur->color[3] = mm->diffuse[3];
        if (mm->diffuse_map[0])
            load_texture(cur, files, dir, path, mm, al, rep);
    }
    mk_mtl_library_destroy(lib);
    return true;
}

mk_status mk_pack_materials_load(const mk_unit *u, const mk_file_callbacks *files,
                                 const mk_allocator *al, mk_pack_materials *m, mk_report *rep)
{
    memset(m, 0, sizeof *m);
    const mk_unit_files *f = u->files;
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", f->dir, f->frame_files[0]) >= sizeof path)
        return MK_OK;
    char *text;
    size_t size;
    mk_error e;
    if (mk_read_file(files, path, al, 0, &text, &size, &e) != MK_OK)
        return MK_OK; /* a packed unit read back, or a file gone: no materials */
    char libs[8][256];
    uint32_t lib_count = 0, slot = MK_NONE, triangles = 0;
    bool used = false, ok = true;
    const char *p = text, *end = text + size, *a;
    while (p < end && ok) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *le = eol ? eol : end;
        p = skip_blanks(p, le);
        if (keyword(p, le, "f", &a)) {
            uint32_t n = 0;
            for (a = skip_blanks(a, le); a < le && *a != '#' && *a != '\r'; a = skip_blanks(a, le)) {
                while (a < le && *a != ' ' && *a != '\t' && *a != '\r')
                    a++;
                n++;
            }
            if (n >= 3) {
                ok = add_triangles(m, slot, n - 2);
                triangles += n - 2;
            }
        } else if (keyword(p, le, "usemtl", &a)) {
            char name[128];
            rest_of_line(a, le, name, sizeof name);
            slot = slot_of(m, name);
            ok = slot != MK_NONE;
            used = true;
        } else if (keyword(p, le, "mtllib", &a) && lib_count < 8) {
            rest_of_line(a, le, libs[lib_count++], sizeof libs[0]);
        }
        p = eol ? eol + 1 : end;
    }
    mk_free(al, text, size + 1);
    if (!used || !ok || triangles != u->frames->index_count / 3) {
        if (used)
            warn(rep, path, 0, "materials not packed: the faces do not match the unit's",
                 ok ? "triangles" : "limits");
        mk_pack_materials_free(m, al);
        return MK_OK;
    }
    bool all_read = lib_count > 0;
    for (uint32_t i = 0; i < lib_count; i++)
        all_read &= load_mtl(m, files, f->dir, libs[i], al, rep);
    if (!lib_count)
        warn(rep, path, 0, "usemtl without mtllib: default materials for", f->frame_files[0]);
    for (uint32_t i = 0; i < m->count; i++)
        if (!m->items[i].defined && all_read)
            warn(rep, path, 0, "no .mtl defines material", m->items[i].name);
    for (uint32_t r = 0; r < m->run_count; r++) {
        uint32_t k = 0;
        while (k < m->prim_count && m->prim_material[k] != m->runs[2 * r])
            k++;
        if (k == m->prim_count)
            m->prim_material[m->prim_count++] = m->runs[2 * r];
        m->run_prim[r] = k;
    }
    return MK_OK;
}

void mk_pack_materials_free(mk_pack_materials *m, const mk_allocator *al)
{
    for (uint32_t i = 0; i < m->count; i++)
        if (m->items[i].image)
            mk_free(al, m->items[i].image, m->items[i].image_size + 1);
    memset(m, 0, sizeof *m);
}
