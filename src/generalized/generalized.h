/* Particles held on a curve x = r(q) or a surface x = r(u, v) in
 * generalized coordinates: the records, the generalized state and the map
 * to Cartesian space (docs/parametric.md). Internal; below the constraint
 * store, which acts on these particles through their effective inverse
 * mass. The constraints that hold them (include/cdyn/parametric.h) are in
 * parametric/.
 *
 * A parametric particle's entries of the integrated state (sys->u, sys->ud)
 * hold q and q' (k = 1 or 2 values, the rest zero), while sys->x, sys->v
 * keep its Cartesian position and velocity. At each evaluation the record
 * caches r' (the columns of Phi), the centripetal acceleration
 * c = r'' q'^2 (curves) or r_uu u'^2 + 2 r_uv u'v' + r_vv v'^2 (surfaces) and
 * the effective inverse mass W = r' (m r'^T r')^-1 r'^T, through which
 * implicit constraints act on the particle.
 *
 * Shapes that move (docs/driven.md): x = r(q, t) with r the shape carried
 * by its carrier's frame (rot, shift) and, for callback shapes declared
 * time-dependent, changing in its own frame too. Then r' stands for
 * dr/dq, the velocity is r' q' + w with w = dr/dt the velocity of the
 * shape's material at the particle, and c gains the terms of dr/dt:
 * c = rot (r_b'' q'^2 + 2 dr_b'/dt q' + d2r_b/dt2) + 2 omega x (rot v_b)
 * + a_frame(x), with r_b the shape in its own frame, v_b = r_b' q' +
 * dr_b/dt and a_frame the acceleration of the frame's material at x. The
 * equations of motion in q are unchanged in form: m (r' q'' + c) = f + N,
 * r'^T N = 0. */
#ifndef CDYN__GENERALIZED_H
#define CDYN__GENERALIZED_H

#include <stdbool.h>
#include <stdint.h>

#include "cdyn/types.h"
#include "motion/motion.h"
#include "shapes/curve.h"
#include "shapes/surface.h"

typedef struct cdyn__param {
    int k;         /* 1: curve, 2: surface */
    uint32_t slot; /* the particle */
    /* Cycloid: the integrated coordinate is the arc length s (see
     * cdyn__cycloid_eval_arc), whose domain this is; q stays the public
     * coordinate. */
    bool arc;
    cdyn__domain arc_dom;
    /* cached at the last evaluation; next to the shape's frame so that an
     * evaluation touches few cache lines */
    double rq[2][3]; /* r' columns (the second stays 0 for a curve) */
    double minv[4];  /* (m r'^T r')^-1, k x k */
    double c[3];     /* centripetal acceleration */
    double w[9];     /* effective inverse mass, dim x dim */
    double f[3];     /* applied force */
    double fc[3];    /* implicit-constraint force */
    double normal[3]; /* force of the shape on the particle */
    double wt[3];     /* velocity of the shape's material at the particle (dr/dt) */
    cdyn__carrier carrier; /* the motion of the shape; identity when it stays */
    union {          /* k says which */
        cdyn__curve curve;
        cdyn__surface surface;
    };
} cdyn__param;

/* The record holding particle @p slot, or NULL. */
cdyn__param *cdyn__param_of(const cdyn_system *sys, uint32_t slot);

/* Records the message of a shape's failing status @p st met while
 * @p doing ("evaluate the shape", "place the point on the shape") at
 * parameter @p q (NaN when there is none), and returns it. */
cdyn_status cdyn__param_failed(const cdyn_system *sys, cdyn_status st, const char *doing,
                               double q);

/* Position @p x, velocity @p v (dim values each) and the record's caches
 * at time t and (q, qd). CDYN_ERR_SINGULAR (message set) where the
 * parametrization degenerates; a shape's status (CDYN_ERR_INVALID_ARGUMENT
 * for a non-finite coordinate, CDYN_ERR_CALLBACK), a motion's. */
cdyn_status cdyn__param_eval(const cdyn_system *sys, cdyn__param *p, double t, const double *q,
                             const double *qd, double *x, double *v);

/* Whether @p p's shape moves: carried by a motion, or a callback shape
 * declared time-dependent. */
bool cdyn__param_moves(const cdyn__param *p);

/* Attaches a valid motion to @p p's shape at the system's time (NULL:
 * stops it there); statuses of a callback motion. */
cdyn_status cdyn__param_set_motion(cdyn_system *sys, cdyn__param *p,
                                   const cdyn_motion_desc *motion);

/* The power the moving shapes deliver at the last evaluation: the sum of
 * N . w over the particles on them (dynamics/drive.h). */
double cdyn__params_drive_power(const cdyn_system *sys);

/* Coordinates of the point of @p p's shape nearest to x, and the parameter
 * velocity best matching v (@p hint: the current coordinates, or NULL). On
 * a whole sphere, a point within 45 degrees of a pole is given in a turned
 * chart: then *turned is set and *chart holds the surface with the new
 * frame, for the caller to adopt; the record is not changed. */
cdyn_status cdyn__param_project(const cdyn_system *sys, cdyn__param *p, double t,
                                const double *x, const double *v, const double *hint, double *q,
                                double *qd, cdyn__surface *chart, bool *turned);

/* Places @p p's particle at (q, qd) in both state representations; on
 * failure (evaluated before anything is written) nothing changed. Callers
 * that may move a particle write out lazily stored constraint Jacobians
 * first (cdyn__constraints_materialize_jac). */
cdyn_status cdyn__param_place(cdyn_system *sys, cdyn__param *p, const double *q,
                              const double *qd);

/* Cartesian x, v of every slot from the generalized state (u, ud) at time
 * t: free slots copied, parametric ones r(q, t), r' q' + dr/dt; fills the
 * caches. */
cdyn_status cdyn__params_to_cartesian(cdyn_system *sys, double t, const double *u,
                                      const double *ud, double *x, double *v);

/* Keeps the applied force of every parametric particle (before the force
 * array is turned into accelerations in place) and clears its constraint
 * force. */
void cdyn__params_save_forces(cdyn_system *sys, const double *f);

/* Unconstrained Cartesian accelerations of the parametric particles from the
 * saved forces: a = c + W (f - m c). */
void cdyn__params_free_accel(cdyn_system *sys, double *a);

/* Turns the Cartesian accelerations of parametric slots into q'' (k values,
 * the rest zero) and records the normal force. */
void cdyn__params_generalized_accel(cdyn_system *sys, double *a);

/* Inverse of cdyn__params_generalized_accel for reporting: the Cartesian
 * acceleration c + r' q'' of every parametric slot, from the caches of the
 * last evaluation. */
void cdyn__params_cartesian_accel(cdyn_system *sys, double *a);

/* Whether some particle rides a spline, whose third derivative jumps at its
 * knots (integer q), or a height field, whose bicubic patches' third
 * derivatives jump on cell edges: fixed-step integrators then end substeps
 * on these "knots". */
bool cdyn__params_have_knots(const cdyn_system *sys);

/* The time, within (0, h], after which the first particle on a spline or a
 * height field reaches a knot or a cell edge, from q + q' t + q'' t^2 / 2
 * with @p qdd the generalized accelerations at the current state (NULL:
 * linear prediction only); @p h when none does. Crossings closer than a
 * millionth of h count as passed. */
double cdyn__params_next_knot(const cdyn_system *sys, double h, const double *qdd);

/* After a step's candidate state was swapped into sys->u, sys->ud: wrap
 * periodic coordinates, stop particles at hard ends, re-chart spheres near
 * a pole, then rebuild sys->x, sys->v at the step's end time t1 (through
 * the workspace, so that on failure x and v are untouched). */
cdyn_status cdyn__params_commit(cdyn_system *sys, double t1);

/* Makes the generalized state of slot @p slot agree with its Cartesian
 * state after a setter wrote sys->x or sys->v: free particles are copied,
 * parametric ones projected onto their shape. */
cdyn_status cdyn__params_sync_slot(cdyn_system *sys, uint32_t slot);

/* Whether particle @p slot (on a shape) could be projected from the
 * Cartesian position @p x and velocity @p v (NULL: its current ones),
 * without changing anything. */
cdyn_status cdyn__params_check_projection(cdyn_system *sys, uint32_t slot, const double *x,
                                          const double *v);

/* Frees a record (when its constraint is removed), returning the particle to
 * Cartesian coordinates with the same position and velocity. */
void cdyn__param_release(cdyn_system *sys, cdyn__param *p);

/* Frees a record without touching the state (system destruction). */
void cdyn__param_free(cdyn_system *sys, cdyn__param *p);

/* Allocates the separate generalized state (first shape) or frees it (last
 * shape gone, or the system destroyed); u, ud alias x, v without it. */
cdyn_status cdyn__params_enter_mode(cdyn_system *sys);
void cdyn__params_leave_mode(cdyn_system *sys);

#endif /* CDYN__GENERALIZED_H */
