/* Unit packer: the `v` / `vn` maps told by the data itself. Vertices that
 * share an OBJ `v` (or `vn`) have equal base-pose elements, so numbering
 * the distinct base elements in order of first use gives each vertex its
 * class; one small permutation (or none) then names the OBJ index of each
 * class. The writer stores a map this way only when the classes it
 * computes from the bytes it writes are exactly the OBJ indices; the
 * reader computes them from the same elements, so both agree bit for bit.
 * And the order the vertices are stored in: with --compress, also the `v`
 * order (version 6's first_use_order). */
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
 * neighbours near. Vertices no triangle uses stay last, in their order,
 * as a reader numbering them by first use puts them (unit_order.c). */
typedef struct by_v {
    const uint32_t *v;
    const uint8_t *used;
} by_v;

static bool by_v_before(const by_v *k, uint32_t a, uint32_t b)
{
    if (k->used[a] != k->used[b])
        return k->used[a] > k->used[b];
    if (k->used[a] && k->v[a] != k->v[b])
        return k->v[a] < k->v[b];
    return a < b;
}

/* order[0..n): the vertices sorted by by_v_before (a merge sort, stable
 * and without recursion; tmp: n entries). */
static void sort_by_v(const by_v *k, uint32_t *order, uint32_t *tmp, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        order[i] = i;
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = lo + width < n ? lo + width : n;
            uint32_t hi = mid + width < n ? mid + width : n, a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                tmp[o++] = by_v_before(k, order[b], order[a]) ? order[b++] : order[a++];
            while (a < mid)
                tmp[o++] = order[a++];
            while (b < hi)
                tmp[o++] = order[b++];
        }
        memcpy(order, tmp, (size_t)n * sizeof(uint32_t));
    }
}

/* c (a copy of unit's struct) gets its own frames and maps, unit's copied. */
static mk_status copy_maps_and_frames(const mk_unit *unit, const mk_allocator *al, mk_unit *c,
                                      mk_error *err)
{
    const mk_frame_set *s = unit->frames;
    const uint32_t n = s->vertex_count;
    c->frames = NULL;
    c->source_index = mk_alloc(al, (size_t)n * sizeof(uint32_t));
    c->normal_vertex = unit->normal_count
                           ? mk_alloc(al, (size_t)unit->normal_count * sizeof(uint32_t))
                           : NULL;
    mk_frame_set_desc d = {s->frame_count, n, s->index_count, s->normals != NULL,
                           s->texcoords != NULL};
    if (!c->source_index || (unit->normal_count && !c->normal_vertex) ||
        mk_frame_set_create(&d, al, &c->frames, err) != MK_OK)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    size_t floats = (size_t)s->frame_count * n * 3;
    memcpy(c->frames->positions, s->positions, floats * sizeof(float));
    if (s->normals)
        memcpy(c->frames->normals, s->normals, floats * sizeof(float));
    if (s->texcoords)
        memcpy(c->frames->texcoords, s->texcoords, (size_t)n * 2 * sizeof(float));
    memcpy(c->frames->indices, s->indices, (size_t)s->index_count * sizeof(uint32_t));
    memcpy(c->source_index, unit->source_index, (size_t)n * sizeof(uint32_t));
    if (unit->normal_count)
        memcpy(c->normal_vertex, unit->normal_vertex, (size_t)unit->normal_count * sizeof(uint32_t));
    return MK_OK;
}

mk_status mk_pack_unit_by_v(const mk_unit *unit, const mk_allocator *al, mk_unit **out,
                           mk_error *err)
{
    *out = NULL;
    const mk_frame_set *s = unit->frames;
    const uint32_t n = s->vertex_count;
    size_t bytes = (size_t)n * (3 * sizeof(uint32_t) + 1);
    uint32_t *block = mk_alloc(al, bytes);
    if (!block)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    uint32_t *order = block, *tmp = block + n, *new_of_old = block + 2 * (size_t)n;
    uint8_t *used = (uint8_t *)(block + 3 * (size_t)n);
    mk_status st = MK_OK;
    if (mk_unit_first_use_numbers(s, new_of_old)) {
        memset(used, 0, n);
        for (uint32_t i = 0; i < s->index_count; i++)
            used[s->indices[i]] = 1;
        by_v k = {unit->source_index, used};
        sort_by_v(&k, order, tmp, n);
        bool identity = true;
        for (uint32_t i = 0; i < n; i++) {
            new_of_old[order[i]] = i;
            identity &= order[i] == i;
        }
        mk_unit *c = identity ? NULL : mk_alloc(al, sizeof *c);
        if (!identity && !c)
            st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
        if (c) {
            *c = *unit;
            if ((st = copy_maps_and_frames(unit, al, c, err)) == MK_OK &&
                (st = mk_unit_renumber(c, new_of_old, al, err)) == MK_OK)
                *out = c;
            else
                mk_pack_free_by_v(c, n, al);
        }
    }
    mk_free(al, block, bytes);
    return st;
}

void mk_pack_free_by_v(mk_unit *c, uint32_t vertices, const mk_allocator *al)
{
    if (!c)
        return;
    mk_free(al, c->source_index, (size_t)vertices * sizeof(uint32_t));
    mk_free(al, c->normal_vertex, (size_t)c->normal_count * sizeof(uint32_t));
    mk_frame_set_destroy(c->frames); /* NULL when its creation failed */
    mk_free(al, c, sizeof *c);
}
