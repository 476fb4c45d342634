/* Diagnostic lists for validation reports. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "morphkit/unit.h"

static const char *const check_names[MK_CHECK_COUNT] = {
    "file",          "discovery", "vertex-count", "topology", "normals",
    "quad-diagonal", "scramble",  "uv-change",    "jump",     "config",
    "naming",
};

const char *mk_check_name(mk_check check)
{
    return (unsigned)check < MK_CHECK_COUNT ? check_names[check] : "unknown";
}

/* The items array grows by doubling up to MK_REPORT_MAX_ITEMS. */
struct mk_report {
    mk_diagnostic *items;
    uint32_t count;
    uint32_t capacity;
    uint32_t error_count;   /* including dropped ones */
    uint32_t warning_count; /* including dropped ones */
    uint32_t dropped_count;
    mk_allocator allocator;
};

mk_status mk_report_create(const mk_allocator *allocator, mk_report **out, mk_error *err)
{
    if (!out)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "mk_report_create: out is NULL");
    *out = NULL;
    mk_report *r = mk_alloc(allocator, sizeof *r);
    if (!r)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory for a report");
    memset(r, 0, sizeof *r);
    r->allocator = mk_allocator_copy(allocator);
    *out = r;
    return MK_OK;
}

void mk_report_destroy(mk_report *r)
{
    if (!r)
        return;
    mk_allocator a = r->allocator;
    mk_free(&a, r->items, (size_t)r->capacity * sizeof *r->items);
    mk_free(&a, r, sizeof *r);
}

void mk_report_clear(mk_report *r)
{
    if (!r)
        return;
    mk_free(&r->allocator, r->items, (size_t)r->capacity * sizeof *r->items);
    r->items = NULL;
    r->count = r->capacity = 0;
    r->error_count = r->warning_count = r->dropped_count = 0;
}

uint32_t mk_report_count(const mk_report *r)
{
    return r ? r->count : 0;
}

const mk_diagnostic *mk_report_item(const mk_report *r, uint32_t i)
{
    return r && i < r->count ? &r->items[i] : NULL;
}

uint32_t mk_report_error_count(const mk_report *r)
{
    return r ? r->error_count : 0;
}

uint32_t mk_report_warning_count(const mk_report *r)
{
    return r ? r->warning_count : 0;
}

uint32_t mk_report_dropped_count(const mk_report *r)
{
    return r ? r->dropped_count : 0;
}

bool mk_report_add(mk_report *r, mk_severity severity, mk_check check, const char *file,
                   int line, const char *other_file, int other_line, const char *format, ...)
{
    if (!r || !format)
        return false;
    if (severity == MK_SEVERITY_ERROR)
        r->error_count++;
    else if (severity == MK_SEVERITY_WARNING)
        r->warning_count++;
    if (r->count >= MK_REPORT_MAX_ITEMS) {
        r->dropped_count++;
        return true;
    }
    if (r->count == r->capacity) {
        uint32_t cap = r->capacity ? r->capacity * 2 : 8;
        void *p = mk_realloc(&r->allocator, r->items, r->capacity * sizeof *r->items,
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
