/* Scrambled-frame repair: gives each suspicious vertex back the position
 * its neighbouring frames predict, or the rigid motion of its placed
 * neighbourhood (method and limits in morphkit/repair.h).
 * Candidates are the suspicious vertices' own positions in the frame, so a
 * correct repair is exact: the numbers are moved, never recomputed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "vorder_internal.h"

#define DISTINCT_RATIO 0.5f /* nearest under half as far as the second */
#define MAX_ROUNDS 8
#define MAX_BRUTE_FORCE 4000000.0 /* candidate distance tests for the last resort */
#define MAX_RING 2
/* Vertices changed by more than this also take part: a vertex moved by
   only a couple of edge lengths can stay under the detection limit while
   its position is needed elsewhere. */
#define MOVED_FIT_FLOOR 0.2f
#define MIN_CONFIDENCE 0.5f /* share of distinct matches below which nothing is repaired */
#define SUSPECT_LIMIT (0.5f * MK_VORDER_CHANGE_LIMIT)

typedef struct cand_grid {
    uint64_t *keys; /* sorted cell keys, one per candidate */
    uint32_t *ids;  /* candidate id for each key */
    uint32_t n;
    float cell;
} cand_grid;

typedef struct match {
    uint32_t suspect; /* index into the suspect list */
    uint32_t cand;    /* nearest free candidate, or MK_NONE */
    float d1, d2;
} match;

/* The grid cell of coordinate x. Far or degenerate values (a position of
 * 1e20 over a small cell, a zero cell) are clamped into int64 range with
 * room for the neighbour cells; they only share a cell, and distances are
 * still measured exactly. */
static int64_t cell_of(float x, float cell)
{
    const float c = floorf(x / cell), lim = 4.0e18f;
    return c >= lim ? (int64_t)lim : c <= -lim ? -(int64_t)lim : c == c ? (int64_t)c : 0;
}

static uint64_t cell_key(int64_t x, int64_t y, int64_t z)
{
    uint64_t h = (uint64_t)x * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)y * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
    h ^= (uint64_t)z * 0x165667B19E3779F9ull + (h << 6) + (h >> 2);
    return h;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Candidates sorted by cell key, so a cell's candidates are one run found
 * by binary search. */
static bool build_grid(cand_grid *g, const float *cand, uint32_t n, float cell, const mk_allocator *al)
{
    g->n = n;
    g->cell = cell;
    g->keys = mk_alloc(al, (n + 1) * sizeof *g->keys);
    g->ids = mk_alloc(al, (n + 1) * sizeof *g->ids);
    uint64_t *pairs = mk_alloc(al, 2 * ((size_t)n + 1) * sizeof *pairs);
    if (!g->keys || !g->ids || !pairs) {
        mk_free(al, pairs, 2 * ((size_t)n + 1) * sizeof *pairs);
        return false;
    }
    /* (key, id) records sorted by their first word */
    for (uint32_t i = 0; i < n; i++) {
        const float *p = cand + 3 * (size_t)i;
        pairs[2 * i] = cell_key(cell_of(p[0], cell), cell_of(p[1], cell), cell_of(p[2], cell));
        pairs[2 * i + 1] = i;
    }
    qsort(pairs, n, 2 * sizeof *pairs, compare_u64); /* compares the first word: the key */
    for (uint32_t i = 0; i < n; i++) {
        g->keys[i] = pairs[2 * i];
        g->ids[i] = (uint32_t)pairs[2 * i + 1];
    }
    mk_free(al, pairs, 2 * ((size_t)n + 1) * sizeof *pairs);
    return true;
}

static void free_grid(cand_grid *g, const mk_allocator *al)
{
    mk_free(al, g->keys, (g->n + 1) * sizeof *g->keys);
    mk_free(al, g->ids, (g->n + 1) * sizeof *g->ids);
}

static float dist2(const float *a, const float *b)
{
    float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return dx * dx + dy * dy + dz * dz;
}

static void consider(const float *cand, const uint8_t *taken, uint32_t c, const float *q, match *m)
{
    if (taken[c])
        return;
    float d = dist2(cand + 3 * (size_t)c, q);
    if (d == m->d1 && m->cand != MK_NONE &&
        !memcmp(cand + 3 * (size_t)c, cand + 3 * (size_t)m->cand, 3 * sizeof(float)))
        return; /* the same position twice: interchangeable, no rival */
    if (d < m->d1) {
        m->d2 = m->d1;
        m->d1 = d;
        m->cand = c;
    } else if (d < m->d2) {
        m->d2 = d;
    }
}

/* Nearest and second-nearest free candidates to q (squared distances). */
static void nearest_within(const cand_grid *g, const float *cand, const uint8_t *taken,
                           uint32_t free_count, bool final, int64_t max_ring, const float *q,
                           match *m)
{
    m->cand = MK_NONE;
    m->d1 = m->d2 = INFINITY;
    int64_t cx = cell_of(q[0], g->cell), cy = cell_of(q[1], g->cell), cz = cell_of(q[2], g->cell);
    for (int64_t r = 0; r <= max_ring; r++) {
        for (int64_t x = -r; x <= r; x++)
            for (int64_t y = -r; y <= r; y++)
                for (int64_t z = -r; z <= r; z++) {
                    if (x != -r && x != r && y != -r && y != r && z != -r && z != r)
                        continue; /* inside: searched in an earlier ring */
                    uint64_t key = cell_key(cx + x, cy + y, cz + z);
                    uint32_t lo = 0, hi = g->n;
                    while (lo < hi) {
                        uint32_t mid = lo + (hi - lo) / 2;
                        if (g->keys[mid] < key)
                            lo = mid + 1;
                        else
                            hi = mid;
                    }
                    for (uint32_t i = lo; i < g->n && g->keys[i] == key; i++)
                        consider(cand, taken, g->ids[i], q, m);
                }
        /* everything outside ring r is at least r cells away */
        float reach = (float)r * g->cell;
        if (m->d2 <= reach * reach || (free_count == 1 && m->d1 <= reach * reach))
            return;
    }
    if (max_ring < MAX_RING) {
        /* a short search: what lies beyond is at least that far, so the
           second distance is taken as no more than that (never more
           distinct than it may be) */
        float reach = (float)max_ring * g->cell;
        m->d2 = m->d2 < reach * reach ? m->d2 : reach * reach;
        if (m->d1 > m->d2)
            m->cand = MK_NONE, m->d1 = m->d2 = INFINITY;
        return;
    }
    /* far from every remaining candidate: look at all of them, when that
       is affordable, in the final round (otherwise the suspect stays
       unmatched and the repair fails its check) */
    if (final && (double)free_count * free_count <= MAX_BRUTE_FORCE)
        for (uint32_t c = 0; c < g->n; c++)
            consider(cand, taken, c, q, m);
}

static void nearest(const cand_grid *g, const float *cand, const uint8_t *taken, uint32_t free_count,
                    bool final, const float *q, match *m)
{
    nearest_within(g, cand, taken, free_count, final, MAX_RING, q, m);
}

static void tri_normal(const float *p, const uint32_t *T, double *n)
{
    const float *a = p + 3 * (size_t)T[0], *b = p + 3 * (size_t)T[1], *c = p + 3 * (size_t)T[2];
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    n[0] = u[1] * w[2] - u[2] * w[1];
    n[1] = u[2] * w[0] - u[0] * w[2];
    n[2] = u[0] * w[1] - u[1] * w[0];
}

/* Do facings m and n differ by more than the turn a check allows? */
static bool turned(const double *m, const double *n, double lim)
{
    double d = m[0] * n[0] + m[1] * n[1] + m[2] * n[2];
    double l = sqrt((m[0] * m[0] + m[1] * m[1] + m[2] * m[2]) * (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]));
    return l > 0 && d < lim * l;
}

/* Does triangle T face further than lim (the cosine) from its facing in q? */
static bool flips(const float *p, const float *q, const uint32_t *T, double lim)
{
    double m[3], n[3];
    tri_normal(p, T, m);
    tri_normal(q, T, n);
    return turned(m, n, lim);
}

static int compare_match(const void *a, const void *b)
{
    const match *x = a, *y = b;
    /* most distinct first: the ratio of nearest to second-nearest */
    float rx = x->d2 > 0 ? x->d1 / x->d2 : 1.0f, ry = y->d2 > 0 ? y->d1 / y->d2 : 1.0f;
    return rx < ry ? -1 : rx > ry;
}

static bool is_fault_frame(const mk_vorder_report *r, uint32_t f)
{
    for (uint32_t i = 0; r && i < r->fault_count; i++)
        if (r->faults[i].frame == f)
            return true;
    return false;
}

static void centroid(const float *p, size_t n, double *c)
{
    c[0] = c[1] = c[2] = 0;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            c[k] += p[3 * i + k];
    for (int k = 0; k < 3; k++)
        c[k] /= n ? (double)n : 1.0;
}

/* Moves and scales the prediction onto the frame's centroid and spread:
 * both are blind to the vertex order, so a scramble cannot mislead them. */
static void align(float *pred, const float *frame, uint32_t n)
{
    double cp[3], cf[3];
    centroid(pred, n, cp);
    centroid(frame, n, cf);
    float sp = mk_vorder_spread(pred, n), sf = mk_vorder_spread(frame, n);
    double k = sp > 0 && sf > 0 ? (double)sf / sp : 1.0;
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++)
            pred[3 * i + c] = (float)((pred[3 * i + c] - cp[c]) * k + cf[c]);
}

/* The nearest fault-free frame from frame f in play order, backward or
 * forward (across a loop where the frames say so), and how many steps away
 * it is; MK_NONE when there is none before coming back to f. */
static uint32_t nearest_real(const mk_vorder_frames *fr, const mk_vorder_report *r, uint32_t f,
                             bool forward, uint32_t *steps)
{
    uint32_t g = f, prev, next;
    for (uint32_t k = 1; k <= fr->frame_count; k++) {
        mk_vorder_neighbours(fr, g, &prev, &next);
        g = forward ? next : prev;
        if (g == MK_NONE || g == f)
            return MK_NONE;
        if (!is_fault_frame(r, g)) {
            *steps = k;
            return g;
        }
    }
    return MK_NONE;
}

/* The prediction of frame f from its nearest fault-free frames in play
 * order: the cubic through f-2, f-1, f+1 and f+2 where all four are
 * fault-free (smooth motion), else interpolated by steps, extrapolated at
 * an animation's end that neither loops nor switches, else frame 0 or the
 * first fault-free frame. A looping clip's last frame lies between its
 * second to last and its loop frame. used[] receives the real frames
 * nearest to f (before, after; MK_NONE where none). false when there is
 * none. */
static bool predict(const mk_vorder_frames *fr, const mk_vorder_report *r, uint32_t f, float *pred,
                    uint32_t *used)
{
    uint32_t db = 0, da = 0, d2 = 0;
    uint32_t before = nearest_real(fr, r, f, false, &db), after = nearest_real(fr, r, f, true, &da);
    size_t n = 3 * (size_t)fr->vertex_count;
    used[0] = before; /* the real frames nearest to f: the local checks' poses */
    used[1] = after;
    uint32_t b2 = before != MK_NONE && db == 1 ? nearest_real(fr, r, before, false, &d2) : MK_NONE;
    b2 = b2 != MK_NONE && d2 == 1 && b2 != f ? b2 : MK_NONE;
    uint32_t a2 = after != MK_NONE && da == 1 ? nearest_real(fr, r, after, true, &d2) : MK_NONE;
    a2 = a2 != MK_NONE && d2 == 1 && a2 != f ? a2 : MK_NONE;
    if (b2 != MK_NONE && a2 != MK_NONE) {
        /* the cubic through f-2, f-1, f+1, f+2, at f */
        const float *p0 = fr->positions[b2], *p1 = fr->positions[before], *p2 = fr->positions[after],
                    *p3 = fr->positions[a2];
        for (size_t i = 0; i < n; i++)
            pred[i] = (4.0f * (p1[i] + p2[i]) - (p0[i] + p3[i])) / 6.0f;
        return true;
    }
    if (before != MK_NONE && after != MK_NONE) {
        float t = (float)db / (float)(db + da);
        const float *a = fr->positions[before], *b = fr->positions[after];
        for (size_t i = 0; i < n; i++)
            pred[i] = a[i] + (b[i] - a[i]) * t;
        return true;
    }
    uint32_t one = before != MK_NONE ? before : after, d1 = before != MK_NONE ? db : da;
    if (one != MK_NONE) {
        /* at an animation's end: extrapolate from the two nearest frames */
        uint32_t two = nearest_real(fr, r, one, one == after, &d2);
        if (two != MK_NONE && two != f) {
            float t = (float)d1 / (float)d2;
            const float *a = fr->positions[one], *b = fr->positions[two];
            for (size_t i = 0; i < n; i++)
                pred[i] = a[i] + (a[i] - b[i]) * t;
            return true;
        }
    }
    for (uint32_t k = 0; one == MK_NONE && k < fr->frame_count; k++)
        if (k != f && !is_fault_frame(r, k))
            one = k;
    if (one == MK_NONE)
        return false;
    used[0] = one;
    memcpy(pred, fr->positions[one], n * sizeof *pred);
    return true;
}

typedef struct repair_state {
    const mk_vorder_frames *fr;
    const float *pos;     /* the faulty frame */
    const uint32_t *sus;  /* suspects */
    uint32_t ns;
    float *pred;          /* vertex_count float3 */
    const float *shape;   /* the pose local fits start from: pred, or a real frame */
    uint32_t before, after; /* the nearest fault-free frames around it, or MK_NONE */
    const float *real;    /* the one of them whose shape is closer to the frame's
                             (closer_real), or pred when there is none */
    float *cand;          /* ns float3: the suspects' positions */
    uint32_t *slot;       /* vertex -> suspect index, or MK_NONE */
    uint32_t *assigned;   /* per suspect: candidate, or MK_NONE */
    uint32_t *hint;       /* per suspect: the previous pass's candidate, or MK_NONE */
    uint8_t *taken;       /* per candidate */
    match *matches;       /* ns */
    mk_vorder_topo topo;
    cand_grid grid;
} repair_state;

#define CLOSER_SAMPLES 4096 /* vertices compared by closer_real */
#define NEAR_UNKNOWN (MK_NONE - 1) /* closer_real not asked yet */

/* Which of the real frames a and b (MK_NONE: none) has the shape nearer to
 * the faulty frame's, blind to the order: the mean distance from (up to
 * CLOSER_SAMPLES of) the frame's positions to the nearest position of each,
 * found in a grid of cell `cell` (further than a cell counts as a cell).
 * Local fits start from that frame: a held pose (a thrust then held)
 * is far nearer to the frame after it than to the wind-up before it.
 * a when b is MK_NONE or out of memory. */
static uint32_t closer_real(const mk_vorder_frames *fr, const float *pos, uint32_t a, uint32_t b,
                            float cell, const mk_allocator *al)
{
    if (a == MK_NONE || b == MK_NONE)
        return a != MK_NONE ? a : b;
    size_t n = fr->vertex_count, step = n > CLOSER_SAMPLES ? n / CLOSER_SAMPLES : 1;
    uint8_t *none = mk_alloc(al, n + 1);
    if (!none)
        return a;
    memset(none, 0, n + 1);
    double sum[2] = {0, 0};
    const uint32_t ab[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        cand_grid g;
        memset(&g, 0, sizeof g);
        if (!build_grid(&g, fr->positions[ab[i]], (uint32_t)n, cell, al)) {
            free_grid(&g, al);
            mk_free(al, none, n + 1);
            return a;
        }
        for (size_t v = 0; v < n; v += step) {
            match m;
            nearest_within(&g, fr->positions[ab[i]], none, (uint32_t)n, false, 1,
                           pos + 3 * v, &m);
            sum[i] += m.cand != MK_NONE && m.d1 < cell * cell ? sqrt(m.d1) : cell;
        }
        free_grid(&g, al);
    }
    mk_free(al, none, n + 1);
    return sum[1] < sum[0] ? b : a;
}

/* Where vertex v is now believed to be, or NULL when unknown. */
static const float *known(const repair_state *s, uint32_t v)
{
    uint32_t k = s->slot[v];
    if (k == MK_NONE)
        return s->pos + 3 * (size_t)v;
    uint32_t c = s->assigned[k] != MK_NONE ? s->assigned[k] : s->hint[k];
    return c == MK_NONE ? NULL : s->cand + 3 * (size_t)c;
}

/* The expected position of suspect k: its prediction, shifted by how its
 * known mesh neighbours differ from their own predictions. */
static void expect(const repair_state *s, uint32_t k, float *q)
{
    uint32_t v = s->sus[k];
    float corr[3] = {0, 0, 0};
    uint32_t used = 0;
    for (uint32_t i = s->topo.vert_start[v]; i < s->topo.vert_start[v + 1]; i++) {
        uint32_t e = s->topo.vert_edges[i];
        uint32_t w = s->topo.edges[2 * e] == v ? s->topo.edges[2 * e + 1] : s->topo.edges[2 * e];
        const float *p = known(s, w);
        if (!p)
            continue;
        for (int c = 0; c < 3; c++)
            corr[c] += p[c] - s->pred[3 * (size_t)w + c];
        used++;
    }
    for (int c = 0; c < 3; c++)
        q[c] = s->pred[3 * (size_t)v + c] + (used ? corr[c] / (float)used : 0.0f);
}

/* One round: every unassigned suspect finds its nearest free candidate;
 * matches are taken most distinct first (only distinct ones unless final).
 * Returns how many were assigned as distinct. */
static uint32_t round_assign(repair_state *s, bool final, uint32_t *free_count)
{
    uint32_t nm = 0, distinct = 0;
    for (uint32_t k = 0; k < s->ns; k++) {
        if (s->assigned[k] != MK_NONE)
            continue;
        float q[3];
        expect(s, k, q);
        match *m = &s->matches[nm++];
        nearest(&s->grid, s->cand, s->taken, *free_count, final, q, m);
        m->suspect = k;
    }
    qsort(s->matches, nm, sizeof *s->matches, compare_match);
    for (uint32_t i = 0; i < nm; i++) {
        match *m = &s->matches[i];
        bool is_distinct = m->d1 < DISTINCT_RATIO * DISTINCT_RATIO * m->d2;
        if (m->cand == MK_NONE || s->taken[m->cand] || (!final && !is_distinct))
            continue;
        s->assigned[m->suspect] = m->cand;
        s->taken[m->cand] = 1;
        (*free_count)--;
        distinct += is_distinct;
    }
    return distinct;
}

/* ---- growing from placed vertices ------------------------------------------
 * The last resort for fast motion: a suspect is expected where the rigid
 * motion of its placed neighbourhood takes it, matches are taken only when
 * distinct, and each one placed lets its neighbours be predicted the same
 * way. */

#define GROW_RATIO 0.5f  /* a local fit's match: nearest under half the second */
#define SHIFT_RATIO 0.3f /* a match from neighbours' mean shift only */
#define SEED_RATIO 0.2f  /* a match from the whole-frame prediction only */
#define CHECK_RATIO 0.5f /* the check: each position nearest, under half the second */
#define GROW_PASSES 5   /* at most */
#define MAX_FIT 64       /* neighbours used in one fit */

typedef struct grow_topo {
    uint32_t *start; /* vertex_count + 1 */
    uint32_t *tris;  /* 3 x triangle_count triangle ids */
} grow_topo;

/* Adds w's positions (prediction and frame) unless it is unknown or there. */
static void gather(const repair_state *s, uint32_t w, uint32_t *ids, float *p, float *q, uint32_t *m)
{
    const float *at = known(s, w);
    if (!at || *m == MAX_FIT)
        return;
    for (uint32_t i = 0; i < *m; i++)
        if (ids[i] == w)
            return;
    ids[*m] = w;
    memcpy(p + 3 * (size_t)*m, s->shape + 3 * (size_t)w, 3 * sizeof(float));
    memcpy(q + 3 * (size_t)*m, at, 3 * sizeof(float));
    (*m)++;
}

static uint32_t other_end(const mk_vorder_topo *t, uint32_t e, uint32_t v)
{
    return t->edges[2 * e] == v ? t->edges[2 * e + 1] : t->edges[2 * e];
}

static void cross_add(const float *a, const float *b, const double *c, double *n)
{
    double u[3] = {a[0] - c[0], a[1] - c[1], a[2] - c[2]}, w[3] = {b[0] - c[0], b[1] - c[1], b[2] - c[2]};
    n[0] += u[1] * w[2] - u[2] * w[1];
    n[1] += u[2] * w[0] - u[0] * w[2];
    n[2] += u[0] * w[1] - u[1] * w[0];
}

/* Vertex v's expectation from its placed neighbourhood (the 1-ring, with
 * the 2-ring when under 3 are placed). Returns 2 for a rigid fit, 1 for
 * the neighbours' mean shift, 0 for the bare prediction. */
static int expect_local(const repair_state *s, const grow_topo *g, uint32_t v, float *out)
{
    const mk_vorder_topo *t = &s->topo;
    uint32_t ids[MAX_FIT], m = 0;
    float p[3 * MAX_FIT], q[3 * MAX_FIT];
    for (uint32_t i = t->vert_start[v]; i < t->vert_start[v + 1]; i++)
        gather(s, other_end(t, t->vert_edges[i], v), ids, p, q, &m);
    uint32_t ring1 = m;
    if (m < 3)
        for (uint32_t i = t->vert_start[v]; i < t->vert_start[v + 1]; i++) {
            uint32_t w = other_end(t, t->vert_edges[i], v);
            for (uint32_t j = t->vert_start[w]; j < t->vert_start[w + 1]; j++) {
                uint32_t x = other_end(t, t->vert_edges[j], w);
                if (x != v)
                    gather(s, x, ids, p, q, &m);
            }
        }
    const float *pv = s->shape + 3 * (size_t)v;
    if (m >= 3) {
        double cp[3] = {0, 0, 0}, cq[3] = {0, 0, 0}, np[3] = {0, 0, 0}, nq[3] = {0, 0, 0};
        for (uint32_t i = 0; i < m; i++)
            for (int c = 0; c < 3; c++) {
                cp[c] += p[3 * i + c] / m;
                cq[c] += q[3 * i + c] / m;
            }
        /* the normal: v's fan triangles with both other corners placed,
           else the gathered points taken round in order (either way the
           same in both poses, so it turns with the patch) */
        uint32_t fans = 0;
        for (uint32_t i = g->start[v]; i < g->start[v + 1]; i++) {
            const uint32_t *T = s->fr->triangles + 3 * (size_t)g->tris[i];
            int c0 = T[0] == v ? 0 : T[1] == v ? 1 : 2;
            uint32_t a = T[(c0 + 1) % 3], b = T[(c0 + 2) % 3];
            const float *qa = known(s, a), *qb = known(s, b);
            if (!qa || !qb || a == v || b == v)
                continue;
            cross_add(s->shape + 3 * (size_t)a, s->shape + 3 * (size_t)b, cp, np);
            cross_add(qa, qb, cq, nq);
            fans++;
        }
        if (!fans)
            for (uint32_t i = 0; i < m; i++) {
                uint32_t j = (i + 1) % m;
                cross_add(p + 3 * i, p + 3 * j, cp, np);
                cross_add(q + 3 * i, q + 3 * j, cq, nq);
            }
        if (mk_vorder_local_fit(p, q, m, np, nq, pv, out))
            return 2;
    }
    if (ring1 || m) {
        float corr[3] = {0, 0, 0};
        uint32_t used = ring1 ? ring1 : m;
        for (uint32_t i = 0; i < used; i++)
            for (int c = 0; c < 3; c++)
                corr[c] += q[3 * i + c] - p[3 * i + c];
        for (int c = 0; c < 3; c++)
            out[c] = pv[c] + corr[c] / (float)used;
        return 1;
    }
    memcpy(out, pv, 3 * sizeof(float));
    return 0;
}

/* After v is placed, its 1-ring can be fitted again (and its 2-ring, where
 * that is what a fit would use: fewer than 3 placed in its own 1-ring). */
static void mark_around(const repair_state *s, uint32_t v, uint8_t *dirty)
{
    const mk_vorder_topo *t = &s->topo;
    for (uint32_t i = t->vert_start[v]; i < t->vert_start[v + 1]; i++) {
        uint32_t w = other_end(t, t->vert_edges[i], v);
        if (s->slot[w] != MK_NONE)
            dirty[s->slot[w]] = 1;
        for (uint32_t j = t->vert_start[w]; j < t->vert_start[w + 1]; j++) {
            uint32_t x = other_end(t, t->vert_edges[j], w);
            if (s->slot[x] == MK_NONE || dirty[s->slot[x]] || s->assigned[s->slot[x]] != MK_NONE)
                continue;
            uint32_t placed = 0;
            for (uint32_t i2 = t->vert_start[x]; i2 < t->vert_start[x + 1] && placed < 3; i2++)
                placed += known(s, other_end(t, t->vert_edges[i2], x)) != NULL;
            if (placed < 3)
                dirty[s->slot[x]] = 1;
        }
    }
}

/* Each vertex's triangles; false when out of memory. */
static bool vertex_tris(const mk_vorder_frames *fr, const mk_allocator *al, grow_topo *g)
{
    size_t n = fr->vertex_count, nt = fr->triangle_count;
    g->start = mk_alloc(al, (n + 2) * sizeof *g->start);
    g->tris = mk_alloc(al, (3 * nt + 1) * sizeof *g->tris);
    if (!g->start || !g->tris)
        return false;
    memset(g->start, 0, (n + 2) * sizeof *g->start);
    for (size_t c = 0; c < 3 * nt; c++)
        g->start[fr->triangles[c] + 2]++;
    for (size_t v = 0; v < n; v++)
        g->start[v + 2] += g->start[v + 1];
    for (size_t c = 0; c < 3 * nt; c++)
        g->tris[g->start[fr->triangles[c] + 1]++] = (uint32_t)(c / 3);
    /* g->start[v] .. g->start[v + 1] now holds v's triangles */
    return true;
}

static void free_vertex_tris(const mk_vorder_frames *fr, const mk_allocator *al, grow_topo *g)
{
    mk_free(al, g->start, ((size_t)fr->vertex_count + 2) * sizeof *g->start);
    mk_free(al, g->tris, (3 * (size_t)fr->triangle_count + 1) * sizeof *g->tris);
}

/* Places the suspects by growing; returns how many matched distinctly,
 * or MK_NONE when out of memory. */
static uint32_t grow_assign(repair_state *s, const grow_topo *gt, bool from_real,
                            const mk_allocator *al, uint32_t *free_count)
{
    const grow_topo g = *gt;
    uint8_t *dirty = mk_alloc(al, s->ns + 1);
    if (!dirty)
        return MK_NONE;
    for (uint32_t k = 0; k < s->ns; k++) {
        s->assigned[k] = MK_NONE; /* hint[]: as the attempt set it */
        s->taken[k] = 0;
        dirty[k] = 1;
    }
    *free_count = s->ns;
    /* fits start from the prediction, or from the nearest real frame (an
       interpolation between two far-apart poses can distort a patch) */
    s->shape = from_real ? s->real : s->pred;
    uint32_t distinct = 0;
    for (;;) {
        uint32_t nm = 0;
        for (uint32_t k = 0; k < s->ns; k++) {
            if (s->assigned[k] != MK_NONE || !dirty[k])
                continue;
            dirty[k] = 0;
            float q[3];
            int level = expect_local(s, &g, s->sus[k], q);
            match *m = &s->matches[nm];
            nearest_within(&s->grid, s->cand, s->taken, *free_count, false, 1, q, m);
            m->suspect = k;
            float ratio = level == 2 ? GROW_RATIO : level == 1 ? SHIFT_RATIO : SEED_RATIO;
            if (m->cand != MK_NONE && m->d1 < ratio * ratio * m->d2)
                nm++;
        }
        if (!nm)
            break;
        qsort(s->matches, nm, sizeof *s->matches, compare_match);
        for (uint32_t i = 0; i < nm; i++) {
            match *m = &s->matches[i];
            if (s->taken[m->cand]) {
                dirty[m->suspect] = 1; /* try again with another candidate */
                continue;
            }
            s->assigned[m->suspect] = m->cand;
            s->taken[m->cand] = 1;
            (*free_count)--;
            distinct++;
            mark_around(s, s->sus[m->suspect], dirty);
        }
    }
    /* what no distinct match placed takes the nearest free candidate,
       most distinct first, a round at a time; not worth it when under half
       matched distinctly (the result would be refused as unconfident) */
    while (*free_count && distinct >= s->ns - distinct) {
        uint32_t nm = 0, placed = 0;
        for (uint32_t k = 0; k < s->ns; k++) {
            if (s->assigned[k] != MK_NONE)
                continue;
            float q[3];
            expect_local(s, &g, s->sus[k], q);
            match *m = &s->matches[nm++];
            nearest(&s->grid, s->cand, s->taken, *free_count, true, q, m);
            m->suspect = k;
        }
        qsort(s->matches, nm, sizeof *s->matches, compare_match);
        for (uint32_t i = 0; i < nm; i++) {
            match *m = &s->matches[i];
            if (m->cand == MK_NONE || s->taken[m->cand])
                continue;
            s->assigned[m->suspect] = m->cand;
            s->taken[m->cand] = 1;
            (*free_count)--;
            /* a quarter at a time: the rest are predicted again with
               these placed */
            if (++placed >= nm / 4)
                break;
        }
        if (!placed)
            break;
    }
    s->shape = s->pred;
    mk_free(al, dirty, s->ns + 1);
    return distinct;
}

/* ---- one optimal assignment ----------------------------------------------
 * Growing takes the most distinct match first and can go wrong where two
 * suspects want the same candidate. With few suspects, each suspect's
 * expectation (the rigid motion of its neighbourhood from the nearest real
 * frame) is matched to the candidates all at once, minimizing the sum of
 * squared distances (Kuhn-Munkres), and again with every neighbour placed
 * where the last pass put it, until the assignment holds. */

#define OPTIMAL_MAX 400 /* suspects: the method costs their number cubed */

/* Minimum-cost perfect matching of the n x n matrix cost (row-major):
 * row i gets column col[i]. The shortest-augmenting-path form with row and
 * column potentials, O(n^3). Returns 1, 0 when a cost is not finite, -1
 * when out of memory. */
static int min_cost_matching(const double *cost, uint32_t n, uint32_t *col,
                             const mk_allocator *al)
{
    size_t m = (size_t)n + 1;
    double *u = mk_alloc(al, 3 * m * sizeof *u), *pv = u ? u + m : NULL, *minv = u ? u + 2 * m : NULL;
    uint32_t *row = mk_alloc(al, 2 * m * sizeof *row), *way = row ? row + m : NULL;
    uint8_t *used = mk_alloc(al, m);
    bool ok = u && row && used, finite = true;
    if (ok) {
        memset(u, 0, 2 * m * sizeof *u);
        memset(row, 0, m * sizeof *row); /* row[j]: 1-based row matched to column j, 0: none */
    }
    for (uint32_t i = 1; ok && i <= n; i++) {
        row[0] = i;
        uint32_t j0 = 0;
        for (size_t j = 0; j < m; j++) {
            minv[j] = INFINITY;
            used[j] = 0;
        }
        do { /* grow the tree of tight edges from row i until it reaches a free column */
            used[j0] = 1;
            uint32_t i0 = row[j0], j1 = 0;
            double delta = INFINITY;
            for (uint32_t j = 1; j <= n; j++) {
                if (used[j])
                    continue;
                double cur = cost[(size_t)(i0 - 1) * n + (j - 1)] - u[i0] - pv[j];
                if (cur < minv[j]) {
                    minv[j] = cur;
                    way[j] = j0;
                }
                if (minv[j] < delta) {
                    delta = minv[j];
                    j1 = j;
                }
            }
            if (j1 == 0) { /* only with non-finite costs */
                ok = finite = false;
                break;
            }
            for (uint32_t j = 0; j <= n; j++) {
                if (used[j]) {
                    u[row[j]] += delta;
                    pv[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
        } while (row[j0] != 0);
        while (ok && j0) { /* flip the path back to the root */
            uint32_t j1 = way[j0];
            row[j0] = row[j1];
            j0 = j1;
        }
    }
    for (uint32_t j = 1; ok && j <= n; j++)
        col[row[j] - 1] = j - 1;
    mk_free(al, u, 3 * m * sizeof *u);
    mk_free(al, row, 2 * m * sizeof *row);
    mk_free(al, used, m);
    return ok ? 1 : finite ? -1 : 0;
}

/* Places every suspect by optimal assignment (see above; attempt() allows
 * at most OPTIMAL_MAX suspects); returns how many are distinct (their
 * candidate the nearest to their expectation, under half as far as the
 * next), or MK_NONE when out of memory. */
static uint32_t optimal_assign(repair_state *s, const grow_topo *g, const mk_allocator *al,
                               uint32_t *free_count)
{
    uint32_t ns = s->ns;
    *free_count = ns;
    if (ns == 0)
        return 0;
    double *cost = mk_alloc(al, (size_t)ns * ns * sizeof *cost);
    float *q = mk_alloc(al, 3 * (size_t)ns * sizeof *q);
    uint32_t *col = mk_alloc(al, (size_t)ns * sizeof *col);
    if (!cost || !q || !col) {
        mk_free(al, cost, (size_t)ns * ns * sizeof *cost);
        mk_free(al, q, 3 * (size_t)ns * sizeof *q);
        mk_free(al, col, (size_t)ns * sizeof *col);
        return MK_NONE;
    }
    s->shape = s->real;
    uint32_t distinct = 0;
    for (int pass = 0; pass < GROW_PASSES; pass++) {
        for (uint32_t k = 0; k < ns; k++) /* hint[]: the trusted, then the last pass */
            s->assigned[k] = MK_NONE;
        for (uint32_t k = 0; k < ns; k++) {
            expect_local(s, g, s->sus[k], q + 3 * (size_t)k);
            for (uint32_t c = 0; c < ns; c++)
                cost[(size_t)k * ns + c] = dist2(q + 3 * (size_t)k, s->cand + 3 * (size_t)c);
        }
        int got = min_cost_matching(cost, ns, col, al);
        if (got <= 0) {
            distinct = got < 0 ? MK_NONE : 0;
            for (uint32_t k = 0; k < ns; k++)
                s->assigned[k] = MK_NONE;
            break;
        }
        memcpy(s->assigned, col, ns * sizeof *col);
        distinct = 0;
        for (uint32_t k = 0; k < ns; k++) {
            double own = cost[(size_t)k * ns + col[k]], other = INFINITY;
            for (uint32_t c = 0; c < ns; c++)
                if (c != col[k] && cost[(size_t)k * ns + c] < other &&
                    memcmp(s->cand + 3 * (size_t)c, s->cand + 3 * (size_t)col[k], 3 * sizeof(float)))
                    other = cost[(size_t)k * ns + c];
            distinct += own < DISTINCT_RATIO * DISTINCT_RATIO * other;
        }
        if (pass && !memcmp(s->hint, s->assigned, ns * sizeof *s->hint))
            break;
        memcpy(s->hint, s->assigned, ns * sizeof *s->hint);
    }
    uint32_t placed = 0;
    memset(s->taken, 0, ns);
    for (uint32_t k = 0; k < ns; k++)
        if (s->assigned[k] != MK_NONE) {
            s->taken[s->assigned[k]] = 1;
            placed++;
        }
    *free_count = ns - placed;
    s->shape = s->pred;
    mk_free(al, cost, (size_t)ns * ns * sizeof *cost);
    mk_free(al, q, 3 * (size_t)ns * sizeof *q);
    mk_free(al, col, (size_t)ns * sizeof *col);
    return distinct;
}

/* Marks the points of g within one cell of q. */
static void mark_near(const cand_grid *g, const float *pts, const float *q, uint8_t *mark)
{
    int64_t cx = cell_of(q[0], g->cell), cy = cell_of(q[1], g->cell), cz = cell_of(q[2], g->cell);
    for (int64_t x = -1; x <= 1; x++)
        for (int64_t y = -1; y <= 1; y++)
            for (int64_t z = -1; z <= 1; z++) {
                uint64_t key = cell_key(cx + x, cy + y, cz + z);
                uint32_t lo = 0, hi = g->n;
                while (lo < hi) {
                    uint32_t mid = lo + (hi - lo) / 2;
                    if (g->keys[mid] < key)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                for (uint32_t i = lo; i < g->n && g->keys[i] == key; i++)
                    if (dist2(pts + 3 * (size_t)g->ids[i], q) <= g->cell * g->cell)
                        mark[g->ids[i]] = 1;
            }
}

/* The check of a result: with every neighbour placed, each vertex of the
 * frame (not only the suspects: a vertex left at a wrong place near its
 * own passes edge lengths in fast motion) must sit at the position nearest
 * to where its neighbourhood's rigid motion from each real neighbouring
 * frame takes it (equal positions are the same answer), and each suspect
 * distinctly so. Returns how many do not. */
static uint32_t local_check(repair_state *s, const grow_topo *gt, bool distinct_too,
                            const mk_allocator *al)
{
    const grow_topo g = *gt;
    size_t n = s->fr->vertex_count;
    uint32_t bad = 0;
    /* every vertex of the frame as repaired, in a grid of its own */
    float *all = mk_alloc(al, 3 * (n + 1) * sizeof *all);
    uint8_t *none = mk_alloc(al, n + 1), *near = mk_alloc(al, n + 1);
    cand_grid ag;
    memset(&ag, 0, sizeof ag);
    bool ok = all && none && near;
    if (ok) {
        memcpy(all, s->pos, 3 * n * sizeof *all);
        for (uint32_t k = 0; k < s->ns; k++)
            if (s->assigned[k] != MK_NONE)
                memcpy(all + 3 * (size_t)s->sus[k], s->cand + 3 * (size_t)s->assigned[k],
                       3 * sizeof(float));
        memset(none, 0, n);
        memset(near, 0, n);
        ok = build_grid(&ag, all, (uint32_t)n, s->grid.cell, al);
    }
    /* An unsuspected vertex fits its edges, so it is near its true place:
       it can only hold a wrong one with a candidate's place within a cell.
       Only those are checked. */
    for (uint32_t k = 0; ok && k < s->ns; k++)
        mark_near(&ag, all, s->cand + 3 * (size_t)k, near);
    if (!ok)
        bad = s->ns + 1; /* out of memory: refused, never guessed */
    const float *shapes[2] = {s->before != MK_NONE ? s->fr->positions[s->before] : NULL,
                              s->after != MK_NONE ? s->fr->positions[s->after] : NULL};
    for (uint32_t v = 0; v < n && ok; v++) {
        bool suspect = s->slot[v] != MK_NONE;
        if (suspect && s->assigned[s->slot[v]] == MK_NONE) {
            bad++;
            continue;
        }
        if (!suspect && !near[v])
            continue;
        int tried = 0, passed = 0;
        for (int j = 0; j < 2; j++) {
            if (!shapes[j])
                continue;
            s->shape = shapes[j];
            float q[3];
            match m;
            tried++;
            if (expect_local(s, &g, v, q) != 2) {
                passed += !suspect;
                continue;
            }
            nearest_within(&ag, all, none, (uint32_t)n, false, 1, q, &m);
            bool own = m.cand != MK_NONE &&
                       !memcmp(all + 3 * (size_t)m.cand, all + 3 * (size_t)v, 3 * sizeof(float));
            /* an unsuspected vertex fails only for a suspect's place */
            passed += suspect ? own && (!distinct_too || m.d1 < CHECK_RATIO * CHECK_RATIO * m.d2)
                              : own || m.cand == MK_NONE || s->slot[m.cand] == MK_NONE;
        }
        bad += passed < tried; /* it must hold against each real frame */
    }
    free_grid(&ag, al);
    mk_free(al, all, 3 * (n + 1) * sizeof *all);
    mk_free(al, none, n + 1);
    mk_free(al, near, n + 1);
    s->shape = s->pred;
    return bad;
}

#define FACING_RINGS 4   /* how far flips_in_place looks for unmoved vertices */
#define MAX_FREE_TURN 0.3 /* cosine: a piece moved whole turns under 72.5 degrees
                             from the prediction */
#define FACING_QUEUE 512 /* vertices it visits at most */

/* Does triangle T (number tri) of the repaired frame `out` face the other
 * way than the motion of its unmoved surroundings says? Those (the nearest
 * rings around T's corners holding at least 3, up to FACING_RINGS) are
 * fitted rigidly from the nearest real frame to `out`, and T's facing
 * there, so turned, must agree with its facing in `out`: a mirrored piece
 * keeps every edge length, but not its facing. Without 3 unmoved vertices
 * around it (a separate piece moved whole), or where they fit no rotation,
 * T is compared with the prediction, and may turn at most
 * MAX_FREE_TURN from it: a piece with a symmetry (a box with a square
 * section) fits its edges turned by a quarter too, and only the
 * prediction can tell. stamp: vertex_count entries, none equal to tri. */
static bool flips_in_place(const repair_state *s, const grow_topo *g, const float *out,
                           const uint32_t *T, uint32_t tri, uint32_t *stamp)
{
    const mk_vorder_topo *t = &s->topo;
    uint32_t ids[MAX_FIT], m = 0, queue[FACING_QUEUE], head = 0, tail = 0;
    float p[3 * MAX_FIT], q[3 * MAX_FIT];
    const float *ref = s->real;
    for (int c = 0; c < 3; c++)
        if (stamp[T[c]] != tri) {
            stamp[T[c]] = tri;
            queue[tail++] = T[c];
        }
    for (uint32_t ring = 0; ring <= FACING_RINGS && head < tail; ring++) {
        if (ring > 2 && m >= 3)
            break; /* the first two rings always, further only while short */
        uint32_t end = tail;
        for (; head < end; head++) {
            uint32_t v = queue[head];
            if (m < MAX_FIT && !memcmp(out + 3 * (size_t)v, s->pos + 3 * (size_t)v, 3 * sizeof(float))) {
                ids[m] = v;
                memcpy(p + 3 * (size_t)m, ref + 3 * (size_t)v, 3 * sizeof(float));
                memcpy(q + 3 * (size_t)m, out + 3 * (size_t)v, 3 * sizeof(float));
                m++;
            }
            for (uint32_t i = t->vert_start[v]; i < t->vert_start[v + 1] && tail < FACING_QUEUE; i++) {
                uint32_t w = other_end(t, t->vert_edges[i], v);
                if (stamp[w] != tri) {
                    stamp[w] = tri;
                    queue[tail++] = w;
                }
            }
        }
    }
    if (m >= 3) {
        double np[3] = {0, 0, 0}, nq[3] = {0, 0, 0};
        /* the patch's normal: its unmoved triangles' (the same winding in
           both poses, so it turns with the patch) */
        for (uint32_t i = 0; i < m; i++)
            for (uint32_t k = g->start[ids[i]]; k < g->start[ids[i] + 1]; k++) {
                const uint32_t *U = s->fr->triangles + 3 * (size_t)g->tris[k];
                bool still = true;
                for (int c = 0; c < 3 && still; c++)
                    still = !memcmp(out + 3 * (size_t)U[c], s->pos + 3 * (size_t)U[c],
                                    3 * sizeof(float));
                if (!still)
                    continue;
                double a[3], b[3];
                tri_normal(ref, U, a);
                tri_normal(out, U, b);
                for (int c = 0; c < 3; c++) {
                    np[c] += a[c];
                    nq[c] += b[c];
                }
            }
        double n[3], no[3];
        tri_normal(ref, T, n);
        tri_normal(out, T, no);
        double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        const float *a = ref + 3 * (size_t)T[0];
        float tip[3], at0[3], at1[3];
        for (int c = 0; c < 3; c++) /* a corner and a point a little off T's face */
            tip[c] = len > 0 ? (float)(a[c] + n[c] / sqrt(len)) : a[c];
        if (len > 0 && mk_vorder_local_fit(p, q, m, np, nq, a, at0) &&
            mk_vorder_local_fit(p, q, m, np, nq, tip, at1)) {
            double rn[3] = {at1[0] - at0[0], at1[1] - at0[1], at1[2] - at0[2]};
            return turned(rn, no, 0.0); /* T's facing, turned as its surroundings turned */
        }
    }
    return flips(out, s->pred, T, m < 3 ? MAX_FREE_TURN : 0.0);
}

static void free_repair(repair_state *s, const mk_allocator *al)
{
    size_t n = s->fr->vertex_count, ns = s->ns;
    mk_free(al, s->pred, 3 * (n + 1) * sizeof(float));
    mk_free(al, s->cand, 3 * (ns + 1) * sizeof(float));
    mk_free(al, s->slot, (n + 1) * sizeof(uint32_t));
    mk_free(al, s->assigned, (ns + 1) * sizeof(uint32_t));
    mk_free(al, s->hint, (ns + 1) * sizeof(uint32_t));
    mk_free(al, s->taken, ns + 1);
    mk_free(al, s->matches, (ns + 1) * sizeof(match));
    mk_vorder_topo_free(&s->topo);
    free_grid(&s->grid, al);
    mk_free(al, (uint32_t *)s->sus, (n + 1) * sizeof(uint32_t));
}

static float median_edge(const mk_vorder_topo *t, const float *pos, const mk_allocator *al)
{
    float *len = mk_alloc(al, ((size_t)t->edge_count + 1) * sizeof *len);
    if (!len || !t->edge_count) {
        mk_free(al, len, ((size_t)t->edge_count + 1) * sizeof *len);
        return 1.0f;
    }
    mk_vorder_edge_lengths(t, pos, len);
    float m = mk_vorder_select(len, t->edge_count, (t->edge_count - 1) / 2);
    mk_free(al, len, ((size_t)t->edge_count + 1) * sizeof *len);
    return m > 0 ? m : 1.0f;
}

/* One repair attempt with the suspects grown by `rings` rings of mesh
 * neighbours (all: every vertex of the frame a suspect). */
static mk_status attempt(const mk_vorder_frames *fr, const mk_vorder_report *r,
                         const mk_vorder_fault *ft, uint32_t rings, bool all, bool trust,
                         int grow, uint32_t *near, const mk_allocator *al, float *out,
                         mk_vorder_repair_info *info, mk_error *err)
{
    memset(info, 0, sizeof *info);
    info->twin = MK_NONE;
    repair_state s;
    memset(&s, 0, sizeof s);
    s.fr = fr;
    s.pos = fr->positions[ft->frame];
    size_t n = fr->vertex_count;
    float *change = mk_alloc(al, (n + 1) * sizeof *change);
    uint32_t *sus = mk_alloc(al, (n + 1) * sizeof *sus);
    float *before = mk_alloc(al, (n + 1) * sizeof *before);
    if (!change || !sus || !before || !mk_vorder_frame_change(fr, s.pos, ft->frame, al, change)) {
        mk_free(al, change, (n + 1) * sizeof *change);
        mk_free(al, before, (n + 1) * sizeof *before);
        mk_free(al, sus, (n + 1) * sizeof *sus);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    }
    memcpy(before, change, n * sizeof *before);
    if (!mk_vorder_topo_build(&s.topo, fr->vertex_count, fr->triangles, fr->triangle_count, al)) {
        mk_free(al, before, (n + 1) * sizeof *before);
        mk_free(al, change, (n + 1) * sizeof *change);
        mk_free(al, sus, (n + 1) * sizeof *sus);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    }
    /* the flagged vertices, those nearly flagged, and up to two rings of
       mesh neighbours around them: a vertex moved by a short way is often
       next to the vertex whose position it holds. change[] becomes the mark. */
    for (uint32_t v = 0, k = 0; v < n; v++) {
        while (k < ft->vertex_count && ft->vertices[k] < v)
            k++;
        bool flagged = change[v] > SUSPECT_LIMIT || (k < ft->vertex_count && ft->vertices[k] == v);
        change[v] = flagged ? 1.0f + (float)rings : 0.0f;
    }
    /* flagged vertices get mark rings + 1; ring i around them gets mark
       rings + 1 - i, spread from the previous mark only, so rings stay rings */
    for (float from = 1.0f + (float)rings; from > 1.5f; from -= 1.0f)
        for (uint32_t e = 0; e < s.topo.edge_count; e++) {
            uint32_t a = s.topo.edges[2 * e], b = s.topo.edges[2 * e + 1];
            if (change[a] == from && change[b] == 0.0f)
                change[b] = from - 1.0f;
            else if (change[b] == from && change[a] == 0.0f)
                change[a] = from - 1.0f;
        }
    for (uint32_t v = 0; v < n; v++)
        if (change[v] > 0.0f || all)
            sus[s.ns++] = v;
    s.sus = sus;
    size_t ns = s.ns;
    info->suspect_count = s.ns;
    if (grow == 3 && ns > OPTIMAL_MAX) { /* too many for an optimal assignment */
        mk_vorder_topo_free(&s.topo);
        mk_free(al, change, (n + 1) * sizeof *change);
        mk_free(al, before, (n + 1) * sizeof *before);
        mk_free(al, sus, (n + 1) * sizeof *sus);
        return mk_error_set(err, MK_ERR_MISMATCH, NULL, 0,
                            "frame %u: %zu suspects, too many to assign at once; not repaired",
                            ft->frame, ns);
    }
    s.pred = mk_alloc(al, 3 * (n + 1) * sizeof(float));
    s.cand = mk_alloc(al, 3 * (ns + 1) * sizeof(float));
    s.slot = mk_alloc(al, (n + 1) * sizeof(uint32_t));
    s.assigned = mk_alloc(al, (ns + 1) * sizeof(uint32_t));
    s.hint = mk_alloc(al, (ns + 1) * sizeof(uint32_t));
    s.taken = mk_alloc(al, ns + 1);
    s.matches = mk_alloc(al, (ns + 1) * sizeof(match));
    bool ok = s.pred && s.cand && s.slot && s.assigned && s.hint && s.taken && s.matches;
    /* trust: an unflagged suspect (from the rings) starts out believed in
       place, so its flagged neighbours are predicted from it */
    for (uint32_t k = 0; ok && k < s.ns; k++)
        s.hint[k] = trust && change[s.sus[k]] < 1.0f + (float)rings ? k : MK_NONE;
    mk_free(al, change, (n + 1) * sizeof *change);
    if (!ok) {
        free_repair(&s, al);
        mk_free(al, before, (n + 1) * sizeof *before);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    }
    uint32_t used[2];
    if (predict(fr, r, ft->frame, s.pred, used)) {
        s.before = used[0];
        s.after = used[1];
        align(s.pred, s.pos, fr->vertex_count);
    } else {
        free_repair(&s, al);
        mk_free(al, before, (n + 1) * sizeof *before);
        return mk_error_set(err, MK_ERR_MISMATCH, NULL, 0,
                            "frame %u has no fault-free frame to be repaired from", ft->frame);
    }
    memset(s.slot, 0xff, n * sizeof *s.slot);
    for (uint32_t k = 0; k < s.ns; k++) {
        s.slot[s.sus[k]] = k;
        s.assigned[k] = MK_NONE;
        s.taken[k] = 0;
        memcpy(s.cand + 3 * (size_t)k, s.pos + 3 * (size_t)s.sus[k], 3 * sizeof(float));
    }
    float cell = 1.5f * median_edge(&s.topo, s.pred, al);
    if (*near == NEAR_UNKNOWN) /* the same for every attempt on the frame */
        *near = closer_real(fr, s.pos, s.before, s.after, cell, al);
    s.real = *near != MK_NONE ? fr->positions[*near] : s.pred;
    if (!build_grid(&s.grid, s.cand, s.ns, cell, al)) {
        free_repair(&s, al);
        mk_free(al, before, (n + 1) * sizeof *before);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    }
    uint32_t free_count = 0, distinct = 0, inconsistent = 0;
    grow_topo gt;
    memset(&gt, 0, sizeof gt);
    if (!vertex_tris(fr, al, &gt)) {
        free_vertex_tris(fr, al, &gt);
        free_repair(&s, al);
        mk_free(al, before, (n + 1) * sizeof *before);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    }
    /* Two passes. Each: rounds of distinct matches while they make
       progress, then one final round that takes the nearest free candidate
       for the rest. The second pass starts over with every neighbour
       placed where the first pass put it, so each expectation is corrected
       by all of its neighbours, not only the ones matched early. */
    if (grow == 3) {
        distinct = optimal_assign(&s, &gt, al, &free_count);
        if (distinct == MK_NONE) {
            free_vertex_tris(fr, al, &gt);
            free_repair(&s, al);
            mk_free(al, before, (n + 1) * sizeof *before);
            return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
        }
    } else if (grow) {
        distinct = grow_assign(&s, &gt, grow == 2, al, &free_count);
        /* more passes, each starting from the last one's placement (every
           neighbour placed, so each fit has its whole neighbourhood), while
           the placement changes */
        for (int pass = 1; pass < GROW_PASSES && distinct != MK_NONE && free_count == 0; pass++) {
            memcpy(s.hint, s.assigned, s.ns * sizeof *s.hint);
            distinct = grow_assign(&s, &gt, grow == 2, al, &free_count);
            if (distinct != MK_NONE && !memcmp(s.hint, s.assigned, s.ns * sizeof *s.hint))
                break;
        }
        if (distinct == MK_NONE) {
            free_vertex_tris(fr, al, &gt);
            free_repair(&s, al);
            mk_free(al, before, (n + 1) * sizeof *before);
            return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
        }
    }
    for (int pass = 0; pass < 2 && !grow; pass++) {
        if (pass)
            memcpy(s.hint, s.assigned, s.ns * sizeof *s.hint);
        for (uint32_t k = 0; k < s.ns; k++) {
            s.assigned[k] = MK_NONE;
            s.taken[k] = 0;
        }
        free_count = s.ns;
        distinct = 0;
        for (int round = 0; round < MAX_ROUNDS - 1 && free_count; round++) {
            uint32_t left = free_count, got = round_assign(&s, false, &free_count);
            distinct += got;
            if (got * 100 < left) /* under 1% progress: more rounds will not help */
                break;
        }
        if (free_count)
            distinct += round_assign(&s, true, &free_count);
    }
    memcpy(out, s.pos, 3 * n * sizeof *out);
    for (uint32_t k = 0; k < s.ns; k++) {
        uint32_t c = s.assigned[k];
        if (c == MK_NONE)
            continue; /* cannot happen: the final round takes every free one */
        float *dst = out + 3 * (size_t)s.sus[k];
        info->moved_count += memcmp(dst, s.cand + 3 * (size_t)c, 3 * sizeof(float)) != 0;
        memcpy(dst, s.cand + 3 * (size_t)c, 3 * sizeof(float));
    }
    info->confidence = s.ns ? (float)distinct / (float)s.ns : 1.0f;
    inconsistent = local_check(&s, &gt, grow != 0, al);
    /* A mirrored piece keeps every edge length: a triangle with a moved
       corner must also keep its facing (flips_in_place). */
    uint32_t flipped = 0, *stamp = mk_alloc(al, (n + 1) * sizeof *stamp);
    if (stamp)
        memset(stamp, 0xff, (n + 1) * sizeof *stamp);
    else
        flipped = 1; /* out of memory: refused, never guessed */
    for (uint32_t t = 0; stamp && t < fr->triangle_count; t++) {
        const uint32_t *T = fr->triangles + 3 * (size_t)t;
        bool moved = false;
        for (int c = 0; c < 3; c++)
            moved |= memcmp(out + 3 * (size_t)T[c], s.pos + 3 * (size_t)T[c], 3 * sizeof(float)) != 0;
        if (moved && flips_in_place(&s, &gt, out, T, t, stamp))
            flipped++;
    }
    mk_free(al, stamp, (n + 1) * sizeof *stamp);
    free_vertex_tris(fr, al, &gt);
    free_repair(&s, al);
    float *after = mk_alloc(al, (n + 1) * sizeof *after);
    if (!after || !mk_vorder_frame_change(fr, out, ft->frame, al, after)) {
        mk_free(al, after, (n + 1) * sizeof *after);
        mk_free(al, before, (n + 1) * sizeof *before);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    }
    /* A moved vertex must fit its neighbours as well as the frame's
       unmoved vertices typically do (under twice their 95th percentile of
       change, or 0.2): a vertex given a near neighbour's position stays
       under the detection limit but not under this. Any vertex still over
       the limit, or moved and worse than before, fails too. */
    uint32_t kept = 0;
    for (uint32_t v = 0; v < n; v++)
        if (!memcmp(out + 3 * (size_t)v, s.pos + 3 * (size_t)v, 3 * sizeof(float)))
            before[kept++] = after[v]; /* before[] is free from here on: reuse */
    float typical = kept ? mk_vorder_select(before, kept, (uint32_t)((kept - 1) * 0.95)) : 0.0f;
    float fit = 2.0f * typical > MOVED_FIT_FLOOR ? 2.0f * typical : MOVED_FIT_FLOOR;
    mk_vorder_frame_change(fr, s.pos, ft->frame, al, before); /* before[] again */
    for (uint32_t v = 0; v < n; v++) {
        bool moved = memcmp(out + 3 * (size_t)v, s.pos + 3 * (size_t)v, 3 * sizeof(float)) != 0;
        info->remaining += after[v] > MK_VORDER_CHANGE_LIMIT ||
                           (moved && (after[v] > before[v] || after[v] > fit));
    }
    info->remaining += flipped + inconsistent;
    mk_free(al, after, (n + 1) * sizeof *after);
    mk_free(al, before, (n + 1) * sizeof *before);
    if (info->remaining)
        return mk_error_set(err, MK_ERR_MISMATCH, NULL, 0,
                            "frame %u: %u of %u vertices (or triangles) are still out of place "
                            "after reassignment; not repaired",
                            ft->frame, info->remaining, s.ns);
    if (info->confidence < MIN_CONFIDENCE)
        return mk_error_set(err, MK_ERR_MISMATCH, NULL, 0,
                            "frame %u: only %.0f%% of the %u vertices matched distinctly; not "
                            "repaired",
                            ft->frame, 100.0 * info->confidence, s.ns);
    return MK_OK;
}

/* ---- rigid pieces -------------------------------------------------------------- */

/* info for an exact repair of frame f into out (rigid pieces, a reused
 * pose): every vertex considered, confidence 1. */
static void exact_info(const mk_vorder_frames *fr, uint32_t f, const float *out,
                       uint32_t suspects, uint32_t twin, mk_vorder_repair_info *info)
{
    const float *p = fr->positions[f];
    memset(info, 0, sizeof *info);
    info->twin = twin;
    info->suspect_count = suspects;
    info->confidence = 1.0f;
    for (uint32_t v = 0; v < fr->vertex_count; v++)
        info->moved_count += memcmp(p + 3 * (size_t)v, out + 3 * (size_t)v, 12) != 0;
}

/* mk_vorder_repair_pieces between the nearest real frames before and after
 * (in play), kept only when no vertex of the result is over the detection
 * limit. */
static mk_status pieces(const mk_vorder_frames *fr, const mk_vorder_report *r,
                        const mk_vorder_fault *ft, const mk_allocator *al, float *out,
                        mk_vorder_repair_info *info)
{
    const uint32_t n = fr->vertex_count;
    float *change = mk_alloc(al, (size_t)n * sizeof *change);
    mk_status st = change ? MK_ERR_MISMATCH : MK_ERR_OUT_OF_MEMORY;
    uint32_t db = 0, da = 0;
    const uint32_t near[2] = {nearest_real(fr, r, ft->frame, false, &db),
                              nearest_real(fr, r, ft->frame, true, &da)};
    if (st == MK_ERR_MISMATCH)
        st = mk_vorder_repair_pieces(fr, ft->frame, near, db + da ? (double)db / (db + da) : 0.0,
                                     al, out);
    if (st == MK_OK) {
        if (!mk_vorder_frame_change(fr, out, ft->frame, al, change)) {
            st = MK_ERR_OUT_OF_MEMORY;
        } else {
            for (uint32_t v = 0; v < n && st == MK_OK; v++)
                if (change[v] > MK_VORDER_CHANGE_LIMIT)
                    st = MK_ERR_MISMATCH;
        }
    }
    if (st == MK_OK)
        exact_info(fr, ft->frame, out, n, MK_NONE, info);
    mk_free(al, change, (size_t)n * sizeof *change);
    return st;
}

/* ---- a reused pose ---------------------------------------------------------- */

typedef struct keyed {
    uint32_t x, y, z, v; /* a position's bits, and its vertex */
} keyed;

static int compare_keyed(const void *a, const void *b)
{
    const keyed *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    if (p->y != q->y)
        return p->y < q->y ? -1 : 1;
    return p->z != q->z ? (p->z < q->z ? -1 : 1) : 0;
}

static void keys_of(const float *p, uint32_t n, keyed *k)
{
    for (uint32_t v = 0; v < n; v++) {
        memcpy(&k[v].x, p + 3 * (size_t)v, 4);
        memcpy(&k[v].y, p + 3 * (size_t)v + 1, 4);
        memcpy(&k[v].z, p + 3 * (size_t)v + 2, 4);
        k[v].v = v;
    }
}

/* The positions as a whole, blind to their order: a sum of mixed bits. */
static uint64_t multiset_hash(const float *p, uint32_t n)
{
    uint64_t h = 0;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t b[3];
        memcpy(b, p + 3 * (size_t)v, 12);
        uint64_t x = ((uint64_t)b[0] << 32 | b[1]) * 0x9E3779B97F4A7C15ull ^ b[2];
        x ^= x >> 29;
        x *= 0xBF58476D1CE4E5B9ull;
        h += x ^ (x >> 32);
    }
    return h;
}

/* Frame f holds, bit for bit and as a whole, the positions of a frame the
 * report does not name (a reused pose): out gets that frame's positions
 * (the same numbers in its order) and *twin the frame. MK_ERR_MISMATCH:
 * no such frame. */
static mk_status twin_frame(const mk_vorder_frames *fr, const mk_vorder_report *r, uint32_t f,
                            const mk_allocator *al, float *out, uint32_t *twin)
{
    const uint32_t n = fr->vertex_count;
    const uint64_t h = multiset_hash(fr->positions[f], n);
    keyed *a = NULL, *b = NULL;
    mk_status st = MK_ERR_MISMATCH;
    for (uint32_t g = 0; g < fr->frame_count && st == MK_ERR_MISMATCH; g++) {
        if (g == f || is_fault_frame(r, g) || multiset_hash(fr->positions[g], n) != h)
            continue;
        if (!a) {
            a = mk_alloc(al, 2 * (size_t)n * sizeof *a);
            if (!a)
                return MK_ERR_OUT_OF_MEMORY;
            b = a + n;
            keys_of(fr->positions[f], n, a);
            qsort(a, n, sizeof *a, compare_keyed);
        }
        keys_of(fr->positions[g], n, b);
        qsort(b, n, sizeof *b, compare_keyed);
        uint32_t v = 0;
        while (v < n && compare_keyed(a + v, b + v) == 0)
            v++;
        if (v == n) {
            memcpy(out, fr->positions[g], 3 * (size_t)n * sizeof *out);
            *twin = g;
            st = MK_OK;
        }
    }
    mk_free(al, a, 2 * (size_t)n * sizeof *a);
    return st;
}

mk_status mk_vorder_repair_frame(const mk_vorder_frames *fr, const mk_vorder_report *r,
                                 uint32_t fault, const mk_allocator *al, float *out,
                                 mk_vorder_repair_info *info, mk_error *err)
{
    mk_vorder_repair_info local;
    if (!info)
        info = &local;
    memset(info, 0, sizeof *info);
    info->twin = MK_NONE;
    mk_status st = mk_vorder_frames_check(fr, err);
    if (st != MK_OK)
        return st;
    if (!r || fault >= r->fault_count || !out || r->faults[fault].frame >= fr->frame_count)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "vorder: no fault %u in the report, or NULL out", fault);
    const mk_vorder_fault *ft = &r->faults[fault];
    for (uint32_t k = 0; k < ft->vertex_count; k++)
        if (ft->vertices[k] >= fr->vertex_count)
            return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                                "vorder: fault vertex %u out of range", ft->vertices[k]);
    /* Two rings of neighbours catch most short moves. When the result does
       not check out: the same with the unflagged suspects believed in place
       at first (a few scrambled vertices in a fast-moving piece), six rings
       (a vertex whose position is needed may sit further out), then growing
       by local rigid fits (fast motion) from the prediction, from the
       nearest real frame, and with nothing believed in place; then one
       optimal assignment to the local fits' expectations (with few
       suspects: where two of them want the same place); last, every vertex
       a suspect (a few scrambled vertices moved a short way are only
       partly flagged), by nearest matches and by optimal assignment.
       Every result passes the same checks. */
    uint32_t near = NEAR_UNKNOWN;
    mk_status st2 = attempt(fr, r, ft, 2, false, false, 0, &near, al, out, info, err);
    if (st2 != MK_ERR_MISMATCH)
        return st2;
    mk_vorder_repair_info wider;
    mk_error e2;
    if (attempt(fr, r, ft, 2, false, true, 0, &near, al, out, &wider, &e2) == MK_OK ||
        attempt(fr, r, ft, 6, false, false, 0, &near, al, out, &wider, &e2) == MK_OK ||
        attempt(fr, r, ft, 2, false, true, 1, &near, al, out, &wider, &e2) == MK_OK ||
        attempt(fr, r, ft, 2, false, true, 2, &near, al, out, &wider, &e2) == MK_OK ||
        attempt(fr, r, ft, 2, false, false, 1, &near, al, out, &wider, &e2) == MK_OK ||
        attempt(fr, r, ft, 2, false, true, 3, &near, al, out, &wider, &e2) == MK_OK ||
        attempt(fr, r, ft, 2, false, false, 3, &near, al, out, &wider, &e2) == MK_OK ||
        attempt(fr, r, ft, 2, true, true, 0, &near, al, out, &wider, &e2) == MK_OK ||
        attempt(fr, r, ft, 2, true, false, 0, &near, al, out, &wider, &e2) == MK_OK ||
        attempt(fr, r, ft, 2, true, false, 3, &near, al, out, &wider, &e2) == MK_OK ||
        attempt(fr, r, ft, 2, true, true, 3, &near, al, out, &wider, &e2) == MK_OK) {
        *info = wider;
        return MK_OK;
    }
    /* then: a mesh of rigid pieces, each found again by its shape */
    mk_status ps = pieces(fr, r, ft, al, out, info);
    if (ps == MK_OK || ps == MK_ERR_OUT_OF_MEMORY)
        return ps == MK_OK ? MK_OK : mk_error_set(err, ps, NULL, 0, "out of memory");
    /* last: a reused pose, whatever the motion around it (last, because a
       piece turned by exactly its symmetry, a four-bladed propeller by a
       quarter, shares its positions with another frame in another order;
       the tries above tell those turns apart where the frames around can) */
    uint32_t twin = MK_NONE;
    ps = twin_frame(fr, r, ft->frame, al, out, &twin);
    if (ps == MK_ERR_OUT_OF_MEMORY)
        return mk_error_set(err, ps, NULL, 0, "out of memory");
    if (ps == MK_OK) {
        exact_info(fr, ft->frame, out, ft->vertex_count, twin, info);
        return MK_OK;
    }
    if (err)
        *err = e2;
    *info = wider;
    return MK_ERR_MISMATCH;
}
