/* Unit packer: the `v` / `vn` maps told by the data itself. Vertices that
 * share an OBJ `v` (or `vn`) have equal base-pose elements, so numbering
 * the distinct base elements in order of first use gives each vertex its
 * class; one small permutation (or none) then names the OBJ index of each
 * class. The writer stores a map this way only when the classes it
 * computes from the bytes it writes are exactly the OBJ indices; the
 * reader computes them from the same elements, so both agree bit for bit.
 * And the vertices stored: with --compress also in `v` order (version 6's
 * first_use_order); with no_texcoords the two sides of a texture seam as
 * one vertex. */
#include <string.h>

#include "morphkit/unit.h"
#include "pack_internal.h"

static uint32_t hash3(const uint32_t *t)
{
    uint32_t h = t[0] * 0x9E3779B1u;
    h = (h ^ (h >> 15) ^ t[1]) * 0x85EBCA77u;
    h = (h ^ (h >> 13) ^ t[2]) * 0xC2B2AE3Du;
    return h ^ (h >> 16);
}

mk_status mk_pack_first_uses(const uint32_t *elements, uint32_t n, const mk_allocator *al,
                             uint32_t *class_of, uint32_t *first, uint32_t *class_count)
{
    *class_count = 0;
    uint32_t cap = 16;
    while (cap < 2 * (uint64_t)n && cap < (1u << 31))
        cap *= 2;
    uint32_t *slot = mk_alloc(al, (size_t)cap * sizeof(uint32_t)); /* a class's first vertex + 1 */
    if (!slot)
        return MK_ERR_OUT_OF_MEMORY;
    memset(slot, 0, (size_t)cap * sizeof(uint32_t));
    uint32_t classes = 0;
    for (uint32_t v = 0; v < n; v++) {
        const uint32_t *e = elements + 3 * (size_t)v;
        uint32_t i = hash3(e) & (cap - 1);
        for (;; i = (i + 1) & (cap - 1)) {
            if (!slot[i]) { /* a new element: a new class */
                slot[i] = v + 1;
                first[classes] = v;
                class_of[v] = classes++;
                break;
            }
            const uint32_t *o = elements + 3 * (size_t)(slot[i] - 1);
            if (o[0] == e[0] && o[1] == e[1] && o[2] == e[2]) {
                class_of[v] = class_of[slot[i] - 1];
                break;
            }
        }
    }
    mk_free(al, slot, (size_t)cap * sizeof(uint32_t));
    *class_count = classes;
    return MK_OK;
}

/* ---- the vertices in `v` order (--compress) -------------------------------- */

/* The vertex order that compresses best for most units: by OBJ `v`, so the
 * vertices that share a position (the corners of a flat-shaded box, a
 * seam) lie side by side and their equal deltas cost the meshopt codec
 * next to nothing, while the `v` order of a modelled mesh keeps
 * neighbours near. A counting sort: the vertices of one `v` keep their
 * order; vertices no triangle uses stay last, in their order, as a reader
 * numbering them by first use puts them (unit_order.c). new_of_old: the
 * new number of each vertex; count: position_count + 1 entries of
 * scratch. Returns whether that is the identity. */
static bool v_order(const mk_unit *u, const uint8_t *used, uint32_t *count, uint32_t *new_of_old)
{
    const uint32_t n = u->frames->vertex_count;
    memset(count, 0, ((size_t)u->position_count + 1) * sizeof(uint32_t));
    for (uint32_t v = 0; v < n; v++)
        count[used[v] ? u->source_index[v] + 1 : 0] += used[v];
    for (uint32_t k = 1; k <= u->position_count; k++)
        count[k] += count[k - 1]; /* count[k]: the first place of `v` k */
    uint32_t unused_at = count[u->position_count];
    bool identity = true;
    for (uint32_t v = 0; v < n; v++) {
        new_of_old[v] = used[v] ? count[u->source_index[v]]++ : unused_at++;
        identity &= new_of_old[v] == v;
    }
    return identity;
}

/* A copy of unit renumbered: vertex v goes to new_of[v] (below vertices;
 * vertices sent to one place must be equal: the same `v`, the same
 * positions and normals), with texture coordinates or not. It has frames
 * and maps of its own and shares the rest; NULL: out of memory. */
static mk_unit *new_copy(const mk_unit *unit, const uint32_t *new_of, uint32_t vertices,
                         bool texcoords, const mk_allocator *al)
{
    const mk_frame_set *s = unit->frames;
    const uint32_t n = s->vertex_count;
    mk_unit *c = mk_alloc(al, sizeof *c);
    if (!c)
        return NULL;
    *c = *unit;
    c->source_index = mk_alloc(al, (size_t)vertices * sizeof(uint32_t));
    c->normal_vertex = unit->normal_count
                           ? mk_alloc(al, (size_t)unit->normal_count * sizeof(uint32_t))
                           : NULL;
    c->frames = NULL;
    mk_frame_set_desc d = {s->frame_count, vertices, s->index_count, s->normals != NULL, texcoords};
    mk_error e;
    if (!c->source_index || (unit->normal_count && !c->normal_vertex) ||
        mk_frame_set_create(&d, al, &c->frames, &e) != MK_OK) {
        mk_free(al, c->source_index, (size_t)vertices * sizeof(uint32_t));
        mk_free(al, c->normal_vertex, (size_t)unit->normal_count * sizeof(uint32_t));
        mk_free(al, c, sizeof *c);
        return NULL;
    }
    mk_frame_set *t = c->frames;
    for (uint32_t f = 0; f < s->frame_count; f++) {
        mk_scatter_floats(mk_frame_set_positions_to_fill(t, f), mk_frame_set_positions(s, f),
                          new_of, n, 3);
        if (s->normals)
            mk_scatter_floats(mk_frame_set_normals_to_fill(t, f), mk_frame_set_normals(s, f),
                              new_of, n, 3);
    }
    if (texcoords)
        mk_scatter_floats(t->texcoords, s->texcoords, new_of, n, 2);
    for (uint32_t i = 0; i < s->index_count; i++)
        t->indices[i] = new_of[s->indices[i]];
    for (uint32_t v = 0; v < n; v++)
        c->source_index[new_of[v]] = unit->source_index[v];
    for (uint32_t j = 0; j < c->normal_count; j++) /* MK_NONE: no face uses the `vn` */
        c->normal_vertex[j] = unit->normal_vertex[j] < n ? new_of[unit->normal_vertex[j]] : MK_NONE;
    return c;
}

void mk_pack_free_copy(mk_unit *c, const mk_allocator *al)
{
    if (!c)
        return;
    mk_free(al, c->source_index, (size_t)c->frames->vertex_count * sizeof(uint32_t));
    mk_free(al, c->normal_vertex, (size_t)c->normal_count * sizeof(uint32_t));
    mk_frame_set_destroy(c->frames);
    mk_free(al, c, sizeof *c);
}

mk_status mk_pack_unit_by_v(const mk_unit *unit, const mk_allocator *al, mk_unit **out,
                            mk_error *err)
{
    *out = NULL;
    const mk_frame_set *s = unit->frames;
    const uint32_t n = s->vertex_count;
    for (uint32_t v = 0; v < n; v++)
        if (unit->source_index[v] >= unit->position_count)
            return MK_OK; /* not a unit a folder makes: left in its order */
    size_t words = (size_t)n + unit->position_count + 1, bytes = words * 4 + n;
    uint32_t *block = mk_alloc(al, bytes);
    if (!block)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    uint32_t *new_of_old = block, *count = block + n;
    uint8_t *used = (uint8_t *)(block + words);
    memset(used, 0, n);
    for (uint32_t i = 0; i < s->index_count; i++)
        used[s->indices[i]] = 1;
    mk_status st = MK_OK;
    if (mk_unit_first_use_numbers(s, new_of_old) && !v_order(unit, used, count, new_of_old) &&
        !(*out = new_copy(unit, new_of_old, n, s->texcoords != NULL, al)))
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    mk_free(al, block, bytes);
    return st;
}

/* ---- vertices apart only by texture coordinates (no_texcoords) ------------- */

/* Whether render vertices a and b share their `v`, and their position and
 * normal bit for bit in every frame. */
static bool same_vertex(const mk_unit *u, uint32_t a, uint32_t b)
{
    const mk_frame_set *s = u->frames;
    if (u->source_index[a] != u->source_index[b])
        return false;
    for (uint32_t f = 0; f < s->frame_count; f++) {
        const float *p = mk_frame_set_positions(s, f);
        if (memcmp(p + 3 * (size_t)a, p + 3 * (size_t)b, 3 * sizeof(float)) != 0)
            return false;
        const float *q = s->normals ? mk_frame_set_normals(s, f) : NULL;
        if (q && memcmp(q + 3 * (size_t)a, q + 3 * (size_t)b, 3 * sizeof(float)) != 0)
            return false;
    }
    return true;
}

mk_status mk_pack_unit_welded(const mk_unit *unit, const mk_allocator *al, mk_unit **out,
                              mk_error *err)
{
    *out = NULL;
    const mk_frame_set *s = unit->frames;
    const uint32_t n = s->vertex_count;
    if (!s->texcoords)
        return MK_OK;
    uint32_t cap = 16;
    while (cap < 2 * (uint64_t)n && cap < (1u << 31))
        cap *= 2;
    /* slot: a class's first vertex + 1; rep: each vertex's class (its
     * first vertex); new_of: a class's new number, by first use; vn: the
     * `vn` a vertex stands for in normal_vertex, then a class's (two `vn`
     * with equal values stay apart: the `vn` map names one vertex each) */
    size_t words = (size_t)cap + 3 * (size_t)n;
    uint32_t *block = mk_alloc(al, words * sizeof(uint32_t));
    if (!block)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    uint32_t *slot = block, *rep = block + cap, *new_of = rep + n, *vn = new_of + n;
    memset(slot, 0, (size_t)cap * sizeof(uint32_t));
    for (uint32_t v = 0; v < n; v++)
        vn[v] = MK_NONE;
    for (uint32_t j = 0; j < unit->normal_count; j++)
        if (unit->normal_vertex[j] < n && vn[unit->normal_vertex[j]] == MK_NONE)
            vn[unit->normal_vertex[j]] = j;
    const float *n0 = s->normals ? mk_frame_set_normals(s, 0) : NULL;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t key[3] = {unit->source_index[v], 0, 0};
        if (n0) { /* the first frame's normal tells most seams' vertices apart */
            uint32_t bits[3];
            memcpy(bits, n0 + 3 * (size_t)v, sizeof bits);
            key[1] = bits[0] ^ bits[2];
            key[2] = bits[1];
        }
        uint32_t i = hash3(key) & (cap - 1);
        for (;; i = (i + 1) & (cap - 1)) {
            const uint32_t r = slot[i] - 1;
            if (!slot[i]) {
                slot[i] = v + 1;
                rep[v] = v;
                break;
            }
            if ((vn[r] == MK_NONE || vn[v] == MK_NONE || vn[r] == vn[v]) &&
                same_vertex(unit, r, v)) {
                rep[v] = r;
                vn[r] = vn[r] == MK_NONE ? vn[v] : vn[r];
                break;
            }
        }
    }
    /* the classes numbered by first use (a reader's numbering), unused last */
    for (uint32_t v = 0; v < n; v++)
        new_of[v] = MK_NONE;
    uint32_t m = 0;
    for (uint32_t i = 0; i < s->index_count; i++) {
        const uint32_t r = rep[s->indices[i]];
        if (new_of[r] == MK_NONE)
            new_of[r] = m++;
    }
    for (uint32_t v = 0; v < n; v++)
        if (rep[v] == v && new_of[v] == MK_NONE)
            new_of[v] = m++;
    mk_status st = MK_OK;
    if (m < n) {
        for (uint32_t v = 0; v < n; v++)
            new_of[v] = new_of[rep[v]]; /* reps come first: already final */
        if (!(*out = new_copy(unit, new_of, m, false, al)))
            st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    }
    mk_free(al, block, words * sizeof(uint32_t));
    return st;
}
