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

typedef struct mk_scene mk_scene;

typedef struct mk_scene_options {
    const char *anim;      /* name, or a number (glTF: an index); NULL: the default */
    int interpolation;     /* -1: as configured, else an mk_interpolation forced on
                              every clip of a unit (ignored for glTF) */
} mk_scene_options;

/* Loads PATH (a unit folder, .gltf or .glb). Prints errors to stderr and
 * returns an exit code (0 ok, 1 invalid input, 2 bad --anim). */
int mk_scene_load(const char *path, const mk_scene_options *options, mk_scene **out);
void mk_scene_destroy(mk_scene *scene);

/* Uploads to the GPU (current context). Prints errors; false on failure. */
bool mk_scene_upload(mk_scene *scene, mk_gl_renderer *renderer);
/* Releases GPU objects (with the context current) before destroy. */
void mk_scene_release(mk_scene *scene);

uint32_t mk_scene_anim_count(const mk_scene *scene);
const char *mk_scene_anim_name(const mk_scene *scene, uint32_t anim);
uint32_t mk_scene_anim(const mk_scene *scene);
/* Switches to an animation (restarting at time 0). */
void mk_scene_set_anim(mk_scene *scene, uint32_t anim);
/* One run of the current animation in microseconds (> 0). */
int64_t mk_scene_length_us(const mk_scene *scene);
/* Bounding sphere of the whole current animation (every frame / sampled time). */
void mk_scene_bounds(const mk_scene *scene, float center[3], float *radius);

/* Sets the time since the animation started (replayed from 0, exact). */
void mk_scene_seek(mk_scene *scene, int64_t time_us);
int64_t mk_scene_time(const mk_scene *scene);
/* Moves to the start of the next (dir > 0) or previous (dir < 0) frame. */
void mk_scene_step(mk_scene *scene, int dir);

void mk_scene_draw(mk_scene *scene, mk_gl_renderer *renderer, const mk_gl_draw_params *params);
/* "Walk 3>4 w0.50" for units, "name 0.50s" for glTF. */
void mk_scene_label(const mk_scene *scene, char *buf, size_t size);
/* The state for a window title: animation, frame, next, weight. */
void mk_scene_state_text(const mk_scene *scene, char *buf, size_t size);
/* Times of the key frames (unit: every frame boundary and mid-blend of one
 * run, glTF: 12 evenly spaced) for a contact sheet; returns the count
 * written (at most max). */
uint32_t mk_scene_sheet_times(const mk_scene *scene, int64_t *times, uint32_t max);

#endif
