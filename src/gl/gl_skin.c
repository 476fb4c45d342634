/* Skinned target path: glTF morph targets, then the skin, in one vertex
 * shader (shaders/morph_skin.vert); the morph half is gl_morph.c's. */
#include <math.h>
#include <string.h>

#include "gl_internal.h"

mk_status mk_gl_skin_create(mk_gl_renderer *r, const mk_skin *skin, mk_gl_skin **out,
                            mk_error *err)
{
    MK_GL_REQUIRE(out, "out", err);
    *out = NULL;
    MK_GL_REQUIRE(r, "renderer", err);
    MK_GL_REQUIRE(skin, "skin", err);
    if (!skin->prepared)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "skin is not prepared (mk_skin_prepare)");
    size_t n = (size_t)skin->vertex_count * skin->influence_count;
    size_t joint_texels = (size_t)skin->joint_count * 4;
    if (n > (size_t)r->max_texture_buffer_size || joint_texels > (size_t)r->max_texture_buffer_size ||
        n > INT32_MAX / 4)
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0,
                            "a skin of %zu influences and %u joints exceeds this GL's %d texels "
                            "in a buffer texture",
                            n, skin->joint_count, r->max_texture_buffer_size);
    int32_t *joints = mk_alloc(&r->allocator, n * sizeof(int32_t));
    mk_gl_skin *s = mk_alloc(&r->allocator, sizeof *s);
    if (!joints || !s) {
        mk_free(&r->allocator, joints, n * sizeof(int32_t));
        mk_free(&r->allocator, s, sizeof *s);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    }
    memset(s, 0, sizeof *s);
    s->renderer = r;
    s->vertex_count = skin->vertex_count;
    s->joint_count = skin->joint_count;
    s->influence_count = skin->influence_count;
    for (size_t i = 0; i < n; i++)
        joints[i] = skin->joints[i];
    while (glGetError() != GL_NO_ERROR) {
    }
    glGenBuffers(2, s->influence_buffer);
    glGenTextures(2, s->influence_texture);
    glGenBuffers(1, &s->joint_buffer);
    glGenTextures(1, &s->joint_texture);
    const void *data[2] = {joints, skin->weights};
    const GLenum format[2] = {GL_R32I, GL_R32F};
    for (int k = 0; k < 2; k++) {
        glBindBuffer(GL_TEXTURE_BUFFER, s->influence_buffer[k]);
        glBufferData(GL_TEXTURE_BUFFER, (GLsizeiptr)(n * 4), data[k], GL_STATIC_DRAW);
        glBindTexture(GL_TEXTURE_BUFFER, s->influence_texture[k]);
        glTexBuffer(GL_TEXTURE_BUFFER, format[k], s->influence_buffer[k]);
    }
    glBindBuffer(GL_TEXTURE_BUFFER, s->joint_buffer);
    glBufferData(GL_TEXTURE_BUFFER, (GLsizeiptr)(joint_texels * 4 * sizeof(float)), NULL,
                 GL_STREAM_DRAW);
    glBindTexture(GL_TEXTURE_BUFFER, s->joint_texture);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, s->joint_buffer);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    mk_free(&r->allocator, joints, n * sizeof(int32_t));
    mk_status st = mk_gl_check("uploading a skin", err);
    if (st != MK_OK) {
        mk_gl_skin_destroy(s);
        return st;
    }
    *out = s;
    return MK_OK;
}

void mk_gl_skin_destroy(mk_gl_skin *s)
{
    if (!s)
        return;
    glDeleteBuffers(2, s->influence_buffer);
    glDeleteTextures(2, s->influence_texture);
    glDeleteBuffers(1, &s->joint_buffer);
    glDeleteTextures(1, &s->joint_texture);
    mk_free(&s->renderer->allocator, s, sizeof *s);
}

/* The one check of a skinned draw or capture, before any GL call. */
static mk_status check_skin(const mk_gl_renderer *r, const mk_gl_morph *m, const float *weights,
                            const mk_gl_skin *s, const float *jm, size_t matrix_count,
                            mk_error *err)
{
    mk_status st = mk_gl_morph_check(r, m, weights, err);
    if (st != MK_OK)
        return st;
    MK_GL_REQUIRE(s, "skin", err);
    MK_GL_REQUIRE(jm, "joint_matrices", err);
    if (matrix_count < s->joint_count || s->vertex_count != m->vertex_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "%zu joint matrices for %u joints, or a skin of %u vertices on a "
                            "morph of %u",
                            matrix_count, s->joint_count, s->vertex_count, m->vertex_count);
    for (size_t i = 0; i < (size_t)s->joint_count * 16; i++)
        if (!isfinite(jm[i]))
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "joint matrix %zu holds %g", i / 16, (double)jm[i]);
    return MK_OK;
}

/* Binds the morph half, then sends the joint matrices and binds the skin's
 * textures on units 2..4. */
static mk_status bind_skin(mk_gl_renderer *r, mk_gl_morph *m, const float *weights,
                           mk_gl_skin *s, const float *jm, mk_error *err)
{
    mk_status st = mk_gl_morph_bind(r, m, weights, MK_GL_PROGRAM_MORPH_SKIN, err);
    if (st != MK_OK)
        return st;
    const mk_gl_program *p = &r->programs[MK_GL_PROGRAM_MORPH_SKIN];
    glUniform1i(p->influence_count, (GLint)s->influence_count);
    glBindBuffer(GL_TEXTURE_BUFFER, s->joint_buffer);
    /* Orphaning keeps an earlier draw's matrices intact while it still runs. */
    size_t bytes = (size_t)s->joint_count * 16 * sizeof(float);
    glBufferData(GL_TEXTURE_BUFFER, (GLsizeiptr)bytes, jm, GL_STREAM_DRAW);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_BUFFER, s->joint_texture);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, s->joint_buffer);
    glActiveTexture(GL_TEXTURE3);
    glBindTexture(GL_TEXTURE_BUFFER, s->influence_texture[0]);
    glActiveTexture(GL_TEXTURE4);
    glBindTexture(GL_TEXTURE_BUFFER, s->influence_texture[1]);
    glActiveTexture(GL_TEXTURE0);
    return MK_OK;
}

static void unbind_skin(void)
{
    for (GLenum unit = GL_TEXTURE2; unit <= GL_TEXTURE4; unit++) {
        glActiveTexture(unit);
        glBindTexture(GL_TEXTURE_BUFFER, 0);
    }
    mk_gl_morph_unbind();
}

mk_status mk_gl_draw_morph_skin(mk_gl_renderer *r, mk_gl_morph *m, const float *weights,
                                mk_gl_skin *s, const float *jm, size_t matrix_count,
                                const mk_gl_draw_params *params, mk_error *err)
{
    mk_status st = check_skin(r, m, weights, s, jm, matrix_count, err);
    if (st != MK_OK)
        return st;
    if ((st = bind_skin(r, m, weights, s, jm, err)) != MK_OK)
        return st;
    mk_gl_apply_params(&r->programs[MK_GL_PROGRAM_MORPH_SKIN], params, !m->has_normals,
                       m->has_texcoords);
    glEnable(GL_DEPTH_TEST);
    if (m->index_count)
        glDrawElements(GL_TRIANGLES, (GLsizei)m->index_count, GL_UNSIGNED_INT, NULL);
    else
        glDrawArrays(GL_TRIANGLES, 0, (GLsizei)(m->vertex_count / 3 * 3));
    unbind_skin();
    return MK_OK;
}

mk_status mk_gl_capture_morph_skin(mk_gl_renderer *r, mk_gl_morph *m, const float *weights,
                                   mk_gl_skin *s, const float *jm, size_t matrix_count,
                                   float *out_positions, float *out_normals, float *out_tangents,
                                   mk_error *err)
{
    mk_status st = check_skin(r, m, weights, s, jm, matrix_count, err);
    if (st != MK_OK)
        return st;
    MK_GL_REQUIRE(out_positions, "out_positions", err);
    size_t n = (size_t)m->vertex_count * 10;
    float *tmp = mk_alloc(&r->allocator, n * sizeof(float));
    if (!tmp)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    st = bind_skin(r, m, weights, s, jm, err);
    if (st == MK_OK)
        st = mk_gl_capture_run(r, r->programs[MK_GL_PROGRAM_MORPH_SKIN].id, m->vertex_count, 1,
                               10, tmp, err);
    unbind_skin();
    if (st == MK_OK) {
        for (size_t v = 0; v < m->vertex_count; v++) {
            memcpy(out_positions + 3 * v, tmp + 10 * v, 3 * sizeof(float));
            if (out_normals && m->has_normals)
                memcpy(out_normals + 3 * v, tmp + 10 * v + 3, 3 * sizeof(float));
            if (out_tangents && m->has_tangents)
                memcpy(out_tangents + 4 * v, tmp + 10 * v + 6, 4 * sizeof(float));
        }
    }
    mk_free(&r->allocator, tmp, n * sizeof(float));
    return st;
}
