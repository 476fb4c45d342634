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

MK_TEST_MAIN(MK_TEST(test_mtl), MK_TEST(test_unit))
