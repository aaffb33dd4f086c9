/* The boundary systems of the partitioned chain kernel (chain.h): after
 * the segments' sweeps, the unknowns at the segment boundaries solve a
 * tridiagonal system of one row per segment, exactly (Thomas elimination
 * in segment order, on the calling thread; a path's first segment starts
 * afresh, so paths stay apart). A pivot at or below CDYN__REDUNDANT_PIVOT of
 * its diagonal drops its unknown (0), as the sweeps drop a row.
 *
 * Newton (unknowns t_k = delta at segment k's first row a): row a's
 * equation after the segment's elimination is
 *     t_k = y_a - c_a delta_(a-1) - s_a t_(k+1),
 * and delta_(a-1), the previous segment's last unknown, is
 * ta + tb t_(k-1) + tc t_k by that segment's transfer.
 *
 * A1 (unknowns s_k = nu at segment k's last row b): row b's equation is
 *     s_k = y_b - cp_b nu_(b+1) - o_k f_b s_(k-1),
 * cp_b = o_(k+1) / p_b, and nu_(b+1), the next segment's first unknown, is
 * alpha + beta s_(k+1) + gamma o_(k+1) s_k by that segment's transfer. The
 * coupling o_k = -w e1_(a-1).e1_a needs x1 on both sides of the boundary,
 * hence here. The matrix is factored once per step (after the first
 * forward sweep, which composes the transfers), the right-hand sides
 * solved after each forward sweep. */
#include "projection/chain.h"
#include "solver/ldlt.h"

static double dot(const double *a, const double *b, size_t D)
{
    double s = a[0] * b[0] + a[1] * b[1];
    return D == 3 ? s + a[2] * b[2] : s;
}

static double inverse_pivot(double q, double m)
{
    return m > 0 && q > CDYN__REDUNDANT_PIVOT * m ? 1.0 / q : 0.0;
}

void cdyn__chain_newton_boundary(cdyn__chain *c)
{
    cdyn__chain_seg *seg = c->seg;
    const uint32_t n = c->n_segs;
    double u_prev = 0, qinv_prev = 0, z_prev = 0;
    for (uint32_t k = 0; k < n; k++) {
        cdyn__chain_seg *g = &seg[k];
        const uint32_t a = g->start;
        const double cf = c->nc[a], yf = c->ny[a];
        double l = 0, m = 1, r = yf;
        if (!g->path_first) {
            const cdyn__chain_seg *p = &seg[k - 1];
            l = cf * p->tb;
            m = 1.0 + cf * p->tc;
            r = yf - cf * p->ta;
        }
        const double u = g->path_last ? 0.0 : c->ns[a];
        double q = m, z = r, mlt = 0;
        if (!g->path_first) {
            mlt = l * qinv_prev;
            q = m - mlt * u_prev;
            z = r - mlt * z_prev;
        }
        const double qinv = inverse_pivot(q, m);
        g->red_u = u;
        g->red_z[0] = z;
        g->red_pinv = qinv;
        u_prev = u;
        qinv_prev = qinv;
        z_prev = z;
    }
    double t_next = 0;
    for (uint32_t k = n; k-- > 0;) {
        cdyn__chain_seg *g = &seg[k];
        if (g->path_last)
            t_next = 0;
        g->t = (g->red_z[0] - g->red_u * t_next) * g->red_pinv;
        g->bottom = g->ta + g->tb * g->t + g->tc * t_next;
        t_next = g->t;
    }
}

void cdyn__chain_a1_boundary(cdyn__chain *c, size_t D)
{
    cdyn__chain_seg *seg = c->seg;
    const uint32_t n = c->n_segs;
    for (uint32_t k = 0; k < n; k++) {
        cdyn__chain_seg *g = &seg[k];
        g->o = g->path_first ? 0.0 : -(g->w_first * dot(seg[k - 1].e1_last, g->e1_first, D));
    }
    double u_prev = 0, qinv_prev = 0;
    for (uint32_t k = 0; k < n; k++) {
        cdyn__chain_seg *g = &seg[k];
        double m = 1, u = 0;
        g->cp_last = 0;
        if (!g->path_last) {
            const cdyn__chain_seg *nx = &seg[k + 1];
            g->cp_last = nx->o * g->pinv_last;
            m = 1.0 + g->cp_last * (nx->gamma * nx->o);
            u = g->cp_last * nx->beta;
        }
        double q = m, mlt = 0;
        if (!g->path_first) {
            mlt = g->o * g->f_last * qinv_prev;
            q = m - mlt * u_prev;
        }
        const double qinv = inverse_pivot(q, m);
        g->red_c = mlt;
        g->red_u = u;
        g->red_pinv = qinv;
        u_prev = u;
        qinv_prev = qinv;
    }
}

void cdyn__chain_velocity_boundary(cdyn__chain *c, int n_rhs)
{
    cdyn__chain_seg *seg = c->seg;
    const uint32_t n = c->n_segs;
    for (int j = 0; j < n_rhs; j++) {
        double z_prev = 0;
        for (uint32_t k = 0; k < n; k++) {
            cdyn__chain_seg *g = &seg[k];
            double r = g->y_last[j];
            if (!g->path_last)
                r -= g->cp_last * seg[k + 1].alpha[j];
            const double z = g->path_first ? r : r - g->red_c * z_prev;
            g->red_z[j] = z;
            z_prev = z;
        }
        double s_next = 0;
        for (uint32_t k = n; k-- > 0;) {
            cdyn__chain_seg *g = &seg[k];
            if (g->path_last)
                s_next = 0;
            g->s[j] = (g->red_z[j] - g->red_u * s_next) * g->red_pinv;
            s_next = g->s[j];
        }
        for (uint32_t k = 0; k < n; k++) {
            cdyn__chain_seg *g = &seg[k];
            const double os = g->path_first ? 0.0 : g->o * seg[k - 1].s[j];
            g->top[j] = g->alpha[j] + g->beta * g->s[j] + g->gamma * os;
        }
    }
}
