/* Test fixtures: scratch folders and files made by the tests themselves. */
#ifndef MK_FIXTURES_H
#define MK_FIXTURES_H

#include <stddef.h>

#include <stdio.h>
#include <stdlib.h>

#include "morphkit/allocator.h"
#include "morphkit/unit.h"

struct mk_report;

/* Creates (emptying first) MK_TEST_TMP_DIR/<name> and returns its path in a
 * static buffer that the next call overwrites. Aborts the test on failure. */
const char *mk_fx_dir(const char *name);

/* Writes text to dir/file (aborts on failure). */
void mk_fx_write(const char *dir, const char *file, const char *text);

/* Reads a whole file (NUL-terminated, malloc'd; NULL when missing). */
char *mk_fx_read(const char *path, size_t *size);

/* Path join into a static buffer (one of 4 rotating buffers). */
const char *mk_fx_path(const char *dir, const char *file);

/* A new empty report (malloc'd; exits on failure). Inline so that tests of
 * the runtime alone, which never call it, need no assets library. */
static inline struct mk_report *mk_fx_report(void)
{
    mk_report *r = NULL;
    mk_error e;
    if (mk_report_create(NULL, &r, &e) != MK_OK) {
        fprintf(stderr, "cannot create a report: %s\n", e.message);
        exit(1);
    }
    return r;
}

/* An allocator that counts live blocks and bytes, checks the size given to
 * free, and fails every allocation after `fail_after` successful ones
 * (-1: never). Use mk_fx_counter_allocator to get the mk_allocator. */
typedef struct mk_fx_counter {
    long blocks;         /* live */
    long long bytes;     /* live */
    long allocations;    /* successful, ever */
    long fail_after;     /* -1: never fail */
    int size_mismatches; /* frees whose size differs from the allocation's */
} mk_fx_counter;

mk_allocator mk_fx_counter_allocator(mk_fx_counter *c);

#endif
