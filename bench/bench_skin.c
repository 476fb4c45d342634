/* Skinning kernel cost: ns per vertex with 4 influences, positions +
 * normals, 64 joints, on generated 20k- and 2M-vertex primitives, for the C
 * reference, the SSE2 variant and mk_skin_apply (AVX2 + FMA where the CPU
 * has them), beside a memcpy of as many bytes as the kernel reads
 * (positions, normals, joint indices, weights: 48 per vertex) in the same
 * run: the floor of a kernel that reads its data once. `--quick` runs a
 * tiny size once (CTest smoke run). Nothing about time is asserted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "internal.h"
#include "morphkit/skin.h"

static uint32_t rng = 7;
static float frand(void)
{
    rng = rng * 1664525u + 1013904223u;
    return (float)(rng >> 8) / 16777216.0f;
}

static int run(uint32_t vc, int quick)
{
    const uint32_t jc = 64;
    mk_skin_desc d = {vc, jc, 4};
    mk_skin *skin = NULL;
    mk_error err;
    if (mk_skin_create(&d, NULL, &skin, &err) != MK_OK) {
        fprintf(stderr, "bench_skin: %s\n", err.message);
        return 1;
    }
    for (size_t i = 0; i < (size_t)vc * 4; i++) {
        skin->joints[i] = (uint16_t)(frand() * jc);
        skin->weights[i] = frand();
    }
    if (mk_skin_prepare(skin, &err) != MK_OK) {
        fprintf(stderr, "bench_skin: %s\n", err.message);
        return 1;
    }
    size_t n3 = (size_t)vc * 3, read_bytes = (size_t)vc * 48;
    float *jm = malloc((size_t)jc * 16 * sizeof(float));
    float *pos = malloc(n3 * sizeof(float)), *nrm = malloc(n3 * sizeof(float));
    float *op = malloc(n3 * sizeof(float)), *on = malloc(n3 * sizeof(float));
    char *src = malloc(read_bytes), *dst = malloc(read_bytes);
    if (!jm || !pos || !nrm || !op || !on || !src || !dst)
        return 1;
    for (uint32_t j = 0; j < jc; j++)
        for (int k = 0; k < 16; k++)
            jm[j * 16 + k] = k % 4 == 3 ? (k == 15 ? 1.0f : 0.0f) : frand();
    for (size_t i = 0; i < n3; i++)
        pos[i] = frand(), nrm[i] = frand();
    memset(src, 1, read_bytes);
    double t_copy, t_ref, t_sse2 = 0, t_avx2 = 0, t_avx512 = 0, t_apply;
    /* Best single call of many: on a shared machine the fastest call is the
     * one no other process interrupted. */
    int rounds = quick ? 1 : vc <= 100000 ? 400 : 15;
    double min_s = 0.0;
    MK_BENCH_BEST(t_copy, rounds, min_s, memcpy(dst, src, read_bytes); src[0] ^= dst[1]);
    MK_BENCH_BEST(t_ref, rounds, min_s, mk_skin_apply_scalar(skin, jm, pos, nrm, NULL, op, on, NULL));
#if defined(__SSE2__)
    MK_BENCH_BEST(t_sse2, rounds, min_s, mk_skin_apply_sse2(skin, jm, pos, nrm, NULL, op, on, NULL));
    if (mk_skin_have_avx2())
        MK_BENCH_BEST(t_avx2, rounds, min_s,
                      mk_skin_apply_avx2(skin, jm, pos, nrm, NULL, op, on, NULL));
    if (mk_skin_have_avx512())
        MK_BENCH_BEST(t_avx512, rounds, min_s,
                      mk_skin_apply_avx512(skin, jm, pos, nrm, NULL, op, on, NULL));
#endif
    MK_BENCH_BEST(t_apply, rounds, min_s,
                  mk_skin_apply(skin, jm, jc, pos, nrm, NULL, op, on, NULL, skin->vertex_count, &err));
    printf("%9u | %6.2f | %6.2f | %6.2f | %6.2f | %6.2f | %6.2f | %5.2fx\n", vc,
           t_copy * 1e9 / vc, t_ref * 1e9 / vc, t_sse2 * 1e9 / vc, t_avx2 * 1e9 / vc,
           t_avx512 * 1e9 / vc, t_apply * 1e9 / vc, t_apply / t_copy);
    free(jm), free(pos), free(nrm), free(op), free(on), free(src), free(dst);
    mk_skin_destroy(skin);
    return 0;
}

int main(int argc, char **argv)
{
    int quick = mk_bench_quick(argc, argv);
    printf("skinning, 4 influences, positions + normals, ns per vertex (mk_skin_apply: %s)\n",
#if defined(__SSE2__)
           mk_skin_have_avx512() ? "avx512 where MK_SIMD allows"
           : mk_skin_have_avx2() ? "avx2"
                                 : "sse2"
#else
           "scalar"
#endif
    );
    printf(" vertices | memcpy 48 B | C ref | sse2 | avx2 | avx512 | mk_skin_apply | apply / "
           "memcpy\n");
    if (quick)
        return run(1000, 1);
    return run(20000, 0) || run(2000000, 0);
}
