/* glTF reader: the JSON document - one pass over the text that checks the
 * grammar (RFC 8259) and writes the values in document order. */
#include <limits.h>
#include <string.h>

#include "decimal.h"
#include "gltf_internal.h"
#include "io_internal.h"

/* A value's first byte tells its kind; the table also marks what may end a
 * number or literal (a blank, a comma, a closing bracket). */
enum { K_SPACE = 1, K_END_SCALAR = 2, K_NUMBER = 4, K_LITERAL = 8 };

static const uint8_t kind[256] = {
    ['\t'] = K_SPACE | K_END_SCALAR, ['\n'] = K_SPACE | K_END_SCALAR,
    ['\r'] = K_SPACE | K_END_SCALAR, [' '] = K_SPACE | K_END_SCALAR,
    [','] = K_END_SCALAR,            [']'] = K_END_SCALAR,
    ['}'] = K_END_SCALAR,            ['-'] = K_NUMBER,
    ['0'] = K_NUMBER,                ['1'] = K_NUMBER,
    ['2'] = K_NUMBER,                ['3'] = K_NUMBER,
    ['4'] = K_NUMBER,                ['5'] = K_NUMBER,
    ['6'] = K_NUMBER,                ['7'] = K_NUMBER,
    ['8'] = K_NUMBER,                ['9'] = K_NUMBER,
    ['t'] = K_LITERAL,               ['f'] = K_LITERAL,
    ['n'] = K_LITERAL,
};

typedef struct parser {
    const char *t;
    uint32_t n; /* bytes of text */
    mk_gltf_json_value *v;
    uint32_t count, cap;
    const mk_allocator *a;
} parser;

/* The byte at i; a NUL past the end (a NUL ends the text: the document
 * must be whole before it). */
static inline char at(const char *t, uint32_t n, uint32_t i)
{
    return i < n ? t[i] : '\0';
}

/* (The text and its length are passed, not the parser: stores to the
 * values could alias its fields, and would reload them at every byte.) */
static inline uint32_t skip_space(const char *t, uint32_t n, uint32_t i)
{
    /* a blank is at most ' ': most bytes fail the first test (minified JSON) */
    while (i < n && (unsigned char)t[i] <= ' ' && (kind[(unsigned char)t[i]] & K_SPACE))
        i++;
    return i;
}

/* Doubles the value array; false when out of memory. A value takes at
 * least 2 bytes of text ("0," or "[]"), so this happens a few times at most
 * past the first guess. */
static bool grow(parser *p)
{
    uint32_t ncap = p->cap > UINT32_MAX / 2 ? UINT32_MAX : p->cap * 2;
    mk_gltf_json_value *nv = ncap > p->cap ? mk_realloc(p->a, p->v, (size_t)p->cap * sizeof *p->v,
                                                        (size_t)ncap * sizeof *p->v)
                                           : NULL;
    if (!nv)
        return false;
    p->v = nv;
    p->cap = ncap;
    return true;
}

/* A new value; its `next` is the one after it (containers and keys get
 * theirs when they close). NULL when out of memory. */
static inline mk_gltf_json_value *add(parser *p, mk_gltf_json_type type, uint32_t start)
{
    if (p->count == p->cap && !grow(p))
        return NULL;
    mk_gltf_json_value *e = &p->v[p->count++];
    *e = (mk_gltf_json_value){(uint8_t)type, 0, 0, start, {start}, p->count};
    return e;
}

static inline bool is_hex(char c)
{
    return (unsigned)(c - '0') < 10 || (unsigned)((c | 0x20) - 'a') < 6;
}

/* The offset of the first '"', '\\' or NUL at or after q, or n. Eight
 * bytes a step on little-endian hosts: a byte equal to one of the three
 * turns to zero after an xor, and the lowest flagged zero byte is exact
 * (a false flag only follows a true one). */
static inline uint32_t string_stop(const char *t, uint32_t q, uint32_t n)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t lo = 0x0101010101010101u, hi = 0x8080808080808080u;
    while (n - q >= 8) {
        uint64_t x;
        memcpy(&x, t + q, 8);
        const uint64_t a = x ^ (lo * '"'), b = x ^ (lo * '\\');
        const uint64_t m = ((a - lo) & ~a) | ((b - lo) & ~b) | ((x - lo) & ~x);
        if (m & hi)
            return q + (uint32_t)__builtin_ctzll(m & hi) / 8;
        q += 8;
    }
#endif
    while (q < n && t[q] != '"' && t[q] != '\\' && t[q] != '\0')
        q++;
    return q;
}

/* The string whose opening quote is at i: *end receives the offset of its
 * closing quote, *escaped whether it has a backslash. Escapes are checked
 * (\" \\ \/ \b \f \n \r \t \uXXXX); other bytes pass as they are. False
 * when it is broken or unterminated (a NUL ends the text). */
static bool scan_string(const parser *p, uint32_t i, uint32_t *end, bool *escaped)
{
    const char *t = p->t;
    uint32_t n = p->n, q = i + 1;
    *escaped = false;
    for (;;) {
        q = string_stop(t, q, n);
        if (q == n || t[q] == '\0')
            return false;
        if (t[q] == '"') {
            *end = q;
            return true;
        }
        /* a backslash at q */
        *escaped = true;
        char e = at(t, n, q + 1);
        if (e == 'u') {
            for (uint32_t k = q + 2; k < q + 6; k++)
                if (!is_hex(at(t, n, k)))
                    return false;
            q += 6;
        } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' ||
                   e == 'r' || e == 't') {
            q += 2;
        } else {
            return false;
        }
    }
}

/* A number or literal at i (its first byte says which may follow): *end
 * receives the offset after it. It must be followed by a blank, a comma or
 * a closing bracket. */
static bool scan_scalar(const parser *p, uint32_t i, mk_gltf_json_type *type, uint32_t *end)
{
    const char *t = p->t;
    const uint32_t n = p->n;
    uint32_t e;
    if (t[i] >= '0' && t[i] <= '9') {
        /* most numbers of a glTF document are plain integers (indices,
           counts, offsets): their digits and what follows them suffice */
        e = i + 1;
        if (t[i] != '0') /* no leading zero */
            while (e < n && t[e] >= '0' && t[e] <= '9')
                e++;
        if (e < n && (kind[(unsigned char)t[e]] & K_END_SCALAR)) {
            *type = MK_GLTF_JSON_NUMBER;
            *end = e;
            return true;
        }
    }
    if (kind[(unsigned char)t[i]] & K_NUMBER) {
        mk_decimal d;
        const char *stop = mk_decimal_scan(t + i, t + n, MK_DECIMAL_JSON, &d);
        if (!stop)
            return false;
        e = (uint32_t)(stop - t);
        *type = MK_GLTF_JSON_NUMBER;
    } else if (n - i >= 4 && memcmp(t + i, "true", 4) == 0) {
        e = i + 4;
        *type = MK_GLTF_JSON_TRUE;
    } else if (n - i >= 5 && memcmp(t + i, "false", 5) == 0) {
        e = i + 5;
        *type = MK_GLTF_JSON_FALSE;
    } else if (n - i >= 4 && memcmp(t + i, "null", 4) == 0) {
        e = i + 4;
        *type = MK_GLTF_JSON_NULL;
    } else {
        return false;
    }
    *end = e;
    return e < n && (kind[(unsigned char)t[e]] & K_END_SCALAR);
}

/* The whole document. The containers still open are a stack of their
 * value indices; in an object, open_key[] holds its member whose value is
 * being read. Every failure sets *error_offset to the byte that is out of
 * place (a broken string or scalar: its first byte). */
static mk_status parse(parser *p, size_t *error_offset)
{
    uint32_t open[MK_GLTF_JSON_DEPTH], open_key[MK_GLTF_JSON_DEPTH], depth = 0;
    const char *const t = p->t;
    const uint32_t n = p->n;
    uint32_t i = skip_space(t, n, 0);
    for (;;) {
        /* a value at i */
        char c = at(t, n, i);
        mk_gltf_json_value *e;
        if (c == '{' || c == '[') {
            if (depth == MK_GLTF_JSON_DEPTH) {
                *error_offset = i;
                return MK_ERR_LIMIT;
            }
            if (!(e = add(p, c == '{' ? MK_GLTF_JSON_OBJECT : MK_GLTF_JSON_ARRAY, i)))
                return MK_ERR_OUT_OF_MEMORY;
            e->size = 0; /* counted as they come (a container has no end offset) */
            open[depth] = p->count - 1;
            open_key[depth++] = MK_NONE;
            i = skip_space(t, n, i + 1);
            if (at(t, n, i) == (c == '{' ? '}' : ']'))
                goto close; /* empty */
            if (c == '[')
                continue; /* the first element */
            goto key;
        } else if (c == '"') {
            uint32_t end;
            bool esc;
            if (!scan_string(p, i, &end, &esc))
                goto bad;
            if (!(e = add(p, MK_GLTF_JSON_STRING, i + 1)))
                return MK_ERR_OUT_OF_MEMORY;
            e->end = end;
            e->escaped = esc;
            i = end + 1;
        } else if (c != '\0' && (kind[(unsigned char)c] & (K_NUMBER | K_LITERAL))) {
            mk_gltf_json_type type;
            uint32_t end;
            if (!scan_scalar(p, i, &type, &end))
                goto bad;
            if (!(e = add(p, type, i)))
                return MK_ERR_OUT_OF_MEMORY;
            e->end = end;
            i = end;
        } else {
            goto bad;
        }
    after_value:
        if (depth == 0) {
            /* after the document: blanks, then the end or padding NULs */
            i = skip_space(t, n, i);
            if (i < n && t[i] != '\0')
                goto bad;
            return MK_OK;
        }
        {
            mk_gltf_json_value *top = &p->v[open[depth - 1]];
            if (top->type == MK_GLTF_JSON_OBJECT)
                p->v[open_key[depth - 1]].next = p->count; /* the member ends */
            else
                top->size++;
            i = skip_space(t, n, i);
            c = at(t, n, i);
            if (c == ',') {
                uint32_t comma = i;
                i = skip_space(t, n, i + 1);
                if (at(t, n, i) == ']' || at(t, n, i) == '}') {
                    i = comma; /* a trailing comma: the comma is what is wrong */
                    goto bad;
                }
                if (top->type == MK_GLTF_JSON_ARRAY)
                    continue; /* the next element */
                goto key;
            }
            if (c != (top->type == MK_GLTF_JSON_OBJECT ? '}' : ']'))
                goto bad;
        }
    close: /* the container open[depth - 1] closes at i */
        {
            mk_gltf_json_value *top = &p->v[open[--depth]];
            top->next = p->count;
            i++;
        }
        goto after_value;
    key: /* a member's key at i, then ':' and its value */
        {
            uint32_t end;
            bool esc;
            if (at(t, n, i) != '"' || !scan_string(p, i, &end, &esc))
                goto bad;
            if (!(e = add(p, MK_GLTF_JSON_STRING, i + 1)))
                return MK_ERR_OUT_OF_MEMORY;
            e->end = end;
            e->escaped = esc;
            e->tag = mk_gltf_json_tag(t + i + 1, end - i - 1);
            open_key[depth - 1] = p->count - 1;
            p->v[open[depth - 1]].size++;
            i = skip_space(t, n, end + 1);
            if (at(t, n, i) != ':')
                goto bad;
            i = skip_space(t, n, i + 1);
        }
    }
bad:
    *error_offset = i < n ? i : n;
    return MK_ERR_PARSE;
}

mk_status mk_gltf_json_parse(mk_gltf_json *doc, const char *text, size_t size,
                             const mk_allocator *a, size_t *error_offset)
{
    memset(doc, 0, sizeof *doc);
    *error_offset = 0;
    if (size >= INT_MAX) /* offsets are 32-bit */
        return MK_ERR_LIMIT;
    /* Minified glTF has about one value per 7 bytes of JSON, so size / 4 is
     * rarely grown; a data: URI is one value of any size, so the first
     * guess is capped. */
    parser p = {text, (uint32_t)size, NULL, 0, 0, a};
    p.cap = (uint32_t)(size / 4 + 16 < 65536 ? size / 4 + 16 : 65536);
    p.v = mk_alloc(a, (size_t)p.cap * sizeof *p.v);
    if (!p.v)
        return MK_ERR_OUT_OF_MEMORY;
    mk_status s = parse(&p, error_offset);
    if (s != MK_OK) {
        mk_free(a, p.v, (size_t)p.cap * sizeof *p.v);
        return s;
    }
    doc->text = text;
    doc->values = p.v;
    doc->count = p.count;
    doc->bytes = (size_t)p.cap * sizeof *p.v;
    return MK_OK;
}

void mk_gltf_json_free(mk_gltf_json *doc, const mk_allocator *a)
{
    mk_free(a, doc->values, doc->bytes);
    memset(doc, 0, sizeof *doc);
}
