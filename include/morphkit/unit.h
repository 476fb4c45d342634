/* morphkit/unit.h - unit folders: frame discovery, loading and validation
 * (assets layer).
 *
 * A unit folder holds one OBJ file per frame, named `<Animation>_<N>.obj`,
 * `<Animation><N>.obj`, `<Animation>.<N>.obj` or `<Animation>-<N>.obj`: N is
 * the run of decimal digits just before `.obj` (any zero padding, at most 9
 * digits after it), the animation name is what precedes N minus one
 * separator (`_`, `.` or `-`) and must not be empty. So Blender 3.4's
 * `Bend1.obj` .. `Bend12.obj`, its legacy exporter's `walk_000001.obj` and
 * `Attack_Heavy_3.obj` (animation `Attack_Heavy`) all work. An animation
 * whose name ends in a digit needs a separator (`Hit2_1.obj`; `Hit21.obj` is
 * frame 21 of `Hit`). Names are compared after the separator is dropped:
 * `walk_1.obj` and `walk1.obj` are both frame 1 of `walk` (a duplicate
 * error). An animation's numbers must be consecutive; a gap is an error
 * naming the missing file. Files that do not match (`.mtl`, textures, notes,
 * animation.cfg) are ignored by discovery. A library root is a folder whose
 * sub-folders are units. Every folder listing and file read goes through
 * mk_unit_options.files (an engine's pak file or virtual file system; NULL:
 * the disk, morphkit/file.h).
 *
 * Loading checks that every frame matches the unit's first frame (the first
 * frame of the first animation in name order): the same `v` count and the
 * same face list by `v` index (and `vt` index when present). Per-frame `vn`
 * numbering may differ (Blender de-duplicates normals per pose): normals are
 * read per face corner from each frame's own references, and render vertices
 * are split wherever any frame needs it. A quad whose triangulation diagonal
 * flips between frames is accepted with a warning; the first frame's
 * triangles are used.
 *
 * A frame whose face list differs is an error; when it is the same mesh
 * numbered differently (vertices and faces renumbered consistently, as an
 * export without "keep vertex order" does: mk_vorder_match in
 * morphkit/repair.h), the message says so ("Walk_3.obj is the same mesh as
 * Walk_1.obj with a different vertex order") and points to `morphkit
 * repair`.
 *
 * Warning heuristics (reported, never fatal), each on the one frame that is
 * wrong, never on its neighbours:
 *  - scramble: the vertex-order rule of morphkit/repair.h (a vertex whose
 *    edges, by their median, halve or double in length against both
 *    neighbouring frames in play, across loops and clip switches as the
 *    clips of animation.cfg say, after the frame's overall scale
 *    change is taken out). It finds scrambles of two vertices up to every
 *    vertex. The warning names the frame, the first 8 vertices (1-based
 *    `v` numbers) and their count, and the other file is the previous
 *    frame (or the next one for an animation's first frame). Not seen: a
 *    swap of vertices within about two edge lengths of each other (two
 *    neighbours, or two vertices at the same place), and a scramble shared
 *    by most frames of the unit.
 *  - changing UVs: a render vertex's texture coordinate differs from the
 *    first frame's by more than 1e-5 (named with the first such vertex).
 *  - jump: the unit's size is the median of the frames' bounding-box
 *    diagonals and its middle the median (per axis) of their centroids. A
 *    frame is at another scale when its diagonal is more than 2x or less
 *    than 0.5x both neighbours' (same animation) and the unit's size; it
 *    is moved when its centroid is further than 0.5 x the unit's size from
 *    every neighbour's and from the unit's middle (a scaled frame gets only
 *    the scale warning). (Exported in another space or scale.)
 *  - normals: when some frames have normals at every face corner and
 *    others do not, each frame without (some) normals is named, compared
 *    with a frame that has them (or, when frames without normals are the
 *    majority, each frame with normals); the unit is loaded without
 *    normals.
 */
#ifndef MORPHKIT_UNIT_H
#define MORPHKIT_UNIT_H

#include <stdbool.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/clip.h"
#include "morphkit/error.h"
#include "morphkit/file.h"
#include "morphkit/frame_set.h"
#include "morphkit/obj.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- diagnostics ------------------------------------------------------- */

/* A note is neither: something a person probably did not mean, that
 * changes nothing in what is loaded (mk_report_error_count and
 * mk_report_warning_count do not count notes). */
typedef enum mk_severity {
    MK_SEVERITY_WARNING,
    MK_SEVERITY_ERROR,
    MK_SEVERITY_NOTE,
    MK_SEVERITY_COUNT
} mk_severity;

/* Which rule a diagnostic comes from; stable ids for tools and tests. */
typedef enum mk_check {
    MK_CHECK_FILE,          /* a file could not be read or parsed */
    MK_CHECK_DISCOVERY,     /* frame naming: gap, duplicate number, no frames */
    MK_CHECK_VERTEX_COUNT,  /* `v` count differs from the first frame */
    MK_CHECK_TOPOLOGY,      /* face list differs from the first frame */
    MK_CHECK_NORMALS,       /* some frames have normals, others not */
    MK_CHECK_QUAD_DIAGONAL, /* a quad's diagonal flips (warning) */
    MK_CHECK_SCRAMBLE,      /* likely vertex-order scramble (warning) */
    MK_CHECK_UV_CHANGE,     /* texture coordinates change (warning) */
    MK_CHECK_JUMP,          /* bounding box or centroid jumps (warning) */
    MK_CHECK_CONFIG,        /* animation.cfg problem */
    MK_CHECK_NAMING,        /* notes: an .obj that is not a frame, animation names
                               differing only in case (mk_unit_naming_notes) */
    MK_CHECK_COUNT
} mk_check;

/* A stable short id ("topology", "scramble", ...). */
MK_API const char *mk_check_name(mk_check check);

typedef struct mk_diagnostic {
    mk_severity severity;
    mk_check check;
    int line;       /* in file; 0 when none */
    int other_line; /* in other_file; 0 when none */
    char file[MK_ERROR_FILE_MAX];
    char other_file[MK_ERROR_FILE_MAX]; /* the file compared against, or "" */
    char message[MK_ERROR_MESSAGE_MAX];
} mk_diagnostic;

/* A growing list of diagnostics, handled only through a pointer (the type is
 * opaque, so it cannot be copied by value and freed twice). Create it, pass
 * it to loaders, read it with the accessors below, mk_report_clear it to
 * reuse it, and mk_report_destroy it. After MK_REPORT_MAX_ITEMS stored items
 * further ones are only counted (mk_report_dropped_count). A report is not
 * thread-safe: one loader at a time may add to it. */
#define MK_REPORT_MAX_ITEMS 1000
typedef struct mk_report mk_report;

/* Creates an empty report. Its item storage is allocated through allocator
 * (NULL: malloc; the allocator struct is copied). Errors:
 * MK_ERR_INVALID_ARGUMENT (out is NULL), MK_ERR_OUT_OF_MEMORY (*out NULL). */
MK_API mk_status mk_report_create(const mk_allocator *allocator, mk_report **out, mk_error *err);

/* Frees the report and its items (NULL is fine). Items read from it are
 * gone afterwards. */
MK_API void mk_report_destroy(mk_report *report);

/* Forgets every item and zeroes the counts; the report stays usable. Item
 * pointers read before are invalid afterwards. NULL is ignored. */
MK_API void mk_report_clear(mk_report *report);

/* Stored items (at most MK_REPORT_MAX_ITEMS), in the order they were added;
 * 0 for NULL. */
MK_API uint32_t mk_report_count(const mk_report *report);

/* Item i (0 <= i < mk_report_count), valid until the next add, clear or
 * destroy; NULL when report is NULL or i is out of range. */
MK_API const mk_diagnostic *mk_report_item(const mk_report *report, uint32_t i);

/* Errors and warnings added, including dropped ones; 0 for NULL. */
MK_API uint32_t mk_report_error_count(const mk_report *report);
MK_API uint32_t mk_report_warning_count(const mk_report *report);

/* Items counted but not stored (beyond MK_REPORT_MAX_ITEMS, or when memory
 * ran out); 0 for NULL. */
MK_API uint32_t mk_report_dropped_count(const mk_report *report);

/* Appends a diagnostic (file and other_file may be NULL: ""; text longer
 * than the mk_diagnostic fields is cut). Returns false when report or
 * format is NULL, or when memory ran out (the item is then counted as
 * dropped). */
MK_API bool mk_report_add(mk_report *report, mk_severity severity, mk_check check,
                          const char *file, int line, const char *other_file, int other_line,
                          const char *format, ...) MK_PRINTF(8, 9);

/* Options of discovery and loading; zero (or a NULL pointer) = defaults. */
typedef struct mk_unit_options {
    mk_obj_options obj;             /* per-frame reader options (obj.files is not
                                       used: `files` below reads every file) */
    bool skip_heuristics;           /* skip the warning heuristics (faster loads) */
    bool lenient_config;            /* animation.cfg errors become warnings and
                                       their lines are ignored (viewers; see
                                       mk_anim_config_options.lenient) */
    const mk_file_callbacks *files; /* how folders are listed and frames and
                                       animation.cfg read; NULL: the default
                                       (morphkit/file.h) */
} mk_unit_options;

/* ---- discovery ----------------------------------------------------------- */

typedef struct mk_unit_animation {
    char *name;            /* as in the file names (case-sensitive) */
    uint32_t first_number; /* N of its first frame file */
    uint32_t frame_count;
    uint32_t first_frame;  /* index of its first frame in the unit's frame list */
} mk_unit_animation;

typedef struct mk_unit_files {
    char *dir;                     /* the folder as given */
    uint32_t animation_count;      /* sorted by name (byte order) */
    mk_unit_animation *animations;
    uint32_t frame_count;          /* all animations' frames, in animation order */
    char **frame_files;            /* file names relative to dir */
    bool has_config;               /* animation.cfg is listed as a regular file */
    mk_allocator allocator;
} mk_unit_files;

/* Lists a unit folder's frames (folders are listed through options->files;
 * only entries listed as regular files count). Errors: MK_ERR_NOT_FOUND when
 * the folder does not exist, has no frame files or a number is missing (the
 * message names the missing file), MK_ERR_IO when it cannot be listed (not a
 * folder), MK_ERR_PARSE for two files with the same animation and number
 * (`walk_1.obj`, `walk_01.obj`, `walk1.obj`). options may be NULL; allocator (NULL:
 * malloc) makes *out. */
MK_API mk_status mk_unit_discover(const char *dir, const mk_unit_options *options,
                                  const mk_allocator *allocator, mk_unit_files **out,
                                  mk_error *err);

/* Notes (MK_SEVERITY_NOTE, MK_CHECK_NAMING, file = dir, line 0) about what
 * discovery passes over in silence but a person probably meant as a frame:
 * every .obj file in dir that is not one of files' frames (`base.obj`,
 * `walk_2 copy.obj`; files NULL: every .obj file), in byte order of the
 * name, then every pair of animations whose names differ only in case
 * (`BEND` beside `bend`: two animations on a case-sensitive disk, one on a
 * case-insensitive one). mk_unit_load adds them to its report after
 * discovery (also when the unit then fails to load). Returns the number of
 * notes added; listing errors add nothing. options may be NULL; allocator
 * (NULL: malloc) serves the scratch memory. */
MK_API uint32_t mk_unit_naming_notes(const char *dir, const mk_unit_files *files,
                                     const mk_unit_options *options,
                                     const mk_allocator *allocator, mk_report *report);
MK_API void mk_unit_files_destroy(mk_unit_files *files);

/* True when dir is a folder holding at least one frame file
 * (`<Name>_<N>.obj`, `<Name><N>.obj`, ...) listed as a regular file. options may be NULL. */
MK_API bool mk_is_unit_folder(const char *dir, const mk_unit_options *options);

/* Lists the unit folders directly inside a library root (entries listed as
 * folders whose names do not start with '.'), sorted by name, as
 * "root/name" paths in one array (*paths; free with mk_unit_list_free).
 * A root without unit folders gives MK_ERR_NOT_FOUND, as does a missing
 * root. options may be NULL. */
MK_API mk_status mk_unit_list(const char *root, const mk_unit_options *options,
                              const mk_allocator *allocator, char ***paths, uint32_t *count,
                              mk_error *err);
MK_API void mk_unit_list_free(const mk_allocator *allocator, char **paths, uint32_t count);

/* ---- loading and validation ---------------------------------------------- */

typedef struct mk_unit {
    char *name;                 /* the folder's last path component */
    mk_unit_files *files;       /* animations and frame file names */
    mk_frame_set *frames;       /* one frame per file, in files->frame_files order */
    mk_clip_set *clips;         /* clip i = animation i, from animation.cfg or defaults */
    uint32_t position_count;    /* `v` count of every frame */
    uint32_t *source_index;     /* frames->vertex_count entries: each vertex's `v` index */
    uint32_t normal_count;      /* `vn` count of the first frame (0 without normals) */
    uint32_t *normal_vertex;    /* normal_count entries: a render vertex using that `vn`
                                   in the first frame, or MK_NONE when none does */
    uint64_t bytes_on_disk;     /* sum of the frame files' sizes (as read) */
    mk_allocator allocator;
} mk_unit;

/* Discovers, reads and validates a unit folder, and builds its clips from
 * animation.cfg (config errors are reported as MK_CHECK_CONFIG with the
 * file's line). On success *out is the unit
 * (warnings, if any, go to report). On failure *out is NULL, err holds the
 * first error and report (when given) holds every error found, each frame
 * compared with the first. options and report may be NULL; allocator (NULL:
 * malloc) makes the unit and everything in it. Every file is read through
 * options->files; paths have no length limit. */
MK_API mk_status mk_unit_load(const char *dir, const mk_unit_options *options,
                              const mk_allocator *allocator, mk_unit **out, mk_report *report,
                              mk_error *err);
MK_API void mk_unit_destroy(mk_unit *unit);

/* ---- live reload ---------------------------------------------------------- */
/* Loads old's folder (old->files->dir) again with options, for a viewer or
 * an engine's editor mode watching the files. Every file is read again (the
 * frame set is one block and render vertices are split over all frames, so
 * one changed frame can change them all). Then:
 *  - the folder now loads and differs from old (any frame's data, the
 *    animations, their timing or events): MK_OK, *changed true, *out the new
 *    unit (allocator makes it; the caller swaps it in, e.g. between frames,
 *    and destroys old when nothing uses it any more);
 *  - it loads and holds the same: MK_OK, *changed false, *out NULL;
 *  - it does not load (a frame half written or truncated, a frame removed or
 *    renamed so a number is missing, a broken animation.cfg without
 *    options->lenient_config): the error as mk_unit_load gives it, *out NULL.
 * old is never modified or freed, so on failure it stays valid and keeps
 * being shown. A frame removed or renamed so that the folder is still a
 * valid unit (the last frame of an animation, a whole animation) is a
 * change like any other. NULL old, out or changed: MK_ERR_INVALID_ARGUMENT.
 * options, report and allocator as for mk_unit_load. */
MK_API mk_status mk_unit_reload(const mk_unit *old, const mk_unit_options *options,
                                const mk_allocator *allocator, mk_unit **out, bool *changed,
                                mk_report *report, mk_error *err);

/* Copies a float3 stream indexed by render vertex (a blended pose) into the
 * OBJ's `v` order: out receives position_count float3. Render vertices that
 * share a `v` hold the same position, so any of them may be the one copied.
 * (A `v` that no face uses still has a render vertex, placed after the
 * others, with zero normal and texcoord.) */
MK_API void mk_unit_to_source_order(const mk_unit *unit, const float *render, float *out);

/* Copies a float3 normal stream indexed by render vertex into the first
 * frame's `vn` order: out receives normal_count float3 (zero for a `vn` no
 * face uses). Nothing is written when the unit has no normals. */
MK_API void mk_unit_normals_to_source_order(const mk_unit *unit, const float *render, float *out);

/* Index of an animation by exact name, or MK_NONE. */
MK_API uint32_t mk_unit_find_animation(const mk_unit *unit, const char *name);

#ifdef __cplusplus
}
#endif

#endif
