/* Unit packer: the `v` / `vn` maps told by the data itself. Vertices that
 * share an OBJ `v` (or `vn`) have equal base-pose elements, so numbering
 * the distinct base elements in order of first use gives each vertex its
 * class; one small permutation (or none) then names the OBJ index of each
 * class. The writer stores a map this way only when the classes it
 * computes from the bytes it writes are exactly the OBJ indices; the
 * reader computes them from the same elements, so both agree bit for bit. */
#include <string.h>

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
