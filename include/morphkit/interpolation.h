/* morphkit/interpolation.h - the one interpolation enum of the library.
 *
 * Frame-sequence clips (clip.h) use LINEAR, STEP and SMOOTH; keyframe tracks
 * (track.h, glTF samplers) use LINEAR, STEP and CUBICSPLINE. Zero is LINEAR,
 * the default of both. */
#ifndef MORPHKIT_INTERPOLATION_H
#define MORPHKIT_INTERPOLATION_H

#include "morphkit/config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mk_interpolation {
    MK_INTERPOLATION_LINEAR = 0,  /* straight blend between neighbouring keys or frames */
    MK_INTERPOLATION_STEP,        /* the earlier key or frame is held (no blend) */
    MK_INTERPOLATION_SMOOTH,      /* clips: a C1 cubic through neighbouring frames (player.h) */
    MK_INTERPOLATION_CUBICSPLINE, /* tracks: glTF cubic Hermite with stored tangents */
    MK_INTERPOLATION_COUNT
} mk_interpolation;

/* A stable lower-case name: "linear", "step", "smooth", "cubicspline";
 * "unknown" for any other value. */
MK_API const char *mk_interpolation_name(mk_interpolation interpolation);

#ifdef __cplusplus
}
#endif

#endif
