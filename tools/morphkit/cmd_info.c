/* morphkit info PATH... [--json]
 * What a unit holds and what it costs: animations, counts, memory, disk.
 * (A .gltf/.glb PATH goes to info_gltf.c.) */
#include <string.h>
#include <strings.h>

#include "cli.h"

static void help(FILE *out)
{
    fprintf(out, "usage: morphkit info [--json] PATH...\n\n"
                 "Prints each unit folder's (or every unit of a library root's) animations\n"
                 "and frame counts, vertex and triangle counts, the memory its frame set\n"
                 "needs and the size of its frame files on disk (KiB/MiB; exact bytes in\n"
                 "--json), and each animation's timeline: one line a frame with the time\n"
                 "it becomes current and its duration (ms), NoBlend cuts, events, the\n"
                 "loop start (marked >) and what follows the last frame. A typo in\n"
                 "animation.cfg is printed and its line ignored. For a .gltf/.glb\n"
                 "file: meshes and primitives (vertices, attributes, mode), morph target\n"
                 "counts, names and default weights, the nodes with meshes, and the\n"
                 "animations with their channels, interpolation, keys and duration.\n\n"
                 "  --json    one JSON object on stdout\n\n"
                 "exit codes: 0 success, 1 invalid input, 2 usage error\n");
}

/* The timeline of clip a: when each frame becomes current (ms from the clip's
 * start), its duration, cuts, loop start, events; text, one line a frame. */
static void print_timeline_text(const mk_unit *u, uint32_t a)
{
    const mk_clip *c = &u->clips->clips[a];
    uint32_t first = u->files->animations[a].first_number;
    int64_t start = 0;
    for (uint32_t f = 0; f < c->frame_count; f++) {
        bool held = c->once && c->next_clip == MK_NONE && f + 1 == c->frame_count;
        printf("      %-*s%4u  %7.1f ms", 2, !c->once && f == c->loop_frame ? ">" : "",
               first + f, (double)start / 1000.0);
        if (held)
            printf("   (held)   ");
        else
            printf("  +%7.1f", (double)c->durations_us[f] / 1000.0);
        if (c->frame_flags[f] & MK_CLIP_FRAME_NO_BLEND)
            printf("  cut (NoBlend)");
        for (uint32_t e = c->event_first[f]; e < c->event_first[f + 1]; e++)
            printf("  event %s", c->events[e].name);
        if (f + 1 == c->frame_count && !held) {
            if (!c->once)
                printf("  then loops to %u", first + c->loop_frame);
            else
                printf("  then %s", u->clips->clips[c->next_clip].name);
        }
        printf("\n");
        start += held ? 0 : c->durations_us[f];
    }
}

static void print_timeline_json(const mk_unit *u, uint32_t a)
{
    const mk_clip *c = &u->clips->clips[a];
    uint32_t first = u->files->animations[a].first_number;
    printf(", \"loop_frame\": ");
    if (c->once)
        printf("null");
    else
        printf("%u", first + c->loop_frame);
    printf(", \"next\": ");
    if (c->next_clip != MK_NONE)
        mk_cli_json_string(stdout, u->clips->clips[c->next_clip].name);
    else
        printf("null");
    printf(", \"timeline\": [");
    int64_t start = 0;
    for (uint32_t f = 0; f < c->frame_count; f++) {
        bool held = c->once && c->next_clip == MK_NONE && f + 1 == c->frame_count;
        printf("%s\n        {\"frame\": %u, \"start_ms\": ", f ? "," : "", first + f);
        mk_cli_json_number(stdout, (double)start / 1000.0, false);
        printf(", \"duration_ms\": ");
        if (held)
            printf("null");
        else
            mk_cli_json_number(stdout, (double)c->durations_us[f] / 1000.0, false);
        printf(", \"no_blend\": %s, \"events\": [",
               c->frame_flags[f] & MK_CLIP_FRAME_NO_BLEND ? "true" : "false");
        for (uint32_t e = c->event_first[f]; e < c->event_first[f + 1]; e++) {
            printf("%s", e > c->event_first[f] ? ", " : "");
            mk_cli_json_string(stdout, c->events[e].name);
        }
        printf("]}");
        start += held ? 0 : c->durations_us[f];
    }
    printf("]");
}

static void print_text(const char *path, const mk_unit *u)
{
    const mk_frame_set *s = u->frames;
    printf("unit %s (%s)\n", u->name, path);
    printf("  vertices:   %u (v lines), %u render vertices after splitting by uv/normal\n",
           u->position_count, s->vertex_count);
    printf("  triangles:  %u\n", s->index_count / 3);
    printf("  frames:     %u, normals: %s, texcoords: %s\n", s->frame_count,
           s->normals ? "yes" : "no", s->texcoords ? "yes" : "no");
    char size[32];
    printf("  memory:     %s (frame set)\n", mk_cli_bytes_text(s->byte_size, size, sizeof size));
    if (mk_cli_is_dir(path))
        printf("  on disk:    %s in %u files\n",
               mk_cli_bytes_text(u->bytes_on_disk, size, sizeof size), u->files->frame_count);
    else
        printf("  on disk:    %s (packed: %s)\n",
               mk_cli_bytes_text(u->bytes_on_disk, size, sizeof size),
               strlen(path) >= 5 && strcasecmp(path + strlen(path) - 5, ".gltf") == 0
                   ? "the .gltf and its .bin"
                   : "one file");
    printf("  config:     %s\n", u->files->has_config ? "animation.cfg" : "none (defaults)");
    printf("  animations:\n");
    for (uint32_t a = 0; a < u->files->animation_count; a++) {
        const mk_unit_animation *an = &u->files->animations[a];
        const mk_clip *c = &u->clips->clips[a];
        char mode[160];
        if (!c->once)
            snprintf(mode, sizeof mode, "loops to %u", an->first_number + c->loop_frame);
        else if (c->next_clip != MK_NONE)
            snprintf(mode, sizeof mode, "once, then %s", u->clips->clips[c->next_clip].name);
        else
            snprintf(mode, sizeof mode, "once, holds the last frame");
        printf("    %-16s %3u frame%s  %s .. %s  %lld ms, %s, %s\n", an->name, an->frame_count,
               an->frame_count == 1 ? " " : "s", u->files->frame_files[an->first_frame],
               u->files->frame_files[an->first_frame + an->frame_count - 1],
               (long long)(c->length_us / 1000), mode, mk_interpolation_name(c->interpolation));
        print_timeline_text(u, a);
    }
}

static void print_json(const char *path, const mk_unit *u, bool first)
{
    const mk_frame_set *s = u->frames;
    printf("%s\n  {\"name\": ", first ? "" : ",");
    mk_cli_json_string(stdout, u->name);
    printf(", \"path\": ");
    mk_cli_json_string(stdout, path);
    printf(", \"vertices\": %u, \"render_vertices\": %u, \"triangles\": %u, \"frames\": %u, "
           "\"normals\": %s, \"texcoords\": %s, \"memory_bytes\": %zu, \"disk_bytes\": %llu, "
           "\"config\": %s, \"animations\": [",
           u->position_count, s->vertex_count, s->index_count / 3, s->frame_count,
           s->normals ? "true" : "false", s->texcoords ? "true" : "false", s->byte_size,
           (unsigned long long)u->bytes_on_disk, u->files->has_config ? "true" : "false");
    for (uint32_t a = 0; a < u->files->animation_count; a++) {
        const mk_unit_animation *an = &u->files->animations[a];
        printf("%s{\"name\": ", a ? ", " : "");
        mk_cli_json_string(stdout, an->name);
        const mk_clip *c = &u->clips->clips[a];
        printf(", \"frames\": %u, \"first_number\": %u, \"length_ms\": %.3f, \"once\": %s, "
               "\"interpolation\": \"%s\"",
               an->frame_count, an->first_number, (double)c->length_us / 1000.0,
               c->once ? "true" : "false", mk_interpolation_name(c->interpolation));
        print_timeline_json(u, a);
        printf("}");
    }
    printf("]}");
}

/* What could not be shown, for the JSON "errors" list: a path and why. */
typedef struct info_errors {
    char (*items)[2][600];
    uint32_t count, capacity;
} info_errors;

static void add_error(info_errors *e, const char *path, const char *message)
{
    if (e->count == e->capacity) {
        uint32_t cap = e->capacity ? 2 * e->capacity : 8;
        void *grown = realloc(e->items, cap * sizeof *e->items);
        if (!grown)
            return; /* the error is on stderr anyway */
        e->items = grown;
        e->capacity = cap;
    }
    snprintf(e->items[e->count][0], sizeof e->items[0][0], "%s", path);
    snprintf(e->items[e->count][1], sizeof e->items[0][1], "%s", message);
    e->count++;
}

/* Prints the units of one PATH (a unit folder or a library root); returns
 * the exit code. *printed counts JSON entries across paths. */
static int info_units(const char *path, bool json, uint32_t *printed, info_errors *errors)
{
    char **units;
    uint32_t count;
    if (mk_cli_unit_paths(path, &units, &count) != MK_EXIT_OK) {
        add_error(errors, path, mk_cli_is_dir(path) ? "not a unit folder or a library root"
                                                    : "no such unit folder or glTF file");
        return MK_EXIT_INVALID;
    }
    int exit_code = MK_EXIT_OK;
    for (uint32_t u = 0; u < count; u++) {
        mk_unit *unit = NULL;
        char problem[600];
        if (mk_cli_load_unit(units[u], true, &unit, problem, sizeof problem) != MK_EXIT_OK) {
            add_error(errors, units[u], problem[0] ? problem : "could not be loaded");
            exit_code = MK_EXIT_INVALID;
            continue;
        }
        if (json)
            print_json(units[u], unit, *printed == 0);
        else
            print_text(units[u], unit);
        (*printed)++;
        mk_unit_destroy(unit);
    }
    mk_unit_list_free(NULL, units, count);
    return exit_code;
}

int mk_cmd_info(int argc, char **argv)
{
    bool json = false, options_done = false;
    const char **paths = calloc((size_t)argc, sizeof *paths);
    int path_count = 0, gltf_count = 0;
    if (!paths) {
        mk_cli_fail("out of memory");
        return MK_EXIT_INVALID;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0 && !options_done) {
            options_done = true; /* every later word is a PATH, even "-x" */
        } else if (options_done || argv[i][0] != '-') {
            paths[path_count++] = argv[i];
            gltf_count += mk_cli_is_gltf_file(argv[i]);
        } else if (mk_cli_is_help(argv[i])) {
            help(stdout);
            free(paths);
            return MK_EXIT_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else {
            mk_cli_fail("info: unknown option '%s' (see morphkit info --help)", argv[i]);
            free(paths);
            return MK_EXIT_USAGE;
        }
    }
    if (!path_count) {
        help(stderr);
        free(paths);
        return MK_EXIT_USAGE;
    }
    /* one glTF document is its own JSON layout (docs/json.md) */
    if (json && gltf_count && path_count > 1) {
        mk_cli_fail("info: --json takes one .gltf/.glb file, or unit folders and library roots");
        free(paths);
        return MK_EXIT_USAGE;
    }
    int exit_code = MK_EXIT_OK;
    uint32_t printed = 0;
    info_errors errors = {NULL, 0, 0};
    if (json && !gltf_count)
        printf("{\"version\": %d, \"units\": [", MK_CLI_JSON_VERSION);
    for (int p = 0; p < path_count; p++) {
        int rc = mk_cli_is_gltf_file(paths[p]) ? mk_cli_info_gltf(paths[p], json)
                                               : info_units(paths[p], json, &printed, &errors);
        if (rc != MK_EXIT_OK)
            exit_code = rc;
    }
    if (json && !gltf_count) {
        /* what could not be shown stays in the document (also on stderr) */
        printf("%s], \"errors\": [", printed ? "\n" : "");
        for (uint32_t e = 0; e < errors.count; e++) {
            printf("%s{\"path\": ", e ? ", " : "");
            mk_cli_json_string(stdout, errors.items[e][0]);
            printf(", \"message\": ");
            mk_cli_json_string(stdout, errors.items[e][1]);
            printf("}");
        }
        printf("]}\n");
    }
    free(errors.items);
    free(paths);
    return exit_code;
}
