/* Morph evaluation cost: ns per vertex for positions + normals with 8 and
 * 64 targets of which 4 are active, dense and sparse (5% of the vertices),
 * on a generated 20k-vertex primitive; beside a plain memcpy of the output
 * bytes as the floor. `--quick` runs a tiny size once (CTest smoke run).
 * Nothing about time is asserted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "morphkit/morph.h"

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint32_t rng = 1;
static volatile float sink;
static float frand(void)
{
    rng = rng * 1664525u + 1013904223u;
    return (float)(rng >> 8) / 16777216.0f - 0.5f;
}

/* targets dense, or sparse with every 20th vertex moving. */
static mk_morph_set *make(uint32_t vc, uint32_t targets, bool sparse)
{
    uint32_t *counts = (uint32_t *)calloc((size_t)targets * 3, sizeof(uint32_t));
    uint32_t entries = (vc + 19) / 20;
    for (uint32_t t = 0; t < targets; t++) {
        counts[3 * t] = sparse ? entries : MK_MORPH_DENSE;
        counts[3 * t + 1] = sparse ? entries : MK_MORPH_DENSE;
    }
    mk_morph_set_desc d = {vc, targets, true, false, counts};
    mk_morph_set *s = NULL;
    mk_error err;
    if (mk_morph_set_create(&d, NULL, &s, &err) != MK_OK) {
        fprintf(stderr, "bench_morph: %s\n", err.message);
        exit(1);
    }
    free(counts);
    for (size_t i = 0; i < (size_t)vc * 3; i++) {
        s->base_positions[i] = frand();
        s->base_normals[i] = (i % 3 == 2) ? 1.0f : 0.0f;
    }
    for (uint32_t t = 0; t < targets; t++) {
        for (int a = 0; a < 2; a++) {
            mk_morph_delta *dl = &s->targets[t].delta[a];
            for (uint32_t e = 0; e < dl->entry_count; e++) {
                if (dl->indices)
                    dl->indices[e] = e * 20;
                for (int c = 0; c < 3; c++)
                    dl->values[3 * e + c] = frand() * 0.1f;
            }
        }
    }
    return s;
}

static void run(const char *label, uint32_t vc, uint32_t targets, bool sparse, int reps)
{
    mk_morph_set *s = make(vc, targets, sparse);
    float *w = (float *)calloc(targets, sizeof(float));
    for (uint32_t i = 0; i < 4 && i < targets; i++)
        w[i * (targets / 4)] = 0.25f + 0.1f * (float)i; /* 4 active, spread out */
    float *pos = (float *)malloc((size_t)vc * 3 * sizeof(float));
    float *nrm = (float *)malloc((size_t)vc * 3 * sizeof(float));
    mk_morph_evaluate(s, w, pos, nrm, NULL, vc, NULL); /* warm up */
    double t0 = now_ns();
    for (int r = 0; r < reps; r++)
        mk_morph_evaluate(s, w, pos, nrm, NULL, vc, NULL);
    double eval_ns = (now_ns() - t0) / reps / vc;
    t0 = now_ns();
    for (int r = 0; r < reps; r++) {
        memcpy(pos, s->base_positions, (size_t)vc * 3 * sizeof(float));
        memcpy(nrm, s->base_normals, (size_t)vc * 3 * sizeof(float));
        sink += pos[(size_t)r % vc] + nrm[(size_t)r % vc]; /* keep the copies */
    }
    double copy_ns = (now_ns() - t0) / reps / vc;
    printf("%-22s vertices %6u targets %3u active 4: %7.3f ns/vertex (memcpy of output %6.3f)  "
           "check %g\n",
           label, vc, targets, eval_ns, copy_ns, (double)pos[0] + nrm[2]);
    free(pos);
    free(nrm);
    free(w);
    mk_morph_set_destroy(s);
}

int main(int argc, char **argv)
{
    bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    uint32_t vc = quick ? 500 : 20000;
    int reps = quick ? 2 : 500;
    run("dense", vc, 8, false, reps);
    run("dense", vc, 64, false, reps);
    run("sparse 5%", vc, 8, true, reps);
    run("sparse 5%", vc, 64, true, reps);
    return 0;
}
