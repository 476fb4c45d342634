/* Path helpers for the file layer and the loaders (src/io); not installed.
 * File access itself is public: morphkit/file.h. */
#ifndef MORPHKIT_FILE_INTERNAL_H
#define MORPHKIT_FILE_INTERNAL_H

#include "morphkit/allocator.h"
#include "morphkit/file.h"

/* "dir/name" (no second '/' when dir ends in one; just name when dir is
 * ""), allocated through `a` as strlen + 1 bytes (free with mk_strfree).
 * No length limit; NULL only when out of memory. */
char *mk_path_join(const mk_allocator *a, const char *dir, const char *name);

/* The folder part of path ("a/b.gltf" -> "a", "b.gltf" -> ".", "/b" ->
 * "/"), allocated like mk_path_join. */
char *mk_path_parent(const mk_allocator *a, const char *path);

/* mk_file_read for text parsers: *text holds *size bytes followed by a NUL,
 * in one block of *size + 1 bytes from `a` (free with mk_free(a, *text,
 * *size + 1)). A block from engine callbacks is copied once and released. */
mk_status mk_read_file(const mk_file_callbacks *files, const char *path, const mk_allocator *a,
                       size_t max_size, char **text, size_t *size, mk_error *err);

#endif
