/* Repair plans for unit folders: read every frame, bring renumbered frames
 * into the first frame's order, repair scrambled ones, and write the new
 * OBJ text in memory (the caller decides where it goes). The rules are in
 * morphkit/repair.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "file_internal.h"
#include "io_internal.h"
#include "morphkit/anim_config.h"
#include "morphkit/repair.h"
#include "vorder_internal.h"

/* ---- writing a frame in the first frame's layout --------------------------- */

typedef struct frame_data {
    char *text;
    size_t size;
    mk_obj *obj;
    uint32_t *order;  /* reference vertex -> this frame's vertex; NULL = same */
    uint32_t *corner; /* reference corner -> this frame's corner; NULL = same */
    float *pos;       /* positions in the reference order (owned when order) */
} frame_data;

static bool keyword_is(const char *line, size_t n, const char *kw)
{
    size_t k = strlen(kw);
    return n > k && memcmp(line, kw, k) == 0 && (line[k] == ' ' || line[k] == '\t');
}

static bool all_set(const uint32_t *idx, uint32_t n)
{
    if (!idx)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (idx[i] == MK_NONE)
            return false;
    return true;
}

static void put_corner(mk_buf *t, const mk_obj *ref, const mk_obj *f, const uint32_t *corner_map,
                       uint32_t c, bool normals)
{
    mk_buf_printf(t, " %u", ref->corner_position[c] + 1);
    uint32_t vt = ref->corner_texcoord ? ref->corner_texcoord[c] : MK_NONE;
    uint32_t vn = normals ? f->corner_normal[corner_map ? corner_map[c] : c] : MK_NONE;
    if (vt != MK_NONE && vn != MK_NONE)
        mk_buf_printf(t, "/%u/%u", vt + 1, vn + 1);
    else if (vt != MK_NONE)
        mk_buf_printf(t, "/%u", vt + 1);
    else if (vn != MK_NONE)
        mk_buf_printf(t, "//%u", vn + 1);
}

/* The text after a UTF-8 byte order mark, if it starts with one: the new
 * text starts with a comment, and a mark inside a file is no OBJ. */
static const char *skip_bom(const char *text, size_t size)
{
    return size >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? text + 3 : text;
}

/* The frame's new text: the reference file line by line, with this
 * frame's positions, normals and per-corner normal indices. */
static bool write_frame(const frame_data *ref, const frame_data *fd, const float *pos,
                        const mk_allocator *al, char **out, size_t *out_size)
{
    const mk_obj *r = ref->obj, *f = fd->obj;
    mk_buf t = {NULL, 0, 0, al, false};
    bool normals = r->normal_count && f->normal_count &&
                   all_set(f->corner_normal, 3 * f->triangle_count);
    bool normals_done = false;
    uint32_t v = 0, face = 0, tri = 0;
    /* the frame's own leading comments, then the reference's lines without
       its comments (they describe the reference frame) */
    for (const char *q = skip_bom(fd->text, fd->size), *qe = fd->text + fd->size; q < qe && *q == '#';) {
        const char *eol = memchr(q, '\n', (size_t)(qe - q));
        mk_buf_append(&t, q, (size_t)((eol ? eol : qe) - q));
        mk_buf_printf(&t, "\n");
        q = eol ? eol + 1 : qe;
    }
    mk_buf_printf(&t, "# vertex order repaired by morphkit repair (the first frame's order and faces)\n");
    const char *p = skip_bom(ref->text, ref->size), *end = ref->text + ref->size;
    while (p < end && !t.failed) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        size_t len = (size_t)((eol ? eol : end) - p);
        const char *line = p;
        size_t n = len;
        while (n && (*line == ' ' || *line == '\t')) {
            line++;
            n--;
        }
        if (keyword_is(line, n, "v") && v < r->position_count) {
            const float *q = pos + 3 * (size_t)v++;
            mk_buf_printf(&t, "v %.9g %.9g %.9g\n", (double)q[0], (double)q[1], (double)q[2]);
        } else if (keyword_is(line, n, "vn")) {
            for (uint32_t i = 0; normals && !normals_done && i < f->normal_count; i++)
                mk_buf_printf(&t, "vn %.9g %.9g %.9g\n", (double)f->normals[3 * i],
                    (double)f->normals[3 * i + 1], (double)f->normals[3 * i + 2]);
            normals_done = true;
        } else if (keyword_is(line, n, "f")) {
            /* the face's triangles are a fan from its first corner */
            uint32_t first = tri;
            while (tri < r->triangle_count && r->triangle_face[tri] == face)
                tri++;
            face++;
            if (tri > first) {
                mk_buf_printf(&t, "f");
                put_corner(&t, r, f, fd->corner, 3 * first, normals);
                put_corner(&t, r, f, fd->corner, 3 * first + 1, normals);
                for (uint32_t k = first; k < tri; k++)
                    put_corner(&t, r, f, fd->corner, 3 * k + 2, normals);
                mk_buf_printf(&t, "\n");
            }
        } else if (!(n && *line == '#')) {
            mk_buf_append(&t, p, len);
            mk_buf_printf(&t, "\n");
        }
        p = eol ? eol + 1 : end;
    }
    if (t.failed) {
        mk_buf_free(&t);
        return false;
    }
    /* hand over an exactly sized block so the caller frees text_size + 1 */
    char *exact = mk_alloc(al, t.size + 1);
    if (exact) {
        memcpy(exact, t.data, t.size);
        exact[t.size] = '\0';
    }
    *out = exact;
    *out_size = t.size;
    mk_buf_free(&t);
    return exact != NULL;
}

/* ---- planning -------------------------------------------------------------- */

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Same face lines by `v` set (corner rotations, flipped quad diagonals)? */
static bool same_faces(const mk_obj *r, const mk_obj *f)
{
    if (r->face_count != f->face_count || r->triangle_count != f->triangle_count)
        return false;
    if (r->triangle_count == 0) /* no faces: the arrays are NULL */
        return true;
    if (memcmp(r->corner_position, f->corner_position, 3 * (size_t)r->triangle_count * 4) == 0)
        return true;
    uint32_t a[64], b[64];
    uint32_t i = 0, j = 0;
    while (i < r->triangle_count) {
        uint32_t face = r->triangle_face[i], na = 0, nb = 0;
        for (; i < r->triangle_count && r->triangle_face[i] == face; i++)
            for (int c = 0; c < 3; c++)
                if (na < 64)
                    a[na++] = r->corner_position[3 * i + c];
        for (; j < f->triangle_count && f->triangle_face[j] == face; j++)
            for (int c = 0; c < 3; c++)
                if (nb < 64)
                    b[nb++] = f->corner_position[3 * j + c];
        if (na != nb)
            return false;
        qsort(a, na, sizeof *a, compare_u32);
        qsort(b, nb, sizeof *b, compare_u32);
        if (memcmp(a, b, na * sizeof *a) != 0)
            return false;
    }
    return true;
}

static void free_frame_data(frame_data *fd, const mk_allocator *al, uint32_t verts, uint32_t tris)
{
    mk_free(al, fd->text, fd->size + 1);
    mk_obj_destroy(fd->obj);
    if (fd->order) {
        mk_free(al, fd->pos, 3 * (size_t)verts * sizeof(float));
        mk_free(al, fd->order, ((size_t)verts + 1) * sizeof(uint32_t));
    }
    mk_free(al, fd->corner, 3 * (size_t)tris * sizeof(uint32_t));
}

void mk_unit_repair_destroy(mk_unit_repair *r)
{
    if (!r)
        return;
    const mk_allocator *al = &r->allocator;
    uint32_t n = r->files ? r->files->frame_count : 0;
    for (uint32_t f = 0; r->frames && f < n; f++)
        mk_free(al, r->frames[f].text, r->frames[f].text_size + 1);
    mk_free(al, r->frames, n * sizeof *r->frames);
    mk_unit_files_destroy(r->files);
    mk_free(al, r, sizeof *r);
}

/* Each corner's texture coordinate (float2), or NULL when some corner has
 * none (or out of memory: matching then goes by positions alone). */
static float *corner_uvs(const mk_obj *o, const mk_allocator *al)
{
    size_t n = 3 * (size_t)o->triangle_count;
    if (!n || !all_set(o->corner_texcoord, (uint32_t)n))
        return NULL;
    float *uv = mk_alloc(al, 2 * n * sizeof *uv);
    for (size_t c = 0; uv && c < n; c++)
        memcpy(uv + 2 * c, o->texcoords + 2 * (size_t)o->corner_texcoord[c], 2 * sizeof *uv);
    return uv;
}

/* Brings frame f into the reference order (renumbered frames) or marks it
 * failed; fd->pos is set when it has positions in the reference order. */
static void order_frame(mk_unit_repair *r, frame_data *fds, uint32_t f, const mk_allocator *al)
{
    frame_data *fd = &fds[f], *ref = &fds[0];
    mk_unit_frame_repair *fr = &r->frames[f];
    const mk_obj *o = fd->obj, *ro = ref->obj;
    if (o->position_count != ro->position_count) {
        fr->failed = true;
        snprintf(fr->message, sizeof fr->message,
                 "%u vertices (v lines) but the first frame has %u: not the same mesh",
                 o->position_count, ro->position_count);
        return;
    }
    if (f == 0 || same_faces(ro, o)) {
        fd->pos = o->positions;
        return;
    }
    /* the pose hint: the nearest earlier frame already in order */
    const float *hint = ro->positions;
    for (uint32_t g = f; g-- > 0;)
        if (fds[g].pos) {
            hint = fds[g].pos;
            break;
        }
    size_t nv = o->position_count, nc = 3 * (size_t)o->triangle_count;
    fd->order = mk_alloc(al, (nv + 1) * sizeof *fd->order);
    fd->corner = mk_alloc(al, nc * sizeof *fd->corner);
    float *pos = mk_alloc(al, 3 * nv * sizeof *pos);
    float *ruv = corner_uvs(ro, al), *fuv = corner_uvs(o, al);
    mk_vorder_mesh rm = {ro->position_count, hint, ro->triangle_count, ro->corner_position, ruv};
    mk_vorder_mesh fm = {o->position_count, o->positions, o->triangle_count, o->corner_position, fuv};
    mk_error e;
    mk_status st = fd->order && fd->corner && pos
                       ? mk_vorder_match(&rm, &fm, al, fd->order, fd->corner, &e)
                       : mk_error_set(&e, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    mk_free(al, ruv, 6 * (size_t)ro->triangle_count * sizeof *ruv);
    mk_free(al, fuv, 6 * (size_t)o->triangle_count * sizeof *fuv);
    if (st != MK_OK) {
        mk_free(al, fd->order, (nv + 1) * sizeof *fd->order);
        mk_free(al, fd->corner, nc * sizeof *fd->corner);
        mk_free(al, pos, 3 * nv * sizeof *pos);
        fd->order = fd->corner = NULL;
        fr->failed = true;
        snprintf(fr->message, sizeof fr->message, "%s", e.message);
        return;
    }
    for (size_t i = 0; i < nv; i++)
        memcpy(pos + 3 * i, o->positions + 3 * (size_t)fd->order[i], 3 * sizeof(float));
    fd->pos = pos;
    fr->renumbered = true;
}

/* Reads and parses every frame through the file layer; each text is kept as
 * a NUL-terminated copy of size + 1 bytes (write_frame copies from it). */
static mk_status read_frames(const mk_unit_files *files, const mk_file_callbacks *fc,
                             frame_data *fds, const mk_allocator *al, mk_error *err)
{
    for (uint32_t f = 0; f < files->frame_count; f++) {
        char *path = mk_path_join(al, files->dir, files->frame_files[f]);
        if (!path)
            return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, files->dir, 0, "out of memory");
        void *data = NULL;
        size_t size = 0;
        mk_status st = mk_file_read(fc, path, al, 0, &data, &size, err);
        if (st == MK_OK) {
            fds[f].text = size + 1 > size ? mk_alloc(al, size + 1) : NULL;
            if (fds[f].text) {
                if (size)
                    memcpy(fds[f].text, data, size);
                fds[f].text[size] = '\0';
                fds[f].size = size;
            } else {
                st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
            }
            mk_file_release(fc, al, data, size);
        }
        if (st == MK_OK)
            st = mk_obj_parse(fds[f].text, fds[f].size, path, NULL, al, &fds[f].obj, err);
        mk_strfree(al, path);
        if (st != MK_OK)
            return st;
    }
    return MK_OK;
}

/* Detects scrambles over the ordered frames and repairs them in place
 * (fds[f].pos becomes an owned, repaired copy). */
static mk_status unscramble(mk_unit_repair *r, frame_data *fds, const mk_file_callbacks *io,
                            const mk_allocator *al, mk_error *err)
{
    const mk_unit_files *files = r->files;
    uint32_t n = files->frame_count, nv = r->vertex_count;
    const float **pos = mk_alloc(al, n * sizeof *pos);
    uint32_t *anim = mk_alloc(al, (files->animation_count + 1) * sizeof *anim);
    uint32_t *next = mk_alloc(al, n * sizeof *next);
    mk_vorder_report *vr = NULL;
    mk_clip_set *clips = NULL;
    mk_status st = MK_OK;
    if (!pos || !anim || !next) {
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
        goto done;
    }
    for (uint32_t f = 0; f < n; f++) /* a frame that cannot be ordered: a copy of frame 0 */
        pos[f] = fds[f].pos ? fds[f].pos : fds[0].pos;
    for (uint32_t a = 0; a < files->animation_count; a++)
        anim[a] = files->animations[a].frame_count;
    /* the clips' loops and switches give end frames a neighbour to be
       predicted from; a config that cannot be read (validate reports it)
       leaves the animations alone */
    mk_anim_config_options co = {NULL, n, io, true};
    mk_error ce;
    bool play = mk_anim_config_load(files, &co, al, &clips, NULL, &ce) == MK_OK &&
                mk_vorder_next_frames(clips, n, next, &ce) == MK_OK;
    const mk_obj *ro = fds[0].obj;
    mk_vorder_frames fr = {nv, n, pos, ro->triangle_count, ro->corner_position,
                           files->animation_count, anim, play ? next : NULL};
    st = mk_vorder_detect(&fr, al, &vr, err);
    for (uint32_t i = 0; st == MK_OK && i < vr->fault_count; i++) {
        uint32_t f = vr->faults[i].frame;
        mk_unit_frame_repair *fp = &r->frames[f];
        if (fp->failed)
            continue;
        float *out = mk_alloc(al, 3 * (size_t)nv * sizeof *out);
        if (!out) {
            st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
            break;
        }
        mk_vorder_repair_info info;
        mk_error e;
        mk_status rs = mk_vorder_repair_frame(&fr, vr, i, al, out, &info, &e);
        fp->moved_count = info.moved_count;
        fp->confidence = info.confidence;
        fp->twin = info.twin;
        if (rs == MK_ERR_OUT_OF_MEMORY) {
            mk_free(al, out, 3 * (size_t)nv * sizeof *out);
            st = mk_error_set(err, rs, NULL, 0, "out of memory");
            break;
        }
        if (rs != MK_OK) {
            mk_free(al, out, 3 * (size_t)nv * sizeof *out);
            fp->failed = true;
            snprintf(fp->message, sizeof fp->message,
                     "likely vertex-order scramble (%u vertices) that cannot be repaired "
                     "confidently: %u still out of place after reassignment",
                     vr->faults[i].vertex_count, info.remaining);
            continue;
        }
        /* the repaired copy replaces the frame's ordered positions */
        if (fds[f].order)
            mk_free(al, fds[f].pos, 3 * (size_t)nv * sizeof(float));
        else if (!(fds[f].order = mk_alloc(al, ((size_t)nv + 1) * sizeof(uint32_t)))) {
            mk_free(al, out, 3 * (size_t)nv * sizeof *out);
            st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
            break;
        } else {
            for (uint32_t v = 0; v < nv; v++) /* same numbering: an identity order */
                fds[f].order[v] = v;
        }
        fds[f].pos = out;
        pos[f] = out; /* the frames the next repairs read: not the freed copy */
        fp->unscrambled = true;
    }
done:
    mk_vorder_report_destroy(vr);
    mk_clip_set_destroy(clips);
    mk_free(al, next, n * sizeof *next);
    mk_free(al, pos, n * sizeof *pos);
    mk_free(al, anim, (files->animation_count + 1) * sizeof *anim);
    return st;
}

mk_status mk_unit_repair_plan(const char *dir, const mk_unit_options *options,
                              const mk_allocator *al, mk_unit_repair **out, mk_error *err)
{
    if (!dir || !out)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "repair: NULL folder or out");
    *out = NULL;
    mk_unit_repair *r = mk_alloc(al, sizeof *r);
    if (!r)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, dir, 0, "out of memory");
    memset(r, 0, sizeof *r);
    r->allocator = mk_allocator_copy(al);
    mk_status st = mk_unit_discover(dir, options, al, &r->files, err);
    if (st != MK_OK) {
        mk_unit_repair_destroy(r);
        return st;
    }
    uint32_t n = r->files->frame_count;
    frame_data *fds = mk_alloc(al, n * sizeof *fds);
    r->frames = mk_alloc(al, n * sizeof *r->frames);
    if (!fds || !r->frames) {
        mk_free(al, fds, n * sizeof *fds);
        mk_unit_repair_destroy(r);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, dir, 0, "out of memory");
    }
    memset(fds, 0, n * sizeof *fds);
    memset(r->frames, 0, n * sizeof *r->frames);
    for (uint32_t f = 0; f < n; f++)
        r->frames[f].twin = MK_NONE;
    st = read_frames(r->files, options ? options->files : NULL, fds, al, err);
    uint32_t nv = st == MK_OK ? fds[0].obj->position_count : 0;
    uint32_t nt = st == MK_OK ? fds[0].obj->triangle_count : 0;
    r->vertex_count = nv;
    if (st == MK_OK) {
        for (uint32_t f = 0; f < n; f++)
            order_frame(r, fds, f, al);
        st = unscramble(r, fds, options ? options->files : NULL, al, err);
    }
    for (uint32_t f = 0; st == MK_OK && f < n; f++) {
        mk_unit_frame_repair *fp = &r->frames[f];
        if (fp->failed || !(fp->renumbered || fp->unscrambled))
            continue;
        if (!write_frame(&fds[0], &fds[f], fds[f].pos, al, &fp->text, &fp->text_size))
            st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, dir, 0, "out of memory");
        r->changed_count++;
    }
    for (uint32_t f = 0; f < n; f++) {
        r->failed_count += r->frames[f].failed;
        /* a frame whose triangle count differs frees its own corner map size */
        uint32_t tris = fds[f].obj ? fds[f].obj->triangle_count : nt;
        free_frame_data(&fds[f], al, nv, tris);
    }
    mk_free(al, fds, n * sizeof *fds);
    if (st != MK_OK) {
        mk_unit_repair_destroy(r);
        return st;
    }
    *out = r;
    return MK_OK;
}
