/* Malformed glTF input: every case must fail with a clear status and a
 * message naming the glTF object, never crash (these tests also run under
 * ASan + UBSan). */
#include <stdint.h>
#include <string.h>

#include "fixtures.h"
#include "mk_test.h"
#include "morphkit/gltf.h"

#define SAMPLE(rel) MK_TEST_SOURCE_DIR "/tests/data/gltf/" rel

/* 40 bytes: 9 zero floats (3 positions) then u16 index 5 and 2 pad bytes. */
static const char *b64_40 = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABQAAAA==";

static char doc_buf[8192];

/* A small document: 1 buffer (40 bytes, data: URI), views, accessors and
 * a mesh, with parts that a case replaces. */
static const char *doc(const char *head, const char *buffer_uri, const char *views,
                       const char *accessors, const char *rest)
{
    snprintf(doc_buf, sizeof doc_buf,
             "{\"asset\":{\"version\":\"2.0\"}%s,"
             "\"buffers\":[{\"byteLength\":40,\"uri\":\"%s\"}],"
             "\"bufferViews\":[%s],\"accessors\":[%s]%s}",
             head, buffer_uri, views, accessors, rest);
    return doc_buf;
}

static char data_uri[128];

static const char *good_views(void)
{
    return "{\"buffer\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,\"byteLength\":2}";
}

/* Parses text and checks the status and that the message names `where`. */
static void expect(const char *text, mk_status want, const char *where)
{
    mk_gltf *g = NULL;
    mk_error err;
    mk_status s = mk_gltf_parse(text, strlen(text), NULL, "bad.gltf", NULL, NULL, &g, &err);
    CHECK_EQ_INT(s, want);
    CHECK(g == NULL);
    CHECK(strcmp(err.file, "bad.gltf") == 0);
    if (where)
        CHECK_CONTAINS(err.message, where);
    if (s != want)
        fprintf(stderr, "  message: %s\n", err.message);
}

static void setup(void)
{
    snprintf(data_uri, sizeof data_uri, "data:application/octet-stream;base64,%s", b64_40);
}

static void test_good_document_loads(void)
{
    setup();
    const char *t = doc("", data_uri, good_views(),
                        "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}",
                        ",\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}]");
    mk_gltf *g = NULL;
    mk_error err;
    CHECK(mk_gltf_parse(t, strlen(t), NULL, "good.gltf", NULL, NULL, &g, &err) == MK_OK);
    mk_gltf_destroy(g);
}

static void test_broken_json(void)
{
    expect("{\"asset\":{\"version\":\"2.0\"},\n \"buffers\": [ }", MK_ERR_PARSE, "invalid JSON");
    mk_gltf *g = NULL;
    mk_error err;
    const char *t = "{\"asset\":{\"version\":\"2.0\"},\n  \"nodes\": [ x ]}";
    CHECK(mk_gltf_parse(t, strlen(t), NULL, "bad.gltf", NULL, NULL, &g, &err) == MK_ERR_PARSE);
    CHECK_EQ_INT(err.line, 2); /* the error points into the second line */
    expect("", MK_ERR_PARSE, "invalid JSON");
    expect("[1, 2]", MK_ERR_PARSE, "must be an object");
    expect("{}", MK_ERR_PARSE, "asset");
    expect("{\"asset\":{\"version\":\"1.0\"}}", MK_ERR_UNSUPPORTED, "asset.version");
    expect("{\"asset\":{\"version\":\"2.0\"},\"nodes\":{}}", MK_ERR_PARSE,
           "nodes must be an array");
    expect("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"mesh\":-1}]}", MK_ERR_PARSE, "nodes[0]");
    expect("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"mesh\":1e300}]}", MK_ERR_RANGE,
           "nodes[0]");
    expect("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"scale\":[1e300,1,1]}]}", MK_ERR_PARSE,
           "nodes[0]: scale[0] must be a number in float range");
    expect("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"translation\":[1,2]}]}", MK_ERR_PARSE,
           "nodes[0]: translation");
}

static void test_unsupported_required_extension(void)
{
    expect("{\"asset\":{\"version\":\"2.0\"},\"extensionsRequired\":[\"KHR_mesh_quantization\","
           "\"KHR_draco_mesh_compression\"]}",
           MK_ERR_UNSUPPORTED, "'KHR_draco_mesh_compression'");
    /* Used-but-not-required extensions are fine. */
    const char *t = "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"EXT_whatever\"]}";
    mk_gltf *g = NULL;
    mk_error err;
    CHECK(mk_gltf_parse(t, strlen(t), NULL, "x.gltf", NULL, NULL, &g, &err) == MK_OK);
    mk_gltf_destroy(g);
}

static void test_accessor_past_its_buffer(void)
{
    setup();
    /* 4 VEC3 floats = 48 bytes in a 36-byte view. */
    expect(doc("", data_uri, good_views(),
               "{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"}", ""),
           MK_ERR_RANGE, "accessors[0]: data:");
    /* byteOffset pushes the last element out. */
    expect(doc("", data_uri, good_views(),
               "{\"bufferView\":0,\"byteOffset\":4,\"componentType\":5126,\"count\":3,\"type\":"
               "\"VEC3\"}",
               ""),
           MK_ERR_RANGE, "accessors[0]");
    /* A view past the buffer. */
    expect(doc("", data_uri, "{\"buffer\":0,\"byteOffset\":8,\"byteLength\":36}",
               "{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}", ""),
           MK_ERR_RANGE, "bufferViews[0]");
    /* Offsets near 2^53 must not wrap around. */
    expect(doc("", data_uri, "{\"buffer\":0,\"byteOffset\":9007199254740000,\"byteLength\":36}",
               "{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}", ""),
           MK_ERR_RANGE, "bufferViews[0]");
    /* A stride smaller than the element, and one that steps out. */
    expect(doc("", data_uri, "{\"buffer\":0,\"byteLength\":36,\"byteStride\":8}",
               "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}", ""),
           MK_ERR_RANGE, "byteStride");
    expect(doc("", data_uri, "{\"buffer\":0,\"byteLength\":36,\"byteStride\":16}",
               "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}", ""),
           MK_ERR_RANGE, "accessors[0]");
    expect(doc("", data_uri, "{\"buffer\":0,\"byteLength\":36,\"byteStride\":6}",
               "{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"}", ""),
           MK_ERR_RANGE, "bufferViews[0]: byteStride 6");
    /* A buffer whose data: URI is shorter than its byteLength. */
    expect("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4,"
           "\"uri\":\"data:application/octet-stream;base64,AAA=\"}]}",
           MK_ERR_RANGE, "buffers[0]");
    expect("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":3,"
           "\"uri\":\"data:application/octet-stream;base64,AA*A\"}]}",
           MK_ERR_PARSE, "base64");
    /* Unknown component type, normalized float, count 0, bad type. */
    expect(doc("", data_uri, good_views(),
               "{\"bufferView\":0,\"componentType\":5124,\"count\":1,\"type\":\"VEC3\"}", ""),
           MK_ERR_PARSE, "componentType 5124");
    expect(doc("", data_uri, good_views(),
               "{\"bufferView\":0,\"componentType\":5126,\"normalized\":true,\"count\":1,\"type\":"
               "\"VEC3\"}",
               ""),
           MK_ERR_PARSE, "normalized");
    expect(doc("", data_uri, good_views(),
               "{\"bufferView\":0,\"componentType\":5126,\"count\":0,\"type\":\"VEC3\"}", ""),
           MK_ERR_PARSE, "count");
    expect(doc("", data_uri, good_views(),
               "{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"VEC5\"}", ""),
           MK_ERR_PARSE, "VEC5");
}

static void test_sparse_index_out_of_range(void)
{
    setup();
    /* count 3 but the u16 index says 5. */
    const char *acc =
        "{\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\",\"sparse\":{\"count\":1,"
        "\"indices\":{\"bufferView\":1,\"componentType\":5123},"
        "\"values\":{\"bufferView\":0}}}";
    expect(doc("", data_uri, good_views(), acc, ""), MK_ERR_RANGE,
           "accessors[0].sparse.indices: index 5");
    /* with count 6 it is fine */
    const char *ok =
        "{\"componentType\":5126,\"count\":6,\"type\":\"SCALAR\",\"sparse\":{\"count\":1,"
        "\"indices\":{\"bufferView\":1,\"componentType\":5123},"
        "\"values\":{\"bufferView\":0}}}";
    const char *t = doc("", data_uri, good_views(), ok, "");
    mk_gltf *g = NULL;
    mk_error err;
    CHECK(mk_gltf_parse(t, strlen(t), NULL, "x.gltf", NULL, NULL, &g, &err) == MK_OK);
    mk_gltf_destroy(g);
    /* more sparse entries than the indices view holds */
    const char *many =
        "{\"componentType\":5126,\"count\":6,\"type\":\"SCALAR\",\"sparse\":{\"count\":2,"
        "\"indices\":{\"bufferView\":1,\"componentType\":5123},"
        "\"values\":{\"bufferView\":0}}}";
    expect(doc("", data_uri, good_views(), many, ""), MK_ERR_RANGE, "accessors[0].sparse.indices");
    /* sparse count above the accessor count */
    const char *over =
        "{\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\",\"sparse\":{\"count\":2,"
        "\"indices\":{\"bufferView\":0,\"componentType\":5121},"
        "\"values\":{\"bufferView\":0}}}";
    expect(doc("", data_uri, good_views(), over, ""), MK_ERR_RANGE, "accessors[0].sparse");
    /* indices not increasing: two zero bytes */
    const char *dup =
        "{\"componentType\":5126,\"count\":4,\"type\":\"SCALAR\",\"sparse\":{\"count\":2,"
        "\"indices\":{\"bufferView\":0,\"componentType\":5121},"
        "\"values\":{\"bufferView\":0}}}";
    expect(doc("", data_uri, good_views(), dup, ""), MK_ERR_PARSE, "strictly increase");
}

static void test_mesh_and_animation_errors(void)
{
    setup();
    const char *acc = "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
                      "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"},"
                      "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\"},"
                      "{\"bufferView\":0,\"componentType\":5126,\"count\":9,\"type\":\"SCALAR\"}";
    /* the target's accessor has another count than the base */
    expect(doc("", data_uri, good_views(), acc,
               ",\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},"
               "\"targets\":[{\"POSITION\":0},{\"POSITION\":1}]}]}]"),
           MK_ERR_MISMATCH, "meshes[0].primitives[0].targets[1].POSITION: accessor 1 has count 2");
    expect(doc("", data_uri, good_views(), acc,
               ",\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},"
               "\"targets\":[{\"POSITION\":7}]}]}]"),
           MK_ERR_RANGE, "meshes[0].primitives[0].targets[0].POSITION: accessor 7 out of range");
    expect(doc("", data_uri, good_views(), acc,
               ",\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":2}}]}]"),
           MK_ERR_PARSE, "attributes.POSITION: accessor 2 has type SCALAR, expected VEC3");
    /* primitives disagree on the target count; weights of the wrong length */
    expect(doc("", data_uri, good_views(), acc,
               ",\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"targets\":[{"
               "\"POSITION\":0}]},"
               "{\"attributes\":{\"POSITION\":0}}]}]"),
           MK_ERR_MISMATCH, "meshes[0].primitives[1]: has 0 morph targets");
    expect(doc("", data_uri, good_views(), acc,
               ",\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"targets\":[{"
               "\"POSITION\":0}]}],"
               "\"weights\":[1,2]}]"),
           MK_ERR_MISMATCH, "meshes[0]: weights");
    expect(doc("", data_uri, good_views(), acc,
               ",\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"targets\":[{"
               "\"POSITION\":0}]}]}],"
               "\"nodes\":[{\"mesh\":0,\"weights\":[1,2]}]"),
           MK_ERR_MISMATCH, "nodes[0]: weights");
    /* a node that is its own grandchild, and one with two parents */
    expect(
        doc("", data_uri, good_views(), acc, ",\"nodes\":[{\"children\":[1]},{\"children\":[0]}]"),
        MK_ERR_PARSE, "cycle");
    expect(doc("", data_uri, good_views(), acc,
               ",\"nodes\":[{\"children\":[2]},{\"children\":[2]},{}]"),
           MK_ERR_PARSE, "nodes[1].children[0]");
    expect(doc("", data_uri, good_views(), acc, ",\"nodes\":[{\"children\":[5]}]"), MK_ERR_RANGE,
           "nodes[0]: children[0]");
    /* indices past the vertex count: the u16 at byte 36 is 5, 3 vertices */
    expect(doc("", data_uri, good_views(),
               "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
               "{\"bufferView\":1,\"componentType\":5123,\"count\":1,\"type\":\"SCALAR\"}",
               ",\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1}]}]"),
           MK_ERR_RANGE, "meshes[0].primitives[0]: indices: accessor 1 value 5");
    /* weights output must be keys x targets: 3 keys x 2 targets != 9 */
    const char *anim =
        ",\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},"
        "\"targets\":[{\"POSITION\":0},{\"POSITION\":0}]}]}],\"nodes\":[{\"mesh\":0}],"
        "\"animations\":[{\"samplers\":[{\"input\":2,\"output\":3}],"
        "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}]}]";
    expect(doc("", data_uri, good_views(), acc, anim), MK_ERR_MISMATCH,
           "animations[0].channels[0]: output accessor 3 has 9 elements, 3 keys need 6");
    const char *bad_interp =
        ",\"animations\":[{\"samplers\":[{\"input\":2,\"output\":3,\"interpolation\":\"SMOOTH\"}],"
        "\"channels\":[{\"sampler\":0,\"target\":{\"path\":\"weights\"}}]}]";
    expect(doc("", data_uri, good_views(), acc, bad_interp), MK_ERR_PARSE,
           "animations[0].samplers[0]: unknown interpolation 'SMOOTH'");
    /* key times that are all zero (not increasing) fail when the clip is built */
    const char *zero_times =
        ",\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},"
        "\"targets\":[{\"POSITION\":0},{\"POSITION\":0},{\"POSITION\":0}]}]}],\"nodes\":[{\"mesh\":"
        "0}],"
        "\"animations\":[{\"samplers\":[{\"input\":2,\"output\":3}],"
        "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}]}]";
    const char *t = doc("", data_uri, good_views(), acc, zero_times);
    mk_gltf *g = NULL;
    mk_error err;
    CHECK(mk_gltf_parse(t, strlen(t), NULL, "x.gltf", NULL, NULL, &g, &err) == MK_OK);
    if (g) {
        mk_track_clip *clip = NULL;
        CHECK(mk_gltf_build_track_clip(g, 0, NULL, &clip, &err) == MK_ERR_PARSE && !clip);
        CHECK_CONTAINS(err.message,
                       "animations[0].samplers[0].input: times must strictly increase");
        mk_gltf_destroy(g);
    }
}

static void test_limits(void)
{
    setup();
    const char *t =
        doc("", data_uri, good_views(),
            "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}", "");
    mk_gltf_options o = {0, 2, NULL};
    mk_gltf *g = NULL;
    mk_error err;
    CHECK(mk_gltf_parse(t, strlen(t), NULL, "x.gltf", &o, NULL, &g, &err) == MK_ERR_LIMIT);
    CHECK_CONTAINS(err.message, "accessors[0]: count 3 is above the limit 2");
    mk_gltf_options o2 = {32, 0, NULL};
    CHECK(mk_gltf_parse(t, strlen(t), NULL, "x.gltf", &o2, NULL, &g, &err) == MK_ERR_LIMIT);
}

/* Buffer URIs must stay in the asset's folder. */
static void test_uri_escaping_the_folder(void)
{
    const char *dir = mk_fx_dir("gltf_uri");
    char outside[1200];
    snprintf(outside, sizeof outside, "%s/../secret.bin", dir);
    FILE *f = fopen(outside, "wb");
    CHECK(f != NULL);
    if (f) {
        fwrite("0123456789012345678901234567890123456789", 1, 40, f);
        fclose(f);
    }
    mk_fx_write(dir, "inside.bin", "0123456789012345678901234567890123456789");
    static const struct {
        const char *uri;
        mk_status want;
    } cases[] = {
        {"../secret.bin", MK_ERR_INVALID_ARGUMENT},
        {"a/../../secret.bin", MK_ERR_INVALID_ARGUMENT},
        {"%2e%2e/secret.bin", MK_ERR_INVALID_ARGUMENT},
        {"/etc/passwd", MK_ERR_INVALID_ARGUMENT},
        {"file:///etc/passwd", MK_ERR_INVALID_ARGUMENT},
        {"http://example.com/x.bin", MK_ERR_INVALID_ARGUMENT},
        {"C:\\\\x.bin", MK_ERR_INVALID_ARGUMENT},
        {"sub\\\\..\\\\..\\\\secret.bin", MK_ERR_INVALID_ARGUMENT},
        {"inside.bin%00.txt", MK_ERR_INVALID_ARGUMENT},
        {"missing.bin", MK_ERR_NOT_FOUND},
        {"inside.bin", MK_OK},
        {"./x/../inside.bin", MK_OK},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(
            text, sizeof text,
            "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":40,\"uri\":\"%s\"}]}",
            cases[i].uri);
        mk_fx_write(dir, "u.gltf", text);
        mk_gltf *g = NULL;
        mk_error err;
        mk_status s = mk_gltf_load(mk_fx_path(dir, "u.gltf"), NULL, NULL, &g, &err);
        if (s != cases[i].want)
            fprintf(stderr, "uri %s: %s\n", cases[i].uri, err.message);
        CHECK_EQ_INT(s, cases[i].want);
        if (s != MK_OK) {
            CHECK_CONTAINS(err.message, "buffers[0]");
            CHECK_CONTAINS(err.file, "u.gltf");
        }
        mk_gltf_destroy(g);
    }
    /* From memory without a folder, an external uri is refused. */
    const char *t =
        "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4,\"uri\":\"a.bin\"}]}";
    expect(t, MK_ERR_INVALID_ARGUMENT, "buffers[0]");
}

/* Every prefix of a real GLB fails cleanly; so do random byte changes. */
static void test_truncated_glb_every_prefix(void)
{
    size_t size = 0;
    char *data = mk_fx_read(SAMPLE("AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb"), &size);
    CHECK(data != NULL);
    if (!data)
        return;
    mk_gltf *g = NULL;
    mk_error err;
    CHECK(mk_gltf_parse(data, size, NULL, "cube.glb", NULL, NULL, &g, &err) == MK_OK);
    mk_gltf_destroy(g);
    int failures_ok = 0;
    for (size_t n = 0; n < size; n++) {
        /* A heap copy of exactly n bytes, so ASan sees any over-read. */
        char *p = (char *)malloc(n ? n : 1);
        memcpy(p, data, n);
        g = NULL;
        mk_status s = mk_gltf_parse(p, n, NULL, "cube.glb", NULL, NULL, &g, &err);
        failures_ok += s != MK_OK && g == NULL && err.message[0] != '\0';
        mk_gltf_destroy(g);
        free(p);
    }
    CHECK_EQ_INT(failures_ok, (long long)size);
    /* Random corruption: any status, but no crash and no leak. */
    uint32_t seed = 2024;
    for (int i = 0; i < 3000; i++) {
        char *p = (char *)malloc(size);
        memcpy(p, data, size);
        for (int k = 0; k < 1 + i % 4; k++) {
            seed = seed * 1664525u + 1013904223u;
            size_t at = (seed >> 8) % size;
            seed = seed * 1664525u + 1013904223u;
            p[at] = (char)(seed >> 24);
        }
        g = NULL;
        if (mk_gltf_parse(p, size, NULL, "cube.glb", NULL, NULL, &g, &err) == MK_OK) {
            for (uint32_t m = 0; m < g->mesh_count; m++) {
                mk_morph_set *set = NULL;
                if (mk_gltf_build_morph_set(g, m, 0, NULL, &set, &err) == MK_OK) {
                    float *out = (float *)malloc((size_t)set->vertex_count * 3 * sizeof(float));
                    CHECK(mk_morph_evaluate(set, NULL, out, NULL, NULL, set->vertex_count,
                                            NULL) == MK_OK);
                    free(out);
                }
                mk_morph_set_destroy(set);
            }
            for (uint32_t a = 0; a < g->animation_count; a++) {
                mk_track_clip *c = NULL;
                mk_gltf_build_track_clip(g, a, NULL, &c, &err);
                mk_track_clip_destroy(c);
            }
        }
        mk_gltf_destroy(g);
        free(p);
    }
    /* A GLB header that promises a huge chunk. */
    uint8_t hdr[28] = {0x67, 0x6C, 0x54, 0x46, 2,    0,    0,    0,    28,   0,
                       0,    0,    0xF0, 0xFF, 0xFF, 0xFF, 0x4A, 0x53, 0x4F, 0x4E};
    CHECK(mk_gltf_parse(hdr, sizeof hdr, NULL, "h.glb", NULL, NULL, &g, &err) == MK_ERR_PARSE);
    CHECK_CONTAINS(err.message, "runs past the end");
    hdr[4] = 1;
    CHECK(mk_gltf_parse(hdr, sizeof hdr, NULL, "h.glb", NULL, NULL, &g, &err) ==
          MK_ERR_UNSUPPORTED);
    free(data);
}

MK_TEST_MAIN(MK_TEST(test_good_document_loads), MK_TEST(test_broken_json),
             MK_TEST(test_unsupported_required_extension), MK_TEST(test_accessor_past_its_buffer),
             MK_TEST(test_sparse_index_out_of_range), MK_TEST(test_mesh_and_animation_errors),
             MK_TEST(test_limits), MK_TEST(test_uri_escaping_the_folder),
             MK_TEST(test_truncated_glb_every_prefix))
