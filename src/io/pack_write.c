/* Unit packer: mk_unit -> .glb (the file is described in pack.h).
 *
 * The binary chunk is built first, one bufferView per array (4-byte
 * aligned, as glTF wants for vertex data), with the bufferView and accessor
 * JSON written beside it; the document is then assembled around those
 * lists and both chunks are wrapped in the GLB container (§4.4). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pack_internal.h"

uint32_t mk_pack_add_view(mk_pack_writer *w, uint32_t kind, const void *data, size_t bytes,
                          uint32_t stride, uint32_t target, uint32_t element, size_t *offset)
{
    /* vertex data of one layout shares a view whatever its kind: a compressed
     * view costs ~200 bytes of JSON, more than mixing kinds costs the codec */
    if (target == MK_PACK_ARRAY_BUFFER || (target == 0 && kind < MK_PACK_KIND_IMAGE))
        kind = 0;
    uint32_t g = 0;
    while (g < w->group_count &&
           (w->groups[g].kind != kind || w->groups[g].stride != stride ||
            w->groups[g].target != target || w->groups[g].element != element))
        g++;
    if (g == MK_PACK_MAX_GROUPS) {
        w->failed = true;
        *offset = 0;
        return 0;
    }
    mk_pack_group *gr = &w->groups[g];
    if (g == w->group_count) {
        memset(gr, 0, sizeof *gr);
        gr->data.allocator = w->allocator;
        gr->kind = kind;
        gr->stride = stride;
        gr->target = target;
        gr->element = element;
        w->group_count++;
    }
    mk_buf_align(&gr->data, 4, 0);
    *offset = gr->data.size;
    mk_buf_append(&gr->data, data, bytes);
    w->failed |= gr->data.failed;
    return g;
}

void mk_pack_finish_views(mk_pack_writer *w)
{
    for (uint32_t g = 0; g < w->group_count; g++) {
        mk_pack_group *gr = &w->groups[g];
        mk_buf_align(&w->bin, 4, 0);
        mk_pack_view v = {w->bin.size, gr->data.size, gr->stride, gr->target, gr->element,
                          gr->target == MK_PACK_ELEMENT_ARRAY_BUFFER ? gr->element : 0,
                          gr->kind >= MK_PACK_KIND_IMAGE && gr->kind < MK_PACK_KIND_PRIMITIVE_INDEX};
        mk_buf_append(&w->bin, gr->data.data, gr->data.size);
        mk_buf_append(&w->views, &v, sizeof v);
        mk_buf_free(&gr->data);
    }
    w->view_count = w->views.failed ? 0 : w->group_count;
    w->failed |= w->views.failed || w->bin.failed;
}

/* The bufferViews JSON of an uncompressed file. */
static void write_views(const mk_pack_writer *w, mk_buf *b)
{
    for (uint32_t i = 0; i < w->view_count; i++) {
        const mk_pack_view *v = &mk_pack_views(w)[i];
        mk_buf_printf(b, "%s{\"buffer\":0", i ? "," : "");
        if (v->offset) /* 0: glTF's default */
            mk_buf_printf(b, ",\"byteOffset\":%zu", v->offset);
        mk_buf_printf(b, ",\"byteLength\":%zu", v->length);
        if (v->stride)
            mk_buf_printf(b, ",\"byteStride\":%u", v->stride);
        if (v->target)
            mk_buf_printf(b, ",\"target\":%u", v->target);
        mk_buf_append(b, "}", 1);
    }
}

uint32_t mk_pack_add_accessor(mk_pack_writer *w, const mk_pack_accessor *a)
{
    mk_buf *b = &w->accessors;
    mk_buf_printf(b, "%s{", w->accessor_count ? "," : "");
    if (a->view != MK_NONE)
        mk_buf_printf(b, "\"bufferView\":%u,", a->view);
    if (a->view != MK_NONE && a->byte_offset)
        mk_buf_printf(b, "\"byteOffset\":%zu,", a->byte_offset);
    mk_buf_printf(b, "\"componentType\":%u,%s\"count\":%u,\"type\":\"%s\"",
                       a->component_type, a->normalized ? "\"normalized\":true," : "", a->count,
                       a->type);
    for (int m = 0; a->min && m < 2; m++) {
        const double *v = m ? a->max : a->min;
        mk_buf_printf(b, ",\"%s\":[", m ? "max" : "min");
        for (uint32_t i = 0; i < a->components; i++) {
            if (i)
                mk_buf_append(b, ",", 1);
            mk_buf_number(b, v[i]);
        }
        mk_buf_append(b, "]", 1);
    }
    if (a->sparse_count) { /* byteOffset 0 is glTF's default */
        mk_buf_printf(b, ",\"sparse\":{\"count\":%u,\"indices\":{\"bufferView\":%u",
                           a->sparse_count, a->sparse_indices_view);
        if (a->sparse_indices_offset)
            mk_buf_printf(b, ",\"byteOffset\":%zu", a->sparse_indices_offset);
        mk_buf_printf(b, ",\"componentType\":%u},\"values\":{\"bufferView\":%u",
                           a->sparse_index_type, a->sparse_values_view);
        if (a->sparse_values_offset)
            mk_buf_printf(b, ",\"byteOffset\":%zu", a->sparse_values_offset);
        mk_buf_append(b, "}}", 2);
    }
    mk_buf_append(b, "}", 1);
    return w->accessor_count++;
}

/* ---- distinct frames ------------------------------------------------------- */

static uint64_t hash_bytes(const void *data, size_t n, uint64_t h)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static bool same_frame(const mk_frame_set *s, uint32_t a, uint32_t b)
{
    size_t n = (size_t)s->vertex_count * 3 * sizeof(float);
    return memcmp(mk_frame_set_positions(s, a), mk_frame_set_positions(s, b), n) == 0 &&
           (!s->normals || memcmp(mk_frame_set_normals(s, a), mk_frame_set_normals(s, b), n) == 0);
}

/* frame_target[f]: MK_NONE for the base frame and frames equal to it, else
 * the target of the first frame equal to f. target_frame[t]: that first
 * frame. Returns the target count. */
static uint32_t distinct_frames(const mk_frame_set *s, bool every_frame, uint32_t base,
                                uint64_t *hash, uint32_t *frame_target, uint32_t *target_frame)
{
    size_t n = (size_t)s->vertex_count * 3 * sizeof(float);
    uint32_t targets = 0;
    for (uint32_t f = 0; f < s->frame_count; f++) {
        hash[f] = hash_bytes(mk_frame_set_positions(s, f), n, 0xcbf29ce484222325ull);
        if (s->normals)
            hash[f] = hash_bytes(mk_frame_set_normals(s, f), n, hash[f]);
    }
    for (uint32_t f = 0; f < s->frame_count; f++) {
        frame_target[f] = MK_NONE;
        if (f == base || (!every_frame && hash[f] == hash[base] && same_frame(s, base, f)))
            continue;
        bool found = false;
        for (uint32_t g = 0; g < f && !found && !every_frame; g++) {
            if (frame_target[g] != MK_NONE && hash[g] == hash[f] && same_frame(s, g, f)) {
                frame_target[f] = frame_target[g];
                found = true;
            }
        }
        if (!found) {
            frame_target[f] = targets;
            target_frame[targets++] = f;
        }
    }
    return targets;
}

static mk_status write_animations(mk_pack_writer *w, const mk_unit *u,
                                  const uint32_t *frame_target, const uint32_t *target_parent,
                                  uint32_t targets, bool plain, mk_error *err)
{
    if (!targets)
        return MK_OK; /* nothing moves: a weights channel needs targets */
    for (uint32_t c = 0; c < u->clips->clip_count; c++) {
        mk_pack_keys k;
        mk_status st = mk_pack_key_clip(u->clips, c, frame_target, target_parent, targets,
                                        w->allocator, &k, err);
        if (st != MK_OK)
            return st;
        double tmin = k.times[0], tmax = k.times[k.key_count - 1];
        mk_pack_accessor in = {0, 0, MK_PACK_FLOAT, false, k.key_count, "SCALAR", 1, &tmin,
                               &tmax, 0, 0, 0, 0, 0, 0};
        in.view = mk_pack_add_view(w, MK_PACK_KIND_TIME, k.times, (size_t)k.key_count * 4, 0, 0,
                                   4, &in.byte_offset);
        const bool cubic = k.interpolation == MK_INTERPOLATION_CUBICSPLINE;
        const size_t values = (size_t)k.key_count * targets * (cubic ? 3 : 1);
        mk_pack_accessor out = {MK_NONE, 0, MK_PACK_FLOAT, false, (uint32_t)values, "SCALAR", 1,
                                NULL, NULL, 0, 0, 0, 0, 0, 0};
        if (!cubic && !plain) {
            /* weights are exactly 0 and 1 (a frame's path): normalized bytes (core glTF) */
            uint8_t *q = (uint8_t *)k.values; /* in place: byte i from float i, i ascending */
            for (size_t i = 0; i < values; i++)
                q[i] = k.values[i] > 0.5f ? 255 : 0;
            out.view = mk_pack_add_view(w, MK_PACK_KIND_WEIGHT, q, values, 0, 0, 1,
                                        &out.byte_offset);
            out.component_type = MK_PACK_UNSIGNED_BYTE;
            out.normalized = true;
        } else {
            out.view = mk_pack_add_view(w, MK_PACK_KIND_WEIGHT, k.values, values * 4, 0, 0, 4,
                                        &out.byte_offset);
        }
        uint32_t in_id = mk_pack_add_accessor(w, &in), out_id = mk_pack_add_accessor(w, &out);
        const char *interp = k.interpolation == MK_INTERPOLATION_STEP          ? "STEP"
                             : k.interpolation == MK_INTERPOLATION_CUBICSPLINE ? "CUBICSPLINE"
                                                                               : NULL; /* LINEAR: glTF's default */
        mk_pack_keys_free(&k, targets, w->allocator);
        mk_buf *b = &w->animations;
        mk_buf_printf(b, "%s{\"name\":", w->animation_count++ ? "," : "");
        mk_buf_json_string(b, u->clips->clips[c].name);
        mk_buf_printf(b,
                           ",\"samplers\":[{\"input\":%u,\"output\":%u%s%s%s}],"
                           "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}]}",
                           in_id, out_id, interp ? ",\"interpolation\":\"" : "", interp ? interp : "",
                           interp ? "\"" : "");
    }
    return MK_OK;
}

/* materials, textures, images and one sampler (materials JSON into out,
 * ending with a comma; the images into views of their own). */
static void write_materials(mk_pack_writer *w, const mk_pack_materials *mats, mk_buf *out)
{
    if (!mats->count)
        return;
    uint32_t images = 0;
    mk_buf_append(out, "\"materials\":[", 13);
    for (uint32_t i = 0; i < mats->count; i++) {
        const mk_pack_material *m = &mats->items[i];
        mk_buf_printf(out, "%s{\"name\":", i ? "," : "");
        mk_buf_json_string(out, m->name);
        mk_buf_printf(out, ",\"pbrMetallicRoughness\":{\"baseColorFactor\":[");
        for (int c = 0; c < 4; c++) {
            float x = m->color[c] < 0 ? 0 : m->color[c] > 1 ? 1 : m->color[c];
            mk_buf_append(out, ",", c ? 1 : 0);
            mk_buf_number(out, (double)x);
        }
        mk_buf_append(out, "]", 1);
        if (m->image)
            mk_buf_printf(out, ",\"baseColorTexture\":{\"index\":%u}", images++);
        /* OBJ materials are diffuse: no metal, fully rough */
        mk_buf_printf(out, ",\"metallicFactor\":0,\"roughnessFactor\":1}%s}",
                           m->color[3] < 1.0f ? ",\"alphaMode\":\"BLEND\"" : "");
    }
    mk_buf_append(out, "],", 2);
    if (!images)
        return;
    mk_buf_append(out, "\"samplers\":[{}],\"textures\":[", 28);
    for (uint32_t i = 0; i < images; i++)
        mk_buf_printf(out, "%s{\"sampler\":0,\"source\":%u}", i ? "," : "", i);
    mk_buf_append(out, "],\"images\":[", 12);
    for (uint32_t i = 0, k = 0; i < mats->count; i++) {
        const mk_pack_material *m = &mats->items[i];
        if (!m->image)
            continue;
        size_t offset;
        uint32_t view = mk_pack_add_view(w, MK_PACK_KIND_IMAGE + i, m->image, m->image_size, 0,
                                         0, 1, &offset);
        mk_buf_printf(out, "%s{\"bufferView\":%u,\"mimeType\":\"%s\"}", k++ ? "," : "",
                           view, m->mime);
    }
    mk_buf_append(out, "],", 2);
}

static const char *interpolation_word(mk_interpolation i)
{
    return i == MK_INTERPOLATION_STEP ? "step" : i == MK_INTERPOLATION_SMOOTH ? "smooth" : "linear";
}

/* extras.morphkit: what the player needs beyond glTF (docs/pack.md). */
static void write_extras(mk_pack_writer *w, const mk_unit *u, const mk_pack_materials *mats,
                         const uint32_t *frame_target, const uint32_t *target_parent,
                         uint32_t targets)
{
    mk_buf *b = &w->json;
    const mk_unit_files *files = u->files;
    mk_buf_printf(b, "\"extras\":{\"morphkit\":{\"version\":%d,\"unit\":", MK_PACK_VERSION);
    mk_buf_json_string(b, u->name);
    /* members with their default value are left out (docs/pack.md) */
    mk_buf_printf(b, ",\"source_bytes\":%llu,\"position_count\":%u,\"normal_count\":%u%s,"
                          "\"animations\":[",
                       (unsigned long long)u->bytes_on_disk, u->position_count, u->normal_count,
                       files->has_config ? ",\"config\":true" : "");
    for (uint32_t a = 0; a < files->animation_count; a++) {
        const mk_unit_animation *an = &files->animations[a];
        mk_buf_printf(b, "%s{\"name\":", a ? "," : "");
        mk_buf_json_string(b, an->name);
        if (an->first_number != 1)
            mk_buf_printf(b, ",\"first_number\":%u", an->first_number);
        mk_buf_printf(b, ",\"frame_count\":%u}", an->frame_count);
    }
    /* the frame file names only when they are not all <Name>_<N>.obj */
    bool plain_names = true;
    for (uint32_t a = 0; a < files->animation_count && plain_names; a++) {
        const mk_unit_animation *an = &files->animations[a];
        for (uint32_t k = 0; k < an->frame_count && plain_names; k++) {
            char name[300];
            snprintf(name, sizeof name, "%s_%u.obj", an->name, an->first_number + k);
            plain_names = strcmp(name, files->frame_files[an->first_frame + k]) == 0;
        }
    }
    mk_buf_append(b, "]", 1);
    for (uint32_t f = 0; !plain_names && f < files->frame_count; f++) {
        mk_buf_append(b, f ? "," : ",\"files\":[", f ? 1 : 10);
        mk_buf_json_string(b, files->frame_files[f]);
    }
    if (!plain_names)
        mk_buf_append(b, "]", 1);
    if (w->obj_v != MK_NONE)
        mk_buf_printf(b, ",\"obj_v\":%u", w->obj_v);
    if (w->obj_vn != MK_NONE)
        mk_buf_printf(b, ",\"obj_vn\":%u", w->obj_vn);
    if (w->index_turns != MK_NONE)
        mk_buf_printf(b, ",\"index_turns\":%u", w->index_turns);
    if (w->flat_normals)
        mk_buf_append(b, ",\"flat_normals\":true", 20);
    if (w->first_use_order)
        mk_buf_append(b, ",\"first_use_order\":true", 23);
    const uint32_t order[2] = {w->obj_v_order, w->obj_vn_order};
    /* map_deltas only where some map is an accessor */
    bool map_accessor = w->obj_v != MK_NONE || w->obj_vn != MK_NONE;
    for (int k = 0; k < 2; k++)
        map_accessor |= order[k] != MK_NONE && order[k] != MK_PACK_ORDER_IDENTITY;
    if (w->map_deltas && map_accessor)
        mk_buf_append(b, ",\"map_deltas\":true", 18);
    for (int k = 0; k < 2; k++) {
        if (order[k] == MK_PACK_ORDER_IDENTITY)
            mk_buf_printf(b, ",\"%s\":true", k ? "obj_vn_order" : "obj_v_order");
        else if (order[k] != MK_NONE)
            mk_buf_printf(b, ",\"%s\":%u", k ? "obj_vn_order" : "obj_v_order", order[k]);
    }
    /* frame_targets: absent when frame 0 is the base and frame f target f - 1 */
    bool plain_targets = true;
    for (uint32_t f = 0; f < files->frame_count && plain_targets; f++)
        plain_targets = frame_target[f] == (f ? f - 1 : MK_NONE);
    for (uint32_t f = 0; !plain_targets && f < files->frame_count; f++)
        mk_buf_printf(b, "%s%d", f ? "," : ",\"frame_targets\":[",
                           frame_target[f] == MK_NONE ? -1 : (int)frame_target[f]);
    mk_buf_append(b, "]", plain_targets ? 0 : 1);
    /* target_parents (version 7): absent when every target's parent is the base */
    bool star = true;
    for (uint32_t t = 0; t < targets && star; t++)
        star = target_parent[t] == MK_NONE;
    for (uint32_t t = 0; !star && t < targets; t++)
        mk_buf_printf(b, "%s%d", t ? "," : ",\"target_parents\":[",
                      target_parent[t] == MK_NONE ? -1 : (int)target_parent[t]);
    mk_buf_append(b, "]", star ? 0 : 1);
    mk_buf_append(b, ",\"clips\":[", 10);
    for (uint32_t ci = 0; ci < u->clips->clip_count; ci++) {
        const mk_clip *c = &u->clips->clips[ci];
        const mk_unit_animation *an = &files->animations[ci]; /* the clip's name is the animation's */
        mk_buf_append(b, ci ? ",{" : "{", ci ? 2 : 1);
        bool range = c->frame_count == an->frame_count, same = true;
        for (uint32_t k = 0; k < c->frame_count; k++) {
            range = range && c->frames[k] == an->first_frame + k;
            same = same && c->durations_us[k] == c->durations_us[0];
        }
        for (uint32_t k = 0; !range && k < c->frame_count; k++)
            mk_buf_printf(b, "%s%u", k ? "," : "\"frames\":[", c->frames[k]);
        mk_buf_append(b, "],", range ? 0 : 2);
        mk_buf_append(b, "\"durations_us\":", 15);
        for (uint32_t k = 0; k < (same ? 1u : c->frame_count); k++)
            mk_buf_printf(b, "%s%lld", same ? "" : k ? "," : "[", (long long)c->durations_us[k]);
        mk_buf_append(b, "]", same ? 0 : 1);
        if (c->loop_frame)
            mk_buf_printf(b, ",\"loop_frame\":%u", c->loop_frame);
        if (c->once)
            mk_buf_append(b, ",\"once\":true", 12);
        if (c->next_clip != MK_NONE) {
            mk_buf_append(b, ",\"next\":", 8);
            mk_buf_json_string(b, u->clips->clips[c->next_clip].name);
        }
        uint32_t no_blend = 0;
        for (uint32_t k = 0; k < c->frame_count; k++)
            if (c->frame_flags[k] & MK_CLIP_FRAME_NO_BLEND)
                mk_buf_printf(b, "%s%u", no_blend++ ? "," : ",\"no_blend\":[", k);
        mk_buf_append(b, "]", no_blend ? 1 : 0);
        if (c->interpolation != MK_INTERPOLATION_LINEAR)
            mk_buf_printf(b, ",\"interpolation\":\"%s\"", interpolation_word(c->interpolation));
        for (uint32_t e = 0; e < c->event_count; e++) {
            mk_buf_printf(b, "%s[%u,", e ? "," : ",\"events\":[", c->events[e].frame);
            mk_buf_json_string(b, c->events[e].name);
            mk_buf_append(b, "]", 1);
        }
        mk_buf_append(b, "]}", c->event_count ? 2 : 0);
        mk_buf_append(b, "}", c->event_count ? 0 : 1);
    }
    mk_buf_append(b, "]", 1);
    /* the triangle order across the material primitives: [primitive, triangles] runs */
    for (uint32_t r = 0; mats->count && r < mats->run_count; r++)
        mk_buf_printf(b, "%s[%u,%u]", r ? "," : ",\"material_runs\":[", mats->run_prim[r],
                           mats->runs[2 * r + 1]);
    if (mats->count)
        mk_buf_append(b, "]", 1);
    mk_buf_append(b, "}}", 2);
}

static void put_u32(mk_buf *b, uint32_t v)
{
    uint8_t p[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    mk_buf_append(b, p, 4);
}

static void free_writer(mk_pack_writer *w)
{
    mk_buf_free(&w->bin);
    mk_buf_free(&w->views);
    mk_buf_free(&w->accessors);
    mk_buf_free(&w->meshes);
    mk_buf_free(&w->animations);
    mk_buf_free(&w->json);
    for (uint32_t g = 0; g < w->group_count; g++)
        mk_buf_free(&w->groups[g].data);
}

static bool any_failed(const mk_pack_writer *w)
{
    return w->failed || w->bin.failed || w->views.failed || w->accessors.failed || w->meshes.failed ||
           w->animations.failed || w->json.failed;
}

/* One form of the pack, as mk_unit_pack tries them. */
typedef struct pack_form_choice {
    const mk_unit *unit;            /* the unit, or its copy in `v` order */
    const mk_pack_options *options; /* the caller's, or the flat form's grid */
    bool flat;                      /* no normals stored: a reader's are within flat_error */
    double flat_error;
    bool first_use_order;           /* unit is the copy in `v` order */
    uint32_t base_frame;            /* MK_NONE: mk_pack_choose_base picks it */
    bool tree;                      /* targets may take their deltas from other targets */
} pack_form_choice;

static mk_status pack_form(const pack_form_choice *f, const mk_pack_materials *mats,
                           const mk_allocator *allocator, void **out_data, size_t *out_size,
                           mk_pack_stats *stats, bool *tree_possible, mk_error *err);

/* Whether frame b of s equals an earlier frame bit for bit. */
static bool repeats_earlier_frame(const mk_frame_set *s, uint32_t b)
{
    for (uint32_t a = 0; a < b; a++)
        if (same_frame(s, a, b))
            return true;
    return false;
}

/* Packs one form and keeps it when it is the first or smaller than *best
 * (which it then replaces; *best_stats with it). *tree_possible: whether
 * the form's targets could have formed a tree. */
static mk_status keep_smaller(const pack_form_choice *f, const mk_pack_materials *mats,
                              const mk_allocator *allocator, void **best, size_t *best_size,
                              mk_pack_stats *best_stats, bool *tree_possible, mk_error *err)
{
    void *data;
    size_t size;
    mk_pack_stats stats;
    memset(&stats, 0, sizeof stats);
    mk_status st = pack_form(f, mats, allocator, &data, &size, &stats, tree_possible, err);
    if (st != MK_OK)
        return st;
    if (*best && size >= *best_size) {
        mk_free(allocator, data, size);
        return MK_OK;
    }
    mk_free(allocator, *best, *best_size);
    *best = data;
    *best_size = size;
    *best_stats = stats;
    return MK_OK;
}

mk_status mk_unit_pack(const mk_unit *unit, const mk_pack_options *options,
                       const mk_allocator *allocator, void **out_data, size_t *out_size,
                       mk_pack_stats *stats, mk_report *report, mk_error *err)
{
    if (out_data)
        *out_data = NULL;
    if (out_size)
        *out_size = 0;
    if (!unit || !out_data || !out_size || !unit->frames || !unit->clips || !unit->files ||
        !unit->source_index || unit->files->frame_count != unit->frames->frame_count ||
        unit->clips->clip_count != unit->files->animation_count ||
        (unit->normal_count && !unit->normal_vertex))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "mk_unit_pack: a loaded unit (frames, files and clips that agree) and "
                            "both outputs are required");
    if (options && (options->position_bits > 15 ||
                    (options->normal_bits && options->normal_bits != 8 &&
                     options->normal_bits != 16) ||
                    !(options->max_position_error >= 0)))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "mk_unit_pack: position_bits %u (0..15), normal_bits %u (0, 8, 16), "
                            "max_position_error %g (>= 0)",
                            options->position_bits, options->normal_bits,
                            options->max_position_error);
    if (unit->position_count >= (1u << 24) || unit->normal_count >= (1u << 24))
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0,
                            "%u positions, %u normals: a packed unit holds fewer than 2^24",
                            unit->position_count, unit->normal_count);
    mk_pack_materials *mats = mk_alloc(allocator, sizeof *mats);
    if (!mats)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    memset(mats, 0, sizeof *mats);
    mk_pack_materials_load(unit, options ? options->files : NULL, allocator, mats, report);
    mk_status st = MK_OK;
    for (uint32_t i = 0; options && options->no_texcoords && i < mats->count; i++)
        if (mats->items[i].image) {
            st = mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                              "no_texcoords: material '%s' has a texture, which needs them",
                              mats->items[i].name);
            break;
        }
    mk_pack_stats local_stats;
    if (!stats)
        stats = &local_stats;
    memset(stats, 0, sizeof *stats);
    /* no_texcoords: the vertices of a texture seam are one vertex again
     * (the unit reads back with fewer render vertices, the same `v`s) */
    mk_unit *welded = NULL;
    if (st == MK_OK && options && options->no_texcoords)
        st = mk_pack_unit_welded(unit, allocator, &welded, err);
    if (welded)
        unit = welded;
    /* flat_normals: a flat-shaded unit is packed both ways (pack_flat.c),
     * and the smaller file kept: without normals it usually is, by their
     * deltas, but its grid may have to be finer for the small faces' normals */
    bool flat = false;
    double flat_error = 0;
    mk_pack_options flat_options;
    if (st == MK_OK && mk_pack_flat_fits(unit, options, allocator, &flat, &flat_error,
                                         &flat_options) != MK_OK)
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    /* --compress: each form also with the vertices in by_v order, which
     * the file then names (first_use_order) */
    mk_unit *byv = NULL;
    if (st == MK_OK && options && options->compress)
        st = mk_pack_unit_by_v(unit, allocator, &byv, err);
    /* the base pose: for a unit of modest size every frame is tried (the
     * delta estimate of mk_pack_choose_base misses what sparse targets and
     * the codec make of them: the knight's flat pack is 9% smaller from an
     * Idle frame than from the frame the estimate picks) */
    const mk_frame_set *fs = unit->frames;
    const bool quantized = !(options && (options->plain || options->every_frame));
    const bool search = quantized && (double)fs->frame_count * fs->frame_count *
                                             fs->vertex_count <= MK_PACK_BASE_SEARCH;
    void *best = NULL;
    size_t best_size = 0;
    for (int form = 0; st == MK_OK && form < 4; form++) {
        bool flat_form = form >= 2, reordered = form & 1;
        if ((flat_form && !flat) || (reordered && !byv))
            continue;
        for (uint32_t b = 0; st == MK_OK && b < (search ? fs->frame_count : 1); b++) {
            if (search && repeats_earlier_frame(fs, b))
                continue; /* the same file again */
            /* every target from the base, and as a tree (format 7): the
             * tree's cost is an estimate, and the codec sometimes prefers
             * the star (the generated sphere, compressed); no tree where
             * the star's pass found none can be (the same file again) */
            bool tree_possible = quantized;
            for (int tree = 0; st == MK_OK && tree <= (tree_possible ? 1 : 0); tree++) {
                const pack_form_choice f = {reordered ? byv : unit,
                                            flat_form ? &flat_options : options,
                                            flat_form,
                                            flat_form ? flat_error : 0,
                                            reordered,
                                            search ? b : MK_NONE,
                                            tree};
                st = keep_smaller(&f, mats, allocator, &best, &best_size, stats,
                                  &tree_possible, err);
            }
        }
    }
    mk_pack_free_copy(byv, allocator);
    mk_pack_free_copy(welded, allocator);
    if (st == MK_OK) {
        *out_data = best;
        *out_size = best_size;
    } else {
        mk_free(allocator, best, best_size);
    }
    mk_pack_materials_free(mats, allocator);
    mk_free(allocator, mats, sizeof *mats);
    return st;
}

/* One form of the pack: with stored normals, or flat (no normals; the
 * unit's normals are within flat_error of what a reader computes). */
static mk_status pack_form(const pack_form_choice *f, const mk_pack_materials *mats,
                           const mk_allocator *allocator, void **out_data, size_t *out_size,
                           mk_pack_stats *stats, bool *tree_possible, mk_error *err)
{
    const mk_unit *unit = f->unit;
    const mk_pack_options *options = f->options;
    const bool flat = f->flat;
    const mk_frame_set *s = unit->frames;
    const uint32_t frames = s->frame_count, n = s->vertex_count;
    size_t table_bytes = (size_t)frames * (sizeof(uint64_t) + 3 * sizeof(uint32_t));
    uint8_t *table = mk_alloc(allocator, table_bytes);
    mk_pack_writer w;
    memset(&w, 0, sizeof w);
    w.index_turns = MK_NONE;
    w.first_use_order = f->first_use_order;
    w.allocator = allocator;
    w.bin.allocator = w.views.allocator = w.accessors.allocator = allocator;
    w.meshes.allocator = w.animations.allocator = w.json.allocator = allocator;
    mk_status st = MK_OK;
    if (!table) {
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
        goto done;
    }
    uint64_t *hash = (uint64_t *)table;
    uint32_t *frame_target = (uint32_t *)(hash + frames), *target_frame = frame_target + frames;
    uint32_t *target_parent = target_frame + frames;
    uint32_t base = f->base_frame;
    if (base == MK_NONE && mk_pack_choose_base(unit, options, flat, allocator, &base) != MK_OK) {
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
        goto done;
    }
    uint32_t targets = distinct_frames(s, options && options->every_frame, base, hash,
                                       frame_target, target_frame);
    float translation[3], scale;
    stats->flat_normals = flat;
    if (flat)
        stats->max_normal_error = f->flat_error;
    if ((st = mk_pack_write_mesh(&w, unit, options, mats, base, flat, f->tree, tree_possible,
                                 frame_target, target_frame, targets, target_parent, translation,
                                 &scale, stats, err)) != MK_OK ||
        (st = write_animations(&w, unit, frame_target, target_parent, targets,
                               options && options->plain, err)) != MK_OK)
        goto done;
    mk_buf mat_json = {NULL, 0, 0, allocator, false};
    write_materials(&w, mats, &mat_json);
    mk_pack_finish_views(&w);
    mk_buf_align(&w.bin, 4, 0);
    if (any_failed(&w)) {
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
        goto done;
    }

    mk_buf *j = &w.json;
    const bool quantized = !(options && options->plain), compress = options && options->compress;
    mk_buf views = {NULL, 0, 0, allocator, false};
    size_t fallback = 0;
    if (compress) {
        if ((st = mk_pack_compress(&w, &views, &fallback, err)) != MK_OK) {
            mk_buf_free(&views);
            goto done;
        }
    } else {
        write_views(&w, &views);
    }
    mk_buf_printf(j, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"morphkit %s\"},",
                       MK_VERSION_STRING);
    for (int k = 0; (quantized || compress) && k < 2; k++)
        mk_buf_printf(j, "\"%s\":[%s%s%s],", k ? "extensionsRequired" : "extensionsUsed",
                           quantized ? "\"KHR_mesh_quantization\"" : "",
                           quantized && compress ? "," : "",
                           compress ? "\"EXT_meshopt_compression\"" : "");
    mk_buf_printf(j, "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"name\":");
    mk_buf_json_string(j, unit->name);
    mk_buf_printf(j, ",\"mesh\":0");
    if (scale != 1.0f || translation[0] != 0.0f || translation[1] != 0.0f || translation[2] != 0.0f) {
        /* the position grid: world = translation + scale * q (pack.h) */
        mk_buf_printf(j, ",\"translation\":[");
        for (int c = 0; c < 3; c++) {
            mk_buf_append(j, ",", c ? 1 : 0);
            mk_buf_number(j, (double)translation[c]);
        }
        mk_buf_printf(j, "],\"scale\":[");
        for (int c = 0; c < 3; c++) {
            mk_buf_append(j, ",", c ? 1 : 0);
            mk_buf_number(j, (double)scale);
        }
        mk_buf_printf(j, "]");
    }
    mk_buf_printf(j, "}],\"meshes\":[");
    mk_buf_append(j, w.meshes.data, w.meshes.size);
    mk_buf_printf(j, "],\"accessors\":[");
    mk_buf_append(j, w.accessors.data, w.accessors.size);
    mk_buf_printf(j, "],\"bufferViews\":[");
    mk_buf_append(j, views.data, views.size);
    if (views.failed)
        j->failed = true;
    mk_buf_free(&views);
    mk_buf_printf(j, "],\"buffers\":[{\"byteLength\":%zu}", w.bin.size);
    if (compress)
        mk_buf_printf(j, ",{\"byteLength\":%zu,\"extensions\":{\"EXT_meshopt_compression\":"
                              "{\"fallback\":true}}}",
                           fallback);
    mk_buf_printf(j, "],");
    if (w.animation_count) {
        mk_buf_printf(j, "\"animations\":[");
        mk_buf_append(j, w.animations.data, w.animations.size);
        mk_buf_printf(j, "],");
    }
    mk_buf_append(j, mat_json.data, mat_json.size);
    if (mat_json.failed)
        j->failed = true;
    mk_buf_free(&mat_json);
    write_extras(&w, unit, mats, frame_target, target_parent, targets);
    mk_buf_append(j, "}", 1);
    mk_buf_align(j, 4, ' ');
    if (any_failed(&w)) {
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
        goto done;
    }
    size_t total = 12 + 8 + j->size + 8 + w.bin.size;
    if (total > UINT32_MAX) {
        st = mk_error_set(err, MK_ERR_LIMIT, NULL, 0, "the packed file would be %zu bytes (4 GiB at most)",
                          total);
        goto done;
    }
    mk_buf glb = {NULL, 0, 0, allocator, false};
    put_u32(&glb, 0x46546C67u); /* "glTF" */
    put_u32(&glb, 2);
    put_u32(&glb, (uint32_t)total);
    put_u32(&glb, (uint32_t)j->size);
    put_u32(&glb, 0x4E4F534Au); /* "JSON" */
    mk_buf_append(&glb, j->data, j->size);
    put_u32(&glb, (uint32_t)w.bin.size);
    put_u32(&glb, 0x004E4942u); /* "BIN\0" */
    mk_buf_append(&glb, w.bin.data, w.bin.size);
    if (glb.failed) {
        mk_buf_free(&glb);
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
        goto done;
    }
    /* hand out a block of exactly the size, so the caller frees with it */
    if (glb.cap != glb.size) {
        uint8_t *p = mk_realloc(allocator, glb.data, glb.cap, glb.size);
        if (!p) {
            mk_buf_free(&glb);
            st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
            goto done;
        }
        glb.data = p;
    }
    *out_data = glb.data;
    *out_size = glb.size;
    stats->frame_count = frames;
    stats->target_count = targets;
    stats->vertex_count = n;
    stats->bytes = glb.size;
done:
    free_writer(&w);
    mk_free(allocator, table, table_bytes);
    return st;
}
