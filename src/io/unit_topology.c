/* Frame-against-first-frame comparison: vertex counts, face lists by `v`
 * (and `vt`) index, flipped quad diagonals, normal presence.
 *
 * Frame 0 is the reference. A difference names both files and the `f` line
 * in each. A pair of consecutive triangles that covers the same four
 * vertices in both frames but splits them along the other diagonal is the
 * exporter re-triangulating a quad: accepted with a warning, and the
 * frame's corners are mapped to the reference's by vertex so that normals
 * are still read from the right corner. */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "morphkit/repair.h"
#include "unit_internal.h"

static bool all_set(const uint32_t *idx, uint32_t n)
{
    if (!idx)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (idx[i] == MK_NONE)
            return false;
    return true;
}

static bool none_set(const uint32_t *idx, uint32_t n)
{
    if (!idx)
        return true;
    for (uint32_t i = 0; i < n; i++)
        if (idx[i] != MK_NONE)
            return false;
    return true;
}

static bool same_triangle(const uint32_t *a, const uint32_t *b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

static bool tri_has(const uint32_t *t, uint32_t v)
{
    return t[0] == v || t[1] == v || t[2] == v;
}

static bool degenerate(const uint32_t *t)
{
    return t[0] == t[1] || t[1] == t[2] || t[0] == t[2];
}

/* The 4 distinct vertices of two triangles sharing an edge, and that edge;
 * false when they are not such a pair. A triangle that repeats a vertex
 * (`f 1 1 4`) is never half of a quad: its repeated vertex would count as
 * both ends of the shared edge. */
static bool quad_of(const uint32_t *t1, const uint32_t *t2, uint32_t quad[4], uint32_t edge[2])
{
    uint32_t shared = 0, n = 3;
    quad[0] = t1[0];
    quad[1] = t1[1];
    quad[2] = t1[2];
    if (degenerate(t1) || degenerate(t2))
        return false;
    for (int i = 0; i < 3; i++) {
        if (tri_has(t1, t2[i])) {
            if (shared == 2)
                return false;
            edge[shared++] = t2[i];
        } else {
            if (n == 4)
                return false;
            quad[n++] = t2[i];
        }
    }
    return shared == 2 && n == 4;
}

static bool same_set4(const uint32_t a[4], const uint32_t b[4])
{
    for (int i = 0; i < 4; i++)
        if (!(a[i] == b[0] || a[i] == b[1] || a[i] == b[2] || a[i] == b[3]))
            return false;
    return true;
}

/* Is triangles t, t+1 of frame f the reference's quad split along its other
 * diagonal? The frame's shared edge must join the two corners that are not
 * on the reference's shared edge. */
static bool is_flipped_quad(const mk_obj *ref, const mk_obj *f, uint32_t t)
{
    if (t + 1 >= ref->triangle_count || t + 1 >= f->triangle_count)
        return false;
    uint32_t qa[4], ea[2], qb[4], eb[2];
    if (!quad_of(ref->corner_position + 3 * t, ref->corner_position + 3 * t + 3, qa, ea) ||
        !quad_of(f->corner_position + 3 * t, f->corner_position + 3 * t + 3, qb, eb) ||
        !same_set4(qa, qb))
        return false;
    uint32_t other[2], n = 0;
    for (int i = 0; i < 4; i++)
        if (qa[i] != ea[0] && qa[i] != ea[1])
            other[n++] = qa[i];
    return n == 2 && ((eb[0] == other[0] && eb[1] == other[1]) ||
                      (eb[0] == other[1] && eb[1] == other[0]));
}

/* Maps the reference corners of triangles t, t+1 to frame corners holding
 * the same vertex (the quad's other split). */
static void map_flipped(const mk_obj *ref, const mk_obj *f, uint32_t t, uint32_t *map)
{
    for (uint32_t c = 3 * t; c < 3 * t + 6; c++)
        for (uint32_t d = 3 * t; d < 3 * t + 6; d++)
            if (f->corner_position[d] == ref->corner_position[c]) {
                map[c] = d;
                break;
            }
}

static uint32_t *identity_map(const mk_allocator *a, uint32_t n)
{
    uint32_t *m = mk_alloc(a, (size_t)n * sizeof *m);
    if (m)
        for (uint32_t i = 0; i < n; i++)
            m[i] = i;
    return m;
}

/* Is frame fi the reference mesh with its vertices numbered differently? */
static bool is_renumbered(const mk_unit_build *b, uint32_t fi)
{
    const mk_obj *ref = b->objs[0], *f = b->objs[fi];
    if (ref->triangle_count != f->triangle_count || ref->position_count != f->position_count)
        return false;
    uint32_t *map = mk_alloc(b->allocator, ((size_t)ref->position_count + 1) * sizeof *map);
    if (!map)
        return false;
    mk_vorder_mesh rm = {ref->position_count, ref->positions, ref->triangle_count,
                         ref->corner_position, NULL};
    mk_vorder_mesh fm = {f->position_count, f->positions, f->triangle_count, f->corner_position, NULL};
    mk_error e;
    bool same = mk_vorder_match(&rm, &fm, b->allocator, map, NULL, &e) == MK_OK;
    mk_free(b->allocator, map, ((size_t)ref->position_count + 1) * sizeof *map);
    return same;
}

/* Compares one frame's face list with the reference; 1 on error, else 0. */
static uint32_t compare_faces(mk_unit_build *b, uint32_t fi, mk_report *rep)
{
    const mk_obj *ref = b->objs[0], *f = b->objs[fi];
    const char *rp = b->paths[0], *fp = b->paths[fi];
    uint32_t n = ref->triangle_count < f->triangle_count ? ref->triangle_count : f->triangle_count;
    uint32_t flips = 0, first_flip_line = 0;
    for (uint32_t t = 0; t < n; t++) {
        if (same_triangle(ref->corner_position + 3 * t, f->corner_position + 3 * t))
            continue;
        if (is_flipped_quad(ref, f, t)) {
            if (!b->corner_map[fi] &&
                !(b->corner_map[fi] = identity_map(b->allocator, 3 * ref->triangle_count))) {
                mk_report_add(rep, MK_SEVERITY_ERROR, MK_CHECK_FILE, fp, 0, NULL, 0,
                              "out of memory");
                return 1;
            }
            map_flipped(ref, f, t, b->corner_map[fi]);
            if (flips++ == 0)
                first_flip_line = f->triangle_line[t];
            t++;
            continue;
        }
        const uint32_t *a = ref->corner_position + 3 * t, *c = f->corner_position + 3 * t;
        if (is_renumbered(b, fi)) {
            mk_report_add(rep, MK_SEVERITY_ERROR, MK_CHECK_TOPOLOGY, fp, 0, rp, 0,
                          "%s is the same mesh as %s with a different vertex order (vertices "
                          "and faces renumbered consistently, first differing at triangle %u); "
                          "`morphkit repair` puts it back in the first frame's order",
                          b->files->frame_files[fi], b->files->frame_files[0], t + 1);
            return 1;
        }
        mk_report_add(rep, MK_SEVERITY_ERROR, MK_CHECK_TOPOLOGY, fp, (int)f->triangle_line[t], rp,
                      (int)ref->triangle_line[t],
                      "triangle %u is (%u %u %u) but the first frame has (%u %u %u): the face "
                      "list must be the same in every frame",
                      t + 1, c[0] + 1, c[1] + 1, c[2] + 1, a[0] + 1, a[1] + 1, a[2] + 1);
        return 1;
    }
    if (ref->triangle_count != f->triangle_count) {
        const mk_obj *longer = ref->triangle_count > f->triangle_count ? ref : f;
        mk_report_add(rep, MK_SEVERITY_ERROR, MK_CHECK_TOPOLOGY, fp,
                      longer == f ? (int)f->triangle_line[n] : 0, rp,
                      longer == ref ? (int)ref->triangle_line[n] : 0,
                      "%u triangles but the first frame has %u: the face list must be the same "
                      "in every frame",
                      f->triangle_count, ref->triangle_count);
        return 1;
    }
    if (flips)
        mk_report_add(rep, MK_SEVERITY_WARNING, MK_CHECK_QUAD_DIAGONAL, fp, (int)first_flip_line,
                      rp, 0,
                      "%u quad%s split along the other diagonal than in the first frame; the "
                      "first frame's triangles are used",
                      flips, flips == 1 ? " is" : "s are");
    return 0;
}

/* Texture-coordinate topology: the same vt index at every (mapped) corner. */
static uint32_t compare_texcoords(const mk_unit_build *b, uint32_t fi, mk_report *rep)
{
    const mk_obj *ref = b->objs[0], *f = b->objs[fi];
    const uint32_t *map = b->corner_map[fi];
    uint32_t n = 3 * ref->triangle_count;
    for (uint32_t c = 0; c < n; c++) {
        uint32_t rv = ref->corner_texcoord ? ref->corner_texcoord[c] : MK_NONE;
        uint32_t d = map ? map[c] : c;
        uint32_t fv = f->corner_texcoord ? f->corner_texcoord[d] : MK_NONE;
        if (rv != fv) {
            char rs[16] = "none", fs[16] = "none";
            if (rv != MK_NONE)
                snprintf(rs, sizeof rs, "%u", rv + 1);
            if (fv != MK_NONE)
                snprintf(fs, sizeof fs, "%u", fv + 1);
            mk_report_add(rep, MK_SEVERITY_ERROR, MK_CHECK_TOPOLOGY, b->paths[fi],
                          (int)f->triangle_line[d / 3], b->paths[0],
                          (int)ref->triangle_line[c / 3],
                          "corner %u of triangle %u uses vt %s but the first frame uses vt %s",
                          c % 3 + 1, c / 3 + 1, fs, rs);
            return 1;
        }
    }
    return 0;
}

/* Names the frames that disagree with most others about normals: the ones
 * without (some) normals, or, when those are the majority, the ones with. */
static void report_normals(const mk_unit_build *b, const uint8_t *state, mk_report *rep)
{
    uint32_t frames = b->files->frame_count, with = 0, without = 0, first_with = MK_NONE,
             first_without = MK_NONE;
    for (uint32_t f = 0; f < frames; f++) {
        if (state[f] == 1) {
            with++;
            first_with = first_with == MK_NONE ? f : first_with;
        } else if (state[f] >= 2) {
            without++;
            first_without = first_without == MK_NONE ? f : first_without;
        }
    }
    bool name_without = without <= with;
    for (uint32_t f = 0; f < frames; f++) {
        if (!with) { /* no frame is complete: name those with some normals */
            if (state[f] == 3)
                mk_report_add(rep, MK_SEVERITY_WARNING, MK_CHECK_NORMALS, b->paths[f], 0, NULL,
                              0, "normals are missing at some face corners; the unit is "
                              "loaded without normals");
            continue;
        }
        if (name_without ? state[f] < 2 : state[f] != 1)
            continue;
        if (name_without)
            mk_report_add(rep, MK_SEVERITY_WARNING, MK_CHECK_NORMALS, b->paths[f], 0,
                          b->paths[first_with], 0,
                          "this frame lacks normals (at some or all face corners) while %u "
                          "other frame%s %s them; the unit is loaded without normals",
                          with, with == 1 ? "" : "s", with == 1 ? "has" : "have");
        else
            mk_report_add(rep, MK_SEVERITY_WARNING, MK_CHECK_NORMALS, b->paths[f], 0,
                          b->paths[first_without], 0,
                          "this frame has normals while %u other frame%s %s not; the unit is "
                          "loaded without normals",
                          without, without == 1 ? "" : "s", without == 1 ? "does" : "do");
    }
}

uint32_t mk_unit_check_topology(mk_unit_build *b, mk_report *rep)
{
    const mk_obj *ref = b->objs[0];
    uint32_t errors = 0, frames = b->files->frame_count;
    bool any_normals = false, all_normals = true, all_texcoords = true;
    if (ref->triangle_count == 0) {
        mk_report_add(rep, MK_SEVERITY_ERROR, MK_CHECK_TOPOLOGY, b->paths[0], 0, NULL, 0,
                      "the first frame has no faces");
        return 1;
    }
    /* per frame: 0 not compared, 1 normals at every corner, 2 at none, 3 at some */
    uint8_t *normal_state = mk_alloc(b->allocator, frames);
    if (!normal_state) {
        mk_report_add(rep, MK_SEVERITY_ERROR, MK_CHECK_FILE, b->paths[0], 0, NULL, 0,
                      "out of memory");
        return 1;
    }
    memset(normal_state, 0, frames);
    for (uint32_t fi = 0; fi < frames; fi++) {
        const mk_obj *f = b->objs[fi];
        if (!f)
            continue;
        if (fi > 0 && f->position_count != ref->position_count) {
            mk_report_add(rep, MK_SEVERITY_ERROR, MK_CHECK_VERTEX_COUNT, b->paths[fi], 0,
                          b->paths[0], 0,
                          "%u vertices (v lines) but the first frame has %u: every frame needs "
                          "the same vertices in the same order",
                          f->position_count, ref->position_count);
            errors++;
            continue;
        }
        if (fi > 0 && (compare_faces(b, fi, rep) || compare_texcoords(b, fi, rep))) {
            errors++;
            continue;
        }
        uint32_t fc = 3 * f->triangle_count;
        bool has_n = all_set(f->corner_normal, fc);
        any_normals |= !none_set(f->corner_normal, fc);
        all_normals &= has_n;
        all_texcoords &= all_set(f->corner_texcoord, fc);
        normal_state[fi] = has_n ? 1 : none_set(f->corner_normal, fc) ? 2 : 3;
    }
    if (errors == 0 && any_normals && !all_normals)
        report_normals(b, normal_state, rep);
    mk_free(b->allocator, normal_state, frames);
    b->has_normals = all_normals;
    b->has_texcoords = all_texcoords;
    return errors;
}
