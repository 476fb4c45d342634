/* morphkit/qmorph.h - quantized morph targets: the deltas of a morph set
 * as 16-bit integers, evaluated directly (runtime layer).
 *
 * Each POSITION and NORMAL delta value is stored as q * scale, q a signed
 * 16-bit integer and scale one float per attribute for the whole set
 * (the largest |delta| / 32767): 6 bytes per entry instead of 12. Bases
 * stay float (read once per evaluation). Dense and sparse deltas keep their
 * storage (morph.h); tangent deltas are not quantized (a set with them is
 * refused: evaluate it with mk_morph_evaluate).
 *
 * Evaluation is mk_morph_evaluate's: out = base + sum_i w_i * delta_i,
 * normals re-normalized ((0, 0, 0) below length 1e-12), targets with weight
 * 0 skipped, the cost following the active entries.
 *
 * Accuracy (tested): a position component differs from mk_morph_evaluate
 * on the original set by at most
 *     0.5 * delta_scale[POSITION] * sum_i |w_i|  +  MK_QMORPH_ROUNDING * M,
 * where M = |base| + sum_i |w_i| * max|delta| on that component and
 * MK_QMORPH_ROUNDING covers float rounding of both evaluations (the active
 * target count below 64); a normal, before normalization, likewise with
 * delta_scale[NORMAL], and after it by at most 2 sqrt(3) E / L (Euclidean;
 * E the largest of its components' bounds, L the length of the float result
 * before normalization). */
#ifndef MORPHKIT_QMORPH_H
#define MORPHKIT_QMORPH_H

#include <stddef.h>
#include <stdint.h>

#include "morphkit/morph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 64 float epsilons (2^-23): the rounding allowance of the bound above. */
#define MK_QMORPH_ROUNDING (64.0f * 1.1920929e-7f)

typedef struct mk_qmorph_delta {
    uint32_t entry_count; /* 0: absent; vertex_count when dense */
    uint32_t *indices;    /* NULL when dense (or absent) */
    int16_t *values;      /* entry_count * 3; value = q * delta_scale[attribute] */
} mk_qmorph_delta;

typedef struct mk_qmorph_target {
    mk_qmorph_delta delta[2]; /* MK_MORPH_POSITION, MK_MORPH_NORMAL */
} mk_qmorph_target;

typedef struct mk_qmorph_set {
    uint32_t vertex_count;
    uint32_t target_count;
    float *base_positions; /* vertex_count * 3 */
    float *base_normals;   /* vertex_count * 3, or NULL */
    mk_qmorph_target *targets;
    float *default_weights; /* target_count, copied from the source set */
    float delta_scale[2];   /* per attribute (POSITION, NORMAL); 0 when all deltas are 0 */
    mk_allocator allocator;
    size_t byte_size;
} mk_qmorph_set;

/* Quantizes a morph set (one allocation; src may be freed afterwards).
 * MK_ERR_INVALID_ARGUMENT for NULL src or out; MK_ERR_UNSUPPORTED when src
 * has tangent deltas; MK_ERR_RANGE for a non-finite delta;
 * MK_ERR_OUT_OF_MEMORY. */
MK_API mk_status mk_qmorph_set_quantize(const mk_morph_set *src, const mk_allocator *allocator,
                                        mk_qmorph_set **out, mk_error *err);
MK_API void mk_qmorph_set_destroy(mk_qmorph_set *set);

/* As mk_morph_evaluate without tangents: one weight per target (NULL: the
 * default weights), out_positions required, out_normals optional (left
 * untouched when the set has none), out_capacity in vertices. The same
 * checks and errors, once per call in every build type. */
MK_API mk_status mk_qmorph_evaluate(const mk_qmorph_set *set, const float *weights,
                                    float *out_positions, float *out_normals,
                                    size_t out_capacity, mk_error *err);

#ifdef __cplusplus
}
#endif

#endif
