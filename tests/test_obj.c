/* OBJ reader: syntax forms, errors with file:line, truncation, failing
 * allocations, mutation fuzzing, mesh building, float parsing accuracy. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../src/io/decimal.h"
#include "../src/io/io_internal.h"
#include "fixtures.h"
#include "mk_test.h"
#include "morphkit/obj.h"

/* ---- a counting allocator: checks sizes on free, fails on demand ---------- */

typedef struct test_heap {
    long live;       /* blocks not yet freed */
    long calls;      /* alloc + realloc calls so far */
    long fail_after; /* calls that succeed before every later one fails; -1: never */
    int bad_size;    /* a free or realloc named the wrong size */
} test_heap;

/* A 16-byte header keeps the size and the returned block 16-aligned. */
static void *heap_alloc(void *user, size_t size)
{
    test_heap *h = user;
    if (h->fail_after >= 0 && h->calls >= h->fail_after)
        return NULL;
    h->calls++;
    unsigned char *p = malloc(size + 16);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    h->live++;
    return p + 16;
}

static void heap_free(void *user, void *ptr, size_t size)
{
    test_heap *h = user;
    unsigned char *p = (unsigned char *)ptr - 16;
    size_t had;
    memcpy(&had, p, sizeof had);
    if (had != size)
        h->bad_size = 1;
    h->live--;
    free(p);
}

static void *heap_realloc(void *user, void *ptr, size_t old_size, size_t new_size)
{
    test_heap *h = user;
    if (!ptr)
        return heap_alloc(user, new_size);
    if (h->fail_after >= 0 && h->calls >= h->fail_after)
        return NULL;
    h->calls++;
    unsigned char *p = (unsigned char *)ptr - 16;
    size_t had;
    memcpy(&had, p, sizeof had);
    if (had != old_size)
        h->bad_size = 1;
    unsigned char *q = realloc(p, new_size + 16);
    if (!q)
        return NULL;
    memcpy(q, &new_size, sizeof new_size);
    return q + 16;
}

static mk_allocator heap_allocator(test_heap *h, long fail_after, int with_realloc)
{
    memset(h, 0, sizeof *h);
    h->fail_after = fail_after;
    mk_allocator a = {heap_alloc, with_realloc ? heap_realloc : NULL, heap_free, h};
    return a;
}

/* ---- helpers ---------------------------------------------------------------- */

static mk_obj *parse_ok(const char *text)
{
    mk_obj *o = NULL;
    mk_error err;
    mk_status st = mk_obj_parse(text, strlen(text), "t.obj", NULL, NULL, &o, &err);
    if (st != MK_OK)
        fprintf(stderr, "unexpected error: %s:%d: %s\n", err.file, err.line, err.message);
    CHECK_EQ_INT(st, MK_OK);
    return o;
}

static void check_tri(const uint32_t *c, uint32_t t, uint32_t a, uint32_t b, uint32_t d)
{
    CHECK_EQ_INT(c[t * 3 + 0], a);
    CHECK_EQ_INT(c[t * 3 + 1], b);
    CHECK_EQ_INT(c[t * 3 + 2], d);
}

static const char *const cube_like = "# a small file using every form\n"
                                     "mtllib x.mtl\n"
                                     "o thing\n"
                                     "v 0 0 0\n"
                                     "v 1 0 0\n"
                                     "v 1 1 0\n"
                                     "v 0 1 0\n"
                                     "v 0.5 0.5 1\n"
                                     "vt 0 0\n"
                                     "vt 1 0\n"
                                     "vt 1 1\n"
                                     "vt 0 1\n"
                                     "vn 0 0 1\n"
                                     "vn 0 0 -1\n"
                                     "g side\n"
                                     "usemtl m\n"
                                     "s 1\n"
                                     "f 1/1/1 2/2/1 3/3/1 4/4/1\n"
                                     "f 1/1/2 2/2/2 5/3/2\n"
                                     "s off\n"
                                     "f 2/2/2 3/3/2 5/4/2\n";

/* ---- syntax forms ----------------------------------------------------------- */

static void test_corner_forms(void)
{
    mk_obj *o = parse_ok("v 1 2 3\nv 4 5 6\nv 7 8 9\nvt 0.25 0.75\nvn 0 1 0\n"
                         "f 1 2 3\nf 1/1 2/1 3/1\nf 1//1 2//1 3//1\nf 1/1/1 2/1/1 3/1/1\n");
    if (!o)
        return;
    CHECK_EQ_INT(o->position_count, 3);
    CHECK_EQ_INT(o->texcoord_count, 1);
    CHECK_EQ_INT(o->normal_count, 1);
    CHECK_EQ_INT(o->face_count, 4);
    CHECK_EQ_INT(o->triangle_count, 4);
    CHECK_NEAR(o->positions[4], 5.0, 0);
    CHECK_NEAR(o->positions[8], 9.0, 0);
    CHECK_NEAR(o->texcoords[0], 0.25, 0);
    CHECK_NEAR(o->texcoords[1], 0.75, 0);
    CHECK_NEAR(o->normals[1], 1.0, 0);
    for (uint32_t t = 0; t < 4; t++)
        check_tri(o->corner_position, t, 0, 1, 2);
    CHECK(o->corner_texcoord && o->corner_normal);
    if (o->corner_texcoord && o->corner_normal) {
        const uint32_t N = MK_NONE;
        check_tri(o->corner_texcoord, 0, N, N, N);
        check_tri(o->corner_texcoord, 1, 0, 0, 0);
        check_tri(o->corner_texcoord, 2, N, N, N);
        check_tri(o->corner_texcoord, 3, 0, 0, 0);
        check_tri(o->corner_normal, 0, N, N, N);
        check_tri(o->corner_normal, 1, N, N, N);
        check_tri(o->corner_normal, 2, 0, 0, 0);
        check_tri(o->corner_normal, 3, 0, 0, 0);
    }
    CHECK_EQ_INT(o->triangle_line[0], 6);
    CHECK_EQ_INT(o->triangle_line[3], 9);
    mk_obj_destroy(o);

    /* Only positions: the per-corner vt/vn arrays are absent. */
    o = parse_ok("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    if (o) {
        CHECK(o->corner_texcoord == NULL);
        CHECK(o->corner_normal == NULL);
        CHECK(o->texcoords == NULL && o->normals == NULL);
        mk_obj_destroy(o);
    }
}

static void test_negative_indices(void)
{
    /* -1 is the last element defined before the face's line. */
    mk_obj *o = parse_ok("v 0 0 0\nv 1 0 0\nv 1 1 0\nvt 0 0\nvt 1 1\nvn 0 0 1\n"
                         "f -3/-2/-1 -2/-1/-1 -1/-1/-1\n"
                         "v 5 5 5\n"
                         "f -4 -1 2\n");
    if (!o)
        return;
    CHECK_EQ_INT(o->triangle_count, 2);
    check_tri(o->corner_position, 0, 0, 1, 2);
    check_tri(o->corner_texcoord, 0, 0, 1, 1);
    check_tri(o->corner_normal, 0, 0, 0, 0);
    check_tri(o->corner_position, 1, 0, 3, 1);
    CHECK_EQ_INT(o->corner_texcoord[3], MK_NONE);
    mk_obj_destroy(o);
}

static void test_polygons(void)
{
    mk_obj *o = parse_ok(cube_like);
    if (!o)
        return;
    CHECK_EQ_INT(o->position_count, 5);
    CHECK_EQ_INT(o->face_count, 3);
    CHECK_EQ_INT(o->triangle_count, 4);
    /* A quad a b c d becomes (a b c) (a c d). */
    check_tri(o->corner_position, 0, 0, 1, 2);
    check_tri(o->corner_position, 1, 0, 2, 3);
    check_tri(o->corner_texcoord, 1, 0, 2, 3);
    check_tri(o->corner_normal, 1, 0, 0, 0);
    check_tri(o->corner_position, 2, 0, 1, 4);
    check_tri(o->corner_position, 3, 1, 2, 4);
    check_tri(o->corner_texcoord, 3, 1, 2, 3);
    CHECK_EQ_INT(o->triangle_face[0], 0);
    CHECK_EQ_INT(o->triangle_face[1], 0);
    CHECK_EQ_INT(o->triangle_face[2], 1);
    CHECK_EQ_INT(o->triangle_face[3], 2);
    CHECK_EQ_INT(o->triangle_line[0], 18);
    CHECK_EQ_INT(o->triangle_line[1], 18);
    CHECK_EQ_INT(o->triangle_line[3], 21);
    mk_obj_destroy(o);

    /* A hexagon fans from corner 0: (0 1 2) (0 2 3) (0 3 4) (0 4 5). */
    o = parse_ok("v 0 0 0\nv 1 0 0\nv 2 1 0\nv 1 2 0\nv 0 2 0\nv -1 1 0\nf 1 2 3 4 5 6\n");
    if (o) {
        CHECK_EQ_INT(o->triangle_count, 4);
        check_tri(o->corner_position, 0, 0, 1, 2);
        check_tri(o->corner_position, 1, 0, 2, 3);
        check_tri(o->corner_position, 2, 0, 3, 4);
        check_tri(o->corner_position, 3, 0, 4, 5);
        mk_obj_destroy(o);
    }
}

static void test_whitespace_and_line_ends(void)
{
    /* CRLF, tabs, runs of blanks, blank lines, leading blanks, a trailing
     * comment, no final newline, a UTF-8 byte order mark. */
    const char *text = "\xEF\xBB\xBFv\t1  2\t 3\r\n"
                       "\r\n"
                       "   v 4 5 6 # trailing comment\r\n"
                       "v +7 -8 9.\r\n"
                       "\t\n"
                       "f  1 \t 2   3\r\n"
                       "f 3 2 1";
    mk_obj *o = parse_ok(text);
    if (!o)
        return;
    CHECK_EQ_INT(o->position_count, 3);
    CHECK_NEAR(o->positions[2], 3.0, 0);
    CHECK_NEAR(o->positions[3], 4.0, 0);
    CHECK_NEAR(o->positions[7], -8.0, 0);
    CHECK_EQ_INT(o->triangle_count, 2);
    check_tri(o->corner_position, 1, 2, 1, 0);
    CHECK_EQ_INT(o->triangle_line[0], 6);
    CHECK_EQ_INT(o->triangle_line[1], 7);
    mk_obj_destroy(o);
}

static void test_ignored_statements(void)
{
    const char *text = "# comment\n"
                       "mtllib a.mtl b.mtl\n"
                       "o Body\n"
                       "g group1 group2\n"
                       "s 1\n"
                       "usemtl skin\n"
                       "cstype bspline\n"
                       "vp 0.5 0.5\n"
                       "v 0 0 0 1.0\n"           /* w */
                       "v 1 0 0 0.1 0.2 0.3\n"   /* vertex colour */
                       "v 0 1 0 0.1 0.2 0.3 1\n" /* colour and more */
                       "vt 0.5 0.25 0\n"         /* a third value */
                       "vt 0.75\n"               /* v defaults to 0 */
                       "l 1 2\n"
                       "p 1\n"
                       "f 1/1 2/2 3/1\n"
                       "#f 9 9 9\n";
    mk_obj *o = parse_ok(text);
    if (!o)
        return;
    CHECK_EQ_INT(o->position_count, 3);
    CHECK_EQ_INT(o->texcoord_count, 2);
    CHECK_EQ_INT(o->triangle_count, 1);
    CHECK_NEAR(o->positions[3], 1.0, 0);
    CHECK_NEAR(o->positions[4], 0.0, 0);
    CHECK_NEAR(o->positions[7], 1.0, 0);
    CHECK_NEAR(o->texcoords[1], 0.25, 0);
    CHECK_NEAR(o->texcoords[2], 0.75, 0);
    CHECK_NEAR(o->texcoords[3], 0.0, 0);
    mk_obj_destroy(o);
}

static void test_numbers(void)
{
    mk_obj *o = parse_ok("v 1.5e-05 -2.25E+2 .5\nv 1e3 -0 +3.000000\nv 123456.789 1E-45 0\n");
    if (!o)
        return;
    CHECK(o->positions[0] == 1.5e-05f);
    CHECK(o->positions[1] == -225.0f);
    CHECK(o->positions[2] == 0.5f);
    CHECK(o->positions[3] == 1000.0f);
    CHECK(o->positions[4] == 0.0f);
    CHECK(o->positions[5] == 3.0f);
    CHECK(o->positions[6] == 123456.789f);
    CHECK(o->positions[7] == 1e-45f);
    mk_obj_destroy(o);
}

static void test_forward_references(void)
{
    /* Absolute indices may point to elements defined later in the file. */
    mk_obj *o = parse_ok("f 1/1 2/1 3/1\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\n");
    if (o) {
        CHECK_EQ_INT(o->triangle_count, 1);
        check_tri(o->corner_position, 0, 0, 1, 2);
        mk_obj_destroy(o);
    }
    /* Ones never defined are reported at the face's line. */
    mk_obj *bad = NULL;
    mk_error err;
    const char *text = "v 0 0 0\nf 1 2 3\nv 1 0 0\nf 1 2 4\nv 0 1 0\n";
    CHECK_EQ_INT(mk_obj_parse(text, strlen(text), "fw.obj", NULL, NULL, &bad, &err), MK_ERR_RANGE);
    CHECK(bad == NULL);
    CHECK_EQ_INT(err.line, 4);
    CHECK_CONTAINS(err.file, "fw.obj");
    CHECK_CONTAINS(err.message, "v index 4 out of range (the file has 3 v)");
}

/* ---- errors ----------------------------------------------------------------- */

typedef struct bad_case {
    const char *text;
    mk_status code;
    int line;
    const char *message;
} bad_case;

#define V3 "v 0 0 0\nv 1 0 0\nv 0 1 0\n"

static const bad_case bad_cases[] = {
    {"v 1 2 x\n", MK_ERR_PARSE, 1, "bad number 'x'"},
    {"v 1 2 3\nv 1 2.5.1 3\n", MK_ERR_PARSE, 2, "bad number '2.5.1'"},
    {"v 1 2 3e\n", MK_ERR_PARSE, 1, "bad number '3e'"},
    {"v 1 2 -\n", MK_ERR_PARSE, 1, "bad number '-'"},
    {"v 1 2 3,5\n", MK_ERR_PARSE, 1, "bad number '3,5'"},
    {"v 1 2\n", MK_ERR_PARSE, 1, "'v' needs 3 numbers, found 2"},
    {"vn 0 1\n", MK_ERR_PARSE, 1, "'vn' needs 3 numbers, found 2"},
    {"vt\n", MK_ERR_PARSE, 1, "'vt' needs 1 number, found 0"},
    {"v 1 nan 3\n", MK_ERR_PARSE, 1, "not a finite number 'nan'"},
    {"\n\nv 1 2 -inf\n", MK_ERR_PARSE, 3, "not a finite number '-inf'"},
    {"vn 1e39 0 0\n", MK_ERR_RANGE, 1, "out of float range '1e39'"},
    {V3 "f 1 2 0\n", MK_ERR_RANGE, 4, "v index 0 is invalid"},
    {V3 "vt 0 0\nf 1/0 2/1 3/1\n", MK_ERR_RANGE, 5, "vt index 0 is invalid"},
    {V3 "f 1 2 4\n", MK_ERR_RANGE, 4, "v index 4 out of range (the file has 3 v)"},
    {V3 "vt 0 0\nf 1/1 2/2 3/1\n", MK_ERR_RANGE, 5, "vt index 2 out of range (the file has 1 vt)"},
    {V3 "vn 0 0 1\n\nf 1//1 2//1 3//7\n", MK_ERR_RANGE, 6, "vn index 7 out of range"},
    {V3 "f -4 -2 -1\n", MK_ERR_RANGE, 4, "v index -4 out of range (3 v defined before this line)"},
    {V3 "f 1//-1 2//-1 3//-1\n", MK_ERR_RANGE, 4, "vn index -1 out of range (0 vn defined"},
    {V3 "f 1 2 99999999999999999999\n", MK_ERR_RANGE, 4,
     "v index at least 1099511627776 out of range (max_elements is"}, /* capped, not wrapped */
    {V3 "f 1 2 -99999999999999999999\n", MK_ERR_RANGE, 4, "v index at most -1099511627776 out of range (3 v"},
    {V3 "f 1 2\n", MK_ERR_PARSE, 4, "face has 2 corners, at least 3 needed"},
    {V3 "f\n", MK_ERR_PARSE, 4, "face has 0 corners"},
    {V3 "f 1 # 2 3\n", MK_ERR_PARSE, 4, "face has 1 corner,"},
    {V3 "vt 0 0\nvn 0 0 1\nf 1/2/3/4 1/1/1 1/1/1\n", MK_ERR_PARSE, 6,
     "malformed face corner '1/2/3/4'"},
    {V3 "f 1// 2// 3//\n", MK_ERR_PARSE, 4, "malformed face corner '1//'"},
    {V3 "f /1 2 3\n", MK_ERR_PARSE, 4, "malformed face corner '/1'"},
    {V3 "f 1/ 2/ 3/\n", MK_ERR_PARSE, 4, "malformed face corner '1/'"},
    {V3 "f 1 2 3/\n", MK_ERR_PARSE, 4, "malformed face corner '3/'"},
    {V3 "f 1x 2 3\n", MK_ERR_PARSE, 4, "malformed face corner '1x'"},
    {V3 "f 1.0 2 3\n", MK_ERR_PARSE, 4, "malformed face corner '1.0'"},
    {V3 "vt 0 0\nf 1/1 2 3\n", MK_ERR_PARSE, 5,
     "face mixes corner forms: corner 1 is v/vt, corner 2 is v"},
    {V3 "vt 0 0\nvn 0 0 1\nf 1/1/1 2/1/1 3//1\n", MK_ERR_PARSE, 6,
     "corner 1 is v/vt/vn, corner 3 is v//vn"},
    {"v 0 0 0\n{oops}\n", MK_ERR_PARSE, 2, "unexpected '{oops}' at the start of a statement"},
    {"\x01\x02\x03\n", MK_ERR_PARSE, 1, "unexpected byte 0x01"},
    {"v 0 0 0\n3 4 5\n", MK_ERR_PARSE, 2, "unexpected '3'"},
};

static void test_errors(void)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *c = &bad_cases[i];
        mk_obj *o = (mk_obj *)&o; /* must be reset to NULL */
        mk_error err;
        mk_error_clear(&err);
        mk_status st = mk_obj_parse(c->text, strlen(c->text), "bad.obj", NULL, NULL, &o, &err);
        if (st != c->code || err.line != c->line || !strstr(err.message, c->message))
            fprintf(stderr, "case %zu: status %d line %d: %s\n", i, (int)st, err.line, err.message);
        CHECK_EQ_INT(st, c->code);
        CHECK_EQ_INT(err.code, c->code);
        CHECK_EQ_INT(err.line, c->line);
        CHECK_CONTAINS(err.message, c->message);
        CHECK(strcmp(err.file, "bad.obj") == 0);
        CHECK(o == NULL);
        /* Without an mk_error the status is the same. */
        CHECK_EQ_INT(mk_obj_parse(c->text, strlen(c->text), NULL, NULL, NULL, &o, NULL), c->code);
    }
    /* The formatted error reads file:line: message. */
    mk_obj *o;
    mk_error err;
    const char *text = V3 "f 1 2\n";
    mk_obj_parse(text, strlen(text), NULL, NULL, NULL, &o, &err);
    char buf[256];
    mk_error_format(&err, buf, sizeof buf);
    CHECK_CONTAINS(buf, "<memory>:4: face has 2 corners");
}

static void test_limits(void)
{
    mk_obj_options opts = {0};
    opts.max_elements = 2;
    mk_obj *o;
    mk_error err;
    const char *text = "vt 0 0\nv 0 0 0\nv 1 0 0\nv 0 1 0\n";
    CHECK_EQ_INT(mk_obj_parse(text, strlen(text), "l.obj", &opts, NULL, &o, &err), MK_ERR_LIMIT);
    CHECK_EQ_INT(err.line, 4);
    CHECK_CONTAINS(err.message, "more than 2 v (max_elements)");

    opts.max_elements = 3;
    text = V3 "f 1 2 3\nf 1 2 3\nf 1 2 3 1\n";
    CHECK_EQ_INT(mk_obj_parse(text, strlen(text), "l.obj", &opts, NULL, &o, &err), MK_ERR_LIMIT);
    CHECK_EQ_INT(err.line, 6);
    CHECK_CONTAINS(err.message, "more than 3 triangles");

    text = V3 "f 1 2 4\n";
    CHECK_EQ_INT(mk_obj_parse(text, strlen(text), "l.obj", &opts, NULL, &o, &err), MK_ERR_RANGE);
    CHECK_CONTAINS(err.message, "v index 4 out of range (max_elements is 3)");

    /* Exactly at the limit is fine. */
    text = V3 "f 1 2 3\nf 1 2 3 1\n";
    CHECK_EQ_INT(mk_obj_parse(text, strlen(text), "l.obj", &opts, NULL, &o, &err), MK_OK);
    mk_obj_destroy(o);
}

static void test_load(void)
{
    const char *dir = mk_fx_dir("obj_load");
    mk_fx_write(dir, "a.obj", cube_like);
    mk_obj *o;
    mk_error err;
    CHECK_EQ_INT(mk_obj_load(mk_fx_path(dir, "a.obj"), NULL, NULL, &o, &err), MK_OK);
    if (o) {
        CHECK_EQ_INT(o->triangle_count, 4);
        mk_obj_destroy(o);
    }
    /* Errors in a loaded file name its path. */
    mk_fx_write(dir, "b.obj", "v 0 0 0\nv 1 1\n");
    const char *b = mk_fx_path(dir, "b.obj");
    CHECK_EQ_INT(mk_obj_load(b, NULL, NULL, &o, &err), MK_ERR_PARSE);
    CHECK(strcmp(err.file, b) == 0);
    CHECK_EQ_INT(err.line, 2);

    const char *missing = mk_fx_path(dir, "missing.obj");
    CHECK_EQ_INT(mk_obj_load(missing, NULL, NULL, &o, &err), MK_ERR_NOT_FOUND);
    CHECK(strcmp(err.file, missing) == 0);
    CHECK_CONTAINS(err.message, strerror(ENOENT));
    CHECK(o == NULL);

    CHECK_EQ_INT(mk_obj_load(dir, NULL, NULL, &o, &err), MK_ERR_IO);
    CHECK_CONTAINS(err.message, "is a directory");

    mk_obj_options opts = {0};
    opts.max_file_size = 100;
    CHECK_EQ_INT(mk_obj_load(mk_fx_path(dir, "a.obj"), &opts, NULL, &o, &err), MK_ERR_LIMIT);
    CHECK_CONTAINS(err.message, "file is too big");
    CHECK_CONTAINS(err.message, "the limit is 100");

    /* An empty file is an empty OBJ. */
    mk_fx_write(dir, "empty.obj", "");
    CHECK_EQ_INT(mk_obj_load(mk_fx_path(dir, "empty.obj"), NULL, NULL, &o, &err), MK_OK);
    if (o) {
        CHECK_EQ_INT(o->position_count + o->triangle_count, 0);
        CHECK(o->positions == NULL && o->corner_position == NULL);
        mk_obj_destroy(o);
    }
}

/* The default file layer under mk_obj_load: whole-file reads through the
 * caller's allocator, limits checked before reading, FIFOs refused. */
static void test_read_file(void)
{
    const char *dir = mk_fx_dir("read_file");
    mk_fx_write(dir, "x.txt", "hello");
    test_heap h;
    mk_allocator a = heap_allocator(&h, -1, 0);
    void *data;
    size_t size;
    mk_error err;
    CHECK_EQ_INT(mk_file_read(NULL, mk_fx_path(dir, "x.txt"), &a, 0, &data, &size, &err), MK_OK);
    CHECK_EQ_INT(size, 5);
    if (data) {
        CHECK(memcmp(data, "hello", 5) == 0);
        mk_file_release(NULL, &a, data, size);
    }
    CHECK_EQ_INT(mk_file_read(NULL, mk_fx_path(dir, "x.txt"), &a, 4, &data, &size, &err),
                 MK_ERR_LIMIT);
    CHECK(data == NULL && size == 0);
    CHECK_EQ_INT(mk_file_read(NULL, mk_fx_path(dir, "x.txt"), &a, 5, &data, &size, &err), MK_OK);
    mk_file_release(NULL, &a, data, size);
    /* A FIFO is refused at once (no waiting for a writer). */
    const char *fifo = mk_fx_path(dir, "fifo");
    if (mkfifo(fifo, 0600) == 0) {
        CHECK_EQ_INT(mk_file_read(NULL, fifo, &a, 0, &data, &size, &err), MK_ERR_IO);
        CHECK_CONTAINS(err.message, "not a regular file");
    }
    mk_fx_write(dir, "empty", "");
    CHECK_EQ_INT(mk_file_read(NULL, mk_fx_path(dir, "empty"), &a, 0, &data, &size, &err), MK_OK);
    CHECK(size == 0);
    mk_file_release(NULL, &a, data, size);
    h.fail_after = h.calls;
    CHECK_EQ_INT(mk_file_read(NULL, mk_fx_path(dir, "x.txt"), &a, 0, &data, &size, &err),
                 MK_ERR_OUT_OF_MEMORY);
    CHECK_EQ_INT(h.live, 0);
    CHECK(!h.bad_size);
}

/* ---- robustness ------------------------------------------------------------- */

/* Parses with a counting allocator; on success also builds a mesh. Checks
 * that nothing leaks and that every free names the size it allocated. */
static mk_status parse_checked(const char *text, size_t n, long fail_after, int with_realloc)
{
    test_heap h;
    mk_allocator a = heap_allocator(&h, fail_after, with_realloc);
    mk_obj *o = NULL;
    mk_error err;
    mk_status st = mk_obj_parse(text, n, "x.obj", NULL, &a, &o, &err);
    if (st == MK_OK) {
        mk_mesh *m = NULL;
        uint32_t *src = NULL;
        mk_status ms = mk_obj_build_mesh(o, &a, &m, &src, &err);
        if (ms == MK_OK) {
            CHECK_EQ_INT(mk_mesh_validate(m, &err), MK_OK);
            for (uint32_t i = 0; i < m->vertex_count; i++)
                CHECK(src[i] < o->position_count);
            mk_free(&a, src, (size_t)m->vertex_count * 4);
            mk_mesh_destroy(m);
        } else {
            CHECK(m == NULL && src == NULL);
            CHECK_EQ_INT(ms, MK_ERR_OUT_OF_MEMORY);
            st = ms;
        }
        mk_obj_destroy(o);
    } else {
        CHECK(o == NULL);
        CHECK(err.line > 0 || st == MK_ERR_OUT_OF_MEMORY);
        CHECK(err.message[0] != '\0');
    }
    CHECK_EQ_INT(h.live, 0);
    CHECK(!h.bad_size);
    return st;
}

static void test_truncation(void)
{
    size_t n = strlen(cube_like);
    int ok = 0;
    for (size_t len = 0; len <= n; len++) {
        /* An exact-size copy so that ASan sees any read past the end. */
        char *copy = malloc(len ? len : 1);
        memcpy(copy, cube_like, len);
        ok += parse_checked(copy, len, -1, 1) == MK_OK;
        free(copy);
    }
    CHECK(ok > 0);
}

static void test_failing_allocator(void)
{
    for (int with_realloc = 0; with_realloc < 2; with_realloc++) {
        long n = 0;
        for (;; n++) {
            mk_status st = parse_checked(cube_like, strlen(cube_like), n, with_realloc);
            if (st == MK_OK)
                break;
            CHECK_EQ_INT(st, MK_ERR_OUT_OF_MEMORY);
            if (n > 1000)
                break;
        }
        CHECK(n > 3 && n < 1000);
    }
}

/* mk_obj is a complete struct in its own block, every array its own exact
 * block: the blocks are counted, the sizes checked on free, and a copy of
 * the public fields reads the same data. */
static void test_obj_struct_is_complete(void)
{
    test_heap h;
    mk_allocator a = heap_allocator(&h, -1, 1);
    mk_obj *o = NULL;
    mk_error err;
    CHECK(mk_obj_parse(cube_like, strlen(cube_like), "x.obj", NULL, &a, &o, &err) == MK_OK);
    if (!o)
        return;
    CHECK_EQ_INT(h.live, 1 + 8); /* the struct and its 8 arrays, all present here */
    struct {
        int before;
        mk_obj obj;
        int after;
    } holder = {1, *o, 2};
    CHECK_EQ_INT(holder.obj.position_count, 5);
    CHECK_EQ_INT(holder.obj.triangle_count, 4);
    CHECK(holder.obj.positions[14] == 1.0f && holder.obj.normals[5] == -1.0f);
    CHECK(holder.obj.corner_texcoord[11] == 3 && holder.obj.triangle_face[3] == 2);
    CHECK(holder.before == 1 && holder.after == 2);
    mk_obj_destroy(o);
    CHECK_EQ_INT(h.live, 0);
    CHECK(!h.bad_size);

    /* no faces: the per-corner arrays are NULL and not allocated */
    heap_allocator(&h, -1, 1);
    CHECK(mk_obj_parse("v 1 2 3\n", 8, "x.obj", NULL, &a, &o, &err) == MK_OK);
    CHECK(o && o->corner_position == NULL && o->corner_texcoord == NULL && o->texcoords == NULL);
    CHECK_EQ_INT(h.live, 2);
    mk_obj_destroy(o);
    CHECK_EQ_INT(h.live, 0);
    CHECK(!h.bad_size);
}

/* xorshift: the same sequence on every platform. */
static uint32_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (uint32_t)(*s >> 32);
}

static void test_mutation_fuzz(void)
{
    static const char alphabet[] = "0123456789/-+.eE \t\r\n#vftn";
    size_t n = strlen(cube_like);
    char *buf = malloc(n);
    uint64_t seed = 0x9E3779B97F4A7C15u;
    int ok = 0;
    for (int iter = 0; iter < 4000; iter++) {
        memcpy(buf, cube_like, n);
        int edits = 1 + (int)(next_random(&seed) % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = next_random(&seed) % n;
            uint32_t r = next_random(&seed);
            /* Mostly characters the grammar cares about, sometimes any byte. */
            buf[at] = (r & 1) ? (char)(r >> 8) : alphabet[(r >> 8) % (sizeof alphabet - 1)];
        }
        size_t len = n - next_random(&seed) % 8;
        ok += parse_checked(buf, len, -1, iter & 1) == MK_OK;
    }
    free(buf);
    CHECK(ok > 100); /* many mutations still parse, and build meshes */
}

/* ---- mesh building ---------------------------------------------------------- */

static void test_build_mesh(void)
{
    /* Two quads sharing an edge; the shared corners agree on vt and vn except
     * corner 3, which the second quad uses with another vt. */
    const char *text = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0 0\nv 2 1 0\n"
                       "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvt 0.5 0.5\n"
                       "vn 0 0 1\n"
                       "f 1/1/1 2/2/1 3/3/1 4/4/1\n"
                       "f 2/2/1 5/1/1 6/4/1 3/5/1\n";
    mk_obj *o = parse_ok(text);
    if (!o)
        return;
    mk_mesh *m;
    uint32_t *src;
    mk_error err;
    CHECK_EQ_INT(mk_obj_build_mesh(o, NULL, &m, &src, &err), MK_OK);
    /* Distinct triples in first-use order: 1/1/1 2/2/1 3/3/1 4/4/1 5/1/1 6/4/1 3/5/1. */
    CHECK_EQ_INT(m->vertex_count, 7);
    CHECK_EQ_INT(m->index_count, 12);
    CHECK(m->normals != NULL && m->texcoords != NULL);
    static const uint32_t want_idx[] = {0, 1, 2, 0, 2, 3, 1, 4, 5, 1, 5, 6};
    for (int i = 0; i < 12; i++)
        CHECK_EQ_INT(m->indices[i], want_idx[i]);
    static const uint32_t want_src[] = {0, 1, 2, 3, 4, 5, 2};
    for (int i = 0; i < 7; i++)
        CHECK_EQ_INT(src[i], want_src[i]);
    CHECK_NEAR(m->positions[6 * 3 + 0], 1.0, 0);
    CHECK_NEAR(m->positions[6 * 3 + 1], 1.0, 0);
    CHECK_NEAR(m->texcoords[6 * 2 + 0], 0.5, 0);
    CHECK_NEAR(m->texcoords[4 * 2 + 0], 0.0, 0);
    CHECK_NEAR(m->normals[5 * 3 + 2], 1.0, 0);
    mk_free(NULL, src, m->vertex_count * sizeof *src);
    mk_mesh_destroy(m);
    mk_obj_destroy(o);

    /* One face without normals: no normals at all, and vn does not split
     * vertices. Without source_index the call still works. */
    o = parse_ok("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvn 0 0 1\nvn 0 0 -1\n"
                 "f 1//1 2//1 3//1\nf 2 4 3\nf 1//2 2//2 3//2\n");
    if (!o)
        return;
    CHECK_EQ_INT(mk_obj_build_mesh(o, NULL, &m, NULL, &err), MK_OK);
    CHECK_EQ_INT(m->vertex_count, 4);
    CHECK(m->normals == NULL && m->texcoords == NULL);
    CHECK_EQ_INT(m->indices[3], 1);
    CHECK_EQ_INT(m->indices[4], 3);
    CHECK_EQ_INT(m->indices[8], 2);
    mk_mesh_destroy(m);
    mk_obj_destroy(o);

    /* Positions only, some unused: the mesh has only what faces use. */
    o = parse_ok("v 9 9 9\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 2 3 4\nf 4 3 2\n");
    if (!o)
        return;
    CHECK_EQ_INT(mk_obj_build_mesh(o, NULL, &m, &src, &err), MK_OK);
    CHECK_EQ_INT(m->vertex_count, 3);
    CHECK_EQ_INT(src[0], 1);
    CHECK_EQ_INT(m->indices[3], 2);
    CHECK_NEAR(m->positions[0], 0.0, 0);
    mk_free(NULL, src, m->vertex_count * sizeof *src);
    mk_mesh_destroy(m);
    mk_obj_destroy(o);
}

/* ---- float parsing ---------------------------------------------------------- */

/* Distance in ulps between two finite floats of any sign. */
static long ulp_distance(float a, float b)
{
    int32_t ia, ib;
    memcpy(&ia, &a, 4);
    memcpy(&ib, &b, 4);
    if (ia < 0)
        ia = INT32_MIN - ia;
    if (ib < 0)
        ib = INT32_MIN - ib;
    long d = (long)ia - (long)ib;
    return d < 0 ? -d : d;
}

/* The OBJ number path: scan with the OBJ grammar, then convert to float. */
static const char *scan_float(const char *p, const char *end, float *out)
{
    mk_decimal d;
    p = mk_decimal_scan(p, end, MK_DECIMAL_OBJ, &d);
    if (p)
        *out = mk_decimal_float(&d);
    return p;
}

static void check_scan(const char *s, long *worst, int *exact)
{
    float mine = -12345.0f;
    const char *end = s + strlen(s);
    const char *stop = scan_float(s, end, &mine);
    CHECK(stop == end);
    float ref = strtof(s, NULL);
    if (isinf(ref)) {
        CHECK(isinf(mine) && signbit(mine) == signbit(ref));
        *exact += isinf(mine) != 0;
        return;
    }
    long d = ulp_distance(mine, ref);
    *exact += d == 0;
    if (d > *worst)
        *worst = d;
    if (d > 1)
        fprintf(stderr, "'%s': %.9g vs strtof %.9g (%ld ulps)\n", s, mine, ref, d);
}

static void test_float_accuracy(void)
{
    uint64_t seed = 12345;
    long worst = 0;
    int exact = 0, total = 0;
    char s[128];
    for (int i = 0; i < 6000; i++, total++) {
        uint32_t r = next_random(&seed);
        int digits = 1 + (int)(r % 20);
        int point = (int)((r >> 8) % (unsigned)(digits + 1));
        int len = 0;
        if (r & (1u << 30))
            s[len++] = '-';
        for (int d = 0; d < digits; d++) {
            if (d == point && d > 0)
                s[len++] = '.';
            s[len++] = (char)('0' + next_random(&seed) % 10);
        }
        if ((r >> 16) & 1) {
            int e = (int)(next_random(&seed) % 90) - 50;
            len += snprintf(s + len, sizeof s - (size_t)len, "e%+03d", e);
        }
        s[len] = '\0';
        check_scan(s, &worst, &exact);
    }
    /* What exporters write: %.6f of a float, and %e forms. */
    for (int i = 0; i < 4000; i++, total += 2) {
        uint32_t bits = next_random(&seed);
        float f = (float)((double)bits / 4294967296.0 * 200.0 - 100.0);
        snprintf(s, sizeof s, "%.6f", f);
        check_scan(s, &worst, &exact);
        snprintf(s, sizeof s, "%.6e", f * 1e-3f);
        check_scan(s, &worst, &exact);
    }
    static const char *const edge[] = {
        "0",
        "-0",
        "0.0",
        "1",
        "3.4028234e38",
        "3.4028236e38",
        "1.17549435e-38",
        "1.4e-45",
        "7e-46",
        "0.000001",
        "123456789012345678901234567890",
        "0.00000000000000000000000000000000000000000001",
        "16777217",
        "0.1",
        "9.999999e-1",
    };
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++, total++)
        check_scan(edge[i], &worst, &exact);
    CHECK(worst <= 1);
    printf("float parser: %d of %d exact, worst %ld ulp\n", exact, total, worst);

    /* Syntax: stops at the first character that is not part of a number. */
    float f;
    const char *t = "1.5/2";
    CHECK(scan_float(t, t + 5, &f) == t + 3 && f == 1.5f);
    t = "e5";
    CHECK(scan_float(t, t + 2, &f) == NULL);
    t = ".";
    CHECK(scan_float(t, t + 1, &f) == NULL);
    t = "1e+";
    CHECK(scan_float(t, t + 3, &f) == NULL);
    t = "25"; /* end limits the read */
    CHECK(scan_float(t, t + 1, &f) == t + 1 && f == 2.0f);
}

MK_TEST_MAIN(MK_TEST(test_corner_forms), MK_TEST(test_negative_indices), MK_TEST(test_polygons),
             MK_TEST(test_whitespace_and_line_ends), MK_TEST(test_ignored_statements),
             MK_TEST(test_numbers), MK_TEST(test_forward_references), MK_TEST(test_errors),
             MK_TEST(test_limits), MK_TEST(test_load), MK_TEST(test_read_file),
             MK_TEST(test_truncation), MK_TEST(test_failing_allocator), MK_TEST(test_obj_struct_is_complete), MK_TEST(test_mutation_fuzz),
             MK_TEST(test_build_mesh), MK_TEST(test_float_accuracy))
