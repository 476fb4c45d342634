/* glTF materials: the base colour factor and texture index a viewer draws,
 * from Khronos sample files (values read from their JSON by hand) and small
 * documents made here. */
#include "mk_test.h"
#include "morphkit/morphkit.h"

static mk_gltf *load(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/gltf/%s", MK_TEST_SOURCE_DIR, rel);
    mk_gltf *g = NULL;
    mk_error err;
    CHECK(mk_gltf_load(path, NULL, NULL, &g, &err) == MK_OK);
    return g;
}

static mk_status parse(const char *json, mk_gltf **out, mk_error *err)
{
    return mk_gltf_parse(json, strlen(json), NULL, "test.gltf", NULL, NULL, out, err);
}

static void test_sample_files(void)
{
    /* MorphPrimitivesTest: two materials, red and green, both textured */
    mk_gltf *g = load("MorphPrimitivesTest/glTF/MorphPrimitivesTest.gltf");
    if (g) {
        CHECK_EQ_INT(g->material_count, 2);
        CHECK(g->materials[0].base_color_factor[0] == 1.0f &&
              g->materials[0].base_color_factor[1] == 0.0f);
        CHECK(g->materials[1].base_color_factor[1] == 1.0f &&
              g->materials[1].base_color_factor[0] == 0.0f);
        CHECK_EQ_INT(g->materials[0].base_color_texture, 0);
        CHECK_EQ_INT(g->meshes[0].primitives[1].material, 1);
        mk_gltf_destroy(g);
    }
    /* AnimatedMorphCube: one grey material, no texture */
    g = load("AnimatedMorphCube/glTF-Binary/AnimatedMorphCube.glb");
    if (g) {
        CHECK_EQ_INT(g->material_count, 1);
        CHECK(g->materials[0].base_color_factor[0] == 0.6038274f);
        CHECK(g->materials[0].base_color_factor[3] == 1.0f);
        CHECK_EQ_INT(g->materials[0].base_color_texture, MK_NONE);
        mk_gltf_destroy(g);
    }
}

static void test_defaults_and_errors(void)
{
    mk_gltf *g = NULL;
    mk_error err;
    /* no pbrMetallicRoughness: white, opaque, untextured; a name is kept */
    CHECK(parse("{\"asset\": {\"version\": \"2.0\"}, \"materials\": [{\"name\": \"skin\"}, "
                "{\"pbrMetallicRoughness\": {\"metallicFactor\": 0}}]}",
                &g, &err) == MK_OK);
    if (g) {
        CHECK_EQ_INT(g->material_count, 2);
        for (uint32_t m = 0; m < 2; m++)
            for (int k = 0; k < 4; k++)
                CHECK(g->materials[m].base_color_factor[k] == 1.0f);
        CHECK(g->materials[0].name && strcmp(g->materials[0].name, "skin") == 0);
        CHECK(g->materials[1].name == NULL);
        CHECK_EQ_INT(g->materials[1].base_color_texture, MK_NONE);
        mk_gltf_destroy(g);
    }
    /* no materials at all */
    CHECK(parse("{\"asset\": {\"version\": \"2.0\"}}", &g, &err) == MK_OK);
    if (g) {
        CHECK_EQ_INT(g->material_count, 0);
        CHECK(g->materials == NULL);
        mk_gltf_destroy(g);
    }
    /* a factor of 3 numbers, a texture without index: errors naming the path */
    CHECK(parse("{\"asset\": {\"version\": \"2.0\"}, \"materials\": [{\"pbrMetallicRoughness\": "
                "{\"baseColorFactor\": [1, 0, 0]}}]}",
                &g, &err) == MK_ERR_PARSE);
    CHECK(strstr(err.message, "materials[0]") != NULL);
    CHECK(parse("{\"asset\": {\"version\": \"2.0\"}, \"materials\": [{\"pbrMetallicRoughness\": "
                "{\"baseColorTexture\": {}}}]}",
                &g, &err) == MK_ERR_PARSE);
    CHECK(strstr(err.message, "index") != NULL);
    CHECK(parse("{\"asset\": {\"version\": \"2.0\"}, \"materials\": [7]}", &g, &err) ==
          MK_ERR_PARSE);
}

MK_TEST_MAIN(MK_TEST(test_sample_files), MK_TEST(test_defaults_and_errors))
