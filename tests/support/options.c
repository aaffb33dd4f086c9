/* One option changed, the others kept (support.h). */
#include "support.h"

cdyn_status ts_set_gains(cdyn_system *sys, double ks, double kd)
{
    cdyn_solver_options o = {.size = sizeof o};
    cdyn_status st = cdyn_system_get_solver_options(sys, &o);
    o.ks = ks;
    o.kd = kd;
    return st ? st : cdyn_system_set_solver_options(sys, &o);
}

cdyn_status ts_set_solver(cdyn_system *sys, cdyn_constraint_solver solver)
{
    cdyn_solver_options o = {.size = sizeof o};
    cdyn_status st = cdyn_system_get_solver_options(sys, &o);
    o.solver = solver;
    return st ? st : cdyn_system_set_solver_options(sys, &o);
}

cdyn_status ts_set_cg(cdyn_system *sys, double tolerance, size_t max_iterations)
{
    cdyn_solver_options o = {.size = sizeof o};
    cdyn_status st = cdyn_system_get_solver_options(sys, &o);
    o.cg_tolerance = tolerance;
    o.cg_max_iterations = max_iterations;
    return st ? st : cdyn_system_set_solver_options(sys, &o);
}

cdyn_status ts_set_rk45_tolerance(cdyn_system *sys, double abs_tol, double rel_tol)
{
    cdyn_rk45_options o = {.size = sizeof o};
    cdyn_status st = cdyn_system_get_rk45_options(sys, &o);
    o.abs_tol = abs_tol;
    o.rel_tol = rel_tol;
    return st ? st : cdyn_system_set_rk45_options(sys, &o);
}

cdyn_status ts_set_newton(cdyn_system *sys, double tolerance, size_t max_iterations)
{
    cdyn_newton_options o = {.size = sizeof o};
    cdyn_status st = cdyn_system_get_newton_options(sys, &o);
    o.tolerance = tolerance;
    o.max_iterations = max_iterations;
    return st ? st : cdyn_system_set_newton_options(sys, &o);
}
