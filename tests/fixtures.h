/* Test fixtures: scratch folders and files made by the tests themselves. */
#ifndef MK_FIXTURES_H
#define MK_FIXTURES_H

#include <stddef.h>

/* Creates (emptying first) MK_TEST_TMP_DIR/<name> and returns its path in a
 * static buffer that the next call overwrites. Aborts the test on failure. */
const char *mk_fx_dir(const char *name);

/* Writes text to dir/file (aborts on failure). */
void mk_fx_write(const char *dir, const char *file, const char *text);

/* Reads a whole file (NUL-terminated, malloc'd; NULL when missing). */
char *mk_fx_read(const char *path, size_t *size);

/* Path join into a static buffer (one of 4 rotating buffers). */
const char *mk_fx_path(const char *dir, const char *file);

#endif
