/* Helpers shared by the assets layer (src/io); not installed. */
#ifndef MORPHKIT_IO_INTERNAL_H
#define MORPHKIT_IO_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "morphkit/allocator.h"
#include "morphkit/error.h"

/* ---- a growing byte block (buf.c): the packer's JSON and binary parts,
 * repaired OBJ frames ---------------------------------------------------- */

/* A growing byte block; after a failed growth every append is a no-op and
 * `failed` stays set, so writers check once at the end. */
typedef struct mk_buf {
    uint8_t *data;
    size_t size, cap;
    const mk_allocator *allocator;
    bool failed;
} mk_buf;

void mk_buf_append(mk_buf *b, const void *data, size_t n);
void mk_buf_printf(mk_buf *b, const char *format, ...) MK_PRINTF(2, 3);
/* Appends `fill` bytes until size is a multiple of `align`. */
void mk_buf_align(mk_buf *b, size_t align, uint8_t fill);
/* A JSON string literal (quotes, escapes). */
void mk_buf_json_string(mk_buf *b, const char *s);
/* A float as the shortest text that reads back to the same double. */
void mk_buf_number(mk_buf *b, double v);
void mk_buf_free(mk_buf *b);

/* ---- render-vertex numbering (unit_order.c) -------------------------------- */

struct mk_frame_set;
struct mk_unit;

/* new_of_old[v] (vertex_count entries): vertex v's number in order of first
 * use by s's triangles, the vertices no triangle uses after them in their
 * order; s's indices must be below its vertex_count. Returns whether that
 * numbering is s's own (how a unit folder numbers its render vertices). */
bool mk_unit_first_use_numbers(const struct mk_frame_set *s, uint32_t *new_of_old);

/* dst[new_of_old[v]] = src[v] for the n elements of `width` (3 or 2)
 * floats. */
void mk_scatter_floats(float *restrict dst, const float *restrict src, const uint32_t *new_of_old,
                       uint32_t n, uint32_t width);
/* The same in place, through scratch (n * width floats). */
void mk_renumber_floats(float *a, float *scratch, const uint32_t *new_of_old, uint32_t n,
                        uint32_t width);
/* u's source_index and normal_vertex renumbered (scratch: vertex_count
 * entries). */
void mk_renumber_maps(struct mk_unit *u, const uint32_t *new_of_old, uint32_t *scratch);

#endif
