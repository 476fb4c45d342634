/* morphkit/gltf.h - glTF 2.0 reader (assets layer): .gltf with external
 * .bin files or base64 `data:` URIs, and .glb (binary container, §4.4).
 *
 * The result mirrors the glTF JSON (buffers, bufferViews, accessors incl.
 * sparse, meshes with primitives and morph targets, nodes, scenes,
 * animations) as plain arrays with `_count` beside them. Indices between
 * objects are uint32_t; MK_NONE marks an absent one. Everything the
 * loader returns is checked: every index is in range, every accessor (and
 * sparse part) lies inside its bufferView and buffer, every sparse index is
 * below the accessor count and the indices strictly increase, all sizes are
 * overflow-checked. Code that reads the model may rely on that.
 *
 * What is rejected, with the glTF path of the object in the message
 * (`meshes[0].primitives[1].targets[2].POSITION: accessor 7 ...`) and the
 * asset file in mk_error.file:
 *   - asset.version other than 2.x, broken JSON, a GLB with a bad header or
 *     chunk table (MK_ERR_PARSE); JSON nested deeper than 256 arrays and
 *     objects (MK_ERR_LIMIT);
 *   - an entry of extensionsRequired other than KHR_mesh_quantization and
 *     EXT_meshopt_compression (MK_ERR_UNSUPPORTED, naming it);
 *   - EXT_meshopt_compression data that does not decode, a mode, filter or
 *     stride the extension does not allow, a bufferView of a fallback
 *     buffer that is not compressed (MK_ERR_PARSE / MK_ERR_RANGE);
 *   - a buffer uri that is absolute, has a scheme other than `data:`, or
 *     leaves the asset's folder through `..` (MK_ERR_INVALID_ARGUMENT); a
 *     missing or short .bin (MK_ERR_NOT_FOUND / MK_ERR_RANGE); symbolic links are
 *     followed as the file system resolves them;
 *   - out-of-range indices and byte ranges (MK_ERR_RANGE), wrong accessor
 *     types for their use (MK_ERR_PARSE), sizes above the limits (MK_ERR_LIMIT);
 *   - primitives of one mesh with different target counts, mesh.weights or
 *     node.weights whose length is not that count (MK_ERR_MISMATCH);
 *   - node hierarchies where a node has two parents or that form a cycle,
 *     sparse indices that do not strictly increase (MK_ERR_PARSE);
 *   - primitive index values not below the vertex count (MK_ERR_RANGE);
 *   - skins (§3.7.3): a joint or skeleton that is not a node, an
 *     inverseBindMatrices accessor that is not one, not MAT4 FLOAT or has
 *     fewer elements than joints (MK_ERR_RANGE / MK_ERR_PARSE); node.skin
 *     that is not a skin or on a node without a mesh; JOINTS_n that is not
 *     VEC4 UNSIGNED_BYTE/SHORT, WEIGHTS_n that is not VEC4 FLOAT or
 *     normalized UNSIGNED_BYTE/SHORT, one of a pair without the other or
 *     set numbers with a gap (MK_ERR_PARSE); a skinned mesh's primitive
 *     without JOINTS_0, or a JOINTS value not below the joint count of a
 *     skin used with that mesh (MK_ERR_RANGE).
 * Primitive modes other than TRIANGLES are loaded and recorded (`mode`):
 * morph evaluation is per vertex and works for any mode; code that needs
 * triangles checks `mode` itself. Of materials only the base colour is
 * read (mk_gltf_material), with its texture's image (mk_gltf_image_read
 * gives the encoded bytes); samplers and cameras are not read (their
 * bufferViews are still checked).
 *
 * Memory: the file is read once into one block. GLB binary chunks are used
 * in place, external .bin files are read once each, data: URIs are decoded
 * once; accessors point into those blocks, nothing is copied per element.
 * Files are read through the options' file callbacks. All memory goes
 * through the allocator parameter, the temporary JSON
 * token array (one block for the whole document, freed before returning)
 * included; nothing is allocated per JSON value and no global hook is used.
 * A loaded mk_gltf is immutable and may be shared between threads. */
#ifndef MORPHKIT_GLTF_H
#define MORPHKIT_GLTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"
#include "morphkit/file.h"
#include "morphkit/morph.h"
#include "morphkit/scene.h"
#include "morphkit/skin.h"
#include "morphkit/track.h"

#ifdef __cplusplus
extern "C" {
#endif

/* accessor.componentType values, as in the file (§3.6.2.2). */
typedef enum mk_gltf_component_type {
    MK_GLTF_BYTE = 5120,
    MK_GLTF_UNSIGNED_BYTE = 5121,
    MK_GLTF_SHORT = 5122,
    MK_GLTF_UNSIGNED_SHORT = 5123,
    MK_GLTF_UNSIGNED_INT = 5125,
    MK_GLTF_FLOAT = 5126
} mk_gltf_component_type;

/* accessor.type; the value is not the component count (see
 * mk_gltf_type_components). */
typedef enum mk_gltf_type {
    MK_GLTF_SCALAR = 0,
    MK_GLTF_VEC2,
    MK_GLTF_VEC3,
    MK_GLTF_VEC4,
    MK_GLTF_MAT2,
    MK_GLTF_MAT3,
    MK_GLTF_MAT4,
    MK_GLTF_TYPE_COUNT
} mk_gltf_type;

/* primitive.mode (§3.7.2.1). */
typedef enum mk_gltf_mode {
    MK_GLTF_POINTS = 0,
    MK_GLTF_LINES = 1,
    MK_GLTF_LINE_LOOP = 2,
    MK_GLTF_LINE_STRIP = 3,
    MK_GLTF_TRIANGLES = 4,
    MK_GLTF_TRIANGLE_STRIP = 5,
    MK_GLTF_TRIANGLE_FAN = 6
} mk_gltf_mode;

typedef struct mk_gltf_options {
    size_t max_buffer_size; /* largest file, buffer or decoded data: URI in bytes; 0: 1 GiB */
    uint32_t max_count; /* largest accessor count (elements); 0: 1 << 26 */
    /* How the file and its external buffers are read; NULL: the default
     * (morphkit/file.h). The mk_gltf keeps a copy of the struct and gives
     * the buffer blocks back through release when destroyed, so the
     * callbacks (and `user`) must outlive it. */
    const mk_file_callbacks *files;
} mk_gltf_options;

typedef struct mk_gltf_buffer {
    size_t byte_length; /* as declared; data holds at least this many bytes */
    const uint8_t *data; /* never NULL after loading (byte_length 0: a valid empty block),
                            except for a fallback buffer */
    char *uri; /* as written (percent-encoded), or NULL (GLB binary chunk) */
    char *name; /* or NULL */
    bool fallback; /* an EXT_meshopt_compression fallback without data (data NULL): only
                      compressed views refer to it, and they are decoded */
} mk_gltf_buffer;

typedef struct mk_gltf_buffer_view {
    uint32_t buffer;
    size_t byte_offset;
    size_t byte_length;
    uint32_t byte_stride; /* 0: tightly packed */
    uint32_t target; /* 34962, 34963 or 0 */
    char *name;
    const uint8_t *data; /* its byte_length bytes: in its buffer, or decoded from
                            EXT_meshopt_compression (then `compressed`) */
    bool compressed;
} mk_gltf_buffer_view;

typedef struct mk_gltf_accessor_sparse {
    uint32_t count; /* 0: the accessor is not sparse */
    uint32_t indices_buffer_view;
    size_t indices_byte_offset;
    mk_gltf_component_type indices_component_type; /* UNSIGNED_BYTE/SHORT/INT */
    uint32_t values_buffer_view;
    size_t values_byte_offset;
} mk_gltf_accessor_sparse;

typedef struct mk_gltf_accessor {
    uint32_t buffer_view; /* MK_NONE: all zeros (then sparse values, if any) */
    size_t byte_offset;
    mk_gltf_component_type component_type;
    bool normalized;
    mk_gltf_type type;
    uint32_t count;
    uint32_t components; /* 1..16 */
    uint32_t element_size; /* bytes of one element incl. matrix column padding */
    uint32_t stride; /* bytes between elements in the buffer view */
    bool has_min, has_max;
    double min[16], max[16];
    mk_gltf_accessor_sparse sparse;
    char *name;
} mk_gltf_accessor;

/* One morph target of a primitive: accessor indices or MK_NONE. */
typedef struct mk_gltf_target {
    uint32_t position, normal, tangent;
} mk_gltf_target;

typedef struct mk_gltf_primitive {
    uint32_t position, normal, tangent, texcoord0, color0; /* accessors or NONE */
    uint32_t indices; /* accessor or NONE */
    uint32_t material; /* index or NONE (not checked against material_count:
                          look it up only when < material_count) */
    mk_gltf_mode mode;
    uint32_t target_count;
    mk_gltf_target *targets;
    uint32_t joint_set_count; /* sets of 4 influences: JOINTS_n / WEIGHTS_n, n < count */
    uint32_t *joints; /* joint_set_count accessors (JOINTS_n), or NULL */
    uint32_t *weights; /* joint_set_count accessors (WEIGHTS_n), or NULL */
} mk_gltf_primitive;

typedef struct mk_gltf_mesh {
    char *name;
    uint32_t primitive_count;
    mk_gltf_primitive *primitives;
    uint32_t target_count; /* the same for every primitive (checked) */
    float *weights; /* target_count (mesh.weights), or NULL when absent */
    char **target_names; /* target_count (mesh.extras.targetNames), or NULL;
                               an entry may be NULL when not a string */
} mk_gltf_mesh;

typedef struct mk_gltf_node {
    char *name;
    uint32_t mesh; /* or NONE */
    uint32_t parent; /* or NONE */
    uint32_t child_count;
    uint32_t *children;
    bool has_matrix; /* true: matrix is what the file gave */
    float matrix[16]; /* column-major; identity when absent */
    float translation[3]; /* (0 0 0) when absent */
    float rotation[4]; /* x y z w; (0 0 0 1) when absent */
    float scale[3]; /* (1 1 1) when absent */
    uint32_t weight_count;
    float *weights; /* node.weights (== its mesh's target_count), or NULL */
    uint32_t skin; /* or NONE; a skinned node has a mesh (checked) */
} mk_gltf_node;

/* skins[i] (§3.7.3). Joint j's matrix is world(joints[j]) times inverse
 * bind matrix j; the skinned node's own transform is not used. */
typedef struct mk_gltf_skin {
    char *name;
    uint32_t joint_count; /* >= 1 */
    uint32_t *joints; /* node indices */
    uint32_t inverse_bind_matrices; /* accessor (MAT4 FLOAT, >= joint_count
                                       elements), or NONE: identities */
    uint32_t skeleton; /* node or NONE (informative only) */
} mk_gltf_skin;

typedef struct mk_gltf_scene {
    char *name;
    uint32_t node_count;
    uint32_t *nodes;
} mk_gltf_scene;

typedef struct mk_gltf_sampler {
    uint32_t input; /* accessor: SCALAR FLOAT times in seconds */
    uint32_t output; /* accessor */
    mk_interpolation interpolation;
} mk_gltf_sampler;

typedef struct mk_gltf_channel {
    uint32_t sampler;
    uint32_t node; /* NONE: the channel is ignored (§3.11: target.node undefined) */
    mk_track_path path;
    bool supported; /* false for paths morphkit does not know (e.g. "pointer") */
} mk_gltf_channel;

typedef struct mk_gltf_animation {
    char *name;
    uint32_t sampler_count;
    mk_gltf_sampler *samplers;
    uint32_t channel_count;
    mk_gltf_channel *channels;
} mk_gltf_animation;

/* A material, as far as a viewer shows it: the base colour (glTF 2.0
 * pbrMetallicRoughness; other members are not read). */
typedef struct mk_gltf_material {
    char *name; /* or NULL */
    float base_color_factor[4]; /* linear RGBA; default 1, 1, 1, 1 */
    uint32_t base_color_texture; /* textures[] index as written, or MK_NONE (not
                                    checked against texture_count: look it up
                                    only when < texture_count) */
    uint32_t base_color_texcoord; /* baseColorTexture.texCoord: TEXCOORD_<n> (0) */
} mk_gltf_material;

/* A texture: only its image is read (samplers are not; a viewer repeats). */
typedef struct mk_gltf_texture {
    uint32_t source; /* images[] index, or MK_NONE */
} mk_gltf_texture;

/* An image (glTF 2.0 section 5.18): in a buffer view, a data: URI, or a
 * file beside the asset. mk_gltf_image_read gives its bytes. */
typedef struct mk_gltf_image {
    char *name;        /* or NULL */
    char *uri;         /* as written, or NULL */
    char *mime_type;   /* as written ("image/png", "image/jpeg"), or NULL */
    uint32_t buffer_view; /* or MK_NONE */
    char *file;        /* an external uri percent-decoded, checked to stay in the
                          asset's folder and joined to it; NULL otherwise (also
                          for a uri that fails the check, or a document
                          parsed without a folder) */
} mk_gltf_image;

typedef struct mk_gltf {
    uint32_t buffer_count, buffer_view_count, accessor_count, mesh_count, node_count, scene_count,
        animation_count;
    mk_gltf_buffer *buffers;
    mk_gltf_buffer_view *buffer_views;
    mk_gltf_accessor *accessors;
    mk_gltf_mesh *meshes;
    mk_gltf_node *nodes;
    mk_gltf_scene *scenes;
    mk_gltf_animation *animations;
    uint32_t skin_count;
    mk_gltf_skin *skins;
    uint32_t material_count;
    mk_gltf_material *materials;
    uint32_t texture_count;
    mk_gltf_texture *textures;
    uint32_t image_count;
    mk_gltf_image *images;
    uint32_t scene; /* default scene or NONE */
    bool is_glb;
    bool uses_quantization; /* KHR_mesh_quantization in extensionsUsed */
    char *generator; /* asset.generator or NULL */
    char *path; /* the file it was loaded from ("<memory>" otherwise) */
    struct mk_gltf_storage *storage; /* private: the owned blocks */
} mk_gltf;

/* Loads a .gltf or .glb file (told apart by the GLB magic, not the name).
 * options may be NULL; allocator (NULL: malloc) makes the model. External
 * buffers are resolved relative to the file's folder. Only regular files are
 * read: a missing file is MK_ERR_NOT_FOUND, a folder or FIFO MK_ERR_IO. */
MK_API mk_status mk_gltf_load(const char *path, const mk_gltf_options *options,
                              const mk_allocator *allocator, mk_gltf **out, mk_error *err);

/* Parses a .gltf or .glb held in memory (copied once; the caller keeps
 * data). base_dir is the folder external buffer URIs are relative to (read
 * through options->files); NULL makes any external URI an error. name is
 * used as mk_error.file. */
MK_API mk_status mk_gltf_parse(const void *data, size_t size, const char *base_dir,
                               const char *name, const mk_gltf_options *options,
                               const mk_allocator *allocator, mk_gltf **out, mk_error *err);

MK_API void mk_gltf_destroy(mk_gltf *gltf);

/* The encoded bytes of image `image` (PNG, JPEG, ... as stored; not
 * decoded): a buffer view's bytes or a data: URI's are copied, an external
 * file is read through files (NULL: the disk). *data is a block of *size
 * bytes from allocator (NULL: malloc; free with mk_free(allocator, *data,
 * *size)). MK_ERR_INVALID_ARGUMENT for a NULL gltf or output, or image >=
 * image_count; MK_ERR_UNSUPPORTED for a uri that is neither data: nor a
 * file in the asset's folder (the message says which); MK_ERR_PARSE for
 * bad base64 or no bytes; file errors as mk_file_read gives them. */
MK_API mk_status mk_gltf_image_read(const mk_gltf *gltf, uint32_t image,
                                    const mk_file_callbacks *files,
                                    const mk_allocator *allocator, void **data, size_t *size,
                                    mk_error *err);

/* Components per element of a type (1, 2, 3, 4, 4, 9, 16). */
MK_API uint32_t mk_gltf_type_components(mk_gltf_type type);
/* "SCALAR", "VEC3", ... */
MK_API const char *mk_gltf_type_name(mk_gltf_type type);
/* Bytes per component (1, 2 or 4), 0 for an unknown value. */
MK_API uint32_t mk_gltf_component_size(mk_gltf_component_type type);

/* Decodes an accessor into out (count * components floats, element-major):
 * normalized integers per §3.11 (e.g. max(c / 127, -1) for BYTE), other
 * integers converted as they are (KHR_mesh_quantization), sparse values
 * substituted, no bufferView read as zeros. out_count is the number of
 * floats out holds; MK_ERR_INVALID_ARGUMENT when too small. */
MK_API mk_status mk_gltf_accessor_read_float(const mk_gltf *gltf, uint32_t accessor, float *out,
                                             size_t out_count, mk_error *err);

/* Decodes an unsigned-integer SCALAR accessor (e.g. primitive indices) into
 * out (count values). MK_ERR_INVALID_ARGUMENT for other types or a too small
 * out. */
MK_API mk_status mk_gltf_accessor_read_index(const mk_gltf *gltf, uint32_t accessor, uint32_t *out,
                                             size_t out_count, mk_error *err);

/* A direct pointer to an accessor's data when it is already tightly packed,
 * 4-byte aligned, not sparse FLOAT; NULL otherwise (then read with
 * mk_gltf_accessor_read_float). */
MK_API const float *mk_gltf_accessor_float_data(const mk_gltf *gltf, uint32_t accessor);

/* The morph weights a node shows without animation: node.weights, else its
 * mesh's mesh.weights, else zeros (§3.7.2.2). out holds count floats; count
 * beyond the mesh's target count is zero-filled. A node without a mesh gives
 * zeros. */
MK_API void mk_gltf_node_default_weights(const mk_gltf *gltf, uint32_t node, float *out,
                                         size_t count);

/* Builds the runtime morph set of meshes[mesh].primitives[primitive]:
 * POSITION (required), NORMAL and TANGENT of the base, and the targets'
 * deltas decoded to float. Target NORMAL/TANGENT deltas of an attribute the
 * base lacks are ignored. Whatever the accessor form (dense, sparse, or both),
 * a delta that moves at most a quarter of the vertices is stored sparse (its
 * cost then follows its entries), any other dense. default_weights =
 * mesh.weights or zeros (node.weights: see mk_gltf_node_default_weights). */
MK_API mk_status mk_gltf_build_morph_set(const mk_gltf *gltf, uint32_t mesh, uint32_t primitive,
                                         const mk_allocator *allocator, mk_morph_set **out,
                                         mk_error *err);

/* Builds the runtime clip of animations[animation]: one track per channel
 * with a node and a known path (track.target = the node), in channel order;
 * channels without a node or with another path are skipped. Key times are
 * rounded to microseconds; outputs are decoded to float (normalized integer
 * weights and rotations too). Errors: input not SCALAR FLOAT, output count
 * not keys * components (* 3 for CUBICSPLINE), a weights channel on a node
 * without a mesh, times negative or not strictly increasing. */
MK_API mk_status mk_gltf_build_track_clip(const mk_gltf *gltf, uint32_t animation,
                                          const mk_allocator *allocator, mk_track_clip **out,
                                          mk_error *err);

/* Builds the runtime skin (skin.h) of skins[skin] applied to
 * meshes[mesh].primitives[primitive]: every JOINTS_n / WEIGHTS_n set decoded
 * once into influence_count = 4 * sets influences per vertex (weights
 * dequantized, then normalized by mk_skin_prepare), the inverse bind
 * matrices (identities without the accessor), joint_nodes = skin.joints
 * (node indices, as in mk_gltf_build_scene). MK_ERR_NOT_FOUND for a
 * primitive without influences; mk_skin_prepare's errors (negative or
 * non-finite weights, NaN matrices) name the skin and primitive. */
MK_API mk_status mk_gltf_build_skin(const mk_gltf *gltf, uint32_t skin, uint32_t mesh,
                                    uint32_t primitive, const mk_allocator *allocator,
                                    mk_skin **out, mk_error *err);

/* Builds the scene graph of every node (scene.h): node i of the file is
 * node i of the scene, with its parent, and its matrix or translation,
 * rotation and scale as rest pose (rotations normalized). Animate it with
 * the clip of mk_gltf_build_track_clip (track.target = node). Errors: a
 * node rotation of zero length (MK_ERR_RANGE), MK_ERR_OUT_OF_MEMORY. */
MK_API mk_status mk_gltf_build_scene(const mk_gltf *gltf, const mk_allocator *allocator,
                                     mk_scene **out, mk_error *err);

#ifdef __cplusplus
}
#endif

#endif
