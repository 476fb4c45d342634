/* Scenes for preview/view: unit folders through the pair path, glTF files
 * through the target path, skinned glTF primitives through the skinned
 * target path (morph then skin in the vertex shader, joint matrices from
 * the animated scene pose). */
#include <math.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"
#include "image.h"
#include "preview_scene.h"

typedef struct gltf_draw {
    uint32_t node, mesh, primitive;
    mk_morph_set *set;
    uint32_t *indices;
    uint32_t index_count;
    mk_gl_morph *gpu;
    float world[16];
    mk_skin *skin; /* skinned node, else NULL */
    mk_gl_skin *gpu_skin;
    float *cpu_pos; /* skinned: vertex_count * 3, for the bounds */
    uint32_t image; /* the base colour texture's entry in images[], or MK_NONE */
    float *uv;      /* TEXCOORD_0 (vertex_count * 2) when image is set */
} gltf_draw;

/* A decoded texture (rgba NULL: not drawn) and its GPU copy. */
typedef struct preview_image {
    uint8_t *rgba;
    uint32_t width, height;
    mk_gl_texture *gpu;
} preview_image;

struct mk_preview {
    /* unit folders */
    mk_unit *unit;
    mk_clip_set *forced_clips; /* with an interpolation override, else NULL */
    const mk_clip_set *clips;
    mk_player player;
    mk_gl_frames *frames;
    /* glTF */
    mk_gltf *gltf;
    gltf_draw *draws;
    uint32_t draw_count;
    mk_track_clip *track_clip;
    uint32_t *cursors;  /* per track: forward playback costs O(1) (track.h) */
    float *track_values; /* one full sample of track_clip */
    float *weights; /* per draw: its mesh's target count, at weight_offset[d] */
    mk_scene *graph; /* the node hierarchy (scene.h) */
    mk_scene_pose *pose; /* its local transforms as animated now */
    float *node_world; /* per node: its world matrix now */
    float *joint_m; /* 16 per joint of the largest skin */
    uint32_t *weight_offset;
    uint32_t weight_total;
    /* both */
    char problem[400]; /* the first load problem (ignored config lines), or "" */
    bool has_color;    /* a unit's material colour (.mtl Kd) */
    float color[4];
    /* textures: a unit's map_Kd (one entry), a glTF file's images */
    preview_image *images;
    uint32_t image_count;
    uint32_t anim;
    int64_t time_us;
};

/* ---- loading ------------------------------------------------------------------- */

static bool parse_index(const char *s, uint32_t *out)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || *end || v > UINT32_MAX)
        return false;
    *out = (uint32_t)v;
    return true;
}

/* A copy of the unit's clips with one interpolation forced on all of them. */
static bool force_interpolation(mk_preview *s, mk_interpolation interp)
{
    if (!mk_cli_force_interpolation(s->unit->clips, interp, &s->forced_clips))
        return false;
    s->clips = s->forced_clips;
    return true;
}

/* Builds the scene around s->unit: the clips (forced interpolation) and the
 * animation o->anim (name or index; NULL: Idle, else the first). */
/* Decodes a PNG held in memory into img; otherwise a warning names what
 * is not drawn (the picture is drawn without it). */
static void decode_image(const char *what, const void *data, size_t size, preview_image *img)
{
    char why[200];
    if (!mk_image_read_png(data, size, &img->rgba, &img->width, &img->height, why, sizeof why))
        fprintf(stderr, "morphkit: %s: warning: texture not drawn: %s\n", what, why);
}

static void decode_file(const char *path, preview_image *img)
{
    void *data;
    size_t size;
    mk_error err;
    if (mk_file_read(NULL, path, NULL, 0, &data, &size, &err) != MK_OK) {
        fprintf(stderr, "morphkit: %s: warning: texture not drawn: %s\n", path, err.message);
        return;
    }
    decode_image(path, data, size, img);
    mk_file_release(NULL, NULL, data, size);
}

/* The base colour texture of a draw: the material's texture when it uses
 * TEXCOORD_0 and the primitive has it; each image decoded once. */
static bool gltf_texture(mk_preview *s, gltf_draw *d, const mk_gltf_primitive *prim)
{
    const mk_gltf *g = s->gltf;
    d->image = MK_NONE;
    if (prim->material >= g->material_count || prim->texcoord0 == MK_NONE)
        return true;
    const mk_gltf_material *m = &g->materials[prim->material];
    if (m->base_color_texture >= g->texture_count || m->base_color_texcoord != 0)
        return true;
    uint32_t image = g->textures[m->base_color_texture].source;
    if (image >= g->image_count)
        return true;
    if (!s->images && !(s->images = calloc(g->image_count, sizeof *s->images)))
        return false;
    s->image_count = g->image_count;
    preview_image *img = &s->images[image];
    if (!img->rgba && !img->width) { /* not tried yet */
        img->width = 1; /* tried: stays without rgba when it fails */
        void *data;
        size_t size;
        mk_error err;
        char what[64];
        snprintf(what, sizeof what, "images[%u]", image);
        if (mk_gltf_image_read(g, image, NULL, NULL, &data, &size, &err) != MK_OK)
            fprintf(stderr, "morphkit: %s: warning: texture not drawn: %s\n", g->path,
                    err.message);
        else {
            decode_image(what, data, size, img);
            mk_free(NULL, data, size);
        }
    }
    if (!img->rgba)
        return true;
    size_t n = (size_t)d->set->vertex_count * 2;
    mk_error err;
    if (!(d->uv = malloc(n * sizeof(float))))
        return false;
    if (mk_gltf_accessor_read_float(g, prim->texcoord0, d->uv, n, &err) != MK_OK) {
        mk_cli_print_error(&err);
        free(d->uv);
        d->uv = NULL;
        return true;
    }
    d->image = image;
    return true;
}

/* A packed unit's material: its glTF materials (what `pack` made of the
 * folder's .mtl), the first primitive's, as the folder shows its first
 * usemtl: the base colour factor, and its embedded base colour texture
 * into s->images[0]. */
static void packed_material(mk_preview *s, const char *path)
{
    mk_gltf *g = NULL;
    mk_error err;
    if (mk_gltf_load(path, NULL, NULL, &g, &err) != MK_OK) {
        mk_cli_print_error(&err);
        return;
    }
    uint32_t m = g->mesh_count && g->meshes[0].primitive_count ? g->meshes[0].primitives[0].material
                                                                : MK_NONE;
    if (m < g->material_count) {
        const mk_gltf_material *mat = &g->materials[m];
        memcpy(s->color, mat->base_color_factor, sizeof s->color);
        s->has_color = true;
        uint32_t image = mat->base_color_texture < g->texture_count
                             ? g->textures[mat->base_color_texture].source
                             : MK_NONE;
        void *data;
        size_t size;
        if (image < g->image_count && (s->images = calloc(1, sizeof *s->images))) {
            s->image_count = 1;
            if (mk_gltf_image_read(g, image, NULL, NULL, &data, &size, &err) != MK_OK) {
                fprintf(stderr, "morphkit: %s: warning: texture not drawn: %s\n", path,
                        err.message);
            } else {
                decode_image(path, data, size, &s->images[0]);
                mk_free(NULL, data, size);
            }
        }
    }
    mk_gltf_destroy(g);
}

static int setup_unit(mk_preview *s, const mk_preview_options *o)
{
    s->clips = s->unit->clips;
    char *texture = NULL;
    if (mk_cli_is_packed_unit(s->unit->files->dir))
        packed_material(s, s->unit->files->dir);
    else
        s->has_color = mk_cli_unit_material(s->unit, s->color, &texture);
    if (texture) {
        s->images = calloc(1, sizeof *s->images);
        if (s->images) {
            s->image_count = 1;
            decode_file(texture, &s->images[0]);
        }
        free(texture);
    }
    if (o->interpolation >= 0 && !force_interpolation(s, (mk_interpolation)o->interpolation))
        return MK_EXIT_INVALID;
    uint32_t anim = MK_NONE;
    if (o->anim) {
        anim = mk_clip_set_find(s->clips, o->anim);
        uint32_t n;
        if (anim == MK_NONE && parse_index(o->anim, &n) && n < s->clips->clip_count)
            anim = n;
        if (anim == MK_NONE) {
            fprintf(stderr, "morphkit: %s has no animation '%s'; it has:", s->unit->name, o->anim);
            for (uint32_t i = 0; i < s->clips->clip_count; i++)
                fprintf(stderr, " %s", s->clips->clips[i].name);
            fprintf(stderr, "\n");
            return MK_EXIT_USAGE;
        }
    } else {
        anim = mk_clip_set_find(s->clips, "Idle");
        if (anim == MK_NONE)
            anim = 0;
    }
    mk_preview_set_anim(s, anim);
    return MK_EXIT_OK;
}

static int load_unit(mk_preview *s, const char *path, const mk_preview_options *o)
{
    /* lenient: a typo in animation.cfg must not hide the unit from its artist */
    if (mk_cli_load_unit(path, true, &s->unit, s->problem, sizeof s->problem) != MK_EXIT_OK)
        return MK_EXIT_INVALID;
    return setup_unit(s, o);
}

/* Builds animation a's clip with its cursors and sample buffer, replacing the
 * current ones; false (printed) when the clip cannot be built. */
static bool build_track_clip(mk_preview *s, uint32_t a)
{
    mk_error err;
    mk_track_clip *clip = NULL;
    if (mk_gltf_build_track_clip(s->gltf, a, NULL, &clip, &err) != MK_OK) {
        mk_cli_print_error(&err);
        return false;
    }
    uint32_t *cursors = calloc(clip->track_count + 1, sizeof *cursors);
    float *values = malloc(((size_t)clip->output_count + 1) * sizeof *values);
    if (!cursors || !values) {
        mk_cli_fail("out of memory");
        free(cursors);
        free(values);
        mk_track_clip_destroy(clip);
        return false;
    }
    mk_track_clip_destroy(s->track_clip);
    free(s->cursors);
    free(s->track_values);
    s->track_clip = clip;
    s->cursors = cursors;
    s->track_values = values;
    return true;
}

static int load_gltf(mk_preview *s, const char *path, const mk_preview_options *o)
{
    mk_error err;
    if (mk_gltf_load(path, NULL, NULL, &s->gltf, &err) != MK_OK) {
        mk_cli_print_error(&err);
        return MK_EXIT_INVALID;
    }
    const mk_gltf *g = s->gltf;
    if (mk_gltf_build_scene(g, NULL, &s->graph, &err) != MK_OK ||
        mk_scene_pose_create(s->graph, NULL, &s->pose, &err) != MK_OK) {
        mk_cli_print_error(&err);
        return MK_EXIT_INVALID;
    }
    /* Every node with a mesh (the default scene's hierarchy or not: nodes
     * carry their parents, so world transforms come out the same). */
    uint32_t prims = 0;
    for (uint32_t n = 0; n < g->node_count; n++)
        if (g->nodes[n].mesh != MK_NONE)
            prims += g->meshes[g->nodes[n].mesh].primitive_count;
    s->draws = calloc(prims ? prims : 1, sizeof *s->draws);
    s->weight_offset = calloc(prims ? prims : 1, sizeof *s->weight_offset);
    if (!s->draws || !s->weight_offset) {
        mk_cli_fail("out of memory");
        return MK_EXIT_INVALID;
    }
    for (uint32_t n = 0; n < g->node_count; n++) {
        uint32_t m = g->nodes[n].mesh;
        if (m == MK_NONE)
            continue;
        for (uint32_t p = 0; p < g->meshes[m].primitive_count; p++) {
            const mk_gltf_primitive *prim = &g->meshes[m].primitives[p];
            if (prim->mode != MK_GLTF_TRIANGLES || prim->position == MK_NONE)
                continue; /* only triangle lists are drawn */
            gltf_draw *d = &s->draws[s->draw_count];
            d->node = n;
            d->mesh = m;
            d->primitive = p;
            if (mk_gltf_build_morph_set(g, m, p, NULL, &d->set, &err) != MK_OK ||
                (g->nodes[n].skin != MK_NONE &&
                 mk_gltf_build_skin(g, g->nodes[n].skin, m, p, NULL, &d->skin, &err) != MK_OK)) {
                mk_cli_print_error(&err);
                s->draw_count++;
                return MK_EXIT_INVALID;
            }
            if ((d->skin && !(d->cpu_pos = malloc((size_t)d->set->vertex_count * 3 * 4))) ||
                !gltf_texture(s, d, prim)) {
                mk_cli_fail("out of memory");
                s->draw_count++;
                return MK_EXIT_INVALID;
            }
            if (prim->indices != MK_NONE) {
                d->index_count = g->accessors[prim->indices].count;
                d->indices = malloc((size_t)d->index_count * 4 + 4);
                if (!d->indices || mk_gltf_accessor_read_index(g, prim->indices, d->indices,
                                                               d->index_count, &err) != MK_OK) {
                    mk_cli_print_error(&err);
                    s->draw_count++;
                    return MK_EXIT_INVALID;
                }
            }
            s->weight_offset[s->draw_count] = s->weight_total;
            s->weight_total += d->set->target_count;
            s->draw_count++;
        }
    }
    if (s->draw_count == 0) {
        mk_cli_fail("%s: no triangle meshes to draw", path);
        return MK_EXIT_INVALID;
    }
    s->weights = calloc(s->weight_total ? s->weight_total : 1, sizeof(float));
    s->node_world = calloc((size_t)g->node_count * 16 + 1, sizeof(float));
    uint32_t max_joints = 0;
    for (uint32_t k = 0; k < g->skin_count; k++)
        max_joints = g->skins[k].joint_count > max_joints ? g->skins[k].joint_count : max_joints;
    s->joint_m = calloc((size_t)max_joints * 16 + 1, sizeof(float));
    if (!s->weights || !s->node_world || !s->joint_m) {
        mk_cli_fail("out of memory");
        return MK_EXIT_INVALID;
    }
    uint32_t anim = 0;
    if (o->anim) {
        anim = UINT32_MAX;
        for (uint32_t a = 0; a < g->animation_count; a++)
            if (g->animations[a].name && strcmp(g->animations[a].name, o->anim) == 0)
                anim = a;
        uint32_t n;
        if (anim == UINT32_MAX && parse_index(o->anim, &n) && n < g->animation_count)
            anim = n;
        if (anim == UINT32_MAX) {
            mk_cli_fail("%s has no animation '%s' (it has %u; give a name or an index)", path,
                        o->anim, g->animation_count);
            return MK_EXIT_USAGE;
        }
    }
    s->anim = anim;
    if (g->animation_count && !build_track_clip(s, anim))
        return MK_EXIT_INVALID;
    mk_preview_seek(s, 0);
    return MK_EXIT_OK;
}

int mk_preview_load(const char *path, const mk_preview_options *o, mk_preview **out)
{
    *out = NULL;
    struct stat st;
    if (stat(path, &st) != 0) {
        mk_cli_fail("%s: no such file or folder", path);
        return MK_EXIT_INVALID;
    }
    bool dir = S_ISDIR(st.st_mode) || mk_cli_is_packed_unit(path); /* a packed unit is a unit */
    if (!dir && !mk_cli_is_gltf_file(path)) {
        mk_cli_fail("%s: not a unit folder or a .gltf/.glb file", path);
        return MK_EXIT_INVALID;
    }
    if (S_ISDIR(st.st_mode) && !mk_is_unit_folder(path, NULL)) {
        mk_cli_fail("%s: not a unit folder (no <Animation>_<N>.obj files; preview one unit "
                    "of a library at a time)",
                    path);
        return MK_EXIT_INVALID;
    }
    mk_preview *s = calloc(1, sizeof *s);
    if (!s) {
        mk_cli_fail("out of memory");
        return MK_EXIT_INVALID;
    }
    int rc = dir ? load_unit(s, path, o) : load_gltf(s, path, o);
    if (rc != MK_EXIT_OK) {
        mk_preview_destroy(s);
        return rc;
    }
    *out = s;
    return MK_EXIT_OK;
}

void mk_preview_destroy(mk_preview *s)
{
    if (!s)
        return;
    mk_clip_set_destroy(s->forced_clips);
    mk_unit_destroy(s->unit);
    for (uint32_t d = 0; d < s->draw_count; d++) {
        mk_morph_set_destroy(s->draws[d].set);
        free(s->draws[d].indices);
        mk_skin_destroy(s->draws[d].skin);
        free(s->draws[d].cpu_pos);
        free(s->draws[d].uv);
    }
    for (uint32_t i = 0; i < s->image_count; i++)
        free(s->images[i].rgba);
    free(s->images);
    free(s->joint_m);
    free(s->draws);
    free(s->weight_offset);
    free(s->weights);
    free(s->node_world);
    mk_scene_pose_destroy(s->pose);
    mk_scene_destroy(s->graph);
    free(s->cursors);
    free(s->track_values);
    mk_track_clip_destroy(s->track_clip);
    mk_gltf_destroy(s->gltf);
    free(s);
}

bool mk_preview_upload(mk_preview *s, mk_gl_renderer *r)
{
    mk_error err;
    for (uint32_t i = 0; i < s->image_count; i++) {
        preview_image *img = &s->images[i];
        if (img->rgba && mk_gl_texture_create(r, img->width, img->height, img->rgba, NULL,
                                              &img->gpu, &err) != MK_OK) {
            mk_cli_print_error(&err);
            return false;
        }
    }
    if (s->unit) {
        if (mk_gl_frames_create(r, s->unit->frames, &s->frames, &err) != MK_OK) {
            mk_cli_print_error(&err);
            return false;
        }
        return true;
    }
    for (uint32_t d = 0; d < s->draw_count; d++) {
        gltf_draw *g = &s->draws[d];
        if (mk_gl_morph_create(r, g->set, g->indices, g->index_count, &g->gpu, &err) != MK_OK ||
            (g->skin && mk_gl_skin_create(r, g->skin, &g->gpu_skin, &err) != MK_OK) ||
            (g->uv && mk_gl_morph_set_texcoords(g->gpu, g->uv, &err) != MK_OK)) {
            mk_cli_print_error(&err);
            return false;
        }
    }
    return true;
}

void mk_preview_release(mk_preview *s)
{
    mk_gl_frames_destroy(s->frames);
    s->frames = NULL;
    for (uint32_t i = 0; i < s->image_count; i++) {
        mk_gl_texture_destroy(s->images[i].gpu);
        s->images[i].gpu = NULL;
    }
    for (uint32_t d = 0; d < s->draw_count; d++) {
        mk_gl_morph_destroy(s->draws[d].gpu);
        s->draws[d].gpu = NULL;
        mk_gl_skin_destroy(s->draws[d].gpu_skin);
        s->draws[d].gpu_skin = NULL;
    }
}

/* ---- animation ------------------------------------------------------------------ */

uint32_t mk_preview_anim_count(const mk_preview *s)
{
    return s->unit ? s->clips->clip_count : s->gltf->animation_count;
}

const char *mk_preview_anim_name(const mk_preview *s, uint32_t a)
{
    if (s->unit)
        return s->clips->clips[a].name;
    if (s->gltf->animation_count == 0)
        return "(static)";
    return s->gltf->animations[a].name ? s->gltf->animations[a].name : "(unnamed)";
}

uint32_t mk_preview_anim(const mk_preview *s)
{
    return s->anim;
}

void mk_preview_set_anim(mk_preview *s, uint32_t a)
{
    if (s->gltf && s->gltf->animation_count && !build_track_clip(s, a))
        return; /* keeps the animation it had */
    s->anim = a;
    mk_preview_seek(s, 0);
}

int64_t mk_preview_length_us(const mk_preview *s)
{
    int64_t len = s->unit ? s->clips->clips[s->anim].length_us
                          : (s->track_clip ? mk_track_clip_duration(s->track_clip) : 0);
    return len > 0 ? len : 1000000;
}

/* World matrices of the pose (scene.h) into every draw. */
static void update_world(mk_preview *s)
{
    mk_error err;
    if (mk_scene_pose_world(s->graph, s->pose, s->node_world, s->graph->node_count, &err) !=
        MK_OK)
        mk_cli_print_error(&err);
    for (uint32_t d = 0; d < s->draw_count; d++)
        memcpy(s->draws[d].world, s->node_world + 16 * (size_t)s->draws[d].node,
               sizeof s->draws[d].world);
}

void mk_preview_seek(mk_preview *s, int64_t t)
{
    if (t < 0)
        t = 0;
    s->time_us = t;
    if (s->unit) {
        mk_player_init(&s->player, s->clips);
        mk_player_play(&s->player, s->anim, NULL);
        mk_player_advance(&s->player, t, NULL);
        return;
    }
    /* glTF: default weights and the rest pose, then the animation (looping). */
    for (uint32_t d = 0; d < s->draw_count; d++)
        mk_gltf_node_default_weights(s->gltf, s->draws[d].node, s->weights + s->weight_offset[d],
                                     s->draws[d].set->target_count);
    mk_scene_pose_reset(s->graph, s->pose, NULL);
    if (!s->track_clip) {
        update_world(s);
        return;
    }
    int64_t len = mk_track_clip_duration(s->track_clip);
    /* Loop: one run is [0, len]; later times wrap. */
    int64_t local = t <= len ? t : (len > 0 ? t % len : 0);
    for (uint32_t k = 0; k < s->track_clip->track_count; k++) {
        const mk_track *tr = &s->track_clip->tracks[k];
        float *value = s->track_values + tr->value_offset;
        mk_track_sample_cursor(tr, local, &s->cursors[k], value);
        if (tr->path != MK_TRACK_WEIGHTS)
            continue; /* node transforms: mk_scene_pose_apply below */
        for (uint32_t d = 0; d < s->draw_count; d++)
            if (s->draws[d].node == tr->target) {
                uint32_t n = s->draws[d].set->target_count;
                memcpy(s->weights + s->weight_offset[d], value,
                       (n < tr->components ? n : tr->components) * sizeof(float));
            }
    }
    mk_error err;
    if (mk_scene_pose_apply(s->graph, s->pose, s->track_clip, s->track_values, &err) != MK_OK)
        mk_cli_print_error(&err);
    update_world(s);
}

int64_t mk_preview_time(const mk_preview *s)
{
    return s->time_us;
}

void mk_preview_step(mk_preview *s, int dir)
{
    if (!s->unit) {
        mk_preview_seek(s, s->time_us + (dir > 0 ? 1 : -1) * 1000000 / 30);
        return;
    }
    mk_player_state st;
    mk_player_get_state(&s->player, &st);
    if (dir > 0) {
        mk_preview_seek(s, s->time_us + (st.duration_us - st.time_us));
    } else {
        int64_t start = s->time_us - st.time_us; /* this frame's start */
        mk_preview_seek(s, start - 1);             /* into the previous frame */
        mk_player_get_state(&s->player, &st);
        mk_preview_seek(s, s->time_us - st.time_us);
    }
}

/* ---- drawing ---------------------------------------------------------------------- */

/* A skinned draw's joint matrices now (world(joint) * inverse bind) into
 * s->joint_m; the node's own transform is not used (glTF §3.7.3). */
static bool joint_matrices(const mk_preview *s, const gltf_draw *d)
{
    mk_error err;
    if (mk_skin_joint_matrices(d->skin, s->node_world, s->graph->node_count, s->joint_m,
                               d->skin->joint_count, &err) == MK_OK)
        return true;
    mk_cli_print_error(&err);
    return false;
}

/* Its positions now on the CPU, in scene space (for the bounds). */
static void skin_cpu(const mk_preview *s, const gltf_draw *d, const float *weights)
{
    mk_error err;
    mk_morph_evaluate(d->set, weights, d->cpu_pos, NULL, NULL, d->set->vertex_count, NULL);
    if (joint_matrices(s, d) &&
        mk_skin_apply(d->skin, s->joint_m, d->skin->joint_count, d->cpu_pos, NULL, NULL,
                      d->cpu_pos, NULL, NULL, d->skin->vertex_count, &err) != MK_OK)
        mk_cli_print_error(&err);
}

void mk_preview_draw(mk_preview *s, mk_gl_renderer *r, const mk_gl_draw_params *params)
{
    if (s->unit) {
        mk_pose pose;
        mk_player_pose(&s->player, &pose);
        mk_error err;
        mk_gl_draw_params p = *params;
        if (s->has_color) /* the artist's material, as the game shows it */
            memcpy(p.color, s->color, sizeof p.color);
        if (s->image_count)
            p.texture = s->images[0].gpu; /* NULL when it did not decode */
        if (mk_gl_draw_pose(r, s->frames, &pose, &p, &err) != MK_OK)
            mk_cli_print_error(&err);
        return;
    }
    mk_gl_draw_params p = *params;
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    for (uint32_t d = 0; d < s->draw_count; d++) {
        mk_error err;
        const gltf_draw *g = &s->draws[d];
        /* the primitive's material: its base colour factor and texture */
        const mk_gltf_primitive *prim = &s->gltf->meshes[g->mesh].primitives[g->primitive];
        if (prim->material < s->gltf->material_count)
            memcpy(p.color, s->gltf->materials[prim->material].base_color_factor,
                   sizeof p.color);
        else
            memcpy(p.color, params->color, sizeof p.color);
        p.texture = g->image != MK_NONE ? s->images[g->image].gpu : NULL;
        if (g->skin) {
            memcpy(p.model, identity, sizeof p.model); /* skinned vertices are in scene space */
            if (joint_matrices(s, g) &&
                mk_gl_draw_morph_skin(r, g->gpu, s->weights + s->weight_offset[d], g->gpu_skin,
                                      s->joint_m, g->skin->joint_count, &p, &err) != MK_OK)
                mk_cli_print_error(&err);
            continue;
        }
        memcpy(p.model, g->world, sizeof p.model);
        if (mk_gl_draw_morph(r, g->gpu, s->weights + s->weight_offset[d], &p, &err) != MK_OK)
            mk_cli_print_error(&err);
    }
}

typedef void (*point_fn)(void *ctx, const float world[3]);

static void visit(const float *p, const float *m, point_fn fn, void *ctx)
{
    float w[3];
    for (int c = 0; c < 3; c++)
        w[c] = m ? m[c] * p[0] + m[4 + c] * p[1] + m[8 + c] * p[2] + m[12 + c] : p[c];
    fn(ctx, w);
}

/* Every vertex position the current animation reaches, in world space: a
 * unit's frames, or a glTF file evaluated at 25 times across its length. */
static void each_point(const mk_preview *s, point_fn fn, void *ctx)
{
    if (s->unit) {
        const mk_clip *c = &s->clips->clips[s->anim];
        const mk_frame_set *fs = s->unit->frames;
        for (uint32_t f = 0; f < c->frame_count; f++) {
            const float *p = mk_frame_set_positions(fs, c->frames[f]);
            for (uint32_t v = 0; v < fs->vertex_count; v++)
                visit(p + 3 * v, NULL, fn, ctx);
        }
        return;
    }
    mk_preview *m = (mk_preview *)s; /* seek changes only the time, restored below */
    int64_t saved = s->time_us, len = mk_preview_length_us(s);
    for (int k = 0; k <= 24; k++) {
        mk_preview_seek(m, len * k / 24);
        for (uint32_t d = 0; d < s->draw_count; d++) {
            const mk_morph_set *set = s->draws[d].set;
            if (s->draws[d].skin) { /* skinned vertices are in scene space */
                skin_cpu(s, &s->draws[d], s->weights + s->weight_offset[d]);
                for (uint32_t v = 0; v < set->vertex_count; v++)
                    visit(s->draws[d].cpu_pos + 3 * v, NULL, fn, ctx);
                continue;
            }
            float *pos = malloc((size_t)set->vertex_count * 3 * sizeof(float));
            if (!pos)
                continue;
            mk_morph_evaluate(set, s->weights + s->weight_offset[d], pos, NULL, NULL,
                              set->vertex_count, NULL);
            for (uint32_t v = 0; v < set->vertex_count; v++)
                visit(pos + 3 * v, s->draws[d].world, fn, ctx);
            free(pos);
        }
    }
    mk_preview_seek(m, saved);
}

static void grow_box(void *ctx, const float w[3])
{
    float *lo = ctx, *hi = lo + 3;
    for (int c = 0; c < 3; c++) {
        lo[c] = w[c] < lo[c] ? w[c] : lo[c];
        hi[c] = w[c] > hi[c] ? w[c] : hi[c];
    }
}

void mk_preview_bounds(const mk_preview *s, float center[3], float *radius)
{
    float box[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
    each_point(s, grow_box, box);
    const float *lo = box, *hi = box + 3;
    float r2 = 0;
    for (int c = 0; c < 3; c++) {
        center[c] = 0.5f * (lo[c] + hi[c]);
        r2 += 0.25f * (hi[c] - lo[c]) * (hi[c] - lo[c]);
    }
    *radius = sqrtf(r2) > 1e-6f ? sqrtf(r2) : 1.0f;
}

void mk_preview_box(const mk_preview *s, float lo[3], float hi[3])
{
    float box[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
    each_point(s, grow_box, box);
    memcpy(lo, box, 3 * sizeof *lo);
    memcpy(hi, box + 3, 3 * sizeof *hi);
}

typedef struct extent_ctx {
    const float *vp;
    float ext[4]; /* x min, x max, y min, y max in NDC */
} extent_ctx;

static void grow_extent(void *ctx, const float w[3])
{
    extent_ctx *e = ctx;
    const float *m = e->vp;
    float x = m[0] * w[0] + m[4] * w[1] + m[8] * w[2] + m[12];
    float y = m[1] * w[0] + m[5] * w[1] + m[9] * w[2] + m[13];
    float q = m[3] * w[0] + m[7] * w[1] + m[11] * w[2] + m[15];
    if (!(q > 1e-6f))
        return; /* behind the camera: the orbit camera keeps everything in front */
    x /= q, y /= q;
    e->ext[0] = fminf(e->ext[0], x), e->ext[1] = fmaxf(e->ext[1], x);
    e->ext[2] = fminf(e->ext[2], y), e->ext[3] = fmaxf(e->ext[3], y);
}

void mk_preview_frame_tightly(const mk_preview *s, float view_projection[16], float fill)
{
    extent_ctx e = {view_projection, {INFINITY, -INFINITY, INFINITY, -INFINITY}};
    each_point(s, grow_extent, &e);
    float wx = e.ext[1] - e.ext[0], wy = e.ext[3] - e.ext[2];
    if (!(wx > 1e-6f) && !(wy > 1e-6f))
        return;
    /* scale about the extent's centre so its larger side spans `fill` of the
     * view: x' = k (x - cx) in NDC, i.e. clip x' = k x - k cx w */
    float k = 2.0f * fill / fmaxf(wx, wy);
    float cx = 0.5f * (e.ext[0] + e.ext[1]), cy = 0.5f * (e.ext[2] + e.ext[3]);
    for (int col = 0; col < 4; col++) {
        float *c = view_projection + 4 * col;
        float w = c[3];
        c[0] = k * c[0] - k * cx * w;
        c[1] = k * c[1] - k * cy * w;
    }
}

static uint32_t frame_number(const mk_preview *s, uint32_t clip, uint32_t frame)
{
    /* Clips of a unit follow its animations one to one (unit.h). */
    return s->unit->files->animations[clip].first_number + frame;
}

/* " cut" for a NoBlend frame and " !name" for each event of the frame: what
 * the timeline says about it, on sheets, GIFs and the view's title. */
static void frame_marks(const mk_preview *s, uint32_t clip, uint32_t frame, char *buf,
                        size_t size)
{
    const mk_clip *c = &s->clips->clips[clip];
    int at = 0;
    buf[0] = '\0';
    if (c->frame_flags[frame] & MK_CLIP_FRAME_NO_BLEND)
        at = snprintf(buf, size, " cut");
    for (uint32_t e = c->event_first[frame]; e < c->event_first[frame + 1]; e++)
        if (at >= 0 && (size_t)at < size)
            at += snprintf(buf + at, size - (size_t)at, " !%s", c->events[e].name);
}

void mk_preview_label(const mk_preview *s, char *buf, size_t size)
{
    if (!s->unit) {
        /* the time and the first drawn mesh's weights (at most 4) */
        int at = snprintf(buf, size, "%s %.2fs", s->track_clip ? mk_preview_anim_name(s, s->anim)
                                                                : "static",
                          (double)s->time_us / 1e6);
        uint32_t count = s->draw_count ? s->draws[0].set->target_count : 0;
        for (uint32_t t = 0; t < count && t < 4 && at > 0 && (size_t)at < size; t++)
        {
            float w = s->weights[s->weight_offset[0] + t];
            at += snprintf(buf + at, size - (size_t)at, "%s%.2f", t ? "/" : " w",
                           fabsf(w) < 0.005f ? 0.0 : (double)w); /* no "-0.00" */
        }
        if (count > 4 && at > 0 && (size_t)at < size)
            snprintf(buf + at, size - (size_t)at, "/..");
        return;
    }
    mk_player_state st;
    mk_player_get_state(&s->player, &st);
    /* Across a Next switch the successor is named: "Attack 5>Idle 1 w0.50". */
    bool other = st.next_clip != st.clip;
    int at = snprintf(buf, size, "%s %u>%s%s%u w%.2f", s->clips->clips[st.clip].name,
                      frame_number(s, st.clip, st.frame),
                      other ? s->clips->clips[st.next_clip].name : "", other ? " " : "",
                      frame_number(s, st.next_clip, st.next_frame), (double)st.weight);
    if (at > 0 && (size_t)at < size)
        frame_marks(s, st.clip, st.frame, buf + at, size - (size_t)at);
}

void mk_preview_state_text(const mk_preview *s, char *buf, size_t size)
{
    if (!s->unit) {
        snprintf(buf, size, "animation %s  time %.2f s", mk_preview_anim_name(s, s->anim),
                 (double)s->time_us / 1e6);
        return;
    }
    mk_player_state st;
    mk_player_get_state(&s->player, &st);
    int at = snprintf(buf, size, "animation %s  frame %u  next %s%s%u  weight %.2f",
                      s->clips->clips[st.clip].name, frame_number(s, st.clip, st.frame),
                      st.next_clip != st.clip ? s->clips->clips[st.next_clip].name : "",
                      st.next_clip != st.clip ? " " : "",
                      frame_number(s, st.next_clip, st.next_frame), (double)st.weight);
    if (at > 0 && (size_t)at < size)
        frame_marks(s, st.clip, st.frame, buf + at, size - (size_t)at);
}

bool mk_preview_is_still(const mk_preview *s)
{
    return !s->unit && !s->track_clip;
}

uint32_t mk_preview_sheet_times(const mk_preview *s, int64_t *times, uint32_t max)
{
    uint32_t n = 0;
    if (s->unit) {
        const mk_clip *c = &s->clips->clips[s->anim];
        int64_t t = 0;
        for (uint32_t f = 0; f < c->frame_count && n + 2 <= max; f++) {
            times[n++] = t;
            bool last_held = c->once && f + 1 == c->frame_count;
            if (!last_held && c->interpolation != MK_INTERPOLATION_STEP &&
                !(c->frame_flags[f] & MK_CLIP_FRAME_NO_BLEND))
                times[n++] = t + c->durations_us[f] / 2;
            t += c->durations_us[f];
        }
        return n;
    }
    if (!s->track_clip) { /* nothing moves: one picture, not 12 equal ones */
        times[0] = 0;
        return max ? 1 : 0;
    }
    int64_t len = mk_preview_length_us(s);
    for (; n < 12 && n < max; n++)
        times[n] = len * n / 11;
    return n;
}

const char *mk_preview_problem(const mk_preview *scene)
{
    return scene->problem;
}

/* Prints every item of rep (errors and warnings) and keeps the first in
 * problem; returns the count. */
static uint32_t report_problems(const mk_report *rep, char *problem, size_t size)
{
    problem[0] = '\0';
    uint32_t n = 0;
    for (uint32_t i = 0; i < mk_report_count(rep); i++) {
        const mk_diagnostic *d = mk_report_item(rep, i);
        if (d->severity == MK_SEVERITY_NOTE)
            continue; /* naming notes are validate's */
        mk_error e;
        mk_error_set(&e, MK_ERR_PARSE, d->file, d->line, "%s%s",
                     d->severity == MK_SEVERITY_WARNING ? "warning: " : "", d->message);
        mk_cli_print_error(&e);
        if (n++ == 0)
            mk_error_format(&e, problem, size);
    }
    return n;
}

int mk_preview_reload(const mk_preview *old, const char *path, const mk_preview_options *o,
                      mk_preview **out, char *problem, size_t problem_size)
{
    *out = NULL;
    problem[0] = '\0';
    mk_preview *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(problem, problem_size, "out of memory");
        return -1;
    }
    mk_preview_options keep = *o;
    if (old->unit) {
        mk_unit_options uo = {0};
        uo.skip_heuristics = true;
        uo.lenient_config = true;
        mk_report *rep = NULL;
        mk_error err;
        bool changed = false;
        mk_status st = mk_report_create(NULL, &rep, &err);
        if (st == MK_OK)
            st = mk_unit_reload(old->unit, &uo, NULL, &s->unit, &changed, rep, &err);
        if (report_problems(rep, problem, problem_size) == 0 && st != MK_OK)
            mk_error_format(&err, problem, problem_size);
        mk_report_destroy(rep);
        if (st != MK_OK || !changed) {
            free(s);
            return st != MK_OK ? -1 : 0;
        }
        snprintf(s->problem, sizeof s->problem, "%s", problem);
        /* the animation shown goes on, unless it is gone (renamed) */
        if (keep.anim && mk_clip_set_find(s->unit->clips, keep.anim) == MK_NONE)
            keep.anim = NULL;
        if (setup_unit(s, &keep) != MK_EXIT_OK) {
            mk_preview_destroy(s);
            snprintf(problem, problem_size, "%s: could not set up the reloaded unit", path);
            return -1;
        }
    } else {
        mk_error err;
        mk_gltf *probe = NULL;
        /* load once to get the error text; load_gltf prints its own */
        if (mk_gltf_load(path, NULL, NULL, &probe, &err) != MK_OK) {
            mk_cli_print_error(&err);
            mk_error_format(&err, problem, problem_size);
            free(s);
            return -1;
        }
        mk_gltf_destroy(probe);
        int rc = load_gltf(s, path, &keep);
        if (rc != MK_EXIT_OK && keep.anim) { /* the animation is gone: the default */
            mk_preview_destroy(s);
            keep.anim = NULL;
            s = calloc(1, sizeof *s);
            rc = s ? load_gltf(s, path, &keep) : MK_EXIT_INVALID;
        }
        if (rc != MK_EXIT_OK) {
            mk_preview_destroy(s);
            snprintf(problem, problem_size, "%s: could not be reloaded", path);
            return -1;
        }
    }
    *out = s;
    return 1;
}
