/* Quantized morph sets: hand-computed values, the bound of qmorph.h against
 * mk_morph_evaluate on the original set (dense, sparse and mixed deltas,
 * negative and > 1 weights), and misuse. */
#include <stdint.h>
#include <stdlib.h>

#include "mk_test.h"
#include "morphkit/morphkit.h"

static uint32_t seed = 17;
static float frand(void) /* [-1, 1) */
{
    seed = seed * 1664525u + 1013904223u;
    return (float)(seed >> 8) / (float)(1 << 23) - 1.0f;
}

static void test_hand_values(void)
{
    /* 2 vertices, 2 dense position targets: the largest |delta| is 0.5, so
     * the scale is 0.5 / 32767 and 0.5, 0.25, -0.5 are exact multiples up to
     * rounding of q */
    uint32_t counts[6] = {MK_MORPH_DENSE, 0, 0, MK_MORPH_DENSE, 0, 0};
    mk_morph_set_desc d = {2, 2, false, false, counts};
    mk_morph_set *s;
    CHECK(mk_morph_set_create(&d, NULL, &s, NULL) == MK_OK);
    const float base[6] = {1, 2, 3, 4, 5, 6};
    const float d0[6] = {0.5f, 0, 0, 0, 0.25f, 0}, d1[6] = {0, 0, -0.5f, 0, 0, 0.5f};
    memcpy(s->base_positions, base, sizeof base);
    memcpy(s->targets[0].delta[0].values, d0, sizeof d0);
    memcpy(s->targets[1].delta[0].values, d1, sizeof d1);
    s->default_weights[1] = 1.0f;
    mk_qmorph_set *q;
    CHECK(mk_qmorph_set_quantize(s, NULL, &q, NULL) == MK_OK);
    CHECK_NEAR(q->delta_scale[0], 0.5 / 32767, 1e-12);
    CHECK(q->targets[0].delta[0].values[0] == 32767 && q->targets[1].delta[0].values[2] == -32767);
    CHECK(q->targets[0].delta[0].values[4] == 16384); /* 0.25 / scale = 16383.5, rounded */
    CHECK(q->base_normals == NULL && q->default_weights[1] == 1.0f);
    float out[6];
    const float w[2] = {2.0f, 1.0f};
    CHECK(mk_qmorph_evaluate(q, w, out, NULL, 2, NULL) == MK_OK);
    /* base + 2 d0 + d1 = (2, 2, 2.5), (4, 5.5, 6.5) */
    CHECK_NEAR(out[0], 2.0, 1e-6);
    CHECK_NEAR(out[2], 2.5, 1e-6);
    CHECK_NEAR(out[4], 5.5, 2e-5); /* 0.25 is half a step off a multiple */
    CHECK_NEAR(out[5], 6.5, 1e-6);
    CHECK(mk_qmorph_evaluate(q, NULL, out, NULL, 2, NULL) == MK_OK); /* default: d1 only */
    CHECK_NEAR(out[2], 2.5, 1e-6);
    CHECK_NEAR(out[0], 1.0, 0.0);
    mk_error err;
    CHECK(mk_qmorph_evaluate(q, w, out, NULL, 1, &err) == MK_ERR_INVALID_ARGUMENT);
    const float bad[2] = {NAN, 0};
    CHECK(mk_qmorph_evaluate(q, bad, out, NULL, 2, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_qmorph_evaluate(NULL, w, out, NULL, 2, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_qmorph_evaluate(q, w, NULL, NULL, 2, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_qmorph_set_quantize(NULL, NULL, &q, &err) == MK_ERR_INVALID_ARGUMENT);
    mk_qmorph_set_destroy(q);
    mk_morph_set_destroy(s);
    /* tangent deltas stay float */
    uint32_t tc[3] = {0, 0, MK_MORPH_DENSE};
    mk_morph_set_desc td = {2, 1, false, true, tc};
    CHECK(mk_morph_set_create(&td, NULL, &s, NULL) == MK_OK);
    mk_qmorph_set *none = NULL;
    CHECK(mk_qmorph_set_quantize(s, NULL, &none, &err) == MK_ERR_UNSUPPORTED && none == NULL);
    mk_morph_set_destroy(s);
}

/* 3 000 vertices (several blocks), 10 targets: dense, sparse (every 7th
 * vertex) and absent, normals; several weight vectors. */
static void test_within_stated_bound(void)
{
    enum { V = 3000, T = 10 };
    uint32_t counts[T * 3] = {0};
    for (int t = 0; t < T; t++) {
        uint32_t c = t % 3 == 0 ? MK_MORPH_DENSE : t % 3 == 1 ? (V + 6) / 7 : 0;
        counts[3 * t] = c;
        counts[3 * t + 1] = t == 9 ? 0 : c == 0 ? MK_MORPH_DENSE : c;
    }
    mk_morph_set_desc d = {V, T, true, false, counts};
    mk_morph_set *s;
    CHECK(mk_morph_set_create(&d, NULL, &s, NULL) == MK_OK);
    for (int i = 0; i < V * 3; i++) {
        s->base_positions[i] = 10.0f * frand();
        s->base_normals[i] = frand();
    }
    float largest[2] = {0, 0};
    for (int t = 0; t < T; t++)
        for (int a = 0; a < 2; a++) {
            mk_morph_delta *dl = &s->targets[t].delta[a];
            for (uint32_t e = 0; dl->indices && e < dl->entry_count; e++)
                dl->indices[e] = e * 7;
            for (size_t k = 0; k < (size_t)dl->entry_count * 3; k++) {
                dl->values[k] = (a ? 0.3f : 2.0f) * frand() * (float)(t + 1) / T;
                largest[a] = fmaxf(largest[a], fabsf(dl->values[k]));
            }
        }
    CHECK(mk_morph_set_validate(s, NULL) == MK_OK);
    mk_qmorph_set *q;
    CHECK(mk_qmorph_set_quantize(s, NULL, &q, NULL) == MK_OK);
    CHECK(q->byte_size < s->byte_size * 2 / 3); /* the deltas take half */
    static float fp[3 * V], fn[3 * V], qp[3 * V], qn[3 * V], un[3 * V];
    double worst = 0;
    for (int round = 0; round < 5; round++) {
        float w[T], wsum = 0;
        for (int t = 0; t < T; t++) {
            w[t] = (t + round) % 4 == 0 ? 0.0f : 1.5f * frand();
            wsum += fabsf(w[t]);
        }
        CHECK(mk_morph_evaluate(s, w, fp, fn, NULL, V, NULL) == MK_OK);
        CHECK(mk_qmorph_evaluate(q, w, qp, qn, V, NULL) == MK_OK);
        /* the float normals before normalization, for L */
        for (int i = 0; i < V * 3; i++)
            un[i] = s->base_normals[i];
        for (int t = 0; t < T; t++) {
            const mk_morph_delta *dl = &s->targets[t].delta[1];
            for (uint32_t e = 0; e < dl->entry_count; e++) {
                uint32_t v = dl->indices ? dl->indices[e] : e;
                for (int c = 0; c < 3; c++)
                    un[3 * v + c] += w[t] * dl->values[3 * e + c];
            }
        }
        for (int i = 0; i < V * 3; i++) {
            double m = fabs(s->base_positions[i]) + wsum * largest[0];
            double bound = 0.5 * q->delta_scale[0] * wsum + MK_QMORPH_ROUNDING * m;
            double e = fabs(qp[i] - fp[i]);
            CHECK(e <= bound);
            worst = fmax(worst, e / bound);
        }
        for (int v = 0; v < V; v++) {
            double l2 = 0, e2 = 0, bound = 0;
            for (int c = 0; c < 3; c++) {
                int i = 3 * v + c;
                l2 += (double)un[i] * un[i];
                e2 += (double)(qn[i] - fn[i]) * (qn[i] - fn[i]);
                double m = fabs(s->base_normals[i]) + wsum * largest[1];
                bound = fmax(bound, 0.5 * q->delta_scale[1] * wsum + MK_QMORPH_ROUNDING * m);
            }
            if (l2 > 1e-2)
                CHECK(sqrt(e2) <= 2.0 * sqrt(3.0) * bound / sqrt(l2));
        }
    }
    CHECK(worst > 0.01); /* quantization shows: the check is not vacuous */
    mk_qmorph_set_destroy(q);
    mk_morph_set_destroy(s);
}

int main(int argc, char **argv)
{
    static const mk_test_case cases[] = {MK_TEST(test_hand_values),
                                         MK_TEST(test_within_stated_bound)};
    return mk_test_run(cases, sizeof cases / sizeof cases[0], argc, argv);
}
