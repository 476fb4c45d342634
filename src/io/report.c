/* Diagnostic lists for validation reports. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "morphkit/unit.h"

static const char *const check_names[MK_CHECK_COUNT] = {
    "file",          "discovery", "vertex-count", "topology", "normals",
    "quad-diagonal", "scramble",  "uv-change",    "jump",     "config",
};

const char *mk_check_name(mk_check check)
{
    return (unsigned)check < MK_CHECK_COUNT ? check_names[check] : "unknown";
}

bool mk_report_add(mk_report *r, mk_severity severity, mk_check check, const char *file,
                   int line, const char *other_file, int other_line, const char *format, ...)
{
    if (severity == MK_SEVERITY_ERROR)
        r->error_count++;
    else
        r->warning_count++;
    if (r->count >= MK_REPORT_MAX_ITEMS) {
        r->dropped_count++;
        return true;
    }
    if (r->count == r->capacity) {
        uint32_t cap = r->capacity ? r->capacity * 2 : 8;
        void *p = mk_realloc(r->allocator, r->items, r->capacity * sizeof *r->items,
                             cap * sizeof *r->items);
        if (!p) {
            r->dropped_count++;
            return false;
        }
        r->items = p;
        r->capacity = cap;
    }
    mk_diagnostic *d = &r->items[r->count++];
    d->severity = severity;
    d->check = check;
    d->line = line;
    d->other_line = other_line;
    snprintf(d->file, sizeof d->file, "%s", file ? file : "");
    snprintf(d->other_file, sizeof d->other_file, "%s", other_file ? other_file : "");
    va_list args;
    va_start(args, format);
    vsnprintf(d->message, sizeof d->message, format, args);
    va_end(args);
    return true;
}

void mk_report_reset(mk_report *r)
{
    mk_free(r->allocator, r->items, r->capacity * sizeof *r->items);
    const mk_allocator *a = r->allocator;
    memset(r, 0, sizeof *r);
    r->allocator = a;
}
