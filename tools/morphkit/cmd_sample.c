/* morphkit sample PATH --time T... [--anim NAME] [--then NAME@T]... [--json]
 *                 [--space local|world]
 * (PATH: a unit folder, or a .gltf/.glb file: see sample_gltf.c)
 * The state and the pose at exact times, as docs/json.md
 * specifies. Each sample replays from time 0 (play --anim, then the
 * --then requests in time order), which the player's slicing guarantee makes
 * identical to one continuous run. */
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static void help(FILE *out)
{
    fprintf(out,
            "usage: morphkit sample PATH --time T [--time T2 ...] [--anim NAME|N]\n"
            "                       [--then NAME@T]... [--interpolation MODE] [--json]\n"
            "                       [--space local|world]\n\n"
            "Prints the animation state and the pose of a unit folder, or the morph\n"
            "weights and morphed vertices of a .gltf/.glb file, at the given times\n"
            "(seconds, rounded to the nearest microsecond). For a unit, a time on a\n"
            "frame boundary shows the new frame with weight 0. For glTF, a time is the\n"
            "clip's own time: before the first key and after the last the end values\n"
            "hold.\n"
            "For a unit, each sample also lists the events fired since the previous\n"
            "sample (the first: since the start, time 0 included).\n\n"
            "  --time T       a sample time in seconds (repeatable, at least one)\n"
            "  --anim NAME|N  the animation started at time 0, by name or index (unit\n"
            "                 default: Idle if the unit has one, else the first name in\n"
            "                 sorted order; glTF: animation 0, or the default weights\n"
            "                 when the file has none)\n"
            "  --then NAME@T  request a switch to NAME at T seconds, as a game calls\n"
            "                 play() (repeatable; units only)\n"
            "  --interpolation linear|step|smooth\n"
            "                 force how a unit's frames blend, as preview and view can\n"
            "  --json         one JSON object with positions (OBJ `v` order) and\n"
            "                 normals (first frame's `vn` order); for glTF one entry per\n"
            "                 (node with a mesh, primitive) with node/mesh/primitive\n"
            "                 indices, the weights in effect and local-space morphed\n"
            "                 positions, normals and tangents in accessor order\n"
            "  --space S      glTF with --json: local (default: morph only) or world\n"
            "                 (morph, then the skin, or else the node's world transform,\n"
            "                 with the whole node hierarchy animated)\n\n"
            "exit codes: 0 success, 1 invalid input, 2 usage error\n");
}

/* Seconds -> microseconds, rounded to nearest; false for junk or < 0. */
static bool parse_seconds(const char *s, int64_t *us)
{
    char *end;
    double t = strtod(s, &end);
    if (end == s || *end || !(t >= 0) || t > 9e12)
        return false;
    *us = (int64_t)llround(t * 1e6);
    return true;
}

int mk_cmd_sample(int argc, char **argv)
{
    mk_sample_args a;
    memset(&a, 0, sizeof a);
    a.interpolation = -1;
    bool options_done = false; /* after "--" every word is a PATH */
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(arg, "--") == 0 && !options_done) {
            options_done = true;
        } else if (options_done && !a.path) {
            a.path = arg;
        } else if (options_done) {
            mk_cli_fail("sample: one PATH only (see morphkit sample --help)");
            return MK_EXIT_USAGE;
        } else if (mk_cli_is_help(arg)) {
            help(stdout);
            return MK_EXIT_OK;
        } else if (strcmp(arg, "--json") == 0) {
            a.json = true;
        } else if (strcmp(arg, "--space") == 0 && has_value) {
            const char *sp = argv[++i];
            if (strcmp(sp, "world") != 0 && strcmp(sp, "local") != 0) {
                mk_cli_fail("sample: --space wants local or world, not '%s'", sp);
                return MK_EXIT_USAGE;
            }
            a.world = strcmp(sp, "world") == 0;
        } else if (strcmp(arg, "--time") == 0 && has_value) {
            if (a.time_count == MK_SAMPLE_MAX || !parse_seconds(argv[++i], &a.times_us[a.time_count])) {
                mk_cli_fail("sample: --time wants seconds >= 0 (at most %d times), not '%s'",
                            MK_SAMPLE_MAX, argv[i]);
                return MK_EXIT_USAGE;
            }
            a.time_text[a.time_count++] = argv[i];
        } else if (strcmp(arg, "--anim") == 0 && has_value) {
            a.anim = argv[++i];
        } else if (strcmp(arg, "--interpolation") == 0 && has_value) {
            if ((a.interpolation = mk_cli_parse_interpolation(argv[++i])) == -2) {
                mk_cli_fail("sample: --interpolation wants linear, step or smooth, not '%s'",
                            argv[i]);
                return MK_EXIT_USAGE;
            }
        } else if (strcmp(arg, "--then") == 0 && has_value) {
            char *at = strrchr(argv[++i], '@');
            if (!at || at == argv[i] || a.then_count == MK_SAMPLE_MAX ||
                !parse_seconds(at + 1, &a.then_us[a.then_count])) {
                mk_cli_fail("sample: --then wants NAME@SECONDS, not '%s'", argv[i]);
                return MK_EXIT_USAGE;
            }
            *at = '\0';
            a.then_name[a.then_count++] = argv[i];
        } else if (arg[0] == '-') {
            mk_cli_fail("sample: unknown option or missing value '%s' (see morphkit sample --help)",
                        arg);
            return MK_EXIT_USAGE;
        } else if (a.path) {
            mk_cli_fail("sample: one PATH only (see morphkit sample --help)");
            return MK_EXIT_USAGE;
        } else {
            a.path = arg;
        }
    }
    if (!a.path || a.time_count == 0) {
        if (!a.path)
            mk_cli_fail("sample: PATH is missing (see morphkit sample --help)");
        else
            mk_cli_fail("sample: at least one --time is needed (see morphkit sample --help)");
        return MK_EXIT_USAGE;
    }
    if (a.world && (!a.json || !mk_cli_is_gltf_file(a.path))) {
        mk_cli_fail("sample: --space world is for a .gltf/.glb file with --json (positions are "
                    "only in the JSON)");
        return MK_EXIT_USAGE;
    }
    if (mk_cli_is_gltf_file(a.path)) {
        if (a.interpolation >= 0) { /* glTF samplers carry their own */
            mk_cli_fail("sample: --interpolation is for unit folders, not '%s'", a.path);
            return MK_EXIT_USAGE;
        }
        return mk_cli_sample_gltf(&a);
    }
    if (!mk_cli_is_dir(a.path) && !mk_cli_is_packed_unit(a.path)) {
        struct stat st;
        mk_cli_fail("%s: %s", a.path,
                    stat(a.path, &st) != 0 ? "no such file or folder"
                                           : "not a unit folder or a .gltf/.glb file");
        return MK_EXIT_INVALID;
    }
    return mk_cli_sample_unit(&a);
}
