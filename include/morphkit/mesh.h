/* morphkit/mesh.h - a triangle mesh as plain attribute streams.
 *
 * Positions and normals are float3 per vertex, texture coordinates float2,
 * tightly packed; indices are 3 per triangle. A mesh made by mk_mesh_create
 * lives in one allocation that the mesh owns; its arrays are writable until
 * the caller shares it, after which it is treated as immutable. */
#ifndef MORPHKIT_MESH_H
#define MORPHKIT_MESH_H

#include <stdbool.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mk_mesh_desc {
    uint32_t vertex_count;
    uint32_t index_count; /* a multiple of 3 */
    bool has_normals;
    bool has_texcoords;
} mk_mesh_desc;

typedef struct mk_mesh {
    uint32_t vertex_count;
    uint32_t index_count;
    float *positions; /* vertex_count * 3 */
    float *normals;   /* vertex_count * 3, or NULL */
    float *texcoords; /* vertex_count * 2, or NULL */
    uint32_t *indices;
    mk_allocator allocator; /* how the block was allocated */
    size_t byte_size;       /* size of the block */
} mk_mesh;

/* Bytes one allocation needs for desc, or 0 when the sizes overflow. */
MK_API size_t mk_mesh_byte_size(const mk_mesh_desc *desc);

/* Creates a zero-filled mesh. Fails with MK_ERR_INVALID_ARGUMENT when
 * index_count is not a multiple of 3, MK_ERR_LIMIT on size overflow. */
MK_API mk_status mk_mesh_create(const mk_mesh_desc *desc, const mk_allocator *allocator,
                                mk_mesh **out, mk_error *err);
MK_API void mk_mesh_destroy(mk_mesh *mesh);

/* Checks every index against vertex_count and every value for NaN/inf. */
MK_API mk_status mk_mesh_validate(const mk_mesh *mesh, mk_error *err);

#ifdef __cplusplus
}
#endif

#endif
