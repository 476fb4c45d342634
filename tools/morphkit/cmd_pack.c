/* morphkit pack UNIT_DIR -o UNIT.glb
 * morphkit pack LIBRARY_ROOT --out-dir DIR [-j N]
 * Validates each unit (an invalid one is not packed: the same report as
 * `validate`, exit 1), packs it with mk_unit_pack and writes the file
 * atomically: a temporary file in the same folder, fsync, rename. A failed
 * pack leaves an existing output untouched. Library units are packed by
 * N worker threads; the summary table comes in unit order. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static void help(FILE *out)
{
    fprintf(out,
            "usage: morphkit pack UNIT_DIR -o UNIT.glb|UNIT.gltf\n"
            "       morphkit pack LIBRARY_ROOT --out-dir DIR [-j N]\n\n"
            "Packs a unit folder into one standard glTF 2.0 binary (.glb) that any\n"
            "glTF viewer plays and morphkit plays exactly as the folder: one frame\n"
            "is the base (the one that makes the smallest file), every other\n"
            "distinct frame a morph target (its deltas taken from the base or from\n"
            "another target's pose, whichever is smaller), every animation a glTF\n"
            "animation keyed to match the player, and what glTF cannot say\n"
            "(durations, loops, once/next, no-blend, events) in extras.\n"
            "Every command that takes a unit folder takes the packed file too.\n"
            "Units are validated first: an invalid unit is not packed. Outputs are\n"
            "written atomically (temporary file + rename).\n\n"
            "  -o FILE          the output for one unit (.gltf: with a .bin beside it)\n"
            "  --out-dir DIR    pack every unit of a library root (or one unit) into\n"
            "                   DIR/<unit>.glb\n"
            "  -j N             units packed in parallel (default: the number of cores)\n"
            "  --max-error E    largest position error, relative to the unit's size\n"
            "                   (the median of its frames' bounding-box diagonals;\n"
            "                   default 1e-4)\n"
            "  --bits N         position grid of 2^N - 1 steps over the bounding box\n"
            "                   (N 1..15) instead of a step of twice --max-error\n"
            "  --normal-bits N  8 (default) or 16\n"
            "  --flat-normals   a unit flat shaded in every frame is packed without\n"
            "                   normals when that is smaller: viewers shade each\n"
            "                   triangle with its own normal, morphkit computes them\n"
            "                   on reading (between frames a viewer shades the blended\n"
            "                   faces, morphkit blends the frames' normals)\n"
            "  --plain          float and dense: no quantization, no sparse targets\n"
            "  --compress       EXT_meshopt_compression (meshoptimizer) on all data:\n"
            "                   smaller, for viewers with a meshopt decoder (the\n"
            "                   vertices stored in OBJ `v` order when that is smaller)\n"
            "  --every-frame    one morph target per frame, equal frames too (input for\n"
            "                   other glTF tools; morphkit plays it the same)\n"
            "  --no-texcoords   leave the texture coordinates out (a unit drawn without\n"
            "                   textures; refused when a material has one); the\n"
            "                   vertices of a texture seam become one\n"
            "  --quiet          no summary table\n\n"
            "exit codes: 0 success, 1 a unit is invalid or could not be written,\n"
            "2 usage error\n");
}

/* Writes data to path whole or not at all (the library's atomic writer: a
 * temporary file beside it, then a rename); on failure the message is
 * printed and an earlier file at path is unchanged. */
static bool write_atomic(const char *path, const void *data, size_t size)
{
    mk_error err;
    if (mk_file_write(NULL, path, data, size, &err) != MK_OK) {
        mk_cli_fail("%s: %s (any earlier file is unchanged)", path, err.message);
        return false;
    }
    return true;
}

/* A .gltf output: the GLB's JSON chunk with buffers[0] pointing at a .bin
 * beside it (written first, so the .gltf never names a missing file). */
static bool write_gltf(const char *path, const uint8_t *glb, size_t size)
{
    uint32_t jlen = (uint32_t)glb[12] | (uint32_t)glb[13] << 8 | (uint32_t)glb[14] << 16 |
                    (uint32_t)glb[15] << 24;
    const char *json = (const char *)glb + 20;
    const uint8_t *bin = glb + 20 + jlen + 8;
    size_t bin_size = size - 20 - jlen - 8;
    size_t n = strlen(path);
    char *bin_path = malloc(n + 5), *uri = malloc(3 * n + 8);
    const char *key = "\"buffers\":[{", *at = NULL;
    for (size_t i = 0; i + strlen(key) <= jlen && !at; i++)
        if (memcmp(json + i, key, strlen(key)) == 0)
            at = json + i + strlen(key);
    if (!bin_path || !uri || !at) {
        free(bin_path), free(uri);
        mk_cli_fail("%s: out of memory", path);
        return false;
    }
    snprintf(bin_path, n + 5, "%.*s.bin", (int)(n - 5), path); /* x.gltf -> x.bin */
    /* the uri: the .bin's file name, percent-encoded (RFC 3986 unreserved kept) */
    const char *base = strrchr(bin_path, '/');
    base = base ? base + 1 : bin_path;
    size_t u = 0;
    for (const unsigned char *p = (const unsigned char *)base; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            *p == '-' || *p == '.' || *p == '_' || *p == '~')
            uri[u++] = (char)*p;
        else
            u += (size_t)sprintf(uri + u, "%%%02X", *p);
    }
    uri[u] = '\0';
    size_t head = (size_t)(at - json), out_size = jlen + u + 10;
    char *text = malloc(out_size);
    bool ok = text != NULL;
    if (ok) {
        int len = snprintf(text, out_size, "%.*s\"uri\":\"%s\",%.*s", (int)head, json, uri,
                           (int)(jlen - head), at);
        while (len > 0 && text[len - 1] == ' ') /* the GLB's chunk padding */
            len--;
        ok = write_atomic(bin_path, bin, bin_size) && write_atomic(path, text, (size_t)len);
    }
    free(text), free(bin_path), free(uri);
    return ok;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

/* ---- one unit ------------------------------------------------------------------ */

typedef struct job {
    const char *unit_path;
    char *out_path;
    int exit_code;
    mk_pack_stats stats;
    uint64_t bytes_before;
    bool has_normals; /* the unit's frames have normals */
    bool written;
    char message[MK_ERROR_FILE_MAX + MK_ERROR_MESSAGE_MAX + 64];
    mk_report *report; /* kept for printing when the unit is invalid */
} job;

static void pack_one(job *j, const mk_pack_options *options)
{
    mk_unit *unit = NULL;
    mk_error err;
    if (!j->report && mk_report_create(NULL, &j->report, &err) != MK_OK) {
        snprintf(j->message, sizeof j->message, "%s: out of memory", j->unit_path);
        j->exit_code = MK_EXIT_INVALID;
        return;
    }
    if (mk_unit_load(j->unit_path, NULL, NULL, &unit, j->report, &err) != MK_OK) {
        j->exit_code = MK_EXIT_INVALID;
        return;
    }
    void *data = NULL;
    size_t size = 0;
    j->bytes_before = unit->bytes_on_disk;
    j->has_normals = unit->frames->normals != NULL;
    if (mk_unit_pack(unit, options, NULL, &data, &size, &j->stats, j->report, &err) != MK_OK) {
        char buf[MK_ERROR_FILE_MAX + MK_ERROR_MESSAGE_MAX + 32];
        mk_error_format(&err, buf, sizeof buf);
        snprintf(j->message, sizeof j->message, "%s: %s", j->unit_path, buf);
        j->exit_code = MK_EXIT_INVALID;
    } else if (!(ends_with(j->out_path, ".gltf") ? write_gltf(j->out_path, data, size)
                                                  : write_atomic(j->out_path, data, size))) {
        j->exit_code = MK_EXIT_INVALID;
    } else {
        j->written = true;
    }
    free(data);
    mk_unit_destroy(unit);
}

static void print_report(const job *j)
{
    const mk_report *rep = j->report;
    if (!rep)
        return;
    if (j->exit_code != MK_EXIT_OK && !j->written && mk_report_error_count(rep))
        printf("%s: INVALID: %u error%s, %u warning%s (not packed)\n", j->unit_path,
               mk_report_error_count(rep), mk_report_error_count(rep) == 1 ? "" : "s",
               mk_report_warning_count(rep), mk_report_warning_count(rep) == 1 ? "" : "s");
    for (uint32_t i = 0; i < mk_report_count(rep); i++) {
        const mk_diagnostic *d = mk_report_item(rep, i);
        if (d->severity == MK_SEVERITY_NOTE)
            continue; /* naming notes are validate's */
        printf("  %s[%s]: %s", d->severity == MK_SEVERITY_ERROR ? "error" : "warning",
               mk_check_name(d->check), d->file);
        if (d->line > 0)
            printf(":%d", d->line);
        printf(": %s", d->message);
        if (d->other_file[0]) {
            printf(" (compared with %s", d->other_file);
            if (d->other_line > 0)
                printf(":%d", d->other_line);
            printf(")");
        }
        printf("\n");
    }
    if (j->message[0])
        mk_cli_fail("%s", j->message);
}

/* ---- workers ---------------------------------------------------------------------- */

typedef struct pool {
    job *jobs;
    const mk_pack_options *options;
    uint32_t count, next, done;
    bool progress;
    pthread_mutex_t lock;
} pool;

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        uint32_t i = p->next < p->count ? p->next++ : MK_NONE;
        pthread_mutex_unlock(&p->lock);
        if (i == MK_NONE)
            return NULL;
        pack_one(&p->jobs[i], p->options);
        pthread_mutex_lock(&p->lock);
        p->done++;
        if (p->progress)
            fprintf(stderr, "\rpacking: %u/%u units", p->done, p->count);
        pthread_mutex_unlock(&p->lock);
    }
}

static void run_jobs(job *jobs, const mk_pack_options *options, uint32_t count, uint32_t threads)
{
    pool p = {jobs, options, count, 0, 0, count > 1 && isatty(2), PTHREAD_MUTEX_INITIALIZER};
    if (threads > count)
        threads = count;
    pthread_t *t = threads > 1 ? malloc(threads * sizeof *t) : NULL;
    uint32_t started = 0;
    for (uint32_t i = 0; t && i < threads; i++)
        if (pthread_create(&t[i], NULL, worker, &p) == 0)
            started++;
    if (!started)
        worker(&p); /* one thread, or none could be started */
    for (uint32_t i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    free(t);
    if (p.progress)
        fprintf(stderr, "\n");
}

static void print_summary(const job *jobs, uint32_t count)
{
    printf("%-20s %7s %8s %12s %12s %7s %5s %11s %11s %8s\n", "unit", "frames", "targets",
           "bytes before", "bytes after", "ratio", "bits", "max error", "of size", "normals");
    for (uint32_t i = 0; i < count; i++) {
        const job *j = &jobs[i];
        const char *name = strrchr(j->out_path, '/');
        name = name ? name + 1 : j->out_path;
        if (!j->written) {
            printf("%-20s %7s\n", name, "FAILED");
            continue;
        }
        double ratio = j->bytes_before ? 100.0 * (double)j->stats.bytes / (double)j->bytes_before : 0;
        char bits[16];
        snprintf(bits, sizeof bits, "%u", j->stats.position_bits);
        double rel = j->stats.unit_size > 0 ? j->stats.max_position_error / j->stats.unit_size : 0;
        /* stored (its error is the normals'), computed flat on reading, or none */
        const char *normals = j->stats.flat_normals ? "flat" : j->has_normals ? "stored" : "none";
        printf("%-20s %7u %8u %12llu %12zu %6.1f%% %5s %11.3g %11.3g %8s\n", name,
               j->stats.frame_count, j->stats.target_count, (unsigned long long)j->bytes_before,
               j->stats.bytes, ratio, j->stats.position_bits ? bits : "float",
               j->stats.max_position_error, rel, normals);
    }
}

static char *join_out(const char *dir, const char *unit_path)
{
    size_t n = strlen(unit_path);
    while (n > 1 && unit_path[n - 1] == '/')
        n--;
    size_t s = n;
    while (s > 0 && unit_path[s - 1] != '/')
        s--;
    size_t len = strlen(dir) + (n - s) + 8;
    char *out = malloc(len);
    if (out)
        snprintf(out, len, "%s/%.*s.glb", dir, (int)(n - s), unit_path + s);
    return out;
}

int mk_cmd_pack(int argc, char **argv)
{
    const char *input = NULL, *out_file = NULL, *out_dir = NULL;
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    bool quiet = false;
    mk_pack_options po;
    memset(&po, 0, sizeof po);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        bool has_value = i + 1 < argc;
        if (mk_cli_is_help(arg)) {
            help(stdout);
            return MK_EXIT_OK;
        } else if (strcmp(arg, "-o") == 0 && has_value) {
            out_file = argv[++i];
        } else if (strcmp(arg, "--out-dir") == 0 && has_value) {
            out_dir = argv[++i];
        } else if (strcmp(arg, "-j") == 0 && has_value) {
            char *end;
            threads = strtol(argv[++i], &end, 10);
            if (*end || threads < 1 || threads > 1024) {
                mk_cli_fail("pack: -j wants a number of threads 1..1024, not '%s'", argv[i]);
                return MK_EXIT_USAGE;
            }
        } else if (strcmp(arg, "--quiet") == 0) {
            quiet = true;
        } else if (strcmp(arg, "--plain") == 0) {
            po.plain = true;
        } else if (strcmp(arg, "--compress") == 0) {
            po.compress = true;
        } else if (strcmp(arg, "--every-frame") == 0) {
            po.every_frame = true;
        } else if (strcmp(arg, "--no-texcoords") == 0) {
            po.no_texcoords = true;
        } else if (strcmp(arg, "--flat-normals") == 0) {
            po.flat_normals = true;
        } else if ((strcmp(arg, "--bits") == 0 || strcmp(arg, "--normal-bits") == 0) && has_value) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            bool normal = arg[2] == 'n';
            if (*end || (normal ? v != 8 && v != 16 : v < 1 || v > 15)) {
                mk_cli_fail("pack: %s wants %s, not '%s'", arg, normal ? "8 or 16" : "1..15",
                            argv[i]);
                return MK_EXIT_USAGE;
            }
            *(normal ? &po.normal_bits : &po.position_bits) = (uint32_t)v;
        } else if (strcmp(arg, "--max-error") == 0 && has_value) {
            char *end;
            po.max_position_error = strtod(argv[++i], &end);
            if (*end || !(po.max_position_error > 0) || po.max_position_error >= 1) {
                mk_cli_fail("pack: --max-error wants a number in (0, 1), not '%s'", argv[i]);
                return MK_EXIT_USAGE;
            }
        } else if (arg[0] == '-') {
            mk_cli_fail("pack: unknown option or missing value '%s' (see morphkit pack --help)", arg);
            return MK_EXIT_USAGE;
        } else if (input) {
            mk_cli_fail("pack: one input folder only (see morphkit pack --help)");
            return MK_EXIT_USAGE;
        } else {
            input = arg;
        }
    }
    if (!input || (!out_file == !out_dir)) {
        mk_cli_fail("pack: an input folder and either -o FILE or --out-dir DIR are needed "
                    "(see morphkit pack --help)");
        return MK_EXIT_USAGE;
    }
    if (threads < 1)
        threads = 1;
    if (out_file && !mk_is_unit_folder(input, NULL)) {
        mk_cli_fail("%s: not a unit folder (-o packs one unit; use --out-dir for a library)",
                    input);
        return MK_EXIT_INVALID;
    }
    if (out_dir && !mk_cli_is_dir(out_dir) && mkdir(out_dir, 0777) != 0) {
        mk_cli_fail("%s: cannot create the output folder: %s", out_dir, strerror(errno));
        return MK_EXIT_INVALID;
    }
    char **units = NULL;
    uint32_t count = 0;
    if (out_file) {
        units = malloc(sizeof *units);
        if (!units || !(units[0] = strdup(input))) {
            free(units);
            mk_cli_fail("out of memory");
            return MK_EXIT_INVALID;
        }
        count = 1;
    } else if (mk_cli_unit_paths(input, &units, &count) != MK_EXIT_OK) {
        return MK_EXIT_INVALID;
    }
    job *jobs = calloc(count, sizeof *jobs);
    int exit_code = jobs ? MK_EXIT_OK : MK_EXIT_INVALID;
    for (uint32_t i = 0; jobs && i < count; i++) {
        jobs[i].unit_path = units[i];
        jobs[i].out_path = out_file ? strdup(out_file) : join_out(out_dir, units[i]);
        if (!jobs[i].out_path)
            exit_code = MK_EXIT_INVALID;
    }
    if (exit_code == MK_EXIT_OK) {
        run_jobs(jobs, &po, count, (uint32_t)threads);
        for (uint32_t i = 0; i < count; i++) {
            print_report(&jobs[i]);
            if (jobs[i].exit_code != MK_EXIT_OK)
                exit_code = MK_EXIT_INVALID;
        }
        if (!quiet)
            print_summary(jobs, count);
    } else {
        mk_cli_fail("out of memory");
    }
    for (uint32_t i = 0; jobs && i < count; i++) {
        free(jobs[i].out_path);
        mk_report_destroy(jobs[i].report);
    }
    free(jobs);
    mk_unit_list_free(NULL, units, count);
    return exit_code;
}
