/* morphkit/frame_set.h - N poses of one mesh: shared topology, per-frame
 * positions (and normals).
 *
 * Every frame has the same vertex count and triangle list. Positions and
 * normals are stored frame-major ([frame][vertex][3]) so one frame is one
 * contiguous float3 stream, ready for the blend kernels or a GPU upload.
 * Texture coordinates are shared by all frames. The whole set is one
 * allocation; after it is filled it is immutable and may be shared by threads. */
#ifndef MORPHKIT_FRAME_SET_H
#define MORPHKIT_FRAME_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mk_frame_set_desc {
    uint32_t frame_count;  /* >= 1 */
    uint32_t vertex_count; /* >= 1 */
    uint32_t index_count;  /* a multiple of 3 */
    bool has_normals;
    bool has_texcoords;
} mk_frame_set_desc;

typedef struct mk_frame_set {
    uint32_t frame_count;
    uint32_t vertex_count;
    uint32_t index_count;
    float *positions; /* frame_count * vertex_count * 3 */
    float *normals;   /* frame_count * vertex_count * 3, or NULL */
    float *texcoords; /* vertex_count * 2, or NULL */
    uint32_t *indices;
    mk_allocator allocator;
    size_t byte_size;
} mk_frame_set;

/* Bytes the one allocation needs, or 0 when the sizes overflow size_t. */
MK_API size_t mk_frame_set_byte_size(const mk_frame_set_desc *desc);

/* Creates a zero-filled frame set. MK_ERR_INVALID_ARGUMENT for zero counts or
 * an index count that is not a multiple of 3; MK_ERR_LIMIT on overflow;
 * MK_ERR_OUT_OF_MEMORY when the allocator fails. */
MK_API mk_status mk_frame_set_create(const mk_frame_set_desc *desc, const mk_allocator *allocator,
                                     mk_frame_set **out, mk_error *err);
MK_API void mk_frame_set_destroy(mk_frame_set *set);

/* Checks indices against vertex_count and every float for NaN/inf.
 * MK_ERR_INVALID_ARGUMENT for a NULL set. */
MK_API mk_status mk_frame_set_validate(const mk_frame_set *set, mk_error *err);

/* Frame f's positions (vertex_count float3), read-only: a built set is
 * immutable. NULL when set is NULL or f >= frame_count. */
static inline const float *mk_frame_set_positions(const mk_frame_set *set, uint32_t f)
{
    if (!set || f >= set->frame_count)
        return (const float *)0;
    return set->positions + (size_t)f * set->vertex_count * 3u;
}

/* Frame f's normals, or NULL when the set has none (or as above). */
static inline const float *mk_frame_set_normals(const mk_frame_set *set, uint32_t f)
{
    if (!set || !set->normals || f >= set->frame_count)
        return (const float *)0;
    return set->normals + (size_t)f * set->vertex_count * 3u;
}

/* The same streams for the code that fills a new set (loaders, builders),
 * before it is shared: the only way to get writable frame pointers. */
static inline float *mk_frame_set_positions_to_fill(mk_frame_set *set, uint32_t f)
{
    if (!set || f >= set->frame_count)
        return (float *)0;
    return set->positions + (size_t)f * set->vertex_count * 3u;
}

static inline float *mk_frame_set_normals_to_fill(mk_frame_set *set, uint32_t f)
{
    if (!set || !set->normals || f >= set->frame_count)
        return (float *)0;
    return set->normals + (size_t)f * set->vertex_count * 3u;
}

#ifdef __cplusplus
}
#endif

#endif
