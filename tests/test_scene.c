/* Scene graph (scene.h) and mk_gltf_build_scene with hand-computed
 * matrices: composition order, hierarchies given out of order, matrix
 * nodes, bad hierarchies, overrides, quaternion normalization, track clips
 * applied to a pose, and two glTF samples with node animation. */
#include <stdint.h>
#include <string.h>

#include "mk_test.h"
#include "morphkit/gltf.h"
#include "morphkit/scene.h"

#define SQRT_HALF 0.70710678118654752
#define MK_PI 3.14159265358979323846

/* Checks a column-major matrix against 16 expected values (given as four
 * columns). */
static void check_mat(const float *m, const double *want, double tol, int line)
{
    for (int i = 0; i < 16; i++)
        if (!(fabs((double)m[i] - want[i]) <= tol)) {
            fprintf(stderr, "%s:%d: matrix[%d] (column %d row %d) = %.9g, want %.9g\n", __FILE__,
                    line, i, i / 4, i % 4, (double)m[i], want[i]);
            mk_test_failures++;
        }
}
#define CHECK_MAT(m, ...)                                \
    do {                                                 \
        const double want_[16] = {__VA_ARGS__};          \
        check_mat((m), want_, 1e-5, __LINE__);           \
    } while (0)

static void set_trs(mk_scene_node_desc *d, uint32_t parent, float tx, float ty, float tz,
                    float qx, float qy, float qz, float qw, float sx, float sy, float sz)
{
    mk_scene_node_desc_init(d);
    d->parent = parent;
    const float t[3] = {tx, ty, tz}, q[4] = {qx, qy, qz, qw}, s[3] = {sx, sy, sz};
    memcpy(d->trs.translation, t, sizeof t);
    memcpy(d->trs.rotation, q, sizeof q);
    memcpy(d->trs.scale, s, sizeof s);
}

static mk_scene *make_scene(const mk_scene_node_desc *nodes, uint32_t n)
{
    mk_scene_desc desc = {n, nodes, NULL, NULL};
    mk_scene *s = NULL;
    mk_error err;
    CHECK(mk_scene_create(&desc, NULL, &s, &err) == MK_OK);
    return s;
}

/* local = T * R * S: t (1 2 3), 90 degrees about z, s (2 3 4). Columns are
 * R applied to the scaled axes: x -> (0 2 0), y -> (-3 0 0), z -> (0 0 4). */
static void test_trs_order(void)
{
    mk_scene_node_desc d;
    set_trs(&d, MK_NONE, 1, 2, 3, 0, 0, (float)SQRT_HALF, (float)SQRT_HALF, 2, 3, 4);
    mk_scene *s = make_scene(&d, 1);
    mk_scene_pose *p = NULL;
    mk_error err;
    CHECK(mk_scene_pose_create(s, NULL, &p, &err) == MK_OK);
    float w[16], l[16];
    CHECK(mk_scene_pose_world(s, p, w, 1, &err) == MK_OK);
    CHECK_MAT(w, 0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1);
    CHECK(mk_scene_pose_local(s, p, 0, l, &err) == MK_OK);
    CHECK(memcmp(l, w, sizeof l) == 0); /* a root: world = local */
    /* The point (1 1 1): scaled (2 3 4), turned (-3 2 4), moved (-2 4 7). */
    float pt[3];
    for (int r = 0; r < 3; r++)
        pt[r] = w[r] + w[4 + r] + w[8 + r] + w[12 + r];
    CHECK_NEAR(pt[0], -2, 1e-5);
    CHECK_NEAR(pt[1], 4, 1e-5);
    CHECK_NEAR(pt[2], 7, 1e-5);
    mk_scene_pose_destroy(p);
    mk_scene_destroy(s);
}

/* Root 1 -> child 2 -> grandchild 0: indices not in parent-first order.
 * root: t (10 0 0); child: t (0 1 0), 90 degrees about z; grandchild:
 * t (1 0 0), scale 2. The grandchild's origin: (1 0 0) turned to (0 1 0),
 * plus (0 1 0) = (0 2 0), plus (10 0 0) = (10 2 0); its x axis (2 0 0)
 * turned to (0 2 0). */
static void check_three_levels(const mk_scene *s)
{
    CHECK_EQ_INT(s->order[0], 1);
    CHECK_EQ_INT(s->order[1], 2);
    CHECK_EQ_INT(s->order[2], 0);
    CHECK_EQ_INT(s->depths[0], 2);
    CHECK_EQ_INT(s->depths[1], 0);
    CHECK_EQ_INT(s->depths[2], 1);
    CHECK_EQ_INT(s->parents[0], 2);
    CHECK_EQ_INT(s->parents[1], MK_NONE);
    CHECK_EQ_INT(s->parents[2], 1);
    mk_scene_pose *p = NULL;
    mk_error err;
    CHECK(mk_scene_pose_create(s, NULL, &p, &err) == MK_OK);
    float w[3 * 16];
    CHECK(mk_scene_pose_world(s, p, w, 3, &err) == MK_OK);
    CHECK_MAT(w + 16, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1);
    CHECK_MAT(w + 32, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 10, 1, 0, 1);
    CHECK_MAT(w, 0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 10, 2, 0, 1);
    /* Too small an output is misuse and writes nothing. */
    memset(w, 0, sizeof w);
    CHECK(mk_scene_pose_world(s, p, w, 2, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(w[15] == 0.0f);
    mk_scene_pose_destroy(p);
}

static void test_hierarchy_out_of_order(void)
{
    mk_scene_node_desc d[3];
    set_trs(&d[0], 2, 1, 0, 0, 0, 0, 0, 1, 2, 2, 2);
    set_trs(&d[1], MK_NONE, 10, 0, 0, 0, 0, 0, 1, 1, 1, 1);
    set_trs(&d[2], 1, 0, 1, 0, 0, 0, (float)SQRT_HALF, (float)SQRT_HALF, 1, 1, 1);
    mk_scene *s = make_scene(d, 3);
    if (s)
        check_three_levels(s);
    mk_scene_destroy(s);
    /* The same hierarchy as glTF-style child lists (parents ignored). */
    for (int i = 0; i < 3; i++)
        d[i].parent = 0;
    const uint32_t counts[3] = {0, 1, 1}, children[2] = {2, 0};
    mk_scene_desc desc = {3, d, counts, children};
    mk_error err;
    s = NULL;
    CHECK(mk_scene_create(&desc, NULL, &s, &err) == MK_OK);
    if (s)
        check_three_levels(s);
    mk_scene_destroy(s);
}

/* A matrix node keeps its matrix exactly (shear included); animating it
 * decomposes it as three.js does. */
static void test_matrix_node(void)
{
    mk_scene_node_desc d[2];
    set_trs(&d[0], MK_NONE, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1);
    mk_scene_node_desc_init(&d[1]);
    d[1].parent = 0;
    d[1].has_matrix = true;
    const float sheared[16] = {1, 0, 0, 0, 0.5f, 1, 0, 0, 0, 0, 1, 0, 4, 5, 6, 1};
    memcpy(d[1].matrix, sheared, sizeof sheared);
    mk_scene *s = make_scene(d, 2);
    mk_scene_pose *p = NULL;
    mk_error err;
    CHECK(mk_scene_pose_create(s, NULL, &p, &err) == MK_OK);
    float w[32], l[16];
    CHECK(mk_scene_pose_local(s, p, 1, l, &err) == MK_OK);
    CHECK(memcmp(l, sheared, sizeof l) == 0);
    CHECK(mk_scene_pose_world(s, p, w, 2, &err) == MK_OK);
    CHECK_MAT(w + 16, 1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 5, 5, 6, 1);
    mk_scene_pose_destroy(p);
    mk_scene_destroy(s);

    /* T (4 5 6) * Rz(90) * S(2) and a mirror diag(-1 1 1): a translation
     * track replaces T and keeps the decomposed R and S (the mirror as
     * scale x = -1, three.js's choice for a negative determinant). */
    const float trs_m[16] = {0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 4, 5, 6, 1};
    const float mirror[16] = {-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    mk_scene_node_desc_init(&d[0]);
    mk_scene_node_desc_init(&d[1]);
    d[0].has_matrix = d[1].has_matrix = true;
    memcpy(d[0].matrix, trs_m, sizeof trs_m);
    memcpy(d[1].matrix, mirror, sizeof mirror);
    s = make_scene(d, 2);
    CHECK_NEAR(s->rest[0].rotation[2], SQRT_HALF, 1e-6);
    CHECK_NEAR(s->rest[0].rotation[3], SQRT_HALF, 1e-6);
    CHECK_NEAR(s->rest[0].scale[0], 2, 1e-6);
    CHECK_NEAR(s->rest[1].scale[0], -1, 1e-6);
    CHECK_NEAR(s->rest[1].rotation[3], 1, 1e-6);
    mk_track_desc td[2] = {{MK_TRACK_TRANSLATION, MK_INTERPOLATION_LINEAR, 0, 1, 3},
                           {MK_TRACK_TRANSLATION, MK_INTERPOLATION_LINEAR, 1, 1, 3}};
    mk_track_clip *clip = NULL;
    CHECK(mk_track_clip_create(td, 2, NULL, &clip, &err) == MK_OK);
    const float t0[3] = {7, 8, 9}, t1[3] = {0, 0, 3};
    memcpy(clip->tracks[0].values, t0, sizeof t0);
    memcpy(clip->tracks[1].values, t1, sizeof t1);
    CHECK(mk_track_clip_validate(clip, &err) == MK_OK);
    CHECK(mk_scene_pose_create(s, NULL, &p, &err) == MK_OK);
    float values[6];
    mk_track_sample(&clip->tracks[0], 0, values + clip->tracks[0].value_offset);
    mk_track_sample(&clip->tracks[1], 0, values + clip->tracks[1].value_offset);
    CHECK(mk_scene_pose_apply(s, p, clip, values, &err) == MK_OK);
    CHECK(mk_scene_pose_world(s, p, w, 2, &err) == MK_OK);
    CHECK_MAT(w, 0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 7, 8, 9, 1);
    CHECK_MAT(w + 16, -1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 3, 1);
    /* Reset: the exact matrices again. */
    CHECK(mk_scene_pose_reset(s, p, &err) == MK_OK);
    CHECK(mk_scene_pose_world(s, p, w, 2, &err) == MK_OK);
    CHECK(memcmp(w, trs_m, sizeof trs_m) == 0);
    CHECK(memcmp(w + 16, mirror, sizeof mirror) == 0);
    mk_scene_pose_destroy(p);
    mk_track_clip_destroy(clip);
    mk_scene_destroy(s);
}

/* Half turns about x, y and z (trace -1: the three non-trace branches of
 * the matrix-to-quaternion step) decompose to (1 0 0 0), (0 1 0 0) and
 * (0 0 1 0). */
static void test_matrix_half_turns(void)
{
    mk_scene_node_desc d[3];
    for (int a = 0; a < 3; a++) {
        mk_scene_node_desc_init(&d[a]);
        d[a].has_matrix = true;
        for (int k = 0; k < 3; k++)
            d[a].matrix[k * 5] = k == a ? 1.0f : -1.0f;
    }
    mk_scene *s = make_scene(d, 3);
    for (int a = 0; s && a < 3; a++)
        for (int k = 0; k < 4; k++) {
            CHECK_NEAR(s->rest[a].rotation[k], k == a ? 1 : 0, 1e-7);
            CHECK_NEAR(s->rest[a].scale[k % 3], 1, 1e-7);
        }
    mk_scene_destroy(s);
}

static mk_status try_parents(const uint32_t *parents, uint32_t n, mk_error *err)
{
    mk_scene_node_desc d[4];
    for (uint32_t i = 0; i < n; i++) {
        mk_scene_node_desc_init(&d[i]);
        d[i].parent = parents[i];
    }
    mk_scene_desc desc = {n, d, NULL, NULL};
    mk_scene *s = (mk_scene *)&desc; /* must be set to NULL on failure */
    mk_status st = mk_scene_create(&desc, NULL, &s, err);
    if (st != MK_OK)
        CHECK(s == NULL);
    mk_scene_destroy(s);
    return st;
}

static void test_bad_hierarchies(void)
{
    mk_error err;
    const uint32_t cycle[4] = {MK_NONE, 2, 3, 1}; /* 1 -> 3 -> 2 -> 1 */
    CHECK(try_parents(cycle, 4, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "node 1 is part of a cycle");
    const uint32_t self[2] = {MK_NONE, 1};
    CHECK(try_parents(self, 2, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "node 1 is part of a cycle");
    const uint32_t far[2] = {MK_NONE, 5};
    CHECK(try_parents(far, 2, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "node 1: parent 5 is not one of the 2 nodes");
    const uint32_t fine[4] = {3, MK_NONE, 1, 1};
    CHECK(try_parents(fine, 4, &err) == MK_OK);

    /* Child lists: node 2 under both 0 and 1; a node its own child. */
    mk_scene_node_desc d[3];
    for (int i = 0; i < 3; i++)
        mk_scene_node_desc_init(&d[i]);
    const uint32_t counts[3] = {1, 1, 0}, kids[2] = {2, 2};
    mk_scene_desc desc = {3, d, counts, kids};
    mk_scene *s = NULL;
    CHECK(mk_scene_create(&desc, NULL, &s, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "node 2 has two parents (nodes 0 and 1)");
    const uint32_t counts2[3] = {0, 1, 0}, kids2[1] = {1};
    mk_scene_desc desc2 = {3, d, counts2, kids2};
    CHECK(mk_scene_create(&desc2, NULL, &s, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "node 1 lists itself as a child");
    /* Child lists can form a cycle with one parent each: 0 -> 1 -> 0. */
    const uint32_t counts3[3] = {1, 1, 0}, kids3[2] = {1, 0};
    mk_scene_desc desc3 = {3, d, counts3, kids3};
    CHECK(mk_scene_create(&desc3, NULL, &s, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "cycle");
    CHECK(s == NULL);
    /* Bad values and NULLs. */
    d[1].trs.rotation[3] = 0; /* (0 0 0 0) */
    mk_scene_desc desc4 = {3, d, NULL, NULL};
    CHECK(mk_scene_create(&desc4, NULL, &s, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "node 1");
    d[1].trs.rotation[3] = 1;
    d[2].trs.translation[0] = NAN;
    CHECK(mk_scene_create(&desc4, NULL, &s, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "node 2");
    mk_scene_desc desc5 = {3, NULL, NULL, NULL};
    CHECK(mk_scene_create(&desc5, NULL, &s, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_scene_create(NULL, NULL, &s, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_scene_create(&desc4, NULL, NULL, &err) == MK_ERR_INVALID_ARGUMENT);
    /* An empty scene is fine. */
    mk_scene_desc empty = {0, NULL, NULL, NULL};
    CHECK(mk_scene_create(&empty, NULL, &s, &err) == MK_OK);
    mk_scene_pose *p = NULL;
    CHECK(mk_scene_pose_create(s, NULL, &p, &err) == MK_OK);
    CHECK(mk_scene_pose_world(s, p, NULL, 0, &err) == MK_OK);
    mk_scene_pose_destroy(p);
    mk_scene_destroy(s);
}

/* Rotation track LINEAR 0 s: identity, 1 s: 90 degrees about z, on node 0;
 * sampled at 0.5 s = 45 degrees. */
static mk_track_clip *turn_clip(uint32_t node)
{
    mk_track_desc td = {MK_TRACK_ROTATION, MK_INTERPOLATION_LINEAR, node, 2, 4};
    mk_track_clip *clip = NULL;
    mk_error err;
    CHECK(mk_track_clip_create(&td, 1, NULL, &clip, &err) == MK_OK);
    const int64_t t[2] = {0, 1000000};
    const float q[8] = {0, 0, 0, 1, 0, 0, (float)SQRT_HALF, (float)SQRT_HALF};
    memcpy(clip->tracks[0].times_us, t, sizeof t);
    memcpy(clip->tracks[0].values, q, sizeof q);
    CHECK(mk_track_clip_validate(clip, &err) == MK_OK);
    return clip;
}

/* Node 0 (scale 2, t (1 0 0)) turns by the clip; overrides replace parts
 * or all of its local transform and keep the other parts animated. */
static void test_override(void)
{
    mk_scene_node_desc d[2];
    set_trs(&d[0], MK_NONE, 1, 0, 0, 0, 0, 0, 1, 2, 2, 2);
    set_trs(&d[1], 0, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1);
    mk_scene *s = make_scene(d, 2);
    mk_track_clip *clip = turn_clip(0);
    mk_scene_pose *p = NULL;
    mk_error err;
    CHECK(mk_scene_pose_create(s, NULL, &p, &err) == MK_OK);
    float values[4], w[32];
    const double c = cos(MK_PI / 4) * 2, sn = sin(MK_PI / 4) * 2; /* rotation * scale 2 */
    mk_track_sample(&clip->tracks[0], 500000, values);
    CHECK(mk_scene_pose_apply(s, p, clip, values, &err) == MK_OK);
    CHECK(mk_scene_pose_world(s, p, w, 2, &err) == MK_OK);
    CHECK_MAT(w, c, sn, 0, 0, -sn, c, 0, 0, 0, 0, 2, 0, 1, 0, 0, 1);
    /* The child's origin: (0 1 0) scaled to (0 2 0), turned 45 degrees. */
    CHECK_NEAR(w[16 + 12], 1 - sn, 1e-5);
    CHECK_NEAR(w[16 + 13], c, 1e-5);

    /* Override the translation only: the rotation stays animated. */
    mk_scene_trs o;
    memset(&o, 0, sizeof o);
    o.translation[1] = 5;
    o.rotation[0] = NAN; /* not read: only TRANSLATION is named */
    CHECK(mk_scene_pose_set_override(p, 0, MK_SCENE_OVERRIDE_TRANSLATION, &o, &err) == MK_OK);
    CHECK(mk_scene_pose_world(s, p, w, 2, &err) == MK_OK);
    CHECK_MAT(w, c, sn, 0, 0, -sn, c, 0, 0, 0, 0, 2, 0, 0, 5, 0, 1);
    /* Applying the animation again does not undo the override. */
    mk_track_sample(&clip->tracks[0], 1000000, values); /* 90 degrees */
    CHECK(mk_scene_pose_apply(s, p, clip, values, &err) == MK_OK);
    CHECK(mk_scene_pose_world(s, p, w, 2, &err) == MK_OK);
    CHECK_MAT(w, 0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 0, 5, 0, 1);
    /* Add a rotation override (non-unit: (0 0 0 3) is the identity). */
    o.rotation[0] = 0, o.rotation[3] = 3;
    CHECK(mk_scene_pose_set_override(p, 0, MK_SCENE_OVERRIDE_ROTATION, &o, &err) == MK_OK);
    CHECK(mk_scene_pose_world(s, p, w, 2, &err) == MK_OK);
    CHECK_MAT(w, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 5, 0, 1);
    /* A whole matrix; then clearing brings the animation back. */
    const float m[16] = {0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 3, 3, 3, 1};
    CHECK(mk_scene_pose_set_override_matrix(p, 0, m, &err) == MK_OK);
    CHECK(mk_scene_pose_world(s, p, w, 2, &err) == MK_OK);
    CHECK(memcmp(w, m, sizeof m) == 0);
    CHECK_MAT(w + 16, 0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 3, 4, 3, 1);
    /* Overrides survive a reset (they are the game's, not the clip's). */
    CHECK(mk_scene_pose_reset(s, p, &err) == MK_OK);
    CHECK(mk_scene_pose_world(s, p, w, 2, &err) == MK_OK);
    CHECK(memcmp(w, m, sizeof m) == 0);
    CHECK(mk_scene_pose_clear_override(p, 0, &err) == MK_OK);
    CHECK(mk_scene_pose_world(s, p, w, 2, &err) == MK_OK);
    CHECK_MAT(w, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 0, 0, 1); /* rest */
    CHECK(mk_scene_pose_apply(s, p, clip, values, &err) == MK_OK);
    CHECK(mk_scene_pose_world(s, p, w, 2, &err) == MK_OK);
    CHECK_MAT(w, 0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 0, 0, 1);
    /* Clear all (MK_NONE) after overriding the child. */
    CHECK(mk_scene_pose_set_override(p, 1, MK_SCENE_OVERRIDE_SCALE, &o, &err) == MK_OK);
    CHECK(p->flags[1] & MK_SCENE_OVERRIDE_SCALE);
    CHECK(mk_scene_pose_clear_override(p, MK_NONE, &err) == MK_OK);
    CHECK(p->flags[1] == 0);
    /* Misuse. */
    CHECK(mk_scene_pose_set_override(p, 2, MK_SCENE_OVERRIDE_SCALE, &o, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "node 2 is not one of the 2 nodes");
    CHECK(mk_scene_pose_set_override(p, 0, 0, &o, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_scene_pose_set_override(p, 0, MK_SCENE_OVERRIDE_MATRIX, &o, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    memset(o.rotation, 0, sizeof o.rotation);
    CHECK(mk_scene_pose_set_override(p, 0, MK_SCENE_OVERRIDE_ROTATION, &o, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_scene_pose_set_override_matrix(p, 0, NULL, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_scene_pose_clear_override(p, 7, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_scene_pose_clear_override(NULL, 0, &err) == MK_ERR_INVALID_ARGUMENT);
    mk_scene_pose_destroy(p);
    mk_track_clip_destroy(clip);
    mk_scene_destroy(s);
}

/* Rotations of any length: the rest rotation is stored normalized, and
 * CUBICSPLINE samples (which leave the unit sphere between keys) are
 * normalized by the sampler. */
static void test_quaternion_normalization(void)
{
    mk_scene_node_desc d;
    set_trs(&d, MK_NONE, 0, 0, 0, 0, 0, 2, 2, 1, 1, 1);
    mk_scene *s = make_scene(&d, 1);
    CHECK_NEAR(s->rest[0].rotation[2], SQRT_HALF, 1e-7);
    CHECK_NEAR(s->rest[0].rotation[3], SQRT_HALF, 1e-7);
    CHECK_MAT(s->rest_matrices, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
    mk_scene_destroy(s);

    /* Keys (0 0 0 1) and (0 0 1 0), zero tangents: the Hermite midpoint is
     * (0 0 0.5 0.5), of length 0.707; normalized (0 0 0.7071 0.7071). */
    mk_track_desc td = {MK_TRACK_ROTATION, MK_INTERPOLATION_CUBICSPLINE, 0, 2, 4};
    mk_track_clip *clip = NULL;
    mk_error err;
    CHECK(mk_track_clip_create(&td, 1, NULL, &clip, &err) == MK_OK);
    const int64_t t[2] = {0, 1000000};
    const float v[24] = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, /* a, v, b of key 0 */
                         0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0};
    memcpy(clip->tracks[0].times_us, t, sizeof t);
    memcpy(clip->tracks[0].values, v, sizeof v);
    CHECK(mk_track_clip_validate(clip, &err) == MK_OK);
    float q[4];
    mk_track_sample(&clip->tracks[0], 500000, q);
    CHECK_NEAR(q[0], 0, 1e-7);
    CHECK_NEAR(q[2], SQRT_HALF, 1e-6);
    CHECK_NEAR(q[3], SQRT_HALF, 1e-6);
    mk_track_clip_destroy(clip);

    /* A STEP key of length 2 rotates like its unit quaternion (no scaling):
     * 180 degrees about x as (2 0 0 0). */
    set_trs(&d, MK_NONE, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1);
    s = make_scene(&d, 1);
    mk_track_desc sd = {MK_TRACK_ROTATION, MK_INTERPOLATION_STEP, 0, 1, 4};
    CHECK(mk_track_clip_create(&sd, 1, NULL, &clip, &err) == MK_OK);
    const float two[4] = {2, 0, 0, 0};
    memcpy(clip->tracks[0].values, two, sizeof two);
    CHECK(mk_track_clip_validate(clip, &err) == MK_OK);
    mk_scene_pose *p = NULL;
    CHECK(mk_scene_pose_create(s, NULL, &p, &err) == MK_OK);
    mk_track_sample(&clip->tracks[0], 0, q);
    CHECK(mk_scene_pose_apply(s, p, clip, q, &err) == MK_OK);
    float w[16];
    CHECK(mk_scene_pose_world(s, p, w, 1, &err) == MK_OK);
    CHECK_MAT(w, 1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1);
    mk_scene_pose_destroy(p);
    mk_track_clip_destroy(clip);
    mk_scene_destroy(s);
}

/* A hand-built clip: translation LINEAR (0 0 0) at 0 s to (2 4 6) at 1 s,
 * rotation LINEAR identity to 90 degrees about z, scale STEP 1 at 0 s and
 * 3 at 0.6 s, and a weights track (skipped by the scene). Sampled in one
 * call through a clip state. */
static void test_apply_clip(void)
{
    mk_scene_node_desc d[2];
    set_trs(&d[0], MK_NONE, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1);
    set_trs(&d[1], MK_NONE, 9, 9, 9, 0, 0, 0, 1, 1, 1, 1); /* not animated */
    mk_scene *s = make_scene(d, 2);
    mk_track_desc td[4] = {{MK_TRACK_WEIGHTS, MK_INTERPOLATION_LINEAR, 77, 1, 2},
                           {MK_TRACK_TRANSLATION, MK_INTERPOLATION_LINEAR, 0, 2, 3},
                           {MK_TRACK_ROTATION, MK_INTERPOLATION_LINEAR, 0, 2, 4},
                           {MK_TRACK_SCALE, MK_INTERPOLATION_STEP, 0, 2, 3}};
    mk_track_clip *clip = NULL;
    mk_error err;
    CHECK(mk_track_clip_create(td, 4, NULL, &clip, &err) == MK_OK);
    const int64_t t1[2] = {0, 1000000}, t3[2] = {0, 600000};
    const float tv[6] = {0, 0, 0, 2, 4, 6}, sv[6] = {1, 1, 1, 3, 3, 3};
    const float rv[8] = {0, 0, 0, 1, 0, 0, (float)SQRT_HALF, (float)SQRT_HALF};
    const float wv[2] = {0.5f, 0.5f};
    memcpy(clip->tracks[0].times_us, t1, sizeof(int64_t));
    memcpy(clip->tracks[0].values, wv, sizeof wv);
    for (int k = 1; k < 4; k++)
        memcpy(clip->tracks[k].times_us, k == 3 ? t3 : t1, sizeof t1);
    memcpy(clip->tracks[1].values, tv, sizeof tv);
    memcpy(clip->tracks[2].values, rv, sizeof rv);
    memcpy(clip->tracks[3].values, sv, sizeof sv);
    CHECK(mk_track_clip_validate(clip, &err) == MK_OK);
    uint32_t cursors[4];
    float values[2 + 3 + 4 + 3];
    CHECK_EQ_INT(clip->output_count, 12);
    mk_track_clip_state st;
    mk_track_clip_state_init(&st, clip, false, cursors);
    mk_track_clip_state_set_time(&st, 500000);
    mk_track_clip_state_sample(&st, values);
    mk_scene_pose *p = NULL;
    CHECK(mk_scene_pose_create(s, NULL, &p, &err) == MK_OK);
    CHECK(mk_scene_pose_apply(s, p, clip, values, &err) == MK_OK);
    float w[32];
    CHECK(mk_scene_pose_world(s, p, w, 2, &err) == MK_OK);
    const double c = cos(MK_PI / 4), sn = sin(MK_PI / 4);
    CHECK_MAT(w, c, sn, 0, 0, -sn, c, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1);
    CHECK_MAT(w + 16, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 9, 9, 9, 1);
    CHECK((p->flags[0] & MK_SCENE_POSE_ANIMATED) && !(p->flags[1] & MK_SCENE_POSE_ANIMATED));
    /* 0.7 s: t (1.4 2.8 4.2), 63 degrees, scale 3 (the STEP key at 0.6 s). */
    mk_track_clip_state_set_time(&st, 700000);
    mk_track_clip_state_sample(&st, values);
    CHECK(mk_scene_pose_apply(s, p, clip, values, &err) == MK_OK);
    CHECK(mk_scene_pose_world(s, p, w, 2, &err) == MK_OK);
    const double c7 = 3 * cos(0.7 * MK_PI / 2), s7 = 3 * sin(0.7 * MK_PI / 2);
    CHECK_MAT(w, c7, s7, 0, 0, -s7, c7, 0, 0, 0, 0, 3, 0, 1.4, 2.8, 4.2, 1);

    /* A TRS track aimed past the scene is misuse; the pose is unchanged. */
    mk_scene_node_desc one;
    set_trs(&one, MK_NONE, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1);
    mk_scene *small = make_scene(&one, 1);
    mk_track_clip *far = turn_clip(1);
    mk_scene_pose *sp = NULL;
    CHECK(mk_scene_pose_create(small, NULL, &sp, &err) == MK_OK);
    float q[4] = {0, 0, 1, 0};
    CHECK(mk_scene_pose_apply(small, sp, far, q, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "tracks[0] (rotation) targets node 1");
    CHECK(sp->flags[0] == 0);
    /* A pose of another scene is misuse too. */
    CHECK(mk_scene_pose_apply(s, sp, clip, values, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(err.message, "another scene");
    CHECK(mk_scene_pose_world(small, p, w, 2, &err) == MK_ERR_INVALID_ARGUMENT);
    mk_scene_pose_destroy(sp);
    mk_track_clip_destroy(far);
    mk_scene_destroy(small);
    mk_scene_pose_destroy(p);
    mk_track_clip_destroy(clip);
    mk_scene_destroy(s);
}

/* Loads a sample, builds its scene and animation, and fills w with the
 * world matrices at time_us. */
static bool gltf_world_at(const char *rel, uint32_t anim, int64_t time_us, float *w, size_t cap)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/gltf/%s", MK_TEST_SOURCE_DIR, rel);
    mk_gltf *g = NULL;
    mk_scene *s = NULL;
    mk_scene_pose *p = NULL;
    mk_track_clip *clip = NULL;
    mk_error err;
    bool ok = mk_gltf_load(path, NULL, NULL, &g, &err) == MK_OK &&
              mk_gltf_build_scene(g, NULL, &s, &err) == MK_OK &&
              mk_gltf_build_track_clip(g, anim, NULL, &clip, &err) == MK_OK &&
              mk_scene_pose_create(s, NULL, &p, &err) == MK_OK && clip->track_count <= 8;
    if (ok) {
        uint32_t cursors[8];
        float values[64];
        mk_track_clip_state st;
        ok = clip->output_count <= 64;
        mk_track_clip_state_init(&st, clip, false, cursors);
        mk_track_clip_state_set_time(&st, time_us);
        mk_track_clip_state_sample(&st, values);
        ok = ok && mk_scene_pose_apply(s, p, clip, values, &err) == MK_OK &&
             mk_scene_pose_world(s, p, w, cap, &err) == MK_OK;
    }
    if (!ok)
        fprintf(stderr, "%s: %s\n", path, err.message);
    CHECK(ok);
    mk_scene_pose_destroy(p);
    mk_track_clip_destroy(clip);
    mk_scene_destroy(s);
    mk_gltf_destroy(g);
    return ok;
}

/* BoxAnimated: node 0 (root, rotation (-0 -0 -0 -1) = identity) -> node 1
 * -> node 2 (the box). Node 0's translation keys: 0 s (0 0 0), 1.25 s
 * (0 2.52 0), 2.5 s (0 2.52 0), 3.70833 s (0 0 0); node 2's rotation keys:
 * 1.25 s (-0 -0 -0 -1), 2.5 s (1 0 0 4.49e-11).
 *   0.625 s: node 0 at half of 2.52 = 1.26; node 2 at its first key.
 *   1.875 s: node 0 at 2.52; node 2 halfway. The keys' dot product is
 *   -4.49e-11 < 0, so the shorter arc runs to the negated second key
 *   (-1 0 0 -4.49e-11) (three.js's slerpFlat flips the same way); halfway
 *   between (0 0 0 -1) and that is (-0.7071 0 0 -0.7071) = +90 degrees
 *   about x: y -> (0 0 1), z -> (0 -1 0). */
static void test_gltf_box_animated(void)
{
    float w[4 * 16];
    if (gltf_world_at("BoxAnimated/glTF/BoxAnimated.gltf", 0, 625000, w, 4)) {
        CHECK_MAT(w + 32, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1.26, 0, 1);
        CHECK_MAT(w + 48, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
    }
    if (gltf_world_at("BoxAnimated/glTF-Binary/BoxAnimated.glb", 0, 1875000, w, 4)) {
        CHECK_MAT(w, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 2.52, 0, 1);
        CHECK_MAT(w + 32, 1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 2.52, 0, 1);
    }
}

/* InterpolationTest "Linear Rotation" (animation 5) turns node 7
 * ("Cube.005": rest translation (-3.3114 3.35641 0), scale 0.9999999); its
 * keys at 0.875 s and 1.25 s are (0 0 -0.7071 0.7071) and
 * (0 0 -0.92388 0.38268): -90 and -135 degrees about z. At 0.875 s: x -> (0 -1 0); at 1.0625 s (half): -112.5 degrees. */
static void test_gltf_interpolation_rotation(void)
{
    float w[12 * 16];
    const double tx = -3.311399221420288, ty = 3.356412410736084;
    if (gltf_world_at("InterpolationTest/glTF/InterpolationTest.gltf", 5, 875000, w, 12))
        CHECK_MAT(w + 7 * 16, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, tx, ty, 0, 1);
    if (gltf_world_at("InterpolationTest/glTF/InterpolationTest.gltf", 5, 1062500, w, 12)) {
        const double a = -112.5 * MK_PI / 180, c = cos(a), sn = sin(a);
        CHECK_MAT(w + 7 * 16, c, sn, 0, 0, -sn, c, 0, 0, 0, 0, 1, 0, tx, ty, 0, 1);
    }
    /* A node no track touches keeps its rest transform: node 10 (t (-3.29758
     * 6.95891 0)). */
    CHECK_MAT(w + 10 * 16, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -3.2975807189941406,
              6.958913326263428, 0, 1);
}

/* A glTF whose child (node 0) comes before its parent (node 1), the parent
 * given as a matrix: T (0 0 5) * Rz(90). Node 0 at t (1 0 0): world origin
 * Rz(90) (1 0 0) + (0 0 5) = (0 1 5). A zero-length rotation is refused. */
static void test_gltf_inline(void)
{
    const char *json = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":["
                       "{\"translation\":[1,0,0]},"
                       "{\"children\":[0],\"matrix\":[0,1,0,0, -1,0,0,0, 0,0,1,0, 0,0,5,1]}]}";
    mk_gltf *g = NULL;
    mk_scene *s = NULL;
    mk_scene_pose *p = NULL;
    mk_error err;
    CHECK(mk_gltf_parse(json, strlen(json), NULL, "inline.gltf", NULL, NULL, &g, &err) == MK_OK);
    CHECK(g && mk_gltf_build_scene(g, NULL, &s, &err) == MK_OK);
    if (s) {
        CHECK(s->has_matrix[1] && !s->has_matrix[0]);
        CHECK_EQ_INT(s->order[0], 1);
        CHECK(mk_scene_pose_create(s, NULL, &p, &err) == MK_OK);
        float w[32];
        CHECK(mk_scene_pose_world(s, p, w, 2, &err) == MK_OK);
        CHECK_MAT(w, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 5, 1);
    }
    mk_scene_pose_destroy(p);
    mk_scene_destroy(s);
    mk_gltf_destroy(g);
    g = NULL;
    s = NULL;
    const char *zero =
        "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{},{\"rotation\":[0,0,0,0]}]}";
    CHECK(mk_gltf_parse(zero, strlen(zero), NULL, "zero.gltf", NULL, NULL, &g, &err) == MK_OK);
    CHECK(g && mk_gltf_build_scene(g, NULL, &s, &err) == MK_ERR_RANGE);
    CHECK_CONTAINS(err.message, "nodes[1].rotation");
    CHECK(s == NULL);
    mk_gltf_destroy(g);
}

/* Counts live blocks and bytes, to check the one-allocation claims. */
typedef struct counter {
    int live;
    size_t bytes;
} counter;

static void *count_alloc(void *user, size_t size)
{
    counter *c = (counter *)user;
    c->live++;
    c->bytes += size;
    return malloc(size);
}

static void count_free(void *user, void *ptr, size_t size)
{
    counter *c = (counter *)user;
    c->live--;
    c->bytes -= size;
    free(ptr);
}

static void test_allocations(void)
{
    counter c = {0, 0};
    mk_allocator a = {count_alloc, NULL, count_free, &c};
    mk_scene_node_desc d[3];
    set_trs(&d[0], 2, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1);
    set_trs(&d[1], MK_NONE, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1);
    set_trs(&d[2], 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1);
    mk_scene_desc desc = {3, d, NULL, NULL};
    mk_scene *s = NULL;
    mk_scene_pose *p = NULL;
    mk_error err;
    CHECK(mk_scene_create(&desc, &a, &s, &err) == MK_OK);
    CHECK_EQ_INT(c.live, 1); /* the sorting scratch is gone */
    CHECK(mk_scene_pose_create(s, &a, &p, &err) == MK_OK);
    CHECK_EQ_INT(c.live, 2);
    mk_scene_pose_destroy(p);
    mk_scene_destroy(s);
    CHECK_EQ_INT(c.live, 0);
    CHECK_EQ_INT(c.bytes, 0);
    /* A failing create leaves nothing behind. */
    d[1].parent = 0; /* 0 -> 2 -> 1 -> 0 */
    CHECK(mk_scene_create(&desc, &a, &s, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(c.live, 0);
}

static void test_pose_misuse(void)
{
    mk_scene_node_desc d;
    set_trs(&d, MK_NONE, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1);
    mk_scene *s = make_scene(&d, 1);
    mk_scene_pose *p = NULL;
    mk_error err;
    CHECK(mk_scene_pose_create(NULL, NULL, &p, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_scene_pose_create(s, NULL, NULL, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_scene_pose_create(s, NULL, &p, &err) == MK_OK);
    float m[16];
    CHECK(mk_scene_pose_local(s, p, 1, m, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_scene_pose_local(s, p, 0, NULL, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_scene_pose_world(NULL, p, m, 1, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_scene_pose_world(s, p, NULL, 1, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_scene_pose_reset(s, NULL, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_scene_pose_apply(s, p, NULL, m, &err) == MK_ERR_INVALID_ARGUMENT);
    mk_gltf_build_scene(NULL, NULL, NULL, &err);
    CHECK(err.code == MK_ERR_INVALID_ARGUMENT);
    mk_scene_pose_destroy(p);
    mk_scene_destroy(s);
    mk_scene_destroy(NULL);
    mk_scene_pose_destroy(NULL);
}

int main(int argc, char **argv)
{
    static const mk_test_case cases[] = {
        MK_TEST(test_trs_order),
        MK_TEST(test_hierarchy_out_of_order),
        MK_TEST(test_matrix_node),
        MK_TEST(test_matrix_half_turns),
        MK_TEST(test_bad_hierarchies),
        MK_TEST(test_override),
        MK_TEST(test_quaternion_normalization),
        MK_TEST(test_apply_clip),
        MK_TEST(test_gltf_box_animated),
        MK_TEST(test_gltf_interpolation_rotation),
        MK_TEST(test_gltf_inline),
        MK_TEST(test_allocations),
        MK_TEST(test_pose_misuse),
    };
    return mk_test_run(cases, sizeof cases / sizeof cases[0], argc, argv);
}
