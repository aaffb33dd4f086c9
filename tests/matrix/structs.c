/* The size-first structs the rows pass: each one's valid baseline (filled
 * through its init function) and the fields whose bad values the matrix
 * tries, with the class that says which values are refused (as each field's
 * comment in the header documents it). Fields a kind does not read are left
 * out: the header says they are ignored. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

#define F(T, m) .name = #m, .off = offsetof(T, m)
#define NOTBIG (BIT(B_TINY) | BIT(B_HUGE) | BIT(B_MAX))
/* A height field's grid: its far edge finite and above its origin. */
#define FAR_EDGE (BIT(B_HUGE) | BIT(B_NHUGE) | BIT(B_MAX))
#define GRID_STEP BIT(B_MAX)
/* A motion whose state overflows at the time it is attached or evaluated
 * gives CDYN_ERR_DIVERGED (motion.h). */
#define OVERFLOWS (BIT(B_HUGE) | BIT(B_NHUGE) | BIT(B_MAX))
/* A shape's size may make it degenerate (a point, or out of range of a
 * double), which the functions that take descriptions refuse. */
#define DEGENERATE (BIT(B_TINY) | BIT(B_HUGE) | BIT(B_MAX))

static void fill_rk45(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_rk45_options_init(b);
}

static void fill_newton(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_newton_options_init(b);
}

static void fill_solver(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_solver_options_init(b);
}

static void fill_projection(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_projection_options_init(b);
}

/* A serial host: runs every loop at once on the calling thread. */
static void *serial_enqueue(cdyn_task_fn task, uint32_t count, uint32_t min_range,
                            void *context, void *user)
{
    (void)min_range, (void)user;
    task(0, count, context);
    return NULL;
}

static void serial_finish(void *handle, void *user)
{
    (void)handle, (void)user;
}

static void fill_tasks(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_task_system *ts = b;
    cdyn_task_system_init(ts);
    ts->worker_count = 2;
    ts->enqueue = serial_enqueue;
    ts->finish = serial_finish;
}

/* Reports: only the size field is the caller's. */
static void fill_report(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim, (void)b;
}

static void fill_motion_lin(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_motion_desc *m = b;
    cdyn_motion_desc_init(m, CDYN_MOTION_LINEAR);
    m->velocity[0] = 0.1;
}

static void fill_motion_osc(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_motion_desc *m = b;
    cdyn_motion_desc_init(m, CDYN_MOTION_OSCILLATION);
    m->amplitude[1] = 0.01;
    m->frequency = 2;
}

static void fill_motion_rot(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_motion_desc *m = b;
    cdyn_motion_desc_init(m, CDYN_MOTION_ROTATION);
    m->angular_velocity = 0.5;
}

static void fill_motion_cb(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_motion_desc *m = b;
    cdyn_motion_desc_init(m, CDYN_MOTION_CALLBACK);
    m->callback = (cdyn_motion_fn)mx_callback(FN_MOTION);
}

static void fill_sched_lin(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_schedule_desc *s = b;
    cdyn_schedule_desc_init(s, CDYN_SCHEDULE_LINEAR);
    s->rate = 0.01;
}

static void fill_sched_osc(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_schedule_desc *s = b;
    cdyn_schedule_desc_init(s, CDYN_SCHEDULE_OSCILLATION);
    s->amplitude = 0.01;
}

static void fill_sched_cb(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_schedule_desc *s = b;
    cdyn_schedule_desc_init(s, CDYN_SCHEDULE_CALLBACK);
    s->callback = (cdyn_schedule_fn)mx_callback(FN_SCHEDULE);
}

static void fill_hertz(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_pair_params_init(b, CDYN_PAIR_HERTZ);
}

static void fill_wca(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_pair_params_init(b, CDYN_PAIR_LJ_REPULSIVE);
}

static void fill_lj(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_pair_params_init(b, CDYN_PAIR_LJ);
}

/* U = (1 - r)^2 and F = 2 (1 - r) at r = 0.5, 2/3, 5/6, 1. */
static const double pair_table[8] = {0.25, 1, 1.0 / 9, 2.0 / 3, 1.0 / 36, 1.0 / 3, 0, 0};

static void fill_table(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_pair_params *p = b;
    cdyn_pair_params_init(p, CDYN_PAIR_TABLE);
    p->table = pair_table;
    p->table_size = 4;
    p->table_r_min = 0.5;
    p->cutoff = 1;
}

static void fill_pair_cb(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_pair_params *p = b;
    cdyn_pair_params_init(p, CDYN_PAIR_CALLBACK);
    p->fn = (cdyn_pair_fn)mx_callback(FN_PAIR);
    p->cutoff = 1;
}

static void fill_langevin(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_langevin_options *o = b;
    cdyn_langevin_options_init(o);
    o->kT = 1, o->gamma = 0.5;
}

/* Curves near the fixture's free particle, in the plane z = 0. */
static void curve(void *b, cdyn_curve_kind kind)
{
    cdyn_curve_desc *d = b;
    cdyn_curve_desc_init(d, kind);
    d->origin[1] = 1.0;
}

static void fill_line(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    curve(b, CDYN_CURVE_LINE);
}

static void fill_circle(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    curve(b, CDYN_CURVE_CIRCLE);
}

static void fill_parabola(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    curve(b, CDYN_CURVE_PARABOLA);
    ((cdyn_curve_desc *)b)->coefficient = 0.5;
}

static void fill_helix(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    curve(b, CDYN_CURVE_HELIX);
}

static void fill_cycloid(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    curve(b, CDYN_CURVE_CYCLOID);
}

static const double spline3[] = {0, 0, 0, 1, 1, 0, 2, 0, 0, 3, 1, 0, 4, 0, 1};
static const double spline2[] = {0, 0, 1, 1, 2, 0, 3, 1, 4, 0};
static const double loop3[] = {0, 0, 0, 1, 0, 0, 1.5, 1, 0, 0.5, 1.5, 0, -0.5, 1, 0};
static const double loop2[] = {0, 0, 1, 0, 1.5, 1, 0.5, 1.5, -0.5, 1};

static void spline(void *b, int dim, cdyn_spline_end end)
{
    cdyn_curve_desc *d = b;
    cdyn_curve_desc_init(d, CDYN_CURVE_SPLINE);
    d->spline_end = end;
    d->num_points = 5;
    if (end == CDYN_SPLINE_CLOSED)
        d->points = dim == 3 ? loop3 : loop2;
    else
        d->points = dim == 3 ? spline3 : spline2;
    d->start_tangent[0] = d->end_tangent[0] = 1;
}

static void fill_natural(mx_ctx *c, void *b, int dim)
{
    (void)c;
    spline(b, dim, CDYN_SPLINE_NATURAL);
}

static void fill_clamped(mx_ctx *c, void *b, int dim)
{
    (void)c;
    spline(b, dim, CDYN_SPLINE_CLAMPED);
}

static void fill_closed(mx_ctx *c, void *b, int dim)
{
    (void)c;
    spline(b, dim, CDYN_SPLINE_CLOSED);
}

static void fill_curve_cb(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_curve_desc *d = b;
    cdyn_curve_desc_init(d, CDYN_CURVE_CALLBACK);
    d->callback = (cdyn_curve_fn)mx_callback(FN_CURVE);
    d->periodic = 1;
    d->q_min = 0;
    d->q_max = 2 * 3.14159265358979323846;
}

static void surface(void *b, cdyn_surface_kind kind)
{
    cdyn_surface_desc *d = b;
    cdyn_surface_desc_init(d, kind);
    d->origin[1] = 1.0;
}

static void fill_splane(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    surface(b, CDYN_SURFACE_PLANE);
}

static void fill_sphere(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    surface(b, CDYN_SURFACE_SPHERE);
}

static void fill_torus(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    surface(b, CDYN_SURFACE_TORUS);
}

static const double hf20[20] = {0,   0.1, 0.2, 0.1, 0,   0.1, 0.3, 0.4, 0.3, 0.1,
                                0.1, 0.3, 0.5, 0.3, 0.1, 0,   0.1, 0.2, 0.1, 0};

static void fill_hf(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_heightfield_desc *h = b;
    cdyn_heightfield_desc_init(h);
    h->nx = 5, h->ny = 4;
    h->origin[0] = -1, h->origin[1] = 0;
    h->samples = hf20;
}

static void fill_hf2(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_heightfield_desc *h = b;
    cdyn_heightfield_desc_init(h);
    h->nx = 5, h->ny = 1;
    h->origin[0] = -1;
    h->samples = hf20;
}

/* The height field a surface points to lives after the surface in the
 * struct buffer (which is MX_SBUF bytes). */
static void fill_surf_hf(mx_ctx *c, void *b, int dim)
{
    cdyn_surface_desc *d = b;
    cdyn_surface_desc_init(d, CDYN_SURFACE_HEIGHTFIELD);
    cdyn_heightfield_desc *h = (cdyn_heightfield_desc *)((unsigned char *)b + 512);
    fill_hf(c, h, dim);
    d->heightfield = h;
}

static void fill_surf_cb(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_surface_desc *d = b;
    cdyn_surface_desc_init(d, CDYN_SURFACE_CALLBACK);
    d->callback = (cdyn_surface_fn)mx_callback(FN_SURFACE);
    d->periodic_u = 1;
    d->u_min = 0, d->u_max = 2 * 3.14159265358979323846;
    d->v_min = 0.2, d->v_max = 3.14159265358979323846 - 0.2;
}

static void fill_stats_options(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_lattice_stats_options_init(b);
}

static void fill_kin_options(mx_ctx *c, void *b, int dim)
{
    (void)c, (void)dim;
    cdyn_kinetics_options_init(b);
}

#define VEC3(T, m) {F(T, m), .cls = A_VEC, .n = 3, .may = BIT(B_HUGE)}
#define VECNZ3(T, m) {F(T, m), .cls = A_VEC_NZ, .n = 3, .may = BIT(B_HUGE)}
#define KIND(T, a, b) {F(T, kind), .cls = A_ENUM, .lo = (a), .hi = (b)}

static const mx_struct structs[S_COUNT] = {
    [S_TASKS] = {"cdyn_task_system", sizeof(cdyn_task_system), fill_tasks,
                 {{F(cdyn_task_system, worker_count), .cls = A_ENUM, .lo = 1, .hi = 1024},
                  {F(cdyn_task_system, enqueue), .cls = A_FN},
                  {F(cdyn_task_system, finish), .cls = A_FN}}},
    [S_RK45] = {"cdyn_rk45_options", sizeof(cdyn_rk45_options), fill_rk45,
                {{F(cdyn_rk45_options, abs_tol), .cls = A_NONNEG},
                 {F(cdyn_rk45_options, rel_tol), .cls = A_NONNEG},
                 {F(cdyn_rk45_options, initial_step), .cls = A_NONNEG},
                 {F(cdyn_rk45_options, max_step), .cls = A_NONNEG}}},
    [S_RK45_STATS] = {"cdyn_rk45_stats", sizeof(cdyn_rk45_stats), fill_report, {{0}}},
    [S_NEWTON] = {"cdyn_newton_options", sizeof(cdyn_newton_options), fill_newton,
                  {{F(cdyn_newton_options, tolerance), .cls = A_POS, .no = NOTBIG},
                   {F(cdyn_newton_options, max_iterations), .cls = A_RANGE, .lo = 1, .hi = 1000}}},
    [S_NEWTON_STATS] = {"cdyn_newton_stats", sizeof(cdyn_newton_stats), fill_report, {{0}}},
    [S_SOLVER] = {"cdyn_solver_options", sizeof(cdyn_solver_options), fill_solver,
                  {{F(cdyn_solver_options, solver), .cls = A_ENUM, .lo = 1, .hi = 2},
                   {F(cdyn_solver_options, ks), .cls = A_NONNEG},
                   {F(cdyn_solver_options, kd), .cls = A_NONNEG},
                   {F(cdyn_solver_options, cg_tolerance), .cls = A_POS},
                   {F(cdyn_solver_options, cg_max_iterations), .cls = A_RANGE, .lo = 1,
                    .hi = 4294967295.0}}},
    [S_SOLVER_STATS] = {"cdyn_solver_stats", sizeof(cdyn_solver_stats), fill_report, {{0}}},
    [S_PROJ] = {"cdyn_projection_options", sizeof(cdyn_projection_options), fill_projection,
                {{F(cdyn_projection_options, enabled), .cls = A_ENUM, .lo = 0, .hi = 1},
                 {F(cdyn_projection_options, method), .cls = A_ENUM, .lo = 1, .hi = 2},
                 {F(cdyn_projection_options, position_tolerance), .cls = A_POS,
                  .no = BIT(B_HUGE) | BIT(B_MAX)},
                 {F(cdyn_projection_options, velocity_tolerance), .cls = A_POS,
                  .no = BIT(B_HUGE) | BIT(B_MAX)},
                 {F(cdyn_projection_options, max_iterations), .cls = A_RANGE, .lo = 1,
                  .hi = 4294967295.0}}},
    [S_PROJ_STATS] = {"cdyn_projection_stats", sizeof(cdyn_projection_stats), fill_report, {{0}}},
    [S_MOTION_LIN] = {"cdyn_motion_desc (linear)", sizeof(cdyn_motion_desc), fill_motion_lin,
                      {KIND(cdyn_motion_desc, 1, 4), VEC3(cdyn_motion_desc, velocity),
                       VEC3(cdyn_motion_desc, acceleration)}},
    [S_MOTION_OSC] = {"cdyn_motion_desc (oscillation)", sizeof(cdyn_motion_desc),
                      fill_motion_osc,
                      {KIND(cdyn_motion_desc, 1, 4), VEC3(cdyn_motion_desc, amplitude),
                       {F(cdyn_motion_desc, frequency), .cls = A_FINITE, .may = OVERFLOWS,
                        .may_st = CDYN_ERR_DIVERGED},
                       {F(cdyn_motion_desc, phase), .cls = A_FINITE}}},
    [S_MOTION_ROT] = {"cdyn_motion_desc (rotation)", sizeof(cdyn_motion_desc), fill_motion_rot,
                      {KIND(cdyn_motion_desc, 1, 4), VEC3(cdyn_motion_desc, center),
                       VECNZ3(cdyn_motion_desc, axis),
                       {F(cdyn_motion_desc, angular_velocity), .cls = A_FINITE}}},
    [S_MOTION_CB] = {"cdyn_motion_desc (callback)", sizeof(cdyn_motion_desc), fill_motion_cb,
                     {KIND(cdyn_motion_desc, 1, 4), {F(cdyn_motion_desc, callback), .cls = A_FN}}},
    [S_SCHED_LIN] = {"cdyn_schedule_desc (linear)", sizeof(cdyn_schedule_desc), fill_sched_lin,
                     {KIND(cdyn_schedule_desc, 1, 3),
                      {F(cdyn_schedule_desc, rate), .cls = A_FINITE},
                      {F(cdyn_schedule_desc, acceleration), .cls = A_FINITE}}},
    [S_SCHED_OSC] = {"cdyn_schedule_desc (oscillation)", sizeof(cdyn_schedule_desc),
                     fill_sched_osc,
                     {KIND(cdyn_schedule_desc, 1, 3),
                      {F(cdyn_schedule_desc, amplitude), .cls = A_FINITE},
                      {F(cdyn_schedule_desc, frequency), .cls = A_FINITE, .may = OVERFLOWS,
                        .may_st = CDYN_ERR_DIVERGED},
                      {F(cdyn_schedule_desc, phase), .cls = A_FINITE}}},
    [S_SCHED_CB] = {"cdyn_schedule_desc (callback)", sizeof(cdyn_schedule_desc), fill_sched_cb,
                    {KIND(cdyn_schedule_desc, 1, 3),
                     {F(cdyn_schedule_desc, callback), .cls = A_FN}}},
    [S_PAIR_HERTZ] = {"cdyn_pair_params (Hertz)", sizeof(cdyn_pair_params), fill_hertz,
                      {KIND(cdyn_pair_params, 1, 5),
                       {F(cdyn_pair_params, stiffness), .cls = A_NONNEG},
                       {F(cdyn_pair_params, radius), .cls = A_POS},
                       {F(cdyn_pair_params, damping), .cls = A_NONNEG}}},
    [S_PAIR_WCA] = {"cdyn_pair_params (WCA)", sizeof(cdyn_pair_params), fill_wca,
                    {KIND(cdyn_pair_params, 1, 5),
                     {F(cdyn_pair_params, epsilon), .cls = A_NONNEG},
                     {F(cdyn_pair_params, sigma), .cls = A_POS},
                     {F(cdyn_pair_params, damping), .cls = A_NONNEG}}},
    [S_PAIR_LJ] = {"cdyn_pair_params (LJ)", sizeof(cdyn_pair_params), fill_lj,
                   {KIND(cdyn_pair_params, 1, 5),
                    {F(cdyn_pair_params, epsilon), .cls = A_NONNEG},
                    {F(cdyn_pair_params, sigma), .cls = A_POS, .may = DEGENERATE},
                    {F(cdyn_pair_params, cutoff), .cls = A_NONNEG, .may = DEGENERATE},
                    {F(cdyn_pair_params, damping), .cls = A_NONNEG}}},
    [S_PAIR_TABLE] = {"cdyn_pair_params (table)", sizeof(cdyn_pair_params), fill_table,
                      {KIND(cdyn_pair_params, 1, 5),
                       {F(cdyn_pair_params, table), .cls = A_BYTES, .n = 8,
                        .may = BIT(B_HUGE) | BIT(B_DUP)},
                       {F(cdyn_pair_params, table_size), .cls = A_RANGE, .lo = 2,
                        .hi = 16777216.0, .skip = BIT(B_Z_ABOVE)},
                       {F(cdyn_pair_params, cutoff), .cls = A_POS, .may = DEGENERATE},
                       {F(cdyn_pair_params, table_r_min), .cls = A_NONNEG,
                        .no = BIT(B_HUGE) | BIT(B_MAX)}}},
    [S_PAIR_CB] = {"cdyn_pair_params (callback)", sizeof(cdyn_pair_params), fill_pair_cb,
                   {KIND(cdyn_pair_params, 1, 5), {F(cdyn_pair_params, fn), .cls = A_FN},
                    {F(cdyn_pair_params, cutoff), .cls = A_POS, .may = DEGENERATE}}},
    [S_PAIR_STATS] = {"cdyn_pair_stats", sizeof(cdyn_pair_stats), fill_report, {{0}}},
    [S_LANGEVIN] = {"cdyn_langevin_options", sizeof(cdyn_langevin_options), fill_langevin,
                    {{F(cdyn_langevin_options, kT), .cls = A_NONNEG},
                     {F(cdyn_langevin_options, gamma), .cls = A_NONNEG}}},
    [S_CURVE_LINE] = {"cdyn_curve_desc (line)", sizeof(cdyn_curve_desc), fill_line,
                      {KIND(cdyn_curve_desc, 1, 7), VEC3(cdyn_curve_desc, origin),
                       VECNZ3(cdyn_curve_desc, axis1),
                       {F(cdyn_curve_desc, q_min), .cls = A_FINITE,
                        .skip = ~(BIT(B_NAN) | BIT(B_INF))},
                       {F(cdyn_curve_desc, q_max), .cls = A_FINITE,
                        .skip = ~(BIT(B_NAN) | BIT(B_NINF))}}},
    [S_CURVE_CIRCLE] = {"cdyn_curve_desc (circle)", sizeof(cdyn_curve_desc), fill_circle,
                        {KIND(cdyn_curve_desc, 1, 7), VEC3(cdyn_curve_desc, origin),
                         VECNZ3(cdyn_curve_desc, axis1), VECNZ3(cdyn_curve_desc, axis2),
                         {F(cdyn_curve_desc, radius), .cls = A_POS, .may = DEGENERATE},
                         {F(cdyn_curve_desc, q_min), .cls = A_FINITE,
                          .skip = ~(BIT(B_NAN) | BIT(B_INF))}}},
    [S_CURVE_PARABOLA] = {"cdyn_curve_desc (parabola)", sizeof(cdyn_curve_desc), fill_parabola,
                          {KIND(cdyn_curve_desc, 1, 7), VEC3(cdyn_curve_desc, origin),
                           VECNZ3(cdyn_curve_desc, axis1), VECNZ3(cdyn_curve_desc, axis2),
                           {F(cdyn_curve_desc, coefficient), .cls = A_FINITE, .may = DEGENERATE}}},
    [S_CURVE_HELIX] = {"cdyn_curve_desc (helix)", sizeof(cdyn_curve_desc), fill_helix,
                       {KIND(cdyn_curve_desc, 1, 7), VEC3(cdyn_curve_desc, origin),
                        VECNZ3(cdyn_curve_desc, axis1), VECNZ3(cdyn_curve_desc, axis2),
                        {F(cdyn_curve_desc, radius), .cls = A_POS, .may = DEGENERATE},
                        {F(cdyn_curve_desc, pitch), .cls = A_FINITE, .no = BIT(B_ZERO),
                         .may = DEGENERATE | BIT(B_NHUGE)}}},
    [S_CURVE_CYCLOID] = {"cdyn_curve_desc (cycloid)", sizeof(cdyn_curve_desc), fill_cycloid,
                         {KIND(cdyn_curve_desc, 1, 7), VEC3(cdyn_curve_desc, origin),
                          VECNZ3(cdyn_curve_desc, axis1), VECNZ3(cdyn_curve_desc, axis2),
                          {F(cdyn_curve_desc, radius), .cls = A_POS, .may = DEGENERATE}}},
    [S_CURVE_NATURAL] = {"cdyn_curve_desc (natural spline)", sizeof(cdyn_curve_desc),
                         fill_natural,
                         {KIND(cdyn_curve_desc, 1, 7),
                          {F(cdyn_curve_desc, points), .cls = A_BYTES, .n = 5, .lo = 1},
                          {F(cdyn_curve_desc, num_points), .cls = A_RANGE, .lo = 4, .hi = 5,
                           .skip = BIT(B_Z_ABOVE)},
                          {F(cdyn_curve_desc, spline_end), .cls = A_ENUM, .lo = 1, .hi = 3}}},
    [S_CURVE_CLAMPED] = {"cdyn_curve_desc (clamped spline)", sizeof(cdyn_curve_desc),
                         fill_clamped,
                         {KIND(cdyn_curve_desc, 1, 7),
                          {F(cdyn_curve_desc, points), .cls = A_BYTES, .n = 5, .lo = 1},
                          {F(cdyn_curve_desc, num_points), .cls = A_RANGE, .lo = 4, .hi = 5,
                           .skip = BIT(B_Z_ABOVE)},
                          {F(cdyn_curve_desc, start_tangent), .cls = A_VEC_NZ, .n = 3,
                           .may = BIT(B_HUGE)},
                          {F(cdyn_curve_desc, end_tangent), .cls = A_VEC_NZ, .n = 3,
                           .may = BIT(B_HUGE)}}},
    [S_CURVE_CLOSED] = {"cdyn_curve_desc (closed spline)", sizeof(cdyn_curve_desc), fill_closed,
                        {KIND(cdyn_curve_desc, 1, 7),
                         {F(cdyn_curve_desc, points), .cls = A_BYTES, .n = 5, .lo = 1},
                         {F(cdyn_curve_desc, num_points), .cls = A_RANGE, .lo = 4, .hi = 5,
                          .skip = BIT(B_Z_ABOVE)}}},
    [S_CURVE_CB] = {"cdyn_curve_desc (callback)", sizeof(cdyn_curve_desc), fill_curve_cb,
                    {KIND(cdyn_curve_desc, 1, 7), {F(cdyn_curve_desc, callback), .cls = A_FN},
                     {F(cdyn_curve_desc, q_min), .cls = A_FINITE,
                      .skip = ~(BIT(B_NAN) | BIT(B_NINF) | BIT(B_INF))},
                     {F(cdyn_curve_desc, q_max), .cls = A_FINITE,
                      .skip = ~(BIT(B_NAN) | BIT(B_NINF) | BIT(B_INF))}}},
    [S_SURF_PLANE] = {"cdyn_surface_desc (plane)", sizeof(cdyn_surface_desc), fill_splane,
                      {KIND(cdyn_surface_desc, 1, 5), VEC3(cdyn_surface_desc, origin),
                       {F(cdyn_surface_desc, axis1), .cls = A_VEC_NZ, .n = 3, .may = BIT(B_HUGE)},
                       {F(cdyn_surface_desc, axis2), .cls = A_VEC_NZ, .n = 3,
                        .may = BIT(B_HUGE)}}},
    [S_SURF_SPHERE] = {"cdyn_surface_desc (sphere)", sizeof(cdyn_surface_desc), fill_sphere,
                       {KIND(cdyn_surface_desc, 1, 5), VEC3(cdyn_surface_desc, origin),
                        VECNZ3(cdyn_surface_desc, axis1), VECNZ3(cdyn_surface_desc, axis2),
                        {F(cdyn_surface_desc, radius), .cls = A_POS, .may = DEGENERATE},
                        {F(cdyn_surface_desc, u_min), .cls = A_FINITE, .skip = ~BIT(B_NAN)}}},
    [S_SURF_TORUS] = {"cdyn_surface_desc (torus)", sizeof(cdyn_surface_desc), fill_torus,
                      {KIND(cdyn_surface_desc, 1, 5), VEC3(cdyn_surface_desc, origin),
                       VECNZ3(cdyn_surface_desc, axis1), VECNZ3(cdyn_surface_desc, axis2),
                       {F(cdyn_surface_desc, radius), .cls = A_POS, .no = BIT(B_TINY),
                        .may = BIT(B_HUGE) | BIT(B_MAX)},
                       {F(cdyn_surface_desc, minor_radius), .cls = A_POS, .may = BIT(B_TINY),
                        .no = BIT(B_HUGE) | BIT(B_MAX)}}},
    [S_SURF_HF] = {"cdyn_surface_desc (height field)", sizeof(cdyn_surface_desc), fill_surf_hf,
                   {KIND(cdyn_surface_desc, 1, 5),
                    {F(cdyn_surface_desc, heightfield), .cls = A_OUT}}},
    [S_SURF_CB] = {"cdyn_surface_desc (callback)", sizeof(cdyn_surface_desc), fill_surf_cb,
                   {KIND(cdyn_surface_desc, 1, 5), {F(cdyn_surface_desc, callback), .cls = A_FN},
                    {F(cdyn_surface_desc, u_min), .cls = A_FINITE, .skip = ~BIT(B_NAN)},
                    {F(cdyn_surface_desc, u_max), .cls = A_FINITE, .skip = ~BIT(B_NAN)},
                    {F(cdyn_surface_desc, v_min), .cls = A_FINITE, .skip = ~BIT(B_NAN)},
                    {F(cdyn_surface_desc, v_max), .cls = A_FINITE, .skip = ~BIT(B_NAN)}}},
    [S_HF] = {"cdyn_heightfield_desc", sizeof(cdyn_heightfield_desc), fill_hf,
              {{F(cdyn_heightfield_desc, nx), .cls = A_RANGE, .lo = 2, .hi = 5,
                .skip = BIT(B_Z_ABOVE)},
               {F(cdyn_heightfield_desc, ny), .cls = A_RANGE, .lo = 2, .hi = 4,
                .skip = BIT(B_Z_ABOVE)},
               {F(cdyn_heightfield_desc, origin[0]), .cls = A_FINITE, .no = FAR_EDGE},
               {F(cdyn_heightfield_desc, origin[1]), .cls = A_FINITE, .no = FAR_EDGE},
               {F(cdyn_heightfield_desc, spacing[0]), .cls = A_POS, .no = GRID_STEP,
                .may = BIT(B_TINY)},
               {F(cdyn_heightfield_desc, spacing[1]), .cls = A_POS, .no = GRID_STEP,
                .may = BIT(B_TINY)},
               {F(cdyn_heightfield_desc, samples), .cls = A_BYTES, .n = 20, .may = BIT(B_HUGE),
                .ok = BIT(B_DUP)},
               {F(cdyn_heightfield_desc, interpolation), .cls = A_ENUM, .lo = 1, .hi = 2},
               {F(cdyn_heightfield_desc, up_axis), .cls = A_ENUM, .lo = 0, .hi = 2}}},
    [S_HF2] = {"cdyn_heightfield_desc (profile)", sizeof(cdyn_heightfield_desc), fill_hf2,
               {{F(cdyn_heightfield_desc, nx), .cls = A_RANGE, .lo = 2, .hi = 5,
                 .skip = BIT(B_Z_ABOVE)},
                {F(cdyn_heightfield_desc, ny), .cls = A_RANGE, .lo = 1, .hi = 1},
                {F(cdyn_heightfield_desc, origin[0]), .cls = A_FINITE, .no = FAR_EDGE},
                {F(cdyn_heightfield_desc, spacing[0]), .cls = A_POS, .no = GRID_STEP,
                 .may = BIT(B_TINY)},
                {F(cdyn_heightfield_desc, samples), .cls = A_BYTES, .n = 5, .may = BIT(B_HUGE),
                 .ok = BIT(B_DUP)},
                {F(cdyn_heightfield_desc, interpolation), .cls = A_ENUM, .lo = 1, .hi = 2},
                {F(cdyn_heightfield_desc, up_axis), .cls = A_ENUM, .lo = 0, .hi = 2}}},
    [S_LAT_COUNTERS] = {"cdyn_lattice_counters", sizeof(cdyn_lattice_counters), fill_report,
                        {{0}}},
    [S_LAT_STATS] = {"cdyn_lattice_stats", sizeof(cdyn_lattice_stats), fill_report, {{0}}},
    [S_LAT_STATS_OPTS] = {"cdyn_lattice_stats_options", sizeof(cdyn_lattice_stats_options),
                          fill_stats_options,
                          {{F(cdyn_lattice_stats_options, area_min), .cls = A_NONNEG},
                           {F(cdyn_lattice_stats_options, area_max), .cls = A_NONNEG},
                           {F(cdyn_lattice_stats_options, hack_min), .cls = A_NONNEG},
                           {F(cdyn_lattice_stats_options, hack_max), .cls = A_NONNEG},
                           {F(cdyn_lattice_stats_options, points_per_decade), .cls = A_POS,
                            .no = BIT(B_TINY) | BIT(B_HUGE) | BIT(B_MAX)},
                           {F(cdyn_lattice_stats_options, threshold), .cls = A_NONNEG}}},
    [S_KIN_OPTS] = {"cdyn_kinetics_options", sizeof(cdyn_kinetics_options), fill_kin_options,
                    {{F(cdyn_kinetics_options, method), .cls = A_ENUM, .lo = 1, .hi = 3},
                     {F(cdyn_kinetics_options, rtol), .cls = A_POS, .no = NOTBIG},
                     {F(cdyn_kinetics_options, atol), .cls = A_POS},
                     {F(cdyn_kinetics_options, max_steps), .cls = A_RANGE, .lo = 1,
                      .hi = 18446744073709551615.0, .skip = BIT(B_Z_ABOVE) | BIT(B_CAP_HUGE)},
                     {F(cdyn_kinetics_options, initial_step), .cls = A_NONNEG},
                     {F(cdyn_kinetics_options, max_step), .cls = A_NONNEG},
                     {F(cdyn_kinetics_options, max_order), .cls = A_ENUM, .lo = 1, .hi = 5},
                     {F(cdyn_kinetics_options, max_newton_iterations), .cls = A_ENUM, .lo = 0,
                      .hi = 100}}},
    [S_KIN_STATS] = {"cdyn_kinetics_stats", sizeof(cdyn_kinetics_stats), fill_report, {{0}}},
};

const mx_struct *mx_struct_of(int s)
{
    return s >= 0 && s < S_COUNT ? &structs[s] : NULL;
}
