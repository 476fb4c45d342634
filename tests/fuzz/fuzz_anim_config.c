/* Fuzz target: the animation.cfg parser against a fixed unit, then a player
 * run over the clips it accepts (which must never read out of range). */
#include "fuzz.h"
#include "morphkit/morphkit.h"

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
    mk_player p;
    mk_pose pose;
    mk_player_init(&p, clips);
    for (uint32_t c = 0; c < clips->clip_count; c++) {
        mk_player_play(&p, c, NULL);
        for (int k = 0; k < 40; k++) {
            mk_player_advance(&p, 37000 + 1000 * k, NULL);
            mk_player_pose(&p, &pose);
            for (uint32_t e = 0; e < pose.count; e++)
                if (pose.frames[e] >= 15)
                    __builtin_trap();
        }
    }
    mk_clip_set_destroy(clips);
    return 0;
}
