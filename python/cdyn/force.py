"""Force generators (force.h) and pair potentials (pair.h)."""
import collections

import numpy as np

from . import _enums, _structs
from ._arrays import array_in, vector_in
from ._call import binds, fail
from ._callbacks import TRAMPOLINES, Callback
from ._ffi import ffi, lib
from ._handle import Handle, handle_property, raw, read, remove, tagged, valid_property


Spring = collections.namedtuple("Spring", "stiffness damping rest_length")


_TAG_DOC = ("The integer a snapshot holds in place of its Python function (0 unless "
            "set); System.load gives it to its resolver.")


class Force(Handle):
    """A force generator of a System."""

    __slots__ = ()

    valid = valid_property("cdyn_force_is_valid")
    kind = handle_property("cdyn_force_get_kind", doc="Its ForceKind.")
    tag = handle_property("cdyn_force_get_tag", "cdyn_force_set_tag", doc=_TAG_DOC)
    energy = handle_property("cdyn_force_get_energy", doc="Potential energy (J), now.")
    tension = handle_property("cdyn_force_get_spring_tension",
                              doc="A spring's tension (N), positive when stretched.")

    gravity = handle_property("cdyn_force_get_gravity", "cdyn_force_set_gravity", "dim",
                              "A gravity generator's field g (m/s^2).")
    drag = handle_property("cdyn_force_get_drag", "cdyn_force_set_drag",
                           doc="A drag generator's coefficient b (N s/m).")

    @property
    @binds("cdyn_force_get_spring")
    def spring(self):
        """A spring's (stiffness, damping, rest_length)."""
        out = [ffi.new("double *") for _ in range(3)]
        st = lib.cdyn_force_get_spring(self.system._checked(), self.handle, *out)
        if st:
            fail(self.system, st, "cdyn_force_get_spring")
        return Spring(*(o[0] for o in out))

    @binds("cdyn_force_set_spring")
    def set_spring(self, stiffness=None, damping=None, rest_length=None):
        """Changes a spring's stiffness, damping and/or rest length (None
        keeps a value); its ends stay."""
        now = self.spring
        st = lib.cdyn_force_set_spring(
            self.system._checked(), self.handle,
            now.stiffness if stiffness is None else stiffness,
            now.damping if damping is None else damping,
            now.rest_length if rest_length is None else rest_length)
        if st:
            fail(self.system, st, "cdyn_force_set_spring")

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

    pair_skin = handle_property("cdyn_force_get_pair_skin", "cdyn_force_set_pair_skin",
                                doc="A pair set's neighbour-list skin (m).")
    pair_exclude_bonded = handle_property(
        "cdyn_force_get_pair_exclude_bonded", "cdyn_force_set_pair_exclude_bonded",
        doc="Bonded exclusions of a pair set: 0 none, 1 bonded pairs, 2 also two bonds apart.")

    @binds("cdyn_force_add_pair_exclusions")
    def add_pair_exclusions(self, pairs):
        """Leaves the (k, 2) pairs of particles out of this pair set."""
        arr, ptr = _handles(pairs, "pairs")
        if arr.size % 2:
            raise ValueError("pairs: expected (k, 2) particles, got %d" % arr.size)
        st = lib.cdyn_force_add_pair_exclusions(self.system._checked(), self.handle, ptr,
                                                arr.size // 2)
        if st:
            fail(self.system, st, "cdyn_force_add_pair_exclusions")

    @binds("cdyn_force_clear_pair_exclusions")
    def clear_pair_exclusions(self):
        st = lib.cdyn_force_clear_pair_exclusions(self.system._checked(), self.handle)
        if st:
            fail(self.system, st, "cdyn_force_clear_pair_exclusions")

    @property
    @binds("cdyn_force_get_pair_stats")
    def pair_stats(self):
        """A pair set's neighbour-list counters (PairStats)."""
        out = _structs.new("cdyn_pair_stats")
        st = lib.cdyn_force_get_pair_stats(self.system._checked(), self.handle, out)
        if st:
            fail(self.system, st, "cdyn_force_get_pair_stats")
        return _structs.to_dataclass(out, "cdyn_pair_stats")

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
    """The C parameters of a pair generator, and what must outlive them (a
    table's samples, a callback potential's Callback)."""
    params = dict(params)
    table, fn = params.pop("table", None), params.pop("fn", None)
    k = _enums.coerce(_enums.ENUMS["cdyn_pair_kind"], kind, "pair kind")
    p = _structs.new("cdyn_pair_params")
    st = lib.cdyn_pair_params_init(p, k)
    if st:
        fail(None, st, "cdyn_pair_params_init")
    _structs.fill(p, "cdyn_pair_params", params, "pair parameters",
                  ("kind", "table_size", "user"))
    keep = []
    if table is not None:  # (n, 2) samples (U_k, F_k)
        arr = np.asarray(table)
        if arr.ndim != 2 or arr.shape[1] != 2:
            raise ValueError("table: expected (n, 2) samples (U_k, F_k), got shape %s"
                             % (arr.shape,))
        arr, ptr = array_in(arr, arr.shape, "table")
        p.table, p.table_size = ptr, arr.shape[0]
        keep.append(ptr)
    if fn is not None:  # fn(sys, t, i, j, r) -> (U, F, dF/dr)
        cb = Callback(fn)
        p.fn, p.user = TRAMPOLINES["cdyn_pair_fn"], cb.handle
        keep.append(cb)
    return p, keep


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
    def add_force(self, fn, velocity_dependent=False, jacobian=None, tag=None):
        """A force from fn(sys, t, x, v, f): x and v read-only (n, dim) views,
        f a writable (n, dim) view to add the forces into. `jacobian`, for
        backward Euler: jacobian(sys, t, x, v, jac) calls
        jac.add_block(i, j, dfdx, dfdv). `tag`: its snapshot tag."""
        cb = Callback(fn)
        if jacobian is None:
            force = self._new_force("cdyn_force_add_callback", TRAMPOLINES["cdyn_force_fn"],
                                    cb.handle, bool(velocity_dependent))
            self._keep_for(force.handle, "force", cb)
            return tagged(force, tag)
        # One handle serves both functions: the Jacobian rides in `extra`.
        cb.extra = jacobian
        force = self._new_force("cdyn_force_add_callback_with_jacobian",
                                TRAMPOLINES["cdyn_force_fn"],
                                TRAMPOLINES["cdyn_force_jacobian_fn"], cb.handle,
                                bool(velocity_dependent))
        self._keep_for(force.handle, "force", cb)
        return tagged(force, tag)

    @binds("cdyn_force_add_pairs", "cdyn_pair_params_init")
    def add_pairs(self, pairs, kind="hertz", **params):
        """A pair generator on the listed pairs ((k, 2) particles). `params`
        are the fields of cdyn_pair_params (stiffness, radius, epsilon, sigma,
        damping, cutoff, shift, table_r_min, ...) with the defaults of
        cdyn_pair_params_init for `kind`; kind 'table' takes table=(n, 2)
        samples (U_k, F_k), kind 'callback' fn(sys, t, i, j, r) returning
        (U, F, dF/dr), whose snapshot tag is `tag`."""
        tag = params.pop("tag", None)
        p, keep = _pair_params(kind, params)
        arr, ptr = _handles(pairs, "pairs")
        if arr.size % 2:
            raise ValueError("pairs: expected (k, 2) particles, got %d" % arr.size)
        return tagged(self._kept(self._new_force("cdyn_force_add_pairs", p, ptr, arr.size // 2),
                                 keep), tag)

    @binds("cdyn_force_add_pair_set", "cdyn_pair_params_init")
    def add_pair_set(self, particles, kind="hertz", **params):
        """A pair generator on every pair of `particles` within the cutoff,
        with a neighbour list; parameters as add_pairs."""
        tag = params.pop("tag", None)
        p, keep = _pair_params(kind, params)
        arr, ptr = _handles(particles, "particles")
        return tagged(self._kept(self._new_force("cdyn_force_add_pair_set", p, ptr, arr.size),
                                 keep), tag)

    def _kept(self, force, keep):
        callbacks = [k for k in keep if isinstance(k, Callback)]
        if callbacks:
            self._keep_for(force.handle, "pair", callbacks[0])
        return force

