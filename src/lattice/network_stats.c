/* Statistics of a drainage network: the distribution of drainage areas,
 * Hack's law and Strahler orders, on any forest given by receivers. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "lattice/forest.h"
#include "lattice/lattice.h"

/* Geometric grids have at most this many points (1000 per decade over the
 * 9.6 decades of a 32-bit area). */
#define MAX_POINTS 10000

void cdyn_lattice_stats_options_init(cdyn_lattice_stats_options *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->size = sizeof *opts;
    opts->points_per_decade = 10;
}

/* What is wrong with the options, or NULL when they are valid. */
static const char *options_problem(const cdyn_lattice_stats_options *o)
{
    if (o->size < sizeof *o)
        return "size is below sizeof(cdyn_lattice_stats_options) (not initialised?)";
    const double v[4] = {o->area_min, o->area_max, o->hack_min, o->hack_max};
    for (int i = 0; i < 4; i++)
        if (!isfinite(v[i]) || v[i] < 0)
            return "a fit bound is negative or not finite";
    if (o->area_max > 0 && !(o->area_max > o->area_min))
        return "area_max is not above area_min";
    if (o->hack_max > 0 && !(o->hack_max > o->hack_min))
        return "hack_max is not above hack_min";
    if (!(o->points_per_decade >= 1 && o->points_per_decade <= 1000))
        return "points_per_decade is not in 1 .. 1000";
    if (!(isfinite(o->threshold) && o->threshold >= 0))
        return "threshold is negative or not finite";
    return NULL;
}

/* Least-squares slope of y against x over n points (n >= 2). */
static double slope(const double *x, const double *y, size_t n)
{
    double mx = 0, my = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= (double)n;
    my /= (double)n;
    for (size_t i = 0; i < n; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    return sxy / sxx;
}

/* Points a_j = lo * 10^(j / ppd) up to hi; returns how many (<= MAX_POINTS). */
static size_t grid(double lo, double hi, double ppd, double *a)
{
    size_t n = 0;
    while (n < MAX_POINTS) {
        double v = lo * pow(10.0, (double)n / ppd);
        if (v > hi * (1 + 1e-12))
            break;
        a[n++] = v;
    }
    return n;
}

/* Number of grid points <= v (binary search). */
static size_t rank(const double *a, size_t n, double v)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (a[mid] <= v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

typedef struct scratch {
    double grid[MAX_POINTS + 1];
    double x[MAX_POINTS], y[MAX_POINTS];
    uint64_t count[MAX_POINTS + 1];
    double sx[MAX_POINTS + 1], sy[MAX_POINTS + 1];
} scratch;

/* P(A >= a) at the grid points, fitted in log-log; @p total is the number
 * of sites of the forest (excluded sites have A = 0 and are not counted). */
static void fit_area(const uint32_t *A, size_t n, double total, double lo, double hi,
                     double ppd, scratch *t, cdyn_lattice_stats *out)
{
    size_t m = grid(lo, hi, ppd, t->grid);
    memset(t->count, 0, (m + 1) * sizeof t->count[0]);
    for (size_t i = 0; i < n; i++)
        t->count[rank(t->grid, m, (double)A[i])]++;
    /* count[j] holds the sites with grid[j-1] <= A < grid[j]; sites with
     * A >= grid[j] are the sum of count[j+1 ..]. */
    uint64_t above = 0;
    size_t k = 0;
    for (size_t j = m; j-- > 0;) {
        above += t->count[j + 1];
        if (above > 0) {
            t->x[k] = log(t->grid[j]);
            t->y[k] = log((double)above / total);
            k++;
        }
    }
    out->area_fit_min = lo;
    out->area_fit_max = hi;
    out->area_fit_points = k;
    out->area_exponent = k >= 3 ? -slope(t->x, t->y, k) : NAN;
    out->tau = 1 + out->area_exponent;
}

/* Means of ln l and ln A per geometric bin of A, fitted in log-log. */
static void fit_hack(const uint32_t *A, const uint32_t *len, size_t n, double lo,
                     double hi, double ppd, scratch *t, cdyn_lattice_stats *out)
{
    size_t m = grid(lo, hi, ppd, t->grid);
    memset(t->count, 0, (m + 1) * sizeof t->count[0]);
    memset(t->sx, 0, (m + 1) * sizeof t->sx[0]);
    memset(t->sy, 0, (m + 1) * sizeof t->sy[0]);
    for (size_t i = 0; i < n; i++) {
        double a = (double)A[i];
        if (a < lo || a > hi)
            continue;
        size_t j = rank(t->grid, m, a); /* 1 .. m: bin [grid[j-1], grid[j]) */
        t->count[j]++;
        t->sx[j] += log(a);
        t->sy[j] += log((double)len[i]);
    }
    /* Whole bins only: the last one, from the last grid point up, would
     * hold just the areas equal to hi when hi is a grid point. */
    size_t k = 0;
    for (size_t j = 1; j < m; j++) {
        if (t->count[j] > 0) {
            t->x[k] = t->sx[j] / (double)t->count[j];
            t->y[k] = t->sy[j] / (double)t->count[j];
            k++;
        }
    }
    out->hack_fit_min = lo;
    out->hack_fit_max = hi;
    out->hack_fit_points = k;
    out->hack_exponent = k >= 3 ? slope(t->x, t->y, k) : NAN;
}

/* Strahler orders of the sites with A >= threshold (a sub-forest: drainage
 * grows downstream), stream counts and the bifurcation ratio. */
static void strahler(const uint32_t *recv, const uint32_t *order, const uint32_t *A,
                     size_t n, double threshold, uint8_t *ord, uint8_t *top, uint8_t *tops,
                     cdyn_lattice_stats *out)
{
    memset(top, 0, n);
    memset(tops, 0, n);
    memset(ord, 0, n);
    uint64_t net = 0;
    uint32_t max_order = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t s = order[k], r = recv[s];
        if ((double)A[s] < threshold)
            continue;
        net++;
        /* Two or more donors of the highest order raise the order. */
        uint8_t o = top[s] == 0 ? 1 : (uint8_t)(top[s] + (tops[s] >= 2));
        ord[s] = o;
        if (o > max_order)
            max_order = o;
        if (r != s) {
            if (o > top[r]) {
                top[r] = o;
                tops[r] = 1;
            } else if (o == top[r] && tops[r] < 2) {
                tops[r]++;
            }
        }
    }
    memset(out->streams, 0, sizeof out->streams);
    /* A stream of order k ends where its receiver has another order (or at
     * an outlet): count the ends. */
    for (size_t s = 0; s < n; s++) {
        if (ord[s] == 0)
            continue;
        uint32_t r = recv[s];
        if (r == s || ord[r] != ord[s])
            out->streams[ord[s] - 1]++;
    }
    out->threshold = threshold;
    out->network_sites = net;
    out->max_order = max_order;
    /* The highest order is cut by the lattice's edge: leave it out of the
     * fit when there are enough orders below it. */
    uint32_t kmax = max_order >= 3 ? max_order - 1 : max_order;
    if (kmax >= 2) {
        double x[CDYN_LATTICE_MAX_ORDER], y[CDYN_LATTICE_MAX_ORDER];
        for (uint32_t k = 0; k < kmax; k++) {
            x[k] = (double)(k + 1);
            y[k] = log((double)out->streams[k]);
        }
        out->bifurcation_ratio = exp(-slope(x, y, kmax));
    } else {
        out->bifurcation_ratio = NAN;
    }
}

static cdyn_status stats(size_t n, const uint32_t *recv, const cdyn_allocator *a,
                         const cdyn_lattice_stats_options *opts, double default_threshold,
                         cdyn_lattice_stats *out)
{
    cdyn_lattice_stats r;
    memset(&r, 0, sizeof r);
    r.size = out->size;
    uint32_t *order = cdyn__alloc_array(a, n, sizeof *order);
    uint32_t *A = cdyn__alloc_array(a, n, sizeof *A);
    uint32_t *len = cdyn__alloc_array(a, n, sizeof *len);
    uint8_t *bytes = cdyn__alloc_array(a, n, 3);
    scratch *t = cdyn__alloc_array(a, 1, sizeof *t);
    cdyn_status st = CDYN_OK;
    if (!order || !A || !len || !bytes || !t) {
        st = CDYN_ERR_NO_MEMORY;
        goto done;
    }
    /* A doubles as the in-degree scratch of the ordering. */
    if (!cdyn__lattice_forest_order(n, recv, A, order)) {
        st = CDYN_ERR_INVALID_ARGUMENT;
        goto done;
    }
    cdyn__lattice_forest_accumulate(n, recv, order, A);
    /* Main-stream length: sites on the longest upstream path. Sites outside
     * the forest (receiver UNSET: no-data) count nowhere. */
    size_t sites = 0;
    for (size_t i = 0; i < n; i++)
        len[i] = 1;
    uint32_t amax = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t s = order[k], q = recv[s];
        if (q == CDYN__LATTICE_UNSET)
            continue;
        sites++;
        if (q != s) {
            if (len[s] + 1 > len[q])
                len[q] = len[s] + 1;
        } else {
            r.outlets++;
        }
        if (A[s] > amax)
            amax = A[s];
    }
    if (sites == 0) {
        st = CDYN_ERR_INVALID_ARGUMENT; /* nothing to analyse */
        goto done;
    }
    r.sites = sites;
    r.max_drainage = amax;

    double ppd = opts->points_per_decade;
    double alo = opts->area_min > 0 ? opts->area_min : 10;
    /* Below max / 20 the lattice's edges do not yet cut the distribution
     * (docs/lattice.md, "When a network is in the model's regime"). */
    double ahi = opts->area_max > 0 ? opts->area_max : (double)amax / 20;
    double hlo = opts->hack_min > 0 ? opts->hack_min : alo;
    double hhi = opts->hack_max > 0 ? opts->hack_max : ahi;
    fit_area(A, n, (double)sites, alo, ahi, ppd, t, &r);
    fit_hack(A, len, n, hlo, hhi, ppd, t, &r);
    double thr = opts->threshold > 0 ? opts->threshold : default_threshold;
    strahler(recv, order, A, n, thr, bytes, bytes + n, bytes + 2 * n, &r);
    *out = r;
done:
    cdyn__free_array(a, order, n, sizeof *order);
    cdyn__free_array(a, A, n, sizeof *A);
    cdyn__free_array(a, len, n, sizeof *len);
    cdyn__free_array(a, bytes, n, 3);
    cdyn__free_array(a, t, 1, sizeof *t);
    return st;
}

cdyn_status cdyn_lattice_stats_from_receivers(size_t n_sites, const uint32_t *receivers,
                                              const cdyn_allocator *alloc,
                                              const cdyn_lattice_stats_options *opts,
                                              cdyn_lattice_stats *out)
{
    cdyn_allocator a;
    cdyn_lattice_stats_options def;
    cdyn_lattice_stats_options_init(&def);
    if (!opts)
        opts = &def;
    if (!receivers || !out || out->size < sizeof *out || n_sites == 0 ||
        n_sites > UINT32_MAX || options_problem(opts) || !cdyn__allocator_init(&a, alloc))
        return CDYN_ERR_INVALID_ARGUMENT;
    return stats(n_sites, receivers, &a, opts, 1.0, out);
}

cdyn_status cdyn_lattice_compute_stats(cdyn_lattice *lat, const cdyn_lattice_stats_options *opts,
                                       cdyn_lattice_stats *out)
{
    static const char fn[] = "cdyn_lattice_compute_stats";
    cdyn_lattice_stats_options def;
    cdyn_lattice_stats_options_init(&def);
    if (!lat)
        return CDYN_ERR_INVALID_ARGUMENT;
    if (!opts)
        opts = &def;
    if (!out)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn, "out is NULL");
    if (out->size < sizeof *out)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn,
                                  "out->size %zu is below sizeof(cdyn_lattice_stats) = %zu",
                                  out->size, sizeof *out);
    const char *why = options_problem(opts);
    if (why)
        return cdyn__lattice_fail(lat, CDYN_ERR_INVALID_ARGUMENT, fn, "options: %s", why);
    cdyn_status st = cdyn__lattice_update_drainage(lat, fn);
    if (st != CDYN_OK)
        return st;
    st = stats(lat->n, lat->recv, &lat->alloc, opts, lat->R, out);
    if (st == CDYN_ERR_NO_MEMORY)
        return cdyn__lattice_fail(lat, st, fn, "no memory for the statistics (%zu sites)",
                                  lat->n);
    return st;
}
