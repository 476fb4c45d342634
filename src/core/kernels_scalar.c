/* The scalar reference kernels: every SIMD variant must give these results
 * bit for bit (kernels.h). (1 - w) * a + w * b rather than a + w * (b - a)
 * so that w = 0 and w = 1 give the inputs exactly. */
#include <math.h>

#include "internal.h"
#include "kernels.h"

void mk_blend_positions_scalar(float *out, const float *a, const float *b, float w, size_t count)
{
    const float wa = 1.0f - w;
    const size_t n = count * 3;
    for (size_t i = 0; i < n; i++)
        out[i] = wa * a[i] + w * b[i];
}

/* x y z scaled to unit length, or (0 0 0) below MK_NORMAL_MIN_LENGTH2. */
static inline void store_normalized(float *out, float x, float y, float z)
{
    float len2 = x * x + y * y + z * z;
    float inv = len2 >= MK_NORMAL_MIN_LENGTH2 ? 1.0f / sqrtf(len2) : 0.0f;
    out[0] = x * inv;
    out[1] = y * inv;
    out[2] = z * inv;
}

void mk_blend_normals_scalar(float *out, const float *a, const float *b, float w, size_t count)
{
    const float wa = 1.0f - w;
    for (size_t i = 0; i < count; i++) {
        float x = wa * a[3 * i] + w * b[3 * i];
        float y = wa * a[3 * i + 1] + w * b[3 * i + 1];
        float z = wa * a[3 * i + 2] + w * b[3 * i + 2];
        store_normalized(out + 3 * i, x, y, z);
    }
}

void mk_sum4_positions_scalar(float *out, const float *const f[4], const float w[4], size_t count)
{
    const float *a = f[0], *b = f[1], *c = f[2], *d = f[3];
    const float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
    const size_t n = count * 3;
    for (size_t i = 0; i < n; i++)
        out[i] = w0 * a[i] + w1 * b[i] + w2 * c[i] + w3 * d[i];
}

void mk_sum4_normals_scalar(float *out, const float *const f[4], const float w[4], size_t count)
{
    const float *a = f[0], *b = f[1], *c = f[2], *d = f[3];
    const float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
    for (size_t i = 0; i < count; i++) {
        const size_t j = 3 * i;
        float x = w0 * a[j] + w1 * b[j] + w2 * c[j] + w3 * d[j];
        float y = w0 * a[j + 1] + w1 * b[j + 1] + w2 * c[j + 1] + w3 * d[j + 1];
        float z = w0 * a[j + 2] + w1 * b[j + 2] + w2 * c[j + 2] + w3 * d[j + 2];
        store_normalized(out + j, x, y, z);
    }
}

void mk_qblend_positions_scalar(float *out, const uint16_t *a, const uint16_t *b, float w,
                                const float scale[3], const float offset[3], size_t count)
{
    const float wa = 1.0f - w;
    for (size_t i = 0; i < count; i++)
        for (size_t c = 0; c < 3; c++) {
            size_t j = 3 * i + c;
            out[j] = offset[c] + scale[c] * (wa * (float)a[j] + w * (float)b[j]);
        }
}

/* Octahedral decode (u, v in [-1, 1]) to a vector on the octahedron
 * |x| + |y| + |z| = 1: the folded lower half moves x and y back by
 * t = max(-z, 0) toward the axes. *len is its length (>= 1/sqrt 3). */
static inline void oct_decode(const int16_t *q, float *x, float *y, float *z, float *len)
{
    float u = (float)q[0] * MK_SNORM16_SCALE, v = (float)q[1] * MK_SNORM16_SCALE;
    float zz = 1.0f - fabsf(u) - fabsf(v);
    float t = zz < 0.0f ? -zz : 0.0f;
    float xx = u - copysignf(t, u), yy = v - copysignf(t, v);
    *x = xx;
    *y = yy;
    *z = zz;
    *len = sqrtf(xx * xx + yy * yy + zz * zz);
}

/* (1 - w) A/|A| + w B/|B| has the direction of (1 - w)|B| A + w|A| B,
 * which needs no division before the final normalization. */
void mk_qblend_normals_scalar(float *out, const int16_t *a, const int16_t *b, float w,
                              size_t count)
{
    const float wa = 1.0f - w;
    for (size_t i = 0; i < count; i++) {
        float ax, ay, az, la, bx, by, bz, lb;
        oct_decode(a + 2 * i, &ax, &ay, &az, &la);
        oct_decode(b + 2 * i, &bx, &by, &bz, &lb);
        float ca = wa * lb, cb = w * la;
        store_normalized(out + 3 * i, ca * ax + cb * bx, ca * ay + cb * by, ca * az + cb * bz);
    }
}

void mk_madd_scalar(float *out, const float *src, const float *const *d, const float *w,
                    uint32_t k, size_t n)
{
    const float *d0 = d[0], *d1 = d[k > 1 ? 1 : 0], *d2 = d[k > 2 ? 2 : 0], *d3 = d[k > 3 ? 3 : 0];
    const float w0 = w[0], w1 = w[k > 1 ? 1 : 0], w2 = w[k > 2 ? 2 : 0], w3 = w[k > 3 ? 3 : 0];
    switch (k) {
    case 1:
        for (size_t i = 0; i < n; i++)
            out[i] = src[i] + w0 * d0[i];
        break;
    case 2:
        for (size_t i = 0; i < n; i++)
            out[i] = src[i] + w0 * d0[i] + w1 * d1[i];
        break;
    case 3:
        for (size_t i = 0; i < n; i++)
            out[i] = src[i] + w0 * d0[i] + w1 * d1[i] + w2 * d2[i];
        break;
    default:
        for (size_t i = 0; i < n; i++)
            out[i] = src[i] + w0 * d0[i] + w1 * d1[i] + w2 * d2[i] + w3 * d3[i];
        break;
    }
}

void mk_qmadd_scalar(float *out, const float *src, const int16_t *const *q, const float *c,
                     uint32_t k, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float r = src[i];
        for (uint32_t j = 0; j < k; j++)
            r = r + c[j] * (float)q[j][i];
        out[i] = r;
    }
}

const mk_kernels mk_kernels_scalar = {
    "scalar",
    MK_SIMD_SCALAR,
    mk_blend_positions_scalar,
    mk_blend_normals_scalar,
    mk_sum4_positions_scalar,
    mk_sum4_normals_scalar,
    mk_qblend_positions_scalar,
    mk_qblend_normals_scalar,
    mk_madd_scalar,
    mk_qmadd_scalar,
};
