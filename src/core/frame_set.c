/* Frame sets and single meshes: one allocation each, sub-arrays 16-aligned. */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "morphkit/frame_set.h"
#include "morphkit/mesh.h"

typedef struct layout {
    size_t total, positions, normals, texcoords, indices, header;
} layout;

/* Shared by meshes (frames = 1) and frame sets. */
static bool plan(size_t header, size_t frames, size_t vertices, size_t indices, bool normals,
                 bool texcoords, layout *l)
{
    size_t fv;
    memset(l, 0, sizeof *l);
    l->total = header;
    if (!mk_size_mul(frames, vertices, &fv) || !mk_layout_add(&l->total, fv, 12, &l->positions))
        return false;
    if (normals && !mk_layout_add(&l->total, fv, 12, &l->normals))
        return false;
    if (texcoords && !mk_layout_add(&l->total, vertices, 8, &l->texcoords))
        return false;
    return mk_layout_add(&l->total, indices, 4, &l->indices);
}

static mk_status check_values(const float *v, size_t n, const char *what, mk_error *err)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return mk_error_set(err, MK_ERR_RANGE, NULL, 0, "%s value %zu is not finite", what, i);
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
    layout l;
    if (!plan(sizeof(mk_frame_set), d->frame_count, d->vertex_count, d->index_count,
              d->has_normals, d->has_texcoords, &l))
        return 0;
    return l.total;
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
    layout l;
    if (!plan(sizeof(mk_frame_set), d->frame_count, d->vertex_count, d->index_count,
              d->has_normals, d->has_texcoords, &l))
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0, "frame set size overflows");
    unsigned char *block = mk_alloc(allocator, l.total);
    if (!block)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0,
                            "out of memory for a frame set of %zu bytes", l.total);
    memset(block, 0, l.total);
    mk_frame_set *s = (mk_frame_set *)block;
    s->frame_count = d->frame_count;
    s->vertex_count = d->vertex_count;
    s->index_count = d->index_count;
    s->positions = (float *)(block + l.positions);
    s->normals = d->has_normals ? (float *)(block + l.normals) : NULL;
    s->texcoords = d->has_texcoords ? (float *)(block + l.texcoords) : NULL;
    s->indices = (uint32_t *)(block + l.indices);
    s->allocator = mk_allocator_copy(allocator);
    s->byte_size = l.total;
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
    layout l;
    if (!plan(sizeof(mk_mesh), 1, d->vertex_count, d->index_count, d->has_normals,
              d->has_texcoords, &l))
        return 0;
    return l.total;
}

mk_status mk_mesh_create(const mk_mesh_desc *d, const mk_allocator *allocator, mk_mesh **out,
                         mk_error *err)
{
    *out = NULL;
    if (d->index_count % 3 != 0)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "index count %u is not a multiple of 3", d->index_count);
    layout l;
    if (!plan(sizeof(mk_mesh), 1, d->vertex_count, d->index_count, d->has_normals,
              d->has_texcoords, &l))
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0, "mesh size overflows");
    unsigned char *block = mk_alloc(allocator, l.total);
    if (!block)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0,
                            "out of memory for a mesh of %zu bytes", l.total);
    memset(block, 0, l.total);
    mk_mesh *m = (mk_mesh *)block;
    m->vertex_count = d->vertex_count;
    m->index_count = d->index_count;
    m->positions = (float *)(block + l.positions);
    m->normals = d->has_normals ? (float *)(block + l.normals) : NULL;
    m->texcoords = d->has_texcoords ? (float *)(block + l.texcoords) : NULL;
    m->indices = (uint32_t *)(block + l.indices);
    m->allocator = mk_allocator_copy(allocator);
    m->byte_size = l.total;
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
