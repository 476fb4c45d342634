/* The virtual folder of fuzz_vfs.h. */
#include "fuzz_vfs.h"

#include <string.h>

static const uint8_t *find_record(const uint8_t *p, const uint8_t *end)
{
    for (; p + 3 <= end; p++) {
        p = memchr(p, '@', (size_t)(end - p));
        if (!p || p + 3 > end)
            return NULL;
        if (p[1] == '@' && p[2] == ' ')
            return p;
    }
    return NULL;
}

/* The path a loader asks for is dir + "/" + name. */
static const fz_vfs_file *find_file(const fz_vfs *vfs, const char *path)
{
    size_t n = strlen(vfs->dir);
    if (strncmp(path, vfs->dir, n) != 0 || path[n] != '/')
        return NULL;
    for (uint32_t i = 0; i < vfs->count; i++)
        if (strcmp(vfs->files[i].name, path + n + 1) == 0)
            return &vfs->files[i];
    return NULL;
}

static mk_status vfs_read(void *user, const char *path, const mk_allocator *allocator,
                          size_t max_size, void **data, size_t *size, mk_error *err)
{
    fz_vfs *vfs = user;
    const fz_vfs_file *f = find_file(vfs, path);
    if (!f)
        return mk_error_set(err, MK_ERR_NOT_FOUND, path, 0, "not in the fuzz folder");
    if (f->kind != MK_FILE_REGULAR)
        return mk_error_set(err, MK_ERR_IO, path, 0, "not a regular file");
    if (max_size && f->size > max_size)
        return mk_error_set(err, MK_ERR_LIMIT, path, 0, "too big");
    /* exactly size bytes (one for an empty file, never read) */
    void *p = mk_alloc(allocator, f->size ? f->size : 1);
    if (!p)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
    if (f->size)
        memcpy(p, f->data, f->size);
    *data = p;
    *size = f->size;
    vfs->open_blocks++;
    return MK_OK;
}

static void vfs_release(void *user, const mk_allocator *allocator, void *data, size_t size)
{
    fz_vfs *vfs = user;
    vfs->open_blocks--;
    mk_free(allocator, data, size ? size : 1);
}

static mk_status vfs_list(void *user, const char *dir, mk_file_entry_fn entry, void *context,
                          mk_error *err)
{
    fz_vfs *vfs = user;
    if (strcmp(dir, vfs->dir) != 0) {
        const fz_vfs_file *f = find_file(vfs, dir);
        if (!f)
            return mk_error_set(err, MK_ERR_NOT_FOUND, dir, 0, "no such folder");
        if (f->kind != MK_FILE_FOLDER)
            return mk_error_set(err, MK_ERR_IO, dir, 0, "not a folder");
        return MK_OK; /* sub-folders are empty */
    }
    for (uint32_t i = 0; i < vfs->count; i++)
        if (!entry(context, vfs->files[i].name, vfs->files[i].kind))
            break;
    return MK_OK;
}

void fz_vfs_init(fz_vfs *vfs, const char *dir, const uint8_t *data, size_t size)
{
    memset(vfs, 0, sizeof *vfs);
    vfs->dir = dir;
    vfs->callbacks.read = vfs_read;
    vfs->callbacks.release = vfs_release;
    vfs->callbacks.list = vfs_list;
    vfs->callbacks.user = vfs;
    const uint8_t *end = data + size, *p = data, *rec;
    /* records begin at the start or right after a '\n' */
    for (rec = find_record(p, end); rec && rec != data && rec[-1] != '\n';)
        rec = find_record(rec + 1, end);
    vfs->main = data;
    vfs->main_size = rec ? (size_t)(rec - data) - (rec != data) : size;
    fz_vfs_file *f = NULL;
    while (rec) {
        const uint8_t *name = rec + 3;
        const uint8_t *nl = memchr(name, '\n', (size_t)(end - name));
        const uint8_t *body = nl ? nl + 1 : end;
        const uint8_t *next = find_record(body, end);
        while (next && next != body && next[-1] != '\n')
            next = find_record(next + 1, end);
        size_t name_len = (size_t)((nl ? nl : end) - name);
        size_t body_len = (size_t)((next ? next - (next != body) : end) - body);
        f = vfs->count < FZ_VFS_FILES ? &vfs->files[vfs->count] : NULL;
        if (f && name_len >= 1 && name_len <= FZ_VFS_NAME_MAX && !memchr(name, 0, name_len)) {
            f->kind = MK_FILE_REGULAR;
            if (name[0] == '~' && name_len > 1) {
                f->kind = MK_FILE_OTHER;
                name++, name_len--;
            } else if (name[name_len - 1] == '/' && name_len > 1) {
                f->kind = MK_FILE_FOLDER;
                name_len--;
            }
            memcpy(f->name, name, name_len);
            f->name[name_len] = '\0';
            if (!strchr(f->name, '/')) {
                f->data = body;
                f->size = body_len;
                vfs->count++;
            }
        }
        rec = next;
    }
}
