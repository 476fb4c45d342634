/* glTF materials: the base colour factor and texture index a viewer draws,
 * from Khronos sample files (values read from their JSON by hand) and small
 * documents made here. */
#include "fixtures.h"
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

/* Textures and images: the sample's external JPEG read byte for byte, a
 * bufferView image, a data: image ("AQID" is bytes 1 2 3), a percent-encoded
 * file name, and uris that cannot be read. */
static void test_images(void)
{
    mk_gltf *g = load("MorphPrimitivesTest/glTF/MorphPrimitivesTest.gltf");
    mk_error err;
    void *data = NULL;
    size_t size = 0;
    if (g) {
        CHECK_EQ_INT(g->texture_count, 1);
        CHECK_EQ_INT(g->image_count, 1);
        CHECK_EQ_INT(g->textures[0].source, 0);
        CHECK_EQ_INT(g->materials[0].base_color_texcoord, 0);
        CHECK(strcmp(g->images[0].mime_type, "image/jpeg") == 0);
        CHECK(g->images[0].file && strstr(g->images[0].file, "glTF/uv_texture.jpg"));
        CHECK(mk_gltf_image_read(g, 0, NULL, NULL, &data, &size, &err) == MK_OK);
        /* the JPEG start-of-image marker, and the size on disk */
        CHECK(size > 3 && ((unsigned char *)data)[0] == 0xFF && ((unsigned char *)data)[1] == 0xD8);
        char path[1024];
        snprintf(path, sizeof path, "%s/tests/data/gltf/MorphPrimitivesTest/glTF/uv_texture.jpg",
                 MK_TEST_SOURCE_DIR);
        FILE *f = fopen(path, "rb");
        if (f) {
            fseek(f, 0, SEEK_END);
            CHECK_EQ_INT(ftell(f), (long)size);
            fclose(f);
        }
        mk_free(NULL, data, size);
        CHECK(mk_gltf_image_read(g, 1, NULL, NULL, &data, &size, &err) == MK_ERR_INVALID_ARGUMENT);
        mk_gltf_destroy(g);
    }
    const char *dir = mk_fx_dir("gltf_images");
    mk_fx_write(dir, "a b.png", "PNGISH");
    const char doc[] =
        "{\"asset\":{\"version\":\"2.0\"},"
        "\"buffers\":[{\"byteLength\":4,\"uri\":\"data:application/octet-stream;base64,CQgHBg==\"}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":1,\"byteLength\":2}],"
        "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":1,\"texCoord\":1}}}],"
        "\"textures\":[{\"source\":0},{\"source\":3},{}],"
        "\"images\":[{\"bufferView\":0,\"mimeType\":\"image/png\"},"
        "{\"uri\":\"data:image/png;base64,AQID\"},{\"uri\":\"a%20b.png\"},"
        "{\"uri\":\"http://example.com/x.png\"},{\"uri\":\"../up.png\"},{\"name\":\"none\"}]}";
    CHECK(mk_gltf_parse(doc, strlen(doc), dir, "doc.gltf", NULL, NULL, &g, &err) == MK_OK);
    if (!g)
        return;
    CHECK_EQ_INT(g->materials[0].base_color_texture, 1);
    CHECK_EQ_INT(g->materials[0].base_color_texcoord, 1);
    CHECK_EQ_INT(g->texture_count, 3);
    CHECK_EQ_INT(g->textures[1].source, 3);
    CHECK_EQ_INT(g->textures[2].source, MK_NONE);
    CHECK_EQ_INT(g->image_count, 6);
    /* bufferView 0 is bytes 1..2 of 09 08 07 06 */
    CHECK(mk_gltf_image_read(g, 0, NULL, NULL, &data, &size, &err) == MK_OK);
    CHECK(size == 2 && ((unsigned char *)data)[0] == 8 && ((unsigned char *)data)[1] == 7);
    mk_free(NULL, data, size);
    CHECK(mk_gltf_image_read(g, 1, NULL, NULL, &data, &size, &err) == MK_OK);
    CHECK(size == 3 && ((unsigned char *)data)[0] == 1 && ((unsigned char *)data)[2] == 3);
    mk_free(NULL, data, size);
    CHECK(mk_gltf_image_read(g, 2, NULL, NULL, &data, &size, &err) == MK_OK);
    CHECK(size == 6 && memcmp(data, "PNGISH", 6) == 0);
    mk_free(NULL, data, size);
    /* a scheme, a path leaving the folder, no source at all */
    CHECK(g->images[3].file == NULL && g->images[4].file == NULL);
    CHECK(mk_gltf_image_read(g, 3, NULL, NULL, &data, &size, &err) == MK_ERR_UNSUPPORTED);
    CHECK(strstr(err.message, "http://example.com/x.png") != NULL);
    CHECK(mk_gltf_image_read(g, 4, NULL, NULL, &data, &size, &err) == MK_ERR_UNSUPPORTED);
    CHECK(mk_gltf_image_read(g, 5, NULL, NULL, &data, &size, &err) == MK_ERR_UNSUPPORTED);
    CHECK(data == NULL && size == 0);
    mk_gltf_destroy(g);
    /* a texture source out of range fails the load */
    const char bad[] = "{\"asset\":{\"version\":\"2.0\"},\"textures\":[{\"source\":0}]}";
    CHECK(parse(bad, &g, &err) == MK_ERR_RANGE);
}

MK_TEST_MAIN(MK_TEST(test_sample_files), MK_TEST(test_defaults_and_errors), MK_TEST(test_images))
