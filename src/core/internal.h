/* Internal helpers shared by the library's layers; not installed. */
#ifndef MORPHKIT_INTERNAL_H
#define MORPHKIT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "morphkit/allocator.h"

/* Overflow-checked size arithmetic: false when the result does not fit. */
static inline bool mk_size_mul(size_t a, size_t b, size_t *out)
{
    if (b != 0 && a > SIZE_MAX / b)
        return false;
    *out = a * b;
    return true;
}

static inline bool mk_size_add(size_t a, size_t b, size_t *out)
{
    if (a > SIZE_MAX - b)
        return false;
    *out = a + b;
    return true;
}

/* Rounds up to a multiple of 16 (sub-arrays in one block stay aligned). */
static inline bool mk_size_align16(size_t a, size_t *out)
{
    if (a > SIZE_MAX - 15)
        return false;
    *out = (a + 15) & ~(size_t)15;
    return true;
}

/* Adds an aligned array of count*elem bytes to a running block size;
 * returns false on overflow. *offset receives where the array starts. */
static inline bool mk_layout_add(size_t *total, size_t count, size_t elem, size_t *offset)
{
    size_t bytes;
    if (!mk_size_mul(count, elem, &bytes) || !mk_size_align16(*total, offset) ||
        !mk_size_add(*offset, bytes, total))
        return false;
    return true;
}

/* Copies *a into a struct to keep (zeroed = malloc when a is NULL). */
static inline mk_allocator mk_allocator_copy(const mk_allocator *a)
{
    mk_allocator r = {0, 0, 0, 0};
    if (a && a->alloc)
        r = *a;
    return r;
}

/* strdup through an allocator; the block is strlen + 1 bytes. Inline
 * because every library layer uses it and internals are not exported. */
static inline char *mk_strdup(const mk_allocator *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = (char *)mk_alloc(a, n);
    if (p)
        memcpy(p, s, n);
    return p;
}

static inline void mk_strfree(const mk_allocator *a, char *s)
{
    if (s)
        mk_free(a, s, strlen(s) + 1);
}

/* Below this squared length a blended or morphed normal is written as
 * (0, 0, 0) rather than divided by ~0 (blend.h). */
#define MK_NORMAL_MIN_LENGTH2 1e-24f

#endif
