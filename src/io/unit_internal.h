/* Internal pieces of the unit loader, split by concern. */
#ifndef MK_UNIT_INTERNAL_H
#define MK_UNIT_INTERNAL_H

#include "morphkit/unit.h"

/* Everything the loader knows about a unit being built. */
typedef struct mk_unit_build {
    const mk_allocator *allocator;
    const mk_unit_files *files;
    mk_obj **objs;          /* files->frame_count frames (NULL where a file failed) */
    char **paths;           /* dir/file of each frame, for messages */
    uint32_t **corner_map;  /* per frame: reference corner -> frame corner, or NULL = same */
    bool has_texcoords;     /* every corner of every frame has a vt */
    bool has_normals;       /* every corner of every frame has a vn */
} mk_unit_build;

/* Compares every frame with frame 0 (counts, topology, quad diagonals, vt
 * indices, normal presence), fills corner_map and the has_ flags. Errors and
 * warnings go to report; returns the number of errors found. */
uint32_t mk_unit_check_topology(mk_unit_build *b, mk_report *report);

/* Warning heuristics (unit.h) over a built frame set. */
void mk_unit_check_heuristics(const mk_unit_build *b, const mk_unit *unit, mk_report *report);

#endif
