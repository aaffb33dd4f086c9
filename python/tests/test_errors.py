"""Statuses as exceptions: one class per status, the object's message, and
bad handles refused with nothing changed."""
import numpy as np
import pytest

import cdyn


def test_message_is_the_last_error(sys2):
    p = sys2.add_particle(1.0, [0, 0])
    with pytest.raises(cdyn.InvalidArgumentError) as info:
        p.mass = -1.0
    err = info.value
    assert err.status == cdyn.Status.ERR_INVALID_ARGUMENT
    assert err.function == "cdyn_particle_set_mass"
    assert sys2.last_error and sys2.last_error in str(err)
    assert isinstance(err, ValueError) and isinstance(err, cdyn.CdynError)
    assert p.mass == 1.0


def test_stale_handles_raise(sys2):
    a = sys2.add_particle(1.0, [0, 0])
    b = sys2.add_particle(1.0, [1, 0])
    rod = sys2.add_distance(a, b, 1.0)
    spring = sys2.add_spring(a, b, stiffness=1.0, rest_length=1.0)
    b.remove()
    assert not b.valid and not rod.valid and not spring.valid and a.valid
    with pytest.raises(cdyn.StaleHandleError):
        b.position
    with pytest.raises(cdyn.StaleHandleError):
        rod.multipliers
    with pytest.raises(cdyn.StaleHandleError):
        spring.tension
    with pytest.raises(cdyn.StaleHandleError):
        b.remove()
    # The slot is reused by a new particle; the old handle stays stale.
    c = sys2.add_particle(1.0, [2, 0])
    assert c.index == 1 and c != b and not b.valid
    with pytest.raises(cdyn.StaleHandleError):
        b.velocity = [1, 1]
    assert np.array_equal(c.velocity, [0, 0])


def test_wrong_kind_and_foreign_handles_raise(sys2):
    p = sys2.add_particle(1.0, [0, 0])
    g = sys2.add_gravity([0, -1])
    as_particle = cdyn.Particle(sys2, g.handle)
    with pytest.raises(cdyn.InvalidHandleError):
        as_particle.position
    with pytest.raises(cdyn.InvalidHandleError):
        sys2.add_distance(p, g, 1.0)  # a force where a particle goes
    with pytest.raises(cdyn.InvalidHandleError):
        sys2.add_anchor(0, [0, 0], 1.0)  # the zero handle
    with pytest.raises(TypeError):
        sys2.add_anchor("p", [0, 0], 1.0)
    with cdyn.System(dim=2) as other:
        q = other.add_particle(1.0, [0, 0])
        if (q.handle >> 32) != (p.handle >> 32):  # equal salts: 1 in 4096
            with pytest.raises(cdyn.InvalidHandleError):
                sys2.add_distance(p, q, 1.0)
    assert sys2.particle_count == 1


def test_bad_enum_values(sys2):
    with pytest.raises(ValueError, match="unknown Integrator"):
        sys2.integrator = "leapfrog"
    with pytest.raises(cdyn.InvalidArgumentError):
        sys2.integrator = 99
    with pytest.raises(TypeError):
        sys2.integrator = 2.5
    assert sys2.integrator == cdyn.Integrator.SYMPLECTIC_EULER
    sys2.integrator = cdyn.Integrator.RK45
    assert sys2.integrator == "rk45".upper() or sys2.integrator == cdyn.Integrator.RK45


def test_step_errors_leave_the_state(sys2):
    a = sys2.add_particle(1.0, [0, 0])
    b = sys2.add_particle(1.0, [0, 0])  # coincident: the rod is singular
    sys2.add_distance(a, b, 1.0)
    sys2.integrator = "rk4"
    before = sys2.positions.copy()
    with pytest.raises(cdyn.CdynError) as info:
        sys2.step(1e-3)
    assert info.value.function == "cdyn_system_step"
    assert np.array_equal(sys2.positions, before) and sys2.time == 0.0
    with pytest.raises(cdyn.InvalidArgumentError):
        sys2.step(-1.0)


def test_closed_objects_raise():
    sys = cdyn.System(dim=2)
    p = sys.add_particle(1.0, [0, 0])
    f = sys.add_gravity([0, -1])
    sys.close()
    assert sys.closed and not p.valid and sys.last_error == ""
    for action in (lambda: p.position, lambda: f.energy, lambda: sys.step(1e-3),
                   lambda: sys.positions, lambda: sys.add_particle(1.0, [0, 0]),
                   lambda: p.remove(), lambda: sys.time):
        with pytest.raises(cdyn.ClosedError):
            action()
    sys.close()  # twice is fine
    assert repr(sys) == "<cdyn.System closed>"
