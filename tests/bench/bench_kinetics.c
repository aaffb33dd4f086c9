/* bench_kinetics: work against precision of the kinetics integrators, next
 * to SUNDIALS CVODE (when the build found it) at the same tolerances.
 *
 * Problems:
 *  - Robertson's stiff network A -> B (0.04), 2B -> B + C (3e7),
 *    B + C -> A + C (1e4), from (1, 0, 0) at t = 0 to t = 4e10;
 *  - a reaction-diffusion chain: the Brusselator on N cells (Hairer and
 *    Wanner's BRUSS, Solving ODEs II, section IV.1), species U_i, V_i,
 *    reactions 0 -> U (1), 2U + V -> 3U (1), U -> V (3), U -> 0 (1) in every
 *    cell and diffusion U_i <-> U_i+1, V_i <-> V_i+1 with rate constant
 *    alpha (N + 1)^2, alpha = 1/50, the ends held at U = 1, V = 3 through
 *    exchange with fixed reservoirs; U = 1 + sin(2 pi x), V = 3 at t = 0,
 *    t_end = 10. 2N species, 8N reactions.
 *
 * For each relative tolerance rtol (absolute tolerance rtol * 1e-6 for
 * Robertson, rtol for the chain) both solvers integrate to t_end; the error
 * is max_i |y_i - ref_i| / scale_i at t_end, scale_i the largest value of
 * species i over the run (Robertson: 1, 3.65e-5, 1; the chain: 1, its
 * concentrations are of order 1), ref a reference solution at rtol 1e-13 (CVODE's when
 * present, cdyn's otherwise; both are printed so their agreement shows).
 * The runs of the two solvers alternate and each figure is the median over
 * the repeats. The last column compares at equal accuracy: cdyn's time
 * interpolated (log-log) on its own work-precision curve at CVODE's error,
 * divided by CVODE's time.
 *
 * CVODE is given what a careful user gives it: hand-written right-hand
 * sides and analytic Jacobians, a dense solver for Robertson and KLU
 * (sparse LU, SUNDIALS' only general sparse direct solver) for the chain,
 * and the end time as its stop time. cdyn is given its network.
 *
 * Also printed: allocations made by the library during an integration
 * after the first (the work space is kept: none expected).
 *
 * No arguments: Robertson at rtol 1e-4 .. 1e-8 and the chain with N = 1000
 * at 1e-4 .. 1e-8, 3 repeats. --full: rtol 1e-4 .. 1e-10 and N = 10^4, 5
 * repeats. --runs R sets the repeats, --cells N the chain's size. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cdyn/cdyn.h>

#include "bench_util.h"

#ifdef BENCH_HAVE_CVODE
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#ifdef BENCH_HAVE_KLU
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>
#endif
#endif

#ifdef BENCH_HAVE_KLU
#define BENCH_KLU_FLAG 1
#else
#define BENCH_KLU_FLAG 0
#endif

#define MAX_TOLS 8
#define MAX_RUNS 15

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* --- A counting allocator: allocations made while integrating. --------- */

typedef struct counter {
    size_t allocs;
} counter;

static void *count_alloc(size_t size, void *user)
{
    ((counter *)user)->allocs++;
    return malloc(size);
}

static void count_free(void *p, size_t size, void *user)
{
    (void)size;
    (void)user;
    free(p);
}

/* --- The problems ----------------------------------------------------------- */

typedef struct problem {
    const char *name;
    size_t n;        /* species */
    size_t cells;    /* chain: N */
    double t_end;
    double atol_factor;
    double *y0;
    double *scale;   /* error scale per species */
} problem;

static cdyn_kinetics *build_robertson(const cdyn_allocator *a)
{
    cdyn_kinetics *k;
    if (cdyn_kinetics_create_with_allocator(a, &k))
        return NULL;
    size_t A, B, C;
    cdyn_kinetics_add_species(k, "A", 1.0, &A);
    cdyn_kinetics_add_species(k, "B", 0.0, &B);
    cdyn_kinetics_add_species(k, "C", 0.0, &C);
    size_t r1[] = {A}, p1[] = {B}, r2[] = {B}, p2[] = {B, C}, r3[] = {B, C}, p3[] = {A, C};
    int two[] = {2};
    cdyn_kinetics_add_reaction(k, 1, r1, NULL, 1, p1, NULL, 0.04, NULL);
    cdyn_kinetics_add_reaction(k, 1, r2, two, 2, p2, NULL, 3e7, NULL);
    cdyn_kinetics_add_reaction(k, 2, r3, NULL, 2, p3, NULL, 1e4, NULL);
    return k;
}

#define BR_A 1.0
#define BR_B 3.0
#define BR_ALPHA 0.02

/* The chain's network: species U_i = 2i, V_i = 2i + 1. */
static cdyn_kinetics *build_chain(const cdyn_allocator *a, size_t cells, const double *y0)
{
    cdyn_kinetics *k;
    if (cdyn_kinetics_create_with_allocator(a, &k))
        return NULL;
    char name[32];
    for (size_t i = 0; i < cells; i++) {
        snprintf(name, sizeof name, "U%zu", i);
        cdyn_kinetics_add_species(k, name, y0[2 * i], NULL);
        snprintf(name, sizeof name, "V%zu", i);
        cdyn_kinetics_add_species(k, name, y0[2 * i + 1], NULL);
    }
    double c = BR_ALPHA * (double)(cells + 1) * (double)(cells + 1);
    int tw[] = {2, 1}, three[] = {3};
    for (size_t i = 0; i < cells; i++) {
        size_t u = 2 * i, v = 2 * i + 1;
        size_t uv[] = {u, v};
        cdyn_kinetics_add_reaction(k, 0, NULL, NULL, 1, &u, NULL, BR_A, NULL);
        cdyn_kinetics_add_reaction(k, 2, uv, tw, 1, &u, three, 1.0, NULL);
        cdyn_kinetics_add_reaction(k, 1, &u, NULL, 1, &v, NULL, BR_B, NULL);
        cdyn_kinetics_add_reaction(k, 1, &u, NULL, 0, NULL, NULL, 1.0, NULL);
    }
    for (size_t s = 0; s < 2; s++) {
        double edge = s == 0 ? 1.0 : 3.0; /* the reservoirs */
        size_t first = s, last = 2 * (cells - 1) + s;
        cdyn_kinetics_add_reaction(k, 0, NULL, NULL, 1, &first, NULL, c * edge, NULL);
        cdyn_kinetics_add_reaction(k, 1, &first, NULL, 0, NULL, NULL, c, NULL);
        cdyn_kinetics_add_reaction(k, 0, NULL, NULL, 1, &last, NULL, c * edge, NULL);
        cdyn_kinetics_add_reaction(k, 1, &last, NULL, 0, NULL, NULL, c, NULL);
        for (size_t i = 0; i + 1 < cells; i++) {
            size_t x = 2 * i + s, y = 2 * (i + 1) + s;
            cdyn_kinetics_add_reversible_reaction(k, 1, &x, NULL, 1, &y, NULL, c, c, NULL);
        }
    }
    return k;
}

static cdyn_kinetics *build(const problem *p, const cdyn_allocator *a)
{
    return p->cells ? build_chain(a, p->cells, p->y0) : build_robertson(a);
}

/* --- cdyn ------------------------------------------------------------------- */

typedef struct result {
    double wall, cpu, err;
    double y_end_first; /* for the table's sanity */
    uint64_t steps, fevals, jevals, lu;
    size_t allocs_after_first;
    int ok;
} result;

static double error_of(const problem *p, const double *y, const double *ref)
{
    double e = 0.0;
    for (size_t i = 0; i < p->n; i++) {
        double d = fabs(y[i] - ref[i]) / p->scale[i];
        if (!(d <= e))
            e = d;
    }
    return e;
}

static int run_cdyn(const problem *p, double rtol, const double *ref, double *y, result *r)
{
    counter cnt = {0};
    cdyn_allocator a = {count_alloc, count_free, &cnt};
    cdyn_kinetics *k = build(p, &a);
    cdyn_kinetics_options o;
    cdyn_kinetics_options_init(&o);
    o.rtol = rtol;
    o.atol = rtol * p->atol_factor;
    o.max_steps = 10000000;
    if (!k || cdyn_kinetics_set_options(k, &o))
        return -1;
    /* A first integration over a short interval sets up the work space. */
    double tiny = p->t_end * 1e-9;
    if (cdyn_kinetics_integrate(k, tiny, NULL, 0, NULL, 0))
        return -1;
    cdyn_kinetics_set_time(k, 0.0);
    cdyn_kinetics_set_concentrations(k, p->y0, p->n);
    size_t before = cnt.allocs;
    double w0 = bench_now(), c0 = cpu_now();
    cdyn_status st = cdyn_kinetics_integrate(k, p->t_end, NULL, 0, NULL, 0);
    r->wall = bench_now() - w0;
    r->cpu = cpu_now() - c0;
    r->allocs_after_first = cnt.allocs - before;
    if (st) {
        fprintf(stderr, "cdyn: %s\n", cdyn_kinetics_last_error(k));
        cdyn_kinetics_destroy(k);
        return -1;
    }
    cdyn_kinetics_get_concentrations(k, y, p->n);
    cdyn_kinetics_stats s = {.size = sizeof s};
    cdyn_kinetics_get_stats(k, &s);
    r->steps = s.steps;
    r->fevals = s.rate_evaluations;
    r->jevals = s.jacobian_evaluations;
    r->lu = s.factorizations;
    r->err = ref ? error_of(p, y, ref) : 0.0;
    r->ok = 1;
    cdyn_kinetics_destroy(k);
    return 0;
}

/* --- CVODE -------------------------------------------------------------------- */

#ifdef BENCH_HAVE_CVODE
static int rob_rhs(sunrealtype t, N_Vector yv, N_Vector fv, void *user)
{
    (void)t;
    (void)user;
    const double *y = N_VGetArrayPointer(yv);
    double *f = N_VGetArrayPointer(fv);
    double r1 = 0.04 * y[0], r2 = 3e7 * y[1] * y[1], r3 = 1e4 * y[1] * y[2];
    f[0] = -r1 + r3;
    f[1] = r1 - r2 - r3;
    f[2] = r2;
    return 0;
}

static int rob_jac(sunrealtype t, N_Vector yv, N_Vector fy, SUNMatrix J, void *user,
                   N_Vector t1, N_Vector t2, N_Vector t3)
{
    (void)t, (void)fy, (void)user, (void)t1, (void)t2, (void)t3;
    const double *y = N_VGetArrayPointer(yv);
    SM_ELEMENT_D(J, 0, 0) = -0.04;
    SM_ELEMENT_D(J, 0, 1) = 1e4 * y[2];
    SM_ELEMENT_D(J, 0, 2) = 1e4 * y[1];
    SM_ELEMENT_D(J, 1, 0) = 0.04;
    SM_ELEMENT_D(J, 1, 1) = -1e4 * y[2] - 6e7 * y[1];
    SM_ELEMENT_D(J, 1, 2) = -1e4 * y[1];
    SM_ELEMENT_D(J, 2, 0) = 0.0;
    SM_ELEMENT_D(J, 2, 1) = 6e7 * y[1];
    SM_ELEMENT_D(J, 2, 2) = 0.0;
    return 0;
}

static int chain_rhs(sunrealtype t, N_Vector yv, N_Vector fv, void *user)
{
    (void)t;
    const problem *p = user;
    const double *y = N_VGetArrayPointer(yv);
    double *f = N_VGetArrayPointer(fv);
    size_t N = p->cells;
    double c = BR_ALPHA * (double)(N + 1) * (double)(N + 1);
    for (size_t i = 0; i < N; i++) {
        double u = y[2 * i], v = y[2 * i + 1];
        double ul = i > 0 ? y[2 * i - 2] : 1.0, ur = i + 1 < N ? y[2 * i + 2] : 1.0;
        double vl = i > 0 ? y[2 * i - 1] : 3.0, vr = i + 1 < N ? y[2 * i + 3] : 3.0;
        double uuv = u * u * v;
        f[2 * i] = BR_A + uuv - (BR_B + 1.0) * u + c * (ul - 2.0 * u + ur);
        f[2 * i + 1] = BR_B * u - uuv + c * (vl - 2.0 * v + vr);
    }
    return 0;
}

#ifdef BENCH_HAVE_KLU
/* CSC Jacobian of the chain: column of U_i: U_i-1, U_i, V_i, U_i+1; column
 * of V_i: V_i-1, U_i, V_i, V_i+1 (rows ascending). */
static int chain_jac(sunrealtype t, N_Vector yv, N_Vector fy, SUNMatrix J, void *user,
                     N_Vector t1, N_Vector t2, N_Vector t3)
{
    (void)t, (void)fy, (void)t1, (void)t2, (void)t3;
    const problem *p = user;
    const double *y = N_VGetArrayPointer(yv);
    size_t N = p->cells;
    double c = BR_ALPHA * (double)(N + 1) * (double)(N + 1);
    sunindextype *colptr = SUNSparseMatrix_IndexPointers(J);
    sunindextype *rowval = SUNSparseMatrix_IndexValues(J);
    double *val = SUNSparseMatrix_Data(J);
    sunindextype e = 0;
    for (size_t i = 0; i < N; i++) {
        double u = y[2 * i], v = y[2 * i + 1];
        sunindextype ru = (sunindextype)(2 * i), rv = ru + 1;
        /* column U_i */
        colptr[2 * i] = e;
        if (i > 0) {
            rowval[e] = ru - 2;
            val[e++] = c;
        }
        rowval[e] = ru;
        val[e++] = 2.0 * u * v - (BR_B + 1.0) - 2.0 * c;
        rowval[e] = rv;
        val[e++] = BR_B - 2.0 * u * v;
        if (i + 1 < N) {
            rowval[e] = ru + 2;
            val[e++] = c;
        }
        /* column V_i */
        colptr[2 * i + 1] = e;
        if (i > 0) {
            rowval[e] = rv - 2;
            val[e++] = c;
        }
        rowval[e] = ru;
        val[e++] = u * u;
        rowval[e] = rv;
        val[e++] = -u * u - 2.0 * c;
        if (i + 1 < N) {
            rowval[e] = rv + 2;
            val[e++] = c;
        }
    }
    colptr[2 * N] = e;
    return 0;
}
#endif

static int run_cvode(const problem *p, double rtol, const double *ref, double *yout,
                     result *r)
{
    SUNContext ctx;
    if (SUNContext_Create(NULL, &ctx))
        return -1;
    sunindextype n = (sunindextype)p->n;
    N_Vector y = N_VNew_Serial(n, ctx);
    memcpy(N_VGetArrayPointer(y), p->y0, p->n * sizeof(double));
    void *cv = CVodeCreate(CV_BDF, ctx);
    SUNMatrix A = NULL;
    SUNLinearSolver LS = NULL;
    int rc = CVodeInit(cv, p->cells ? chain_rhs : rob_rhs, 0.0, y);
    rc |= CVodeSStolerances(cv, rtol, rtol * p->atol_factor);
    rc |= CVodeSetUserData(cv, (void *)p);
    rc |= CVodeSetMaxNumSteps(cv, 10000000);
    rc |= CVodeSetStopTime(cv, p->t_end);
    if (!p->cells) {
        A = SUNDenseMatrix(n, n, ctx);
        LS = SUNLinSol_Dense(y, A, ctx);
        rc |= CVodeSetLinearSolver(cv, LS, A);
        rc |= CVodeSetJacFn(cv, rob_jac);
    } else {
#ifdef BENCH_HAVE_KLU
        A = SUNSparseMatrix(n, n, 8 * (sunindextype)p->cells, CSC_MAT, ctx);
        LS = SUNLinSol_KLU(y, A, ctx);
        rc |= CVodeSetLinearSolver(cv, LS, A);
        rc |= CVodeSetJacFn(cv, chain_jac);
#else
        rc = -1;
#endif
    }
    double t = 0.0, w0 = bench_now(), c0 = cpu_now();
    if (!rc)
        rc = CVode(cv, p->t_end, y, &t, CV_NORMAL);
    r->wall = bench_now() - w0;
    r->cpu = cpu_now() - c0;
    if (rc >= 0) {
        memcpy(yout, N_VGetArrayPointer(y), p->n * sizeof(double));
        long nst, nfe, nje, nsetups;
        CVodeGetNumSteps(cv, &nst);
        CVodeGetNumRhsEvals(cv, &nfe);
        CVodeGetNumJacEvals(cv, &nje);
        CVodeGetNumLinSolvSetups(cv, &nsetups);
        r->steps = (uint64_t)nst;
        r->fevals = (uint64_t)nfe;
        r->jevals = (uint64_t)nje;
        r->lu = (uint64_t)nsetups;
        r->err = ref ? error_of(p, yout, ref) : 0.0;
        r->ok = 1;
    }
    CVodeFree(&cv);
    if (LS)
        SUNLinSolFree(LS);
    if (A)
        SUNMatDestroy(A);
    N_VDestroy(y);
    SUNContext_Free(&ctx);
    return rc >= 0 ? 0 : -1;
}
#define HAVE_CVODE_RUN 1
#else
#define HAVE_CVODE_RUN 0
#endif

/* --- The sweep ------------------------------------------------------------------ */

/* log-log interpolation of time at error e on the curve (err[i], t[i]);
 * outside it, extrapolation from the two points of smallest (or largest)
 * error, *extrapolated set. NAN if the curve has fewer than two usable
 * points. */
static double time_at_error(const double *err, const double *t, size_t n, double e,
                            int *extrapolated)
{
    *extrapolated = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        double a = err[i], b = err[i + 1];
        double lo = a < b ? a : b, hi = a < b ? b : a;
        if (e >= lo && e <= hi && a > 0 && b > 0 && a != b) {
            double s = (log(e) - log(a)) / (log(b) - log(a));
            return exp(log(t[i]) + s * (log(t[i + 1]) - log(t[i])));
        }
    }
    /* the two points nearest to e in log error */
    size_t i0 = n, i1 = n;
    for (size_t i = 0; i < n; i++) {
        if (!(err[i] > 0))
            continue;
        double d = fabs(log(err[i]) - log(e));
        if (i0 == n || d < fabs(log(err[i0]) - log(e))) {
            i1 = i0;
            i0 = i;
        } else if (i1 == n || d < fabs(log(err[i1]) - log(e))) {
            i1 = i;
        }
    }
    if (i0 == n || i1 == n || err[i0] == err[i1])
        return NAN;
    *extrapolated = 1;
    double s = (log(e) - log(err[i0])) / (log(err[i1]) - log(err[i0]));
    return exp(log(t[i0]) + s * (log(t[i1]) - log(t[i0])));
}

static void sweep(const problem *p, const double *tols, size_t ntol, int runs)
{
    size_t n = p->n;
    double *ref = malloc(n * sizeof *ref), *ref2 = malloc(n * sizeof *ref2);
    double *y = malloc(n * sizeof *y);
    result r;
    memset(&r, 0, sizeof r);
    /* reference: CVODE's at 1e-13 when present, and cdyn's */
    int have_cv = 0;
#if HAVE_CVODE_RUN
    have_cv = p->cells == 0 || BENCH_KLU_FLAG;
    if (have_cv && run_cvode(p, 1e-13, NULL, ref, &r))
        have_cv = 0;
#endif
    if (run_cdyn(p, 1e-13, NULL, ref2, &r)) {
        printf("%s: cdyn failed at the reference tolerance\n", p->name);
        free(ref), free(ref2), free(y);
        return;
    }
    if (!have_cv)
        memcpy(ref, ref2, n * sizeof *ref);
    printf("\n%s: %zu species, t_end %g, atol = rtol x %g\n", p->name, n, p->t_end,
           p->atol_factor);
    printf("reference (rtol 1e-13): %s; cdyn's differs from it by %.2e (scaled)\n",
           have_cv ? "CVODE" : "cdyn", error_of(p, ref2, ref));

    result cd[MAX_TOLS][MAX_RUNS], cv[MAX_TOLS][MAX_RUNS];
    memset(cd, 0, sizeof cd);
    memset(cv, 0, sizeof cv);
    for (int k = 0; k < runs; k++)
        for (size_t i = 0; i < ntol; i++) {
            run_cdyn(p, tols[i], ref, y, &cd[i][k]);
#if HAVE_CVODE_RUN
            if (have_cv)
                run_cvode(p, tols[i], ref, y, &cv[i][k]);
#endif
        }
    printf("%-7s | %-48s | %-48s | %s\n", "", "cdyn BDF (generic mass action)",
           have_cv ? "CVODE BDF (hand-written f and J)" : "CVODE: not built", "");
    printf("%-7s | %7s %7s %5s %5s %9s %9s %9s | %7s %7s %5s %5s %9s %9s %9s | %s\n", "rtol",
           "steps", "f", "J", "LU", "error", "wall[ms]", "cpu[ms]", "steps", "f", "J", "LU",
           "error", "wall[ms]", "cpu[ms]", "cdyn/CVODE cpu at equal error");
    double e_cd[MAX_TOLS], t_cd[MAX_TOLS], e_cv[MAX_TOLS], t_cv[MAX_TOLS];
    size_t allocs = 0;
    for (size_t i = 0; i < ntol; i++) {
        double w[MAX_RUNS], c[MAX_RUNS], w2[MAX_RUNS], c2[MAX_RUNS];
        for (int k = 0; k < runs; k++) {
            w[k] = cd[i][k].wall;
            c[k] = cd[i][k].cpu;
            w2[k] = cv[i][k].wall;
            c2[k] = cv[i][k].cpu;
            allocs += cd[i][k].allocs_after_first;
        }
        const result *a = &cd[i][0], *b = &cv[i][0];
        e_cd[i] = a->err;
        t_cd[i] = bench_median(c, (size_t)runs);
        e_cv[i] = b->err;
        t_cv[i] = bench_median(c2, (size_t)runs);
        printf("%-7.0e | %7llu %7llu %5llu %5llu %9.2e %9.3f %9.3f |", tols[i],
               (unsigned long long)a->steps, (unsigned long long)a->fevals,
               (unsigned long long)a->jevals, (unsigned long long)a->lu, a->err,
               1e3 * bench_median(w, (size_t)runs), 1e3 * t_cd[i]);
        if (have_cv && b->ok)
            printf(" %7llu %7llu %5llu %5llu %9.2e %9.3f %9.3f |", (unsigned long long)b->steps,
                   (unsigned long long)b->fevals, (unsigned long long)b->jevals,
                   (unsigned long long)b->lu, b->err, 1e3 * bench_median(w2, (size_t)runs),
                   1e3 * t_cv[i]);
        else
            printf(" %48s |", "-");
        printf("\n");
    }
    if (have_cv) {
        printf("equal accuracy (cdyn's cpu time interpolated at CVODE's error on cdyn's "
               "work-precision curve; * extrapolated):\n");
        for (size_t i = 0; i < ntol; i++) {
            int ex;
            double t = time_at_error(e_cd, t_cd, ntol, e_cv[i], &ex);
            if (isnan(t))
                printf("  rtol %.0e: CVODE error %.2e: no comparison\n", tols[i], e_cv[i]);
            else
                printf("  rtol %.0e: CVODE error %.2e: cdyn %.3f ms%s, CVODE %.3f ms, ratio "
                       "%.2f\n",
                       tols[i], e_cv[i], 1e3 * t, ex ? "*" : "", 1e3 * t_cv[i], t / t_cv[i]);
        }
    }
    printf("allocations by cdyn during integrations after the first: %zu\n", allocs);
    free(ref), free(ref2), free(y);
}

int main(int argc, char **argv)
{
    int full = 0, runs = 0;
    size_t cells = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--full"))
            full = 1;
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cells") && i + 1 < argc)
            cells = (size_t)strtoull(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: %s [--full] [--runs R] [--cells N]\n", argv[0]);
            return 2;
        }
    }
    if (runs <= 0)
        runs = full ? 5 : 3;
    if (runs > MAX_RUNS)
        runs = MAX_RUNS;
    if (!cells)
        cells = full ? 10000 : 1000;
    double tols[MAX_TOLS];
    size_t ntol = 0;
    for (double t = 1e-4; t >= (full ? 0.9e-10 : 0.9e-8); t /= 10)
        tols[ntol++] = t;
    bench_print_machine("start");
    printf("build: cdyn %s; CVODE %s\n", cdyn_version_string(),
           HAVE_CVODE_RUN ? "found" : "not found");
    printf("times: median over %d alternating runs; cpu = process CPU time\n", runs);

    double rob_y0[3] = {1, 0, 0}, rob_scale[3] = {1, 3.65e-5, 1};
    problem rob = {"Robertson", 3, 0, 4e10, 1e-6, rob_y0, rob_scale};
    sweep(&rob, tols, ntol, runs);

    size_t n = 2 * cells;
    double *y0 = malloc(n * sizeof *y0), *scale = malloc(n * sizeof *scale);
    for (size_t i = 0; i < cells; i++) {
        double x = (double)(i + 1) / (double)(cells + 1);
        y0[2 * i] = 1.0 + sin(2.0 * 3.14159265358979323846 * x);
        y0[2 * i + 1] = 3.0;
    }
    for (size_t i = 0; i < n; i++)
        scale[i] = 1.0;
    char name[64];
    snprintf(name, sizeof name, "Brusselator chain, %zu cells", cells);
    problem chain = {name, n, cells, 10.0, 1.0, y0, scale};
    sweep(&chain, tols, ntol, runs);
    free(y0), free(scale);
    return 0;
}
