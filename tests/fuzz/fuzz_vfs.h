/* A virtual folder cut out of one fuzz input, served through the public
 * file callbacks (morphkit/file.h), so harnesses reach the loaders that read
 * several files (unit folders, glTF with external buffers) without a disk.
 *
 * Input format (text-friendly, so dictionaries and seeds stay readable):
 *     <main bytes>
 *     "@@ " NAME "\n" <bytes of file NAME>
 *     "@@ " NAME "\n" <bytes ...>
 * A record starts where "@@ " begins the input or follows a '\n'; that '\n'
 * belongs to no file. The bytes before the first record are the "main"
 * file (a glTF document; a unit ignores them). NAME is 1..FZ_VFS_NAME_MAX
 * bytes without '/' or NUL; a NAME ending in '/' (dropped) is listed as a
 * folder, "~" + NAME as MK_FILE_OTHER (a FIFO), anything else as a regular
 * file. Reads copy the bytes into an exact-size block of the loader's
 * allocator, so ASan sees any read past a file's end. At most FZ_VFS_FILES
 * records count; later ones are ignored. */
#ifndef MK_FUZZ_VFS_H
#define MK_FUZZ_VFS_H

#include <stddef.h>
#include <stdint.h>

#include "morphkit/file.h"

#define FZ_VFS_FILES 64
#define FZ_VFS_NAME_MAX 64

typedef struct fz_vfs_file {
    char name[FZ_VFS_NAME_MAX + 1];
    mk_file_kind kind;
    const uint8_t *data;
    size_t size;
} fz_vfs_file;

typedef struct fz_vfs {
    const char *dir; /* the folder every file is in ("u" for "u/NAME") */
    const uint8_t *main;
    size_t main_size;
    uint32_t count;
    fz_vfs_file files[FZ_VFS_FILES];
    mk_file_callbacks callbacks; /* read, release, list, user = this */
    uint32_t open_blocks; /* reads not yet released (must end at 0) */
} fz_vfs;

/* Splits data (kept by the caller while vfs is used) into vfs. */
void fz_vfs_init(fz_vfs *vfs, const char *dir, const uint8_t *data, size_t size);

#endif
