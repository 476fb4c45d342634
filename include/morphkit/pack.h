/* morphkit/pack.h - a unit as one standard glTF 2.0 binary (.glb), and
 * reading it back (assets layer).
 *
 * The file (docs/pack.md) is plain glTF 2.0 that any viewer plays:
 *  - one mesh with one primitive; the unit's first frame is the base pose
 *    (POSITION, NORMAL when the frames have normals, TEXCOORD_0 when they
 *    have texture coordinates, 32- or 16-bit indices);
 *  - every other DISTINCT frame is one morph target (POSITION deltas, and
 *    NORMAL deltas with normals); frames equal to an earlier one, bit for
 *    bit, share its target, frames equal to the base use none;
 *  - `_OBJ_V` (FLOAT SCALAR of whole numbers: glTF has no 32-bit integer
 *    attributes): each render vertex's 0-based OBJ `v` number, and with
 *    normals `_OBJ_VN`: the first-frame `vn` number the vertex stands for
 *    (-1 for all but one vertex of each `vn`), so positions and normals
 *    come back in the OBJ's own order; hence fewer than 2^24 of each;
 *  - one animation per clip, of the same name, with one `weights` channel
 *    keyed so that a viewer shows what the player shows from play start:
 *    LINEAR keys with one-hot weights at frame boundaries ((1 - w) F_k +
 *    w F_k+1 exactly), a no-blend frame held by a second key 1 us (or one
 *    float step, when that is more) before the next boundary, step clips as STEP, smooth clips as
 *    CUBICSPLINE with the player's own Hermite tangents (player.h). A
 *    looping clip is keyed for its first pass, up to the moment the loop
 *    frame becomes current again; a once clip with next up to the next
 *    clip's first frame; a once clip without next up to its last frame;
 *  - root `extras.morphkit` (version MK_PACK_VERSION): everything else the
 *    player needs (durations in microseconds, loop frame, once/next,
 *    no-blend frames, interpolation, events, frame numbers, the frame ->
 *    target map), so a packed unit plays exactly as its folder.
 * A unit whose frames are all equal has no targets and no glTF animations
 * (its clips are in extras only).
 *
 * Reading back gives the same mk_unit as mk_unit_load of the folder: the
 * same frames (positions and normals rebuilt as base + delta, so within a
 * float rounding of the folder's; identical texture coordinates, indices,
 * clips, animations and frame names). */
#ifndef MORPHKIT_PACK_H
#define MORPHKIT_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"
#include "morphkit/unit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version written in extras.morphkit.version; readers refuse others. */
#define MK_PACK_VERSION 1

/* Zero-initialized: plain float data. */
typedef struct mk_pack_options {
    uint32_t reserved; /* must be 0 */
} mk_pack_options;

/* What a pack produced (all optional to read). */
typedef struct mk_pack_stats {
    uint32_t frame_count;       /* the unit's frames */
    uint32_t target_count;      /* distinct frames other than the base */
    uint32_t vertex_count;      /* render vertices */
    size_t bytes;               /* the .glb size */
    double max_position_error;  /* largest |packed - folder| of any coordinate */
} mk_pack_stats;

/* Writes unit as a .glb into one new block (*out_data, *out_size bytes;
 * free it with mk_free(allocator, *out_data, *out_size)). options and
 * stats may be NULL. Errors: MK_ERR_INVALID_ARGUMENT for NULL unit or
 * outputs or nonzero reserved options; MK_ERR_UNSUPPORTED when a clip's
 * key times cannot be told apart in float seconds (durations of a few
 * microseconds late in a long clip); MK_ERR_LIMIT when the file would reach
 * 4 GiB; MK_ERR_OUT_OF_MEMORY. On failure *out_data is NULL. */
MK_API mk_status mk_unit_pack(const mk_unit *unit, const mk_pack_options *options,
                              const mk_allocator *allocator, void **out_data, size_t *out_size,
                              mk_pack_stats *stats, mk_error *err);

/* True when data is a GLB whose JSON has extras.morphkit (a packed unit).
 * Reads only the header and the JSON chunk; never fails. */
MK_API bool mk_pack_is_unit(const void *data, size_t size);
/* The same for a file (false when it cannot be read). */
MK_API bool mk_pack_is_unit_file(const char *path);

/* Reads a packed unit held in memory (the caller keeps data). name is used
 * in errors (NULL: "<memory>"). options may be NULL (its obj options and
 * skip_heuristics do not apply). Errors: the glTF reader's (gltf.h) for a
 * broken file; MK_ERR_PARSE for a GLB without extras.morphkit or with
 * malformed extras (the message names the member, e.g.
 * "extras.morphkit.clips[1].durations_us"); MK_ERR_UNSUPPORTED for another
 * version; MK_ERR_RANGE / MK_ERR_MISMATCH for counts and indices that do
 * not agree with the mesh. bytes_on_disk of the result is size. */
MK_API mk_status mk_unit_parse_packed(const void *data, size_t size, const char *name,
                                      const mk_unit_options *options, mk_unit **out,
                                      mk_error *err);

/* mk_unit_parse_packed of a file. */
MK_API mk_status mk_unit_load_packed(const char *path, const mk_unit_options *options,
                                     mk_unit **out, mk_error *err);

#ifdef __cplusplus
}
#endif

#endif
