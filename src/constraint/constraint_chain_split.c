/* The multiplier solve of a chain of rods cut into segments, whose sweeps
 * run on the host's threads (constraint_chain.c makes the same solve in
 * two sweeps on one thread).
 *
 * The rows are cut into segments of about SEGMENT_ROWS rows, their count
 * fixed by the row count alone, so that the bits do not depend on the
 * workers. Segment k, rows a..b, eliminates its own block T of A with the
 * couplings to the rows around it moved to the right-hand side,
 *
 *   T lambda_k = rhs_k - alpha e_a - beta e_b,
 *   alpha = u_a lambda_(a-1),  beta = u_(b+1) lambda_(b+1),  u_r = A(r, r - 1).
 *
 * Down each segment (a parallel loop): the rows, T = L D L^T,
 * y = D^-1 L^-1 rhs_k and the spike f = D^-1 L^-1 e_a; and on the way the
 * segment's first unknown as a function of alpha and beta, from the back
 * substitution that is to come (P_r = prod_(s = a+1..r) -L(s, s - 1)):
 *
 *   lambda_a = Ya - alpha Va - beta Wa,  Ya = sum P_r y_r,  Va = sum P_r f_r,
 *   Wa = P_b / d_b;   lambda_b = y_b - alpha f_b - beta / d_b.
 *
 * The calling thread solves for the end unknowns of all segments, a small
 * banded system, in segment order. Up each segment (a parallel loop):
 * lambda_r = y_r - alpha f_r - L(r + 1, r) lambda_(r+1) from lambda_b, and
 * W G^T lambda into the accelerations. The result is the solution of the
 * same equations; only its rounding differs from the uncut sweeps.
 *
 * Each particle is written by one segment: the one moving particle a
 * segment shares with the next is the earlier segment's, which adds the
 * next segment's first row to it before its own last row, in the uncut
 * sweep's order. Fixed particles (w = 0), which any number of rows may
 * share, gain nothing and are not written. */
#include <float.h>
#include <math.h>

#include "constraint/constraint.h"
#include "constraint/row_rhs.h"
#include "core/alloc.h"
#include "core/system.h"
#include "core/tasks.h"

/* Rows per segment: long enough that the sweeps' work (some 4 ns a row
 * each) dwarfs a loop's hand-over and the segment's trip to another core's
 * cache (with 4096 rows, a chain of 12000 stepped slower on 2 workers than
 * on 1), short enough for several segments per worker on long chains. */
#define SEGMENT_ROWS 8192u
/* No coupling term. */
#define NO_TERM SIZE_MAX

typedef struct cdyn__rows_seg {
    uint32_t a, b;         /* first and last row */
    size_t term;           /* the term coupling row a to row a - 1, or NO_TERM */
    double ya, va, wa;     /* lambda_a = ya - alpha va - beta wa */
    double yb, vb, wb;     /* lambda_b = yb - alpha vb - beta wb */
    double u;              /* A(a, a - 1) */
    double c, e;           /* lambda_b = c + e lambda_a of the next segment */
    double ga, gb;         /* lambda_a = ga - gb lambda_a of the next segment */
    double top, bottom;    /* lambda_a, lambda_b */
    double alpha;          /* u lambda_b of the previous segment */
    bool ok;               /* every pivot passed the redundancy test */
} cdyn__rows_seg;

typedef struct job {
    cdyn_system *sys;
    cdyn__rhs_coef rc;
    const double *x, *v;
    double *acc;
    cdyn__rows_seg *segs;
    uint32_t m; /* segments */
} job;

uint32_t cdyn__constraints_chain_segments(uint32_t n_rows)
{
    return (n_rows + SEGMENT_ROWS / 2) / SEGMENT_ROWS;
}

/* The first term whose second block is in row @p a or later. */
static size_t first_term_from(const cdyn__constraints *k, uint32_t a)
{
    size_t lo = 0, hi = k->n_terms;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k->terms[mid].bj / 2 < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static CDYN__ALWAYS_INLINE void forward_d(const job *j, cdyn__rows_seg *g, size_t D)
{
    cdyn__constraints *restrict k = j->sys->cons;
    const double *restrict w = j->sys->inv_mass;
    const uint32_t *restrict bp = k->blk_particle;
    const cdyn__aterm *restrict t = k->terms;
    double *restrict y = k->lambda, *restrict f = k->rhs, *restrict l = k->ldlt.w;
    const size_t nt = k->n_terms;
    size_t ti = first_term_from(k, g->a);
    g->term = NO_TERM;
    if (ti < nt && t[ti].bj / 2 == g->a)
        g->term = ti++;
    double dinv_prev = 0, y_prev = 0, f_prev = 0, p = 1, ya = 0, va = 0;
    g->ok = true;
    for (uint32_t r = g->a; r <= g->b; r++) {
        const uint32_t ia = bp[2 * (size_t)r], ib = bp[2 * (size_t)r + 1];
        double d2;
        const double rhs = cdyn__rods_row(k, &j->rc, j->x, j->v, j->acc, r, ia, ib, D, &d2);
        const double akk = (w[ia] + w[ib]) * d2 + (k->any_compliance ? k->diag[r] : 0.0);
        double dk = akk, zk = rhs, hk = r == g->a ? 1.0 : 0.0, lr = 0;
        if (ti < nt && t[ti].bj / 2 == r) {
            const double u = cdyn__term_value(k, w, &t[ti], D);
            dk -= (u * u) * dinv_prev;
            lr = u * dinv_prev;
            zk -= u * y_prev;
            hk -= u * f_prev;
            ti++;
        }
        if (!(dk > CDYN__REDUNDANT_PIVOT * akk) || !(dk <= DBL_MAX)) {
            g->ok = false;
            return;
        }
        dinv_prev = 1.0 / dk;
        l[r] = lr;
        y[r] = y_prev = zk * dinv_prev;
        f[r] = f_prev = hk * dinv_prev;
        if (r > g->a)
            p *= -lr;
        ya += p * y_prev;
        va += p * f_prev;
    }
    g->ya = ya;
    g->va = va;
    g->wa = p * dinv_prev;
    g->yb = y_prev;
    g->vb = f_prev;
    g->wb = dinv_prev;
}

static void forward_task(uint32_t begin, uint32_t end, void *context)
{
    const job *j = context;
    for (uint32_t s = begin; s < end; s++) {
        if (j->sys->dim == 2)
            forward_d(j, &j->segs[s], 2);
        else
            forward_d(j, &j->segs[s], 3);
    }
}

/* W G^T lambda of row @p r's block @p blk into the accelerations. */
static CDYN__ALWAYS_INLINE void add_block(const cdyn__constraints *restrict k,
                                          const double *restrict w, double *restrict acc,
                                          size_t blk, double lam, size_t D)
{
    const uint32_t i = k->blk_particle[blk];
    if (w[i] == 0)
        return;
    const double li = lam * w[i];
    const double *restrict jb = k->jac + D * blk;
    for (size_t q = 0; q < D; q++)
        acc[(size_t)i * D + q] += li * jb[q];
}

static CDYN__ALWAYS_INLINE void backward_d(const job *j, const cdyn__rows_seg *g,
                                           const cdyn__rows_seg *next, size_t D)
{
    const cdyn__constraints *restrict k = j->sys->cons;
    const double *restrict w = j->sys->inv_mass;
    double *restrict lambda = k->lambda, *restrict acc = j->acc;
    const double *restrict f = k->rhs, *restrict l = k->ldlt.w;
    /* The particle shared with the next segment: that segment's first
     * row's share first, as the uncut sweep adds it. */
    if (next && next->term != NO_TERM)
        add_block(k, w, acc, k->terms[next->term].bj, next->top, D);
    /* The first row's block on the particle the previous segment writes. */
    const size_t skip = g->term != NO_TERM ? k->terms[g->term].bj : NO_TERM;
    const double alpha = g->alpha;
    double lam_next = 0, l_next = 0;
    for (uint32_t r = g->b + 1; r-- > g->a;) {
        /* The ends as the boundary system has them, which the neighbours
         * use too. */
        const double lam = r == g->b   ? g->bottom
                           : r == g->a ? g->top
                                       : (lambda[r] - alpha * f[r]) - l_next * lam_next;
        lambda[r] = lam;
        const size_t ba = 2 * (size_t)r, bb = ba + 1;
        if (ba != skip)
            add_block(k, w, acc, ba, lam, D);
        if (bb != skip)
            add_block(k, w, acc, bb, lam, D);
        lam_next = lam;
        l_next = l[r];
    }
}

static void backward_task(uint32_t begin, uint32_t end, void *context)
{
    const job *j = context;
    for (uint32_t s = begin; s < end; s++) {
        const cdyn__rows_seg *next = s + 1 < j->m ? &j->segs[s + 1] : NULL;
        if (j->sys->dim == 2)
            backward_d(j, &j->segs[s], next, 2);
        else
            backward_d(j, &j->segs[s], next, 3);
    }
}

/* The end unknowns of every segment (see the top of the file), in segment
 * order; false when the system is singular for the redundancy test. */
static bool boundary(cdyn_system *sys, uint32_t m)
{
    cdyn__constraints *k = sys->cons;
    cdyn__rows_seg *s = k->segs;
    double c = 0, e = 0;
    for (uint32_t i = 0; i < m; i++) {
        cdyn__rows_seg *g = &s[i];
        g->u = g->term == NO_TERM ? 0.0
               : sys->dim == 2    ? cdyn__term_value(k, sys->inv_mass, &k->terms[g->term], 2)
                                  : cdyn__term_value(k, sys->inv_mass, &k->terms[g->term], 3);
    }
    for (uint32_t i = 0; i < m; i++) {
        cdyn__rows_seg *g = &s[i];
        const double un = i + 1 < m ? s[i + 1].u : 0.0;
        const double p = g->va * g->u, q = g->wa * un, ss = g->vb * g->u, t = g->wb * un;
        const double den = 1.0 + p * e;
        if (!(den > CDYN__REDUNDANT_PIVOT) || !(den <= DBL_MAX))
            return false;
        g->ga = (g->ya - p * c) / den;
        g->gb = q / den;
        g->c = (g->yb - ss * c) - ss * e * g->ga;
        g->e = ss * e * g->gb - t;
        c = g->c;
        e = g->e;
    }
    double a_next = 0;
    for (uint32_t i = m; i-- > 0;) {
        cdyn__rows_seg *g = &s[i];
        g->top = g->ga - g->gb * a_next;
        g->bottom = g->c + g->e * a_next;
        a_next = g->top;
    }
    for (uint32_t i = 0; i < m; i++)
        s[i].alpha = i > 0 ? s[i].u * s[i - 1].bottom : 0.0;
    return true;
}

cdyn_status cdyn__constraints_chain_split_reserve(cdyn_system *sys)
{
    cdyn__constraints *k = sys->cons;
    if (!k || !k->tridiagonal || !sys->tasks.host.enqueue)
        return CDYN_OK;
    const uint32_t m = cdyn__constraints_chain_segments(k->n_rows);
    if (m < 2 || m <= k->segs_cap)
        return CDYN_OK;
    cdyn__rows_seg *s = cdyn__alloc_array(&sys->alloc, m, sizeof *s);
    if (!s)
        return CDYN_ERR_NO_MEMORY;
    cdyn__free_array(&sys->alloc, k->segs, k->segs_cap, sizeof *k->segs);
    k->segs = s;
    k->segs_cap = m;
    return CDYN_OK;
}

/* The rows cut into @p m segments, the first n % m one row longer. */
static void cut(cdyn__constraints *k, uint32_t m)
{
    const uint32_t n = k->n_rows, base = n / m, rem = n % m;
    uint32_t r = 0;
    for (uint32_t i = 0; i < m; i++) {
        k->segs[i].a = r;
        r += base + (i < rem);
        k->segs[i].b = r - 1;
    }
}

bool cdyn__constraints_chain_split(cdyn_system *sys, const double *x, const double *v,
                                   double *acc)
{
    cdyn__constraints *k = sys->cons;
    const uint32_t m = cdyn__constraints_chain_segments(k->n_rows);
    if (m < 2 || k->segs_cap < m || k->any_compliance)
        return false;
    cut(k, m);
    job j = {sys, cdyn__rhs_coef_of(sys), x, v, acc, k->segs, m};
    cdyn__tasks_run(&sys->tasks, m, 1, (double)k->n_rows, 0.0, forward_task, &j);
    for (uint32_t i = 0; i < m; i++)
        if (!k->segs[i].ok)
            return false;
    if (!boundary(sys, m))
        return false;
    cdyn__tasks_run(&sys->tasks, m, 1, (double)k->n_rows, 0.0, backward_task, &j);
    return true;
}

void cdyn__constraints_chain_split_free(cdyn_system *sys)
{
    cdyn__constraints *k = sys->cons;
    cdyn__free_array(&sys->alloc, k->segs, k->segs_cap, sizeof *k->segs);
    k->segs = NULL;
    k->segs_cap = 0;
}
