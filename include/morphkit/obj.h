/* morphkit/obj.h - Wavefront OBJ reader for animation frames (assets layer).
 *
 * Reads what exporters write: `v`, `vt`, `vn`, `f` (triangles, quads and
 * n-gons, fan-triangulated from the first corner), negative (relative)
 * indices, the corner forms `v`, `v/vt`, `v//vn`, `v/vt/vn`. `o`, `g`, `s`,
 * `usemtl`, `mtllib`, `l`, `p`, other unknown statements of a known family and
 * `#` comments are accepted and ignored; CRLF line ends and a missing final
 * newline are fine. A `v` line's optional w (and vertex colours) are ignored.
 *
 * The result keeps the file's own numbering: positions in `v` order, normals
 * in `vn` order, and per triangle corner the 0-based `v`, `vt` and `vn`
 * indices. Unifying corners into render vertices is done by the caller
 * (mk_obj_build_mesh, or the unit loader across frames).
 *
 * Errors name `file:line` and the problem: a bad number, an index of 0 or out
 * of range, a face with fewer than 3 corners, a malformed corner, more
 * elements than the limits allow. */
#ifndef MORPHKIT_OBJ_H
#define MORPHKIT_OBJ_H

#include <stddef.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"
#include "morphkit/mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Index value for a corner without a texture coordinate or normal. */
#define MK_OBJ_NONE UINT32_MAX

typedef struct mk_obj_options {
    const mk_allocator *allocator; /* NULL: malloc */
    uint32_t max_elements; /* cap on v, vt, vn and triangle counts each; 0: 1 << 26 */
    size_t max_file_size;  /* mk_obj_load only; 0: 2 GiB */
} mk_obj_options;

typedef struct mk_obj {
    uint32_t position_count; /* number of `v` lines */
    uint32_t texcoord_count; /* number of `vt` lines */
    uint32_t normal_count;   /* number of `vn` lines */
    uint32_t triangle_count; /* after triangulation */
    uint32_t face_count;     /* `f` lines */
    float *positions;        /* position_count * 3 */
    float *texcoords;        /* texcoord_count * 2 (u v; a third value is ignored) */
    float *normals;          /* normal_count * 3, as written (not re-normalized) */
    uint32_t *corner_position; /* triangle_count * 3, 0-based `v` index */
    uint32_t *corner_texcoord; /* triangle_count * 3 `vt` index or MK_OBJ_NONE;
                                  NULL when no corner has one */
    uint32_t *corner_normal;   /* likewise for `vn` */
    uint32_t *triangle_line;   /* triangle_count: the 1-based line of its `f` */
    uint32_t *triangle_face;   /* triangle_count: 0-based index of its `f` line */
    mk_allocator allocator;
} mk_obj;

/* Parses OBJ text of `size` bytes (need not be NUL-terminated). `name` is
 * used in error messages (a path, or "<memory>"). options may be NULL. */
MK_API mk_status mk_obj_parse(const char *text, size_t size, const char *name,
                              const mk_obj_options *options, mk_obj **out, mk_error *err);

/* Reads and parses a file. */
MK_API mk_status mk_obj_load(const char *path, const mk_obj_options *options, mk_obj **out,
                             mk_error *err);

MK_API void mk_obj_destroy(mk_obj *obj);

/* Builds a render mesh: one vertex per distinct (v, vt, vn) triple, in order
 * of first use. When source_index is not NULL it receives an array (allocated
 * with the same allocator, vertex_count entries, freed with mk_free) giving
 * each mesh vertex's 0-based `v` index. Normals are present when every corner
 * has one, texcoords when every corner has one. */
MK_API mk_status mk_obj_build_mesh(const mk_obj *obj, const mk_allocator *allocator,
                                   mk_mesh **out, uint32_t **source_index, mk_error *err);

#ifdef __cplusplus
}
#endif

#endif
