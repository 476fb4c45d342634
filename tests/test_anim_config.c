/* animation.cfg: every directive, the syntax rules, and one test per error
 * kind (line number and message). */
#include <stdint.h>

#include "fixtures.h"
#include "mk_test.h"
#include "morphkit/anim_config.h"

static char n_attack[] = "Attack", n_idle[] = "Idle", n_walk[] = "Walk";
/* Attack_1..4 (frames 0-3), Idle_0..2 (4-6), Walk_1..2 (7-8) */
static const mk_unit_animation anims[3] = {
    {n_attack, 1, 4, 0},
    {n_idle, 0, 3, 4},
    {n_walk, 1, 2, 7},
};

static mk_clip_set *parse_ok(const char *text)
{
    mk_clip_set *set = NULL;
    mk_error err;
    mk_status st = mk_anim_config_parse(text, text ? strlen(text) : 0, anims, 3, NULL, NULL, &set,
                                        NULL, &err);
    if (st != MK_OK) {
        fprintf(stderr, "unexpected error: %s:%d: %s\n", err.file, err.line, err.message);
        mk_test_failures++;
    }
    return set;
}

/* Parses text that must fail at `line` with a message containing `text`. */
#define EXPECT_ERROR(cfg, line_, text_)                                                  \
    do {                                                                                 \
        mk_clip_set *set_ = NULL;                                                        \
        mk_error err_;                                                                   \
        mk_status st_ = mk_anim_config_parse(cfg, strlen(cfg), anims, 3, NULL, NULL, &set_,   \
                                             NULL, &err_);                               \
        CHECK(st_ != MK_OK);                                                             \
        CHECK(set_ == NULL);                                                             \
        CHECK_EQ_INT(err_.line, (line_));                                                \
        CHECK(strcmp(err_.file, "animation.cfg") == 0);                                  \
        CHECK_CONTAINS(err_.message, text_);                                             \
    } while (0)

static void test_defaults(void)
{
    mk_clip_set *set = parse_ok(NULL);
    CHECK_EQ_INT(set->clip_count, 3);
    const mk_clip *idle = &set->clips[1];
    CHECK(strcmp(idle->name, "Idle") == 0);
    CHECK_EQ_INT(idle->frame_count, 3);
    CHECK_EQ_INT(idle->frames[0], 4);
    CHECK_EQ_INT(idle->durations_us[2], 100000);
    CHECK_EQ_INT(idle->loop_frame, 0);
    CHECK(!idle->once);
    CHECK_EQ_INT(idle->interpolation, MK_INTERPOLATION_LINEAR);
    mk_clip_set_destroy(set);
    set = parse_ok("# nothing but comments\n\n   \t\n");
    CHECK_EQ_INT(set->clips[0].durations_us[0], 100000);
    mk_clip_set_destroy(set);
}

static void test_every_directive(void)
{
    const char *cfg = "# spearman\r\n"
                      "frametime Attack 50   # every frame\r\n"
                      "DURATION Attack 3 120\r\n"
                      "Once\tAttack\n"
                      "Next Attack Idle\n"
                      "NoBlend Attack 2\n"
                      "Interpolation Idle SMOOTH\n"
                      "Loop Idle 1\n"
                      "Event Attack 3 hit\n"
                      "Event Attack 3 swoosh\n"
                      "Event Idle 0 breathe\n"
                      "interpolation Walk step\n"
                      "Duration Walk 2 7";
    mk_clip_set *set = parse_ok(cfg);
    const mk_clip *a = &set->clips[0], *i = &set->clips[1], *w = &set->clips[2];
    CHECK_EQ_INT(a->durations_us[0], 50000);
    CHECK_EQ_INT(a->durations_us[2], 120000); /* frame number 3 = clip frame 2 */
    CHECK_EQ_INT(a->durations_us[3], 50000);
    CHECK(a->once);
    CHECK_EQ_INT(a->next_clip, 1);
    CHECK_EQ_INT(a->frame_flags[1], MK_CLIP_FRAME_NO_BLEND);
    CHECK_EQ_INT(a->frame_flags[2], 0);
    CHECK_EQ_INT(a->event_count, 2);
    CHECK_EQ_INT(a->events[0].frame, 2);
    CHECK(strcmp(a->events[0].name, "hit") == 0);
    CHECK(strcmp(a->events[1].name, "swoosh") == 0);
    CHECK_EQ_INT(i->interpolation, MK_INTERPOLATION_SMOOTH);
    CHECK_EQ_INT(i->loop_frame, 1); /* Idle numbers start at 0 */
    CHECK_EQ_INT(i->event_count, 1);
    CHECK_EQ_INT(i->events[0].frame, 0);
    CHECK_EQ_INT(w->interpolation, MK_INTERPOLATION_STEP);
    CHECK_EQ_INT(w->durations_us[1], 7000);
    mk_clip_set_destroy(set);
}

static void test_cycle_time(void)
{
    /* 1000 ms, frame 2 takes 400: the other three share 600 */
    mk_clip_set *set = parse_ok("CycleTime Attack 1000\nDuration Attack 2 400\n");
    const mk_clip *a = &set->clips[0];
    CHECK_EQ_INT(a->durations_us[0], 200000);
    CHECK_EQ_INT(a->durations_us[1], 400000);
    CHECK_EQ_INT(a->durations_us[2], 200000);
    CHECK_EQ_INT(a->durations_us[3], 200000);
    CHECK_EQ_INT(a->cycle_us, 1000000);
    mk_clip_set_destroy(set);
    /* 1000 ms over 3 frames: 333 333 us each, the spare 1 us to the first */
    set = parse_ok("CycleTime Idle 1000");
    const mk_clip *i = &set->clips[1];
    CHECK_EQ_INT(i->durations_us[0], 333334);
    CHECK_EQ_INT(i->durations_us[1], 333333);
    CHECK_EQ_INT(i->durations_us[2], 333333);
    CHECK_EQ_INT(i->cycle_us, 1000000);
    mk_clip_set_destroy(set);
    /* Once without Next: the held last frame is not part of the length */
    set = parse_ok("Once Attack\nCycleTime Attack 300\n");
    a = &set->clips[0];
    CHECK_EQ_INT(a->durations_us[0], 100000);
    CHECK_EQ_INT(a->durations_us[2], 100000);
    CHECK_EQ_INT(a->length_us, 300000);
    mk_clip_set_destroy(set);
    /* Durations on every frame that add up: fine */
    set = parse_ok("CycleTime Walk 30\nDuration Walk 1 10\nDuration Walk 2 20\n");
    CHECK_EQ_INT(set->clips[2].cycle_us, 30000);
    mk_clip_set_destroy(set);
}

static void test_error_unknown_directive(void)
{
    EXPECT_ERROR("FrameTime Attack 10\n\nFramtime Attack 100\n", 3,
                 "unknown directive 'Framtime'");
}

static void test_error_word_count(void)
{
    EXPECT_ERROR("Once Attack extra\n", 1, "wrong word count: expected 'Once <Anim>'");
    EXPECT_ERROR("# c\nDuration Attack 2\n", 2, "expected 'Duration <Anim> <N> <ms>'");
    EXPECT_ERROR("Event Attack 1 two words\n", 1, "expected 'Event <Anim> <N> <name>'");
}

static void test_error_bad_milliseconds(void)
{
    static const char *bad[] = {"1.5", "0", "-5", "abc", "10ms", "1000000001", "+3"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char cfg[64];
        snprintf(cfg, sizeof cfg, "Once Idle\nFrameTime Attack %s\n", bad[k]);
        EXPECT_ERROR(cfg, 2, "expected a positive whole number of milliseconds");
        CHECK_CONTAINS(cfg, bad[k]);
    }
    EXPECT_ERROR("Duration Walk 1 0.5", 1, "got '0.5'");
    EXPECT_ERROR("\nCycleTime Walk 0", 2, "positive whole number of milliseconds");
}

static void test_error_unknown_animation(void)
{
    EXPECT_ERROR("Once Idle\nOnce Atack\n", 2, "no animation 'Atack' in this unit");
    EXPECT_ERROR("once attack\n", 1, "(it has: Attack, Idle, Walk)"); /* names: case-sensitive */
}

static void test_error_unknown_frame(void)
{
    EXPECT_ERROR("NoBlend Attack 5\n", 1, "animation 'Attack' has no frame 5 (its frames are 1 to 4)");
    EXPECT_ERROR("Loop Idle 3\n", 1, "has no frame 3 (its frames are 0 to 2)");
    EXPECT_ERROR("Event Walk 0 x\n", 1, "has no frame 0");
    EXPECT_ERROR("Duration Walk one 10\n", 1, "expected a frame number of 'Walk', got 'one'");
}

static void test_error_next(void)
{
    EXPECT_ERROR("Once Attack\nNext Attack Run\n", 2, "no animation 'Run'");
    EXPECT_ERROR("Once Idle\nNext Attack Idle\n", 2, "Next needs 'Attack' to be Once");
    EXPECT_ERROR("Once Attack\nOnce Idle\nNext Idle Attack\nNext Attack Idle\n", 4,
                 "cycle with no looping animation: Attack -> Idle -> Attack");
    EXPECT_ERROR("Once Walk\nNext Walk Walk\n", 2, "cycle with no looping animation: Walk -> Walk");
    /* a chain that ends in a looping animation is fine */
    mk_clip_set *set = parse_ok("Once Attack\nOnce Idle\nNext Attack Idle\nNext Idle Walk\n");
    mk_clip_set_destroy(set);
}

/* A cycle too long for the message is cut with "..." before its first
 * animation again, never shown as if its last link led there. */
static void test_error_long_cycle(void)
{
    enum { N = 40 };
    static char names[N][8];
    mk_unit_animation many[N];
    char cfg[N * 40];
    size_t at = 0;
    for (int a = 0; a < N; a++) {
        snprintf(names[a], sizeof names[a], "Anim%02d", a);
        many[a] = (mk_unit_animation){names[a], 1, 1, (uint32_t)a};
    }
    for (int a = 0; a < N; a++)
        at += (size_t)snprintf(cfg + at, sizeof cfg - at, "Once Anim%02d\nNext Anim%02d Anim%02d\n",
                               a, a, (a + 1) % N);
    mk_clip_set *set = NULL;
    mk_error err;
    CHECK(mk_anim_config_parse(cfg, at, many, N, NULL, NULL, &set, NULL, &err) ==
          MK_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(err.line, 2);
    CHECK_CONTAINS(err.message, "cycle with no looping animation: Anim00 -> Anim01 -> ");
    const char *end = strstr(err.message, " -> ... -> Anim00");
    CHECK(end && strlen(end) == strlen(" -> ... -> Anim00"));
    CHECK(strstr(err.message, "Anim39") == NULL); /* cut before the end */
    mk_clip_set_destroy(set);
}

static void test_error_cycle_time(void)
{
    EXPECT_ERROR("Duration Attack 1 500\nDuration Attack 2 500\nCycleTime Attack 1000\n", 3,
                 "leaves nothing for its 2 frame(s) without a Duration");
    EXPECT_ERROR("CycleTime Walk 40\nDuration Walk 1 10\nDuration Walk 2 20\n", 1,
                 "Durations add up to 30 ms");
    EXPECT_ERROR("CycleTime Attack 1000\nFrameTime Attack 10\n", 2, "both FrameTime (line 2) and CycleTime (line 1)");
}

static void test_error_given_twice(void)
{
    EXPECT_ERROR("FrameTime Attack 10\nFrameTime Attack 10\n", 2,
                 "FrameTime for 'Attack' is already given on line 1");
    EXPECT_ERROR("Once Idle\n\nONCE Idle\n", 3, "Once for 'Idle' is already given on line 1");
    EXPECT_ERROR("Duration Attack 2 10\nDuration Attack 3 10\nDuration Attack 2 20\n", 3,
                 "Duration of frame 2 of 'Attack' is already given on line 1");
    EXPECT_ERROR("NoBlend Walk 1\nNoBlend Walk 1\n", 2, "already given on line 1");
    EXPECT_ERROR("Event Walk 1 a\nEvent Walk 1 a\n", 2, "Event 'a' on frame 1 of 'Walk' is already given on line 1");
    EXPECT_ERROR("Loop Idle 1\nLoop Idle 2\n", 2, "Loop for 'Idle' is already given on line 1");
    EXPECT_ERROR("Interpolation Idle step\nInterpolation Idle step\n", 2, "already given");
    EXPECT_ERROR("Once Attack\nNext Attack Idle\nNext Attack Walk\n", 3, "Next for 'Attack' is already given on line 2");
    EXPECT_ERROR("CycleTime Idle 10\nCycleTime Idle 10\n", 2, "already given on line 1");
}

static void test_error_other(void)
{
    EXPECT_ERROR("Interpolation Idle cubic\n", 1, "expected linear, step or smooth, got 'cubic'");
    EXPECT_ERROR("Loop Idle 1\nOnce Idle\n", 2, "'Idle' has both Loop (line 1) and Once (line 2)");
    const char nul[] = "Once Idle\nOnce\0Walk\n";
    mk_clip_set *set = NULL;
    mk_error err;
    CHECK(mk_anim_config_parse(nul, sizeof nul - 1, anims, 3, NULL, NULL, &set, NULL, &err) ==
          MK_ERR_PARSE);
    CHECK_EQ_INT(err.line, 2);
    CHECK_CONTAINS(err.message, "NUL");
}

static void test_report_collects_all(void)
{
    const char *cfg = "Once Idle\n"
                      "Bogus x\n"                /* 2 */
                      "FrameTime Idle 0\n"       /* 3 */
                      "Once Idle\n"              /* 4 */
                      "Next Walk Idle\n"         /* 5: Walk is not Once (found at the end) */
                      "FrameTime Attack 10\n";
    mk_report *report = mk_fx_report();
    mk_clip_set *set = NULL;
    mk_error err;
    CHECK(mk_anim_config_parse(cfg, strlen(cfg), anims, 3, NULL, NULL, &set, report, &err) != MK_OK);
    CHECK(set == NULL);
    CHECK_EQ_INT(err.line, 2); /* the first one */
    CHECK_EQ_INT(mk_report_error_count(report), 4);
    if (mk_report_count(report) == 4) {
        CHECK_EQ_INT(mk_report_item(report, 0)->line, 2);
        CHECK_EQ_INT(mk_report_item(report, 1)->line, 3);
        CHECK_EQ_INT(mk_report_item(report, 2)->line, 4);
        CHECK_EQ_INT(mk_report_item(report, 3)->line, 5);
        CHECK_EQ_INT(mk_report_item(report, 3)->check, MK_CHECK_CONFIG);
        CHECK_EQ_INT(mk_report_item(report, 3)->severity, MK_SEVERITY_ERROR);
        CHECK_CONTAINS(mk_report_item(report, 3)->message, "Next needs 'Walk' to be Once");
        CHECK(strcmp(mk_report_item(report, 0)->file, "animation.cfg") == 0);
    }
    mk_report_destroy(report);
}

static void test_load_from_folder(void)
{
    const char *dir = mk_fx_dir("anim_config_load");
    char dir_copy[1024];
    snprintf(dir_copy, sizeof dir_copy, "%s", dir);
    mk_fx_write(dir_copy, "animation.cfg", "Once Attack\nFrameTime Walk 40\nLoop Walk 3\n");
    mk_unit_files files = {0};
    files.dir = dir_copy;
    files.animation_count = 3;
    files.animations = (mk_unit_animation *)anims;
    files.has_config = true;
    mk_clip_set *set = NULL;
    mk_error err;
    CHECK(mk_anim_config_load(&files, NULL, NULL, &set, NULL, &err) == MK_ERR_NOT_FOUND);
    CHECK_EQ_INT(err.line, 3);
    CHECK_CONTAINS(err.file, "anim_config_load/animation.cfg");
    char line[2048];
    mk_error_format(&err, line, sizeof line);
    CHECK_CONTAINS(line, "animation.cfg:3: animation 'Walk' has no frame 3");
    mk_fx_write(dir_copy, "animation.cfg", "Once Attack\nFrameTime Walk 40\n");
    CHECK_EQ_INT(mk_anim_config_load(&files, NULL, NULL, &set, NULL, &err), MK_OK);
    CHECK(set && set->clips[0].once && set->clips[2].durations_us[1] == 40000);
    mk_clip_set_destroy(set);
    files.has_config = false;
    CHECK_EQ_INT(mk_anim_config_load(&files, NULL, NULL, &set, NULL, &err), MK_OK);
    CHECK(set && !set->clips[0].once);
    mk_clip_set_destroy(set);
}

/* Lenient (viewers): each line an error names is dropped and reported as a
 * warning; what is left applies, including settings that only conflicted. */
static void test_lenient(void)
{
    const char *cfg = "FrameTime Walk 120\n"
                      "FrameTiem Idle 50\n"             /* unknown directive */
                      "Loop Walk 9\n"                   /* no frame 9 */
                      "FrameTime Attack 80\n"
                      "CycleTime Attack 400\n"          /* conflicts with line 4 */
                      "Next Idle Walk\n";               /* Next without Once */
    mk_anim_config_options o = {0};
    o.lenient = true;
    mk_report *rep = mk_fx_report();
    mk_clip_set *set = NULL;
    mk_error err;
    CHECK(mk_anim_config_parse(cfg, strlen(cfg), anims, 3, &o, NULL, &set, rep, &err) == MK_OK);
    CHECK_EQ_INT(mk_report_error_count(rep), 0);
    CHECK_EQ_INT(mk_report_warning_count(rep), 4);
    int lines[4] = {0, 0, 0, 0};
    for (uint32_t k = 0; k < mk_report_count(rep) && k < 4; k++) {
        lines[k] = mk_report_item(rep, k)->line;
        CHECK(mk_report_item(rep, k)->severity == MK_SEVERITY_WARNING);
        CHECK(mk_report_item(rep, k)->check == MK_CHECK_CONFIG);
        CHECK_CONTAINS(mk_report_item(rep, k)->message, "(line ignored)");
    }
    /* lines 2 and 3 fail on their own; 5 and 6 only in the whole-file pass */
    CHECK(lines[0] == 2 && lines[1] == 3 && lines[2] == 5 && lines[3] == 6);
    if (set) {
        CHECK_EQ_INT(set->clips[2].durations_us[0], 120000); /* Walk: line 1 */
        CHECK_EQ_INT(set->clips[0].durations_us[0], 80000);  /* Attack: line 4 stands */
        CHECK_EQ_INT(set->clips[1].durations_us[0], 100000); /* Idle: the default */
        CHECK(!set->clips[1].once && set->clips[1].next_clip == MK_NONE);
    }
    mk_clip_set_destroy(set);
    mk_report_destroy(rep);
    /* a byte order mark is skipped, strict or lenient */
    const char bom[] = "\xEF\xBB\xBF" "FrameTime Walk 70\n";
    set = parse_ok(bom);
    if (set)
        CHECK_EQ_INT(set->clips[2].durations_us[1], 70000);
    mk_clip_set_destroy(set);
    /* without a report, lenient still succeeds */
    CHECK(mk_anim_config_parse(cfg, strlen(cfg), anims, 3, &o, NULL, &set, NULL, &err) == MK_OK);
    mk_clip_set_destroy(set);
}

/* Thousands of bad lines, NUL bytes in half of them: strict names every
 * NUL line (not just the first), lenient drops them all and applies what
 * is left, the last line too. Lenient once parsed the file again for each
 * NUL line and for each thousand other errors (the report's cap), and
 * strict counted a NUL's line with strlen in a loop: a 45 KB input took
 * over a second under the fuzzer (fuzz_repair; kept in corpus/repair). */
static void test_lenient_many_bad_lines(void)
{
    enum { BAD = 1500 };
    static char cfg[64 * 2 * BAD];
    size_t n = (size_t)snprintf(cfg, sizeof cfg, "FrameTime Walk 120\n");
    static const char two[] = "Frame\0Time Idle 50\nBogus x\n"; /* lines 2k and 2k + 1 */
    for (int i = 0; i < BAD; i++) {
        memcpy(cfg + n, two, sizeof two - 1);
        n += sizeof two - 1;
    }
    n += (size_t)snprintf(cfg + n, sizeof cfg - n, "FrameTime Attack 80\n");
    mk_report *rep = mk_fx_report();
    mk_clip_set *set = NULL;
    mk_error err;
    CHECK(mk_anim_config_parse(cfg, n, anims, 3, NULL, NULL, &set, rep, &err) == MK_ERR_PARSE);
    CHECK_EQ_INT(mk_report_error_count(rep), BAD);
    CHECK_EQ_INT(err.line, 2);
    CHECK(mk_report_count(rep) == MK_REPORT_MAX_ITEMS && mk_report_item(rep, 1)->line == 4);
    mk_report_destroy(rep);
    mk_anim_config_options o = {0};
    o.lenient = true;
    rep = mk_fx_report();
    CHECK(mk_anim_config_parse(cfg, n, anims, 3, &o, NULL, &set, rep, &err) == MK_OK);
    CHECK_EQ_INT(mk_report_error_count(rep), 0);
    CHECK_EQ_INT(mk_report_warning_count(rep), 2 * BAD);
    if (set) {
        CHECK_EQ_INT(set->clips[2].durations_us[0], 120000); /* Walk: the first line */
        CHECK_EQ_INT(set->clips[0].durations_us[0], 80000);  /* Attack: the last */
        CHECK_EQ_INT(set->clips[1].durations_us[0], 100000); /* Idle: the default */
    }
    mk_clip_set_destroy(set);
    mk_report_destroy(rep);
}

MK_TEST_MAIN(MK_TEST(test_defaults), MK_TEST(test_lenient), MK_TEST(test_lenient_many_bad_lines), MK_TEST(test_every_directive), MK_TEST(test_cycle_time),
             MK_TEST(test_error_unknown_directive), MK_TEST(test_error_word_count),
             MK_TEST(test_error_bad_milliseconds), MK_TEST(test_error_unknown_animation),
             MK_TEST(test_error_unknown_frame), MK_TEST(test_error_next),
             MK_TEST(test_error_cycle_time), MK_TEST(test_error_long_cycle), MK_TEST(test_error_given_twice),
             MK_TEST(test_error_other), MK_TEST(test_report_collects_all),
             MK_TEST(test_load_from_folder))
