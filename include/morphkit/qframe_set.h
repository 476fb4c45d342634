/* morphkit/qframe_set.h - quantized frame sets: the frames of a frame set
 * in 10 bytes per vertex instead of 24, blended directly.
 *
 * Positions are 16-bit unsigned integers with one scale and offset per axis
 * for the whole set (p = offset + q * scale); normals are octahedral, two
 * 16-bit signed normalized values (u, v) per vertex (q / 32767). Both are
 * stored frame-major like mk_frame_set, as one allocation, immutable once
 * filled; the layout is what a GPU reads as normalized integer attributes.
 *
 * Accuracy (w in [0, 1]; tested):
 *   - a blended position differs from the float blend of the original
 *     positions by at most MK_QPOSITION_ERROR(scale, offset) per component:
 *     half a quantization step plus float rounding;
 *   - a decoded normal differs from the original unit normal by at most
 *     MK_QNORMAL_ERROR (Euclidean distance), and a blended normal from the
 *     float blend of the originals by at most 2 * MK_QNORMAL_ERROR / L,
 *     where L is the length of (1 - w) a + w b before normalization (1 at
 *     w = 0 or 1; at least 0.7 when the two normals are within 90 degrees).
 * The quantized kernels follow the kernel choice of blend.h and give the
 * same bytes in every variant. */
#ifndef MORPHKIT_QFRAME_SET_H
#define MORPHKIT_QFRAME_SET_H

#include <stddef.h>
#include <stdint.h>

#include "morphkit/frame_set.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per-component bound of a blended position (see the file comment): half a
 * step plus 8 float epsilons (2^-23) of the largest magnitude on that axis
 * (|offset| + 65535 * scale), which covers the rounding of the encoder, the
 * quantized kernel and the float blend it is compared with. */
#define MK_QPOSITION_ERROR(scale, offset)                                                         \
    (0.5f * (scale) +                                                                             \
     8.0f * 1.1920929e-7f * (((offset) < 0 ? -(offset) : (offset)) + 65535.0f * (scale)))

/* Bound of a decoded octahedral snorm16 normal (the exact worst case is
 * about 6.5e-5: a step of 1/32767 in u and v, stretched by at most sqrt(6)
 * on the octahedron and by sqrt(3) when projected onto the sphere). */
#define MK_QNORMAL_ERROR 1e-4f

typedef struct mk_qframe_set {
    uint32_t frame_count;
    uint32_t vertex_count;
    uint32_t index_count;
    uint16_t *positions; /* frame_count * vertex_count * 3 */
    int16_t *normals;    /* frame_count * vertex_count * 2 (u v), or NULL */
    float *texcoords;    /* vertex_count * 2, or NULL */
    uint32_t *indices;
    float position_scale[3];  /* per axis; 0 where every frame has one value */
    float position_offset[3]; /* per axis: the smallest value */
    mk_allocator allocator;
    size_t byte_size;
} mk_qframe_set;

/* Bytes the one allocation needs, or 0 when the sizes overflow size_t. */
MK_API size_t mk_qframe_set_byte_size(const mk_frame_set_desc *desc);

/* A zero-filled set (scale and offset 0) for code that fills it directly,
 * such as a loader of packed data. Errors as mk_frame_set_create. */
MK_API mk_status mk_qframe_set_create(const mk_frame_set_desc *desc,
                                      const mk_allocator *allocator, mk_qframe_set **out,
                                      mk_error *err);

/* Quantizes every frame of src (positions rounded to the nearest of 65536
 * steps between each axis's minimum and maximum over all frames; normals
 * octahedral). Topology and texcoords are copied. MK_ERR_INVALID_ARGUMENT
 * for a NULL src; MK_ERR_RANGE for a non-finite position or an axis whose
 * extent overflows float; MK_ERR_OUT_OF_MEMORY. */
MK_API mk_status mk_qframe_set_quantize(const mk_frame_set *src, const mk_allocator *allocator,
                                        mk_qframe_set **out, mk_error *err);

MK_API void mk_qframe_set_destroy(mk_qframe_set *set);

/* Octahedral snorm16 encoding of a unit vector n (any nonzero length works:
 * it is projected), and its decoding to a unit vector. A zero vector
 * encodes as +z. */
MK_API void mk_octahedral_encode(const float n[3], int16_t out[2]);
MK_API void mk_octahedral_decode(const int16_t q[2], float out[3]);

/* Blends frames fa and fb of a quantized set into float outputs, exactly as
 * mk_blend_frames_range does for a float set (the same checks and errors,
 * the same range rule): vertices [begin, end) of out_positions and (when
 * the set has normals and out_normals is not NULL) out_normals, which hold
 * out_capacity vertices each (float3). */
MK_API mk_status mk_blend_qframes_range(const mk_qframe_set *set, uint32_t fa, uint32_t fb,
                                        float w, uint32_t begin, uint32_t end,
                                        float *out_positions, float *out_normals,
                                        size_t out_capacity, mk_error *err);

/* The whole set: mk_blend_qframes_range over [0, vertex_count). */
MK_API mk_status mk_blend_qframes(const mk_qframe_set *set, uint32_t fa, uint32_t fb, float w,
                                  float *out_positions, float *out_normals, size_t out_capacity,
                                  mk_error *err);

#ifdef __cplusplus
}
#endif

#endif
