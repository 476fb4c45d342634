/* morphkit/skin.h - linear blend skinning of one primitive (runtime layer:
 * no I/O, no allocation while skinning).
 *
 * A skin holds, per vertex, influence_count (joint, weight) pairs (glTF:
 * 4 per JOINTS_n / WEIGHTS_n set, any number of sets), and per joint its
 * inverse bind matrix and the scene node that drives it (glTF 2.0 §3.7.3).
 *
 * A frame (morph first, then skin, as glTF orders them):
 *     mk_scene_pose_world(scene, pose, world, scene->node_count, &err);
 *     mk_skin_joint_matrices(skin, world, scene->node_count, joints, n, &err);
 *     mk_morph_evaluate(set, weights, pos, nrm, tan);       morph.h
 *     mk_skin_apply(skin, joints, n, pos, nrm, tan, pos, nrm, tan, &err);
 * (the last two as one call: mk_skin_apply_morph).
 * The joint matrix of joint j is world(joint_nodes[j]) * inverse_bind[j];
 * the skinned mesh node's own transform is not used (§3.7.3): skinned
 * positions are already in scene (world) space.
 *
 * Per vertex, with M = sum_k w_k * J[joint_k] (the weighted sum of the
 * joint matrices):
 *     position' = M * (x, y, z, 1)
 *     normal'   = normalize(L * n),  tangent'.xyz = normalize(L * t.xyz),
 *     tangent'.w = t.w
 * where L is M's upper-left 3x3 (the linear part, not its inverse
 * transpose: three.js and the glTF sample viewer do the same). A result
 * shorter than 1e-12 is written as (0, 0, 0), never NaN.
 *
 * Weights. mk_skin_prepare normalizes each vertex's weights: when their sum
 * s differs from 1 by more than MK_SKIN_WEIGHT_TOLERANCE they are divided
 * by s; a vertex whose weights are all 0 gets weight 1 on its first
 * influence (both as three.js's SkinnedMesh.normalizeSkinWeights).
 *
 * A skin is one allocation; once prepared it is immutable and may be shared
 * between threads. Misuse (NULL where forbidden, too small outputs, a skin
 * not prepared) is checked on every call in every build type and answered
 * with MK_ERR_INVALID_ARGUMENT; nothing is written then. */
#ifndef MORPHKIT_SKIN_H
#define MORPHKIT_SKIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"
#include "morphkit/morph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest |sum of a vertex's weights - 1| that mk_skin_prepare leaves as it
 * is (about 8 float ulps at 1: the rounding of normalized 8- and 16-bit
 * weights that an exporter already made sum to 1). */
#define MK_SKIN_WEIGHT_TOLERANCE 1e-6f

/* Most joints a skin may have (joint indices are 16-bit, as glTF's). */
#define MK_SKIN_MAX_JOINTS 65536u

typedef struct mk_skin_desc {
    uint32_t vertex_count; /* >= 1 */
    uint32_t joint_count; /* 1..MK_SKIN_MAX_JOINTS */
    uint32_t influence_count; /* per vertex, >= 1 (glTF: 4 per set) */
} mk_skin_desc;

typedef struct mk_skin {
    uint32_t vertex_count;
    uint32_t joint_count;
    uint32_t influence_count;
    uint16_t *joints; /* vertex_count * influence_count, vertex v's at v * influence_count */
    float *weights; /* the same layout */
    float *inverse_bind_matrices; /* joint_count * 16, column-major; identities at creation */
    uint32_t *joint_nodes; /* joint_count scene node indices; MK_NONE at creation */
    bool prepared; /* true after a successful mk_skin_prepare (refill: prepare again) */
    mk_allocator allocator;
    size_t byte_size;
} mk_skin;

/* Creates a skin (joints and weights zero, inverse bind matrices identity,
 * joint nodes MK_NONE); the caller fills its arrays, then calls
 * mk_skin_prepare. MK_ERR_INVALID_ARGUMENT for a zero count or more
 * than MK_SKIN_MAX_JOINTS joints, MK_ERR_LIMIT on size overflow,
 * MK_ERR_OUT_OF_MEMORY. */
MK_API mk_status mk_skin_create(const mk_skin_desc *desc, const mk_allocator *allocator,
                                mk_skin **out, mk_error *err);
MK_API void mk_skin_destroy(mk_skin *skin);

/* Checks the filled skin and normalizes its weights (see the file comment).
 * MK_ERR_RANGE, naming the vertex, for a joint index >= joint_count or a
 * weight that is negative or not finite; MK_ERR_RANGE for a non-finite
 * inverse bind matrix. On failure the skin stays unprepared. */
MK_API mk_status mk_skin_prepare(mk_skin *skin, mk_error *err);

/* Joint matrices for one frame: out[j] = world[joint_nodes[j]] *
 * inverse_bind_matrices[j] (16 floats each, column-major). world holds
 * world_count matrices (mk_scene_pose_world's output); out holds capacity
 * matrices, >= joint_count. MK_ERR_INVALID_ARGUMENT when a joint node is
 * MK_NONE or >= world_count. */
MK_API mk_status mk_skin_joint_matrices(const mk_skin *skin, const float *world,
                                        size_t world_count, float *out, size_t capacity,
                                        mk_error *err);

/* Skins vertex_count vertices: in_positions (3 floats a vertex) to
 * out_positions; normals (3) and tangents (4, w kept) likewise when both
 * their in and out pointers are given (both NULL: skipped; one NULL:
 * misuse). Inputs are typically mk_morph_evaluate's outputs; an output may
 * be the same array as its input (in place), other overlaps are not
 * allowed. out_capacity is the vertices each output holds (>= the skin's
 * vertex_count, else MK_ERR_INVALID_ARGUMENT and nothing written).
 * joint_matrices holds matrix_count >= joint_count matrices
 * (mk_skin_joint_matrices). Runs AVX-512 (eight vertices at a time) where
 * the library's kernel choice (blend.h: made once; the MK_SIMD environment
 * variable may lower it) is avx512 and the CPU has AVX-512F and VL, AVX2 +
 * FMA where it is avx2 or above, else SSE2 (x86-64 baseline), else plain C;
 * every variant matches the plain C reference within 1e-6 (relative for
 * positions, absolute for the unit normals and tangents), which the tests
 * check for each variant the machine runs. A vertex's result never depends
 * on its neighbours or its place in the array. Joint matrices at a 64-byte
 * boundary are read fastest (a matrix per cache line); others are copied
 * to an aligned block on the stack (8 KB) when there are at most 128 and
 * at least 8 vertices a joint, else read where they are. */
MK_API mk_status mk_skin_apply(const mk_skin *skin, const float *joint_matrices,
                               size_t matrix_count, const float *in_positions,
                               const float *in_normals, const float *in_tangents,
                               float *out_positions, float *out_normals, float *out_tangents,
                               size_t out_capacity, mk_error *err);

/* Morph, then skin, in one call: mk_morph_evaluate(set, weights, ...) into
 * the outputs, then mk_skin_apply in place, with the same results bit for
 * bit, done block by block (8192 vertices: each block is morphed, then
 * skinned while it is still in cache). Where no target is active (weights all zero, or a set without
 * targets) the morph is the base itself and the skin reads the base arrays
 * directly: one pass over the vertex data instead of a copy and a pass;
 * positions are then the same bit for bit, normals and tangents within
 * 1e-6 (normalized once instead of twice). weights:
 * target_count floats, NULL for the set's defaults. MK_ERR_INVALID_ARGUMENT
 * as mk_skin_apply, plus a NULL set, a set whose vertex count is not the
 * skin's or a weight that is NaN or infinite (nothing written); an output the set has no base attribute for is left untouched. */
MK_API mk_status mk_skin_apply_morph(const mk_skin *skin, const mk_morph_set *set,
                                     const float *weights, const float *joint_matrices,
                                     size_t matrix_count, float *out_positions,
                                     float *out_normals, float *out_tangents,
                                     size_t out_capacity, mk_error *err);

#ifdef __cplusplus
}
#endif

#endif
