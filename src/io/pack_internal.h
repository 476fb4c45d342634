/* Private to the unit packer (src/io/pack_*.c); not installed. */
#ifndef MK_PACK_INTERNAL_H
#define MK_PACK_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "io_internal.h"
#include "morphkit/clip.h"
#include "morphkit/pack.h"

/* ---- maps told by the data, the vertices in `v` order (pack_order.c) ----- */

#define MK_PACK_ORDER_IDENTITY 0xFFFFFFFEu /* a map told by the base pose, in order */

/* Numbers the distinct triples of `elements` (3 n bit patterns: a
 * vertex's base-pose position or normal as stored) in order of first use:
 * class_of[v] is vertex v's class, first[c] (n entries of room) the first
 * vertex of class c. MK_ERR_OUT_OF_MEMORY is the only failure. */
mk_status mk_pack_first_uses(const uint32_t *elements, uint32_t n, const mk_allocator *al,
                             uint32_t *class_of, uint32_t *first, uint32_t *class_count);

/* With --compress a pack is also tried with the vertices sorted by their
 * OBJ `v` (the file then says first_use_order): *out is unit with its
 * render vertices in that order, or NULL when unit's own order is not the
 * first-use order a reader can tell again, or already is the `v` order.
 * Free the copy with mk_pack_free_copy. */
mk_status mk_pack_unit_by_v(const mk_unit *unit, const mk_allocator *al, mk_unit **out,
                            mk_error *err);

/* With no_texcoords, render vertices split only by their texture
 * coordinates are one: *out is unit without texture coordinates, each set
 * of vertices that share a `v` and their positions and normals bit for bit
 * in every frame made one vertex (but never two that normal_vertex names
 * for different `vn`: its map names one vertex each), numbered by first
 * use as a folder's are; NULL when unit has no texture coordinates or no
 * two vertices merge. Free the copy with mk_pack_free_copy. */
mk_status mk_pack_unit_welded(const mk_unit *unit, const mk_allocator *al, mk_unit **out,
                              mk_error *err);

/* Frees a copy made by mk_pack_unit_by_v or mk_pack_unit_welded: its
 * frames and maps (the rest is the original's); NULL is ignored. */
void mk_pack_free_copy(mk_unit *copy, const mk_allocator *al);

/* ---- the document being written (pack_write.c, pack_mesh.c) ------------ */

enum {
    MK_PACK_BYTE = 5120,
    MK_PACK_UNSIGNED_BYTE = 5121,
    MK_PACK_SHORT = 5122,
    MK_PACK_UNSIGNED_SHORT = 5123,
    MK_PACK_UNSIGNED_INT = 5125,
    MK_PACK_FLOAT = 5126,
    MK_PACK_ARRAY_BUFFER = 34962,
    MK_PACK_ELEMENT_ARRAY_BUFFER = 34963
};

/* One bufferView: where it lies in the binary chunk and how meshopt may
 * encode it. */
typedef struct mk_pack_view {
    size_t offset, length;
    uint32_t stride;     /* byteStride written (0: none) */
    uint32_t target;     /* 0: none */
    uint32_t element;    /* bytes of one element (for the meshopt codec) */
    uint32_t index_size; /* 2 or 4: a triangle index buffer; 0: other data */
    bool raw;            /* an image: stored as it is, also under compression */
} mk_pack_view;

/* Data of one kind and layout, gathered into one bufferView: fewer views
 * make a smaller document and longer streams for the meshopt codec. */
typedef struct mk_pack_group {
    mk_buf data;
    uint32_t kind, stride, target, element;
} mk_pack_group;

#define MK_PACK_MAX_GROUPS 160

typedef struct mk_pack_writer {
    const mk_allocator *allocator;
    mk_buf bin, views, accessors, meshes, animations, json;
    uint32_t view_count, accessor_count, animation_count;
    mk_pack_group groups[MK_PACK_MAX_GROUPS];
    uint32_t group_count;
    uint32_t obj_v, obj_vn; /* the `v` / `vn` map accessors (MK_NONE: the identity) */
    /* or the maps told by the base pose (pack_order.c): the permutation's
     * accessor, MK_PACK_ORDER_IDENTITY, or MK_NONE: not used */
    uint32_t obj_v_order, obj_vn_order;
    bool map_deltas; /* the map accessors hold x_i - i (version 4's map_deltas) */
    uint32_t index_turns; /* accessor of the triangles' corner turns, or MK_NONE */
    bool flat_normals;    /* no normals stored (version 5's flat_normals) */
    bool first_use_order; /* the vertices are not in the unit's order (version 6) */
    bool failed; /* out of groups or memory */
} mk_pack_writer;

/* Kinds of data (views are never shared between kinds). */
enum {
    MK_PACK_KIND_POSITION = 1,
    MK_PACK_KIND_NORMAL,
    MK_PACK_KIND_TEXCOORD,
    MK_PACK_KIND_MAP,
    MK_PACK_KIND_INDEX,
    MK_PACK_KIND_SPARSE_INDEX,
    MK_PACK_KIND_SPARSE_POSITION,
    MK_PACK_KIND_SPARSE_NORMAL,
    MK_PACK_KIND_TIME,
    MK_PACK_KIND_WEIGHT,
    MK_PACK_KIND_IMAGE, /* + material index: each image its own view, never compressed */
    MK_PACK_KIND_PRIMITIVE_INDEX = MK_PACK_KIND_IMAGE + 100 /* + primitive: whole triangles
                                                               for the meshopt index codec */
};

/* Appends data (4-byte aligned) to the view of its kind and layout: stride
 * 0: none, target 0: none, element: bytes of one element (the stride, or
 * the tight size; for an index buffer 2 or 4). Returns the view index and
 * the data's byte offset in it (*offset). */
uint32_t mk_pack_add_view(mk_pack_writer *w, uint32_t kind, const void *data, size_t bytes,
                          uint32_t stride, uint32_t target, uint32_t element, size_t *offset);

/* Lays the views out in w->bin (w->views: their mk_pack_view records). */
void mk_pack_finish_views(mk_pack_writer *w);

static inline mk_pack_view *mk_pack_views(const mk_pack_writer *w)
{
    return (mk_pack_view *)w->views.data;
}

/* EXT_meshopt_compression (pack_compress.c): replaces w->bin by the encoded
 * views and writes the bufferViews JSON (with the extension, over a
 * fallback buffer 1 of *fallback_size bytes) into out. */
mk_status mk_pack_compress(mk_pack_writer *w, mk_buf *out, size_t *fallback_size,
                           mk_error *err);

typedef struct mk_pack_accessor {
    uint32_t view;           /* MK_NONE: no bufferView (zeros, then sparse values) */
    size_t byte_offset;      /* in the view */
    uint32_t component_type; /* MK_PACK_* */
    bool normalized;
    uint32_t count;
    const char *type;        /* "SCALAR", "VEC2", "VEC3" */
    uint32_t components;     /* of type */
    const double *min, *max; /* components each, or NULL */
    uint32_t sparse_count;   /* 0: not sparse */
    uint32_t sparse_indices_view, sparse_index_type, sparse_values_view;
    size_t sparse_indices_offset, sparse_values_offset;
} mk_pack_accessor;

uint32_t mk_pack_add_accessor(mk_pack_writer *w, const mk_pack_accessor *a);

/* ---- materials (pack_material.c) ------------------------------------------ */

#define MK_PACK_MAX_MATERIALS 64
#define MK_PACK_MAX_RUNS 4096

typedef struct mk_pack_material {
    char name[128];
    bool defined;    /* an .mtl defines it */
    float color[4];  /* Kd and d; 1 each when absent */
    uint8_t *image;  /* map_Kd file bytes (PNG or JPEG; image_size + 1 allocated), or NULL */
    size_t image_size;
    const char *mime;
} mk_pack_material;

/* The unit's materials in order of first use, and runs of triangles in the
 * unit's order: runs[2 i] the material (MK_NONE: faces before any usemtl),
 * runs[2 i + 1] the triangle count. count 0: no materials. */
typedef struct mk_pack_materials {
    uint32_t count;
    mk_pack_material items[MK_PACK_MAX_MATERIALS];
    uint32_t run_count;
    uint32_t runs[2 * MK_PACK_MAX_RUNS];
    /* after loading: one primitive per material in order of first use
     * (MK_NONE: without material); run_prim[i]: run i's primitive */
    uint32_t prim_count;
    uint32_t prim_material[MK_PACK_MAX_MATERIALS + 1];
    uint32_t run_prim[MK_PACK_MAX_RUNS];
} mk_pack_materials;

/* Reads the unit's first frame file for usemtl/mtllib and its .mtl files;
 * problems are warnings in report (may be NULL). Never fails: without
 * materials (or a frame file to read, as for a unit read from a pack)
 * count is 0. */
mk_status mk_pack_materials_load(const mk_unit *u, const mk_file_callbacks *files,
                                 const mk_allocator *al, mk_pack_materials *m, mk_report *report);
void mk_pack_materials_free(mk_pack_materials *m, const mk_allocator *al);

/* Whether the unit may be packed without normals (pack_flat.c): it has
 * normals, o asks for flat_normals in a quantized form with 8-bit normals,
 * and in every frame the normals a reader computes from the positions
 * it reads back, and each triangle's own, are within MK_PACK_FLAT_TOLERANCE
 * of the unit's, on the grid of o or else (unless o fixes position_bits)
 * on one of half its step. *flat_options: o with that grid's error bound;
 * *error: the largest difference in one component of the reader's normals,
 * as mk_pack_stats reports it. MK_ERR_OUT_OF_MEMORY only. */
mk_status mk_pack_flat_fits(const mk_unit *unit, const mk_pack_options *o, const mk_allocator *al,
                            bool *flat, double *error, mk_pack_options *flat_options);

/* Writes the mesh (meshes[0] JSON into w->meshes, its data into w->bin;
 * without normals when flat) and fills the node's translation/scale (identity unless positions are
 * quantized) and the stats' size, bits and errors. With tree (the
 * caller's choice: not for --every-frame) and positions on the grid the
 * targets become a tree (target_parent, MK_NONE: the base; else all
 * MK_NONE), numbered parents first: target_frame and frame_target (the
 * frames' targets) are renumbered to match. *tree_possible: whether the
 * unit can have a tree (a caller that asked for none need not ask again
 * when it cannot). */
mk_status mk_pack_write_mesh(mk_pack_writer *w, const mk_unit *unit, const mk_pack_options *o,
                             const mk_pack_materials *mats, uint32_t base_frame, bool flat,
                             bool tree, bool *tree_possible, uint32_t *frame_target,
                             uint32_t *target_frame, uint32_t targets, uint32_t *target_parent,
                             float translation[3], float *scale, mk_pack_stats *stats,
                             mk_error *err);

/* Units up to this many frames^2 x vertices are packed from every frame as
 * the base pose and the smallest file kept (pack_write.c): the knight's
 * 15 frames of 456 vertices, 1e5; larger ones take mk_pack_choose_base. */
#define MK_PACK_BASE_SEARCH 1e6

/* The targets as a tree (pack_tree.c; pack format 7): paths of at most
 * this many targets, for units of up to MK_PACK_TREE_WORK targets^2 x
 * vertices x 3 (the tree compares every pair of targets); larger ones, and
 * float positions, keep every target's parent the base. */
#define MK_PACK_TREE_DEPTH 4
#define MK_PACK_TREE_WORK 1e9

/* Prim's tree over targets whose grid values are grid rows 1..targets (row
 * 0: the base; n3 values a row): parent[t] (MK_NONE: the base) and order
 * (the targets in the order they joined: parents first). */
mk_status mk_pack_target_tree(const int32_t *grid, uint32_t targets, size_t n3, bool compress,
                              const mk_allocator *al, uint32_t *parent, uint32_t *order);

/* The frame to write as the base pose of a unit too large for that search:
 * on the quantized grid, the one whose
 * dense deltas to the other frames take the fewest bytes (a frame in the
 * middle of the motion often lets more targets be BYTE); 0 for plain and
 * every_frame packs, when positions stay float, and for units where the
 * search (frames^2 * vertices) would be slow. MK_ERR_OUT_OF_MEMORY only. */
mk_status mk_pack_choose_base(const mk_unit *unit, const mk_pack_options *o, bool flat,
                              const mk_allocator *allocator, uint32_t *base);

/* The one dequantization both the writer (to measure the error) and the
 * reader use, so the measured error is the error a reader gets. */
static inline float mk_pack_dequantize(float origin, float step, float q)
{
    return origin + step * q;
}

/* Normalizes v in place (zero stays zero). */
static inline void mk_pack_normalize3(float *v)
{
    float len2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    float inv = len2 >= MK_NORMAL_MIN_LENGTH2 ? 1.0f / sqrtf(len2) : 0.0f;
    v[0] *= inv;
    v[1] *= inv;
    v[2] *= inv;
}

/* ---- flat normals (pack_flat.c) --------------------------------------------- */

/* How far the normals a reader (or a viewer, per triangle) computes may be
 * from the folder's for a unit to be packed without them: |a - b| of unit
 * vectors 1 degree apart (2 sin 0.5 deg). A quantized position moves a
 * small face's normal by about the position error over its edge's length:
 * the knight's smallest boxes turn by 0.8 degrees on the default grid. */
#define MK_PACK_FLAT_TOLERANCE 0.017453070996747869

/* mk_pack_normalize3 on n float3 vectors (o), bit for bit, in three passes
 * so the square roots and divisions run four or eight at a time (len: n
 * floats of scratch). */
void mk_pack_normalize_all(float *restrict o, float *restrict len, size_t n);

/* Vertex normals of one frame from its positions (3 n floats) and
 * triangles (indices below n): each vertex the normalized sum of its
 * triangles' area-weighted normals; zero where no triangle reaches.
 * scratch: n floats. The writer and the reader both call it, so they get
 * the same bits. */
void mk_pack_flat_normals(const float *positions, const uint32_t *indices, uint32_t index_count,
                          uint32_t n, float *out, float *scratch);

/* ---- reading (pack_read.c, pack_extras.c) ---------------------------------- */

struct mk_gltf_json;
struct mk_gltf_json_value;

typedef struct mk_pack_reader {
    const struct mk_gltf_json *doc;
    const char *file;
    mk_error *err;
} mk_pack_reader;

/* MK_ERR_PARSE "extras.morphkit.<path>[index]: what" (index MK_NONE: none). */
mk_status mk_pack_bad(mk_pack_reader *r, const char *path, uint32_t index, const char *what);
/* A whole number in [lo, hi]. */
bool mk_pack_whole(mk_pack_reader *r, const struct mk_gltf_json_value *v, double lo, double hi,
                   int64_t *out);
mk_status mk_pack_get_u32(mk_pack_reader *r, const struct mk_gltf_json_value *obj,
                          const char *key, const char *path, uint32_t *out);
/* A string member copied through the allocator (NULL when absent and optional). */
mk_status mk_pack_get_string(mk_pack_reader *r, const mk_allocator *al,
                             const struct mk_gltf_json_value *obj, const char *key,
                             const char *path, bool required, char **out);
/* u->files from animations (and files), and the frame -> target map
 * (*frames entries through u's allocator; targets: the mesh's count). */
mk_status mk_pack_read_files(mk_pack_reader *r, const struct mk_gltf_json_value *x, mk_unit *u,
                             uint32_t targets, uint32_t **frame_target, uint32_t *frames);
/* u->clips from clips (one per animation, in order). */
mk_status mk_pack_read_clips(mk_pack_reader *r, const struct mk_gltf_json_value *x, mk_unit *u);

/* One clip's keys for a glTF weights sampler: key_count times (seconds,
 * strictly increasing as floats) and key_count * target_count values, or
 * 3 * key_count * target_count for CUBICSPLINE (in-tangent, value,
 * out-tangent per key, as glTF stores them). */
typedef struct mk_pack_keys {
    mk_interpolation interpolation; /* LINEAR, STEP or CUBICSPLINE */
    uint32_t key_count;
    uint32_t times_cap; /* entries allocated for times */
    float *times;
    float *values;
    size_t values_count;
} mk_pack_keys;

/* Keys clip `clip` of set for a viewer (pack.h describes the keying).
 * frame_target maps frame-set indices to morph targets (MK_NONE: the
 * base); target_parent each target to the target its delta is taken from
 * (MK_NONE: the base). MK_ERR_UNSUPPORTED when two key times coincide as
 * floats. */
mk_status mk_pack_key_clip(const mk_clip_set *set, uint32_t clip, const uint32_t *frame_target,
                           const uint32_t *target_parent, uint32_t target_count,
                           const mk_allocator *allocator, mk_pack_keys *out, mk_error *err);
void mk_pack_keys_free(mk_pack_keys *keys, uint32_t target_count, const mk_allocator *allocator);

#endif
