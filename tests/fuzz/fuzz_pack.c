/* Fuzz target: the packed-unit reader (extras.morphkit, the index maps,
 * quantized and meshopt-compressed data), then playing every clip of what
 * it accepts and evaluating the poses. */
#include <stdlib.h>

#include "fuzz.h"
#include "morphkit/morphkit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mk_unit *u;
    mk_error err;
    (void)mk_pack_is_unit(data, size);
    if (mk_unit_parse_packed(data, size, "<fuzz>", NULL, &u, &err) != MK_OK)
        return 0;
    size_t n = (size_t)u->frames->vertex_count * 3;
    float *pos = malloc(n * sizeof(float)), *nrm = malloc(n * sizeof(float));
    float *src = malloc(((size_t)u->position_count + u->normal_count + 1) * 3 * sizeof(float));
    for (uint32_t c = 0; pos && nrm && src && c < u->clips->clip_count; c++) {
        mk_player p;
        mk_player_init(&p, u->clips);
        mk_player_play(&p, c, NULL);
        for (int k = 0; k < 6; k++) {
            mk_pose pose;
            mk_player_pose(&p, &pose);
            if (mk_pose_eval(u->frames, &pose, pos, u->frames->normals ? nrm : NULL,
                             u->frames->vertex_count, NULL) != MK_OK)
                __builtin_trap(); /* a loaded unit's own poses are always valid */
            mk_unit_to_source_order(u, pos, src);
            if (u->frames->normals)
                mk_unit_normals_to_source_order(u, nrm, src);
            mk_player_advance(&p, 77777, NULL);
        }
    }
    free(pos);
    free(nrm);
    free(src);
    mk_unit_destroy(u);
    return 0;
}
