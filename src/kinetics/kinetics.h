/* The kinetics object: the species and reaction stores, the state, the
 * options, the caches, and the helpers every kinetics source file shares.
 * Never installed. */
#ifndef CDYN__KINETICS_KINETICS_H
#define CDYN__KINETICS_KINETICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cdyn/kinetics.h"

/* Longest species name, in bytes without the NUL. */
#define CDYN__KIN_MAX_NAME 255

/* The species: names (each its own allocation, so that the pointers
 * cdyn_kinetics_get_species_name hands out stay valid), concentrations and
 * an open-addressing hash of the names (slot = species index + 1, 0 empty). */
typedef struct cdyn__kin_species {
    size_t n;
    char **name;
    size_t *name_len;         /* bytes without the NUL */
    double *c;                /* concentrations, the state */
    size_t cap_name, cap_len, cap_c; /* capacities of the three arrays */
    size_t *slot;             /* n_slots entries, a power of two, at most half full */
    size_t n_slots;
} cdyn__kin_species;

/* The reactions, in compressed rows (reaction j's entries are
 * [start[j], start[j + 1]) of each list):
 *  - reactants (merged, ascending species) with their coefficients: the
 *    mass-action rate law; products alike;
 *  - net stoichiometry S (nonzero, ascending species): what a reaction
 *    changes;
 *  - dependencies: the species its rate depends on (the reactants for mass
 *    action), which give the Jacobian its pattern.
 * A reaction with a user rate law has law[j] non-NULL. */
typedef struct cdyn__kin_reactions {
    size_t n;
    double *k;                           /* rate constants (0 for user laws) */
    cdyn_kinetics_rate_fn *law;
    cdyn_kinetics_rate_jacobian_fn *law_jac;
    void **law_user;
    size_t *r_start, *p_start, *s_start, *d_start; /* n + 1 entries each */
    size_t *r_species;                   /* reactants */
    int *r_coeff;
    size_t *p_species;                   /* products (merged, ascending species) */
    int *p_coeff;
    size_t *s_species;                   /* net stoichiometry */
    int *s_coeff;
    size_t *d_species;                   /* dependencies */
    /* Capacities, one per array (a failed growth leaves the others grown). */
    size_t cap_k, cap_law, cap_law_jac, cap_law_user;
    size_t cap_r_start, cap_p_start, cap_s_start, cap_d_start;
    size_t cap_r_species, cap_r_coeff, cap_p_species, cap_p_coeff;
    size_t cap_s_species, cap_s_coeff, cap_d_species;
    size_t max_deps;                     /* longest dependency list */
    size_t n_laws;                       /* reactions with a user rate law */
} cdyn__kin_reactions;

/* The conserved moieties, a sparse basis of the left null space of S in
 * reduced row echelon form (rows of species coefficients), computed on
 * request and kept while the network is unchanged. */
typedef struct cdyn__kin_moieties {
    bool valid;
    uint64_t serial;          /* network serial it was computed for */
    size_t m;                 /* rows */
    size_t *start;            /* m + 1 */
    size_t *species;
    double *coeff;
    size_t nnz;
} cdyn__kin_moieties;

struct cdyn__kin_work; /* workspace.h */

struct cdyn_kinetics {
    cdyn_allocator alloc;
    cdyn__kin_species sp;
    cdyn__kin_reactions rx;
    double t;                 /* time of the state */
    /* Bumped by every change of the network's shape (species or reactions
     * added): the workspace and the moieties are rebuilt for a new one. */
    uint64_t serial;

    cdyn_kinetics_options opt;
    double *atol;             /* per-species absolute tolerances, or NULL */
    size_t atol_n;            /* species count they were given for */

    struct cdyn__kin_work *work;
    cdyn__kin_moieties moi;
    cdyn_kinetics_stats stats; /* of the last integration */
    bool busy;                 /* inside an integration or a rate query */
    char err[256];
};

/* Records a message "function: problem" in kin->err and returns @p st.
 * Const queries report through it too: the message is the one field they
 * may write. */
cdyn_status cdyn__kin_fail(const cdyn_kinetics *kin, cdyn_status st, const char *fn,
                           const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Checks of the output arguments of queries: a NULL object is refused
 * without a message, a short capacity (or NULL @p out with need > 0) or a
 * NULL pointer named @p name with one. */
cdyn_status cdyn__kin_check_out(const cdyn_kinetics *kin, const char *fn, const void *out,
                                size_t capacity, size_t need);
cdyn_status cdyn__kin_check_ptr(const cdyn_kinetics *kin, const char *fn, const void *p,
                                const char *name);

/* The check every function that changes the object starts with: a NULL
 * object is refused (no message can be set), a busy one gets CDYN_ERR_BUSY. */
cdyn_status cdyn__kin_enter(cdyn_kinetics *kin, const char *fn);

/* Grows the array *ptr of *cap elements of @p size bytes to hold at least
 * @p need, keeping its contents (doubling, at least 8). On failure returns
 * false with the array unchanged. */
bool cdyn__kin_reserve(const cdyn_allocator *a, void **ptr, size_t *cap, size_t need,
                       size_t size);

/* Frees the species and reaction stores. */
void cdyn__kin_species_free(cdyn_kinetics *kin);
void cdyn__kin_reactions_free(cdyn_kinetics *kin);
void cdyn__kin_moieties_free(cdyn_kinetics *kin);

#endif
