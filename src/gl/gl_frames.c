/* Pair path and crowd path: a unit's frames in one vertex buffer.
 *
 * Contract: every public call checks its arguments once (NULL handles, pose
 * counts, frame indices, finite weights) before it touches GL, so a refused
 * call leaves no GL error and draws nothing; the shaders then compute the
 * pose exactly as mk_pose_eval does (weights as given). */
#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "gl_internal.h"

/* Byte offset of frame f's positions (normals: after all positions). */
static size_t stream_offset(const mk_gl_frames *g, uint32_t f, bool normals)
{
    size_t frame_bytes = (size_t)g->vertex_count * 3 * sizeof(float);
    return (normals ? (size_t)g->frame_count * frame_bytes : 0) + (size_t)f * frame_bytes;
}

/* The crowd VAO: no per-vertex attributes (everything is pulled from the
 * buffer textures by gl_VertexID), per-instance ones from the renderer's
 * instance buffer, and g's element buffer. */
static void setup_crowd_vao(mk_gl_renderer *r, mk_gl_frames *g)
{
    glBindVertexArray(g->crowd_vao);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->index_buffer);
    glBindBuffer(GL_ARRAY_BUFFER, r->instance_buffer);
    GLsizei stride = sizeof(mk_gl_gpu_instance);
    glEnableVertexAttribArray(0);
    glVertexAttribIPointer(0, 2, GL_UNSIGNED_INT, stride,
                           (const void *)offsetof(mk_gl_gpu_instance, frame_a));
    glVertexAttribDivisor(0, 1);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, stride,
                          (const void *)offsetof(mk_gl_gpu_instance, weight));
    glVertexAttribDivisor(1, 1);
    for (GLuint c = 0; c < 4; c++) {
        glEnableVertexAttribArray(2 + c);
        glVertexAttribPointer(2 + c, 4, GL_FLOAT, GL_FALSE, stride,
                              (const void *)(offsetof(mk_gl_gpu_instance, model) +
                                             c * 4 * sizeof(float)));
        glVertexAttribDivisor(2 + c, 1);
    }
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

mk_status mk_gl_frames_create(mk_gl_renderer *r, const mk_frame_set *set, mk_gl_frames **out,
                              mk_error *err)
{
    MK_GL_REQUIRE(out, "out", err);
    *out = NULL;
    MK_GL_REQUIRE(r, "renderer", err);
    MK_GL_REQUIRE(set, "set", err);
    if (!set->frame_count || !set->vertex_count || !set->positions ||
        (set->index_count && !set->indices))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "a frame set needs frames, vertices and positions (%u frames of %u "
                            "vertices)",
                            set->frame_count, set->vertex_count);
    size_t floats_per_stream = (size_t)set->frame_count * set->vertex_count * 3;
    size_t floats = floats_per_stream * (set->normals ? 2 : 1);
    if (floats / 3 / set->vertex_count / (set->normals ? 2 : 1) != set->frame_count ||
        floats > (size_t)PTRDIFF_MAX / sizeof(float) ||
        floats > (size_t)r->max_texture_buffer_size || floats > INT32_MAX)
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0,
                            "%u frames of %u vertices need %zu floats; this GL allows %d in a "
                            "buffer texture",
                            set->frame_count, set->vertex_count, floats,
                            r->max_texture_buffer_size);
    mk_gl_frames *g = mk_alloc(&r->allocator, sizeof *g);
    if (!g)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    memset(g, 0, sizeof *g);
    g->renderer = r;
    g->frame_count = set->frame_count;
    g->vertex_count = set->vertex_count;
    g->index_count = set->index_count;
    g->has_normals = set->normals != NULL;

    while (glGetError() != GL_NO_ERROR) {
    }
    glGenVertexArrays(1, &g->vao);
    glGenVertexArrays(1, &g->crowd_vao);
    glGenBuffers(1, &g->vertex_buffer);
    glGenBuffers(1, &g->index_buffer);
    glGenTextures(1, &g->frame_texture);

    glBindVertexArray(g->vao);
    glBindBuffer(GL_ARRAY_BUFFER, g->vertex_buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(floats * sizeof(float)), NULL, GL_STATIC_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(floats_per_stream * sizeof(float)),
                    set->positions);
    if (set->normals)
        glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)(floats_per_stream * sizeof(float)),
                        (GLsizeiptr)(floats_per_stream * sizeof(float)), set->normals);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->index_buffer);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)((size_t)set->index_count * 4),
                 set->indices, GL_STATIC_DRAW);
    if (set->texcoords) {
        /* Frame sets keep OBJ's v (0 at the bottom of the image); textures
         * are uploaded top row first, so t = 1 - v. */
        size_t n = (size_t)set->vertex_count * 2;
        float *uv = mk_alloc(&r->allocator, n * sizeof(float));
        if (uv) {
            for (size_t i = 0; i < n; i += 2) {
                uv[i] = set->texcoords[i];
                uv[i + 1] = 1.0f - set->texcoords[i + 1];
            }
            glGenBuffers(1, &g->texcoord_buffer);
            glBindBuffer(GL_ARRAY_BUFFER, g->texcoord_buffer);
            glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(n * sizeof(float)), uv, GL_STATIC_DRAW);
            glEnableVertexAttribArray(MK_GL_ATTRIB_TEXCOORD);
            glVertexAttribPointer(MK_GL_ATTRIB_TEXCOORD, 2, GL_FLOAT, GL_FALSE, 0, NULL);
            glBindBuffer(GL_ARRAY_BUFFER, 0);
            mk_free(&r->allocator, uv, n * sizeof(float));
            g->has_texcoords = true;
        } else {
            glBindVertexArray(0);
            mk_gl_frames_destroy(g);
            return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
        }
    }
    glBindVertexArray(0);

    setup_crowd_vao(r, g);

    glBindTexture(GL_TEXTURE_BUFFER, g->frame_texture);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_R32F, g->vertex_buffer);
    glBindTexture(GL_TEXTURE_BUFFER, 0);

    mk_status s = mk_gl_check("uploading frames", err);
    if (s != MK_OK) {
        mk_gl_frames_destroy(g);
        return s;
    }
    *out = g;
    return MK_OK;
}

mk_status mk_gl_frames_create_quantized(mk_gl_renderer *r, const mk_qframe_set *set,
                                        mk_gl_frames **out, mk_error *err)
{
    MK_GL_REQUIRE(out, "out", err);
    *out = NULL;
    MK_GL_REQUIRE(r, "renderer", err);
    MK_GL_REQUIRE(set, "set", err);
    if (!set->frame_count || !set->vertex_count || !set->positions ||
        (set->index_count && !set->indices))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "a quantized frame set needs frames, vertices and positions (%u "
                            "frames of %u vertices)",
                            set->frame_count, set->vertex_count);
    size_t verts = (size_t)set->frame_count * set->vertex_count, texels = verts * 3;
    if (verts / set->vertex_count != set->frame_count ||
        texels > (size_t)r->max_texture_buffer_size || texels > INT32_MAX)
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0,
                            "%u frames of %u vertices need %zu texels; this GL allows %d in a "
                            "buffer texture",
                            set->frame_count, set->vertex_count, texels,
                            r->max_texture_buffer_size);
    mk_gl_frames *g = mk_alloc(&r->allocator, sizeof *g);
    if (!g)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    memset(g, 0, sizeof *g);
    g->renderer = r;
    g->frame_count = set->frame_count;
    g->vertex_count = set->vertex_count;
    g->index_count = set->index_count;
    g->has_normals = set->normals != NULL;
    g->quantized = true;
    memcpy(g->scale, set->position_scale, sizeof g->scale);
    memcpy(g->offset, set->position_offset, sizeof g->offset);

    while (glGetError() != GL_NO_ERROR) {
    }
    glGenVertexArrays(1, &g->crowd_vao);
    glGenBuffers(1, &g->vertex_buffer);
    glGenBuffers(1, &g->index_buffer);
    glGenTextures(1, &g->frame_texture);
    /* the data as stored: no conversion on the CPU */
    glBindBuffer(GL_ARRAY_BUFFER, g->vertex_buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(texels * sizeof(uint16_t)), set->positions,
                 GL_STATIC_DRAW);
    glBindTexture(GL_TEXTURE_BUFFER, g->frame_texture);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_R16, g->vertex_buffer);
    if (set->normals) {
        glGenBuffers(1, &g->normal_buffer);
        glGenTextures(1, &g->normal_texture);
        glBindBuffer(GL_ARRAY_BUFFER, g->normal_buffer);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(verts * 2 * sizeof(int16_t)), set->normals,
                     GL_STATIC_DRAW);
        glBindTexture(GL_TEXTURE_BUFFER, g->normal_texture);
        glTexBuffer(GL_TEXTURE_BUFFER, GL_RG16I, g->normal_buffer);
    }
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->index_buffer);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)((size_t)set->index_count * 4),
                 set->indices, GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    setup_crowd_vao(r, g);

    mk_status s = mk_gl_check("uploading quantized frames", err);
    if (s != MK_OK) {
        mk_gl_frames_destroy(g);
        return s;
    }
    *out = g;
    return MK_OK;
}

void mk_gl_frames_destroy(mk_gl_frames *g)
{
    if (!g)
        return;
    glDeleteVertexArrays(1, &g->vao);
    glDeleteVertexArrays(1, &g->crowd_vao);
    glDeleteBuffers(1, &g->vertex_buffer);
    glDeleteBuffers(1, &g->index_buffer);
    glDeleteBuffers(1, &g->texcoord_buffer);
    glDeleteTextures(1, &g->frame_texture);
    glDeleteBuffers(1, &g->normal_buffer);
    glDeleteTextures(1, &g->normal_texture);
    mk_free(&g->renderer->allocator, g, sizeof *g);
}

uint32_t mk_gl_frames_frame_count(const mk_gl_frames *g)
{
    return g ? g->frame_count : 0;
}

/* The one check of a pose draw or capture, before any GL call. */
static mk_status check_pose(const mk_gl_renderer *r, const mk_gl_frames *g, const mk_pose *pose,
                            mk_error *err)
{
    MK_GL_REQUIRE(r, "renderer", err);
    MK_GL_REQUIRE(g, "frames", err);
    MK_GL_REQUIRE(pose, "pose", err);
    if (g->quantized)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "quantized frames are drawn with the crowd path only");
    if (pose->count != 0 && pose->count != 1 && pose->count != 2 && pose->count != 4)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "a pose has 0, 1, 2 or 4 entries, not %u", pose->count);
    for (uint32_t i = 0; i < pose->count; i++) {
        if (pose->frames[i] >= g->frame_count)
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "pose entry %u shows frame %u of %u", i, pose->frames[i],
                                g->frame_count);
        if (!isfinite(pose->weights[i]))
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "pose entry %u has weight %g", i, (double)pose->weights[i]);
    }
    return MK_OK;
}

/* Points attribute streams 0..n-1 (positions) and 4..4+n-1 (normals) at the
 * pose's frames, picks the program for n streams and gives it the weights
 * as they are. Returns that program. The pose has been checked. */
static const mk_gl_program *bind_pose(mk_gl_renderer *r, const mk_gl_frames *g,
                                      const mk_pose *pose)
{
    assert(pose->count == 1 || pose->count == 2 || pose->count == 4);
    glBindVertexArray(g->vao);
    glBindBuffer(GL_ARRAY_BUFFER, g->vertex_buffer);
    for (uint32_t i = 0; i < 4; i++) {
        bool on = i < pose->count;
        if (on) {
            assert(pose->frames[i] < g->frame_count);
            glEnableVertexAttribArray(i);
            glVertexAttribPointer(i, 3, GL_FLOAT, GL_FALSE, 0,
                                  (const void *)stream_offset(g, pose->frames[i], false));
        } else {
            glDisableVertexAttribArray(i);
        }
        if (on && g->has_normals) {
            glEnableVertexAttribArray(4 + i);
            glVertexAttribPointer(4 + i, 3, GL_FLOAT, GL_FALSE, 0,
                                  (const void *)stream_offset(g, pose->frames[i], true));
        } else {
            /* A disabled attribute reads the current constant (0, 0, 0, 1). */
            glDisableVertexAttribArray(4 + i);
            glVertexAttrib3f(4 + i, 0.0f, 0.0f, 0.0f);
        }
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    const mk_gl_program *p;
    if (pose->count == 1) {
        p = &r->programs[MK_GL_PROGRAM_STANDARD];
        glUseProgram(p->id);
        glUniform1f(p->weight, pose->weights[0]);
    } else if (pose->count == 2) {
        p = &r->programs[MK_GL_PROGRAM_PAIR];
        glUseProgram(p->id);
        glUniform2fv(p->weights, 1, pose->weights);
    } else {
        p = &r->programs[MK_GL_PROGRAM_SMOOTH];
        glUseProgram(p->id);
        glUniform4fv(p->weights, 1, pose->weights);
    }
    return p;
}

mk_status mk_gl_draw_pose(mk_gl_renderer *r, const mk_gl_frames *g, const mk_pose *pose,
                          const mk_gl_draw_params *params, mk_error *err)
{
    mk_status s = check_pose(r, g, pose, err);
    if (s != MK_OK || pose->count == 0)
        return s;
    const mk_gl_program *p = bind_pose(r, g, pose);
    mk_gl_apply_params(p, params, !g->has_normals, g->has_texcoords);
    glEnable(GL_DEPTH_TEST);
    glDrawElements(GL_TRIANGLES, (GLsizei)g->index_count, GL_UNSIGNED_INT, NULL);
    glBindVertexArray(0);
    return MK_OK;
}

mk_status mk_gl_capture_pose(mk_gl_renderer *r, const mk_gl_frames *g, const mk_pose *pose,
                             float *out_positions, float *out_normals, mk_error *err)
{
    mk_status check = check_pose(r, g, pose, err);
    if (check != MK_OK)
        return check;
    MK_GL_REQUIRE(out_positions, "out_positions", err);
    if (pose->count == 0)
        return MK_OK;
    size_t n = (size_t)g->vertex_count * 6;
    float *tmp = mk_alloc(&r->allocator, n * sizeof(float));
    if (!tmp)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    const mk_gl_program *p = bind_pose(r, g, pose);
    mk_status s = mk_gl_capture_run(r, p->id, g->vertex_count, 1, 6, tmp, err);
    glBindVertexArray(0);
    if (s == MK_OK) {
        for (size_t v = 0; v < g->vertex_count; v++) {
            memcpy(out_positions + 3 * v, tmp + 6 * v, 3 * sizeof(float));
            if (out_normals && g->has_normals)
                memcpy(out_normals + 3 * v, tmp + 6 * v + 3, 3 * sizeof(float));
        }
    }
    mk_free(&r->allocator, tmp, n * sizeof(float));
    return s;
}

static bool all_zero16(const float *m)
{
    for (int i = 0; i < 16; i++)
        if (m[i] != 0.0f)
            return false;
    return true;
}

/* The one check of a crowd draw or capture, before any GL call. */
mk_status mk_gl_check_crowd(const mk_gl_renderer *r, const mk_gl_frames *g,
                            const mk_gl_instance *instances, uint32_t count, mk_error *err)
{
    MK_GL_REQUIRE(r, "renderer", err);
    MK_GL_REQUIRE(g, "frames", err);
    if (count == 0)
        return MK_OK;
    MK_GL_REQUIRE(instances, "instances", err);
    if (count > INT32_MAX ||
        (uint64_t)count * sizeof(mk_gl_gpu_instance) > (uint64_t)PTRDIFF_MAX)
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0,
                            "%u instances are more than one GL draw takes", count);
    for (uint32_t i = 0; i < count; i++) {
        if (instances[i].frame_a >= g->frame_count || instances[i].frame_b >= g->frame_count)
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "instance %u shows frames %u and %u of %u", i,
                                instances[i].frame_a, instances[i].frame_b, g->frame_count);
        if (!isfinite(instances[i].weight))
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "instance %u has weight %g", i, (double)instances[i].weight);
    }
    return MK_OK;
}

/* Copies the (checked) instances into the renderer's instance buffer. */
mk_status mk_gl_upload_instances(mk_gl_renderer *r, const mk_gl_instance *instances,
                                 uint32_t count, mk_error *err)
{
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    size_t bytes = (size_t)count * sizeof(mk_gl_gpu_instance);
    if (!mk_gl_buffer_reserve(GL_ARRAY_BUFFER, r->instance_buffer, &r->instance_capacity, bytes,
                              GL_STREAM_DRAW)) {
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        return mk_error_set(err, MK_ERR_IO, NULL, 0,
                            "GL: no memory for %u instances (%zu bytes)", count, bytes);
    }
    /* Invalidating lets the driver hand out fresh memory instead of waiting
     * for the previous frame's draw to finish reading. */
    mk_gl_gpu_instance *dst = glMapBufferRange(
        GL_ARRAY_BUFFER, 0, (GLsizeiptr)bytes, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
    if (!dst) {
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        mk_status s = mk_gl_check("mapping the instance buffer", err);
        return s != MK_OK ? s
                          : mk_error_set(err, MK_ERR_IO, NULL, 0,
                                         "GL: the instance buffer cannot be mapped");
    }
    for (uint32_t i = 0; i < count; i++) {
        mk_gl_gpu_instance gi;
        gi.frame_a = instances[i].frame_a;
        gi.frame_b = instances[i].frame_b;
        gi.weight = instances[i].weight;
        gi.pad = 0.0f;
        memcpy(gi.model, all_zero16(instances[i].model) ? identity : instances[i].model,
               sizeof gi.model);
        memcpy(&dst[i], &gi, sizeof gi);
    }
    glUnmapBuffer(GL_ARRAY_BUFFER);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return MK_OK;
}

/* Uploads the (checked) instances and sets up the crowd program over g's
 * frame texture and VAO. */
static mk_status bind_crowd(mk_gl_renderer *r, const mk_gl_frames *g,
                            const mk_gl_instance *instances, uint32_t count,
                            const mk_gl_draw_params *params, mk_error *err)
{
    mk_status s = mk_gl_upload_instances(r, instances, count, err);
    if (s != MK_OK)
        return s;
    const mk_gl_program *p = &r->programs[g->quantized ? MK_GL_PROGRAM_QCROWD : MK_GL_PROGRAM_CROWD];
    mk_gl_apply_params(p, params, !g->has_normals, false);
    glUniform1i(p->vertex_count, (GLint)g->vertex_count);
    if (g->quantized) {
        glUniform1i(p->normal_base, g->has_normals ? 0 : -1);
        glUniform3fv(p->scale, 1, g->scale);
        glUniform3fv(p->offset, 1, g->offset);
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_BUFFER, g->normal_texture);
    } else {
        glUniform1i(p->normal_base,
                    g->has_normals ? (GLint)((size_t)g->frame_count * g->vertex_count * 3) : -1);
    }
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_BUFFER, g->frame_texture);
    glBindVertexArray(g->crowd_vao);
    return MK_OK;
}

static void unbind_crowd(void)
{
    glBindVertexArray(0);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
}

mk_status mk_gl_draw_crowd(mk_gl_renderer *r, const mk_gl_frames *g,
                           const mk_gl_instance *instances, uint32_t count,
                           const mk_gl_draw_params *params, mk_error *err)
{
    mk_status s = mk_gl_check_crowd(r, g, instances, count, err);
    if (s != MK_OK || count == 0)
        return s;
    s = bind_crowd(r, g, instances, count, params, err);
    if (s != MK_OK)
        return s;
    glEnable(GL_DEPTH_TEST);
    glDrawElementsInstanced(GL_TRIANGLES, (GLsizei)g->index_count, GL_UNSIGNED_INT, NULL,
                            (GLsizei)count);
    unbind_crowd();
    return MK_OK;
}

mk_status mk_gl_capture_crowd(mk_gl_renderer *r, const mk_gl_frames *g,
                              const mk_gl_instance *instances, uint32_t count,
                              float *out_positions, float *out_normals, mk_error *err)
{
    mk_status s = mk_gl_check_crowd(r, g, instances, count, err);
    if (s != MK_OK || count == 0)
        return s;
    MK_GL_REQUIRE(out_positions, "out_positions", err);
    size_t vertices = (size_t)count * g->vertex_count;
    if (vertices > SIZE_MAX / (6 * sizeof(float)) ||
        vertices * 6 * sizeof(float) > (size_t)PTRDIFF_MAX)
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0,
                            "%u instances of %u vertices do not fit one capture buffer", count,
                            g->vertex_count);
    size_t n = vertices * 6;
    float *tmp = mk_alloc(&r->allocator, n * sizeof(float));
    if (!tmp)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    s = bind_crowd(r, g, instances, count, NULL, err);
    if (s == MK_OK)
        s = mk_gl_capture_run(
            r, r->programs[g->quantized ? MK_GL_PROGRAM_QCROWD : MK_GL_PROGRAM_CROWD].id,
            g->vertex_count, count, 6, tmp, err);
    unbind_crowd();
    if (s == MK_OK) {
        for (size_t v = 0; v < vertices; v++) {
            memcpy(out_positions + 3 * v, tmp + 6 * v, 3 * sizeof(float));
            if (out_normals && g->has_normals)
                memcpy(out_normals + 3 * v, tmp + 6 * v + 3, 3 * sizeof(float));
        }
    }
    mk_free(&r->allocator, tmp, n * sizeof(float));
    return s;
}

/* ---- mk_gl_mesh: the standard path with CPU-written vertices ------------ */

mk_status mk_gl_mesh_create(mk_gl_renderer *r, uint32_t vertex_count, const uint32_t *indices,
                            uint32_t index_count, bool has_normals, mk_gl_mesh **out,
                            mk_error *err)
{
    MK_GL_REQUIRE(out, "out", err);
    *out = NULL;
    MK_GL_REQUIRE(r, "renderer", err);
    if (index_count && !indices)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "indices is NULL");
    if ((size_t)vertex_count * 3 * sizeof(float) > (size_t)PTRDIFF_MAX ||
        index_count > INT32_MAX)
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0,
                            "a mesh of %u vertices and %u indices is too large for GL",
                            vertex_count, index_count);
    for (uint32_t i = 0; i < index_count; i++)
        if (indices[i] >= vertex_count)
            return mk_error_set(err, MK_ERR_RANGE, NULL, 0, "index %u is %u, not below %u", i,
                                indices[i], vertex_count);
    mk_gl_mesh *m = mk_alloc(&r->allocator, sizeof *m);
    if (!m)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    memset(m, 0, sizeof *m);
    m->allocator = r->allocator;
    m->vertex_count = vertex_count;
    m->index_count = index_count;
    m->has_normals = has_normals;
    size_t stream = (size_t)vertex_count * 3 * sizeof(float);
    glGenVertexArrays(1, &m->vao);
    glGenBuffers(1, &m->position_buffer);
    glGenBuffers(1, &m->normal_buffer);
    glGenBuffers(1, &m->index_buffer);
    glBindVertexArray(m->vao);
    glBindBuffer(GL_ARRAY_BUFFER, m->position_buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)stream, NULL, GL_STREAM_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    if (has_normals) {
        glBindBuffer(GL_ARRAY_BUFFER, m->normal_buffer);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)stream, NULL, GL_STREAM_DRAW);
        glEnableVertexAttribArray(4);
        glVertexAttribPointer(4, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    } else {
        glVertexAttrib3f(4, 0.0f, 0.0f, 0.0f);
    }
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m->index_buffer);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)((size_t)index_count * 4), indices,
                 GL_STATIC_DRAW);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    mk_status s = mk_gl_check("creating a mesh", err);
    if (s != MK_OK) {
        mk_gl_mesh_destroy(m);
        return s;
    }
    *out = m;
    return MK_OK;
}

void mk_gl_mesh_destroy(mk_gl_mesh *m)
{
    if (!m)
        return;
    glDeleteVertexArrays(1, &m->vao);
    glDeleteBuffers(1, &m->position_buffer);
    glDeleteBuffers(1, &m->normal_buffer);
    glDeleteBuffers(1, &m->index_buffer);
    mk_allocator a = m->allocator;
    mk_free(&a, m, sizeof *m);
}

mk_status mk_gl_mesh_update(mk_gl_mesh *m, const float *positions, const float *normals,
                             mk_error *err)
{
    MK_GL_REQUIRE(m, "mesh", err);
    MK_GL_REQUIRE(positions, "positions", err);
    GLsizeiptr stream = (GLsizeiptr)((size_t)m->vertex_count * 3 * sizeof(float));
    /* Orphan, then fill: the previous draw may still be reading the old data. */
    glBindBuffer(GL_ARRAY_BUFFER, m->position_buffer);
    glBufferData(GL_ARRAY_BUFFER, stream, NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, stream, positions);
    if (m->has_normals && normals) {
        glBindBuffer(GL_ARRAY_BUFFER, m->normal_buffer);
        glBufferData(GL_ARRAY_BUFFER, stream, NULL, GL_STREAM_DRAW);
        glBufferSubData(GL_ARRAY_BUFFER, 0, stream, normals);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return MK_OK;
}

mk_status mk_gl_draw_mesh(mk_gl_renderer *r, const mk_gl_mesh *m, const mk_gl_draw_params *params,
                          mk_error *err)
{
    MK_GL_REQUIRE(r, "renderer", err);
    MK_GL_REQUIRE(m, "mesh", err);
    const mk_gl_program *p = &r->programs[MK_GL_PROGRAM_STANDARD];
    mk_gl_apply_params(p, params, !m->has_normals, false);
    /* The standard shader scales by the pose weight; a mesh is drawn as is. */
    glUniform1f(p->weight, 1.0f);
    glBindVertexArray(m->vao);
    glEnable(GL_DEPTH_TEST);
    glDrawElements(GL_TRIANGLES, (GLsizei)m->index_count, GL_UNSIGNED_INT, NULL);
    glBindVertexArray(0);
    return MK_OK;
}
