/* glTF materials: what a viewer needs to show a file as its engine will,
 * the base colour factor and which texture holds the base colour (glTF 2.0
 * 5.19 material, 5.19.2 pbrMetallicRoughness), textures' sources and their
 * images (5.29, 5.18), whose bytes mk_gltf_image_read gives. */
#include <string.h>

#include "file_internal.h"
#include "gltf_internal.h"

static mk_status parse_material(mk_gltf_ctx *c, const mk_gltf_json_value *item,
                                const mk_gltf_path *path, mk_gltf_material *m)
{
    mk_status s = mk_gltf_json_object(c, item, path);
    if (s != MK_OK || (s = mk_gltf_json_string(c, item, "name", path, &m->name)) != MK_OK)
        return s;
    for (int k = 0; k < 4; k++)
        m->base_color_factor[k] = 1.0f; /* the spec's default: white, opaque */
    m->base_color_texture = MK_NONE;
    const mk_gltf_json_value *pbr = mk_gltf_json_get(c->json, item, "pbrMetallicRoughness");
    if (!pbr)
        return MK_OK;
    const mk_gltf_path pbr_path = {path, "pbrMetallicRoughness", MK_NONE};
    if ((s = mk_gltf_json_object(c, pbr, &pbr_path)) != MK_OK ||
        (s = mk_gltf_json_floats(c, pbr, "baseColorFactor", &pbr_path, m->base_color_factor, 4,
                                 NULL)) != MK_OK)
        return s;
    const mk_gltf_json_value *tex = mk_gltf_json_get(c->json, pbr, "baseColorTexture");
    if (!tex)
        return MK_OK;
    const mk_gltf_path tex_path = {&pbr_path, "baseColorTexture", MK_NONE};
    if ((s = mk_gltf_json_object(c, tex, &tex_path)) != MK_OK)
        return s;
    /* the index is kept as written (textures are parsed after materials) */
    if ((s = mk_gltf_json_uint(c, tex, "index", &tex_path, true, 0, &m->base_color_texture)) !=
        MK_OK)
        return s;
    return mk_gltf_json_uint(c, tex, "texCoord", &tex_path, false, 0, &m->base_color_texcoord);
}

mk_status mk_gltf_parse_materials(mk_gltf_ctx *c, const mk_gltf_json_value *root)
{
    const mk_gltf_json_value *arr, *item;
    uint32_t count;
    mk_status s = mk_gltf_json_array(c, root, "materials", NULL, &arr, &count);
    if (s != MK_OK || count == 0)
        return s;
    mk_gltf *g = c->g;
    g->materials = (mk_gltf_material *)mk_gltf_arena_array(c->st, count, sizeof(mk_gltf_material));
    if (!g->materials)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, MK_GLTF_PATH("materials"), "out of memory");
    g->material_count = count;
    uint32_t i = 0;
    MK_GLTF_JSON_EACH (c->json, item, arr) {
        const mk_gltf_path path = {NULL, "materials", i};
        if ((s = parse_material(c, item, &path, &g->materials[i++])) != MK_OK)
            return s;
    }
    return MK_OK;
}

mk_status mk_gltf_parse_textures(mk_gltf_ctx *c, const mk_gltf_json_value *root)
{
    const mk_gltf_json_value *arr, *item;
    uint32_t count;
    mk_gltf *g = c->g;
    mk_status s = mk_gltf_json_array(c, root, "images", NULL, &arr, &count);
    if (s != MK_OK)
        return s;
    if (count) {
        g->images = (mk_gltf_image *)mk_gltf_arena_array(c->st, count, sizeof(mk_gltf_image));
        if (!g->images)
            return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, MK_GLTF_PATH("images"), "out of memory");
        g->image_count = count;
        uint32_t i = 0;
        MK_GLTF_JSON_EACH (c->json, item, arr) {
            const mk_gltf_path path = {NULL, "images", i};
            mk_gltf_image *im = &g->images[i++];
            if ((s = mk_gltf_json_object(c, item, &path)) != MK_OK ||
                (s = mk_gltf_json_string(c, item, "name", &path, &im->name)) != MK_OK ||
                (s = mk_gltf_json_string(c, item, "uri", &path, &im->uri)) != MK_OK ||
                (s = mk_gltf_json_string(c, item, "mimeType", &path, &im->mime_type)) != MK_OK ||
                (s = mk_gltf_json_index(c, item, "bufferView", &path, false,
                                        g->buffer_view_count, "bufferViews",
                                        &im->buffer_view)) != MK_OK)
                return s;
            if (!im->uri || strncmp(im->uri, "data:", 5) == 0 || !c->base_dir)
                continue;
            /* An image the loader cannot reach does not fail the model (a
             * viewer draws it untextured): file stays NULL. */
            char *rel = (char *)mk_gltf_arena_alloc_uninit(c->st, strlen(im->uri) + 1);
            if (!rel)
                return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, &path, "out of memory");
            mk_error *saved = c->err;
            c->err = NULL; /* the check's message is not this load's error */
            s = mk_gltf_check_relative_uri(c, &path, im->uri, rel);
            c->err = saved;
            if (s != MK_OK)
                continue;
            char *full = mk_path_join(&c->st->allocator, c->base_dir, rel);
            im->file = full ? mk_gltf_arena_strdup(c->st, full) : NULL;
            mk_strfree(&c->st->allocator, full);
            if (!im->file)
                return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, &path, "out of memory");
        }
    }
    s = mk_gltf_json_array(c, root, "textures", NULL, &arr, &count);
    if (s != MK_OK || count == 0)
        return s;
    g->textures = (mk_gltf_texture *)mk_gltf_arena_array(c->st, count, sizeof(mk_gltf_texture));
    if (!g->textures)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, MK_GLTF_PATH("textures"), "out of memory");
    g->texture_count = count;
    uint32_t i = 0;
    MK_GLTF_JSON_EACH (c->json, item, arr) {
        const mk_gltf_path path = {NULL, "textures", i};
        if ((s = mk_gltf_json_object(c, item, &path)) != MK_OK ||
            (s = mk_gltf_json_index(c, item, "source", &path, false, g->image_count, "images",
                                    &g->textures[i++].source)) != MK_OK)
            return s;
    }
    return MK_OK;
}

/* RFC 2397 base64 payload of a data: URI into a new block. */
static mk_status decode_data(const mk_gltf *g, uint32_t image, const char *uri,
                             const mk_allocator *a, void **data, size_t *size, mk_error *err)
{
    const char *comma = strchr(uri, ',');
    if (!comma || comma - uri < 7 || strncmp(comma - 7, ";base64", 7) != 0)
        return mk_error_set(err, MK_ERR_UNSUPPORTED, g->path, 0,
                            "images[%u]: only base64 data: URIs are supported", image);
    const char *s = comma + 1;
    size_t n = strlen(s);
    while (n > 0 && s[n - 1] == '=')
        n--;
    size_t out_size = n / 4 * 3 + (n % 4 == 3 ? 2 : n % 4 == 2 ? 1 : 0);
    if (n % 4 == 1 || out_size == 0)
        return mk_error_set(err, MK_ERR_PARSE, g->path, 0,
                            "images[%u]: base64 data is empty or has a bad length", image);
    uint8_t *out = mk_alloc(a, out_size);
    if (!out)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, g->path, 0, "out of memory");
    uint32_t acc = 0;
    size_t bits = 0, o = 0;
    for (size_t i = 0; i < n; i++) {
        int v = mk_gltf_base64_value((unsigned char)s[i]);
        if (v < 0) {
            mk_free(a, out, out_size);
            return mk_error_set(err, MK_ERR_PARSE, g->path, 0,
                                "images[%u]: bad base64 character at offset %zu", image,
                                (size_t)(s - uri) + i);
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
        }
    }
    *data = out;
    *size = out_size;
    return MK_OK;
}

/* A copy of n bytes (n > 0) in a block of its own. */
static mk_status copy_out(const mk_gltf *g, const void *src, size_t n, const mk_allocator *a,
                          void **data, size_t *size, mk_error *err)
{
    void *out = mk_alloc(a, n);
    if (!out)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, g->path, 0, "out of memory");
    memcpy(out, src, n);
    *data = out;
    *size = n;
    return MK_OK;
}

mk_status mk_gltf_image_read(const mk_gltf *g, uint32_t image, const mk_file_callbacks *files,
                             const mk_allocator *allocator, void **data, size_t *size,
                             mk_error *err)
{
    if (!g || !data || !size || image >= g->image_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, g ? g->path : NULL, 0,
                            "mk_gltf_image_read: gltf and outputs must not be NULL, image %u "
                            "< %u",
                            image, g ? g->image_count : 0);
    *data = NULL;
    *size = 0;
    const mk_gltf_image *im = &g->images[image];
    if (im->buffer_view != MK_NONE) {
        const mk_gltf_buffer_view *v = &g->buffer_views[im->buffer_view];
        if (!v->byte_length || !v->data)
            return mk_error_set(err, MK_ERR_PARSE, g->path, 0,
                                "images[%u]: bufferView %u holds no bytes", image,
                                im->buffer_view);
        return copy_out(g, v->data, v->byte_length, allocator, data, size, err);
    }
    if (im->uri && strncmp(im->uri, "data:", 5) == 0)
        return decode_data(g, image, im->uri, allocator, data, size, err);
    if (!im->file)
        return mk_error_set(err, MK_ERR_UNSUPPORTED, g->path, 0, "images[%u] %s%s%s", image,
                            im->uri ? "uri '" : "has no uri or bufferView",
                            im->uri ? im->uri : "",
                            im->uri ? "' is not a file in the asset's folder" : "");
    void *d;
    size_t n;
    mk_status s = mk_file_read(files, im->file, allocator, 0, &d, &n, err);
    if (s != MK_OK)
        return s;
    /* the engine's block goes back to it; the caller frees ours */
    s = n ? copy_out(g, d, n, allocator, data, size, err)
          : mk_error_set(err, MK_ERR_PARSE, im->file, 0, "the image file is empty");
    mk_file_release(files, allocator, d, n);
    return s;
}
