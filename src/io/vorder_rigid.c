/* Local rigid prediction for scramble repair: where a vertex lands when
 * its neighbourhood moved as one piece (a limb turns at a joint, but each
 * small patch of it only turns and shifts). The rotation is the polar
 * factor of the neighbours' cross-covariance, made full rank by the
 * patch's normal (a 1-ring is nearly flat, so its points alone leave the
 * rotation about the patch's own plane undecided). */
#include <math.h>
#include <string.h>

#include "vorder_internal.h"

static double det3(const double *m)
{
    return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
           m[2] * (m[3] * m[7] - m[4] * m[6]);
}

/* The rotation nearest to m (its polar factor), by Newton's iteration
 * X <- (X + X^-T) / 2; false when m is singular or a reflection. */
static bool polar_rotation(const double *m, double *r)
{
    double fro = 0;
    for (int i = 0; i < 9; i++)
        fro += m[i] * m[i];
    fro = sqrt(fro);
    if (!(fro > 0))
        return false;
    double x[9];
    for (int i = 0; i < 9; i++)
        x[i] = m[i] / fro;
    if (det3(x) < 1e-6)
        return false; /* (near) singular or a mirror image: no proper rotation */
    for (int it = 0; it < 40; it++) {
        double d = det3(x);
        if (!(fabs(d) > 1e-300))
            return false;
        /* X^-T = cofactor(X) / det */
        double c[9] = {x[4] * x[8] - x[5] * x[7], x[5] * x[6] - x[3] * x[8], x[3] * x[7] - x[4] * x[6],
                       x[2] * x[7] - x[1] * x[8], x[0] * x[8] - x[2] * x[6], x[1] * x[6] - x[0] * x[7],
                       x[1] * x[5] - x[2] * x[4], x[2] * x[3] - x[0] * x[5], x[0] * x[4] - x[1] * x[3]};
        double delta = 0;
        for (int i = 0; i < 9; i++) {
            double y = 0.5 * (x[i] + c[i] / d);
            delta += (y - x[i]) * (y - x[i]);
            x[i] = y;
        }
        if (delta < 1e-24)
            break;
    }
    memcpy(r, x, sizeof x);
    return det3(r) > 0.5;
}

bool mk_vorder_local_fit(const float *p, const float *q, uint32_t m, const double *np,
                         const double *nq, const float *pv, float *out)
{
    if (m < 2)
        return false;
    double cp[3] = {0, 0, 0}, cq[3] = {0, 0, 0};
    for (uint32_t i = 0; i < m; i++)
        for (int k = 0; k < 3; k++) {
            cp[k] += p[3 * i + k];
            cq[k] += q[3 * i + k];
        }
    for (int k = 0; k < 3; k++) {
        cp[k] /= m;
        cq[k] /= m;
    }
    double cov[9] = {0}, sp = 0, sq = 0;
    for (uint32_t i = 0; i < m; i++) {
        double a[3], b[3];
        for (int k = 0; k < 3; k++) {
            a[k] = p[3 * i + k] - cp[k];
            b[k] = q[3 * i + k] - cq[k];
            sp += a[k] * a[k];
            sq += b[k] * b[k];
        }
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                cov[3 * r + c] += b[r] * a[c];
    }
    double lp = sqrt(np[0] * np[0] + np[1] * np[1] + np[2] * np[2]),
           lq = sqrt(nq[0] * nq[0] + nq[1] * nq[1] + nq[2] * nq[2]);
    if (!(sp > 0) || !(sq > 0) || !(lp > 0) || !(lq > 0))
        return false;
    /* the normals weigh as much as the points do */
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            cov[3 * r + c] += sqrt(sp * sq) * (nq[r] / lq) * (np[c] / lp);
    double rot[9];
    if (!polar_rotation(cov, rot))
        return false;
    double s = sqrt(sq / sp); /* the patch's own stretch */
    double d[3] = {pv[0] - cp[0], pv[1] - cp[1], pv[2] - cp[2]};
    for (int r = 0; r < 3; r++)
        out[r] = (float)(cq[r] + s * (rot[3 * r] * d[0] + rot[3 * r + 1] * d[1] + rot[3 * r + 2] * d[2]));
    return true;
}
