"""Constraints (constraint.h, parametric.h)."""
import numpy as np

from . import motion as _motion
from ._arrays import array_out, optional_vector_in, vector_in
from ._call import bound_property, binds, fail
from ._callbacks import TRAMPOLINES, Callback
from ._ffi import ffi, lib
from ._handle import Handle, handle_property, raw, read, remove, tagged, valid_property


_TAG_DOC = ("The integer a snapshot holds in place of its Python function (0 unless "
            "set); System.load gives it to its resolver.")


class Constraint(Handle):
    """A constraint of a System: rods, anchors, pins, planes, user rows,
    implicit curves and surfaces, particles on parametric shapes."""

    __slots__ = ()

    valid = valid_property("cdyn_constraint_is_valid")
    kind = handle_property("cdyn_constraint_get_kind", doc="Its ConstraintKind.")
    tag = handle_property("cdyn_constraint_get_tag", "cdyn_constraint_set_tag", doc=_TAG_DOC)
    row_count = handle_property("cdyn_constraint_get_row_count", doc="Its equations.")
    enabled = handle_property("cdyn_constraint_get_enabled", "cdyn_constraint_set_enabled",
                              doc="Whether it takes part in the solve.")
    compliance = handle_property("cdyn_constraint_get_compliance",
                                 "cdyn_constraint_set_compliance",
                                 doc="Compliance alpha >= 0 of its rows (0: rigid).")
    time_dependent = handle_property("cdyn_constraint_get_time_dependent",
                                     "cdyn_constraint_set_time_dependent",
                                     doc="Whether its callback depends on time.")
    point = handle_property("cdyn_constraint_get_point", shape="dim",
                            doc="An anchor's or pin's point now (dim values).")
    length = handle_property("cdyn_constraint_get_length",
                             doc="A rod's or anchor's length now.")
    coordinate_count = handle_property("cdyn_constraint_get_coordinate_count",
                                       doc="Generalized coordinates: 1 curve, 2 surface.")

    @binds("cdyn_constraint_remove")
    def remove(self):
        remove(self, "cdyn_constraint_remove")

    @property
    @binds("cdyn_constraint_get_multipliers")
    def multipliers(self):
        """Its multipliers at the last force evaluation (row_count values)."""
        n = self.row_count
        arr, out = array_out((n,))
        st = lib.cdyn_constraint_get_multipliers(self.system._checked(), self.handle,
                                                 out if n else ffi.NULL, n)
        if st:
            fail(self.system, st, "cdyn_constraint_get_multipliers")
        return arr

    @binds("cdyn_constraint_get_force")
    def force(self, particle):
        """The force (N, dim values) it exerts on `particle`."""
        return read(self.system, "cdyn_constraint_get_force", (self.handle, raw(particle)),
                    "dim")

    @binds("cdyn_constraint_get_coordinates")
    def get_coordinates(self):
        """(q, qdot) of a particle on a curve (1 value each) or surface (2)."""
        n = self.coordinate_count
        q, pq = array_out((n,))
        qd, pqd = array_out((n,))
        st = lib.cdyn_constraint_get_coordinates(self.system._checked(), self.handle, pq, pqd)
        if st:
            fail(self.system, st, "cdyn_constraint_get_coordinates")
        return q, qd

    @binds("cdyn_constraint_set_coordinates")
    def set_coordinates(self, q=None, qdot=None):
        """Sets the coordinates and/or their rates (None keeps them)."""
        n = self.coordinate_count
        st = lib.cdyn_constraint_set_coordinates(self.system._checked(), self.handle,
                                                 optional_vector_in(q, n, "q"),
                                                 optional_vector_in(qdot, n, "qdot"))
        if st:
            fail(self.system, st, "cdyn_constraint_set_coordinates")

    def _get_motion(self):
        return _motion.attached(self.system, "cdyn_constraint_get_motion", self.handle,
                                _motion.Motion)

    def _set_motion(self, m):
        _motion.attach(self.system, "cdyn_constraint_set_motion", self.handle, m, "Motion")

    motion = bound_property(_get_motion, _set_motion,
                            "The Motion moving its geometry, or None.",
                            ["cdyn_constraint_get_motion", "cdyn_constraint_set_motion"])

    def _get_schedule(self):
        return _motion.attached(self.system, "cdyn_constraint_get_length_schedule",
                                self.handle, _motion.Schedule)

    def _set_schedule(self, s):
        _motion.attach(self.system, "cdyn_constraint_set_length_schedule", self.handle, s,
                       "Schedule")

    length_schedule = bound_property(_get_schedule, _set_schedule,
                                     "The Schedule driving its length, or None.",
                                     ["cdyn_constraint_get_length_schedule",
                                      "cdyn_constraint_set_length_schedule"])


class ConstraintsMixin:
    """System methods that add constraints."""

    def _new_constraint(self, fname, *args):
        out = ffi.new("cdyn_constraint *")
        st = getattr(lib, fname)(self._checked(), *args, out)
        if st:
            fail(self, st, fname)
        return Constraint(self, out[0])

    @binds("cdyn_constraint_add_distance")
    def add_distance(self, a, b, length):
        """A rod of `length` between particles a and b."""
        return self._new_constraint("cdyn_constraint_add_distance", raw(a), raw(b), length)

    @binds("cdyn_constraint_add_anchor")
    def add_anchor(self, particle, anchor, length):
        """A rod of `length` from the fixed point `anchor`."""
        return self._new_constraint("cdyn_constraint_add_anchor", raw(particle),
                                    vector_in(anchor, self.dimension, "anchor"), length)

    @binds("cdyn_constraint_add_pin")
    def add_pin(self, particle, point):
        """Holds `particle` at `point`."""
        return self._new_constraint("cdyn_constraint_add_pin", raw(particle),
                                    vector_in(point, self.dimension, "point"))

    @binds("cdyn_constraint_add_plane")
    def add_plane(self, particle, normal, offset):
        """Keeps `particle` on normal . x = offset (a line in 2-D)."""
        return self._new_constraint("cdyn_constraint_add_plane", raw(particle),
                                    vector_in(normal, self.dimension, "normal"), offset)

    @binds("cdyn_constraint_add_user")
    def add_user_constraint(self, particles, rows, fn, tag=None):
        """`rows` equations g = 0 on `particles`, from
        fn(sys, t, x, v, g, G, velocity_terms[, g_t]): x, v read-only
        (n, dim); write g (rows,), G (rows, n, dim) and velocity_terms
        (rows,); g_t (rows,) comes when declared time-dependent. `tag`: its
        snapshot tag."""
        arr = np.asarray([raw(p) for p in particles], dtype=np.uint64)
        cb = Callback(fn)
        c = self._new_constraint("cdyn_constraint_add_user",
                                 ffi.from_buffer("cdyn_particle[]", arr), arr.size, rows,
                                 TRAMPOLINES["cdyn_constraint_fn"], cb.handle)
        self._keep_for(c.handle, "constraint", cb)
        return tagged(c, tag)

    @binds("cdyn_constraint_add_implicit")
    def add_implicit(self, particle, fn, tag=None):
        """Keeps `particle` on c(x) = 0 given by fn(sys, t, x, gradient,
        hessian) -> c: write the gradient (dim,) and Hessian (dim, dim) into
        the views given; when declared time-dependent fn also receives c_t,
        gradient_t and c_tt to fill (or leave NaN for differences). `tag`:
        its snapshot tag."""
        cb = Callback(fn)
        c = self._new_constraint("cdyn_constraint_add_implicit", raw(particle),
                                 TRAMPOLINES["cdyn_implicit_fn"], cb.handle)
        self._keep_for(c.handle, "constraint", cb)
        return tagged(c, tag)

    @binds("cdyn_constraint_add_on_curve")
    def add_on_curve(self, particle, curve):
        """Puts `particle` on a Curve, in generalized coordinates."""
        c = self._new_constraint("cdyn_constraint_add_on_curve", raw(particle),
                                 curve._desc())
        self._keep_for(c.handle, "shape", curve if curve.callback else None)
        return c

    @binds("cdyn_constraint_add_on_surface")
    def add_on_surface(self, particle, surface):
        """Puts `particle` on a Surface (3-D), in generalized coordinates."""
        c = self._new_constraint("cdyn_constraint_add_on_surface", raw(particle),
                                 surface._desc())
        self._keep_for(c.handle, "shape", surface if surface.callback else None)
        return c
