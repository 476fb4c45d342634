/* Warning heuristics for units: likely vertex-order scrambles, changing UVs,
 * frames that jump in position or scale. The rules and thresholds are
 * stated in include/morphkit/unit.h; everything here works on the OBJ's own
 * `v` numbering so messages can name the vertices an artist sees. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "unit_internal.h"

#define SCRAMBLE_MIN_CHANGE 0.10f /* of the unit's size */
#define SCRAMBLE_TYPICAL_FACTOR 10.0f
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

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Unique undirected edges (lo << 32 | hi) of the reference triangles. */
static uint64_t *unique_edges(const mk_unit_build *b, uint32_t *count)
{
    const mk_obj *ref = b->objs[0];
    size_t n = 3 * (size_t)ref->triangle_count;
    uint64_t *e = mk_alloc(b->allocator, n * sizeof *e);
    if (!e)
        return NULL;
    for (size_t t = 0; t < ref->triangle_count; t++)
        for (int i = 0; i < 3; i++) {
            uint64_t p = ref->corner_position[3 * t + i], q = ref->corner_position[3 * t + (i + 1) % 3];
            e[3 * t + i] = p < q ? p << 32 | q : q << 32 | p;
        }
    qsort(e, n, sizeof *e, compare_u64);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || e[i] != e[u - 1])
            e[u++] = e[i];
    *count = (uint32_t)u;
    return e;
}

static float edge_length(const float *pos, uint64_t edge)
{
    const float *p = pos + 3 * (edge >> 32), *q = pos + 3 * (edge & 0xffffffffu);
    float dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

/* k-th smallest of v[0..n) (v is reordered): Hoare-style quickselect. */
static float select_kth(float *v, uint32_t n, uint32_t k)
{
    uint32_t lo = 0, hi = n - 1;
    while (lo < hi) {
        float pivot = v[lo + (hi - lo) / 2];
        uint32_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                float t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return v[k];
    }
    return v[k];
}

static void check_scramble_pair(const mk_unit_build *b, uint32_t fa, uint32_t fb,
                                const uint64_t *edges, uint32_t n, float size, float *change,
                                float *scratch, mk_report *rep)
{
    const float *pa = b->objs[fa]->positions, *pb = b->objs[fb]->positions;
    for (uint32_t i = 0; i < n; i++)
        change[i] = fabsf(edge_length(pb, edges[i]) - edge_length(pa, edges[i])) / size;
    memcpy(scratch, change, n * sizeof *scratch);
    float p90 = select_kth(scratch, n, (uint32_t)((n - 1) * 0.9));
    float limit = SCRAMBLE_TYPICAL_FACTOR * p90;
    if (limit < SCRAMBLE_MIN_CHANGE)
        limit = SCRAMBLE_MIN_CHANGE;
    uint32_t flagged = 0, named = 0;
    uint32_t verts[MAX_NAMED_VERTICES];
    float worst = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!(change[i] > limit))
            continue;
        flagged++;
        worst = change[i] > worst ? change[i] : worst;
        uint32_t ends[2] = {(uint32_t)(edges[i] >> 32), (uint32_t)(edges[i] & 0xffffffffu)};
        for (int k = 0; k < 2; k++) {
            bool seen = false;
            for (uint32_t j = 0; j < named; j++)
                seen |= verts[j] == ends[k];
            if (!seen && named < MAX_NAMED_VERTICES)
                verts[named++] = ends[k];
        }
    }
    if (!flagged)
        return;
    char list[128] = "";
    size_t len = 0;
    for (uint32_t j = 0; j < named && len < sizeof list; j++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%u", j ? ", " : "", verts[j] + 1);
    mk_report_add(rep, MK_SEVERITY_WARNING, MK_CHECK_SCRAMBLE, b->paths[fb], 0, b->paths[fa], 0,
                  "likely vertex-order scramble: %u edge%s change length by up to %.0f%% of the "
                  "unit's size from the previous frame, while 90%% of edges change by %.2f%% or "
                  "less; vertices involved: v %s%s",
                  flagged, flagged == 1 ? "" : "s", worst * 100.0f, p90 * 100.0f, list,
                  flagged * 2 > named && named == MAX_NAMED_VERTICES ? ", ..." : "");
}

static void check_scrambles(const mk_unit_build *b, float size, mk_report *rep)
{
    uint32_t n = 0;
    uint64_t *edges = unique_edges(b, &n);
    float *change = edges ? mk_alloc(b->allocator, 2 * (size_t)n * sizeof *change) : NULL;
    if (change && size > 0) {
        for (uint32_t a = 0; a < b->files->animation_count; a++) {
            const mk_unit_animation *an = &b->files->animations[a];
            for (uint32_t k = 0; k + 1 < an->frame_count; k++)
                check_scramble_pair(b, an->first_frame + k, an->first_frame + k + 1, edges, n,
                                    size, change, change + n, rep);
        }
    }
    mk_free(b->allocator, change, 2 * (size_t)n * sizeof(float));
    mk_free(b->allocator, edges, 3 * (size_t)b->objs[0]->triangle_count * sizeof *edges);
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

static void check_jumps(const mk_unit_build *b, const frame_shape *shapes, float size,
                        mk_report *rep)
{
    for (uint32_t a = 0; a < b->files->animation_count; a++) {
        const mk_unit_animation *an = &b->files->animations[a];
        for (uint32_t k = 0; an->frame_count > 1 && k < an->frame_count; k++) {
            uint32_t f = an->first_frame + k, nb[2], nn = 0;
            if (k > 0)
                nb[nn++] = f - 1;
            if (k + 1 < an->frame_count)
                nb[nn++] = f + 1;
            float mean[3] = {0, 0, 0};
            bool bigger = true, smaller = true;
            for (uint32_t i = 0; i < nn; i++) {
                const frame_shape *s = &shapes[nb[i]];
                for (int c = 0; c < 3; c++)
                    mean[c] += s->centroid[c] / (float)nn;
                bigger &= shapes[f].diagonal > JUMP_SCALE * s->diagonal;
                smaller &= shapes[f].diagonal * JUMP_SCALE < s->diagonal;
            }
            float dx = shapes[f].centroid[0] - mean[0], dy = shapes[f].centroid[1] - mean[1],
                  dz = shapes[f].centroid[2] - mean[2];
            float dist = sqrtf(dx * dx + dy * dy + dz * dz);
            if (dist > JUMP_CENTROID * size)
                mk_report_add(rep, MK_SEVERITY_WARNING, MK_CHECK_JUMP, b->paths[f], 0, NULL, 0,
                              "the frame's centre is %.3g away from its neighbours' (%.0f%% of "
                              "the unit's size): exported in another space?",
                              dist, 100.0f * dist / size);
            if (bigger || smaller)
                mk_report_add(rep, MK_SEVERITY_WARNING, MK_CHECK_JUMP, b->paths[f], 0, NULL, 0,
                              "the frame's bounding box is %s than its neighbours' (diagonal "
                              "%.3g): exported at another scale?",
                              bigger ? "over twice as large" : "under half as large",
                              shapes[f].diagonal);
        }
    }
}

void mk_unit_check_heuristics(const mk_unit_build *b, const mk_unit *u, mk_report *rep)
{
    uint32_t frames = b->files->frame_count;
    frame_shape *shapes = mk_alloc(b->allocator, frames * sizeof *shapes);
    if (!shapes)
        return;
    float size = 0;
    for (uint32_t f = 0; f < frames; f++) {
        shapes[f] = shape_of(b->objs[f]);
        size = shapes[f].diagonal > size ? shapes[f].diagonal : size;
    }
    check_scrambles(b, size, rep);
    if (u->frames->texcoords)
        check_uvs(b, rep);
    if (size > 0)
        check_jumps(b, shapes, size, rep);
    mk_free(b->allocator, shapes, frames * sizeof *shapes);
}
