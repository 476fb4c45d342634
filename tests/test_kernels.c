/* Kernel variants and quantized frames.
 *
 * Every kernel table the CPU runs (scalar, SSE2, AVX2, AVX-512) must give
 * the scalar reference's bytes for every kernel, at every count (so every
 * SIMD tail runs). CTest runs this file once per variant with MK_SIMD set:
 * the public entry points then go through that variant (exit 77, skipped,
 * where the CPU lacks it). Quantized blends are checked against the float
 * blend of the original data with the bounds stated in qframe_set.h, and
 * against hand-computed values. */
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"
#include "kernels.h"
#include "mk_test.h"
#include "morphkit/morphkit.h"

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static float frand(uint32_t *s) /* [-1, 1) */
{
    return (float)lcg(s) / (float)(1 << 23) - 1.0f;
}

enum { N = 777 };
static float fa_[3 * N], fb_[3 * N], fc_[3 * N], fd_[3 * N], ref[3 * N + 1], out[3 * N + 1];
static uint16_t qa[3 * N], qb[3 * N];
static int16_t oa[2 * N], ob[2 * N];

static void fill(uint32_t seed)
{
    for (int i = 0; i < 3 * N; i++) {
        fa_[i] = frand(&seed) * 10.0f;
        fb_[i] = frand(&seed);
        fc_[i] = frand(&seed);
        fd_[i] = frand(&seed) * 0.001f;
        qa[i] = (uint16_t)lcg(&seed);
        qb[i] = (uint16_t)lcg(&seed);
    }
    for (int i = 0; i < 2 * N; i++) {
        oa[i] = (int16_t)(lcg(&seed) & 0xffff);
        ob[i] = (int16_t)(lcg(&seed) & 0xffff);
    }
    /* zero and opposite vertices: normals below the length floor */
    for (int c = 0; c < 3; c++) {
        fa_[30 + c] = fb_[30 + c] = fc_[30 + c] = fd_[30 + c] = 0.0f;
        fb_[60 + c] = -fa_[60 + c];
    }
}

/* Compares out with ref over n floats and the guard beyond them (which no
 * kernel may write). */
static int same(size_t n)
{
    return memcmp(out, ref, n * sizeof(float)) == 0 && out[n] == 12345.0f && ref[n] == 12345.0f;
}

static void reset(void)
{
    for (int i = 0; i <= 3 * N; i++)
        out[i] = ref[i] = 12345.0f;
}

static void test_every_variant_matches_reference_bit_for_bit(void)
{
    fill(7);
    const mk_kernels *s = &mk_kernels_scalar;
    const float ws[] = {0.0f, 0.3f, 0.5f, 1.0f, -0.5f, 1.7f};
    const float w4[][4] = {{-0.0625f, 0.5625f, 0.5625f, -0.0625f}, {0.25f, 0.25f, 0.25f, 0.25f},
                           {1.0f, 0.0f, 0.0f, 0.0f}};
    const size_t counts[] = {0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 49, 100, N - 1};
    int levels = 0;
    for (int l = MK_SIMD_SCALAR; l < MK_SIMD_LEVEL_COUNT; l++) {
        const mk_kernels *k = mk_kernels_for_level((mk_simd_level)l);
        if (!k)
            continue;
        levels++;
        CHECK_EQ_INT(k->level, l);
        for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
            size_t n = counts[ci];
            for (size_t wi = 0; wi < sizeof ws / sizeof ws[0]; wi++) {
                float w = ws[wi];
                reset(), s->blend_positions(ref, fa_, fb_, w, n), k->blend_positions(out, fa_, fb_, w, n);
                CHECK(same(3 * n));
                reset(), s->blend_normals(ref, fa_, fb_, w, n), k->blend_normals(out, fa_, fb_, w, n);
                CHECK(same(3 * n));
                const float sc[3] = {0.01f, 0.002f, 1.5f}, of[3] = {-3.0f, 100.0f, 0.0f};
                reset(), s->qblend_positions(ref, qa, qb, w, sc, of, n);
                k->qblend_positions(out, qa, qb, w, sc, of, n);
                CHECK(same(3 * n));
                reset(), s->qblend_normals(ref, oa, ob, w, n), k->qblend_normals(out, oa, ob, w, n);
                CHECK(same(3 * n));
            }
            const float *f[4] = {fa_, fb_, fc_, fd_};
            for (uint32_t kk = 1; kk <= 4; kk++) { /* dense morph sums, also in place */
                const float *d3[4] = {fb_, fc_, fd_, fa_};
                const float wk[4] = {0.5f, -1.25f, 3.0f, 0.0f};
                reset(), s->madd(ref, fa_, d3, wk, kk, 3 * n), k->madd(out, fa_, d3, wk, kk, 3 * n);
                CHECK(same(3 * n));
                memcpy(out, fa_, 3 * n * sizeof(float));
                k->madd(out, out, d3, wk, kk, 3 * n);
                CHECK(memcmp(out, ref, 3 * n * sizeof(float)) == 0);
            }
            for (uint32_t kk = 1; kk <= 4; kk++) { /* quantized morph sums */
                const int16_t *q4[4] = {oa, ob, oa + 1, ob + 2};
                const float ck[4] = {1e-4f, -3e-5f, 2e-5f, 7e-6f};
                reset(), s->qmadd(ref, fa_, q4, ck, kk, 2 * n), k->qmadd(out, fa_, q4, ck, kk, 2 * n);
                CHECK(same(2 * n));
            }
            for (size_t wi = 0; wi < sizeof w4 / sizeof w4[0]; wi++) {
                reset(), s->sum4_positions(ref, f, w4[wi], n), k->sum4_positions(out, f, w4[wi], n);
                CHECK(same(3 * n));
                reset(), s->sum4_normals(ref, f, w4[wi], n), k->sum4_normals(out, f, w4[wi], n);
                CHECK(same(3 * n));
            }
        }
    }
    CHECK(levels >= 1);
#if defined(MK_HAVE_SSE2)
    CHECK(mk_kernels_for_level(MK_SIMD_SSE2) != NULL);
#endif
    CHECK(mk_kernels_for_level(MK_SIMD_LEVEL_COUNT) == NULL);
}

/* Outputs of 2^20 vertices and more take the streaming-store path (with an
 * aligning head); the bytes must not change. The output starts one float
 * past an allocation so the head is not empty. */
static void test_large_outputs_match_reference(void)
{
    const size_t n = ((size_t)1 << 20) + 37;
    float *a = malloc(n * 12), *b = malloc(n * 12), *c = malloc(n * 12), *d = malloc(n * 12);
    float *o1 = malloc(n * 12 + 8), *o2 = malloc(n * 12 + 8);
    uint16_t *qa16 = malloc(n * 6), *qb16 = malloc(n * 6);
    int16_t *na = malloc(n * 4), *nb = malloc(n * 4);
    CHECK(a && b && c && d && o1 && o2 && qa16 && qb16 && na && nb);
    if (!(a && b && c && d && o1 && o2 && qa16 && qb16 && na && nb))
        return;
    uint32_t seed = 3;
    for (size_t i = 0; i < 3 * n; i++) {
        a[i] = frand(&seed), b[i] = frand(&seed), c[i] = frand(&seed), d[i] = frand(&seed);
        qa16[i] = (uint16_t)lcg(&seed), qb16[i] = (uint16_t)lcg(&seed);
    }
    for (size_t i = 0; i < 2 * n; i++)
        na[i] = (int16_t)(lcg(&seed) & 0xffff), nb[i] = (int16_t)(lcg(&seed) & 0xffff);
    const float *f[4] = {a, b, c, d};
    const float w4[4] = {-0.0625f, 0.5625f, 0.5625f, -0.0625f};
    const float sc[3] = {0.01f, 0.02f, 0.03f}, of[3] = {1.0f, 2.0f, 3.0f};
    const mk_kernels *s = &mk_kernels_scalar;
    for (int l = MK_SIMD_SSE2; l < MK_SIMD_LEVEL_COUNT; l++) {
        const mk_kernels *k = mk_kernels_for_level((mk_simd_level)l);
        if (!k)
            continue;
        for (int shift = 0; shift < 2; shift++) {
            float *r = o1 + shift, *t = o2 + shift;
            s->blend_positions(r, a, b, 0.3f, n), k->blend_positions(t, a, b, 0.3f, n);
            CHECK(memcmp(r, t, n * 12) == 0);
            s->blend_normals(r, a, b, 0.3f, n), k->blend_normals(t, a, b, 0.3f, n);
            CHECK(memcmp(r, t, n * 12) == 0);
            s->sum4_positions(r, f, w4, n), k->sum4_positions(t, f, w4, n);
            CHECK(memcmp(r, t, n * 12) == 0);
            s->sum4_normals(r, f, w4, n), k->sum4_normals(t, f, w4, n);
            CHECK(memcmp(r, t, n * 12) == 0);
            s->qblend_positions(r, qa16, qb16, 0.3f, sc, of, n);
            k->qblend_positions(t, qa16, qb16, 0.3f, sc, of, n);
            CHECK(memcmp(r, t, n * 12) == 0);
            s->qblend_normals(r, na, nb, 0.3f, n), k->qblend_normals(t, na, nb, 0.3f, n);
            CHECK(memcmp(r, t, n * 12) == 0);
        }
    }
    free(a), free(b), free(c), free(d), free(o1), free(o2);
    free(qa16), free(qb16), free(na), free(nb);
}

/* MK_SIMD picks the variant; the public kernels then match the reference. */
static void test_active_variant_and_public_kernels(void)
{
    static const char *const names[] = {"scalar", "sse2", "avx2", "avx512"};
    const char *want = getenv("MK_SIMD");
    const mk_kernels *k = mk_kernels_active();
    CHECK(k == mk_kernels_active()); /* chosen once */
    CHECK(strcmp(mk_blend_kernel_name(), k->name) == 0);
    CHECK(strcmp(names[k->level], k->name) == 0);
    if (want)
        CHECK(strcmp(want, k->name) == 0);
    else /* the best level the CPU runs */
        for (int l = k->level + 1; l < MK_SIMD_LEVEL_COUNT; l++)
            CHECK(mk_kernels_for_level((mk_simd_level)l) == NULL);
    fill(11);
    reset(), mk_blend_normals_scalar(ref, fa_, fb_, 0.25f, N), mk_blend_normals(out, fa_, fb_, 0.25f, N);
    CHECK(same(3 * N));
    const float *f[4] = {fa_, fb_, fc_, fd_};
    const float w[4] = {-0.1f, 0.6f, 0.6f, -0.1f};
    reset(), mk_sum4_normals_scalar(ref, f, w, N), mk_pose_blend_normals(out, f, w, 4, N);
    CHECK(same(3 * N));
}

static mk_frame_set *make_set(uint32_t frames, uint32_t verts, uint32_t seed)
{
    mk_frame_set_desc d = {frames, verts, 3, true, false};
    mk_frame_set *s;
    if (mk_frame_set_create(&d, NULL, &s, NULL) != MK_OK)
        return NULL;
    for (size_t i = 0; i < (size_t)frames * verts; i++) {
        float x = frand(&seed), y = frand(&seed), z = frand(&seed);
        s->positions[3 * i] = 5.0f + 2.0f * x;
        s->positions[3 * i + 1] = -40.0f + 0.5f * y;
        s->positions[3 * i + 2] = 1000.0f * z;
        float l = sqrtf(x * x + y * y + z * z);
        if (l < 1e-3f)
            x = 1, l = 1;
        s->normals[3 * i] = x / l;
        s->normals[3 * i + 1] = y / l;
        s->normals[3 * i + 2] = z / l;
    }
    s->indices[0] = 0, s->indices[1] = 1, s->indices[2] = 2;
    return s;
}

static void test_range_matches_whole(void)
{
    mk_frame_set *s = make_set(3, 1001, 5);
    static float p1[3 * 1001], n1[3 * 1001], p2[3 * 1001], n2[3 * 1001];
    CHECK(mk_blend_frames(s, 0, 2, 0.4f, p1, n1, 1001, NULL) == MK_OK);
    const uint32_t cuts[] = {0, 1, 17, 500, 999, 1001};
    for (size_t i = 0; i + 1 < sizeof cuts / sizeof cuts[0]; i++)
        CHECK(mk_blend_frames_range(s, 0, 2, 0.4f, cuts[i], cuts[i + 1], p2, n2, 1001, NULL) ==
              MK_OK);
    CHECK(memcmp(p1, p2, sizeof p1) == 0 && memcmp(n1, n2, sizeof n1) == 0);
    /* only the range is written */
    p2[0] = p2[3 * 600] = -7.0f;
    CHECK(mk_blend_frames_range(s, 0, 2, 0.4f, 1, 600, p2, n2, 1001, NULL) == MK_OK);
    CHECK(p2[0] == -7.0f && p2[3 * 600] == -7.0f && p2[3] == p1[3]);
    mk_error err;
    CHECK(mk_blend_frames_range(s, 0, 2, 0.4f, 5, 4, p2, n2, 1001, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "range");
    CHECK(mk_blend_frames_range(s, 0, 2, 0.4f, 0, 1002, p2, n2, 1001, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_blend_frames_range(s, 0, 2, 0.4f, 0, 10, p2, n2, 1000, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_blend_frames_range(s, 0, 2, 0.4f, 7, 7, p2, n2, 1001, &err) == MK_OK); /* empty */
    mk_frame_set_destroy(s);
}

static void test_octahedral_hand_values(void)
{
    const float px[3] = {1, 0, 0}, pz[3] = {0, 0, 1}, nz[3] = {0, 0, -1}, ny[3] = {0, -1, 0};
    const float zero[3] = {0, 0, 0};
    int16_t q[2];
    float d[3];
    mk_octahedral_encode(pz, q);
    CHECK(q[0] == 0 && q[1] == 0);
    mk_octahedral_encode(zero, q);
    CHECK(q[0] == 0 && q[1] == 0);
    mk_octahedral_encode(px, q);
    CHECK(q[0] == 32767 && q[1] == 0);
    mk_octahedral_encode(ny, q);
    CHECK(q[0] == 0 && q[1] == -32767);
    /* the lower pole folds to a corner: u = v = 1 */
    mk_octahedral_encode(nz, q);
    CHECK(q[0] == 32767 && q[1] == 32767);
    mk_octahedral_decode(q, d);
    CHECK(d[0] == 0.0f && d[1] == 0.0f && d[2] == -1.0f);
    /* u = v = 16384 / 32767, just past the z = 0 edge: z = 1 - 2u < 0 folds
     * back by t = -z, so (u - t, v - t, z) = (1 - u, 1 - u, 1 - 2u),
     * normalized (in double here) */
    const int16_t half[2] = {16384, 16384};
    mk_octahedral_decode(half, d);
    double u = 16384.0 / 32767.0, x = 1.0 - u, z = 1.0 - 2.0 * u, l = sqrt(2 * x * x + z * z);
    CHECK_NEAR(d[0], x / l, 1e-7);
    CHECK_NEAR(d[1], x / l, 1e-7);
    CHECK_NEAR(d[2], z / l, 1e-7);
}

static void test_quantized_hand_values(void)
{
    /* x spans 0..65.535 (scale 0.001), y is constant (scale 0), z spans -1..1 */
    mk_frame_set_desc d = {2, 2, 3, false, true};
    mk_frame_set *s;
    CHECK(mk_frame_set_create(&d, NULL, &s, NULL) == MK_OK);
    const float p[12] = {0.0f, 7.0f, -1.0f, 65.535f, 7.0f, 1.0f,
                         1.0f, 7.0f, 0.0f, 30.0f, 7.0f, -1.0f};
    memcpy(s->positions, p, sizeof p);
    s->texcoords[3] = 0.25f;
    s->indices[0] = 0, s->indices[1] = 1, s->indices[2] = 1;
    mk_qframe_set *q;
    CHECK(mk_qframe_set_quantize(s, NULL, &q, NULL) == MK_OK);
    CHECK_NEAR(q->position_scale[0], 0.001, 1e-9);
    CHECK(q->position_scale[1] == 0.0f && q->position_offset[1] == 7.0f);
    CHECK(q->position_offset[0] == 0.0f && q->position_offset[2] == -1.0f);
    CHECK(q->positions[0] == 0 && q->positions[3] == 65535 && q->positions[6] == 1000);
    CHECK(q->positions[2] == 0 && q->positions[5] == 65535);
    CHECK(q->positions[8] == 32768 || q->positions[8] == 32767); /* 0 is half way */
    CHECK(q->normals == NULL && q->texcoords[3] == 0.25f && q->indices[1] == 1);
    float out[6];
    CHECK(mk_blend_qframes(q, 0, 1, 0.5f, out, NULL, 2, NULL) == MK_OK);
    CHECK_NEAR(out[0], 0.5, 1e-6);     /* (0 + 1) / 2 */
    CHECK(out[1] == 7.0f);
    CHECK_NEAR(out[2], -0.5, 3.1e-5);  /* (-1 + 0) / 2, half a step of 2/65535 */
    CHECK_NEAR(out[3], 47.7675, 1e-4); /* (65.535 + 30) / 2 */
    CHECK_NEAR(out[5], 0.0, 1e-6);
    mk_error err;
    CHECK(mk_blend_qframes(q, 0, 2, 0.5f, out, NULL, 2, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_blend_qframes(q, 0, 1, NAN, out, NULL, 2, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_blend_qframes(q, 0, 1, 0.5f, out, NULL, 1, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_blend_qframes(NULL, 0, 1, 0.5f, out, NULL, 2, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_blend_qframes_range(q, 0, 1, 0.5f, 2, 1, out, NULL, 2, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    s->positions[4] = NAN;
    mk_qframe_set *bad = NULL;
    CHECK(mk_qframe_set_quantize(s, NULL, &bad, &err) == MK_ERR_RANGE && bad == NULL);
    mk_qframe_set_destroy(q);
    mk_frame_set_destroy(s);
}

/* The header's bounds, on 3 000 random vertices in 4 frames, every blend
 * weight from 0 to 1 in eighths, through the active variant. */
static void test_quantized_within_stated_bounds(void)
{
    enum { V = 3000, F = 4 };
    mk_frame_set *s = make_set(F, V, 99);
    mk_qframe_set *q;
    CHECK(mk_qframe_set_quantize(s, NULL, &q, NULL) == MK_OK);
    /* 10 bytes per vertex and frame instead of 24 */
    CHECK(mk_qframe_set_byte_size(&(mk_frame_set_desc){F, V, 3, true, false}) <
          mk_frame_set_byte_size(&(mk_frame_set_desc){F, V, 3, true, false}) * 10 / 24 + 256);
    static float fp[3 * V], fn[3 * V], qp[3 * V], qn[3 * V];
    /* every decoded normal within MK_QNORMAL_ERROR */
    double worst_n = 0;
    for (size_t i = 0; i < (size_t)F * V; i++) {
        float dn[3];
        mk_octahedral_decode(q->normals + 2 * i, dn);
        double e = 0;
        for (int c = 0; c < 3; c++)
            e += (dn[c] - s->normals[3 * i + c]) * (double)(dn[c] - s->normals[3 * i + c]);
        worst_n = fmax(worst_n, sqrt(e));
    }
    CHECK(worst_n <= MK_QNORMAL_ERROR);
    CHECK(worst_n > 1e-6); /* the check can fail: quantization is not exact */
    double worst_p = 0;
    for (int step = 0; step <= 8; step++) {
        float w = (float)step / 8.0f;
        for (uint32_t f = 0; f + 1 < F; f++) {
            CHECK(mk_blend_frames(s, f, f + 1, w, fp, fn, V, NULL) == MK_OK);
            CHECK(mk_blend_qframes(q, f, f + 1, w, qp, qn, V, NULL) == MK_OK);
            for (size_t v = 0; v < V; v++) {
                const float *na = s->normals + ((size_t)f * V + v) * 3, *nb = na + (size_t)V * 3;
                double l2 = 0, e = 0;
                for (int c = 0; c < 3; c++) {
                    double m = (1.0 - w) * na[c] + w * (double)nb[c];
                    l2 += m * m;
                    e += (qn[3 * v + c] - fn[3 * v + c]) * (double)(qn[3 * v + c] - fn[3 * v + c]);
                    double bound = MK_QPOSITION_ERROR(q->position_scale[c], q->position_offset[c]);
                    double pe = fabs(qp[3 * v + c] - fp[3 * v + c]);
                    CHECK(pe <= bound);
                    worst_p = fmax(worst_p, pe / bound);
                }
                if (l2 > 1e-4) /* near-opposite normals have no stable direction */
                    CHECK(sqrt(e) <= 2.0 * MK_QNORMAL_ERROR / sqrt(l2));
            }
        }
    }
    CHECK(worst_p > 0.1); /* the bound is not vacuous */
    mk_qframe_set_destroy(q);
    mk_frame_set_destroy(s);
}

int main(int argc, char **argv)
{
    const char *want = getenv("MK_SIMD");
    if (want) { /* the per-variant runs: skipped where the CPU lacks the variant */
        static const char *const names[] = {"scalar", "sse2", "avx2", "avx512"};
        int found = 0;
        for (int l = 0; l < MK_SIMD_LEVEL_COUNT; l++)
            if (strcmp(want, names[l]) == 0)
                found = mk_kernels_for_level((mk_simd_level)l) != NULL;
        if (!found) {
            printf("MK_SIMD=%s: not available on this CPU, skipped\n", want);
            return 77;
        }
    }
    static const mk_test_case cases[] = {
        MK_TEST(test_every_variant_matches_reference_bit_for_bit),
        MK_TEST(test_large_outputs_match_reference),
        MK_TEST(test_active_variant_and_public_kernels), MK_TEST(test_range_matches_whole),
        MK_TEST(test_octahedral_hand_values), MK_TEST(test_quantized_hand_values),
        MK_TEST(test_quantized_within_stated_bounds)};
    return mk_test_run(cases, sizeof cases / sizeof cases[0], argc, argv);
}
