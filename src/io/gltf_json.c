/* glTF reader: the JSON document - jsmn's tokens, checked against the JSON
 * grammar jsmn leaves unchecked and turned into mk_gltf_json_value. */
#include <assert.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "decimal.h"
#include "gltf_internal.h"
#include "io_internal.h"

/* The one place jsmn's code is compiled: static, so it is no symbol of the
 * library; parent links make each close and comma O(1) instead of a scan
 * back over the tokens; strict mode refuses bare words and keys that are
 * not strings. */
#define JSMN_STATIC
#define JSMN_PARENT_LINKS
#define JSMN_STRICT
#include <jsmn.h>

/* ---- the document ---------------------------------------------------------- */

/* RFC 8259 section 6 - jsmn only looks at the first character. */
static bool number_syntax(const char *p, const char *end)
{
    mk_decimal d;
    return mk_decimal_scan(p, end, MK_DECIMAL_JSON, &d) == end;
}

static bool is_space(char ch)
{
    return ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t';
}

/* check_gap for gaps that are not just the separator. */
static uint32_t check_gap_slow(const char *t, uint32_t from, uint32_t to, char sep)
{
    while (from < to && is_space(t[from]))
        from++;
    if (sep) {
        if (from == to || t[from] != sep)
            return from;
        for (from++; from < to && is_space(t[from]);)
            from++;
    }
    return from == to ? UINT32_MAX : from;
}

/* Checks that text[from, to) is blank around exactly one `sep` (none for
 * 0); returns UINT32_MAX, or the offset of the first byte out of place.
 * Minified JSON (no blanks) takes the first test. */
static inline uint32_t check_gap(const char *t, uint32_t from, uint32_t to, char sep)
{
    if (to - from == (sep != 0) && (sep == 0 || t[from] == sep))
        return UINT32_MAX;
    return check_gap_slow(t, from, to, sep);
}

static inline uint32_t outer_start(const mk_gltf_json_value *v)
{
    return v->start - (v->type == MK_GLTF_JSON_STRING); /* the opening quote */
}

static inline uint32_t outer_end(const mk_gltf_json_value *v)
{
    return v->end + (v->type == MK_GLTF_JSON_STRING); /* after the closing quote */
}

/* Turns jsmn's n tokens (in the same memory) into values, in one pass, and
 * checks what jsmn does not: literals and number syntax, the separators
 * between values (jsmn takes `[1 2]`, `{"a" 1}` and `[1,]`), keys with
 * exactly one value, a single document. Until a value's last descendant is
 * seen, its `next` holds its parent's index; the values so still open form
 * a chain from the newest one up to the root. *error_offset: where it is
 * wrong. */
static mk_status convert(mk_gltf_json_value *v, const char *t, size_t len, uint32_t n,
                         size_t *error_offset)
{
    static_assert(sizeof(mk_gltf_json_value) <= sizeof(jsmntok_t), "values replace tokens");
    uint32_t bad = UINT32_MAX, depth = 0; /* arrays and objects open */
    if (n == 0) {
        *error_offset = 0;
        return MK_ERR_PARSE;
    }
    /* i == n closes whatever is open at the end. */
    for (uint32_t i = 0; i <= n; i++) {
        mk_gltf_json_value *e = &v[i < n ? i : 0];
        uint32_t parent = UINT32_MAX;
        if (i < n) {
            jsmntok_t k;
            /* Values are no larger than tokens, so value i never overwrites
             * a token after i: read it first, then write. */
            memcpy(&k, (const char *)v + (size_t)i * sizeof(jsmntok_t), sizeof k);
            e->start = (uint32_t)k.start;
            e->end = (uint32_t)k.end;
            e->size = (uint32_t)k.size;
            e->next = parent = k.parent < 0 ? UINT32_MAX : (uint32_t)k.parent;
            e->escaped = 0;
            const char *s = t + e->start;
            size_t sn = e->end - e->start;
            if (k.type == JSMN_OBJECT) {
                e->type = MK_GLTF_JSON_OBJECT;
            } else if (k.type == JSMN_ARRAY) {
                e->type = MK_GLTF_JSON_ARRAY;
            } else if (k.type == JSMN_STRING) {
                e->type = MK_GLTF_JSON_STRING;
                e->escaped = memchr(s, '\\', sn) != NULL;
            } else if (number_syntax(s, s + sn)) {
                e->type = MK_GLTF_JSON_NUMBER;
            } else if (sn == 4 && memcmp(s, "true", 4) == 0) {
                e->type = MK_GLTF_JSON_TRUE;
            } else if (sn == 5 && memcmp(s, "false", 5) == 0) {
                e->type = MK_GLTF_JSON_FALSE;
            } else if (sn == 4 && memcmp(s, "null", 4) == 0) {
                e->type = MK_GLTF_JSON_NULL;
            } else {
                *error_offset = e->start;
                return MK_ERR_PARSE;
            }
        }
        /* Close the open values that are not i's ancestors, innermost
         * first; sub_end: where the subtree closed last ends. */
        uint32_t sub_end = UINT32_MAX;
        for (uint32_t x = i - 1; i > 0 && x != parent;) {
            if (x == UINT32_MAX) { /* not on the chain: jsmn never does this */
                bad = 0;
                break;
            }
            mk_gltf_json_value *o = &v[x];
            uint32_t up = o->next;
            if (o->type == MK_GLTF_JSON_OBJECT || o->type == MK_GLTF_JSON_ARRAY) {
                /* Blank from the last element (or the bracket) to the close. */
                bad = check_gap(t, sub_end == UINT32_MAX ? o->start + 1 : sub_end, o->end - 1, 0);
                sub_end = o->end;
                depth--;
            } else if (o->type == MK_GLTF_JSON_STRING && up != UINT32_MAX &&
                       v[up].type == MK_GLTF_JSON_OBJECT) {
                if (o->size != 1) /* a key without its value */
                    bad = outer_end(o);
                /* sub_end stays where the key's value ended */
            } else {
                if (o->size != 0) /* `"a":1` in an array, `1:2` */
                    bad = outer_end(o);
                sub_end = outer_end(o);
            }
            if (bad != UINT32_MAX)
                break;
            o->next = i;
            x = up;
        }
        if (bad == UINT32_MAX && i == n) {
            /* After the document: blanks, or padding NULs (jsmn stops at a
             * NUL). */
            for (size_t p = sub_end; p < len && t[p] != '\0'; p++) {
                if (!is_space(t[p])) {
                    bad = (uint32_t)p;
                    break;
                }
            }
        } else if (bad == UINT32_MAX && i == 0) {
            bad = check_gap(t, 0, outer_start(e), 0);
        } else if (bad == UINT32_MAX) {
            const mk_gltf_json_value *p = parent == UINT32_MAX ? NULL : &v[parent];
            if (!p) /* a second value after the document */
                bad = outer_start(e);
            else if (p->type == MK_GLTF_JSON_OBJECT && e->type != MK_GLTF_JSON_STRING)
                bad = outer_start(e);
            else if (p->type == MK_GLTF_JSON_OBJECT || p->type == MK_GLTF_JSON_ARRAY)
                bad = sub_end == UINT32_MAX ? check_gap(t, p->start + 1, outer_start(e), 0)
                                            : check_gap(t, sub_end, outer_start(e), ',');
            else if (p->type == MK_GLTF_JSON_STRING && sub_end == UINT32_MAX)
                bad = check_gap(t, outer_end(p), outer_start(e), ':'); /* key: value */
            else
                bad = outer_start(e);
        }
        if (bad != UINT32_MAX) {
            *error_offset = bad;
            return MK_ERR_PARSE;
        }
        if (i < n && (e->type == MK_GLTF_JSON_OBJECT || e->type == MK_GLTF_JSON_ARRAY) &&
            ++depth > MK_GLTF_JSON_DEPTH) {
            *error_offset = e->start;
            return MK_ERR_LIMIT;
        }
    }
    return MK_OK;
}

/* jsmn closes a bracket by walking up from the newest token to the first
 * open one, so a run of k closing brackets costs k^2 / 2 steps. In a large
 * text, deep nesting is refused before jsmn sees it (convert checks the
 * same limit for free; below MK_GLTF_JSON_SCAN bytes the worst case,
 * (n / 2)^2 / 2 steps, is some milliseconds). Returns the offset of the
 * first bracket beyond MK_GLTF_JSON_DEPTH, or SIZE_MAX. Strings are
 * skipped with memchr, so long data: URIs cost little. */
enum { MK_GLTF_JSON_SCAN = 16 * 1024 };

static size_t too_deep(const char *t, size_t n)
{
    unsigned depth = 0;
    for (size_t i = 0; i < n && t[i] != '\0'; i++) {
        char ch = t[i];
        if (ch == '"') {
            for (;;) { /* to the next quote after an even run of backslashes */
                const char *q = (const char *)memchr(t + i + 1, '"', n - i - 1);
                if (!q)
                    return SIZE_MAX; /* unterminated: jsmn says where */
                i = (size_t)(q - t);
                size_t bs = 0;
                while (t[i - 1 - bs] == '\\') /* stops at the opening quote */
                    bs++;
                if (bs % 2 == 0)
                    break;
            }
        } else if (ch == '[' || ch == '{') {
            if (++depth > MK_GLTF_JSON_DEPTH)
                return i;
        } else if ((ch == ']' || ch == '}') && depth > 0) {
            depth--;
        }
    }
    return SIZE_MAX;
}

mk_status mk_gltf_json_parse(mk_gltf_json *doc, const char *text, size_t size,
                             const mk_allocator *a, size_t *error_offset)
{
    memset(doc, 0, sizeof *doc);
    *error_offset = 0;
    if (size >= INT_MAX) /* jsmn counts in int */
        return MK_ERR_LIMIT;
    if (size > MK_GLTF_JSON_SCAN && (*error_offset = too_deep(text, size)) != SIZE_MAX)
        return MK_ERR_LIMIT;
    *error_offset = 0;
    /* One token array, grown when jsmn runs out (it resumes where it
     * stopped). Minified glTF has about one token per 7 bytes of JSON, so
     * size / 4 is rarely grown; a data: URI is one token of any size, so
     * the first guess is capped. */
    size_t cap = size / 4 + 16;
    if (cap > 65536)
        cap = 65536;
    jsmntok_t *tok = (jsmntok_t *)mk_alloc(a, cap * sizeof(jsmntok_t));
    if (!tok)
        return MK_ERR_OUT_OF_MEMORY;
    jsmn_parser parser;
    jsmn_init(&parser);
    int r;
    while ((r = jsmn_parse(&parser, text, size, tok, (unsigned)cap)) == JSMN_ERROR_NOMEM) {
        size_t ncap = cap * 2 > size + 1 ? size + 1 : cap * 2; /* a token takes a byte */
        jsmntok_t *t2 =
            ncap > cap ? (jsmntok_t *)mk_realloc(a, tok, cap * sizeof(jsmntok_t),
                                                 ncap * sizeof(jsmntok_t))
                       : NULL;
        if (!t2) {
            mk_free(a, tok, cap * sizeof(jsmntok_t));
            return MK_ERR_OUT_OF_MEMORY;
        }
        tok = t2;
        cap = ncap;
    }
    mk_status s = MK_OK;
    if (r < 0) {
        *error_offset = parser.pos < size ? parser.pos : size;
        s = MK_ERR_PARSE;
    } else {
        s = convert((mk_gltf_json_value *)(void *)tok, text, size, (uint32_t)r, error_offset);
    }
    if (s != MK_OK) {
        mk_free(a, tok, cap * sizeof(jsmntok_t));
        return s;
    }
    doc->text = text;
    doc->values = (mk_gltf_json_value *)(void *)tok;
    doc->count = (uint32_t)r;
    doc->bytes = cap * sizeof(jsmntok_t);
    return MK_OK;
}

void mk_gltf_json_free(mk_gltf_json *doc, const mk_allocator *a)
{
    mk_free(a, doc->values, doc->bytes);
    memset(doc, 0, sizeof *doc);
}

