/* Single-block objects: the layout cursor behind every create function that
 * puts an object and its arrays in one allocation (mesh, frame set, morph
 * set, clip set, track clip). Contract in internal.h. */
#include <string.h>

#include "internal.h"

void mk_block_begin(mk_block *b, size_t head)
{
    b->base = NULL;
    b->head = head;
    b->size = head;
    b->overflow = false;
}

void *mk_block_take(mk_block *b, size_t count, size_t elem)
{
    size_t offset;
    if (b->overflow || !mk_layout_add(&b->size, count, elem, &offset)) {
        b->overflow = true;
        return NULL;
    }
    return b->base ? b->base + offset : NULL;
}

size_t mk_block_size(const mk_block *b)
{
    return b->overflow ? 0 : b->size;
}

mk_status mk_block_alloc(mk_block *b, const mk_allocator *allocator, const char *what,
                         void **out, mk_error *err)
{
    *out = NULL;
    if (b->overflow)
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0, "%s: size overflows", what);
    size_t size = b->size;
    unsigned char *base = mk_alloc(allocator, size);
    if (!base)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "%s: out of memory (%zu bytes)",
                            what, size);
    memset(base, 0, size);
    /* the filling pass starts where the sizing pass did */
    b->base = base;
    b->size = b->head;
    *out = base;
    return MK_OK;
}
