/* morphkit/allocator.h - the optional allocator that every creating call takes.
 *
 * A NULL `const mk_allocator *` (or one whose alloc is NULL) means
 * malloc/realloc/free. There is no global allocator hook: pass it per call. */
#ifndef MORPHKIT_ALLOCATOR_H
#define MORPHKIT_ALLOCATOR_H

#include <stddef.h>

#include "morphkit/config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mk_allocator {
    /* Returns at least `size` bytes aligned to 16, or NULL. */
    void *(*alloc)(void *user, size_t size);
    /* Optional (NULL: alloc + copy + free). Same contract as realloc. */
    void *(*realloc)(void *user, void *ptr, size_t old_size, size_t new_size);
    /* Releases a block from alloc/realloc; size is the size it was asked for. */
    void (*free)(void *user, void *ptr, size_t size);
    void *user;
} mk_allocator;

/* Allocation through `a` (NULL = malloc). Returns NULL for size 0 or failure. */
MK_API void *mk_alloc(const mk_allocator *a, size_t size);
/* Like realloc; on failure the old block is untouched and NULL returned. */
MK_API void *mk_realloc(const mk_allocator *a, void *ptr, size_t old_size, size_t new_size);
/* Releases ptr (NULL is fine). */
MK_API void mk_free(const mk_allocator *a, void *ptr, size_t size);

#ifdef __cplusplus
}
#endif

#endif
