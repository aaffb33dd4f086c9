/** @file
 * @brief Chemical kinetics: mass-action reaction networks on stiff,
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

/** A reaction network and its state.
 *
 *  Opaque; owned by the caller: cdyn_kinetics_create() makes one,
 *  cdyn_kinetics_destroy() frees it.
 */
typedef struct cdyn_kinetics cdyn_kinetics;

/** The largest stoichiometric coefficient of a species on one side of a
 *  reaction (after repeated species are merged: A + A is 2 A). */
#define CDYN_KINETICS_MAX_COEFFICIENT 1000

/** The integration methods (cdyn_kinetics_options.method).
 *
 *  The values are pinned.
 */
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

/** The integration options.
 *
 *  Fill with cdyn_kinetics_options_init(), change what you need, then pass
 *  to cdyn_kinetics_set_options(). The size field lets the struct grow.
 */
typedef struct cdyn_kinetics_options {
    size_t size;                 /**< sizeof(cdyn_kinetics_options), set by the init function. */
    cdyn_kinetics_method method; /**< The method; default CDYN_KINETICS_BDF. */
    /** Relative tolerance, finite, in [1e-14, 1); default 1e-6. */
    double rtol;
    /** Absolute tolerance of every species without its own
     *  (cdyn_kinetics_set_absolute_tolerances()), in concentration units;
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
    /** The highest BDF order, 1 to 5; default 5. */
    int max_order;
    /** Newton iterations per step before the step counts as not converged,
     *  0 to 100; 0 (the default) means 3 for BDF and 10 for backward
     *  Euler. */
    int max_newton_iterations;
} cdyn_kinetics_options;

/** What the last integration did, read with cdyn_kinetics_get_stats().
 *
 *  Set @c size to sizeof(cdyn_kinetics_stats) before the call; fields
 *  beyond it are not written, so the struct may grow.
 */
typedef struct cdyn_kinetics_stats {
    size_t size;                   /**< Set by the caller: the bytes that may be written. */
    uint64_t steps;                /**< Accepted steps. */
    /** Rejected step attempts: error test failures, negative concentrations
     *  and Newton failures (the three counters below). */
    uint64_t rejected_steps;
    uint64_t error_test_failures;  /**< Attempts whose local error was too large. */
    uint64_t negative_rejections;  /**< Attempts with a concentration below -atol. */
    uint64_t newton_failures;      /**< Attempts whose Newton iteration did not converge. */
    uint64_t newton_iterations;    /**< Newton updates (linear solves). */
    uint64_t rate_evaluations;     /**< Evaluations of dc/dt (those of the Jacobian included). */
    uint64_t jacobian_evaluations; /**< Evaluations of the rate Jacobian. */
    uint64_t factorizations;       /**< Numeric LU factorizations of I - gamma J. */
    uint64_t pivot_searches;       /**< Of those, the ones that chose their pivots anew. */
    uint64_t factor_nonzeros;      /**< Entries of L + U (last factorization). */
    int last_order;                /**< Order of the last accepted step. */
    int highest_order;             /**< Highest order of an accepted step. */
    double last_step;              /**< Size of the last accepted step (time units). */
} cdyn_kinetics_stats;

/** A user rate law (cdyn_kinetics_add_rate_law()).
 *
 *  The function writes the rate of its reaction from the time and the
 *  concentrations of all species. The concentrations are an iterate of the
 *  integrator, not necessarily the committed state. The callback may read the
 *  object through the const get functions; the others (those that change it,
 *  the rate and moiety queries, which use its work space) return CDYN_ERR_BUSY.
 *  Like every callback of the library, it receives the object and the time
 *  first and the user pointer last.
 *
 *  @param[in]  kin        The network, read only.
 *  @param[in]  t          Time (time units of the rate constants).
 *  @param[in]  c          The concentrations of all species, @p n_species
 *                         values, valid during the call.
 *  @param[in]  n_species  The species count.
 *  @param[out] rate       Receives the rate (concentration / time).
 *  @param[in]  user       The pointer given to cdyn_kinetics_add_rate_law().
 *  @return 0 on success; any other value stops the call with CDYN_ERR_CALLBACK
 *          (an integration rolls back).
 *  @since 0.1
 */
typedef int (*cdyn_kinetics_rate_fn)(const cdyn_kinetics *kin, double t, const double *c,
                                     size_t n_species, double *rate, void *user);

/** The derivatives of a user rate law with respect to its dependencies.
 *
 *  The function writes d rate / d c[deps[k]] into drate[k] for each of the
 *  law's n_deps dependencies, in their order (cdyn_kinetics_add_rate_law()).
 *  Otherwise as cdyn_kinetics_rate_fn.
 *
 *  @param[in]  kin        The network, read only.
 *  @param[in]  t          Time.
 *  @param[in]  c          The concentrations of all species, @p n_species
 *                         values.
 *  @param[in]  n_species  The species count.
 *  @param[out] drate      Receives n_deps derivatives (1 / time).
 *  @param[in]  user       The pointer given to cdyn_kinetics_add_rate_law().
 *  @return 0 on success; any other value stops the call with CDYN_ERR_CALLBACK
 *          (an integration rolls back).
 *  @since 0.1
 */
typedef int (*cdyn_kinetics_rate_jacobian_fn)(const cdyn_kinetics *kin, double t,
                                              const double *c, size_t n_species, double *drate,
                                              void *user);

/** Creates an empty reaction network (no species, time 0) whose memory comes
 *  from malloc and free.
 *
 *  @param[out] out  Receives the new network, which the caller owns and frees
 *                   with cdyn_kinetics_destroy(); set to NULL on failure.
 *  @retval CDYN_OK                    the network was created.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p out is NULL.
 *  @retval CDYN_ERR_NO_MEMORY         the allocation failed.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_create(cdyn_kinetics **out);

/** Creates an empty reaction network whose memory comes from a given allocator.
 *
 *  As cdyn_kinetics_create(), with every allocation of the object made through
 *  @p allocator.
 *
 *  @param[in]  allocator  The allocator, copied; its @c user pointer must
 *                         outlive the object. NULL means malloc and free.
 *  @param[out] out        Receives the new network; set to NULL on failure.
 *  @retval CDYN_OK                    the network was created.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p out is NULL, or the allocator lacks
 *                                     alloc or free.
 *  @retval CDYN_ERR_NO_MEMORY         the allocator returned NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_create_with_allocator(const cdyn_allocator *allocator,
                                                         cdyn_kinetics **out);

/** Destroys a reaction network and everything it allocated.
 *
 *  Must not be called from a rate law.
 *
 *  @param[in] kin  The network; NULL is a no-op.
 *  @since 0.1
 */
CDYN_API void cdyn_kinetics_destroy(cdyn_kinetics *kin);

/** The message of the most recent call on a network that failed.
 *
 *  The message names the function and the problem. Successful calls leave it
 *  unchanged.
 *
 *  @param[in] kin  The network, or NULL.
 *  @return A NUL-terminated string owned by the object, valid until the next
 *          call on it; "" when no call has failed yet. Never NULL, also for a
 *          NULL @p kin.
 *  @since 0.1
 */
CDYN_API const char *cdyn_kinetics_last_error(const cdyn_kinetics *kin);

/* --- Species ----------------------------------------------------------- */

/** Adds a species.
 *
 *  Nothing changes on failure.
 *
 *  @param[in,out] kin            The network.
 *  @param[in]     name           A non-empty NUL-terminated name of at most 255
 *                                bytes, unique in the network; copied.
 *  @param[in]     concentration  Its concentration now, finite and >= 0.
 *  @param[out]    index          Receives its index (the number of species
 *                                before the call); may be NULL.
 *  @retval CDYN_OK                    the species was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin or @p name is NULL, the name is
 *                                     empty, too long or taken, or the
 *                                     concentration is negative or not finite.
 *  @retval CDYN_ERR_NO_MEMORY         the storage could not grow.
 *  @retval CDYN_ERR_BUSY              called from a rate law.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_add_species(cdyn_kinetics *kin, const char *name,
                                               double concentration, size_t *index);

/** Looks a species up by name.
 *
 *  @param[in]  kin    The network.
 *  @param[in]  name   The name, NUL-terminated.
 *  @param[out] index  Receives the species' index.
 *  @retval CDYN_OK                    the index was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin, @p name or @p index is NULL, or
 *                                     no species has that name.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_find_species(const cdyn_kinetics *kin, const char *name,
                                                size_t *index);

/** Reads the name of a species.
 *
 *  @param[in]  kin      The network.
 *  @param[in]  species  The species' index.
 *  @param[out] name     Receives the name: a NUL-terminated string owned by the
 *                       object, valid until it is destroyed.
 *  @retval CDYN_OK                    the name was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin or @p name is NULL, or @p species
 *                                     is not an index of a species.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_get_species_name(const cdyn_kinetics *kin, size_t species,
                                                    const char **name);

/** Reads the number of species.
 *
 *  @param[in]  kin    The network.
 *  @param[out] count  Receives the count.
 *  @retval CDYN_OK                    the count was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin or @p count is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_get_species_count(const cdyn_kinetics *kin, size_t *count);

/* --- Reactions ---------------------------------------------------------- */

/** Adds an irreversible mass-action reaction sum_i a_i R_i -> sum_i b_i P_i.
 *
 *  The rate is v = k prod_i c(R_i)^(a_i). A species listed twice on one side
 *  has its coefficients added; one on both sides (a catalyst) enters the rate
 *  law but its net change is b - a. No reactants make a zeroth-order source
 *  (v = k), no products a sink. Nothing changes on failure.
 *
 *  @param[in,out] kin                    The network.
 *  @param[in]     n_reactants            The number of entries of the left
 *                                        side.
 *  @param[in]     reactants              Their species indices; may be NULL
 *                                        when @p n_reactants is 0. Not kept.
 *  @param[in]     reactant_coefficients  Their coefficients,
 *                                        1 .. CDYN_KINETICS_MAX_COEFFICIENT;
 *                                        NULL for all ones. Not kept.
 *  @param[in]     n_products             The number of entries of the right
 *                                        side.
 *  @param[in]     products               Their species indices; may be NULL
 *                                        when @p n_products is 0. Not kept.
 *  @param[in]     product_coefficients   Their coefficients, as the reactants';
 *                                        NULL for all ones. Not kept.
 *  @param[in]     rate_constant          k, finite and > 0 (unit:
 *                                        concentration^(1 - order) / time).
 *  @param[out]    index                  Receives the reaction's index; may be
 *                                        NULL.
 *  @retval CDYN_OK                    the reaction was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin is NULL, a list is NULL with a
 *                                     nonzero count, a species is unknown, a
 *                                     coefficient is below 1 or a merged
 *                                     coefficient above
 *                                     CDYN_KINETICS_MAX_COEFFICIENT, the
 *                                     reaction has no species at all, or the
 *                                     rate constant is not finite and > 0.
 *  @retval CDYN_ERR_NO_MEMORY         the storage could not grow.
 *  @retval CDYN_ERR_BUSY              called from a rate law.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_add_reaction(cdyn_kinetics *kin, size_t n_reactants,
                                                const size_t *reactants,
                                                const int *reactant_coefficients,
                                                size_t n_products, const size_t *products,
                                                const int *product_coefficients,
                                                double rate_constant, size_t *index);

/** Adds a reversible mass-action reaction as a pair of irreversible ones.
 *
 *  left -> right with @p forward_constant, index *index, and right -> left with
 *  @p backward_constant, index *index + 1. At equilibrium of A <=> B, c_B /
 *  c_A = k_f / k_b. On failure neither reaction is added.
 *
 *  @param[in,out] kin                    The network.
 *  @param[in]     n_reactants            The number of entries of the left
 *                                        side.
 *  @param[in]     reactants              Their species indices; may be NULL
 *                                        when @p n_reactants is 0. Not kept.
 *  @param[in]     reactant_coefficients  Their coefficients; NULL for all ones.
 *                                        Not kept.
 *  @param[in]     n_products             The number of entries of the right
 *                                        side.
 *  @param[in]     products               Their species indices; may be NULL
 *                                        when @p n_products is 0. Not kept.
 *  @param[in]     product_coefficients   Their coefficients; NULL for all ones.
 *                                        Not kept.
 *  @param[in]     forward_constant       k_f, finite and > 0.
 *  @param[in]     backward_constant      k_b, finite and > 0.
 *  @param[out]    index                  Receives the forward reaction's index;
 *                                        may be NULL.
 *  @retval CDYN_OK                    both reactions were added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  as for cdyn_kinetics_add_reaction(), for
 *                                     either constant.
 *  @retval CDYN_ERR_NO_MEMORY         the storage could not grow.
 *  @retval CDYN_ERR_BUSY              called from a rate law.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_add_reversible_reaction(
    cdyn_kinetics *kin, size_t n_reactants, const size_t *reactants,
    const int *reactant_coefficients, size_t n_products, const size_t *products,
    const int *product_coefficients, double forward_constant, double backward_constant,
    size_t *index);

/** Adds a reaction whose rate is given by a user function instead of mass
 *  action.
 *
 *  The stoichiometry is as for cdyn_kinetics_add_reaction(). A rate that is not
 *  finite fails the Newton iteration or the error test of the step, which is
 *  retried smaller (cdyn_kinetics_integrate()), or gives CDYN_ERR_DIVERGED (the
 *  rate queries). Nothing changes on failure.
 *
 *  @param[in,out] kin                    The network.
 *  @param[in]     n_reactants            The number of entries of the left
 *                                        side.
 *  @param[in]     reactants              Their species indices; may be NULL
 *                                        when @p n_reactants is 0. Not kept.
 *  @param[in]     reactant_coefficients  Their coefficients; NULL for all ones.
 *                                        Not kept.
 *  @param[in]     n_products             The number of entries of the right
 *                                        side.
 *  @param[in]     products               Their species indices; may be NULL
 *                                        when @p n_products is 0. Not kept.
 *  @param[in]     product_coefficients   Their coefficients; NULL for all ones.
 *                                        Not kept.
 *  @param[in]     n_deps                 The number of species the rate depends
 *                                        on; 0 means the reactants.
 *  @param[in]     deps                   Their indices, each once (the sparsity
 *                                        of the rate's Jacobian); may be NULL
 *                                        when @p n_deps is 0. Not kept.
 *  @param[in]     rate                   The rate law; not NULL. Kept until the
 *                                        object is destroyed.
 *  @param[in]     jacobian               Its derivatives with respect to the
 *                                        dependencies; NULL for forward
 *                                        differences (one extra call of @p rate
 *                                        per dependency).
 *  @param[in]     user                   Passed back to both functions; kept
 *                                        until the object is destroyed, never
 *                                        dereferenced. May be NULL.
 *  @param[out]    index                  Receives the reaction's index; may be
 *                                        NULL.
 *  @retval CDYN_OK                    the reaction was added.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  as for cdyn_kinetics_add_reaction(), also
 *                                     for a NULL @p rate or an unknown or
 *                                     repeated dependency.
 *  @retval CDYN_ERR_NO_MEMORY         the storage could not grow.
 *  @retval CDYN_ERR_BUSY              called from a rate law.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_add_rate_law(
    cdyn_kinetics *kin, size_t n_reactants, const size_t *reactants,
    const int *reactant_coefficients, size_t n_products, const size_t *products,
    const int *product_coefficients, size_t n_deps, const size_t *deps,
    cdyn_kinetics_rate_fn rate, cdyn_kinetics_rate_jacobian_fn jacobian, void *user,
    size_t *index);

/** Reads the number of reactions.
 *
 *  A reversible reaction counts two.
 *
 *  @param[in]  kin    The network.
 *  @param[out] count  Receives the count.
 *  @retval CDYN_OK                    the count was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin or @p count is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_get_reaction_count(const cdyn_kinetics *kin, size_t *count);

/** Sets the rate constant of a mass-action reaction.
 *
 *  @param[in,out] kin            The network.
 *  @param[in]     reaction       The reaction's index.
 *  @param[in]     rate_constant  k, finite and > 0.
 *  @retval CDYN_OK                    the constant was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin is NULL, the reaction is unknown
 *                                     or has a user rate law, or the constant
 *                                     is not finite and > 0; nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a rate law.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_set_rate_constant(cdyn_kinetics *kin, size_t reaction,
                                                     double rate_constant);

/** Reads the rate constant of a mass-action reaction.
 *
 *  @param[in]  kin            The network.
 *  @param[in]  reaction       The reaction's index.
 *  @param[out] rate_constant  Receives k.
 *  @retval CDYN_OK                    the constant was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin or @p rate_constant is NULL, or
 *                                     the reaction is unknown or has a user
 *                                     rate law.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_get_rate_constant(const cdyn_kinetics *kin, size_t reaction,
                                                     double *rate_constant);

/** Reads the number of nonzero entries of the net stoichiometric matrix S.
 *
 *  S is species x reactions, S_ij = products minus reactants.
 *
 *  @param[in]  kin    The network.
 *  @param[out] count  Receives the count.
 *  @retval CDYN_OK                    the count was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin or @p count is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_get_stoichiometry_size(const cdyn_kinetics *kin,
                                                          size_t *count);

/** Copies the net stoichiometric matrix S in coordinate form.
 *
 *  Entry e is S[species[e]][reactions[e]] = coefficients[e], ordered by
 *  reaction, then by species; zero net coefficients (catalysts) are left out.
 *
 *  @param[in]  kin           The network.
 *  @param[out] species       Receives the species index of each entry; may be
 *                            NULL when S has no entry.
 *  @param[out] reactions     Receives the reaction index of each entry.
 *  @param[out] coefficients  Receives each entry's net coefficient.
 *  @param[in]  capacity      The entries each array holds, at least the count
 *                            of cdyn_kinetics_get_stoichiometry_size().
 *  @retval CDYN_OK                    the entries were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin is NULL, @p capacity is short, or
 *                                     an array is NULL while there are entries.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_get_stoichiometry(const cdyn_kinetics *kin, size_t *species,
                                                     size_t *reactions, int *coefficients,
                                                     size_t capacity);

/* --- State --------------------------------------------------------------- */

/** Copies the concentrations of all species, in index order.
 *
 *  @param[in]  kin       The network.
 *  @param[out] out       Receives the concentrations; may be NULL when the
 *                        network has no species.
 *  @param[in]  capacity  The doubles @p out holds, at least the species count.
 *  @retval CDYN_OK                    the concentrations were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin is NULL, @p capacity is short, or
 *                                     @p out is NULL while there are species.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_get_concentrations(const cdyn_kinetics *kin, double *out,
                                                      size_t capacity);

/** Sets the concentrations of all species, in index order.
 *
 *  @param[in,out] kin    The network.
 *  @param[in]     c      The concentrations, finite and >= 0; copied, not kept.
 *  @param[in]     count  The number of values in @p c; must equal the species
 *                        count.
 *  @retval CDYN_OK                    the concentrations were set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin or @p c is NULL, @p count is
 *                                     wrong, or a value is negative or not
 *                                     finite; nothing changed.
 *  @retval CDYN_ERR_BUSY              called from a rate law.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_set_concentrations(cdyn_kinetics *kin, const double *c,
                                                      size_t count);

/** Reads the time of the state.
 *
 *  @param[in]  kin  The network.
 *  @param[out] t    Receives the time; 0 after creation.
 *  @retval CDYN_OK                    the time was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin or @p t is NULL.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_get_time(const cdyn_kinetics *kin, double *t);

/** Sets the time of the state (rate laws may depend on it).
 *
 *  @param[in,out] kin  The network.
 *  @param[in]     t    The time, finite.
 *  @retval CDYN_OK                    the time was set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin is NULL or @p t is not finite.
 *  @retval CDYN_ERR_BUSY              called from a rate law.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_set_time(cdyn_kinetics *kin, double t);

/** Computes the rate v_j of every reaction at the current state.
 *
 *  The first call after the network changed sets up the work space.
 *
 *  @param[in,out] kin       The network; only its work space changes.
 *  @param[out]    out       Receives the rates (concentration / time), in
 *                           reaction order.
 *  @param[in]     capacity  The doubles @p out holds, at least the reaction
 *                           count.
 *  @retval CDYN_OK                    the rates were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin or @p out is NULL, or @p capacity
 *                                     is short.
 *  @retval CDYN_ERR_CALLBACK          a rate law returned nonzero.
 *  @retval CDYN_ERR_DIVERGED          a rate is not finite (the values are
 *                                     written).
 *  @retval CDYN_ERR_NO_MEMORY         the work space could not be allocated.
 *  @retval CDYN_ERR_BUSY              called from a rate law.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_get_reaction_rates(cdyn_kinetics *kin, double *out,
                                                      size_t capacity);

/** Computes dc/dt = S v of every species at the current state.
 *
 *  @param[in,out] kin       The network; only its work space changes.
 *  @param[out]    out       Receives the rates (concentration / time), in
 *                           species order.
 *  @param[in]     capacity  The doubles @p out holds, at least the species
 *                           count.
 *  @retval CDYN_OK                    the rates were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin or @p out is NULL, or @p capacity
 *                                     is short.
 *  @retval CDYN_ERR_CALLBACK          a rate law returned nonzero.
 *  @retval CDYN_ERR_DIVERGED          a rate is not finite (the values are
 *                                     written).
 *  @retval CDYN_ERR_NO_MEMORY         the work space could not be allocated.
 *  @retval CDYN_ERR_BUSY              called from a rate law.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_get_species_rates(cdyn_kinetics *kin, double *out,
                                                     size_t capacity);

/* --- Conserved moieties ---------------------------------------------------- */

/** Reads the number m of independent conserved moieties.
 *
 *  m is the dimension of the left null space of S (vectors l with l^T S = 0, so
 *  that l . c stays constant under any rate law). The basis is computed by the
 *  first call after the network changed and kept.
 *
 *  @param[in,out] kin    The network; only its cached basis changes.
 *  @param[out]    count  Receives m.
 *  @retval CDYN_OK                    the count was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin or @p count is NULL.
 *  @retval CDYN_ERR_NO_MEMORY         the basis could not be computed.
 *  @retval CDYN_ERR_BUSY              called from a rate law.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_get_moiety_count(cdyn_kinetics *kin, size_t *count);

/** Copies the basis of the conserved moieties.
 *
 *  Row-major m x species count: row r holds l_r. The basis is in reduced row
 *  echelon form (the first nonzero of each row is 1, in a column where the
 *  other rows are 0), so that for a closed network it reads as the chemist's
 *  moieties (E + ES and S + ES + P for an enzyme).
 *
 *  @param[in,out] kin       The network; only its cached basis changes.
 *  @param[out]    out       Receives the basis; may be NULL when m times the
 *                           species count is 0.
 *  @param[in]     capacity  The doubles @p out holds, at least m times the
 *                           species count.
 *  @retval CDYN_OK                    the basis was written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin is NULL, @p out is NULL when
 *                                     values are due, or @p capacity is short.
 *  @retval CDYN_ERR_NO_MEMORY         the basis could not be computed.
 *  @retval CDYN_ERR_BUSY              called from a rate law.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_get_moieties(cdyn_kinetics *kin, double *out,
                                                size_t capacity);

/** Computes the totals l_r . c of the moieties at the current state.
 *
 *  @param[in,out] kin       The network; only its cached basis changes.
 *  @param[out]    out       Receives m values (concentration units); may be
 *                           NULL when m is 0.
 *  @param[in]     capacity  The doubles @p out holds, at least m.
 *  @retval CDYN_OK                    the totals were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin is NULL, @p out is NULL when
 *                                     values are due, or @p capacity is short.
 *  @retval CDYN_ERR_NO_MEMORY         the basis could not be computed.
 *  @retval CDYN_ERR_BUSY              called from a rate law.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_get_moiety_totals(cdyn_kinetics *kin, double *out,
                                                     size_t capacity);

/* --- Integration ------------------------------------------------------------ */

/** Fills the integration options with the defaults.
 *
 *  See each field of cdyn_kinetics_options for its default.
 *
 *  @param[out] options  The struct to fill; NULL is a no-op.
 *  @since 0.1
 */
CDYN_API void cdyn_kinetics_options_init(cdyn_kinetics_options *options);

/** Sets the integration options.
 *
 *  They apply from the next integration.
 *
 *  @param[in,out] kin      The network.
 *  @param[in]     options  The options, filled by cdyn_kinetics_options_init()
 *                          and then changed; copied, the pointer is not kept.
 *  @retval CDYN_OK                    the options were set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin or @p options is NULL, its size is
 *                                     not sizeof(cdyn_kinetics_options), the
 *                                     method is unknown, or a value is out of
 *                                     its bounds (see each field; backward
 *                                     Euler also needs fixed_step > 0); nothing
 *                                     changed.
 *  @retval CDYN_ERR_BUSY              called from a rate law.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_set_options(cdyn_kinetics *kin,
                                               const cdyn_kinetics_options *options);

/** Reads the integration options in use.
 *
 *  The defaults before any cdyn_kinetics_set_options().
 *
 *  @param[in]     kin  The network.
 *  @param[in,out] out  The caller's struct: its @c size field, set by the
 *                      caller to at least sizeof(size_t), says how many bytes
 *                      may be written; it is left as it is.
 *  @retval CDYN_OK                    the options were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin or @p out is NULL, or out->size is
 *                                     below sizeof(size_t); nothing written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_get_options(const cdyn_kinetics *kin,
                                               cdyn_kinetics_options *out);

/** Gives every species its own absolute tolerance, or returns to the scalar
 *  one.
 *
 *  Species added later take options.atol. Nothing changes on failure.
 *
 *  @param[in,out] kin    The network.
 *  @param[in]     atol   One tolerance per species (concentration units),
 *                        finite and > 0; copied. NULL with @p count 0 returns
 *                        to options.atol for all.
 *  @param[in]     count  The species count, or 0 with NULL.
 *  @retval CDYN_OK                    the tolerances were set.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin is NULL, @p atol is NULL with a
 *                                     nonzero count, @p count is not the
 *                                     species count, or a value is not finite
 *                                     and > 0.
 *  @retval CDYN_ERR_NO_MEMORY         the copy could not be allocated.
 *  @retval CDYN_ERR_BUSY              called from a rate law.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_set_absolute_tolerances(cdyn_kinetics *kin,
                                                           const double *atol, size_t count);

/** Integrates the rate equations from the current time to a later one.
 *
 *  The method and tolerances of the options take the state from the current
 *  time t0 to @p t_end, where it is left. Each call starts the method afresh
 *  from the current state. Concentrations at the requested @p times are
 *  written, row by row, into @p out (row r, species s at out[r * n_species +
 *  s]): computed by the method's own interpolant (BDF: its Nordsieck
 *  polynomial, of the order of the step; Dormand-Prince: its fourth-order
 *  continuous extension; backward Euler: linear), never by shortening steps.
 *
 *  A step whose concentrations fall below zero by more than the absolute
 *  tolerance is rejected and retried with a smaller step, never clamped; for
 *  backward Euler (fixed step) it fails the integration. Once stepping started,
 *  a failure rolls the concentrations and the time back to their values at the
 *  call. The stats describe the attempt in every case. Work space is allocated
 *  by the first integration after the network or its method changed; steps
 *  themselves do not allocate.
 *
 *  @param[in,out] kin       The network.
 *  @param[in]     t_end     The end time, finite, >= the current time (equal:
 *                           only the outputs at t0 are written).
 *  @param[in]     times     @p n_times output times, non-decreasing, in [t0,
 *                           t_end]; may be NULL when @p n_times is 0. Not kept.
 *  @param[in]     n_times   The number of output times.
 *  @param[out]    out       Receives @p n_times x species count concentrations;
 *                           may be NULL when that is 0. Unspecified after a
 *                           failure.
 *  @param[in]     capacity  The doubles @p out holds.
 *  @retval CDYN_OK                    the state is at @p t_end.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  nothing changed: @p kin is NULL, the
 *                                     network has no species, @p t_end is not
 *                                     finite or before t0, @p times is NULL
 *                                     with a nonzero count, the output times
 *                                     are out of order or outside [t0, t_end]
 *                                     (NaN included), or @p capacity is short
 *                                     or overflowing (or @p out NULL when
 *                                     values are due).
 *  @retval CDYN_ERR_NOT_CONVERGED     max_steps was reached, the step size
 *                                     underflowed, or backward Euler's Newton
 *                                     iteration or positivity failed; rolled
 *                                     back.
 *  @retval CDYN_ERR_SINGULAR          a Newton matrix had no usable pivot;
 *                                     rolled back.
 *  @retval CDYN_ERR_CALLBACK          a rate law returned nonzero; rolled back.
 *  @retval CDYN_ERR_NO_MEMORY         the work space could not be allocated.
 *  @retval CDYN_ERR_BUSY              called from a rate law.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_integrate(cdyn_kinetics *kin, double t_end,
                                             const double *times, size_t n_times, double *out,
                                             size_t capacity);

/** Reads the counters of the last integration.
 *
 *  All zero before the first integration.
 *
 *  @param[in]     kin  The network.
 *  @param[in,out] out  The caller's struct: its @c size field, set by the
 *                      caller to at least sizeof(size_t), says how many bytes
 *                      may be written; it is left as it is.
 *  @retval CDYN_OK                    the counters were written.
 *  @retval CDYN_ERR_INVALID_ARGUMENT  @p kin or @p out is NULL, or out->size is
 *                                     below sizeof(size_t); nothing written.
 *  @since 0.1
 */
CDYN_API cdyn_status cdyn_kinetics_get_stats(const cdyn_kinetics *kin, cdyn_kinetics_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* CDYN_KINETICS_H */
