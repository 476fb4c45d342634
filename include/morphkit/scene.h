/* morphkit/scene.h - the scene graph: a node hierarchy with local TRS or
 * matrix transforms, animated by track clips, evaluated to world matrices
 * (runtime layer: libc/libm only, no I/O, no allocation per frame).
 *
 * Conventions (those of glTF 2.0 §3.5 and OpenGL):
 *   - matrices are float[16], column-major: element (row r, column c) is
 *     m[c * 4 + r], the translation is m[12..14];
 *   - quaternions are x y z w (w the real part); rotations need not be unit
 *     length: the rotation of q / |q| is used, and a zero-length quaternion
 *     in a pose is the identity;
 *   - local = T * R * S (scale first, then rotation, then translation);
 *     world(node) = world(parent) * local(node), world(root) = local(root);
 *   - units are the caller's (glTF: metres); angles only appear inside
 *     quaternions.
 *
 * Two objects:
 *   - mk_scene: the hierarchy and the rest pose. Immutable after
 *     mk_scene_create (one allocation) and shareable between threads. It
 *     stores a topological order (every parent before its children), so
 *     world matrices come out of one pass over the nodes.
 *   - mk_scene_pose: one instance's local transforms (one allocation, made
 *     by mk_scene_pose_create, owned by the caller, one per character or
 *     thread). Functions that take a pose change only that pose; several
 *     threads may evaluate one scene with their own poses.
 *
 * A frame:
 *     mk_scene_pose_reset(scene, pose, &err);            rest pose (optional)
 *     mk_track_clip_state_sample(&state, values);        track.h
 *     mk_scene_pose_apply(scene, pose, clip, values, &err);
 *     mk_scene_pose_world(scene, pose, world, scene->node_count, &err);
 * Node animation comes from the track clips of track.h, TRS and weights
 * tracks in one clip, all sampled by one mk_track_clip_state_sample call.
 * Rotations: LINEAR is slerp along the shorter arc (nlerp when the keys are
 * almost equal), as three.js's Quaternion.slerpFlat; CUBICSPLINE is
 * normalized after the Hermite step, as three.js's glTF loader does; STEP
 * keys are used as stored.
 *
 * Cost per frame: apply is O(tracks); world is one 4x4 product per node with
 * a parent plus, for nodes a track or a TRS override touched, one
 * TRS-to-matrix composition (no sqrt, no trigonometry); other nodes use
 * their rest matrix, composed once at create. Nothing allocates after the
 * pose is created.
 *
 * Matrix nodes. A node whose rest pose is a matrix keeps that matrix
 * exactly while nothing animates it. glTF (§3.5.3) forbids animating such a
 * node; when a translation/rotation/scale track or a TRS override targets
 * one anyway, morphkit does what three.js does: the matrix is decomposed
 * once into T, R, S (scale from the column lengths, the x scale negated when
 * the determinant is negative; shear is lost) and the animated parts
 * replace those, so local = T * R * S from then on.
 *
 * Misuse (NULL pointers, a node index out of range, a pose made for another
 * scene, a too small output, a track targeting a node the scene lacks) is
 * checked on every call in every build type and answered with
 * MK_ERR_INVALID_ARGUMENT; nothing is written then. */
#ifndef MORPHKIT_SCENE_H
#define MORPHKIT_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"
#include "morphkit/track.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A local transform as its parts: local = T * R * S. */
typedef struct mk_scene_trs {
    float translation[3];
    float rotation[4]; /* x y z w */
    float scale[3];
} mk_scene_trs;

/* One node of a scene description. Start from mk_scene_node_desc_init (a
 * root with the identity transform): parent 0 and a zero rotation are not
 * neutral values, so a zeroed struct is not a good default. */
typedef struct mk_scene_node_desc {
    uint32_t parent; /* a node index or MK_NONE (a root); ignored when
                        mk_scene_desc.children is given */
    bool has_matrix; /* true: the rest transform is `matrix`, trs is unused */
    float matrix[16]; /* column-major */
    mk_scene_trs trs; /* rotation: any non-zero length, stored normalized */
} mk_scene_node_desc;

/* Sets *node to a root with translation 0, rotation (0 0 0 1), scale 1 and
 * an identity matrix (has_matrix false). */
MK_API void mk_scene_node_desc_init(mk_scene_node_desc *node);

/* The hierarchy is given either by each node's parent, or (when children is
 * not NULL) glTF-style as child lists: child_counts[i] children of node i,
 * all lists one after another in `children` (sum of child_counts entries).
 * Node indices in any order: a child may come before its parent. */
typedef struct mk_scene_desc {
    uint32_t node_count; /* 0 is allowed (an empty scene) */
    const mk_scene_node_desc *nodes; /* node_count entries */
    const uint32_t *child_counts; /* with children: node_count entries */
    const uint32_t *children;
} mk_scene_desc;

typedef struct mk_scene {
    uint32_t node_count;
    uint32_t *parents; /* per node: its parent or MK_NONE */
    uint32_t *order; /* the node indices, every parent before its children */
    uint32_t *depths; /* per node: 0 for a root, parent's depth + 1 otherwise */
    bool *has_matrix; /* per node */
    float *rest_matrices; /* per node, 16 floats: the rest local matrix (for a TRS
                             node composed from its TRS) */
    mk_scene_trs *rest; /* per node: the rest TRS (matrix nodes: decomposed) */
    mk_allocator allocator;
    size_t byte_size;
} mk_scene;

/* Builds a scene from desc (one allocation through allocator, NULL = malloc;
 * a temporary block of node_count uint32_t is used while sorting and freed
 * before returning). MK_ERR_INVALID_ARGUMENT, naming the node, for: a parent
 * or child index that is not a node, a node listed as a child twice (two
 * parents) or as its own child, a cycle of parents, a non-finite value, a
 * rotation of zero length, desc->nodes NULL with node_count > 0, child_counts
 * NULL with children given. MK_ERR_LIMIT on size overflow,
 * MK_ERR_OUT_OF_MEMORY. */
MK_API mk_status mk_scene_create(const mk_scene_desc *desc, const mk_allocator *allocator,
                                 mk_scene **out, mk_error *err);
MK_API void mk_scene_destroy(mk_scene *scene);

/* Override parts (mk_scene_pose_set_override) and pose flags. */
enum {
    MK_SCENE_OVERRIDE_TRANSLATION = 1u << 0,
    MK_SCENE_OVERRIDE_ROTATION = 1u << 1,
    MK_SCENE_OVERRIDE_SCALE = 1u << 2,
    MK_SCENE_OVERRIDE_TRS = 7u, /* all three */
    MK_SCENE_OVERRIDE_MATRIX = 1u << 3, /* the whole local matrix */
    MK_SCENE_POSE_ANIMATED = 1u << 4 /* a track wrote the node's TRS since the last reset */
};

/* One instance's state of a scene: the local TRS of every node as animated
 * (starts at the rest pose), and the overrides set from code, which win
 * over the animation of their parts until cleared. */
typedef struct mk_scene_pose {
    const mk_scene *scene; /* the scene it was made for */
    uint32_t node_count;
    mk_scene_trs *local; /* per node: rest, then what tracks wrote */
    uint8_t *flags; /* per node: MK_SCENE_OVERRIDE_* and MK_SCENE_POSE_ANIMATED bits */
    mk_scene_trs *override_trs; /* per node: the overriding parts (per flag bit) */
    float *override_matrices; /* per node, 16 floats: the overriding local matrix */
    mk_allocator allocator;
    size_t byte_size;
} mk_scene_pose;

/* Creates a pose of scene at its rest pose, without overrides (one
 * allocation). The scene must outlive the pose. */
MK_API mk_status mk_scene_pose_create(const mk_scene *scene, const mk_allocator *allocator,
                                      mk_scene_pose **out, mk_error *err);
MK_API void mk_scene_pose_destroy(mk_scene_pose *pose);

/* Puts every node's local TRS back to the rest pose and clears the
 * ANIMATED bits. Overrides stay (clear them with
 * mk_scene_pose_clear_override). O(nodes). */
MK_API mk_status mk_scene_pose_reset(const mk_scene *scene, mk_scene_pose *pose, mk_error *err);

/* Writes one full sample of clip (values: clip->output_count floats, as
 * mk_track_clip_state_sample or mk_track_sample at tracks[i].value_offset
 * fill them) into the pose: every translation, rotation and scale track
 * sets that part of node `target`'s local TRS and marks the node ANIMATED;
 * weights tracks are skipped (they drive morph targets, not nodes). Nodes
 * no track targets keep what they had: to play a clip on top of the rest
 * pose, reset first. MK_ERR_INVALID_ARGUMENT (naming the track) when a TRS
 * track targets a node >= scene->node_count; then nothing is written. */
MK_API mk_status mk_scene_pose_apply(const mk_scene *scene, mk_scene_pose *pose,
                                     const mk_track_clip *clip, const float *values,
                                     mk_error *err);

/* Overrides parts of node's local TRS from code (aim a turret, turn a
 * head): `parts` is a non-zero combination of MK_SCENE_OVERRIDE_TRANSLATION,
 * _ROTATION and _SCALE; those parts are taken from trs (others ignored) in
 * place of the animated ones until cleared; parts not named keep an earlier
 * override or follow the animation. A matrix override of the node is
 * dropped. The rotation may have any non-zero length. */
MK_API mk_status mk_scene_pose_set_override(mk_scene_pose *pose, uint32_t node, uint32_t parts,
                                            const mk_scene_trs *trs, mk_error *err);

/* Overrides node's whole local matrix (column-major) until cleared; any TRS
 * override of the node is replaced. */
MK_API mk_status mk_scene_pose_set_override_matrix(mk_scene_pose *pose, uint32_t node,
                                                   const float matrix[16], mk_error *err);

/* Removes node's overrides (node MK_NONE: every node's), so the animation
 * (or rest pose) shows again. */
MK_API mk_status mk_scene_pose_clear_override(mk_scene_pose *pose, uint32_t node, mk_error *err);

/* The local matrix node has in pose (overrides, animation and rest pose
 * combined as described above) into out. */
MK_API mk_status mk_scene_pose_local(const mk_scene *scene, const mk_scene_pose *pose,
                                     uint32_t node, float out[16], mk_error *err);

/* World matrices of every node into out_world (16 floats per node, node i at
 * out_world + 16 * i), in one pass over scene->order. capacity is the number
 * of matrices out_world holds and must be >= scene->node_count. */
MK_API mk_status mk_scene_pose_world(const mk_scene *scene, const mk_scene_pose *pose,
                                     float *out_world, size_t capacity, mk_error *err);

#ifdef __cplusplus
}
#endif

#endif
