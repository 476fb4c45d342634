/* morphkit: dispatch to the subcommands. Built without the GL layer
 * (MK_TOOL_GL=0), preview and view are listed as unavailable and answer
 * with exit code 2 (cmd_nogl.c). */
#include <string.h>

#include "cli.h"

#ifndef MK_TOOL_GL
#define MK_TOOL_GL 1
#endif

#if MK_TOOL_GL
#define MK_GL_SUMMARY(text) text
#else
#define MK_GL_SUMMARY(text) "(unavailable: built with MK_BUILD_GL=OFF)"
#endif

static const mk_command commands[] = {
    {"validate", "check unit folders or glTF files (topology, morph rules, export mistakes)", mk_cmd_validate},
    {"repair", "put every frame of a unit in the first frame's vertex order (copy)", mk_cmd_repair},
    {"info", "what a unit or glTF file holds: animations, counts, memory, disk size", mk_cmd_info},
    {"sample", "the animation state and pose at given times (text or JSON)", mk_cmd_sample},
    {"preview", MK_GL_SUMMARY("render an animation headless: GIF, PNG frame or contact sheet"),
     mk_cmd_preview},
    {"view", MK_GL_SUMMARY("an interactive window: orbit, switch animations, step, speed"),
     mk_cmd_view},
    {"pack", "unit folders -> one small standard .glb each, playing exactly the same", mk_cmd_pack},
    {"bench", "measure the kernels on this machine beside a copy of the same bytes", mk_cmd_bench},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: morphkit COMMAND [OPTIONS] PATH...\n"
                 "       morphkit COMMAND --help   (or: morphkit help COMMAND)\n"
                 "       morphkit --version\n\n"
                 "Blend-shape animation tools for frame sequences (unit folders of OBJ\n"
                 "frames) and glTF 2.0 morph targets.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nexit codes: 0 success, 1 invalid input, 2 usage error\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return MK_EXIT_USAGE;
    }
    if (mk_cli_is_help(argv[1])) {
        usage(stdout);
        return MK_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("morphkit %s\n", MK_VERSION_STRING);
        return MK_EXIT_OK;
    }
    /* `morphkit help CMD` is `morphkit CMD --help`; `morphkit help` the overview */
    if (strcmp(argv[1], "help") == 0) {
        if (argc < 3) {
            usage(stdout);
            return MK_EXIT_OK;
        }
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
            if (strcmp(argv[2], commands[i].name) == 0) {
                char *help_argv[] = {argv[2], (char *)"--help", NULL};
                return commands[i].run(2, help_argv);
            }
        mk_cli_fail("help: unknown command '%s' (see morphkit --help)", argv[2]);
        return MK_EXIT_USAGE;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    mk_cli_fail("unknown command '%s' (see morphkit --help)", argv[1]);
    return MK_EXIT_USAGE;
}
