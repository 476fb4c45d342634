/* The OBJ reader: one pass over the text in memory, numbers through the
 * shared decimal reader (decimal.h), arrays grown by doubling. Triangles are written straight from the corner stream, so a face
 * of any size needs no buffer. */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "decimal.h"
#include "internal.h"
#include "io_internal.h"
#include "morphkit/obj.h"

#define MK_OBJ_DEFAULT_MAX_ELEMENTS (UINT32_C(1) << 26)
#define MK_OBJ_DEFAULT_MAX_FILE ((size_t)1 << 31)

/* A growable block; bytes is what was asked of the allocator. */
typedef struct grow_buf {
    void *p;
    size_t bytes;
} grow_buf;

enum { BUF_POS, BUF_TEX, BUF_NRM, BUF_CPOS, BUF_CTEX, BUF_CNRM, BUF_TLINE, BUF_TFACE, BUF_COUNT };

typedef enum kind { KIND_V, KIND_VT, KIND_VN } kind;
static const char *const kind_names[] = {"v", "vt", "vn"};

typedef struct parser {
    const char *name;
    const mk_allocator *a;
    mk_error *err;
    mk_status status; /* of the first error */
    uint32_t max;
    size_t line;
    uint32_t count[3]; /* v, vt, vn so far */
    uint32_t tri_count, tri_cap, face_count;
    bool forward; /* some absolute index pointed past what was defined */
    grow_buf buf[BUF_COUNT];
} parser;

typedef struct corner {
    int64_t raw[3];  /* as written */
    unsigned form;   /* bit 0: has vt, bit 1: has vn */
    uint32_t idx[3]; /* 0-based, MK_NONE when absent */
} corner;

/* ---- characters and numbers -------------------------------------------- */

static inline bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* Where a token may end: blank, line end, comment or end of text. */
static inline bool is_delim(const char *p, const char *end)
{
    return p == end || is_blank(*p) || *p == '\n' || *p == '#';
}

static inline const char *skip_blank(const char *p, const char *end)
{
    while (p < end && is_blank(*p))
        p++;
    return p;
}

static const char *token_end(const char *p, const char *end)
{
    while (!is_delim(p, end))
        p++;
    return p;
}

static int line_of(const parser *ps)
{
    return ps->line > INT_MAX ? INT_MAX : (int)ps->line;
}

/* Records an error at the current line; evaluates to NULL for the callers
 * that return the parse position. */
#define PARSE_FAIL(ps, code, ...)                                                                  \
    ((ps)->status = mk_error_set((ps)->err, (code), (ps)->name, line_of(ps), __VA_ARGS__),         \
     (const char *)NULL)

static bool starts_nonfinite(const char *p, const char *end)
{
    if (p < end && (*p == '-' || *p == '+'))
        p++;
    if (end - p < 3)
        return false;
    char a = (char)(p[0] | 32), b = (char)(p[1] | 32), c = (char)(p[2] | 32);
    return (a == 'n' && b == 'a' && c == 'n') || (a == 'i' && b == 'n' && c == 'f');
}

/* ---- errors -------------------------------------------------------------- */

/* Quotes at most 64 bytes of the token at p. */
static int quote_len(const char *p, const char *end)
{
    const char *e = token_end(p, end);
    return (int)(e - p > 64 ? 64 : e - p);
}

static const char *bad_number(parser *ps, const char *p, const char *end)
{
    if (starts_nonfinite(p, end))
        return PARSE_FAIL(ps, MK_ERR_PARSE, "not a finite number '%.*s'", quote_len(p, end), p);
    return PARSE_FAIL(ps, MK_ERR_PARSE, "bad number '%.*s'", quote_len(p, end), p);
}

static const char *oom(parser *ps)
{
    return PARSE_FAIL(ps, MK_ERR_OUT_OF_MEMORY, "out of memory");
}

static const char *too_many(parser *ps, const char *what)
{
    return PARSE_FAIL(ps, MK_ERR_LIMIT, "more than %u %s (max_elements)", ps->max, what);
}

/* ---- growth -------------------------------------------------------------- */

static bool grow_slow(parser *ps, grow_buf *b, size_t need)
{
    size_t cap = b->bytes ? b->bytes : 4096;
    while (cap < need)
        if (!mk_size_mul(cap, 2, &cap))
            return false;
    void *p = mk_realloc(ps->a, b->p, b->bytes, cap);
    if (!p)
        return false;
    b->p = p;
    b->bytes = cap;
    return true;
}

static inline bool grow(parser *ps, grow_buf *b, size_t need)
{
    return need <= b->bytes || grow_slow(ps, b, need);
}

/* Starts the per-corner vt or vn array on first use; earlier corners had none. */
static bool activate(parser *ps, int which)
{
    grow_buf *b = &ps->buf[which];
    if (b->p)
        return true;
    if (!grow(ps, b, (size_t)(ps->tri_cap ? ps->tri_cap : 1) * 12))
        return false;
    uint32_t *c = b->p;
    for (size_t i = 0; i < (size_t)ps->tri_count * 3; i++)
        c[i] = MK_NONE;
    return true;
}

static bool reserve_triangle(parser *ps)
{
    if (ps->tri_count < ps->tri_cap)
        return true;
    size_t cap = ps->tri_cap ? (size_t)ps->tri_cap * 2 : 1024;
    if (cap > ps->max)
        cap = ps->max;
    size_t b12, b4;
    if (!mk_size_mul(cap, 12, &b12) || !mk_size_mul(cap, 4, &b4))
        return false;
    if (!grow(ps, &ps->buf[BUF_CPOS], b12) || !grow(ps, &ps->buf[BUF_TLINE], b4) ||
        !grow(ps, &ps->buf[BUF_TFACE], b4))
        return false;
    for (int i = BUF_CTEX; i <= BUF_CNRM; i++)
        if (ps->buf[i].p && !grow(ps, &ps->buf[i], b12))
            return false;
    ps->tri_cap = (uint32_t)cap;
    return true;
}

/* ---- statements ---------------------------------------------------------- */

/* Reads `v`, `vt` or `vn` numbers: `need` required, the first `keep` stored
 * (missing ones 0), further numbers checked and dropped (w, colours). */
static inline const char *parse_vertex(parser *ps, const char *p, const char *end, kind k, int need,
                                       int keep)
{
    uint32_t n = ps->count[k];
    if (n == ps->max)
        return too_many(ps, kind_names[k]);
    grow_buf *b = &ps->buf[BUF_POS + k];
    if (!grow(ps, b, ((size_t)n + 1) * (size_t)keep * sizeof(float)))
        return oom(ps);
    float *dst = (float *)b->p + (size_t)n * (size_t)keep;
    int got = 0;
    for (;;) {
        p = skip_blank(p, end);
        if (p == end || *p == '\n' || *p == '#')
            break;
        mk_decimal dec;
        const char *q = mk_decimal_scan(p, end, MK_DECIMAL_OBJ, &dec);
        if (!q || !is_delim(q, end))
            return bad_number(ps, p, end);
        float f = mk_decimal_float(&dec);
        if (!isfinite(f))
            return PARSE_FAIL(ps, MK_ERR_RANGE, "number out of float range '%.*s'",
                              quote_len(p, end), p);
        if (got < keep)
            dst[got] = f;
        got++;
        p = q;
    }
    if (got < need)
        return PARSE_FAIL(ps, MK_ERR_PARSE, "'%s' needs %d number%s, found %d", kind_names[k], need,
                          need == 1 ? "" : "s", got);
    for (; got < keep; got++)
        dst[got] = 0.0f;
    ps->count[k] = n + 1;
    return p;
}

/* Turns a written index into a 0-based one; false (error set) when invalid. */
static bool resolve_slow(parser *ps, int64_t raw, kind k, uint32_t *out)
{
    uint32_t n = ps->count[k];
    const char *kn = kind_names[k];
    if (raw == 0) {
        (void)PARSE_FAIL(ps, MK_ERR_RANGE, "%s index 0 is invalid (OBJ indices start at 1)", kn);
        return false;
    }
    /* a capped value is not what was written: say only how large it is */
    const char *beyond = raw <= -MK_DECIMAL_INDEX_CAP ? "at most "
                         : raw >= MK_DECIMAL_INDEX_CAP ? "at least "
                                                       : "";
    if (raw < 0) {
        /* Relative: -1 is the last element defined before this line. */
        if (-raw > (int64_t)n) {
            (void)PARSE_FAIL(ps, MK_ERR_RANGE,
                             "%s index %s%lld out of range (%u %s defined before this line)", kn,
                             beyond, (long long)raw, n, kn);
            return false;
        }
        *out = (uint32_t)((int64_t)n + raw);
        return true;
    }
    if (raw > (int64_t)ps->max) {
        (void)PARSE_FAIL(ps, MK_ERR_RANGE, "%s index %s%lld out of range (max_elements is %u)",
                         kn, beyond, (long long)raw, ps->max);
        return false;
    }
    /* A forward reference is checked once the whole file is read. */
    if (raw > (int64_t)n)
        ps->forward = true;
    *out = (uint32_t)(raw - 1);
    return true;
}

/* The usual case, an index to an element already defined, stays inline. */
static inline bool resolve(parser *ps, int64_t raw, kind k, uint32_t *out)
{
    if (raw > 0 && raw <= (int64_t)ps->count[k]) {
        *out = (uint32_t)(raw - 1);
        return true;
    }
    return resolve_slow(ps, raw, k, out);
}

/* [+-] digits, capped (mk_decimal_index); NULL when p has no index. */
static inline const char *scan_index(const char *p, const char *end, int64_t *out)
{
    mk_decimal dec;
    p = mk_decimal_scan(p, end, MK_DECIMAL_INDEX, &dec);
    if (p)
        *out = mk_decimal_index(&dec);
    return p;
}

static const char *malformed_corner(parser *ps, const char *p, const char *end)
{
    return PARSE_FAIL(ps, MK_ERR_PARSE,
                      "malformed face corner '%.*s' (expected v, v/vt, v//vn or v/vt/vn)",
                      quote_len(p, end), p);
}

/* One corner: syntax first (so `1/2/3/4` is called malformed, not out of
 * range), then each index resolved. */
static inline const char *parse_corner(parser *ps, const char *p, const char *end, corner *c)
{
    const char *q = scan_index(p, end, &c->raw[KIND_V]);
    c->form = 0;
    if (!q)
        return malformed_corner(ps, p, end);
    if (q < end && *q == '/') {
        q++;
        if (q < end && *q != '/') {
            q = scan_index(q, end, &c->raw[KIND_VT]);
            if (!q)
                return malformed_corner(ps, p, end); /* `1/`, `1/x` */
            c->form |= 1;
        }
        if (q < end && *q == '/') {
            q = scan_index(q + 1, end, &c->raw[KIND_VN]);
            if (!q)
                return malformed_corner(ps, p, end); /* `1//`, `1/2/` */
            c->form |= 2;
        } else if (c->form == 0) {
            return malformed_corner(ps, p, end); /* `1/` at the end */
        }
    }
    if (!is_delim(q, end))
        return malformed_corner(ps, p, end); /* `1/2/3/4`, `1x` */
    c->idx[KIND_VT] = c->idx[KIND_VN] = MK_NONE;
    if (!resolve(ps, c->raw[KIND_V], KIND_V, &c->idx[KIND_V]) ||
        ((c->form & 1) && !resolve(ps, c->raw[KIND_VT], KIND_VT, &c->idx[KIND_VT])) ||
        ((c->form & 2) && !resolve(ps, c->raw[KIND_VN], KIND_VN, &c->idx[KIND_VN])))
        return NULL;
    return q;
}

static const char *const form_names[] = {"v", "v/vt", "v//vn", "v/vt/vn"};

static inline bool emit_triangle(parser *ps, const corner *a, const corner *b, const corner *c)
{
    if (ps->tri_count == ps->max) {
        too_many(ps, "triangles");
        return false;
    }
    if (!reserve_triangle(ps)) {
        oom(ps);
        return false;
    }
    size_t t = ps->tri_count++;
    for (int k = 0; k < 3; k++) {
        uint32_t *dst = ps->buf[BUF_CPOS + k].p;
        if (dst) {
            dst[t * 3 + 0] = a->idx[k];
            dst[t * 3 + 1] = b->idx[k];
            dst[t * 3 + 2] = c->idx[k];
        }
    }
    ((uint32_t *)ps->buf[BUF_TLINE].p)[t] = ps->line > UINT32_MAX ? UINT32_MAX : (uint32_t)ps->line;
    ((uint32_t *)ps->buf[BUF_TFACE].p)[t] = ps->face_count;
    return true;
}

/* `f c0 c1 c2 ...`: fan-triangulated as (c0, c[i-1], c[i]). Every corner of
 * a face must have the form of its first corner. */
static const char *parse_face(parser *ps, const char *p, const char *end)
{
    corner first, prev, cur;
    int n = 0;
    for (;;) {
        p = skip_blank(p, end);
        if (p == end || *p == '\n' || *p == '#')
            break;
        corner *c = n == 0 ? &first : n == 1 ? &prev : &cur;
        const char *q = parse_corner(ps, p, end, c);
        if (!q)
            return NULL;
        if (n == 0) {
            if ((first.form & 1) && !activate(ps, BUF_CTEX))
                return oom(ps);
            if ((first.form & 2) && !activate(ps, BUF_CNRM))
                return oom(ps);
        } else if (c->form != first.form) {
            return PARSE_FAIL(ps, MK_ERR_PARSE,
                              "face mixes corner forms: corner 1 is %s, corner %d is %s",
                              form_names[first.form], n + 1, form_names[c->form]);
        }
        if (n >= 2) {
            if (!emit_triangle(ps, &first, &prev, &cur))
                return NULL;
            prev = cur;
        }
        if (n < INT_MAX)
            n++;
        p = q;
    }
    if (n < 3)
        return PARSE_FAIL(ps, MK_ERR_PARSE, "face has %d corner%s, at least 3 needed", n,
                          n == 1 ? "" : "s");
    if (ps->face_count == UINT32_MAX)
        return too_many(ps, "faces");
    ps->face_count++;
    return p;
}

static const char *parse_line(parser *ps, const char *p, const char *end)
{
    p = skip_blank(p, end);
    if (p == end || *p == '\n')
        return p;
    const char *kw = p;
    const char *k_end = p;
    while (!is_delim(k_end, end))
        k_end++;
    size_t len = (size_t)(k_end - kw);
    if (len == 1 && kw[0] == 'v')
        return parse_vertex(ps, k_end, end, KIND_V, 3, 3);
    if (len == 1 && kw[0] == 'f')
        return parse_face(ps, k_end, end);
    if (len == 2 && kw[0] == 'v' && kw[1] == 't')
        return parse_vertex(ps, k_end, end, KIND_VT, 1, 2);
    if (len == 2 && kw[0] == 'v' && kw[1] == 'n')
        return parse_vertex(ps, k_end, end, KIND_VN, 3, 3);
    /* Comments and every other statement (o, g, s, usemtl, mtllib, l, p,
     * cstype, ...) are skipped. A line that does not start with a keyword is
     * not OBJ (often a binary file given by mistake). */
    unsigned char c = (unsigned char)kw[0];
    if (c != '#' && !((c | 32) >= 'a' && (c | 32) <= 'z')) {
        if (c < 0x20 || c >= 0x7f)
            return PARSE_FAIL(ps, MK_ERR_PARSE,
                              "unexpected byte 0x%02x at the start of a statement (not OBJ text?)",
                              c);
        return PARSE_FAIL(ps, MK_ERR_PARSE,
                          "unexpected '%.*s' at the start of a statement (expected a keyword)",
                          quote_len(kw, end), kw);
    }
    const char *nl = memchr(k_end, '\n', (size_t)(end - k_end));
    return nl ? nl : end;
}

/* ---- result ---------------------------------------------------------------- */

static void free_bufs(const mk_allocator *a, grow_buf *b)
{
    for (int i = 0; i < BUF_COUNT; i++)
        mk_free(a, b[i].p, b[i].bytes);
}

/* Forward references are allowed, so absolute indices are checked here;
 * the error names the first face (in file order) with a bad one. */
static mk_status check_forward(parser *ps)
{
    for (int k = 0; k < 3; k++) {
        const uint32_t *c = ps->buf[BUF_CPOS + k].p;
        if (!c)
            continue;
        for (size_t t = 0; t < ps->tri_count; t++) {
            for (int i = 0; i < 3; i++) {
                uint32_t v = c[t * 3 + i];
                if (v == MK_NONE || v < ps->count[k])
                    continue;
                ps->line = ((const uint32_t *)ps->buf[BUF_TLINE].p)[t];
                (void)PARSE_FAIL(ps, MK_ERR_RANGE, "%s index %u out of range (the file has %u %s)",
                                 kind_names[k], v + 1, ps->count[k], kind_names[k]);
                return ps->status;
            }
        }
    }
    return MK_OK;
}

/* Gives back what doubling over-allocated, so that every array is exactly
 * the size its count implies (mk_obj_destroy frees by the public counts
 * alone). When the allocator cannot shrink in place, an exact copy is made;
 * false only when that fails too. */
static bool shrink(parser *ps, grow_buf *b, size_t need)
{
    if (need == b->bytes)
        return true;
    if (need == 0) {
        mk_free(ps->a, b->p, b->bytes);
        b->p = NULL;
        b->bytes = 0;
        return true;
    }
    void *p = mk_realloc(ps->a, b->p, b->bytes, need);
    if (!p) {
        p = mk_alloc(ps->a, need);
        if (!p)
            return false;
        memcpy(p, b->p, need);
        mk_free(ps->a, b->p, b->bytes);
    }
    b->p = p;
    b->bytes = need;
    return true;
}

/* Bytes of each array of a finished mk_obj, from its counts alone. */
static void obj_sizes(const mk_obj *o, size_t bytes[BUF_COUNT])
{
    size_t tc = o->triangle_count;
    bytes[BUF_POS] = (size_t)o->position_count * 12;
    bytes[BUF_TEX] = (size_t)o->texcoord_count * 8;
    bytes[BUF_NRM] = (size_t)o->normal_count * 12;
    bytes[BUF_CPOS] = tc * 12;
    bytes[BUF_CTEX] = o->corner_texcoord ? tc * 12 : 0;
    bytes[BUF_CNRM] = o->corner_normal ? tc * 12 : 0;
    bytes[BUF_TLINE] = tc * 4;
    bytes[BUF_TFACE] = tc * 4;
}

static mk_status finish(parser *ps, mk_obj **out)
{
    if (ps->forward && check_forward(ps) != MK_OK)
        return ps->status;
    mk_obj *o = mk_alloc(ps->a, sizeof *o);
    if (!o)
        return mk_error_set(ps->err, MK_ERR_OUT_OF_MEMORY, ps->name, 0, "out of memory");
    memset(o, 0, sizeof *o);
    o->position_count = ps->count[KIND_V];
    o->texcoord_count = ps->count[KIND_VT];
    o->normal_count = ps->count[KIND_VN];
    o->triangle_count = ps->tri_count;
    o->face_count = ps->face_count;
    /* a per-corner vt/vn array exists when some face used it */
    o->corner_texcoord = ps->buf[BUF_CTEX].p;
    o->corner_normal = ps->buf[BUF_CNRM].p;
    size_t need[BUF_COUNT];
    obj_sizes(o, need);
    for (int i = 0; i < BUF_COUNT; i++) {
        if (!shrink(ps, &ps->buf[i], need[i])) {
            mk_free(ps->a, o, sizeof *o);
            return mk_error_set(ps->err, MK_ERR_OUT_OF_MEMORY, ps->name, 0, "out of memory");
        }
    }
    o->positions = ps->buf[BUF_POS].p;
    o->texcoords = ps->buf[BUF_TEX].p;
    o->normals = ps->buf[BUF_NRM].p;
    o->corner_position = ps->buf[BUF_CPOS].p;
    o->corner_texcoord = ps->buf[BUF_CTEX].p;
    o->corner_normal = ps->buf[BUF_CNRM].p;
    o->triangle_line = ps->buf[BUF_TLINE].p;
    o->triangle_face = ps->buf[BUF_TFACE].p;
    o->allocator = mk_allocator_copy(ps->a);
    *out = o;
    return MK_OK;
}

mk_status mk_obj_parse(const char *text, size_t size, const char *name,
                       const mk_obj_options *options, const mk_allocator *allocator, mk_obj **out,
                       mk_error *err)
{
    if (!out || (!text && size))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, name, 0,
                            "mk_obj_parse: out (and text, when size > 0) must not be NULL");
    *out = NULL;
    parser ps;
    memset(&ps, 0, sizeof ps);
    ps.name = name ? name : "<memory>";
    ps.a = allocator;
    ps.err = err;
    ps.max = options && options->max_elements ? options->max_elements : MK_OBJ_DEFAULT_MAX_ELEMENTS;
    if (ps.max == UINT32_MAX) /* UINT32_MAX - 1 is the largest 0-based index */
        ps.max = UINT32_MAX - 1;
    if (size == 0)
        text = ""; /* NULL + 0 is undefined in C */
    const char *p = text, *end = text + size;
    if (size >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) /* UTF-8 byte order mark */
        p += 3;
    while (p < end) {
        ps.line++;
        p = parse_line(&ps, p, end);
        if (!p) {
            free_bufs(ps.a, ps.buf);
            return ps.status;
        }
        if (p < end && *p == '#') { /* a comment after a statement */
            p = memchr(p, '\n', (size_t)(end - p));
            if (!p)
                break;
        }
        if (p < end) /* at the '\n' */
            p++;
    }
    mk_status st = finish(&ps, out);
    if (st != MK_OK)
        free_bufs(ps.a, ps.buf);
    return st;
}

mk_status mk_obj_load(const char *path, const mk_obj_options *options,
                      const mk_allocator *allocator, mk_obj **out, mk_error *err)
{
    if (!path || !out)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, path, 0,
                            "mk_obj_load: path and out must not be NULL");
    *out = NULL;
    size_t max =
        options && options->max_file_size ? options->max_file_size : MK_OBJ_DEFAULT_MAX_FILE;
    const mk_file_callbacks *files = options ? options->files : NULL;
    void *data;
    size_t size;
    mk_status st = mk_file_read(files, path, allocator, max, &data, &size, err);
    if (st != MK_OK)
        return st;
    st = mk_obj_parse(data, size, path, options, allocator, out, err);
    mk_file_release(files, allocator, data, size);
    return st;
}

void mk_obj_destroy(mk_obj *obj)
{
    if (!obj)
        return;
    mk_allocator a = obj->allocator;
    size_t bytes[BUF_COUNT];
    obj_sizes(obj, bytes);
    void *p[BUF_COUNT] = {
        obj->positions,       obj->texcoords,     obj->normals,       obj->corner_position,
        obj->corner_texcoord, obj->corner_normal, obj->triangle_line, obj->triangle_face,
    };
    for (int i = 0; i < BUF_COUNT; i++)
        mk_free(&a, p[i], bytes[i]);
    mk_free(&a, obj, sizeof *obj);
}
