/* Private to src/gl: the structs behind the opaque handles of gl.h. */
#ifndef MK_GL_INTERNAL_H
#define MK_GL_INTERNAL_H

#include <epoxy/gl.h>

#include "morphkit/gl.h"

/* Programs of the renderer, one per path / stream count. */
typedef enum mk_gl_program_id {
    MK_GL_PROGRAM_STANDARD = 0, /* one stream, one weight */
    MK_GL_PROGRAM_PAIR,         /* two streams, two weights */
    MK_GL_PROGRAM_SMOOTH,       /* four streams, four weights */
    MK_GL_PROGRAM_MORPH,        /* glTF targets from a buffer texture */
    MK_GL_PROGRAM_CROWD,        /* instanced, frames from a buffer texture */
    MK_GL_PROGRAM_MORPH_SKIN,   /* glTF targets, then the skin (gl_skin.c) */
    MK_GL_PROGRAM_QCROWD,       /* the same over quantized frames */
    MK_GL_PROGRAM_PULLED,       /* compute path draw (GL 4.3; id 0 below) */
    MK_GL_PROGRAM_COUNT
} mk_gl_program_id;

typedef struct mk_gl_program {
    GLuint id;
    /* Uniform locations; -1 where the program has no such uniform. */
    GLint view_projection, model, light, color, ambient, flat;
    GLint weight;                          /* standard: float */
    GLint weights;                         /* pair: vec2, smooth: vec4 */
    GLint deltas, active, active_count;    /* morph */
    GLint frames, vertex_count, normal_base; /* crowd */
    GLint joints, influence_joints, influence_weights, influence_count; /* morph_skin */
    GLint qnormals, scale, offset;           /* quantized crowd */
    GLint texture, textured;                 /* base colour texture (unit 5) */
} mk_gl_program;

struct mk_gl_renderer {
    mk_allocator allocator;
    mk_gl_program programs[MK_GL_PROGRAM_COUNT];
    GLint max_texture_buffer_size; /* texels */
    GLuint capture_buffer;         /* transform feedback target, grown as needed */
    GLuint capture_fbo, capture_color; /* 1x1: a surfaceless context has no complete
                                          default framebuffer, and draws need one
                                          even with rasterization discarded */
    size_t capture_capacity;       /* bytes */
    GLuint instance_buffer;        /* crowd instances, grown as needed */
    size_t instance_capacity;      /* bytes */
    GLuint active_buffer, active_texture; /* morph: active target list */
    size_t active_capacity;        /* bytes */
    int32_t *active_scratch;       /* CPU copy of the list, active_capacity bytes */
    /* compute path (gl_compute.c), GL 4.3+ only: 0 otherwise */
    GLuint blend_program;          /* crowd_blend.comp */
    GLint blend_vertex_count, blend_normal_base, blend_total;
    GLuint blended_buffer;         /* 2 vec4 per (instance, vertex), grown as needed */
    size_t blended_capacity;       /* bytes */
};

struct mk_gl_frames {
    mk_gl_renderer *renderer;
    uint32_t frame_count, vertex_count, index_count;
    bool has_normals;
    bool has_texcoords;  /* texcoord_buffer feeds attribute 12 of vao */
    GLuint vao;          /* pair/standard/smooth: streams re-pointed per draw */
    GLuint texcoord_buffer;
    GLuint crowd_vao;    /* instance attributes + the same element buffer */
    GLuint vertex_buffer, index_buffer, frame_texture;
    /* quantized frames (mk_gl_frames_create_quantized): crowd path only;
     * vertex_buffer holds uint16 positions (frame_texture reads it as R16),
     * normal_buffer the octahedral pairs (normal_texture, RG16I) */
    bool quantized;
    float scale[3], offset[3];
    GLuint normal_buffer, normal_texture;
};

struct mk_gl_mesh {
    mk_allocator allocator;
    uint32_t vertex_count, index_count;
    bool has_normals;
    GLuint vao, position_buffer, normal_buffer, index_buffer;
};

struct mk_gl_morph {
    mk_gl_renderer *renderer;
    uint32_t vertex_count, index_count, target_count;
    bool has_normals, has_tangents;
    bool has_texcoords;               /* mk_gl_morph_set_texcoords: attribute 12 */
    GLuint texcoord_buffer;
    float *default_weights;           /* target_count copies */
    int32_t *offsets;                 /* target_count * 3 float3-element offsets, -1 absent */
    GLuint vao, base_buffer, index_buffer, delta_buffer, delta_texture;
};

struct mk_gl_skin {
    mk_gl_renderer *renderer;
    uint32_t vertex_count, joint_count, influence_count;
    GLuint influence_buffer[2], influence_texture[2]; /* joints (R32I), weights (R32F) */
    GLuint joint_buffer, joint_texture; /* joint matrices (RGBA32F), re-sent per draw */
};

struct mk_gl_texture {
    mk_allocator allocator;
    uint32_t width, height;
    GLuint id; /* GL_TEXTURE_2D, SRGB8_ALPHA8 with mipmaps */
};

/* The texture unit of the base colour texture (0..4 hold the paths' data). */
#define MK_GL_TEXTURE_UNIT_BASE 5
/* The vertex attribute of texture coordinates in every textured program. */
#define MK_GL_ATTRIB_TEXCOORD 12

struct mk_gl_target {
    mk_allocator allocator;
    uint32_t width, height, samples;
    GLuint fbo, color, depth;       /* multisampled when samples > 1 */
    GLuint resolve_fbo, resolve_color;
};

/* Instance layout in the crowd buffer: 80 bytes, std-layout friendly. */
typedef struct mk_gl_gpu_instance {
    uint32_t frame_a, frame_b;
    float weight, pad;
    float model[16];
} mk_gl_gpu_instance;

/* Compiles one shader stage; on failure (MK_ERR_PARSE) the message names
 * the shader and carries the driver's info log on one line. */
mk_status mk_gl_compile_shader(GLenum stage, const char *name, const char *text, GLuint *out,
                               mk_error *err);

/* Sets the uniforms every program shares (camera, light, colour, model)
 * and binds params->texture when the drawn object has texcoords. */
void mk_gl_apply_params(const mk_gl_program *program, const mk_gl_draw_params *params,
                        bool flat_normals, bool has_texcoords);

/* Grows a GL buffer to at least `bytes` (contents lost); false on GL error. */
bool mk_gl_buffer_reserve(GLenum target, GLuint buffer, size_t *capacity, size_t bytes,
                          GLenum usage);

/* Runs `program` over `count` vertices, `instances` times, with transform
 * feedback into the renderer's capture buffer and copies out the
 * interleaved floats (instances * count * floats_per_vertex, instance after
 * instance, as GL emits them). The caller has bound the VAO, set uniforms
 * and checked that the byte count fits size_t and GLsizeiptr. */
mk_status mk_gl_capture_run(mk_gl_renderer *renderer, GLuint program, uint32_t count,
                            uint32_t instances, uint32_t floats_per_vertex, float *out,
                            mk_error *err);

/* Target path internals (gl_morph.c), shared with the skinned path:
 * uploads the active-target list for weights (NULL: defaults), uses
 * `program` with the deltas on texture unit 0 and the list on unit 1, and
 * binds the morph's VAO; unbind undoes it. */
mk_status mk_gl_morph_bind(mk_gl_renderer *renderer, mk_gl_morph *morph, const float *weights,
                           mk_gl_program_id program, mk_error *err);
void mk_gl_morph_unbind(void);
/* The one check of a morph draw or capture (gl_morph.c). */
mk_status mk_gl_morph_check(const mk_gl_renderer *renderer, const mk_gl_morph *morph,
                            const float *weights, mk_error *err);
/* The crowd's argument check and instance upload (gl_frames.c), shared by
 * the compute path: the check runs before any GL call; the upload fills the
 * renderer's instance buffer with count checked instances. */
mk_status mk_gl_check_crowd(const mk_gl_renderer *r, const mk_gl_frames *g,
                            const mk_gl_instance *instances, uint32_t count, mk_error *err);
mk_status mk_gl_upload_instances(mk_gl_renderer *r, const mk_gl_instance *instances,
                                 uint32_t count, mk_error *err);

/* Compiles the compute path's program (GL 4.3+; gl_compute.c) and frees
 * its objects. */
mk_status mk_gl_compute_init(mk_gl_renderer *r, mk_error *err);
void mk_gl_compute_release(mk_gl_renderer *r);

/* MK_ERR_INVALID_ARGUMENT naming `what` when p is NULL. */
#define MK_GL_REQUIRE(p, what, err)                                                         \
    do {                                                                                    \
        if (!(p))                                                                           \
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "%s is NULL", what); \
    } while (0)

#endif
