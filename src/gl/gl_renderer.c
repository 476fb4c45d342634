/* The renderer: compiles the embedded shaders and holds the buffers every
 * path shares (transform feedback capture, crowd instances, morph active
 * lists). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gl_internal.h"
#include "mk_gl_shaders.h"

typedef struct program_source {
    const char *name; /* for error messages: the file in src/gl/shaders */
    const char *vertex;
    const char *const *varyings; /* transform feedback outputs, NULL-terminated */
    int min_version;             /* 0: 3.3; else the GL version (43) it needs */
} program_source;

static const char *const varyings_frames[] = {"tf_position", "tf_normal", NULL};
static const char *const varyings_morph[] = {"tf_position", "tf_normal", "tf_tangent", NULL};

static const program_source sources[MK_GL_PROGRAM_COUNT] = {
    [MK_GL_PROGRAM_STANDARD] = {"standard.vert", mk_gl_shader_standard_vert, varyings_frames, 0},
    [MK_GL_PROGRAM_PAIR] = {"pair.vert", mk_gl_shader_pair_vert, varyings_frames, 0},
    [MK_GL_PROGRAM_SMOOTH] = {"smooth.vert", mk_gl_shader_smooth_vert, varyings_frames, 0},
    [MK_GL_PROGRAM_MORPH] = {"morph.vert", mk_gl_shader_morph_vert, varyings_morph, 0},
    [MK_GL_PROGRAM_CROWD] = {"crowd.vert", mk_gl_shader_crowd_vert, varyings_frames, 0},
    [MK_GL_PROGRAM_MORPH_SKIN] = {"morph_skin.vert", mk_gl_shader_morph_skin_vert,
                                  varyings_morph, 0},
    [MK_GL_PROGRAM_QCROWD] = {"qcrowd.vert", mk_gl_shader_qcrowd_vert, varyings_frames, 0},
    [MK_GL_PROGRAM_PULLED] = {"crowd_pulled.vert", mk_gl_shader_crowd_pulled_vert,
                              varyings_frames, 43},
};

/* Compiles one stage; on failure the message carries the shader's name and
 * the first line(s) of the driver's info log. */
mk_status mk_gl_compile_shader(GLenum stage, const char *name, const char *text, GLuint *out,
                               mk_error *err)
{
    GLuint shader = glCreateShader(stage);
    glShaderSource(shader, 1, &text, NULL);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[400] = "";
        glGetShaderInfoLog(shader, sizeof log, NULL, log);
        for (char *p = log; *p; p++)
            if (*p == '\n')
                *p = ' ';
        glDeleteShader(shader);
        return mk_error_set(err, MK_ERR_PARSE, name, 0, "shader does not compile: %s", log);
    }
    *out = shader;
    return MK_OK;
}

static mk_status link_program(const program_source *src, GLuint fragment, mk_gl_program *p,
                              mk_error *err)
{
    GLuint vertex;
    mk_status s = mk_gl_compile_shader(GL_VERTEX_SHADER, src->name, src->vertex, &vertex, err);
    if (s != MK_OK)
        return s;
    GLuint id = glCreateProgram();
    glAttachShader(id, vertex);
    glAttachShader(id, fragment);
    int n = 0;
    while (src->varyings[n])
        n++;
    glTransformFeedbackVaryings(id, n, (const GLchar *const *)src->varyings,
                                GL_INTERLEAVED_ATTRIBS);
    glLinkProgram(id);
    glDetachShader(id, vertex);
    glDetachShader(id, fragment);
    glDeleteShader(vertex);
    GLint ok = 0;
    glGetProgramiv(id, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[400] = "";
        glGetProgramInfoLog(id, sizeof log, NULL, log);
        for (char *p = log; *p; p++)
            if (*p == '\n')
                *p = ' ';
        glDeleteProgram(id);
        return mk_error_set(err, MK_ERR_PARSE, src->name, 0, "program does not link: %s", log);
    }
    p->id = id;
    p->view_projection = glGetUniformLocation(id, "u_view_projection");
    p->model = glGetUniformLocation(id, "u_model");
    p->light = glGetUniformLocation(id, "u_light");
    p->color = glGetUniformLocation(id, "u_color");
    p->ambient = glGetUniformLocation(id, "u_ambient");
    p->flat = glGetUniformLocation(id, "u_flat");
    p->weight = glGetUniformLocation(id, "u_weight");
    p->weights = glGetUniformLocation(id, "u_weights");
    p->deltas = glGetUniformLocation(id, "u_deltas");
    p->active = glGetUniformLocation(id, "u_active");
    p->active_count = glGetUniformLocation(id, "u_active_count");
    p->frames = glGetUniformLocation(id, "u_frames");
    p->vertex_count = glGetUniformLocation(id, "u_vertex_count");
    p->normal_base = glGetUniformLocation(id, "u_normal_base");
    p->joints = glGetUniformLocation(id, "u_joints");
    p->influence_joints = glGetUniformLocation(id, "u_influence_joints");
    p->influence_weights = glGetUniformLocation(id, "u_influence_weights");
    p->influence_count = glGetUniformLocation(id, "u_influence_count");
    p->qnormals = glGetUniformLocation(id, "u_qnormals");
    p->scale = glGetUniformLocation(id, "u_scale");
    p->offset = glGetUniformLocation(id, "u_offset");
    p->texture = glGetUniformLocation(id, "u_texture");
    p->textured = glGetUniformLocation(id, "u_textured");
    /* Texture units are fixed per program: 0 the data, 1 the active list. */
    glUseProgram(id);
    if (p->deltas >= 0)
        glUniform1i(p->deltas, 0);
    if (p->frames >= 0)
        glUniform1i(p->frames, 0);
    if (p->active >= 0)
        glUniform1i(p->active, 1);
    /* morph_skin: 2 joint matrices, 3 influence joints, 4 influence weights. */
    if (p->joints >= 0)
        glUniform1i(p->joints, 2);
    if (p->influence_joints >= 0)
        glUniform1i(p->influence_joints, 3);
    if (p->influence_weights >= 0)
        glUniform1i(p->influence_weights, 4);
    if (p->qnormals >= 0)
        glUniform1i(p->qnormals, 1);
    if (p->texture >= 0)
        glUniform1i(p->texture, MK_GL_TEXTURE_UNIT_BASE);
    glUseProgram(0);
    return MK_OK;
}

mk_status mk_gl_renderer_create(const mk_allocator *alloc, mk_gl_renderer **out, mk_error *err)
{
    MK_GL_REQUIRE(out, "out", err);
    *out = NULL;
    int version = epoxy_gl_version();
    if (version < 33 || !epoxy_is_desktop_gl())
        return mk_error_set(err, MK_ERR_UNSUPPORTED, NULL, 0,
                            "OpenGL 3.3 core is needed; the current context is %s %d.%d",
                            epoxy_is_desktop_gl() ? "OpenGL" : "OpenGL ES", version / 10,
                            version % 10);
    mk_gl_renderer *r = mk_alloc(alloc, sizeof *r);
    if (!r)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    memset(r, 0, sizeof *r);
    r->allocator = alloc ? *alloc : (mk_allocator){0};
    while (glGetError() != GL_NO_ERROR) {
    }
    GLuint fragment;
    mk_status s = mk_gl_compile_shader(GL_FRAGMENT_SHADER, "lit.frag", mk_gl_shader_lit_frag, &fragment, err);
    for (int i = 0; s == MK_OK && i < MK_GL_PROGRAM_COUNT; i++)
        if (version >= sources[i].min_version)
            s = link_program(&sources[i], fragment, &r->programs[i], err);
    if (s == MK_OK && version >= 43)
        s = mk_gl_compute_init(r, err);
    if (s == MK_OK)
        glDeleteShader(fragment);
    if (s != MK_OK) {
        mk_gl_renderer_destroy(r);
        return s;
    }
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &r->max_texture_buffer_size);
    glGenBuffers(1, &r->capture_buffer);
    glGenBuffers(1, &r->instance_buffer);
    glGenBuffers(1, &r->active_buffer);
    glGenTextures(1, &r->active_texture);
    glGenFramebuffers(1, &r->capture_fbo);
    glGenRenderbuffers(1, &r->capture_color);
    glBindRenderbuffer(GL_RENDERBUFFER, r->capture_color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 1, 1);
    glBindFramebuffer(GL_FRAMEBUFFER, r->capture_fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                              r->capture_color);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    s = mk_gl_check("creating the renderer", err);
    if (s != MK_OK) {
        mk_gl_renderer_destroy(r);
        return s;
    }
    *out = r;
    return MK_OK;
}

void mk_gl_renderer_destroy(mk_gl_renderer *r)
{
    if (!r)
        return;
    for (int i = 0; i < MK_GL_PROGRAM_COUNT; i++)
        if (r->programs[i].id)
            glDeleteProgram(r->programs[i].id);
    glDeleteBuffers(1, &r->capture_buffer);
    glDeleteBuffers(1, &r->instance_buffer);
    glDeleteBuffers(1, &r->active_buffer);
    glDeleteTextures(1, &r->active_texture);
    glDeleteFramebuffers(1, &r->capture_fbo);
    glDeleteRenderbuffers(1, &r->capture_color);
    mk_gl_compute_release(r);
    mk_free(&r->allocator, r->active_scratch, r->active_capacity);
    mk_allocator a = r->allocator;
    mk_free(&a, r, sizeof *r);
}

static bool all_zero(const float *v, int n)
{
    for (int i = 0; i < n; i++)
        if (v[i] != 0.0f)
            return false;
    return true;
}

static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

void mk_gl_apply_params(const mk_gl_program *p, const mk_gl_draw_params *params, bool flat_normals,
                        bool has_texcoords)
{
    static const mk_gl_draw_params none;
    if (!params)
        params = &none;
    const float *vp = all_zero(params->view_projection, 16) ? identity : params->view_projection;
    const float *model = all_zero(params->model, 16) ? identity : params->model;
    float light[3] = {0.35f, 0.8f, 0.5f};
    if (!all_zero(params->light_direction, 3))
        memcpy(light, params->light_direction, sizeof light);
    float len = sqrtf(light[0] * light[0] + light[1] * light[1] + light[2] * light[2]);
    float color[4] = {0.78f, 0.74f, 0.68f, 1.0f};
    if (!all_zero(params->color, 4))
        memcpy(color, params->color, sizeof color);
    glUseProgram(p->id);
    glUniformMatrix4fv(p->view_projection, 1, GL_FALSE, vp);
    if (p->model >= 0)
        glUniformMatrix4fv(p->model, 1, GL_FALSE, model);
    glUniform3f(p->light, light[0] / len, light[1] / len, light[2] / len);
    glUniform4fv(p->color, 1, color);
    glUniform1f(p->ambient, params->ambient > 0.0f ? params->ambient : 0.25f);
    glUniform1i(p->flat, flat_normals ? 1 : 0);
    bool textured = params->texture && has_texcoords;
    if (p->textured >= 0)
        glUniform1i(p->textured, textured ? 1 : 0);
    if (textured) {
        glActiveTexture(GL_TEXTURE0 + MK_GL_TEXTURE_UNIT_BASE);
        glBindTexture(GL_TEXTURE_2D, params->texture->id);
        glActiveTexture(GL_TEXTURE0);
    }
}

bool mk_gl_buffer_reserve(GLenum target, GLuint buffer, size_t *capacity, size_t bytes,
                          GLenum usage)
{
    glBindBuffer(target, buffer);
    if (bytes <= *capacity)
        return true;
    size_t grown = *capacity * 2 > bytes ? *capacity * 2 : bytes;
    while (glGetError() != GL_NO_ERROR) {
    }
    glBufferData(target, (GLsizeiptr)grown, NULL, usage);
    if (glGetError() != GL_NO_ERROR) {
        *capacity = 0;
        return false;
    }
    *capacity = grown;
    return true;
}

mk_status mk_gl_capture_run(mk_gl_renderer *r, GLuint program, uint32_t count,
                            uint32_t instances, uint32_t floats_per_vertex, float *out,
                            mk_error *err)
{
    size_t bytes = (size_t)instances * count * floats_per_vertex * sizeof(float);
    if (!mk_gl_buffer_reserve(GL_TRANSFORM_FEEDBACK_BUFFER, r->capture_buffer,
                              &r->capture_capacity, bytes, GL_STREAM_READ))
        return mk_error_set(err, MK_ERR_IO, NULL, 0,
                            "GL: no memory for a %zu-byte transform feedback buffer", bytes);
    GLint previous_fbo = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, r->capture_fbo);
    glUseProgram(program);
    glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, r->capture_buffer, 0, (GLsizeiptr)bytes);
    glEnable(GL_RASTERIZER_DISCARD);
    glBeginTransformFeedback(GL_POINTS);
    /* Points in vertex order: output i is vertex i, and gl_VertexID == i;
     * instances follow one another. */
    glDrawArraysInstanced(GL_POINTS, 0, (GLsizei)count, (GLsizei)instances);
    glEndTransformFeedback();
    glDisable(GL_RASTERIZER_DISCARD);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)previous_fbo);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, r->capture_buffer);
    glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, (GLsizeiptr)bytes, out);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
    return mk_gl_check("transform feedback capture", err);
}

mk_status mk_gl_check(const char *what, mk_error *err)
{
    glFinish();
    GLenum e = glGetError();
    if (e == GL_NO_ERROR)
        return MK_OK;
    while (glGetError() != GL_NO_ERROR) {
    }
    const char *name = e == GL_OUT_OF_MEMORY           ? "GL_OUT_OF_MEMORY"
                       : e == GL_INVALID_OPERATION     ? "GL_INVALID_OPERATION"
                       : e == GL_INVALID_VALUE         ? "GL_INVALID_VALUE"
                       : e == GL_INVALID_ENUM          ? "GL_INVALID_ENUM"
                       : e == GL_INVALID_FRAMEBUFFER_OPERATION ? "GL_INVALID_FRAMEBUFFER_OPERATION"
                                                       : "unknown GL error";
    return mk_error_set(err, MK_ERR_IO, NULL, 0, "GL: %s while %s (0x%04x)", name, what,
                        (unsigned)e);
}
