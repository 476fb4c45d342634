/* The one file layer (morphkit/file.h): dispatch to the caller's callbacks,
 * and the default POSIX implementation - whole-file reads of regular files
 * only, folder listing, the atomic writer and folder creation. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise(MADV_HUGEPAGE); strerror_r stays the XSI one */
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "file_internal.h"
#include "internal.h"

/* ---- paths --------------------------------------------------------------- */

char *mk_path_join(const mk_allocator *a, const char *dir, const char *name)
{
    size_t dl = strlen(dir), nl = strlen(name);
    bool slash = dl > 0 && dir[dl - 1] != '/';
    size_t total;
    if (!mk_size_add(dl + slash, nl + 1, &total))
        return NULL;
    char *p = mk_alloc(a, total);
    if (!p)
        return NULL;
    memcpy(p, dir, dl);
    if (slash)
        p[dl] = '/';
    memcpy(p + dl + slash, name, nl + 1);
    return p;
}

char *mk_path_parent(const mk_allocator *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return mk_strdup(a, ".");
    size_t n = slash == path ? 1 : (size_t)(slash - path); /* "/x" -> "/" */
    char *p = mk_alloc(a, n + 1);
    if (p) {
        memcpy(p, path, n);
        p[n] = '\0';
    }
    return p;
}

/* ---- errors -------------------------------------------------------------- */

/* strerror is not thread-safe and loaders may run on several threads. With
 * _POSIX_C_SOURCE (and no _GNU_SOURCE) glibc gives the XSI strerror_r. */
static mk_status fail_errno(mk_error *err, int code, const char *path, const char *what)
{
    char buf[128];
    if (strerror_r(code, buf, sizeof buf) != 0)
        snprintf(buf, sizeof buf, "error %d", code);
    return mk_error_set(err, code == ENOENT ? MK_ERR_NOT_FOUND : MK_ERR_IO, path, 0,
                        "cannot %s: %s", what, buf);
}

/* ---- default read -------------------------------------------------------- */

/* A large block is about to be written once, page by page, by the read: on
 * Linux, ask for transparent huge pages on its 2 MiB-aligned interior, so
 * the kernel faults in (and zeroes) 2 MiB at a time instead of 4 KiB.
 * Advisory only: any failure changes nothing. */
static void advise_huge_pages(void *p, size_t size)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1), hi = ((uintptr_t)p + size) & ~(huge - 1);
    if (size >= 4 * huge && hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)size;
#endif
}

/* Reads up to n bytes, stopping early only at the end of the file; -1 on
 * error (errno set). A read of a regular file that returns less than asked
 * has met its end, so once `expected` bytes have come that way the read
 * that would return 0 is not made (a small file takes one read, not two). */
static ptrdiff_t read_all(int fd, char *buf, size_t n, size_t expected)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
        if (got == expected && got < n)
            break;
    }
    return (ptrdiff_t)got;
}

/* The block is size + 1 bytes with a NUL after the data (a guard for text
 * parsers); default_release frees it so. */
static mk_status default_read(const char *path, const mk_allocator *a, size_t max_size,
                              void **data, size_t *size, mk_error *err)
{
    if (max_size == 0 || max_size > SIZE_MAX - 1)
        max_size = SIZE_MAX - 1;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is then
     * rejected as not a regular file); regular files ignore the flag. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return fail_errno(err, errno, path, "open");
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return fail_errno(err, e, path, "stat");
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return mk_error_set(err, MK_ERR_IO, path, 0, "cannot read: %s",
                            S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
    }
    if (st.st_size < 0 || (uintmax_t)st.st_size > max_size) {
        close(fd);
        return mk_error_set(err, MK_ERR_LIMIT, path, 0,
                            "file is too big: %jd bytes (the limit is %zu)", (intmax_t)st.st_size,
                            max_size);
    }
    size_t n = (size_t)st.st_size;
    char *buf = mk_alloc(a, n + 1);
    if (!buf) {
        close(fd);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, path, 0, "out of memory reading %zu bytes",
                            n);
    }
    advise_huge_pages(buf, n);
    /* One byte more than expected tells a file that grew from one that did
     * not; either change is reported rather than read half. */
    ptrdiff_t got = read_all(fd, buf, n + 1, n);
    int e = errno;
    close(fd);
    if (got < 0 || (size_t)got != n) {
        mk_free(a, buf, n + 1);
        if (got < 0)
            return fail_errno(err, e, path, "read");
        return mk_error_set(err, MK_ERR_IO, path, 0, "cannot read: the file changed size");
    }
    buf[n] = '\0';
    *data = buf;
    *size = n;
    return MK_OK;
}

/* ---- default list -------------------------------------------------------- */

static mk_file_kind kind_of_mode(mode_t m)
{
    return S_ISREG(m) ? MK_FILE_REGULAR : S_ISDIR(m) ? MK_FILE_FOLDER : MK_FILE_OTHER;
}

static mk_status default_list(const char *dir, mk_file_entry_fn entry, void *context,
                              mk_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return fail_errno(err, errno, dir, "open folder");
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        const char *name = de->d_name;
        if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
            continue;
        struct stat st;
        /* links are reported as what they point to, so stat (not lstat) */
        mk_file_kind kind = fstatat(dirfd(d), name, &st, 0) == 0 ? kind_of_mode(st.st_mode)
                                                                 : MK_FILE_OTHER;
        if (!entry(context, name, kind))
            break;
    }
    closedir(d);
    return MK_OK;
}

/* ---- default write ------------------------------------------------------- */

static bool write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* Creates "<dir>/.<name>.<random>.tmp" exclusively (as mkstemp does, but
 * with mode 0666 so the umask applies without reading it, which would not
 * be thread-safe). Returns the descriptor and the name, or -1 (errno set). */
static int open_temp(const char *path, char **tmp, size_t *tmp_size)
{
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
    size_t n = strlen(path) + 32;
    char *name = mk_alloc(NULL, n);
    if (!name) {
        errno = ENOMEM;
        return -1;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    /* a per-call seed: time, process and this stack frame's address */
    uint64_t x = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)ts.tv_sec ^
                 (uint64_t)getpid() << 32 ^ (uint64_t)(uintptr_t)&ts;
    for (int attempt = 0; attempt < 100; attempt++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
        snprintf(name, n, "%.*s.%s.%012llx.tmp", (int)dl, path, path + dl,
                 (unsigned long long)(x & 0xffffffffffffull));
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            *tmp = name;
            *tmp_size = n;
            return fd;
        }
        if (errno != EEXIST)
            break;
    }
    int e = errno;
    mk_free(NULL, name, n);
    errno = e;
    return -1;
}

static mk_status default_write(const char *path, const void *data, size_t size, mk_error *err)
{
    char *tmp;
    size_t tmp_size;
    int fd = open_temp(path, &tmp, &tmp_size);
    if (fd < 0)
        return fail_errno(err, errno, path, "create a temporary file beside it");
    struct stat old;
    if (stat(path, &old) == 0 && S_ISREG(old.st_mode))
        (void)fchmod(fd, old.st_mode & 07777); /* a replaced file keeps its mode */
    const char *what = NULL;
    if (!write_all(fd, data, size))
        what = "write";
    else if (fsync(fd) != 0)
        what = "flush to disk";
    int e = errno;
    if (close(fd) != 0 && !what) {
        what = "close";
        e = errno;
    }
    if (!what && rename(tmp, path) != 0) {
        what = "rename the finished file into place";
        e = errno;
    }
    if (what) {
        unlink(tmp);
        mk_free(NULL, tmp, tmp_size);
        return fail_errno(err, e, path, what);
    }
    mk_free(NULL, tmp, tmp_size);
    /* Make the rename itself durable; failing here loses nothing written. */
    char *dir = mk_path_parent(NULL, path);
    int dfd = dir ? open(dir, O_RDONLY | O_CLOEXEC) : -1;
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    mk_strfree(NULL, dir);
    return MK_OK;
}

static mk_status default_make_folder(const char *path, mk_error *err)
{
    if (mkdir(path, 0777) == 0)
        return MK_OK;
    int e = errno;
    struct stat st;
    if (e == EEXIST && stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return MK_OK;
        return mk_error_set(err, MK_ERR_IO, path, 0,
                            "cannot create folder: something else is already there");
    }
    return fail_errno(err, e, path, "create folder");
}

/* ---- dispatch ------------------------------------------------------------ */

mk_status mk_file_read(const mk_file_callbacks *files, const char *path,
                       const mk_allocator *allocator, size_t max_size, void **data, size_t *size,
                       mk_error *err)
{
    if (!data || !size)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, path, 0,
                            "mk_file_read: data and size must not be NULL");
    *data = NULL;
    *size = 0;
    if (!path)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "mk_file_read: path is NULL");
    if (!files || !files->read)
        return default_read(path, allocator, max_size, data, size, err);
    mk_error local;
    mk_error *e = err ? err : &local;
    void *d = NULL;
    size_t n = 0;
    mk_status st = files->read(files->user, path, allocator, max_size, &d, &n, e);
    if (st != MK_OK)
        return st;
    if (max_size != 0 && n > max_size) {
        if (files->release)
            files->release(files->user, allocator, d, n);
        return mk_error_set(err, MK_ERR_LIMIT, path, 0,
                            "file is too big: %zu bytes (the limit is %zu)", n, max_size);
    }
    *data = d;
    *size = n;
    return MK_OK;
}

mk_status mk_read_file(const mk_file_callbacks *files, const char *path, const mk_allocator *a,
                       size_t max_size, char **text, size_t *size, mk_error *err)
{
    void *d = NULL;
    size_t n = 0;
    *text = NULL;
    *size = 0;
    mk_status st = mk_file_read(files, path, a, max_size, &d, &n, err);
    if (st != MK_OK)
        return st;
    if (!files || !files->read) { /* the default block is already n + 1, NUL-terminated */
        *text = d;
        *size = n;
        return MK_OK;
    }
    char *c = n + 1 > n ? mk_alloc(a, n + 1) : NULL;
    if (c) {
        if (n)
            memcpy(c, d, n);
        c[n] = '\0';
    }
    mk_file_release(files, a, d, n);
    if (!c)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, path, 0, "out of memory (%zu bytes)", n + 1);
    *text = c;
    *size = n;
    return MK_OK;
}

void mk_file_release(const mk_file_callbacks *files, const mk_allocator *allocator, void *data,
                     size_t size)
{
    if (!files || !files->read)
        mk_free(allocator, data, data ? size + 1 : 0);
    else if (files->release)
        files->release(files->user, allocator, data, size);
}

mk_status mk_file_list(const mk_file_callbacks *files, const char *dir, mk_file_entry_fn entry,
                       void *context, mk_error *err)
{
    if (!dir || !entry)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, dir, 0,
                            "mk_file_list: dir and entry must not be NULL");
    if (!files || !files->list)
        return default_list(dir, entry, context, err);
    mk_error local;
    return files->list(files->user, dir, entry, context, err ? err : &local);
}

mk_status mk_file_write(const mk_file_callbacks *files, const char *path, const void *data,
                        size_t size, mk_error *err)
{
    if (!path || (!data && size))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, path, 0,
                            "mk_file_write: path (and data, when size > 0) must not be NULL");
    if (!files || !files->write)
        return default_write(path, data ? data : "", size, err);
    mk_error local;
    return files->write(files->user, path, data, size, err ? err : &local);
}

mk_status mk_file_make_folder(const mk_file_callbacks *files, const char *path, mk_error *err)
{
    if (!path)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "mk_file_make_folder: path is NULL");
    if (!files || !files->make_folder)
        return default_make_folder(path, err);
    mk_error local;
    return files->make_folder(files->user, path, err ? err : &local);
}
