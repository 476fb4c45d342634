/* glTF reader: entry points, the GLB container (§4.4) and the document
 * level (asset, extensions, the order objects are read in). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "file_internal.h"
#include "gltf_internal.h"

enum {
    GLB_MAGIC = 0x46546C67u, /* "glTF" */
    GLB_CHUNK_JSON = 0x4E4F534Au, /* "JSON" */
    GLB_CHUNK_BIN = 0x004E4942u /* "BIN\0" */
};

static uint32_t read_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Line and column (1-based) of byte `offset` of text, for JSON errors. */
static void text_position(const char *text, size_t offset, int *line, int *column)
{
    int l = 1, col = 1;
    for (size_t i = 0; i < offset; i++) {
        if (text[i] == '\n') {
            l++;
            col = 1;
        } else {
            col++;
        }
    }
    *line = l;
    *column = col;
}

static mk_status check_extensions(mk_gltf_ctx *c, const mk_gltf_json_value *root)
{
    const mk_gltf_json *doc = c->json;
    const mk_gltf_json_value *arr, *e;
    uint32_t n, i = 0;
    mk_status s = mk_gltf_json_array(c, root, "extensionsRequired", NULL, &arr, &n);
    if (s != MK_OK)
        return s;
    MK_GLTF_JSON_EACH (doc, e, arr) {
        if (!mk_gltf_json_is(e, MK_GLTF_JSON_STRING))
            return mk_gltf_fail(c, MK_ERR_PARSE, MK_GLTF_PATH("extensionsRequired"),
                                "entry %u is not a string", i);
        if (!mk_gltf_json_string_is(doc, e, "KHR_mesh_quantization") &&
            !mk_gltf_json_string_is(doc, e, "EXT_meshopt_compression")) {
            char name[256];
            mk_gltf_json_string_copy(doc, e, name, sizeof name);
            return mk_gltf_fail(c, MK_ERR_UNSUPPORTED, MK_GLTF_PATH("extensionsRequired"),
                                "required extension '%s' is not supported", name);
        }
        i++;
    }
    if ((s = mk_gltf_json_array(c, root, "extensionsUsed", NULL, &arr, &n)) != MK_OK)
        return s;
    MK_GLTF_JSON_EACH (doc, e, arr) {
        if (mk_gltf_json_string_is(doc, e, "KHR_mesh_quantization"))
            c->g->uses_quantization = true;
    }
    return MK_OK;
}

static mk_status check_asset(mk_gltf_ctx *c, const mk_gltf_json_value *root)
{
    const mk_gltf_json *doc = c->json;
    const mk_gltf_json_value *asset = mk_gltf_json_get(doc, root, "asset");
    if (!asset)
        return mk_gltf_fail(c, MK_ERR_PARSE, NULL, "missing required 'asset'");
    mk_status s = mk_gltf_json_object(c, asset, MK_GLTF_PATH("asset"));
    if (s != MK_OK)
        return s;
    const mk_gltf_json_value *v = mk_gltf_json_get(doc, asset, "version");
    if (!mk_gltf_json_is(v, MK_GLTF_JSON_STRING))
        return mk_gltf_fail(c, MK_ERR_PARSE, MK_GLTF_PATH("asset"),
                            "missing required string 'version'");
    /* §3.2: "<major>.<minor>"; a reader supports every minor of its major
     * unless minVersion says more is needed. */
    char version[256];
    mk_gltf_json_string_copy(doc, v, version, sizeof version);
    if (strncmp(version, "2.", 2) != 0)
        return mk_gltf_fail(c, MK_ERR_UNSUPPORTED, MK_GLTF_PATH("asset.version"),
                            "glTF version '%s' is not supported (only 2.x)", version);
    const mk_gltf_json_value *mv = mk_gltf_json_get(doc, asset, "minVersion");
    if (mv && !mk_gltf_json_string_is(doc, mv, "2.0"))
        return mk_gltf_fail(c, MK_ERR_UNSUPPORTED, MK_GLTF_PATH("asset.minVersion"),
                            "minVersion is not 2.0");
    return mk_gltf_json_string(c, asset, "generator", MK_GLTF_PATH("asset"), &c->g->generator);
}

mk_status mk_gltf_parse_document(mk_gltf_ctx *c, const char *json, size_t size)
{
    /* A UTF-8 byte order mark is not allowed (§3.1), but harmless to skip. */
    size_t skip = size >= 3 && memcmp(json, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    mk_gltf_json doc;
    size_t off;
    mk_status s = mk_gltf_json_parse(&doc, json + skip, size - skip, &c->st->allocator, &off);
    if (s == MK_ERR_OUT_OF_MEMORY)
        return mk_gltf_fail(c, s, NULL, "out of memory");
    if (s == MK_ERR_LIMIT && size - skip >= INT_MAX)
        return mk_gltf_fail(c, s, NULL, "JSON of %zu bytes is too large", size - skip);
    if (s != MK_OK) {
        off += skip;
        if (s == MK_ERR_LIMIT)
            s = mk_gltf_fail(c, s, NULL, "JSON nested deeper than %d levels at byte %zu",
                             MK_GLTF_JSON_DEPTH, off);
        else
            s = mk_gltf_fail(c, MK_ERR_PARSE, NULL, "invalid JSON near byte %zu", off);
        if (c->err)
            text_position(json, off, &c->err->line, &c->err->column);
        return s;
    }
    c->json = &doc;
    const mk_gltf_json_value *root = doc.values;
    s = mk_gltf_json_object(c, root, MK_GLTF_PATH("(root)"));
    if (s == MK_OK)
        s = check_asset(c, root);
    if (s == MK_OK)
        s = check_extensions(c, root);
    /* Order matters: later objects check their references against the
     * earlier ones (accessors need buffer data, nodes need target counts). */
    if (s == MK_OK)
        s = mk_gltf_parse_buffers(c, root);
    if (s == MK_OK)
        s = mk_gltf_parse_buffer_views(c, root);
    if (s == MK_OK)
        s = mk_gltf_decode_meshopt(c, root);
    if (s == MK_OK)
        s = mk_gltf_parse_accessors(c, root);
    if (s == MK_OK)
        s = mk_gltf_parse_meshes(c, root);
    if (s == MK_OK)
        s = mk_gltf_parse_nodes(c, root);
    if (s == MK_OK)
        s = mk_gltf_parse_skins(c, root);
    if (s == MK_OK)
        s = mk_gltf_parse_scenes(c, root);
    if (s == MK_OK)
        s = mk_gltf_json_index(c, root, "scene", NULL, false, c->g->scene_count, "scenes",
                               &c->g->scene);
    if (s == MK_OK)
        s = mk_gltf_parse_animations(c, root);
    if (s == MK_OK)
        s = mk_gltf_parse_materials(c, root);
    if (s == MK_OK)
        s = mk_gltf_parse_textures(c, root);
    c->json = NULL;
    if (s == MK_OK && c->keep_json)
        *c->keep_json = doc; /* the caller reads it further and frees it */
    else
        mk_gltf_json_free(&doc, &c->st->allocator);
    return s;
}

/* Splits a GLB into its JSON and BIN chunks (§4.4.3); the first chunk must
 * be JSON, the first BIN chunk after it is the binary buffer, other chunk
 * types are skipped. */
static mk_status parse_glb(mk_gltf_ctx *c, const uint8_t *data, size_t size)
{
    if (size < 12)
        return mk_gltf_fail(c, MK_ERR_PARSE, NULL, "GLB header truncated (%zu of 12 bytes)", size);
    uint32_t version = read_u32le(data + 4), length = read_u32le(data + 8);
    if (version != 2)
        return mk_gltf_fail(c, MK_ERR_UNSUPPORTED, NULL, "GLB version %u is not supported",
                            version);
    if (length > size)
        return mk_gltf_fail(c, MK_ERR_PARSE, NULL,
                            "GLB truncated: header says %u bytes, file has %zu", length, size);
    size_t off = 12;
    const uint8_t *json = NULL;
    size_t json_size = 0;
    for (int chunk = 0; off < length; chunk++) {
        if (length - off < 8)
            return mk_gltf_fail(c, MK_ERR_PARSE, NULL, "GLB chunk %d header truncated at byte %zu",
                                chunk, off);
        uint32_t clen = read_u32le(data + off), ctype = read_u32le(data + off + 4);
        off += 8;
        if (clen > length - off)
            return mk_gltf_fail(c, MK_ERR_PARSE, NULL,
                                "GLB chunk %d (%u bytes at byte %zu) runs past the end (%u bytes)",
                                chunk, clen, off, length);
        if (chunk == 0) {
            if (ctype != GLB_CHUNK_JSON)
                return mk_gltf_fail(c, MK_ERR_PARSE, NULL, "GLB first chunk is not JSON");
            json = data + off;
            json_size = clen;
        } else if (ctype == GLB_CHUNK_BIN && !c->glb_bin) {
            c->glb_bin = data + off;
            c->glb_bin_size = clen;
        }
        off += clen;
    }
    if (!json)
        return mk_gltf_fail(c, MK_ERR_PARSE, NULL, "GLB has no JSON chunk");
    c->g->is_glb = true;
    return mk_gltf_parse_document(c, (const char *)json, json_size);
}

/* Parses bytes that the storage already owns. */
static mk_status parse_owned(mk_gltf_ctx *c, const uint8_t *data, size_t size)
{
    if (size >= 4 && read_u32le(data) == GLB_MAGIC)
        return parse_glb(c, data, size);
    return mk_gltf_parse_document(c, (const char *)data, size);
}

/* Sets up storage, the model and the context; the path names it. */
static mk_status begin(mk_gltf_ctx *c, const char *name, const char *base_dir,
                       const mk_gltf_options *options, const mk_allocator *a, mk_error *err)
{
    memset(c, 0, sizeof *c);
    c->err = err;
    c->file = name;
    c->base_dir = base_dir;
    c->max_buffer =
        options && options->max_buffer_size ? options->max_buffer_size : (size_t)1 << 30;
    c->max_count = options && options->max_count ? options->max_count : (uint32_t)1 << 26;
    struct mk_gltf_storage *st =
        (struct mk_gltf_storage *)mk_alloc(a, sizeof(struct mk_gltf_storage));
    if (!st)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, NULL, "out of memory");
    memset(st, 0, sizeof *st);
    st->allocator = mk_allocator_copy(a);
    if (options && options->files)
        st->files = *options->files;
    c->st = st;
    c->g = (mk_gltf *)mk_gltf_arena_alloc(st, sizeof(mk_gltf));
    if (!c->g || !(c->g->path = mk_gltf_arena_strdup(st, name))) {
        mk_gltf_storage_free(st);
        mk_free(&st->allocator, st, sizeof *st);
        c->st = NULL;
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, NULL, "out of memory");
    }
    c->g->storage = st;
    c->g->scene = MK_NONE;
    return MK_OK;
}

static mk_status finish(mk_gltf_ctx *c, mk_status s, mk_gltf **out)
{
    if (s != MK_OK) {
        mk_gltf_destroy(c->g);
        *out = NULL;
        return s;
    }
    *out = c->g;
    return MK_OK;
}

mk_status mk_gltf_load(const char *path, const mk_gltf_options *options,
                       const mk_allocator *allocator, mk_gltf **out, mk_error *err)
{
    if (!path || !out)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, path, 0,
                            "mk_gltf_load: path and out must not be NULL");
    *out = NULL;
    char *dir = mk_path_parent(allocator, path);
    if (!dir)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, path, 0, "out of memory");
    mk_gltf_ctx c;
    mk_status s = begin(&c, path, dir, options, allocator, err);
    if (s != MK_OK) {
        mk_strfree(allocator, dir);
        return s;
    }
    uint8_t *data;
    size_t size;
    s = mk_gltf_read_file(&c, path, NULL, c.max_buffer, 0, &data, &size);
    if (s == MK_OK)
        s = parse_owned(&c, data, size);
    /* A GLB's binary chunk is used in place; JSON text is not needed after
     * parsing (strings were copied into the model). */
    if (s == MK_OK && !c.g->is_glb)
        mk_gltf_storage_release_file(c.st, data);
    mk_strfree(allocator, dir);
    return finish(&c, s, out);
}

/* borrow: data outlives the model, which may use it in place. */
static mk_status parse_memory(const void *data, size_t size, const char *base_dir,
                              const char *name, const mk_gltf_options *options,
                              const mk_allocator *allocator, mk_gltf **out, mk_gltf_json *keep_json,
                              bool borrow, mk_error *err)
{
    if (!out || (!data && size))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, name, 0,
                            "mk_gltf_parse: out (and data, when size > 0) must not be NULL");
    *out = NULL;
    mk_gltf_ctx c;
    mk_status s = begin(&c, name ? name : "<memory>", base_dir, options, allocator, err);
    if (s != MK_OK)
        return s;
    c.keep_json = keep_json;
    if (size > c.max_buffer)
        return finish(&c,
                      mk_gltf_fail(&c, MK_ERR_LIMIT, NULL, "%zu bytes is above the limit %zu", size,
                                   c.max_buffer),
                      out);
    if (borrow)
        return finish(&c, parse_owned(&c, (const uint8_t *)data, size), out);
    /* One copy, so that buffers can point into storage the model owns. */
    uint8_t *copy = (uint8_t *)mk_gltf_arena_alloc_uninit(c.st, size);
    if (!copy)
        return finish(&c, mk_gltf_fail(&c, MK_ERR_OUT_OF_MEMORY, NULL, "out of memory"), out);
    if (size)
        memcpy(copy, data, size);
    return finish(&c, parse_owned(&c, copy, size), out);
}

mk_status mk_gltf_parse(const void *data, size_t size, const char *base_dir, const char *name,
                        const mk_gltf_options *options, const mk_allocator *allocator,
                        mk_gltf **out, mk_error *err)
{
    return parse_memory(data, size, base_dir, name, options, allocator, out, NULL, false, err);
}

mk_status mk_gltf_parse_keep_json(const void *data, size_t size, const char *base_dir,
                                  const char *name, const mk_gltf_options *options,
                                  const mk_allocator *allocator, mk_gltf **out,
                                  mk_gltf_json *json, mk_error *err)
{
    return parse_memory(data, size, base_dir, name, options, allocator, out, json, true, err);
}

void mk_gltf_destroy(mk_gltf *gltf)
{
    if (!gltf)
        return;
    struct mk_gltf_storage *st = gltf->storage;
    mk_allocator a = st->allocator;
    mk_gltf_storage_free(st); /* gltf itself lives in the storage */
    mk_free(&a, st, sizeof *st);
}
