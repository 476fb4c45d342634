/* Helpers shared by the assets layer (src/io); not installed. */
#ifndef MORPHKIT_IO_INTERNAL_H
#define MORPHKIT_IO_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"

/* Reads the whole file at path into one allocation made through `a` (NULL =
 * malloc). On success *data holds *size bytes followed by a NUL (so text
 * parsers may rely on a terminator); the block is *size + 1 bytes and is
 * released with mk_free(a, *data, *size + 1). Only regular files are read.
 * A file larger than max_size bytes (0: no limit) fails with MK_ERR_LIMIT
 * before anything is read. A missing file is MK_ERR_NOT_FOUND, other
 * failures MK_ERR_IO; messages name the path and the system's reason.
 * On failure *data is NULL and *size 0. */
mk_status mk_read_file(const char *path, const mk_allocator *a, size_t max_size, char **data,
                       size_t *size, mk_error *err);

#endif
