/* glTF reader: the scene graph of a loaded model (mk_gltf_build_scene). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"
#include "morphkit/scene.h"

mk_status mk_gltf_build_scene(const mk_gltf *g, const mk_allocator *allocator, mk_scene **out,
                              mk_error *err)
{
    if (!out)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "build scene: out is NULL");
    *out = NULL;
    if (!g)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "build scene: gltf is NULL");
    size_t n = g->node_count ? g->node_count : 1;
    mk_scene_node_desc *nodes =
        (mk_scene_node_desc *)mk_alloc(allocator, n * sizeof(mk_scene_node_desc));
    if (!nodes)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, g->path, 0, "out of memory");
    mk_status s = MK_OK;
    for (uint32_t i = 0; i < g->node_count && s == MK_OK; i++) {
        const mk_gltf_node *gn = &g->nodes[i];
        mk_scene_node_desc *d = &nodes[i];
        mk_scene_node_desc_init(d);
        /* The loader checked the hierarchy (one parent, no cycles). */
        d->parent = gn->parent;
        d->has_matrix = gn->has_matrix;
        memcpy(d->matrix, gn->matrix, sizeof d->matrix);
        memcpy(d->trs.translation, gn->translation, sizeof d->trs.translation);
        memcpy(d->trs.rotation, gn->rotation, sizeof d->trs.rotation);
        memcpy(d->trs.scale, gn->scale, sizeof d->trs.scale);
        const float *q = gn->rotation;
        if (!gn->has_matrix && !(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] > 0.0f))
            s = mk_error_set(err, MK_ERR_RANGE, g->path, 0,
                             "nodes[%u].rotation has zero length (a unit quaternion is required)",
                             i);
    }
    if (s == MK_OK) {
        mk_scene_desc desc = {g->node_count, nodes, NULL, NULL};
        s = mk_scene_create(&desc, allocator, out, err);
        if (s != MK_OK && err)
            snprintf(err->file, sizeof err->file, "%s", g->path ? g->path : "");
    }
    mk_free(allocator, nodes, n * sizeof(mk_scene_node_desc));
    return s;
}
