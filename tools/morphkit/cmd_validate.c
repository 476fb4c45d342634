/* morphkit validate PATH... [--json] [--quiet]
 * Loads each unit with every check on and prints what it found; .gltf/.glb
 * paths go to validate_gltf.c. */
#include <string.h>

#include "cli.h"

static void help(FILE *out)
{
    fprintf(out,
            "usage: morphkit validate [--json] [--quiet] PATH...\n\n"
            "Checks unit folders (frames named <Animation>_<N>.obj) or library roots\n"
            "(folders of unit folders): frame numbering, vertex counts, the face list\n"
            "of every frame against the first, and warns about likely vertex-order\n"
            "scrambles, changing UVs, flipped quad diagonals and frames that jump.\n"
            "A .gltf/.glb PATH is checked against the glTF morph rules (errors name\n"
            "the JSON path of the object), and warns about targets that move nothing,\n"
            "meshes no node uses, unused samplers, ignored or duplicate channels.\n\n"
            "  --json    one JSON object on stdout\n"
            "  --quiet   print only errors and warnings\n\n"
            "exit codes: 0 every unit is valid (warnings allowed), 1 a unit is invalid,\n"
            "2 usage error\n");
}

static void print_location(FILE *out, const char *file, int line)
{
    if (line > 0)
        fprintf(out, "%s:%d", file, line);
    else
        fprintf(out, "%s", file);
}

static void print_text(const char *path, const mk_unit *unit, const mk_report *rep, bool quiet)
{
    if (unit && !quiet)
        printf("%s: ok: %u animation%s, %u frames, %u vertices, %u triangles, %u warning%s\n",
               path, unit->files->animation_count, unit->files->animation_count == 1 ? "" : "s",
               unit->frames->frame_count, unit->position_count, unit->frames->index_count / 3,
               rep->warning_count, rep->warning_count == 1 ? "" : "s");
    else if (!unit)
        printf("%s: INVALID: %u error%s, %u warning%s\n", path, rep->error_count,
               rep->error_count == 1 ? "" : "s", rep->warning_count,
               rep->warning_count == 1 ? "" : "s");
    for (uint32_t i = 0; i < rep->count; i++) {
        const mk_diagnostic *d = &rep->items[i];
        printf("  %s[%s]: ", d->severity == MK_SEVERITY_ERROR ? "error" : "warning",
               mk_check_name(d->check));
        print_location(stdout, d->file, d->line);
        printf(": %s", d->message);
        if (d->other_file[0]) {
            printf(" (compared with ");
            print_location(stdout, d->other_file, d->other_line);
            printf(")");
        }
        printf("\n");
    }
    if (rep->dropped_count)
        printf("  ... and %u more\n", rep->dropped_count);
}

static void print_json(const char *path, const mk_unit *unit, const mk_report *rep, bool first)
{
    printf("%s\n  {\"path\": ", first ? "" : ",");
    mk_cli_json_string(stdout, path);
    printf(", \"valid\": %s, \"errors\": %u, \"warnings\": %u", unit ? "true" : "false",
           rep->error_count, rep->warning_count);
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
    for (uint32_t i = 0; i < rep->count; i++) {
        const mk_diagnostic *d = &rep->items[i];
        printf("%s\n    {\"severity\": \"%s\", \"check\": \"%s\", \"file\": ", i ? "," : "",
               d->severity == MK_SEVERITY_ERROR ? "error" : "warning", mk_check_name(d->check));
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
    printf("]}");
}

int mk_cmd_validate(int argc, char **argv)
{
    bool json = false, quiet = false;
    int first_path = 0, path_count = 0;
    for (int i = 1; i < argc; i++) {
        if (mk_cli_is_help(argv[i])) {
            help(stdout);
            return MK_EXIT_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = true;
        } else if (argv[i][0] == '-') {
            mk_cli_fail("validate: unknown option '%s' (see morphkit validate --help)", argv[i]);
            return MK_EXIT_USAGE;
        } else {
            if (!path_count)
                first_path = i;
            path_count++;
        }
    }
    if (!path_count) {
        help(stderr);
        return MK_EXIT_USAGE;
    }
    int exit_code = MK_EXIT_OK;
    bool first = true;
    if (json)
        printf("{\"version\": %d, \"units\": [", MK_CLI_JSON_VERSION);
    for (int i = first_path; i < argc; i++) {
        if (argv[i][0] == '-')
            continue;
        if (mk_cli_is_gltf_file(argv[i])) {
            if (mk_cli_validate_gltf(argv[i], json, quiet, first) != MK_EXIT_OK)
                exit_code = MK_EXIT_INVALID;
            first = false;
            continue;
        }
        char **units;
        uint32_t count;
        if (mk_cli_unit_paths(argv[i], &units, &count) != MK_EXIT_OK) {
            exit_code = MK_EXIT_INVALID;
            continue;
        }
        for (uint32_t u = 0; u < count; u++) {
            mk_report rep = {0};
            mk_unit *unit = NULL;
            mk_error err;
            if (mk_unit_load(units[u], NULL, NULL, &unit, &rep, &err) != MK_OK)
                exit_code = MK_EXIT_INVALID;
            if (json)
                print_json(units[u], unit, &rep, first);
            else
                print_text(units[u], unit, &rep, quiet);
            first = false;
            mk_unit_destroy(unit);
            mk_report_reset(&rep);
        }
        mk_unit_list_free(NULL, units, count);
    }
    if (json)
        printf("%s], \"valid\": %s}\n", first ? "" : "\n",
               exit_code == MK_EXIT_OK ? "true" : "false");
    return exit_code;
}
