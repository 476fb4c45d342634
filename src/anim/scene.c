/* Scene graph: hierarchy, rest pose, per-instance poses and world matrices
 * (see morphkit/scene.h). */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "morphkit/scene.h"

#define IN_WALK (MK_NONE - 1u) /* depth mark while walking up from a node */

static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

/* ---- matrix helpers ---------------------------------------------------------- */

/* local = T * R * S, column-major. Scaling by 2 / |q|^2 gives the rotation
 * of q / |q| without a square root, so non-unit keys (STEP samples, caller
 * overrides) still rotate without skewing. */
static void trs_to_matrix(const mk_scene_trs *trs, float m[16])
{
    const float *q = trs->rotation, *s = trs->scale, *t = trs->translation;
    float x = q[0], y = q[1], z = q[2], w = q[3];
    float n = x * x + y * y + z * z + w * w, k = n > 0.0f ? 2.0f / n : 0.0f;
    float xx = k * x * x, yy = k * y * y, zz = k * z * z;
    float xy = k * x * y, xz = k * x * z, yz = k * y * z;
    float wx = k * w * x, wy = k * w * y, wz = k * w * z;
    m[0] = (1 - yy - zz) * s[0], m[1] = (xy + wz) * s[0], m[2] = (xz - wy) * s[0], m[3] = 0;
    m[4] = (xy - wz) * s[1], m[5] = (1 - xx - zz) * s[1], m[6] = (yz + wx) * s[1], m[7] = 0;
    m[8] = (xz + wy) * s[2], m[9] = (yz - wx) * s[2], m[10] = (1 - xx - yy) * s[2], m[11] = 0;
    m[12] = t[0], m[13] = t[1], m[14] = t[2], m[15] = 1;
}

/* out = a * b (column-major); out must not alias a or b. */
static void mat4_multiply(const float *a, const float *b, float *out)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            out[c * 4 + r] = a[r] * b[c * 4] + a[4 + r] * b[c * 4 + 1] + a[8 + r] * b[c * 4 + 2] +
                             a[12 + r] * b[c * 4 + 3];
}

/* Decomposes an affine matrix the way three.js's Matrix4.decompose does:
 * scale = column lengths with x negated for a negative determinant,
 * rotation from the scaled-out 3x3 (Shepperd's method), translation =
 * column 3. Double precision: it runs at create time only. */
static void decompose(const float *m, mk_scene_trs *out)
{
    double c[3][3], len[3];
    for (int j = 0; j < 3; j++) {
        len[j] = sqrt((double)m[j * 4] * m[j * 4] + (double)m[j * 4 + 1] * m[j * 4 + 1] +
                      (double)m[j * 4 + 2] * m[j * 4 + 2]);
        for (int r = 0; r < 3; r++)
            c[j][r] = m[j * 4 + r];
    }
    double det = c[0][0] * (c[1][1] * c[2][2] - c[2][1] * c[1][2]) -
                 c[1][0] * (c[0][1] * c[2][2] - c[2][1] * c[0][2]) +
                 c[2][0] * (c[0][1] * c[1][2] - c[1][1] * c[0][2]);
    if (det < 0)
        len[0] = -len[0];
    for (int j = 0; j < 3; j++)
        for (int r = 0; r < 3; r++)
            c[j][r] = len[j] != 0.0 ? c[j][r] / len[j] : 0.0;
    /* R[row][col] = c[col][row] */
    double m11 = c[0][0], m12 = c[1][0], m13 = c[2][0];
    double m21 = c[0][1], m22 = c[1][1], m23 = c[2][1];
    double m31 = c[0][2], m32 = c[1][2], m33 = c[2][2];
    double tr = m11 + m22 + m33, q[4], s;
    if (tr > 0) {
        s = 0.5 / sqrt(tr + 1.0);
        q[3] = 0.25 / s, q[0] = (m32 - m23) * s, q[1] = (m13 - m31) * s, q[2] = (m21 - m12) * s;
    } else if (m11 > m22 && m11 > m33) {
        s = 2.0 * sqrt(1.0 + m11 - m22 - m33);
        q[3] = (m32 - m23) / s, q[0] = 0.25 * s, q[1] = (m12 + m21) / s, q[2] = (m13 + m31) / s;
    } else if (m22 > m33) {
        s = 2.0 * sqrt(1.0 + m22 - m11 - m33);
        q[3] = (m13 - m31) / s, q[0] = (m12 + m21) / s, q[1] = 0.25 * s, q[2] = (m23 + m32) / s;
    } else {
        s = 2.0 * sqrt(1.0 + m33 - m11 - m22);
        q[3] = (m21 - m12) / s, q[0] = (m13 + m31) / s, q[1] = (m23 + m32) / s, q[2] = 0.25 * s;
    }
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++)
        out->rotation[i] = n > 0 ? (float)(q[i] / n) : (i == 3 ? 1.0f : 0.0f);
    for (int i = 0; i < 3; i++) {
        out->scale[i] = (float)len[i];
        out->translation[i] = m[12 + i];
    }
}

static bool all_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return false;
    return true;
}

static double length4(const float *q)
{
    return sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                (double)q[3] * q[3]);
}

static bool trs_ok(const mk_scene_trs *t)
{
    return all_finite(t->translation, 3) && all_finite(t->rotation, 4) &&
           all_finite(t->scale, 3) && length4(t->rotation) > 0.0;
}

/* ---- the scene ------------------------------------------------------------------ */

void mk_scene_node_desc_init(mk_scene_node_desc *node)
{
    if (!node)
        return;
    memset(node, 0, sizeof *node);
    node->parent = MK_NONE;
    memcpy(node->matrix, identity, sizeof identity);
    node->trs.rotation[3] = 1.0f;
    node->trs.scale[0] = node->trs.scale[1] = node->trs.scale[2] = 1.0f;
}

typedef struct scene_layout {
    size_t total, parents, order, depths, has_matrix, matrices, rest;
} scene_layout;

static bool scene_layout_of(uint32_t n, scene_layout *l)
{
    l->total = sizeof(mk_scene);
    return mk_layout_add(&l->total, n, sizeof(uint32_t), &l->parents) &&
           mk_layout_add(&l->total, n, sizeof(uint32_t), &l->order) &&
           mk_layout_add(&l->total, n, sizeof(uint32_t), &l->depths) &&
           mk_layout_add(&l->total, n, sizeof(bool), &l->has_matrix) &&
           mk_layout_add(&l->total, n, 16 * sizeof(float), &l->matrices) &&
           mk_layout_add(&l->total, n, sizeof(mk_scene_trs), &l->rest);
}

/* Fills scene->parents from the desc; the message names the node. */
static mk_status set_parents(mk_scene *s, const mk_scene_desc *d, mk_error *err)
{
    uint32_t n = s->node_count;
    if (!d->children) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t p = d->nodes[i].parent;
            if (p != MK_NONE && p >= n)
                return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                    "scene: node %u: parent %u is not one of the %u nodes", i, p,
                                    n);
            s->parents[i] = p;
        }
        return MK_OK;
    }
    for (uint32_t i = 0; i < n; i++)
        s->parents[i] = MK_NONE;
    const uint32_t *c = d->children;
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t k = 0; k < d->child_counts[i]; k++, c++) {
            uint32_t ch = *c;
            if (ch >= n)
                return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                    "scene: node %u: child %u is not one of the %u nodes", i, ch,
                                    n);
            if (ch == i)
                return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                    "scene: node %u lists itself as a child", i);
            if (s->parents[ch] != MK_NONE)
                return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                    "scene: node %u has two parents (nodes %u and %u)", ch,
                                    s->parents[ch], i);
            s->parents[ch] = i;
        }
    }
    return MK_OK;
}

/* Depth of every node by walking up to a node of known depth; meeting a
 * node of the current walk again means a cycle. Each node is walked over
 * once (later walks stop at it), so this is O(nodes). */
static mk_status set_depths(mk_scene *s, mk_error *err)
{
    uint32_t n = s->node_count, *depth = s->depths, *parent = s->parents;
    for (uint32_t i = 0; i < n; i++)
        depth[i] = MK_NONE;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t at = i, steps = 0;
        while (at != MK_NONE && depth[at] == MK_NONE) {
            depth[at] = IN_WALK;
            at = parent[at];
            steps++;
        }
        if (at != MK_NONE && depth[at] == IN_WALK)
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "scene: node %u is part of a cycle of parents", at);
        uint32_t d = (at == MK_NONE ? 0 : depth[at] + 1) + steps - 1;
        for (uint32_t k = i; k != at; k = parent[k])
            depth[k] = d--;
    }
    return MK_OK;
}

/* Counting sort by depth: parents (smaller depth) come first, and nodes of
 * one depth keep their index order. */
static mk_status set_order(mk_scene *s, const mk_allocator *a, mk_error *err)
{
    uint32_t n = s->node_count;
    if (n == 0)
        return MK_OK;
    uint32_t *start = (uint32_t *)mk_alloc(a, (size_t)n * sizeof(uint32_t));
    if (!start)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "scene: out of memory");
    memset(start, 0, (size_t)n * sizeof(uint32_t));
    for (uint32_t i = 0; i < n; i++)
        start[s->depths[i]]++; /* depths are < n */
    uint32_t sum = 0;
    for (uint32_t d = 0; d < n; d++) {
        uint32_t c = start[d];
        start[d] = sum;
        sum += c;
    }
    for (uint32_t i = 0; i < n; i++)
        s->order[start[s->depths[i]]++] = i;
    mk_free(a, start, (size_t)n * sizeof(uint32_t));
    return MK_OK;
}

mk_status mk_scene_create(const mk_scene_desc *desc, const mk_allocator *allocator,
                          mk_scene **out, mk_error *err)
{
    if (!out)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "scene: out is NULL");
    *out = NULL;
    if (!desc || (desc->node_count && !desc->nodes) || (desc->children && !desc->child_counts))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "scene: desc, desc->nodes or desc->child_counts is NULL");
    uint32_t n = desc->node_count;
    if (n >= IN_WALK)
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0, "scene: too many nodes");
    for (uint32_t i = 0; i < n; i++) {
        const mk_scene_node_desc *nd = &desc->nodes[i];
        bool ok = nd->has_matrix ? all_finite(nd->matrix, 16) : trs_ok(&nd->trs);
        if (!ok)
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "scene: node %u: a value is NaN or infinite, or the rotation has "
                                "zero length",
                                i);
    }
    scene_layout l;
    if (!scene_layout_of(n, &l))
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0, "scene: size overflows");
    uint8_t *block = (uint8_t *)mk_alloc(allocator, l.total);
    if (!block)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "scene: out of memory");
    memset(block, 0, l.total);
    mk_scene *s = (mk_scene *)block;
    s->allocator = mk_allocator_copy(allocator);
    s->byte_size = l.total;
    s->node_count = n;
    s->parents = (uint32_t *)(block + l.parents);
    s->order = (uint32_t *)(block + l.order);
    s->depths = (uint32_t *)(block + l.depths);
    s->has_matrix = (bool *)(block + l.has_matrix);
    s->rest_matrices = (float *)(block + l.matrices);
    s->rest = (mk_scene_trs *)(block + l.rest);
    mk_status st;
    if ((st = set_parents(s, desc, err)) != MK_OK || (st = set_depths(s, err)) != MK_OK ||
        (st = set_order(s, allocator, err)) != MK_OK) {
        mk_free(allocator, block, l.total);
        return st;
    }
    for (uint32_t i = 0; i < n; i++) {
        const mk_scene_node_desc *nd = &desc->nodes[i];
        float *m = s->rest_matrices + 16 * (size_t)i;
        s->has_matrix[i] = nd->has_matrix;
        if (nd->has_matrix) {
            memcpy(m, nd->matrix, 16 * sizeof(float));
            decompose(m, &s->rest[i]);
        } else {
            mk_scene_trs *t = &s->rest[i];
            *t = nd->trs;
            double len = length4(t->rotation);
            for (int k = 0; k < 4; k++)
                t->rotation[k] = (float)(t->rotation[k] / len);
            trs_to_matrix(t, m);
        }
    }
    *out = s;
    return MK_OK;
}

void mk_scene_destroy(mk_scene *scene)
{
    if (!scene)
        return;
    mk_allocator a = scene->allocator;
    mk_free(&a, scene, scene->byte_size);
}

/* ---- poses ---------------------------------------------------------------------- */

static mk_status check_pair(const mk_scene *scene, const mk_scene_pose *pose, const char *fn,
                            mk_error *err)
{
    if (!scene || !pose)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "%s: scene or pose is NULL",
                            fn);
    if (pose->scene != scene || pose->node_count != scene->node_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "%s: the pose was made for another scene", fn);
    return MK_OK;
}

static mk_status check_node(const mk_scene_pose *pose, uint32_t node, const char *fn,
                            mk_error *err)
{
    if (!pose)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "%s: pose is NULL", fn);
    if (node >= pose->node_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "%s: node %u is not one of the %u nodes", fn, node, pose->node_count);
    return MK_OK;
}

mk_status mk_scene_pose_create(const mk_scene *scene, const mk_allocator *allocator,
                               mk_scene_pose **out, mk_error *err)
{
    if (!out || !scene)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "mk_scene_pose_create: scene or out is NULL");
    *out = NULL;
    uint32_t n = scene->node_count;
    size_t total = sizeof(mk_scene_pose), o_local, o_flags, o_trs, o_mat;
    if (!mk_layout_add(&total, n, sizeof(mk_scene_trs), &o_local) ||
        !mk_layout_add(&total, n, sizeof(uint8_t), &o_flags) ||
        !mk_layout_add(&total, n, sizeof(mk_scene_trs), &o_trs) ||
        !mk_layout_add(&total, n, 16 * sizeof(float), &o_mat))
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0, "scene pose: size overflows");
    uint8_t *block = (uint8_t *)mk_alloc(allocator, total);
    if (!block)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "scene pose: out of memory");
    memset(block, 0, total);
    mk_scene_pose *p = (mk_scene_pose *)block;
    p->allocator = mk_allocator_copy(allocator);
    p->byte_size = total;
    p->scene = scene;
    p->node_count = n;
    p->local = (mk_scene_trs *)(block + o_local);
    p->flags = block + o_flags;
    p->override_trs = (mk_scene_trs *)(block + o_trs);
    p->override_matrices = (float *)(block + o_mat);
    if (n)
        memcpy(p->local, scene->rest, (size_t)n * sizeof(mk_scene_trs));
    *out = p;
    return MK_OK;
}

void mk_scene_pose_destroy(mk_scene_pose *pose)
{
    if (!pose)
        return;
    mk_allocator a = pose->allocator;
    mk_free(&a, pose, pose->byte_size);
}

mk_status mk_scene_pose_reset(const mk_scene *scene, mk_scene_pose *pose, mk_error *err)
{
    mk_status st = check_pair(scene, pose, "mk_scene_pose_reset", err);
    if (st != MK_OK)
        return st;
    if (scene->node_count)
        memcpy(pose->local, scene->rest, (size_t)scene->node_count * sizeof(mk_scene_trs));
    for (uint32_t i = 0; i < pose->node_count; i++)
        pose->flags[i] &= (uint8_t)~MK_SCENE_POSE_ANIMATED;
    return MK_OK;
}

mk_status mk_scene_pose_apply(const mk_scene *scene, mk_scene_pose *pose,
                              const mk_track_clip *clip, const float *values, mk_error *err)
{
    mk_status st = check_pair(scene, pose, "mk_scene_pose_apply", err);
    if (st != MK_OK)
        return st;
    if (!clip || (!values && clip->output_count))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "mk_scene_pose_apply: clip or values is NULL");
    /* Check every track before writing, so a bad clip leaves the pose as it was. */
    for (uint32_t k = 0; k < clip->track_count; k++) {
        const mk_track *t = &clip->tracks[k];
        if (t->path == MK_TRACK_WEIGHTS)
            continue;
        if (t->target >= scene->node_count || (unsigned)t->path >= MK_TRACK_PATH_COUNT ||
            t->components != (t->path == MK_TRACK_ROTATION ? 4u : 3u))
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "mk_scene_pose_apply: tracks[%u] (%s) targets node %u; the scene "
                                "has %u nodes",
                                k, mk_track_path_name(t->path), t->target, scene->node_count);
    }
    for (uint32_t k = 0; k < clip->track_count; k++) {
        const mk_track *t = &clip->tracks[k];
        const float *v = values + t->value_offset;
        mk_scene_trs *trs = &pose->local[t->target];
        switch (t->path) {
        case MK_TRACK_TRANSLATION:
            memcpy(trs->translation, v, 3 * sizeof(float));
            break;
        case MK_TRACK_ROTATION:
            memcpy(trs->rotation, v, 4 * sizeof(float));
            break;
        case MK_TRACK_SCALE:
            memcpy(trs->scale, v, 3 * sizeof(float));
            break;
        default:
            continue; /* weights */
        }
        pose->flags[t->target] |= MK_SCENE_POSE_ANIMATED;
    }
    return MK_OK;
}

mk_status mk_scene_pose_set_override(mk_scene_pose *pose, uint32_t node, uint32_t parts,
                                     const mk_scene_trs *trs, mk_error *err)
{
    mk_status st = check_node(pose, node, "mk_scene_pose_set_override", err);
    if (st != MK_OK)
        return st;
    if (!trs || parts == 0 || (parts & ~(uint32_t)MK_SCENE_OVERRIDE_TRS))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "mk_scene_pose_set_override: node %u: trs is NULL or parts is not a "
                            "non-empty set of TRANSLATION, ROTATION and SCALE",
                            node);
    if (((parts & MK_SCENE_OVERRIDE_TRANSLATION) && !all_finite(trs->translation, 3)) ||
        ((parts & MK_SCENE_OVERRIDE_SCALE) && !all_finite(trs->scale, 3)) ||
        ((parts & MK_SCENE_OVERRIDE_ROTATION) &&
         (!all_finite(trs->rotation, 4) || length4(trs->rotation) == 0.0)))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "mk_scene_pose_set_override: node %u: a value is NaN or infinite, or "
                            "the rotation has zero length",
                            node);
    mk_scene_trs *o = &pose->override_trs[node];
    if (parts & MK_SCENE_OVERRIDE_TRANSLATION)
        memcpy(o->translation, trs->translation, sizeof o->translation);
    if (parts & MK_SCENE_OVERRIDE_ROTATION)
        memcpy(o->rotation, trs->rotation, sizeof o->rotation);
    if (parts & MK_SCENE_OVERRIDE_SCALE)
        memcpy(o->scale, trs->scale, sizeof o->scale);
    pose->flags[node] = (uint8_t)((pose->flags[node] & ~MK_SCENE_OVERRIDE_MATRIX) | parts);
    return MK_OK;
}

mk_status mk_scene_pose_set_override_matrix(mk_scene_pose *pose, uint32_t node,
                                            const float matrix[16], mk_error *err)
{
    mk_status st = check_node(pose, node, "mk_scene_pose_set_override_matrix", err);
    if (st != MK_OK)
        return st;
    if (!matrix || !all_finite(matrix, 16))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "mk_scene_pose_set_override_matrix: node %u: matrix is NULL or has "
                            "a NaN or infinite value",
                            node);
    memcpy(pose->override_matrices + 16 * (size_t)node, matrix, 16 * sizeof(float));
    pose->flags[node] =
        (uint8_t)((pose->flags[node] & ~MK_SCENE_OVERRIDE_TRS) | MK_SCENE_OVERRIDE_MATRIX);
    return MK_OK;
}

mk_status mk_scene_pose_clear_override(mk_scene_pose *pose, uint32_t node, mk_error *err)
{
    const uint8_t keep = (uint8_t)MK_SCENE_POSE_ANIMATED;
    if (pose && node == MK_NONE) {
        for (uint32_t i = 0; i < pose->node_count; i++)
            pose->flags[i] &= keep;
        return MK_OK;
    }
    mk_status st = check_node(pose, node, "mk_scene_pose_clear_override", err);
    if (st != MK_OK)
        return st;
    pose->flags[node] &= keep;
    return MK_OK;
}

/* The node's local matrix: a matrix override; else the rest matrix while
 * neither a track nor a TRS override touched the node (exact for matrix
 * nodes, and no composition for static TRS nodes); else T * R * S of the
 * animated TRS with the overridden parts swapped in. */
static void local_matrix(const mk_scene *s, const mk_scene_pose *p, uint32_t i, float *m)
{
    uint32_t f = p->flags[i];
    if (f & MK_SCENE_OVERRIDE_MATRIX) {
        memcpy(m, p->override_matrices + 16 * (size_t)i, 16 * sizeof(float));
        return;
    }
    if (!(f & (MK_SCENE_POSE_ANIMATED | MK_SCENE_OVERRIDE_TRS))) {
        memcpy(m, s->rest_matrices + 16 * (size_t)i, 16 * sizeof(float));
        return;
    }
    mk_scene_trs t = p->local[i];
    const mk_scene_trs *o = &p->override_trs[i];
    if (f & MK_SCENE_OVERRIDE_TRANSLATION)
        memcpy(t.translation, o->translation, sizeof t.translation);
    if (f & MK_SCENE_OVERRIDE_ROTATION)
        memcpy(t.rotation, o->rotation, sizeof t.rotation);
    if (f & MK_SCENE_OVERRIDE_SCALE)
        memcpy(t.scale, o->scale, sizeof t.scale);
    trs_to_matrix(&t, m);
}

mk_status mk_scene_pose_local(const mk_scene *scene, const mk_scene_pose *pose, uint32_t node,
                              float out[16], mk_error *err)
{
    mk_status st = check_pair(scene, pose, "mk_scene_pose_local", err);
    if (st == MK_OK)
        st = check_node(pose, node, "mk_scene_pose_local", err);
    if (st != MK_OK)
        return st;
    if (!out)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "mk_scene_pose_local: out is NULL");
    local_matrix(scene, pose, node, out);
    return MK_OK;
}

mk_status mk_scene_pose_world(const mk_scene *scene, const mk_scene_pose *pose, float *out_world,
                              size_t capacity, mk_error *err)
{
    mk_status st = check_pair(scene, pose, "mk_scene_pose_world", err);
    if (st != MK_OK)
        return st;
    if ((!out_world && scene->node_count) || capacity < scene->node_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "mk_scene_pose_world: out_world holds %zu matrices; the scene has %u "
                            "nodes",
                            out_world ? capacity : 0, scene->node_count);
    for (uint32_t k = 0; k < scene->node_count; k++) {
        uint32_t i = scene->order[k], parent = scene->parents[i];
        float *w = out_world + 16 * (size_t)i;
        if (parent == MK_NONE) {
            local_matrix(scene, pose, i, w);
        } else {
            float local[16];
            local_matrix(scene, pose, i, local);
            /* The parent came earlier in the order, so its world is final. */
            mat4_multiply(out_world + 16 * (size_t)parent, local, w);
        }
    }
    return MK_OK;
}
