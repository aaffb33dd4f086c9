/* cdyn: chemical kinetics, mass-action reaction networks on stiff,
 * adaptive, conservative integrators.
 *
 * A cdyn_kinetics holds species (a name and a concentration each) and
 * reactions between them (integer stoichiometric coefficients on both
 * sides, a rate constant, or a rate law given by the caller). The rate
 * equations
 *
 *     dc/dt = S v(c, t),   v_j = k_j prod_i c_i^(nu_ij)  (mass action)
 *
 * (S the net stoichiometric matrix, nu_ij the reactant coefficients) are
 * integrated by a variable-order BDF (orders 1-5, the default), backward
 * Euler with a fixed step, or the explicit Dormand-Prince 5(4) pair. The
 * implicit methods solve their Newton systems with the analytic sparse
 * Jacobian and a sparse LU factorization. The guide is docs/kinetics.md.
 *
 * Species and reactions are addressed by the index (0, 1, ...) returned when
 * they are added; they are never removed. Concentrations are in the
 * caller's unit (mol/L, molecules per volume...), times in the unit of the
 * rate constants (a k of order n has unit concentration^(1-n) / time).
 *
 * A cdyn_kinetics is used by one thread at a time; distinct objects may be
 * used from different threads at once. The same calls give bit-identical
 * results on the same build.
 */
#ifndef CDYN_KINETICS_H
#define CDYN_KINETICS_H

#include <stddef.h>
#include <stdint.h>

#include "export.h"
#include "status.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A reaction network and its state. Opaque; owned by the caller
 *  (cdyn_kinetics_create / cdyn_kinetics_destroy). */
typedef struct cdyn_kinetics cdyn_kinetics;

/** The largest stoichiometric coefficient of a species on one side of a
 *  reaction (after repeated species are merged: A + A is 2 A). */
#define CDYN_KINETICS_MAX_COEFFICIENT 1000

/** Integration methods. Values are pinned. */
typedef enum cdyn_kinetics_method {
    /** Variable-order (1-5), variable-step BDF in Nordsieck form with a
     *  fixed leading coefficient, local error control and order selection;
     *  Newton's method on the sparse LU of I - gamma J, reused across steps
     *  while it converges. For stiff networks. The default. */
    CDYN_KINETICS_BDF = 1,
    /** Backward Euler with a fixed step (options.fixed_step), solved by
     *  Newton's method; order 1, no error control. */
    CDYN_KINETICS_BACKWARD_EULER = 2,
    /** Explicit Dormand-Prince 5(4) with error control and fourth-order
     *  dense output. For non-stiff networks. */
    CDYN_KINETICS_DORMAND_PRINCE = 3
} cdyn_kinetics_method;

/** Integration options. Fill with cdyn_kinetics_options_init, then change
 *  what you need; the size field lets the struct grow. */
typedef struct cdyn_kinetics_options {
    size_t size;                 /**< sizeof(cdyn_kinetics_options), set by the init function */
    cdyn_kinetics_method method; /**< default CDYN_KINETICS_BDF */
    /** Relative tolerance, finite, in [1e-14, 1); default 1e-6. */
    double rtol;
    /** Absolute tolerance of every species without its own
     *  (cdyn_kinetics_set_absolute_tolerances), in concentration units;
     *  finite, > 0; default 1e-12. A species with |error| below about
     *  rtol |c| + atol passes the error test. */
    double atol;
    /** The largest number of steps (accepted or not) of one integration,
     *  >= 1; default 100000. Reaching it fails the integration with
     *  CDYN_ERR_NOT_CONVERGED. */
    uint64_t max_steps;
    /** First step of the adaptive methods, time units; 0 (the default) lets
     *  the method choose; otherwise finite and > 0. */
    double initial_step;
    /** The largest step of the adaptive methods, time units; 0 (the
     *  default) means no limit; otherwise finite and > 0. */
    double max_step;
    /** The step of backward Euler, time units: finite and > 0 when method is
     *  CDYN_KINETICS_BACKWARD_EULER (default 0: must be set); ignored
     *  otherwise. The last step of an interval is shortened to end on it. */
    double fixed_step;
    /** The highest BDF order, 1..5; default 5. */
    int max_order;
    /** Newton iterations per step before the step counts as not converged,
     *  0..100; 0 (the default) means 3 for BDF and 10 for backward Euler. */
    int max_newton_iterations;
} cdyn_kinetics_options;

/** What the last integration did, filled by cdyn_kinetics_get_stats. Set
 *  @c size to sizeof(cdyn_kinetics_stats) before the call; fields beyond it
 *  are not written, so the struct may grow. */
typedef struct cdyn_kinetics_stats {
    size_t size;                   /**< set by the caller */
    uint64_t steps;                /**< accepted steps */
    /** rejected step attempts: error test failures, negative concentrations
     *  and Newton failures (the three counters below) */
    uint64_t rejected_steps;
    uint64_t error_test_failures;  /**< attempts whose local error was too large */
    uint64_t negative_rejections;  /**< attempts with a concentration below -atol */
    uint64_t newton_failures;      /**< attempts whose Newton iteration did not converge */
    uint64_t newton_iterations;    /**< Newton updates (linear solves) */
    uint64_t rate_evaluations;     /**< evaluations of dc/dt (incl. those of the Jacobian) */
    uint64_t jacobian_evaluations; /**< evaluations of the rate Jacobian */
    uint64_t factorizations;       /**< numeric LU factorizations of I - gamma J */
    uint64_t pivot_searches;       /**< of which chose their pivots anew */
    uint64_t factor_nonzeros;      /**< entries of L + U (last factorization) */
    int last_order;                /**< order of the last accepted step */
    int highest_order;             /**< highest order of an accepted step */
    double last_step;              /**< size of the last accepted step, time units */
} cdyn_kinetics_stats;

/** A user rate law (cdyn_kinetics_add_rate_law). Writes the rate of its
 *  reaction (concentration / time) into *rate, from the time @p t and the
 *  concentrations @p c of all @p n_species species (an iterate of the
 *  integrator, not necessarily the committed state; read-only) of the
 *  network @p kin. Return 0 on success; any other value stops the call
 *  with CDYN_ERR_CALLBACK (an integration rolls back). The callback may
 *  read the object through the const get functions; the others (those that
 *  change it, the rate and moiety queries, which use its work space)
 *  return CDYN_ERR_BUSY. Like every callback of the library, it receives
 *  the object and the time first and the user pointer last. */
typedef int (*cdyn_kinetics_rate_fn)(const cdyn_kinetics *kin, double t, const double *c,
                                     size_t n_species, double *rate, void *user);

/** The derivatives of a user rate law: writes d rate / d c[deps[k]] into
 *  drate[k] for each of the law's n_deps dependencies, in their order.
 *  Arguments and return value as cdyn_kinetics_rate_fn. */
typedef int (*cdyn_kinetics_rate_jacobian_fn)(const cdyn_kinetics *kin, double t,
                                              const double *c, size_t n_species, double *drate,
                                              void *user);

/** Creates an empty network (no species, time 0) using malloc/free.
 *  @param out  receives the new object, owned by the caller (free it with
 *              cdyn_kinetics_destroy); set to NULL on failure.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p out;
 *  CDYN_ERR_NO_MEMORY. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_create(cdyn_kinetics **out);

/** As cdyn_kinetics_create, with every allocation of the object taken from
 *  @p allocator (copied; its user pointer must outlive the object). NULL
 *  means malloc/free.
 *  @return as cdyn_kinetics_create; CDYN_ERR_INVALID_ARGUMENT also when the
 *  allocator lacks alloc or free. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_create_with_allocator(const cdyn_allocator *allocator,
                                                         cdyn_kinetics **out);

/** Frees the object and everything it allocated. NULL is a no-op. Must not
 *  be called from a rate law. @since 0.1 */
CDYN_API void cdyn_kinetics_destroy(cdyn_kinetics *kin);

/** The message of the last failed call on @p kin, naming the function and
 *  the problem ("" if none): a string owned by the object, valid until the
 *  next call on it. Never NULL, also for a NULL @p kin. @since 0.1 */
CDYN_API const char *cdyn_kinetics_last_error(const cdyn_kinetics *kin);

/* --- Species ----------------------------------------------------------- */

/** Adds a species.
 *  @param name   a non-empty NUL-terminated name, unique in the network,
 *                copied (at most 255 bytes)
 *  @param concentration  its concentration now, finite and >= 0
 *  @param index  receives its index (the number of species before the
 *                call); may be NULL
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p kin or @p name,
 *  an empty, too long or taken name, or a concentration that is negative or
 *  not finite; CDYN_ERR_NO_MEMORY; CDYN_ERR_BUSY from a rate law: nothing
 *  changed. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_add_species(cdyn_kinetics *kin, const char *name,
                                               double concentration, size_t *index);

/** Looks a species up by name into *index.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL argument or a name
 *  that no species has. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_find_species(const cdyn_kinetics *kin, const char *name,
                                                size_t *index);

/** The name of species @p species into *name: a string owned by the object,
 *  valid until it is destroyed.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer or an
 *  unknown species. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_get_species_name(const cdyn_kinetics *kin, size_t species,
                                                    const char **name);

/** The number of species into *count.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_get_species_count(const cdyn_kinetics *kin, size_t *count);

/* --- Reactions ---------------------------------------------------------- */

/** Adds an irreversible mass-action reaction
 *  sum_i a_i R_i -> sum_i b_i P_i with rate v = k prod_i c(R_i)^(a_i).
 *  A species listed twice on one side has its coefficients added; one on
 *  both sides (a catalyst) enters the rate law but its net change is b - a.
 *  No reactants make a zeroth-order source (v = k), no products a sink.
 *  @param n_reactants, reactants, reactant_coefficients  the left side:
 *         species indices and coefficients (1 .. CDYN_KINETICS_MAX_COEFFICIENT);
 *         the coefficient array may be NULL for all ones; the pointers may
 *         be NULL when the count is 0. Not kept.
 *  @param n_products, products, product_coefficients  the right side, alike
 *  @param rate_constant  k, finite and > 0 (unit: concentration^(1 - order)
 *         / time)
 *  @param index  receives the reaction's index; may be NULL
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p kin, a NULL
 *  list with a nonzero count, an unknown species, a coefficient below 1 or
 *  a merged coefficient above CDYN_KINETICS_MAX_COEFFICIENT, a reaction
 *  with no species at all, or a rate constant that is not finite and > 0;
 *  CDYN_ERR_NO_MEMORY; CDYN_ERR_BUSY from a rate law: nothing changed.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_add_reaction(cdyn_kinetics *kin, size_t n_reactants,
                                                const size_t *reactants,
                                                const int *reactant_coefficients,
                                                size_t n_products, const size_t *products,
                                                const int *product_coefficients,
                                                double rate_constant, size_t *index);

/** Adds a reversible mass-action reaction as the pair of irreversible ones
 *  left -> right (rate constant @p forward_constant, index *index) and
 *  right -> left (@p backward_constant, index *index + 1). At equilibrium
 *  of A <=> B, c_B / c_A = k_f / k_b.
 *  @return as cdyn_kinetics_add_reaction (both rate constants finite and
 *  > 0); on failure neither reaction is added. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_add_reversible_reaction(
    cdyn_kinetics *kin, size_t n_reactants, const size_t *reactants,
    const int *reactant_coefficients, size_t n_products, const size_t *products,
    const int *product_coefficients, double forward_constant, double backward_constant,
    size_t *index);

/** Adds a reaction with the stoichiometry of cdyn_kinetics_add_reaction and
 *  a rate given by @p rate (called with @p user) instead of mass action.
 *  @param n_deps, deps  the species the rate depends on (the sparsity of
 *         its Jacobian), each once; n_deps 0 means the reactants. Not kept.
 *  @param rate      the rate law; not NULL. A rate that is not finite fails
 *                   the Newton iteration or the error test of the step, which
 *                   is retried smaller (cdyn_kinetics_integrate), or gives
 *                   CDYN_ERR_DIVERGED (the rate queries).
 *  @param jacobian  its derivatives with respect to @p deps; NULL: forward
 *                   differences, one extra call of @p rate per dependency
 *  @param user      passed back to both; the object keeps it (and the
 *                   function pointers) until it is destroyed
 *  @return as cdyn_kinetics_add_reaction, also for a NULL @p rate or an
 *  unknown or repeated dependency. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_add_rate_law(
    cdyn_kinetics *kin, size_t n_reactants, const size_t *reactants,
    const int *reactant_coefficients, size_t n_products, const size_t *products,
    const int *product_coefficients, size_t n_deps, const size_t *deps,
    cdyn_kinetics_rate_fn rate, cdyn_kinetics_rate_jacobian_fn jacobian, void *user,
    size_t *index);

/** The number of reactions into *count (a reversible reaction counts two).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_get_reaction_count(const cdyn_kinetics *kin, size_t *count);

/** Sets the rate constant of mass-action reaction @p reaction.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p kin, an unknown
 *  reaction, one with a user rate law, or a constant that is not finite and
 *  > 0; CDYN_ERR_BUSY from a rate law: nothing changed. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_set_rate_constant(cdyn_kinetics *kin, size_t reaction,
                                                     double rate_constant);

/** Reads the rate constant of mass-action reaction @p reaction.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer, an
 *  unknown reaction or one with a user rate law. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_get_rate_constant(const cdyn_kinetics *kin, size_t reaction,
                                                     double *rate_constant);

/** The number of nonzero entries of the net stoichiometric matrix S
 *  (species x reactions, S_ij = products minus reactants) into *count.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_get_stoichiometry_size(const cdyn_kinetics *kin,
                                                          size_t *count);

/** Copies S in coordinate form: entry e is S[species[e]][reactions[e]] =
 *  coefficients[e], ordered by reaction, then by species; zero net
 *  coefficients (catalysts) are left out.
 *  @param capacity  entries each array can hold: at least the count of
 *                   cdyn_kinetics_get_stoichiometry_size
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer or a
 *  capacity below the count. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_get_stoichiometry(const cdyn_kinetics *kin, size_t *species,
                                                     size_t *reactions, int *coefficients,
                                                     size_t capacity);

/* --- State --------------------------------------------------------------- */

/** Copies the concentrations of all species (index order) into @p out.
 *  @param capacity  doubles @p out holds, at least the species count
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer or a short
 *  capacity. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_get_concentrations(const cdyn_kinetics *kin, double *out,
                                                      size_t capacity);

/** Sets the concentrations of all species from @p c (index order; not
 *  kept).
 *  @param count  must equal the species count
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer, a wrong
 *  count or a value that is negative or not finite; CDYN_ERR_BUSY from a
 *  rate law: nothing changed. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_set_concentrations(cdyn_kinetics *kin, const double *c,
                                                      size_t count);

/** The time of the state into *t (0 after creation).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_get_time(const cdyn_kinetics *kin, double *t);

/** Sets the time of the state (rate laws may depend on it).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p kin or a time
 *  that is not finite; CDYN_ERR_BUSY from a rate law. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_set_time(cdyn_kinetics *kin, double t);

/** The rate v_j of every reaction at the current state into @p out
 *  (concentration / time, reaction order).
 *  @param capacity  doubles @p out holds, at least the reaction count
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer or a short
 *  capacity; CDYN_ERR_CALLBACK when a rate law returns nonzero;
 *  CDYN_ERR_DIVERGED when a rate is not finite (the values are written);
 *  CDYN_ERR_NO_MEMORY for the first call after the network changed (it
 *  sets up a few arrays); CDYN_ERR_BUSY from a rate law. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_get_reaction_rates(cdyn_kinetics *kin, double *out,
                                                      size_t capacity);

/** dc/dt = S v of every species at the current state into @p out
 *  (concentration / time, species order).
 *  @return as cdyn_kinetics_get_reaction_rates, with a capacity of at least
 *  the species count. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_get_species_rates(cdyn_kinetics *kin, double *out,
                                                     size_t capacity);

/* --- Conserved moieties ---------------------------------------------------- */

/** The number m of independent conserved moieties into *count: the
 *  dimension of the left null space of S (vectors l with l^T S = 0, so that
 *  l . c stays constant under any rate law).
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer;
 *  CDYN_ERR_NO_MEMORY (the basis is computed on the first call after the
 *  network changed and kept); CDYN_ERR_BUSY from a rate law. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_get_moiety_count(cdyn_kinetics *kin, size_t *count);

/** Copies the basis of the conserved moieties, row-major m x species count:
 *  row r holds l_r. The basis is in reduced row echelon form (the first
 *  nonzero of each row is 1, in a column where the other rows are 0), so
 *  that for a closed network it reads as the chemist's moieties (e.g.
 *  E + ES and S + ES + P for an enzyme).
 *  @param capacity  doubles @p out holds, at least m times the species
 *                   count (@p out may be NULL when that is 0)
 *  @return as cdyn_kinetics_get_moiety_count; CDYN_ERR_INVALID_ARGUMENT
 *  also for a short capacity. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_get_moieties(cdyn_kinetics *kin, double *out,
                                                size_t capacity);

/** The totals l_r . c of the moieties at the current state into @p out
 *  (m values, concentration units).
 *  @return as cdyn_kinetics_get_moieties, with a capacity of at least m.
 *  @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_get_moiety_totals(cdyn_kinetics *kin, double *out,
                                                     size_t capacity);

/* --- Integration ------------------------------------------------------------ */

/** Fills @p options with the defaults (see each field). NULL is a no-op.
 *  @since 0.1 */
CDYN_API void cdyn_kinetics_options_init(cdyn_kinetics_options *options);

/** Sets the integration options (copied; the pointer is not kept). They
 *  apply from the next integration.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer, a size
 *  other than sizeof(cdyn_kinetics_options), an unknown method or a value
 *  out of its bounds (see each field); CDYN_ERR_BUSY from a rate law:
 *  nothing changed. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_set_options(cdyn_kinetics *kin,
                                               const cdyn_kinetics_options *options);

/** Copies the options in use into @p out (the defaults before any
 *  cdyn_kinetics_set_options). @p out->size must be set by the caller (at
 *  least sizeof(size_t)); at most that many bytes are written.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer or an
 *  unset size. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_get_options(const cdyn_kinetics *kin,
                                               cdyn_kinetics_options *out);

/** Gives every species its own absolute tolerance (concentration units),
 *  copied from @p atol; NULL with @p count 0 returns to the scalar
 *  options.atol for all. Species added later take options.atol.
 *  @param count  the species count (or 0 with NULL)
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p kin, a wrong
 *  count, or a value that is not finite and > 0; CDYN_ERR_NO_MEMORY (the
 *  copy); CDYN_ERR_BUSY from a rate law: nothing changed. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_set_absolute_tolerances(cdyn_kinetics *kin,
                                                           const double *atol, size_t count);

/** Integrates the rate equations from the current time t0 to @p t_end with
 *  the method and tolerances of the options, and leaves the state at
 *  @p t_end. Each call starts the method afresh from the current state.
 *  Concentrations at the requested @p times are written, row by row, into
 *  @p out (row r, species s at out[r * n_species + s]): computed by the
 *  method's own interpolant (BDF: its Nordsieck polynomial, of the order
 *  of the step; Dormand-Prince: its fourth-order continuous extension;
 *  backward Euler: linear), never by shortening steps.
 *
 *  A step whose concentrations fall below zero by more than the absolute
 *  tolerance is rejected and retried with a smaller step, never clamped;
 *  for backward Euler (fixed step) it fails the integration.
 *
 *  @param t_end     finite, >= the current time (equal: nothing to do)
 *  @param times     @p n_times output times, non-decreasing, in
 *                   [t0, t_end]; may be NULL when @p n_times is 0. Not kept.
 *  @param out       room for n_times x species count doubles; may be NULL
 *                   when that is 0. Unspecified after a failure.
 *  @param capacity  doubles @p out holds
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL @p kin, a network
 *  with no species, t_end not finite or before t0, output times out of
 *  order or outside [t0, t_end] (NaN included), or a short or overflowing
 *  capacity: nothing changed. Once stepping started, a failure rolls the concentrations and
 *  the time back to their values at the call and returns
 *  CDYN_ERR_NOT_CONVERGED (max_steps reached, the step size underflowed,
 *  or backward Euler's Newton iteration or positivity failed),
 *  CDYN_ERR_SINGULAR (a Newton matrix with no usable pivot),
 *  CDYN_ERR_CALLBACK (a rate law returned nonzero) or CDYN_ERR_NO_MEMORY
 *  (work space, allocated by the first integration after the network
 *  changed or its method changed; steps themselves do not allocate).
 *  CDYN_ERR_BUSY from a rate law. The stats describe the attempt in every
 *  case. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_integrate(cdyn_kinetics *kin, double t_end,
                                             const double *times, size_t n_times, double *out,
                                             size_t capacity);

/** Copies the counters of the last integration into @p out, whose @c size
 *  the caller sets (at least sizeof(size_t); fields beyond it are not
 *  written); all zero before the first integration.
 *  @return CDYN_OK; CDYN_ERR_INVALID_ARGUMENT for a NULL pointer or an
 *  unset size. @since 0.1 */
CDYN_API cdyn_status cdyn_kinetics_get_stats(const cdyn_kinetics *kin, cdyn_kinetics_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_KINETICS_H */
