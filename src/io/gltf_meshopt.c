/* glTF reader: EXT_meshopt_compression - bufferViews encoded with
 * meshoptimizer's codecs (Debian libmeshoptimizer-dev), as gltfpack and
 * `morphkit pack --compress` write them.
 *
 * A compressed view names the encoded bytes (buffer, byteOffset,
 * byteLength), the decoded layout (count elements of byteStride bytes), the
 * codec (mode ATTRIBUTES, TRIANGLES or INDICES) and a filter applied after
 * decoding (NONE, OCTAHEDRAL, QUATERNION, EXPONENTIAL). Each is decoded
 * once into its own arena block, which view->data then points to; the
 * codecs' preconditions (stride, count) are checked here first because
 * meshoptimizer only asserts them. Its decoders check the encoded length
 * themselves and fail on malformed data. */
#include <meshoptimizer.h>
#include <string.h>

#include "gltf_internal.h"

static mk_status decode_view(mk_gltf_ctx *c, const mk_gltf_json_value *ext,
                             const mk_gltf_path *path, mk_gltf_buffer_view *v)
{
    mk_gltf *g = c->g;
    uint32_t buffer, stride, count;
    size_t offset = 0, length, end, size;
    mk_status s;
    if ((s = mk_gltf_json_object(c, ext, path)) != MK_OK ||
        (s = mk_gltf_json_index(c, ext, "buffer", path, true, g->buffer_count, "buffers",
                                &buffer)) != MK_OK ||
        (s = mk_gltf_json_size(c, ext, "byteOffset", path, false, &offset)) != MK_OK ||
        (s = mk_gltf_json_size(c, ext, "byteLength", path, true, &length)) != MK_OK ||
        (s = mk_gltf_json_uint(c, ext, "byteStride", path, true, 0, &stride)) != MK_OK ||
        (s = mk_gltf_json_uint(c, ext, "count", path, true, 0, &count)) != MK_OK)
        return s;
    const mk_gltf_buffer *b = &g->buffers[buffer];
    if (b->fallback)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "buffer %u is a fallback buffer without data",
                            buffer);
    if (!mk_size_add(offset, length, &end) || end > b->byte_length)
        return mk_gltf_fail(c, MK_ERR_RANGE, path,
                            "byteOffset %zu + byteLength %zu exceeds buffer %u (%zu bytes)", offset,
                            length, buffer, b->byte_length);
    const mk_gltf_json_value *mode = mk_gltf_json_get(c->json, ext, "mode");
    const mk_gltf_json_value *filter = mk_gltf_json_get(c->json, ext, "filter");
    const bool attributes = mk_gltf_json_string_is(c->json, mode, "ATTRIBUTES");
    const bool triangles = mk_gltf_json_string_is(c->json, mode, "TRIANGLES");
    const bool indices = mk_gltf_json_string_is(c->json, mode, "INDICES");
    if (!attributes && !triangles && !indices)
        return mk_gltf_fail(c, MK_ERR_PARSE, path,
                            "mode must be \"ATTRIBUTES\", \"TRIANGLES\" or \"INDICES\"");
    if (attributes ? stride == 0 || stride > 256 || stride % 4 != 0 : stride != 2 && stride != 4)
        return mk_gltf_fail(c, MK_ERR_RANGE, path, "byteStride %u is not allowed for this mode",
                            stride);
    if (triangles && count % 3 != 0)
        return mk_gltf_fail(c, MK_ERR_RANGE, path, "count %u is not a multiple of 3", count);
    if (!mk_size_mul(count, stride, &size) || size > c->max_buffer)
        return mk_gltf_fail(c, MK_ERR_LIMIT, path, "%u elements of %u bytes are above the limit",
                            count, stride);
    if (size < v->byte_length)
        return mk_gltf_fail(c, MK_ERR_RANGE, path,
                            "decodes to %zu bytes, fewer than the bufferView's byteLength %zu", size,
                            v->byte_length);
    enum { NONE, OCT, QUAT, EXP } f = NONE;
    if (filter && !mk_gltf_json_string_is(c->json, filter, "NONE")) {
        f = mk_gltf_json_string_is(c->json, filter, "OCTAHEDRAL")    ? OCT
            : mk_gltf_json_string_is(c->json, filter, "QUATERNION")  ? QUAT
            : mk_gltf_json_string_is(c->json, filter, "EXPONENTIAL") ? EXP
                                                                     : (int)-1;
        if ((int)f < 0 || !attributes || (f == OCT && stride != 4 && stride != 8) ||
            (f == QUAT && stride != 8))
            return mk_gltf_fail(c, MK_ERR_PARSE, path,
                                "filter is not NONE, OCTAHEDRAL (stride 4 or 8), QUATERNION "
                                "(stride 8) or EXPONENTIAL on ATTRIBUTES data");
    }
    uint8_t *out = (uint8_t *)mk_gltf_arena_alloc_uninit(c->st, size ? size : 1);
    if (!out)
        return mk_gltf_fail(c, MK_ERR_OUT_OF_MEMORY, path, "out of memory");
    const unsigned char *src = b->data + offset;
    int rc = 0;
    if (count == 0)
        rc = 0;
    else if (attributes)
        rc = meshopt_decodeVertexBuffer(out, count, stride, src, length);
    else if (triangles)
        rc = meshopt_decodeIndexBuffer(out, count, stride, src, length);
    else
        rc = meshopt_decodeIndexSequence(out, count, stride, src, length);
    if (rc != 0)
        return mk_gltf_fail(c, MK_ERR_PARSE, path, "the %s data does not decode (meshopt: %d)",
                            attributes ? "vertex" : "index", rc);
    if (count && f == OCT)
        meshopt_decodeFilterOct(out, count, stride);
    else if (count && f == QUAT)
        meshopt_decodeFilterQuat(out, count, stride);
    else if (count && f == EXP)
        meshopt_decodeFilterExp(out, count, stride);
    v->data = out;
    v->compressed = true;
    return MK_OK;
}

mk_status mk_gltf_decode_meshopt(mk_gltf_ctx *c, const mk_gltf_json_value *root)
{
    mk_gltf *g = c->g;
    const mk_gltf_json_value *arr = mk_gltf_json_get(c->json, root, "bufferViews"), *item;
    uint32_t i = 0;
    MK_GLTF_JSON_EACH (c->json, item, arr) {
        const mk_gltf_json_value *ext = mk_gltf_json_get(
            c->json, mk_gltf_json_get(c->json, item, "extensions"), "EXT_meshopt_compression");
        const mk_gltf_path view_path = {NULL, "bufferViews", i};
        const mk_gltf_path path = {&view_path, "extensions.EXT_meshopt_compression", MK_NONE};
        mk_gltf_buffer_view *v = &g->buffer_views[i++];
        if (ext) {
            mk_status s = decode_view(c, ext, &path, v);
            if (s != MK_OK)
                return s;
        }
        if (!v->data)
            return mk_gltf_fail(c, MK_ERR_PARSE, &view_path,
                                "refers to fallback buffer %u but is not compressed", v->buffer);
    }
    return MK_OK;
}
