/* glTF reader: buffers (§3.6.1) - GLB binary chunk, base64 data: URIs and
 * external files, with the URI checks that keep a file inside its folder. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "file_internal.h"
#include "gltf_internal.h"

mk_status mk_gltf_read_file(mk_gltf_ctx *c, const char *path, const mk_gltf_path *what,
                            size_t max, size_t min_size, uint8_t **data, size_t *size)
{
    struct mk_gltf_storage *st = c->st;
    mk_error e;
    void *d;
    size_t n;
    mk_status s = mk_file_read(&st->files, path, &st->allocator, max, &d, &n, &e);
    if (s != MK_OK) {
        if (!what) {
            if (c->err)
                *c->err = e;
            return s;
        }
        return mk_gltf_fail(c, s, what, "'%s': %s", path, e.message);
    }
    mk_gltf_file *f = n < min_size ? NULL : mk_gltf_arena_alloc(st, sizeof *f);
    if (!f) {
        mk_file_release(&st->files, &st->allocator, d, n);
        if (n < min_size)
            return mk_gltf_fail(c, MK_ERR_RANGE, what, "'%s' has %zu bytes, byteLength is %zu",
                                path, n, min_size);
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, what, "out of memory");
    }
    f->data = d;
    f->size = n;
    f->next = st->file_head;
    st->file_head = f;
    /* never NULL, so that "no data" cannot be mistaken for a missing block */
    *data = d ? (uint8_t *)d : (uint8_t *)f;
    *size = n;
    return MK_OK;
}

int mk_gltf_base64_value(unsigned char ch)
{
    if (ch >= 'A' && ch <= 'Z')
        return ch - 'A';
    if (ch >= 'a' && ch <= 'z')
        return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9')
        return ch - '0' + 52;
    if (ch == '+' || ch == '-') /* '-' and '_': the URL-safe alphabet */
        return 62;
    if (ch == '/' || ch == '_')
        return 63;
    return -1;
}

/* Decodes `data:[<mediatype>];base64,<payload>` (RFC 2397). */
static mk_status decode_data_uri(mk_gltf_ctx *c, const mk_gltf_path *path, const char *uri,
                                 mk_gltf_buffer *b)
{
    const char *comma = strchr(uri, ',');
    if (!comma || comma - uri < 7 || strncmp(comma - 7, ";base64", 7) != 0)
        return mk_gltf_fail(c, MK_ERR_UNSUPPORTED, path, "only base64 data: URIs are supported");
    const char *s = comma + 1;
    size_t n = strlen(s);
    while (n > 0 && s[n - 1] == '=')
        n--;
    size_t out_size = n / 4 * 3 + (n % 4 == 3 ? 2 : n % 4 == 2 ? 1 : 0);
    if (n % 4 == 1)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "base64 data has a bad length");
    if (out_size > c->max_buffer)
        return mk_gltf_fail(c, MK_ERR_LIMIT, path,
                            "data: URI decodes to %zu bytes, more than the limit %zu", out_size,
                            c->max_buffer);
    if (out_size < b->byte_length)
        return mk_gltf_fail(c, MK_ERR_RANGE, path, "data: URI holds %zu bytes, byteLength is %zu",
                            out_size, b->byte_length);
    uint8_t *out = (uint8_t *)mk_gltf_arena_alloc_uninit(c->st, out_size);
    if (!out)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, path, "out of memory");
    uint32_t acc = 0;
    size_t bits = 0, o = 0;
    for (size_t i = 0; i < n; i++) {
        int v = mk_gltf_base64_value((unsigned char)s[i]);
        if (v < 0)
            return mk_gltf_fail(c, MK_ERR_PARSE, path, "bad base64 character at offset %zu",
                                (size_t)(s - uri) + i);
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
        }
    }
    b->data = out;
    return MK_OK;
}

static int hex_value(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* True when uri starts with an RFC 3986 scheme ("http:", "file:", "C:"). */
static bool has_scheme(const char *uri)
{
    const char *p = uri;
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
        return false;
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
           *p == '+' || *p == '-' || *p == '.')
        p++;
    return *p == ':';
}

/* Percent-decodes a relative reference into out (at least strlen(uri) + 1
 * bytes) and checks that it stays in the asset's folder: no absolute path,
 * no backslash, no NUL, and `..` never climbing above the start. */
mk_status mk_gltf_check_relative_uri(mk_gltf_ctx *c, const mk_gltf_path *path, const char *uri,
                                    char *out)
{
    if (has_scheme(uri))
        return mk_gltf_fail(c, MK_ERR_INVALID_ARGUMENT, path,
                            "uri '%s' has a scheme; only relative paths and data: are allowed",
                            uri);
    size_t o = 0;
    for (const char *p = uri; *p; p++) {
        char ch = *p;
        if (ch == '%') {
            int hi = hex_value(p[1]), lo = hi < 0 ? -1 : hex_value(p[2]);
            if (hi < 0 || lo < 0)
                return mk_gltf_fail(c, MK_ERR_PARSE, path, "uri '%s' has a bad %% escape", uri);
            ch = (char)(hi * 16 + lo);
            p += 2;
        }
        if (ch == '\0' || ch == '\\' || ch == '?' || ch == '#')
            return mk_gltf_fail(c, MK_ERR_INVALID_ARGUMENT, path,
                                "uri '%s' contains a NUL, backslash, query or fragment", uri);
        out[o++] = ch;
    }
    out[o] = '\0';
    if (o == 0 || out[0] == '/')
        return mk_gltf_fail(c, MK_ERR_INVALID_ARGUMENT, path,
                            "uri '%s' must be a relative path inside the asset's folder", uri);
    /* Resolve "." and ".." by text (RFC 3986 §5.2.4), so a path through a
     * folder that does not exist still works and ".." can be checked. The
     * result is never longer than out, so it is built in place: n <= the
     * read position at every step. */
    char *norm = out;
    size_t n = 0;
    for (const char *seg = out; *seg;) {
        const char *end = strchr(seg, '/');
        size_t len = end ? (size_t)(end - seg) : strlen(seg);
        if (len == 2 && seg[0] == '.' && seg[1] == '.') {
            if (n == 0)
                return mk_gltf_fail(c, MK_ERR_INVALID_ARGUMENT, path,
                                    "uri '%s' leaves the asset's folder", uri);
            while (n > 0 && norm[n - 1] != '/')
                n--;
            if (n > 0)
                n--; /* the '/' before the dropped segment */
        } else if (len > 0 && !(len == 1 && seg[0] == '.')) {
            if (n > 0)
                norm[n++] = '/';
            memmove(norm + n, seg, len);
            n += len;
        }
        seg += len;
        if (*seg == '/')
            seg++;
    }
    if (n == 0)
        return mk_gltf_fail(c, MK_ERR_INVALID_ARGUMENT, path, "uri '%s' names no file", uri);
    out[n] = '\0';
    return MK_OK;
}

static mk_status load_external(mk_gltf_ctx *c, const mk_gltf_path *path, const char *uri,
                               mk_gltf_buffer *b)
{
    /* scratch in the arena: freed with the model, no length limit */
    char *rel = (char *)mk_gltf_arena_alloc_uninit(c->st, strlen(uri) + 1);
    if (!rel)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, path, "out of memory");
    mk_status s = mk_gltf_check_relative_uri(c, path, uri, rel);
    if (s != MK_OK)
        return s;
    if (!c->base_dir)
        return mk_gltf_fail(c, MK_ERR_INVALID_ARGUMENT, path,
                            "uri '%s' is external, but the document has no folder", uri);
    char *full = mk_path_join(&c->st->allocator, c->base_dir, rel);
    if (!full)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, path, "out of memory");
    const mk_gltf_path what = {path, "uri", MK_NONE};
    uint8_t *data;
    size_t size;
    s = mk_gltf_read_file(c, full, &what, c->max_buffer, b->byte_length, &data, &size);
    mk_strfree(&c->st->allocator, full);
    if (s == MK_OK)
        b->data = data;
    return s;
}

mk_status mk_gltf_parse_buffers(mk_gltf_ctx *c, const mk_gltf_json_value *root)
{
    const mk_gltf_json_value *arr, *item;
    uint32_t count;
    mk_status s = mk_gltf_json_array(c, root, "buffers", NULL, &arr, &count);
    if (s != MK_OK || count == 0)
        return s;
    mk_gltf *g = c->g;
    g->buffers = (mk_gltf_buffer *)mk_gltf_arena_array(c->st, count, sizeof(mk_gltf_buffer));
    if (!g->buffers)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, MK_GLTF_PATH("buffers"), "out of memory");
    g->buffer_count = count;
    uint32_t i = 0;
    MK_GLTF_JSON_EACH (c->json, item, arr) {
        const mk_gltf_path path_node = {NULL, "buffers", i}, *path = &path_node;
        mk_gltf_buffer *b = &g->buffers[i++];
        if ((s = mk_gltf_json_object(c, item, path)) != MK_OK ||
            (s = mk_gltf_json_size(c, item, "byteLength", path, true, &b->byte_length)) != MK_OK ||
            (s = mk_gltf_json_string(c, item, "uri", path, &b->uri)) != MK_OK ||
            (s = mk_gltf_json_string(c, item, "name", path, &b->name)) != MK_OK)
            return s;
        if (b->byte_length > c->max_buffer)
            return mk_gltf_fail(c, MK_ERR_LIMIT, path, "byteLength %zu is above the limit %zu",
                                b->byte_length, c->max_buffer);
        const mk_gltf_json_value *ext = mk_gltf_json_get(
            c->json, mk_gltf_json_get(c->json, item, "extensions"), "EXT_meshopt_compression");
        if (!b->uri && mk_gltf_json_is(mk_gltf_json_get(c->json, ext, "fallback"), MK_GLTF_JSON_TRUE)) {
            /* EXT_meshopt_compression: a placeholder no data stands behind;
             * every view of it must be compressed (checked once decoded) */
            b->fallback = true;
            continue;
        }
        if (!b->uri) {
            /* §4.4.3.3: only the first buffer may refer to the GLB BIN chunk. */
            if (i != 1 || !c->glb_bin)
                return mk_gltf_fail(c, MK_ERR_PARSE, path,
                                    "has no uri and there is no GLB binary chunk for it");
            if (c->glb_bin_size < b->byte_length)
                return mk_gltf_fail(c, MK_ERR_RANGE, path,
                                    "byteLength %zu exceeds the GLB binary chunk (%zu bytes)",
                                    b->byte_length, c->glb_bin_size);
            b->data = c->glb_bin;
        } else if (strncmp(b->uri, "data:", 5) == 0) {
            s = decode_data_uri(c, path, b->uri, b);
        } else {
            s = load_external(c, path, b->uri, b);
        }
        if (s != MK_OK)
            return s;
        if (!b->data) /* byteLength 0 with an empty chunk: keep data non-NULL */
            b->data = (const uint8_t *)"";
    }
    return MK_OK;
}
