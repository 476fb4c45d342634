/* morphkit/material.h - the diffuse colour of OBJ materials (assets layer).
 *
 * A viewer (or an engine's editor mode) shows a unit in the colour its
 * artist gave it: the `.mtl` file a frame names with `mtllib`, the material
 * it selects with `usemtl`, that material's `Kd r g b` and dissolve `d`.
 * One colour per unit: the first frame's first `usemtl` (or, without one,
 * the file's first material). Textures (`map_Kd`) are not read. The text
 * rules are the OBJ reader's: `#` comments, blank lines, CRLF, a UTF-8 byte
 * order mark, keywords case-sensitive, numbers in the C locale. */
#ifndef MORPHKIT_MATERIAL_H
#define MORPHKIT_MATERIAL_H

#include <stddef.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"
#include "morphkit/unit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads material `material` (NULL or "": the first `newmtl`) from `size`
 * bytes of .mtl text (need not be NUL-terminated): rgba receives Kd and d
 * (alpha; 1 when not given). Errors: MK_ERR_NOT_FOUND when there is no such
 * material or it has no Kd; MK_ERR_PARSE (with the line) for a Kd without
 * three numbers or a d that is not a number; rgba is then untouched. name
 * is used in errors. NULL text with size > 0 or a NULL rgba:
 * MK_ERR_INVALID_ARGUMENT. */
MK_API mk_status mk_mtl_diffuse(const char *text, size_t size, const char *name,
                                const char *material, float rgba[4], mk_error *err);

/* The unit's colour: its first frame is read again through options->files
 * (NULL options: the disk) for `mtllib` and `usemtl`, then the .mtl file
 * (relative to the unit's folder) as mk_mtl_diffuse. MK_ERR_NOT_FOUND when
 * the frame names no .mtl, or as above; file errors as mk_file_read gives
 * them. allocator (NULL: malloc) serves the scratch memory. */
MK_API mk_status mk_unit_diffuse(const mk_unit *unit, const mk_unit_options *options,
                                 const mk_allocator *allocator, float rgba[4], mk_error *err);

#ifdef __cplusplus
}
#endif

#endif
