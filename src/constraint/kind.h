/* Constraint kinds as a table: each kind's mathematics in its own file
 * (kind_distance.c, kind_anchor.c, kind_pin.c, kind_plane.c, kind_user.c,
 * kind_implicit.c, kind_shape.c), one row per kind in kind.c. Every module
 * that treats constraints asks the row of a constraint's kind; none
 * switches on the kind. Adding a kind is its file (add function and
 * operations), its row, its value in cdyn_constraint_kind (and header,
 * map, docs, test). A row kind missing an operation fails
 * tests/test_constraint_kind.c. Internal. */
#ifndef CDYN__CONSTRAINT_KIND_H
#define CDYN__CONSTRAINT_KIND_H

#include <stdbool.h>
#include <stdint.h>

#include "cdyn/constraint.h"
#include "cdyn/motion.h"

struct cdyn__constraint;

/* Receives a Hessian block: adds coef * block (dim x dim, row-major) to the
 * (i, j) block of particle slots of the caller's matrix. */
typedef void (*cdyn__hessian_add_fn)(void *ctx, uint32_t i, uint32_t j, const double *block,
                                     double coef);

/* How the multiplier solve and the projections treat a kind's rows: fused
 * kernels for the two commonest kinds, the evaluator for the others. */
typedef enum cdyn__row_path {
    CDYN__ROWS_GENERIC = 0, /* through eval */
    CDYN__ROWS_ROD = 1,     /* a rod between two particles: G = (-d, d) */
    CDYN__ROWS_ANCHOR = 2   /* a rod to a fixed point: G = x - b */
} cdyn__row_path;

typedef struct cdyn__constraint_kind {
    cdyn_constraint_kind kind;
    const char *name;
    /* Held in generalized coordinates (curves, surfaces): no rows, none of
     * the row operations below; @c coordinates of them (1 or 2). */
    bool shape;
    int coordinates;
    cdyn__row_path path;
    /* G is a function of the positions alone (no user callback), so a
     * matrix made from the same positions is the same matrix. */
    bool pure;
    /* g, the Jacobian blocks, the velocity terms of g'' and dg/dt of @p c
     * at time t and (x, v) into g (n_rows), jac (n_rows * n_particles *
     * dim, row-major by row then particle), bias (n_rows: g'' = G a + bias)
     * and gt (n_rows, zeroed by the caller; written by time-dependent
     * constraints only). CDYN_ERR_CALLBACK (message set) when a callback
     * fails or returns a non-finite value. */
    cdyn_status (*eval)(cdyn_system *sys, const struct cdyn__constraint *c, double t,
                        const double *x, const double *v, double *g, double *jac, double *bias,
                        double *gt);
    /* Adds h nu Hess g (the constraint's geometric stiffness, @p hn = h nu
     * of its first row) through @p add, at time t and positions x. With
     * @p definite, a kind whose term would make the Newton matrix
     * indefinite (a rod pushing) leaves it out. CDYN_ERR_CALLBACK from a
     * callback. */
    cdyn_status (*hessian)(cdyn_system *sys, const struct cdyn__constraint *c, double t,
                           const double *x, double hn, bool definite, cdyn__hessian_add_fn add,
                           void *ctx);
    /* Time dependence (constraint/drive.h). A kind whose geometry a motion
     * can carry (an anchor's or pin's point, a plane, a curve's or
     * surface's shape) has attach_motion: it takes the motion (NULL: stops
     * it, leaving the geometry where it is at the system's time). Kinds
     * with a length that a schedule may drive give 1 + its index in d.p in
     * length_entry (0: none). Callback kinds may be declared
     * time-dependent (time_callback). */
    cdyn_status (*attach_motion)(cdyn_system *sys, struct cdyn__constraint *c,
                                 const cdyn_motion_desc *motion);
    int length_entry;
    bool time_callback;
    /* The geometry of @p c at time t in the layout of its d.p (an anchor's
     * point and length, a pin's point, a plane's normal and offset, a
     * rod's length), or NULL for kinds without one. */
    cdyn_status (*geometry_at)(const cdyn_system *sys, const struct cdyn__constraint *c,
                               double t, double out[4]);
    /* The motion carrying @p c's geometry, or NULL (also for kinds that
     * cannot move). */
    const struct cdyn__motion *(*motion_of)(const struct cdyn__constraint *c);
    /* The length that scales a row's position residual (a rod's length;
     * 1 for kinds without one). */
    double (*length_scale)(const struct cdyn__constraint *c);
    /* A fixed point whose coordinates enter the residual's round-off floor
     * (dim values), or NULL. */
    const double *(*fixed_point)(const struct cdyn__constraint *c);
    /* Frees what the constraint owns beyond its particle list (a shape's
     * record, returning the particle to Cartesian coordinates), or NULL. */
    void (*release)(cdyn_system *sys, struct cdyn__constraint *c);
} cdyn__constraint_kind;

/* The row of kind @p kind (a cdyn_constraint_kind value); never NULL for a
 * stored constraint. */
const cdyn__constraint_kind *cdyn__constraint_kind_of(uint8_t kind);

/* The kinds' rows (kind_*.c). */
extern const cdyn__constraint_kind cdyn__kind_distance, cdyn__kind_anchor, cdyn__kind_pin,
    cdyn__kind_plane, cdyn__kind_user, cdyn__kind_implicit, cdyn__kind_curve,
    cdyn__kind_surface;

/* Shared by the kind files: the first checks of an add. */
cdyn_status cdyn__constraint_add_prologue(cdyn_system *sys, const void *out, const char *what);

/* The row operations of kinds without a Hessian (g linear in x, or a user
 * callback that gives none: backward Euler's Newton iteration is then
 * inexact for its rows) and without a length of their own (scale 1). */
cdyn_status cdyn__hessian_none(cdyn_system *sys, const struct cdyn__constraint *c, double t,
                               const double *x, double hn, bool definite,
                               cdyn__hessian_add_fn add, void *ctx);
double cdyn__length_unit(const struct cdyn__constraint *c);

/* A length L: finite and > 0. */
bool cdyn__valid_length(double l);

/* The identity block of the dimension (dim x dim). */
const double *cdyn__identity(int dim);

#endif /* CDYN__CONSTRAINT_KIND_H */
