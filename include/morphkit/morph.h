/* morphkit/morph.h - morph targets of one primitive and their evaluation
 * (runtime layer: no I/O, no allocation while evaluating).
 *
 * A morph set holds a base mesh (POSITION float3, optional NORMAL float3 and
 * TANGENT float4 per vertex) and target_count targets. Each target stores a
 * delta per attribute (glTF 2.0 §3.7.2.2 "Morph Targets"); a delta is one of
 *   - absent  (entry_count 0: the target does not move that attribute),
 *   - dense   (indices NULL, entry_count == vertex_count, values[v * 3 + c]),
 *   - sparse  (entry_count < vertex_count strictly increasing vertex indices,
 *              values[e * 3 + c] belongs to vertex indices[e]).
 * Tangent deltas are float3: a target moves xyz, the base's w (handedness) is
 * kept.
 *
 * Deltas are decoded to float when the set is built (quantized glTF input is
 * dequantized once at load): evaluation is then one multiply and one add per
 * component and needs no per-type branches. Dense deltas that are mostly
 * zero may be stored sparse by the builder; the result is the same bit for
 * bit, because every vertex receives its additions in the order the targets
 * are given whatever their storage, each rounded separately (the library is
 * built as ISO C, where GCC does not contract a * b + c into an FMA), and
 * adding w * 0 changes nothing. The one exception is the sign of an exact
 * zero: a coordinate whose running sum is exactly 0 may end as -0 one way
 * and +0 the other.
 *
 * Evaluation (glTF 2.0 §3.7.2.2):
 *     out = base + sum_i w_i * delta_i
 * Normals and tangents (xyz) are re-normalized afterwards; a result shorter
 * than 1e-12 is written as (0, 0, 0), never NaN. Targets whose weight is 0
 * are skipped, so the cost follows the active targets, not the total; a
 * sparse delta costs in proportion to its entries. Weights are not clamped
 * (negative and > 1 extrapolate, as glTF allows).
 *
 * A set is one allocation; after it is filled it is immutable and may be
 * shared between threads. The caller owns every output buffer. */
#ifndef MORPHKIT_MORPH_H
#define MORPHKIT_MORPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mk_morph_attribute {
    MK_MORPH_POSITION = 0,
    MK_MORPH_NORMAL,
    MK_MORPH_TANGENT,
    MK_MORPH_ATTRIBUTE_COUNT
} mk_morph_attribute;

/* entry_counts value meaning "every vertex, no index list". */
#define MK_MORPH_DENSE UINT32_MAX

/* One attribute of one target (see the file comment). */
typedef struct mk_morph_delta {
    uint32_t entry_count; /* 0: absent */
    uint32_t *indices; /* NULL when dense (or absent) */
    float *values; /* entry_count * 3, NULL when absent */
} mk_morph_delta;

typedef struct mk_morph_target {
    mk_morph_delta delta[MK_MORPH_ATTRIBUTE_COUNT];
} mk_morph_target;

typedef struct mk_morph_set_desc {
    uint32_t vertex_count; /* >= 1 */
    uint32_t target_count; /* may be 0 */
    bool has_normals;
    bool has_tangents;
    /* target_count * MK_MORPH_ATTRIBUTE_COUNT values, [t * 3 + attribute]:
     * 0 (absent), MK_MORPH_DENSE, or a sparse entry count <= vertex_count.
     * NULL: every delta absent. A NORMAL (TANGENT) delta needs has_normals
     * (has_tangents). */
    const uint32_t *entry_counts;
} mk_morph_set_desc;

typedef struct mk_morph_set {
    uint32_t vertex_count;
    uint32_t target_count;
    float *base_positions; /* vertex_count * 3 */
    float *base_normals; /* vertex_count * 3, or NULL */
    float *base_tangents; /* vertex_count * 4 (xyzw), or NULL */
    mk_morph_target *targets; /* target_count */
    float *default_weights; /* target_count, zero-filled at creation */
    mk_allocator allocator;
    size_t byte_size;
} mk_morph_set;

/* Bytes the one allocation needs, or 0 when the sizes overflow (or desc is
 * invalid). */
MK_API size_t mk_morph_set_byte_size(const mk_morph_set_desc *desc);

/* Creates a zero-filled set whose arrays the caller then fills (indices of a
 * sparse delta must strictly increase; mk_morph_set_validate checks).
 * MK_ERR_INVALID_ARGUMENT for vertex_count 0, an entry count above
 * vertex_count, or a NORMAL/TANGENT delta without the base attribute;
 * MK_ERR_LIMIT on size overflow; MK_ERR_OUT_OF_MEMORY. */
MK_API mk_status mk_morph_set_create(const mk_morph_set_desc *desc, const mk_allocator *allocator,
                                     mk_morph_set **out, mk_error *err);
MK_API void mk_morph_set_destroy(mk_morph_set *set);

/* Checks sparse indices (in range, strictly increasing) and every float for
 * NaN/inf. The message names the target and attribute. MK_ERR_INVALID_ARGUMENT
 * for a NULL set. */
MK_API mk_status mk_morph_set_validate(const mk_morph_set *set, mk_error *err);

/* Evaluates with one weight per target (target_count floats; NULL = the
 * set's default weights). out_positions (vertex_count * 3) is required;
 * out_normals (vertex_count * 3) and out_tangents (vertex_count * 4) may be
 * NULL, and are left untouched when the set lacks that attribute.
 * out_capacity is the number of vertices each output buffer holds (3 floats
 * each for positions and normals, 4 for tangents). Outputs must not overlap
 * the set's arrays. MK_ERR_INVALID_ARGUMENT, with nothing written, for a
 * NULL set or out_positions, a NaN or infinite weight, or out_capacity below
 * vertex_count; checked once per call in every build type. */
MK_API mk_status mk_morph_evaluate(const mk_morph_set *set, const float *weights,
                                   float *out_positions, float *out_normals, float *out_tangents,
                                   size_t out_capacity, mk_error *err);

/* The same with a pose: `count` (target index, weight) pairs, added in that
 * order; an index listed twice adds twice. Also MK_ERR_INVALID_ARGUMENT for
 * an index >= target_count, or NULL targets or weights with count > 0. */
MK_API mk_status mk_morph_evaluate_pose(const mk_morph_set *set, const uint32_t *targets,
                                        const float *weights, size_t count, float *out_positions,
                                        float *out_normals, float *out_tangents,
                                        size_t out_capacity, mk_error *err);

#ifdef __cplusplus
}
#endif

#endif
