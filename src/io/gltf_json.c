/* glTF reader: the JSON document - one pass over the text that checks the
 * grammar (RFC 8259) and writes the values in document order. */
#include <limits.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

/* The parser reads a copy of the text with MK_JSON_PAD NULs after it: the
 * NUL at n stops every scan as the end of the text would (a NUL ends the
 * text anyway: the document must be whole before it), so the loops need
 * no bounds checks, and a 16-byte load at any offset up to n stays inside
 * the copy. */
enum { MK_JSON_PAD = 16 };

static inline uint32_t skip_space(const char *t, uint32_t i)
{
    /* a blank is at most ' ': most bytes fail the first test (minified JSON) */
    while ((unsigned char)t[i] <= ' ' && (kind[(unsigned char)t[i]] & K_SPACE))
        i++;
    return i;
}

/* The capacity after cap: twice it. A value takes at least 2 bytes of
 * text ("0," or "[]"), so the array grows a few times at most past the
 * first guess. */
static inline uint32_t grown_cap(uint32_t cap)
{
    return cap > UINT32_MAX / 2 ? UINT32_MAX : cap * 2;
}

/* The value array v of cap values grown to ncap; NULL when out of memory
 * or ncap is no larger (v is then unchanged). */
static mk_gltf_json_value *grow(const mk_allocator *a, mk_gltf_json_value *v, uint32_t cap,
                                uint32_t ncap)
{
    return ncap > cap ? mk_realloc(a, v, (size_t)cap * sizeof *v, (size_t)ncap * sizeof *v) : NULL;
}

static inline bool is_hex(char c)
{
    return (unsigned)(c - '0') < 10 || (unsigned)((c | 0x20) - 'a') < 6;
}

/* The offset of the first '"', '\\' or NUL at or after q (there is one: the
 * NUL at n). 16 bytes a step with SSE2; elsewhere 8 on little-endian hosts,
 * where a byte equal to one of the three turns to zero after an xor and
 * the lowest flagged zero byte is exact (a false flag only follows a true
 * one). */
static inline uint32_t string_stop(const char *t, uint32_t q)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), slash = _mm_set1_epi8('\\');
    const __m128i zero = _mm_setzero_si128();
    for (;; q += 16) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(t + q));
        const unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, slash)),
            _mm_cmpeq_epi8(x, zero)));
        if (m)
            return q + (uint32_t)__builtin_ctz(m);
    }
#elif defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t lo = 0x0101010101010101u, hi = 0x8080808080808080u;
    for (;; q += 8) {
        uint64_t x;
        memcpy(&x, t + q, 8);
        const uint64_t a = x ^ (lo * '"'), b = x ^ (lo * '\\');
        const uint64_t m = ((a - lo) & ~a) | ((b - lo) & ~b) | ((x - lo) & ~x);
        if (m & hi)
            return q + (uint32_t)__builtin_ctzll(m & hi) / 8;
    }
#else
    while (t[q] != '"' && t[q] != '\\' && t[q] != '\0')
        q++;
    return q;
#endif
}

/* The string whose opening quote is at i: *end receives the offset of its
 * closing quote, *escaped whether it has a backslash. Escapes are checked
 * (\" \\ \/ \b \f \n \r \t \uXXXX); other bytes pass as they are. False
 * when it is broken or unterminated (a NUL ends the text). */
static inline bool scan_string(const char *t, uint32_t i, uint32_t *end, bool *escaped)
{
    uint32_t q = string_stop(t, i + 1);
    if (t[q] == '"') { /* most strings: no escape */
        *end = q;
        *escaped = false;
        return true;
    }
    *escaped = true;
    for (;;) {
        if (t[q] == '\0')
            return false;
        if (t[q] == '"') {
            *end = q;
            return true;
        }
        /* a backslash at q; the NUL at n fails every test below */
        const char e = t[q + 1];
        if (e == 'u') {
            for (uint32_t k = q + 2; k < q + 6; k++)
                if (!is_hex(t[k]))
                    return false;
            q += 6;
        } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' ||
                   e == 'r' || e == 't') {
            q += 2;
        } else {
            return false;
        }
        q = string_stop(t, q);
    }
}

/* A number or literal at i (its first byte says which may follow): *end
 * receives the offset after it, *small the value of plain digits below
 * 65536, else UINT32_MAX. It must be followed by a blank, a comma or a
 * closing bracket. */
static inline bool scan_scalar(const char *t, uint32_t n, uint32_t i, mk_gltf_json_type *type,
                               uint32_t *end, uint32_t *small)
{
    uint32_t e;
    *small = UINT32_MAX;
    if ((unsigned)(t[i] - '0') < 10) {
        /* most numbers of a glTF document are plain integers (indices,
           counts, offsets): their digits and what follows them suffice
           (past 5 digits x wraps, and is not used) */
        uint32_t x = (uint32_t)(t[i] - '0');
        e = i + 1;
        if (t[i] != '0') /* no leading zero */
            for (unsigned d; (d = (unsigned)(t[e] - '0')) < 10; e++)
                x = x * 10 + d;
        if (kind[(unsigned char)t[e]] & K_END_SCALAR) {
            *type = MK_GLTF_JSON_NUMBER;
            *end = e;
            if (e - i <= 5 && x < 65536)
                *small = x;
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
    } else if (memcmp(t + i, "true", 4) == 0) { /* the padding makes 5 bytes readable */
        e = i + 4;
        *type = MK_GLTF_JSON_TRUE;
    } else if (memcmp(t + i, "false", 5) == 0) {
        e = i + 5;
        *type = MK_GLTF_JSON_FALSE;
    } else if (memcmp(t + i, "null", 4) == 0) {
        e = i + 4;
        *type = MK_GLTF_JSON_NULL;
    } else {
        return false;
    }
    *end = e;
    return kind[(unsigned char)t[e]] & K_END_SCALAR;
}

/* The whole document in t[0, n) (t[n] is a NUL) into *values (*cap values,
 * grown as needed through a; *count of them used). The containers still
 * open are a stack of their value indices, the innermost also in `top`
 * (and whether it is an object in `in_object`); in an object, open_key[]
 * holds its member whose value is being read. The array, its size and
 * capacity live in locals while the loop runs (stores through pointers
 * could alias the text's reads). Every failure sets *error_offset to the
 * byte that is out of place (a broken string or scalar: its first byte). */
static mk_status parse(const mk_allocator *a, const char *const t, const uint32_t n,
                       mk_gltf_json_value **values, uint32_t *cap_io, uint32_t *count_out,
                       size_t *error_offset)
{
    uint32_t open[MK_GLTF_JSON_DEPTH], open_key[MK_GLTF_JSON_DEPTH], depth = 0;
    uint32_t top = 0;
    bool in_object = false;
    mk_gltf_json_value *v = *values;
    uint32_t count = 0, cap = *cap_io;
    mk_status status = MK_OK;
    uint32_t i = skip_space(t, 0);
    /* A new value of `type` starting at `start` in v[count]; its `next` is
     * the one after it (containers and keys get theirs when they close). */
#define MK_JSON_ADD(type, start)                                                                   \
    do {                                                                                           \
        if (count == cap) {                                                                        \
            const uint32_t ncap_ = grown_cap(cap);                                                 \
            mk_gltf_json_value *grown_ = grow(a, v, cap, ncap_);                                   \
            if (!grown_) {                                                                         \
                status = MK_ERR_OUT_OF_MEMORY;                                                     \
                goto done;                                                                         \
            }                                                                                      \
            v = grown_;                                                                            \
            cap = ncap_;                                                                           \
        }                                                                                          \
        v[count] = (mk_gltf_json_value){(uint8_t)(type), {0}, {0}, (start), {(start)}, count + 1}; \
        count++;                                                                                   \
    } while (0)
    for (;;) {
        /* a value at i */
        const char c = t[i];
        if (c == '"') {
            uint32_t end;
            bool esc;
            if (!scan_string(t, i, &end, &esc))
                goto bad;
            MK_JSON_ADD(MK_GLTF_JSON_STRING, i + 1);
            v[count - 1].end = end;
            v[count - 1].escaped = esc;
            i = end + 1;
        } else if (c == '{' || c == '[') {
            if (depth == MK_GLTF_JSON_DEPTH) {
                *error_offset = i;
                status = MK_ERR_LIMIT;
                goto done;
            }
            MK_JSON_ADD(c == '{' ? MK_GLTF_JSON_OBJECT : MK_GLTF_JSON_ARRAY, i);
            v[count - 1].size = 0; /* counted as they come (a container has no end offset) */
            open[depth] = top;
            open_key[depth++] = MK_NONE;
            top = count - 1;
            in_object = c == '{';
            i = skip_space(t, i + 1);
            if (t[i] == (c == '{' ? '}' : ']'))
                goto close; /* empty */
            if (c == '[')
                continue; /* the first element */
            goto key;
        } else if (kind[(unsigned char)c] & (K_NUMBER | K_LITERAL)) {
            mk_gltf_json_type type;
            uint32_t end, small;
            if (!scan_scalar(t, n, i, &type, &end, &small))
                goto bad;
            MK_JSON_ADD(type, i);
            v[count - 1].end = end;
            if (small != UINT32_MAX) {
                v[count - 1].small = 1;
                v[count - 1].value = (uint16_t)small;
            }
            i = end;
        } else {
            goto bad;
        }
    after_value:
        if (depth == 0) {
            /* after the document: blanks, then the end or padding NULs */
            i = skip_space(t, i);
            if (t[i] != '\0')
                goto bad;
            goto done;
        }
        if (in_object)
            v[open_key[depth - 1]].next = count; /* the member ends */
        else
            v[top].size++;
        i = skip_space(t, i);
        if (t[i] == ',') {
            const uint32_t comma = i;
            i = skip_space(t, i + 1);
            if (t[i] == ']' || t[i] == '}') {
                i = comma; /* a trailing comma: the comma is what is wrong */
                goto bad;
            }
            if (!in_object)
                continue; /* the next element */
            goto key;
        }
        if (t[i] != (in_object ? '}' : ']'))
            goto bad;
    close: /* the container `top` closes at i */
        v[top].next = count;
        i++;
        top = open[--depth];
        in_object = depth > 0 && v[top].type == MK_GLTF_JSON_OBJECT;
        goto after_value;
    key: /* a member's key at i, then ':' and its value */
        {
            uint32_t end;
            bool esc;
            if (t[i] != '"' || !scan_string(t, i, &end, &esc))
                goto bad;
            MK_JSON_ADD(MK_GLTF_JSON_STRING, i + 1);
            mk_gltf_json_value *k = &v[count - 1];
            k->end = end;
            k->escaped = esc;
            k->tag = mk_gltf_json_tag(t + i + 1, end - i - 1);
            open_key[depth - 1] = count - 1;
            v[top].size++;
            i = skip_space(t, end + 1);
            if (t[i] != ':')
                goto bad;
            i = skip_space(t, i + 1);
        }
    }
#undef MK_JSON_ADD
bad:
    *error_offset = i < n ? i : n;
    status = MK_ERR_PARSE;
done:
    *values = v;
    *cap_io = cap;
    *count_out = count;
    return status;
}

mk_status mk_gltf_json_parse(mk_gltf_json *doc, const char *text, size_t size,
                             const mk_allocator *a, size_t *error_offset)
{
    memset(doc, 0, sizeof *doc);
    *error_offset = 0;
    if (size >= INT_MAX) /* offsets are 32-bit */
        return MK_ERR_LIMIT;
    /* The copy costs one pass over the text, a small part of the parse. */
    const size_t text_bytes = size + MK_JSON_PAD;
    char *copy = mk_alloc(a, text_bytes);
    if (!copy)
        return MK_ERR_OUT_OF_MEMORY;
    if (size)
        memcpy(copy, text, size);
    memset(copy + size, 0, MK_JSON_PAD);
    /* Minified glTF has about one value per 7 bytes of JSON, so size / 4 is
     * rarely grown; a data: URI is one value of any size, so the first
     * guess is capped. */
    uint32_t cap = (uint32_t)(size / 4 + 16 < 65536 ? size / 4 + 16 : 65536), count = 0;
    mk_gltf_json_value *values = mk_alloc(a, (size_t)cap * sizeof *values);
    mk_status s = values ? parse(a, copy, (uint32_t)size, &values, &cap, &count, error_offset)
                         : MK_ERR_OUT_OF_MEMORY;
    if (s != MK_OK) {
        mk_free(a, values, (size_t)cap * sizeof *values);
        mk_free(a, copy, text_bytes);
        return s;
    }
    doc->text = copy;
    doc->text_bytes = text_bytes;
    doc->values = values;
    doc->count = count;
    doc->bytes = (size_t)cap * sizeof *values;
    return MK_OK;
}

void mk_gltf_json_free(mk_gltf_json *doc, const mk_allocator *a)
{
    mk_free(a, doc->values, doc->bytes);
    mk_free(a, (void *)(uintptr_t)doc->text, doc->text_bytes);
    memset(doc, 0, sizeof *doc);
}
