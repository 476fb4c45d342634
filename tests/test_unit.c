/* Unit folders: discovery rules and frame validation, on fixtures written
 * by the tests (expected values computed by hand from those texts). */
#include <stdarg.h>

#include "fixtures.h"
#include "mk_test.h"
#include "morphkit/morphkit.h"

static const char QUAD[] = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n";

/* ---- discovery ----------------------------------------------------------- */

static void test_discover_numbering_and_ignored_files(void)
{
    const char *d = mk_fx_dir("disc_basic");
    mk_fx_write(d, "Walk_2.obj", QUAD);
    mk_fx_write(d, "Walk_1.obj", QUAD);
    mk_fx_write(d, "Walk_3.obj", QUAD);
    mk_fx_write(d, "Idle_0.obj", QUAD);
    mk_fx_write(d, "Idle_1.OBJ", QUAD);
    mk_fx_write(d, "Attack_Heavy_1.obj", QUAD); /* name is everything before the last _ */
    mk_fx_write(d, "unit.mtl", "newmtl a\n");
    mk_fx_write(d, "notes.txt", "hi\n");
    mk_fx_write(d, "animation.cfg", "# nothing\n");
    mk_fx_write(d, "Walk.obj", QUAD);      /* no number */
    mk_fx_write(d, "Walk_1.obj.bak", QUAD); /* not .obj */
    mk_fx_write(d, "Walk_1x.obj", QUAD);    /* does not end in a number */
    mk_fx_write(d, "_1.obj", QUAD);         /* empty name */
    char sub[1100];
    snprintf(sub, sizeof sub, "mkdir -p '%s/Run_1.obj'", d); /* a folder, not a file */
    CHECK(system(sub) == 0);
    mk_unit_files *f = NULL;
    mk_error e;
    CHECK(mk_unit_discover(d, NULL, NULL, &f, &e) == MK_OK);
    if (!f)
        return;
    CHECK_EQ_INT(f->animation_count, 3);
    CHECK(strcmp(f->animations[0].name, "Attack_Heavy") == 0);
    CHECK(strcmp(f->animations[1].name, "Idle") == 0);
    CHECK(strcmp(f->animations[2].name, "Walk") == 0);
    CHECK_EQ_INT(f->animations[1].first_number, 0);
    CHECK_EQ_INT(f->animations[1].frame_count, 2);
    CHECK_EQ_INT(f->animations[1].first_frame, 1);
    CHECK_EQ_INT(f->animations[2].first_number, 1);
    CHECK_EQ_INT(f->animations[2].frame_count, 3);
    CHECK_EQ_INT(f->animations[2].first_frame, 3);
    CHECK_EQ_INT(f->frame_count, 6);
    CHECK(strcmp(f->frame_files[2], "Idle_1.OBJ") == 0);
    CHECK(strcmp(f->frame_files[3], "Walk_1.obj") == 0);
    CHECK(strcmp(f->frame_files[5], "Walk_3.obj") == 0);
    CHECK(f->has_config);
    mk_unit_files_destroy(f);
}

static void test_discover_blender_padding(void)
{
    const char *d = mk_fx_dir("disc_pad");
    mk_fx_write(d, "walk_000001.obj", QUAD);
    mk_fx_write(d, "walk_000002.obj", QUAD);
    mk_fx_write(d, "walk_000010.obj", QUAD); /* 10 before 2 in byte order; sorted numerically */
    for (int i = 3; i <= 9; i++) {
        char name[32];
        snprintf(name, sizeof name, "walk_%06d.obj", i);
        mk_fx_write(d, name, QUAD);
    }
    mk_unit_files *f = NULL;
    mk_error e;
    CHECK(mk_unit_discover(d, NULL, NULL, &f, &e) == MK_OK);
    if (!f)
        return;
    CHECK_EQ_INT(f->animation_count, 1);
    CHECK_EQ_INT(f->animations[0].frame_count, 10);
    CHECK_EQ_INT(f->animations[0].first_number, 1);
    CHECK(strcmp(f->frame_files[9], "walk_000010.obj") == 0);
    CHECK(!f->has_config);
    mk_unit_files_destroy(f);
}

/* The namings real exporters write: Blender 3.4's OBJ exporter appends the
 * frame with no separator and no padding, starting wherever the range starts. */
static void test_discover_exporter_namings(void)
{
    const char *d = mk_fx_dir("disc_names");
    char name[64];
    for (int i = 1; i <= 12; i++) { /* Bend10 sorts before Bend2 by bytes */
        snprintf(name, sizeof name, "Bend%d.obj", i);
        mk_fx_write(d, name, QUAD);
    }
    for (int i = 20; i <= 30; i++) {
        snprintf(name, sizeof name, "Twist%d.obj", i);
        mk_fx_write(d, name, QUAD);
    }
    mk_fx_write(d, "Jump.1.obj", QUAD);
    mk_fx_write(d, "Jump.2.obj", QUAD);
    mk_fx_write(d, "Run-001.obj", QUAD);
    mk_fx_write(d, "Run-002.obj", QUAD);
    mk_fx_write(d, "Hit2_1.obj", QUAD);    /* a name ending in a digit needs a separator */
    mk_fx_write(d, "Hit2_2.obj", QUAD);
    mk_fx_write(d, "Roll_" "0000000000007.obj", QUAD); /* long padding is still frame 7 */
    mk_fx_write(d, "Spin__1.obj", QUAD);   /* only one separator is dropped: "Spin_" */
    mk_fx_write(d, "Big_1234567890.obj", QUAD); /* ten significant digits: ignored */
    mk_fx_write(d, "1.obj", QUAD);         /* no name */
    mk_fx_write(d, "-1.obj", QUAD);        /* only a separator */
    mk_fx_write(d, "Bend.obj", QUAD);      /* no number */
    mk_unit_files *f = NULL;
    mk_error e;
    CHECK(mk_unit_discover(d, NULL, NULL, &f, &e) == MK_OK);
    if (!f)
        return;
    static const char *names[] = {"Bend", "Hit2", "Jump", "Roll", "Run", "Spin_", "Twist"};
    static const uint32_t firsts[] = {1, 1, 1, 7, 1, 1, 20};
    static const uint32_t counts[] = {12, 2, 2, 1, 2, 1, 11};
    CHECK_EQ_INT(f->animation_count, 7);
    for (uint32_t a = 0; a < 7 && a < f->animation_count; a++) {
        CHECK(strcmp(f->animations[a].name, names[a]) == 0);
        CHECK_EQ_INT(f->animations[a].first_number, firsts[a]);
        CHECK_EQ_INT(f->animations[a].frame_count, counts[a]);
    }
    CHECK_EQ_INT(f->frame_count, 31);
    CHECK(strcmp(f->frame_files[1], "Bend2.obj") == 0); /* numeric order */
    CHECK(strcmp(f->frame_files[9], "Bend10.obj") == 0);
    CHECK(strcmp(f->frame_files[11], "Bend12.obj") == 0);
    CHECK(strcmp(f->frame_files[13], "Hit2_2.obj") == 0);
    CHECK(strcmp(f->frame_files[30], "Twist30.obj") == 0);
    mk_unit_files_destroy(f);

    /* walk_1.obj and walk1.obj are both frame 1 of walk */
    d = mk_fx_dir("disc_names_dup");
    mk_fx_write(d, "walk_1.obj", QUAD);
    mk_fx_write(d, "walk1.obj", QUAD);
    CHECK(mk_unit_discover(d, NULL, NULL, &f, &e) == MK_ERR_PARSE);
    CHECK_CONTAINS(e.message, "'walk1.obj' and 'walk_1.obj' are both frame 1 of animation 'walk'");

    /* spellings may mix within one animation */
    d = mk_fx_dir("disc_names_mixed");
    mk_fx_write(d, "Mix_1.obj", QUAD);
    mk_fx_write(d, "Mix2.obj", QUAD);
    mk_fx_write(d, "Mix-003.obj", QUAD);
    CHECK(mk_unit_discover(d, NULL, NULL, &f, &e) == MK_OK);
    if (f) {
        CHECK_EQ_INT(f->animation_count, 1);
        CHECK_EQ_INT(f->animations[0].frame_count, 3);
        CHECK(strcmp(f->frame_files[1], "Mix2.obj") == 0);
        mk_unit_files_destroy(f);
    }

    /* a gap is named with the neighbour's separator and padding */
    d = mk_fx_dir("disc_names_gap");
    mk_fx_write(d, "Bend1.obj", QUAD);
    mk_fx_write(d, "Bend3.obj", QUAD);
    CHECK(mk_unit_discover(d, NULL, NULL, &f, &e) == MK_ERR_NOT_FOUND);
    CHECK_CONTAINS(e.message, "missing frame file 'Bend2.obj'");
    d = mk_fx_dir("disc_names_gap_dot");
    mk_fx_write(d, "Jump.09.obj", QUAD);
    mk_fx_write(d, "Jump.11.obj", QUAD);
    CHECK(mk_unit_discover(d, NULL, NULL, &f, &e) == MK_ERR_NOT_FOUND);
    CHECK_CONTAINS(e.message, "missing frame file 'Jump.10.obj'");
    CHECK(mk_is_unit_folder(d, NULL));
}

static void test_discover_gap_names_missing_file(void)
{
    const char *d = mk_fx_dir("disc_gap");
    mk_fx_write(d, "Walk_1.obj", QUAD);
    mk_fx_write(d, "Walk_2.obj", QUAD);
    mk_fx_write(d, "Walk_4.obj", QUAD);
    mk_unit_files *f = (mk_unit_files *)1;
    mk_error e;
    CHECK(mk_unit_discover(d, NULL, NULL, &f, &e) == MK_ERR_NOT_FOUND);
    CHECK(f == NULL);
    CHECK_CONTAINS(e.message, "missing frame file 'Walk_3.obj'");
    CHECK_CONTAINS(e.file, "disc_gap");

    d = mk_fx_dir("disc_gap_pad");
    mk_fx_write(d, "run_0001.obj", QUAD);
    mk_fx_write(d, "run_0003.obj", QUAD);
    CHECK(mk_unit_discover(d, NULL, NULL, &f, &e) == MK_ERR_NOT_FOUND);
    CHECK_CONTAINS(e.message, "'run_0002.obj'");
}

static void test_discover_duplicates_and_empty(void)
{
    const char *d = mk_fx_dir("disc_dup");
    mk_fx_write(d, "Walk_1.obj", QUAD);
    mk_fx_write(d, "Walk_01.obj", QUAD);
    mk_unit_files *f;
    mk_error e;
    CHECK(mk_unit_discover(d, NULL, NULL, &f, &e) == MK_ERR_PARSE);
    CHECK_CONTAINS(e.message, "are both frame 1 of animation 'Walk'");

    d = mk_fx_dir("disc_empty");
    mk_fx_write(d, "readme.txt", "x");
    CHECK(mk_unit_discover(d, NULL, NULL, &f, &e) == MK_ERR_NOT_FOUND);
    CHECK_CONTAINS(e.message, "no frame files");
    CHECK(!mk_is_unit_folder(d, NULL));
    CHECK(mk_unit_discover("/nonexistent/folder", NULL, NULL, &f, &e) == MK_ERR_NOT_FOUND);
    CHECK_CONTAINS(e.message, "cannot open folder");
}

static void test_library_root_listing(void)
{
    const char *root = mk_fx_dir("lib_root");
    char sub[1100];
    snprintf(sub, sizeof sub, "mkdir -p '%s/b_unit' '%s/a_unit' '%s/textures'", root, root, root);
    CHECK(system(sub) == 0);
    mk_fx_write(mk_fx_path(root, "b_unit"), "Idle_1.obj", QUAD);
    mk_fx_write(mk_fx_path(root, "a_unit"), "Idle_1.obj", QUAD);
    mk_fx_write(mk_fx_path(root, "textures"), "skin.png", "x");
    char **paths;
    uint32_t n;
    mk_error e;
    CHECK(mk_unit_list(root, NULL, NULL, &paths, &n, &e) == MK_OK);
    CHECK_EQ_INT(n, 2);
    if (n == 2) {
        CHECK_CONTAINS(paths[0], "/a_unit");
        CHECK_CONTAINS(paths[1], "/b_unit");
    }
    mk_unit_list_free(NULL, paths, n);
    CHECK(mk_unit_list(mk_fx_path(root, "textures"), NULL, NULL, &paths, &n, &e) ==
          MK_ERR_NOT_FOUND);
}

/* ---- validation ---------------------------------------------------------- */

/* Loads dir expecting `expect`; returns the unit (or NULL) and fills rep. */
static mk_unit *load(const char *dir, mk_status expect, mk_report *rep, mk_error *e)
{
    mk_unit *u = NULL;
    mk_status st = mk_unit_load(dir, NULL, NULL, &u, rep, e);
    CHECK_EQ_INT(st, expect);
    if (st != MK_OK)
        CHECK(u == NULL);
    return u;
}

static const mk_diagnostic *find_diag(const mk_report *r, mk_check check)
{
    for (uint32_t i = 0; i < mk_report_count(r); i++)
        if (mk_report_item(r, i)->check == check)
            return mk_report_item(r, i);
    return NULL;
}

static void test_vertex_count_mismatch(void)
{
    const char *d = mk_fx_dir("val_count");
    mk_fx_write(d, "Idle_1.obj", QUAD);
    mk_fx_write(d, "Idle_2.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 5 5 5\nf 1 2 3\nf 1 3 4\n");
    mk_report *rep = mk_fx_report();
    mk_error e;
    load(d, MK_ERR_MISMATCH, rep, &e);
    const mk_diagnostic *g = find_diag(rep, MK_CHECK_VERTEX_COUNT);
    CHECK(g != NULL);
    if (g) {
        CHECK_CONTAINS(g->file, "Idle_2.obj");
        CHECK_CONTAINS(g->other_file, "Idle_1.obj");
        CHECK_CONTAINS(g->message, "5 vertices (v lines) but the first frame has 4");
    }
    CHECK_CONTAINS(e.file, "Idle_2.obj");
    CHECK_CONTAINS(e.message, "compared with");
    mk_report_destroy(rep);
}

static void test_topology_mismatch_names_lines(void)
{
    const char *d = mk_fx_dir("val_topo");
    mk_fx_write(d, "Idle_1.obj", QUAD);
    mk_fx_write(d, "Walk_1.obj", QUAD);
    /* line 6 differs: (1 3 4) became (1 4 3) - a winding flip */
    mk_fx_write(d, "Walk_2.obj", "# moved\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 4 3\n");
    mk_report *rep = mk_fx_report();
    mk_error e;
    load(d, MK_ERR_MISMATCH, rep, &e);
    const mk_diagnostic *g = find_diag(rep, MK_CHECK_TOPOLOGY);
    CHECK(g != NULL);
    if (g) {
        CHECK_CONTAINS(g->file, "Walk_2.obj");
        CHECK_EQ_INT(g->line, 7);
        CHECK_CONTAINS(g->other_file, "Idle_1.obj");
        CHECK_EQ_INT(g->other_line, 6);
        CHECK_CONTAINS(g->message, "triangle 2 is (1 4 3) but the first frame has (1 3 4)");
    }
    CHECK_EQ_INT(e.line, 7);
    mk_report_clear(rep);

    /* a missing triangle */
    d = mk_fx_dir("val_topo_count");
    mk_fx_write(d, "Idle_1.obj", QUAD);
    mk_fx_write(d, "Idle_2.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\n");
    load(d, MK_ERR_MISMATCH, rep, &e);
    CHECK_CONTAINS(e.message, "1 triangles but the first frame has 2");
    CHECK_EQ_INT(mk_report_error_count(rep), 1);
    mk_report_destroy(rep);
}

static void test_every_bad_frame_reported(void)
{
    const char *d = mk_fx_dir("val_many");
    mk_fx_write(d, "Idle_1.obj", QUAD);
    mk_fx_write(d, "Idle_2.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 3\n");
    mk_fx_write(d, "Idle_3.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 oops\n");
    mk_fx_write(d, "Idle_4.obj", QUAD);
    mk_report *rep = mk_fx_report();
    mk_error e;
    load(d, MK_ERR_PARSE, rep, &e); /* first error: Idle_3's syntax */
    CHECK_EQ_INT(mk_report_error_count(rep), 1);  /* reading stops the comparison */
    const mk_diagnostic *g = find_diag(rep, MK_CHECK_FILE);
    CHECK(g && strstr(g->file, "Idle_3.obj") && g->line == 5);
    mk_report_clear(rep);

    mk_fx_write(d, "Idle_3.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 4\nf 1 3 4\n");
    load(d, MK_ERR_MISMATCH, rep, &e);
    CHECK_EQ_INT(mk_report_error_count(rep), 2); /* Idle_2 (count) and Idle_3 (topology) */
    CHECK(find_diag(rep, MK_CHECK_VERTEX_COUNT) && find_diag(rep, MK_CHECK_TOPOLOGY));
    mk_report_destroy(rep);
}

/* Blender writes normals per pose with its own numbering and de-duplication. */
static void test_reindexed_normals_blend(void)
{
    const char *d = mk_fx_dir("val_normals");
    /* frame 1: both triangles flat, sharing one normal (0 0 1) */
    mk_fx_write(d, "Bend_1.obj",
                "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\n"
                "f 1//1 2//1 3//1\nf 1//1 3//1 4//1\n");
    /* frame 2: the second triangle tilts; normals listed in another order,
       the first triangle's normal is now vn 2 */
    mk_fx_write(d, "Bend_2.obj",
                "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 1\nvn 0 -1 1\nvn 0 0 2\n"
                "f 1//2 2//2 3//2\nf 1//1 3//1 4//1\n");
    mk_report *rep = mk_fx_report();
    mk_error e;
    mk_unit *u = load(d, MK_OK, rep, &e);
    if (!u)
        return;
    mk_frame_set *s = u->frames;
    /* corners 1 and 3 are shared in frame 1 but have different normals in
       frame 2, so they split: 6 render vertices for 4 v */
    CHECK_EQ_INT(u->position_count, 4);
    CHECK_EQ_INT(s->vertex_count, 6);
    CHECK(s->normals != NULL);
    float pos[18], nrm[18];
    CHECK(mk_blend_frames(s, 0, 1, 0.5f, pos, nrm, s->vertex_count, NULL) == MK_OK);
    /* second triangle's corners: normal halfway between (0,0,1) and
       (0,-1,1)/sqrt2, normalized: (0, -0.38268, 0.92388) */
    int checked = 0;
    for (uint32_t c = 3; c < 6; c++) {
        uint32_t v = s->indices[c];
        CHECK_NEAR(nrm[3 * v + 1], -0.3826834, 1e-5);
        CHECK_NEAR(nrm[3 * v + 2], 0.9238795, 1e-5);
        if (u->source_index[v] == 3) { /* v 4 moves from z 0 to z 1 */
            CHECK_NEAR(pos[3 * v + 2], 0.5, 1e-7);
            checked++;
        }
    }
    CHECK_EQ_INT(checked, 1);
    for (uint32_t c = 0; c < 3; c++) { /* first triangle keeps (0 0 1) */
        uint32_t v = s->indices[c];
        CHECK_NEAR(nrm[3 * v + 2], 1.0, 1e-6);
    }
    CHECK_EQ_INT(mk_report_warning_count(rep), 0);
    mk_unit_destroy(u);
    mk_report_destroy(rep);
}

static void test_flipped_quad_diagonal(void)
{
    const char *d = mk_fx_dir("val_flip");
    mk_fx_write(d, "Idle_1.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\n"
                                 "f 1//1 2//1 3//1\nf 1//1 3//1 4//1\n");
    /* the exporter split the same quad along 2-4 this time */
    mk_fx_write(d, "Idle_2.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0.5\nv 0 1 0\nvn 0 0 1\n"
                                 "f 1//1 2//1 4//1\nf 2//1 3//1 4//1\n");
    mk_report *rep = mk_fx_report();
    mk_error e;
    mk_unit *u = load(d, MK_OK, rep, &e);
    const mk_diagnostic *g = find_diag(rep, MK_CHECK_QUAD_DIAGONAL);
    CHECK(g && g->severity == MK_SEVERITY_WARNING);
    if (g) {
        CHECK_CONTAINS(g->file, "Idle_2.obj");
        CHECK_EQ_INT(g->line, 6);
        CHECK_CONTAINS(g->message, "1 quad is split along the other diagonal");
    }
    if (u) { /* the first frame's triangles: (1 2 3) (1 3 4) by source v */
        const uint32_t want[6] = {0, 1, 2, 0, 2, 3};
        for (int c = 0; c < 6; c++)
            CHECK_EQ_INT(u->source_index[u->frames->indices[c]], want[c]);
        /* frame 2's v 3 was read through the remap */
        uint32_t v3 = u->frames->indices[2];
        CHECK(mk_frame_set_positions(u->frames, 1)[3 * v3 + 2] == 0.5f);
    }
    mk_unit_destroy(u);
    mk_report_destroy(rep);
}

/* A degenerate triangle (`f 1 1 4`, a repeated vertex) next to a real one
 * is not half of a quad: the flipped-diagonal check must not take the
 * repeated vertex for both ends of a shared edge (it then read past its
 * two-entry edge list; found by the unit fuzzer). The frames differ, so
 * this is a topology error and no diagonal warning. */
static void test_flip_check_ignores_degenerate_triangles(void)
{
    const char *d = mk_fx_dir("val_flip_degenerate");
    mk_fx_write(d, "Idle_1.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 1 4\n");
    /* the same four vertices as two other triangles sharing edge 1-2 */
    mk_fx_write(d, "Idle_2.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 2 3 1\nf 1 4 2\n");
    mk_report *rep = mk_fx_report();
    mk_error e;
    load(d, MK_ERR_MISMATCH, rep, &e);
    CHECK(find_diag(rep, MK_CHECK_QUAD_DIAGONAL) == NULL);
    const mk_diagnostic *g = find_diag(rep, MK_CHECK_TOPOLOGY);
    CHECK(g != NULL);
    if (g) {
        CHECK_CONTAINS(g->file, "Idle_2.obj");
        CHECK_EQ_INT(g->line, 5);
        CHECK_CONTAINS(g->message, "triangle 1 is (2 3 1) but the first frame has (1 2 3)");
    }
    mk_report_destroy(rep);
}

/* A 7 x 7 grid with uv; `shift` moves it, `swap` exchanges two v lines. */
static char *grid_obj(float shift, int swap_a, int swap_b, float uv_shift, float scale)
{
    static char buf[16384];
    size_t n = 0;
    const int W = 7;
    for (int i = 0; i < W * W; i++) {
        int k = i == swap_a ? swap_b : i == swap_b ? swap_a : i;
        float x = (float)(k % W) * scale + shift, y = (float)(k / W) * scale;
        n += (size_t)snprintf(buf + n, sizeof buf - n, "v %g %g %g\n", x, y,
                              0.05 * ((k * 7) % 5));
    }
    for (int i = 0; i < W * W; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "vt %g %g\n",
                              (i % W) / 6.0 + (i == 10 ? uv_shift : 0), (i / W) / 6.0);
    for (int y = 0; y + 1 < W; y++)
        for (int x = 0; x + 1 < W; x++) {
            int a = y * W + x + 1, b = a + 1, c = a + W + 1, d = a + W;
            n += (size_t)snprintf(buf + n, sizeof buf - n, "f %d/%d %d/%d %d/%d %d/%d\n", a, a, b,
                                  b, c, c, d, d);
        }
    return buf;
}

static void test_clean_motion_has_no_warnings(void)
{
    const char *d = mk_fx_dir("val_clean");
    for (int i = 1; i <= 4; i++) {
        char name[32];
        snprintf(name, sizeof name, "Slide_%d.obj", i);
        mk_fx_write(d, name, grid_obj(0.3f * (float)i, -1, -1, 0, 1.0f));
    }
    mk_report *rep = mk_fx_report();
    mk_error e;
    mk_unit *u = load(d, MK_OK, rep, &e);
    CHECK_EQ_INT(mk_report_warning_count(rep), 0);
    if (u) {
        CHECK_EQ_INT(u->position_count, 49);
        CHECK_EQ_INT(u->frames->vertex_count, 49); /* uv index = v index: no splits */
        CHECK_EQ_INT(u->frames->index_count, 36 * 6);
        CHECK(u->frames->texcoords && !u->frames->normals);
    }
    mk_unit_destroy(u);
    mk_report_destroy(rep);
}

static void test_scramble_warning_names_vertices(void)
{
    const char *d = mk_fx_dir("val_scramble");
    mk_fx_write(d, "Walk_1.obj", grid_obj(0, -1, -1, 0, 1.0f));
    mk_fx_write(d, "Walk_2.obj", grid_obj(0.1f, -1, -1, 0, 1.0f));
    mk_fx_write(d, "Walk_3.obj", grid_obj(0.2f, 8, 40, 0, 1.0f)); /* v 9 and v 41 swapped */
    mk_report *rep = mk_fx_report();
    mk_error e;
    mk_unit *u = load(d, MK_OK, rep, &e);
    CHECK(u != NULL);
    const mk_diagnostic *g = find_diag(rep, MK_CHECK_SCRAMBLE);
    CHECK(g != NULL);
    if (g) {
        CHECK_CONTAINS(g->file, "Walk_3.obj");
        CHECK_CONTAINS(g->other_file, "Walk_2.obj");
        CHECK_CONTAINS(g->message, "around v 9, 41:");
    }
    CHECK_EQ_INT(mk_report_warning_count(rep), 1);
    mk_unit_destroy(u);
    mk_report_destroy(rep);
}

static void test_uv_change_and_jump_warnings(void)
{
    const char *d = mk_fx_dir("val_uv");
    mk_fx_write(d, "Idle_1.obj", grid_obj(0, -1, -1, 0, 1.0f));
    mk_fx_write(d, "Idle_2.obj", grid_obj(0, -1, -1, 0.25f, 1.0f));
    mk_report *rep = mk_fx_report();
    mk_error e;
    mk_unit *u = load(d, MK_OK, rep, &e);
    const mk_diagnostic *g = find_diag(rep, MK_CHECK_UV_CHANGE);
    CHECK(g && strstr(g->file, "Idle_2.obj") && strstr(g->message, "v 11"));
    CHECK(find_diag(rep, MK_CHECK_JUMP) == NULL);
    mk_unit_destroy(u);
    mk_report_clear(rep);

    d = mk_fx_dir("val_jump");
    mk_fx_write(d, "Run_1.obj", grid_obj(0, -1, -1, 0, 1.0f));
    mk_fx_write(d, "Run_2.obj", grid_obj(0.1f, -1, -1, 0, 1.0f));
    mk_fx_write(d, "Run_3.obj", grid_obj(20.0f, -1, -1, 0, 1.0f)); /* moved far away */
    mk_fx_write(d, "Run_4.obj", grid_obj(0.3f, -1, -1, 0, 1.0f));
    mk_fx_write(d, "Run_5.obj", grid_obj(0.4f, -1, -1, 0, 100.0f)); /* 100x scale */
    u = load(d, MK_OK, rep, &e);
    int moved = 0, scaled = 0;
    for (uint32_t i = 0; i < mk_report_count(rep); i++) {
        const mk_diagnostic *x = mk_report_item(rep, i);
        if (x->check == MK_CHECK_JUMP && strstr(x->file, "Run_3.obj") && strstr(x->message, "centre"))
            moved++;
        if (x->check == MK_CHECK_JUMP && strstr(x->file, "Run_5.obj") && strstr(x->message, "over twice"))
            scaled++;
    }
    CHECK_EQ_INT(moved, 1);
    CHECK_EQ_INT(scaled, 1);
    mk_unit_destroy(u);
    mk_report_destroy(rep);
}

static void test_missing_normals_in_one_frame(void)
{
    const char *d = mk_fx_dir("val_nonormals");
    mk_fx_write(d, "Idle_1.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nvn 0 0 1\nf 1//1 2//1 3//1\n");
    mk_fx_write(d, "Idle_2.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 3\n");
    mk_report *rep = mk_fx_report();
    mk_error e;
    mk_unit *u = load(d, MK_OK, rep, &e);
    CHECK(find_diag(rep, MK_CHECK_NORMALS) != NULL);
    CHECK(u && u->frames->normals == NULL);
    mk_unit_destroy(u);
    mk_report_destroy(rep);
}

static void test_config_errors_reported_with_frames(void)
{
    const char *d = mk_fx_dir("val_cfg");
    mk_fx_write(d, "Idle_1.obj", QUAD);
    mk_fx_write(d, "Idle_2.obj", QUAD);
    mk_fx_write(d, "Walk_1.obj", QUAD);
    mk_fx_write(d, "animation.cfg", "# demo\nFrameTime Idle 120\nDuration Idle 3 50\nLoop Run 1\n");
    mk_report *rep = mk_fx_report();
    mk_error e;
    load(d, MK_ERR_PARSE, rep, &e);
    CHECK_EQ_INT(mk_report_error_count(rep), 2); /* frame 3 and animation Run do not exist */
    CHECK_CONTAINS(e.file, "animation.cfg");
    CHECK_EQ_INT(e.line, 3);
    if (mk_report_count(rep) == 2) {
        CHECK(mk_report_item(rep, 0)->check == MK_CHECK_CONFIG && mk_report_item(rep, 0)->line == 3);
        CHECK(mk_report_item(rep, 1)->check == MK_CHECK_CONFIG && mk_report_item(rep, 1)->line == 4);
        CHECK_CONTAINS(mk_report_item(rep, 1)->message, "Run");
    }
    mk_report_clear(rep);

    /* a good config gives the unit its clips */
    mk_fx_write(d, "animation.cfg", "FrameTime Idle 120\nOnce Walk\n");
    mk_unit *u = load(d, MK_OK, rep, &e);
    if (u) {
        CHECK(u->clips != NULL);
        CHECK_EQ_INT(u->clips->clip_count, 2);
        CHECK_EQ_INT(mk_clip_set_find(u->clips, "Walk"), 1);
    }
    mk_unit_destroy(u);
    mk_report_destroy(rep);
}

/* ---- the report object ------------------------------------------------------ */

static void test_report_lifecycle_frees_everything(void)
{
    mk_fx_counter c = {0, 0, 0, -1, 0};
    mk_allocator a = mk_fx_counter_allocator(&c);
    mk_report *r = NULL;
    mk_error e;
    CHECK(mk_report_create(&a, &r, &e) == MK_OK && r != NULL);
    CHECK_EQ_INT(c.blocks, 1);
    CHECK_EQ_INT(mk_report_count(r), 0);
    CHECK(mk_report_item(r, 0) == NULL);
    /* 20 items: the item array grows (8, 16, 32) and the old blocks go back */
    for (int i = 0; i < 20; i++)
        CHECK(mk_report_add(r, i % 4 ? MK_SEVERITY_WARNING : MK_SEVERITY_ERROR, MK_CHECK_JUMP,
                            "a.obj", i + 1, i == 3 ? "b.obj" : NULL, 7, "item %d", i));
    CHECK_EQ_INT(c.blocks, 2);
    CHECK_EQ_INT(mk_report_count(r), 20);
    CHECK_EQ_INT(mk_report_error_count(r), 5);
    CHECK_EQ_INT(mk_report_warning_count(r), 15);
    CHECK_EQ_INT(mk_report_dropped_count(r), 0);
    const mk_diagnostic *d = mk_report_item(r, 3);
    CHECK(d && d->severity == MK_SEVERITY_WARNING && d->check == MK_CHECK_JUMP && d->line == 4 &&
          d->other_line == 7 && strcmp(d->other_file, "b.obj") == 0 &&
          strcmp(d->message, "item 3") == 0);
    CHECK(mk_report_item(r, 19) && strcmp(mk_report_item(r, 19)->other_file, "") == 0);
    CHECK(mk_report_item(r, 20) == NULL);
    mk_report_clear(r);
    CHECK_EQ_INT(c.blocks, 1); /* only the report itself is left */
    CHECK(mk_report_count(r) == 0 && mk_report_error_count(r) == 0 &&
          mk_report_warning_count(r) == 0 && mk_report_item(r, 0) == NULL);
    CHECK(mk_report_add(r, MK_SEVERITY_ERROR, MK_CHECK_FILE, NULL, 0, NULL, 0, "again"));
    CHECK(mk_report_count(r) == 1 && strcmp(mk_report_item(r, 0)->file, "") == 0);
    mk_report_destroy(r);
    CHECK_EQ_INT(c.blocks, 0);
    CHECK_EQ_INT(c.bytes, 0);
    CHECK_EQ_INT(c.size_mismatches, 0);
    mk_report_destroy(NULL);
    mk_report_clear(NULL);
}

static void test_report_out_of_memory_and_misuse(void)
{
    mk_fx_counter c = {0, 0, 0, 0, 0};
    mk_allocator a = mk_fx_counter_allocator(&c);
    mk_report *r = (mk_report *)&c;
    mk_error e;
    CHECK(mk_report_create(&a, &r, &e) == MK_ERR_OUT_OF_MEMORY);
    CHECK(r == NULL && c.blocks == 0);
    CHECK(mk_report_create(NULL, NULL, &e) == MK_ERR_INVALID_ARGUMENT);

    /* the report itself fits, its first item array does not: counted, dropped */
    c.fail_after = 1;
    CHECK(mk_report_create(&a, &r, &e) == MK_OK);
    CHECK(!mk_report_add(r, MK_SEVERITY_ERROR, MK_CHECK_FILE, "x", 1, NULL, 0, "lost"));
    CHECK_EQ_INT(mk_report_count(r), 0);
    CHECK_EQ_INT(mk_report_error_count(r), 1);
    CHECK_EQ_INT(mk_report_dropped_count(r), 1);
    mk_report_destroy(r);
    CHECK_EQ_INT(c.blocks, 0);

    /* NULL answers 0 / NULL / false, never a crash */
    CHECK(mk_report_count(NULL) == 0 && mk_report_error_count(NULL) == 0 &&
          mk_report_warning_count(NULL) == 0 && mk_report_dropped_count(NULL) == 0 &&
          mk_report_item(NULL, 0) == NULL);
    CHECK(!mk_report_add(NULL, MK_SEVERITY_ERROR, MK_CHECK_FILE, "x", 1, NULL, 0, "x"));
}

static void test_report_caps_stored_items(void)
{
    mk_report *r = mk_fx_report();
    for (int i = 0; i < MK_REPORT_MAX_ITEMS + 5; i++)
        mk_report_add(r, MK_SEVERITY_WARNING, MK_CHECK_SCRAMBLE, "f", i, NULL, 0, "w%d", i);
    CHECK_EQ_INT(mk_report_count(r), MK_REPORT_MAX_ITEMS);
    CHECK_EQ_INT(mk_report_dropped_count(r), 5);
    CHECK_EQ_INT(mk_report_warning_count(r), MK_REPORT_MAX_ITEMS + 5);
    CHECK(strcmp(mk_report_item(r, MK_REPORT_MAX_ITEMS - 1)->message, "w999") == 0);
    mk_report_destroy(r);
}

/* A report with its own allocator, filled by a failing load and read after. */
static void test_report_items_after_failed_load(void)
{
    const char *d = mk_fx_dir("val_report");
    mk_fx_write(d, "Idle_1.obj", QUAD);
    mk_fx_write(d, "Idle_2.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 3\n");
    mk_fx_write(d, "Idle_3.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 4\nf 1 3 4\n");
    mk_fx_counter c = {0, 0, 0, -1, 0};
    mk_allocator a = mk_fx_counter_allocator(&c);
    mk_report *r = NULL;
    mk_error e;
    CHECK(mk_report_create(&a, &r, &e) == MK_OK);
    CHECK(load(d, MK_ERR_MISMATCH, r, &e) == NULL);
    CHECK_EQ_INT(mk_report_error_count(r), 2);
    CHECK_EQ_INT(mk_report_count(r), 2);
    const mk_diagnostic *x = mk_report_item(r, 0), *y = mk_report_item(r, 1);
    CHECK(x && x->check == MK_CHECK_VERTEX_COUNT && strstr(x->file, "Idle_2.obj"));
    CHECK(y && y->check == MK_CHECK_TOPOLOGY && strstr(y->file, "Idle_3.obj") && y->line == 5);
    /* a second load appends; err names the first error of this load */
    CHECK(load(d, MK_ERR_MISMATCH, r, &e) == NULL);
    CHECK_EQ_INT(mk_report_count(r), 4);
    CHECK_CONTAINS(e.file, "Idle_2.obj");
    mk_report_destroy(r);
    CHECK_EQ_INT(c.blocks, 0);
    CHECK_EQ_INT(c.size_mismatches, 0);
}

MK_TEST_MAIN(MK_TEST(test_config_errors_reported_with_frames), MK_TEST(test_discover_numbering_and_ignored_files),
             MK_TEST(test_discover_blender_padding), MK_TEST(test_discover_exporter_namings), MK_TEST(test_discover_gap_names_missing_file),
             MK_TEST(test_discover_duplicates_and_empty), MK_TEST(test_library_root_listing),
             MK_TEST(test_vertex_count_mismatch), MK_TEST(test_topology_mismatch_names_lines),
             MK_TEST(test_every_bad_frame_reported), MK_TEST(test_reindexed_normals_blend),
             MK_TEST(test_flipped_quad_diagonal),
             MK_TEST(test_flip_check_ignores_degenerate_triangles), MK_TEST(test_clean_motion_has_no_warnings),
             MK_TEST(test_scramble_warning_names_vertices),
             MK_TEST(test_uv_change_and_jump_warnings), MK_TEST(test_missing_normals_in_one_frame),
             MK_TEST(test_report_lifecycle_frees_everything),
             MK_TEST(test_report_out_of_memory_and_misuse), MK_TEST(test_report_caps_stored_items),
             MK_TEST(test_report_items_after_failed_load))
