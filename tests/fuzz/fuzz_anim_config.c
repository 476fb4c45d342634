/* Fuzz target: the animation.cfg parser against a fixed unit of three
 * animations (15 frames), then the pipeline that follows: a player over the
 * clips it accepts, whose poses must name frames in range with weights
 * summing to 1, evaluated against a 15-frame frame set. */
#include "fuzz.h"
#include "fuzz_pipeline.h"
#include "morphkit/morphkit.h"

static mk_frame_set *make_frames(void)
{
    /* one triangle per frame, frame f at height f */
    mk_frame_set_desc fd = {15, 3, 3, true, false};
    mk_frame_set *frames;
    mk_error err;
    if (mk_frame_set_create(&fd, NULL, &frames, &err) != MK_OK)
        return NULL;
    for (uint32_t f = 0; f < 15; f++)
        for (uint32_t v = 0; v < 3; v++) {
            float *p = frames->positions + (f * 3 + v) * 3;
            float *n = frames->normals + (f * 3 + v) * 3;
            p[0] = (float)(v == 1), p[1] = (float)(v == 2), p[2] = (float)f;
            n[0] = 0, n[1] = 0, n[2] = 1;
        }
    for (uint32_t i = 0; i < 3; i++)
        frames->indices[i] = i;
    return frames;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char idle[] = "Idle", walk[] = "Walk", attack[] = "Attack";
    /* first_frame follows discovery's order: animations sorted by name */
    const mk_unit_animation anims[3] = {
        {attack, 1, 5, 0}, {idle, 1, 4, 5}, {walk, 1, 6, 9}};
    mk_anim_config_options opt = {"animation.cfg", 15, NULL, false};
    mk_clip_set *clips;
    mk_report *report;
    mk_error err;
    if (mk_report_create(NULL, &report, &err) != MK_OK)
        return 0;
    mk_status st = mk_anim_config_parse((const char *)data, size, anims, 3, &opt, NULL, &clips,
                                        report, &err);
    if ((st == MK_OK) != (mk_report_error_count(report) == 0))
        __builtin_trap(); /* the report and the status must agree */
    mk_report_clear(report);
    if (st == MK_OK)
        mk_clip_set_destroy(clips);
    /* lenient never fails on bad text: it drops lines until the rest holds */
    opt.lenient = true;
    st = mk_anim_config_parse((const char *)data, size, anims, 3, &opt, NULL, &clips, report,
                              &err);
    if (st != MK_OK || mk_report_error_count(report) != 0)
        __builtin_trap();
    mk_report_destroy(report);
    if (st != MK_OK)
        return 0;
    if (clips->clip_count != 3)
        __builtin_trap(); /* clip i is animation i */
    mk_frame_set *frames = make_frames();
    fz_exercise_clips(clips, frames);
    mk_frame_set_destroy(frames);
    mk_clip_set_destroy(clips);
    return 0;
}
