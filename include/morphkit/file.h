/* morphkit/file.h - file access for the loaders and writers (assets layer).
 *
 * Every file morphkit reads or writes goes through one mk_file_callbacks:
 * OBJ frames, animation.cfg, unit folder listings, glTF files and their
 * external buffers, and written files. An engine that keeps its assets in a
 * pak file or a virtual file system passes its own callbacks in the loaders'
 * options (`files`); NULL, or a NULL member, means the default POSIX
 * implementation described below. The same layer is public (mk_file_read,
 * ...), so tools and callbacks that wrap the default use exactly it.
 *
 * The default implementation:
 *  - reads regular files only: it opens without blocking and checks the
 *    type before reading, so a FIFO, device or folder fails at once with
 *    MK_ERR_IO ("is a directory", "not a regular file");
 *  - a missing file or folder is MK_ERR_NOT_FOUND, other system failures
 *    MK_ERR_IO; messages name the path and the system's reason (thread-safe);
 *  - has no path length limit of its own (paths are built dynamically);
 *  - writes atomically: the data goes to a new temporary file in the same
 *    folder (unique name, created exclusively), is flushed to the disk
 *    (fsync) and renamed over the path. On any failure the temporary is
 *    removed and a file already at the path is left as it was. A replaced
 *    file keeps its permission bits; a new one gets 0666 less the umask.
 * Paths use '/' as separator and are passed to callbacks as the loaders
 * build them ("dir/name"); they need not exist on any real file system. */
#ifndef MORPHKIT_FILE_H
#define MORPHKIT_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "morphkit/allocator.h"
#include "morphkit/config.h"
#include "morphkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a folder entry is. Symbolic links are reported as what they point
 * to (a dangling link is MK_FILE_OTHER). */
typedef enum mk_file_kind {
    MK_FILE_REGULAR, /* a file that can be read */
    MK_FILE_FOLDER,  /* a directory */
    MK_FILE_OTHER,   /* FIFO, device, socket, dangling link: never read */
    MK_FILE_KIND_COUNT
} mk_file_kind;

/* Receives one folder entry from a list call: its name (no folder part,
 * never "." or ".."; valid during the call only) and its kind. Returns false
 * to stop the listing early (list then still returns MK_OK). */
typedef bool (*mk_file_entry_fn)(void *context, const char *name, mk_file_kind kind);

/* Zero-initialize and set what you need; each NULL function member means the
 * default implementation. Callbacks may be called from several threads at
 * once when loaders run on several threads. The err they get is never NULL;
 * on failure they fill it (mk_error_set) and return the code: use
 * MK_ERR_NOT_FOUND for a missing file or folder, MK_ERR_IO for the rest. */
typedef struct mk_file_callbacks {
    /* Reads the whole file at path. On success *data holds *size bytes (any
     * alignment; *data may be NULL when *size is 0) that stay valid until
     * release is called with them. allocator is the loader's (NULL = malloc):
     * use it for the block if the block is made per call. A file larger than
     * max_size bytes (0: no limit) should fail with MK_ERR_LIMIT before it is
     * read; the loader checks the size again anyway. NULL: the default. */
    mk_status (*read)(void *user, const char *path, const mk_allocator *allocator,
                      size_t max_size, void **data, size_t *size, mk_error *err);
    /* Gives back a block from read (the same allocator, data and size). Used
     * only together with a non-NULL read; NULL there means blocks need no
     * release (e.g. pointers into a pak file the engine keeps loaded: they
     * must then stay valid as long as any mk_gltf loaded from them). */
    void (*release)(void *user, const mk_allocator *allocator, void *data, size_t size);
    /* Calls entry once per entry of folder dir, in any order, until entry
     * returns false. A missing dir is MK_ERR_NOT_FOUND; a dir that is not a
     * folder MK_ERR_IO. NULL: the default (readdir). */
    mk_status (*list)(void *user, const char *dir, mk_file_entry_fn entry, void *context,
                      mk_error *err);
    /* Replaces (or creates) the file at path with size bytes of data, all or
     * nothing: on failure a file already there must be left as it was.
     * NULL: the default atomic writer. */
    mk_status (*write)(void *user, const char *path, const void *data, size_t size,
                       mk_error *err);
    /* Creates the folder at path (its parent must exist). A folder already
     * there is success; anything else there is MK_ERR_IO. NULL: mkdir. */
    mk_status (*make_folder)(void *user, const char *path, mk_error *err);
    void *user; /* passed to every callback */
} mk_file_callbacks;

/* The entry points every loader and writer uses: each calls the member of
 * files (NULL files or member: the default). Misuse (NULL path, data or
 * size pointers; NULL entry) is MK_ERR_INVALID_ARGUMENT. err may be NULL. */

/* Reads a whole file (see read). A file larger than max_size (0: no limit)
 * is MK_ERR_LIMIT. On failure *data is NULL and *size 0. Give the block back
 * with mk_file_release and the same files and allocator. */
MK_API mk_status mk_file_read(const mk_file_callbacks *files, const char *path,
                              const mk_allocator *allocator, size_t max_size, void **data,
                              size_t *size, mk_error *err);
/* Releases a block from mk_file_read (NULL data with size 0 is fine). */
MK_API void mk_file_release(const mk_file_callbacks *files, const mk_allocator *allocator,
                            void *data, size_t size);
/* Lists folder dir (see list). */
MK_API mk_status mk_file_list(const mk_file_callbacks *files, const char *dir,
                              mk_file_entry_fn entry, void *context, mk_error *err);
/* Writes a whole file atomically (see write). data may be NULL when size is 0. */
MK_API mk_status mk_file_write(const mk_file_callbacks *files, const char *path,
                               const void *data, size_t size, mk_error *err);
/* Creates one folder (see make_folder). */
MK_API mk_status mk_file_make_folder(const mk_file_callbacks *files, const char *path,
                                     mk_error *err);

#ifdef __cplusplus
}
#endif

#endif
