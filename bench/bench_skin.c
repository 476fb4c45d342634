/* Skinning kernel cost: ns per vertex with 4 influences, positions +
 * normals, 64 joints, on generated 20k- and 2M-vertex primitives, for the C
 * reference, each SIMD variant the CPU runs and mk_skin_apply, beside a
 * memcpy of as many bytes as the kernel reads (positions, normals, joint
 * indices, weights: 48 per vertex) and beside one that moves as many bytes
 * as the kernel reads and writes ((48 + 24) / 2 = 36 per vertex, the
 * baseline of `morphkit bench`), in the same run. A second row per size:
 * morph (two dense targets) then skin as two calls and as
 * mk_skin_apply_morph's fused blocks, beside copies of the 96 B a vertex
 * the fused call reads and of the same traffic (60 B). The joint matrices
 * are where malloc puts them (16-byte aligned, 48 bytes past a cache line
 * here): mk_skin_apply copies them to a 64-byte boundary (skin.h), the
 * variant columns read an aligned copy, so both show the kernels' speed.
 * `--quick` runs a tiny size once (CTest smoke run). Nothing about time is
 * asserted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "internal.h"
#include "morphkit/morph.h"
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
    /* two baselines: a copy of the 48 B a vertex the kernel reads, and a copy
       moving the same traffic as the kernel ((48 + 24) / 2 = 36 B: what
       `morphkit bench` compares every kernel with) */
    size_t n3 = (size_t)vc * 3, read_bytes = (size_t)vc * 48, same_bytes = (size_t)vc * 36;
    /* 16 past a 64-byte boundary, as malloc's blocks often are */
    float *jm_block = aligned_alloc(64, (size_t)jc * 64 + 64), *jm = jm_block + 4;
    float *jm_aligned = aligned_alloc(64, (size_t)jc * 64);
    float *pos = malloc(n3 * sizeof(float)), *nrm = malloc(n3 * sizeof(float));
    float *op = malloc(n3 * sizeof(float)), *on = malloc(n3 * sizeof(float));
    char *src = malloc(read_bytes), *dst = malloc(read_bytes);
    if (!jm_block || !jm_aligned || !pos || !nrm || !op || !on || !src || !dst)
        return 1;
    for (uint32_t j = 0; j < jc; j++)
        for (int k = 0; k < 16; k++)
            jm[j * 16 + k] = k % 4 == 3 ? (k == 15 ? 1.0f : 0.0f) : frand();
    memcpy(jm_aligned, jm, (size_t)jc * 64);
    for (size_t i = 0; i < n3; i++)
        pos[i] = frand(), nrm[i] = frand();
    memset(src, 1, read_bytes);
    /* Best single call of many, the variants interleaved round by round: on
     * a shared machine the fastest call is the one no other process
     * disturbed, and a disturbed stretch hits every variant alike. */
    int rounds = quick ? 1 : vc <= 100000 ? 400 : 25;
    const double none = 1e30;
    double t_copy = none, t_same = none, t_ref = none, t_sse2 = none, t_avx2 = none,
           t_avx512 = none;
    double t_apply = none;
#define MK_TIME_MIN(best, call)                 \
    do {                                        \
        double t0_ = mk_bench_now();            \
        call;                                   \
        double d_ = mk_bench_now() - t0_;       \
        (best) = d_ < (best) ? d_ : (best);     \
    } while (0)
    for (int r = 0; r < rounds; r++) {
        MK_TIME_MIN(t_copy, memcpy(dst, src, read_bytes); src[0] ^= dst[1]);
        MK_TIME_MIN(t_same, memcpy(dst, src, same_bytes); src[0] ^= dst[1]);
        if (r % 8 == 0 || quick) /* the slow reference: fewer calls */
            MK_TIME_MIN(t_ref, mk_skin_apply_scalar(skin, jm_aligned, pos, nrm, NULL, op, on, NULL));
#if defined(__SSE2__)
        MK_TIME_MIN(t_sse2, mk_skin_apply_sse2(skin, jm_aligned, pos, nrm, NULL, op, on, NULL));
        if (mk_skin_have_avx2())
            MK_TIME_MIN(t_avx2, mk_skin_apply_avx2(skin, jm_aligned, pos, nrm, NULL, op, on, NULL));
        if (mk_skin_have_avx512())
            MK_TIME_MIN(t_avx512, mk_skin_apply_avx512(skin, jm_aligned, pos, nrm, NULL, op, on, NULL));
#endif
        MK_TIME_MIN(t_apply, mk_skin_apply(skin, jm, jc, pos, nrm, NULL, op, on, NULL, vc, &err));
    }
    t_sse2 = t_sse2 == none ? 0 : t_sse2;
    t_avx2 = t_avx2 == none ? 0 : t_avx2;
    t_avx512 = t_avx512 == none ? 0 : t_avx512;
    printf("%9u | %6.2f | %6.2f | %6.2f | %6.2f | %6.2f | %6.2f | %6.2f | %5.2fx | %5.2fx\n", vc,
           t_copy * 1e9 / vc, t_same * 1e9 / vc, t_ref * 1e9 / vc, t_sse2 * 1e9 / vc,
           t_avx2 * 1e9 / vc, t_avx512 * 1e9 / vc, t_apply * 1e9 / vc, t_apply / t_copy,
           t_apply / t_same);
    free(src), free(dst);

    /* Morph (two dense targets on positions and normals) then skin: two
     * calls (two passes over the outputs) against mk_skin_apply_morph's
     * fused blocks, beside a copy of the 96 B a vertex the fused call reads
     * (base and two deltas for both attributes, joints, weights) and one of
     * the same traffic ((96 + 24) / 2 = 60 B). */
    uint32_t counts[6] = {MK_MORPH_DENSE, MK_MORPH_DENSE, 0, MK_MORPH_DENSE, MK_MORPH_DENSE, 0};
    mk_morph_set_desc md = {vc, 2, true, false, counts};
    mk_morph_set *set = NULL;
    size_t read2 = (size_t)vc * 96, same2 = (size_t)vc * 60;
    src = malloc(read2), dst = malloc(read2);
    if (!src || !dst || mk_morph_set_create(&md, NULL, &set, &err) != MK_OK)
        return 1;
    memset(src, 1, read2);
    memcpy(set->base_positions, pos, n3 * sizeof(float));
    memcpy(set->base_normals, nrm, n3 * sizeof(float));
    for (int t = 0; t < 2; t++)
        for (int a = 0; a < 2; a++)
            for (size_t i = 0; i < n3; i++)
                set->targets[t].delta[a].values[i] = frand() * 0.1f;
    const float w2[2] = {0.6f, 0.3f};
    double t_copy2 = none, t_same2 = none, t_two = none, t_fused = none;
    for (int r = 0; r < rounds; r++) {
        MK_TIME_MIN(t_copy2, memcpy(dst, src, read2); src[0] ^= dst[1]);
        MK_TIME_MIN(t_same2, memcpy(dst, src, same2); src[0] ^= dst[1]);
        MK_TIME_MIN(t_two, mk_morph_evaluate(set, w2, op, on, NULL, vc, &err);
                    mk_skin_apply(skin, jm, jc, op, on, NULL, op, on, NULL, vc, &err));
        MK_TIME_MIN(t_fused, mk_skin_apply_morph(skin, set, w2, jm, jc, op, on, NULL, vc, &err));
    }
#undef MK_TIME_MIN
    printf("%9u | morph+skin: memcpy 96 B %6.2f | memcpy 60 B %6.2f | two calls %6.2f | "
           "mk_skin_apply_morph %6.2f | fused / memcpy 96 B %5.2fx | / 60 B %5.2fx\n",
           vc, t_copy2 * 1e9 / vc, t_same2 * 1e9 / vc, t_two * 1e9 / vc, t_fused * 1e9 / vc,
           t_fused / t_copy2, t_fused / t_same2);
    mk_morph_set_destroy(set);
    free(jm_block), free(jm_aligned), free(pos), free(nrm), free(op), free(on), free(src), free(dst);
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
    printf(" vertices | memcpy 48 B | memcpy 36 B | C ref | sse2 | avx2 | avx512 | mk_skin_apply | "
           "apply / memcpy 48 B | / 36 B\n");
    if (quick)
        return run(1000, 1);
    return run(20000, 0) || run(2000000, 0);
}
