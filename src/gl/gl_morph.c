/* Target path: glTF morph targets evaluated in the vertex shader. */
#include <math.h>
#include <string.h>

#include "gl_internal.h"

mk_status mk_gl_morph_create(mk_gl_renderer *r, const mk_morph_set *set, const uint32_t *indices,
                             uint32_t index_count, mk_gl_morph **out, mk_error *err)
{
    MK_GL_REQUIRE(out, "out", err);
    *out = NULL;
    MK_GL_REQUIRE(r, "renderer", err);
    MK_GL_REQUIRE(set, "set", err);
    if (index_count && !indices)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "indices is NULL");
    if (index_count > INT32_MAX || (size_t)set->vertex_count * 10 * sizeof(float) > INT32_MAX)
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0,
                            "a morph set of %u vertices and %u indices is too large for GL",
                            set->vertex_count, index_count);
    const uint32_t V = set->vertex_count;
    for (uint32_t i = 0; i < index_count; i++)
        if (indices[i] >= V)
            return mk_error_set(err, MK_ERR_RANGE, NULL, 0, "index %u is %u, not below %u", i,
                                indices[i], V);
    /* Every present delta gets V float3 elements (sparse ones expanded):
     * the shader then needs no index search. */
    size_t elements = 0;
    for (uint32_t t = 0; t < set->target_count; t++)
        for (int a = 0; a < MK_MORPH_ATTRIBUTE_COUNT; a++)
            if (set->targets[t].delta[a].entry_count)
                elements += V;
    size_t floats = elements * 3;
    if (floats > (size_t)r->max_texture_buffer_size || floats > INT32_MAX / 2)
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0,
                            "%u targets of %u vertices need %zu delta floats; this GL allows %d "
                            "in a buffer texture",
                            set->target_count, V, floats, r->max_texture_buffer_size);

    mk_gl_morph *m = mk_alloc(&r->allocator, sizeof *m);
    if (!m)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    memset(m, 0, sizeof *m);
    m->renderer = r;
    m->vertex_count = V;
    m->index_count = index_count;
    m->target_count = set->target_count;
    m->has_normals = set->base_normals != NULL;
    m->has_tangents = set->base_tangents != NULL;
    size_t table = (size_t)set->target_count * 3;
    float *deltas = mk_alloc(&r->allocator, (floats ? floats : 3) * sizeof(float));
    if (set->target_count) {
        m->offsets = mk_alloc(&r->allocator, table * sizeof(int32_t));
        m->default_weights = mk_alloc(&r->allocator, set->target_count * sizeof(float));
    }
    if (!deltas || (set->target_count && (!m->offsets || !m->default_weights))) {
        mk_free(&r->allocator, deltas, (floats ? floats : 3) * sizeof(float));
        mk_gl_morph_destroy(m);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    }
    if (set->target_count)
        memcpy(m->default_weights, set->default_weights, set->target_count * sizeof(float));
    memset(deltas, 0, (floats ? floats : 3) * sizeof(float));
    size_t next = 0;
    for (uint32_t t = 0; t < set->target_count; t++) {
        for (int a = 0; a < MK_MORPH_ATTRIBUTE_COUNT; a++) {
            const mk_morph_delta *d = &set->targets[t].delta[a];
            if (!d->entry_count) {
                m->offsets[t * 3 + a] = -1;
                continue;
            }
            m->offsets[t * 3 + a] = (int32_t)next;
            float *dst = deltas + next * 3;
            if (!d->indices)
                memcpy(dst, d->values, (size_t)V * 3 * sizeof(float));
            else
                for (uint32_t e = 0; e < d->entry_count; e++)
                    memcpy(dst + (size_t)d->indices[e] * 3, d->values + (size_t)e * 3,
                           3 * sizeof(float));
            next += V;
        }
    }

    while (glGetError() != GL_NO_ERROR) {
    }
    size_t stream3 = (size_t)V * 3 * sizeof(float);
    size_t base_bytes = stream3 * 2 + (size_t)V * 4 * sizeof(float);
    glGenVertexArrays(1, &m->vao);
    glGenBuffers(1, &m->base_buffer);
    glGenBuffers(1, &m->index_buffer);
    glGenBuffers(1, &m->delta_buffer);
    glGenTextures(1, &m->delta_texture);
    glBindVertexArray(m->vao);
    glBindBuffer(GL_ARRAY_BUFFER, m->base_buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)base_bytes, NULL, GL_STATIC_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)stream3, set->base_positions);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    if (set->base_normals) {
        glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)stream3, (GLsizeiptr)stream3, set->base_normals);
        glEnableVertexAttribArray(4);
        glVertexAttribPointer(4, 3, GL_FLOAT, GL_FALSE, 0, (const void *)stream3);
    }
    if (set->base_tangents) {
        glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)(2 * stream3),
                        (GLsizeiptr)((size_t)V * 4 * sizeof(float)), set->base_tangents);
        glEnableVertexAttribArray(8);
        glVertexAttribPointer(8, 4, GL_FLOAT, GL_FALSE, 0, (const void *)(2 * stream3));
    }
    if (index_count) {
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m->index_buffer);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)((size_t)index_count * 4), indices,
                     GL_STATIC_DRAW);
    }
    glBindVertexArray(0);
    glBindBuffer(GL_TEXTURE_BUFFER, m->delta_buffer);
    glBufferData(GL_TEXTURE_BUFFER, (GLsizeiptr)((floats ? floats : 3) * sizeof(float)), deltas,
                 GL_STATIC_DRAW);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    glBindTexture(GL_TEXTURE_BUFFER, m->delta_texture);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_R32F, m->delta_buffer);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    mk_free(&r->allocator, deltas, (floats ? floats : 3) * sizeof(float));
    mk_status s = mk_gl_check("uploading morph targets", err);
    if (s != MK_OK) {
        mk_gl_morph_destroy(m);
        return s;
    }
    *out = m;
    return MK_OK;
}

void mk_gl_morph_destroy(mk_gl_morph *m)
{
    if (!m)
        return;
    mk_gl_renderer *r = m->renderer;
    glDeleteVertexArrays(1, &m->vao);
    glDeleteBuffers(1, &m->base_buffer);
    glDeleteBuffers(1, &m->index_buffer);
    glDeleteBuffers(1, &m->delta_buffer);
    glDeleteBuffers(1, &m->texcoord_buffer);
    glDeleteTextures(1, &m->delta_texture);
    mk_free(&r->allocator, m->offsets, (size_t)m->target_count * 3 * sizeof(int32_t));
    mk_free(&r->allocator, m->default_weights, (size_t)m->target_count * sizeof(float));
    mk_free(&r->allocator, m, sizeof *m);
}

/* The one check of a morph draw or capture, before any GL call. */
mk_status mk_gl_morph_check(const mk_gl_renderer *r, const mk_gl_morph *m, const float *weights,
                            mk_error *err)
{
    MK_GL_REQUIRE(r, "renderer", err);
    MK_GL_REQUIRE(m, "morph", err);
    if (weights)
        for (uint32_t t = 0; t < m->target_count; t++)
            if (!isfinite(weights[t]))
                return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                    "target %u has weight %g", t, (double)weights[t]);
    return MK_OK;
}

/* Uploads the active (non-zero weight) targets as RGBA32I texels
 * (position, normal, tangent offsets, weight bits) and binds the program
 * with its textures. */
mk_status mk_gl_morph_bind(mk_gl_renderer *r, mk_gl_morph *m, const float *weights,
                           mk_gl_program_id program, mk_error *err)
{
    if (!weights)
        weights = m->default_weights;
    uint32_t active = 0;
    for (uint32_t t = 0; t < m->target_count; t++)
        active += weights[t] != 0.0f;
    size_t bytes = (size_t)(active ? active : 1) * 4 * sizeof(int32_t);
    if (bytes > r->active_capacity) {
        int32_t *grown = mk_realloc(&r->allocator, r->active_scratch, r->active_capacity, bytes);
        if (!grown)
            return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
        r->active_scratch = grown;
        r->active_capacity = bytes;
    }
    uint32_t k = 0;
    for (uint32_t t = 0; t < m->target_count; t++) {
        if (weights[t] == 0.0f)
            continue;
        int32_t *e = r->active_scratch + 4 * k++;
        e[0] = m->offsets[t * 3 + 0];
        e[1] = m->has_normals ? m->offsets[t * 3 + 1] : -1;
        e[2] = m->has_tangents ? m->offsets[t * 3 + 2] : -1;
        memcpy(&e[3], &weights[t], sizeof(float));
    }
    if (!active)
        memset(r->active_scratch, 0, 4 * sizeof(int32_t));
    glBindBuffer(GL_TEXTURE_BUFFER, r->active_buffer);
    /* Orphaning keeps an earlier draw's list intact while it still runs. */
    glBufferData(GL_TEXTURE_BUFFER, (GLsizeiptr)bytes, r->active_scratch, GL_STREAM_DRAW);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    const mk_gl_program *p = &r->programs[program];
    glUseProgram(p->id);
    glUniform1i(p->active_count, (GLint)active);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_BUFFER, m->delta_texture);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_BUFFER, r->active_texture);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32I, r->active_buffer);
    glActiveTexture(GL_TEXTURE0);
    glBindVertexArray(m->vao);
    return MK_OK;
}

void mk_gl_morph_unbind(void)
{
    glBindVertexArray(0);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
}

mk_status mk_gl_draw_morph(mk_gl_renderer *r, mk_gl_morph *m, const float *weights,
                           const mk_gl_draw_params *params, mk_error *err)
{
    mk_status s = mk_gl_morph_check(r, m, weights, err);
    if (s != MK_OK)
        return s;
    s = mk_gl_morph_bind(r, m, weights, MK_GL_PROGRAM_MORPH, err);
    if (s != MK_OK)
        return s;
    mk_gl_apply_params(&r->programs[MK_GL_PROGRAM_MORPH], params, !m->has_normals,
                       m->has_texcoords);
    glEnable(GL_DEPTH_TEST);
    if (m->index_count)
        glDrawElements(GL_TRIANGLES, (GLsizei)m->index_count, GL_UNSIGNED_INT, NULL);
    else
        glDrawArrays(GL_TRIANGLES, 0, (GLsizei)(m->vertex_count / 3 * 3));
    mk_gl_morph_unbind();
    return MK_OK;
}

mk_status mk_gl_capture_morph(mk_gl_renderer *r, mk_gl_morph *m, const float *weights,
                              float *out_positions, float *out_normals, float *out_tangents,
                              mk_error *err)
{
    mk_status check = mk_gl_morph_check(r, m, weights, err);
    if (check != MK_OK)
        return check;
    MK_GL_REQUIRE(out_positions, "out_positions", err);
    size_t n = (size_t)m->vertex_count * 10;
    float *tmp = mk_alloc(&r->allocator, n * sizeof(float));
    if (!tmp)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    mk_status s = mk_gl_morph_bind(r, m, weights, MK_GL_PROGRAM_MORPH, err);
    if (s == MK_OK)
        s = mk_gl_capture_run(r, r->programs[MK_GL_PROGRAM_MORPH].id, m->vertex_count, 1, 10,
                              tmp, err);
    mk_gl_morph_unbind();
    if (s == MK_OK) {
        for (size_t v = 0; v < m->vertex_count; v++) {
            memcpy(out_positions + 3 * v, tmp + 10 * v, 3 * sizeof(float));
            if (out_normals && m->has_normals)
                memcpy(out_normals + 3 * v, tmp + 10 * v + 3, 3 * sizeof(float));
            if (out_tangents && m->has_tangents)
                memcpy(out_tangents + 4 * v, tmp + 10 * v + 6, 4 * sizeof(float));
        }
    }
    mk_free(&r->allocator, tmp, n * sizeof(float));
    return s;
}
