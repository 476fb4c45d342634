/* Naming notes from the unit loader (mk_unit_naming_notes): .obj files that
 * are not frames and animation names differing only in case are notes in
 * the report, counted neither as errors nor as warnings, in a stable order;
 * a folder that does not load still gets them. */
#include "fixtures.h"
#include "mk_test.h"
#include "morphkit/morphkit.h"

static const char tri[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";

static uint32_t notes(const mk_report *rep)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < mk_report_count(rep); i++)
        n += mk_report_item(rep, i)->severity == MK_SEVERITY_NOTE;
    return n;
}

static void test_notes(void)
{
    const char *dir = mk_fx_dir("unit_naming");
    mk_fx_write(dir, "Walk_1.obj", tri);
    mk_fx_write(dir, "Walk_2.obj", tri);
    mk_fx_write(dir, "WALK_1.obj", tri);
    mk_fx_write(dir, "walk_2 copy.obj", tri);
    mk_fx_write(dir, "base.obj", tri);
    mk_fx_write(dir, ".hidden.obj", tri);
    mk_report *rep = NULL;
    mk_error err;
    CHECK(mk_report_create(NULL, &rep, &err) == MK_OK);
    if (!rep)
        return;
    mk_unit *u = NULL;
    CHECK(mk_unit_load(dir, NULL, NULL, &u, rep, &err) == MK_OK);
    CHECK_EQ_INT(mk_report_error_count(rep), 0);
    CHECK_EQ_INT(mk_report_warning_count(rep), 0);
    CHECK_EQ_INT(notes(rep), 3);
    CHECK_EQ_INT(mk_report_count(rep), 3);
    const mk_diagnostic *d = mk_report_item(rep, 0);
    CHECK(d && d->check == MK_CHECK_NAMING && d->line == 0 && strcmp(d->file, dir) == 0);
    CHECK(d && strstr(d->message, "'base.obj' is not a frame") == d->message);
    d = mk_report_item(rep, 1);
    CHECK(d && strstr(d->message, "'walk_2 copy.obj'") != NULL);
    d = mk_report_item(rep, 2);
    CHECK(d && strstr(d->message, "'WALK' and 'Walk' differ only in case") != NULL);
    CHECK(strcmp(mk_check_name(MK_CHECK_NAMING), "naming") == 0);
    /* the same notes, asked for directly */
    mk_report_clear(rep);
    CHECK_EQ_INT(mk_unit_naming_notes(dir, u ? u->files : NULL, NULL, NULL, rep), 3);
    mk_unit_destroy(u);
    /* no frame at all: the discovery error, and the note */
    const char *bad = mk_fx_dir("unit_naming_bad");
    mk_fx_write(bad, "base.obj", tri);
    mk_report_clear(rep);
    CHECK(mk_unit_load(bad, NULL, NULL, &u, rep, &err) == MK_ERR_NOT_FOUND);
    CHECK_EQ_INT(mk_report_error_count(rep), 1);
    CHECK_EQ_INT(notes(rep), 1);
    /* misuse adds nothing */
    CHECK_EQ_INT(mk_unit_naming_notes(NULL, NULL, NULL, NULL, rep), 0);
    CHECK_EQ_INT(mk_unit_naming_notes(dir, NULL, NULL, NULL, NULL), 0);
    mk_report_destroy(rep);
}

MK_TEST_MAIN(MK_TEST(test_notes))
