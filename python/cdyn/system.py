"""The System: a simulation of particles, forces, constraints, grounds and
rigid bodies (system.h, diagnostics.h), with numpy state in and out."""
import weakref

import numpy as np

from . import _callbacks, _enums
from ._arrays import array_in, out_into
from ._call import Owned, bound_property, binds, closed, fail
from ._errors import STATUS_CLASSES
from ._ffi import ffi, lib
from ._handle import system_property
from ._options import OptionsMixin
from .box import BoxMixin
from .constraint import ConstraintsMixin
from .force import ForcesMixin
from .ground import GroundsMixin
from .particle import ParticlesMixin
from .rigid import RigidMixin
from .snapshot import SnapshotMixin
from .tasks import TasksMixin

_BUSY = STATUS_CLASSES[10]
_step = lib.cdyn_system_step

# Which is_valid function tells whether a kept callback's owner still lives.
_VALIDITY = ("cdyn_particle_is_valid", "cdyn_force_is_valid", "cdyn_constraint_is_valid",
             "cdyn_ground_is_valid", "cdyn_rigid_is_valid")


def _apply_mode(mode):
    return _enums.coerce(_enums.ENUMS["cdyn_apply_mode"], mode, "mode")


def _destroy(ptr, _keep, _allocator):
    # _keep and _allocator ride along so that the callbacks and the allocator
    # outlive the C system, which may call the allocator while it is freed.
    lib.cdyn_system_destroy(ptr)


class System(ParticlesMixin, ForcesMixin, ConstraintsMixin, GroundsMixin, RigidMixin,
             BoxMixin, OptionsMixin, SnapshotMixin, TasksMixin, Owned):
    """A simulation in `dim` = 2 or 3 dimensions.

        with cdyn.System(dim=2, integrator="rk4") as sys:
            bob = sys.add_particle(1.0, [1, 0])
            ...
            sys.step(1e-3)

    close() (or leaving the with block, or garbage collection) frees it;
    using it or any of its objects afterwards raises ClosedError.
    """

    _what = "System"

    @binds("cdyn_system_create", "cdyn_system_create_with_allocator")
    def __init__(self, dim=2, integrator=None, allocator=None):
        self._ptr = None
        out = ffi.new("cdyn_system **")
        if allocator is None:
            st = lib.cdyn_system_create(dim, out)
            fname = "cdyn_system_create"
        else:
            st = lib.cdyn_system_create_with_allocator(dim, allocator._c, out)
            fname = "cdyn_system_create_with_allocator"
        if st:
            fail(None, st, fname)
        self._own(out[0], {}, allocator)
        if integrator is not None:
            self.integrator = integrator

    def _own(self, ptr, keep, allocator):
        """Takes charge of the C system `ptr`, keeping `keep` (callbacks and
        descriptions by (handle, what)) and the allocator alive with it."""
        self._ptr = ptr
        self._in_callback = 0
        self._keep = keep
        self._allocator = allocator
        self._dim = lib.cdyn_system_get_dimension(ptr)
        self._finalizer = weakref.finalize(self, _destroy, ptr, keep, allocator)
        _callbacks.register_owner(ptr, self)

    @classmethod
    def _adopt(cls, ptr, keep, allocator):
        """A System over a C system made elsewhere (a load, a clone)."""
        obj = cls.__new__(cls)
        obj._own(ptr, keep, allocator)
        return obj

    # ---- lifetime ------------------------------------------------------------

    @binds("cdyn_system_destroy")
    def close(self):
        """Frees the C system. Its objects then raise ClosedError. Not from
        inside a callback (BusyError)."""
        if self._in_callback:
            raise _BUSY("System.close: called from a callback during a step")
        if self._ptr is not None:
            self._ptr = None
            self._finalizer()
            self._keep.clear()

    def _keep_for(self, handle, tag, obj):
        """Keeps `obj` (a callback or a description with one) alive while
        the object `handle` holds it; None forgets."""
        if obj is None:
            self._keep.pop((handle, tag), None)
        else:
            self._keep[(handle, tag)] = obj

    def _prune(self):
        """Forgets what objects that are gone held (a removal may take
        others along: a particle its springs and constraints)."""
        ptr = self._checked()
        for key in list(self._keep):
            if key[0] is None:
                continue  # a loaded callback: its object is not known; kept until close
            if not any(getattr(lib, f)(ptr, key[0]) for f in _VALIDITY):
                del self._keep[key]

    # ---- basics --------------------------------------------------------------

    @property
    @binds("cdyn_system_get_dimension")
    def dimension(self):
        """2 or 3."""
        self._checked()
        return self._dim

    @property
    @binds("cdyn_system_last_error")
    def last_error(self):
        """The message of the last failed call on this system ("" if none)."""
        if self._ptr is None:
            return ""
        return ffi.string(lib.cdyn_system_last_error(self._ptr)).decode("utf-8", "replace")

    time = system_property("cdyn_system_get_time", "cdyn_system_set_time",
                           doc="Simulated time (s).")
    particle_count = system_property("cdyn_system_get_particle_count",
                                     doc="Live particles.")
    index_count = system_property("cdyn_system_get_index_count",
                                  doc="Rows of the bulk arrays: one more than the highest "
                                      "particle index ever used.")

    @binds("cdyn_system_step")
    def step(self, dt, steps=1):
        """Advances by `steps` steps of `dt` seconds. A failed step raises and
        leaves the state as before it (earlier steps of the call stay done)."""
        ptr = self._ptr
        if ptr is None:
            closed("System")
        if steps == 1:  # the common call, kept short: see python/bench
            st = _step(ptr, dt)
            if st:
                fail(self, st, "cdyn_system_step")
            return
        for _ in range(steps):
            st = _step(ptr, dt)
            if st:
                fail(self, st, "cdyn_system_step")

    # ---- bulk state ------------------------------------------------------------

    def _bulk_shape(self):
        return (self.index_count, self._dim)

    def _bulk(self, fname, out, per_index=True, dtype=np.float64):
        """fname(sys, out, capacity) into an (index_count, dim) array, or
        (index_count,) when not per_index."""
        shape = self._bulk_shape() if per_index else (self.index_count,)
        arr, ptr = out_into(out, shape, dtype)
        st = getattr(lib, fname)(self._checked(), ptr, arr.size)
        if st:
            fail(self, st, fname)
        return arr

    @binds("cdyn_system_get_positions")
    def get_positions(self, out=None):
        """All positions, shape (index_count, dim), row i the particle of
        index i (removed indices zero); into `out` when given."""
        return self._bulk("cdyn_system_get_positions", out)

    @binds("cdyn_system_get_velocities")
    def get_velocities(self, out=None):
        """All velocities, as get_positions."""
        return self._bulk("cdyn_system_get_velocities", out)

    @binds("cdyn_system_get_constraint_forces")
    def get_constraint_forces(self, out=None):
        """The total constraint force on every particle at the last force
        evaluation, (index_count, dim)."""
        return self._bulk("cdyn_system_get_constraint_forces", out)

    @binds("cdyn_system_get_contact_forces")
    def get_contact_forces(self, out=None):
        """The grounds' force on every particle now, (index_count, dim)."""
        return self._bulk("cdyn_system_get_contact_forces", out)

    @binds("cdyn_system_get_applied_forces")
    def get_applied_forces(self, out=None):
        """The applied force of every particle, (index_count, dim)."""
        return self._bulk("cdyn_system_get_applied_forces", out)

    masses = bound_property(lambda self: self._bulk("cdyn_system_get_masses", None, False),
                            None, "The mass of every particle index, (index_count,).",
                            ["cdyn_system_get_masses"])
    fixed_flags = bound_property(
        lambda self: self._bulk("cdyn_system_get_fixed", None, False, np.bool_), None,
        "Whether each particle index is fixed, (index_count,) bool.", ["cdyn_system_get_fixed"])
    constraint_forces = property(get_constraint_forces, None, None, get_constraint_forces.__doc__)
    contact_forces = property(get_contact_forces, None, None, get_contact_forces.__doc__)
    applied_forces = property(get_applied_forces, None, None, get_applied_forces.__doc__)

    @binds("cdyn_system_apply_forces")
    def apply_forces(self, forces, mode="until_cleared"):
        """Adds (index_count, dim) forces to every particle's applied force:
        mode 'until_cleared' holds them, 'next_step' for the next step only."""
        arr, ptr = array_in(forces, self._bulk_shape(), "forces")
        st = lib.cdyn_system_apply_forces(self._checked(), ptr, arr.size, _apply_mode(mode))
        if st:
            fail(self, st, "cdyn_system_apply_forces")

    @binds("cdyn_system_clear_applied_forces")
    def clear_applied_forces(self):
        st = lib.cdyn_system_clear_applied_forces(self._checked())
        if st:
            fail(self, st, "cdyn_system_clear_applied_forces")

    @binds("cdyn_system_set_positions")
    def set_positions(self, positions):
        """Sets all positions from an (index_count, dim) array."""
        arr, ptr = array_in(positions, self._bulk_shape(), "positions")
        st = lib.cdyn_system_set_positions(self._checked(), ptr, arr.size)
        if st:
            fail(self, st, "cdyn_system_set_positions")

    @binds("cdyn_system_set_velocities")
    def set_velocities(self, velocities):
        """Sets all velocities from an (index_count, dim) array."""
        arr, ptr = array_in(velocities, self._bulk_shape(), "velocities")
        st = lib.cdyn_system_set_velocities(self._checked(), ptr, arr.size)
        if st:
            fail(self, st, "cdyn_system_set_velocities")

    positions = property(get_positions, set_positions, None, "All positions (n, dim).")
    velocities = property(get_velocities, set_velocities, None, "All velocities (n, dim).")

    @binds("cdyn_system_evaluate")
    def evaluate(self, out=None):
        """Forces, multipliers and accelerations at the current state without
        stepping; returns the accelerations (index_count, dim)."""
        return self._bulk("cdyn_system_evaluate", out)

    @binds("cdyn_system_compute_constraint_residuals")
    def constraint_residuals(self):
        """(position, velocity): the worst constraint residuals now
        (evaluates every constraint, callbacks included)."""
        pos, vel = ffi.new("double *"), ffi.new("double *")
        st = lib.cdyn_system_compute_constraint_residuals(self._checked(), pos, vel)
        if st:
            fail(self, st, "cdyn_system_compute_constraint_residuals")
        return pos[0], vel[0]

    # ---- diagnostics ---------------------------------------------------------------

    kinetic_energy = system_property("cdyn_system_get_kinetic_energy", doc="J.")
    potential_energy = system_property("cdyn_system_get_potential_energy", doc="J.")
    drive_work = system_property("cdyn_system_get_drive_work",
                                 doc="Work the prescribed motions did since creation (J).")
    momentum = system_property("cdyn_system_get_momentum", shape="dim")
    angular_momentum = system_property("cdyn_system_get_angular_momentum", shape=3)

    @binds("cdyn_system_get_center_of_mass")
    def center_of_mass(self):
        """(centre of mass (dim,), total mass) of the movable particles."""
        arr, ptr = out_into(None, (self._dim,))
        m = ffi.new("double *")
        st = lib.cdyn_system_get_center_of_mass(self._checked(), ptr, m)
        if st:
            fail(self, st, "cdyn_system_get_center_of_mass")
        return arr, m[0]

    def __repr__(self):
        if self.closed:
            return "<cdyn.System closed>"
        return "<cdyn.System dim=%d particles=%d t=%g>" % (self._dim, self.particle_count,
                                                          self.time)

