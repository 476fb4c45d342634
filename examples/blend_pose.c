/* Loads a unit folder, blends two frames of one animation and prints the
 * pose's first vertices (in OBJ `v` order) - the library's core loop.
 * usage: example_blend_pose UNIT_DIR [ANIMATION] [WEIGHT] */
#include <morphkit/morphkit.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s UNIT_DIR [ANIMATION] [WEIGHT]\n", argv[0]);
        return 2;
    }
    const char *anim_name = argc > 2 ? argv[2] : "Walk";
    float w = argc > 3 ? strtof(argv[3], NULL) : 0.5f;

    mk_unit *unit;
    mk_error err;
    if (mk_unit_load(argv[1], NULL, NULL, &unit, NULL, &err) != MK_OK) {
        char msg[1200];
        mk_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    uint32_t a = mk_unit_find_animation(unit, anim_name);
    if (a == MK_NONE) {
        fprintf(stderr, "%s has no animation '%s'\n", unit->name, anim_name);
        mk_unit_destroy(unit);
        return 1;
    }
    const mk_unit_animation *anim = &unit->files->animations[a];
    const mk_frame_set *frames = unit->frames;
    uint32_t fa = anim->first_frame, fb = fa + (anim->frame_count > 1 ? 1 : 0);

    /* the caller owns the output buffers; the kernel allocates nothing */
    float *positions = malloc((size_t)frames->vertex_count * 3 * sizeof(float));
    float *normals = malloc((size_t)frames->vertex_count * 3 * sizeof(float));
    if (!positions || !normals)
        return 1;
    mk_blend_frames(frames, fa, fb, w, positions, normals, frames->vertex_count, NULL);

    printf("%s: %s frame %u -> %u at weight %.2f (%u vertices)\n", unit->name, anim->name,
           anim->first_number, anim->first_number + (fb - fa), w, unit->position_count);
    /* back to the OBJ's own `v` order, as an artist numbers the vertices */
    float *by_v = malloc((size_t)unit->position_count * 3 * sizeof(float));
    if (!by_v)
        return 1;
    mk_unit_to_source_order(unit, positions, by_v);
    for (uint32_t v = 0; v < 4 && v < unit->position_count; v++)
        printf("  v %u: %9.5f %9.5f %9.5f\n", v + 1, by_v[3 * v], by_v[3 * v + 1], by_v[3 * v + 2]);
    free(by_v);
    free(positions);
    free(normals);
    mk_unit_destroy(unit);
    return 0;
}
