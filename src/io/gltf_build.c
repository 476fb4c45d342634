/* glTF reader: building runtime objects (morph sets, clips) from a loaded
 * model, and the default weights rule. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"

void mk_gltf_node_default_weights(const mk_gltf *g, uint32_t node, float *out, size_t count)
{
    memset(out, 0, count * sizeof(float));
    if (node >= g->node_count)
        return;
    const mk_gltf_node *n = &g->nodes[node];
    if (n->mesh == MK_NONE)
        return;
    const mk_gltf_mesh *m = &g->meshes[n->mesh];
    /* §3.7.2.2: node.weights overrides mesh.weights; neither means zeros. */
    const float *w = n->weights ? n->weights : m->weights;
    size_t k = m->target_count < count ? m->target_count : count;
    if (w && k)
        memcpy(out, w, k * sizeof(float));
}

/* Vertices whose delta is not (0, 0, 0). */
static uint32_t count_nonzero(const float *d, uint32_t vc)
{
    uint32_t nz = 0;
    for (uint32_t v = 0; v < vc; v++)
        nz += d[3 * v] != 0.0f || d[3 * v + 1] != 0.0f || d[3 * v + 2] != 0.0f;
    return nz;
}

static uint32_t target_accessor(const mk_gltf_target *t, int attr)
{
    return attr == MK_MORPH_POSITION ? t->position
           : attr == MK_MORPH_NORMAL ? t->normal
                                     : t->tangent;
}

mk_status mk_gltf_build_morph_set(const mk_gltf *g, uint32_t mesh, uint32_t primitive,
                                  const mk_allocator *allocator, mk_morph_set **out, mk_error *err)
{
    *out = NULL;
    if (mesh >= g->mesh_count || primitive >= g->meshes[mesh].primitive_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, g->path, 0, "no primitive %u in mesh %u",
                            primitive, mesh);
    const mk_gltf_mesh *m = &g->meshes[mesh];
    const mk_gltf_primitive *p = &m->primitives[primitive];
    if (p->position == MK_NONE)
        return mk_error_set(err, MK_ERR_NOT_FOUND, g->path, 0,
                            "meshes[%u].primitives[%u]: no POSITION attribute", mesh, primitive);
    uint32_t vc = g->accessors[p->position].count;
    size_t n3 = (size_t)vc * 3, counts_n = (size_t)p->target_count * MK_MORPH_ATTRIBUTE_COUNT;
    float *tmp = (float *)mk_alloc(allocator, n3 * sizeof(float));
    uint32_t *counts =
        (uint32_t *)mk_alloc(allocator, (counts_n ? counts_n : 1) * sizeof(uint32_t));
    mk_status s = MK_OK;
    mk_morph_set *set = NULL;
    if (!tmp || !counts) {
        s = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, g->path, 0, "out of memory");
        goto done;
    }
    bool has_attr[MK_MORPH_ATTRIBUTE_COUNT] = {true, p->normal != MK_NONE,
                                               p->tangent != MK_NONE};
    /* Pass 1: how each delta is stored (absent, dense, or sparse when at
     * most a quarter of the vertices move). */
    for (uint32_t t = 0; t < p->target_count; t++) {
        for (int a = 0; a < MK_MORPH_ATTRIBUTE_COUNT; a++) {
            uint32_t acc = target_accessor(&p->targets[t], a);
            uint32_t *cnt = &counts[(size_t)t * MK_MORPH_ATTRIBUTE_COUNT + (size_t)a];
            *cnt = 0;
            if (acc == MK_NONE || !has_attr[a])
                continue;
            if ((s = mk_gltf_accessor_read_float(g, acc, tmp, n3, err)) != MK_OK)
                goto done;
            uint32_t nz = count_nonzero(tmp, vc);
            *cnt = nz <= vc / 4 ? nz : MK_MORPH_DENSE;
        }
    }
    mk_morph_set_desc desc = {vc, p->target_count, has_attr[1], has_attr[2], counts};
    if ((s = mk_morph_set_create(&desc, allocator, &set, err)) != MK_OK)
        goto done;
    if ((s = mk_gltf_accessor_read_float(g, p->position, set->base_positions, n3, err)) != MK_OK ||
        (has_attr[1] &&
         (s = mk_gltf_accessor_read_float(g, p->normal, set->base_normals, n3, err)) != MK_OK) ||
        (has_attr[2] && (s = mk_gltf_accessor_read_float(g, p->tangent, set->base_tangents,
                                                         (size_t)vc * 4, err)) != MK_OK))
        goto done;
    /* Pass 2: fill the deltas. */
    for (uint32_t t = 0; t < p->target_count; t++) {
        for (int a = 0; a < MK_MORPH_ATTRIBUTE_COUNT; a++) {
            mk_morph_delta *d = &set->targets[t].delta[a];
            if (d->entry_count == 0)
                continue;
            uint32_t acc = target_accessor(&p->targets[t], a);
            if (!d->indices) {
                if ((s = mk_gltf_accessor_read_float(g, acc, d->values, n3, err)) != MK_OK)
                    goto done;
                continue;
            }
            if ((s = mk_gltf_accessor_read_float(g, acc, tmp, n3, err)) != MK_OK)
                goto done;
            uint32_t e = 0;
            for (uint32_t v = 0; v < vc && e < d->entry_count; v++) {
                const float *x = tmp + 3 * (size_t)v;
                if (x[0] == 0.0f && x[1] == 0.0f && x[2] == 0.0f)
                    continue;
                d->indices[e] = v;
                memcpy(d->values + 3 * (size_t)e, x, 3 * sizeof(float));
                e++;
            }
        }
    }
    if (m->weights)
        memcpy(set->default_weights, m->weights, (size_t)p->target_count * sizeof(float));
    if ((s = mk_morph_set_validate(set, err)) != MK_OK) {
        /* NaN or infinite values in the file: name the primitive. */
        char msg[MK_ERROR_MESSAGE_MAX];
        snprintf(msg, sizeof msg, "%s", err ? err->message : "");
        mk_error_set(err, s, g->path, 0, "meshes[%u].primitives[%u]: %s", mesh, primitive, msg);
    }
done:
    mk_free(allocator, tmp, n3 * sizeof(float));
    mk_free(allocator, counts, (counts_n ? counts_n : 1) * sizeof(uint32_t));
    if (s != MK_OK) {
        mk_morph_set_destroy(set);
        return s;
    }
    *out = set;
    return MK_OK;
}

static mk_status fill_track(const mk_gltf *g, const char *path, const mk_gltf_sampler *sm,
                            mk_track *tr, const mk_allocator *allocator, mk_error *err)
{
    float *times = (float *)mk_alloc(allocator, (size_t)tr->key_count * sizeof(float));
    if (!times)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, g->path, 0, "out of memory");
    mk_status s = mk_gltf_accessor_read_float(g, sm->input, times, tr->key_count, err);
    for (uint32_t k = 0; s == MK_OK && k < tr->key_count; k++) {
        double t = times[k];
        /* §3.11: times are seconds, >= 0, strictly increasing. The 1e9 s cap
         * keeps the microsecond value far inside int64. */
        if (!(t >= 0.0) || t > 1e9) {
            s = mk_error_set(err, MK_ERR_RANGE, g->path, 0,
                             "%s.input: time %g at key %u is negative or not finite", path, t, k);
            break;
        }
        tr->times_us[k] = llround(t * 1e6);
        if (k > 0 && tr->times_us[k] <= tr->times_us[k - 1])
            s = mk_error_set(err, MK_ERR_PARSE, g->path, 0,
                             "%s.input: times must strictly increase (key %u: %.9g after %.9g, "
                             "compared in microseconds)",
                             path, k, t, (double)times[k - 1]);
    }
    mk_free(allocator, times, (size_t)tr->key_count * sizeof(float));
    if (s != MK_OK)
        return s;
    size_t n = (size_t)tr->key_count * tr->components *
               (tr->interpolation == MK_INTERPOLATION_CUBICSPLINE ? 3u : 1u);
    return mk_gltf_accessor_read_float(g, sm->output, tr->values, n, err);
}

mk_status mk_gltf_build_track_clip(const mk_gltf *g, uint32_t animation,
                                   const mk_allocator *allocator, mk_track_clip **out,
                                   mk_error *err)
{
    *out = NULL;
    if (animation >= g->animation_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, g->path, 0,
                            "no animation %u (%u animations)", animation, g->animation_count);
    const mk_gltf_animation *an = &g->animations[animation];
    size_t dn = an->channel_count ? an->channel_count : 1;
    mk_track_desc *descs = (mk_track_desc *)mk_alloc(allocator, dn * sizeof(mk_track_desc));
    uint32_t *chan = (uint32_t *)mk_alloc(allocator, dn * sizeof(uint32_t));
    mk_status s = MK_OK;
    mk_track_clip *clip = NULL;
    uint32_t nt = 0;
    if (!descs || !chan) {
        s = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, g->path, 0, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < an->channel_count; i++) {
        const mk_gltf_channel *ch = &an->channels[i];
        if (!ch->supported || ch->node == MK_NONE)
            continue; /* §3.11: a channel without a node is ignored */
        const mk_gltf_sampler *sm = &an->samplers[ch->sampler];
        mk_track_desc *d = &descs[nt];
        d->path = ch->path;
        d->interpolation = sm->interpolation;
        d->target = ch->node;
        d->key_count = g->accessors[sm->input].count;
        d->components = ch->path == MK_TRACK_WEIGHTS
                            ? g->meshes[g->nodes[ch->node].mesh].target_count
                        : ch->path == MK_TRACK_ROTATION ? 4u
                                                        : 3u;
        chan[nt++] = i;
    }
    if ((s = mk_track_clip_create(descs, nt, allocator, &clip, err)) != MK_OK)
        goto done;
    for (uint32_t t = 0; t < nt; t++) {
        char path[96];
        const mk_gltf_channel *ch = &an->channels[chan[t]];
        snprintf(path, sizeof path, "animations[%u].samplers[%u]", animation, ch->sampler);
        if ((s = fill_track(g, path, &an->samplers[ch->sampler], &clip->tracks[t], allocator,
                            err)) != MK_OK)
            goto done;
    }
    if ((s = mk_track_clip_validate(clip, err)) != MK_OK) {
        char msg[MK_ERROR_MESSAGE_MAX];
        snprintf(msg, sizeof msg, "%s", err ? err->message : "");
        mk_error_set(err, s, g->path, 0, "animations[%u]: %s", animation, msg);
    }
done:
    mk_free(allocator, descs, dn * sizeof(mk_track_desc));
    mk_free(allocator, chan, dn * sizeof(uint32_t));
    if (s != MK_OK) {
        mk_track_clip_destroy(clip);
        return s;
    }
    *out = clip;
    return MK_OK;
}
