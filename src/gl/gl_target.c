/* Offscreen framebuffers and readback. */
#include <string.h>

#include "gl_internal.h"

mk_status mk_gl_target_create(const mk_gl_target_desc *desc, const mk_allocator *allocator,
                             mk_gl_target **out, mk_error *err)
{
    MK_GL_REQUIRE(out, "out", err);
    *out = NULL;
    MK_GL_REQUIRE(desc, "desc", err);
    GLint max_size = 0, max_samples = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
    if (desc->width < 1 || desc->height < 1 || desc->width > (uint32_t)max_size ||
        desc->height > (uint32_t)max_size)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "a %ux%u framebuffer: each side must be 1..%d", desc->width,
                            desc->height, max_size);
    mk_gl_target *t = mk_alloc(allocator, sizeof *t);
    if (!t)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    memset(t, 0, sizeof *t);
    t->allocator = allocator ? *allocator : (mk_allocator){0};
    t->width = desc->width;
    t->height = desc->height;
    t->samples = desc->samples > 1 ? desc->samples : 0;
    if (t->samples > (uint32_t)max_samples)
        t->samples = (uint32_t)max_samples > 1 ? (uint32_t)max_samples : 0;
    while (glGetError() != GL_NO_ERROR) {
    }
    GLsizei w = (GLsizei)t->width, h = (GLsizei)t->height, s = (GLsizei)t->samples;
    glGenFramebuffers(1, &t->fbo);
    glGenRenderbuffers(1, &t->color);
    glGenRenderbuffers(1, &t->depth);
    glBindRenderbuffer(GL_RENDERBUFFER, t->color);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, s, GL_RGBA8, w, h);
    glBindRenderbuffer(GL_RENDERBUFFER, t->depth);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, s, GL_DEPTH_COMPONENT24, w, h);
    glBindFramebuffer(GL_FRAMEBUFFER, t->fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, t->color);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, t->depth);
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status == GL_FRAMEBUFFER_COMPLETE && t->samples) {
        /* Multisampled pixels cannot be read directly: resolve into this. */
        glGenFramebuffers(1, &t->resolve_fbo);
        glGenRenderbuffers(1, &t->resolve_color);
        glBindRenderbuffer(GL_RENDERBUFFER, t->resolve_color);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
        glBindFramebuffer(GL_FRAMEBUFFER, t->resolve_fbo);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                                  t->resolve_color);
        status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        mk_gl_target_destroy(t);
        return mk_error_set(err, MK_ERR_UNSUPPORTED, NULL, 0,
                            "GL: a %ux%u RGBA8 framebuffer is incomplete (status 0x%04x)",
                            desc->width, desc->height, (unsigned)status);
    }
    mk_status st = mk_gl_check("creating a framebuffer", err);
    if (st != MK_OK) {
        mk_gl_target_destroy(t);
        return st;
    }
    *out = t;
    return MK_OK;
}

void mk_gl_target_destroy(mk_gl_target *t)
{
    if (!t)
        return;
    glDeleteFramebuffers(1, &t->fbo);
    glDeleteRenderbuffers(1, &t->color);
    glDeleteRenderbuffers(1, &t->depth);
    if (t->resolve_fbo) {
        glDeleteFramebuffers(1, &t->resolve_fbo);
        glDeleteRenderbuffers(1, &t->resolve_color);
    }
    mk_allocator a = t->allocator;
    mk_free(&a, t, sizeof *t);
}

mk_status mk_gl_target_begin(mk_gl_target *t, const float clear_rgba[4], mk_error *err)
{
    static const float black[4] = {0, 0, 0, 1};
    MK_GL_REQUIRE(t, "target", err);
    if (!clear_rgba)
        clear_rgba = black;
    glBindFramebuffer(GL_FRAMEBUFFER, t->fbo);
    glViewport(0, 0, (GLsizei)t->width, (GLsizei)t->height);
    glClearColor(clear_rgba[0], clear_rgba[1], clear_rgba[2], clear_rgba[3]);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    return MK_OK;
}

mk_status mk_gl_target_read(mk_gl_target *t, uint8_t *out, mk_error *err)
{
    MK_GL_REQUIRE(t, "target", err);
    MK_GL_REQUIRE(out, "out", err);
    GLsizei w = (GLsizei)t->width, h = (GLsizei)t->height;
    GLuint source = t->fbo;
    if (t->samples) {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, t->fbo);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, t->resolve_fbo);
        glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        source = t->resolve_fbo;
    }
    glBindFramebuffer(GL_READ_FRAMEBUFFER, source);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, out);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    /* GL's first row is the bottom one; pictures start at the top. */
    size_t row = (size_t)w * 4;
    uint8_t tmp[4096];
    for (GLsizei y = 0; y < h / 2; y++) {
        uint8_t *a = out + (size_t)y * row, *b = out + (size_t)(h - 1 - y) * row;
        for (size_t x = 0; x < row; x += sizeof tmp) {
            size_t n = row - x < sizeof tmp ? row - x : sizeof tmp;
            memcpy(tmp, a + x, n);
            memcpy(a + x, b + x, n);
            memcpy(b + x, tmp, n);
        }
    }
    return mk_gl_check("reading the framebuffer", err);
}
