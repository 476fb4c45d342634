/* Hand-made glTF fixtures for what no sample model has: sparse accessors
 * inside morph targets, node.weights, STEP and CUBICSPLINE weights with key
 * intervals other than 1 s and non-zero tangents, normalized byte weights,
 * byteStride on interleaved attributes, extras.targetNames. The binary
 * buffer is built here and embedded as a base64 data: URI; every expected
 * value is worked out by hand in the comments. */
#include <stdint.h>
#include <string.h>

#include "fixtures.h"
#include "mk_test.h"
#include "morphkit/gltf.h"

typedef struct bin {
    uint8_t b[2048];
    size_t n;
} bin;

static size_t put(bin *o, const void *p, size_t n)
{
    while (o->n % 4) /* every view starts 4-aligned */
        o->b[o->n++] = 0;
    size_t at = o->n;
    memcpy(o->b + o->n, p, n);
    o->n += n;
    return at;
}

static void base64(const uint8_t *p, size_t n, char *out)
{
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        out[o++] = a[v >> 18 & 63];
        out[o++] = a[v >> 12 & 63];
        out[o++] = i + 1 < n ? a[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? a[v & 63] : '=';
    }
    out[o] = '\0';
}

static char json[16384];

/* 8 vertices v_i = (i, 0, 0), normals (0, 0, 1), interleaved (stride 24).
 * Target 0 ("up"): POSITION sparse without a bufferView - vertex 1 +(0,0,1),
 *   vertex 3 +(0,0,2) (u8 indices); NORMAL sparse - vertex 3 +(1,0,0) (u16).
 * Target 1 ("left"): POSITION dense (0, 0.5, 0) everywhere, except that a
 *   sparse part (u32 index) replaces vertex 0's with (0, 0, -1).
 * mesh.weights (0.25, 0.75). Nodes: 0 has node.weights (1, 0); 1 uses the
 * mesh's; 2 has no mesh; 3 has mesh 1 (same primitive, no weights).
 * Animation 0 "step": STEP weights on node 0 at 0.5, 1.5, 2.25 s, output
 *   normalized UNSIGNED_BYTE (0,255) (51,102) (255,0) = (0,1) (0.2,0.4) (1,0).
 * Animation 1 "cubic": CUBICSPLINE weights on node 1 at 0.5 and 2.5 s,
 *   per key in-tangent, value, out-tangent (2 weights each):
 *   key 0: a (9, 9) v (1, 0) b (0.5, -1); key 1: a (-1, 2) v (3, 1) b (4, 4). */
static const char *make_fixture(void)
{
    bin o = {{0}, 0};
    float inter[8 * 6];
    for (int v = 0; v < 8; v++) {
        const float row[6] = {(float)v, 0, 0, 0, 0, 1};
        memcpy(inter + 6 * v, row, sizeof row);
    }
    size_t v_inter = put(&o, inter, sizeof inter);
    const uint8_t t0_idx[2] = {1, 3};
    size_t v_t0i = put(&o, t0_idx, 2);
    const float t0_val[6] = {0, 0, 1, 0, 0, 2};
    size_t v_t0v = put(&o, t0_val, sizeof t0_val);
    const uint16_t t0n_idx[1] = {3};
    size_t v_t0ni = put(&o, t0n_idx, 2);
    const float t0n_val[3] = {1, 0, 0};
    size_t v_t0nv = put(&o, t0n_val, sizeof t0n_val);
    float t1[8 * 3];
    for (int v = 0; v < 8; v++) {
        t1[3 * v] = 0;
        t1[3 * v + 1] = 0.5f;
        t1[3 * v + 2] = 0;
    }
    size_t v_t1 = put(&o, t1, sizeof t1);
    const uint32_t t1_idx[1] = {0};
    size_t v_t1i = put(&o, t1_idx, 4);
    const float t1_val[3] = {0, 0, -1};
    size_t v_t1v = put(&o, t1_val, sizeof t1_val);
    const float step_t[3] = {0.5f, 1.5f, 2.25f};
    size_t v_st = put(&o, step_t, sizeof step_t);
    const uint8_t step_w[6] = {0, 255, 51, 102, 255, 0};
    size_t v_sw = put(&o, step_w, sizeof step_w);
    const float cub_t[2] = {0.5f, 2.5f};
    size_t v_ct = put(&o, cub_t, sizeof cub_t);
    const float cub_w[12] = {9, 9, 1, 0, 0.5f, -1, -1, 2, 3, 1, 4, 4};
    size_t v_cw = put(&o, cub_w, sizeof cub_w);

    static char b64[4096];
    base64(o.b, o.n, b64);
    snprintf(
        json, sizeof json,
        "{\"asset\":{\"version\":\"2.0\",\"generator\":\"hand\"},"
        "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"data:application/octet-stream;base64,%s\"}],"
        "\"bufferViews\":["
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":192,\"byteStride\":24},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":2},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":24},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":2},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":96},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":4},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":6},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":8},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48}],"
        "\"accessors\":["
        /* 0 */ "{\"bufferView\":0,\"componentType\":5126,\"count\":8,\"type\":\"VEC3\"},"
        /* 1 */ "{\"bufferView\":0,\"byteOffset\":12,\"componentType\":5126,\"count\":8,\"type\":"
                "\"VEC3\"},"
        /* 2 */ "{\"componentType\":5126,\"count\":8,\"type\":\"VEC3\",\"sparse\":{\"count\":2,"
        "\"indices\":{\"bufferView\":1,\"componentType\":5121},\"values\":{\"bufferView\":2}}},"
        /* 3 */ "{\"componentType\":5126,\"count\":8,\"type\":\"VEC3\",\"sparse\":{\"count\":1,"
        "\"indices\":{\"bufferView\":3,\"componentType\":5123},\"values\":{\"bufferView\":4}}},"
        /* 4 */ "{\"bufferView\":5,\"componentType\":5126,\"count\":8,\"type\":\"VEC3\",\"sparse\":"
                "{\"count\":1,"
        "\"indices\":{\"bufferView\":6,\"componentType\":5125},\"values\":{\"bufferView\":7}}},"
        /* 5 */ "{\"bufferView\":8,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\"},"
        /* 6 */ "{\"bufferView\":9,\"componentType\":5121,\"normalized\":true,\"count\":6,\"type\":"
                "\"SCALAR\"},"
        /* 7 */ "{\"bufferView\":10,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
        /* 8 */ "{\"bufferView\":11,\"componentType\":5126,\"count\":12,\"type\":\"SCALAR\"}],"
        "\"meshes\":["
        "{\"name\":\"m\",\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1},"
        "\"targets\":[{\"POSITION\":2,\"NORMAL\":3},{\"POSITION\":4}]}],"
        "\"weights\":[0.25,0.75],\"extras\":{\"targetNames\":[\"up\",\"left\"]}},"
        "{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"targets\":[{\"POSITION\":2,\"NORMAL\":"
        "3},{\"POSITION\":4}]}]}],"
        "\"nodes\":[{\"mesh\":0,\"weights\":[1,0]},{\"mesh\":0,\"children\":[2]},{\"name\":"
        "\"empty\"},{\"mesh\":1}],"
        "\"scenes\":[{\"nodes\":[0,1,3]}],\"scene\":0,"
        "\"animations\":["
        "{\"name\":\"step\",\"samplers\":[{\"input\":5,\"output\":6,\"interpolation\":\"STEP\"}],"
        "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}]},"
        "{\"name\":\"cubic\",\"samplers\":[{\"input\":7,\"output\":8,\"interpolation\":"
        "\"CUBICSPLINE\"}],"
        "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"weights\"}},"
        "{\"sampler\":0,\"target\":{\"path\":\"weights\"}}]}]}",
        o.n, b64, v_inter, v_t0i, v_t0v, v_t0ni, v_t0nv, v_t1, v_t1i, v_t1v, v_st, v_sw, v_ct,
        v_cw);
    return json;
}

static mk_gltf *load_fixture(void)
{
    const char *text = make_fixture();
    mk_gltf *g = NULL;
    mk_error err;
    mk_status s = mk_gltf_parse(text, strlen(text), NULL, "fixture.gltf", NULL, NULL, &g, &err);
    if (s != MK_OK)
        fprintf(stderr, "fixture: %s\n", err.message);
    CHECK(s == MK_OK);
    return g;
}

static void test_model(void)
{
    mk_gltf *g = load_fixture();
    if (!g)
        return;
    CHECK(strcmp(g->generator, "hand") == 0);
    CHECK_EQ_INT(g->scene, 0);
    CHECK_EQ_INT(g->scenes[0].node_count, 3);
    CHECK_EQ_INT(g->nodes[2].parent, 1);
    CHECK(g->meshes[0].target_names && strcmp(g->meshes[0].target_names[1], "left") == 0);
    CHECK(g->meshes[1].target_names == NULL);
    CHECK_EQ_INT(g->accessors[1].stride, 24);
    /* Interleaved: no direct pointer; tightly packed floats: direct. */
    CHECK(mk_gltf_accessor_float_data(g, 1) == NULL);
    CHECK(mk_gltf_accessor_float_data(g, 5) != NULL);
    float n[24];
    mk_error err;
    CHECK(mk_gltf_accessor_read_float(g, 1, n, 24, &err) == MK_OK);
    CHECK(n[2] == 1.0f && n[23] == 1.0f && n[0] == 0.0f);
    /* §3.7.2.2 defaults: node.weights, else mesh.weights, else zeros. */
    float w[3];
    mk_gltf_node_default_weights(g, 0, w, 3);
    CHECK(w[0] == 1.0f && w[1] == 0.0f && w[2] == 0.0f);
    mk_gltf_node_default_weights(g, 1, w, 2);
    CHECK(w[0] == 0.25f && w[1] == 0.75f);
    mk_gltf_node_default_weights(g, 2, w, 2);
    CHECK(w[0] == 0.0f && w[1] == 0.0f);
    mk_gltf_node_default_weights(g, 3, w, 2);
    CHECK(w[0] == 0.0f && w[1] == 0.0f);
    mk_gltf_destroy(g);
}

static void test_sparse_targets_and_node_weights(void)
{
    mk_gltf *g = load_fixture();
    if (!g)
        return;
    mk_morph_set *s = NULL;
    mk_error err;
    CHECK(mk_gltf_build_morph_set(g, 0, 0, NULL, &s, &err) == MK_OK);
    if (!s) {
        mk_gltf_destroy(g);
        return;
    }
    /* 2 of 8 vertices move: kept sparse; target 1 moves all: dense. */
    CHECK_EQ_INT(s->targets[0].delta[MK_MORPH_POSITION].entry_count, 2);
    CHECK(s->targets[0].delta[MK_MORPH_POSITION].indices != NULL);
    CHECK_EQ_INT(s->targets[0].delta[MK_MORPH_NORMAL].entry_count, 1);
    CHECK(s->targets[1].delta[MK_MORPH_POSITION].indices == NULL);
    CHECK_EQ_INT(s->targets[1].delta[MK_MORPH_NORMAL].entry_count, 0);
    CHECK(s->default_weights[0] == 0.25f && s->default_weights[1] == 0.75f);

    float pos[24], nrm[24], w[2];
    /* Node 0: node.weights (1, 0). v1 = (1,0,1), v3 = (3,0,2), v0 = base;
     * n3 = normalize((0,0,1) + (1,0,0)) = (0.707107, 0, 0.707107). */
    mk_gltf_node_default_weights(g, 0, w, 2);
    CHECK(mk_morph_evaluate(s, w, pos, nrm, NULL, s->vertex_count, NULL) == MK_OK);
    CHECK_NEAR(pos[3 * 1 + 2], 1.0, 0);
    CHECK_NEAR(pos[3 * 3 + 0], 3.0, 0);
    CHECK_NEAR(pos[3 * 3 + 2], 2.0, 0);
    CHECK(pos[0] == 0.0f && pos[1] == 0.0f && pos[2] == 0.0f);
    CHECK_NEAR(nrm[3 * 3 + 0], 0.70710678, 1e-6);
    CHECK_NEAR(nrm[3 * 3 + 2], 0.70710678, 1e-6);
    CHECK_NEAR(nrm[3 * 2 + 2], 1.0, 0);
    /* Node 1: mesh.weights (0.25, 0.75). v0 = 0.75 (0,0,-1) = (0,0,-0.75);
     * v1 = (1,0,0) + 0.25 (0,0,1) + 0.75 (0,0.5,0) = (1, 0.375, 0.25);
     * v3 = (3, 0.375, 0.5); v5 = (5, 0.375, 0). */
    mk_gltf_node_default_weights(g, 1, w, 2);
    CHECK(mk_morph_evaluate(s, w, pos, NULL, NULL, s->vertex_count, NULL) == MK_OK);
    CHECK_NEAR(pos[2], -0.75, 1e-7);
    CHECK_NEAR(pos[1], 0.0, 0);
    CHECK_NEAR(pos[3 * 1 + 1], 0.375, 1e-7);
    CHECK_NEAR(pos[3 * 1 + 2], 0.25, 1e-7);
    CHECK_NEAR(pos[3 * 3 + 2], 0.5, 1e-7);
    CHECK_NEAR(pos[3 * 5 + 0], 5.0, 0);
    CHECK_NEAR(pos[3 * 5 + 1], 0.375, 1e-7);
    mk_morph_set_destroy(s);
    /* Mesh 1 has no NORMAL: the target NORMAL is ignored, no base normals. */
    CHECK(mk_gltf_build_morph_set(g, 1, 0, NULL, &s, &err) == MK_OK);
    if (s) {
        CHECK(s->base_normals == NULL);
        CHECK_EQ_INT(s->targets[0].delta[MK_MORPH_NORMAL].entry_count, 0);
        CHECK(s->default_weights[0] == 0.0f);
    }
    mk_morph_set_destroy(s);
    mk_gltf_destroy(g);
}

static void test_step_byte_weights(void)
{
    mk_gltf *g = load_fixture();
    if (!g)
        return;
    mk_track_clip *c = NULL;
    mk_error err;
    CHECK(mk_gltf_build_track_clip(g, 0, NULL, &c, &err) == MK_OK);
    if (c) {
        CHECK_EQ_INT(c->track_count, 1);
        CHECK_EQ_INT(mk_track_clip_duration(c), 2250000);
        const mk_track *t = &c->tracks[0];
        CHECK(t->interpolation == MK_INTERPOLATION_STEP && t->components == 2 && t->target == 0);
        float w[2];
        /* 51/255 = 0.2, 102/255 = 0.4 hold from 1.5 s to just before 2.25 s */
        mk_track_sample(t, 1500000, w);
        CHECK_NEAR(w[0], 0.2, 1e-7);
        CHECK_NEAR(w[1], 0.4, 1e-7);
        mk_track_sample(t, 2249999, w);
        CHECK_NEAR(w[0], 0.2, 1e-7);
        mk_track_sample(t, 1499999, w);
        CHECK(w[0] == 0.0f && w[1] == 1.0f);
        mk_track_sample(t, 0, w); /* before the first key (0.5 s) */
        CHECK(w[0] == 0.0f && w[1] == 1.0f);
        mk_track_sample(t, 2250000, w);
        CHECK(w[0] == 1.0f && w[1] == 0.0f);
        /* Played by a state: 1.5 s + 0.75 s looping wraps to 0 s. */
        uint32_t cur[1];
        mk_track_clip_state st;
        mk_track_clip_state_init(&st, c, true, cur);
        mk_track_clip_state_advance(&st, 1750000);
        mk_track_clip_state_sample(&st, w);
        CHECK_NEAR(w[1], 0.4, 1e-7);
        mk_track_clip_state_advance(&st, 500000);
        CHECK_EQ_INT(st.time_us, 0);
    }
    mk_track_clip_destroy(c);
    mk_gltf_destroy(g);
}

/* CUBICSPLINE over 2 s (td = 2) with non-zero tangents, at 1.5 s (s = 0.5:
 * h00 = h01 = 0.5, h10 = 0.125, h11 = -0.125):
 *   w0 = 0.5*1 + 2*0.125*0.5 + 0.5*3 + 2*(-0.125)*(-1) = 2.375
 *   w1 = 0.5*0 + 2*0.125*(-1) + 0.5*1 + 2*(-0.125)*2 = -0.25
 * at 1.0 s (s = 0.25: h00 0.84375, h10 0.140625, h01 0.15625, h11 -0.046875):
 *   w0 = 0.84375 + 2*0.140625*0.5 + 0.15625*3 + 2*0.046875 = 1.546875
 *   w1 = 2*0.140625*(-1) + 0.15625 + 2*(-0.046875)*2 = -0.3125 */
static void test_cubic_weights(void)
{
    mk_gltf *g = load_fixture();
    if (!g)
        return;
    mk_track_clip *c = NULL;
    mk_error err;
    CHECK(mk_gltf_build_track_clip(g, 1, NULL, &c, &err) == MK_OK);
    if (c) {
        CHECK_EQ_INT(c->track_count, 1); /* the channel without a node is skipped */
        float w[2];
        mk_track_sample(&c->tracks[0], 1500000, w);
        CHECK_NEAR(w[0], 2.375, 1e-6);
        CHECK_NEAR(w[1], -0.25, 1e-6);
        mk_track_sample(&c->tracks[0], 1000000, w);
        CHECK_NEAR(w[0], 1.546875, 1e-6);
        CHECK_NEAR(w[1], -0.3125, 1e-6);
        mk_track_sample(&c->tracks[0], 3000000, w);
        CHECK(w[0] == 3.0f && w[1] == 1.0f);
    }
    mk_track_clip_destroy(c);
    mk_gltf_destroy(g);
}

/* The same document from a file with an external .bin next to it, and a
 * GLB built from it, load to the same numbers. */
static void test_external_and_glb(void)
{
    const char *text = make_fixture();
    /* Decode the data: URI back into bytes for the .bin. */
    mk_gltf *g = load_fixture();
    if (!g)
        return;
    size_t n = g->buffers[0].byte_length;
    uint8_t *bytes = (uint8_t *)malloc(n);
    memcpy(bytes, g->buffers[0].data, n);
    mk_gltf_destroy(g);

    const char *dir = mk_fx_dir("gltf_fixture_ext");
    char sub[1100];
    snprintf(sub, sizeof sub, "%s/bin", dir);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", sub);
    CHECK(system(cmd) == 0);
    FILE *f = fopen(mk_fx_path(sub, "my data.bin"), "wb");
    CHECK(f && fwrite(bytes, 1, n, f) == n);
    if (f)
        fclose(f);
    /* Replace the data: URI with a percent-encoded relative path. */
    const char *start = strstr(text, "data:");
    const char *end = strchr(start, '"');
    char *doc = (char *)malloc(strlen(text) + 64);
    size_t pre = (size_t)(start - text);
    memcpy(doc, text, pre);
    strcpy(doc + pre, "./bin/../bin/my%20data.bin");
    strcat(doc, end);
    mk_fx_write(dir, "ext.gltf", doc);
    mk_error err;
    CHECK(mk_gltf_load(mk_fx_path(dir, "ext.gltf"), NULL, NULL, &g, &err) == MK_OK);
    if (g) {
        float w[2];
        mk_gltf_node_default_weights(g, 1, w, 2);
        CHECK(w[1] == 0.75f);
        CHECK(memcmp(g->buffers[0].data, bytes, n) == 0);
        mk_gltf_destroy(g);
    }

    /* GLB: header, JSON chunk (padded with spaces), BIN chunk (zeros). */
    char *gjson = (char *)malloc(strlen(text) + 16);
    memcpy(gjson, text, pre);
    gjson[pre] = '\0';
    /* drop the ,"uri":"..." member: the buffer is the BIN chunk */
    char *uri_key = strstr(gjson, ",\"uri\":\"");
    *uri_key = '\0';
    strcat(gjson, end + 1);
    size_t jl = strlen(gjson), jp = (jl + 3) / 4 * 4, bp = (n + 3) / 4 * 4;
    size_t total = 12 + 8 + jp + 8 + bp;
    uint8_t *glb = (uint8_t *)calloc(1, total);
    uint32_t hdr[3] = {0x46546C67u, 2, (uint32_t)total};
    memcpy(glb, hdr, 12);
    uint32_t ch0[2] = {(uint32_t)jp, 0x4E4F534Au};
    memcpy(glb + 12, ch0, 8);
    memset(glb + 20, ' ', jp);
    memcpy(glb + 20, gjson, jl);
    uint32_t ch1[2] = {(uint32_t)bp, 0x004E4942u};
    memcpy(glb + 20 + jp, ch1, 8);
    memcpy(glb + 28 + jp, bytes, n);
    CHECK(mk_gltf_parse(glb, total, NULL, "fixture.glb", NULL, NULL, &g, &err) == MK_OK);
    if (g) {
        CHECK(g->is_glb);
        mk_morph_set *s = NULL;
        CHECK(mk_gltf_build_morph_set(g, 0, 0, NULL, &s, &err) == MK_OK);
        if (s) {
            float pos[24];
            CHECK(mk_morph_evaluate(s, NULL, pos, NULL, NULL, s->vertex_count, NULL) == MK_OK);
            CHECK_NEAR(pos[3 * 1 + 1], 0.375, 1e-7);
            mk_morph_set_destroy(s);
        }
        mk_gltf_destroy(g);
    } else {
        fprintf(stderr, "glb: %s\n", err.message);
    }
    free(glb);
    free(gjson);
    free(doc);
    free(bytes);
}

MK_TEST_MAIN(MK_TEST(test_model), MK_TEST(test_sparse_targets_and_node_weights),
             MK_TEST(test_step_byte_weights), MK_TEST(test_cubic_weights),
             MK_TEST(test_external_and_glb))
