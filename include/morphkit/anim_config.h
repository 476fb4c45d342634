/* morphkit/anim_config.h - the animation.cfg parser (assets layer).
 *
 * Turns a unit's animation.cfg text plus its discovered animations into an
 * mk_clip_set (clip i = animations[i], frames first_frame + k). Syntax
 * (docs/animation-cfg.md): one directive a line, words separated by
 * blanks (space, tab), `#` starts a comment, blank lines are fine, CRLF is
 * fine. Keywords (directives and linear/step/smooth) are case-insensitive;
 * animation and event names are case-sensitive. Times are whole
 * milliseconds, 1 to 1 000 000 000; frame numbers are the numbers in the
 * frame file names.
 *
 *   FrameTime <Anim> <ms>          every frame's duration (default 100 ms)
 *   Duration <Anim> <N> <ms>       frame N's duration (its blend to the next)
 *   CycleTime <Anim> <ms>          the animation's total length: frames
 *                                  without a Duration share what the Durations
 *                                  leave, equally (any remainder of a
 *                                  microsecond goes 1 us each to the first
 *                                  frames); the total is every frame's
 *                                  duration, except the held last frame of a
 *                                  Once animation without Next
 *   Loop <Anim> <N>                after the last frame continue at N
 *   Once <Anim>                    play once, then hold the last frame
 *   Next <Anim> <Other>            (needs Once <Anim>) then switch to Other
 *   NoBlend <Anim> <N>             frame N is held, then cut to the next
 *   Interpolation <Anim> linear|step|smooth
 *   Event <Anim> <N> <name>        report name when frame N becomes current
 *
 * Errors (MK_ERR_PARSE for syntax, MK_ERR_NOT_FOUND for a missing animation
 * or frame, MK_ERR_INVALID_ARGUMENT for inconsistent settings) name the file
 * and the 1-based line and say what was expected: an unknown directive, a
 * wrong word count, a number that is not a positive whole number of
 * milliseconds, an animation or frame that does not exist, Next naming an
 * unknown animation, Next without Once, a cycle of Next animations (all of
 * them Once, so none loops), CycleTime leaving nothing (less than 1 us per
 * frame) for the frames without a Duration or disagreeing with Durations
 * that cover every frame, FrameTime together with CycleTime, the same
 * setting given twice (the message names the earlier line), Loop on a Once
 * animation. A UTF-8 byte order mark at the start is skipped. */
#ifndef MORPHKIT_ANIM_CONFIG_H
#define MORPHKIT_ANIM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/clip.h"
#include "morphkit/error.h"
#include "morphkit/file.h"
#include "morphkit/unit.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MK_ANIM_CONFIG_FILE "animation.cfg"

typedef struct mk_anim_config_options {
    const char *file_name;          /* used in errors; NULL: "animation.cfg" */
    uint32_t frame_set_count;       /* passed to mk_clip_set_desc; 0: unchecked */
    const mk_file_callbacks *files; /* mk_anim_config_load: how the file is read;
                                       NULL: the default (morphkit/file.h) */
    bool lenient;                   /* for viewers: a line with an error is
                                       ignored (reported as a MK_SEVERITY_WARNING
                                       ending "(line ignored)") and the rest is
                                       used; when no line can be blamed, the
                                       defaults. false: any error fails */
} mk_anim_config_options;

/* Parses `size` bytes of config text (need not be NUL-terminated; NULL with
 * size 0 = no config, all defaults) against anims[0..anim_count). On success
 * *out is a new clip set (free with mk_clip_set_destroy). On failure *out is
 * NULL, err holds the first error, and report (when not NULL) receives every
 * error found (MK_SEVERITY_ERROR, MK_CHECK_CONFIG), each line checked on its
 * own. options and report may be NULL; allocator (NULL: malloc) makes the
 * clip set and the scratch memory. */
MK_API mk_status mk_anim_config_parse(const char *text, size_t size,
                                      const mk_unit_animation *anims, uint32_t anim_count,
                                      const mk_anim_config_options *options,
                                      const mk_allocator *allocator, mk_clip_set **out,
                                      mk_report *report, mk_error *err);

/* Builds a unit's clips: reads files->dir/animation.cfg through
 * options->files when files->has_config (errors then name that path; no
 * path length limit; a missing file is MK_ERR_NOT_FOUND), else uses the
 * defaults. */
MK_API mk_status mk_anim_config_load(const mk_unit_files *files,
                                     const mk_anim_config_options *options,
                                     const mk_allocator *allocator, mk_clip_set **out,
                                     mk_report *report, mk_error *err);

#ifdef __cplusplus
}
#endif

#endif
