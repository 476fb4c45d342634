/* The glTF sample models in tests/data/gltf (see its MANIFEST.md), checked
 * against values computed by hand from the files, or independently of
 * morphkit by reading the .bin with a few lines of Python (struct.unpack and
 * the glTF formulas) - never by morphkit itself. */
#include <stdint.h>
#include <string.h>

#include "mk_test.h"
#include "morphkit/gltf.h"

#define SAMPLE(rel) MK_TEST_SOURCE_DIR "/tests/data/gltf/" rel

static mk_gltf *load(const char *path)
{
    mk_gltf *g = NULL;
    mk_error err;
    mk_status s = mk_gltf_load(path, NULL, NULL, &g, &err);
    if (s != MK_OK)
        fprintf(stderr, "%s: %s\n", path, err.message);
    CHECK(s == MK_OK && g);
    return g;
}

/* Samples the track of animation `anim` that animates `path` of `node` at
 * time_us into out; false when there is none. */
static bool sample_channel(const mk_gltf *g, uint32_t anim, uint32_t node, mk_track_path path,
                           int64_t time_us, float *out)
{
    mk_track_clip *clip = NULL;
    mk_error err;
    CHECK(mk_gltf_build_track_clip(g, anim, NULL, &clip, &err) == MK_OK);
    if (!clip)
        return false;
    bool found = false;
    for (uint32_t i = 0; i < clip->track_count; i++) {
        if (clip->tracks[i].target == node && clip->tracks[i].path == path) {
            mk_track_sample(&clip->tracks[i], time_us, out);
            found = true;
        }
    }
    mk_track_clip_destroy(clip);
    CHECK(found);
    return found;
}

/* AnimatedMorphCube (float and GLB): 24 vertices, 2 targets with POSITION,
 * NORMAL and TANGENT deltas; "Square" animates weights LINEAR over 127 keys
 * 1/30 s apart. Expected (Python from the .bin): at 2.5 s the weights are
 * (0.441000, 0.559000); vertex 5 = (-0.00999999, 0.00946822, -0.01);
 * vertex 12's normal = normalize((0,-1,0) + 0.559 (0, 0.290961, -0.705169))
 * = (0, -0.904760, -0.425922). */
static void check_morph_cube(const char *path, bool glb)
{
    mk_gltf *g = load(path);
    if (!g)
        return;
    CHECK(g->is_glb == glb);
    CHECK_EQ_INT(g->mesh_count, 1);
    CHECK_EQ_INT(g->meshes[0].target_count, 2);
    const mk_gltf_primitive *p = &g->meshes[0].primitives[0];
    CHECK(p->normal != MK_NONE && p->tangent != MK_NONE);
    CHECK(p->targets[0].tangent != MK_NONE);
    CHECK(strcmp(g->accessors[p->targets[0].position].name, "thin") == 0);
    CHECK(strcmp(g->accessors[p->targets[1].position].name, "angle") == 0);
    CHECK_EQ_INT(g->animation_count, 1);
    CHECK(strcmp(g->animations[0].name, "Square") == 0);
    CHECK(g->animations[0].samplers[0].interpolation == MK_INTERPOLATION_LINEAR);
    CHECK_EQ_INT(g->accessors[g->animations[0].samplers[0].input].count, 127);

    float w[2] = {0, 0};
    sample_channel(g, 0, 0, MK_TRACK_WEIGHTS, 2500000, w);
    CHECK_NEAR(w[0], 0.441000, 2e-5);
    CHECK_NEAR(w[1], 0.559000, 2e-5);

    mk_morph_set *set = NULL;
    mk_error err;
    CHECK(mk_gltf_build_morph_set(g, 0, 0, NULL, &set, &err) == MK_OK);
    if (set) {
        float pos[24 * 3], nrm[24 * 3], tan[24 * 4];
        CHECK_EQ_INT(set->vertex_count, 24);
        CHECK(set->base_tangents != NULL);
        CHECK(mk_morph_evaluate(set, w, pos, nrm, tan, set->vertex_count, NULL) == MK_OK);
        CHECK_NEAR(pos[5 * 3 + 0], -0.00999999, 1e-7);
        CHECK_NEAR(pos[5 * 3 + 1], 0.00946822, 1e-6);
        CHECK_NEAR(pos[5 * 3 + 2], -0.01, 1e-7);
        CHECK_NEAR(nrm[12 * 3 + 0], 0.0, 1e-6);
        CHECK_NEAR(nrm[12 * 3 + 1], -0.904760, 2e-5);
        CHECK_NEAR(nrm[12 * 3 + 2], -0.425922, 2e-5);
        CHECK_NEAR(tan[12 * 4 + 0], 1.0, 1e-6); /* tangent deltas are zero here */
        CHECK_NEAR(tan[12 * 4 + 3], 1.0, 0);
        /* mesh.weights = [0, 0]: the default pose is the base. */
        CHECK(mk_morph_evaluate(set, NULL, pos, NULL, NULL, set->vertex_count, NULL) == MK_OK);
        CHECK_NEAR(pos[5 * 3 + 1], -0.01, 1e-7);
        mk_morph_set_destroy(set);
    }
    /* After the last key (4.2 s) the last value holds: (0, -1.5259e-07). */
    sample_channel(g, 0, 0, MK_TRACK_WEIGHTS, 9000000, w);
    CHECK_NEAR(w[0], 0.0, 1e-9);
    CHECK_NEAR(w[1], -1.5258789e-07, 1e-12);
    mk_gltf_destroy(g);
}

static void test_animated_morph_cube(void)
{
    check_morph_cube(SAMPLE("AnimatedMorphCube/glTF/AnimatedMorphCube.gltf"), false);
}

static void test_animated_morph_cube_glb(void)
{
    check_morph_cube(SAMPLE("AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb"), true);
}

/* The quantized variant: u16 base POSITION, i16 target POSITION (not
 * normalized), i8n NORMALs with byteStride 4, u8n weights. Vertex 5: base
 * (0, 5451, 0), deltas (0, 5188, 0) and (0, 5451, 0). At 2.5 s the weights
 * are exactly keys 112/255 and 143/255, so y = 5451 + 112/255*5188 +
 * 143/255*5451 = 10786.486. Normal 12: base (0,-127,0)/127, delta 2 =
 * (0, 37, -90)/127; normalize((0,-1,0) + 143/255 (0, 0.291339, -0.708661))
 * = (0, -0.903273, -0.429066). */
static void test_animated_morph_cube_quantized(void)
{
    mk_gltf *g = load(SAMPLE("AnimatedMorphCube/glTF-Quantized/AnimatedMorphCube.gltf"));
    if (!g)
        return;
    CHECK(g->uses_quantization);
    const mk_gltf_primitive *p = &g->meshes[0].primitives[0];
    CHECK(g->accessors[p->position].component_type == MK_GLTF_UNSIGNED_SHORT);
    CHECK(g->accessors[p->normal].stride == 4);
    CHECK(p->tangent == MK_NONE);
    float w[2] = {0, 0};
    sample_channel(g, 0, 0, MK_TRACK_WEIGHTS, 2500000, w);
    CHECK_NEAR(w[0], 112.0 / 255.0, 1e-6);
    CHECK_NEAR(w[1], 143.0 / 255.0, 1e-6);
    mk_morph_set *set = NULL;
    mk_error err;
    CHECK(mk_gltf_build_morph_set(g, 0, 0, NULL, &set, &err) == MK_OK);
    if (set) {
        float pos[24 * 3], nrm[24 * 3];
        CHECK(mk_morph_evaluate(set, w, pos, nrm, NULL, set->vertex_count, NULL) == MK_OK);
        CHECK_NEAR(pos[5 * 3 + 0], 0.0, 0);
        CHECK_NEAR(pos[5 * 3 + 1], 10786.486, 2e-3);
        CHECK_NEAR(nrm[12 * 3 + 1], -0.903273, 2e-5);
        CHECK_NEAR(nrm[12 * 3 + 2], -0.429066, 2e-5);
        mk_morph_set_destroy(set);
    }
    /* The dequantization scale is on the node, as gltfpack writes it. */
    CHECK_NEAR(g->nodes[0].scale[0], 3.64900689e-06, 1e-12);
    CHECK_EQ_INT(g->nodes[1].children[0], 0);
    CHECK_EQ_INT(g->nodes[0].parent, 1);
    mk_gltf_destroy(g);
}

/* SimpleMorph: one triangle (0,0,0) (1,0,0) (0.5,0.5,0); target 0 moves
 * vertex 2 by (-1,1,0), target 1 by (1,1,0); mesh.weights (0.5, 0.5); keys
 * at 0..4 s with weights (0,0) (0,1) (1,1) (1,0) (0,0). By hand: at 1.5 s
 * w = (0.5, 1), vertex 2 = (0.5,0.5,0) + 0.5 (-1,1,0) + (1,1,0) = (1, 2, 0);
 * the default weights give (0.5,0.5,0) + 0.5 (0,2,0) = (0.5, 1.5, 0). */
static void check_simple_morph(const char *path)
{
    mk_gltf *g = load(path);
    if (!g)
        return;
    CHECK_EQ_INT(g->buffer_count, 2);
    float w[2] = {0, 0};
    sample_channel(g, 0, 0, MK_TRACK_WEIGHTS, 1500000, w);
    CHECK_NEAR(w[0], 0.5, 1e-7);
    CHECK_NEAR(w[1], 1.0, 1e-7);
    mk_morph_set *set = NULL;
    mk_error err;
    CHECK(mk_gltf_build_morph_set(g, 0, 0, NULL, &set, &err) == MK_OK);
    if (set) {
        float pos[9];
        CHECK(mk_morph_evaluate(set, w, pos, NULL, NULL, set->vertex_count, NULL) == MK_OK);
        CHECK_NEAR(pos[6], 1.0, 1e-7);
        CHECK_NEAR(pos[7], 2.0, 1e-7);
        CHECK_NEAR(pos[3], 1.0, 0);
        CHECK(mk_morph_evaluate(set, NULL, pos, NULL, NULL, set->vertex_count, NULL) == MK_OK);
        CHECK_NEAR(pos[6], 0.5, 1e-7);
        CHECK_NEAR(pos[7], 1.5, 1e-7);
        /* Only vertex 2 moves, but 1 of 3 is more than a quarter: dense. */
        CHECK(set->targets[0].delta[MK_MORPH_POSITION].indices == NULL);
        mk_morph_set_destroy(set);
    }
    float dw[2];
    mk_gltf_node_default_weights(g, 0, dw, 2);
    CHECK(dw[0] == 0.5f && dw[1] == 0.5f);
    uint32_t idx[3];
    CHECK(mk_gltf_accessor_read_index(g, g->meshes[0].primitives[0].indices, idx, 3, &err) ==
          MK_OK);
    CHECK(idx[0] == 0 && idx[1] == 1 && idx[2] == 2);
    mk_gltf_destroy(g);
}

static void test_simple_morph(void)
{
    check_simple_morph(SAMPLE("SimpleMorph/glTF/SimpleMorph.gltf"));
}

static void test_simple_morph_embedded(void)
{
    check_simple_morph(SAMPLE("SimpleMorph/glTF-Embedded/SimpleMorph.gltf"));
}

/* MorphPrimitivesTest: two primitives with one target each, mesh.weights
 * [0.5], no animation. The targets lift some vertices by 0.2 in y, so with
 * the default weight they rise 0.1: primitive 0 vertex 13 (-0.25,0,0.25) ->
 * (-0.25,0.1,0.25); primitive 1 vertex 5 (0,0,0) -> (0,0.1,0); unmoved
 * corners stay (primitive 0 vertex 0 = (-0.5,0,0.5)). */
static void check_morph_primitives(const char *path)
{
    mk_gltf *g = load(path);
    if (!g)
        return;
    CHECK_EQ_INT(g->animation_count, 0);
    CHECK_EQ_INT(g->meshes[0].primitive_count, 2);
    CHECK(g->meshes[0].weights && g->meshes[0].weights[0] == 0.5f);
    mk_morph_set *a = NULL, *b = NULL;
    mk_error err;
    CHECK(mk_gltf_build_morph_set(g, 0, 0, NULL, &a, &err) == MK_OK);
    CHECK(mk_gltf_build_morph_set(g, 0, 1, NULL, &b, &err) == MK_OK);
    if (a && b) {
        CHECK_EQ_INT(a->vertex_count, 21);
        CHECK_EQ_INT(b->vertex_count, 9);
        float pa[21 * 3], pb[9 * 3], na[21 * 3];
        CHECK(mk_morph_evaluate(a, NULL, pa, na, NULL, a->vertex_count, NULL) == MK_OK);
        CHECK(mk_morph_evaluate(b, NULL, pb, NULL, NULL, b->vertex_count, NULL) == MK_OK);
        CHECK_NEAR(pa[13 * 3 + 0], -0.25, 1e-7);
        CHECK_NEAR(pa[13 * 3 + 1], 0.1, 1e-7);
        CHECK_NEAR(pa[13 * 3 + 2], 0.25, 1e-7);
        CHECK_NEAR(pa[0], -0.5, 0);
        CHECK_NEAR(pa[2], 0.5, 0);
        CHECK_NEAR(pb[5 * 3 + 1], 0.1, 1e-7);
        CHECK_NEAR(pb[5 * 3 + 2], 0.0, 0);
    }
    mk_morph_set_destroy(a);
    mk_morph_set_destroy(b);
    CHECK(mk_gltf_build_morph_set(g, 0, 2, NULL, &a, &err) == MK_ERR_INVALID_ARGUMENT && !a);
    mk_gltf_destroy(g);
}

static void test_morph_primitives(void)
{
    check_morph_primitives(SAMPLE("MorphPrimitivesTest/glTF/MorphPrimitivesTest.gltf"));
    check_morph_primitives(SAMPLE("MorphPrimitivesTest/glTF-Binary/MorphPrimitivesTest.glb"));
}

/* SimpleSparseAccessor: 14 positions on a 7x2 grid, x = 0..6, y = 0 (first
 * row) and 1 (second); the sparse part (u16 indices 8, 10, 12) lifts those
 * to (1,2,0) (3,3,0) (5,4,0). */
static void check_sparse_sample(const char *path)
{
    mk_gltf *g = load(path);
    if (!g)
        return;
    uint32_t acc = g->meshes[0].primitives[0].position;
    CHECK_EQ_INT(g->accessors[acc].sparse.count, 3);
    CHECK(g->accessors[acc].sparse.indices_component_type == MK_GLTF_UNSIGNED_SHORT);
    CHECK(mk_gltf_accessor_float_data(g, acc) == NULL); /* sparse: no direct pointer */
    float p[14 * 3];
    mk_error err;
    CHECK(mk_gltf_accessor_read_float(g, acc, p, 14 * 3, &err) == MK_OK);
    for (int v = 0; v < 14; v++) {
        float want_y = v < 7 ? 0.0f : 1.0f;
        if (v == 8)
            want_y = 2.0f;
        else if (v == 10)
            want_y = 3.0f;
        else if (v == 12)
            want_y = 4.0f;
        CHECK_NEAR(p[3 * v], (float)(v % 7), 0);
        CHECK_NEAR(p[3 * v + 1], want_y, 0);
        CHECK_NEAR(p[3 * v + 2], 0.0, 0);
    }
    CHECK(mk_gltf_accessor_read_float(g, acc, p, 14 * 3 - 1, &err) == MK_ERR_INVALID_ARGUMENT);
    mk_gltf_destroy(g);
}

static void test_simple_sparse_accessor(void)
{
    check_sparse_sample(SAMPLE("SimpleSparseAccessor/glTF/SimpleSparseAccessor.gltf"));
    check_sparse_sample(SAMPLE("SimpleSparseAccessor/glTF-Embedded/SimpleSparseAccessor.gltf"));
}

/* InterpolationTest: 9 animations, one channel each. Values by hand from
 * the keys (times 0.041667 0.416667 0.875 1.25 1.666667 for scale, values
 * 1 0.5 1 0.5 1; CUBICSPLINE tangents all zero there):
 *   Step Scale   (anim 0, node 0)  at 0.5 s: 0.5 (key 1 holds)
 *   Linear Scale (anim 1, node 3)  at 0.5 s: 0.5 + (0.08333/0.45833) 0.5 = 0.590909
 *   Cubic Scale  (anim 2, node 4)  at 0.5 s: s = 0.181818, h00 v1 + h01 v2
 *                                  = 0.9132231*0.5 + 0.0867769*1 = 0.543388
 *   Linear Rotation (anim 5, node 7) at 0.5 s: slerp between -45 and -90
 *                                  degrees about z: (0,0,-0.447617,0.894225)
 *   Step Translation (anim 6, node 8) at 1.25 s: (0, 6, 0)
 *   Linear Translation (anim 8, node 10) at 0.5 s: y = 10 + 0.2 (6 - 10) = 9.2
 *   Cubic Translation (anim 7, node 9) at 0.5 s: y = 9.584 (Python) */
static void check_interpolation(const char *path)
{
    mk_gltf *g = load(path);
    if (!g)
        return;
    CHECK_EQ_INT(g->animation_count, 9);
    CHECK(strcmp(g->animations[2].name, "CubicSpline Scale") == 0);
    CHECK(g->animations[0].samplers[0].interpolation == MK_INTERPOLATION_STEP);
    CHECK(g->animations[2].samplers[0].interpolation == MK_INTERPOLATION_CUBICSPLINE);
    float v[4];
    if (sample_channel(g, 0, 0, MK_TRACK_SCALE, 500000, v))
        CHECK_NEAR(v[0], 0.5, 0);
    if (sample_channel(g, 0, 0, MK_TRACK_SCALE, 0, v)) /* before the first key */
        CHECK_NEAR(v[1], 1.0, 0);
    if (sample_channel(g, 1, 3, MK_TRACK_SCALE, 500000, v))
        CHECK_NEAR(v[2], 0.5909091, 2e-6);
    if (sample_channel(g, 2, 4, MK_TRACK_SCALE, 500000, v))
        CHECK_NEAR(v[0], 0.5435763, 2e-6);
    if (sample_channel(g, 2, 4, MK_TRACK_SCALE, 1250000, v))
        CHECK_NEAR(v[0], 0.5, 1e-6);
    if (sample_channel(g, 3, 5, MK_TRACK_ROTATION, 1700000, v)) {
        CHECK_NEAR(v[2], -0.9238795, 1e-6);
        CHECK_NEAR(v[3], 0.3826835, 1e-6);
    }
    if (sample_channel(g, 5, 7, MK_TRACK_ROTATION, 500000, v)) {
        CHECK_NEAR(v[0], 0.0, 1e-7);
        CHECK_NEAR(v[2], -0.4476172, 2e-6);
        CHECK_NEAR(v[3], 0.8942253, 2e-6);
    }
    if (sample_channel(g, 4, 6, MK_TRACK_ROTATION, 1700000, v)) {
        CHECK_NEAR(v[2], -0.9999718, 2e-6);
        CHECK_NEAR(v[3], -0.0075099, 2e-6);
    }
    if (sample_channel(g, 6, 8, MK_TRACK_TRANSLATION, 1250000, v))
        CHECK_NEAR(v[1], 6.0, 0);
    if (sample_channel(g, 8, 10, MK_TRACK_TRANSLATION, 500000, v)) {
        CHECK_NEAR(v[0], -3.2975807, 1e-6);
        CHECK_NEAR(v[1], 9.2, 1e-5);
    }
    if (sample_channel(g, 7, 9, MK_TRACK_TRANSLATION, 500000, v)) {
        CHECK_NEAR(v[0], 3.3051798, 1e-6);
        CHECK_NEAR(v[1], 9.584, 1e-4);
    }
    if (sample_channel(g, 7, 9, MK_TRACK_TRANSLATION, 10000000, v)) /* last value holds */
        CHECK_NEAR(v[1], 6.0, 0);
    mk_gltf_destroy(g);
}

static void test_interpolation(void)
{
    check_interpolation(SAMPLE("InterpolationTest/glTF/InterpolationTest.gltf"));
    check_interpolation(SAMPLE("InterpolationTest/glTF-Binary/InterpolationTest.glb"));
}

/* BoxAnimated: node 0 translation LINEAR keys 0, 1.25, 2.5, 3.70833 s with
 * y 0, 2.52, 2.52, 0: at 0.5 s y = 0.4 * 2.52 = 1.008; at 3.3 s y =
 * 2.52 (1 - 0.8/1.20833) = 0.851582. Node 2 rotation LINEAR keys 1.25, 2.5
 * from (-0,-0,-0,-1) to (1,0,0,4.49e-11): the dot product is -4.49e-11,
 * so the shorter arc negates the second key; at 1.7 s, s = 0.36 of a
 * quarter turn in 4D: cos(0.36 pi/2) q0 - sin(0.36 pi/2) q1 =
 * (-0.535827, 0, 0, -0.844328). Before 1.25 s the first key
 * holds. */
static void check_box_animated(const char *path)
{
    mk_gltf *g = load(path);
    if (!g)
        return;
    CHECK_EQ_INT(g->mesh_count, 2);
    CHECK_EQ_INT(g->animations[0].channel_count, 2);
    float v[4];
    if (sample_channel(g, 0, 0, MK_TRACK_TRANSLATION, 500000, v))
        CHECK_NEAR(v[1], 1.008, 1e-6);
    if (sample_channel(g, 0, 0, MK_TRACK_TRANSLATION, 3300000, v))
        CHECK_NEAR(v[1], 0.8515815, 2e-6);
    if (sample_channel(g, 0, 2, MK_TRACK_ROTATION, 1700000, v)) {
        CHECK_NEAR(v[0], -0.5358268, 2e-6);
        CHECK_NEAR(v[3], -0.8443279, 2e-6);
    }
    if (sample_channel(g, 0, 2, MK_TRACK_ROTATION, 0, v))
        CHECK_NEAR(v[3], -1.0, 0);
    /* Clip playback over the whole animation: duration = last key. */
    mk_track_clip *clip = NULL;
    mk_error err;
    CHECK(mk_gltf_build_track_clip(g, 0, NULL, &clip, &err) == MK_OK);
    if (clip) {
        CHECK_EQ_INT(mk_track_clip_duration(clip), 3708330); /* the file says 3.70833 */
        mk_gltf_destroy(g);
        /* The clip owns its data: the model may go first. */
        uint32_t cursors[2];
        mk_track_clip_state st;
        mk_track_clip_state_init(&st, clip, true, cursors);
        float out[7];
        CHECK_EQ_INT(clip->output_count, 7);
        for (int i = 0; i < 100; i++)
            mk_track_clip_state_advance(&st, 5000);
        mk_track_clip_state_sample(&st, out); /* 0.5 s */
        const mk_track *tt =
            clip->tracks[0].path == MK_TRACK_TRANSLATION ? &clip->tracks[0] : &clip->tracks[1];
        CHECK_NEAR(out[tt->value_offset + 1], 1.008, 1e-6);
        mk_track_clip_destroy(clip);
    } else {
        mk_gltf_destroy(g);
    }
}

static void test_box_animated(void)
{
    check_box_animated(SAMPLE("BoxAnimated/glTF/BoxAnimated.gltf"));
    check_box_animated(SAMPLE("BoxAnimated/glTF-Binary/BoxAnimated.glb"));
    check_box_animated(SAMPLE("BoxAnimated/glTF-Embedded/BoxAnimated.gltf"));
}

/* A custom allocator sees every block come back. */
static size_t live_bytes, live_blocks;
static void *count_alloc(void *user, size_t size)
{
    (void)user;
    live_bytes += size;
    live_blocks++;
    return malloc(size);
}
static void count_free(void *user, void *p, size_t size)
{
    (void)user;
    if (!p)
        return;
    live_bytes -= size;
    live_blocks--;
    free(p);
}

static void test_allocator_balance(void)
{
    mk_allocator a = {count_alloc, NULL, count_free, NULL};
    mk_gltf *g = NULL;
    mk_error err;
    CHECK(mk_gltf_load(SAMPLE("AnimatedMorphCube/glTF/AnimatedMorphCube.gltf"), NULL, &a, &g,
                       &err) == MK_OK);
    CHECK(live_blocks > 0);
    mk_morph_set *set = NULL;
    mk_track_clip *clip = NULL;
    CHECK(mk_gltf_build_morph_set(g, 0, 0, &a, &set, &err) == MK_OK);
    CHECK(mk_gltf_build_track_clip(g, 0, &a, &clip, &err) == MK_OK);
    mk_morph_set_destroy(set);
    mk_track_clip_destroy(clip);
    mk_gltf_destroy(g);
    CHECK_EQ_INT(live_blocks, 0);
    CHECK_EQ_INT(live_bytes, 0);
}

MK_TEST_MAIN(MK_TEST(test_animated_morph_cube), MK_TEST(test_animated_morph_cube_glb),
             MK_TEST(test_animated_morph_cube_quantized), MK_TEST(test_simple_morph),
             MK_TEST(test_simple_morph_embedded), MK_TEST(test_morph_primitives),
             MK_TEST(test_simple_sparse_accessor), MK_TEST(test_interpolation),
             MK_TEST(test_box_animated), MK_TEST(test_allocator_balance))
