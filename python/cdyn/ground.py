"""Grounds (ground.h): surfaces H(x) = 0 that push particles back out."""
from . import motion as _motion
from ._arrays import array_out, vector_in
from ._call import bound_property, binds, fail
from ._callbacks import TRAMPOLINES, Callback
from ._ffi import ffi, lib
from ._handle import Handle, handle_property, raw, read, remove, valid_property
from .shapes import HeightField


_TAG_DOC = ("The integer a snapshot holds in place of its Python function (0 unless "
            "set); System.load gives it to its resolver.")


class Ground(Handle):
    """A ground of a System."""

    __slots__ = ()

    valid = valid_property("cdyn_ground_is_valid")
    kind = handle_property("cdyn_ground_get_kind", doc="Its GroundKind.")
    tag = handle_property("cdyn_ground_get_tag", "cdyn_ground_set_tag", doc=_TAG_DOC)
    stiffness = handle_property("cdyn_ground_get_stiffness", "cdyn_ground_set_stiffness",
                                doc="Penalty stiffness S (N/m).")
    damping = handle_property("cdyn_ground_get_damping", "cdyn_ground_set_damping",
                              doc="Normal damping c (N s/m).")
    friction = handle_property("cdyn_ground_get_friction", "cdyn_ground_set_friction",
                               doc="Friction coefficient mu.")
    friction_speed = handle_property("cdyn_ground_get_friction_speed",
                                     "cdyn_ground_set_friction_speed",
                                     doc="Friction speed v_s (m/s).")
    surface_velocity = handle_property("cdyn_ground_get_surface_velocity",
                                       "cdyn_ground_set_surface_velocity", "dim",
                                       "Velocity of its surface material (a conveyor).")
    contact_count = handle_property("cdyn_ground_get_contact_count",
                                    doc="Movable particles below it now.")
    energy = handle_property("cdyn_ground_get_energy", doc="Its penalty energy now (J).")

    @binds("cdyn_ground_remove")
    def remove(self):
        remove(self, "cdyn_ground_remove")

    @binds("cdyn_ground_evaluate")
    def evaluate(self, x):
        """(H(x), grad H(x)) as the library sees the ground."""
        d = self.system.dimension
        h = ffi.new("double *")
        g, pg = array_out((d,))
        st = lib.cdyn_ground_evaluate(self.system._checked(), self.handle,
                                      vector_in(x, d, "x"), h, pg)
        if st:
            fail(self.system, st, "cdyn_ground_evaluate")
        return h[0], g

    @binds("cdyn_ground_get_velocity")
    def velocity_at(self, x):
        """Velocity of the ground's material at x, now."""
        d = self.system.dimension
        return read(self.system, "cdyn_ground_get_velocity",
                    (self.handle, vector_in(x, d, "x")), "dim")

    @binds("cdyn_ground_get_penetration")
    def penetration(self, particle):
        """Depth of `particle` below the ground (0 above it)."""
        return read(self.system, "cdyn_ground_get_penetration", (self.handle, raw(particle)))

    @binds("cdyn_ground_get_total_force")
    def total_force(self):
        """(normal, friction): the sums of the forces it exerts now (3 each)."""
        n, pn = array_out((3,))
        f, pf = array_out((3,))
        st = lib.cdyn_ground_get_total_force(self.system._checked(), self.handle, pn, pf)
        if st:
            fail(self.system, st, "cdyn_ground_get_total_force")
        return n, f

    @binds("cdyn_ground_get_jacobian")
    def jacobian(self, particle):
        """(dF/dx, dF/dv) of its force on `particle`, (dim, dim) each."""
        d = self.system.dimension
        dx, pdx = array_out((d, d))
        dv, pdv = array_out((d, d))
        st = lib.cdyn_ground_get_jacobian(self.system._checked(), self.handle, raw(particle),
                                          pdx, pdv)
        if st:
            fail(self.system, st, "cdyn_ground_get_jacobian")
        return dx, dv

    def _get_motion(self):
        return _motion.attached(self.system, "cdyn_ground_get_motion", self.handle,
                                _motion.Motion)

    def _set_motion(self, m):
        _motion.attach(self.system, "cdyn_ground_set_motion", self.handle, m, "Motion")

    motion = bound_property(_get_motion, _set_motion, "The Motion moving it, or None.",
                            ["cdyn_ground_get_motion", "cdyn_ground_set_motion"])


class GroundsMixin:
    """System methods that add grounds."""

    def _new_ground(self, fname, *args, **settings):
        out = ffi.new("cdyn_ground *")
        st = getattr(lib, fname)(self._checked(), *args, out)
        if st:
            fail(self, st, fname)
        g = Ground(self, out[0])
        try:
            for name, value in settings.items():
                if not isinstance(getattr(Ground, name, None), property) or name in (
                        "kind", "contact_count", "energy", "valid"):
                    raise TypeError("unknown ground setting %r" % name)
                setattr(g, name, value)
        except BaseException:
            g.remove()  # all or nothing
            raise
        return g

    @binds("cdyn_ground_add_plane")
    def add_ground_plane(self, normal, offset=0.0, **settings):
        """The plane normal . x = offset; the side `normal` points to is
        above. `settings`: stiffness, damping, friction, friction_speed,
        surface_velocity."""
        return self._new_ground("cdyn_ground_add_plane",
                                vector_in(normal, self.dimension, "normal"), offset, **settings)

    @binds("cdyn_ground_add_sphere")
    def add_ground_sphere(self, center, radius, inside=False, **settings):
        """A solid ball (or, inside=True, a bowl) of `radius` about `center`."""
        return self._new_ground("cdyn_ground_add_sphere",
                                vector_in(center, self.dimension, "center"), radius,
                                bool(inside), **settings)

    @binds("cdyn_ground_add_heightfield")
    def add_ground_heightfield(self, heightfield, **settings):
        """A height-field ground (a HeightField; in 2-D a profile of nx heights)."""
        if not isinstance(heightfield, HeightField):
            raise TypeError("heightfield: expected a HeightField")
        return self._new_ground("cdyn_ground_add_heightfield", heightfield._desc(), **settings)

    @binds("cdyn_ground_add_callback")
    def add_ground(self, fn, **settings):
        """A ground from fn(sys, t, x, grad, velocity) -> H: write grad H
        (dim,) and the material's velocity (dim, zero if it does not move)
        into the views given, return H (positive above)."""
        cb = Callback(fn)
        g = self._new_ground("cdyn_ground_add_callback", TRAMPOLINES["cdyn_ground_fn"],
                             cb.handle, **settings)
        self._keep_for(g.handle, "ground", cb)
        return g
