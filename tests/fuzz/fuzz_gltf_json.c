/* Fuzz target: the glTF reader on a JSON document whose external buffers
 * come from the same input (fuzz_vfs.h: the document first, then
 * "@@ NAME\n" records for the .bin files it names; a plain .gltf with
 * data: URIs is a valid input as it is), then the whole pipeline that
 * follows a load (fuzz_pipeline.h). GLB input has its own target
 * (fuzz_glb.c). */
#include "fuzz.h"
#include "fuzz_pipeline.h"
#include "fuzz_vfs.h"
#include "morphkit/morphkit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fz_vfs vfs; /* large; one input at a time */
    fz_vfs_init(&vfs, "g", data, size);
    mk_gltf_options opt = {0};
    opt.max_buffer_size = 1u << 24;
    opt.max_count = 1u << 16;
    opt.files = &vfs.callbacks;
    mk_gltf *g;
    mk_error err;
    mk_status st = mk_gltf_parse(vfs.main, vfs.main_size, "g", "<fuzz>", &opt, NULL, &g, &err);
    fz_note("gltf", st, &err);
    if (st == MK_OK) {
        fz_exercise_gltf(g);
        mk_gltf_destroy(g);
    }
    if (vfs.open_blocks != 0)
        __builtin_trap(); /* every block read is given back */
    return 0;
}
