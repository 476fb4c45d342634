/* Base colour textures: an RGBA8 image uploaded once as sRGB (the sampler
 * decodes it to linear, as glTF 2.0 section 3.9.2 says of
 * baseColorTexture), with mipmaps, repeating; and the texture coordinates
 * of the target path. The pair path's texcoords come with its frame set
 * (gl_frames.c). */
#include <math.h>
#include <string.h>

#include "gl_internal.h"

mk_status mk_gl_texture_create(mk_gl_renderer *renderer, uint32_t width, uint32_t height,
                               const uint8_t *pixels, const mk_allocator *allocator,
                               mk_gl_texture **out, mk_error *err)
{
    MK_GL_REQUIRE(out, "out", err);
    *out = NULL;
    MK_GL_REQUIRE(renderer, "renderer", err);
    MK_GL_REQUIRE(pixels, "pixels", err);
    GLint max_size = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
    if (width == 0 || height == 0)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "a texture of %ux%u pixels has no pixels", width, height);
    if (width > (uint32_t)max_size || height > (uint32_t)max_size)
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0,
                            "a texture of %ux%u pixels; this GL takes at most %d on a side",
                            width, height, max_size);
    mk_gl_texture *t = mk_alloc(allocator, sizeof *t);
    if (!t)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    memset(t, 0, sizeof *t);
    t->allocator = allocator ? *allocator : (mk_allocator){0};
    t->width = width;
    t->height = height;
    while (glGetError() != GL_NO_ERROR) {
    }
    GLint previous = 0;
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
    glGenTextures(1, &t->id);
    glBindTexture(GL_TEXTURE_2D, t->id);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    /* Rows top first: texture coordinate (0, 0) is the image's top-left
     * pixel, glTF's convention. */
    glTexImage2D(GL_TEXTURE_2D, 0, GL_SRGB8_ALPHA8, (GLsizei)width, (GLsizei)height, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, pixels);
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glBindTexture(GL_TEXTURE_2D, (GLuint)previous);
    mk_status s = mk_gl_check("uploading a texture", err);
    if (s != MK_OK) {
        mk_gl_texture_destroy(t);
        return s;
    }
    *out = t;
    return MK_OK;
}

void mk_gl_texture_destroy(mk_gl_texture *t)
{
    if (!t)
        return;
    glDeleteTextures(1, &t->id);
    mk_allocator a = t->allocator;
    mk_free(&a, t, sizeof *t);
}

mk_status mk_gl_morph_set_texcoords(mk_gl_morph *m, const float *texcoords, mk_error *err)
{
    MK_GL_REQUIRE(m, "morph", err);
    MK_GL_REQUIRE(texcoords, "texcoords", err);
    for (size_t i = 0; i < (size_t)m->vertex_count * 2; i++)
        if (!isfinite(texcoords[i]))
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "texcoord %zu of vertex %zu is %g", i % 2, i / 2,
                                (double)texcoords[i]);
    while (glGetError() != GL_NO_ERROR) {
    }
    if (!m->texcoord_buffer)
        glGenBuffers(1, &m->texcoord_buffer);
    glBindVertexArray(m->vao);
    glBindBuffer(GL_ARRAY_BUFFER, m->texcoord_buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)m->vertex_count * 2 * sizeof(float)),
                 texcoords, GL_STATIC_DRAW);
    glEnableVertexAttribArray(MK_GL_ATTRIB_TEXCOORD);
    glVertexAttribPointer(MK_GL_ATTRIB_TEXCOORD, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    mk_status s = mk_gl_check("uploading texture coordinates", err);
    m->has_texcoords = s == MK_OK;
    return s;
}
