/* animation.cfg: parse the directives into per-animation settings, check
 * them, then build the clip set (see anim_config.h for the grammar).
 *
 * One pass over the lines records every setting with the line it came from
 * (so "given twice" can name the earlier line and whole-animation checks can
 * point at the right directive); a second step checks what only the whole
 * file can tell (Next without Once, Next cycles, CycleTime sharing) and fills
 * the clip descriptors. With a report every error is collected, each bad
 * line skipped; without one the first error stops the parse. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "decimal.h"
#include "file_internal.h"
#include "internal.h"
#include "morphkit/anim_config.h"

#define MAX_MS 1000000000LL
#define MAX_WORDS 5 /* one more than any directive takes, to detect extras */
#define MAX_CONFIG_BYTES ((size_t)64 << 20)

typedef enum directive {
    D_FRAME_TIME, D_DURATION, D_CYCLE_TIME, D_LOOP, D_ONCE, D_NEXT, D_NO_BLEND,
    D_INTERPOLATION, D_EVENT, D_COUNT
} directive;

static const struct {
    const char *name;
    int words; /* including the keyword */
    const char *usage;
} directives[D_COUNT] = {
    {"FrameTime", 3, "FrameTime <Anim> <ms>"},
    {"Duration", 4, "Duration <Anim> <N> <ms>"},
    {"CycleTime", 3, "CycleTime <Anim> <ms>"},
    {"Loop", 3, "Loop <Anim> <N>"},
    {"Once", 2, "Once <Anim>"},
    {"Next", 3, "Next <Anim> <Other>"},
    {"NoBlend", 3, "NoBlend <Anim> <N>"},
    {"Interpolation", 3, "Interpolation <Anim> linear|step|smooth"},
    {"Event", 4, "Event <Anim> <N> <name>"},
};

/* Everything said about one animation, with the line of each setting
 * (0 = not given). Per-frame arrays point into the scratch block. */
typedef struct anim_settings {
    int frame_time_line, cycle_line, loop_line, once_line, next_line, interp_line;
    int64_t frame_time_us, cycle_us;
    uint32_t loop_frame, next;
    mk_interpolation interp;
    int64_t *duration_us; /* per frame */
    int *duration_line;
    int *no_blend_line;
} anim_settings;

typedef struct event_setting {
    uint32_t anim, frame;
    const char *name; /* into the text copy */
    int line;
} event_setting;

typedef struct parser {
    const char *file;
    const mk_unit_animation *anims;
    uint32_t anim_count;
    anim_settings *set;
    event_setting *events;
    uint32_t event_count;
    mk_report *report;
    mk_error *err;
    mk_status first;
    uint32_t error_count;
    bool *bad;          /* lenient: marks every line an error names (the report
                           keeps only MK_REPORT_MAX_ITEMS), line_count + 1 */
    size_t line_count;
} parser;

/* Records an error; returns true when parsing should go on (a report wants
 * them all). */
static bool fail(parser *ps, int line, mk_status code, const char *format, ...) MK_PRINTF(4, 5);
static bool fail(parser *ps, int line, mk_status code, const char *format, ...)
{
    char msg[MK_ERROR_MESSAGE_MAX];
    va_list args;
    va_start(args, format);
    vsnprintf(msg, sizeof msg, format, args);
    va_end(args);
    if (ps->first == MK_OK) {
        ps->first = code;
        mk_error_set(ps->err, code, ps->file, line, "%s", msg);
    }
    ps->error_count++;
    if (ps->bad && line > 0 && (size_t)line <= ps->line_count)
        ps->bad[line] = true;
    if (ps->report)
        mk_report_add(ps->report, MK_SEVERITY_ERROR, MK_CHECK_CONFIG, ps->file, line, NULL, 0,
                      "%s", msg);
    return ps->report != NULL;
}

static uint32_t find_anim(const parser *ps, const char *name)
{
    for (uint32_t i = 0; i < ps->anim_count; i++)
        if (strcmp(ps->anims[i].name, name) == 0)
            return i;
    return MK_NONE;
}

/* "no animation 'X' in this unit (it has: A, B, C)", names cut to fit. */
static bool fail_no_anim(parser *ps, int line, const char *name)
{
    char list[256];
    size_t at = 0;
    list[0] = '\0';
    for (uint32_t i = 0; i < ps->anim_count && at + 1 < sizeof list; i++) {
        int n = snprintf(list + at, sizeof list - at, "%s%s", i ? ", " : "", ps->anims[i].name);
        if (n < 0 || (size_t)n >= sizeof list - at) {
            snprintf(list + at, sizeof list - at, ", ...");
            break;
        }
        at += (size_t)n;
    }
    return fail(ps, line, MK_ERR_NOT_FOUND, "no animation '%s' in this unit (it has: %s)", name,
                list);
}

/* Digits only (no sign, point or exponent); false on anything else or a
 * value above max. */
static bool parse_whole(const char *s, long long max, long long *out)
{
    const char *end = s + strlen(s);
    mk_decimal d;
    uint64_t v;
    if (mk_decimal_scan(s, end, MK_DECIMAL_WHOLE, &d) != end || !mk_decimal_uint(&d, (uint64_t)max, &v))
        return false;
    *out = (long long)v;
    return true;
}

static bool parse_ms(parser *ps, int line, const char *word, int64_t *out_us, bool *ok)
{
    long long v = 0; /* set by parse_whole on success; gcc -Os cannot see that */
    *ok = parse_whole(word, MAX_MS, &v) && v >= 1;
    if (!*ok)
        return fail(ps, line, MK_ERR_PARSE,
                    "expected a positive whole number of milliseconds (1 to %lld), got '%s'",
                    MAX_MS, word);
    *out_us = (int64_t)v * 1000;
    return true;
}

/* A frame number as in the file names -> clip-local index. */
static bool parse_frame(parser *ps, int line, uint32_t anim, const char *word, uint32_t *out,
                        bool *ok)
{
    const mk_unit_animation *a = &ps->anims[anim];
    long long v;
    *ok = false;
    if (!parse_whole(word, 0xffffffffLL, &v))
        return fail(ps, line, MK_ERR_PARSE, "expected a frame number of '%s', got '%s'", a->name,
                    word);
    if ((uint64_t)v < a->first_number || (uint64_t)v - a->first_number >= a->frame_count)
        return fail(ps, line, MK_ERR_NOT_FOUND,
                    "animation '%s' has no frame %lld (its frames are %u to %llu)", a->name, v,
                    a->first_number, (unsigned long long)a->first_number + a->frame_count - 1);
    *out = (uint32_t)(v - a->first_number);
    *ok = true;
    return true;
}

/* A setting given once only: false (after reporting) when already given. */
static bool once_only(parser *ps, int line, int *slot, const char *what, const char *anim,
                      bool *keep_going)
{
    if (*slot) {
        *keep_going = fail(ps, line, MK_ERR_INVALID_ARGUMENT,
                           "%s for '%s' is already given on line %d", what, anim, *slot);
        return false;
    }
    *slot = line;
    return true;
}

/* Handles one line's words; returns false to stop the parse. */
static bool parse_line(parser *ps, int line, char **w, int nw)
{
    directive d = D_COUNT;
    for (int i = 0; i < D_COUNT; i++)
        if (strcasecmp(w[0], directives[i].name) == 0)
            d = (directive)i;
    if (d == D_COUNT)
        return fail(ps, line, MK_ERR_PARSE,
                    "unknown directive '%s' (expected FrameTime, Duration, CycleTime, Loop, "
                    "Once, Next, NoBlend, Interpolation or Event)",
                    w[0]);
    if (nw != directives[d].words)
        return fail(ps, line, MK_ERR_PARSE, "wrong word count: expected '%s'",
                    directives[d].usage);
    const uint32_t ai = find_anim(ps, w[1]);
    if (ai == MK_NONE)
        return fail_no_anim(ps, line, w[1]);
    anim_settings *s = &ps->set[ai];
    const char *an = ps->anims[ai].name;
    bool ok, go = true;
    uint32_t f;
    int64_t us = 0; /* set by parse_ms when it succeeds; 0 quiets -O3 flow analysis */
    switch (d) {
    case D_FRAME_TIME:
        if (!parse_ms(ps, line, w[2], &us, &ok) || !ok)
            return ok || ps->report;
        if (once_only(ps, line, &s->frame_time_line, "FrameTime", an, &go))
            s->frame_time_us = us;
        return go;
    case D_CYCLE_TIME:
        if (!parse_ms(ps, line, w[2], &us, &ok) || !ok)
            return ok || ps->report;
        if (once_only(ps, line, &s->cycle_line, "CycleTime", an, &go))
            s->cycle_us = us;
        return go;
    case D_DURATION:
        if (!parse_frame(ps, line, ai, w[2], &f, &ok) || !ok)
            return ok || ps->report;
        if (!parse_ms(ps, line, w[3], &us, &ok) || !ok)
            return ok || ps->report;
        if (s->duration_line[f])
            return fail(ps, line, MK_ERR_INVALID_ARGUMENT,
                        "Duration of frame %s of '%s' is already given on line %d", w[2], an,
                        s->duration_line[f]);
        s->duration_line[f] = line;
        s->duration_us[f] = us;
        return true;
    case D_LOOP:
        if (!parse_frame(ps, line, ai, w[2], &f, &ok) || !ok)
            return ok || ps->report;
        if (once_only(ps, line, &s->loop_line, "Loop", an, &go))
            s->loop_frame = f;
        return go;
    case D_ONCE:
        once_only(ps, line, &s->once_line, "Once", an, &go);
        return go;
    case D_NEXT: {
        const uint32_t other = find_anim(ps, w[2]);
        if (other == MK_NONE)
            return fail_no_anim(ps, line, w[2]);
        if (once_only(ps, line, &s->next_line, "Next", an, &go))
            s->next = other;
        return go;
    }
    case D_NO_BLEND:
        if (!parse_frame(ps, line, ai, w[2], &f, &ok) || !ok)
            return ok || ps->report;
        if (s->no_blend_line[f])
            return fail(ps, line, MK_ERR_INVALID_ARGUMENT,
                        "NoBlend of frame %s of '%s' is already given on line %d", w[2], an,
                        s->no_blend_line[f]);
        s->no_blend_line[f] = line;
        return true;
    case D_INTERPOLATION: {
        mk_interpolation m;
        if (strcasecmp(w[2], "linear") == 0)
            m = MK_INTERPOLATION_LINEAR;
        else if (strcasecmp(w[2], "step") == 0)
            m = MK_INTERPOLATION_STEP;
        else if (strcasecmp(w[2], "smooth") == 0)
            m = MK_INTERPOLATION_SMOOTH;
        else
            return fail(ps, line, MK_ERR_PARSE, "expected linear, step or smooth, got '%s'", w[2]);
        if (once_only(ps, line, &s->interp_line, "Interpolation", an, &go))
            s->interp = m;
        return go;
    }
    case D_EVENT:
        if (!parse_frame(ps, line, ai, w[2], &f, &ok) || !ok)
            return ok || ps->report;
        for (uint32_t e = 0; e < ps->event_count; e++) {
            const event_setting *o = &ps->events[e];
            if (o->anim == ai && o->frame == f && strcmp(o->name, w[3]) == 0)
                return fail(ps, line, MK_ERR_INVALID_ARGUMENT,
                            "Event '%s' on frame %s of '%s' is already given on line %d", w[3],
                            w[2], an, o->line);
        }
        ps->events[ps->event_count++] = (event_setting){ai, f, w[3], line};
        return true;
    case D_COUNT:
        break;
    }
    return true;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Splits the (writable, NUL-terminated) text into lines and words. */
static void parse_text(parser *ps, char *text)
{
    int line = 0;
    char *p = text;
    while (*p || line == 0) {
        line++;
        char *end = strchr(p, '\n');
        char *next = end ? end + 1 : p + strlen(p);
        if (end)
            *end = '\0';
        char *hash = strchr(p, '#');
        if (hash)
            *hash = '\0';
        char *w[MAX_WORDS];
        int nw = 0;
        for (char *q = p; *q;) {
            while (*q && is_blank(*q))
                q++;
            if (!*q)
                break;
            char *start = q;
            while (*q && !is_blank(*q))
                q++;
            if (*q)
                *q++ = '\0';
            if (nw < MAX_WORDS)
                w[nw] = start;
            nw++;
        }
        if (nw > MAX_WORDS)
            nw = MAX_WORDS; /* still "too many" for every directive */
        if (nw > 0 && !parse_line(ps, line, w, nw))
            return;
        if (!end)
            break;
        p = next;
    }
}

/* Whole-file checks and the durations; returns false to stop. */
static bool check_anim(parser *ps, uint32_t ai)
{
    anim_settings *s = &ps->set[ai];
    const mk_unit_animation *a = &ps->anims[ai];
    const uint32_t n = a->frame_count;
    if (s->next_line && !s->once_line &&
        !fail(ps, s->next_line, MK_ERR_INVALID_ARGUMENT,
              "Next needs '%s' to be Once (add 'Once %s')", a->name, a->name))
        return false;
    if (s->loop_line && s->once_line &&
        !fail(ps, s->loop_line > s->once_line ? s->loop_line : s->once_line,
              MK_ERR_INVALID_ARGUMENT, "'%s' has both Loop (line %d) and Once (line %d)",
              a->name, s->loop_line, s->once_line))
        return false;
    if (s->cycle_line && s->frame_time_line) {
        int later = s->cycle_line > s->frame_time_line ? s->cycle_line : s->frame_time_line;
        return fail(ps, later, MK_ERR_INVALID_ARGUMENT,
                    "'%s' has both FrameTime (line %d) and CycleTime (line %d); give one",
                    a->name, s->frame_time_line, s->cycle_line);
    }
    /* frames that count towards the cycle: all but a held last frame */
    const uint32_t counted = (s->once_line && !s->next_line) ? n - 1 : n;
    const int64_t frame_time = s->frame_time_line ? s->frame_time_us : MK_CLIP_DEFAULT_FRAME_TIME_US;
    for (uint32_t k = 0; k < n; k++)
        if (!s->duration_line[k])
            s->duration_us[k] = frame_time;
    if (!s->cycle_line)
        return true;
    int64_t given = 0;
    uint32_t shared = 0;
    for (uint32_t k = 0; k < counted; k++) {
        if (s->duration_line[k])
            given += s->duration_us[k];
        else
            shared++;
    }
    const int64_t left = s->cycle_us - given;
    if (shared == 0) {
        if (left != 0)
            return fail(ps, s->cycle_line, MK_ERR_INVALID_ARGUMENT,
                        "CycleTime of '%s' is %lld ms but its frames' Durations add up to "
                        "%lld ms",
                        a->name, (long long)(s->cycle_us / 1000), (long long)(given / 1000));
        return true;
    }
    if (left < (int64_t)shared)
        return fail(ps, s->cycle_line, MK_ERR_INVALID_ARGUMENT,
                    "CycleTime of '%s' (%lld ms) leaves nothing for its %u frame(s) without a "
                    "Duration (the Durations add up to %lld ms)",
                    a->name, (long long)(s->cycle_us / 1000), shared, (long long)(given / 1000));
    const int64_t each = left / shared;
    int64_t extra = left % shared; /* whole microseconds, one each to the first frames */
    for (uint32_t k = 0; k < counted; k++) {
        if (s->duration_line[k])
            continue;
        s->duration_us[k] = each + (extra > 0 ? 1 : 0);
        extra--;
    }
    return true;
}

/* Next cycles: all members are Once (Next needs Once), so play never settles
 * into a looping or held animation. Reported once per cycle, at the Next line
 * of its lowest-numbered member. */
static bool check_next_cycles(parser *ps)
{
    for (uint32_t i = 0; i < ps->anim_count; i++) {
        uint32_t a = i, steps = 0;
        bool lowest = true;
        while (ps->set[a].next_line && steps <= ps->anim_count) {
            a = ps->set[a].next;
            steps++;
            if (a == i)
                break;
            if (a < i)
                lowest = false;
        }
        if (a != i || steps == 0 || !lowest)
            continue;
        /* A0 -> A1 -> A0; a long cycle is cut as A0 -> A1 -> ... -> A0 */
        char chain[256];
        const size_t tail = strlen(ps->anims[i].name) + sizeof "... -> ";
        size_t at = 0;
        uint32_t b = i;
        bool cut = false;
        do {
            size_t len = strlen(ps->anims[b].name) + 4;
            if (b != i && at + len + tail > sizeof chain) {
                cut = true;
                break;
            }
            snprintf(chain + at, sizeof chain - at, "%s -> ", ps->anims[b].name);
            at = strlen(chain);
            b = ps->set[b].next;
        } while (b != i);
        snprintf(chain + at, sizeof chain - at, "%s%s", cut ? "... -> " : "", ps->anims[i].name);
        if (!fail(ps, ps->set[i].next_line, MK_ERR_INVALID_ARGUMENT,
                  "Next animations form a cycle with no looping animation: %s", chain))
            return false;
    }
    return true;
}

/* The name errors give the file. */
static const char *config_name(const mk_anim_config_options *options)
{
    return options && options->file_name ? options->file_name : MK_ANIM_CONFIG_FILE;
}

static mk_status parse_strict(const char *text, size_t size, const mk_unit_animation *anims,
                             uint32_t anim_count, const mk_anim_config_options *options,
                             const mk_allocator *allocator, mk_clip_set **out,
                             mk_report *report, bool *bad, mk_error *err)
{
    const mk_allocator *al = allocator;
    parser ps = {0};
    ps.file = config_name(options);
    ps.anims = anims;
    ps.anim_count = anim_count;
    ps.report = report;
    ps.err = err;
    ps.bad = bad;
    if (anim_count == 0 || !anims)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, ps.file, 0, "the unit has no animations");
    if (size > MAX_CONFIG_BYTES)
        return mk_error_set(err, MK_ERR_LIMIT, ps.file, 0, "config larger than %zu bytes",
                            MAX_CONFIG_BYTES);

    /* scratch: settings, per-frame arrays, events (at most one a line),
     * clip descriptors, and a writable copy of the text */
    size_t frames = 0, lines = 1, total = 0, o_set, o_dur, o_dline, o_nb, o_ev, o_desc, o_bool,
           o_cev, o_text;
    for (uint32_t i = 0; i < anim_count; i++)
        if (!mk_size_add(frames, anims[i].frame_count, &frames))
            return mk_error_set(err, MK_ERR_LIMIT, ps.file, 0, "too many frames");
    for (size_t i = 0; i < size; i++)
        lines += text[i] == '\n';
    ps.line_count = lines;
    if (!mk_layout_add(&total, anim_count, sizeof(anim_settings), &o_set) ||
        !mk_layout_add(&total, frames, sizeof(int64_t), &o_dur) ||
        !mk_layout_add(&total, frames, sizeof(int), &o_dline) ||
        !mk_layout_add(&total, frames, sizeof(int), &o_nb) ||
        !mk_layout_add(&total, lines, sizeof(event_setting), &o_ev) ||
        !mk_layout_add(&total, anim_count, sizeof(mk_clip_desc), &o_desc) ||
        !mk_layout_add(&total, frames, sizeof(bool), &o_bool) ||
        !mk_layout_add(&total, lines, sizeof(mk_clip_event_desc), &o_cev) ||
        !mk_layout_add(&total, size + 1, 1, &o_text))
        return mk_error_set(err, MK_ERR_LIMIT, ps.file, 0, "config too large");
    char *block = mk_alloc(al, total);
    if (!block)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, ps.file, 0, "out of memory");
    memset(block, 0, total);
    ps.set = (anim_settings *)(block + o_set);
    ps.events = (event_setting *)(block + o_ev);
    size_t at = 0;
    for (uint32_t i = 0; i < anim_count; i++) {
        ps.set[i].duration_us = (int64_t *)(block + o_dur) + at;
        ps.set[i].duration_line = (int *)(block + o_dline) + at;
        ps.set[i].no_blend_line = (int *)(block + o_nb) + at;
        at += anims[i].frame_count;
    }
    char *copy = block + o_text;
    if (size)
        memcpy(copy, text, size);
    copy[size] = '\0';
    /* a UTF-8 byte order mark (Windows editors) would glue onto the first word */
    if (size >= 3 && memcmp(copy, "\xEF\xBB\xBF", 3) == 0)
        memset(copy, ' ', 3);
    /* an embedded NUL would end the text early: treat it as an error */
    if (strlen(copy) != size) {
        /* every line with one (a report wants them all; lenient drops
           them all in one pass) */
        int line = 1;
        bool go = true, named = false;
        for (size_t i = 0; i < size && go; i++) {
            if (copy[i] == '\0' && !named) {
                go = fail(&ps, line, MK_ERR_PARSE, "a NUL byte (this is not a text file)");
                named = true;
            }
            if (copy[i] == '\n') {
                line++;
                named = false;
            }
        }
    } else {
        parse_text(&ps, copy);
    }

    bool go = ps.first == MK_OK || report;
    for (uint32_t i = 0; go && i < anim_count; i++)
        go = check_anim(&ps, i);
    if (go)
        check_next_cycles(&ps);

    mk_status st = ps.first;
    if (st == MK_OK) {
        mk_clip_desc *desc = (mk_clip_desc *)(block + o_desc);
        bool *no_blend = (bool *)(block + o_bool);
        mk_clip_event_desc *cev = (mk_clip_event_desc *)(block + o_cev);
        at = 0;
        for (uint32_t i = 0; i < anim_count; i++) {
            const anim_settings *s = &ps.set[i];
            mk_clip_desc *d = &desc[i];
            d->name = anims[i].name;
            d->frame_count = anims[i].frame_count;
            d->first_frame = anims[i].first_frame;
            d->durations_us = s->duration_us;
            d->loop_frame = s->loop_frame;
            d->once = s->once_line != 0;
            d->next = s->next_line ? anims[s->next].name : NULL;
            d->no_blend = no_blend + at;
            for (uint32_t k = 0; k < anims[i].frame_count; k++)
                no_blend[at + k] = s->no_blend_line[k] != 0;
            d->interpolation = s->interp;
            d->events = cev;
            for (uint32_t e = 0; e < ps.event_count; e++)
                if (ps.events[e].anim == i)
                    cev[d->event_count++] = (mk_clip_event_desc){ps.events[e].frame,
                                                                 ps.events[e].name};
            cev += d->event_count;
            at += anims[i].frame_count;
        }
        mk_clip_set_desc sd = {desc, anim_count, options ? options->frame_set_count : 0};
        st = mk_clip_set_create(&sd, al, out, err);
    }
    mk_free(al, block, total);
    return st;
}

/* Blanks line `line` (1-based) of text, whose lines start at starts[0 ..
 * line_count); false when the text has no such line or it is already
 * blank. The starts are found once: finding each line from the top made
 * a file with thousands of bad lines take seconds (found by fuzz_repair). */
static bool blank_line(char *text, size_t size, const size_t *starts, size_t line_count, int line)
{
    if (line < 1 || (size_t)line > line_count)
        return false;
    bool changed = false;
    for (size_t i = starts[line - 1]; i < size && text[i] != '\n'; i++) {
        changed = changed || text[i] != ' ';
        text[i] = ' ';
    }
    return changed;
}

/* Lenient: parse, drop every line an error names, parse again; the errors
 * become warnings. Whole-file errors name a line too (the later of two
 * conflicting settings, the Next of a cycle), so each pass removes at least
 * one line; when none is left to remove the defaults stand. */
static mk_status parse_lenient(const char *text, size_t size, const mk_unit_animation *anims,
                               uint32_t anim_count, const mk_anim_config_options *options,
                               const mk_allocator *al, mk_clip_set **out, mk_report *report,
                               mk_error *err)
{
    char *copy = mk_alloc(al, size ? size : 1);
    if (!copy)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, options ? options->file_name : NULL, 0,
                            "out of memory");
    if (size)
        memcpy(copy, text, size);
    size_t line_count = 1;
    for (size_t i = 0; i < size; i++)
        line_count += copy[i] == '\n';
    size_t *starts = mk_alloc(al, line_count * sizeof *starts);
    bool *bad = mk_alloc(al, line_count + 1);
    mk_report *pass = NULL;
    mk_status st = starts && bad ? mk_report_create(al, &pass, err)
                                 : mk_error_set(err, MK_ERR_OUT_OF_MEMORY,
                                                options ? options->file_name : NULL, 0,
                                                "out of memory");
    if (st != MK_OK) {
        mk_free(al, bad, bad ? line_count + 1 : 0);
        mk_free(al, starts, line_count * sizeof *starts);
        mk_free(al, copy, size ? size : 1);
        return st;
    }
    starts[0] = 0;
    for (size_t i = 0, l = 1; i < size; i++)
        if (copy[i] == '\n')
            starts[l++] = i + 1;
    for (;;) {
        mk_report_clear(pass);
        memset(bad, 0, line_count + 1);
        st = parse_strict(copy, size, anims, anim_count, options, al, out, pass, bad, err);
        bool dropped = false;
        for (uint32_t i = 0; st != MK_OK && i < mk_report_count(pass); i++) {
            const mk_diagnostic *d = mk_report_item(pass, i);
            if (d->line > 0 && blank_line(copy, size, starts, line_count, d->line)) {
                dropped = true;
                if (report)
                    mk_report_add(report, MK_SEVERITY_WARNING, MK_CHECK_CONFIG, d->file, d->line,
                                  NULL, 0, "%s (line ignored)", d->message);
            }
        }
        /* lines past the pass report's cap go too: one pass per thousand
           bad lines made a large broken file take minutes */
        for (size_t l = 1; st != MK_OK && l <= line_count; l++)
            if (bad[l] && blank_line(copy, size, starts, line_count, (int)l)) {
                dropped = true;
                if (report)
                    mk_report_add(report, MK_SEVERITY_WARNING, MK_CHECK_CONFIG,
                                  config_name(options), (int)l, NULL, 0,
                                  "an error past the first %d reported (line ignored)",
                                  MK_REPORT_MAX_ITEMS);
            }
        bool memory = st == MK_ERR_OUT_OF_MEMORY || st == MK_ERR_LIMIT;
        if (st == MK_OK || memory)
            break;
        if (!dropped) { /* nothing left to drop: every animation gets the defaults */
            if (report)
                mk_report_add(report, MK_SEVERITY_WARNING, MK_CHECK_CONFIG, err ? err->file : "",
                              err ? err->line : 0, NULL, 0, "%s (config ignored)",
                              err ? err->message : "invalid");
            st = parse_strict(NULL, 0, anims, anim_count, options, al, out, NULL, NULL, err);
            break;
        }
    }
    mk_report_destroy(pass);
    mk_free(al, bad, line_count + 1);
    mk_free(al, starts, line_count * sizeof *starts);
    mk_free(al, copy, size ? size : 1);
    return st;
}

mk_status mk_anim_config_parse(const char *text, size_t size, const mk_unit_animation *anims,
                               uint32_t anim_count, const mk_anim_config_options *options,
                               const mk_allocator *allocator, mk_clip_set **out,
                               mk_report *report, mk_error *err)
{
    if (!out || (!text && size))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "mk_anim_config_parse: out (and text, when size > 0) must not be "
                            "NULL");
    *out = NULL;
    if (options && options->lenient && size && size <= MAX_CONFIG_BYTES && anims && anim_count)
        return parse_lenient(text, size, anims, anim_count, options, allocator, out, report, err);
    return parse_strict(text, size, anims, anim_count, options, allocator, out, report, NULL,
                        err);
}

mk_status mk_anim_config_load(const mk_unit_files *files, const mk_anim_config_options *options,
                              const mk_allocator *allocator, mk_clip_set **out,
                              mk_report *report, mk_error *err)
{
    if (!files || !out)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "mk_anim_config_load: files and out must not be NULL");
    *out = NULL;
    mk_anim_config_options opts = {0};
    if (options)
        opts = *options;
    if (!files->has_config) {
        opts.file_name = MK_ANIM_CONFIG_FILE;
        return mk_anim_config_parse(NULL, 0, files->animations, files->animation_count, &opts,
                                    allocator, out, report, err);
    }
    char *path = mk_path_join(allocator, files->dir, MK_ANIM_CONFIG_FILE);
    if (!path)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, files->dir, 0, "out of memory");
    opts.file_name = path;
    void *data;
    size_t size;
    mk_status st = mk_file_read(opts.files, path, allocator, MAX_CONFIG_BYTES, &data, &size, err);
    if (st == MK_OK) {
        st = mk_anim_config_parse(data, size, files->animations, files->animation_count, &opts,
                                  allocator, out, report, err);
        mk_file_release(opts.files, allocator, data, size);
    }
    mk_strfree(allocator, path);
    return st;
}
