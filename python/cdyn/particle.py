"""Particles (particle.h)."""
from . import motion as _motion
from ._arrays import array_out, optional_vector_in, vector_in
from ._call import bound_property, binds, fail
from ._ffi import ffi, lib
from ._handle import Handle, handle_property, read, remove, valid_property


class Particle(Handle):
    """A point mass of a System: sys.add_particle(mass, position, velocity)."""

    __slots__ = ()

    valid = valid_property("cdyn_particle_is_valid")
    index = handle_property("cdyn_particle_get_index",
                            doc="Its row in the bulk arrays (System.positions, callbacks).")
    position = handle_property("cdyn_particle_get_position", "cdyn_particle_set_position",
                               "dim", "Position (dim values).")
    velocity = handle_property("cdyn_particle_get_velocity", "cdyn_particle_set_velocity",
                               "dim", "Velocity (dim values).")
    mass = handle_property("cdyn_particle_get_mass", "cdyn_particle_set_mass", doc="Mass (> 0).")
    fixed = handle_property("cdyn_particle_get_fixed", "cdyn_particle_set_fixed",
                            doc="Fixed: infinite inertia.")

    unwrapped_position = handle_property(
        "cdyn_particle_get_unwrapped_position", shape="dim",
        doc="Position plus whole box lengths: continuous across periodic faces.")

    @property
    @binds("cdyn_particle_get_image")
    def image(self):
        """Its image counters n_k in a periodic box (dim int64)."""
        import numpy as np
        arr, out = array_out((self.system.dimension,), np.int64)
        st = lib.cdyn_particle_get_image(self.system._checked(), self.handle, out)
        if st:
            fail(self.system, st, "cdyn_particle_get_image")
        return arr

    applied_force = handle_property("cdyn_particle_get_applied_force", shape="dim",
                                    doc="Its applied force (both accumulators).")

    @binds("cdyn_particle_apply_force")
    def apply_force(self, force, mode="until_cleared"):
        """Adds `force` (dim values) to its applied force: mode
        'until_cleared' holds it, 'next_step' for the next step only."""
        from .system import _apply_mode
        st = lib.cdyn_particle_apply_force(self.system._checked(), self.handle,
                                           vector_in(force, self.system.dimension, "force"),
                                           _apply_mode(mode))
        if st:
            fail(self.system, st, "cdyn_particle_apply_force")

    @binds("cdyn_particle_clear_applied_force")
    def clear_applied_force(self):
        st = lib.cdyn_particle_clear_applied_force(self.system._checked(), self.handle)
        if st:
            fail(self.system, st, "cdyn_particle_clear_applied_force")

    @binds("cdyn_particle_remove")
    def remove(self):
        """Removes the particle, and the springs and constraints on it."""
        remove(self, "cdyn_particle_remove")

    def _get_motion(self):
        return _motion.attached(self.system, "cdyn_particle_get_motion", self.handle,
                                _motion.Motion)

    def _set_motion(self, m):
        _motion.attach(self.system, "cdyn_particle_set_motion", self.handle, m, "Motion")

    motion = bound_property(_get_motion, _set_motion,
                            "The Motion that makes the particle kinematic, or None.",
                            ["cdyn_particle_get_motion", "cdyn_particle_set_motion"])

    @property
    def kinematic(self):
        """Whether a motion drives the particle."""
        return self.motion is not None

    def _get_rigid(self):
        from .rigid import RigidBody
        h = read(self.system, "cdyn_rigid_find", (self.handle,))
        return RigidBody(self.system, h) if h else None

    rigid_body = bound_property(_get_rigid, None, "The RigidBody holding it, or None.",
                                ["cdyn_rigid_find"])


class ParticlesMixin:
    """System methods that add particles."""

    @binds("cdyn_particle_add")
    def add_particle(self, mass, position, velocity=None):
        """A particle of `mass` at `position` (dim values), at rest unless
        `velocity` is given."""
        d = self.dimension
        out = ffi.new("cdyn_particle *")
        st = lib.cdyn_particle_add(self._checked(), mass, vector_in(position, d, "position"),
                                   optional_vector_in(velocity, d, "velocity"), out)
        if st:
            fail(self, st, "cdyn_particle_add")
        return Particle(self, out[0])

    def add_particles(self, masses, positions, velocities=None):
        """Particles from arrays: masses (n,) or one number, positions (n, dim),
        velocities (n, dim) or None. A list of Particle."""
        import numpy as np
        positions = np.asarray(positions)
        n = positions.shape[0] if positions.ndim == 2 else -1
        if n < 0 or positions.shape[1] != self.dimension:
            raise ValueError("positions: expected shape (n, %d), got %s"
                             % (self.dimension, positions.shape))
        masses = np.broadcast_to(np.asarray(masses, dtype=float), (n,))
        vels = [None] * n if velocities is None else np.asarray(velocities)
        if velocities is not None and vels.shape != positions.shape:
            raise ValueError("velocities: expected shape %s, got %s"
                             % (positions.shape, vels.shape))
        added = []
        try:
            for i in range(n):
                added.append(self.add_particle(masses[i], positions[i], vels[i]))
        except BaseException:
            for p in reversed(added):  # all or nothing
                p.remove()
            raise
        return added
