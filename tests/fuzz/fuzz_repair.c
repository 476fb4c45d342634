/* Fuzz target: the repair command's input. A unit folder cut out of the
 * input (fuzz_vfs.h records, as fuzz_unit) is planned for repair
 * (mk_unit_repair_plan: renumbered frames matched to the first frame's
 * order with mk_vorder_match, then scrambles detected with
 * mk_vorder_detect and moved back with mk_vorder_repair_frame), read
 * through the public file callbacks. The plan must agree with its status,
 * a frame that failed keeps its file, and every rewritten frame must be an
 * OBJ file with the first frame's `v` count that reads back. */
#include "fuzz.h"
#include "fuzz_vfs.h"
#include "morphkit/morphkit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fz_vfs vfs; /* large; one input at a time */
    fz_vfs_init(&vfs, "u", data, size);
    mk_unit_options opt = {0};
    opt.obj.max_elements = 1u << 14; /* keep each run small */
    opt.files = &vfs.callbacks;
    opt.skip_heuristics = true;
    mk_unit_repair *plan = NULL;
    mk_error err;
    mk_status st = mk_unit_repair_plan("u", &opt, NULL, &plan, &err);
    if ((st == MK_OK) != (plan != NULL))
        __builtin_trap();
    uint32_t changed = 0, failed = 0;
    for (uint32_t i = 0; plan && i < plan->files->frame_count; i++) {
        const mk_unit_frame_repair *f = &plan->frames[i];
        if (f->failed && f->text)
            __builtin_trap(); /* a frame that cannot be repaired stays as it is */
        changed += f->text != NULL;
        failed += f->failed;
        if (!f->text)
            continue;
        mk_obj *obj = NULL;
        if (mk_obj_parse(f->text, f->text_size, "repaired", &opt.obj, NULL, &obj, &err) != MK_OK ||
            obj->position_count != plan->vertex_count)
            __builtin_trap(); /* the new text reads back, in the first frame's numbering */
        mk_obj_destroy(obj);
    }
    if (plan && (changed != plan->changed_count || failed != plan->failed_count))
        __builtin_trap();
    mk_unit_repair_destroy(plan);
    if (vfs.open_blocks != 0)
        __builtin_trap(); /* every block read is given back */
    return 0;
}
