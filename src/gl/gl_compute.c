/* Compute path of the crowd (OpenGL 4.3+): a compute shader blends every
 * instance's pose into one buffer (crowd_blend.comp), then one instanced
 * draw reads it (crowd_pulled.vert) with no blending in the vertex shader.
 *
 * Contract as the crowd path: the same argument check before any GL call,
 * the same arithmetic (float frames; quantized frames are refused), and
 * MK_ERR_UNSUPPORTED on a context below 4.3. */
#include <stdint.h>
#include <string.h>

#include "gl_internal.h"
#include "mk_gl_shaders.h"

mk_status mk_gl_compute_init(mk_gl_renderer *r, mk_error *err)
{
    GLuint cs;
    mk_status s = mk_gl_compile_shader(GL_COMPUTE_SHADER, "crowd_blend.comp",
                                       mk_gl_shader_crowd_blend_comp, &cs, err);
    if (s != MK_OK)
        return s;
    GLuint id = glCreateProgram();
    glAttachShader(id, cs);
    glLinkProgram(id);
    glDetachShader(id, cs);
    glDeleteShader(cs);
    GLint ok = 0;
    glGetProgramiv(id, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[400] = "";
        glGetProgramInfoLog(id, sizeof log, NULL, log);
        for (char *p = log; *p; p++)
            if (*p == '\n')
                *p = ' ';
        glDeleteProgram(id);
        return mk_error_set(err, MK_ERR_PARSE, "crowd_blend.comp", 0,
                            "program does not link: %s", log);
    }
    r->blend_program = id;
    r->blend_vertex_count = glGetUniformLocation(id, "u_vertex_count");
    r->blend_normal_base = glGetUniformLocation(id, "u_normal_base");
    r->blend_total = glGetUniformLocation(id, "u_total");
    glGenBuffers(1, &r->blended_buffer);
    return MK_OK;
}

void mk_gl_compute_release(mk_gl_renderer *r)
{
    if (r->blend_program)
        glDeleteProgram(r->blend_program);
    glDeleteBuffers(1, &r->blended_buffer);
    r->blend_program = 0;
    r->blended_buffer = 0;
}

bool mk_gl_renderer_has_compute(const mk_gl_renderer *r)
{
    return r && r->blend_program != 0;
}

/* The checks of both entry points, then the compute pass into the blended
 * buffer (left bound at binding 2 for the draw). */
static mk_status blend_pass(mk_gl_renderer *r, const mk_gl_frames *g,
                            const mk_gl_instance *instances, uint32_t count, mk_error *err)
{
    mk_status s = mk_gl_check_crowd(r, g, instances, count, err);
    if (s != MK_OK)
        return s;
    if (!r->blend_program)
        return mk_error_set(err, MK_ERR_UNSUPPORTED, NULL, 0,
                            "the compute path needs OpenGL 4.3; this context has %d.%d",
                            epoxy_gl_version() / 10, epoxy_gl_version() % 10);
    if (g->quantized)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "the compute path takes float frames (mk_gl_frames_create)");
    if (count == 0)
        return MK_OK;
    uint64_t total = (uint64_t)count * g->vertex_count;
    if (total > INT32_MAX / 2 || total * 32 > (uint64_t)PTRDIFF_MAX)
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0,
                            "%u instances of %u vertices do not fit one blended buffer", count,
                            g->vertex_count);
    if (!mk_gl_buffer_reserve(GL_SHADER_STORAGE_BUFFER, r->blended_buffer, &r->blended_capacity,
                              (size_t)total * 32, GL_DYNAMIC_COPY))
        return mk_error_set(err, MK_ERR_IO, NULL, 0,
                            "GL: no memory for the blended poses (%llu bytes)",
                            (unsigned long long)total * 32);
    s = mk_gl_upload_instances(r, instances, count, err);
    if (s != MK_OK)
        return s;
    glUseProgram(r->blend_program);
    glUniform1i(r->blend_vertex_count, (GLint)g->vertex_count);
    glUniform1i(r->blend_normal_base,
                g->has_normals ? (GLint)((size_t)g->frame_count * g->vertex_count * 3) : -1);
    glUniform1i(r->blend_total, (GLint)total);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, r->instance_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, g->vertex_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, r->blended_buffer);
    /* 64 invocations a group; GL guarantees 65535 groups per dimension, so
     * larger counts are dispatched as rows (the shader skips the excess) */
    uint64_t groups = (total + 63) / 64;
    GLuint x = groups < 65535 ? (GLuint)groups : 65535u;
    glDispatchCompute(x, (GLuint)((groups + x - 1) / x), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    return MK_OK;
}

static void unbind(void)
{
    for (GLuint b = 0; b < 3; b++)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, b, 0);
    glBindVertexArray(0);
    glUseProgram(0);
}

mk_status mk_gl_draw_crowd_compute(mk_gl_renderer *r, const mk_gl_frames *g,
                                   const mk_gl_instance *instances, uint32_t count,
                                   const mk_gl_draw_params *params, mk_error *err)
{
    mk_status s = blend_pass(r, g, instances, count, err);
    if (s != MK_OK || count == 0) {
        if (r && r->blend_program)
            unbind();
        return s;
    }
    const mk_gl_program *p = &r->programs[MK_GL_PROGRAM_PULLED];
    mk_gl_apply_params(p, params, !g->has_normals, false);
    glUniform1i(p->vertex_count, (GLint)g->vertex_count);
    glBindVertexArray(g->crowd_vao);
    glEnable(GL_DEPTH_TEST);
    glDrawElementsInstanced(GL_TRIANGLES, (GLsizei)g->index_count, GL_UNSIGNED_INT, NULL,
                            (GLsizei)count);
    unbind();
    return MK_OK;
}

mk_status mk_gl_capture_crowd_compute(mk_gl_renderer *r, const mk_gl_frames *g,
                                      const mk_gl_instance *instances, uint32_t count,
                                      float *out_positions, float *out_normals, mk_error *err)
{
    if (count && !out_positions)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "out_positions is NULL");
    mk_status s = blend_pass(r, g, instances, count, err);
    if (s != MK_OK || count == 0) {
        if (r && r->blend_program)
            unbind();
        return s;
    }
    size_t vertices = (size_t)count * g->vertex_count;
    float *tmp = mk_alloc(&r->allocator, vertices * 32);
    if (!tmp) {
        unbind();
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    }
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, r->blended_buffer);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(vertices * 32), tmp);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    unbind();
    s = mk_gl_check("reading the blended poses", err);
    if (s == MK_OK)
        for (size_t v = 0; v < vertices; v++) {
            memcpy(out_positions + 3 * v, tmp + 8 * v, 3 * sizeof(float));
            if (out_normals && g->has_normals)
                memcpy(out_normals + 3 * v, tmp + 8 * v + 4, 3 * sizeof(float));
        }
    mk_free(&r->allocator, tmp, vertices * 32);
    return s;
}
