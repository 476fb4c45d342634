/* Frame sets and single meshes: one allocation each (mk_block), sub-arrays
 * 16-aligned. */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "morphkit/frame_set.h"
#include "morphkit/mesh.h"

/* The arrays of a mesh (frames = 1) or frame set, after its struct of head
 * bytes; sizing pass when b->base is NULL (see mk_block). */
typedef struct arrays {
    float *positions, *normals, *texcoords;
    uint32_t *indices;
} arrays;

static void layout(mk_block *b, size_t frames, size_t vertices, size_t indices, bool normals,
                   bool texcoords, arrays *out)
{
    size_t fv = 0;
    if (!mk_size_mul(frames, vertices, &fv))
        b->overflow = true;
    out->positions = mk_block_take(b, fv, 12);
    out->normals = normals ? mk_block_take(b, fv, 12) : NULL;
    out->texcoords = texcoords ? mk_block_take(b, vertices, 8) : NULL;
    out->indices = mk_block_take(b, indices, 4);
}

/* Whether v[0 .. n) holds an inf or NaN: their exponent bits OR-ed with
 * no early exit, which vectorizes. */
MK_AVX2_CLONE static bool any_not_finite(const float *v, size_t n)
{
    uint32_t bad = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t bits;
        memcpy(&bits, v + k, sizeof bits);
        bad |= (uint32_t)((bits & 0x7F800000u) == 0x7F800000u);
    }
    return bad != 0;
}

static mk_status check_values(const float *v, size_t n, const char *what, mk_error *err)
{
    /* blocks tested whole, searched one by one only when one holds an inf or
     * NaN */
    for (size_t i = 0; i < n; i += 1024) {
        const size_t end = n - i < 1024 ? n : i + 1024;
        bool bad = any_not_finite(v + i, end - i);
        for (size_t k = i; bad && k < end; k++)
            if (!isfinite(v[k]))
                return mk_error_set(err, MK_ERR_RANGE, NULL, 0, "%s value %zu is not finite", what, k);
    }
    return MK_OK;
}

static mk_status check_indices(const uint32_t *idx, size_t n, uint32_t vertex_count, mk_error *err)
{
    for (size_t i = 0; i < n; i++)
        if (idx[i] >= vertex_count)
            return mk_error_set(err, MK_ERR_RANGE, NULL, 0,
                                "index %zu is %u but there are %u vertices", i, idx[i],
                                vertex_count);
    return MK_OK;
}

size_t mk_frame_set_byte_size(const mk_frame_set_desc *d)
{
    mk_block b;
    arrays r;
    mk_block_begin(&b, sizeof(mk_frame_set));
    layout(&b, d->frame_count, d->vertex_count, d->index_count, d->has_normals, d->has_texcoords,
           &r);
    return mk_block_size(&b);
}

mk_status mk_frame_set_create(const mk_frame_set_desc *d, const mk_allocator *allocator,
                              mk_frame_set **out, mk_error *err)
{
    *out = NULL;
    if (d->frame_count == 0 || d->vertex_count == 0 || d->index_count % 3 != 0)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "frame set needs frames and vertices and whole triangles "
                            "(%u frames, %u vertices, %u indices)",
                            d->frame_count, d->vertex_count, d->index_count);
    mk_block b;
    arrays r;
    mk_block_begin(&b, sizeof(mk_frame_set));
    layout(&b, d->frame_count, d->vertex_count, d->index_count, d->has_normals, d->has_texcoords,
           &r);
    void *block;
    mk_status st = mk_block_alloc(&b, allocator, "frame set", &block, err);
    if (st != MK_OK)
        return st;
    layout(&b, d->frame_count, d->vertex_count, d->index_count, d->has_normals, d->has_texcoords,
           &r);
    mk_frame_set *s = block;
    s->frame_count = d->frame_count;
    s->vertex_count = d->vertex_count;
    s->index_count = d->index_count;
    s->positions = r.positions;
    s->normals = r.normals;
    s->texcoords = r.texcoords;
    s->indices = r.indices;
    s->allocator = mk_allocator_copy(allocator);
    s->byte_size = mk_block_size(&b);
    *out = s;
    return MK_OK;
}

void mk_frame_set_destroy(mk_frame_set *s)
{
    if (s) {
        mk_allocator a = s->allocator;
        mk_free(&a, s, s->byte_size);
    }
}

mk_status mk_frame_set_validate(const mk_frame_set *s, mk_error *err)
{
    if (!s)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "frame set: NULL set");
    size_t n = (size_t)s->frame_count * s->vertex_count * 3;
    mk_status st = check_indices(s->indices, s->index_count, s->vertex_count, err);
    if (st == MK_OK)
        st = check_values(s->positions, n, "position", err);
    if (st == MK_OK && s->normals)
        st = check_values(s->normals, n, "normal", err);
    if (st == MK_OK && s->texcoords)
        st = check_values(s->texcoords, (size_t)s->vertex_count * 2, "texcoord", err);
    return st;
}

size_t mk_mesh_byte_size(const mk_mesh_desc *d)
{
    mk_block b;
    arrays r;
    mk_block_begin(&b, sizeof(mk_mesh));
    layout(&b, 1, d->vertex_count, d->index_count, d->has_normals, d->has_texcoords, &r);
    return mk_block_size(&b);
}

mk_status mk_mesh_create(const mk_mesh_desc *d, const mk_allocator *allocator, mk_mesh **out,
                         mk_error *err)
{
    *out = NULL;
    if (d->index_count % 3 != 0)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "index count %u is not a multiple of 3", d->index_count);
    mk_block b;
    arrays r;
    mk_block_begin(&b, sizeof(mk_mesh));
    layout(&b, 1, d->vertex_count, d->index_count, d->has_normals, d->has_texcoords, &r);
    void *block;
    mk_status st = mk_block_alloc(&b, allocator, "mesh", &block, err);
    if (st != MK_OK)
        return st;
    layout(&b, 1, d->vertex_count, d->index_count, d->has_normals, d->has_texcoords, &r);
    mk_mesh *m = block;
    m->vertex_count = d->vertex_count;
    m->index_count = d->index_count;
    m->positions = r.positions;
    m->normals = r.normals;
    m->texcoords = r.texcoords;
    m->indices = r.indices;
    m->allocator = mk_allocator_copy(allocator);
    m->byte_size = mk_block_size(&b);
    *out = m;
    return MK_OK;
}

void mk_mesh_destroy(mk_mesh *m)
{
    if (m) {
        mk_allocator a = m->allocator;
        mk_free(&a, m, m->byte_size);
    }
}

mk_status mk_mesh_validate(const mk_mesh *m, mk_error *err)
{
    size_t n = (size_t)m->vertex_count * 3;
    mk_status st = check_indices(m->indices, m->index_count, m->vertex_count, err);
    if (st == MK_OK)
        st = check_values(m->positions, n, "position", err);
    if (st == MK_OK && m->normals)
        st = check_values(m->normals, n, "normal", err);
    if (st == MK_OK && m->texcoords)
        st = check_values(m->texcoords, (size_t)m->vertex_count * 2, "texcoord", err);
    return st;
}
