/* ensemble_polymer: many freely jointed chains on the ranks of an MPI job;
 * the mean square end-to-end distance and its distribution against the
 * freely jointed chain's exact one, with statistical errors.
 *
 * Each run is one chain of N rigid bonds of length b between N + 1 equal
 * masses, integrated with RATTLE: its bond directions and thermal
 * velocities are drawn from the rigid-bond canonical ensemble at kT (the
 * sampler of the polymer example, chain_sample.c) with a seed derived from
 * one master seed and the run's index, then it runs S steps and samples
 * its end-to-end distance R every K steps. Its record holds the time
 * averages of R^2 / (N b^2) and the histogram of R / (b sqrt(N)). Rank 0
 * gathers the records in run order, so the results are the same bits on
 * any number of ranks. Samples along one run are correlated: every error
 * comes from the spread between runs, never from the samples' count.
 *
 * The reference: bond directions independent and uniform give
 * <R^2> = N b^2 and the exact distribution of fjc_exact.c. (The rigid
 * bonds' canonical weight sqrt(det Z) keeps <R^2> = N b^2 exactly and
 * narrows the distribution by about 0.7 % / (N / 5) in <R^4>, far below
 * these errors at the default N.)
 *
 * Writes ensemble_polymer.svg (the distribution with the exact curve, the
 * Gaussian chain's and each bin's deviation in standard errors) into the
 * current directory. With --checkpoint DIR each finished chain's record is
 * saved under its index, and a restart computes only the chains not yet
 * done; with --state-every S as well, a running chain's system is saved
 * every S steps (a system snapshot, after its sums so far), and a restart
 * goes on from there to the same bits. Run with --help for the options. Units: b = 1, m = 1, kT = 1. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "chain_sample.h"
#include "chart.h"
#include "checkpoint.h"
#include "cli.h"
#include "ensemble.h"
#include "ensemble_stats.h"
#include "fjc_exact.h"

#define NAME "ensemble_polymer"

/* The histogram of x = R / (b sqrt(N)): BINS bins on [0, x_max), then one
 * for x >= x_max. */
enum { BINS = 30 };

typedef struct params {
    int bonds;             /* N */
    size_t chains;         /* R, the runs */
    long steps, every;     /* RATTLE steps per chain; steps between samples */
    double dt, tolerance;  /* step; projection tolerance (relative) */
    uint64_t seed;         /* master seed */
    const char *checkpoint;
    long state_every;      /* steps between a running chain's states (0: none) */
    long interrupt_after;  /* tests: end the job after this many files (0: never) */
    int quiet;
} params;

/* A record: these words, then BINS + 1 histogram counts. */
enum {
    W_RUN,
    W_DRAWS,       /* tries of the rejection sampler */
    W_SAMPLES,     /* samples of R along the run */
    W_R2_START,    /* R^2 / (N b^2) at t = 0 (double bits) */
    W_R2_MEAN,     /* its time average */
    W_R4_MEAN,     /* time average of (R^2 / (N b^2))^2 */
    W_BOND_ERROR,  /* largest |bond length - b| / b */
    W_ENERGY_ERROR,/* largest |E - E0| / E0 */
    W_HEAD
};
#define WORDS (W_HEAD + BINS + 1)

static double x_max(int bonds)
{
    return fmin(3.0, sqrt((double)bonds)); /* R <= N b: x <= sqrt(N) */
}

/* ---- options ------------------------------------------------------------ */

static void usage(FILE *out, const params *d)
{
    fprintf(out,
            "usage: " NAME " [options]   (under MPI: mpirun -n P " NAME " [options])\n"
            "Freely jointed chains of rigid bonds (RATTLE) at temperature kT spread over the\n"
            "ranks; <R^2> / (N b^2) and the distribution of the end-to-end distance R\n"
            "against the exact one. Writes ensemble_polymer.svg into the current directory.\n"
            "Units: bond length, bead mass and kT are 1.\n"
            "  --bonds N         bonds per chain, 2 .. 1000 (default %d)\n"
            "  --chains C        chains (runs) in the ensemble (default %zu)\n"
            "  --steps S         RATTLE steps per chain (default %ld)\n"
            "  --every K         steps between samples of R (default %ld)\n"
            "  --dt DT           step (default %g)\n"
            "  --tolerance TOL   projection tolerance, relative (default %g)\n"
            "  --seed S          master seed (default %llu); chain r's seed mixes S and r\n"
            "  --checkpoint DIR  save each finished chain's record in DIR; started again\n"
            "                    with the same options, the ensemble skips those chains\n"
            "  --state-every S   with --checkpoint, also save a running chain's system every\n"
            "                    S steps; a restart goes on from the last one\n"
            "  --full            N = 100 bonds, 1000 chains of 4000 steps\n"
            "  --quick           64 chains of 400 steps (for tests)\n"
            "  --quiet           no line per chain\n"
            "  --interrupt-after N (for tests) end the job, as a kill would, once a rank\n"
            "                    has written N checkpoint files\n"
            "  --help            this text\n",
            d->bonds, d->chains, d->steps, d->every, d->dt, d->tolerance,
            (unsigned long long)d->seed);
}

static int whole(const char *s, double lo, double hi, double *out)
{
    return cli_parse_double(s, out) || !(*out >= lo && *out <= hi) || *out != floor(*out);
}

/* 0: run; 1: done (help); -1: bad usage (message printed by rank 0). */
static int parse(int argc, char **argv, params *p, int talk)
{
    const params defaults = *p;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            if (talk)
                usage(stdout, &defaults);
            return 1;
        }
        if (strcmp(a, "--full") == 0) {
            p->bonds = 100;
            p->chains = 1000;
            p->steps = 4000;
            continue;
        }
        if (strcmp(a, "--quick") == 0) {
            p->chains = 64;
            p->steps = 400;
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
        int bad = 0;
        if (strcmp(a, "--bonds") == 0) {
            bad = whole(v, 2, 1000, &x);
            p->bonds = (int)x;
        } else if (strcmp(a, "--chains") == 0) {
            bad = whole(v, 2, 1e7, &x);
            p->chains = (size_t)x;
        } else if (strcmp(a, "--steps") == 0) {
            bad = whole(v, 1, 1e9, &x);
            p->steps = (long)x;
        } else if (strcmp(a, "--every") == 0) {
            bad = whole(v, 1, 1e9, &x);
            p->every = (long)x;
        } else if (strcmp(a, "--dt") == 0) {
            bad = cli_parse_double(v, &p->dt) || !(p->dt > 0 && p->dt <= 0.5);
        } else if (strcmp(a, "--tolerance") == 0) {
            bad = cli_parse_double(v, &p->tolerance) || !(p->tolerance > 0 && p->tolerance < 1);
        } else if (strcmp(a, "--seed") == 0) {
            bad = whole(v, 0, 9007199254740992.0, &x);
            p->seed = (uint64_t)x;
        } else if (strcmp(a, "--checkpoint") == 0) {
            p->checkpoint = v;
        } else if (strcmp(a, "--state-every") == 0) {
            bad = whole(v, 1, 1e9, &x);
            p->state_every = (long)x;
        } else if (strcmp(a, "--interrupt-after") == 0) {
            bad = whole(v, 1, 1e9, &x);
            p->interrupt_after = (long)x;
        } else {
            if (talk)
                fprintf(stderr, NAME ": unknown option %s (see --help)\n", a);
            return -1;
        }
        if (bad) {
            if (talk)
                fprintf(stderr, NAME ": bad value for %s: %s\n", a, v);
            return -1;
        }
    }
    if (p->every > p->steps)
        p->every = p->steps;
    return 0;
}

/* ---- one chain ---------------------------------------------------------- */

/* The arrays of one chain, kept from chain to chain. */
typedef struct chain {
    double *u, *x, *v, *scratch;
    cdyn_particle *bead;
} chain;

static int chain_init(chain *c, int n)
{
    size_t nx = 3 * (size_t)(n + 1);
    c->u = malloc(3 * (size_t)n * sizeof *c->u);
    c->x = malloc(nx * sizeof *c->x);
    c->v = malloc(nx * sizeof *c->v);
    c->scratch = malloc(3 * (size_t)n * sizeof *c->scratch);
    c->bead = malloc((size_t)(n + 1) * sizeof *c->bead);
    return c->u && c->x && c->v && c->scratch && c->bead ? 0 : -1;
}

static void chain_free(chain *c)
{
    free(c->u);
    free(c->x);
    free(c->v);
    free(c->scratch);
    free(c->bead);
}

static void fail(const ensemble *e, cdyn_system *sys, cdyn_status st, uint64_t run,
                 const char *what)
{
    ensemble_abort(e, "chain %llu: %s: %s (%s)", (unsigned long long)run, what,
                   cdyn_status_name(st), cdyn_system_last_error(sys));
}

#define CHECK(call, what)                                                                    \
    do {                                                                                     \
        cdyn_status st_ = (call);                                                            \
        if (st_ != CDYN_OK)                                                                  \
            fail(e, sys, st_, run, what);                                                    \
    } while (0)

/* The system of chain @p c's bonds and velocities, RATTLE with the Newton
 * projection. */
static cdyn_system *build(const ensemble *e, const params *p, chain *c, uint64_t run)
{
    cdyn_system *sys = NULL;
    CHECK(cdyn_system_create(3, &sys), "create");
    CHECK(cdyn_system_set_integrator(sys, CDYN_INTEGRATOR_RATTLE), "integrator");
    cdyn_projection_options opt;
    cdyn_projection_options_init(&opt);
    opt.method = CDYN_PROJECTION_NEWTON;
    opt.position_tolerance = p->tolerance;
    opt.velocity_tolerance = p->tolerance;
    CHECK(cdyn_system_set_projection_options(sys, &opt), "projection");
    double pos[3] = {0, 0, 0};
    for (int j = 0; j <= p->bonds; j++) {
        if (j > 0)
            for (int k = 0; k < 3; k++)
                pos[k] += c->u[3 * (j - 1) + k];
        CHECK(cdyn_particle_add(sys, 1.0, pos, c->v + 3 * j, &c->bead[j]), "bead");
        if (j > 0) {
            cdyn_constraint bond;
            CHECK(cdyn_constraint_add_distance(sys, c->bead[j - 1], c->bead[j], 1.0, &bond),
                  "bond");
        }
    }
    return sys;
}

static double end_to_end2(const double *x, int n)
{
    double d[3] = {x[3 * n] - x[0], x[3 * n + 1] - x[1], x[3 * n + 2] - x[2]};
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

static double bond_error(const double *x, int n)
{
    double worst = 0;
    for (int i = 0; i < n; i++) {
        double d[3] = {x[3 * i + 3] - x[3 * i], x[3 * i + 4] - x[3 * i + 1],
                       x[3 * i + 5] - x[3 * i + 2]};
        worst = fmax(worst, fabs(sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) - 1.0));
    }
    return worst;
}

/* Counts this rank's checkpoint files; with --interrupt-after, ends the job
 * at the given count, as a kill would. */
static void written(const ensemble *e, const params *p, long *files)
{
    if (p->interrupt_after > 0 && ++*files >= p->interrupt_after)
        ensemble_abort(e, "interrupted after %ld checkpoint files (--interrupt-after)", *files);
}

/* A running chain's sums: with its record so far, what a state holds
 * besides the system. */
typedef struct progress {
    long step; /* steps taken */
    uint64_t samples;
    double e0, r2_sum, r4_sum, worst_bond, worst_energy;
} progress;

/* A state file: the record so far (WORDS words), the progress (P_WORDS
 * words), a hash of the bytes before it, then the system's snapshot. */
enum { P_STEP, P_SAMPLES, P_E0, P_R2_SUM, P_R4_SUM, P_BOND, P_ENERGY, P_WORDS };
#define STATE_HEAD (8 * (WORDS + P_WORDS + 1))

static void save_state(const ensemble *e, const params *p, cdyn_system *sys, uint64_t run,
                       const uint64_t *rec, const progress *g, long *files)
{
    size_t size = 0;
    CHECK(cdyn_system_snapshot_size(sys, &size), "snapshot size");
    unsigned char *buf = malloc(STATE_HEAD + size);
    if (!buf)
        ensemble_abort(e, "out of memory");
    const uint64_t words[P_WORDS] = {
        [P_STEP] = (uint64_t)g->step, [P_SAMPLES] = g->samples,
        [P_E0] = ensemble_word(g->e0), [P_R2_SUM] = ensemble_word(g->r2_sum),
        [P_R4_SUM] = ensemble_word(g->r4_sum), [P_BOND] = ensemble_word(g->worst_bond),
        [P_ENERGY] = ensemble_word(g->worst_energy)};
    checkpoint_put_words(buf, rec, WORDS);
    checkpoint_put_words(buf + 8 * WORDS, words, P_WORDS);
    const uint64_t hash = ensemble_hash(ENSEMBLE_HASH_START, buf, STATE_HEAD - 8);
    checkpoint_put_words(buf + STATE_HEAD - 8, &hash, 1);
    CHECK(cdyn_system_save(sys, buf + STATE_HEAD, size, NULL), "save");
    if (checkpoint_save_state(p->checkpoint, run, buf, STATE_HEAD + size) != 0)
        ensemble_abort(e, "cannot write chain %llu's state in %s", (unsigned long long)run,
                       p->checkpoint);
    free(buf);
    written(e, p, files);
}

/* Chain @p run's system from its last state, with its record so far in
 * @p rec and its sums in @p g; NULL when it has none that loads. */
static cdyn_system *resume(const params *p, uint64_t run, uint64_t *rec, progress *g)
{
    size_t size = 0;
    unsigned char *buf = checkpoint_load_state(p->checkpoint, run, &size);
    if (!buf)
        return NULL;
    cdyn_system *sys = NULL;
    uint64_t words[P_WORDS], hash = 0;
    if (size > STATE_HEAD) {
        checkpoint_get_words(buf, rec, WORDS);
        checkpoint_get_words(buf + 8 * WORDS, words, P_WORDS);
        checkpoint_get_words(buf + STATE_HEAD - 8, &hash, 1);
        int intact = hash == ensemble_hash(ENSEMBLE_HASH_START, buf, STATE_HEAD - 8) &&
                     rec[W_RUN] == run && words[P_STEP] < (uint64_t)p->steps;
        /* The loader checks the snapshot itself and leaves sys NULL. */
        if (intact && cdyn_system_load(buf + STATE_HEAD, size - STATE_HEAD, NULL, NULL, &sys) !=
                          CDYN_OK)
            sys = NULL;
    }
    free(buf);
    if (!sys) {
        fprintf(stderr, NAME ": chain %llu: its state does not load: started again\n",
                (unsigned long long)run);
        return NULL;
    }
    printf("chain %llu: resumed at step %llu from its state\n", (unsigned long long)run,
           (unsigned long long)words[P_STEP]);
    *g = (progress){.step = (long)words[P_STEP], .samples = words[P_SAMPLES],
                    .e0 = ensemble_double(words[P_E0]),
                    .r2_sum = ensemble_double(words[P_R2_SUM]),
                    .r4_sum = ensemble_double(words[P_R4_SUM]),
                    .worst_bond = ensemble_double(words[P_BOND]),
                    .worst_energy = ensemble_double(words[P_ENERGY])};
    return sys;
}

/* Draws, runs and measures chain @p run into @p rec, or goes on from its
 * last state. */
static void run_chain(const ensemble *e, const params *p, chain *c, uint64_t run, uint64_t *rec,
                      long *files)
{
    const int n = p->bonds;
    const size_t nx = 3 * (size_t)(n + 1);
    const double xmax = x_max(n), scale = 1.0 / sqrt((double)n);
    const int states = p->checkpoint && p->state_every > 0;
    uint64_t *hist = rec + W_HEAD;
    progress g = {0};
    cdyn_system *sys = states ? resume(p, run, rec, &g) : NULL;
    if (!sys) {
        uint64_t rng = ensemble_seed(p->seed, run);
        memset(rec, 0, WORDS * sizeof *rec);
        rec[W_RUN] = run;
        rec[W_DRAWS] = (uint64_t)chain_draw_bonds(&rng, n, c->u);
        chain_draw_velocities(&rng, n, c->u, c->v, c->scratch);
        sys = build(e, p, c, run);
        CHECK(cdyn_system_get_kinetic_energy(sys, &g.e0), "energy");
    }

    for (long step = g.step;; step++) {
        if (states && step > g.step && step < p->steps && step % p->state_every == 0) {
            g.step = step;
            save_state(e, p, sys, run, rec, &g, files);
        }
        if (step % p->every == 0) {
            double energy;
            CHECK(cdyn_system_get_positions(sys, c->x, nx), "positions");
            CHECK(cdyn_system_get_kinetic_energy(sys, &energy), "energy");
            double r2 = end_to_end2(c->x, n) / n, x = sqrt(r2 * n) * scale;
            if (step == 0)
                rec[W_R2_START] = ensemble_word(r2);
            g.r2_sum += r2;
            g.r4_sum += r2 * r2;
            size_t bin = BINS; /* x >= x_max */
            if (x < xmax)
                bin = (size_t)(x / xmax * BINS) < BINS ? (size_t)(x / xmax * BINS) : BINS - 1;
            hist[bin]++;
            g.samples++;
            g.worst_bond = fmax(g.worst_bond, bond_error(c->x, n));
            g.worst_energy = fmax(g.worst_energy, fabs(energy - g.e0) / g.e0);
        }
        if (step == p->steps)
            break;
        CHECK(cdyn_system_step(sys, p->dt), "step");
    }
    cdyn_system_destroy(sys);
    rec[W_SAMPLES] = g.samples;
    rec[W_R2_MEAN] = ensemble_word(g.r2_sum / (double)g.samples);
    rec[W_R4_MEAN] = ensemble_word(g.r4_sum / (double)g.samples);
    rec[W_BOND_ERROR] = ensemble_word(g.worst_bond);
    rec[W_ENERGY_ERROR] = ensemble_word(g.worst_energy);
}

/* ---- the results (rank 0) ------------------------------------------------- */

/* The histogram against the exact distribution, bin by bin. */
typedef struct bins {
    double x[BINS], width;       /* bin centres and width in R / (b sqrt(N)) */
    double mean[BINS], se[BINS]; /* fraction of samples, over chains; its standard error */
    double exact[BINS], gauss[BINS]; /* the probabilities of each bin */
    int used[BINS];              /* visited by enough chains to measure the error */
    double chi2_exact, chi2_gauss; /* over the used bins but the last, with their covariance */
    int dof;
} bins;

/* The chi-square of the histogram against model probabilities @p model over
 * the bins idx[0 .. k-1], with the covariance of those bins' fractions over
 * the chains (neighbouring bins move together: a chain drifts slowly
 * through R). */
static double chi2_against(const double *f, size_t chains, const bins *b, const double *model,
                           const int *idx, size_t k, double *work)
{
    double *cov = work, *d = work + k * k;
    for (size_t i = 0; i < k; i++) {
        d[i] = b->mean[idx[i]] - model[idx[i]];
        for (size_t j = 0; j <= i; j++) {
            double s = 0;
            for (size_t r = 0; r < chains; r++)
                s += (f[r * BINS + (size_t)idx[i]] - b->mean[idx[i]]) *
                     (f[r * BINS + (size_t)idx[j]] - b->mean[idx[j]]);
            cov[i * k + j] = cov[j * k + i] = s / (double)(chains - 1) / (double)chains;
        }
    }
    return ensemble_chi2(cov, d, k, work + k * k + k);
}

static int compare(const params *p, const uint64_t *all, bins *b)
{
    const int n = p->bonds;
    const size_t chains = p->chains;
    double *f = malloc(chains * BINS * sizeof *f), xm = x_max(n), sq = sqrt((double)n);
    double *work = malloc((2 * BINS * BINS + 2 * BINS) * sizeof *work);
    if (!f || !work) {
        free(f);
        free(work);
        return -1;
    }
    b->width = xm / BINS;
    int idx[BINS];
    size_t k_used = 0;
    for (int k = 0; k < BINS; k++) {
        double lo = k * b->width, hi = (k + 1) * b->width;
        b->x[k] = 0.5 * (lo + hi);
        size_t visits = 0;
        for (size_t r = 0; r < chains; r++) {
            const uint64_t *rec = all + r * WORDS;
            f[r * BINS + (size_t)k] = (double)rec[W_HEAD + k] / (double)rec[W_SAMPLES];
            visits += rec[W_HEAD + k] > 0;
        }
        ensemble_mean(f + k, chains, BINS, &b->mean[k], NULL, &b->se[k], NULL);
        b->exact[k] = fjc_cdf(n, hi * sq) - fjc_cdf(n, lo * sq);
        b->gauss[k] = fjc_gaussian_cdf(n, hi * sq) - fjc_gaussian_cdf(n, lo * sq);
        /* The spread between chains measures the error where enough chains
         * visited the bin. */
        b->used[k] = visits >= 20 && b->se[k] > 0;
        if (b->used[k])
            idx[k_used++] = k;
    }
    /* The fractions of all bins add up to 1 in every chain: the last used
     * bin is left out, so that the covariance is not nearly singular. */
    size_t k = k_used > 0 ? k_used - 1 : 0;
    b->dof = (int)k;
    b->chi2_exact = chi2_against(f, chains, b, b->exact, idx, k, work);
    b->chi2_gauss = chi2_against(f, chains, b, b->gauss, idx, k, work);
    free(f);
    free(work);
    return 0;
}

static int picture(const char *path, const params *p, const bins *b, double r2, double r2_err)
{
    enum { CURVE = 400 };
    const int n = p->bonds;
    const double sq = sqrt((double)n), xm = x_max(n);
    double cx[CURVE], ce[CURVE], cg[CURVE], mx[BINS], my[BINS], pe[BINS], pg[BINS];
    chart *c = chart_create(1000, 760);
    chart_title(c, "End-to-end distance of %zu freely jointed chains of %d rigid bonds "
                   "(RATTLE, kT = 1)", p->chains, n);
    chart_caption(c, "<R^{2}> / (N b^{2}) = %.4f \xc2\xb1 %.4f; errors from the spread between "
                     "chains (%ld steps of %g each, R sampled every %ld)",
                  r2, r2_err, p->steps, p->dt, p->every);
    chart_panel *top = chart_panel_add(c, 2.2);
    chart_x(top, "R / (b N^{1/2})", 0);
    chart_y(top, "probability density", 0);
    chart_x_range(top, 0, xm);
    for (int i = 0; i < CURVE; i++) {
        cx[i] = xm * (i + 0.5) / CURVE;
        ce[i] = sq * fjc_density(n, cx[i] * sq);
        cg[i] = sq * fjc_gaussian_density(n, cx[i] * sq);
    }
    chart_line(top, cx, cg, CURVE, "Gaussian chain",
               &(chart_style){.color = "#2ca02c", .dash = "6,4", .width = 1.5});
    chart_line(top, cx, ce, CURVE, "freely jointed chain, exact",
               &(chart_style){.color = "#d62728", .width = 1.5});
    const chart_style bar = {.color = "black", .width = 1.2};
    for (int k = 0; k < BINS; k++) {
        mx[k] = b->x[k];
        my[k] = b->mean[k] / b->width;
        double d = 2 * b->se[k] / b->width;
        chart_segment(top, mx[k], my[k] - d, mx[k], my[k] + d, &bar);
        chart_marker(top, mx[k], my[k], &(chart_style){.color = "black", .size = 2.5});
    }
    chart_key(top, CHART_MARKER, "the chains' histogram, \xc2\xb1 2 standard errors",
              &(chart_style){.color = "black", .size = 2.5});

    chart_panel *bottom = chart_panel_add(c, 1);
    chart_x(bottom, "R / (b N^{1/2})", 0);
    chart_y(bottom, "(histogram - model) / error", 0);
    chart_x_range(bottom, 0, xm);
    for (int k = 0; k < BINS; k++) {
        pe[k] = b->used[k] ? (b->mean[k] - b->exact[k]) / b->se[k] : NAN;
        pg[k] = b->used[k] ? (b->mean[k] - b->gauss[k]) / b->se[k] : NAN;
    }
    char label[96];
    snprintf(label, sizeof label, "exact: chi^{2} = %.1f for %d bins", b->chi2_exact, b->dof);
    chart_line(bottom, mx, pe, BINS, label, &(chart_style){.color = "#d62728", .width = 1.5});
    snprintf(label, sizeof label, "Gaussian: chi^{2} = %.1f", b->chi2_gauss);
    chart_line(bottom, mx, pg, BINS, label,
               &(chart_style){.color = "#2ca02c", .dash = "6,4", .width = 1.5});
    chart_hline(bottom, 2, NULL, &(chart_style){.color = "#999", .dash = "2,3"});
    chart_hline(bottom, -2, NULL, &(chart_style){.color = "#999", .dash = "2,3"});
    int bad = chart_save(c, path) != 0;
    chart_free(c);
    return bad ? -1 : 0;
}

/* A self-check of the exact distribution: its density integrates to 1 and
 * gives <R^2> = N b^2 (Simpson's rule up to R = 10 b sqrt(N), beyond which
 * the density is below e^-150). */
static void check_exact(int n)
{
    enum { STEPS = 1000 };
    double top = fmin((double)n, 10 * sqrt((double)n)), h = top / STEPS, p = 0, r2 = 0;
    for (int i = 0; i <= STEPS; i++) {
        double r = i * h, w = i == 0 || i == STEPS ? 1 : i % 2 ? 4 : 2, f = fjc_density(n, r);
        p += w * f;
        r2 += w * r * r * f;
    }
    printf("exact distribution (Simpson's rule on its density): total probability %.9f, "
           "<R^2> / (N b^2) = %.9f\n", p * h / 3, r2 * h / 3 / n);
}

static int conclude(const ensemble *e, const params *p, const uint64_t *all)
{
    const size_t chains = p->chains;
    double *col = malloc(chains * sizeof *col);
    bins b;
    if (!col || compare(p, all, &b) != 0)
        ensemble_abort(e, "out of memory");
    double stat[3][2]; /* mean and standard error: R^2 at 0, R^2, R^4 */
    const int words[3] = {W_R2_START, W_R2_MEAN, W_R4_MEAN};
    for (int k = 0; k < 3; k++) {
        for (size_t r = 0; r < chains; r++)
            col[r] = ensemble_double(all[r * WORDS + words[k]]);
        ensemble_mean(col, chains, 1, &stat[k][0], NULL, &stat[k][1], NULL);
    }
    double worst_bond = 0, worst_energy = 0, draws = 0;
    for (size_t r = 0; r < chains; r++) {
        const uint64_t *rec = all + r * WORDS;
        worst_bond = fmax(worst_bond, ensemble_double(rec[W_BOND_ERROR]));
        worst_energy = fmax(worst_energy, ensemble_double(rec[W_ENERGY_ERROR]));
        draws += (double)rec[W_DRAWS];
        if (!p->quiet && (r < 6 || r + 1 == chains))
            printf("  chain %5zu: R^2 / (N b^2) at t = 0 %.3f, time average %.3f\n", r,
                   ensemble_double(rec[W_R2_START]), ensemble_double(rec[W_R2_MEAN]));
        else if (!p->quiet && r == 6)
            printf("  ...\n");
    }
    const double n = p->bonds, t95 = ensemble_t95(chains - 1);
    printf("bond-length error max %.1e b (tolerance %g), energy error max %.1e (all kinetic); "
           "%.1f tries of the sampler per chain\n",
           worst_bond, p->tolerance, worst_energy, draws / (double)chains);
    printf("<R^2> / (N b^2), time averages:  %.4f +- %.4f (standard error over %zu chains; "
           "95 %%: +- %.4f)\n", stat[1][0], stat[1][1], chains, t95 * stat[1][1]);
    printf("                 at t = 0:       %.4f +- %.4f (the drawn ensemble)\n", stat[0][0],
           stat[0][1]);
    printf("  freely jointed chain: 1, off by %.1f standard errors\n",
           fabs(stat[1][0] - 1) / stat[1][1]);
    printf("<R^4> / (N b^2)^2:               %.4f +- %.4f (freely jointed chain %.4f, "
           "Gaussian 5/3)\n", stat[2][0], stat[2][1], 5.0 / 3 - 2.0 / (3 * n));
    printf("distribution of R / (b sqrt N) in %d bins of %.3g: chi^2 = %.1f for %d bins "
           "against the exact,\n  %.1f against the Gaussian chain (with the bins' covariance "
           "over the chains)\n", BINS, b.width, b.chi2_exact, b.dof, b.chi2_gauss);
    check_exact(p->bonds);

    uint64_t bits = ensemble_hash(ENSEMBLE_HASH_START, all, chains * WORDS * sizeof *all);
    bits = ensemble_hash(bits, stat, sizeof stat);
    bits = ensemble_hash(bits, b.mean, sizeof b.mean);
    bits = ensemble_hash(bits, b.se, sizeof b.se);
    bits = ensemble_hash(bits, &b.chi2_exact, sizeof b.chi2_exact);
    printf("result bits: %016llx\n", (unsigned long long)bits);
    int code = 0;
    if (picture("ensemble_polymer.svg", p, &b, stat[1][0], stat[1][1]) != 0) {
        fprintf(stderr, NAME ": cannot write ensemble_polymer.svg\n");
        code = 1;
    } else {
        printf("wrote ensemble_polymer.svg\n");
    }
    free(col);
    return code;
}

/* ---- main ------------------------------------------------------------------ */

static void manifest(const params *p, char *out, size_t cap)
{
    snprintf(out, cap,
             "program " NAME "\nbonds %d\nsteps %ld every %ld\ndt %.17g\ntolerance %.17g\n"
             "master seed %llu\nrecord %d words\n",
             p->bonds, p->steps, p->every, p->dt, p->tolerance, (unsigned long long)p->seed,
             WORDS);
}

int main(int argc, char **argv)
{
    ensemble e;
    ensemble_start(&e, NAME, &argc, &argv);
    params p = {.bonds = 20, .chains = 1000, .steps = 2000, .every = 10, .dt = 0.01,
                .tolerance = 1e-10, .seed = 2026};
    int rc = parse(argc, argv, &p, e.rank == 0);
    if (rc != 0)
        return ensemble_end(&e, rc > 0 ? 0 : 2);

    uint64_t *all = NULL, *mine = NULL;
    unsigned char *have = calloc(p.chains, 1);
    chain c = {0};
    if (!have || chain_init(&c, p.bonds) != 0)
        ensemble_abort(&e, "out of memory");
    if (e.rank == 0) {
        printf(NAME ": %zu chains of N = %d rigid bonds, %ld RATTLE steps of %g each, "
               "master seed %llu, %d rank%s\n", p.chains, p.bonds, p.steps, p.dt,
               (unsigned long long)p.seed, e.ranks, e.ranks > 1 ? "s" : "");
        if (!(all = calloc(p.chains * WORDS, sizeof *all)))
            ensemble_abort(&e, "out of memory");
    }
    /* Rank 0 reads the records of finished chains; the rest are shared out. */
    if (p.checkpoint) {
        int ok = 1;
        if (e.rank == 0) {
            char text[512];
            manifest(&p, text, sizeof text);
            ok = checkpoint_open(p.checkpoint, text) == 0;
            for (size_t r = 0; ok && r < p.chains; r++)
                have[r] = checkpoint_load_record(p.checkpoint, r, all + r * WORDS, WORDS) == 1;
        }
        if (!ensemble_all(ok))
            return ensemble_end(&e, 1);
        ensemble_broadcast(have, p.chains);
    }
    size_t todo = 0, n_mine = 0;
    for (size_t r = 0; r < p.chains; r++)
        todo += !have[r];
    if (e.rank == 0 && todo < p.chains)
        printf("resuming: %zu chains finished before, %zu to do\n", p.chains - todo, todo);
    if (!(mine = malloc((todo / (size_t)e.ranks + 1) * WORDS * sizeof *mine)))
        ensemble_abort(&e, "out of memory");
    long files = 0;
    for (size_t r = 0, k = 0; r < p.chains; r++) {
        if (have[r] || k++ % (size_t)e.ranks != (size_t)e.rank)
            continue; /* the k-th unfinished chain is rank k mod P's */
        double t0 = ensemble_clock(), c0 = ensemble_cpu_clock();
        uint64_t *rec = mine + n_mine++ * WORDS;
        run_chain(&e, &p, &c, r, rec, &files);
        if (p.checkpoint) {
            if (checkpoint_save_record(p.checkpoint, r, rec, WORDS) != 0)
                ensemble_abort(&e, "cannot write chain %zu's record in %s", r, p.checkpoint);
            checkpoint_drop_state(p.checkpoint, r);
            written(&e, &p, &files);
        }
        e.busy += ensemble_clock() - t0;
        e.cpu += ensemble_cpu_clock() - c0;
        e.computed++;
    }
    ensemble_gather(&e, mine, n_mine, WORDS, all, have, p.chains);

    int code = 0;
    if (e.rank == 0) {
        for (size_t r = 0; r < p.chains; r++)
            if (!have[r])
                ensemble_abort(&e, "chain %zu has no record", r);
        code = conclude(&e, &p, all);
    }
    ensemble_report_time(&e);
    chain_free(&c);
    free(mine);
    free(all);
    free(have);
    return ensemble_end(&e, code);
}
