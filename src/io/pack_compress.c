/* Unit packer: EXT_meshopt_compression through meshoptimizer (Debian
 * libmeshoptimizer-dev).
 *
 * Every bufferView is encoded: the triangle index buffer with the index
 * codec (mode TRIANGLES; mode INDICES where that would turn a triangle to
 * start at another corner), everything else with the vertex codec (mode
 * ATTRIBUTES), whose element size must be a multiple of 4: a view whose
 * element is not (sparse values of 6 or 3 bytes, byte weights, 16-bit sparse
 * indices) is encoded in elements of the least common multiple with 4, its
 * data padded with zeros. The encoded views go to buffer 0 (the GLB binary
 * chunk); the views themselves refer to a fallback buffer 1 without data,
 * laid out as the decoded views (4-byte aligned), as the extension asks
 * (filters: none). */
#include <meshoptimizer.h>
#include <string.h>

#include "pack_internal.h"

static uint32_t gcd(uint32_t a, uint32_t b)
{
    while (b) {
        uint32_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The codec element for a view: its element when a multiple of 4 (and at
 * most 256 bytes, the codec's limit), else lcm(element, 4), else 4. */
static uint32_t codec_stride(const mk_pack_view *v)
{
    uint32_t e = v->element ? v->element : 4;
    uint32_t l = e / gcd(e, 4) * 4;
    return l <= 256 ? l : 4;
}

mk_status mk_pack_compress(mk_pack_writer *w, mk_buf *out, size_t *fallback_size,
                           mk_error *err)
{
    const mk_allocator *al = w->allocator;
    mk_buf enc = {NULL, 0, 0, al, false};
    uint8_t *tmp = NULL, *code = NULL;
    size_t tmp_size = 0, code_size = 0, fallback = 0;
    mk_status st = MK_OK;
    for (uint32_t i = 0; i < w->view_count && st == MK_OK; i++) {
        const mk_pack_view *v = &mk_pack_views(w)[i];
        const uint8_t *data = w->bin.data + v->offset;
        if (v->raw) {
            /* an embedded image: already compressed, kept as it is */
            mk_buf_align(&enc, 4, 0);
            mk_buf_printf(out, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}",
                               i ? "," : "", enc.size, v->length);
            mk_buf_append(&enc, data, v->length);
            continue;
        }
        const bool triangles = v->index_size != 0;
        const uint32_t stride = triangles ? v->index_size : codec_stride(v);
        const size_t count = (v->length + stride - 1) / stride, padded = count * stride;
        size_t bound;
        uint32_t vertices = 0;
        if (triangles) {
            for (size_t k = 0; k < count; k++) {
                uint32_t x = 0;
                memcpy(&x, data + k * stride, stride); /* little-endian host, as glTF */
                vertices = x + 1 > vertices ? x + 1 : vertices;
            }
            bound = meshopt_encodeIndexBufferBound(count, vertices);
            size_t seq = meshopt_encodeIndexSequenceBound(count, vertices);
            bound = seq > bound ? seq : bound;
        } else {
            bound = meshopt_encodeVertexBufferBound(count, stride);
        }
        /* the decoded layout, zero-padded; indices as 32-bit for the encoder,
           then as decoded again */
        size_t need = triangles ? 2 * count * 4 : padded;
        if (need > tmp_size) {
            uint8_t *p = mk_realloc(al, tmp, tmp_size, need);
            if (!p) {
                st = MK_ERR_OUT_OF_MEMORY;
                break;
            }
            tmp = p;
            tmp_size = need;
        }
        if (bound > code_size) {
            uint8_t *p = mk_realloc(al, code, code_size, bound);
            if (!p) {
                st = MK_ERR_OUT_OF_MEMORY;
                break;
            }
            code = p;
            code_size = bound;
        }
        size_t n;
        bool sequence = false;
        if (triangles) {
            uint32_t *idx = (uint32_t *)tmp;
            for (size_t k = 0; k < count; k++) {
                uint32_t x = 0;
                memcpy(&x, data + k * stride, stride);
                idx[k] = x;
            }
            /* EXT_meshopt_compression's triangle stream is version 1 (header
               0xe1); meshoptimizer 0.18 writes version 0 unless told, and the
               setting is the library's one global: set it each time */
            meshopt_encodeIndexVersion(1);
            n = meshopt_encodeIndexBuffer(code, code_size, idx, count);
            /* The list is stored as the triangle codec turns it (pack_mesh.c
               settle_turns), so it comes back as it is; should it not, the
               order-keeping sequence codec (mode INDICES, version 1: header
               0xd1) stores it instead. */
            uint32_t *back = idx + count;
            sequence = n == 0 || meshopt_decodeIndexBuffer(back, count, 4, code, n) != 0 ||
                       memcmp(back, idx, count * 4) != 0;
            if (sequence)
                n = meshopt_encodeIndexSequence(code, code_size, idx, count);
        } else {
            memcpy(tmp, data, v->length);
            memset(tmp + v->length, 0, padded - v->length);
            n = meshopt_encodeVertexBuffer(code, code_size, tmp, count, stride);
        }
        if (n == 0) {
            mk_buf_free(&enc);
            st = mk_error_set(err, MK_ERR_LIMIT, NULL, 0,
                              "meshopt could not encode bufferView %u", i);
            break;
        }
        mk_buf_align(&enc, 4, 0);
        size_t at = enc.size;
        mk_buf_append(&enc, code, n);
        fallback = (fallback + 3) & ~(size_t)3;
        mk_buf_printf(out, "%s{\"buffer\":1", i ? "," : "");
        if (fallback) /* 0: glTF's default, here and in the extension */
            mk_buf_printf(out, ",\"byteOffset\":%zu", fallback);
        mk_buf_printf(out, ",\"byteLength\":%zu", padded);
        if (v->stride)
            mk_buf_printf(out, ",\"byteStride\":%u", v->stride);
        if (v->target)
            mk_buf_printf(out, ",\"target\":%u", v->target);
        mk_buf_printf(out, ",\"extensions\":{\"EXT_meshopt_compression\":{\"buffer\":0");
        if (at)
            mk_buf_printf(out, ",\"byteOffset\":%zu", at);
        mk_buf_printf(out, ",\"byteLength\":%zu,\"byteStride\":%u,\"count\":%zu,\"mode\":\"%s\"}}}",
                           n, stride, count,
                           sequence ? "INDICES" : triangles ? "TRIANGLES" : "ATTRIBUTES");
        fallback += padded;
    }
    mk_free(al, tmp, tmp_size);
    mk_free(al, code, code_size);
    if (st == MK_ERR_OUT_OF_MEMORY || enc.failed) {
        mk_buf_free(&enc);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    }
    if (st != MK_OK)
        return st;
    mk_buf_align(&enc, 4, 0);
    mk_buf_free(&w->bin);
    w->bin = enc;
    *fallback_size = fallback;
    return MK_OK;
}
