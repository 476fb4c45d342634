/* Scrambled-frame repair for meshes made of separate rigid pieces (a unit
 * built of boxes, as low-poly units often are): each piece (vertices joined
 * by triangles) keeps its shape from frame to frame, so its shape in a real
 * frame is found again among the faulty frame's positions by a rigid
 * motion, whatever the pose, and its vertices take the positions it lands
 * on. Rule and limits in morphkit/repair.h. */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "vorder_internal.h"

#define MAX_VERTICES 4096u /* pair searches are quadratic in the vertices */
#define MAX_FITS 64u       /* distinct fits kept per piece (a cube has 24) */
#define FIT_TOLERANCE 2e-5 /* of the frame's bounding-box diagonal */
#define DISTINCT_PLACE 0.5 /* pieces alike: the nearest place under half as far as the next */
#define MAX_TURN 30.0      /* degrees: a symmetric piece's fit from the turn expected between
                              the frames around, and at least this much nearer than the next */
#define MAX_WORK 2e8       /* pieces x vertices^2: the pair searches' bound */

static double dist(const float *a, const float *b)
{
    double x = (double)a[0] - b[0], y = (double)a[1] - b[1], z = (double)a[2] - b[2];
    return sqrt(x * x + y * y + z * z);
}

static uint32_t root(uint32_t *parent, uint32_t v)
{
    while (parent[v] != v)
        v = parent[v] = parent[parent[v]];
    return v;
}

/* An orthonormal frame from three points: x along b - a, y towards c in
 * the plane, z their cross product. false when a, b, c are (nearly)
 * collinear. */
static bool frame_of(const float *a, const float *b, const float *c, double m[3][3])
{
    double x[3], y[3];
    for (int i = 0; i < 3; i++) {
        x[i] = (double)b[i] - a[i];
        y[i] = (double)c[i] - a[i];
    }
    double lx = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    if (!(lx > 0))
        return false;
    for (int i = 0; i < 3; i++)
        x[i] /= lx;
    double d = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    for (int i = 0; i < 3; i++)
        y[i] -= d * x[i];
    double ly = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
    if (!(ly > 1e-6 * lx))
        return false;
    for (int i = 0; i < 3; i++) {
        m[0][i] = x[i];
        m[1][i] = y[i] / ly;
    }
    m[2][0] = m[0][1] * m[1][2] - m[0][2] * m[1][1];
    m[2][1] = m[0][2] * m[1][0] - m[0][0] * m[1][2];
    m[2][2] = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    return true;
}

typedef struct piece_ctx {
    uint32_t n;
    const float *pos;   /* the faulty frame */
    const float *shape; /* a real frame */
    const float *near[2]; /* the real frames around the faulty one (or NULL) */
    double t;             /* where the faulty frame lies between them (0..1) */
    double tol;
} piece_ctx;

/* The candidate nearest to x within tol, or MK_NONE. */
static uint32_t nearest(const piece_ctx *c, const double *x)
{
    uint32_t best = MK_NONE;
    double bd = c->tol * c->tol;
    for (uint32_t i = 0; i < c->n; i++) {
        const float *p = c->pos + 3 * (size_t)i;
        double dx = p[0] - x[0], dy = p[1] - x[1], dz = p[2] - x[2];
        double d = dx * dx + dy * dy + dz * dz;
        if (d <= bd) {
            bd = d;
            best = i;
        }
    }
    return best;
}

/* R = tf^T sf: the rotation taking the shape's frame sf onto tf. */
static void rotation(double tf[3][3], double sf[3][3], double R[3][3])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            R[i][j] = tf[0][i] * sf[0][j] + tf[1][i] * sf[1][j] + tf[2][i] * sf[2][j];
}

/* The rigid motion (its rotation: R) taking shape points a (with sf the
 * frame of a, b, c) to candidates p, q, r, then every vertex of the piece
 * (k of them, vs) to the candidate it lands on (fit: k entries). false
 * when one lands on none. */
static bool try_fit(const piece_ctx *c, const uint32_t *vs, uint32_t k, double sf[3][3],
                    uint32_t a, uint32_t p, uint32_t q, uint32_t r, uint32_t *fit, double R[3][3])
{
    double tf[3][3];
    if (!frame_of(c->pos + 3 * (size_t)p, c->pos + 3 * (size_t)q, c->pos + 3 * (size_t)r, tf))
        return false;
    rotation(tf, sf, R);
    const float *sa = c->shape + 3 * (size_t)a, *pa = c->pos + 3 * (size_t)p;
    for (uint32_t i = 0; i < k; i++) {
        const float *s = c->shape + 3 * (size_t)vs[i];
        double d[3] = {(double)s[0] - sa[0], (double)s[1] - sa[1], (double)s[2] - sa[2]}, x[3];
        for (int row = 0; row < 3; row++)
            x[row] = pa[row] + R[row][0] * d[0] + R[row][1] * d[1] + R[row][2] * d[2];
        if ((fit[i] = nearest(c, x)) == MK_NONE)
            return false;
    }
    return true;
}

/* A rotation matrix as a unit quaternion (x, y, z, w). */
static void quat_of(double R[3][3], double q[4])
{
    double tr = R[0][0] + R[1][1] + R[2][2];
    if (tr > 0) {
        double s = 2 * sqrt(tr + 1);
        q[3] = s / 4, q[0] = (R[2][1] - R[1][2]) / s, q[1] = (R[0][2] - R[2][0]) / s,
        q[2] = (R[1][0] - R[0][1]) / s;
    } else if (R[0][0] > R[1][1] && R[0][0] > R[2][2]) {
        double s = 2 * sqrt(1 + R[0][0] - R[1][1] - R[2][2]);
        q[3] = (R[2][1] - R[1][2]) / s, q[0] = s / 4, q[1] = (R[0][1] + R[1][0]) / s,
        q[2] = (R[0][2] + R[2][0]) / s;
    } else if (R[1][1] > R[2][2]) {
        double s = 2 * sqrt(1 + R[1][1] - R[0][0] - R[2][2]);
        q[3] = (R[0][2] - R[2][0]) / s, q[0] = (R[0][1] + R[1][0]) / s, q[1] = s / 4,
        q[2] = (R[1][2] + R[2][1]) / s;
    } else {
        double s = 2 * sqrt(1 + R[2][2] - R[0][0] - R[1][1]);
        q[3] = (R[1][0] - R[0][1]) / s, q[0] = (R[0][2] + R[2][0]) / s,
        q[1] = (R[1][2] + R[2][1]) / s, q[2] = s / 4;
    }
    double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++)
        q[i] /= l;
}

/* The angle between two rotations given as unit quaternions, in degrees. */
static double angle_between(const double *a, const double *b)
{
    double d = fabs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
    return 2 * acos(d < 1 ? d : 1) * 57.29577951308232;
}

/* Normalized linear interpolation of two unit quaternions (shortest way). */
static void nlerp(const double *a, const double *b, double t, double *q)
{
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3], sb = d < 0 ? -t : t, l = 0;
    for (int i = 0; i < 4; i++) {
        q[i] = (1 - t) * a[i] + sb * b[i];
        l += q[i] * q[i];
    }
    l = sqrt(l);
    for (int i = 0; i < 4; i++)
        q[i] /= l > 0 ? l : 1;
}

static void centroid_of(const float *p, const uint32_t *ids, const uint32_t *vs, uint32_t k,
                        double *c)
{
    c[0] = c[1] = c[2] = 0;
    for (uint32_t i = 0; i < k; i++)
        for (int j = 0; j < 3; j++)
            c[j] += p[3 * (size_t)(ids ? ids[i] : vs[i]) + j] / k;
}

/* One piece (vertices vs, k >= 3): its fits into the frame; the one to
 * take goes to out (k entries). false when there is none, or several that
 * the prediction does not tell apart. */
static bool fit_piece(const piece_ctx *c, const uint32_t *vs, uint32_t k, uint32_t *fits,
                      uint32_t *out)
{
    /* a, then b farthest from a, then c farthest from the line ab */
    uint32_t a = vs[0], b = vs[0], cc = vs[0];
    double best = -1;
    for (uint32_t i = 0; i < k; i++) {
        double d = dist(c->shape + 3 * (size_t)a, c->shape + 3 * (size_t)vs[i]);
        if (d > best)
            best = d, b = vs[i];
    }
    best = -1;
    for (uint32_t i = 0; i < k; i++) {
        const float *s = c->shape + 3 * (size_t)vs[i];
        double d = dist(c->shape + 3 * (size_t)a, s) + dist(c->shape + 3 * (size_t)b, s);
        if (d > best)
            best = d, cc = vs[i];
    }
    double sf[3][3];
    if (!frame_of(c->shape + 3 * (size_t)a, c->shape + 3 * (size_t)b, c->shape + 3 * (size_t)cc, sf))
        return false;
    const double dab = dist(c->shape + 3 * (size_t)a, c->shape + 3 * (size_t)b),
                 dac = dist(c->shape + 3 * (size_t)a, c->shape + 3 * (size_t)cc),
                 dbc = dist(c->shape + 3 * (size_t)b, c->shape + 3 * (size_t)cc);
    const double tol = 2 * c->tol;
    uint32_t count = 0;
    double rots[MAX_FITS][3][3];
    for (uint32_t p = 0; p < c->n; p++)
        for (uint32_t q = 0; q < c->n; q++) {
            if (q == p || fabs(dist(c->pos + 3 * (size_t)p, c->pos + 3 * (size_t)q) - dab) > tol)
                continue;
            for (uint32_t r = 0; r < c->n; r++) {
                if (r == p || r == q ||
                    fabs(dist(c->pos + 3 * (size_t)p, c->pos + 3 * (size_t)r) - dac) > tol ||
                    fabs(dist(c->pos + 3 * (size_t)q, c->pos + 3 * (size_t)r) - dbc) > tol)
                    continue;
                uint32_t *fit = fits + (size_t)count * k;
                if (count == MAX_FITS)
                    return false;
                if (!try_fit(c, vs, k, sf, a, p, q, r, fit, rots[count]))
                    continue;
                bool seen = false; /* the same fit from equal positions */
                for (uint32_t j = 0; j < count && !seen; j++)
                    seen = memcmp(fits + (size_t)j * k, fit, (size_t)k * sizeof *fit) == 0;
                if (!seen)
                    count++;
            }
        }
    if (count == 0)
        return false;
    if (count == 1) {
        memcpy(out, fits, (size_t)k * sizeof *out);
        return true;
    }
    /* Several fits: a symmetric piece (the same places, turned), or pieces
       alike (other places). Where: the piece's centroid between the real
       frames around (at t); the nearest place must be clearly nearest. */
    double want[3] = {0, 0, 0}, cn[3], wsum = 0;
    double qn[2][4], qexp[4];
    int nn = 0;
    for (int r = 0; r < 2; r++) {
        if (!c->near[r])
            continue;
        double w = nn == 0 && !c->near[1 - r] ? 1.0 : r == 0 ? 1 - c->t : c->t, nf[3][3], R[3][3];
        centroid_of(c->near[r], NULL, vs, k, cn);
        for (int j = 0; j < 3; j++)
            want[j] += w * cn[j];
        wsum += w;
        if (!frame_of(c->near[r] + 3 * (size_t)a, c->near[r] + 3 * (size_t)b,
                      c->near[r] + 3 * (size_t)cc, nf))
            return false;
        rotation(nf, sf, R);
        quat_of(R, qn[nn++]);
    }
    for (int j = 0; j < 3; j++)
        want[j] /= wsum;
    if (nn == 2)
        nlerp(qn[0], qn[1], c->t, qexp);
    else
        memcpy(qexp, qn[0], sizeof qexp);
    double place[MAX_FITS], turn[MAX_FITS];
    uint32_t take = 0;
    for (uint32_t j = 0; j < count; j++) {
        double cf[3], q[4];
        centroid_of(c->pos, fits + (size_t)j * k, vs, k, cf);
        place[j] = sqrt((cf[0] - want[0]) * (cf[0] - want[0]) + (cf[1] - want[1]) * (cf[1] - want[1]) +
                        (cf[2] - want[2]) * (cf[2] - want[2]));
        quat_of(rots[j], q);
        turn[j] = angle_between(q, qexp);
        if (place[j] < place[take] - tol || (place[j] <= place[take] + tol && turn[j] < turn[take]))
            take = j;
    }
    for (uint32_t j = 0; j < count; j++) {
        if (j == take)
            continue;
        bool same_place = place[j] <= place[take] + tol && place[j] >= place[take] - tol;
        if (!same_place && !(place[take] < DISTINCT_PLACE * place[j]))
            return false; /* pieces alike, not clearly told apart by where they are */
        if (same_place && !(turn[take] <= MAX_TURN && turn[j] >= turn[take] + MAX_TURN))
            return false; /* a symmetric piece, not clearly told apart by its turn */
    }
    memcpy(out, fits + (size_t)take * k, (size_t)k * sizeof *out);
    return true;
}

mk_status mk_vorder_repair_pieces(const mk_vorder_frames *fr, uint32_t f, const uint32_t near[2],
                                  double t, const mk_allocator *al, float *out)
{
    const uint32_t n = fr->vertex_count;
    if (n > MAX_VERTICES || n < 3 || (near[0] == MK_NONE && near[1] == MK_NONE))
        return MK_ERR_MISMATCH;
    const float *pos = fr->positions[f];
    float lo[3], hi[3];
    for (int i = 0; i < 3; i++)
        lo[i] = hi[i] = pos[i];
    for (uint32_t v = 0; v < n; v++)
        for (int i = 0; i < 3; i++) {
            float x = pos[3 * (size_t)v + i];
            lo[i] = x < lo[i] ? x : lo[i];
            hi[i] = x > hi[i] ? x : hi[i];
        }
    float diag[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    const float zero[3] = {0, 0, 0};
    piece_ctx c = {n, pos, fr->positions[near[0] != MK_NONE ? near[0] : near[1]],
                   {near[0] != MK_NONE ? fr->positions[near[0]] : NULL,
                    near[1] != MK_NONE ? fr->positions[near[1]] : NULL},
                   t, FIT_TOLERANCE * dist(diag, zero)};
    /* parent, order (vertices by piece), start (piece offsets), assignment,
       taken, and room for the fits */
    size_t words = 6 * (size_t)n + 1 + (size_t)MAX_FITS * n;
    uint32_t *w = mk_alloc(al, words * sizeof *w);
    if (!w)
        return MK_ERR_OUT_OF_MEMORY;
    uint32_t *parent = w, *order = parent + n, *start = order + n, *assign = start + n + 1,
             *taken = assign + n, *used = taken + n, *fits = used + n;
    mk_status st = MK_OK;
    for (uint32_t v = 0; v < n; v++)
        parent[v] = v, used[v] = 0, taken[v] = 0;
    for (uint32_t tri = 0; tri < fr->triangle_count; tri++) {
        const uint32_t *T = fr->triangles + 3 * (size_t)tri;
        for (int i = 0; i < 3; i++)
            used[T[i]] = 1;
        uint32_t r0 = root(parent, T[0]);
        for (int i = 1; i < 3; i++) {
            uint32_t ri = root(parent, T[i]);
            if (ri != r0)
                parent[ri] = r0;
        }
    }
    /* vertices grouped by piece: start[p]..start[p+1] in order */
    uint32_t pieces = 0;
    for (uint32_t v = 0; v < n && st == MK_OK; v++)
        if (!used[v])
            st = MK_ERR_MISMATCH; /* a `v` no face uses has no shape */
    for (uint32_t v = 0; v < n; v++)
        assign[v] = MK_NONE;
    for (uint32_t v = 0; v < n && st == MK_OK; v++) {
        uint32_t r0 = root(parent, v);
        if (assign[r0] == MK_NONE)
            assign[r0] = pieces++;
    }
    if (st == MK_OK && (double)pieces * n * n > MAX_WORK)
        st = MK_ERR_MISMATCH;
    if (st == MK_OK) {
        memset(start, 0, ((size_t)pieces + 1) * sizeof *start);
        for (uint32_t v = 0; v < n; v++)
            start[assign[root(parent, v)] + 1]++;
        for (uint32_t p = 0; p < pieces; p++)
            start[p + 1] += start[p];
        for (uint32_t v = 0; v < n; v++) /* taken: a fill cursor per piece for now */
            order[start[assign[root(parent, v)]] + taken[assign[root(parent, v)]]++] = v;
        memset(taken, 0, (size_t)n * sizeof *taken);
    }
    /* each piece's fit; every candidate taken once (equal positions swap) */
    for (uint32_t p = 0; p < pieces && st == MK_OK; p++) {
        const uint32_t *vs = order + start[p], k = start[p + 1] - start[p];
        uint32_t *fit = parent; /* no longer needed: the pieces are listed */
        if (k < 3 || !fit_piece(&c, vs, k, fits, fit)) {
            st = MK_ERR_MISMATCH;
            break;
        }
        for (uint32_t i = 0; i < k && st == MK_OK; i++) {
            uint32_t q = fit[i];
            for (uint32_t j = 0; taken[q] && j < n; j++)
                if (!taken[j] && memcmp(pos + 3 * (size_t)j, pos + 3 * (size_t)q, 12) == 0)
                    q = j;
            if (taken[q])
                st = MK_ERR_MISMATCH; /* two pieces on one place */
            taken[q] = 1;
            memcpy(out + 3 * (size_t)vs[i], pos + 3 * (size_t)q, 12);
        }
    }
    mk_free(al, w, words * sizeof *w);
    return st;
}
