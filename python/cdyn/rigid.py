"""Rigid bodies (rigid.h): particles that keep their relative positions."""
import numpy as np

from ._arrays import array_out, vector_in
from ._call import binds, fail
from ._ffi import ffi, lib
from ._handle import Handle, handle_property, raw, remove, valid_property


class RigidBody(Handle):
    """A rigid body of a System: sys.add_rigid_body(particles)."""

    __slots__ = ()

    valid = valid_property("cdyn_rigid_is_valid")
    particle_count = handle_property("cdyn_rigid_get_particle_count")
    scheme = handle_property("cdyn_rigid_get_scheme", "cdyn_rigid_set_scheme",
                             doc="Its RigidScheme.")
    mass = handle_property("cdyn_rigid_get_mass", doc="Total mass.")
    center_of_mass = handle_property("cdyn_rigid_get_center_of_mass", shape="dim")
    velocity = handle_property("cdyn_rigid_get_velocity", "cdyn_rigid_set_velocity", "dim",
                               "Velocity of the centre of mass.")
    angular_momentum = handle_property("cdyn_rigid_get_angular_momentum", shape=3)
    angular_velocity = handle_property("cdyn_rigid_get_angular_velocity",
                                       "cdyn_rigid_set_angular_velocity", 3)
    inertia = handle_property("cdyn_rigid_get_inertia", shape=(3, 3),
                              doc="Inertia tensor about the centre of mass, world axes.")
    body_inertia = handle_property("cdyn_rigid_get_body_inertia", shape=(3, 3),
                                   doc="Inertia tensor in the body frame.")
    orientation = handle_property("cdyn_rigid_get_orientation", shape=(3, 3),
                                  doc="Rotation from the body frame to the world.")

    @binds("cdyn_rigid_remove")
    def remove(self):
        """Dissolves the body: its particles move freely again."""
        remove(self, "cdyn_rigid_remove")

    @property
    @binds("cdyn_rigid_get_particles")
    def particles(self):
        """Its particles, in the order given."""
        from .particle import Particle
        n = self.particle_count
        out = np.empty(n, dtype=np.uint64)
        st = lib.cdyn_rigid_get_particles(self.system._checked(), self.handle,
                                          ffi.from_buffer("cdyn_particle[]", out), n)
        if st:
            fail(self.system, st, "cdyn_rigid_get_particles")
        return [Particle(self.system, h) for h in out]

    @property
    @binds("cdyn_rigid_get_kinetic_energy")
    def kinetic_energy(self):
        """(translational, rotational) kinetic energy (J)."""
        tr, rot = ffi.new("double *"), ffi.new("double *")
        st = lib.cdyn_rigid_get_kinetic_energy(self.system._checked(), self.handle, tr, rot)
        if st:
            fail(self.system, st, "cdyn_rigid_get_kinetic_energy")
        return tr[0], rot[0]


class RigidMixin:
    """System methods that make rigid bodies."""

    @binds("cdyn_rigid_add")
    def add_rigid_body(self, particles):
        """A rigid body of `particles` (a sequence of Particle)."""
        arr = np.asarray([raw(p) for p in particles], dtype=np.uint64)
        out = ffi.new("cdyn_rigid *")
        st = lib.cdyn_rigid_add(self._checked(), ffi.from_buffer("cdyn_particle[]", arr),
                                arr.size, out)
        if st:
            fail(self, st, "cdyn_rigid_add")
        return RigidBody(self, out[0])


@binds("cdyn_rigid_rotation")
def rigid_rotation(omega, dt):
    """The rotation R(omega, dt) a step applies (3 x 3)."""
    out, ptr = array_out((3, 3))
    st = lib.cdyn_rigid_rotation(vector_in(omega, 3, "omega"), dt, ptr)
    if st:
        fail(None, st, "cdyn_rigid_rotation")
    return out
