"""System options and reports: integrator tolerances, the constraint
solver, projection, backward Euler's Newton iteration, and their reports."""
from . import _structs
from ._arrays import array_out
from ._call import bound_property, binds, fail
from ._ffi import ffi, lib
from ._handle import system_property


def _pair_getter(fname, ctypes):
    def fget(self):
        outs = [ffi.new(c + " *") for c in ctypes]
        st = getattr(lib, fname)(self._checked(), *outs)
        if st:
            fail(self, st, fname)
        return tuple(o[0] for o in outs)
    return fget


def _report_property(fname, ctype, doc):
    def fget(self):
        out = _structs.new(ctype)
        st = getattr(lib, fname)(self._checked(), out)
        if st:
            fail(self, st, fname)
        return self._report(out, ctype)
    return bound_property(fget, None, doc, [fname])


class OptionsMixin:
    """System options and reports."""

    def _report(self, out, ctype):
        if ctype == "cdyn_projection_stats":
            from .constraint import Constraint
            return _structs.to_dataclass(out, ctype, worst=Constraint(self, out.worst)
                                         if out.worst else None)
        return _structs.to_dataclass(out, ctype)

    integrator = system_property("cdyn_system_get_integrator", "cdyn_system_set_integrator",
                                 doc="The Integrator (a member, its value or its name).")

    @binds("cdyn_system_set_rk45_tolerance")
    def set_rk45_tolerance(self, abs_tol=1e-9, rel_tol=1e-9):
        """Error tolerances of the RK45 integrator."""
        st = lib.cdyn_system_set_rk45_tolerance(self._checked(), abs_tol, rel_tol)
        if st:
            fail(self, st, "cdyn_system_set_rk45_tolerance")

    rk45_counts = bound_property(_pair_getter("cdyn_system_get_rk45_counts",
                                              ("uint64_t", "uint64_t")), None,
                                 "(accepted, rejected) internal RK45 steps.",
                                 ["cdyn_system_get_rk45_counts"])

    @binds("cdyn_system_set_newton_options")
    def set_newton_options(self, tolerance=1e-10, max_iterations=20):
        """Backward Euler's Newton tolerance and iteration cap."""
        st = lib.cdyn_system_set_newton_options(self._checked(), tolerance, max_iterations)
        if st:
            fail(self, st, "cdyn_system_set_newton_options")

    newton_options = bound_property(_pair_getter("cdyn_system_get_newton_options",
                                                 ("double", "size_t")), None,
                                    "(tolerance, max_iterations) of backward Euler.",
                                    ["cdyn_system_get_newton_options"])
    newton_stats = _report_property(
        "cdyn_system_get_newton_stats", "cdyn_newton_stats",
        "Report of backward Euler's Newton iterations (NewtonStats).")

    @binds("cdyn_system_get_newton_residuals")
    def newton_residuals(self):
        """The scaled residuals of the last backward Euler step, one per iterate."""
        ptr = self._checked()
        count = ffi.new("size_t *")
        st = lib.cdyn_system_get_newton_residuals(ptr, ffi.NULL, 0, count)
        if st:
            fail(self, st, "cdyn_system_get_newton_residuals")
        arr, out = array_out((count[0],))
        st = lib.cdyn_system_get_newton_residuals(ptr, out if count[0] else ffi.NULL,
                                                  count[0], count)
        if st:
            fail(self, st, "cdyn_system_get_newton_residuals")
        return arr

    def _set_gains(self, gains):
        ks, kd = gains
        st = lib.cdyn_system_set_constraint_gains(self._checked(), ks, kd)
        if st:
            fail(self, st, "cdyn_system_set_constraint_gains")

    constraint_gains = bound_property(_pair_getter("cdyn_system_get_constraint_gains",
                                                   ("double", "double")), _set_gains,
                                      "Drift-feedback gains (ks, kd).",
                                      ["cdyn_system_get_constraint_gains",
                                       "cdyn_system_set_constraint_gains"])

    @binds("cdyn_system_set_constraint_solver")
    def set_constraint_solver(self, solver):
        """The multipliers' linear solver (ConstraintSolver or 'direct', 'cg')."""
        from ._enums import ENUMS, coerce
        st = lib.cdyn_system_set_constraint_solver(
            self._checked(), coerce(ENUMS["cdyn_constraint_solver"], solver, "solver"))
        if st:
            fail(self, st, "cdyn_system_set_constraint_solver")

    @binds("cdyn_system_set_cg_options")
    def set_cg_options(self, tolerance=1e-10, max_iterations=1000):
        """Conjugate gradients' relative tolerance and iteration cap."""
        st = lib.cdyn_system_set_cg_options(self._checked(), tolerance, max_iterations)
        if st:
            fail(self, st, "cdyn_system_set_cg_options")

    solver_stats = _report_property(
        "cdyn_system_get_solver_stats", "cdyn_solver_stats",
        "The constraint solver's report (SolverStats).")

    @binds("cdyn_system_set_projection", "cdyn_projection_options_init")
    def set_projection(self, **options):
        """Projection options: the fields of cdyn_projection_options (enabled,
        method, position_tolerance, velocity_tolerance, max_iterations),
        the others at the defaults of cdyn_projection_options_init."""
        p = _structs.new("cdyn_projection_options", lib.cdyn_projection_options_init)
        _structs.fill(p, "cdyn_projection_options", options, "set_projection")
        st = lib.cdyn_system_set_projection(self._checked(), p)
        if st:
            fail(self, st, "cdyn_system_set_projection")

    projection = _report_property(
        "cdyn_system_get_projection", "cdyn_projection_options",
        "The projection options in use (ProjectionOptions).")
    projection_stats = _report_property(
        "cdyn_system_get_projection_stats", "cdyn_projection_stats",
        "What the projections did (ProjectionStats).")
