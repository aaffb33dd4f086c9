/* The tests' own library (tests/support/, a static library linked by the
 * suites and benchmarks that use it): tolerances, fitted orders, counting
 * allocators, deterministic random numbers, a spring network, the standard
 * chain, captures of a system's state to compare and hash, one-call
 * changes of a single option, a serial host task system and a scene for
 * the periodic box's check. Public API
 * only; white-box builders of sparse matrices are in sparse.h. */
#ifndef CDYN_TEST_SUPPORT_H
#define CDYN_TEST_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cdyn/cdyn.h>

/* pi, which strict C11 <math.h> does not define. */
#define TS_PI 3.14159265358979323846

/* |got - want| <= tol, with both values in the message (cmocka 1.1.5 has no
 * double assertion). Use after including cmocka.h and math.h. */
#define assert_near(got, want, tol)                                                          \
    do {                                                                                    \
        double got_ = (got), want_ = (want), tol_ = (tol);                                  \
        if (!(fabs(got_ - want_) <= tol_))                                                  \
            fail_msg("%s = %.17g, want %.17g within %.3g (off by %.3g)", #got, got_, want_, \
                     tol_, fabs(got_ - want_));                                             \
    } while (0)

/* Least-squares slope of log(err) against log(h): the measured order. */
double ts_fit_order(const double *h, const double *err, size_t n);

/* Least-squares slope of y against x. */
double ts_fit_slope(const double *x, const double *y, size_t n);

/* An allocator that counts calls and bytes and fails the Nth allocation
 * (1-based; 0 = never). */
typedef struct ts_counting_alloc {
    size_t allocs, frees, live_bytes, peak_bytes;
    size_t fail_at;
    int failed;
} ts_counting_alloc;

cdyn_allocator ts_counting_allocator(ts_counting_alloc *state);

/* A deterministic pseudo-random double in [-1, 1) from *state (splitmix64). */
double ts_rand_sym(uint64_t *state);

/* Builds an nx x ny grid of unit masses at spacing h in the system's plane
 * (z = 0 in 3-D), each position perturbed by up to perturb * h, with springs
 * (stiffness k, damping c, rest length = lattice distance) along grid edges
 * and both diagonals of every cell. Handles of the particles go to
 * out_particles (nx*ny entries) when not NULL. Returns the number of
 * springs, or 0 on failure. */
size_t ts_make_network(cdyn_system *sys, int nx, int ny, double h, double k, double c,
                       double perturb, uint64_t seed, cdyn_particle *out_particles);

/* FNV-1a 64-bit hash of raw bytes, for pinned determinism checks. */
uint64_t ts_hash_bytes(const void *data, size_t n, uint64_t h);

/* FNV-1a over doubles, each as its IEEE-754 bits in little-endian byte
 * order (the value does not depend on the host's byte order). */
uint64_t ts_hash_doubles(const double *v, size_t n, uint64_t h);

/* The standard chain in @p sys (created by the caller, 2-D or 3-D): one
 * fixed pivot at the origin, @p n unit masses at x = 0.1 i (i = 1..n) at
 * rest, rods pivot-1 and (i-1)-i of length 0.1, gravity 9.81 along -y.
 * The n + 1 particle handles go to @p particles and the n rod handles to
 * @p rods (either may be NULL). Returns the first failing status. */
cdyn_status ts_standard_chain(cdyn_system *sys, int n, cdyn_particle *particles,
                              cdyn_constraint *rods);

/* A system's state at one instant: time, positions and velocities of
 * every particle index (as cdyn_system_get_positions lays them out). */
typedef struct ts_state {
    size_t len; /* index count * dim */
    double time;
    double *x, *v;
} ts_state;

/* Captures @p sys's state into @p s (allocated; free with ts_state_free). */
void ts_state_capture(const cdyn_system *sys, ts_state *s);
void ts_state_free(ts_state *s);

/* The largest difference of any position coordinate, and of any velocity
 * coordinate into *dv (may be NULL); infinity when the two states have
 * different sizes. */
double ts_state_max_diff(const ts_state *a, const ts_state *b, double *dv);

/* Hash of time, positions and velocities (ts_hash_doubles). */
uint64_t ts_state_hash(const ts_state *s, uint64_t h);

/* A liquid's starting state in @p sys (2-D or 3-D, created by the caller):
 * unit masses on a lattice (fcc with 4 n^3 sites in 3-D, triangular with
 * 2 n^2 in 2-D, numbered with x fastest) at number density @p rho in a
 * periodic box from the origin, with Gaussian velocities of no net momentum
 * scaled to the temperature @p kT, jittered by up to @p jitter lattice
 * spacings. The handles go to @p particles (room for the count, may be
 * NULL); returns the count, 0 on failure. */
size_t ts_make_fluid(cdyn_system *sys, int n, double rho, double kT, double jitter,
                     uint64_t seed, cdyn_particle *particles);

/* The number of particles ts_make_fluid places for @p dim and @p n. */
size_t ts_fluid_count(int dim, int n);

/* The Langevin thermostat of @p sys set to @p kT, @p gamma and @p seed
 * through its options struct (gamma 0: off). */
cdyn_status ts_set_langevin(cdyn_system *sys, double kT, double gamma, uint64_t seed);
/* One option changed, the others kept: each reads the options struct of
 * @p sys, changes the named fields and sets it back, returning the first
 * failing status. For suites whose subject is not the options. */
cdyn_status ts_set_gains(cdyn_system *sys, double ks, double kd);
cdyn_status ts_set_solver(cdyn_system *sys, cdyn_constraint_solver solver);
cdyn_status ts_set_cg(cdyn_system *sys, double tolerance, size_t max_iterations);
cdyn_status ts_set_rk45_tolerance(cdyn_system *sys, double abs_tol, double rel_tol);
cdyn_status ts_set_newton(cdyn_system *sys, double tolerance, size_t max_iterations);

/* A host task system (cdyn/tasks.h) on the calling thread: each loop's
 * items run one at a time, the last first (the split the library asks
 * for, in an order no pool takes), announcing @p workers workers. It
 * counts into @p h the loops and items it ran, and the finish calls given a
 * handle other than the one enqueue returned (hosts.c). */
typedef struct ts_reverse_host {
    unsigned long loops, items, bad_handles;
} ts_reverse_host;
cdyn_task_system ts_reverse_tasks(ts_reverse_host *h, uint32_t workers);

/* TS_STRAY_PARTICLES free unit masses in a periodic 100 x 100 box (2-D
 * @p sys, velocity Verlet), placed from @p seed; slot @p fast starts at the
 * upper x face moving out at 700 m/s, so that with steps of 0.01 s it is
 * more than half a box out by the ninth step, whose check of the box must
 * move it back in. *stray: its handle. */
#define TS_STRAY_PARTICLES 70000u
cdyn_status ts_stray_scene(cdyn_system *sys, uint32_t fast, uint64_t seed, cdyn_particle *stray);

#endif
