/* lattice_run: an erosion run in C, for the Python suite to reproduce.
 *
 * Usage: python_lattice_run NX NY SEED DROPS
 * Creates an NX x NY lattice with SEED, rains DROPS drops, and prints
 * "name value" lines: every field of cdyn_lattice_stats and of
 * cdyn_lattice_counters (doubles as C99 hex floats, exact), and FNV-1a
 * hashes of the heights and of the drainage bytes. The Python test runs
 * the same calls and compares every line bit for bit.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <cdyn/cdyn.h>

static uint64_t fnv1a(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

#define U(s, f) printf(#f " %" PRIu64 "\n", (uint64_t)(s).f)
#define D(s, f) printf(#f " %a\n", (s).f)

static int check(cdyn_lattice *lat, cdyn_status st, const char *what)
{
    if (st != CDYN_OK) {
        fprintf(stderr, "%s: %s (%s)\n", what, cdyn_status_name(st), cdyn_lattice_last_error(lat));
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: python_lattice_run NX NY SEED DROPS\n");
        return 2;
    }
    size_t nx = strtoull(argv[1], NULL, 10), ny = strtoull(argv[2], NULL, 10);
    uint64_t seed = strtoull(argv[3], NULL, 10), drops = strtoull(argv[4], NULL, 10);
    cdyn_lattice *lat = NULL;
    if (cdyn_lattice_create(nx, ny, seed, NULL, &lat) != CDYN_OK) {
        fprintf(stderr, "cdyn_lattice_create failed\n");
        return 1;
    }
    cdyn_lattice_stats st = {.size = sizeof st};
    cdyn_lattice_counters c = {.size = sizeof c};
    double *h = malloc(nx * ny * sizeof *h);
    uint32_t *a = malloc(nx * ny * sizeof *a);
    int bad = !h || !a;
    bad = bad || check(lat, cdyn_lattice_rain(lat, drops), "rain");
    bad = bad || check(lat, cdyn_lattice_compute_stats(lat, NULL, &st), "stats");
    bad = bad || check(lat, cdyn_lattice_get_counters(lat, &c), "counters");
    bad = bad || check(lat, cdyn_lattice_get_heights(lat, h, nx * ny), "heights");
    bad = bad || check(lat, cdyn_lattice_compute_drainage(lat, a, nx * ny), "drainage");
    if (!bad) {
        U(st, sites);
        U(st, outlets);
        U(st, max_drainage);
        D(st, area_exponent);
        D(st, tau);
        D(st, area_fit_min);
        D(st, area_fit_max);
        U(st, area_fit_points);
        D(st, hack_exponent);
        D(st, hack_fit_min);
        D(st, hack_fit_max);
        U(st, hack_fit_points);
        D(st, threshold);
        U(st, network_sites);
        U(st, max_order);
        for (int k = 0; k < CDYN_LATTICE_MAX_ORDER; k++)
            printf("streams[%d] %" PRIu64 "\n", k, st.streams[k]);
        D(st, bifurcation_ratio);
        U(c, drops);
        U(c, walk_steps);
        U(c, sites_eroded);
        U(c, pit_moves);
        U(c, capped_walks);
        U(c, slides);
        U(c, slide_rounds);
        D(c, total_eroded);
        D(c, total_slid);
        U(c, capped_cascades);
        U(c, pending_sites);
        printf("heights_fnv1a %" PRIu64 "\n", fnv1a(h, nx * ny * sizeof *h));
        printf("drainage_fnv1a %" PRIu64 "\n", fnv1a(a, nx * ny * sizeof *a));
    }
    free(h);
    free(a);
    cdyn_lattice_destroy(lat);
    return bad;
}
