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

enum { GL_UNSIGNED_SHORT = 5123, GL_UNSIGNED_INT = 5125, GL_FLOAT = 5126 };
enum { GL_ARRAY_BUFFER = 34962, GL_ELEMENT_ARRAY_BUFFER = 34963 };

typedef struct writer {
    const mk_allocator *al;
    mk_pack_buf bin, views, accessors, meshes, animations, json;
    uint32_t view_count, accessor_count, animation_count;
} writer;

static uint32_t add_view(writer *w, const void *data, size_t bytes, uint32_t target)
{
    mk_pack_buf_align(&w->bin, 4, 0);
    size_t offset = w->bin.size;
    mk_pack_buf_append(&w->bin, data, bytes);
    mk_pack_buf_printf(&w->views, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu",
                       w->view_count ? "," : "", offset, bytes);
    if (target)
        mk_pack_buf_printf(&w->views, ",\"target\":%u", target);
    mk_pack_buf_append(&w->views, "}", 1);
    return w->view_count++;
}

/* An accessor over a whole view; min/max (components each) when given. */
static uint32_t add_accessor(writer *w, uint32_t view, uint32_t component_type, uint32_t count,
                             const char *type, const float *min, const float *max,
                             uint32_t components)
{
    mk_pack_buf *b = &w->accessors;
    mk_pack_buf_printf(b, "%s{\"bufferView\":%u,\"componentType\":%u,\"count\":%u,\"type\":\"%s\"",
                       w->accessor_count ? "," : "", view, component_type, count, type);
    for (int m = 0; min && m < 2; m++) {
        const float *v = m ? max : min;
        mk_pack_buf_printf(b, ",\"%s\":[", m ? "max" : "min");
        for (uint32_t i = 0; i < components; i++) {
            if (i)
                mk_pack_buf_append(b, ",", 1);
            mk_pack_buf_number(b, (double)v[i]);
        }
        mk_pack_buf_append(b, "]", 1);
    }
    mk_pack_buf_append(b, "}", 1);
    return w->accessor_count++;
}

static void min_max(const float *v, size_t count, uint32_t components, float *min, float *max)
{
    for (uint32_t c = 0; c < components; c++)
        min[c] = max[c] = count ? v[c] : 0.0f;
    for (size_t i = 1; i < count; i++)
        for (uint32_t c = 0; c < components; c++) {
            float x = v[i * components + c];
            min[c] = x < min[c] ? x : min[c];
            max[c] = x > max[c] ? x : max[c];
        }
}

/* A float VEC3 vertex accessor (with min/max: glTF requires them for
 * POSITION, base and targets). */
static uint32_t add_vec3(writer *w, const float *v, uint32_t count, bool bounds)
{
    float min[3], max[3];
    min_max(v, count, 3, min, max);
    uint32_t view = add_view(w, v, (size_t)count * 12, GL_ARRAY_BUFFER);
    return add_accessor(w, view, GL_FLOAT, count, "VEC3", bounds ? min : NULL, max, 3);
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

/* frame_target[f]: MK_NONE for frames equal to frame 0, else the target of
 * the first frame equal to f. target_frame[t]: that first frame. Returns
 * the target count. */
static uint32_t distinct_frames(const mk_frame_set *s, uint64_t *hash, uint32_t *frame_target,
                                uint32_t *target_frame)
{
    size_t n = (size_t)s->vertex_count * 3 * sizeof(float);
    uint32_t targets = 0;
    for (uint32_t f = 0; f < s->frame_count; f++) {
        hash[f] = hash_bytes(mk_frame_set_positions(s, f), n, 0xcbf29ce484222325ull);
        if (s->normals)
            hash[f] = hash_bytes(mk_frame_set_normals(s, f), n, hash[f]);
        frame_target[f] = MK_NONE;
        bool found = false;
        for (uint32_t g = 0; g < f && !found; g++) {
            if (hash[g] == hash[f] && same_frame(s, g, f)) {
                frame_target[f] = frame_target[g];
                found = true;
            }
        }
        if (!found && f > 0) {
            frame_target[f] = targets;
            target_frame[targets++] = f;
        }
    }
    return targets;
}

/* glTF wants unit normals: a zero normal (a `v` no face uses, a degenerate
 * `vn`) is written as +Z; the reader restores zeros where _OBJ_VN says so. */
static void fix_normal(const float *in, float *out)
{
    if (in[0] == 0.0f && in[1] == 0.0f && in[2] == 0.0f) {
        out[0] = out[1] = 0.0f;
        out[2] = 1.0f;
    } else {
        memcpy(out, in, 3 * sizeof(float));
    }
}

/* The delta d with base + d == frame exactly in float when one is near
 * F - B (almost always: within a few ulps), so readers that add it back
 * (morphkit, and a viewer at weight 1) get the frame bit for bit. */
static float exact_delta(float base, float frame)
{
    float d = frame - base;
    if (base + d == frame)
        return d;
    float up = d, down = d;
    for (int i = 0; i < 4; i++) {
        up = nextafterf(up, INFINITY);
        down = nextafterf(down, -INFINITY);
        if (base + up == frame)
            return up;
        if (base + down == frame)
            return down;
    }
    return d;
}

/* ---- the pieces --------------------------------------------------------------- */

typedef struct mesh_ids {
    uint32_t position, normal, texcoord, obj_v, obj_vn, indices;
} mesh_ids;

static void write_mesh(writer *w, const mk_unit *u, const uint32_t *target_frame, uint32_t targets,
                       float *scratch, double *max_error)
{
    const mk_frame_set *s = u->frames;
    const uint32_t n = s->vertex_count;
    const float *base = mk_frame_set_positions(s, 0);
    mesh_ids id = {MK_NONE, MK_NONE, MK_NONE, MK_NONE, MK_NONE, MK_NONE};
    id.position = add_vec3(w, base, n, true);
    if (s->normals) {
        for (uint32_t v = 0; v < n; v++)
            fix_normal(mk_frame_set_normals(s, 0) + 3 * (size_t)v, scratch + 3 * (size_t)v);
        id.normal = add_vec3(w, scratch, n, false);
    }
    if (s->texcoords)
        id.texcoord = add_accessor(w, add_view(w, s->texcoords, (size_t)n * 8, GL_ARRAY_BUFFER),
                                   GL_FLOAT, n, "VEC2", NULL, NULL, 2);
    /* glTF allows no UNSIGNED_INT attributes: the numbers are exact floats
     * (below 2^24, checked by the caller) */
    for (uint32_t v = 0; v < n; v++)
        scratch[v] = (float)u->source_index[v];
    id.obj_v = add_accessor(w, add_view(w, scratch, (size_t)n * 4, GL_ARRAY_BUFFER), GL_FLOAT, n,
                            "SCALAR", NULL, NULL, 1);
    if (s->normals) {
        for (uint32_t v = 0; v < n; v++)
            scratch[v] = -1.0f;
        for (uint32_t j = 0; j < u->normal_count; j++)
            if (u->normal_vertex[j] != MK_NONE)
                scratch[u->normal_vertex[j]] = (float)j;
        id.obj_vn = add_accessor(w, add_view(w, scratch, (size_t)n * 4, GL_ARRAY_BUFFER),
                                 GL_FLOAT, n, "SCALAR", NULL, NULL, 1);
    }
    if (n <= 65535) {
        uint16_t *i16 = (uint16_t *)scratch;
        for (uint32_t i = 0; i < s->index_count; i++)
            i16[i] = (uint16_t)s->indices[i];
        id.indices = add_accessor(w, add_view(w, i16, (size_t)s->index_count * 2,
                                              GL_ELEMENT_ARRAY_BUFFER),
                                  GL_UNSIGNED_SHORT, s->index_count, "SCALAR", NULL, NULL, 1);
    } else {
        id.indices = add_accessor(w, add_view(w, s->indices, (size_t)s->index_count * 4,
                                              GL_ELEMENT_ARRAY_BUFFER),
                                  GL_UNSIGNED_INT, s->index_count, "SCALAR", NULL, NULL, 1);
    }

    mk_pack_buf *m = &w->meshes;
    mk_pack_buf_printf(m, "{\"name\":");
    mk_pack_buf_json_string(m, u->name);
    mk_pack_buf_printf(m, ",\"primitives\":[{\"attributes\":{\"POSITION\":%u", id.position);
    if (id.normal != MK_NONE)
        mk_pack_buf_printf(m, ",\"NORMAL\":%u", id.normal);
    if (id.texcoord != MK_NONE)
        mk_pack_buf_printf(m, ",\"TEXCOORD_0\":%u", id.texcoord);
    mk_pack_buf_printf(m, ",\"_OBJ_V\":%u", id.obj_v);
    if (id.obj_vn != MK_NONE)
        mk_pack_buf_printf(m, ",\"_OBJ_VN\":%u", id.obj_vn);
    mk_pack_buf_printf(m, "},\"indices\":%u,\"mode\":4", id.indices);

    /* targets: deltas from the base, and the error the reader will see */
    *max_error = 0.0;
    for (uint32_t t = 0; t < targets; t++) {
        const uint32_t f = target_frame[t];
        const float *p = mk_frame_set_positions(s, f);
        for (size_t i = 0; i < 3 * (size_t)n; i++) {
            scratch[i] = exact_delta(base[i], p[i]);
            double e = fabs((double)(base[i] + scratch[i]) - (double)p[i]);
            *max_error = e > *max_error ? e : *max_error;
        }
        uint32_t pos = add_vec3(w, scratch, n, true), nrm = MK_NONE;
        if (s->normals) {
            const float *nf = mk_frame_set_normals(s, f), *nb = mk_frame_set_normals(s, 0);
            for (uint32_t v = 0; v < n; v++) {
                float a[3], b[3];
                fix_normal(nf + 3 * (size_t)v, a);
                fix_normal(nb + 3 * (size_t)v, b);
                for (int c = 0; c < 3; c++)
                    scratch[3 * (size_t)v + c] = exact_delta(b[c], a[c]);
            }
            nrm = add_vec3(w, scratch, n, false);
        }
        mk_pack_buf_printf(m, "%s{\"POSITION\":%u", t ? "," : ",\"targets\":[", pos);
        if (nrm != MK_NONE)
            mk_pack_buf_printf(m, ",\"NORMAL\":%u", nrm);
        mk_pack_buf_append(m, "}", 1);
    }
    if (targets)
        mk_pack_buf_append(m, "]", 1);
    mk_pack_buf_append(m, "}]", 2);
    if (targets) {
        /* rest weights all zero (the base pose); target names = first frame using each */
        mk_pack_buf_append(m, ",\"weights\":[", 12);
        for (uint32_t t = 0; t < targets; t++)
            mk_pack_buf_printf(m, "%s0", t ? "," : "");
        mk_pack_buf_append(m, "],\"extras\":{\"targetNames\":[", 27);
        for (uint32_t t = 0; t < targets; t++) {
            const char *file = u->files->frame_files[target_frame[t]];
            const char *dot = strrchr(file, '.');
            char name[256];
            snprintf(name, sizeof name, "%.*s", dot ? (int)(dot - file) : (int)strlen(file), file);
            if (t)
                mk_pack_buf_append(m, ",", 1);
            mk_pack_buf_json_string(m, name);
        }
        mk_pack_buf_append(m, "]}", 2);
    }
    mk_pack_buf_append(m, "}", 1);
}

static mk_status write_animations(writer *w, const mk_unit *u, const uint32_t *frame_target,
                                  uint32_t targets, mk_error *err)
{
    if (!targets)
        return MK_OK; /* nothing moves: a weights channel needs targets */
    for (uint32_t c = 0; c < u->clips->clip_count; c++) {
        mk_pack_keys k;
        mk_status st = mk_pack_key_clip(u->clips, c, frame_target, targets, w->al, &k, err);
        if (st != MK_OK)
            return st;
        float tmin = k.times[0], tmax = k.times[k.key_count - 1];
        uint32_t in = add_accessor(w, add_view(w, k.times, (size_t)k.key_count * 4, 0), GL_FLOAT,
                                   k.key_count, "SCALAR", &tmin, &tmax, 1);
        size_t values = (size_t)k.key_count * targets *
                        (k.interpolation == MK_INTERPOLATION_CUBICSPLINE ? 3 : 1);
        uint32_t outp = add_accessor(w, add_view(w, k.values, values * 4, 0), GL_FLOAT,
                                     (uint32_t)values, "SCALAR", NULL, NULL, 1);
        const char *interp = k.interpolation == MK_INTERPOLATION_STEP          ? "STEP"
                             : k.interpolation == MK_INTERPOLATION_CUBICSPLINE ? "CUBICSPLINE"
                                                                               : "LINEAR";
        mk_pack_keys_free(&k, targets, w->al);
        mk_pack_buf *b = &w->animations;
        mk_pack_buf_printf(b, "%s{\"name\":", w->animation_count++ ? "," : "");
        mk_pack_buf_json_string(b, u->clips->clips[c].name);
        mk_pack_buf_printf(b,
                           ",\"samplers\":[{\"input\":%u,\"output\":%u,\"interpolation\":\"%s\"}],"
                           "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}]}",
                           in, outp, interp);
    }
    return MK_OK;
}

static const char *interpolation_word(mk_interpolation i)
{
    return i == MK_INTERPOLATION_STEP ? "step" : i == MK_INTERPOLATION_SMOOTH ? "smooth" : "linear";
}

/* extras.morphkit: what the player needs beyond glTF (docs/pack.md). */
static void write_extras(writer *w, const mk_unit *u, const uint32_t *frame_target)
{
    mk_pack_buf *b = &w->json;
    const mk_unit_files *files = u->files;
    mk_pack_buf_printf(b, "\"extras\":{\"morphkit\":{\"version\":%d,\"unit\":", MK_PACK_VERSION);
    mk_pack_buf_json_string(b, u->name);
    mk_pack_buf_printf(b,
                       ",\"source_bytes\":%llu,\"position_count\":%u,\"normal_count\":%u,"
                       "\"config\":%s,\"animations\":[",
                       (unsigned long long)u->bytes_on_disk, u->position_count, u->normal_count,
                       files->has_config ? "true" : "false");
    for (uint32_t a = 0; a < files->animation_count; a++) {
        const mk_unit_animation *an = &files->animations[a];
        mk_pack_buf_printf(b, "%s{\"name\":", a ? "," : "");
        mk_pack_buf_json_string(b, an->name);
        mk_pack_buf_printf(b, ",\"first_number\":%u,\"frame_count\":%u}", an->first_number,
                           an->frame_count);
    }
    mk_pack_buf_append(b, "],\"files\":[", 11);
    for (uint32_t f = 0; f < files->frame_count; f++) {
        if (f)
            mk_pack_buf_append(b, ",", 1);
        mk_pack_buf_json_string(b, files->frame_files[f]);
    }
    mk_pack_buf_append(b, "],\"frame_targets\":[", 19);
    for (uint32_t f = 0; f < files->frame_count; f++)
        mk_pack_buf_printf(b, "%s%d", f ? "," : "",
                           frame_target[f] == MK_NONE ? -1 : (int)frame_target[f]);
    mk_pack_buf_append(b, "],\"clips\":[", 11);
    for (uint32_t ci = 0; ci < u->clips->clip_count; ci++) {
        const mk_clip *c = &u->clips->clips[ci];
        mk_pack_buf_printf(b, "%s{\"name\":", ci ? "," : "");
        mk_pack_buf_json_string(b, c->name);
        mk_pack_buf_append(b, ",\"frames\":[", 11);
        for (uint32_t k = 0; k < c->frame_count; k++)
            mk_pack_buf_printf(b, "%s%u", k ? "," : "", c->frames[k]);
        mk_pack_buf_append(b, "],\"durations_us\":[", 18);
        for (uint32_t k = 0; k < c->frame_count; k++)
            mk_pack_buf_printf(b, "%s%lld", k ? "," : "", (long long)c->durations_us[k]);
        mk_pack_buf_printf(b, "],\"loop_frame\":%u,\"once\":%s", c->loop_frame,
                           c->once ? "true" : "false");
        if (c->next_clip != MK_NONE) {
            mk_pack_buf_append(b, ",\"next\":", 8);
            mk_pack_buf_json_string(b, u->clips->clips[c->next_clip].name);
        }
        mk_pack_buf_append(b, ",\"no_blend\":[", 13);
        for (uint32_t k = 0, any = 0; k < c->frame_count; k++)
            if (c->frame_flags[k] & MK_CLIP_FRAME_NO_BLEND)
                mk_pack_buf_printf(b, "%s%u", any++ ? "," : "", k);
        mk_pack_buf_printf(b, "],\"interpolation\":\"%s\",\"events\":[",
                           interpolation_word(c->interpolation));
        for (uint32_t e = 0; e < c->event_count; e++) {
            mk_pack_buf_printf(b, "%s[%u,", e ? "," : "", c->events[e].frame);
            mk_pack_buf_json_string(b, c->events[e].name);
            mk_pack_buf_append(b, "]", 1);
        }
        mk_pack_buf_append(b, "]}", 2);
    }
    mk_pack_buf_append(b, "]}}", 3);
}

static void put_u32(mk_pack_buf *b, uint32_t v)
{
    uint8_t p[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    mk_pack_buf_append(b, p, 4);
}

static void free_writer(writer *w)
{
    mk_pack_buf_free(&w->bin);
    mk_pack_buf_free(&w->views);
    mk_pack_buf_free(&w->accessors);
    mk_pack_buf_free(&w->meshes);
    mk_pack_buf_free(&w->animations);
    mk_pack_buf_free(&w->json);
}

static bool any_failed(const writer *w)
{
    return w->bin.failed || w->views.failed || w->accessors.failed || w->meshes.failed ||
           w->animations.failed || w->json.failed;
}

mk_status mk_unit_pack(const mk_unit *unit, const mk_pack_options *options,
                       const mk_allocator *allocator, void **out_data, size_t *out_size,
                       mk_pack_stats *stats, mk_error *err)
{
    if (out_data)
        *out_data = NULL;
    if (out_size)
        *out_size = 0;
    if (!unit || !out_data || !out_size || !unit->frames || !unit->clips || !unit->files ||
        !unit->source_index || (options && options->reserved))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "mk_unit_pack: a loaded unit and both outputs are required");
    const mk_frame_set *s = unit->frames;
    const uint32_t frames = s->frame_count, n = s->vertex_count;
    if (unit->position_count >= (1u << 24) || unit->normal_count >= (1u << 24))
        return mk_error_set(err, MK_ERR_LIMIT, NULL, 0,
                            "%u positions, %u normals: a packed unit holds fewer than 2^24",
                            unit->position_count, unit->normal_count);
    size_t scratch_floats = 3 * (size_t)n > s->index_count ? 3 * (size_t)n : s->index_count;
    size_t table_bytes = (size_t)frames * (sizeof(uint64_t) + 2 * sizeof(uint32_t));
    uint8_t *table = mk_alloc(allocator, table_bytes);
    float *scratch = mk_alloc(allocator, scratch_floats * sizeof(float));
    writer w;
    memset(&w, 0, sizeof w);
    w.al = allocator;
    w.bin.allocator = w.views.allocator = w.accessors.allocator = allocator;
    w.meshes.allocator = w.animations.allocator = w.json.allocator = allocator;
    mk_status st = MK_OK;
    if (!table || !scratch) {
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
        goto done;
    }
    uint64_t *hash = (uint64_t *)table;
    uint32_t *frame_target = (uint32_t *)(hash + frames), *target_frame = frame_target + frames;
    uint32_t targets = distinct_frames(s, hash, frame_target, target_frame);
    double max_error = 0.0;
    write_mesh(&w, unit, target_frame, targets, scratch, &max_error);
    if ((st = write_animations(&w, unit, frame_target, targets, err)) != MK_OK)
        goto done;
    mk_pack_buf_align(&w.bin, 4, 0);

    mk_pack_buf *j = &w.json;
    mk_pack_buf_printf(j, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"morphkit %s\"},",
                       MK_VERSION_STRING);
    mk_pack_buf_printf(j, "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"name\":");
    mk_pack_buf_json_string(j, unit->name);
    mk_pack_buf_printf(j, ",\"mesh\":0}],\"meshes\":[");
    mk_pack_buf_append(j, w.meshes.data, w.meshes.size);
    mk_pack_buf_printf(j, "],\"accessors\":[");
    mk_pack_buf_append(j, w.accessors.data, w.accessors.size);
    mk_pack_buf_printf(j, "],\"bufferViews\":[");
    mk_pack_buf_append(j, w.views.data, w.views.size);
    mk_pack_buf_printf(j, "],\"buffers\":[{\"byteLength\":%zu}],", w.bin.size);
    if (w.animation_count) {
        mk_pack_buf_printf(j, "\"animations\":[");
        mk_pack_buf_append(j, w.animations.data, w.animations.size);
        mk_pack_buf_printf(j, "],");
    }
    write_extras(&w, unit, frame_target);
    mk_pack_buf_append(j, "}", 1);
    mk_pack_buf_align(j, 4, ' ');
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
    mk_pack_buf glb = {NULL, 0, 0, allocator, false};
    put_u32(&glb, 0x46546C67u); /* "glTF" */
    put_u32(&glb, 2);
    put_u32(&glb, (uint32_t)total);
    put_u32(&glb, (uint32_t)j->size);
    put_u32(&glb, 0x4E4F534Au); /* "JSON" */
    mk_pack_buf_append(&glb, j->data, j->size);
    put_u32(&glb, (uint32_t)w.bin.size);
    put_u32(&glb, 0x004E4942u); /* "BIN\0" */
    mk_pack_buf_append(&glb, w.bin.data, w.bin.size);
    if (glb.failed) {
        mk_pack_buf_free(&glb);
        st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
        goto done;
    }
    /* hand out a block of exactly the size, so the caller frees with it */
    if (glb.cap != glb.size) {
        uint8_t *p = mk_realloc(allocator, glb.data, glb.cap, glb.size);
        if (!p) {
            mk_pack_buf_free(&glb);
            st = mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
            goto done;
        }
        glb.data = p;
    }
    *out_data = glb.data;
    *out_size = glb.size;
    if (stats) {
        stats->frame_count = frames;
        stats->target_count = targets;
        stats->vertex_count = n;
        stats->bytes = glb.size;
        stats->max_position_error = max_error;
    }
done:
    free_writer(&w);
    mk_free(allocator, table, table_bytes);
    mk_free(allocator, scratch, scratch_floats * sizeof(float));
    return st;
}
