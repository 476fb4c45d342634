/* Render-vertex numbering of a unit (io_internal.h): a unit read from its
 * folder numbers its render vertices in order of first use by the
 * triangles, so a packer may store them in any order that compresses
 * better and a reader can tell the unit's order again from the triangles
 * alone. */
#include <string.h>

#include "io_internal.h"
#include "morphkit/unit.h"

bool mk_unit_first_use_numbers(const mk_frame_set *s, uint32_t *new_of_old)
{
    const uint32_t n = s->vertex_count;
    for (uint32_t v = 0; v < n; v++)
        new_of_old[v] = MK_NONE;
    uint32_t next = 0;
    for (uint32_t i = 0; i < s->index_count; i++) {
        uint32_t v = s->indices[i]; /* below n: the frame set was validated */
        if (new_of_old[v] == MK_NONE)
            new_of_old[v] = next++;
    }
    bool identity = true;
    for (uint32_t v = 0; v < n; v++) {
        if (new_of_old[v] == MK_NONE)
            new_of_old[v] = next++;
        identity &= new_of_old[v] == v;
    }
    return identity;
}

mk_status mk_unit_renumbered(const mk_unit *u, const uint32_t *new_of_old,
                             const mk_allocator *al, mk_frame_set **frames,
                             uint32_t **source_index, uint32_t **normal_vertex, mk_error *err)
{
    const mk_frame_set *s = u->frames;
    const uint32_t n = s->vertex_count;
    *frames = NULL;
    *source_index = NULL;
    *normal_vertex = NULL;
    mk_frame_set_desc d = {s->frame_count, n, s->index_count, s->normals != NULL,
                           s->texcoords != NULL};
    mk_frame_set *t;
    mk_status st = mk_frame_set_create(&d, al, &t, err);
    if (st != MK_OK)
        return st;
    uint32_t *src = mk_alloc(al, (size_t)n * sizeof(uint32_t));
    uint32_t *nv = u->normal_count ? mk_alloc(al, (size_t)u->normal_count * sizeof(uint32_t))
                                   : NULL;
    if (!src || (u->normal_count && !nv)) {
        mk_free(al, src, (size_t)n * sizeof(uint32_t));
        mk_free(al, nv, (size_t)u->normal_count * sizeof(uint32_t));
        mk_frame_set_destroy(t);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    }
    for (uint32_t f = 0; f < s->frame_count; f++) {
        const float *p = mk_frame_set_positions(s, f), *q = mk_frame_set_normals(s, f);
        float *tp = mk_frame_set_positions_to_fill(t, f), *tq = mk_frame_set_normals_to_fill(t, f);
        for (uint32_t v = 0; v < n; v++)
            memcpy(tp + 3 * (size_t)new_of_old[v], p + 3 * (size_t)v, 3 * sizeof(float));
        for (uint32_t v = 0; q && v < n; v++)
            memcpy(tq + 3 * (size_t)new_of_old[v], q + 3 * (size_t)v, 3 * sizeof(float));
    }
    for (uint32_t v = 0; s->texcoords && v < n; v++)
        memcpy(t->texcoords + 2 * (size_t)new_of_old[v], s->texcoords + 2 * (size_t)v,
               2 * sizeof(float));
    for (uint32_t i = 0; i < s->index_count; i++)
        t->indices[i] = new_of_old[s->indices[i]];
    for (uint32_t v = 0; v < n; v++)
        src[new_of_old[v]] = u->source_index[v];
    for (uint32_t j = 0; j < u->normal_count; j++)
        nv[j] = u->normal_vertex[j] == MK_NONE ? MK_NONE : new_of_old[u->normal_vertex[j]];
    *frames = t;
    *source_index = src;
    *normal_vertex = nv;
    return MK_OK;
}
