/* morphkit/gl.h - the GPU layer (library morphkit_gl): OpenGL 3.3 core through
 * libepoxy, a headless EGL context, and three ways to draw blend shapes.
 *
 * Not included by morphkit.h: only code that links morphkit_gl includes it.
 *
 * Contexts. Every mk_gl_* object below except mk_gl_context belongs to the GL
 * context that was current when it was created; it must be used and
 * destroyed with that context current (one thread at a time, as GL demands).
 * mk_gl_context makes a headless context (EGL, no window); a windowed program
 * makes its own context (GLFW, SDL) and then creates the renderer in it.
 *
 * Textures: mk_gl_texture (an RGBA8 image) in mk_gl_draw_params.texture
 * multiplies the base colour on the pair and target paths.
 *
 * Paths:
 *  - pair path (mk_gl_frames + mk_gl_draw_pose): a unit's frames are uploaded
 *    once into one vertex buffer; a pose's 1, 2 or 4 frames are bound as
 *    parallel attribute streams and the vertex shader computes what
 *    mk_pose_eval computes: out = sum_i weights[i] * F[frames[i]], weights
 *    used as given (any sum, negative ones too), normals re-normalized and
 *    (0, 0, 0) where the sum is shorter than 1e-12.
 *  - target path (mk_gl_morph + mk_gl_draw_morph): glTF morph deltas
 *    (POSITION, NORMAL, TANGENT; sparse ones made dense) in a buffer texture,
 *    fetched by gl_VertexID; the active (target, weight) pairs go in a second
 *    small buffer texture, and the shader loops over a uniform count. No
 *    shader is compiled per target count and there is no cap on the number
 *    of targets or of active targets (beyond GL_MAX_TEXTURE_BUFFER_SIZE,
 *    checked at upload).
 *  - crowd path (mk_gl_draw_crowd): N instances of one mk_gl_frames, each
 *    with its own frame A, frame B, weight and transform, in one
 *    glDrawElementsInstanced call; the vertex shader pulls positions and
 *    normals from a buffer texture over the same frame buffer.
 * The capture functions run the same vertex shaders with transform feedback
 * and return the blended object-space streams; the tests compare them with
 * the CPU kernels (mk_pose_eval, mk_blend_frames, mk_morph_evaluate) within
 * 1e-5.
 *
 * Errors: every fallible call returns an mk_status and fills the mk_error
 * (no EGL, no display, no GL 3.3 core context, a shader that does not
 * compile, with its info log, a GL error after an upload).
 * MK_ERR_UNSUPPORTED means "this machine cannot do it" (tests skip on it).
 * Misuse is checked once per call in every build type and answered with
 * MK_ERR_INVALID_ARGUMENT: a NULL handle or required pointer, a pose count
 * not in {0, 1, 2, 4}, a frame index >= the frame count, a weight that is
 * not finite. Such a call draws nothing and leaves the GL state and the
 * outputs as they were. MK_ERR_RANGE is only for the contents of uploaded
 * data (a triangle index >= the vertex count), as the loaders report it;
 * MK_ERR_LIMIT for sizes GL cannot take. Per-vertex work is never checked.
 * Every destroy function takes NULL.
 * Nothing here prints, aborts or keeps global state; GL function pointers are
 * libepoxy's. Matrices are column-major float[16], as OpenGL takes them. */
#ifndef MORPHKIT_GL_H
#define MORPHKIT_GL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"
#include "morphkit/frame_set.h"
#include "morphkit/morph.h"
#include "morphkit/skin.h"
#include "morphkit/pose.h"
#include "morphkit/qframe_set.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- headless context ------------------------------------------------------ */

typedef struct mk_gl_context mk_gl_context;

typedef struct mk_gl_context_options {
    bool debug; /* ask for a debug context (slower) */
} mk_gl_context_options;

/* Creates an OpenGL 3.3 (or later) core context without a window and makes
 * it current on the calling thread. Displays are tried in this order:
 * EGL_MESA_platform_surfaceless, EGL_EXT_platform_device (each device), the
 * default display; a display without EGL_KHR_surfaceless_context gets a 1x1
 * pbuffer. Mesa's llvmpipe serves where there is no GPU (set
 * EGL_PLATFORM=surfaceless or LIBGL_ALWAYS_SOFTWARE=1 to force it).
 * MK_ERR_UNSUPPORTED when libEGL is missing, no display initializes or none
 * gives a 3.3 core context (the message says which step failed). options may
 * be NULL (no debug context); allocator NULL: malloc. EGL displays are per
 * process and not reference-counted, and destroying a context terminates
 * its display: keep one mk_gl_context per process at a time. */
MK_API mk_status mk_gl_context_create(const mk_gl_context_options *options,
                                      const mk_allocator *allocator, mk_gl_context **out,
                                      mk_error *err);
/* Unbinds and destroys the context and terminates its display. NULL is
 * fine. */
MK_API void mk_gl_context_destroy(mk_gl_context *context);
/* Makes the context current on the calling thread. */
MK_API mk_status mk_gl_context_make_current(mk_gl_context *context, mk_error *err);
/* "4.5 (Core Profile) Mesa ... / llvmpipe ..." (owned by the context; ""
 * for NULL). */
MK_API const char *mk_gl_context_description(const mk_gl_context *context);

/* ---- renderer: the shader programs ---------------------------------------- */

typedef struct mk_gl_renderer mk_gl_renderer;

/* Compiles and links the built-in shaders in the current context. Needs
 * OpenGL 3.3 core (MK_ERR_UNSUPPORTED otherwise, naming the version found);
 * a shader that fails gives MK_ERR_PARSE with its name and info log.
 * allocator (NULL: malloc) also serves every object made from the renderer
 * (frames, meshes, morphs) and its scratch buffers. */
MK_API mk_status mk_gl_renderer_create(const mk_allocator *allocator, mk_gl_renderer **out,
                                       mk_error *err);
MK_API void mk_gl_renderer_destroy(mk_gl_renderer *renderer);

typedef struct mk_gl_texture mk_gl_texture;

/* What every draw takes. Zero means default for each field; a NULL params
 * pointer means all defaults. */
typedef struct mk_gl_draw_params {
    float view_projection[16]; /* clip-from-world (all zero: identity) */
    float model[16];           /* world-from-object (all zero: identity); the
                                  crowd path uses each instance's instead */
    float light_direction[3];  /* towards the light, world space; zero: (0.35, 0.8, 0.5) */
    float color[4];            /* base colour, linear RGBA; all zero: (0.78, 0.74, 0.68, 1) */
    float ambient;             /* <= 0: 0.25 */
    /* Base colour texture (NULL: none): the colour above is multiplied by
     * the texture at each vertex's texture coordinates. Used by the pair
     * path when the frame set has texcoords and by the target paths after
     * mk_gl_morph_set_texcoords; the crowd, compute and mesh paths ignore it. */
    const mk_gl_texture *texture;
} mk_gl_draw_params;

/* ---- textures ---------------------------------------------------------------- */

/* Uploads an RGBA8 image (width * height * 4 bytes, top row first,
 * sRGB-encoded colour as PNG files and glTF's baseColorTexture hold it;
 * the shader decodes it to linear before multiplying) as a 2D texture with
 * mipmaps, linear filtering and repeat wrapping. Texture coordinate (0, 0)
 * is the image's top-left pixel, as in glTF; the pair path flips the frame
 * set's OBJ texcoords (v up) itself. pixels may be freed afterwards.
 * allocator (NULL: malloc) serves the handle. MK_ERR_INVALID_ARGUMENT for
 * a NULL renderer, pixels or out, or a side of 0; MK_ERR_LIMIT for a side
 * above GL_MAX_TEXTURE_SIZE; MK_ERR_IO on a GL error. */
MK_API mk_status mk_gl_texture_create(mk_gl_renderer *renderer, uint32_t width, uint32_t height,
                                      const uint8_t *pixels, const mk_allocator *allocator,
                                      mk_gl_texture **out, mk_error *err);
MK_API void mk_gl_texture_destroy(mk_gl_texture *texture);

/* ---- pair path: a unit's frames, uploaded once ----------------------------- */

typedef struct mk_gl_frames mk_gl_frames;

/* Uploads every frame's positions (and normals) into one vertex buffer,
 * [positions of all frames][normals of all frames], and the indices into an
 * element buffer. A set without normals is drawn with flat (per-triangle)
 * normals. MK_ERR_LIMIT when the set is too large for a buffer texture
 * (GL_MAX_TEXTURE_BUFFER_SIZE floats; the crowd path needs it), or for
 * GLsizeiptr; MK_ERR_IO on a GL error (out of memory); a set without frames
 * or vertices is MK_ERR_INVALID_ARGUMENT. The set's texcoords (if any) are
 * uploaded as (u, 1 - v) for params->texture (frame sets hold OBJ's v up).
 * set may be freed afterwards. */
MK_API mk_status mk_gl_frames_create(mk_gl_renderer *renderer, const mk_frame_set *set,
                                     mk_gl_frames **out, mk_error *err);
/* Uploads a quantized frame set as it is stored (no conversion on the CPU):
 * positions as 16-bit normalized texels with the set's scale and offset,
 * normals as octahedral 16-bit pairs, 10 bytes per vertex and frame instead
 * of 24. Such frames are drawn with the crowd path only (mk_gl_draw_crowd,
 * mk_gl_capture_crowd), which blends them as mk_blend_qframes does (within
 * 1e-5 of it, tested); the pair path answers MK_ERR_INVALID_ARGUMENT.
 * Errors as mk_gl_frames_create (MK_ERR_LIMIT above
 * GL_MAX_TEXTURE_BUFFER_SIZE / 3 vertices in all frames). */
MK_API mk_status mk_gl_frames_create_quantized(mk_gl_renderer *renderer,
                                               const mk_qframe_set *set, mk_gl_frames **out,
                                               mk_error *err);
MK_API void mk_gl_frames_destroy(mk_gl_frames *frames);
/* 0 for NULL. */
MK_API uint32_t mk_gl_frames_frame_count(const mk_gl_frames *frames);

/* Draws a pose (1, 2 or 4 entries; count 0 draws nothing) into the bound
 * framebuffer with depth testing. The shape is mk_pose_eval's (see "pair
 * path" above). MK_ERR_INVALID_ARGUMENT for a NULL renderer, frames or
 * pose, a count not in {0, 1, 2, 4}, a frame >= frame count or a weight that
 * is not finite (the entries past count are not looked at). */
MK_API mk_status mk_gl_draw_pose(mk_gl_renderer *renderer, const mk_gl_frames *frames,
                                 const mk_pose *pose, const mk_gl_draw_params *params,
                                 mk_error *err);

/* Runs the pose's vertex shader with transform feedback (no rasterization)
 * and reads back the blended object-space positions and normals (the
 * set's vertex_count float3 each; out_normals may be NULL, and is left
 * untouched for a set without normals). Checks the pose as mk_gl_draw_pose
 * does; a count of 0 leaves the outputs untouched, as mk_pose_eval does. */
MK_API mk_status mk_gl_capture_pose(mk_gl_renderer *renderer, const mk_gl_frames *frames,
                                    const mk_pose *pose, float *out_positions, float *out_normals,
                                    mk_error *err);

/* ---- a mesh whose vertices the CPU writes (the standard path) --------------- */

typedef struct mk_gl_mesh mk_gl_mesh;

/* A single-stream mesh: fixed indices, positions/normals re-uploaded by
 * mk_gl_mesh_update (e.g. a CPU blend each frame). has_normals false: flat
 * normals. MK_ERR_RANGE for an index >= vertex_count; indices may be NULL
 * only with index_count 0; MK_ERR_LIMIT when the streams are too large for
 * GL. */
MK_API mk_status mk_gl_mesh_create(mk_gl_renderer *renderer, uint32_t vertex_count,
                                   const uint32_t *indices, uint32_t index_count, bool has_normals,
                                   mk_gl_mesh **out, mk_error *err);
MK_API void mk_gl_mesh_destroy(mk_gl_mesh *mesh);
/* Replaces the vertex streams (vertex_count float3 each). normals NULL
 * keeps the previous normals; they are ignored when the mesh has none.
 * MK_ERR_INVALID_ARGUMENT for a NULL mesh or positions. */
MK_API mk_status mk_gl_mesh_update(mk_gl_mesh *mesh, const float *positions, const float *normals,
                                   mk_error *err);
/* Draws the mesh as uploaded (normals re-normalized in the shader).
 * MK_ERR_INVALID_ARGUMENT for a NULL renderer or mesh. */
MK_API mk_status mk_gl_draw_mesh(mk_gl_renderer *renderer, const mk_gl_mesh *mesh,
                                 const mk_gl_draw_params *params, mk_error *err);

/* ---- target path (glTF morph targets) -------------------------------------- */

typedef struct mk_gl_morph mk_gl_morph;

/* Uploads a morph set: base streams as vertex attributes, every target's
 * deltas (sparse ones expanded) in one buffer texture. indices: index_count
 * triangle-list indices (< vertex_count), or NULL with index_count 0 to draw
 * the vertices in order as triangles. MK_ERR_LIMIT when the deltas exceed
 * GL_MAX_TEXTURE_BUFFER_SIZE; MK_ERR_RANGE for an index out of range. */
MK_API mk_status mk_gl_morph_create(mk_gl_renderer *renderer, const mk_morph_set *set,
                                    const uint32_t *indices, uint32_t index_count,
                                    mk_gl_morph **out, mk_error *err);
MK_API void mk_gl_morph_destroy(mk_gl_morph *morph);

/* Gives the morph texture coordinates (the set's vertex_count float2, glTF
 * TEXCOORD_0 as stored: (0, 0) the image's top-left), so draws with a
 * params->texture show it; a second call replaces them. Not morphed.
 * MK_ERR_INVALID_ARGUMENT for NULL or a value that is not finite. */
MK_API mk_status mk_gl_morph_set_texcoords(mk_gl_morph *morph, const float *texcoords,
                                           mk_error *err);

/* Draws with one weight per target (target_count floats; NULL: the set's
 * default weights). Targets with weight 0 are not sent to the shader.
 * MK_ERR_INVALID_ARGUMENT for a NULL renderer or morph or a weight that is
 * not finite; MK_ERR_OUT_OF_MEMORY if the active-list scratch cannot grow. */
MK_API mk_status mk_gl_draw_morph(mk_gl_renderer *renderer, mk_gl_morph *morph,
                                  const float *weights, const mk_gl_draw_params *params,
                                  mk_error *err);

/* Transform-feedback capture of the target path: out_positions and (when
 * the set has them and the pointer is not NULL) out_normals (float3) and
 * out_tangents (float4, w kept from the base), vertex_count each. Checks
 * its arguments as mk_gl_draw_morph does. */
MK_API mk_status mk_gl_capture_morph(mk_gl_renderer *renderer, mk_gl_morph *morph,
                                     const float *weights, float *out_positions,
                                     float *out_normals, float *out_tangents, mk_error *err);

/* ---- skinned target path (glTF skins on top of morph targets) --------------- */

typedef struct mk_gl_skin mk_gl_skin;

/* Uploads a prepared skin's influences (skin.h): joint indices and weights
 * in buffer textures, influence_count per vertex, any count; the joint
 * matrices go to a third buffer texture at each draw, so the joint count
 * has no fixed limit beyond GL_MAX_TEXTURE_BUFFER_SIZE (MK_ERR_LIMIT).
 * MK_ERR_INVALID_ARGUMENT for a NULL or unprepared skin. */
MK_API mk_status mk_gl_skin_create(mk_gl_renderer *renderer, const mk_skin *skin,
                                   mk_gl_skin **out, mk_error *err);
MK_API void mk_gl_skin_destroy(mk_gl_skin *skin);

/* Draws a morph set through its skin in the vertex shader: the morph of
 * mk_gl_draw_morph (weights as there), then linear blend skinning with
 * joint_matrices (matrix_count >= the skin's joint count, 16 floats each,
 * as mk_skin_joint_matrices writes them), as mk_morph_evaluate followed by
 * mk_skin_apply compute it on the CPU. The skinned vertices are in scene
 * space; params->model is applied after (identity for glTF). Checks as
 * mk_gl_draw_morph, plus MK_ERR_INVALID_ARGUMENT for a NULL skin or
 * matrices, too few matrices, a non-finite matrix value, or a skin whose
 * vertex count is not the morph's. */
MK_API mk_status mk_gl_draw_morph_skin(mk_gl_renderer *renderer, mk_gl_morph *morph,
                                       const float *weights, mk_gl_skin *skin,
                                       const float *joint_matrices, size_t matrix_count,
                                       const mk_gl_draw_params *params, mk_error *err);

/* Transform-feedback capture of mk_gl_draw_morph_skin: outputs as
 * mk_gl_capture_morph's. Within 1e-5 of the CPU kernels (tested). */
MK_API mk_status mk_gl_capture_morph_skin(mk_gl_renderer *renderer, mk_gl_morph *morph,
                                          const float *weights, mk_gl_skin *skin,
                                          const float *joint_matrices, size_t matrix_count,
                                          float *out_positions, float *out_normals,
                                          float *out_tangents, mk_error *err);

/* ---- crowd path -------------------------------------------------------------- */

/* One instance: shows (1 - weight) * F[frame_a] + weight * F[frame_b]. */
typedef struct mk_gl_instance {
    uint32_t frame_a, frame_b; /* < frame_count */
    float weight;              /* finite; any value (outside 0..1 extrapolates) */
    float model[16]; /* world-from-object, column-major (all zero: identity) */
} mk_gl_instance;

/* Draws count instances of frames in ONE glDrawElementsInstanced call. The
 * instance data is copied into a buffer the renderer owns (grown as needed;
 * MK_ERR_IO when that fails). params->model is ignored. count 0 draws
 * nothing. MK_ERR_INVALID_ARGUMENT (naming the instance) for a frame >=
 * frame count or a weight that is not finite, and for NULL handles or
 * instances; MK_ERR_LIMIT for more than INT32_MAX instances. */
MK_API mk_status mk_gl_draw_crowd(mk_gl_renderer *renderer, const mk_gl_frames *frames,
                                  const mk_gl_instance *instances, uint32_t count,
                                  const mk_gl_draw_params *params, mk_error *err);

/* Transform-feedback capture of the crowd path: the object-space streams
 * (before each instance's model matrix) of every instance, instance after
 * instance, count * vertex_count float3 each (out_normals may be NULL, and
 * is left untouched for a set without normals). Checks as mk_gl_draw_crowd
 * does; MK_ERR_LIMIT when the capture would not fit a GL buffer. */
MK_API mk_status mk_gl_capture_crowd(mk_gl_renderer *renderer, const mk_gl_frames *frames,
                                     const mk_gl_instance *instances, uint32_t count,
                                     float *out_positions, float *out_normals, mk_error *err);

/* ---- compute path (OpenGL 4.3+) ---------------------------------------------- */

/* True when the renderer's context has OpenGL 4.3 (compute shaders), so the
 * compute path below works. */
MK_API bool mk_gl_renderer_has_compute(const mk_gl_renderer *renderer);

/* The crowd draw for very large crowds: a compute shader blends every
 * instance's pose into one buffer (the arithmetic of mk_gl_draw_crowd),
 * then one instanced draw reads it, so the vertex shader does no blending.
 * Same arguments and checks as mk_gl_draw_crowd; also
 * MK_ERR_UNSUPPORTED below OpenGL 4.3, MK_ERR_INVALID_ARGUMENT for
 * quantized frames (float frames only), MK_ERR_LIMIT when count *
 * vertex_count poses (32 bytes each) do not fit one buffer. */
MK_API mk_status mk_gl_draw_crowd_compute(mk_gl_renderer *renderer, const mk_gl_frames *frames,
                                          const mk_gl_instance *instances, uint32_t count,
                                          const mk_gl_draw_params *params, mk_error *err);

/* The blended poses of the compute path read back, laid out as
 * mk_gl_capture_crowd's (instance after instance, float3). */
MK_API mk_status mk_gl_capture_crowd_compute(mk_gl_renderer *renderer,
                                             const mk_gl_frames *frames,
                                             const mk_gl_instance *instances, uint32_t count,
                                             float *out_positions, float *out_normals,
                                             mk_error *err);

/* ---- offscreen framebuffer and readback ------------------------------------ */

typedef struct mk_gl_target mk_gl_target;

typedef struct mk_gl_target_desc {
    uint32_t width, height; /* >= 1 and <= GL_MAX_RENDERBUFFER_SIZE */
    uint32_t samples;       /* multisampling: 0 or 1 none; else clamped to GL_MAX_SAMPLES */
} mk_gl_target_desc;

/* An RGBA8 + depth framebuffer object; allocator (NULL: malloc) for the
 * handle. MK_ERR_INVALID_ARGUMENT for a side out of range. */
MK_API mk_status mk_gl_target_create(const mk_gl_target_desc *desc, const mk_allocator *allocator,
                                     mk_gl_target **out, mk_error *err);
MK_API void mk_gl_target_destroy(mk_gl_target *target);
/* Binds it for drawing, sets the viewport and clears to rgba (0..1; NULL:
 * opaque black). MK_ERR_INVALID_ARGUMENT for a NULL target. */
MK_API mk_status mk_gl_target_begin(mk_gl_target *target, const float clear_rgba[4],
                                    mk_error *err);
/* Reads the picture into out (width * height * 4 bytes, RGBA8, top row
 * first), resolving multisampling first. MK_ERR_INVALID_ARGUMENT for NULL. */
MK_API mk_status mk_gl_target_read(mk_gl_target *target, uint8_t *out, mk_error *err);

/* Waits for the GPU (glFinish) and turns a pending GL error into MK_ERR_IO
 * naming `what`. */
MK_API mk_status mk_gl_check(const char *what, mk_error *err);

/* ---- camera helpers ------------------------------------------------------------ */

/* A perspective camera looking at a sphere (center, radius) from the
 * direction given by yaw (about +y, radians; 0 looks along -z) and pitch
 * (radians, positive from above), far enough that the sphere fills the
 * smaller side of the view (fov_y radians, aspect = width / height). A
 * radius or aspect that is not > 0 counts as 1. */
MK_API void mk_gl_orbit_camera(const float center[3], float radius, float yaw, float pitch,
                               float fov_y, float aspect, float out_view_projection[16]);

/* out = a * b (column-major 4x4). out may alias a or b. */
MK_API void mk_gl_mat4_multiply(float out[16], const float a[16], const float b[16]);

#ifdef __cplusplus
}
#endif

#endif
