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

void mk_scatter_floats(float *restrict dst, const float *restrict src, const uint32_t *new_of_old,
                       uint32_t n, uint32_t width)
{
    /* the widths spelled out: a loop of `width` floats becomes a call to
       memcpy per vertex */
    if (width == 3) {
        for (uint32_t v = 0; v < n; v++) {
            float *to = dst + (size_t)new_of_old[v] * 3;
            to[0] = src[3 * (size_t)v];
            to[1] = src[3 * (size_t)v + 1];
            to[2] = src[3 * (size_t)v + 2];
        }
    } else { /* 2: texture coordinates */
        for (uint32_t v = 0; v < n; v++) {
            float *to = dst + (size_t)new_of_old[v] * 2;
            to[0] = src[2 * (size_t)v];
            to[1] = src[2 * (size_t)v + 1];
        }
    }
}

void mk_renumber_floats(float *a, float *scratch, const uint32_t *new_of_old, uint32_t n,
                        uint32_t width)
{
    memcpy(scratch, a, (size_t)n * width * sizeof(float));
    mk_scatter_floats(a, scratch, new_of_old, n, width);
}

void mk_renumber_maps(mk_unit *u, const uint32_t *new_of_old, uint32_t *scratch)
{
    const uint32_t n = u->frames->vertex_count;
    memcpy(scratch, u->source_index, (size_t)n * sizeof(uint32_t));
    for (uint32_t v = 0; v < n; v++)
        u->source_index[new_of_old[v]] = scratch[v];
    for (uint32_t j = 0; j < u->normal_count; j++)
        if (u->normal_vertex[j] != MK_NONE)
            u->normal_vertex[j] = new_of_old[u->normal_vertex[j]];
}
