/* What every harness runs after a successful load, so that crashes past
 * the parser are found too: build the runtime objects, play and sample
 * them, evaluate poses. Each function checks the invariants the headers
 * promise (outputs finite where inputs are, indices in range) and traps
 * (__builtin_trap) when one breaks; a failing runtime call on data a
 * loader accepted is not a bug by itself (limits, zero-length rotations)
 * and is skipped. Work per input is bounded (vertex and key limits below)
 * so the fuzzer stays fast. */
#ifndef MK_FUZZ_PIPELINE_H
#define MK_FUZZ_PIPELINE_H

#include "morphkit/morphkit.h"

/* Outputs larger than this many vertices or floats are skipped. */
#define FZ_MAX_VERTICES (1u << 16)
#define FZ_MAX_FLOATS (1u << 20)

/* Every primitive's morph set (evaluated with default, fixed and pose
 * weights), every accessor decoded, every animation's track clip sampled
 * (looping and held), the scene graph built, posed by every clip and
 * evaluated to world matrices with overrides. */
void fz_exercise_gltf(const mk_gltf *gltf);

/* A player over every clip of clips (frames index into frames, which may
 * be NULL): play each clip, advance by varied steps and speeds, collect
 * events, and evaluate each pose against frames. */
void fz_exercise_clips(const mk_clip_set *clips, const mk_frame_set *frames);

/* With MK_FUZZ_VERBOSE set in the environment, prints what a load said
 * (status and message) to stderr: to see how far a seed gets. */
void fz_note(const char *what, mk_status status, const mk_error *err);

/* A loaded unit: its clips over its frames, and the source-order copies. */
void fz_exercise_unit(const mk_unit *unit);

#endif
