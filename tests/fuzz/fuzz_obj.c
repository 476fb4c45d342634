/* Fuzz target: the OBJ reader, and mesh building on what it accepts. */
#include "fuzz.h"
#include "morphkit/morphkit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mk_obj_options opt = {0};
    opt.max_elements = 1u << 16; /* keep each run small */
    mk_obj *obj;
    mk_error err;
    if (mk_obj_parse((const char *)data, size, "<fuzz>", &opt, NULL, &obj, &err) != MK_OK)
        return 0;
    mk_mesh *mesh;
    uint32_t *source;
    if (mk_obj_build_mesh(obj, NULL, &mesh, &source, &err) == MK_OK) {
        if (mk_mesh_validate(mesh, &err) == MK_OK && source)
            for (uint32_t v = 0; v < mesh->vertex_count; v++)
                if (source[v] >= obj->position_count)
                    __builtin_trap(); /* a source index must name a `v` */
        mk_free(NULL, source, (size_t)mesh->vertex_count * sizeof *source);
        mk_mesh_destroy(mesh);
    }
    mk_obj_destroy(obj);
    return 0;
}
