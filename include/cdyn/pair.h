/** @file
 * @brief Pair-potential force generators: contact between balls, short-range
 * repulsion, Lennard-Jones fluids, tabulated and user potentials.
 *
 * A pair generator is a cdyn_force (kind CDYN_FORCE_PAIR) that acts between
 * two particles closer than a cutoff distance, along the line of their
 * centres. It acts either on an explicit list of pairs (the neighbours of a
 * Newton's cradle) or on every pair of a set of particles that comes within
 * the cutoff (a granular gas, a liquid, a polymer's beads), found with a
 * neighbour list in O(n) time for a bounded density. The guide is
 * docs/pairs.md.
 *
 * The potentials, with r the distance between the centres, n the unit vector
 * from the first particle of a pair to the second, and the force on the
 * second particle +F n, on the first -F n (Newton's third law):
 *
 *  - CDYN_PAIR_HERTZ, elastic spheres of radii R_i and R_j. Overlap
 *    delta = R_i + R_j - r; for delta > 0
 *
 *        F = k delta^(3/2),      U = (2/5) k delta^(5/2),
 *
 *    and 0 otherwise (cutoff R_i + R_j). k (stiffness) is the Hertz contact
 *    constant k = (4/3) E* sqrt(R*), with 1/E* = (1 - nu_i^2)/E_i +
 *    (1 - nu_j^2)/E_j (E Young's modulus, nu Poisson's ratio) and
 *    1/R* = 1/R_i + 1/R_j; units N/m^(3/2) (Pa m^(1/2)). Two steel balls of
 *    radius 1 cm (E = 200 GPa, nu = 0.3) give k = 1.0e10 N/m^(3/2). One k
 *    serves every pair of a generator: balls of different radii that must
 *    follow the formula exactly need separate generators.
 *
 *  - CDYN_PAIR_LJ_REPULSIVE, the Weeks-Chandler-Andersen (WCA) potential:
 *    the Lennard-Jones 12-6 potential cut at its minimum r_c = 2^(1/6) sigma
 *    and shifted up by epsilon, so that force and energy are both 0 (hence
 *    continuous) at the cutoff. With s = sigma / r, for r < r_c
 *
 *        U = 4 epsilon (s^12 - s^6) + epsilon,
 *        F = (24 epsilon / r) (2 s^12 - s^6)    (> 0: repulsive),
 *
 *    and 0 otherwise. epsilon (J) is the depth of the Lennard-Jones well
 *    (also U at r = sigma), sigma (m) the distance at which the unshifted
 *    potential crosses zero, about the particles' diameter.
 *    U and F grow without bound as r -> 0: a step that drives two particles
 *    through each other fails with CDYN_ERR_DIVERGED (state kept).
 *
 *  - CDYN_PAIR_LJ, the Lennard-Jones 12-6 potential cut at r_c (params.cutoff,
 *    2.5 sigma by default), with s = sigma / r, for r < r_c
 *
 *        U = 4 epsilon (s^12 - s^6) - U_c,
 *        F = (24 epsilon / r) (2 s^12 - s^6)    (< 0 beyond 2^(1/6) sigma:
 *                                                 attractive),
 *
 *    U_c = 4 epsilon (s_c^12 - s_c^6) with s_c = sigma / r_c when params.shift
 *    is set (the default: U is continuous at r_c) and 0 otherwise. The force
 *    jumps by F(r_c) at the cutoff either way (-0.039 epsilon / sigma at
 *    2.5 sigma).
 *
 *  - CDYN_PAIR_TABLE, a potential given by samples (U_k, F_k) at table_size
 *    equally spaced distances r_k from table_r_min to r_c = params.cutoff.
 *    Between samples U is the cubic Hermite interpolant of the values U_k and
 *    slopes -F_k, and F = -dU/dr exactly (so velocity Verlet conserves the
 *    energy of the interpolated potential); F is continuous, dF/dr jumps at
 *    the samples. Below table_r_min the first interval's cubic is extended.
 *    U and F are 0 from r_c on: give U and F near 0 at the last sample for a
 *    smooth cutoff.
 *
 *  - CDYN_PAIR_CALLBACK, a potential computed by a cdyn_pair_fn for r < r_c.
 *
 * Damping (optional, every kind): with alpha = damping (s/m) and the overlap
 * rate delta' = -dr/dt = -n.(v_j - v_i), the force becomes
 *
 *        F_d = max(0, F (1 + (3/2) alpha delta')),
 *
 * the Hunt-Crossley law: the dissipative part is proportional to the overlap
 * rate and to the elastic force, so it vanishes at the first touch and at
 * the last (no jump in force), and the clamp at 0 keeps the contact from
 * pulling the balls together as they separate. For a Hertz collision at
 * impact speed v the coefficient of restitution is about 1 - alpha v for
 * alpha v << 1 (Hunt and Crossley, 1975); alpha = 0 is perfectly elastic.
 * The energies reported (cdyn_force_get_energy(),
 * cdyn_system_get_potential_energy()) are the conservative U only.
 *
 * Coincident centres (r = 0) have no direction: the pair exerts no force at
 * that instant (never NaN); its Hertz energy is (2/5) k (R_i + R_j)^(5/2),
 * its WCA and LJ energy +infinity, a table's and a callback's U(0).
 *
 * Periodic boxes (box.h): every pair interacts through its minimum image.
 * Along a periodic axis the box must be longer than twice the cutoff (for
 * Hertz twice the largest R_i + R_j); a step that meets a shorter box fails
 * with CDYN_ERR_INVALID_ARGUMENT.
 *
 * Exclusions (pair sets): a pair of the set can be left out of the
 * interaction: pairs given explicitly (cdyn_force_add_pair_exclusions()), and
 * pairs bonded by a distance constraint or a spring
 * (cdyn_force_set_pair_exclude_bonded(): depth 1 excludes the two ends of each
 * bond, depth 2 also particles two bonds apart, as the ends of a bond angle).
 * Bonded exclusions follow the bonds: removing a rod (or disabling it)
 * restores the pair's interaction from the next step or query on.
 *
 * Removing a particle that belongs to a generator: a pair set forgets the
 * particle (the rest of the set keeps interacting); a pair list drops every
 * pair that contains it. The generator itself stays, possibly with no pairs
 * left (it then exerts no force and has energy 0); cdyn_force_remove() frees it.
 *
 * Neighbour lists (pair sets): a set keeps a list of the pairs closer than
 * r_c + skin (Verlet's list), built with the cell list described below and
 * kept until some member has moved more than skin / 2 since the build (then
 * no pair outside the list can have come within r_c). The default skin is
 * 0.3 sigma for the Lennard-Jones kinds and 0.1 r_c for the others, which
 * suits dense fluids: the list is rebuilt every 10 to 20 steps of a liquid
 * at its usual time step; cdyn_force_set_pair_skin() changes it, and a skin of
 * 0 evaluates every pair anew from the cell list each time. The members'
 * positions and forces are kept in the order of the cells (sorted again at
 * each build) so that the pair loop reads memory in order; handles and
 * indices are unaffected. The forces equal those of a search of all pairs
 * up to the rounding of their sum, whose order follows the list. The list
 * is allocated before the step that first needs it and grown before a
 * step after one that ran out of room (that step's evaluation then searches
 * the cell list directly): steps allocate nothing.
 *
 * Cost: an evaluation of a pair list is O(pairs). A pair set sorts its
 * particles into cubic (square) cells a little larger than the largest
 * cutoff (2 max R_i for Hertz, 2^(1/6) sigma for WCA) with a counting sort
 * into a table of 4 to 8 buckets per particle allocated when the set is
 * created, then compares each particle with the particles of its own cell
 * and of half of the neighbouring cells: O(n) per evaluation when the number
 * of particles per cell is bounded. When the bounding box of the set spans
 * no more cells than the table has buckets, a cell's bucket is its place in
 * the box (neighbours are close in memory); otherwise cells are hashed into
 * the table, so a set spread over a huge region (particles 10^15 apart, say)
 * needs no more memory and still finds every pair; only its speed depends
 * on how clustered the particles are. Evaluations allocate nothing. Forces
 * are summed in an order fixed by the positions and the order of the
 * particles given at creation, never by memory addresses, so runs are
 * reproducible bit for bit.
 */
#ifndef CDYN_PAIR_H
#define CDYN_PAIR_H

#include <stddef.h>
#include <stdint.h>

#include "export.h"
#include "status.h"
#include "system.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The pair potentials (formulas at the top of this header).
 *
 *  The values are pinned.
 */
typedef enum cdyn_pair_kind {
    CDYN_PAIR_HERTZ = 1,        /**< Hertz contact of elastic balls: F = k delta^(3/2). */
    CDYN_PAIR_LJ_REPULSIVE = 2, /**< Weeks-Chandler-Andersen repulsion (LJ 12-6, cut, shifted). */
    CDYN_PAIR_LJ = 3,           /**< Lennard-Jones 12-6 with a cutoff, optionally shifted. */
    CDYN_PAIR_TABLE = 4,        /**< U(r) and F(r) tabulated, cubic Hermite between samples. */
    CDYN_PAIR_CALLBACK = 5      /**< U(r), F(r) and dF/dr from a user function. */
} cdyn_pair_kind;

/** A pair potential given by the user (CDYN_PAIR_CALLBACK).
 *
 *  At time @p t and distance @p r between the particles of indices @p i and
 *  @p j, the function writes the energy U(r), the force F(r) = -dU/dr and its
 *  derivative dF/dr. The force on particle j is F(r) along the unit vector from
 *  i to j, on i the opposite. The function may read @p sys; calls that change
 *  it return CDYN_ERR_BUSY. It must give the same values for the same
 *  arguments: a step reuses the forces of the last one's end while the system
 *  is unchanged (docs/pairs.md section 5), so after changing data the function
 *  reads, change the system, for instance with cdyn_system_set_time(sys, t) at
 *  the current time. A snapshot holds the generator's tag in place of the
 *  function and @p user (cdyn_force_set_tag(), snapshot.h).
 *
 *  @param[in]  sys     The system being evaluated; read only.
 *  @param[in]  t       Time (s).
 *  @param[in]  i       Index of the first particle (cdyn_particle_get_index()).
 *  @param[in]  j       Index of the second particle.
 *  @param[in]  r       Distance between the centres (m), 0 < r < cutoff.
 *  @param[out] energy  Receives U(r) (J); NULL when not needed.
 *  @param[out] force   Receives F(r) (N), > 0 when repulsive; NULL when not
 *                      needed.
 *  @param[out] dforce  Receives dF/dr (N/m), used by implicit integrators; NULL
 *                      when not needed.
 *  @param[in]  user    The @c user of the generator's cdyn_pair_params.
 *  @return 0 on success; any other value fails the step (or the query) with
 *          CDYN_ERR_CALLBACK and leaves the system as it was before the step.
 *  @since 0.1
 */
typedef int (*cdyn_pair_fn)(const cdyn_system *sys, double t, size_t i, size_t j, double r,
                            double *energy, double *force, double *dforce, void *user);

/** The parameters of a pair generator.
 *
 *  Fill with cdyn_pair_params_init(), then change the fields the kind
 *  reads; fields another kind reads are ignored (not validated). The
 *  generator copies them at creation (cdyn_force_add_pairs(),
 *  cdyn_force_add_pair_set()).
 */
typedef struct cdyn_pair_params {
    size_t size;         /**< sizeof(cdyn_pair_params), set by the init function. */
    cdyn_pair_kind kind; /**< The potential. */
    double stiffness;    /**< Hertz: k (N/m^(3/2)), finite and >= 0; default 1. */
    /** Hertz: radius of every ball (m) unless set per ball with
     *  cdyn_force_set_pair_radius(); finite, > 0; default 0.5. */
    double radius;
    /** WCA and LJ: energy scale epsilon (J), finite and >= 0; default 1. */
    double epsilon;
    /** WCA and LJ: length scale sigma (m), finite and > 0; default 1. */
    double sigma;
    /** Every kind: Hunt-Crossley alpha (s/m), finite and >= 0; default 0
     *  (elastic). */
    double damping;
    /* The fields below were added for CDYN_PAIR_LJ, _TABLE and _CALLBACK;
     * a size that ends at damping gives them their defaults. */
    /** LJ, TABLE, CALLBACK: the cutoff r_c (m), finite and > 0; LJ: 0 (the
     *  default) means 2.5 sigma; TABLE: the distance of the last sample. */
    double cutoff;
    /** LJ: non-zero (the default) subtracts U(r_c), so that the energy is
     *  continuous at the cutoff. */
    int shift;
    /** TABLE: table_size pairs (U_k, F_k) (J, N) at r_k = table_r_min +
     *  k (cutoff - table_r_min) / (table_size - 1), F = -dU/dr, all
     *  finite; copied at creation, so the array need not outlive the call. */
    const double *table;
    size_t table_size;   /**< TABLE: the number of samples, 2 .. 2^24. */
    /** TABLE: distance of the first sample (m), finite, >= 0 and below the
     *  cutoff. */
    double table_r_min;
    cdyn_pair_fn fn;     /**< CALLBACK: the potential; not NULL. */
    /** CALLBACK: passed to fn; kept for the generator's lifetime, never
     *  dereferenced by the library. */
    void *user;
} cdyn_pair_params;

/** Fills pair parameters with the defaults of a kind.
 *
 *  Every field gets the default listed in cdyn_pair_params; size is set to
 *  sizeof(cdyn_pair_params).
 *
 *  @param[out] params  The struct to fill.
 *  @param[in]  kind    The potential, a value of cdyn_pair_kind.
 *  @retval CDYN_OK                    the parameters were filled.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p params is NULL or @p kind is not a
 *                                     value of cdyn_pair_kind; nothing written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_pair_params_init(cdyn_pair_params *params, cdyn_pair_kind kind);

/** Adds a pair generator acting on an explicit list of pairs.
 *
 *  Pair p is (pairs[2p], pairs[2p+1]); the force on its second particle points
 *  away from the first. A pair listed twice acts twice. The generator's kind is
 *  CDYN_FORCE_PAIR.
 *
 *  @param[in,out] sys      The system.
 *  @param[in]     params   The potential and its parameters, filled by
 *                          cdyn_pair_params_init(); copied (a table too).
 *  @param[in]     pairs    2 @p n_pairs particle handles, read during the call
 *                          only.
 *  @param[in]     n_pairs  The number of pairs, 1 .. 2^30.
 *  @param[out]    out      Receives the generator's handle.
 *  @retval CDYN_OK                    the generator was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  nothing changed: @p sys, @p params,
 *                                     @p pairs or @p out is NULL, @p n_pairs is
 *                                     0 or above 2^30, the parameters are
 *                                     invalid (see cdyn_pair_params; also a
 *                                     size other than sizeof(cdyn_pair_params)
 *                                     or the older size that ends at damping),
 *                                     or a pair names the same particle twice.
 *  @retval CDYN_ERR_INVALID_HANDLE    a handle of @p pairs is 0, not a
 *                                     particle, or of another system.
 *  @retval CDYN_ERR_STALE_HANDLE      a handle of @p pairs names a removed
 *                                     particle.
 *  @retval CDYN_ERR_NO_MEMORY         an allocation failed; nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_add_pairs(cdyn_system *sys, const cdyn_pair_params *params,
                                          const cdyn_particle *pairs, size_t n_pairs,
                                          cdyn_force *out);

/** Adds a pair generator acting on every pair of a set of particles that comes
 *  within the cutoff.
 *
 *  The pairs are found at each evaluation with a neighbour list built from a
 *  cell list (see the top of this header). Memory: about 170 (2-D) to 230 (3-D)
 *  bytes per particle (24 more for Hertz radii) allocated here, and the
 *  neighbour list's 4 bytes per pair within the cutoff plus the skin (with a
 *  quarter to spare), allocated before the first step that needs it, never
 *  during a step. The generator's kind is CDYN_FORCE_PAIR.
 *
 *  @param[in,out] sys        The system.
 *  @param[in]     params     The potential and its parameters, filled by
 *                            cdyn_pair_params_init(); copied (a table too).
 *  @param[in]     particles  @p n particle handles, each once; read during the
 *                            call only.
 *  @param[in]     n          The number of particles, 1 .. 2^30.
 *  @param[out]    out        Receives the generator's handle.
 *  @retval CDYN_OK                    the generator was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  nothing changed: @p sys, @p params,
 *                                     @p particles or @p out is NULL, @p n is 0
 *                                     or above 2^30, the parameters are invalid
 *                                     (as for cdyn_force_add_pairs()), or a
 *                                     particle is listed twice.
 *  @retval CDYN_ERR_INVALID_HANDLE    a handle of @p particles is 0, not a
 *                                     particle, or of another system.
 *  @retval CDYN_ERR_STALE_HANDLE      a handle of @p particles names a removed
 *                                     particle.
 *  @retval CDYN_ERR_NO_MEMORY         an allocation failed; nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_add_pair_set(cdyn_system *sys, const cdyn_pair_params *params,
                                             const cdyn_particle *particles, size_t n,
                                             cdyn_force *out);

/** Sets the Hertz radius of one ball of a Hertz pair generator.
 *
 *  The radius replaces params.radius for that ball (in a pair list: in every
 *  pair that contains it). A pair set's cell size follows its largest radius,
 *  and its neighbour list is rebuilt at the next evaluation. O(log n);
 *  allocates nothing.
 *
 *  @param[in,out] sys       The system.
 *  @param[in]     f         The Hertz pair generator.
 *  @param[in]     particle  One of its particles.
 *  @param[in]     radius    The radius (m), finite and > 0.
 *  @retval CDYN_OK                    the radius was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, @p f is not a Hertz pair
 *                                     generator, @p particle is not one of its
 *                                     particles, or @p radius is not finite
 *                                     and > 0.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system; or @p particle is 0, not
 *                                     a particle, or of another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f or @p particle was removed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_set_pair_radius(cdyn_system *sys, cdyn_force f,
                                                cdyn_particle particle, double radius);

/** Reads the Hertz radius of one ball of a Hertz pair generator.
 *
 *  @param[in]  sys       The system.
 *  @param[in]  f         The Hertz pair generator.
 *  @param[in]  particle  One of its particles.
 *  @param[out] out       Receives the radius (m).
 *  @retval CDYN_OK                    the radius was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, @p f is not a
 *                                     Hertz pair generator, or @p particle is
 *                                     not one of its particles.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system; or @p particle is 0, not
 *                                     a particle, or of another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f or @p particle was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_get_pair_radius(const cdyn_system *sys, cdyn_force f,
                                                cdyn_particle particle, double *out);

/** Lists the pairs of a pair generator that are within the cutoff at the
 *  committed state.
 *
 *  Hertz: the overlapping balls; WCA: the pairs closer than 2^(1/6) sigma;
 *  excluded pairs are left out. The order is that of the force summation
 *  (deterministic). Allocates nothing, except for a pair set whose bonded
 *  exclusions must be brought up to date first (the bonds changed since they
 *  were built).
 *
 *  @param[in]  sys       The system.
 *  @param[in]  f         The pair generator.
 *  @param[out] out       Receives the first min(*count, @p capacity) pairs as
 *                        two particle handles each (2 @p capacity handles fit
 *                        in it); may be NULL when @p capacity is 0.
 *  @param[in]  capacity  The number of pairs @p out holds.
 *  @param[out] count     Receives the number of pairs within the cutoff,
 *                        whatever @p capacity is.
 *  @retval CDYN_OK                    the pairs were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p count is NULL, @p out is
 *                                     NULL with a non-zero @p capacity, or @p f
 *                                     is not a pair generator.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed.
 *  @retval CDYN_ERR_NO_MEMORY         the exclusion lists could not be rebuilt.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_get_pair_contacts(const cdyn_system *sys, cdyn_force f,
                                                  cdyn_particle *out, size_t capacity,
                                                  size_t *count);

/** Sets the neighbour-list skin of a pair set.
 *
 *  0 searches the cell list at every evaluation; a larger skin rebuilds the
 *  list less often and keeps more pairs in it (see the top of this header). The
 *  list is rebuilt at the next evaluation.
 *
 *  @param[in,out] sys   The system.
 *  @param[in]     f     The pair set.
 *  @param[in]     skin  The skin (m), finite and >= 0.
 *  @retval CDYN_OK                    the skin was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, @p f is not a pair set (a
 *                                     pair list or another kind of generator),
 *                                     or @p skin is not finite and >= 0.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_set_pair_skin(cdyn_system *sys, cdyn_force f, double skin);

/** Reads the neighbour-list skin of a pair set.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  f    The pair set.
 *  @param[out] out  Receives the skin (m) that was set (or the default);
 *                   cdyn_pair_stats.skin gives the one in use.
 *  @retval CDYN_OK                    the skin was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or @p f is not
 *                                     a pair set.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_get_pair_skin(const cdyn_system *sys, cdyn_force f, double *out);

/** Leaves out of a pair set the pairs of members joined by bonds.
 *
 *  Depth 1 excludes the two ends of every enabled distance constraint and of
 *  every spring; depth 2 also two members bonded to a common particle (which
 *  need not be a member), as the ends of a bond angle. Bonds added, removed or
 *  disabled later are followed from the next step or query on. The exclusion
 *  lists are allocated here and, when bonds change, before the next step or
 *  query.
 *
 *  @param[in,out] sys    The system.
 *  @param[in]     f      The pair set.
 *  @param[in]     depth  0 (none, the default), 1 or 2.
 *  @retval CDYN_OK                    the depth was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL, @p f is not a pair set,
 *                                     or @p depth is not 0, 1 or 2.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed.
 *  @retval CDYN_ERR_NO_MEMORY         the exclusion lists could not be built;
 *                                     the old depth is kept.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_set_pair_exclude_bonded(cdyn_system *sys, cdyn_force f,
                                                        int depth);

/** Reads the bonded exclusion depth of a pair set.
 *
 *  @param[in]  sys  The system.
 *  @param[in]  f    The pair set.
 *  @param[out] out  Receives the depth, 0, 1 or 2.
 *  @retval CDYN_OK                    the depth was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, or @p f is not
 *                                     a pair set.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_get_pair_exclude_bonded(const cdyn_system *sys, cdyn_force f,
                                                        int *out);

/** Leaves given pairs out of a pair set.
 *
 *  Pair p is (pairs[2p], pairs[2p+1]); the pairs add to those excluded before,
 *  and a pair given twice is excluded once. A pair whose particle later leaves
 *  the set (particle removal) is dropped.
 *
 *  @param[in,out] sys      The system.
 *  @param[in]     f        The pair set.
 *  @param[in]     pairs    2 @p n_pairs handles of members of the set, read
 *                          during the call only; may be NULL when @p n_pairs
 *                          is 0.
 *  @param[in]     n_pairs  The number of pairs, at most 2^30.
 *  @retval CDYN_OK                    the pairs are excluded.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  nothing changed: @p sys is NULL, @p f is
 *                                     not a pair set, @p pairs is NULL with
 *                                     @p n_pairs > 0, @p n_pairs is above 2^30,
 *                                     a pair names one particle twice, or a
 *                                     particle is not a member of the set.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f, or a handle of @p pairs, is 0, of
 *                                     another kind or of another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f or a particle of @p pairs was
 *                                     removed.
 *  @retval CDYN_ERR_NO_MEMORY         nothing changed: the list of given
 *                                     pairs could not grow, or the exclusion
 *                                     lists could not be rebuilt with the new
 *                                     pairs (the set keeps the pairs it had).
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_add_pair_exclusions(cdyn_system *sys, cdyn_force f,
                                                    const cdyn_particle *pairs, size_t n_pairs);

/** Forgets the explicit exclusions of a pair set.
 *
 *  The pairs given with cdyn_force_add_pair_exclusions() interact again from
 *  the next evaluation on; bonded exclusions follow
 *  cdyn_force_set_pair_exclude_bonded().
 *
 *  @param[in,out] sys  The system.
 *  @param[in]     f    The pair set.
 *  @retval CDYN_OK                    the exclusions were forgotten.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys is NULL or @p f is not a pair set.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed.
 *  @retval CDYN_ERR_BUSY              called from a callback during a step.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_clear_pair_exclusions(cdyn_system *sys, cdyn_force f);

/** The counters of a pair set's neighbour list, read with
 *  cdyn_force_get_pair_stats().
 *
 *  Set @c size to sizeof(cdyn_pair_stats) before the call; fields beyond
 *  it are not written, so the struct may grow.
 */
typedef struct cdyn_pair_stats {
    size_t size;          /**< Set by the caller: the bytes that may be written. */
    uint64_t evaluations; /**< Force evaluations of the set since its creation. */
    uint64_t builds;      /**< Neighbour lists built. */
    /** Evaluations that searched the cell list directly (skin 0, a list out
     *  of room, queries at a state the list does not cover). */
    uint64_t direct;
    size_t neighbours;    /**< Pairs in the current list (0 without one). */
    size_t excluded;      /**< Excluded pairs of members (both kinds, each pair once). */
    /** The skin of the current list (m): the one set, reduced in a periodic
     *  box so that r_c + skin stays below half its length. */
    double skin;
} cdyn_pair_stats;

/** Reads the counters of a pair set's neighbour list.
 *
 *  The exclusions it counts are made current first (they go stale when
 *  bonds are added or removed, and a step rebuilds them too), so the count
 *  does not depend on whether a step ran since; that may allocate.
 *
 *  @param[in]     sys  The system.
 *  @param[in]     f    The pair set.
 *  @param[in,out] out  The caller's struct: its @c size field, set by the
 *                      caller to at least sizeof(size_t), says how many bytes
 *                      may be written; it is left as it is.
 *  @retval CDYN_OK                    the counters were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p sys or @p out is NULL, @p f is not a
 *                                     pair set, or out->size is below
 *                                     sizeof(size_t); nothing written.
 *  @retval CDYN_ERR_INVALID_HANDLE    @p f is 0, not a force generator, or of
 *                                     another system.
 *  @retval CDYN_ERR_STALE_HANDLE      @p f was removed.
 *  @retval CDYN_ERR_NO_MEMORY         the exclusion lists could not be
 *                                     rebuilt; nothing written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_force_get_pair_stats(const cdyn_system *sys, cdyn_force f,
                                               cdyn_pair_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_PAIR_H */
