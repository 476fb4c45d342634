/* The morphkit tool: one file per subcommand, each thin over the library.
 *
 * A command is `int mk_cmd_NAME(int argc, char **argv)` with argv[0] the
 * command name; it returns the process exit code: 0 success, 1 the input is
 * invalid, 2 a usage error. Errors go to stderr as `morphkit: file:line: msg`. */
#ifndef MK_TOOL_CLI_H
#define MK_TOOL_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "morphkit/morphkit.h"

enum { MK_EXIT_OK = 0, MK_EXIT_INVALID = 1, MK_EXIT_USAGE = 2 };

/* The "version" of every --json document (docs/json.md): raised when a key
 * changes meaning or disappears; new keys may appear within a version. */
#define MK_CLI_JSON_VERSION 1

typedef struct mk_command {
    const char *name;
    const char *summary; /* one line for `morphkit --help` */
    int (*run)(int argc, char **argv);
} mk_command;

int mk_cmd_validate(int argc, char **argv);
int mk_cmd_repair(int argc, char **argv); /* cmd_repair.c: vertex order */
int mk_cmd_info(int argc, char **argv);
int mk_cmd_sample(int argc, char **argv);
int mk_cmd_preview(int argc, char **argv); /* cmd_preview.c: headless pictures */
int mk_cmd_view(int argc, char **argv);    /* cmd_view.c: the GLFW window */
int mk_cmd_pack(int argc, char **argv);    /* cmd_pack.c: unit folders -> .glb */
int mk_cmd_bench(int argc, char **argv);   /* cmd_bench.c over bench/suite.c */

/* `morphkit sample` options, parsed once and shared by the unit and glTF paths. */
#define MK_SAMPLE_MAX 256
typedef struct mk_sample_args {
    const char *path;
    const char *anim;                       /* NULL: the default */
    int interpolation;                      /* -1, or forced on every clip (units) */
    bool json;
    bool world;                             /* --space world (glTF only) */
    uint32_t time_count;
    int64_t times_us[MK_SAMPLE_MAX];
    const char *time_text[MK_SAMPLE_MAX];   /* as typed, echoed in the output */
    uint32_t then_count;
    int64_t then_us[MK_SAMPLE_MAX];
    const char *then_name[MK_SAMPLE_MAX];
} mk_sample_args;

int mk_cli_sample_unit(const mk_sample_args *args);
/* The glTF path of `morphkit sample` (sample_gltf.c): --then is a usage error. */
int mk_cli_sample_gltf(const mk_sample_args *args);
/* `morphkit info` for one .gltf/.glb file (info_gltf.c). */
int mk_cli_info_gltf(const char *path, bool json);
/* `morphkit validate` for one .gltf/.glb file (validate_gltf.c): prints its
 * entry (text, or one element of the JSON "units" array; first: no leading
 * comma) and returns MK_EXIT_OK or MK_EXIT_INVALID. */
int mk_cli_validate_gltf(const char *path, bool json, bool quiet, bool first);

/* Prints `morphkit: <formatted error>` to stderr. */
void mk_cli_print_error(const mk_error *err);
/* Prints `morphkit: <printf text>` to stderr. */
void mk_cli_fail(const char *format, ...) MK_PRINTF(1, 2);
/* True when argv[i] is -h or --help. */
bool mk_cli_is_help(const char *arg);
/* Writes s as a JSON string literal (quotes and escapes); the output is
 * always valid UTF-8: a byte that is not part of a valid UTF-8 sequence is
 * written as \u00XX (its Latin-1 reading). */
void mk_cli_json_string(FILE *out, const char *s);
/* Writes v as the shortest decimal that reads back as the same float
 * (single) or double: 0.88f gives 0.88, not 0.879999995; NaN/inf: null. */
void mk_cli_json_number(FILE *out, double v, bool single);
bool mk_cli_is_dir(const char *path);
/* True when path is a regular file whose name ends in .gltf or .glb (any
 * case) and that is not a packed unit. */
bool mk_cli_is_gltf_file(const char *path);
/* True when path is a .glb file made by `morphkit pack` (pack.h): commands
 * treat it as the unit folder it came from. */
bool mk_cli_is_packed_unit(const char *path);
/* Expands PATH (a unit folder, or a library root of unit folders) into unit
 * folder paths (malloc'd; free with mk_unit_list_free(NULL, ...)). Prints
 * the error and returns MK_EXIT_INVALID when PATH is neither. */
int mk_cli_unit_paths(const char *path, char ***paths, uint32_t *count);
/* Loads a unit for info/sample/preview/view (no heuristics) and prints every
 * error and warning to stderr; lenient: animation.cfg lines with errors are
 * ignored (mk_unit_options.lenient_config). problem (may be NULL) receives
 * the first of them, or "", for a window to show. Returns an exit code. */
int mk_cli_load_unit(const char *path, bool lenient, mk_unit **out, char *problem,
                     size_t problem_size);
/* The name of what PATH names, for default output file names: the last
 * component of its real path without a file's extension ("knight/", "."
 * inside knight, "../knight" -> "knight"); never empty, never hidden. */
void mk_cli_real_name(const char *path, char *buf, size_t size);
/* "512 bytes", "166.6 KiB", "1.3 MiB": sizes for people (JSON keeps bytes).
 * Returns buf. */
const char *mk_cli_bytes_text(uint64_t bytes, char *buf, size_t size);
/* Bytes a loaded glTF takes on disk: the file at path plus the external
 * buffer files its uris name (data: URIs are inside the file). */
uint64_t mk_cli_gltf_disk_bytes(const mk_gltf *g, const char *path);
/* A copy of a clip set with one interpolation forced on every clip (for
 * --interpolation); prints the error and returns false on failure. */
bool mk_cli_force_interpolation(const mk_clip_set *clips, mk_interpolation interp,
                                mk_clip_set **out);
/* Parses linear|step|smooth; -2 for anything else. */
int mk_cli_parse_interpolation(const char *word);
/* The unit's material (mk_unit_material, material.c): its diffuse colour
 * and *texture_path (malloc'ed, NULL without map_Kd). False when it has
 * none (the renderer's default colour is used); a broken .mtl is printed. */
bool mk_cli_unit_material(const mk_unit *unit, float rgba[4], char **texture_path);

#endif
