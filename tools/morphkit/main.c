/* morphkit: dispatch to the subcommands. */
#include <stdarg.h>
#include <string.h>

#include "cli.h"

static const mk_command commands[] = {
    {"validate", "check unit folders (frames, topology, likely export mistakes)", mk_cmd_validate},
    {"info", "animations, frame/vertex/triangle counts, memory and disk size", mk_cmd_info},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: morphkit COMMAND [OPTIONS] PATH...\n"
                 "       morphkit COMMAND --help\n"
                 "       morphkit --version\n\n"
                 "Blend-shape animation tools for frame sequences (unit folders of OBJ\n"
                 "frames) and glTF 2.0 morph targets.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nexit codes: 0 success, 1 invalid input, 2 usage error\n");
}

void mk_cli_print_error(const mk_error *err)
{
    char buf[MK_ERROR_FILE_MAX + MK_ERROR_MESSAGE_MAX + 32];
    mk_error_format(err, buf, sizeof buf);
    fprintf(stderr, "morphkit: %s\n", buf);
}

void mk_cli_fail(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fputs("morphkit: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
}

bool mk_cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

void mk_cli_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
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
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    mk_cli_fail("unknown command '%s' (see morphkit --help)", argv[1]);
    return MK_EXIT_USAGE;
}
