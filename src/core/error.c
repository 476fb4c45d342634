/* Error records: filling and formatting. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "morphkit/error.h"

static const char *const status_names[MK_STATUS_COUNT] = {
    "ok",          "invalid argument", "out of memory", "i/o error",   "parse error",
    "out of range", "mismatch",        "not found",     "unsupported", "limit exceeded",
};

const char *mk_status_string(mk_status status)
{
    if ((unsigned)status >= MK_STATUS_COUNT)
        return "unknown status";
    return status_names[status];
}

void mk_error_clear(mk_error *err)
{
    if (!err)
        return;
    err->code = MK_OK;
    err->line = 0;
    err->column = 0;
    err->file[0] = '\0';
    err->message[0] = '\0';
}

mk_status mk_error_set(mk_error *err, mk_status code, const char *file, int line,
                       const char *format, ...)
{
    if (!err)
        return code;
    err->code = code;
    err->line = line;
    err->column = 0;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    va_list args;
    va_start(args, format);
    vsnprintf(err->message, sizeof err->message, format, args);
    va_end(args);
    return code;
}

int mk_error_format(const mk_error *err, char *buf, size_t size)
{
    if (!err->file[0])
        return snprintf(buf, size, "%s", err->message);
    if (err->line > 0 && err->column > 0)
        return snprintf(buf, size, "%s:%d:%d: %s", err->file, err->line, err->column,
                        err->message);
    if (err->line > 0)
        return snprintf(buf, size, "%s:%d: %s", err->file, err->line, err->message);
    return snprintf(buf, size, "%s: %s", err->file, err->message);
}
