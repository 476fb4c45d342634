/* Fuzz target: the OBJ reader, then what follows a successful read: the
 * render mesh, a two-frame frame set made from it (the frame and a scaled
 * copy), a looping clip over both frames played with every interpolation,
 * and each pose evaluated. */
#include <string.h>

#include "fuzz.h"
#include "fuzz_pipeline.h"
#include "morphkit/morphkit.h"

static void play_frames(const mk_mesh *mesh)
{
    mk_frame_set_desc fd = {2, mesh->vertex_count, mesh->index_count, mesh->normals != NULL,
                            mesh->texcoords != NULL};
    mk_frame_set *frames;
    mk_error err;
    if (mk_frame_set_create(&fd, NULL, &frames, &err) != MK_OK)
        return;
    size_t n = (size_t)mesh->vertex_count * 3;
    memcpy(frames->positions, mesh->positions, n * sizeof(float));
    for (size_t i = 0; i < n; i++)
        frames->positions[n + i] = 0.5f * mesh->positions[i];
    if (mesh->normals) {
        memcpy(frames->normals, mesh->normals, n * sizeof(float));
        memcpy(frames->normals + n, mesh->normals, n * sizeof(float));
    }
    if (mesh->texcoords)
        memcpy(frames->texcoords, mesh->texcoords, (size_t)mesh->vertex_count * 2 * sizeof(float));
    memcpy(frames->indices, mesh->indices, (size_t)mesh->index_count * sizeof(uint32_t));
    if (mk_frame_set_validate(frames, &err) == MK_OK) {
        mk_clip_desc cd[3];
        memset(cd, 0, sizeof cd);
        const char *names[3] = {"linear", "step", "smooth"};
        const mk_interpolation interp[3] = {MK_INTERPOLATION_LINEAR, MK_INTERPOLATION_STEP,
                                            MK_INTERPOLATION_SMOOTH};
        for (int i = 0; i < 3; i++) {
            cd[i].name = names[i];
            cd[i].frame_count = 2;
            cd[i].frame_time_us = 40000;
            cd[i].interpolation = interp[i];
        }
        mk_clip_set_desc sd = {cd, 3, 2};
        mk_clip_set *clips;
        if (mk_clip_set_create(&sd, NULL, &clips, &err) == MK_OK) {
            fz_exercise_clips(clips, frames);
            mk_clip_set_destroy(clips);
        }
    }
    mk_frame_set_destroy(frames);
}

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
        if (mk_mesh_validate(mesh, &err) == MK_OK) {
            if (source)
                for (uint32_t v = 0; v < mesh->vertex_count; v++)
                    if (source[v] >= obj->position_count)
                        __builtin_trap(); /* a source index must name a `v` */
            if (mesh->vertex_count > 0 && mesh->vertex_count <= FZ_MAX_VERTICES)
                play_frames(mesh);
        }
        mk_free(NULL, source, (size_t)mesh->vertex_count * sizeof *source);
        mk_mesh_destroy(mesh);
    }
    mk_obj_destroy(obj);
    return 0;
}
