/* Fuzz target: the unit-folder loader (discovery of the frame files, every
 * OBJ frame, topology and normal checks, the warning heuristics,
 * animation.cfg) on a virtual folder cut out of the input (fuzz_vfs.h:
 * "@@ Walk_1.obj\n<text>" records; the bytes before the first record are
 * ignored), read through the public file callbacks. Then the pipeline that
 * follows a load: a player over every clip with each pose evaluated, and
 * the source-order copies (fuzz_pipeline.h). The status, the report and
 * *out must agree, and every block read must be given back. */
#include "fuzz.h"
#include "fuzz_pipeline.h"
#include "fuzz_vfs.h"
#include "morphkit/morphkit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fz_vfs vfs; /* large; one input at a time */
    fz_vfs_init(&vfs, "u", data, size);
    mk_unit_options opt = {0};
    opt.obj.max_elements = 1u << 16; /* keep each run small */
    opt.files = &vfs.callbacks;
    /* the heuristics are slow on large units and need a few frames: run
     * them on small inputs only */
    opt.skip_heuristics = size > 65536;
    mk_report *report;
    mk_error err;
    if (mk_report_create(NULL, &report, &err) != MK_OK)
        return 0;
    (void)mk_is_unit_folder("u", &opt);
    mk_unit *unit = NULL;
    mk_status st = mk_unit_load("u", &opt, NULL, &unit, report, &err);
    fz_note("unit", st, &err);
    if ((st == MK_OK) != (unit != NULL))
        __builtin_trap();
    if (st == MK_OK && mk_report_error_count(report) != 0)
        __builtin_trap(); /* success reports no error */
    for (uint32_t i = 0; i < mk_report_count(report); i++) {
        const mk_diagnostic *d = mk_report_item(report, i);
        if (!d || d->check >= MK_CHECK_COUNT || d->severity >= MK_SEVERITY_COUNT)
            __builtin_trap();
    }
    mk_report_destroy(report);
    if (unit) {
        fz_exercise_unit(unit);
        mk_unit_destroy(unit);
    }
    if (vfs.open_blocks != 0)
        __builtin_trap(); /* every block read is given back */
    return 0;
}
