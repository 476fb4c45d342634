/* Packed units: file size and load time against the unit folder.
 *
 * For the demo units and two generated units (a 100k-vertex body whose
 * frames all move, and a small body where one limb moves and poses repeat)
 * it prints the folder's bytes and load time (mk_unit_load, heuristics off)
 * beside the packed file in three forms (plain float, the default quantized
 * one, --compress): bytes, share of the folder, largest position error
 * relative to the unit's size, and load time (mk_unit_load_packed from the
 * file; both from the page cache; the folder and the forms timed in turn,
 * round after round, each its best round). `--quick` uses small sizes (CTest smoke
 * test); `--write-units DIR` only writes the generated unit folders (for
 * bench/pack_vs_gltfpack.mjs); `--unit DIR` (repeatable) measures that
 * folder too (bench/blender_unit.py makes one as Blender exports it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_common.h"
#include "morphkit/morphkit.h"

/* ---- generated units ---------------------------------------------------------- */

/* A UV sphere of rings x segments vertices; frame pose p moves vertex i by
 * a smooth wave, all vertices (limb = 0) or only those with y > 0.6 (the
 * "limb"). Writes OBJ text with v, vt, vn and quads as triangles. */
static void write_sphere_frame(const char *path, int rings, int segs, int pose, int limb)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    const double pi = 3.14159265358979;
    for (int r = 0; r < rings; r++)
        for (int s = 0; s < segs; s++) {
            double th = pi * r / (rings - 1), ph = 2 * pi * s / segs;
            double x = sin(th) * cos(ph), y = cos(th), z = sin(th) * sin(ph);
            double amp = limb ? (y > 0.6 ? 0.3 * (y - 0.6) : 0.0) : 0.05;
            double d = pose ? amp * sin(pose * 0.9 + 3 * x + 2 * z) : 0.0;
            fprintf(f, "v %.6f %.6f %.6f\n", x + d, y + 0.5 * d, z - d);
        }
    for (int r = 0; r < rings; r++)
        for (int s = 0; s < segs; s++)
            fprintf(f, "vt %.5f %.5f\n", (double)s / segs, (double)r / (rings - 1));
    for (int r = 0; r < rings; r++)
        for (int s = 0; s < segs; s++) {
            double th = pi * r / (rings - 1), ph = 2 * pi * s / segs;
            fprintf(f, "vn %.5f %.5f %.5f\n", sin(th) * cos(ph), cos(th), sin(th) * sin(ph));
        }
    for (int r = 0; r + 1 < rings; r++)
        for (int s = 0; s < segs; s++) {
            int a = r * segs + s + 1, b = r * segs + (s + 1) % segs + 1;
            int c = a + segs, e = b + segs;
            fprintf(f, "f %d/%d/%d %d/%d/%d %d/%d/%d\nf %d/%d/%d %d/%d/%d %d/%d/%d\n", a, a, a, c,
                    c, c, e, e, e, a, a, a, e, e, e, b, b, b);
        }
    fclose(f);
}

/* Writes dir/<Anim>_<k>.obj and an animation.cfg; returns dir. */
static const char *make_unit(const char *root, const char *name, int rings, int segs, int limb)
{
    static char dir[4][1024];
    static int next;
    char *d = dir[next++ & 3];
    snprintf(d, sizeof dir[0], "%s/%s", root, name);
    mkdir(d, 0777);
    char path[1200];
    /* Walk: 6 distinct poses; Idle: poses 0, 7, 0, 7 (repeats, and the base) */
    for (int k = 1; k <= 6; k++) {
        snprintf(path, sizeof path, "%s/Walk_%d.obj", d, k);
        write_sphere_frame(path, rings, segs, k, limb);
    }
    static const int idle[4] = {0, 7, 0, 7};
    for (int k = 1; k <= 4; k++) {
        snprintf(path, sizeof path, "%s/Idle_%d.obj", d, k);
        write_sphere_frame(path, rings, segs, idle[k - 1], limb);
    }
    snprintf(path, sizeof path, "%s/animation.cfg", d);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("FrameTime Walk 100\nLoop Walk 2\nInterpolation Idle smooth\nFrameTime Idle 250\n"
              "Event Walk 3 step\n",
              f);
        fclose(f);
    }
    return d;
}

/* ---- measuring ------------------------------------------------------------------ */

static mk_unit *load_folder(const char *dir)
{
    mk_unit_options o = {0};
    o.skip_heuristics = true;
    mk_unit *u = NULL;
    mk_error e;
    if (mk_unit_load(dir, &o, NULL, &u, NULL, &e) != MK_OK) {
        fprintf(stderr, "%s: %s\n", dir, e.message);
        exit(1);
    }
    return u;
}

static void write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

static void load_packed(const char *path)
{
    mk_unit *p = NULL;
    mk_error e;
    if (mk_unit_load_packed(path, NULL, NULL, &p, &e) != MK_OK) {
        fprintf(stderr, "%s: %s\n", path, e.message);
        exit(1);
    }
    mk_unit_destroy(p);
}

enum { FORMS = 5 };

/* The folder and each form are timed in turn, round after round, and each
 * keeps its best round: the machine's load drifts (this one's system calls
 * cost twice as much at some hours as at others, and the folder makes ten
 * times the calls a pack makes), so timing them in the same stretch keeps
 * the ratios fair. */
static void bench_unit(const char *name, const char *dir, const char *tmp, double min_s,
                       int rounds)
{
    mk_unit *u = load_folder(dir);
    /* flat, flat+cmp: --flat-normals (the demo units are flat shaded; the
     * generated ones are smooth and keep their normals) */
    static const char *forms[FORMS] = {"plain", "default", "compress", "flat", "flat+cmp"};
    char paths[FORMS][1200];
    size_t sizes[FORMS];
    mk_pack_stats stats[FORMS];
    for (int m = 0; m < FORMS; m++) {
        mk_pack_options o = {0};
        o.plain = m == 0;
        o.compress = m == 2 || m == 4;
        o.flat_normals = m >= 3;
        void *data;
        mk_error e;
        if (mk_unit_pack(u, &o, NULL, &data, &sizes[m], &stats[m], NULL, &e) != MK_OK) {
            fprintf(stderr, "%s: %s\n", name, e.message);
            exit(1);
        }
        snprintf(paths[m], sizeof paths[m], "%s/%s_%s.glb", tmp, name, forms[m]);
        write_file(paths[m], data, sizes[m]);
        mk_free(NULL, data, sizes[m]);
    }
    double t_folder = 1e30, t_pack[FORMS];
    for (int m = 0; m < FORMS; m++)
        t_pack[m] = 1e30;
    for (int r = 0; r < rounds; r++) {
        double t;
        MK_BENCH_BEST(t, 1, min_s, mk_unit_destroy(load_folder(dir)));
        t_folder = t < t_folder ? t : t_folder;
        for (int m = 0; m < FORMS; m++) {
            MK_BENCH_BEST(t, 1, min_s, load_packed(paths[m]));
            t_pack[m] = t < t_pack[m] ? t : t_pack[m];
        }
    }
    printf("%-8s %7u %3u  folder %10llu B  load %10.4f ms\n", name, u->frames->vertex_count,
           u->frames->frame_count, (unsigned long long)u->bytes_on_disk, t_folder * 1e3);
    for (int m = 0; m < FORMS; m++) {
        const mk_pack_stats *st = &stats[m];
        printf("         %-8s %10zu B %6.2f%%  %2u targets, %2u sparse, max error %.2g of size"
               " (%2u bits)%s  load %9.4f ms (%5.1fx faster)\n",
               forms[m], sizes[m], 100.0 * (double)sizes[m] / (double)u->bytes_on_disk,
               st->target_count, st->sparse_count,
               st->unit_size > 0 ? st->max_position_error / st->unit_size : 0.0,
               st->position_bits, st->flat_normals ? ", flat normals" : "", t_pack[m] * 1e3,
               t_folder / t_pack[m]);
    }
    mk_unit_destroy(u);
}

int main(int argc, char **argv)
{
    int quick = mk_bench_quick(argc, argv);
    const char *write_to = NULL;
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--write-units") == 0)
            write_to = argv[i + 1];
    char tmp[] = "/tmp/mk_bench_pack_XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    const char *root = write_to ? write_to : tmp;
    mkdir(root, 0777);
    /* 100k vertices: 250 rings x 400 segments */
    const char *big = make_unit(root, "sphere", quick ? 20 : 250, quick ? 30 : 400, 0);
    const char *limb = make_unit(root, "limb", quick ? 12 : 40, quick ? 16 : 60, 1);
    if (write_to) {
        printf("%s\n%s\n", big, limb);
        return 0;
    }
    double min_s = quick ? 0.0 : 0.1;
    int rounds = quick ? 1 : 7;
    printf("unit     vertices frames\n");
    bench_unit("knight", MK_BENCH_SOURCE_DIR "/assets/demo/knight", tmp, min_s, rounds);
    bench_unit("wing", MK_BENCH_SOURCE_DIR "/assets/demo/wing", tmp, min_s, rounds);
    bench_unit("limb", limb, tmp, min_s, rounds);
    bench_unit("sphere", big, tmp, quick ? 0.0 : 0.5, quick ? 1 : 3);
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--unit") == 0) {
            const char *dir = argv[++i], *slash = strrchr(dir, '/');
            bench_unit(slash && slash[1] ? slash + 1 : dir, dir, tmp, quick ? 0.0 : 0.5,
                       quick ? 1 : 3);
        }
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    return system(cmd) == 0 ? 0 : 1;
}
