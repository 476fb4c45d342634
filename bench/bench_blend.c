/* Blend kernel speed: ns per vertex for positions + normals, beside a plain
 * memcpy with the same memory traffic, measured in the same run: the kernel
 * reads 48 B and writes 24 B per vertex; copying 36 B reads 36 and writes 36. Also shown: a naive loop compiled
 * with errno-setting sqrtf (what a straightforward implementation gets) and
 * morphkit's plain C reference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_common.h"
#include "internal.h"
#include "morphkit/blend.h"

/* Compiled with the bench's default flags (errno semantics kept). */
static void naive_blend(float *op, float *on, const float *pa, const float *pb, const float *na,
                        const float *nb, float w, size_t count)
{
    for (size_t i = 0; i < 3 * count; i++)
        op[i] = (1 - w) * pa[i] + w * pb[i];
    for (size_t i = 0; i < count; i++) {
        float x = (1 - w) * na[3 * i] + w * nb[3 * i];
        float y = (1 - w) * na[3 * i + 1] + w * nb[3 * i + 1];
        float z = (1 - w) * na[3 * i + 2] + w * nb[3 * i + 2];
        float len = sqrtf(x * x + y * y + z * z);
        float inv = len > 1e-12f ? 1.0f / len : 0.0f;
        on[3 * i] = x * inv;
        on[3 * i + 1] = y * inv;
        on[3 * i + 2] = z * inv;
    }
}

static volatile float sink;

static void run(size_t count, int quick)
{
    size_t n = 3 * count;
    float *pa = malloc(n * 4), *pb = malloc(n * 4), *na = malloc(n * 4), *nb = malloc(n * 4);
    float *op = malloc(n * 4), *on = malloc(n * 4), *copy = malloc(n * 16);
    if (!pa || !pb || !na || !nb || !op || !on || !copy) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++) {
        pa[i] = (float)(i % 97) * 0.01f;
        pb[i] = (float)(i % 89) * 0.02f;
        na[i] = (float)((i * 7) % 13) - 6.0f;
        nb[i] = (float)((i * 5) % 11) - 5.0f;
    }
    int rounds = quick ? 1 : 5;
    double min_s = quick ? 0.001 : 0.2;
    double t_copy, t_naive, t_ref, t_fast;
    MK_BENCH_BEST(t_copy, rounds, min_s,
                  (memcpy(copy, pa, n * 4), memcpy(copy + n, pb, n * 4),
                   memcpy(copy + 2 * n, na, n * 4), sink = copy[n / 2]));
    MK_BENCH_BEST(t_naive, rounds, min_s,
                  (naive_blend(op, on, pa, pb, na, nb, 0.3f, count), sink = on[n / 2]));
    MK_BENCH_BEST(t_ref, rounds, min_s,
                  (mk_blend_positions_scalar(op, pa, pb, 0.3f, count),
                   mk_blend_normals_scalar(on, na, nb, 0.3f, count), sink = on[n / 2]));
    MK_BENCH_BEST(t_fast, rounds, min_s,
                  (mk_blend_positions(op, pa, pb, 0.3f, count),
                   mk_blend_normals(on, na, nb, 0.3f, count), sink = on[n / 2]));
    double k = 1e9 / (double)count;
    printf("| %9zu | %8.3f | %8.3f | %8.3f | %8.3f (%s) | %5.2f |\n", count, t_copy * k,
           t_naive * k, t_ref * k, t_fast * k, mk_blend_kernel_name(), t_fast / t_copy);
    free(pa), free(pb), free(na), free(nb), free(op), free(on), free(copy);
}

int main(int argc, char **argv)
{
    int quick = mk_bench_quick(argc, argv);
    printf("blend kernel, positions + normals, ns/vertex (best of %d)\n", quick ? 1 : 5);
    printf("| vertices  | memcpy 36 B | naive loop | C reference | morphkit | morphkit / memcpy |\n");
    printf("|---|---|---|---|---|---|\n");
    const size_t sizes[] = {2000, 20000, 2000000};
    for (size_t i = 0; i < (quick ? 1u : 3u); i++)
        run(sizes[i], quick);
    return 0;
}
