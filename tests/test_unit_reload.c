/* mk_unit_reload: a unit folder changed, truncated, removed from and renamed
 * under a loaded unit. The old unit must stay intact whenever the reload
 * fails; a new one comes back only when something really changed. */
#include <stdio.h>
#include <unistd.h>

#include "fixtures.h"
#include "mk_test.h"
#include "morphkit/morphkit.h"

/* Move: three frames of one triangle at z = 0, 1, 2. */
static const char *make_unit(const char *name)
{
    const char *dir = mk_fx_dir(name);
    for (int k = 0; k < 3; k++) {
        char file[32], text[128];
        snprintf(file, sizeof file, "Move_%d.obj", k + 1);
        snprintf(text, sizeof text, "v 0 0 %d\nv 1 0 %d\nv 0 1 %d\nf 1 2 3\n", k, k, k);
        mk_fx_write(dir, file, text);
    }
    mk_fx_write(dir, "animation.cfg", "FrameTime Move 100\n");
    return dir;
}

static mk_unit *load(const char *dir)
{
    mk_unit *u = NULL;
    mk_error err;
    CHECK(mk_unit_load(dir, NULL, NULL, &u, NULL, &err) == MK_OK);
    return u;
}

/* z of vertex 0 in frame f (every vertex of a frame has the same z). */
static float z_of(const mk_unit *u, uint32_t f)
{
    return mk_frame_set_positions(u->frames, f)[2];
}

static void check_still_old(const mk_unit *u)
{
    CHECK_EQ_INT(u->frames->frame_count, 3);
    CHECK(z_of(u, 0) == 0.0f && z_of(u, 1) == 1.0f && z_of(u, 2) == 2.0f);
    CHECK_EQ_INT(u->clips->clips[0].durations_us[0], 100000);
}

static void test_unchanged(void)
{
    const char *dir = make_unit("reload_same");
    mk_unit *u = load(dir), *n = (mk_unit *)1;
    bool changed = true;
    mk_error err;
    /* the files written again with the same bytes: nothing to swap */
    make_unit("reload_same");
    CHECK(mk_unit_reload(u, NULL, NULL, &n, &changed, NULL, &err) == MK_OK);
    CHECK(!changed);
    CHECK(n == NULL);
    mk_unit_destroy(u);
}

static void test_changed_frame_and_config(void)
{
    const char *dir = make_unit("reload_changed");
    mk_unit *u = load(dir), *n = NULL;
    bool changed = false;
    mk_error err;
    mk_fx_write(dir, "Move_2.obj", "v 0 0 5\nv 1 0 5\nv 0 1 5\nf 1 2 3\n");
    CHECK(mk_unit_reload(u, NULL, NULL, &n, &changed, NULL, &err) == MK_OK);
    CHECK(changed && n);
    if (n) {
        CHECK(z_of(n, 1) == 5.0f);
        CHECK(z_of(n, 0) == 0.0f && z_of(n, 2) == 2.0f);
    }
    check_still_old(u); /* the caller swaps; until then the old one is whole */
    mk_unit_destroy(u);
    u = n;
    /* a timing change alone is a change too */
    mk_fx_write(dir, "animation.cfg", "FrameTime Move 40\n");
    n = NULL;
    CHECK(mk_unit_reload(u, NULL, NULL, &n, &changed, NULL, &err) == MK_OK);
    CHECK(changed && n && n->clips->clips[0].durations_us[0] == 40000);
    mk_unit_destroy(n);
    mk_unit_destroy(u);
}

static void test_truncated_keeps_old(void)
{
    const char *dir = make_unit("reload_truncated");
    mk_unit *u = load(dir), *n = (mk_unit *)1;
    bool changed = true;
    mk_error err;
    /* every prefix of a half-written frame: a load error or, where the
     * prefix is itself a valid frame, something that is not the old unit;
     * never a crash, and the old unit never changes */
    const char *full = "v 0 0 7\nv 1 0 7\nv 0 1 7\nf 1 2 3\n";
    size_t len = strlen(full);
    for (size_t cut = 0; cut < len; cut++) {
        char part[64];
        memcpy(part, full, cut);
        part[cut] = '\0';
        mk_fx_write(dir, "Move_2.obj", part);
        mk_status st = mk_unit_reload(u, NULL, NULL, &n, &changed, NULL, &err);
        if (st != MK_OK) {
            CHECK(n == NULL && !changed);
            CHECK(err.file[0] != '\0'); /* names the file */
        } else {
            CHECK(changed && n);
            mk_unit_destroy(n);
        }
        check_still_old(u);
    }
    /* a frame cut before its face: "topology" against the first frame */
    mk_fx_write(dir, "Move_2.obj", "v 0 0 7\nv 1 0 7\nv 0 1 7\n");
    CHECK(mk_unit_reload(u, NULL, NULL, &n, &changed, NULL, &err) != MK_OK);
    CHECK(strstr(err.file, "Move_2.obj") != NULL);
    /* a broken animation.cfg: strict fails, lenient loads and warns */
    make_unit("reload_truncated");
    mk_fx_write(dir, "animation.cfg", "FrameTiem Move 100\n");
    CHECK(mk_unit_reload(u, NULL, NULL, &n, &changed, NULL, &err) == MK_ERR_PARSE);
    check_still_old(u);
    mk_unit_options lenient = {0};
    lenient.lenient_config = true;
    lenient.skip_heuristics = true; /* the frames jump on purpose: count config only */
    mk_report *rep = mk_fx_report();
    CHECK(mk_unit_reload(u, &lenient, NULL, &n, &changed, rep, &err) == MK_OK);
    CHECK_EQ_INT(mk_report_error_count(rep), 0);
    CHECK_EQ_INT(mk_report_warning_count(rep), 1);
    /* the line is ignored: the default 100 ms frames, as before: unchanged */
    CHECK(!changed && n == NULL);
    mk_report_destroy(rep);
    mk_unit_destroy(u);
}

static void test_removed_and_renamed(void)
{
    const char *dir = make_unit("reload_removed");
    mk_unit *u = load(dir), *n = NULL;
    bool changed = false;
    mk_error err;
    /* the middle frame removed: a gap, the old unit stays */
    CHECK(unlink(mk_fx_path(dir, "Move_2.obj")) == 0);
    CHECK(mk_unit_reload(u, NULL, NULL, &n, &changed, NULL, &err) == MK_ERR_NOT_FOUND);
    CHECK(strstr(err.message, "Move_2") != NULL);
    CHECK(n == NULL && !changed);
    check_still_old(u);
    /* renamed back into place (an editor's save-by-rename): loads the same */
    mk_fx_write(dir, "Move_2.tmp", "v 0 0 1\nv 1 0 1\nv 0 1 1\nf 1 2 3\n");
    CHECK(rename(mk_fx_path(dir, "Move_2.tmp"), mk_fx_path(dir, "Move_2.obj")) == 0);
    CHECK(mk_unit_reload(u, NULL, NULL, &n, &changed, NULL, &err) == MK_OK);
    CHECK(!changed && n == NULL);
    /* the last frame removed: still a valid unit, with two frames */
    CHECK(unlink(mk_fx_path(dir, "Move_3.obj")) == 0);
    CHECK(mk_unit_reload(u, NULL, NULL, &n, &changed, NULL, &err) == MK_OK);
    CHECK(changed && n && n->frames->frame_count == 2);
    mk_unit_destroy(n);
    /* the whole animation renamed Move -> Slide: a change, with the new name
     * (the config names Move, so it is ignored only when lenient) */
    CHECK(rename(mk_fx_path(dir, "Move_1.obj"), mk_fx_path(dir, "Slide_1.obj")) == 0);
    CHECK(rename(mk_fx_path(dir, "Move_2.obj"), mk_fx_path(dir, "Slide_2.obj")) == 0);
    CHECK(mk_unit_reload(u, NULL, NULL, &n, &changed, NULL, &err) != MK_OK);
    mk_unit_options lenient = {0};
    lenient.lenient_config = true;
    CHECK(mk_unit_reload(u, &lenient, NULL, &n, &changed, NULL, &err) == MK_OK);
    CHECK(changed && n && strcmp(n->clips->clips[0].name, "Slide") == 0);
    mk_unit_destroy(n);
    /* the folder itself gone */
    CHECK(unlink(mk_fx_path(dir, "Slide_1.obj")) == 0);
    CHECK(unlink(mk_fx_path(dir, "Slide_2.obj")) == 0);
    CHECK(mk_unit_reload(u, NULL, NULL, &n, &changed, NULL, &err) == MK_ERR_NOT_FOUND);
    check_still_old(u);
    mk_unit_destroy(u);
}

static void test_misuse(void)
{
    mk_unit *n;
    bool changed;
    mk_error err;
    CHECK(mk_unit_reload(NULL, NULL, NULL, &n, &changed, NULL, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    const char *dir = make_unit("reload_misuse");
    mk_unit *u = load(dir);
    CHECK(mk_unit_reload(u, NULL, NULL, NULL, &changed, NULL, &err) == MK_ERR_INVALID_ARGUMENT);
    CHECK(mk_unit_reload(u, NULL, NULL, &n, NULL, NULL, &err) == MK_ERR_INVALID_ARGUMENT);
    mk_unit_destroy(u);
}

MK_TEST_MAIN(MK_TEST(test_unchanged), MK_TEST(test_changed_frame_and_config),
             MK_TEST(test_truncated_keeps_old), MK_TEST(test_removed_and_renamed),
             MK_TEST(test_misuse))
