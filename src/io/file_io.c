/* Whole-file reads for the loaders: one allocation, size checked first. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "io_internal.h"

/* strerror is not thread-safe and loaders may run on several threads. With
 * _POSIX_C_SOURCE (and no _GNU_SOURCE) glibc gives the XSI strerror_r. */
static mk_status fail(mk_error *err, int code, const char *path, const char *what)
{
    char buf[128];
    if (strerror_r(code, buf, sizeof buf) != 0)
        snprintf(buf, sizeof buf, "error %d", code);
    return mk_error_set(err, code == ENOENT ? MK_ERR_NOT_FOUND : MK_ERR_IO, path, 0,
                        "cannot %s: %s", what, buf);
}

/* Reads exactly n bytes unless the file ends first; -1 on error. */
static ptrdiff_t read_all(int fd, char *buf, size_t n)
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
    }
    return (ptrdiff_t)got;
}

mk_status mk_read_file(const char *path, const mk_allocator *a, size_t max_size, char **data,
                       size_t *size, mk_error *err)
{
    *data = NULL;
    *size = 0;
    if (max_size == 0 || max_size > SIZE_MAX - 1)
        max_size = SIZE_MAX - 1;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is then
     * rejected as not a regular file); regular files ignore the flag. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return fail(err, errno, path, "open");
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return fail(err, e, path, "stat");
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
    /* One byte more than expected tells a file that grew from one that did
     * not; either change is reported rather than read half. */
    ptrdiff_t got = read_all(fd, buf, n + 1);
    int e = errno;
    close(fd);
    if (got < 0 || (size_t)got != n) {
        mk_free(a, buf, n + 1);
        if (got < 0)
            return fail(err, e, path, "read");
        return mk_error_set(err, MK_ERR_IO, path, 0, "cannot read: the file changed size");
    }
    buf[n] = '\0';
    *data = buf;
    *size = n;
    return MK_OK;
}
