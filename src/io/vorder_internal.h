/* Internal pieces shared by vertex-order detection and repair: the
 * reference mesh's unique edges, each vertex's edges, and the per-vertex
 * change between two frames (the rule stated in morphkit/repair.h). */
#ifndef MK_VORDER_INTERNAL_H
#define MK_VORDER_INTERNAL_H

#include "morphkit/repair.h"

#define MK_VORDER_CHANGE_LIMIT 0.693147f /* ln 2: an edge median halves or doubles */
#define MK_VORDER_EPS_SHARE 0.05f        /* of the median edge length */

typedef struct mk_vorder_topo {
    uint32_t vertex_count;
    uint32_t edge_count;
    uint32_t *edges;      /* 2 per edge, lower index first */
    uint32_t *vert_start; /* vertex_count + 1: vertex v's edges are vert_edges[start[v]..start[v+1]) */
    uint32_t *vert_edges; /* 2 x edge_count edge ids */
    const mk_allocator *allocator;
} mk_vorder_topo;

/* Builds the unique undirected edges of the triangles; false when out of memory. */
bool mk_vorder_topo_build(mk_vorder_topo *t, uint32_t vertex_count, const uint32_t *triangles,
                          uint32_t triangle_count, const mk_allocator *allocator);
void mk_vorder_topo_free(mk_vorder_topo *t);

/* Every edge's length in one frame. */
void mk_vorder_edge_lengths(const mk_vorder_topo *t, const float *positions, float *lengths);

/* Per-vertex change of frame f's edges (lf) against g's (lg): out receives
 * vertex_count values (0 for vertices without edges). scale: ln of f's
 * spread over g's. scratch holds 2 x edge_count + max degree floats. */
void mk_vorder_vertex_change(const mk_vorder_topo *t, const float *lf, const float *lg,
                             float scale, float eps, float *scratch, float *out);

/* RMS distance of n float3 points from their centroid (order-blind). */
float mk_vorder_spread(const float *pos, uint32_t n);

/* k-th smallest of v[0..n) (v is reordered). */
float mk_vorder_select(float *v, uint32_t n, uint32_t k);

/* The comparator frames of frame f: the frame before and after it in play
 * (MK_NONE where there is none): in its animation, and across a loop or a
 * clip switch where fr->next_frames says so. */
void mk_vorder_neighbours(const mk_vorder_frames *fr, uint32_t f, uint32_t *prev, uint32_t *next);

/* Each vertex's change in frame f (the minimum over its comparators) when
 * f holds `positions` (the other frames as given); false when out of memory. */
bool mk_vorder_frame_change(const mk_vorder_frames *fr, const float *positions, uint32_t f,
                            const mk_allocator *allocator, float *change);

/* Where a vertex at pv (in a predicted pose) lands when its m known
 * neighbours, at p in the prediction, are at q in the frame: the best
 * rotation and uniform scale of the neighbourhood (np and nq: the
 * neighbourhood's normal in each pose, any consistent orientation), applied
 * to pv. false when the neighbourhood decides no proper rotation. */
bool mk_vorder_local_fit(const float *p, const float *q, uint32_t m, const double *np,
                         const double *nq, const float *pv, float *out);

/* Rigid pieces (vorder_pieces.c): frame f rebuilt piece by piece, each
 * piece (vertices joined by triangles) of near[0] (else near[1]), the real
 * frames around f (MK_NONE: none; f lies at t between them), found again
 * among f's positions by a rigid motion. A piece that fits several ways
 * takes the fit whose place is clearly nearest to the piece's centroid
 * interpolated between the near frames (pieces alike: under half as far as
 * any other place), and among the fits there (a symmetric piece, turned)
 * the one within 30 degrees of the turn interpolated between the near
 * frames and 30 degrees nearer than any other. out: the repaired frame. MK_ERR_MISMATCH when a piece
 * fits nowhere or not clearly, two pieces land on one place, a `v` belongs
 * to no triangle, or the mesh is too large for the search (over 4096
 * vertices); MK_ERR_OUT_OF_MEMORY. */
mk_status mk_vorder_repair_pieces(const mk_vorder_frames *fr, uint32_t f, const uint32_t near[2],
                                  double t, const mk_allocator *al, float *out);

/* Checks an mk_vorder_frames for misuse; MK_OK or MK_ERR_INVALID_ARGUMENT. */
mk_status mk_vorder_frames_check(const mk_vorder_frames *fr, mk_error *err);

#endif
