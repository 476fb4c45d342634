#include "fixtures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "morphkit/unit.h"

const char *mk_fx_path(const char *dir, const char *file)
{
    static char bufs[4][1024];
    static int next;
    char *b = bufs[next++ & 3];
    if ((size_t)snprintf(b, sizeof bufs[0], "%s/%s", dir, file) >= sizeof bufs[0]) {
        fprintf(stderr, "path too long: %s/%s\n", dir, file);
        exit(1);
    }
    return b;
}

const char *mk_fx_dir(const char *name)
{
    static char path[1024];
    char cmd[2200];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", MK_TEST_TMP_DIR, name) >= sizeof path) {
        fprintf(stderr, "path too long: %s\n", name);
        exit(1);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", path, path);
    if (system(cmd) != 0) {
        fprintf(stderr, "cannot make %s\n", path);
        exit(1);
    }
    return path;
}

void mk_fx_write(const char *dir, const char *file, const char *text)
{
    const char *p = mk_fx_path(dir, file);
    FILE *f = fopen(p, "wb");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", p);
        exit(1);
    }
}

char *mk_fx_read(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    buf[n] = '\0';
    if (size)
        *size = (size_t)n;
    return buf;
}

/* Each block carries its size in a 16-byte header (keeps 16 alignment). */
static void *counter_alloc(void *user, size_t size)
{
    mk_fx_counter *c = user;
    if (c->fail_after >= 0 && c->allocations >= c->fail_after)
        return NULL;
    size_t *p = malloc(size + 16);
    if (!p)
        return NULL;
    p[0] = size;
    c->blocks++;
    c->allocations++;
    c->bytes += (long long)size;
    return (char *)p + 16;
}

static void counter_free(void *user, void *ptr, size_t size)
{
    mk_fx_counter *c = user;
    size_t *p = (size_t *)((char *)ptr - 16);
    if (p[0] != size)
        c->size_mismatches++;
    c->blocks--;
    c->bytes -= (long long)p[0];
    free(p);
}

mk_allocator mk_fx_counter_allocator(mk_fx_counter *c)
{
    mk_allocator a = {counter_alloc, NULL, counter_free, c};
    return a;
}
