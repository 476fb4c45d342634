/* glTF reader: reading the JSON document - string decoding, member lookup
 * and the checked getters that report a JSON path on error. */
#include <assert.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "decimal.h"
#include "gltf_internal.h"
#include "io_internal.h"

/* ---- strings ------------------------------------------------------------- */

static int hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char ch = p[i];
        int d = ch >= '0' && ch <= '9'   ? ch - '0'
                : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                         : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* Decodes the JSON string text [p, end) into out (cap bytes, cut to fit
 * and NUL-terminated when cap > 0); returns the full decoded length. \u
 * escapes become UTF-8, surrogate pairs one code point, a lone surrogate
 * U+FFFD. The output is never longer than the input. */
static size_t decode_string(const char *p, const char *end, char *out, size_t cap)
{
    size_t o = 0;
#define MK_PUT(byte)                                                                               \
    do {                                                                                           \
        if (o + 1 < cap)                                                                           \
            out[o] = (char)(byte);                                                                 \
        o++;                                                                                       \
    } while (0)
    while (p < end) {
        char ch = *p++;
        if (ch != '\\' || p == end) {
            MK_PUT(ch);
            continue;
        }
        ch = *p++;
        uint32_t cp;
        switch (ch) {
        case 'b':
            cp = '\b';
            break;
        case 'f':
            cp = '\f';
            break;
        case 'n':
            cp = '\n';
            break;
        case 'r':
            cp = '\r';
            break;
        case 't':
            cp = '\t';
            break;
        case 'u': {
            int h = end - p >= 4 ? hex4(p) : -1;
            if (h < 0) { /* gltf_json.c lets no such string through */
                cp = 0xFFFD;
                break;
            }
            p += 4;
            cp = (uint32_t)h;
            if (cp >= 0xD800 && cp < 0xDC00) {
                int lo = end - p >= 6 && p[0] == '\\' && p[1] == 'u' ? hex4(p + 2) : -1;
                if (lo >= 0xDC00 && lo < 0xE000) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
                    p += 6;
                } else {
                    cp = 0xFFFD;
                }
            } else if (cp >= 0xDC00 && cp < 0xE000) {
                cp = 0xFFFD;
            }
            break;
        }
        default: /* '"', '\\', '/' */
            cp = (unsigned char)ch;
        }
        if (cp < 0x80) {
            MK_PUT(cp);
        } else if (cp < 0x800) {
            MK_PUT(0xC0 | cp >> 6);
            MK_PUT(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            MK_PUT(0xE0 | cp >> 12);
            MK_PUT(0x80 | (cp >> 6 & 0x3F));
            MK_PUT(0x80 | (cp & 0x3F));
        } else {
            MK_PUT(0xF0 | cp >> 18);
            MK_PUT(0x80 | (cp >> 12 & 0x3F));
            MK_PUT(0x80 | (cp >> 6 & 0x3F));
            MK_PUT(0x80 | (cp & 0x3F));
        }
    }
#undef MK_PUT
    if (cap > 0)
        out[o < cap ? o : cap - 1] = '\0';
    return o;
}

size_t mk_gltf_json_string_copy(const mk_gltf_json *doc, const mk_gltf_json_value *v, char *out,
                                size_t cap)
{
    const char *p = doc->text + v->start, *end = doc->text + v->end;
    if (!v->escaped) {
        size_t n = (size_t)(end - p);
        if (cap > 0) {
            size_t k = n < cap ? n : cap - 1;
            memcpy(out, p, k);
            out[k] = '\0';
        }
        return n;
    }
    return decode_string(p, end, out, cap);
}

/* a and b agree in their first and last w bytes (w is 4 or 8, w <= n <= 2w:
 * two overlapping words cover all n). */
static inline bool same_ends(const char *a, const char *b, size_t n, size_t w)
{
    uint64_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    memcpy(&x0, a, w);
    memcpy(&y0, b, w);
    memcpy(&x1, a + n - w, w);
    memcpy(&y1, b + n - w, w);
    return ((x0 ^ y0) | (x1 ^ y1)) == 0;
}

/* a[0, n) equals b[0, n): keys are short, so in words where n allows (no
 * call), byte by byte below 4. */
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
    if (n >= 8 && n <= 16)
        return same_ends(a, b, n, 8); /* a constant width: plain loads */
    if (n >= 4 && n < 8)
        return same_ends(a, b, n, 4);
    if (n < 4) {
        for (size_t i = 0; i < n; i++)
            if (a[i] != b[i])
                return false;
        return true;
    }
    return memcmp(a, b, n) == 0;
}

/* String v, which has escapes, decodes to s[0, n) (n < 256). */
static bool escaped_equals(const mk_gltf_json *doc, const mk_gltf_json_value *v, const char *s,
                           size_t n)
{
    /* Escapes only make text longer: a shorter one cannot match. */
    if (v->end - v->start < n)
        return false;
    char buf[256];
    size_t got = decode_string(doc->text + v->start, doc->text + v->end, buf, sizeof buf);
    return got == n && n < sizeof buf && memcmp(buf, s, n) == 0;
}

/* String v equals s[0, n) (n < 256). */
static inline bool string_equals(const mk_gltf_json *doc, const mk_gltf_json_value *v,
                                 const char *s, size_t n)
{
    if (v->escaped)
        return escaped_equals(doc, v, s, n);
    return v->end - v->start == n && same_bytes(doc->text + v->start, s, n);
}

bool mk_gltf_json_string_is_n(const mk_gltf_json *doc, const mk_gltf_json_value *v, const char *s,
                              size_t n)
{
    return mk_gltf_json_is(v, MK_GLTF_JSON_STRING) && string_equals(doc, v, s, n);
}

const mk_gltf_json_value *mk_gltf_json_get_n(const mk_gltf_json *doc,
                                             const mk_gltf_json_value *obj, const char *key,
                                             size_t n)
{
    if (!mk_gltf_json_is(obj, MK_GLTF_JSON_OBJECT))
        return NULL;
    const mk_gltf_json_value *k;
    const uint16_t tag = mk_gltf_json_tag(key, n);
    MK_GLTF_JSON_EACH (doc, k, obj) {
        if (k->escaped ? escaped_equals(doc, k, key, n)
                       : k->tag == tag && k->end - k->start == n &&
                             same_bytes(doc->text + k->start, key, n))
            return k + 1; /* the value follows its key */
    }
    return NULL;
}

static inline uint32_t tag_slot(uint16_t tag)
{
    return (uint32_t)(tag * 40503u) >> 10 & 63; /* 40503: 2^16 / golden ratio */
}

void mk_gltf_json_key_set_init(mk_gltf_json_key_set *set, const mk_gltf_json_key *keys,
                               uint32_t count)
{
    assert(count <= 16);
    set->keys = keys;
    set->count = count;
    memset(set->slot, 0, sizeof set->slot);
    for (uint32_t j = 0; j < count; j++) {
        set->tags[j] = mk_gltf_json_tag(keys[j].s, keys[j].n);
        uint32_t h = tag_slot(set->tags[j]);
        while (set->slot[h])
            h = (h + 1) & 63;
        set->slot[h] = (uint8_t)(j + 1);
    }
}

void mk_gltf_json_pick(const mk_gltf_json *doc, const mk_gltf_json_value *obj,
                       const mk_gltf_json_key_set *set, const mk_gltf_json_value **out)
{
    for (uint32_t j = 0; j < set->count; j++)
        out[j] = NULL;
    if (!mk_gltf_json_is(obj, MK_GLTF_JSON_OBJECT))
        return;
    const mk_gltf_json_value *k;
    MK_GLTF_JSON_EACH (doc, k, obj) {
        uint32_t j = MK_NONE;
        if (k->escaped) { /* rare: each key in turn */
            for (uint32_t i = 0; i < set->count && j == MK_NONE; i++)
                if (escaped_equals(doc, k, set->keys[i].s, set->keys[i].n))
                    j = i;
        } else {
            for (uint32_t h = tag_slot(k->tag); set->slot[h]; h = (h + 1) & 63) {
                const uint32_t i = set->slot[h] - 1u;
                if (set->tags[i] == k->tag && k->end - k->start == set->keys[i].n &&
                    same_bytes(doc->text + k->start, set->keys[i].s, set->keys[i].n)) {
                    j = i;
                    break;
                }
            }
        }
        if (j != MK_NONE && !out[j])
            out[j] = k + 1;
    }
}

/* ---- numbers ------------------------------------------------------------- */

/* The token's syntax was checked when the document was parsed. */
static void json_decimal(const mk_gltf_json *doc, const mk_gltf_json_value *v, mk_decimal *d)
{
    const char *end = doc->text + v->end;
    const char *q = mk_decimal_scan(doc->text + v->start, end, MK_DECIMAL_JSON, d);
    assert(q == end);
    (void)q;
}

double mk_gltf_json_double(const mk_gltf_json *doc, const mk_gltf_json_value *v)
{
    if (v->type == MK_GLTF_JSON_NUMBER && v->small) /* read by the tokenizer */
        return v->value;
    /* most numbers of a glTF document are indices and counts: a run of up
       to 15 digits is exactly that integer (the decimal reading gives the
       same double), without the general reader */
    const char *p = doc->text + v->start;
    uint32_t n = v->end - v->start;
    if (n <= 15) {
        uint64_t x = 0;
        uint32_t i = 0;
        while (i < n && p[i] >= '0' && p[i] <= '9')
            x = x * 10 + (uint64_t)(p[i++] - '0');
        if (i == n)
            return (double)x;
    }
    mk_decimal d;
    json_decimal(doc, v, &d);
    return mk_decimal_double(&d);
}

/* ---- checked access ------------------------------------------------------ */

const char *mk_gltf_json_kind(const mk_gltf_json_value *v)
{
    switch (v ? v->type : MK_GLTF_JSON_NULL) {
    case MK_GLTF_JSON_NUMBER:
        return "a number";
    case MK_GLTF_JSON_STRING:
        return "a string";
    case MK_GLTF_JSON_ARRAY:
        return "an array";
    case MK_GLTF_JSON_OBJECT:
        return "an object";
    case MK_GLTF_JSON_TRUE:
    case MK_GLTF_JSON_FALSE:
        return "a boolean";
    }
    return "null";
}

/* A non-negative integer below `limit` (exactly representable in a double). */
static mk_status json_integer(mk_gltf_ctx *c, const mk_gltf_json_value *v,
                              const mk_gltf_path *path, const char *key, double limit, double *out)
{
    if (!mk_gltf_json_is(v, MK_GLTF_JSON_NUMBER))
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "%s must be a non-negative integer, not %s", key,
                            mk_gltf_json_kind(v));
    if (v->small && v->value < limit) { /* read by the tokenizer */
        *out = v->value;
        return MK_OK;
    }
    /* Most are plain digits (the tokenizer let no leading zero through):
     * up to 9 of them are the integer itself */
    const char *p = c->json->text + v->start;
    const uint32_t n = v->end - v->start;
    if (n <= 9) {
        uint32_t x = 0, i = 0;
        while (i < n && p[i] >= '0' && p[i] <= '9')
            x = x * 10 + (uint32_t)(p[i++] - '0');
        if (i == n && (double)x < limit) {
            *out = (double)x;
            return MK_OK;
        }
    }
    /* Through the double: "3.0" and "1e2" are integers, and anything at or
     * above limit (even 1e400) is a range error, not a parse error. */
    double d = mk_gltf_json_double(c->json, v);
    if (!(d >= 0.0) || d != floor(d) || d >= limit)
        return mk_gltf_fail(c, d >= limit ? MK_ERR_RANGE : MK_ERR_PARSE, path,
                            "%s must be a non-negative integer below %.0f, not %.17g", key, limit,
                            d);
    *out = d;
    return MK_OK;
}

mk_status mk_gltf_json_uint_value(mk_gltf_ctx *c, const mk_gltf_json_value *v, const char *key,
                                  const mk_gltf_path *path, bool required, uint32_t def,
                                  uint32_t *out)
{
    if (!v) {
        if (required)
            return mk_gltf_fail(c, MK_ERR_PARSE, path, "missing required '%s'", key);
        *out = def;
        return MK_OK;
    }
    double d = 0.0; /* json_integer sets it on MK_OK; gcc -O2 cannot see that */
    mk_status s = json_integer(c, v, path, key, 4294967295.0, &d);
    if (s == MK_OK)
        *out = (uint32_t)d;
    return s;
}

mk_status mk_gltf_json_size_value(mk_gltf_ctx *c, const mk_gltf_json_value *v, const char *key,
                                  const mk_gltf_path *path, bool required, size_t *out)
{
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
    double d = 0.0; /* json_integer sets it on MK_OK; gcc -O2 cannot see that */
    mk_status s = json_integer(c, v, path, key, limit, &d);
    if (s == MK_OK)
        *out = (size_t)d;
    return s;
}

mk_status mk_gltf_json_index_value(mk_gltf_ctx *c, const mk_gltf_json_value *member,
                                   const char *key, const mk_gltf_path *path, bool required,
                                   uint32_t limit, const char *what, uint32_t *out)
{
    uint32_t v = MK_NONE;
    mk_status s = mk_gltf_json_uint_value(c, member, key, path, required, MK_NONE, &v);
    if (s != MK_OK)
        return s;
    if (v != MK_NONE && v >= limit)
        return mk_gltf_fail(c, MK_ERR_RANGE, path, "%s %u out of range (%u %s)", key, v, limit,
                            what);
    *out = v;
    return MK_OK;
}

mk_status mk_gltf_json_floats_value(mk_gltf_ctx *c, const mk_gltf_json_value *v, const char *key,
                                    const mk_gltf_path *path, float *out, size_t n,
                                    bool *present)
{
    if (present)
        *present = v != NULL;
    if (!v)
        return MK_OK;
    if (!mk_gltf_json_is(v, MK_GLTF_JSON_ARRAY) || v->size != n)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "%s must be an array of %zu numbers", key, n);
    size_t i = 0;
    const mk_gltf_json_value *e;
    MK_GLTF_JSON_EACH (c->json, e, v) {
        float f = INFINITY;
        if (e->type == MK_GLTF_JSON_NUMBER) {
            mk_decimal d;
            json_decimal(c->json, e, &d);
            f = mk_decimal_float(&d);
        }
        if (!(fabsf(f) <= FLT_MAX)) /* beyond float range the scan gives inf */
            return mk_gltf_fail(c, MK_ERR_PARSE, path, "%s[%zu] must be a number in float range",
                                key, i);
        out[i++] = f;
    }
    return MK_OK;
}

mk_status mk_gltf_json_array_value(mk_gltf_ctx *c, const mk_gltf_json_value *v, const char *key,
                                   const mk_gltf_path *path, const mk_gltf_json_value **arr,
                                   uint32_t *count)
{
    *arr = NULL;
    *count = 0;
    if (!v)
        return MK_OK;
    if (!mk_gltf_json_is(v, MK_GLTF_JSON_ARRAY))
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "%s must be an array, not %s", key,
                            mk_gltf_json_kind(v));
    *arr = v;
    *count = v->size;
    return MK_OK;
}

char *mk_gltf_json_strdup(mk_gltf_ctx *c, const mk_gltf_json_value *v)
{
    size_t n = v->end - v->start; /* decoding never makes it longer */
    char *d = (char *)mk_gltf_arena_alloc_uninit(c->st, n + 1);
    if (d)
        mk_gltf_json_string_copy(c->json, v, d, n + 1);
    return d;
}

mk_status mk_gltf_json_string_value(mk_gltf_ctx *c, const mk_gltf_json_value *v,
                                    const char *key, const mk_gltf_path *path, char **out)
{
    *out = NULL;
    if (!v)
        return MK_OK;
    if (!mk_gltf_json_is(v, MK_GLTF_JSON_STRING))
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "%s must be a string, not %s", key,
                            mk_gltf_json_kind(v));
    *out = mk_gltf_json_strdup(c, v);
    if (!*out)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, path, "out of memory");
    return MK_OK;
}

mk_status mk_gltf_json_object(mk_gltf_ctx *c, const mk_gltf_json_value *item,
                              const mk_gltf_path *path)
{
    if (!mk_gltf_json_is(item, MK_GLTF_JSON_OBJECT))
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "must be an object, not %s",
                            mk_gltf_json_kind(item));
    return MK_OK;
}
