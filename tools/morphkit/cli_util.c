/* Helpers shared by the subcommands: error printing, JSON strings, paths. */
#include <stdarg.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"

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

bool mk_cli_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool mk_cli_is_gltf_file(const char *path)
{
    struct stat st;
    size_t n = strlen(path);
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    return ((n >= 5 && strcasecmp(path + n - 5, ".gltf") == 0) ||
            (n >= 4 && strcasecmp(path + n - 4, ".glb") == 0)) &&
           !mk_pack_is_unit_file(path, NULL);
}

bool mk_cli_is_packed_unit(const char *path)
{
    struct stat st;
    size_t n = strlen(path);
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
           ((n >= 4 && strcasecmp(path + n - 4, ".glb") == 0) ||
            (n >= 5 && strcasecmp(path + n - 5, ".gltf") == 0)) &&
           mk_pack_is_unit_file(path, NULL);
}

int mk_cli_unit_paths(const char *path, char ***paths, uint32_t *count)
{
    mk_error err;
    *paths = NULL;
    *count = 0;
    if (mk_cli_is_packed_unit(path)) {
        *paths = malloc(sizeof **paths);
        if (!*paths || !((*paths)[0] = strdup(path))) {
            free(*paths);
            mk_cli_fail("out of memory");
            return MK_EXIT_INVALID;
        }
        *count = 1;
        return MK_EXIT_OK;
    }
    if (!mk_cli_is_dir(path)) {
        struct stat st;
        if (stat(path, &st) != 0)
            mk_cli_fail("%s: no such file or folder", path);
        else
            mk_cli_fail("%s: not a folder (a unit folder or a library root is expected)", path);
        return MK_EXIT_INVALID;
    }
    if (mk_is_unit_folder(path, NULL)) {
        *paths = malloc(sizeof **paths);
        if (!*paths || !((*paths)[0] = strdup(path))) {
            free(*paths);
            mk_cli_fail("out of memory");
            return MK_EXIT_INVALID;
        }
        *count = 1;
        return MK_EXIT_OK;
    }
    if (mk_unit_list(path, NULL, NULL, paths, count, &err) != MK_OK) {
        mk_cli_print_error(&err);
        return MK_EXIT_INVALID;
    }
    return MK_EXIT_OK;
}
