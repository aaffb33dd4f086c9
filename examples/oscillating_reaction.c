/* Oscillating reactions: the Brusselator and the Oregonator.
 *
 * The Brusselator, 0 -> X (a), 2X + Y -> 3X (1), X -> Y (b), X -> 0 (1),
 * has one fixed point (a, b / a), stable for b < 1 + a^2 and surrounded by
 * a limit cycle above. With a = 1 it runs at b = 3 (a cycle) and b = 1.5
 * (a spiral into the fixed point), and writes into the current directory:
 *   brusselator_time.svg   X and Y over time at b = 3
 *   brusselator_phase.svg  the phase plane: both trajectories, the cycle
 *                          and the fixed points
 * and prints the period and amplitude it measured on the cycle.
 *
 * The Oregonator (Field and Noyes' model of the Belousov-Zhabotinsky
 * reaction) is stiff: its fast steps (k2 = 2.4e6 / M s) and slow ones
 * differ by nine orders of magnitude. Its fractional stoichiometry
 * B + Z -> (f/2) Y (f = 1) is written 2Z -> Y with the user rate law
 * v = k5 B Z / 2. It writes
 *   oregonator_time.svg    log10 of X (HBrO2), Y (Br-), Z (Ce4+) over time
 * and prints the period, and the steps that BDF and Dormand-Prince take.
 * Options: --b B (the Brusselator's b at the cycle), --help. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cdyn/cdyn.h>

#include "chart.h"

/* Exits with the message of a failed call. */
static void check(cdyn_status st, const cdyn_kinetics *k, const char *what)
{
    if (st != CDYN_OK) {
        fprintf(stderr, "%s: %s (%s)\n", what, cdyn_status_string(st),
                cdyn_kinetics_last_error(k));
        exit(1);
    }
}

static cdyn_kinetics *brusselator(double a, double b, double x0, double y0)
{
    cdyn_kinetics *k;
    check(cdyn_kinetics_create(&k), NULL, "create");
    size_t x, y;
    check(cdyn_kinetics_add_species(k, "X", x0, &x), k, "species");
    check(cdyn_kinetics_add_species(k, "Y", y0, &y), k, "species");
    size_t xy[] = {x, y};
    int c21[] = {2, 1}, c3[] = {3};
    check(cdyn_kinetics_add_reaction(k, 0, NULL, NULL, 1, &x, NULL, a, NULL), k, "0 -> X");
    check(cdyn_kinetics_add_reaction(k, 2, xy, c21, 1, &x, c3, 1.0, NULL), k, "2X + Y -> 3X");
    check(cdyn_kinetics_add_reaction(k, 1, &x, NULL, 1, &y, NULL, b, NULL), k, "X -> Y");
    check(cdyn_kinetics_add_reaction(k, 1, &x, NULL, 0, NULL, NULL, 1.0, NULL), k, "X -> 0");
    return k;
}

/* Oregonator constants (Field and Noyes 1974): M, M/s, 1/s. */
#define OR_A 0.06
#define OR_B 0.02
#define OR_K1 1.28
#define OR_K2 2.4e6
#define OR_K3 33.6
#define OR_K4 3e3
#define OR_K5 1.0

/* B + Z -> (f/2) Y with f = 1, as 2Z -> Y at half the rate. */
static int oregonator_law(const cdyn_kinetics *kin, double t, const double *c, size_t n,
                          double *rate, void *user)
{
    (void)kin;
    (void)t, (void)n, (void)user;
    *rate = 0.5 * OR_K5 * OR_B * c[2];
    return 0;
}

static int oregonator_law_jac(const cdyn_kinetics *kin, double t, const double *c, size_t n,
                              double *d, void *user)
{
    (void)kin;
    (void)t, (void)c, (void)n, (void)user;
    d[0] = 0.5 * OR_K5 * OR_B;
    return 0;
}

/* X = HBrO2, Y = Br-, Z = Ce4+; A = BrO3- and B (organic) held fixed. */
static cdyn_kinetics *oregonator(void)
{
    cdyn_kinetics *k;
    check(cdyn_kinetics_create(&k), NULL, "create");
    size_t x, y, z;
    check(cdyn_kinetics_add_species(k, "HBrO2", 1e-7, &x), k, "species");
    check(cdyn_kinetics_add_species(k, "Br-", 1e-5, &y), k, "species");
    check(cdyn_kinetics_add_species(k, "Ce4+", 1e-4, &z), k, "species");
    size_t xy[] = {x, y}, xz[] = {x, z};
    int c22[] = {2, 2}, c2[] = {2};
    check(cdyn_kinetics_add_reaction(k, 1, &y, NULL, 1, &x, NULL, OR_K1 * OR_A, NULL), k, "R1");
    check(cdyn_kinetics_add_reaction(k, 2, xy, NULL, 0, NULL, NULL, OR_K2, NULL), k, "R2");
    check(cdyn_kinetics_add_reaction(k, 1, &x, NULL, 2, xz, c22, OR_K3 * OR_A, NULL), k, "R3");
    check(cdyn_kinetics_add_reaction(k, 1, &x, c2, 0, NULL, NULL, OR_K4, NULL), k, "R4");
    check(cdyn_kinetics_add_rate_law(k, 1, &z, c2, 1, &y, NULL, 0, NULL, oregonator_law,
                                     oregonator_law_jac, NULL, NULL),
          k, "R5");
    return k;
}

static void set_method(cdyn_kinetics *k, cdyn_kinetics_method m, double rtol, double atol)
{
    cdyn_kinetics_options o;
    cdyn_kinetics_options_init(&o);
    o.method = m;
    o.rtol = rtol;
    o.atol = atol;
    o.max_steps = 10000000;
    check(cdyn_kinetics_set_options(k, &o), k, "options");
}

static cdyn_kinetics_stats stats_of(const cdyn_kinetics *k)
{
    cdyn_kinetics_stats s = {.size = sizeof s};
    cdyn_kinetics_get_stats(k, &s);
    return s;
}

/* Times of the maxima of series y (stride 2 or 3) after index i0, refined
 * by a parabola through three samples; returns how many (at most max). */
static size_t maxima(const double *y, size_t stride, size_t n, size_t i0, double dt, double *t,
                     double *v, size_t max)
{
    size_t m = 0;
    for (size_t i = i0 > 0 ? i0 : 1; i + 1 < n && m < max; i++) {
        double a = y[(i - 1) * stride], b = y[i * stride], c = y[(i + 1) * stride];
        if (b > a && b >= c) {
            double d = 0.5 * (a - c) / (a - 2 * b + c);
            t[m] = dt * ((double)i + 1.0 + d);
            v[m++] = b - 0.25 * (a - c) * d;
        }
    }
    return m;
}

/* What the pictures show: the Brusselator's cycle (x, y pairs) and spiral
 * at n times, the Oregonator's three concentrations at no times. */
typedef struct pictures {
    double a, b, b_spiral;
    const double *t, *cycle, *spiral;
    size_t n;
    const double *ot, *oregon;
    size_t no;
} pictures;

/* All the drawing: the three SVG files. Returns 0 if all were written. */
static int draw(const pictures *d)
{
    int bad = 0;
    size_t n = d->n, no = d->no;
    double *u = malloc((n > no ? n : no) * 3 * sizeof *u);
    if (!u)
        return -1;
    /* the Brusselator's time series */
    chart *c = chart_create(900, 450);
    chart_title(c, "Brusselator, a = %g, b = %g: concentrations", d->a, d->b);
    chart_panel *p = chart_panel_add(c, 1);
    chart_x(p, "time", 0);
    chart_y(p, "concentration", 0);
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < n; i++)
            u[i] = d->cycle[2 * i + (size_t)k];
        chart_line(p, d->t, u, n, k ? "Y" : "X", NULL);
    }
    bad |= chart_save(c, "brusselator_time.svg");
    chart_free(c);
    /* the phase plane */
    c = chart_create(700, 700);
    chart_title(c, "Brusselator phase plane, a = %g", d->a);
    chart_caption(c, "b = %g above 1 + a^{2}: onto the limit cycle; b = %g below: into the "
                     "fixed point (a, b/a)",
                  d->b, d->b_spiral);
    p = chart_panel_add(c, 1);
    chart_equal(p);
    chart_x(p, "X", 0);
    chart_y(p, "Y", 0);
    chart_path(p, d->cycle, n, &(chart_style){.color = chart_color(0)});
    chart_path(p, d->spiral, n, &(chart_style){.color = chart_color(2)});
    chart_marker(p, d->a, d->b / d->a, &(chart_style){.fill = chart_color(0), .size = 4});
    chart_marker(p, d->a, d->b_spiral / d->a, &(chart_style){.fill = chart_color(2), .size = 4});
    chart_key(p, CHART_LINE, "b above the threshold", &(chart_style){.color = chart_color(0)});
    chart_key(p, CHART_LINE, "b below the threshold", &(chart_style){.color = chart_color(2)});
    chart_key(p, CHART_MARKER, "fixed points", &(chart_style){.fill = "gray", .size = 4});
    bad |= chart_save(c, "brusselator_phase.svg");
    chart_free(c);
    /* the Oregonator */
    c = chart_create(900, 450);
    chart_title(c, "Oregonator: concentrations");
    p = chart_panel_add(c, 1);
    chart_x(p, "time (s)", 0);
    chart_y(p, "concentration (M)", CHART_LOG);
    const char *names[3] = {"HBrO_{2} (X)", "Br^{-} (Y)", "Ce^{4+} (Z)"};
    for (int k = 0; k < 3; k++) {
        for (size_t i = 0; i < no; i++)
            u[i] = d->oregon[3 * i + (size_t)k];
        chart_line(p, d->ot, u, no, names[k], NULL);
    }
    bad |= chart_save(c, "oregonator_time.svg");
    chart_free(c);
    free(u);
    return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
    double a = 1.0, b = 3.0, b_spiral = 1.5;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--b") && i + 1 < argc) {
            b = atof(argv[++i]);
        } else {
            printf("usage: %s [--b B]  (B > 2 gives a limit cycle; default 3)\n", argv[0]);
            return strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    /* --- the Brusselator -------------------------------------------------- */
    enum { N = 4000 };
    const double t_end = 40.0, dt = t_end / N;
    double *times = malloc(N * sizeof *times), *cyc = malloc(2 * N * sizeof *cyc);
    double *spi = malloc(2 * N * sizeof *spi);
    for (size_t i = 0; i < N; i++)
        times[i] = dt * (double)(i + 1);
    cdyn_kinetics *k = brusselator(a, b, 0.5, 0.5);
    set_method(k, CDYN_KINETICS_BDF, 1e-8, 1e-12);
    check(cdyn_kinetics_integrate(k, t_end, times, N, cyc, 2 * N), k, "integrate");
    cdyn_kinetics_stats st = stats_of(k);
    double tm[64], xm[64];
    size_t nm = maxima(cyc, 2, N, N / 2, dt, tm, xm, 64);
    printf("Brusselator a = %g, b = %g (threshold 1 + a^2 = %g): %llu BDF steps, order up to "
           "%d\n",
           a, b, 1 + a * a, (unsigned long long)st.steps, st.highest_order);
    if (nm >= 2)
        printf("  limit cycle: period %.4f, X peaks at %.4f (%zu maxima after t = %g)\n",
               (tm[nm - 1] - tm[0]) / (double)(nm - 1), xm[nm - 1], nm, t_end / 2);
    else
        printf("  no sustained oscillation (b below the threshold?)\n");
    cdyn_kinetics_destroy(k);
    k = brusselator(a, b_spiral, 0.5, 0.5);
    set_method(k, CDYN_KINETICS_BDF, 1e-8, 1e-12);
    check(cdyn_kinetics_integrate(k, t_end, times, N, spi, 2 * N), k, "integrate");
    printf("Brusselator b = %g: ends %.2e from the fixed point (%g, %g)\n", b_spiral,
           hypot(spi[2 * N - 2] - a, spi[2 * N - 1] - b_spiral / a), a, b_spiral / a);
    cdyn_kinetics_destroy(k);

    /* --- the Oregonator ----------------------------------------------------- */
    enum { NO = 6000 };
    const double to_end = 1500.0, dto = to_end / NO;
    double *ot = malloc(NO * sizeof *ot), *oc = malloc(3 * NO * sizeof *oc);
    for (size_t i = 0; i < NO; i++)
        ot[i] = dto * (double)(i + 1);
    k = oregonator();
    set_method(k, CDYN_KINETICS_BDF, 1e-6, 1e-14);
    check(cdyn_kinetics_integrate(k, to_end, ot, NO, oc, 3 * NO), k, "integrate");
    st = stats_of(k);
    nm = maxima(oc + 2, 3, NO, NO / 5, dto, tm, xm, 64);
    printf("Oregonator over %g s: BDF %llu steps (%llu rejected, %llu LU), order up to %d\n",
           to_end, (unsigned long long)st.steps, (unsigned long long)st.rejected_steps,
           (unsigned long long)st.factorizations, st.highest_order);
    if (nm >= 2)
        printf("  period %.2f s, Ce4+ peaks at %.3e M\n",
               (tm[nm - 1] - tm[0]) / (double)(nm - 1), xm[nm - 1]);
    cdyn_kinetics_destroy(k);
    /* the explicit method over the first 150 s only (one oscillation): in
     * the fast phases its steps stay within the stability bound of the
     * fast reactions */
    k = oregonator();
    set_method(k, CDYN_KINETICS_DORMAND_PRINCE, 1e-6, 1e-14);
    check(cdyn_kinetics_integrate(k, 150.0, NULL, 0, NULL, 0), k, "integrate");
    uint64_t dp = stats_of(k).steps;
    cdyn_kinetics_destroy(k);
    k = oregonator();
    set_method(k, CDYN_KINETICS_BDF, 1e-6, 1e-14);
    check(cdyn_kinetics_integrate(k, 150.0, NULL, 0, NULL, 0), k, "integrate");
    printf("  first 150 s: BDF %llu steps, Dormand-Prince %llu steps\n",
           (unsigned long long)stats_of(k).steps, (unsigned long long)dp);
    cdyn_kinetics_destroy(k);

    pictures d = {a, b, b_spiral, times, cyc, spi, N, ot, oc, NO};
    if (draw(&d))
        fprintf(stderr, "could not write the pictures\n");
    free(times), free(cyc), free(spi), free(ot), free(oc);
    printf("wrote brusselator_time.svg, brusselator_phase.svg, oregonator_time.svg\n");
    return 0;
}
