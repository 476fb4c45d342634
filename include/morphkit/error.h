/* morphkit/error.h - status codes and the error record every fallible call fills.
 *
 * Contract: a fallible function returns an mk_status (MK_OK = 0) and, when it
 * is given a non-NULL mk_error, fills it with the code, the file and line (and
 * column where it makes sense) and a one-line message. Library code never
 * prints, aborts or exits on bad input. An mk_error is a plain value that
 * owns no memory; it may be reused without clearing. */
#ifndef MORPHKIT_ERROR_H
#define MORPHKIT_ERROR_H

#include <stddef.h>

#include "morphkit/config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mk_status {
    MK_OK = 0,
    MK_ERR_INVALID_ARGUMENT, /* a caller passed something the contract forbids */
    MK_ERR_OUT_OF_MEMORY,    /* the allocator returned NULL */
    MK_ERR_IO,               /* a file could not be opened, read or written */
    MK_ERR_PARSE,            /* a file's syntax is wrong (bad number, unknown keyword) */
    MK_ERR_RANGE,            /* an index or size from a file is out of range */
    MK_ERR_MISMATCH,         /* frames disagree (vertex count, topology) */
    MK_ERR_NOT_FOUND,        /* a file, animation or frame that should exist does not */
    MK_ERR_UNSUPPORTED,      /* valid input that morphkit does not handle */
    MK_ERR_LIMIT,            /* input exceeds a configured limit */
    MK_STATUS_COUNT
} mk_status;

/* Sizes of the text fields, terminator included. A longer path or message is
 * cut to fit in the record only: it never makes the call that reports it
 * fail, and the operations themselves have no such path limit. */
#define MK_ERROR_FILE_MAX 512
#define MK_ERROR_MESSAGE_MAX 512

typedef struct mk_error {
    mk_status code;
    int line;   /* 1-based; 0 when the error has no line */
    int column; /* 1-based; 0 when unknown */
    char file[MK_ERROR_FILE_MAX];       /* "" when the error is not about a file */
    char message[MK_ERROR_MESSAGE_MAX]; /* one line, no trailing newline */
} mk_error;

/* A stable lower-case name for a status ("ok", "parse error", ...). */
MK_API const char *mk_status_string(mk_status status);

/* Resets err to MK_OK with empty file and message. err may be NULL. */
MK_API void mk_error_clear(mk_error *err);

/* Fills err (when not NULL) and returns code, so callers can write
 * `return mk_error_set(err, MK_ERR_PARSE, path, line, "bad number '%s'", s);`.
 * file may be NULL; over-long texts are truncated. */
MK_API mk_status mk_error_set(mk_error *err, mk_status code, const char *file, int line,
                              const char *format, ...) MK_PRINTF(5, 6);

/* Writes "file:line:column: message" (parts that are unknown are left out)
 * into buf and returns the length it wanted, like snprintf. */
MK_API int mk_error_format(const mk_error *err, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
