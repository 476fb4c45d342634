/* morphkit repair UNIT_DIR --out DIR [--json] | --in-place
 * Writes a copy of a unit with every frame in the first frame's vertex
 * order (the plan comes from mk_unit_repair_plan). The input folder is
 * never modified (unless --in-place, which keeps a .bak of each changed
 * file); each output file is written to a temporary file in the target
 * folder and renamed over its name, so a reader never sees half a file. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "morphkit/repair.h"

static void help(FILE *out)
{
    fprintf(out,
            "usage: morphkit repair [--json] UNIT_DIR --out DIR\n"
            "       morphkit repair [--json] UNIT_DIR --in-place\n\n"
            "Puts every frame of a unit in the first frame's vertex order:\n"
            "  - a frame that is the same mesh numbered differently (vertices and\n"
            "    faces renumbered together, as an export without \"keep vertex order\"\n"
            "    does) is matched exactly by its connectivity and rewritten;\n"
            "  - a frame whose positions are scrambled (faces right, some v lines\n"
            "    holding other vertices' positions) gets them back from what its\n"
            "    neighbouring frames predict (across a loop or a Next switch, as\n"
            "    animation.cfg plays them), and only when the result checks out.\n"
            "A frame that cannot be repaired confidently is copied unchanged and\n"
            "reported. Rewritten frames follow the first frame's file line by line.\n"
            "Other files in the folder are copied unchanged (sub-folders are not).\n\n"
            "  --out DIR    write the repaired unit to DIR (created if missing; it must\n"
            "               not be UNIT_DIR); the input folder is never modified\n"
            "  --in-place   rewrite changed frames in UNIT_DIR, keeping each original\n"
            "               as NAME.bak\n"
            "  --json       one JSON object on stdout\n\n"
            "exit codes: 0 every frame is in order now, 1 a frame could not be\n"
            "repaired (or the unit cannot be read), 2 usage error\n");
}

/* Writes size bytes to dir/name, whole or not at all (the library's atomic
 * writer: a temporary file in the same folder, then a rename). */
static bool write_atomic(const char *dir, const char *name, const char *data, size_t size)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) {
        mk_cli_fail("%s/%s: path too long", dir, name);
        return false;
    }
    mk_error err;
    if (mk_file_write(NULL, path, data, size, &err) != MK_OK) {
        mk_cli_print_error(&err);
        return false;
    }
    return true;
}

static bool copy_file(const char *from_dir, const char *to_dir, const char *name, const char *as)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", from_dir, name) >= (int)sizeof path) {
        mk_cli_fail("%s/%s: path too long", from_dir, name);
        return false;
    }
    void *data = NULL;
    size_t size = 0;
    mk_error err;
    if (mk_file_read(NULL, path, NULL, 0, &data, &size, &err) != MK_OK) {
        mk_cli_print_error(&err);
        return false;
    }
    bool ok = write_atomic(to_dir, as, data, size);
    mk_file_release(NULL, NULL, data, size);
    return ok;
}

static const mk_unit_frame_repair *frame_named(const mk_unit_repair *r, const char *name)
{
    for (uint32_t f = 0; f < r->files->frame_count; f++)
        if (strcmp(r->files->frame_files[f], name) == 0)
            return &r->frames[f];
    return NULL;
}

/* Writes the repaired unit; returns the number of files copied unchanged,
 * or -1 on a write error. */
static long write_unit(const mk_unit_repair *r, const char *in, const char *out, bool in_place)
{
    DIR *d = opendir(in);
    if (!d) {
        mk_cli_fail("%s: cannot open folder: %s", in, strerror(errno));
        return -1;
    }
    long copied = 0;
    bool ok = true;
    for (struct dirent *e; ok && (e = readdir(d));) {
        char path[PATH_MAX];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", in, e->d_name);
        if (e->d_name[0] == '.' || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        const mk_unit_frame_repair *fr = frame_named(r, e->d_name);
        if (fr && fr->text) {
            if (in_place) {
                char bak[NAME_MAX + 8];
                snprintf(bak, sizeof bak, "%s.bak", e->d_name);
                ok = copy_file(in, in, e->d_name, bak);
            }
            ok = ok && write_atomic(out, e->d_name, fr->text, fr->text_size);
        } else if (!in_place) {
            ok = copy_file(in, out, e->d_name, e->d_name);
            copied++;
        }
    }
    closedir(d);
    return ok ? copied : -1;
}

static const char *action_of(const mk_unit_frame_repair *f)
{
    return f->failed ? "not-repaired"
           : f->renumbered && f->unscrambled ? "renumbered+unscrambled"
           : f->renumbered  ? "renumbered"
           : f->unscrambled ? "unscrambled"
                            : "unchanged";
}

static void print_text(const char *in, const char *out, const mk_unit_repair *r, long copied)
{
    const char *first = r->files->frame_files[0];
    for (uint32_t f = 0; f < r->files->frame_count; f++) {
        const mk_unit_frame_repair *fr = &r->frames[f];
        const char *name = r->files->frame_files[f];
        if (fr->failed)
            printf("  %s: NOT repaired (left as it is): %s\n", name, fr->message);
        if (fr->renumbered)
            printf("  %s: renumbered: the same mesh as %s in another vertex order; put back "
                   "in %s's order (%u vertices)\n",
                   name, first, first, r->vertex_count);
        if (fr->unscrambled && fr->twin != MK_NONE)
            printf("  %s: scrambled: the positions of %s in another order; given its order "
                   "(%u vertices moved)\n",
                   name, r->files->frame_files[fr->twin], fr->moved_count);
        else if (fr->unscrambled)
            printf("  %s: scrambled: %u vertices moved back to their places (confidence %.2f)\n",
                   name, fr->moved_count, (double)fr->confidence);
    }
    printf("%s: %u of %u frames repaired, %u could not be repaired%s%s", in, r->changed_count,
           r->files->frame_count, r->failed_count, out ? "; written to " : " (in place)",
           out ? out : "");
    if (out)
        printf(" (%ld other files copied unchanged)", copied);
    printf("\n");
}

static void print_json(const char *in, const char *out, const mk_unit_repair *r, long copied)
{
    printf("{\"version\": %d, \"unit\": ", MK_CLI_JSON_VERSION);
    mk_cli_json_string(stdout, in);
    printf(", \"out\": ");
    if (out)
        mk_cli_json_string(stdout, out);
    else
        printf("null");
    printf(", \"vertices\": %u, \"repaired\": %u, \"failed\": %u, \"copied\": %ld, \"frames\": [",
           r->vertex_count, r->changed_count, r->failed_count, copied);
    for (uint32_t f = 0; f < r->files->frame_count; f++) {
        const mk_unit_frame_repair *fr = &r->frames[f];
        printf("%s\n  {\"file\": ", f ? "," : "");
        mk_cli_json_string(stdout, r->files->frame_files[f]);
        printf(", \"action\": \"%s\", \"renumbered\": %s, \"unscrambled\": %s", action_of(fr),
               fr->renumbered ? "true" : "false", fr->unscrambled ? "true" : "false");
        if (fr->unscrambled)
            printf(", \"moved\": %u, \"confidence\": %.3f", fr->moved_count, (double)fr->confidence);
        if (fr->unscrambled && fr->twin != MK_NONE) {
            printf(", \"twin\": ");
            mk_cli_json_string(stdout, r->files->frame_files[fr->twin]);
        }
        if (fr->failed) {
            printf(", \"message\": ");
            mk_cli_json_string(stdout, fr->message);
        }
        printf("}");
    }
    printf("\n]}\n");
}

int mk_cmd_repair(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    bool json = false, in_place = false;
    for (int i = 1; i < argc; i++) {
        if (mk_cli_is_help(argv[i])) {
            help(stdout);
            return MK_EXIT_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--in-place") == 0) {
            in_place = true;
        } else if (strcmp(argv[i], "--out") == 0) {
            if (++i == argc) {
                mk_cli_fail("repair: --out needs a folder");
                return MK_EXIT_USAGE;
            }
            out = argv[i];
        } else if (argv[i][0] == '-') {
            mk_cli_fail("repair: unknown option '%s' (see morphkit repair --help)", argv[i]);
            return MK_EXIT_USAGE;
        } else if (in) {
            mk_cli_fail("repair: one unit folder at a time ('%s' and '%s')", in, argv[i]);
            return MK_EXIT_USAGE;
        } else {
            in = argv[i];
        }
    }
    if (!in || (!out && !in_place) || (out && in_place)) {
        if (in && out && in_place)
            mk_cli_fail("repair: --out and --in-place exclude each other");
        help(stderr);
        return MK_EXIT_USAGE;
    }
    if (!mk_cli_is_dir(in) || !mk_is_unit_folder(in, NULL)) {
        mk_cli_fail("%s: not a unit folder (frames named <Animation>_<N>.obj)", in);
        return MK_EXIT_INVALID;
    }
    if (out) {
        if (mkdir(out, 0777) != 0 && errno != EEXIST) {
            mk_cli_fail("%s: cannot create folder: %s", out, strerror(errno));
            return MK_EXIT_INVALID;
        }
        struct stat a, b;
        if (!mk_cli_is_dir(out) || stat(in, &a) != 0 || stat(out, &b) != 0) {
            mk_cli_fail("%s: not a folder", out);
            return MK_EXIT_INVALID;
        }
        if (a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
            mk_cli_fail("repair: --out is the input folder; use --in-place to rewrite it");
            return MK_EXIT_USAGE;
        }
    }
    mk_unit_repair *r = NULL;
    mk_error err;
    if (mk_unit_repair_plan(in, NULL, NULL, &r, &err) != MK_OK) {
        mk_cli_print_error(&err);
        return MK_EXIT_INVALID;
    }
    long copied = write_unit(r, in, out ? out : in, in_place);
    int code = copied < 0 || r->failed_count ? MK_EXIT_INVALID : MK_EXIT_OK;
    if (copied >= 0) {
        if (json)
            print_json(in, out, r, copied);
        else
            print_text(in, out, r, copied);
    }
    mk_unit_repair_destroy(r);
    return code;
}
