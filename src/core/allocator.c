/* The allocator indirection: NULL means the C library. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void *mk_alloc(const mk_allocator *a, size_t size)
{
    if (size == 0)
        return NULL;
    if (!a || !a->alloc)
        return malloc(size);
    return a->alloc(a->user, size);
}

void *mk_realloc(const mk_allocator *a, void *ptr, size_t old_size, size_t new_size)
{
    if (!a || !a->alloc)
        return realloc(ptr, new_size);
    if (a->realloc)
        return a->realloc(a->user, ptr, old_size, new_size);
    void *p = a->alloc(a->user, new_size);
    if (!p)
        return NULL;
    if (ptr) {
        memcpy(p, ptr, old_size < new_size ? old_size : new_size);
        a->free(a->user, ptr, old_size);
    }
    return p;
}

void mk_free(const mk_allocator *a, void *ptr, size_t size)
{
    if (!ptr)
        return;
    if (!a || !a->alloc)
        free(ptr);
    else
        a->free(a->user, ptr, size);
}
