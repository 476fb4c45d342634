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

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Names the vertices at the centre of the flagged edges: those on at least
 * half as many flagged edges as the most-involved one (for a swap of two
 * vertices, exactly those two), most-involved first. */
static void name_vertices(uint32_t *ends, uint32_t n, char *list, size_t size)
{
    qsort(ends, n, sizeof *ends, compare_u32);
    uint32_t best = 0;
    for (uint32_t i = 0, run; i < n; i += run) {
        for (run = 1; i + run < n && ends[i + run] == ends[i]; run++) {
        }
        best = run > best ? run : best;
    }
    size_t len = 0;
    uint32_t named = 0;
    for (uint32_t want = best; want > 0 && want * 2 >= best; want--)
        for (uint32_t i = 0, run; i < n; i += run) {
            for (run = 1; i + run < n && ends[i + run] == ends[i]; run++) {
            }
            if (run != want || len >= size)
                continue;
            if (named++ == MAX_NAMED_VERTICES) {
                len += (size_t)snprintf(list + len, size - len, ", ...");
                return;
            }
            len += (size_t)snprintf(list + len, size - len, "%s%u", len ? ", " : "", ends[i] + 1);
        }
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
    uint32_t flagged = 0;
    float worst = 0;
    for (uint32_t i = 0; i < n; i++)
        if (change[i] > limit) {
            flagged++;
            worst = change[i] > worst ? change[i] : worst;
        }
    if (!flagged)
        return;
    uint32_t *ends = mk_alloc(b->allocator, 2 * (size_t)flagged * sizeof *ends);
    char list[160] = "?";
    if (ends) {
        uint32_t k = 0;
        for (uint32_t i = 0; i < n; i++)
            if (change[i] > limit) {
                ends[k++] = (uint32_t)(edges[i] >> 32);
                ends[k++] = (uint32_t)(edges[i] & 0xffffffffu);
            }
        name_vertices(ends, k, list, sizeof list);
        mk_free(b->allocator, ends, 2 * (size_t)flagged * sizeof *ends);
    }
    mk_report_add(rep, MK_SEVERITY_WARNING, MK_CHECK_SCRAMBLE, b->paths[fb], 0, b->paths[fa], 0,
                  "likely vertex-order scramble around v %s: %u edge%s change length by up to "
                  "%.0f%% of the unit's size from the previous frame, while 90%% of edges change "
                  "by %.2f%% or less",
                  list, flagged, flagged == 1 ? "" : "s", worst * 100.0f, p90 * 100.0f);
}

static void check_scrambles(const mk_unit_build *b, float size, mk_report *rep)
{
    uint32_t n = 0;
    uint64_t *edges = unique_edges(b, &n);
    float *change = edges ? mk_alloc(b->allocator, 2 * (size_t)n * sizeof *change) : NULL;
    if (change) {
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
        if (size > 0) {
            check_scrambles(b, size, rep);
            check_jumps(b, shapes, size, rep);
        }
        if (u->frames->texcoords)
            check_uvs(b, rep);
    }
    mk_free(b->allocator, shapes, frames * sizeof *shapes);
    mk_free(b->allocator, diagonals, frames * sizeof *diagonals);
}
