/* morphkit/material.h - the diffuse colour of OBJ materials (assets layer).
 *
 * A viewer (or an engine's editor mode) shows a unit in the colour its
 * artist gave it: the `.mtl` file a frame names with `mtllib`, the material
 * it selects with `usemtl`, that material's `Kd r g b` and dissolve `d`.
 * One colour per unit: the first frame's first `usemtl` (or, without one,
 * the file's first material). mk_mtl_parse is the one .mtl reader (the
 * packer embeds its materials and textures from it too): `newmtl`, `Kd`,
 * `d`, `Tr` (1 - d) and `map_Kd` with its options; other statements are
 * skipped. The text rules are the OBJ reader's: `#` comments, blank lines,
 * CRLF, a UTF-8 byte order mark, keywords case-sensitive, numbers in the C
 * locale. */
#ifndef MORPHKIT_MATERIAL_H
#define MORPHKIT_MATERIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"
#include "morphkit/unit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One `newmtl` block. Strings live in the library's block. */
typedef struct mk_mtl_material {
    const char *name;        /* as written after newmtl (trimmed) */
    int line;                /* the newmtl line */
    float diffuse[4];        /* Kd red green blue, then d (or 1 - Tr); 1 each until given */
    bool has_diffuse;        /* a well-formed Kd line */
    const char *diffuse_map; /* map_Kd's file name without its options ("" none);
                                as written; the unit reader and the packer
                                take it from the unit's folder */
    int diffuse_map_line;    /* its line (0 none) */
    float map_offset[3];     /* map_Kd -o u v w (0 0 0) */
    float map_scale[3];      /* map_Kd -s u v w (1 1 1) */
    int error_line;          /* the first malformed Kd, d or Tr of this block (0 none) */
    const char *error;       /* its message (a static string), or NULL */
} mk_mtl_material;

/* The materials of one .mtl text, in file order (one allocation). */
typedef struct mk_mtl_library {
    uint32_t material_count;
    mk_mtl_material *materials;
    mk_allocator allocator;
    size_t byte_size;
} mk_mtl_library;

/* Parses `size` bytes of .mtl text (need not be NUL-terminated). A
 * malformed Kd, d or Tr is not a failure of the whole file: the material
 * keeps its defaults for it and records error_line / error (callers that
 * want strictness, as mk_mtl_diffuse, raise it for the material they use).
 * map_Kd options (-blendu -blendv -bm -boost -cc -clamp -imfchan -mm -o -s
 * -t -texres) are skipped with their arguments; the rest is the file name.
 * Errors: MK_ERR_INVALID_ARGUMENT for NULL text with size > 0 or a NULL
 * out; MK_ERR_OUT_OF_MEMORY. name is used in errors; allocator NULL: malloc. */
MK_API mk_status mk_mtl_parse(const char *text, size_t size, const char *name,
                              const mk_allocator *allocator, mk_mtl_library **out,
                              mk_error *err);
/* NULL is fine. */
MK_API void mk_mtl_library_destroy(mk_mtl_library *library);
/* The first material named `material` (NULL or "": the first one), or NULL. */
MK_API const mk_mtl_material *mk_mtl_library_find(const mk_mtl_library *library,
                                                  const char *material);

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
 * the frame names no .mtl, or as above, and for a packed unit (read from
 * its .glb or .gltf: it has no frame files; its materials are the file's
 * glTF materials, which mk_gltf_load reads); file errors as mk_file_read
 * gives them. allocator (NULL: malloc) serves the scratch memory. */
MK_API mk_status mk_unit_diffuse(const mk_unit *unit, const mk_unit_options *options,
                                 const mk_allocator *allocator, float rgba[4], mk_error *err);

/* The unit's material as mk_unit_diffuse finds it, for a viewer that also
 * draws its texture: rgba as there (1 1 1 1 when the material has a map_Kd
 * but no Kd, as textured exports often do), *texture_path (NULL when the
 * material has no map_Kd) the map_Kd file joined to the unit's folder,
 * allocated through allocator (free with mk_free(allocator, p, strlen(p) +
 * 1)). Errors as mk_unit_diffuse; texture_path may be NULL. */
MK_API mk_status mk_unit_material(const mk_unit *unit, const mk_unit_options *options,
                                  const mk_allocator *allocator, float rgba[4],
                                  char **texture_path, mk_error *err);

#ifdef __cplusplus
}
#endif

#endif
