/* What `morphkit preview` and `morphkit view` draw: a unit folder (frames
 * through the pair path, poses from the player) or a glTF file (every mesh
 * node of the default scene through the target path, weights from an
 * animation), behind one small interface. */
#ifndef MK_TOOL_PREVIEW_SCENE_H
#define MK_TOOL_PREVIEW_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "morphkit/gl.h"

typedef struct mk_preview mk_preview;

typedef struct mk_preview_options {
    const char *anim;      /* name, or a number (glTF: an index); NULL: the default */
    int interpolation;     /* -1: as configured, else an mk_interpolation forced on
                              every clip of a unit (ignored for glTF) */
} mk_preview_options;

/* Loads PATH (a unit folder, .gltf or .glb). Prints errors to stderr and
 * returns an exit code (0 ok, 1 invalid input, 2 bad --anim). */
int mk_preview_load(const char *path, const mk_preview_options *options, mk_preview **out);
void mk_preview_destroy(mk_preview *scene);

/* Uploads to the GPU (current context). Prints errors; false on failure. */
bool mk_preview_upload(mk_preview *scene, mk_gl_renderer *renderer);
/* Releases GPU objects (with the context current) before destroy. */
void mk_preview_release(mk_preview *scene);

uint32_t mk_preview_anim_count(const mk_preview *scene);
const char *mk_preview_anim_name(const mk_preview *scene, uint32_t anim);
uint32_t mk_preview_anim(const mk_preview *scene);
/* Switches to an animation (restarting at time 0). */
void mk_preview_set_anim(mk_preview *scene, uint32_t anim);
/* One run of the current animation in microseconds (> 0). */
int64_t mk_preview_length_us(const mk_preview *scene);
/* Bounding sphere of the whole current animation (every frame / sampled time). */
void mk_preview_bounds(const mk_preview *scene, float center[3], float *radius);

/* Bounding box of the whole current animation (world space). */
void mk_preview_box(const mk_preview *scene, float lo[3], float hi[3]);
/* Adjusts a view-projection (column-major) so that everything the current
 * animation reaches is centred on screen and its larger side spans `fill`
 * (0..1) of the view: contact sheets frame the model tightly. */
void mk_preview_frame_tightly(const mk_preview *scene, float view_projection[16], float fill);

/* Sets the time since the animation started (replayed from 0, exact). */
void mk_preview_seek(mk_preview *scene, int64_t time_us);
int64_t mk_preview_time(const mk_preview *scene);
/* Moves to the start of the next (dir > 0) or previous (dir < 0) frame. */
void mk_preview_step(mk_preview *scene, int dir);

void mk_preview_draw(mk_preview *scene, mk_gl_renderer *renderer, const mk_gl_draw_params *params);
/* "Walk 3>4 w0.50" for units, "name 0.50s" for glTF. */
void mk_preview_label(const mk_preview *scene, char *buf, size_t size);
/* The state for a window title: animation, frame, next, weight. */
void mk_preview_state_text(const mk_preview *scene, char *buf, size_t size);
/* True for a glTF file without animations: every time shows the same
 * picture. */
bool mk_preview_is_still(const mk_preview *scene);
/* Times of the key frames (unit: every frame boundary and mid-blend of one
 * run, glTF: 12 evenly spaced) for a contact sheet; returns the count
 * written (at most max). */
uint32_t mk_preview_sheet_times(const mk_preview *scene, int64_t *times, uint32_t max);
/* The first problem met while loading that did not stop it (an ignored
 * animation.cfg line: "file:line: warning: ..."), or "". */
const char *mk_preview_problem(const mk_preview *scene);
/* Live reload (view --watch): loads what old shows again from path (a unit
 * through mk_unit_reload, a glTF file whole), keeping o's animation when it
 * still exists. Returns 1 and *out (a new scene to upload and swap in) when
 * it changed, 0 when it loads the same, -1 when it does not load: *out is
 * NULL and old stays as it is. problem receives the first error or warning
 * (every one is printed to stderr), or "". */
int mk_preview_reload(const mk_preview *old, const char *path, const mk_preview_options *o,
                      mk_preview **out, char *problem, size_t problem_size);

#endif
