/* Linear blend skinning (skin.h): one block per skin, a plain C reference
 * kernel, SSE2 and AVX2 + FMA ones that blend the joint matrices column by
 * column a vertex at a time, an AVX-512 one that works on eight vertices in
 * structure-of-arrays form, and the fused morph-then-skin loop. */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "kernels.h"
#include "morphkit/morph.h"
#include "morphkit/skin.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef struct skin_layout {
    size_t joints, weights, ibm, nodes, total;
} skin_layout;

static bool layout(const mk_skin_desc *d, skin_layout *l)
{
    size_t n, total = sizeof(mk_skin);
    if (!mk_size_mul(d->vertex_count, d->influence_count, &n))
        return false;
    return mk_layout_add(&total, n, sizeof(uint16_t), &l->joints) &&
           mk_layout_add(&total, n, sizeof(float), &l->weights) &&
           mk_layout_add(&total, (size_t)d->joint_count * 16, sizeof(float), &l->ibm) &&
           mk_layout_add(&total, d->joint_count, sizeof(uint32_t), &l->nodes) &&
           mk_size_align16(total, &l->total);
}

mk_status mk_skin_create(const mk_skin_desc *desc, const mk_allocator *allocator, mk_skin **out,
                         mk_error *err)
{
    if (!out)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "skin: out is NULL");
    *out = NULL;
    if (!desc || desc->vertex_count == 0 || desc->joint_count == 0 ||
        desc->influence_count == 0 || desc->joint_count > MK_SKIN_MAX_JOINTS)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "skin: needs vertices, influences and 1..%u joints",
                            MK_SKIN_MAX_JOINTS);
    skin_layout l;
    if (!layout(desc, &l))
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0, "skin: size overflows");
    uint8_t *block = (uint8_t *)mk_alloc(allocator, l.total);
    if (!block)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "skin: out of memory (%zu bytes)",
                            l.total);
    memset(block, 0, l.total);
    mk_skin *s = (mk_skin *)(void *)block;
    s->vertex_count = desc->vertex_count;
    s->joint_count = desc->joint_count;
    s->influence_count = desc->influence_count;
    s->joints = (uint16_t *)(void *)(block + l.joints);
    s->weights = (float *)(void *)(block + l.weights);
    s->inverse_bind_matrices = (float *)(void *)(block + l.ibm);
    s->joint_nodes = (uint32_t *)(void *)(block + l.nodes);
    for (uint32_t j = 0; j < s->joint_count; j++) {
        float *m = s->inverse_bind_matrices + (size_t)j * 16;
        m[0] = m[5] = m[10] = m[15] = 1.0f;
        s->joint_nodes[j] = MK_NONE;
    }
    s->allocator = mk_allocator_copy(allocator);
    s->byte_size = l.total;
    *out = s;
    return MK_OK;
}

void mk_skin_destroy(mk_skin *skin)
{
    if (!skin)
        return;
    mk_allocator a = skin->allocator;
    mk_free(&a, skin, skin->byte_size);
}

mk_status mk_skin_prepare(mk_skin *skin, mk_error *err)
{
    if (!skin)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "skin: NULL");
    skin->prepared = false;
    for (size_t i = 0; i < (size_t)skin->joint_count * 16; i++)
        if (!isfinite(skin->inverse_bind_matrices[i]))
            return mk_error_set(err, MK_ERR_RANGE, NULL, 0,
                                "skin: inverse bind matrix %zu holds NaN or infinity", i / 16);
    uint32_t n = skin->influence_count;
    for (uint32_t v = 0; v < skin->vertex_count; v++) {
        const uint16_t *j = skin->joints + (size_t)v * n;
        float *w = skin->weights + (size_t)v * n;
        double sum = 0.0;
        for (uint32_t k = 0; k < n; k++) {
            if (j[k] >= skin->joint_count)
                return mk_error_set(err, MK_ERR_RANGE, NULL, 0,
                                    "skin: vertex %u influence %u: joint %u is not below the "
                                    "joint count %u",
                                    v, k, j[k], skin->joint_count);
            if (!(w[k] >= 0.0f) || !isfinite(w[k]))
                return mk_error_set(err, MK_ERR_RANGE, NULL, 0,
                                    "skin: vertex %u influence %u: weight %g is negative or not "
                                    "finite",
                                    v, k, (double)w[k]);
            sum += w[k];
        }
        if (sum == 0.0) {
            w[0] = 1.0f; /* as three.js: an unweighted vertex follows its first joint */
        } else if (fabs(sum - 1.0) > MK_SKIN_WEIGHT_TOLERANCE) {
            float inv = (float)(1.0 / sum);
            for (uint32_t k = 0; k < n; k++)
                w[k] *= inv;
        }
    }
    skin->prepared = true;
    return MK_OK;
}

/* out = a * b, column-major 4x4. */
static void mat4_mul(float *out, const float *a, const float *b)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            out[c * 4 + r] = a[r] * b[c * 4] + a[4 + r] * b[c * 4 + 1] +
                             a[8 + r] * b[c * 4 + 2] + a[12 + r] * b[c * 4 + 3];
}

mk_status mk_skin_joint_matrices(const mk_skin *skin, const float *world, size_t world_count,
                                 float *out, size_t capacity, mk_error *err)
{
    if (!skin || !world || !out || capacity < skin->joint_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "skin joint matrices: NULL argument or output below %u matrices",
                            skin ? skin->joint_count : 0);
    for (uint32_t j = 0; j < skin->joint_count; j++)
        if (skin->joint_nodes[j] >= world_count)
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "skin joint matrices: joint %u's node is not one of the %zu world "
                                "matrices",
                                j, world_count);
    for (uint32_t j = 0; j < skin->joint_count; j++)
        mat4_mul(out + (size_t)j * 16, world + (size_t)skin->joint_nodes[j] * 16,
                 skin->inverse_bind_matrices + (size_t)j * 16);
    return MK_OK;
}

/* Writes normalize(v) or (0, 0, 0) into out. */
static void store_unit(float *out, float x, float y, float z)
{
    float l2 = x * x + y * y + z * z;
    if (l2 < MK_NORMAL_MIN_LENGTH2) {
        out[0] = out[1] = out[2] = 0.0f;
        return;
    }
    float inv = 1.0f / sqrtf(l2);
    out[0] = x * inv;
    out[1] = y * inv;
    out[2] = z * inv;
}

/* The kernels skin vertices [first, first + count): the in and out
 * pointers point at vertex first (a whole array, or one block of
 * mk_skin_apply_morph's). Each vertex's result depends only on its own
 * data, never on where the range starts, so skinning block by block gives
 * what one whole-array call gives, bit for bit. */
static void apply_scalar(const mk_skin *skin, size_t first, size_t count, const float *jm,
                         const float *ip, const float *in, const float *it, float *op, float *on,
                         float *ot)
{
    uint32_t n = skin->influence_count;
    for (size_t v = 0; v < count; v++) {
        const uint16_t *j = skin->joints + (first + v) * n;
        const float *w = skin->weights + (first + v) * n;
        float m[12] = {0}; /* the blended matrix's first three rows, column-major 3x4 */
        for (uint32_t k = 0; k < n; k++) {
            const float *J = jm + (size_t)j[k] * 16;
            for (int c = 0; c < 4; c++)
                for (int r = 0; r < 3; r++)
                    m[c * 3 + r] += w[k] * J[c * 4 + r];
        }
        float x = ip[v * 3], y = ip[v * 3 + 1], z = ip[v * 3 + 2];
        for (int r = 0; r < 3; r++)
            op[v * 3 + r] = m[r] * x + m[3 + r] * y + m[6 + r] * z + m[9 + r];
        if (in) {
            x = in[v * 3], y = in[v * 3 + 1], z = in[v * 3 + 2];
            store_unit(on + v * 3, m[0] * x + m[3] * y + m[6] * z, m[1] * x + m[4] * y + m[7] * z,
                       m[2] * x + m[5] * y + m[8] * z);
        }
        if (it) {
            float tw = it[v * 4 + 3];
            x = it[v * 4], y = it[v * 4 + 1], z = it[v * 4 + 2];
            store_unit(ot + v * 4, m[0] * x + m[3] * y + m[6] * z, m[1] * x + m[4] * y + m[7] * z,
                       m[2] * x + m[5] * y + m[8] * z);
            ot[v * 4 + 3] = tw;
        }
    }
}

void mk_skin_apply_scalar(const mk_skin *skin, const float *jm, const float *ip, const float *in,
                          const float *it, float *op, float *on, float *ot)
{
    apply_scalar(skin, 0, skin->vertex_count, jm, ip, in, it, op, on, ot);
}

#if defined(__SSE2__)
/* normalize(xyz of r), or zeros below MK_NORMAL_MIN_LENGTH2, all in
 * registers (a round trip through memory costs more than the arithmetic). */
static inline __m128 unit_sse(__m128 r)
{
    __m128 sq = _mm_mul_ps(r, r);
    __m128 l2 = _mm_add_ss(_mm_add_ss(sq, _mm_shuffle_ps(sq, sq, _MM_SHUFFLE(1, 1, 1, 1))),
                           _mm_movehl_ps(sq, sq));
    __m128 inv = _mm_div_ss(_mm_set_ss(1.0f), _mm_sqrt_ss(l2));
    inv = _mm_and_ps(inv, _mm_cmpge_ss(l2, _mm_set_ss(MK_NORMAL_MIN_LENGTH2)));
    return _mm_mul_ps(r, _mm_shuffle_ps(inv, inv, 0));
}

static inline void store3(float *o, __m128 r)
{
    _mm_storel_pi((__m64 *)(void *)o, r);
    _mm_store_ss(o + 2, _mm_movehl_ps(r, r));
}

/* c0..c3: the blended matrix's columns; v: xyz of a direction. */
static inline __m128 linear3(__m128 c0, __m128 c1, __m128 c2, const float *v)
{
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(c0, _mm_set1_ps(v[0])), _mm_mul_ps(c1, _mm_set1_ps(v[1]))),
                      _mm_mul_ps(c2, _mm_set1_ps(v[2])));
}

/* The blended matrix's four columns live in four registers (the fourth row
 * rides along unused); each influence adds w * column, so a vertex costs
 * 4 multiply-adds per influence plus one matrix-vector product per
 * attribute, with no transposes. N > 0: the influence count known at
 * compile time (unrolled), 0: skin->influence_count. */
static inline void apply_sse2_n(const mk_skin *skin, size_t first, size_t vc, const float *jm,
                                const float *ip, const float *in, const float *it, float *op,
                                float *on, float *ot, const uint32_t N)
{
    uint32_t n = N ? N : skin->influence_count;
    for (size_t v = 0; v < vc; v++) {
        const uint16_t *j = skin->joints + (first + v) * n;
        const float *w = skin->weights + (first + v) * n;
        __m128 c0 = _mm_setzero_ps(), c1 = c0, c2 = c0, c3 = c0;
        for (uint32_t k = 0; k < n; k++) {
            const float *J = jm + (size_t)j[k] * 16;
            __m128 wk = _mm_set1_ps(w[k]);
            c0 = _mm_add_ps(c0, _mm_mul_ps(wk, _mm_loadu_ps(J)));
            c1 = _mm_add_ps(c1, _mm_mul_ps(wk, _mm_loadu_ps(J + 4)));
            c2 = _mm_add_ps(c2, _mm_mul_ps(wk, _mm_loadu_ps(J + 8)));
            c3 = _mm_add_ps(c3, _mm_mul_ps(wk, _mm_loadu_ps(J + 12)));
        }
        __m128 r = _mm_add_ps(linear3(c0, c1, c2, ip + v * 3), c3);
        store3(op + v * 3, r);
        if (in)
            store3(on + v * 3, unit_sse(linear3(c0, c1, c2, in + v * 3)));
        if (it) {
            float tw = it[v * 4 + 3];
            store3(ot + v * 4, unit_sse(linear3(c0, c1, c2, it + v * 4)));
            ot[v * 4 + 3] = tw;
        }
    }
}

static void apply_sse2(const mk_skin *skin, size_t first, size_t count, const float *jm,
                       const float *ip, const float *in, const float *it, float *op, float *on,
                       float *ot)
{
    if (skin->influence_count == 4)
        apply_sse2_n(skin, first, count, jm, ip, in, it, op, on, ot, 4);
    else if (skin->influence_count == 8)
        apply_sse2_n(skin, first, count, jm, ip, in, it, op, on, ot, 8);
    else
        apply_sse2_n(skin, first, count, jm, ip, in, it, op, on, ot, 0);
}

void mk_skin_apply_sse2(const mk_skin *skin, const float *jm, const float *ip, const float *in,
                       const float *it, float *op, float *on, float *ot)
{
    apply_sse2(skin, 0, skin->vertex_count, jm, ip, in, it, op, on, ot);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define MK_SKIN_HAVE_AVX2 1
#define MK_AVX2 __attribute__((target("avx2,fma")))

/* The blended matrix of vertex v: columns 0-1 in *a, 2-3 in *b. */
MK_AVX2 static inline void blend_avx2(const mk_skin *skin, const float *jm, size_t v,
                                      uint32_t n, __m256 *a, __m256 *b)
{
    const uint16_t *j = skin->joints + v * n;
    const float *w = skin->weights + v * n;
    __m256 ra = _mm256_setzero_ps(), rb = ra;
    for (uint32_t k = 0; k < n; k++) {
        const float *J = jm + (size_t)j[k] * 16;
        __m256 wk = _mm256_set1_ps(w[k]);
        ra = _mm256_fmadd_ps(wk, _mm256_loadu_ps(J), ra);
        rb = _mm256_fmadd_ps(wk, _mm256_loadu_ps(J + 8), rb);
    }
    *a = ra;
    *b = rb;
}

/* M * (v, h): h = 1 for a point, 0 for a direction. The columns are
 * taken out of the two registers (the low halves for free) and combined
 * with broadcasts, fewer instructions than combining whole registers. */
MK_AVX2 static inline __m128 transform_avx2(__m256 a, __m256 b, const float *v, float h)
{
    __m128 r = _mm_mul_ps(_mm256_castps256_ps128(a), _mm_set1_ps(v[0]));
    r = _mm_fmadd_ps(_mm256_extractf128_ps(a, 1), _mm_set1_ps(v[1]), r);
    r = _mm_fmadd_ps(_mm256_castps256_ps128(b), _mm_set1_ps(v[2]), r);
    return h != 0.0f ? _mm_add_ps(r, _mm256_extractf128_ps(b, 1)) : r;
}

/* Normalizes four directions at once (one square root and one division for
 * the four): the same operations in the same order as unit_sse. */
MK_AVX2 static inline void unit4_avx2(__m128 *r)
{
    __m128 x = r[0], y = r[1], z = r[2], w = r[3];
    _MM_TRANSPOSE4_PS(x, y, z, w);
    __m128 l2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z));
    __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(l2));
    inv = _mm_and_ps(inv, _mm_cmpge_ps(l2, _mm_set1_ps(MK_NORMAL_MIN_LENGTH2)));
    r[0] = _mm_mul_ps(r[0], _mm_shuffle_ps(inv, inv, _MM_SHUFFLE(0, 0, 0, 0)));
    r[1] = _mm_mul_ps(r[1], _mm_shuffle_ps(inv, inv, _MM_SHUFFLE(1, 1, 1, 1)));
    r[2] = _mm_mul_ps(r[2], _mm_shuffle_ps(inv, inv, _MM_SHUFFLE(2, 2, 2, 2)));
    r[3] = _mm_mul_ps(r[3], _mm_shuffle_ps(inv, inv, _MM_SHUFFLE(3, 3, 3, 3)));
}

/* AVX2 + FMA: the blended matrix as two registers of two columns each, so
 * an influence is 2 loads and 2 fused multiply-adds; normals are
 * normalized four vertices at a time. FMA rounds
 * once where SSE2 rounds twice: results agree with the reference within the
 * tolerance of skin.h, not bit for bit. */
MK_AVX2 static inline void apply_avx2_n(const mk_skin *skin, size_t first, size_t vc,
                                        const float *jm, const float *ip, const float *in,
                                        const float *it, float *op, float *on, float *ot,
                                        const uint32_t N)
{
    uint32_t n = N ? N : skin->influence_count;
    size_t v = 0;
    __m256 a, b;
    if (in && !it) {
        for (; v + 4 <= vc; v += 4) {
            __m128 nr[4];
            for (size_t u = 0; u < 4; u++) {
                blend_avx2(skin, jm, first + v + u, n, &a, &b);
                nr[u] = transform_avx2(a, b, in + (v + u) * 3, 0.0f);
                store3(op + (v + u) * 3, transform_avx2(a, b, ip + (v + u) * 3, 1.0f));
            }
            unit4_avx2(nr);
            for (size_t u = 0; u < 4; u++)
                store3(on + (v + u) * 3, nr[u]);
        }
    }
    for (; v < vc; v++) {
        blend_avx2(skin, jm, first + v, n, &a, &b);
        store3(op + v * 3, transform_avx2(a, b, ip + v * 3, 1.0f));
        if (in)
            store3(on + v * 3, unit_sse(transform_avx2(a, b, in + v * 3, 0.0f)));
        if (it) {
            float tw = it[v * 4 + 3];
            store3(ot + v * 4, unit_sse(transform_avx2(a, b, it + v * 4, 0.0f)));
            ot[v * 4 + 3] = tw;
        }
    }
}

MK_AVX2 static void apply_avx2(const mk_skin *skin, size_t first, size_t count, const float *jm,
                               const float *ip, const float *in, const float *it, float *op,
                               float *on, float *ot)
{
    if (skin->influence_count == 4)
        apply_avx2_n(skin, first, count, jm, ip, in, it, op, on, ot, 4);
    else if (skin->influence_count == 8)
        apply_avx2_n(skin, first, count, jm, ip, in, it, op, on, ot, 8);
    else
        apply_avx2_n(skin, first, count, jm, ip, in, it, op, on, ot, 0);
    _mm256_zeroupper(); /* dirty upper halves slow down the SSE code that follows */
}

void mk_skin_apply_avx2(const mk_skin *skin, const float *jm, const float *ip, const float *in,
                        const float *it, float *op, float *on, float *ot)
{
    apply_avx2(skin, 0, skin->vertex_count, jm, ip, in, it, op, on, ot);
}

bool mk_skin_have_avx2(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

#define MK_AVX512 __attribute__((target("avx512f,avx512vl,avx2,fma")))

/* The high eight floats of a register (AVX-512F only: no DQ needed). */
MK_AVX512 static inline __m256 hi8(__m512 a)
{
    return _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(a), 1));
}

MK_AVX512 static inline __m512 join8(__m256 lo, __m256 hi)
{
    return _mm512_castpd_ps(
        _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_castps_pd(lo)), _mm256_castps_pd(hi), 1));
}

/* The blended 4x4 matrix of one vertex, whole in one register: one fused
 * multiply-add per influence. */
MK_AVX512 static inline __attribute__((always_inline)) __m512 blend16(const uint16_t *j, const float *w, const float *jm,
                                       uint32_t n)
{
    if (n == 4) { /* the four indices in one load: one load port use instead of four */
        uint64_t x;
        memcpy(&x, j, 8);
        __m512 r = _mm512_mul_ps(_mm512_set1_ps(w[0]), _mm512_loadu_ps(jm + (size_t)(x & 0xFFFF) * 16));
        r = _mm512_fmadd_ps(_mm512_set1_ps(w[1]), _mm512_loadu_ps(jm + (size_t)(x >> 16 & 0xFFFF) * 16), r);
        r = _mm512_fmadd_ps(_mm512_set1_ps(w[2]), _mm512_loadu_ps(jm + (size_t)(x >> 32 & 0xFFFF) * 16), r);
        return _mm512_fmadd_ps(_mm512_set1_ps(w[3]), _mm512_loadu_ps(jm + (size_t)(x >> 48) * 16), r);
    }
    __m512 r = _mm512_mul_ps(_mm512_set1_ps(w[0]), _mm512_loadu_ps(jm + (size_t)j[0] * 16));
    for (uint32_t k = 1; k < n; k++)
        r = _mm512_fmadd_ps(_mm512_set1_ps(w[k]), _mm512_loadu_ps(jm + (size_t)j[k] * 16), r);
    return r;
}

/* Eight vertices' blended matrices (one register each, column-major) to
 * structure of arrays: m[r][c] holds element (row r, column c) of the
 * eight. The fourth row is never needed. Two unpack rounds make, per row,
 * four columns of four vertices; one two-source permute per column pair
 * joins the two groups of four. */
MK_AVX512 static inline void transpose8(const __m512 M[8], __m256 m[3][4])
{
    __m512 t[8];
    for (int i = 0; i < 4; i++) {
        t[2 * i] = _mm512_unpacklo_ps(M[2 * i], M[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_ps(M[2 * i], M[2 * i + 1]);
    }
#define MK_LO64(a, b) _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(a), _mm512_castps_pd(b)))
#define MK_HI64(a, b) _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(a), _mm512_castps_pd(b)))
    const __m512 ra[3] = {MK_LO64(t[0], t[2]), MK_HI64(t[0], t[2]), MK_LO64(t[1], t[3])};
    const __m512 rb[3] = {MK_LO64(t[4], t[6]), MK_HI64(t[4], t[6]), MK_LO64(t[5], t[7])};
#undef MK_LO64
#undef MK_HI64
    const __m512i c01 = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
    const __m512i c23 = _mm512_setr_epi32(8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29,
                                          30, 31);
    for (int r = 0; r < 3; r++) {
        __m512 a = _mm512_permutex2var_ps(ra[r], c01, rb[r]);
        __m512 b = _mm512_permutex2var_ps(ra[r], c23, rb[r]);
        m[r][0] = _mm512_castps512_ps256(a);
        m[r][1] = hi8(a);
        m[r][2] = _mm512_castps512_ps256(b);
        m[r][3] = hi8(b);
    }
}

/* Normalizes eight directions: the reciprocal square root estimate
 * (relative error below 2^-14) and one Newton step, y + y (1/2 - l2 y^2 / 2),
 * leave an error of a few float ulps, well inside skin.h's 1e-6; below
 * MK_NORMAL_MIN_LENGTH2 the result is zero, as in the reference. */
MK_AVX512 static inline void unit8(__m256 *x, __m256 *y, __m256 *z)
{
    __m256 l2 = _mm256_fmadd_ps(*x, *x, _mm256_fmadd_ps(*y, *y, _mm256_mul_ps(*z, *z)));
    __m256 e = _mm256_rsqrt14_ps(l2);
    __m256 t = _mm256_mul_ps(_mm256_mul_ps(l2, _mm256_set1_ps(0.5f)), e);
    __m256 inv = _mm256_fmadd_ps(e, _mm256_fnmadd_ps(t, e, _mm256_set1_ps(0.5f)), e);
    __mmask8 ok = _mm256_cmp_ps_mask(l2, _mm256_set1_ps(MK_NORMAL_MIN_LENGTH2), _CMP_GE_OQ);
    inv = _mm256_maskz_mov_ps(ok, inv);
    *x = _mm256_mul_ps(*x, inv);
    *y = _mm256_mul_ps(*y, inv);
    *z = _mm256_mul_ps(*z, inv);
}

/* Eight packed float3 (24 floats; fewer in a masked tail) to x, y, z. */
MK_AVX512 static inline __attribute__((always_inline)) void load3x8(const float *p, __mmask16 k0, __mmask16 k1, __m256 *x,
                                     __m256 *y, __m256 *z)
{
    const __m512i ixy = _mm512_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21, 1, 4, 7, 10, 13, 16, 19, 22);
    const __m512i iz = _mm512_setr_epi32(2, 5, 8, 11, 14, 17, 20, 23, 2, 5, 8, 11, 14, 17, 20, 23);
    __m512 a, b;
    if (k1 == 0xFF) { /* a whole group: plain loads */
        a = _mm512_loadu_ps(p);
        b = _mm512_castps256_ps512(_mm256_loadu_ps(p + 16));
    } else {
        a = _mm512_maskz_loadu_ps(k0, p);
        b = _mm512_maskz_loadu_ps(k1, p + 16);
    }
    __m512 xy = _mm512_permutex2var_ps(a, ixy, b);
    *x = _mm512_castps512_ps256(xy);
    *y = hi8(xy);
    *z = _mm512_castps512_ps256(_mm512_permutex2var_ps(a, iz, b));
}

MK_AVX512 static inline __attribute__((always_inline)) void store3x8(float *p, __mmask16 k0, __mmask16 k1, __m256 x, __m256 y,
                                      __m256 z)
{
    const __m512i o0 = _mm512_setr_epi32(0, 8, 16, 1, 9, 17, 2, 10, 18, 3, 11, 19, 4, 12, 20, 5);
    const __m512i o1 = _mm512_setr_epi32(13, 21, 6, 14, 22, 7, 15, 23, 0, 0, 0, 0, 0, 0, 0, 0);
    __m512 xy = join8(x, y), zz = _mm512_castps256_ps512(z);
    __m512 a = _mm512_permutex2var_ps(xy, o0, zz), b = _mm512_permutex2var_ps(xy, o1, zz);
    if (k1 == 0xFF) { /* a whole group: plain stores */
        _mm512_storeu_ps(p, a);
        _mm256_storeu_ps(p + 16, _mm512_castps512_ps256(b));
    } else {
        _mm512_mask_storeu_ps(p, k0, a);
        _mm512_mask_storeu_ps(p + 16, k1, b);
    }
}

/* Eight vertices from vertex v of the range (m <= 8 of them: the tail is
 * done by the same arithmetic with masked loads and stores, so a vertex's
 * result never depends on where a range or block starts). */
MK_AVX512 static inline __attribute__((always_inline)) void skin8(const mk_skin *skin, size_t first, size_t v, size_t m,
                                   const float *jm, const float *ip, const float *in,
                                   const float *it, float *op, float *on, float *ot, uint32_t n)
{
    __m512 M[8];
    const uint16_t *j = skin->joints + (first + v) * n;
    const float *w = skin->weights + (first + v) * n;
    for (size_t u = 0; u < 8; u++)
        M[u] = u < m ? blend16(j + u * n, w + u * n, jm, n) : _mm512_setzero_ps();
    __m256 c[3][4];
    transpose8(M, c);
    uint32_t f3 = (uint32_t)m * 3;
    __mmask16 k0 = f3 >= 16 ? 0xFFFF : (__mmask16)((1u << f3) - 1);
    __mmask16 k1 = f3 > 16 ? (__mmask16)((1u << (f3 - 16)) - 1) : 0;
    __m256 x, y, z, r[3];
    load3x8(ip + v * 3, k0, k1, &x, &y, &z);
    for (int i = 0; i < 3; i++)
        r[i] = _mm256_fmadd_ps(c[i][0], x,
                               _mm256_fmadd_ps(c[i][1], y, _mm256_fmadd_ps(c[i][2], z, c[i][3])));
    store3x8(op + v * 3, k0, k1, r[0], r[1], r[2]);
    if (in) {
        load3x8(in + v * 3, k0, k1, &x, &y, &z);
        for (int i = 0; i < 3; i++)
            r[i] = _mm256_fmadd_ps(c[i][0], x,
                                   _mm256_fmadd_ps(c[i][1], y, _mm256_mul_ps(c[i][2], z)));
        unit8(&r[0], &r[1], &r[2]);
        store3x8(on + v * 3, k0, k1, r[0], r[1], r[2]);
    }
    if (it) {
        /* Tangents: 32 floats, x y z w per vertex; w passes through. */
        const __m512i ixy = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21,
                                              25, 29);
        const __m512i izw = _mm512_setr_epi32(2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23,
                                              27, 31);
        const __m512i o0 = _mm512_setr_epi32(0, 8, 16, 24, 1, 9, 17, 25, 2, 10, 18, 26, 3, 11, 19,
                                             27);
        const __m512i o1 = _mm512_setr_epi32(4, 12, 20, 28, 5, 13, 21, 29, 6, 14, 22, 30, 7, 15,
                                             23, 31);
        uint32_t f4 = (uint32_t)m * 4;
        __mmask16 t0 = f4 >= 16 ? 0xFFFF : (__mmask16)((1u << f4) - 1);
        __mmask16 t1 = f4 >= 32 ? 0xFFFF : f4 > 16 ? (__mmask16)((1u << (f4 - 16)) - 1) : 0;
        __m512 a = m == 8 ? _mm512_loadu_ps(it + v * 4) : _mm512_maskz_loadu_ps(t0, it + v * 4);
        __m512 b = m == 8 ? _mm512_loadu_ps(it + v * 4 + 16)
                          : _mm512_maskz_loadu_ps(t1, it + v * 4 + 16);
        __m512 xy = _mm512_permutex2var_ps(a, ixy, b), zw = _mm512_permutex2var_ps(a, izw, b);
        x = _mm512_castps512_ps256(xy), y = hi8(xy), z = _mm512_castps512_ps256(zw);
        for (int i = 0; i < 3; i++)
            r[i] = _mm256_fmadd_ps(c[i][0], x,
                                   _mm256_fmadd_ps(c[i][1], y, _mm256_mul_ps(c[i][2], z)));
        unit8(&r[0], &r[1], &r[2]);
        xy = join8(r[0], r[1]);
        zw = join8(r[2], hi8(zw));
        a = _mm512_permutex2var_ps(xy, o0, zw);
        b = _mm512_permutex2var_ps(xy, o1, zw);
        if (m == 8) {
            _mm512_storeu_ps(ot + v * 4, a);
            _mm512_storeu_ps(ot + v * 4 + 16, b);
        } else {
            _mm512_mask_storeu_ps(ot + v * 4, t0, a);
            _mm512_mask_storeu_ps(ot + v * 4 + 16, t1, b);
        }
    }
}

/* AVX-512: eight vertices per step in structure-of-arrays form. Each
 * vertex's matrix is blended whole in one register (one fused multiply-add
 * per influence), the eight are transposed once, and the transforms and
 * normalizations then run on eight vertices per instruction. Matches the
 * reference within skin.h's tolerance, not bit for bit (fused rounding,
 * the square root estimate). */
MK_AVX512 static inline __attribute__((always_inline)) void apply_avx512_n(const mk_skin *skin, size_t first, size_t vc,
                                            const float *jm, const float *ip, const float *in,
                                            const float *it, float *op, float *on, float *ot,
                                            const uint32_t N)
{
    uint32_t n = N ? N : skin->influence_count;
    size_t v = 0;
    for (; v + 8 <= vc; v += 8) /* m = 8 known here: no masks in the main loop */
        skin8(skin, first, v, 8, jm, ip, in, it, op, on, ot, n);
    if (v < vc)
        skin8(skin, first, v, vc - v, jm, ip, in, it, op, on, ot, n);
}

MK_AVX512 static void apply_avx512(const mk_skin *skin, size_t first, size_t count,
                                   const float *jm, const float *ip, const float *in,
                                   const float *it, float *op, float *on, float *ot)
{
    if (skin->influence_count == 4)
        apply_avx512_n(skin, first, count, jm, ip, in, it, op, on, ot, 4);
    else if (skin->influence_count == 8)
        apply_avx512_n(skin, first, count, jm, ip, in, it, op, on, ot, 8);
    else
        apply_avx512_n(skin, first, count, jm, ip, in, it, op, on, ot, 0);
    _mm256_zeroupper();
}

void mk_skin_apply_avx512(const mk_skin *skin, const float *jm, const float *ip, const float *in,
                          const float *it, float *op, float *on, float *ot)
{
    apply_avx512(skin, 0, skin->vertex_count, jm, ip, in, it, op, on, ot);
}

bool mk_skin_have_avx512(void)
{
    return mk_skin_have_avx2() && __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512vl");
}
#else
bool mk_skin_have_avx2(void)
{
    return false;
}

bool mk_skin_have_avx512(void)
{
    return false;
}

void mk_skin_apply_avx2(const mk_skin *skin, const float *jm, const float *ip, const float *in,
                        const float *it, float *op, float *on, float *ot)
{
    mk_skin_apply_sse2(skin, jm, ip, in, it, op, on, ot);
}

void mk_skin_apply_avx512(const mk_skin *skin, const float *jm, const float *ip, const float *in,
                          const float *it, float *op, float *on, float *ot)
{
    mk_skin_apply_sse2(skin, jm, ip, in, it, op, on, ot);
}
#endif
#endif

typedef void (*skin_range_fn)(const mk_skin *skin, size_t first, size_t count, const float *jm,
                              const float *ip, const float *in, const float *it, float *op,
                              float *on, float *ot);

/* The range kernel for the library's one kernel choice (made once; MK_SIMD
 * may lower it): AVX-512 where it is avx512 and the CPU has AVX-512VL, AVX2
 * + FMA where it is avx2 or above, else SSE2, else plain C. */
static skin_range_fn kernel(void)
{
#if defined(__SSE2__)
    mk_simd_level level = mk_kernels_active()->level;
#if defined(MK_SKIN_HAVE_AVX2)
    if (level >= MK_SIMD_AVX512 && mk_skin_have_avx512())
        return apply_avx512;
    if (level >= MK_SIMD_AVX2 && mk_skin_have_avx2())
        return apply_avx2;
#endif
    if (level >= MK_SIMD_SSE2)
        return apply_sse2;
#endif
    return apply_scalar;
}

/* Joint matrices on a 64-byte boundary are one cache line each, so that a
 * kernel's load of a matrix never spans two lines (the AVX-512 kernel: one
 * 64-byte load per influence; measured 2.57 -> 2.05 ns a vertex in cache).
 * Matrices elsewhere (malloc gives 16 bytes) are copied to an aligned block
 * on the caller's stack when they are few (8 KB at most) and the copy is
 * small beside the vertices' work; the results do not depend on it. */
#define MK_SKIN_STACK_JOINTS 128u

typedef struct aligned_joints {
    _Alignas(64) float m[MK_SKIN_STACK_JOINTS * 16];
} aligned_joints;

static const float *aligned_matrices(const mk_skin *skin, const float *jm, aligned_joints *buf)
{
    if (((uintptr_t)jm & 63u) == 0 || skin->joint_count > MK_SKIN_STACK_JOINTS ||
        skin->vertex_count < 8 * (size_t)skin->joint_count)
        return jm;
    memcpy(buf->m, jm, (size_t)skin->joint_count * 16 * sizeof(float));
    return buf->m;
}

/* The checks every skinning call shares. */
static bool args_ok(const mk_skin *skin, const float *joint_matrices, size_t matrix_count)
{
    return skin && skin->prepared && joint_matrices && matrix_count >= skin->joint_count;
}

mk_status mk_skin_apply(const mk_skin *skin, const float *joint_matrices, size_t matrix_count,
                        const float *in_positions, const float *in_normals,
                        const float *in_tangents, float *out_positions, float *out_normals,
                        float *out_tangents, size_t out_capacity, mk_error *err)
{
    if (!args_ok(skin, joint_matrices, matrix_count) || !in_positions || !out_positions ||
        !in_normals != !out_normals || !in_tangents != !out_tangents)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "skin apply: unprepared skin, NULL argument, an input without its "
                            "output, or fewer than %u joint matrices",
                            skin ? skin->joint_count : 0);
    if (out_capacity < skin->vertex_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "skin apply: the output holds %zu vertices, the skin has %u",
                            out_capacity, skin->vertex_count);
    aligned_joints buf;
    kernel()(skin, 0, skin->vertex_count, aligned_matrices(skin, joint_matrices, &buf),
             in_positions, in_normals, in_tangents, out_positions, out_normals, out_tangents);
    return MK_OK;
}

/* Vertices per block of the fused morph and skin: 8192 vertices'
 * positions, normals and tangents are 320 KB, still in L2 when the skin
 * reads them back. (Blocks of 1024, in L1, measured slower out of cache
 * than two whole-array calls: the memory-bound morph and the
 * arithmetic-bound skin then alternate too quickly to keep the memory
 * busy.) A multiple of every kernel's step (4 and 8 vertices). */
#define FUSED_BLOCK 8192u

mk_status mk_skin_apply_morph(const mk_skin *skin, const mk_morph_set *set, const float *weights,
                              const float *joint_matrices, size_t matrix_count,
                              float *out_positions, float *out_normals, float *out_tangents,
                              size_t out_capacity, mk_error *err)
{
    if (!set || !skin || set->vertex_count != skin->vertex_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "skin apply morph: NULL skin or set, or vertex counts differ");
    const float *nrm_in = out_normals ? set->base_normals : NULL;
    const float *tan_in = out_tangents ? set->base_tangents : NULL;
    float *nrm_out = nrm_in ? out_normals : NULL, *tan_out = tan_in ? out_tangents : NULL;
    const float *w = weights ? weights : set->default_weights;
    bool active = false;
    for (uint32_t t = 0; t < set->target_count && !active; t++)
        active = w[t] != 0.0f;
    if (!active) /* the morph is the base: skin straight from it */
        return mk_skin_apply(skin, joint_matrices, matrix_count, set->base_positions, nrm_in,
                             tan_in, out_positions, nrm_out, tan_out, skin->vertex_count, err);
    /* Checked before the morph writes anything (as mk_morph_evaluate and
     * mk_skin_apply check). */
    if (!args_ok(skin, joint_matrices, matrix_count) || !out_positions)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "skin apply morph: unprepared skin, NULL argument or fewer than %u "
                            "joint matrices",
                            skin->joint_count);
    if (out_capacity < skin->vertex_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "skin apply morph: the output holds %zu vertices, the skin has %u",
                            out_capacity, skin->vertex_count);
    for (uint32_t t = 0; t < set->target_count; t++)
        if (!isfinite(w[t]))
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "skin apply morph: weight %u is NaN or infinite", t);
    /* Fused: each block is morphed into the outputs and skinned in place
     * while it is still in cache, so the outputs make one trip through
     * memory instead of two. Both steps give per vertex what the whole-array calls give
     * (morph: mk_morph_evaluate_range; skin: the range kernels), so the
     * result is theirs bit for bit. */
    skin_range_fn apply = kernel();
    aligned_joints buf;
    const float *jm = aligned_matrices(skin, joint_matrices, &buf);
    for (uint32_t v0 = 0; v0 < skin->vertex_count; v0 += FUSED_BLOCK) {
        uint32_t v1 = skin->vertex_count - v0 < FUSED_BLOCK ? skin->vertex_count : v0 + FUSED_BLOCK;
        float *p = out_positions + (size_t)v0 * 3;
        float *n = nrm_out ? nrm_out + (size_t)v0 * 3 : NULL;
        float *t = tan_out ? tan_out + (size_t)v0 * 4 : NULL;
        mk_morph_evaluate_range(set, w, v0, v1, p, n, t);
        apply(skin, v0, v1 - v0, jm, p, n, t, p, n, t);
    }
    return MK_OK;
}
