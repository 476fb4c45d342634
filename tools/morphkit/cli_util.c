/* Helpers shared by the subcommands: error printing, JSON strings, paths. */
#define _DEFAULT_SOURCE /* realpath */
#include <stdarg.h>
#include <string.h>
#include <strings.h>
#include <limits.h>
#include <math.h>
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

/* Length of the valid UTF-8 sequence at p (1..4), or 0 when p does not start
 * one (stray continuation byte, overlong form, surrogate, beyond U+10FFFF). */
static int utf8_length(const unsigned char *p)
{
    if (p[0] < 0x80)
        return 1;
    int n = p[0] >= 0xF0 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC2 ? 2 : 0;
    if (n == 0 || p[0] > 0xF4)
        return 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    if ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] >= 0xA0) ||
        (p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] >= 0x90))
        return 0;
    return n;
}

void mk_cli_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = utf8_length(p);
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else if (n == 0) /* not UTF-8 (a Latin-1 file name): the byte as U+00XX */
            fprintf(out, "\\u%04x", *p), n = 1;
        else
            fwrite(p, 1, (size_t)n, out);
        p += n ? n : 1;
    }
    fputc('"', out);
}

void mk_cli_json_number(FILE *out, double v, bool single)
{
    if (!isfinite(v)) { /* JSON has no NaN or infinity */
        fputs("null", out);
        return;
    }
    /* the fewest digits that read back as the same float (or double) */
    char buf[40];
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, sizeof buf, "%.*g", digits, v);
        double back = strtod(buf, NULL);
        if (single ? (float)back == (float)v : back == v) {
            /* 200, not 2e+02: more digits turn %g to fixed notation */
            if (strchr(buf, 'e') && fabs(v) >= 1e-4 && fabs(v) < 1e15 && digits < 17)
                continue;
            break;
        }
    }
    fputs(buf, out);
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

int mk_cli_load_unit(const char *path, bool lenient, mk_unit **out, char *problem,
                     size_t problem_size)
{
    if (problem && problem_size)
        problem[0] = '\0';
    mk_unit_options opt = {0};
    opt.skip_heuristics = true;
    opt.lenient_config = lenient;
    mk_report *rep = NULL;
    mk_error err;
    if (mk_report_create(NULL, &rep, &err) != MK_OK) {
        mk_cli_print_error(&err);
        return MK_EXIT_INVALID;
    }
    mk_status st = mk_unit_load(path, &opt, NULL, out, rep, &err);
    /* every problem, not only the first: a typo should cost one round trip */
    bool first = true;
    for (uint32_t i = 0; i < mk_report_count(rep); i++) {
        const mk_diagnostic *d = mk_report_item(rep, i);
        if (d->severity == MK_SEVERITY_NOTE)
            continue; /* naming notes are validate's */
        mk_error e;
        mk_error_set(&e, MK_ERR_PARSE, d->file, d->line, "%s%s",
                     d->severity == MK_SEVERITY_WARNING ? "warning: " : "", d->message);
        mk_cli_print_error(&e);
        if (first && problem && problem_size)
            mk_error_format(&e, problem, problem_size);
        first = false;
    }
    if (st != MK_OK && mk_report_error_count(rep) + mk_report_warning_count(rep) == 0)
        mk_cli_print_error(&err);
    mk_report_destroy(rep);
    return st == MK_OK ? MK_EXIT_OK : MK_EXIT_INVALID;
}

void mk_cli_real_name(const char *path, char *buf, size_t size)
{
    /* realpath: "knight/", "." and "../knight" all name the folder "knight" */
    char *real = realpath(path, NULL);
    const char *p = real ? real : path;
    size_t end = strlen(p);
    while (end > 1 && p[end - 1] == '/')
        end--;
    size_t start = end;
    while (start > 0 && p[start - 1] != '/')
        start--;
    int n = (int)(end - start);
    snprintf(buf, size, "%.*s", n, p + start);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf && !mk_cli_is_dir(path)) /* a file: drop .gltf/.glb */
        *dot = '\0';
    if (!buf[0] || strcmp(buf, "/") == 0 || buf[0] == '.')
        snprintf(buf, size, "%s", buf[0] == '.' && buf[1] ? buf + 1 : "unit");
    free(real);
}

const char *mk_cli_bytes_text(uint64_t bytes, char *buf, size_t size)
{
    if (bytes < 1024)
        snprintf(buf, size, "%llu bytes", (unsigned long long)bytes);
    else if (bytes < (uint64_t)1 << 20)
        snprintf(buf, size, "%.1f KiB", (double)bytes / 1024.0);
    else if (bytes < (uint64_t)1 << 30)
        snprintf(buf, size, "%.1f MiB", (double)bytes / 1048576.0);
    else
        snprintf(buf, size, "%.2f GiB", (double)bytes / 1073741824.0);
    return buf;
}

uint64_t mk_cli_gltf_disk_bytes(const mk_gltf *g, const char *path)
{
    struct stat st;
    uint64_t total = stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
    const char *slash = strrchr(path, '/');
    int dir = slash ? (int)(slash - path + 1) : 0;
    for (uint32_t b = 0; b < g->buffer_count; b++) {
        const char *uri = g->buffers[b].uri;
        if (!uri || strncmp(uri, "data:", 5) == 0)
            continue; /* inside the file already */
        /* percent-decoding: "%20" and friends, as the loader reads them */
        char name[4096];
        size_t n = 0;
        for (const char *p = uri; *p && n + 1 < sizeof name; p++) {
            unsigned v;
            if (p[0] == '%' && sscanf(p + 1, "%2x", &v) == 1 && p[1] && p[2])
                name[n++] = (char)v, p += 2;
            else
                name[n++] = *p;
        }
        name[n] = '\0';
        char full[8192];
        snprintf(full, sizeof full, "%.*s%s", dir, path, name);
        if (stat(full, &st) == 0)
            total += (uint64_t)st.st_size;
    }
    return total;
}

/* A copy of the unit's clips with one interpolation forced on all of them. */
bool mk_cli_force_interpolation(const mk_clip_set *src, mk_interpolation interp,
                                mk_clip_set **out)
{
    mk_clip_desc *d = calloc(src->clip_count, sizeof *d);
    size_t total = 0;
    for (uint32_t c = 0; c < src->clip_count; c++)
        total += src->clips[c].frame_count;
    bool *no_blend = calloc(total ? total : 1, sizeof *no_blend);
    size_t event_total = 0;
    for (uint32_t c = 0; c < src->clip_count; c++)
        event_total += src->clips[c].event_count;
    mk_clip_event_desc *events = calloc(event_total ? event_total : 1, sizeof *events);
    if (!d || !no_blend || !events) {
        free(d), free(no_blend), free(events);
        mk_cli_fail("out of memory");
        return false;
    }
    size_t at = 0, ev = 0;
    for (uint32_t c = 0; c < src->clip_count; c++) {
        const mk_clip *k = &src->clips[c];
        d[c].name = k->name;
        d[c].frame_count = k->frame_count;
        d[c].frames = k->frames;
        d[c].durations_us = k->durations_us;
        d[c].loop_frame = k->loop_frame;
        d[c].once = k->once;
        d[c].next = k->next_clip != MK_NONE ? src->clips[k->next_clip].name : NULL;
        for (uint32_t f = 0; f < k->frame_count; f++)
            no_blend[at + f] = (k->frame_flags[f] & MK_CLIP_FRAME_NO_BLEND) != 0;
        d[c].no_blend = no_blend + at;
        at += k->frame_count;
        d[c].interpolation = interp;
        d[c].events = events + ev;
        for (uint32_t e = 0; e < k->event_count; e++, ev++) {
            events[ev].frame = k->events[e].frame;
            events[ev].name = k->events[e].name;
        }
        d[c].event_count = k->event_count;
    }
    mk_clip_set_desc sd = {d, src->clip_count, src->frame_set_count};
    mk_error err;
    bool ok = mk_clip_set_create(&sd, NULL, out, &err) == MK_OK;
    if (!ok)
        mk_cli_print_error(&err);
    free(d), free(no_blend), free(events);
    return ok;
}

int mk_cli_parse_interpolation(const char *m)
{
    return strcmp(m, "linear") == 0   ? MK_INTERPOLATION_LINEAR
           : strcmp(m, "step") == 0   ? MK_INTERPOLATION_STEP
           : strcmp(m, "smooth") == 0 ? MK_INTERPOLATION_SMOOTH
                                      : -2;
}
