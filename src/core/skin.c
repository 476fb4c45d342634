/* Linear blend skinning (skin.h): one block per skin, a plain C reference
 * kernel and an SSE2 one that blends the joint matrices column by column. */
#include <math.h>
#include <string.h>

#include "internal.h"
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

void mk_skin_apply_scalar(const mk_skin *skin, const float *jm, const float *ip, const float *in,
                          const float *it, float *op, float *on, float *ot)
{
    uint32_t n = skin->influence_count;
    for (size_t v = 0; v < skin->vertex_count; v++) {
        const uint16_t *j = skin->joints + v * n;
        const float *w = skin->weights + v * n;
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

#if defined(__SSE2__)
/* Normalizes the xyz of r into out (3 floats), or writes zeros. */
static void store_unit_sse(float *out, __m128 r)
{
    float t[4];
    _mm_storeu_ps(t, r);
    store_unit(out, t[0], t[1], t[2]);
}

/* The blended matrix's four columns live in four registers (the fourth row
 * rides along unused); each influence adds w * column, so a vertex costs
 * 4 multiply-adds per influence plus one matrix-vector product per
 * attribute, with no transposes. */
static void apply_sse2(const mk_skin *skin, const float *jm, const float *ip, const float *in,
                       const float *it, float *op, float *on, float *ot)
{
    uint32_t n = skin->influence_count;
    size_t vc = skin->vertex_count;
    for (size_t v = 0; v < vc; v++) {
        const uint16_t *j = skin->joints + v * n;
        const float *w = skin->weights + v * n;
        __m128 c0 = _mm_setzero_ps(), c1 = c0, c2 = c0, c3 = c0;
        for (uint32_t k = 0; k < n; k++) {
            const float *J = jm + (size_t)j[k] * 16;
            __m128 wk = _mm_set1_ps(w[k]);
            c0 = _mm_add_ps(c0, _mm_mul_ps(wk, _mm_loadu_ps(J)));
            c1 = _mm_add_ps(c1, _mm_mul_ps(wk, _mm_loadu_ps(J + 4)));
            c2 = _mm_add_ps(c2, _mm_mul_ps(wk, _mm_loadu_ps(J + 8)));
            c3 = _mm_add_ps(c3, _mm_mul_ps(wk, _mm_loadu_ps(J + 12)));
        }
        const float *p = ip + v * 3;
        __m128 r = _mm_add_ps(
            _mm_add_ps(_mm_mul_ps(c0, _mm_set1_ps(p[0])), _mm_mul_ps(c1, _mm_set1_ps(p[1]))),
            _mm_add_ps(_mm_mul_ps(c2, _mm_set1_ps(p[2])), c3));
        float *o = op + v * 3;
        _mm_storel_pi((__m64 *)(void *)o, r);
        _mm_store_ss(o + 2, _mm_movehl_ps(r, r));
        if (in) {
            const float *q = in + v * 3;
            __m128 nr = _mm_add_ps(
                _mm_add_ps(_mm_mul_ps(c0, _mm_set1_ps(q[0])), _mm_mul_ps(c1, _mm_set1_ps(q[1]))),
                _mm_mul_ps(c2, _mm_set1_ps(q[2])));
            store_unit_sse(on + v * 3, nr);
        }
        if (it) {
            const float *q = it + v * 4;
            float tw = q[3];
            __m128 tr = _mm_add_ps(
                _mm_add_ps(_mm_mul_ps(c0, _mm_set1_ps(q[0])), _mm_mul_ps(c1, _mm_set1_ps(q[1]))),
                _mm_mul_ps(c2, _mm_set1_ps(q[2])));
            store_unit_sse(ot + v * 4, tr);
            ot[v * 4 + 3] = tw;
        }
    }
}
#endif

mk_status mk_skin_apply(const mk_skin *skin, const float *joint_matrices, size_t matrix_count,
                        const float *in_positions, const float *in_normals,
                        const float *in_tangents, float *out_positions, float *out_normals,
                        float *out_tangents, mk_error *err)
{
    if (!skin || !skin->prepared || !joint_matrices || matrix_count < skin->joint_count ||
        !in_positions || !out_positions || !in_normals != !out_normals ||
        !in_tangents != !out_tangents)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "skin apply: unprepared skin, NULL argument, an input without its "
                            "output, or fewer than %u joint matrices",
                            skin ? skin->joint_count : 0);
#if defined(__SSE2__)
    apply_sse2(skin, joint_matrices, in_positions, in_normals, in_tangents, out_positions,
               out_normals, out_tangents);
#else
    mk_skin_apply_scalar(skin, joint_matrices, in_positions, in_normals, in_tangents,
                         out_positions, out_normals, out_tangents);
#endif
    return MK_OK;
}
