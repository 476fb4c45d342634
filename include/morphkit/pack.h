/* morphkit/pack.h - a unit as one standard glTF 2.0 file (.glb, or .gltf
 * with a .bin), and reading it back (assets layer).
 *
 * The file (docs/pack.md) is plain glTF 2.0 that any viewer plays:
 *  - one mesh; one of the unit's frames is the base pose (quantized: the
 *    one that makes the smallest file, every frame tried when frames^2 x
 *    vertices is at most 1e6, else the one whose deltas to the others
 *    take the fewest bytes; plain and every_frame: the first frame)
 *    (POSITION, NORMAL
 *    when the frames have normals (but see flat_normals below),
 *    TEXCOORD_0 (1 - v: glTF's v runs down)
 *    when they have texture coordinates, 32- or 16-bit indices). One
 *    primitive, or, when the first frame's OBJ uses `usemtl`, one per
 *    material (faces before any usemtl: one without material), all sharing
 *    the vertex and target accessors; the .mtl files' Kd, d (or Tr) and
 *    map_Kd (PNG or JPEG, embedded) become glTF materials, and
 *    extras.morphkit.material_runs keeps the unit's triangle order;
 *  - with the flat_normals option, a unit flat shaded in every frame has
 *    no NORMAL at all (extras.morphkit.flat_normals): glTF viewers shade
 *    each triangle with its own normal, and the reader computes the
 *    vertex normals;
 *  - every other DISTINCT frame is one morph target (POSITION deltas, and
 *    NORMAL deltas with stored normals); frames equal to an earlier one, bit for
 *    bit, share its target, frames equal to the base use none;
 *  - the OBJ order: extras.morphkit.obj_v names an unsigned SCALAR accessor
 *    (UNSIGNED_BYTE, SHORT or INT) of each render vertex's 0-based OBJ `v`
 *    number, obj_vn (with normals) one of each first-frame `vn`'s vertex
 *    (the type's largest code: none), each left out when it is the
 *    identity, so positions and normals come back in the OBJ's own order
 *    (version 1 files: `_OBJ_V` / `_OBJ_VN` vertex attributes, still read);
 *  - one animation per clip, of the same name, with one `weights` channel
 *    keyed so that a viewer shows what the player shows from play start:
 *    LINEAR keys with each frame's weights at frame boundaries ((1 - w)
 *    F_k + w F_k+1 exactly; a frame weighs 1 on its target and, with
 *    positions on the grid, the target's ancestors: each target's deltas
 *    may be taken from another target's pose, at most 4 deep, so a blend
 *    weighs at most 8 targets), a no-blend frame held by a second key 1 us (or one
 *    float step, when that is more) before the next boundary, step clips
 *    as STEP, smooth clips as CUBICSPLINE with the player's own Hermite
 *    tangents (player.h). A
 *    looping clip is keyed for its first pass, up to the moment the loop
 *    frame becomes current again; a once clip with next up to the next
 *    clip's first frame; a once clip without next up to its last frame;
 *  - root `extras.morphkit` (version MK_PACK_VERSION): everything else the
 *    player needs (durations in microseconds, loop frame, once/next,
 *    no-blend frames, interpolation, events, frame numbers, the frame ->
 *    target map, each target's parent), so a packed unit plays exactly as
 *    its folder.
 * A unit whose frames are all equal has no targets and no glTF animations
 * (its clips are in extras only).
 *
 * Reading back gives the same mk_unit as mk_unit_load of the folder: the
 * same clips, animations, frame names, indices and `v` / `vn` maps, and
 * frames rebuilt as base + the deltas of their target's path: positions within the error the pack
 * reports (mk_pack_stats; plain float: within a float rounding, usually
 * exact), normals likewise (quantized: normalized after the sum; flat:
 * each vertex's triangles' area-weighted normal, normalized), texture
 * coordinates within a float rounding (glTF's v runs down: the file holds
 * 1 - v), within 1 / 131070 when quantized.
 */
#ifndef MORPHKIT_PACK_H
#define MORPHKIT_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"
#include "morphkit/file.h"
#include "morphkit/unit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version written in extras.morphkit.version; readers read 1 to it and
 * refuse others (version 2: the base pose may be any frame, and the `v` /
 * `vn` maps are compact accessors named in the extras; version 3: members
 * that have their default value are left out; version 4: maps as deltas,
 * triangle corner turns; version 5: flat normals; version 6: with
 * --compress the vertices may be stored in another order, the unit's being
 * their order of first use by the triangles; version 7: a target's deltas
 * may be taken from another target's pose, `target_parents`). */
#define MK_PACK_VERSION 7

/* Zero-initialized: quantized (KHR_mesh_quantization) with sparse targets
 * and a position error of at most 1e-4 of the unit's size.
 *
 * Quantized positions: one uniform grid step S over the bounding box of
 * all frames (origin T; S just under twice the error bound, or the box's
 * largest extent cut into 2^position_bits - 1 steps when position_bits is
 * given), stored as SHORT integers q with the mesh node's
 * scale S and translation T (so every viewer places them; a uniform scale
 * keeps normals undistorted); a target stores q_frame - q_base, as BYTE
 * where every difference fits, else SHORT. The position error is at most
 * S / 2 per coordinate (plus float rounding), and is measured exactly.
 * Normals: normalized BYTE (or SHORT with normal_bits 16), deltas in the
 * same units (FLOAT for a target whose delta leaves [-1, 1]); texture
 * coordinates in [0, 1]: normalized UNSIGNED_SHORT, else FLOAT; LINEAR
 * and STEP weights (0 or 1): normalized UNSIGNED_BYTE (exact). A target
 * attribute that changes few vertices is a sparse accessor when that is
 * smaller; one that changes none has no data at all. */
typedef struct mk_pack_options {
    bool plain;                /* float and dense: no quantization, no sparse accessors */
    uint32_t position_bits;    /* 1..15: the box cut into 2^bits - 1 steps; 0: a step of
                                  just under 2 x max_position_error (the reported
                                  bits are the fewest that hold its values) */
    double max_position_error; /* relative to the unit's size (unit.h: the median of the
                                  frames' bounding-box diagonals); 0: 1e-4. When its
                                  grid needs more than 15 bits, positions stay float. */
    uint32_t normal_bits;      /* 8 or 16; 0: 8 */
    bool every_frame;          /* one target per frame, equal frames too (what other
                                  tools expect as input; for comparisons) */
    bool compress;             /* EXT_meshopt_compression (meshoptimizer's codecs) on every
                                  bufferView; readers need the extension (three.js: its
                                  MeshoptDecoder; morphkit decodes it) */
    const mk_file_callbacks *files; /* how the .mtl files and textures are read
                                       (NULL: the disk; morphkit/file.h) */
    bool no_texcoords;         /* leave the texture coordinates out (a unit drawn without
                                  textures: glTF viewers and gltfpack do not need them);
                                  vertices apart only by them (a texture seam) become one,
                                  so the unit reads back with fewer render vertices and
                                  the same `v`s, `vn`s and corners;
                                  MK_ERR_INVALID_ARGUMENT when a material has a texture */
    bool flat_normals;         /* a unit flat shaded in every frame (each vertex's
                                  normal its faces' own, within 1 degree, from the
                                  packed positions) is packed without normals when
                                  that is smaller (quantized, 8-bit normals only):
                                  viewers shade each triangle with its own normal,
                                  morphkit computes the vertex normals on reading.
                                  At the frames both show the unit's normals; between
                                  them a viewer shades the blended faces while
                                  morphkit blends the frames' normals, which differ
                                  by as much as the blend cuts a turn short (see
                                  docs/pack.md). The grid may be made up to 4 times
                                  finer for small faces. */
} mk_pack_options;

/* What a pack produced (all optional to read). */
typedef struct mk_pack_stats {
    uint32_t frame_count;       /* the unit's frames */
    uint32_t target_count;      /* distinct frames other than the base */
    uint32_t vertex_count;      /* render vertices */
    uint32_t sparse_count;      /* target attributes stored sparse (or empty) */
    uint32_t position_bits;     /* the position grid; 0: float positions */
    size_t bytes;               /* the .glb size */
    double unit_size;           /* the median of the frames' bounding-box diagonals */
    double max_position_error;  /* largest |packed - folder| of any coordinate, as
                                   morphkit reads the file back */
    double max_normal_error;    /* the same for normals (after normalizing) */
    bool flat_normals;          /* packed without normals (options.flat_normals) */
} mk_pack_stats;

/* Writes unit as a .glb into one new block (*out_data, *out_size bytes;
 * free it with mk_free(allocator, *out_data, *out_size)). options, stats
 * and report may be NULL; report receives warnings (MK_CHECK_FILE) about
 * materials: a missing .mtl, material or texture, an image that is not
 * PNG or JPEG (the pack goes on without it). Errors: MK_ERR_INVALID_ARGUMENT for NULL unit or
 * outputs, position_bits above 15, normal_bits other than 0, 8, 16, or a
 * negative or NaN max_position_error; MK_ERR_UNSUPPORTED when a clip's
 * key times cannot be told apart in float seconds (durations of a few
 * microseconds late in a long clip); MK_ERR_LIMIT when the file would reach
 * 4 GiB; MK_ERR_OUT_OF_MEMORY. On failure *out_data is NULL. */
MK_API mk_status mk_unit_pack(const mk_unit *unit, const mk_pack_options *options,
                              const mk_allocator *allocator, void **out_data, size_t *out_size,
                              mk_pack_stats *stats, mk_report *report, mk_error *err);

/* True when data is a GLB whose JSON has extras.morphkit (a packed unit).
 * Reads only the header and the JSON chunk; never fails. */
MK_API bool mk_pack_is_unit(const void *data, size_t size);
/* The same for a file, read through files (NULL: the disk); false when it
 * cannot be read or is larger than 256 MiB. */
MK_API bool mk_pack_is_unit_file(const char *path, const mk_file_callbacks *files);

/* Reads a packed unit held in memory (the caller keeps data): a .glb, or
 * the JSON of a .gltf whose buffers are data: URIs (an external .bin needs
 * mk_unit_load_packed). name is used in errors (NULL: "<memory>");
 * allocator NULL: malloc. Errors: the glTF reader's (gltf.h) for a broken
 * file; MK_ERR_PARSE for a file without extras.morphkit or with malformed
 * extras (the message names the member, e.g.
 * "extras.morphkit.clips[1]: durations_us: ..."); MK_ERR_UNSUPPORTED for
 * another version; MK_ERR_RANGE / MK_ERR_MISMATCH for counts and indices
 * that do not agree with the mesh. bytes_on_disk of the result is size. */
MK_API mk_status mk_unit_parse_packed(const void *data, size_t size, const char *name,
                                      const mk_allocator *allocator, mk_unit **out,
                                      mk_error *err);

/* mk_unit_parse_packed of a file: a .glb, or a .gltf with its .bin beside
 * it (bytes_on_disk is then the .gltf's size and its .bin's), read through
 * options->files (NULL options or files: the disk). mk_unit_load takes such
 * a file too (a path that is not a folder). */
MK_API mk_status mk_unit_load_packed(const char *path, const mk_unit_options *options,
                                     const mk_allocator *allocator, mk_unit **out,
                                     mk_error *err);

#ifdef __cplusplus
}
#endif

#endif
