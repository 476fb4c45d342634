/* Vertex order on a 100k-vertex mesh (a 317 x 317 grid, 5 frames of a
 * slow wave): unit loading with and without the warning heuristics (the
 * heuristics are what validate adds), scramble detection alone, exact
 * matching of a fully renumbered frame, the whole repair plan of a unit
 * with one renumbered frame, and the repair of a 1% and a 100% scramble.
 * `--quick` runs a 40 x 40 grid (smoke test, no timing asserted). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench_common.h"
#include "morphkit/morphkit.h"
#include "vorder_gen.h"

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
}

static void remove_unit(const char *dir, int frames)
{
    for (int i = 1; i <= frames; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/Walk_%d.obj", dir, i);
        remove(path);
    }
    rmdir(dir);
}

static double time_load(const char *dir, bool heuristics)
{
    mk_unit_options o = {0};
    o.skip_heuristics = !heuristics;
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        mk_unit *u = NULL;
        mk_report *rep = NULL;
        mk_error e;
        if (mk_report_create(NULL, &rep, &e) != MK_OK)
            exit(1);
        double t0 = mk_bench_now();
        if (mk_unit_load(dir, &o, NULL, &u, rep, &e) != MK_OK) {
            fprintf(stderr, "load failed: %s\n", e.message);
            exit(1);
        }
        double t = mk_bench_now() - t0;
        best = t < best ? t : best;
        if (mk_report_warning_count(rep))
            fprintf(stderr, "unexpected warnings: %u\n", mk_report_warning_count(rep));
        mk_unit_destroy(u);
        mk_report_destroy(rep);
    }
    return best;
}

int main(int argc, char **argv)
{
    uint32_t n = mk_bench_quick(argc, argv) ? 40 : 317;
    const int frames = 5;
    gen_anim a;
    gen_make(&a, GEN_GRID, n, frames, 0.2f);
    printf("grid %u x %u: %u vertices, %u triangles, %d frames\n", n, n, a.vertex_count,
           a.triangle_count, frames);

    char dir[] = "/tmp/mk_bench_vorder_XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    for (int i = 0; i < frames; i++) {
        char name[32], *text = gen_obj(&a, (uint32_t)i, NULL, 0);
        snprintf(name, sizeof name, "Walk_%d.obj", i + 1);
        write_file(dir, name, text);
        free(text);
    }
    double plain = time_load(dir, false), full = time_load(dir, true);
    printf("unit load  without heuristics %8.1f ms\n", plain * 1e3);
    printf("unit load  with heuristics    %8.1f ms  (x%.2f)\n", full * 1e3, full / plain);

    mk_vorder_frames fr = {a.vertex_count, a.frame_count, (const float *const *)a.frames,
                           a.triangle_count, a.triangles, 0, NULL, NULL};
    mk_vorder_report *rep = NULL;
    mk_error e;
    double t;
    MK_BENCH_BEST(t, 3, 0.2, { mk_vorder_report_destroy(rep); mk_vorder_detect(&fr, NULL, &rep, &e); });
    printf("detect, %d frames              %8.1f ms  (%.1f ns/vertex/frame)\n", frames, t * 1e3,
           t * 1e9 / ((double)a.vertex_count * frames));
    mk_vorder_report_destroy(rep);

    /* a fully renumbered frame: matched exactly */
    uint32_t *perm = gen_permutation(a.vertex_count, 1);
    float *pos = malloc(3 * (size_t)a.vertex_count * sizeof *pos);
    uint32_t *tris = malloc(3 * (size_t)a.triangle_count * sizeof *tris);
    uint32_t *map = malloc(a.vertex_count * sizeof *map);
    for (uint32_t i = 0; i < a.vertex_count; i++)
        memcpy(pos + 3 * (size_t)perm[i], a.frames[2] + 3 * (size_t)i, 3 * sizeof(float));
    for (size_t c = 0; c < 3 * (size_t)a.triangle_count; c++)
        tris[c] = perm[a.triangles[c]];
    mk_vorder_mesh ref = {a.vertex_count, a.frames[1], a.triangle_count, a.triangles, NULL};
    mk_vorder_mesh frm = {a.vertex_count, pos, a.triangle_count, tris, NULL};
    mk_status st = MK_OK;
    MK_BENCH_BEST(t, 3, 0.2, st = mk_vorder_match(&ref, &frm, NULL, map, NULL, &e));
    uint32_t wrong = 0;
    for (uint32_t i = 0; i < a.vertex_count; i++)
        wrong += map[i] != perm[i];
    printf("match a renumbered frame      %8.1f ms  (%s, %u wrong)\n", t * 1e3,
           st == MK_OK ? "ok" : e.message, wrong);

    /* the whole plan for a unit whose Walk_3 is renumbered (reads and parses
       every frame, matches, detects, writes the new text) */
    char *text = gen_obj(&a, 2, perm, 0);
    write_file(dir, "Walk_3.obj", text);
    free(text);
    mk_unit_repair *plan = NULL;
    double t0 = mk_bench_now();
    st = mk_unit_repair_plan(dir, NULL, NULL, &plan, &e);
    t = mk_bench_now() - t0;
    printf("repair plan (1 renumbered)    %8.1f ms  (%s, %u changed)\n", t * 1e3,
           st == MK_OK ? "ok" : e.message, plan ? plan->changed_count : 0);
    mk_unit_repair_destroy(plan);

    /* scrambled positions: 1% and every vertex */
    const uint32_t counts[2] = {a.vertex_count / 100, a.vertex_count};
    float *orig = malloc(3 * (size_t)a.vertex_count * sizeof *orig);
    float *out = malloc(3 * (size_t)a.vertex_count * sizeof *out);
    memcpy(orig, a.frames[2], 3 * (size_t)a.vertex_count * sizeof *orig);
    for (int k = 0; k < 2; k++) {
        memcpy(a.frames[2], orig, 3 * (size_t)a.vertex_count * sizeof *orig);
        gen_scramble(&a, 2, counts[k], 7 + (uint64_t)k, NULL);
        t0 = mk_bench_now();
        mk_vorder_detect(&fr, NULL, &rep, &e);
        double td = mk_bench_now() - t0;
        mk_vorder_repair_info info = {0};
        t0 = mk_bench_now();
        st = rep && rep->fault_count ? mk_vorder_repair_frame(&fr, rep, 0, NULL, out, &info, &e)
                                     : MK_ERR_NOT_FOUND;
        t = mk_bench_now() - t0;
        bool exact = st == MK_OK && memcmp(out, orig, 3 * (size_t)a.vertex_count * sizeof *out) == 0;
        printf("scramble %6u: detect %6.1f ms, repair %7.1f ms (%s, %u moved, confidence %.2f)\n",
               counts[k], td * 1e3, t * 1e3, exact ? "exact" : st == MK_OK ? "WRONG" : "refused",
               info.moved_count, (double)info.confidence);
        mk_vorder_report_destroy(rep);
        rep = NULL;
    }
    remove_unit(dir, frames);
    free(orig);
    free(out);
    free(perm);
    free(pos);
    free(tris);
    free(map);
    gen_free(&a);
    return 0;
}
