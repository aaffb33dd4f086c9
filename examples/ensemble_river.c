/* ensemble_river: many independent erosion runs spread over the ranks of an
 * MPI job, and the statistics of their river networks with error bars.
 *
 * Each run erodes a W x W lattice with its own seed, derived from one master
 * seed and the run's index, so that a run gives the same bits on whichever
 * rank computes it. A run's record holds what its network measured: the
 * drainage areas A of all sites counted in bins of 10 per decade, and per
 * bin the sums of ln A and of ln l (l the main-stream length, the number of
 * sites on the longest path upstream), and the library's own fits of tau and
 * Hack's h (cdyn_lattice_compute_stats), against which the fits below are
 * checked. Rank 0 gathers the records and adds them up in run order, so the
 * results are the same bits on 1, 2 or any number of ranks. From them:
 *   - the pooled P(A >= a) and its fit P ~ a^-(tau - 1), tau of P(A = a) ~ a^-tau;
 *   - the pooled Hack relation (per-bin means of ln l against ln A) and its
 *     fit l ~ A^h;
 *   - 95 % confidence intervals of both from the spread between runs: a
 *     jackknife over runs of the pooled fits, and Student's t on the mean
 *     of the runs' own fits (the same fit on each run's record alone).
 * Writes ensemble_river.svg (the pooled distributions with their fits, and
 * each run's tau and h) into the current directory.
 *
 * With --checkpoint DIR every run saves its lattice (a snapshot) after every
 * K drops and its record when done, both named by the run's index: a killed
 * ensemble started again with the same options resumes every run where it
 * stopped and ends with the same bits, on any number of ranks. More runs can
 * be added to a finished ensemble the same way (--runs larger).
 *
 *   ensemble_river                          32 runs on 256 x 256, one rank
 *   mpirun -n 4 ensemble_river --full       128 runs on 512 x 512
 * Run with --help for the options. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "chart.h"
#include "checkpoint.h"
#include "cli.h"
#include "ensemble.h"
#include "ensemble_stats.h"

#define NAME "ensemble_river"

/* Bins of drainage area: grid points g_j = 10^(j / PER_DECADE). */
enum { PER_DECADE = 10 };

typedef struct params {
    size_t size;           /* W */
    size_t runs;           /* R */
    double drops_per_site; /* drops = drops_per_site W^2 */
    uint64_t seed;         /* the master seed */
    double model[4];       /* E, D, M, S; NaN: the library's default */
    int periodic;
    double fit_min, fit_max; /* fit range in sites; 0: the defaults */
    const char *checkpoint;  /* directory, or NULL */
    uint64_t every;          /* drops between snapshots; 0: a quarter of a run */
    long interrupt_after;    /* tests: stop the job after this many files (0: never) */
    int quiet;
} params;

/* What follows from the parameters. */
typedef struct setup {
    size_t sites;
    uint64_t drops;
    size_t bins;           /* J + 2: bin k counts A in [g_{k-1}, g_k), k = 1 .. J + 1 */
    size_t fit_lo, fit_hi; /* the fit range as grid indices */
    size_t words;          /* words per record */
} setup;

/* A record: these words, then the area counts, the Hack counts, the sums of
 * ln A and the sums of ln l, each of @c bins words. */
enum {
    W_RUN,
    W_DROPS,
    W_TAU,          /* the library's tau of this run (double bits) */
    W_HACK,         /* the library's h of this run (double bits) */
    W_BIFURCATION,  /* the library's bifurcation ratio (double bits) */
    W_MAX_DRAINAGE,
    W_WALK_STEPS,
    W_CAPPED,
    W_SLIDES,
    W_HEAD
};

static double grid(size_t j)
{
    return pow(10.0, (double)j / PER_DECADE);
}

/* The grid index nearest to @p a. */
static size_t grid_index(double a)
{
    return (size_t)lround(PER_DECADE * log10(a));
}

/* ---- options ------------------------------------------------------------ */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: " NAME " [options]   (under MPI: mpirun -n P " NAME " [options])\n"
            "Independent erosion runs spread over the ranks; the drainage-area distribution\n"
            "and Hack's law pooled over the runs, tau and h with 95 %% confidence intervals.\n"
            "Writes ensemble_river.svg into the current directory.\n"
            "  --size W            lattice of W x W sites (default 256)\n"
            "  --runs R            runs in the ensemble (default 32)\n"
            "  --drops-per-site F  drops rained per site, F W^2 in all (default 0.25)\n"
            "  --seed S            master seed (default 2024); run r's seed is a mix of S and r\n"
            "  --E e --D d --M m --S s   model parameters (the library's defaults otherwise)\n"
            "  --periodic          periodic sides\n"
            "  --fit-min A --fit-max A   fit range in sites (default 10 .. W^2 / 256, at\n"
            "                      least 100), rounded to the grid of 10 points per decade\n"
            "  --checkpoint DIR    save each run's lattice and its result in DIR; started\n"
            "                      again with the same options, the ensemble resumes there\n"
            "  --every K           drops between a run's snapshots (default a quarter run)\n"
            "  --full              512 x 512 lattices, 128 runs\n"
            "  --quiet             no line per run\n"
            "  --interrupt-after N (for tests) end the job, as a kill would, once a rank\n"
            "                      has written N checkpoint files\n"
            "  --help              this text\n");
}

static int whole(const char *s, double lo, double hi, double *out)
{
    return cli_parse_double(s, out) || !(*out >= lo && *out <= hi) || *out != floor(*out);
}

/* 0: run; 1: done (help); -1: bad usage (message printed by rank 0). */
static int parse(int argc, char **argv, params *p, int talk)
{
    static const char *const MODEL[4] = {"--E", "--D", "--M", "--S"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            if (talk)
                usage(stdout);
            return 1;
        }
        if (strcmp(a, "--full") == 0) {
            p->size = 512;
            p->runs = 128;
            continue;
        }
        if (strcmp(a, "--periodic") == 0) {
            p->periodic = 1;
            continue;
        }
        if (strcmp(a, "--quiet") == 0) {
            p->quiet = 1;
            continue;
        }
        if (i + 1 >= argc) {
            if (talk)
                fprintf(stderr, NAME ": unknown option or missing value: %s (see --help)\n", a);
            return -1;
        }
        const char *v = argv[++i];
        double x = 0;
        int bad = 0, known = 1;
        if (strcmp(a, "--size") == 0)
            bad = whole(v, 8, 8192, &x), p->size = (size_t)x;
        else if (strcmp(a, "--runs") == 0)
            bad = whole(v, 2, 1e6, &x), p->runs = (size_t)x;
        else if (strcmp(a, "--drops-per-site") == 0)
            bad = cli_parse_double(v, &p->drops_per_site) || !(p->drops_per_site > 0 &&
                                                                 p->drops_per_site <= 1e4);
        else if (strcmp(a, "--seed") == 0)
            bad = whole(v, 0, 9007199254740992.0, &x), p->seed = (uint64_t)x;
        else if (strcmp(a, "--fit-min") == 0)
            bad = cli_parse_double(v, &p->fit_min) || !(p->fit_min >= 1);
        else if (strcmp(a, "--fit-max") == 0)
            bad = cli_parse_double(v, &p->fit_max) || !(p->fit_max >= 1);
        else if (strcmp(a, "--checkpoint") == 0)
            p->checkpoint = v;
        else if (strcmp(a, "--every") == 0)
            bad = whole(v, 1, 1e15, &x), p->every = (uint64_t)x;
        else if (strcmp(a, "--interrupt-after") == 0)
            bad = whole(v, 1, 1e9, &x), p->interrupt_after = (long)x;
        else {
            known = 0;
            for (int k = 0; k < 4; k++)
                if (strcmp(a, MODEL[k]) == 0)
                    known = 1, bad = cli_parse_double(v, &p->model[k]);
        }
        if (!known || bad) {
            if (talk)
                fprintf(stderr, NAME ": %s %s: %s (see --help)\n", a, v,
                        known ? "bad value" : "unknown option");
            return -1;
        }
    }
    return 0;
}

/* The derived sizes; -1 (message from rank 0) when the fit range is empty. */
static int derive(const params *p, setup *s, int talk)
{
    s->sites = p->size * p->size;
    s->drops = (uint64_t)llround(p->drops_per_site * (double)s->sites);
    if (s->drops == 0)
        s->drops = 1;
    size_t top = (size_t)ceil(PER_DECADE * log10((double)s->sites)); /* g_top >= W^2 */
    s->bins = top + 2;
    double lo = p->fit_min > 0 ? p->fit_min : 10;
    double hi = p->fit_max > 0 ? p->fit_max : fmax(100, (double)s->sites / 256);
    s->fit_lo = grid_index(lo);
    s->fit_hi = grid_index(hi);
    if (s->fit_hi > top)
        s->fit_hi = top;
    if (s->fit_hi < s->fit_lo + 2) {
        if (talk)
            fprintf(stderr, NAME ": the fit range %g .. %g holds fewer than 3 grid points\n",
                    grid(s->fit_lo), grid(s->fit_hi));
        return -1;
    }
    s->words = W_HEAD + 4 * s->bins;
    return 0;
}

/* ---- one run ------------------------------------------------------------ */

/* Per-site arrays of a measurement, kept from run to run. */
typedef struct scratch {
    uint32_t *drainage, *receiver, *order, *length, *start;
} scratch;

static int scratch_init(scratch *t, size_t sites)
{
    t->drainage = malloc(sites * sizeof *t->drainage);
    t->receiver = malloc(sites * sizeof *t->receiver);
    t->order = malloc(sites * sizeof *t->order);
    t->length = malloc(sites * sizeof *t->length);
    t->start = malloc((sites + 2) * sizeof *t->start);
    return t->drainage && t->receiver && t->order && t->length && t->start ? 0 : -1;
}

static void scratch_free(scratch *t)
{
    free(t->drainage);
    free(t->receiver);
    free(t->order);
    free(t->length);
    free(t->start);
}

/* Main-stream lengths: a receiver drains more than each of its donors, so
 * visiting sites by increasing drainage (a counting sort) finishes every
 * donor before its receiver. */
static void stream_lengths(size_t n, scratch *t)
{
    uint32_t *d = t->drainage, *start = t->start;
    memset(start, 0, (n + 2) * sizeof *start);
    for (size_t i = 0; i < n; i++)
        start[d[i] + 1]++;
    for (size_t a = 1; a <= n + 1; a++)
        start[a] += start[a - 1];
    for (size_t i = 0; i < n; i++)
        t->order[start[d[i]]++] = (uint32_t)i;
    for (size_t i = 0; i < n; i++)
        t->length[i] = 1;
    for (size_t k = 0; k < n; k++) {
        uint32_t s = t->order[k], q = t->receiver[s];
        if (q != s && t->length[s] + 1 > t->length[q])
            t->length[q] = t->length[s] + 1;
    }
}

/* Bin of area a: the number of grid points <= a, 1 .. bins - 1. */
static size_t bin_of(const double *g, size_t bins, double a)
{
    size_t lo = 0, hi = bins - 1; /* g has bins - 1 points */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (g[mid] <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void lattice_fail(const ensemble *e, cdyn_lattice *lat, cdyn_status st, uint64_t run,
                         const char *what)
{
    ensemble_abort(e, "run %llu: %s: %s (%s)", (unsigned long long)run, what,
                   cdyn_status_string(st), cdyn_lattice_last_error(lat));
}

/* Fills the record of the eroded lattice. */
static void measure(const ensemble *e, cdyn_lattice *lat, const setup *s, const double *g,
                    scratch *t, uint64_t run, uint64_t *rec)
{
    size_t n = s->sites;
    cdyn_status st = cdyn_lattice_compute_drainage(lat, t->drainage, n);
    if (st == CDYN_OK)
        st = cdyn_lattice_compute_receivers(lat, t->receiver, n);
    if (st != CDYN_OK)
        lattice_fail(e, lat, st, run, "drainage");
    stream_lengths(n, t);

    uint64_t *count = rec + W_HEAD, *hack_n = count + s->bins;
    uint64_t *sum_ln_a = hack_n + s->bins, *sum_ln_l = sum_ln_a + s->bins;
    double *la = calloc(s->bins, sizeof *la), *ll = calloc(s->bins, sizeof *ll);
    if (!la || !ll)
        ensemble_abort(e, "out of memory");
    memset(count, 0, 2 * s->bins * sizeof *count);
    for (size_t i = 0; i < n; i++) {
        double a = (double)t->drainage[i];
        size_t k = bin_of(g, s->bins, a);
        count[k]++;
        la[k] += log(a);
        ll[k] += log((double)t->length[i]);
    }
    for (size_t k = 0; k < s->bins; k++) {
        hack_n[k] = count[k];
        sum_ln_a[k] = ensemble_word(la[k]);
        sum_ln_l[k] = ensemble_word(ll[k]);
    }
    free(la);
    free(ll);

    cdyn_lattice_stats_options o;
    cdyn_lattice_stats_options_init(&o);
    o.area_min = o.hack_min = g[s->fit_lo];
    o.area_max = o.hack_max = g[s->fit_hi];
    o.points_per_decade = PER_DECADE;
    cdyn_lattice_stats ls = {.size = sizeof ls};
    if ((st = cdyn_lattice_compute_stats(lat, &o, &ls)) != CDYN_OK)
        lattice_fail(e, lat, st, run, "statistics");
    cdyn_lattice_counters c = {.size = sizeof c};
    cdyn_lattice_get_counters(lat, &c);
    rec[W_RUN] = run;
    rec[W_DROPS] = c.drops;
    rec[W_TAU] = ensemble_word(ls.tau);
    rec[W_HACK] = ensemble_word(ls.hack_exponent);
    rec[W_BIFURCATION] = ensemble_word(ls.bifurcation_ratio);
    rec[W_MAX_DRAINAGE] = ls.max_drainage;
    rec[W_WALK_STEPS] = c.walk_steps;
    rec[W_CAPPED] = c.capped_walks;
    rec[W_SLIDES] = c.slides;
}

/* The lattice of run @p run: resumed from its snapshot if there is one,
 * otherwise new with the run's seed. */
static cdyn_lattice *start_run(const ensemble *e, const params *p, uint64_t run)
{
    cdyn_lattice *lat = NULL;
    cdyn_status st;
    if (p->checkpoint) {
        size_t size = 0;
        void *buf = checkpoint_load_state(p->checkpoint, run, &size);
        if (buf && (st = cdyn_lattice_load(buf, size, NULL, &lat)) != CDYN_OK)
            fprintf(stderr, NAME ": run %llu: its snapshot does not load (%s): started again\n",
                    (unsigned long long)run, cdyn_status_string(st));
        free(buf);
        if (lat)
            return lat;
    }
    if ((st = cdyn_lattice_create(p->size, p->size, ensemble_seed(p->seed, run), NULL, &lat)) !=
        CDYN_OK)
        lattice_fail(e, NULL, st, run, "create");
    if (p->periodic && (st = cdyn_lattice_set_boundary(lat, CDYN_LATTICE_PERIODIC)) != CDYN_OK)
        lattice_fail(e, lat, st, run, "boundary");
    const cdyn_lattice_param which[4] = {CDYN_LATTICE_E, CDYN_LATTICE_D, CDYN_LATTICE_M,
                                         CDYN_LATTICE_S};
    for (int k = 0; k < 4; k++)
        if (!isnan(p->model[k]) && (st = cdyn_lattice_set_param(lat, which[k], p->model[k])) !=
                                       CDYN_OK)
            lattice_fail(e, lat, st, run, "parameter");
    return lat;
}

/* Counts this rank's checkpoint files; with --interrupt-after, ends the job
 * at the given count, as a kill would. */
static void written(const ensemble *e, const params *p, long *files)
{
    if (p->interrupt_after > 0 && ++*files >= p->interrupt_after)
        ensemble_abort(e, "interrupted after %ld checkpoint files (--interrupt-after)", *files);
}

static void run_one(const ensemble *e, const params *p, const setup *s, const double *g,
                    scratch *t, uint64_t run, uint64_t *rec, long *files)
{
    cdyn_lattice *lat = start_run(e, p, run);
    cdyn_lattice_counters c = {.size = sizeof c};
    cdyn_lattice_get_counters(lat, &c);
    uint64_t done = c.drops, every = p->every ? p->every : (s->drops + 3) / 4;
    void *snap = NULL;
    size_t snap_size = 0;
    if (p->checkpoint) {
        cdyn_lattice_snapshot_size(lat, &snap_size);
        if (!(snap = malloc(snap_size)))
            ensemble_abort(e, "out of memory");
    }
    while (done < s->drops) {
        uint64_t part = s->drops - done < every ? s->drops - done : every;
        cdyn_status st = cdyn_lattice_rain(lat, part);
        if (st != CDYN_OK)
            lattice_fail(e, lat, st, run, "rain");
        done += part;
        if (p->checkpoint && done < s->drops) {
            cdyn_lattice_save(lat, snap, snap_size, NULL);
            if (checkpoint_save_state(p->checkpoint, run, snap, snap_size) != 0)
                ensemble_abort(e, "cannot write run %llu's snapshot in %s",
                               (unsigned long long)run, p->checkpoint);
            written(e, p, files);
        }
    }
    free(snap);
    measure(e, lat, s, g, t, run, rec);
    cdyn_lattice_destroy(lat);
    if (p->checkpoint) {
        if (checkpoint_save_record(p->checkpoint, run, rec, s->words) != 0)
            ensemble_abort(e, "cannot write run %llu's record in %s", (unsigned long long)run,
                           p->checkpoint);
        checkpoint_drop_state(p->checkpoint, run);
        written(e, p, files);
    }
}

/* ---- pooling and fits (rank 0) ------------------------------------------ */

/* Sums over runs, in run order; a run's own values are subtracted for the
 * jackknife. */
typedef struct pooled {
    uint64_t *count;         /* sites per area bin */
    double *hack_n, *ln_a, *ln_l;
    double runs;             /* runs in the sums */
} pooled;

/* Empty sums; -1 when out of memory (then pooled_free is still safe). */
static int pooled_init(pooled *q, size_t bins)
{
    q->count = calloc(bins, sizeof *q->count);
    q->hack_n = calloc(3 * bins, sizeof *q->hack_n);
    q->ln_a = q->ln_l = NULL;
    q->runs = 0;
    if (!q->count || !q->hack_n)
        return -1;
    q->ln_a = q->hack_n + bins;
    q->ln_l = q->ln_a + bins;
    return 0;
}

static void pooled_free(pooled *q)
{
    free(q->count);
    free(q->hack_n);
}

static void pooled_clear(pooled *q, size_t bins)
{
    memset(q->count, 0, bins * sizeof *q->count);
    memset(q->hack_n, 0, 3 * bins * sizeof *q->hack_n);
    q->runs = 0;
}

static void pooled_copy(pooled *to, const pooled *from, size_t bins)
{
    memcpy(to->count, from->count, bins * sizeof *to->count);
    memcpy(to->hack_n, from->hack_n, 3 * bins * sizeof *to->hack_n);
    to->runs = from->runs;
}

/* Adds (sign +1) or removes (-1) one run's record. */
static void pooled_add(pooled *q, const setup *s, const uint64_t *rec, int sign)
{
    const uint64_t *count = rec + W_HEAD, *hack_n = count + s->bins;
    const uint64_t *la = hack_n + s->bins, *ll = la + s->bins;
    for (size_t k = 0; k < s->bins; k++) {
        q->count[k] = sign > 0 ? q->count[k] + count[k] : q->count[k] - count[k];
        q->hack_n[k] += sign * (double)hack_n[k];
        q->ln_a[k] += sign * ensemble_double(la[k]);
        q->ln_l[k] += sign * ensemble_double(ll[k]);
    }
    q->runs += sign;
}

/* P(A >= g_j) for j = 0 .. bins - 2, from the bin counts. */
static void exceedance(const pooled *q, const setup *s, double *P)
{
    uint64_t above = 0;
    double total = q->runs * (double)s->sites;
    for (size_t j = s->bins - 1; j-- > 0;) {
        above += q->count[j + 1];
        P[j] = (double)above / total;
    }
}

/* The fits of tau and h on the pooled sums, as the library fits one run:
 * ln P(A >= a) against ln a at the grid points of the range; per-bin means
 * of ln l against those of ln A over the bins inside the range. */
static void fit(const pooled *q, const setup *s, const double *g, double *tau, double *h,
                double *area_scale, double *hack_scale)
{
    size_t m = s->bins;
    double *P = malloc(m * sizeof *P), *x = malloc(m * sizeof *x), *y = malloc(m * sizeof *y);
    *tau = *h = *area_scale = *hack_scale = NAN;
    if (!P || !x || !y) {
        free(P), free(x), free(y);
        return;
    }
    exceedance(q, s, P);
    size_t k = 0;
    for (size_t j = s->fit_lo; j <= s->fit_hi; j++)
        if (P[j] > 0) {
            x[k] = log(g[j]);
            y[k++] = log(P[j]);
        }
    double slope, icpt;
    if (k >= 3) {
        ensemble_fit_line(x, y, k, &slope, &icpt);
        *tau = 1 - slope;
        *area_scale = exp(icpt);
    }
    k = 0;
    for (size_t j = s->fit_lo + 1; j <= s->fit_hi; j++) /* bin j: [g_{j-1}, g_j) */
        if (q->hack_n[j] > 0) {
            x[k] = q->ln_a[j] / q->hack_n[j];
            y[k++] = q->ln_l[j] / q->hack_n[j];
        }
    if (k >= 3) {
        ensemble_fit_line(x, y, k, &slope, &icpt);
        *h = slope;
        *hack_scale = exp(icpt);
    }
    free(P), free(x), free(y);
}

typedef struct summary {
    double tau, h, tau_ci, h_ci;           /* pooled fits, jackknife 95 % half-widths */
    double tau_mean, h_mean, tau_mci, h_mci; /* mean of the runs' fits, t 95 % half-widths */
    double tau_sd, h_sd;                   /* spread of the runs' fits */
    double area_scale, hack_scale;         /* the pooled fits' prefactors */
    double library_dtau, library_dh;       /* largest |library's fit - ours| of a run */
} summary;

/* Pooled fits (the sums left in @p q) with their jackknife intervals; each
 * run's own fits (the same routine on its record alone) into run_tau and
 * run_h, with their mean and its interval. */
static int summarize(const setup *s, const double *g, const uint64_t *all, size_t runs,
                     pooled *q, double *run_tau, double *run_h, summary *out)
{
    double *tj = malloc(2 * runs * sizeof *tj), *hj = tj ? tj + runs : NULL, a, b, se;
    pooled other;
    if (pooled_init(&other, s->bins) != 0 || !tj) {
        pooled_free(&other);
        free(tj);
        return -1;
    }
    for (size_t r = 0; r < runs; r++)
        pooled_add(q, s, all + r * s->words, +1);
    fit(q, s, g, &out->tau, &out->h, &out->area_scale, &out->hack_scale);
    for (size_t r = 0; r < runs; r++) {
        pooled_copy(&other, q, s->bins);
        pooled_add(&other, s, all + r * s->words, -1);
        fit(&other, s, g, &tj[r], &hj[r], &a, &b);
    }
    /* Jackknife over runs: var = (R - 1) / R sum_r (theta_r - mean)^2, so
     * its standard error is (R - 1) sd / sqrt(R). */
    double sd;
    size_t n;
    ensemble_mean(tj, runs, 1, NULL, &sd, NULL, &n);
    out->tau_ci = ensemble_t95(n - 1) * sd * (double)(n - 1) / sqrt((double)n);
    ensemble_mean(hj, runs, 1, NULL, &sd, NULL, &n);
    out->h_ci = ensemble_t95(n - 1) * sd * (double)(n - 1) / sqrt((double)n);

    /* Each run alone. */
    out->library_dtau = out->library_dh = 0;
    for (size_t r = 0; r < runs; r++) {
        const uint64_t *rec = all + r * s->words;
        pooled_clear(&other, s->bins);
        pooled_add(&other, s, rec, +1);
        fit(&other, s, g, &run_tau[r], &run_h[r], &a, &b);
        out->library_dtau = fmax(out->library_dtau,
                                 fabs(ensemble_double(rec[W_TAU]) - run_tau[r]));
        out->library_dh = fmax(out->library_dh, fabs(ensemble_double(rec[W_HACK]) - run_h[r]));
    }
    pooled_free(&other);
    ensemble_mean(run_tau, runs, 1, &out->tau_mean, &out->tau_sd, &se, &n);
    out->tau_mci = ensemble_t95(n - 1) * se;
    ensemble_mean(run_h, runs, 1, &out->h_mean, &out->h_sd, &se, &n);
    out->h_mci = ensemble_t95(n - 1) * se;
    free(tj);
    return 0;
}

/* ---- the picture ---------------------------------------------------------- */

static int picture(const char *path, const params *p, const setup *s, const double *g,
                   const uint64_t *all, const pooled *q, const double *run_tau,
                   const double *run_h, const summary *sm)
{
    size_t m = s->bins - 1, runs = p->runs;
    double *P = malloc(m * sizeof *P), *x = malloc(m * sizeof *x), *y = malloc(m * sizeof *y);
    double *fx = malloc(m * sizeof *fx), *fy = malloc(m * sizeof *fy);
    pooled one;
    int no_sums = pooled_init(&one, s->bins) != 0;
    chart *c = chart_create(1260, 520);
    int bad = !P || !x || !y || !fx || !fy || no_sums;
    if (bad)
        goto done;
    chart_title(c, "River networks of %zu erosion runs on %zu x %zu lattices "
                   "(%g drops per site)", runs, p->size, p->size, p->drops_per_site);
    chart_caption(c, "pooled over the runs; 95 %% confidence intervals from the spread between "
                     "runs; shaded: the fit range");

    /* Drainage areas: a few single runs, the pooled curve, the fit. */
    chart_panel *pa = chart_panel_at(c, 0, 0, 0.345, 1);
    chart_panel_title(pa, "Drainage areas");
    chart_x(pa, "drainage area a (sites)", CHART_LOG);
    chart_y(pa, "P(A >= a)", CHART_LOG);
    chart_vband(pa, g[s->fit_lo], g[s->fit_hi], "#eef2f8");
    while (m > 1 && q->count[m] == 0) /* P = 0 beyond the largest basin: not drawn */
        m--;
    size_t shown = runs < 12 ? runs : 12;
    for (size_t r = 0; r < shown; r++) {
        pooled_add(&one, s, all + r * s->words, +1);
        exceedance(&one, s, P);
        pooled_add(&one, s, all + r * s->words, -1);
        chart_line(pa, g, P, m, r == 0 ? "single runs" : NULL,
                   &(chart_style){.color = "#b8b8b8", .width = 1});
    }
    exceedance(q, s, P);
    chart_line(pa, g, P, m, "pooled over all runs",
               &(chart_style){.color = "black", .width = 2});
    for (size_t j = 0; j < 2; j++) {
        fx[j] = g[j ? s->fit_hi : s->fit_lo];
        fy[j] = sm->area_scale * pow(fx[j], 1 - sm->tau);
    }
    char label[160];
    snprintf(label, sizeof label, "fit a^{-(tau-1)}: tau = %.3f \xc2\xb1 %.3f", sm->tau,
             sm->tau_ci);
    chart_line(pa, fx, fy, 2, label, &(chart_style){.color = "#d62728", .width = 2.5,
                                                      .dash = "7,4"});

    /* Hack's law: pooled per-bin means, the fit. */
    chart_panel *ph = chart_panel_at(c, 0.355, 0, 0.345, 1);
    chart_panel_title(ph, "Hack's law");
    chart_x(ph, "drainage area A (sites)", CHART_LOG);
    chart_y(ph, "main-stream length l (sites)", CHART_LOG);
    chart_vband(ph, g[s->fit_lo], g[s->fit_hi], "#eef2f8");
    size_t k = 0;
    for (size_t j = 1; j < s->bins; j++)
        if (q->hack_n[j] > 0) {
            x[k] = exp(q->ln_a[j] / q->hack_n[j]);
            y[k++] = exp(q->ln_l[j] / q->hack_n[j]);
        }
    chart_line(ph, x, y, k, "pooled: means of ln l per bin of ln A",
               &(chart_style){.color = "black", .width = 2});
    for (size_t j = 0; j < 2; j++) {
        fx[j] = g[j ? s->fit_hi : s->fit_lo];
        fy[j] = sm->hack_scale * pow(fx[j], sm->h);
    }
    snprintf(label, sizeof label, "fit A^{h}: h = %.3f \xc2\xb1 %.3f", sm->h, sm->h_ci);
    chart_line(ph, fx, fy, 2, label, &(chart_style){.color = "#d62728", .width = 2.5,
                                                      .dash = "7,4"});

    /* Each run's own exponents, and their mean with its interval. */
    chart_panel *pr = chart_panel_at(c, 0.71, 0, 0.29, 1);
    chart_panel_title(pr, "Each run's fits; red: their mean, 95 %% interval");
    chart_x(pr, "tau", 0);
    chart_y(pr, "h", 0);
    /* x ranges get no room of their own: keep the edge markers inside. */
    double lo = sm->tau_mean - sm->tau_mci, hi = sm->tau_mean + sm->tau_mci;
    for (size_t r = 0; r < runs; r++)
        if (!isnan(run_tau[r]))
            lo = fmin(lo, run_tau[r]), hi = fmax(hi, run_tau[r]);
    chart_x_range(pr, lo - 0.08 * (hi - lo), hi + 0.08 * (hi - lo));
    for (size_t r = 0; r < runs; r++)
        chart_marker(pr, run_tau[r], run_h[r], &(chart_style){.color = "#1f77b4", .size = 2.5});
    const chart_style bar = {.color = "#d62728", .width = 2.5};
    chart_segment(pr, sm->tau_mean - sm->tau_mci, sm->h_mean, sm->tau_mean + sm->tau_mci,
                  sm->h_mean, &bar);
    chart_segment(pr, sm->tau_mean, sm->h_mean - sm->h_mci, sm->tau_mean,
                  sm->h_mean + sm->h_mci, &bar);
    bad = chart_save(c, path) != 0;
done:
    pooled_free(&one);
    chart_free(c);
    free(P), free(x), free(y), free(fx), free(fy);
    return bad ? -1 : 0;
}

/* ---- main ------------------------------------------------------------------ */

/* What decides a run's record: a restart must agree on all of it. */
static void manifest(const params *p, const setup *s, const double *g, char *out, size_t cap)
{
    snprintf(out, cap,
             "program " NAME "\nlattice %zu x %zu, %s sides\ndrops %llu\nmaster seed %llu\n"
             "E D M S %.17g %.17g %.17g %.17g (nan: the library's default)\n"
             "fit %.17g .. %.17g\nrecord %zu words\n",
             p->size, p->size, p->periodic ? "periodic" : "walled",
             (unsigned long long)s->drops, (unsigned long long)p->seed, p->model[0],
             p->model[1], p->model[2], p->model[3], g[s->fit_lo], g[s->fit_hi], s->words);
}

static void report(const params *p, const setup *s, const uint64_t *all, const double *run_tau,
                   const double *run_h, const summary *sm, const double *g)
{
    size_t runs = p->runs;
    double walk = 0, capped = 0, slides = 0, bif = 0;
    for (size_t r = 0; r < runs; r++) {
        const uint64_t *rec = all + r * s->words;
        walk += (double)rec[W_WALK_STEPS] / (double)rec[W_DROPS] / (double)runs;
        capped += (double)rec[W_CAPPED] / (double)rec[W_DROPS] / (double)runs;
        slides += (double)rec[W_SLIDES] / (double)rec[W_DROPS] / (double)runs;
        bif += ensemble_double(rec[W_BIFURCATION]) / (double)runs;
        if (!p->quiet && (r < 8 || r + 1 == runs))
            printf("  run %4zu: tau = %.4f, h = %.4f, largest basin %llu sites\n", r,
                   run_tau[r], run_h[r], (unsigned long long)rec[W_MAX_DRAINAGE]);
        else if (!p->quiet && r == 8)
            printf("  ...\n");
    }
    printf("per drop: %.1f moves, %.2f %% capped walks, %.1f slides; mean bifurcation ratio "
           "%.2f\n", walk, 100 * capped, slides, bif);
    printf("fit range: drainage areas %g .. %g sites (10 points per decade)\n", g[s->fit_lo],
           g[s->fit_hi]);
    printf("tau (P(A = a) ~ a^-tau), pooled fit:     %.4f +- %.4f (95 %%, jackknife over runs)\n",
           sm->tau, sm->tau_ci);
    printf("                         mean of runs:   %.4f +- %.4f (95 %%, Student t), "
           "run-to-run sd %.4f\n", sm->tau_mean, sm->tau_mci, sm->tau_sd);
    printf("h (Hack, l ~ A^h),       pooled fit:     %.4f +- %.4f (95 %%, jackknife over runs)\n",
           sm->h, sm->h_ci);
    printf("                         mean of runs:   %.4f +- %.4f (95 %%, Student t), "
           "run-to-run sd %.4f\n", sm->h_mean, sm->h_mci, sm->h_sd);
    printf("(real river networks: tau ~ 1.43, h ~ 0.57; the Scheidegger model: 4/3, 2/3)\n");
    printf("cdyn_lattice_compute_stats on each run agrees to %.1e in tau, %.1e in h\n",
           sm->library_dtau, sm->library_dh);
    if (sm->library_dh > 1e-12)
        printf("  (its last Hack bin holds the sites of area exactly %g, a whole number)\n",
               g[s->fit_hi]);
}

/* Rank 0, once every record is in: the fits, the report, the result bits
 * and the picture. Returns the exit code. */
static int conclude(const ensemble *e, const params *p, const setup *s, const double *g,
                    const uint64_t *all)
{
    pooled q;
    summary sm;
    double *run_tau = malloc(2 * p->runs * sizeof *run_tau);
    double *run_h = run_tau ? run_tau + p->runs : NULL;
    if (!run_tau || pooled_init(&q, s->bins) != 0 ||
        summarize(s, g, all, p->runs, &q, run_tau, run_h, &sm) != 0)
        ensemble_abort(e, "out of memory");
    report(p, s, all, run_tau, run_h, &sm, g);
    /* The bits of every record in run order, and of what came of them. */
    uint64_t bits = ensemble_hash(ENSEMBLE_HASH_START, all, p->runs * s->words * sizeof *all);
    bits = ensemble_hash(bits, run_tau, 2 * p->runs * sizeof *run_tau);
    bits = ensemble_hash(bits, &sm, sizeof sm);
    printf("result bits: %016llx\n", (unsigned long long)bits);
    int code = 0;
    if (picture("ensemble_river.svg", p, s, g, all, &q, run_tau, run_h, &sm) != 0) {
        fprintf(stderr, NAME ": cannot write ensemble_river.svg\n");
        code = 1;
    } else {
        printf("wrote ensemble_river.svg\n");
    }
    pooled_free(&q);
    free(run_tau);
    return code;
}

int main(int argc, char **argv)
{
    ensemble e;
    ensemble_start(&e, NAME, &argc, &argv);
    params p = {.size = 256, .runs = 32, .drops_per_site = 0.25, .seed = 2024,
                .model = {NAN, NAN, NAN, NAN}};
    setup s;
    int rc = parse(argc, argv, &p, e.rank == 0);
    if (rc == 0 && derive(&p, &s, e.rank == 0) != 0)
        rc = -1;
    if (rc != 0)
        return ensemble_end(&e, rc > 0 ? 0 : 2);

    double *g = malloc(s.bins * sizeof *g);
    uint64_t *all = NULL, *mine = NULL;
    unsigned char *have = calloc(p.runs, 1);
    scratch t = {0};
    if (!g || !have || scratch_init(&t, s.sites) != 0)
        ensemble_abort(&e, "out of memory");
    for (size_t j = 0; j + 1 < s.bins; j++)
        g[j] = grid(j);
    g[s.bins - 1] = INFINITY;
    if (e.rank == 0) {
        printf(NAME ": %zu runs on %zu x %zu lattices, %llu drops each, master seed %llu, "
               "%d rank%s\n", p.runs, p.size, p.size, (unsigned long long)s.drops,
               (unsigned long long)p.seed, e.ranks, e.ranks > 1 ? "s" : "");
        if (!(all = calloc(p.runs * s.words, sizeof *all)))
            ensemble_abort(&e, "out of memory");
    }

    /* Rank 0 reads the records of finished runs; the rest are shared out. */
    if (p.checkpoint) {
        int ok = 1;
        if (e.rank == 0) {
            char text[1024];
            manifest(&p, &s, g, text, sizeof text);
            ok = checkpoint_open(p.checkpoint, text) == 0;
            for (size_t r = 0; ok && r < p.runs; r++)
                have[r] = checkpoint_load_record(p.checkpoint, r, all + r * s.words, s.words) ==
                          1;
        }
        if (!ensemble_all(ok))
            return ensemble_end(&e, 1);
        ensemble_broadcast(have, p.runs);
    }
    size_t todo = 0, n_mine = 0;
    for (size_t r = 0; r < p.runs; r++)
        todo += !have[r];
    if (e.rank == 0 && todo < p.runs)
        printf("resuming: %zu runs finished before, %zu to do\n", p.runs - todo, todo);
    if (!(mine = malloc((todo / (size_t)e.ranks + 1) * s.words * sizeof *mine)))
        ensemble_abort(&e, "out of memory");
    long files = 0;
    for (size_t r = 0, k = 0; r < p.runs; r++) {
        if (have[r])
            continue;
        if (k++ % (size_t)e.ranks != (size_t)e.rank)
            continue; /* the k-th unfinished run is rank k mod P's */
        double t0 = ensemble_clock(), c0 = ensemble_cpu_clock();
        run_one(&e, &p, &s, g, &t, r, mine + n_mine * s.words, &files);
        n_mine++;
        e.busy += ensemble_clock() - t0;
        e.cpu += ensemble_cpu_clock() - c0;
        e.computed++;
    }
    ensemble_gather(&e, mine, n_mine, s.words, all, have, p.runs);

    int code = 0;
    if (e.rank == 0) {
        for (size_t r = 0; r < p.runs; r++)
            if (!have[r])
                ensemble_abort(&e, "run %zu has no record", r);
        code = conclude(&e, &p, &s, g, all);
    }
    ensemble_report_time(&e);
    scratch_free(&t);
    free(mine);
    free(all);
    free(have);
    free(g);
    return ensemble_end(&e, code);
}
