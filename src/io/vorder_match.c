/* Renumbered-frame matching: the same mesh numbered differently, recovered
 * from connectivity (method in morphkit/repair.h).
 *
 * Each mesh gets a map from directed edge (a, b) to the corner where a
 * triangle walks a -> b. Matching reference triangle t to frame triangle u
 * with corner rotation r binds their vertices; the reference triangle
 * across t's edge a -> b holds b -> a, and its counterpart must be the
 * frame triangle holding m(b) -> m(a), which binds its third vertex. A
 * binding that contradicts an earlier one means the seed was wrong (or the
 * meshes differ): every trial is logged so it can be undone. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "vorder_internal.h"

#define SEED_CANDIDATES 16
#define EXTRA_SEEDS 3      /* more reference triangles a piece is seeded from */
#define EXTRA_CANDIDATES 4 /* and their nearest frame triangles tried */

typedef struct edge_map {
    uint64_t *keys;
    uint32_t *corner; /* MK_NONE = empty slot */
    size_t mask;
} edge_map;

static bool edge_map_build(edge_map *m, const uint32_t *tris, uint32_t count, const mk_allocator *al)
{
    size_t cap = 16;
    while (cap < 6 * (size_t)count)
        cap *= 2;
    m->mask = cap - 1;
    m->keys = mk_alloc(al, cap * sizeof *m->keys);
    m->corner = mk_alloc(al, cap * sizeof *m->corner);
    if (!m->keys || !m->corner)
        return false;
    memset(m->corner, 0xff, cap * sizeof *m->corner);
    for (uint32_t c = 0; c < 3 * count; c++) {
        uint64_t key = (uint64_t)tris[c] << 32 | tris[c % 3 == 2 ? c - 2 : c + 1];
        for (size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & m->mask;; i = (i + 1) & m->mask) {
            if (m->corner[i] == MK_NONE) {
                m->keys[i] = key;
                m->corner[i] = c;
                break;
            }
            if (m->keys[i] == key)
                break; /* a second triangle on the same directed edge: keep the first */
        }
    }
    return true;
}

static void edge_map_free(edge_map *m, const mk_allocator *al)
{
    mk_free(al, m->keys, (m->mask + 1) * sizeof *m->keys);
    mk_free(al, m->corner, (m->mask + 1) * sizeof *m->corner);
}

/* The corner where a triangle walks a -> b, or MK_NONE. */
static uint32_t edge_map_get(const edge_map *m, uint32_t a, uint32_t b)
{
    uint64_t key = (uint64_t)a << 32 | b;
    for (size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & m->mask;; i = (i + 1) & m->mask) {
        if (m->corner[i] == MK_NONE)
            return MK_NONE;
        if (m->keys[i] == key)
            return m->corner[i];
    }
}

typedef struct matcher {
    const mk_vorder_mesh *ref, *frm;
    edge_map rmap, fmap;
    uint32_t *vmap, *vinv;  /* reference -> frame vertex and back, MK_NONE unbound */
    uint32_t *tmap;         /* reference triangle -> 3 x frame triangle + rotation */
    uint32_t *tinv;         /* frame triangle -> reference triangle */
    uint32_t *queue;        /* reference triangles to spread from */
    uint32_t *vlog, *tlog;  /* bound in the current trial, to undo */
    uint32_t vlog_n, tlog_n;
    double score;           /* squared distances of the trial's bindings */
    double uv_weight;       /* per squared texcoord distance; 0 without texcoords */
} matcher;

/* Squared texcoord distance between reference corner rc and frame corner fc. */
static double uv_cost(const matcher *m, uint32_t rc, uint32_t fc)
{
    if (m->uv_weight == 0)
        return 0;
    const float *a = m->ref->corner_texcoords + 2 * (size_t)rc,
                *b = m->frm->corner_texcoords + 2 * (size_t)fc;
    double du = (double)a[0] - b[0], dv = (double)a[1] - b[1];
    return m->uv_weight * (du * du + dv * dv);
}

static double sq_dist(const float *p, const float *q)
{
    return (double)(p[0] - q[0]) * (p[0] - q[0]) + (double)(p[1] - q[1]) * (p[1] - q[1]) +
           (double)(p[2] - q[2]) * (p[2] - q[2]);
}

static bool bind_vertex(matcher *m, uint32_t rv, uint32_t fv)
{
    if (m->vmap[rv] != MK_NONE || m->vinv[fv] != MK_NONE)
        return m->vmap[rv] == fv && m->vinv[fv] == rv;
    m->vmap[rv] = fv;
    m->vinv[fv] = rv;
    m->vlog[m->vlog_n++] = rv;
    m->score += sq_dist(m->ref->positions + 3 * (size_t)rv, m->frm->positions + 3 * (size_t)fv);
    return true;
}

/* Binds reference triangle t to frame triangle u, reference corner c to
 * frame corner (c + r) % 3; false on a contradiction. */
static bool bind_triangle(matcher *m, uint32_t t, uint32_t u, uint32_t r)
{
    if (m->tmap[t] != MK_NONE || m->tinv[u] != MK_NONE)
        return m->tmap[t] == 3 * u + r && m->tinv[u] == t;
    for (uint32_t c = 0; c < 3; c++) {
        if (!bind_vertex(m, m->ref->triangles[3 * (size_t)t + c],
                         m->frm->triangles[3 * (size_t)u + (c + r) % 3]))
            return false;
        m->score += uv_cost(m, 3 * t + c, 3 * u + (c + r) % 3);
    }
    m->tmap[t] = 3 * u + r;
    m->tinv[u] = t;
    m->tlog[m->tlog_n++] = t;
    return true;
}

static void undo(matcher *m)
{
    while (m->vlog_n) {
        uint32_t rv = m->vlog[--m->vlog_n];
        m->vinv[m->vmap[rv]] = MK_NONE;
        m->vmap[rv] = MK_NONE;
    }
    while (m->tlog_n) {
        uint32_t t = m->tlog[--m->tlog_n];
        m->tinv[m->tmap[t] / 3] = MK_NONE;
        m->tmap[t] = MK_NONE;
    }
    m->score = 0;
}

/* Spreads a seed binding across shared edges; false on a contradiction,
 * or as soon as the trial lands further from the pose than `limit` (it can
 * no longer be the best seed). */
static bool spread(matcher *m, uint32_t t0, uint32_t u0, uint32_t r0, double limit)
{
    if (!bind_triangle(m, t0, u0, r0))
        return false;
    uint32_t head = 0, tail = 0;
    m->queue[tail++] = t0;
    const uint32_t *R = m->ref->triangles;
    while (head < tail) {
        uint32_t t = m->queue[head++];
        for (uint32_t c = 0; c < 3; c++) {
            uint32_t a = R[3 * (size_t)t + c], b = R[3 * (size_t)t + (c + 1) % 3];
            uint32_t rk = edge_map_get(&m->rmap, b, a);
            uint32_t fk = edge_map_get(&m->fmap, m->vmap[b], m->vmap[a]);
            if (rk == MK_NONE || fk == MK_NONE) {
                if (rk != fk)
                    return false; /* a border in one mesh, not in the other */
                continue;
            }
            uint32_t t2 = rk / 3, u2 = fk / 3, r2 = (fk % 3 + 3 - rk % 3) % 3;
            bool fresh = m->tmap[t2] == MK_NONE;
            if (!bind_triangle(m, t2, u2, r2) || m->score >= limit)
                return false;
            if (fresh)
                m->queue[tail++] = t2;
        }
    }
    return true;
}

typedef struct seed {
    uint32_t u, r;
    double cost;
} seed;

/* The frame triangles (and rotations) nearest to reference triangle t
 * that agree with the bindings so far, best first; returns the count. */
static uint32_t seed_candidates(const matcher *m, uint32_t t, seed *best)
{
    uint32_t n = 0;
    const uint32_t *R = m->ref->triangles + 3 * (size_t)t, *F = m->frm->triangles;
    for (uint32_t u = 0; u < m->frm->triangle_count; u++) {
        if (m->tinv[u] != MK_NONE)
            continue;
        for (uint32_t r = 0; r < 3; r++) {
            double cost = 0;
            bool fits = true;
            for (uint32_t c = 0; c < 3 && fits; c++) {
                uint32_t rv = R[c], fv = F[3 * (size_t)u + (c + r) % 3];
                if ((m->vmap[rv] != MK_NONE || m->vinv[fv] != MK_NONE) &&
                    (m->vmap[rv] != fv || m->vinv[fv] != rv))
                    fits = false;
                const float *p = m->ref->positions + 3 * (size_t)rv,
                            *q = m->frm->positions + 3 * (size_t)fv;
                for (int k = 0; k < 3; k++)
                    cost += (double)(p[k] - q[k]) * (p[k] - q[k]);
                cost += uv_cost(m, 3 * t + c, 3 * u + (c + r) % 3);
            }
            if (!fits || (n == SEED_CANDIDATES && cost >= best[n - 1].cost))
                continue;
            uint32_t i = n < SEED_CANDIDATES ? n++ : n - 1;
            while (i > 0 && best[i - 1].cost > cost) {
                best[i] = best[i - 1];
                i--;
            }
            best[i].u = u;
            best[i].r = r;
            best[i].cost = cost;
        }
    }
    return n;
}

static void free_matcher(matcher *m, const mk_allocator *al)
{
    size_t nv = m->ref->vertex_count + 1, nt = m->ref->triangle_count + 1;
    edge_map_free(&m->rmap, al);
    edge_map_free(&m->fmap, al);
    mk_free(al, m->vmap, nv * sizeof(uint32_t));
    mk_free(al, m->vinv, nv * sizeof(uint32_t));
    mk_free(al, m->vlog, nv * sizeof(uint32_t));
    mk_free(al, m->tmap, nt * sizeof(uint32_t));
    mk_free(al, m->tinv, nt * sizeof(uint32_t));
    mk_free(al, m->tlog, nt * sizeof(uint32_t));
    mk_free(al, m->queue, nt * sizeof(uint32_t));
}

static bool mesh_ok(const mk_vorder_mesh *x)
{
    if (!x || !x->positions || (x->triangle_count && !x->triangles))
        return false;
    for (size_t c = 0; c < 3 * (size_t)x->triangle_count; c++)
        if (x->triangles[c] >= x->vertex_count)
            return false;
    return true;
}

mk_status mk_vorder_match(const mk_vorder_mesh *ref, const mk_vorder_mesh *frm,
                          const mk_allocator *al, uint32_t *vertex_map, uint32_t *corner_map,
                          mk_error *err)
{
    if (!mesh_ok(ref) || !mesh_ok(frm) || !vertex_map)
        return mk_error_set(err, MK_ERR_INVALID_ARGUMENT, NULL, 0,
                            "vorder: NULL mesh or map, or a triangle index out of range");
    if (ref->vertex_count != frm->vertex_count || ref->triangle_count != frm->triangle_count)
        return mk_error_set(err, MK_ERR_MISMATCH, NULL, 0,
                            "%u vertices and %u triangles against %u and %u: not the same mesh",
                            frm->vertex_count, frm->triangle_count, ref->vertex_count,
                            ref->triangle_count);
    matcher m;
    memset(&m, 0, sizeof m);
    m.ref = ref;
    m.frm = frm;
    size_t nv = ref->vertex_count + 1, nt = ref->triangle_count + 1;
    m.vmap = mk_alloc(al, nv * sizeof(uint32_t));
    m.vinv = mk_alloc(al, nv * sizeof(uint32_t));
    m.vlog = mk_alloc(al, nv * sizeof(uint32_t));
    m.tmap = mk_alloc(al, nt * sizeof(uint32_t));
    m.tinv = mk_alloc(al, nt * sizeof(uint32_t));
    m.tlog = mk_alloc(al, nt * sizeof(uint32_t));
    m.queue = mk_alloc(al, nt * sizeof(uint32_t));
    if (!m.vmap || !m.vinv || !m.vlog || !m.tmap || !m.tinv || !m.tlog || !m.queue ||
        !edge_map_build(&m.rmap, ref->triangles, ref->triangle_count, al) ||
        !edge_map_build(&m.fmap, frm->triangles, frm->triangle_count, al)) {
        free_matcher(&m, al);
        return mk_error_set(err, MK_ERR_OUT_OF_MEMORY, NULL, 0, "out of memory");
    }
    if (ref->corner_texcoords && frm->corner_texcoords) {
        /* UV differences outweigh any position difference: 1e4 x the
           squared size of the pose */
        float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (uint32_t v = 0; v < ref->vertex_count; v++)
            for (int k = 0; k < 3; k++) {
                float x = ref->positions[3 * (size_t)v + k];
                lo[k] = x < lo[k] ? x : lo[k];
                hi[k] = x > hi[k] ? x : hi[k];
            }
        double d2 = 0;
        for (int k = 0; k < 3; k++)
            d2 += (double)(hi[k] - lo[k]) * (hi[k] - lo[k]);
        m.uv_weight = 1e4 * (d2 > 0 ? d2 : 1.0);
    }
    memset(m.vmap, 0xff, nv * sizeof(uint32_t));
    memset(m.vinv, 0xff, nv * sizeof(uint32_t));
    memset(m.tmap, 0xff, nt * sizeof(uint32_t));
    memset(m.tinv, 0xff, nt * sizeof(uint32_t));
    mk_status st = MK_OK;
    seed cands[SEED_CANDIDATES];
    /* the reference's typical squared edge length (the median of its
       triangles' first edges, on a sample) */
    double edge2 = 0;
    {
        uint32_t samples = ref->triangle_count < 4096 ? ref->triangle_count : 4096, k = 0;
        float *e2 = samples ? mk_alloc(al, samples * sizeof *e2) : NULL;
        for (uint32_t i = 0; e2 && i < samples; i++) {
            const uint32_t *T = ref->triangles + 3 * ((size_t)i * ref->triangle_count / samples);
            e2[k++] = (float)sq_dist(ref->positions + 3 * (size_t)T[0], ref->positions + 3 * (size_t)T[1]);
        }
        edge2 = k ? mk_vorder_select(e2, k, k / 2) : 0;
        mk_free(al, e2, samples * sizeof *e2);
    }
    for (uint32_t t = 0; t < ref->triangle_count && st == MK_OK; t++) {
        if (m.tmap[t] != MK_NONE)
            continue;
        /* try the nearest seeds; keep the one whose piece lands closest */
        uint32_t n = seed_candidates(&m, t, cands), best = MK_NONE, best_t = t;
        uint32_t extra[EXTRA_SEEDS], extra_map[EXTRA_SEEDS], extras = 0;
        seed best_seed = {0, 0, 0};
        double best_score = INFINITY;
        for (uint32_t i = 0; i < n; i++) {
            bool ok = spread(&m, t, cands[i].u, cands[i].r, best_score);
            if (ok && m.score < best_score) {
                best_score = m.score;
                best = i;
                best_seed = cands[i];
            }
            undo(&m);
        }
        /* When most of the piece then lands over half an edge from the
           pose, the seed may be wrong: a seed triangle whose vertices are
           out of place in the frame (renumbered and scrambled too) has its
           true counterpart far down the list, and a turned numbering of a
           symmetric mesh wins. Then the same from a few more triangles
           across the piece. */
        bool kept = best != MK_NONE && spread(&m, t, best_seed.u, best_seed.r, INFINITY);
        if (kept) {
            uint32_t far = 0;
            for (uint32_t i = 0; i < m.vlog_n; i++) {
                uint32_t rv = m.vlog[i];
                far += sq_dist(ref->positions + 3 * (size_t)rv,
                               frm->positions + 3 * (size_t)m.vmap[rv]) > 0.25 * edge2;
            }
            for (extras = 0; 2 * far > m.vlog_n && extras < EXTRA_SEEDS && m.tlog_n > 1; extras++) {
                extra[extras] = m.tlog[(size_t)m.tlog_n * (extras + 1) / (EXTRA_SEEDS + 1)];
                extra_map[extras] = m.tmap[extra[extras]]; /* where the best seed put it */
            }
        }
        if (!kept || extras) { /* trying the extra seeds: the bindings go, and the best
                                  comes back below */
            undo(&m);
            kept = false;
        }
        for (uint32_t k = 0; k < extras; k++) {
            uint32_t n2 = seed_candidates(&m, extra[k], cands);
            for (uint32_t i = 0; i < n2 && i < EXTRA_CANDIDATES; i++) {
                if (3 * cands[i].u + cands[i].r == extra_map[k])
                    continue; /* the same binding: the same piece again */
                bool ok = spread(&m, extra[k], cands[i].u, cands[i].r, best_score);
                if (ok && m.score < best_score) {
                    best_score = m.score;
                    best_t = extra[k];
                    best_seed = cands[i];
                }
                undo(&m);
            }
        }
        if (best == MK_NONE) {
            st = mk_error_set(err, MK_ERR_MISMATCH, NULL, 0,
                              "reference triangle %u (%u %u %u) has no counterpart with the same "
                              "neighbours: not the same mesh",
                              t + 1, ref->triangles[3 * (size_t)t] + 1,
                              ref->triangles[3 * (size_t)t + 1] + 1,
                              ref->triangles[3 * (size_t)t + 2] + 1);
            break;
        }
        if (!kept) /* the best seed's bindings, unless they are still in place */
            spread(&m, best_t, best_seed.u, best_seed.r, INFINITY);
        m.vlog_n = m.tlog_n = 0; /* committed */
        m.score = 0;
    }
    if (st == MK_OK) {
        /* vertices no triangle uses: paired in index order */
        uint32_t f = 0;
        for (uint32_t v = 0; v < ref->vertex_count; v++) {
            if (m.vmap[v] != MK_NONE)
                continue;
            while (f < frm->vertex_count && m.vinv[f] != MK_NONE)
                f++;
            m.vmap[v] = f;
            m.vinv[f] = v;
        }
        memcpy(vertex_map, m.vmap, ref->vertex_count * sizeof *vertex_map);
        for (uint32_t t = 0; corner_map && t < ref->triangle_count; t++)
            for (uint32_t c = 0; c < 3; c++)
                corner_map[3 * (size_t)t + c] = 3 * (m.tmap[t] / 3) + (c + m.tmap[t] % 3) % 3;
    }
    free_matcher(&m, al);
    return st;
}
