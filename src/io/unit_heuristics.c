/* Warning heuristics for units: likely vertex-order scrambles, changing UVs,
 * frames that jump in position or scale. The rules and thresholds are
 * stated in include/morphkit/unit.h; everything here works on the OBJ's own
 * `v` numbering so messages can name the vertices an artist sees. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "morphkit/repair.h"
#include "unit_internal.h"

#define UV_TOLERANCE 1e-5f
#define JUMP_CENTROID 0.5f /* of the unit's size */
#define JUMP_SCALE 2.0f
#define MAX_NAMED_VERTICES 8

typedef struct frame_shape {
    float centroid[3];
    float diagonal;
} frame_shape;

static frame_shape shape_of(const mk_obj *o)
{
    frame_shape s = {{0, 0, 0}, 0};
    float lo[3], hi[3];
    double sum[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++)
        lo[k] = hi[k] = o->positions[k];
    for (uint32_t i = 0; i < o->position_count; i++)
        for (int k = 0; k < 3; k++) {
            float v = o->positions[3 * i + k];
            lo[k] = v < lo[k] ? v : lo[k];
            hi[k] = v > hi[k] ? v : hi[k];
            sum[k] += v;
        }
    float d2 = 0;
    for (int k = 0; k < 3; k++) {
        s.centroid[k] = (float)(sum[k] / o->position_count);
        d2 += (hi[k] - lo[k]) * (hi[k] - lo[k]);
    }
    s.diagonal = sqrtf(d2);
    return s;
}

/* Scrambles: the vertex-order rule of morphkit/repair.h over the frames'
 * own `v` numbering, one warning on each wrong frame. */
static void check_scrambles(const mk_unit_build *b, const mk_clip_set *clips, mk_report *rep)
{
    const mk_unit_files *files = b->files;
    uint32_t frames = files->frame_count;
    const float **pos = mk_alloc(b->allocator, frames * sizeof *pos);
    uint32_t *anim = mk_alloc(b->allocator, (files->animation_count + 1) * sizeof *anim);
    uint32_t *next = mk_alloc(b->allocator, frames * sizeof *next);
    mk_vorder_report *vr = NULL;
    mk_error e;
    if (pos && anim && next) {
        for (uint32_t f = 0; f < frames; f++)
            pos[f] = b->objs[f]->positions;
        for (uint32_t a = 0; a < files->animation_count; a++)
            anim[a] = files->animations[a].frame_count;
        /* loops and clip switches make neighbours too (without the clips,
           a config with errors: animations only) */
        bool play = clips && mk_vorder_next_frames(clips, frames, next, &e) == MK_OK;
        mk_vorder_frames fr = {b->objs[0]->position_count, frames, pos,
                               b->objs[0]->triangle_count, b->objs[0]->corner_position,
                               files->animation_count, anim, play ? next : NULL};
        if (mk_vorder_detect(&fr, b->allocator, &vr, &e) != MK_OK)
            vr = NULL;
    }
    for (uint32_t i = 0; vr && i < vr->fault_count; i++) {
        const mk_vorder_fault *ft = &vr->faults[i];
        char list[160];
        size_t len = 0;
        for (uint32_t k = 0; k < ft->vertex_count && len < sizeof list; k++) {
            if (k == MAX_NAMED_VERTICES) {
                snprintf(list + len, sizeof list - len, ", ...");
                break;
            }
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%u", k ? ", " : "",
                                    ft->vertices[k] + 1);
        }
        uint32_t prev = ft->frame > 0 ? ft->frame - 1 : MK_NONE, next = MK_NONE;
        for (uint32_t a = 0; a < files->animation_count; a++) {
            const mk_unit_animation *an = &files->animations[a];
            if (ft->frame >= an->first_frame && ft->frame < an->first_frame + an->frame_count) {
                prev = ft->frame > an->first_frame ? ft->frame - 1 : MK_NONE;
                next = ft->frame + 1 < an->first_frame + an->frame_count ? ft->frame + 1 : MK_NONE;
            }
        }
        uint32_t other = prev != MK_NONE ? prev : next != MK_NONE ? next : 0;
        mk_report_add(rep, MK_SEVERITY_WARNING, MK_CHECK_SCRAMBLE, b->paths[ft->frame], 0,
                      b->paths[other], 0,
                      "likely vertex-order scramble around v %s: %u %s out of place (the "
                      "edges around %s change length by up to %.0fx against %s); "
                      "`morphkit repair` can try to put them back",
                      list, ft->vertex_count, ft->vertex_count == 1 ? "vertex is" : "vertices are",
                      ft->vertex_count == 1 ? "it" : "them", expf(ft->change),
                      prev != MK_NONE && next != MK_NONE ? "both neighbouring frames"
                                                         : "its neighbour and the other frames");
    }
    mk_vorder_report_destroy(vr);
    mk_free(b->allocator, next, frames * sizeof *next);
    mk_free(b->allocator, pos, frames * sizeof *pos);
    mk_free(b->allocator, anim, (files->animation_count + 1) * sizeof *anim);
}

static void check_uvs(const mk_unit_build *b, mk_report *rep)
{
    const mk_obj *ref = b->objs[0];
    uint32_t corners = 3 * ref->triangle_count;
    for (uint32_t f = 1; f < b->files->frame_count; f++) {
        const mk_obj *o = b->objs[f];
        const uint32_t *map = b->corner_map[f];
        for (uint32_t c = 0; c < corners; c++) {
            uint32_t d = map ? map[c] : c;
            const float *ru = ref->texcoords + 2 * (size_t)ref->corner_texcoord[c];
            const float *fu = o->texcoords + 2 * (size_t)o->corner_texcoord[d];
            if (fabsf(ru[0] - fu[0]) > UV_TOLERANCE || fabsf(ru[1] - fu[1]) > UV_TOLERANCE) {
                mk_report_add(rep, MK_SEVERITY_WARNING, MK_CHECK_UV_CHANGE, b->paths[f],
                              (int)o->triangle_line[d / 3], b->paths[0],
                              (int)ref->triangle_line[c / 3],
                              "texture coordinates change between frames (first at v %u: "
                              "(%g %g) here, (%g %g) in the first frame); the first frame's "
                              "are used",
                              ref->corner_position[c] + 1, fu[0], fu[1], ru[0], ru[1]);
                break;
            }
        }
    }
}

static float distance3(const float *a, const float *b)
{
    float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

static bool differs_in_scale(float d, float other)
{
    return d > JUMP_SCALE * other || d * JUMP_SCALE < other;
}

/* A frame jumps when it is away from every neighbour in its animation and
 * from the unit's typical frame (median centre, median size): the one moved
 * frame, not the neighbours that are merely next to it. */
static void check_jumps(const mk_unit_build *b, const frame_shape *shapes, const float *middle,
                        float size, mk_report *rep)
{
    for (uint32_t a = 0; a < b->files->animation_count; a++) {
        const mk_unit_animation *an = &b->files->animations[a];
        for (uint32_t k = 0; an->frame_count > 1 && k < an->frame_count; k++) {
            uint32_t f = an->first_frame + k, nb[2], nn = 0;
            if (k > 0)
                nb[nn++] = f - 1;
            if (k + 1 < an->frame_count)
                nb[nn++] = f + 1;
            const frame_shape *s = &shapes[f];
            float dist = distance3(s->centroid, middle), nearest = dist;
            bool scaled = differs_in_scale(s->diagonal, size);
            for (uint32_t i = 0; i < nn; i++) {
                float d = distance3(s->centroid, shapes[nb[i]].centroid);
                nearest = d < nearest ? d : nearest;
                scaled &= differs_in_scale(s->diagonal, shapes[nb[i]].diagonal);
            }
            /* a frame at another scale also has its centre moved: one warning */
            if (nearest > JUMP_CENTROID * size && !scaled)
                mk_report_add(rep, MK_SEVERITY_WARNING, MK_CHECK_JUMP, b->paths[f], 0, NULL, 0,
                              "the frame's centre is %.3g away from its neighbours' and the "
                              "unit's (%.0f%% of the unit's size): exported in another space?",
                              dist, 100.0f * dist / size);
            if (scaled)
                mk_report_add(rep, MK_SEVERITY_WARNING, MK_CHECK_JUMP, b->paths[f], 0, NULL, 0,
                              "the frame's bounding box is %s than its neighbours' and the "
                              "unit's (diagonal %.3g, typical %.3g): exported at another scale?",
                              s->diagonal > size ? "over twice as large" : "under half as large",
                              s->diagonal, size);
        }
    }
}

static int compare_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

void mk_unit_check_heuristics(const mk_unit_build *b, const mk_unit *u, mk_report *rep)
{
    uint32_t frames = b->files->frame_count;
    frame_shape *shapes = mk_alloc(b->allocator, frames * sizeof *shapes);
    float *diagonals = mk_alloc(b->allocator, frames * sizeof *diagonals);
    if (shapes && diagonals) {
        for (uint32_t f = 0; f < frames; f++) {
            shapes[f] = shape_of(b->objs[f]);
            diagonals[f] = shapes[f].diagonal;
        }
        /* the median, so one frame at the wrong scale does not set the yardstick */
        qsort(diagonals, frames, sizeof *diagonals, compare_float);
        float size = diagonals[frames / 2];
        /* the unit's middle: each coordinate's median centre */
        float middle[3];
        for (int c = 0; c < 3; c++) {
            for (uint32_t f = 0; f < frames; f++)
                diagonals[f] = shapes[f].centroid[c];
            qsort(diagonals, frames, sizeof *diagonals, compare_float);
            middle[c] = diagonals[frames / 2];
        }
        if (size > 0) {
            check_scrambles(b, u->clips, rep);
            check_jumps(b, shapes, middle, size, rep);
        }
        if (u->frames->texcoords)
            check_uvs(b, rep);
    }
    mk_free(b->allocator, shapes, frames * sizeof *shapes);
    mk_free(b->allocator, diagonals, frames * sizeof *diagonals);
}
