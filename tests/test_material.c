/* OBJ materials: mk_mtl_diffuse on hand-written .mtl text, mk_unit_diffuse
 * on a unit folder whose frames name a material. */
#include "fixtures.h"
#include "mk_test.h"
#include "morphkit/morphkit.h"

static const char mtl[] = "# two materials\r\n"
                          "newmtl cloth\r\n"
                          "Kd 0 1 0\r\n"
                          "\r\n"
                          "newmtl steel  # polished\r\n"
                          "  Ka 0.1 0.1 0.1\r\n"
                          "  Kd 0.9 0.25 0.125\r\n"
                          "  d 0.5\r\n"
                          "newmtl empty\n";

static void test_mtl(void)
{
    float c[4] = {-1, -1, -1, -1};
    mk_error err;
    CHECK(mk_mtl_diffuse(mtl, strlen(mtl), "a.mtl", "steel", c, &err) == MK_OK);
    CHECK(c[0] == 0.9f && c[1] == 0.25f && c[2] == 0.125f && c[3] == 0.5f);
    /* no name: the first material; no d: opaque */
    CHECK(mk_mtl_diffuse(mtl, strlen(mtl), "a.mtl", NULL, c, &err) == MK_OK);
    CHECK(c[0] == 0.0f && c[1] == 1.0f && c[2] == 0.0f && c[3] == 1.0f);
    /* a material without Kd, or none of that name */
    CHECK(mk_mtl_diffuse(mtl, strlen(mtl), "a.mtl", "empty", c, &err) == MK_ERR_NOT_FOUND);
    CHECK(mk_mtl_diffuse(mtl, strlen(mtl), "a.mtl", "gold", c, &err) == MK_ERR_NOT_FOUND);
    CHECK(strstr(err.message, "gold") != NULL);
    CHECK(c[0] == 0.0f && c[1] == 1.0f); /* untouched by the failures */
    /* a byte order mark; a Kd with two numbers names its line */
    const char bad[] = "\xEF\xBB\xBF"
                       "newmtl a\nKd 1 1\n";
    CHECK(mk_mtl_diffuse(bad, strlen(bad), "b.mtl", "a", c, &err) == MK_ERR_PARSE);
    CHECK_EQ_INT(err.line, 2);
    CHECK(mk_mtl_diffuse(NULL, 3, "x", NULL, c, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_mtl_diffuse(mtl, strlen(mtl), "x", NULL, NULL, &err) == MK_ERR_INVALID_ARGUMENT);
    /* every prefix of the text: a result or an error, never a read past it */
    for (size_t n = 0; n <= strlen(mtl); n++) {
        char *copy = malloc(n ? n : 1);
        memcpy(copy, mtl, n);
        mk_status st = mk_mtl_diffuse(copy, n, "p.mtl", "steel", c, &err);
        CHECK(st == MK_OK || st == MK_ERR_NOT_FOUND || st == MK_ERR_PARSE);
        free(copy);
    }
}

/* The one reader's structs: every material in order, Tr as 1 - d, map_Kd
 * options parsed and stripped from the file name, a malformed Kd recorded
 * on its material only. */
static void test_parse(void)
{
    const char text[] = "Kd 9 9 9\n" /* before any newmtl: ignored */
                        "newmtl skin\n"
                        "Kd 0.5 0.25 1\n"
                        "Tr 0.25\n"
                        "map_Kd -o 0.5 0.25 -s 2 2 1 -clamp on -bm 0.5 tex/skin face.png\n"
                        "newmtl broken\n"
                        "Kd 1 x 1\n"
                        "newmtl plain\n"
                        "map_Kd checker.png\n";
    mk_mtl_library *lib = NULL;
    mk_error err;
    CHECK(mk_mtl_parse(text, strlen(text), "t.mtl", NULL, &lib, &err) == MK_OK);
    if (!lib)
        return;
    CHECK_EQ_INT(lib->material_count, 3);
    const mk_mtl_material *m = mk_mtl_library_find(lib, NULL);
    CHECK(m == &lib->materials[0] && strcmp(m->name, "skin") == 0 && m->line == 2);
    CHECK(m->has_diffuse && m->diffuse[0] == 0.5f && m->diffuse[1] == 0.25f);
    CHECK(m->diffuse[2] == 1.0f && m->diffuse[3] == 0.75f);
    CHECK(strcmp(m->diffuse_map, "tex/skin face.png") == 0 && m->diffuse_map_line == 5);
    CHECK(m->map_offset[0] == 0.5f && m->map_offset[1] == 0.25f && m->map_offset[2] == 0.0f);
    CHECK(m->map_scale[0] == 2.0f && m->map_scale[1] == 2.0f && m->map_scale[2] == 1.0f);
    CHECK(m->error_line == 0);
    m = mk_mtl_library_find(lib, "broken");
    CHECK(m && !m->has_diffuse && m->error_line == 7 && m->diffuse[1] == 1.0f);
    m = mk_mtl_library_find(lib, "plain");
    CHECK(m && !m->has_diffuse && strcmp(m->diffuse_map, "checker.png") == 0);
    CHECK(mk_mtl_library_find(lib, "gold") == NULL);
    mk_mtl_library_destroy(lib);
    /* the strict answer for the material that is asked for only */
    float c[4];
    CHECK(mk_mtl_diffuse(text, strlen(text), "t.mtl", "skin", c, &err) == MK_OK);
    CHECK(mk_mtl_diffuse(text, strlen(text), "t.mtl", "broken", c, &err) == MK_ERR_PARSE);
    CHECK_EQ_INT(err.line, 7);
    CHECK(mk_mtl_parse(NULL, 1, "x", NULL, &lib, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_mtl_parse("", 0, "x", NULL, &lib, &err) == MK_OK && lib->material_count == 0);
    mk_mtl_library_destroy(lib);
}

static void test_unit(void)
{
    const char *dir = mk_fx_dir("material_unit");
    mk_fx_write(dir, "Move_1.obj", "mtllib look.mtl\nusemtl steel\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    mk_fx_write(dir, "Move_2.obj", "mtllib look.mtl\nusemtl steel\nv 0 0 1\nv 1 0 1\nv 0 1 1\nf 1 2 3\n");
    mk_fx_write(dir, "look.mtl", mtl);
    mk_unit *u = NULL;
    mk_error err;
    CHECK(mk_unit_load(dir, NULL, NULL, &u, NULL, &err) == MK_OK);
    if (!u)
        return;
    float c[4];
    CHECK(mk_unit_diffuse(u, NULL, NULL, c, &err) == MK_OK);
    CHECK(c[0] == 0.9f && c[3] == 0.5f);
    /* the .mtl gone: not found, naming it */
    remove(mk_fx_path(dir, "look.mtl"));
    CHECK(mk_unit_diffuse(u, NULL, NULL, c, &err) == MK_ERR_NOT_FOUND);
    CHECK(strstr(err.file, "look.mtl") != NULL);
    mk_unit_destroy(u);
    /* frames without mtllib */
    mk_fx_write(dir, "Move_1.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    mk_fx_write(dir, "Move_2.obj", "v 0 0 1\nv 1 0 1\nv 0 1 1\nf 1 2 3\n");
    CHECK(mk_unit_load(dir, NULL, NULL, &u, NULL, &err) == MK_OK);
    CHECK(mk_unit_diffuse(u, NULL, NULL, c, &err) == MK_ERR_NOT_FOUND);
    CHECK(mk_unit_diffuse(NULL, NULL, NULL, c, &err) == MK_ERR_INVALID_ARGUMENT);
    mk_unit_destroy(u);
}

MK_TEST_MAIN(MK_TEST(test_mtl), MK_TEST(test_parse), MK_TEST(test_unit))
