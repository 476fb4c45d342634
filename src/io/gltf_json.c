/* glTF reader: the model's arena, error formatting and checked JSON access. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"

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

void mk_gltf_storage_free(struct mk_gltf_storage *st)
{
    mk_gltf_block *b = st->head;
    while (b) {
        mk_gltf_block *next = b->next;
        mk_free(&st->allocator, b, sizeof(mk_gltf_block) + b->size);
        b = next;
    }
    st->head = NULL;
}

mk_status mk_gltf_fail(mk_gltf_ctx *c, mk_status code, const char *path, const char *fmt, ...)
{
    char msg[MK_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (path && path[0])
        return mk_error_set(c->err, code, c->file, 0, "%s: %s", path, msg);
    return mk_error_set(c->err, code, c->file, 0, "%s", msg);
}

static const char *json_kind(const cJSON *v)
{
    if (cJSON_IsNumber(v))
        return "a number";
    if (cJSON_IsString(v))
        return "a string";
    if (cJSON_IsArray(v))
        return "an array";
    if (cJSON_IsObject(v))
        return "an object";
    if (cJSON_IsBool(v))
        return "a boolean";
    return "null";
}

/* A non-negative integer below `limit` (exactly representable in a double). */
static mk_status json_integer(mk_gltf_ctx *c, const cJSON *v, const char *path, const char *key,
                              double limit, double *out)
{
    if (!cJSON_IsNumber(v))
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "%s must be a non-negative integer, not %s", key,
                            json_kind(v));
    double d = v->valuedouble;
    if (!(d >= 0.0) || d != floor(d) || d >= limit)
        return mk_gltf_fail(c, d >= limit ? MK_ERR_RANGE : MK_ERR_PARSE, path,
                            "%s must be a non-negative integer below %.0f, not %.17g", key, limit,
                            d);
    *out = d;
    return MK_OK;
}

mk_status mk_gltf_json_uint(mk_gltf_ctx *c, const cJSON *obj, const char *key, const char *path,
                            bool required, uint32_t def, uint32_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        if (required)
            return mk_gltf_fail(c, MK_ERR_PARSE, path, "missing required '%s'", key);
        *out = def;
        return MK_OK;
    }
    double d;
    mk_status s = json_integer(c, v, path, key, 4294967295.0, &d);
    if (s == MK_OK)
        *out = (uint32_t)d;
    return s;
}

mk_status mk_gltf_json_size(mk_gltf_ctx *c, const cJSON *obj, const char *key, const char *path,
                            bool required, size_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        if (required)
            return mk_gltf_fail(c, MK_ERR_PARSE, path, "missing required '%s'", key);
        *out = 0;
        return MK_OK;
    }
    /* 2^53: the largest range a double holds exactly; also below SIZE_MAX on
     * 64-bit. On 32-bit, sizes above SIZE_MAX fail the same way. */
    double limit = 9007199254740992.0;
    if ((double)SIZE_MAX < limit)
        limit = (double)SIZE_MAX;
    double d;
    mk_status s = json_integer(c, v, path, key, limit, &d);
    if (s == MK_OK)
        *out = (size_t)d;
    return s;
}

mk_status mk_gltf_json_index(mk_gltf_ctx *c, const cJSON *obj, const char *key, const char *path,
                             bool required, uint32_t limit, const char *what, uint32_t *out)
{
    uint32_t v = MK_GLTF_NONE;
    mk_status s = mk_gltf_json_uint(c, obj, key, path, required, MK_GLTF_NONE, &v);
    if (s != MK_OK)
        return s;
    if (v != MK_GLTF_NONE && v >= limit)
        return mk_gltf_fail(c, MK_ERR_RANGE, path, "%s %u out of range (%u %s)", key, v, limit,
                            what);
    *out = v;
    return MK_OK;
}

mk_status mk_gltf_json_floats(mk_gltf_ctx *c, const cJSON *obj, const char *key, const char *path,
                              float *out, size_t n, bool *present)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (present)
        *present = v != NULL;
    if (!v)
        return MK_OK;
    if (!cJSON_IsArray(v) || (size_t)cJSON_GetArraySize(v) != n)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "%s must be an array of %zu numbers", key, n);
    size_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach (e, v) {
        if (!cJSON_IsNumber(e) || !(fabs(e->valuedouble) <= FLT_MAX))
            return mk_gltf_fail(c, MK_ERR_PARSE, path, "%s[%zu] must be a number in float range",
                                key, i);
        out[i++] = (float)e->valuedouble;
    }
    return MK_OK;
}

mk_status mk_gltf_json_array(mk_gltf_ctx *c, const cJSON *obj, const char *key, const char *path,
                             const cJSON **arr, uint32_t *count)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *arr = NULL;
    *count = 0;
    if (!v)
        return MK_OK;
    if (!cJSON_IsArray(v))
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "%s must be an array, not %s", key,
                            json_kind(v));
    *arr = v;
    *count = (uint32_t)cJSON_GetArraySize(v);
    return MK_OK;
}

mk_status mk_gltf_json_string(mk_gltf_ctx *c, const cJSON *obj, const char *key, const char *path,
                              char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = NULL;
    if (!v)
        return MK_OK;
    if (!cJSON_IsString(v) || !v->valuestring)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "%s must be a string, not %s", key,
                            json_kind(v));
    *out = mk_gltf_arena_strdup(c->st, v->valuestring);
    if (!*out)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, path, "out of memory");
    return MK_OK;
}

mk_status mk_gltf_json_object(mk_gltf_ctx *c, const cJSON *item, const char *path)
{
    if (!cJSON_IsObject(item))
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "must be an object, not %s", json_kind(item));
    return MK_OK;
}
