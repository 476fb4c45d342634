/* Scrambled-frame detection: per-vertex edge-length change against both
 * neighbouring frames (the rule and its limits are in morphkit/repair.h).
 * The change between two frames is symmetric, so each consecutive pair is
 * measured once and reused as the next frame's "previous" comparator. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "vorder_internal.h"

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

bool mk_vorder_topo_build(mk_vorder_topo *t, uint32_t vertex_count, const uint32_t *tris,
                          uint32_t triangle_count, const mk_allocator *al)
{
    memset(t, 0, sizeof *t);
    t->allocator = al;
    t->vertex_count = vertex_count;
    size_t n = 3 * (size_t)triangle_count;
    uint64_t *e = mk_alloc(al, (n ? n : 1) * sizeof *e);
    if (!e)
        return false;
    size_t m = 0;
    for (size_t c = 0; c < n; c++) {
        uint64_t p = tris[c], q = tris[c % 3 == 2 ? c - 2 : c + 1];
        if (p != q) /* a degenerate corner pair is no edge */
            e[m++] = p < q ? p << 32 | q : q << 32 | p;
    }
    qsort(e, m, sizeof *e, compare_u64);
    size_t u = 0;
    for (size_t i = 0; i < m; i++)
        if (u == 0 || e[i] != e[u - 1])
            e[u++] = e[i];
    t->edge_count = (uint32_t)u;
    t->edges = mk_alloc(al, (2 * u + 1) * sizeof *t->edges);
    t->vert_start = mk_alloc(al, ((size_t)vertex_count + 1) * sizeof *t->vert_start);
    t->vert_edges = mk_alloc(al, (2 * u + 1) * sizeof *t->vert_edges);
    if (!t->edges || !t->vert_start || !t->vert_edges) {
        mk_free(al, e, (n ? n : 1) * sizeof *e);
        mk_vorder_topo_free(t);
        return false;
    }
    memset(t->vert_start, 0, ((size_t)vertex_count + 1) * sizeof *t->vert_start);
    for (size_t i = 0; i < u; i++) {
        t->edges[2 * i] = (uint32_t)(e[i] >> 32);
        t->edges[2 * i + 1] = (uint32_t)(e[i] & 0xffffffffu);
        t->vert_start[t->edges[2 * i] + 1]++;
        t->vert_start[t->edges[2 * i + 1] + 1]++;
    }
    for (uint32_t v = 0; v < vertex_count; v++)
        t->vert_start[v + 1] += t->vert_start[v];
    /* fill each vertex's list from its end: afterwards start[v + 1] holds
       where v's list begins, so shift the starts down by one */
    for (size_t i = u; i-- > 0;) {
        uint32_t a = t->edges[2 * i], b = t->edges[2 * i + 1];
        t->vert_edges[--t->vert_start[a + 1]] = (uint32_t)i;
        t->vert_edges[--t->vert_start[b + 1]] = (uint32_t)i;
    }
    for (uint32_t v = 0; v < vertex_count; v++)
        t->vert_start[v] = t->vert_start[v + 1];
    t->vert_start[vertex_count] = (uint32_t)(2 * u);
    mk_free(al, e, (n ? n : 1) * sizeof *e);
    return true;
}

void mk_vorder_topo_free(mk_vorder_topo *t)
{
    mk_free(t->allocator, t->edges, (2 * (size_t)t->edge_count + 1) * sizeof *t->edges);
    mk_free(t->allocator, t->vert_start, ((size_t)t->vertex_count + 1) * sizeof *t->vert_start);
    mk_free(t->allocator, t->vert_edges, (2 * (size_t)t->edge_count + 1) * sizeof *t->vert_edges);
    t->edges = t->vert_start = t->vert_edges = NULL;
}

void mk_vorder_edge_lengths(const mk_vorder_topo *t, const float *pos, float *len)
{
    for (uint32_t i = 0; i < t->edge_count; i++) {
        const float *p = pos + 3 * (size_t)t->edges[2 * i], *q = pos + 3 * (size_t)t->edges[2 * i + 1];
        float dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
        len[i] = sqrtf(dx * dx + dy * dy + dz * dz);
    }
}

float mk_vorder_select(float *v, uint32_t n, uint32_t k)
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
                float x = v[i];
                v[i] = v[j];
                v[j] = x;
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

float mk_vorder_spread(const float *pos, uint32_t n)
{
    double c[3] = {0, 0, 0}, s = 0;
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            c[k] += pos[3 * (size_t)i + k];
    for (int k = 0; k < 3; k++)
        c[k] /= n ? n : 1;
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) {
            double d = pos[3 * (size_t)i + k] - c[k];
            s += d * d;
        }
    return (float)sqrt(s / (n ? n : 1));
}

void mk_vorder_vertex_change(const mk_vorder_topo *t, const float *lf, const float *lg,
                             float scale, float eps, float *scratch, float *out)
{
    uint32_t n = t->edge_count;
    float *ratio = scratch;
    for (uint32_t i = 0; i < n; i++)
        ratio[i] = logf((lf[i] + eps) / (lg[i] + eps));
    /* The frame's overall scale change, so a scaled frame is not a scramble.
       Two estimates: the median edge ratio (breaks once most vertices are
       scrambled) and the ratio of the frames' spreads (blind to the order,
       but moved by bending); a real scale change shows in both, so the
       smaller one is taken. */
    float *tmp = scratch + n;
    memcpy(tmp, ratio, n * sizeof *tmp);
    float mid = n ? mk_vorder_select(tmp, n, (n - 1) / 2) : 0.0f;
    if (fabsf(scale) < fabsf(mid))
        mid = scale;
    for (uint32_t v = 0; v < t->vertex_count; v++) {
        uint32_t s = t->vert_start[v], e = t->vert_start[v + 1];
        if (s == e) {
            out[v] = 0.0f;
            continue;
        }
        for (uint32_t k = s; k < e; k++)
            tmp[k - s] = fabsf(ratio[t->vert_edges[k]] - mid);
        /* the lower median: a vertex with two edges needs both broken */
        out[v] = mk_vorder_select(tmp, e - s, (e - s - 1) / 2);
    }
}

/* The previous and next frame of f's animation, ignoring next_frames. */
static void animation_neighbours(const mk_vorder_frames *fr, uint32_t f, uint32_t *prev,
                                 uint32_t *next)
{
    uint32_t first = 0, count = fr->frame_count;
    for (uint32_t a = 0; a < fr->animation_count; a++) {
        if (f < first + fr->animation_frames[a]) {
            count = fr->animation_frames[a];
            break;
        }
        first += fr->animation_frames[a];
    }
    *prev = f > first ? f - 1 : MK_NONE;
    *next = f + 1 < first + count ? f + 1 : MK_NONE;
}

void mk_vorder_neighbours(const mk_vorder_frames *fr, uint32_t f, uint32_t *prev, uint32_t *next)
{
    animation_neighbours(fr, f, prev, next);
    const uint32_t *nx = fr->next_frames;
    if (!nx)
        return;
    *next = nx[f] != f ? nx[f] : MK_NONE;
    if (*prev != MK_NONE && nx[*prev] == f)
        return;
    /* the first frame blending into f (a loop's last frame, a once clip's) */
    *prev = MK_NONE;
    for (uint32_t g = 0; g < fr->frame_count && *prev == MK_NONE; g++)
        if (g != f && nx[g] == f)
            *prev = g;
}

/* next[] of a frame no clip has reached yet (never a frame index: checked) */
#define UNSET (MK_NONE - 1u)

mk_status mk_vorder_next_frames(const mk_clip_set *clips, uint32_t frame_count, uint32_t *next,
                                mk_error *err)
{
    if (!clips || (frame_count && !next))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "vorder: NULL clips or array");
    for (uint32_t c = 0; c < clips->clip_count; c++) { /* checked before anything is set */
        const mk_clip *cl = &clips->clips[c];
        for (uint32_t k = 0; k < cl->frame_count; k++)
            if (cl->frames[k] >= frame_count || cl->frames[k] >= UNSET)
                return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                    "vorder: clip '%s' uses frame %u of %u", cl->name,
                                    cl->frames[k], frame_count);
    }
    for (uint32_t f = 0; f < frame_count; f++)
        next[f] = UNSET;
    for (uint32_t c = 0; c < clips->clip_count; c++) {
        const mk_clip *cl = &clips->clips[c];
        for (uint32_t k = 0; k < cl->frame_count; k++) {
            uint32_t f = cl->frames[k], to = MK_NONE;
            if (next[f] != UNSET) /* an earlier clip decided */
                continue;
            if (k + 1 < cl->frame_count)
                to = cl->frames[k + 1];
            else if (!cl->once)
                to = cl->frames[cl->loop_frame < cl->frame_count ? cl->loop_frame : 0];
            else if (cl->next_clip < clips->clip_count)
                to = clips->clips[cl->next_clip].frames[0];
            next[f] = to;
        }
    }
    for (uint32_t f = 0; f < frame_count; f++)
        next[f] = next[f] == UNSET ? MK_NONE : next[f];
    return MK_OK;
}

mk_status mk_vorder_frames_check(const mk_vorder_frames *fr, mk_error *err)
{
    if (!fr || !fr->positions || (fr->triangle_count && !fr->triangles) ||
        (fr->animation_count && !fr->animation_frames))
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "vorder: NULL frames or arrays");
    for (uint32_t f = 0; f < fr->frame_count; f++)
        if (!fr->positions[f])
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "vorder: frame %u has no positions", f);
    for (size_t c = 0; c < 3 * (size_t)fr->triangle_count; c++)
        if (fr->triangles[c] >= fr->vertex_count)
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "vorder: triangle %zu uses vertex %u of %u", c / 3,
                                fr->triangles[c], fr->vertex_count);
    for (uint32_t f = 0; fr->next_frames && f < fr->frame_count; f++)
        if (fr->next_frames[f] != MK_NONE && fr->next_frames[f] >= fr->frame_count)
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "vorder: frame %u blends into frame %u of %u", f,
                                fr->next_frames[f], fr->frame_count);
    uint64_t sum = 0;
    for (uint32_t a = 0; a < fr->animation_count; a++)
        sum += fr->animation_frames[a];
    if (fr->animation_count && sum != fr->frame_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "vorder: animations hold %llu frames, not %u",
                            (unsigned long long)sum, fr->frame_count);
    return MK_OK;
}

/* ---- detection ------------------------------------------------------------ */

typedef struct detect_state {
    const mk_vorder_frames *fr;
    mk_vorder_topo topo;
    float *lengths;   /* frame_count x edge_count */
    float *consensus; /* edge_count */
    float *scratch;   /* 2 x edge_count, at least vertex degree */
    float *pair;      /* vertex_count: change(f, f + 1), reused by f + 1 */
    float *work;      /* vertex_count */
    float *best;      /* vertex_count: min over comparators */
    float *spread;    /* frame_count: RMS distance from the centroid */
    float consensus_spread;
    float eps;
    size_t scratch_n;
} detect_state;

static void free_state(detect_state *s)
{
    const mk_allocator *al = s->topo.allocator;
    size_t e = s->topo.edge_count, v = s->fr->vertex_count;
    mk_free(al, s->lengths, (e * s->fr->frame_count + 1) * sizeof(float));
    mk_free(al, s->consensus, (e + 1) * sizeof(float));
    mk_free(al, s->scratch, s->scratch_n * sizeof(float));
    mk_free(al, s->pair, (v + 1) * sizeof(float));
    mk_free(al, s->work, (v + 1) * sizeof(float));
    mk_free(al, s->best, (v + 1) * sizeof(float));
    mk_free(al, s->spread, (s->fr->frame_count + 1) * sizeof(float));
    mk_vorder_topo_free(&s->topo);
}

static bool init_state(detect_state *s, const mk_vorder_frames *fr, const mk_allocator *al)
{
    memset(s, 0, sizeof *s);
    s->fr = fr;
    if (!mk_vorder_topo_build(&s->topo, fr->vertex_count, fr->triangles, fr->triangle_count, al))
        return false;
    size_t e = s->topo.edge_count, v = fr->vertex_count;
    uint32_t max_degree = 0;
    for (uint32_t i = 0; i < fr->vertex_count; i++) {
        uint32_t d = s->topo.vert_start[i + 1] - s->topo.vert_start[i];
        max_degree = d > max_degree ? d : max_degree;
    }
    s->scratch_n = 2 * e + max_degree + fr->frame_count + 1;
    s->lengths = mk_alloc(al, (e * fr->frame_count + 1) * sizeof(float));
    s->consensus = mk_alloc(al, (e + 1) * sizeof(float));
    s->scratch = mk_alloc(al, s->scratch_n * sizeof(float));
    s->pair = mk_alloc(al, (v + 1) * sizeof(float));
    s->work = mk_alloc(al, (v + 1) * sizeof(float));
    s->best = mk_alloc(al, (v + 1) * sizeof(float));
    s->spread = mk_alloc(al, (fr->frame_count + 1) * sizeof(float));
    if (!s->lengths || !s->consensus || !s->scratch || !s->pair || !s->work || !s->best ||
        !s->spread)
        return false;
    for (uint32_t f = 0; f < fr->frame_count; f++)
        s->spread[f] = mk_vorder_spread(fr->positions[f], fr->vertex_count);
    memcpy(s->scratch, s->spread, fr->frame_count * sizeof(float));
    s->consensus_spread = fr->frame_count >= 3
                              ? mk_vorder_select(s->scratch, fr->frame_count, (fr->frame_count - 1) / 2)
                              : s->spread[0];
    for (uint32_t f = 0; f < fr->frame_count; f++)
        mk_vorder_edge_lengths(&s->topo, fr->positions[f], s->lengths + f * e);
    /* each edge's median length over the frames: a scramble in a minority
       of frames does not move it */
    if (fr->frame_count >= 3) {
        for (size_t i = 0; i < e; i++) {
            for (uint32_t f = 0; f < fr->frame_count; f++)
                s->scratch[f] = s->lengths[f * e + i];
            s->consensus[i] = mk_vorder_select(s->scratch, fr->frame_count, (fr->frame_count - 1) / 2);
        }
    } else if (e) {
        memcpy(s->consensus, s->lengths, e * sizeof(float));
    }
    if (e) {
        memcpy(s->scratch, s->consensus, e * sizeof(float));
        s->eps = MK_VORDER_EPS_SHARE * mk_vorder_select(s->scratch, (uint32_t)e, (uint32_t)(e - 1) / 2);
    }
    if (!(s->eps > 0.0f))
        s->eps = 1e-12f;
    return true;
}

static const float *frame_lengths(const detect_state *s, uint32_t f)
{
    return f == MK_NONE ? s->consensus : s->lengths + (size_t)f * s->topo.edge_count;
}

/* ln of frame f's spread over g's (MK_NONE: the consensus). */
static float scale_of(const detect_state *s, uint32_t f, uint32_t g)
{
    float a = s->spread[f], b = g == MK_NONE ? s->consensus_spread : s->spread[g];
    return a > 0 && b > 0 ? logf(a / b) : 0.0f;
}

static void change_against(detect_state *s, uint32_t f, uint32_t g, float *out)
{
    mk_vorder_vertex_change(&s->topo, frame_lengths(s, f), frame_lengths(s, g), scale_of(s, f, g),
                            s->eps, s->scratch, out);
}

static void min_into(float *best, const float *x, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        best[i] = x[i] < best[i] ? x[i] : best[i];
}

/* Fills s->best with frame f's per-vertex change against its comparators.
 * s->pair holds change(f - 1, f) when have_pair; on return it holds
 * change(f, f + 1) when f blends into f + 1 (returns whether it does). */
static bool frame_change(detect_state *s, uint32_t f, bool have_pair)
{
    const mk_vorder_frames *fr = s->fr;
    uint32_t prev, next, in_prev, in_next, n = fr->vertex_count;
    mk_vorder_neighbours(fr, f, &prev, &next);
    animation_neighbours(fr, f, &in_prev, &in_next);
    for (uint32_t i = 0; i < n; i++)
        s->best[i] = INFINITY;
    if (prev != MK_NONE && have_pair && prev + 1 == f)
        min_into(s->best, s->pair, n);
    else if (prev != MK_NONE) {
        change_against(s, f, prev, s->work);
        min_into(s->best, s->work, n);
    }
    if (next != MK_NONE) {
        change_against(s, f, next, s->pair);
        min_into(s->best, s->pair, n);
    }
    if (in_prev == MK_NONE || in_next == MK_NONE) {
        /* at an animation's end the consensus stands in for the missing
           neighbour (in a unit of under 3 frames it is frame 0, which is
           right by definition); a loop's neighbour is added, not instead:
           a clip that was never meant to loop jumps there */
        change_against(s, f, MK_NONE, s->work);
        min_into(s->best, s->work, n);
    }
    return next == f + 1;
}

mk_status mk_vorder_detect(const mk_vorder_frames *fr, const mk_allocator *al,
                           mk_vorder_report **out, mk_error *err)
{
    if (!out)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0, "vorder: NULL out");
    *out = NULL;
    mk_status st = mk_vorder_frames_check(fr, err);
    if (st != MK_OK)
        return st;
    mk_vorder_report *r = mk_alloc(al, sizeof *r);
    if (!r)
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    memset(r, 0, sizeof *r);
    r->allocator = mk_allocator_copy(al);
    if (fr->frame_count < 2 || fr->triangle_count == 0) {
        *out = r;
        return MK_OK;
    }
    detect_state s;
    bool ok = init_state(&s, fr, al);
    /* sized for every frame while detecting, then cut to the faults found */
    mk_vorder_fault *all = ok ? mk_alloc(al, fr->frame_count * sizeof *all) : NULL;
    ok = ok && all;
    if (ok)
        r->faults = all;
    bool have_pair = false;
    for (uint32_t f = 0; ok && f < fr->frame_count; f++) {
        have_pair = frame_change(&s, f, have_pair);
        uint32_t count = 0;
        float worst = 0.0f;
        for (uint32_t v = 0; v < fr->vertex_count; v++)
            if (s.best[v] > MK_VORDER_CHANGE_LIMIT) {
                count++;
                worst = s.best[v] > worst ? s.best[v] : worst;
            }
        if (!count)
            continue;
        mk_vorder_fault *ft = &r->faults[r->fault_count];
        ft->vertices = mk_alloc(al, count * sizeof *ft->vertices);
        if (!ft->vertices) {
            ok = false;
            break;
        }
        ft->frame = f;
        ft->vertex_count = 0;
        ft->change = worst;
        for (uint32_t v = 0; v < fr->vertex_count; v++)
            if (s.best[v] > MK_VORDER_CHANGE_LIMIT)
                ft->vertices[ft->vertex_count++] = v;
        r->fault_count++;
    }
    free_state(&s);
    r->faults = NULL;
    if (ok && r->fault_count) {
        r->faults = mk_alloc(al, r->fault_count * sizeof *r->faults);
        if (r->faults)
            memcpy(r->faults, all, r->fault_count * sizeof *r->faults);
        else
            for (uint32_t i = 0; i < r->fault_count; i++)
                mk_free(al, all[i].vertices, all[i].vertex_count * sizeof(uint32_t));
        ok = r->faults != NULL;
    } else if (!ok) {
        for (uint32_t i = 0; i < r->fault_count; i++)
            mk_free(al, all[i].vertices, all[i].vertex_count * sizeof(uint32_t));
    }
    mk_free(al, all, (all ? fr->frame_count : 0) * sizeof *all);
    if (!ok) {
        r->fault_count = 0;
        mk_vorder_report_destroy(r);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    }
    *out = r;
    return MK_OK;
}

bool mk_vorder_frame_change(const mk_vorder_frames *fr, const float *positions, uint32_t f,
                            const mk_allocator *al, float *change)
{
    const float **p = mk_alloc(al, fr->frame_count * sizeof *p);
    if (!p)
        return false;
    memcpy(p, fr->positions, fr->frame_count * sizeof *p);
    p[f] = positions;
    mk_vorder_frames copy = *fr;
    copy.positions = p;
    detect_state s;
    bool ok = init_state(&s, &copy, al);
    if (ok) {
        frame_change(&s, f, false);
        memcpy(change, s.best, fr->vertex_count * sizeof *change);
    }
    free_state(&s);
    mk_free(al, p, fr->frame_count * sizeof *p);
    return ok;
}

void mk_vorder_report_destroy(mk_vorder_report *r)
{
    if (!r)
        return;
    const mk_allocator *al = &r->allocator;
    for (uint32_t i = 0; i < r->fault_count; i++)
        mk_free(al, r->faults[i].vertices, r->faults[i].vertex_count * sizeof(uint32_t));
    mk_free(al, r->faults, r->fault_count * sizeof *r->faults);
    mk_free(al, r, sizeof *r);
}
