/* Unit packer: flat normals. glTF lets a primitive leave NORMAL out, and
 * viewers then shade each triangle with its own normal. With the option
 * flat_normals, a unit that is flat shaded in every frame (each vertex's
 * normal is its faces' own, as in a low-poly unit of boxes) is packed that
 * way when the file is smaller; morphkit's reader computes
 * the vertex normals with mk_pack_flat_normals from the positions it has
 * read, and the writer checks with the same function, on the positions
 * the reader will get, that they stay within MK_PACK_FLAT_TOLERANCE of
 * the folder's normals. */
#include <math.h>
#include <string.h>

#include "pack_internal.h"

/* static: a function with target clones would export its resolver */
MK_AVX2_CLONE static void normalize_all(float *restrict o, float *restrict len, size_t n)
{
    for (size_t v = 0; v < n; v++)
        len[v] = o[3 * v] * o[3 * v] + o[3 * v + 1] * o[3 * v + 1] + o[3 * v + 2] * o[3 * v + 2];
    for (size_t v = 0; v < n; v++)
        len[v] = len[v] >= MK_NORMAL_MIN_LENGTH2 ? 1.0f / sqrtf(len[v]) : 0.0f;
    for (size_t v = 0; v < n; v++) {
        o[3 * v] *= len[v];
        o[3 * v + 1] *= len[v];
        o[3 * v + 2] *= len[v];
    }
}

void mk_pack_normalize_all(float *restrict o, float *restrict len, size_t n)
{
    normalize_all(o, len, n);
}

void mk_pack_flat_normals(const float *p, const uint32_t *indices, uint32_t index_count,
                          uint32_t n, float *out, float *scratch)
{
    memset(out, 0, 3 * (size_t)n * sizeof *out);
    for (uint32_t i = 0; i + 2 < index_count; i += 3) {
        const float *a = p + 3 * (size_t)indices[i], *b = p + 3 * (size_t)indices[i + 1],
                    *c = p + 3 * (size_t)indices[i + 2];
        const float e[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        const float f[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        /* twice the triangle's area along its normal: larger faces weigh more */
        const float x[3] = {e[1] * f[2] - e[2] * f[1], e[2] * f[0] - e[0] * f[2],
                            e[0] * f[1] - e[1] * f[0]};
        for (int k = 0; k < 3; k++) {
            float *o = out + 3 * (size_t)indices[i + k];
            o[0] += x[0];
            o[1] += x[1];
            o[2] += x[2];
        }
    }
    normalize_all(out, scratch, n);
}
