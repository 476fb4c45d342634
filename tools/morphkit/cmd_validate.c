/* morphkit validate PATH... [--json] [--quiet] [--strict]
 * Loads each unit with every check on and prints what it found; .gltf/.glb
 * paths go to validate_gltf.c. */
#include <string.h>

#include "cli.h"

static void help(FILE *out)
{
    fprintf(out,
            "usage: morphkit validate [--json] [--quiet] [--strict] PATH...\n\n"
            "Checks unit folders (frames named <Animation>_<N>.obj) or library roots\n"
            "(folders of unit folders): frame numbering, vertex counts, the face list\n"
            "of every frame against the first, and warns about likely vertex-order\n"
            "scrambles, changing UVs, flipped quad diagonals and frames that jump.\n"
            "A .gltf/.glb PATH is checked against the glTF morph rules (errors name\n"
            "the JSON path of the object), and warns about targets that move nothing,\n"
            "meshes no node uses, unused samplers, ignored or duplicate channels.\n\n"
            "Notes (never failures) name .obj files that are not frames (base.obj,\n"
            "'walk_2 copy.obj') and animation names that differ only in case. After\n"
            "several units a summary line counts units, valid, invalid and warnings.\n\n"
            "  --json    one JSON object on stdout\n"
            "  --quiet   print only errors, warnings and notes\n"
            "  --strict  warnings fail too (exit code 1), for CI\n"
            "  --        every later word is a PATH\n\n"
            "exit codes: 0 every unit is valid (warnings allowed unless --strict),\n"
            "1 a unit is invalid, 2 usage error\n");
}

static void print_location(FILE *out, const char *file, int line)
{
    if (line > 0)
        fprintf(out, "%s:%d", file, line);
    else
        fprintf(out, "%s", file);
}

static const char *severity_name(mk_severity s)
{
    return s == MK_SEVERITY_ERROR ? "error" : s == MK_SEVERITY_NOTE ? "note" : "warning";
}

static void print_text(const char *path, const mk_unit *unit, const mk_report *rep, bool quiet)
{
    if (unit && !quiet)
        printf("%s: ok: %u animation%s, %u frames, %u vertices, %u triangles, %u warning%s\n",
               path, unit->files->animation_count, unit->files->animation_count == 1 ? "" : "s",
               unit->frames->frame_count, unit->position_count, unit->frames->index_count / 3,
               mk_report_warning_count(rep), mk_report_warning_count(rep) == 1 ? "" : "s");
    else if (!unit)
        printf("%s: INVALID: %u error%s, %u warning%s\n", path, mk_report_error_count(rep),
               mk_report_error_count(rep) == 1 ? "" : "s", mk_report_warning_count(rep),
               mk_report_warning_count(rep) == 1 ? "" : "s");
    /* errors and warnings first, then the notes (naming) */
    for (uint32_t k = 0; k < 2 * mk_report_count(rep); k++) {
        uint32_t i = k % mk_report_count(rep);
        const mk_diagnostic *d = mk_report_item(rep, i);
        if ((d->severity == MK_SEVERITY_NOTE) != (k >= mk_report_count(rep)))
            continue;
        printf("  %s[%s]: ", severity_name(d->severity), mk_check_name(d->check));
        print_location(stdout, d->file, d->line);
        printf(": %s", d->message);
        if (d->other_file[0]) {
            printf(" (compared with ");
            print_location(stdout, d->other_file, d->other_line);
            printf(")");
        }
        printf("\n");
    }
    if (mk_report_dropped_count(rep))
        printf("  ... and %u more\n", mk_report_dropped_count(rep));
}

static void print_json(const char *path, const mk_unit *unit, const mk_report *rep, bool first)
{
    printf("%s\n  {\"path\": ", first ? "" : ",");
    mk_cli_json_string(stdout, path);
    printf(", \"valid\": %s, \"errors\": %u, \"warnings\": %u", unit ? "true" : "false",
           mk_report_error_count(rep), mk_report_warning_count(rep));
    if (unit) {
        printf(", \"animations\": [");
        for (uint32_t a = 0; a < unit->files->animation_count; a++) {
            printf("%s{\"name\": ", a ? ", " : "");
            mk_cli_json_string(stdout, unit->files->animations[a].name);
            printf(", \"frames\": %u}", unit->files->animations[a].frame_count);
        }
        printf("], \"vertices\": %u, \"triangles\": %u", unit->position_count,
               unit->frames->index_count / 3);
    }
    printf(", \"diagnostics\": [");
    uint32_t printed = 0;
    for (uint32_t k = 0; k < 2 * mk_report_count(rep); k++) {
        uint32_t i = k % mk_report_count(rep);
        const mk_diagnostic *d = mk_report_item(rep, i);
        if ((d->severity == MK_SEVERITY_NOTE) != (k >= mk_report_count(rep)))
            continue;
        printf("%s\n    {\"severity\": \"%s\", \"check\": \"%s\", \"file\": ",
               printed++ ? "," : "", severity_name(d->severity), mk_check_name(d->check));
        mk_cli_json_string(stdout, d->file);
        printf(", \"line\": %d", d->line);
        if (d->other_file[0]) {
            printf(", \"other_file\": ");
            mk_cli_json_string(stdout, d->other_file);
            printf(", \"other_line\": %d", d->other_line);
        }
        printf(", \"message\": ");
        mk_cli_json_string(stdout, d->message);
        printf("}");
    }
}

int mk_cmd_validate(int argc, char **argv)
{
    bool json = false, quiet = false, strict = false, options_done = false;
    const char **paths = calloc((size_t)argc, sizeof *paths);
    int path_count = 0;
    if (!paths) {
        mk_cli_fail("out of memory");
        return MK_EXIT_INVALID;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0 && !options_done) {
            options_done = true; /* every later word is a PATH, even "-x" */
        } else if (options_done || argv[i][0] != '-') {
            paths[path_count++] = argv[i];
        } else if (mk_cli_is_help(argv[i])) {
            help(stdout);
            free(paths);
            return MK_EXIT_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = true;
        } else if (strcmp(argv[i], "--strict") == 0) {
            strict = true;
        } else {
            mk_cli_fail("validate: unknown option '%s' (see morphkit validate --help)", argv[i]);
            free(paths);
            return MK_EXIT_USAGE;
        }
    }
    if (!path_count) {
        help(stderr);
        free(paths);
        return MK_EXIT_USAGE;
    }
    int exit_code = MK_EXIT_OK;
    bool first = true;
    uint32_t units_seen = 0, units_valid = 0, warnings = 0;
    if (json)
        printf("{\"version\": %d, \"units\": [", MK_CLI_JSON_VERSION);
    for (int p = 0; p < path_count; p++) {
        if (mk_cli_is_gltf_file(paths[p])) {
            int rc = mk_cli_validate_gltf(paths[p], json, quiet, first);
            units_seen++;
            units_valid += rc == MK_EXIT_OK;
            if (rc != MK_EXIT_OK)
                exit_code = MK_EXIT_INVALID;
            first = false;
            continue;
        }
        char **units;
        uint32_t count;
        if (mk_cli_unit_paths(paths[p], &units, &count) != MK_EXIT_OK) {
            exit_code = MK_EXIT_INVALID;
            continue;
        }
        mk_report *rep;
        mk_error err;
        if (mk_report_create(NULL, &rep, &err) != MK_OK) {
            mk_cli_fail("%s", err.message);
            mk_unit_list_free(NULL, units, count);
            return MK_EXIT_INVALID;
        }
        for (uint32_t u = 0; u < count; u++) {
            mk_unit *unit = NULL;
            mk_report_clear(rep);
            if (mk_unit_load(units[u], NULL, NULL, &unit, rep, &err) != MK_OK)
                exit_code = MK_EXIT_INVALID;
            /* the loader's report holds the naming notes too */
            if (json) {
                print_json(units[u], unit, rep, first);
                printf("]}");
            } else {
                print_text(units[u], unit, rep, quiet);
            }
            units_seen++;
            units_valid += unit != NULL;
            warnings += mk_report_warning_count(rep);
            first = false;
            mk_unit_destroy(unit);
        }
        mk_report_destroy(rep);
        mk_unit_list_free(NULL, units, count);
    }
    /* --strict (CI): a warning fails like an error */
    if (strict && warnings > 0)
        exit_code = MK_EXIT_INVALID;
    if (json)
        printf("%s], \"valid\": %s}\n", first ? "" : "\n",
               exit_code == MK_EXIT_OK ? "true" : "false");
    else if (units_seen > 1)
        printf("%u units: %u valid, %u invalid, %u warning%s%s\n", units_seen, units_valid,
               units_seen - units_valid, warnings, warnings == 1 ? "" : "s",
               strict && warnings ? " (--strict: warnings fail)" : "");
    free(paths);
    return exit_code;
}
