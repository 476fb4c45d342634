/* morphkit/obj.h - Wavefront OBJ reader for animation frames (assets layer).
 *
 * Reads what exporters write: `v`, `vt`, `vn`, `f` (triangles, quads and
 * n-gons, fan-triangulated from the first corner: c0 c1 c2, c0 c2 c3, ...),
 * negative (relative) indices, the corner forms `v`, `v/vt`, `v//vn`,
 * `v/vt/vn`. `o`, `g`, `s`, `usemtl`, `mtllib`, `l`, `p`, `vp`, any other
 * statement that starts with a keyword (`cstype`, ...) and `#` comments
 * (also after a statement) are accepted and ignored; a line that does not
 * start with a letter or `#` is an error (it is not OBJ text). CRLF line ends,
 * a missing final newline, tabs and runs of blanks, and a UTF-8 byte order
 * mark are fine. `\` line continuations are not supported.
 *
 * Numbers: `v` and `vn` need 3, `vt` at least 1 (v defaults to 0); further
 * numbers (a `v`'s w or vertex colours, a `vt`'s w) are checked and dropped.
 * Numbers are decimal ([+-] digits [. digits] [e[+-]digits]), read
 * independently of the C locale, within one float ulp of the exact value;
 * `nan`/`inf` and values beyond the float range are errors.
 *
 * Indices: a positive index may refer to an element defined later in the
 * file (a forward reference); those are checked once the whole file is read,
 * and an error names the line of the first face with a bad one. A negative
 * index counts back from the last element defined before the face's line
 * (-1 is the latest), as the OBJ specification says. All corners of one face
 * must have the same form (`f 1/1 2 3` is an error: exporters never mix);
 * different faces may use different forms, and corners without a vt or vn
 * get MK_NONE.
 *
 * The result keeps the file's own numbering: positions in `v` order, normals
 * in `vn` order, and per triangle corner the 0-based `v`, `vt` and `vn`
 * indices. Unifying corners into render vertices is done by the caller
 * (mk_obj_build_mesh, or the unit loader across frames).
 *
 * Errors name `file:line` and the problem, quoting the offending text:
 *   MK_ERR_PARSE  bad number, `nan`/`inf`, too few numbers, malformed corner
 *                 (`1/2/3/4`, `1//`, `/1`), face with fewer than 3 corners,
 *                 mixed corner forms, a line that is not a statement;
 *   MK_ERR_RANGE  index 0, index out of range (names v/vt/vn and the count),
 *                 a number beyond the float range;
 *   MK_ERR_LIMIT  more v, vt, vn or triangles than max_elements, a file larger
 *                 than max_file_size;
 *   MK_ERR_OUT_OF_MEMORY, and for mk_obj_load MK_ERR_NOT_FOUND / MK_ERR_IO
 *                 (naming the path and the system's reason).
 * Parsing is reentrant: no global state, and an mk_obj may be shared
 * read-only between threads. */
#ifndef MORPHKIT_OBJ_H
#define MORPHKIT_OBJ_H

#include <stddef.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"
#include "morphkit/file.h"
#include "morphkit/mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mk_obj_options {
    uint32_t max_elements; /* cap on v, vt, vn and triangle counts each; 0: 1 << 26.
                              Also the largest index accepted. */
    size_t max_file_size;  /* mk_obj_load only; 0: 2 GiB */
    const mk_file_callbacks *files; /* mk_obj_load only: how the file is read;
                                       NULL: the default (morphkit/file.h) */
} mk_obj_options;

/* Made by mk_obj_parse / mk_obj_load and freed by mk_obj_destroy. The
 * struct is complete: it is its own allocation of sizeof(mk_obj), and each
 * array is a separate allocation of exactly the size its count implies, so
 * the fields may be copied or embedded freely (the copies point into the
 * original, which must outlive them; destroy only the pointer you were
 * given). Treat the arrays as read-only. An array whose count is 0 is NULL. */
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
    uint32_t *corner_texcoord; /* triangle_count * 3 `vt` index or MK_NONE;
                                  NULL when no corner has one */
    uint32_t *corner_normal;   /* likewise for `vn` */
    uint32_t *triangle_line;   /* triangle_count: the 1-based line of its `f` */
    uint32_t *triangle_face;   /* triangle_count: 0-based index of its `f` line */
    mk_allocator allocator;
} mk_obj;

/* Parses OBJ text of `size` bytes (need not be NUL-terminated; never read
 * past size). `name` is used in error messages (NULL: "<memory>"). options
 * may be NULL; allocator (NULL: malloc) makes everything *out holds. On
 * success *out owns everything it points to (free it with mk_obj_destroy);
 * on failure *out is NULL and nothing is left allocated. text NULL with
 * size > 0, or out NULL, is MK_ERR_INVALID_ARGUMENT. */
MK_API mk_status mk_obj_parse(const char *text, size_t size, const char *name,
                              const mk_obj_options *options, const mk_allocator *allocator,
                              mk_obj **out, mk_error *err);

/* Reads the file at path through options->files (at most max_file_size
 * bytes; only regular files: a folder or FIFO is MK_ERR_IO, a missing file
 * MK_ERR_NOT_FOUND) and parses it; errors name the path. */
MK_API mk_status mk_obj_load(const char *path, const mk_obj_options *options,
                             const mk_allocator *allocator, mk_obj **out, mk_error *err);

/* Frees an mk_obj and its arrays (NULL is fine). */
MK_API void mk_obj_destroy(mk_obj *obj);

/* Builds a render mesh: one vertex per distinct (v, vt, vn) triple, in order
 * of first use. When source_index is not NULL it receives an array (allocated
 * with the same allocator, vertex_count entries, freed with
 * mk_free(allocator, p, vertex_count * 4); NULL when vertex_count is 0)
 * giving each mesh vertex's 0-based `v` index. Normals are present when every
 * corner has one, texcoords when every corner has one; an attribute that is
 * not present does not split vertices. `v` lines no face uses are left out;
 * an OBJ without faces gives an empty mesh. Expected cost O(corners). */
MK_API mk_status mk_obj_build_mesh(const mk_obj *obj, const mk_allocator *allocator,
                                   mk_mesh **out, uint32_t **source_index, mk_error *err);

#ifdef __cplusplus
}
#endif

#endif
