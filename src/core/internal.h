/* Internal helpers shared by the library's layers; not installed. */
#ifndef MORPHKIT_INTERNAL_H
#define MORPHKIT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"

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

/* ---- single-block objects -------------------------------------------------
 * An object whose struct and arrays share one allocation is laid out by one
 * function run twice over an mk_block: first the sizing pass (after
 * mk_block_begin; mk_block_take adds up overflow-checked, 16-aligned array
 * sizes and returns NULL), then, after mk_block_alloc, the filling pass (the
 * same calls, in the same order, return pointers into the zeroed block at
 * the same offsets). The struct itself sits at offset 0. */
typedef struct mk_block {
    unsigned char *base; /* NULL during the sizing pass */
    size_t head;         /* bytes of the object's struct at offset 0 */
    size_t size;         /* bytes laid out so far */
    bool overflow;       /* some size did not fit in size_t (sticky) */
} mk_block;

/* Starts the sizing pass of an object whose struct is head bytes. */
void mk_block_begin(mk_block *b, size_t head);

/* Places count * elem bytes at the next 16-aligned offset. Returns where
 * they start in the block during the filling pass, NULL during the sizing
 * pass or after an overflow. */
void *mk_block_take(mk_block *b, size_t count, size_t elem);

/* The block's total size so far in bytes; 0 after an overflow. */
size_t mk_block_size(const mk_block *b);

/* Ends the sizing pass: allocates the block (zeroed) and starts the filling
 * pass; *out is the block (the object's struct). Errors, naming `what`:
 * MK_ERR_LIMIT when a size overflowed, MK_ERR_OUT_OF_MEMORY. */
mk_status mk_block_alloc(mk_block *b, const mk_allocator *allocator, const char *what,
                         void **out, mk_error *err);

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

/* A plain loop function that also gets an AVX2 copy, chosen once when the
 * library is loaded (function multi-versioning through glibc's ifunc): 8
 * lanes where the default build vectorizes for SSE2's 4. Only for loops
 * whose operations round alike at any width (no FMA contraction: the files
 * using it build with -ffp-contract=off), so both copies give the same
 * bits. GCC only: clang 14 makes the resolver of a static function a
 * global symbol, which the libraries would export. Elsewhere (clang,
 * another libc, another CPU) the one default copy. */
#if defined(__x86_64__) && defined(__GLIBC__) && defined(__GNUC__) && !defined(__clang__) && \
    defined(__has_attribute)
#if __has_attribute(target_clones)
#define MK_AVX2_CLONE __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef MK_AVX2_CLONE
#define MK_AVX2_CLONE
#endif

/* Below this squared length a blended or morphed normal is written as
 * (0, 0, 0) rather than divided by ~0 (blend.h). */
#define MK_NORMAL_MIN_LENGTH2 1e-24f

/* The morph of vertices [v0, v1) of set (morph.c): bit for bit what
 * mk_morph_evaluate writes for them, into pos / nrm / tan pointing at
 * vertex v0, so a consumer can take the morph block by block while it is
 * in L1 (mk_skin_apply_morph). weights: target_count finite floats,
 * checked by the caller; nrm / tan may be NULL, and are ignored where the
 * set has no such base attribute. */
struct mk_morph_set;
void mk_morph_evaluate_range(const struct mk_morph_set *set, const float *weights, uint32_t v0,
                             uint32_t v1, float *pos, float *nrm, float *tan);

/* The plain C skinning kernel (skin.c), for tests comparing the SIMD one
 * with it; arguments as mk_skin_apply's, already checked. */
struct mk_skin;
void mk_skin_apply_scalar(const struct mk_skin *skin, const float *joint_matrices,
                          const float *in_positions, const float *in_normals,
                          const float *in_tangents, float *out_positions, float *out_normals,
                          float *out_tangents);
#if defined(__SSE2__)
/* The SIMD variants (same arguments); mk_skin_apply picks AVX-512, AVX2 +
 * FMA or SSE2 by the library's kernel choice and what
 * mk_skin_have_avx512() / mk_skin_have_avx2() say the CPU has. */
void mk_skin_apply_sse2(const struct mk_skin *skin, const float *joint_matrices,
                        const float *in_positions, const float *in_normals,
                        const float *in_tangents, float *out_positions, float *out_normals,
                        float *out_tangents);
void mk_skin_apply_avx2(const struct mk_skin *skin, const float *joint_matrices,
                        const float *in_positions, const float *in_normals,
                        const float *in_tangents, float *out_positions, float *out_normals,
                        float *out_tangents);
void mk_skin_apply_avx512(const struct mk_skin *skin, const float *joint_matrices,
                          const float *in_positions, const float *in_normals,
                          const float *in_tangents, float *out_positions, float *out_normals,
                          float *out_tangents);
bool mk_skin_have_avx2(void);
bool mk_skin_have_avx512(void); /* AVX-512F + VL beside AVX2 + FMA */
#endif

#endif
