/* Fuzz target: the unit-folder loader (discovery of the frame files, every
 * OBJ frame, topology and normal checks, the warning heuristics,
 * animation.cfg) on a virtual folder cut out of the input (fuzz_vfs.h:
 * "@@ Walk_1.obj\n<text>" records; the bytes before the first record are
 * ignored), read through the public file callbacks. Then the pipeline that
 * follows a load: a player over every clip with each pose evaluated, and
 * the source-order copies (fuzz_pipeline.h). The status, the report and
 * *out must agree, and every block read must be given back. A small unit
 * is also packed, in a form the input's last byte picks, and read back:
 * the pack must succeed and give the unit's positions and normals within
 * the errors it reports. */
#include <math.h>
#include <stdlib.h>

#include "fuzz.h"
#include "fuzz_pipeline.h"
#include "fuzz_vfs.h"
#include "morphkit/morphkit.h"

/* Packs u (small units only: the writer tries many forms) with options
 * from the bits of form, reads the file back and compares. (Normals get
 * 1e-6 over the reported error, as the unit tests allow them 1e-7: float
 * rounding between the writer's measure and the reader's normalization.) */
static void pack_round_trip(const mk_unit *u, const mk_file_callbacks *files, uint8_t form)
{
    const mk_frame_set *s = u->frames;
    if (s->vertex_count > 512 || s->frame_count > 12)
        return;
    mk_pack_options o = {0};
    o.files = files;
    o.plain = form & 1;
    o.compress = form & 2;
    o.no_texcoords = form & 4;
    o.flat_normals = form & 8;
    o.every_frame = form & 16;
    o.position_bits = form & 32 ? 15 : 0;
    o.normal_bits = form & 64 ? 16 : 0;
    void *data = NULL;
    size_t size = 0;
    mk_pack_stats st;
    mk_error err;
    mk_status status = mk_unit_pack(u, &o, NULL, &data, &size, &st, NULL, &err);
    fz_note("pack", status, &err);
    if (status == MK_ERR_INVALID_ARGUMENT && o.no_texcoords)
        return; /* a material with a texture needs its coordinates */
    if (status != MK_OK || !data || size != st.bytes)
        __builtin_trap(); /* a unit that loads packs */
    mk_unit *back = NULL;
    status = mk_unit_parse_packed(data, size, "<pack>", NULL, &back, &err);
    fz_note("read back", status, &err);
    if (status != MK_OK || back->frames->frame_count != s->frame_count ||
        back->position_count != u->position_count ||
        back->frames->index_count != s->index_count ||
        back->clips->clip_count != u->clips->clip_count || back->normal_count != u->normal_count ||
        !back->frames->normals != !s->normals)
        __builtin_trap();
    const uint32_t most = u->position_count > u->normal_count ? u->position_count : u->normal_count;
    float *a = malloc(6 * (size_t)most * sizeof(float)), *b;
    if (a) {
        b = a + 3 * (size_t)most;
        for (uint32_t f = 0; f < s->frame_count; f++) {
            /* within the errors the pack reports, in OBJ `v` and `vn` order */
            mk_unit_to_source_order(u, mk_frame_set_positions(s, f), a);
            mk_unit_to_source_order(back, mk_frame_set_positions(back->frames, f), b);
            for (size_t i = 0; i < 3 * (size_t)u->position_count; i++)
                if (!(fabs((double)a[i] - (double)b[i]) <= st.max_position_error))
                    __builtin_trap();
            if (!s->normals)
                continue;
            mk_unit_normals_to_source_order(u, mk_frame_set_normals(s, f), a);
            mk_unit_normals_to_source_order(back, mk_frame_set_normals(back->frames, f), b);
            for (size_t i = 0; i < 3 * (size_t)u->normal_count; i++)
                if (!(fabs((double)a[i] - (double)b[i]) <= st.max_normal_error + 1e-6))
                    __builtin_trap();
        }
        free(a);
    }
    mk_unit_destroy(back);
    mk_free(NULL, data, size);
}

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
        pack_round_trip(unit, &vfs.callbacks, data[size - 1]);
        mk_unit_destroy(unit);
    }
    if (vfs.open_blocks != 0)
        __builtin_trap(); /* every block read is given back */
    return 0;
}
