/* Unit loading: discover, read every frame, compare with the first, then
 * build one frame set.
 *
 * Render vertices: two face corners become the same vertex only when they
 * agree on `v`, `vt` and, in every frame, `vn`. Blender numbers normals per
 * pose, so corners that share a normal in one frame may not in another; the
 * classes are refined frame by frame (class' = id of (class, vn in frame f)),
 * which splits exactly where some frame needs it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "file_internal.h"
#include "internal.h"
#include "morphkit/anim_config.h"
#include "morphkit/pack.h"
#include "unit_internal.h"

/* ---- a small open-addressing map from 64-bit keys to dense ids ---------- */

typedef struct id_map {
    uint64_t *keys;
    uint32_t *ids;
    size_t mask;
    uint32_t next_id;
} id_map;

static bool id_map_init(id_map *m, const mk_allocator *a, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    m->keys = mk_alloc(a, cap * sizeof *m->keys);
    m->ids = mk_alloc(a, cap * sizeof *m->ids);
    m->mask = cap - 1;
    m->next_id = 0;
    if (!m->keys || !m->ids)
        return false;
    memset(m->ids, 0xff, cap * sizeof *m->ids); /* UINT32_MAX = empty slot */
    return true;
}

static void id_map_free(id_map *m, const mk_allocator *a)
{
    mk_free(a, m->keys, (m->mask + 1) * sizeof *m->keys);
    mk_free(a, m->ids, (m->mask + 1) * sizeof *m->ids);
}

static void id_map_clear(id_map *m)
{
    memset(m->ids, 0xff, (m->mask + 1) * sizeof *m->ids);
    m->next_id = 0;
}

/* The id of key, assigning the next one on first sight (first-use order). */
static uint32_t id_map_get(id_map *m, uint64_t key)
{
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    for (size_t i = (size_t)(h >> 32) & m->mask;; i = (i + 1) & m->mask) {
        if (m->ids[i] == UINT32_MAX) {
            m->keys[i] = key;
            return m->ids[i] = m->next_id++;
        }
        if (m->keys[i] == key)
            return m->ids[i];
    }
}

/* ---- building ------------------------------------------------------------ */

static void normalize3(float *v)
{
    float len2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    float inv = len2 >= MK_NORMAL_MIN_LENGTH2 ? 1.0f / sqrtf(len2) : 0.0f;
    v[0] *= inv;
    v[1] *= inv;
    v[2] *= inv;
}

/* Assigns every reference corner its render vertex; returns the count, or 0
 * when out of memory. */
static uint32_t unify_corners(const mk_unit_build *b, uint32_t *vertex_of_corner)
{
    const mk_obj *ref = b->objs[0];
    uint32_t corners = 3 * ref->triangle_count;
    id_map m;
    if (!id_map_init(&m, b->allocator, corners)) {
        id_map_free(&m, b->allocator);
        return 0;
    }
    for (uint32_t c = 0; c < corners; c++) {
        uint64_t vt = b->has_texcoords ? ref->corner_texcoord[c] : 0;
        vertex_of_corner[c] = id_map_get(&m, (uint64_t)ref->corner_position[c] << 32 | vt);
    }
    for (uint32_t f = 0; b->has_normals && f < b->files->frame_count; f++) {
        const mk_obj *o = b->objs[f];
        const uint32_t *map = b->corner_map[f];
        id_map_clear(&m);
        for (uint32_t c = 0; c < corners; c++) {
            uint32_t vn = o->corner_normal[map ? map[c] : c];
            vertex_of_corner[c] = id_map_get(&m, (uint64_t)vertex_of_corner[c] << 32 | vn);
        }
    }
    uint32_t count = m.next_id;
    id_map_free(&m, b->allocator);
    return count;
}

/* Marks the `v` indices no face uses; returns how many there are. Such
 * vertices still get a render vertex (after all others) so that every `v`
 * has a place in the frame set and in `v`-order output. */
static uint32_t mark_unused(const mk_obj *ref, uint32_t *first_vertex_of_v)
{
    uint32_t unused = 0;
    for (uint32_t i = 0; i < ref->position_count; i++)
        first_vertex_of_v[i] = UINT32_MAX;
    for (uint32_t c = 0; c < 3 * ref->triangle_count; c++)
        first_vertex_of_v[ref->corner_position[c]] = 0;
    for (uint32_t i = 0; i < ref->position_count; i++)
        unused += first_vertex_of_v[i] == UINT32_MAX;
    return unused;
}

static mk_status build_frame_set(const mk_unit_build *b, mk_unit *u, mk_error *err)
{
    const mk_obj *ref = b->objs[0];
    const mk_allocator *al = b->allocator;
    uint32_t corners = 3 * ref->triangle_count, frames = b->files->frame_count;
    size_t scratch_size = ((size_t)corners + ref->position_count) * sizeof(uint32_t);
    uint32_t *vertex_of_corner = mk_alloc(al, scratch_size);
    uint32_t *v_state = vertex_of_corner ? vertex_of_corner + corners : NULL;
    uint32_t vertices = vertex_of_corner ? unify_corners(b, vertex_of_corner) : 0;
    if (!vertices) {
        mk_free(al, vertex_of_corner, scratch_size);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, b->files->dir, 0, "out of memory");
    }
    uint32_t unused = mark_unused(ref, v_state);
    mk_frame_set_desc desc = {frames, vertices + unused, corners, b->has_normals,
                              b->has_texcoords};
    mk_status st = mk_frame_set_create(&desc, al, &u->frames, err);
    u->source_index = st == MK_OK ? mk_alloc(al, (size_t)desc.vertex_count * sizeof(uint32_t)) : NULL;
    if (st == MK_OK && !u->source_index)
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, b->files->dir, 0, "out of memory");
    if (st != MK_OK) {
        mk_free(al, vertex_of_corner, scratch_size);
        return st;
    }
    mk_frame_set *s = u->frames;
    if (s->normals) {
        u->normal_count = ref->normal_count;
        u->normal_vertex = mk_alloc(al, (size_t)ref->normal_count * sizeof(uint32_t));
        if (ref->normal_count && !u->normal_vertex) {
            mk_free(al, vertex_of_corner, scratch_size);
            return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, b->files->dir, 0, "out of memory");
        }
        for (uint32_t j = 0; j < ref->normal_count; j++)
            u->normal_vertex[j] = MK_NONE;
    }
    for (uint32_t c = 0; c < corners; c++) {
        uint32_t v = vertex_of_corner[c];
        s->indices[c] = v;
        if (u->normal_vertex && u->normal_vertex[ref->corner_normal[c]] == MK_NONE)
            u->normal_vertex[ref->corner_normal[c]] = v;
        u->source_index[v] = ref->corner_position[c];
        if (s->texcoords)
            memcpy(s->texcoords + 2 * (size_t)v, ref->texcoords + 2 * (size_t)ref->corner_texcoord[c],
                   2 * sizeof(float));
        for (uint32_t f = 0; f < frames; f++) {
            const mk_obj *o = b->objs[f];
            memcpy(mk_frame_set_positions_to_fill(s, f) + 3 * (size_t)v,
                   o->positions + 3 * (size_t)ref->corner_position[c], 3 * sizeof(float));
            if (s->normals) {
                const uint32_t *map = b->corner_map[f];
                float *n = mk_frame_set_normals_to_fill(s, f) + 3 * (size_t)v;
                memcpy(n, o->normals + 3 * (size_t)o->corner_normal[map ? map[c] : c],
                       3 * sizeof(float));
                normalize3(n);
            }
        }
    }
    /* unused `v`s: positions only (normals and texcoords stay zero) */
    uint32_t v = vertices;
    for (uint32_t i = 0; i < ref->position_count; i++) {
        if (v_state[i] != UINT32_MAX)
            continue;
        u->source_index[v] = i;
        for (uint32_t f = 0; f < frames; f++)
            memcpy(mk_frame_set_positions_to_fill(s, f) + 3 * (size_t)v,
                   b->objs[f]->positions + 3 * (size_t)i, 3 * sizeof(float));
        v++;
    }
    u->position_count = ref->position_count;
    mk_free(al, vertex_of_corner, scratch_size);
    return MK_OK;
}

/* ---- the load ------------------------------------------------------------ */

/* The folder's last path component, trailing slashes dropped ("a/b/" -> "b"). */
static char *unit_name(const mk_allocator *a, const char *dir)
{
    size_t end = strlen(dir);
    while (end > 1 && dir[end - 1] == '/')
        end--;
    size_t start = end;
    while (start > 0 && dir[start - 1] != '/')
        start--;
    char *r = mk_alloc(a, end - start + 1);
    if (r) {
        memcpy(r, dir + start, end - start);
        r[end - start] = '\0';
    }
    return r;
}

static void free_build(mk_unit_build *b)
{
    uint32_t n = b->files ? b->files->frame_count : 0;
    /* corner maps exist only once frame 0 was read; their size is frame 0's */
    size_t map_size = b->objs && b->objs[0] ? 3 * (size_t)b->objs[0]->triangle_count : 0;
    for (uint32_t i = 0; i < n; i++) {
        if (b->objs)
            mk_obj_destroy(b->objs[i]);
        if (b->paths)
            mk_strfree(b->allocator, b->paths[i]);
        if (b->corner_map && b->corner_map[i])
            mk_free(b->allocator, b->corner_map[i], map_size * sizeof(uint32_t));
    }
    mk_free(b->allocator, b->objs, n * sizeof *b->objs);
    mk_free(b->allocator, b->paths, n * sizeof *b->paths);
    mk_free(b->allocator, b->corner_map, n * sizeof *b->corner_map);
}

void mk_unit_destroy(mk_unit *u)
{
    if (!u)
        return;
    mk_allocator a = u->allocator;
    if (u->frames && u->source_index)
        mk_free(&a, u->source_index, (size_t)u->frames->vertex_count * sizeof(uint32_t));
    mk_free(&a, u->normal_vertex, (size_t)u->normal_count * sizeof(uint32_t));
    mk_clip_set_destroy(u->clips);
    mk_frame_set_destroy(u->frames);
    mk_unit_files_destroy(u->files);
    mk_strfree(&a, u->name);
    mk_free(&a, u, sizeof *u);
}

/* Reads every frame; read errors go to the report. Returns the error count. */
static uint32_t read_frames(mk_unit_build *b, const mk_unit_options *opt, mk_unit *u,
                            mk_report *rep)
{
    uint32_t n = b->files->frame_count, errors = 0;
    mk_obj_options oo = opt ? opt->obj : (mk_obj_options){0};
    oo.files = opt ? opt->files : NULL;
    size_t max = oo.max_file_size ? oo.max_file_size : (size_t)1 << 31; /* as mk_obj_load */
    for (uint32_t i = 0; i < n; i++) {
        b->paths[i] = mk_path_join(b->allocator, b->files->dir, b->files->frame_files[i]);
        if (!b->paths[i]) {
            mk_report_add(rep, MK_SEVERITY_ERROR, MK_CHECK_FILE, b->files->dir, 0, NULL, 0,
                          "out of memory");
            return errors + 1;
        }
        /* read here (not by mk_obj_load) to count the bytes read */
        mk_error e;
        void *data = NULL;
        size_t size = 0;
        mk_status st = mk_file_read(oo.files, b->paths[i], b->allocator, max, &data, &size, &e);
        if (st == MK_OK) {
            u->bytes_on_disk += size;
            st = mk_obj_parse(data, size, b->paths[i], &oo, b->allocator, &b->objs[i], &e);
            mk_file_release(oo.files, b->allocator, data, size);
        }
        if (st != MK_OK) {
            mk_report_add(rep, MK_SEVERITY_ERROR, MK_CHECK_FILE, e.file, e.line, NULL, 0, "%s",
                          e.message);
            errors++;
        }
    }
    return errors;
}

/* The first error reported since item `from`, as an mk_error. */
static mk_status first_error(const mk_report *rep, uint32_t from, mk_error *err)
{
    for (uint32_t i = from; i < mk_report_count(rep); i++) {
        const mk_diagnostic *d = mk_report_item(rep, i);
        if (d->severity != MK_SEVERITY_ERROR)
            continue;
        mk_status code = d->check == MK_CHECK_FILE || d->check == MK_CHECK_CONFIG ? MK_ERR_PARSE
                         : d->check == MK_CHECK_DISCOVERY ? MK_ERR_NOT_FOUND
                                                          : MK_ERR_MISMATCH;
        if (strcmp(d->message, "out of memory") == 0)
            code = MK_ERR_OUT_OF_MEMORY;
        if (!d->other_file[0])
            return mk_error_set(err, code, d->file, d->line, "%s", d->message);
        char other[MK_ERROR_FILE_MAX + 16];
        if (d->other_line)
            snprintf(other, sizeof other, "%s:%d", d->other_file, d->other_line);
        else
            snprintf(other, sizeof other, "%s", d->other_file);
        return mk_error_set(err, code, d->file, d->line, "%s (compared with %s)", d->message,
                            other);
    }
    return mk_error_set(err, MK_ERR_MISMATCH, NULL, 0, "the unit is invalid (see the report)");
}

static bool stop_listing(void *context, const char *name, mk_file_kind kind)
{
    (void)context, (void)name, (void)kind;
    return false;
}

mk_status mk_unit_load(const char *dir, const mk_unit_options *opt, const mk_allocator *al,
                       mk_unit **out, mk_report *report, mk_error *err)
{
    if (!dir || !out)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, dir, 0,
                            "mk_unit_load: dir and out must not be NULL");
    *out = NULL;
    /* A path that exists but is not a folder is a packed unit (pack.h): its
     * one file is the whole unit. Asked through the file layer, so engine
     * callbacks see the same question. */
    mk_error le;
    if (mk_file_list(opt ? opt->files : NULL, dir, stop_listing, NULL, &le) == MK_ERR_IO) {
        mk_error e;
        mk_status ps = mk_unit_load_packed(dir, opt, al, out, &e);
        if (ps == MK_ERR_IO) /* not a file either (say, a folder it may not list) */
            e = le, ps = le.code;
        if (ps != MK_OK)
            mk_report_add(report, MK_SEVERITY_ERROR, MK_CHECK_FILE, e.file, e.line, NULL, 0, "%s",
                          e.message);
        if (err && ps != MK_OK)
            *err = e;
        return ps;
    }
    /* Without a caller's report the errors still go to one, for err. */
    mk_report *local = NULL, *rep = report;
    if (!rep) {
        mk_status rs = mk_report_create(al, &local, err);
        if (rs != MK_OK)
            return rs;
        rep = local;
    }
    uint32_t errors_before = mk_report_error_count(rep), items_before = mk_report_count(rep);

    mk_unit *u = mk_alloc(al, sizeof *u);
    if (!u) {
        mk_report_destroy(local);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, dir, 0, "out of memory");
    }
    memset(u, 0, sizeof *u);
    u->allocator = mk_allocator_copy(al);
    mk_error e;
    mk_status st = mk_unit_discover(dir, opt, al, &u->files, &e);
    /* files a person probably meant as frames: notes, never failures */
    mk_unit_naming_notes(dir, st == MK_OK ? u->files : NULL, opt, al, rep);
    if (st != MK_OK) {
        mk_report_add(rep, MK_SEVERITY_ERROR,
                      st == MK_ERR_IO ? MK_CHECK_FILE : MK_CHECK_DISCOVERY, e.file, e.line, NULL,
                      0, "%s", e.message);
        if (err)
            *err = e;
        mk_unit_destroy(u);
        mk_report_destroy(local);
        return st;
    }
    mk_unit_build b = {0};
    b.allocator = al;
    b.files = u->files;
    uint32_t n = u->files->frame_count;
    b.objs = mk_alloc(al, n * sizeof *b.objs);
    b.paths = mk_alloc(al, n * sizeof *b.paths);
    b.corner_map = mk_alloc(al, n * sizeof *b.corner_map);
    u->name = unit_name(al, dir);
    if (!b.objs || !b.paths || !b.corner_map || !u->name) {
        mk_report_add(rep, MK_SEVERITY_ERROR, MK_CHECK_FILE, dir, 0, NULL, 0, "out of memory");
    } else {
        memset(b.objs, 0, n * sizeof *b.objs);
        memset(b.paths, 0, n * sizeof *b.paths);
        memset(b.corner_map, 0, n * sizeof *b.corner_map);
        /* config problems are reported beside frame problems, not instead */
        mk_anim_config_options co = {NULL, n, opt ? opt->files : NULL,
                                     opt && opt->lenient_config};
        if (mk_anim_config_load(u->files, &co, al, &u->clips, rep, &e) != MK_OK &&
            mk_report_error_count(rep) == errors_before)
            mk_report_add(rep, MK_SEVERITY_ERROR, MK_CHECK_CONFIG, e.file, e.line, NULL, 0, "%s",
                          e.message);
        if (read_frames(&b, opt, u, rep) == 0 && mk_unit_check_topology(&b, rep) == 0) {
            if (build_frame_set(&b, u, &e) != MK_OK)
                mk_report_add(rep, MK_SEVERITY_ERROR, MK_CHECK_FILE, e.file, e.line, NULL, 0,
                              "%s", e.message);
            else if (!(opt && opt->skip_heuristics))
                mk_unit_check_heuristics(&b, u, rep);
        }
    }
    free_build(&b);
    if (mk_report_error_count(rep) != errors_before) {
        st = first_error(rep, items_before, err);
        mk_unit_destroy(u);
    } else {
        st = MK_OK;
        *out = u;
    }
    mk_report_destroy(local);
    return st;
}

uint32_t mk_unit_find_animation(const mk_unit *unit, const char *name)
{
    for (uint32_t i = 0; i < unit->files->animation_count; i++)
        if (strcmp(unit->files->animations[i].name, name) == 0)
            return i;
    return MK_NONE;
}

void mk_unit_to_source_order(const mk_unit *unit, const float *render, float *out)
{
    for (uint32_t v = 0; v < unit->frames->vertex_count; v++)
        memcpy(out + 3 * (size_t)unit->source_index[v], render + 3 * (size_t)v, 3 * sizeof(float));
}

void mk_unit_normals_to_source_order(const mk_unit *unit, const float *render, float *out)
{
    for (uint32_t j = 0; j < unit->normal_count; j++) {
        uint32_t v = unit->normal_vertex[j];
        if (v == MK_NONE)
            out[3 * j] = out[3 * j + 1] = out[3 * j + 2] = 0.0f;
        else
            memcpy(out + 3 * (size_t)j, render + 3 * (size_t)v, 3 * sizeof(float));
    }
}
