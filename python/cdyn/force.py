"""Force generators (force.h) and pair potentials (pair.h)."""
import numpy as np

from . import _enums, _structs
from ._arrays import vector_in
from ._call import binds, fail
from ._callbacks import TRAMPOLINES, Callback
from ._ffi import ffi, lib
from ._handle import Handle, handle_property, raw, read, remove, valid_property


class Force(Handle):
    """A force generator of a System."""

    __slots__ = ()

    valid = valid_property("cdyn_force_is_valid")
    kind = handle_property("cdyn_force_get_kind", doc="Its ForceKind.")
    energy = handle_property("cdyn_force_get_energy", doc="Potential energy (J), now.")
    tension = handle_property("cdyn_force_get_spring_tension",
                              doc="A spring's tension (N), positive when stretched.")

    @binds("cdyn_force_remove")
    def remove(self):
        remove(self, "cdyn_force_remove")

    @binds("cdyn_force_set_pair_radius")
    def set_pair_radius(self, particle, radius):
        """The Hertz radius of one particle of this pair generator."""
        st = lib.cdyn_force_set_pair_radius(self.system._checked(), self.handle, raw(particle),
                                            radius)
        if st:
            fail(self.system, st, "cdyn_force_set_pair_radius")

    @binds("cdyn_force_get_pair_radius")
    def pair_radius(self, particle):
        return read(self.system, "cdyn_force_get_pair_radius", (self.handle, raw(particle)))

    @binds("cdyn_force_get_pair_contacts")
    def pair_contacts(self):
        """The pairs within the cutoff now, as a list of (Particle, Particle)
        in the order of the force summation."""
        from .particle import Particle
        ptr = self.system._checked()
        count = ffi.new("size_t *")
        st = lib.cdyn_force_get_pair_contacts(ptr, self.handle, ffi.NULL, 0, count)
        if st:
            fail(self.system, st, "cdyn_force_get_pair_contacts")
        n = count[0]
        out = np.empty((n, 2), dtype=np.uint64)
        st = lib.cdyn_force_get_pair_contacts(ptr, self.handle,
                                              ffi.from_buffer("cdyn_particle[]", out), n, count)
        if st:
            fail(self.system, st, "cdyn_force_get_pair_contacts")
        return [(Particle(self.system, a), Particle(self.system, b)) for a, b in out[:count[0]]]


def _pair_params(kind, params):
    k = _enums.coerce(_enums.ENUMS["cdyn_pair_kind"], kind, "pair kind")
    p = _structs.new("cdyn_pair_params")
    st = lib.cdyn_pair_params_init(p, k)
    if st:
        fail(None, st, "cdyn_pair_params_init")
    return _structs.fill(p, "cdyn_pair_params", params, "pair parameters", ("kind",))


def _handles(objs, name):
    arr = np.asarray([raw(o) for o in np.ravel(np.asarray(objs, dtype=object))],
                     dtype=np.uint64)
    return arr, ffi.from_buffer("cdyn_particle[]", arr)


class ForcesMixin:
    """System methods that add force generators."""

    def _new_force(self, fname, *args):
        out = ffi.new("cdyn_force *")
        st = getattr(lib, fname)(self._checked(), *args, out)
        if st:
            fail(self, st, fname)
        return Force(self, out[0])

    @binds("cdyn_force_add_gravity")
    def add_gravity(self, g):
        """Uniform gravity, F = m g (g: dim values, m/s^2)."""
        return self._new_force("cdyn_force_add_gravity", vector_in(g, self.dimension, "g"))

    @binds("cdyn_force_add_spring")
    def add_spring(self, a, b, stiffness, rest_length, damping=0.0):
        """A spring with a dashpot between particles a and b."""
        return self._new_force("cdyn_force_add_spring", raw(a), raw(b), stiffness, damping,
                               rest_length)

    @binds("cdyn_force_add_drag")
    def add_drag(self, coefficient):
        """Linear drag F = -b v on every particle."""
        return self._new_force("cdyn_force_add_drag", coefficient)

    @binds("cdyn_force_add_callback", "cdyn_force_add_callback_with_jacobian")
    def add_force(self, fn, velocity_dependent=False, jacobian=None):
        """A force from fn(sys, t, x, v, f): x and v read-only (n, dim) views,
        f a writable (n, dim) view to add the forces into. `jacobian`, for
        backward Euler: jacobian(sys, t, x, v, jac) calls
        jac.add_block(i, j, dfdx, dfdv)."""
        cb = Callback(fn)
        if jacobian is None:
            force = self._new_force("cdyn_force_add_callback", TRAMPOLINES["cdyn_force_fn"],
                                    cb.handle, bool(velocity_dependent))
            self._keep_for(force.handle, "force", cb)
            return force
        # One handle serves both functions: the Jacobian rides in `extra`.
        cb.extra = jacobian
        force = self._new_force("cdyn_force_add_callback_with_jacobian",
                                TRAMPOLINES["cdyn_force_fn"],
                                TRAMPOLINES["cdyn_force_jacobian_fn"], cb.handle,
                                bool(velocity_dependent))
        self._keep_for(force.handle, "force", cb)
        return force

    @binds("cdyn_force_add_pairs", "cdyn_pair_params_init")
    def add_pairs(self, pairs, kind="hertz", **params):
        """A pair generator on the listed pairs ((k, 2) particles); params
        are the fields of cdyn_pair_params (stiffness, radius, epsilon, sigma,
        damping) with the defaults of cdyn_pair_params_init for `kind`."""
        p = _pair_params(kind, params)
        arr, ptr = _handles(pairs, "pairs")
        if arr.size % 2:
            raise ValueError("pairs: expected (k, 2) particles, got %d" % arr.size)
        return self._new_force("cdyn_force_add_pairs", p, ptr, arr.size // 2)

    @binds("cdyn_force_add_pair_set", "cdyn_pair_params_init")
    def add_pair_set(self, particles, kind="hertz", **params):
        """A pair generator on every pair of `particles` within the cutoff."""
        p = _pair_params(kind, params)
        arr, ptr = _handles(particles, "particles")
        return self._new_force("cdyn_force_add_pair_set", p, ptr, arr.size)

