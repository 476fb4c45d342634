/* glTF reader: the model's arena (every string and array the model keeps)
 * and error messages with lazily built JSON paths. */
#include <stdarg.h>
#include <assert.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"
#include "io_internal.h"

enum { MK_GLTF_ARENA_BLOCK = 64 * 1024, MK_GLTF_BIG_ALLOC = 16 * 1024 };

static mk_gltf_block *block_new(struct mk_gltf_storage *st, size_t payload)
{
    size_t total;
    if (!mk_size_add(payload, sizeof(mk_gltf_block), &total))
        return NULL;
    mk_gltf_block *b = (mk_gltf_block *)mk_alloc(&st->allocator, total);
    if (!b)
        return NULL;
    b->next = NULL;
    b->size = payload;
    b->used = 0;
    return b;
}

static void *arena_alloc(struct mk_gltf_storage *st, size_t size, bool zero);

void *mk_gltf_arena_alloc(struct mk_gltf_storage *st, size_t size)
{
    return arena_alloc(st, size, true);
}

void *mk_gltf_arena_alloc_uninit(struct mk_gltf_storage *st, size_t size)
{
    return arena_alloc(st, size, false);
}

static void *arena_alloc(struct mk_gltf_storage *st, size_t size, bool zero)
{
    size_t need;
    if (!mk_size_align16(size == 0 ? 1 : size, &need))
        return NULL;
    mk_gltf_block *h = st->head;
    if (!h || h->size - h->used < need) {
        if (need >= MK_GLTF_BIG_ALLOC) {
            /* A block of its own, linked behind the head so the head's free
             * space stays usable for small objects. */
            mk_gltf_block *b = block_new(st, need);
            if (!b)
                return NULL;
            b->used = need;
            if (h) {
                b->next = h->next;
                h->next = b;
            } else {
                st->head = b;
            }
            uint8_t *p = (uint8_t *)(b + 1);
            if (zero)
                memset(p, 0, need);
            return p;
        }
        h = block_new(st, MK_GLTF_ARENA_BLOCK);
        if (!h)
            return NULL;
        h->next = st->head;
        st->head = h;
    }
    uint8_t *p = (uint8_t *)(h + 1) + h->used;
    h->used += need;
    if (zero)
        memset(p, 0, need);
    return p;
}

void *mk_gltf_arena_array(struct mk_gltf_storage *st, size_t count, size_t size)
{
    size_t bytes;
    if (!mk_size_mul(count, size, &bytes))
        return NULL;
    return mk_gltf_arena_alloc(st, bytes);
}

char *mk_gltf_arena_strdup(struct mk_gltf_storage *st, const char *s)
{
    size_t n = strlen(s);
    char *d = (char *)mk_gltf_arena_alloc(st, n + 1);
    if (d)
        memcpy(d, s, n + 1);
    return d;
}

void mk_gltf_storage_release_file(struct mk_gltf_storage *st, const void *data)
{
    for (mk_gltf_file **p = &st->file_head; *p; p = &(*p)->next) {
        if ((*p)->data == data) {
            mk_gltf_file *f = *p;
            *p = f->next;
            mk_file_release(&st->files, &st->allocator, f->data, f->size);
            return;
        }
    }
}

void mk_gltf_storage_free(struct mk_gltf_storage *st)
{
    for (mk_gltf_file *f = st->file_head; f; f = f->next)
        mk_file_release(&st->files, &st->allocator, f->data, f->size);
    st->file_head = NULL;
    mk_gltf_block *b = st->head;
    while (b) {
        mk_gltf_block *next = b->next;
        mk_free(&st->allocator, b, sizeof(mk_gltf_block) + b->size);
        b = next;
    }
    st->head = NULL;
}

/* ---- paths and errors ---------------------------------------------------- */

static size_t path_put(const mk_gltf_path *p, char *out, size_t cap)
{
    size_t n = p->parent ? path_put(p->parent, out, cap) : 0;
    int w;
    if (p->index != MK_NONE)
        w = snprintf(out + n, cap - n, "%s%s[%u]", n && p->name[0] ? "." : "", p->name, p->index);
    else
        w = snprintf(out + n, cap - n, "%s%s", n && p->name[0] ? "." : "", p->name);
    if (w < 0)
        return n;
    return n + (size_t)w < cap ? n + (size_t)w : cap - 1;
}

void mk_gltf_path_format(const mk_gltf_path *path, char *out, size_t cap)
{
    out[0] = '\0';
    if (path && cap > 1)
        path_put(path, out, cap);
}

mk_status mk_gltf_fail(mk_gltf_ctx *c, mk_status code, const mk_gltf_path *path, const char *fmt,
                       ...)
{
    char msg[MK_ERROR_MESSAGE_MAX], where[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mk_gltf_path_format(path, where, sizeof where);
    if (where[0])
        return mk_error_set(c->err, code, c->file, 0, "%s: %s", where, msg);
    return mk_error_set(c->err, code, c->file, 0, "%s", msg);
}

