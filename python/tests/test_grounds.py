"""Grounds from Python: the penalty law, settings, callbacks, motions."""
import math

import numpy as np
import pytest

import cdyn


def test_plane_ground_holds_a_resting_particle(sys2):
    m, stiffness, g = 2.0, 1e4, 9.81
    p = sys2.add_particle(m, [0, 0.5])
    sys2.add_gravity([0, -g])
    ground = sys2.add_ground_plane([0, 1], 0.0, stiffness=stiffness,
                                   damping=2 * math.sqrt(m * stiffness))
    assert ground.kind == cdyn.GroundKind.PLANE
    assert (ground.stiffness, ground.friction) == (stiffness, 0.0)
    sys2.integrator = "velocity_verlet"
    sys2.step(1e-3, steps=3000)
    # At rest it sinks m g / S.
    assert p.position[1] == pytest.approx(-m * g / stiffness, rel=1e-4)
    assert ground.penetration(p) == pytest.approx(m * g / stiffness, rel=1e-4)
    assert ground.contact_count == 1
    normal, friction = ground.total_force()
    assert normal[1] == pytest.approx(m * g, rel=1e-4) and np.all(friction == 0)
    assert sys2.contact_forces[p.index] == pytest.approx(normal[:2])
    assert ground.energy == pytest.approx(0.5 * stiffness * (m * g / stiffness) ** 2, rel=1e-3)
    h, grad = ground.evaluate([3, 2])
    assert h == 2.0 and np.array_equal(grad, [0, 1])
    dfdx, dfdv = ground.jacobian(p)
    assert dfdx[1, 1] == pytest.approx(-stiffness)


def test_ground_settings_are_checked(sys2):
    ground = sys2.add_ground_plane([0, 1])
    for name, value in (("stiffness", 5.0), ("damping", 1.0), ("friction", 0.5),
                        ("friction_speed", 0.02)):
        setattr(ground, name, value)
        assert getattr(ground, name) == value
        with pytest.raises(cdyn.InvalidArgumentError):
            setattr(ground, name, -1.0)
        assert getattr(ground, name) == value
    ground.surface_velocity = [1, 0]
    assert np.array_equal(ground.surface_velocity, [1, 0])
    assert np.array_equal(ground.velocity_at([0, 0]), [1, 0])
    with pytest.raises(TypeError, match="unknown ground setting"):
        sys2.add_ground_plane([0, 1], colour="red")
    with pytest.raises(cdyn.InvalidArgumentError):
        sys2.add_ground_plane([0, 0])
    ground.remove()
    assert not ground.valid


def test_sphere_and_heightfield_grounds(sys3):
    ball = sys3.add_ground_sphere([0, 0, 0], 1.0)
    bowl = sys3.add_ground_sphere([0, 0, 0], 5.0, inside=True)
    assert ball.evaluate([2, 0, 0])[0] == pytest.approx(1.0)
    assert bowl.evaluate([2, 0, 0])[0] == pytest.approx(3.0)
    z = np.fromfunction(lambda j, i: 0.1 * i, (4, 5))  # f = 0.1 x
    hf = cdyn.HeightField(z, spacing=(1.0, 1.0), interpolation="bilinear")
    ground = sys3.add_ground_heightfield(hf)
    assert ground.kind == cdyn.GroundKind.HEIGHTFIELD
    h, grad = ground.evaluate([2.0, 1.0, 1.0])
    assert h == pytest.approx(1.0 - 0.2) and grad == pytest.approx([-0.1, 0, 1])
    assert hf.evaluate(2.5, 1.0)[0] == pytest.approx(0.25)


def test_callback_ground_against_the_plane():
    # The same plane y = 0 as a Python function: the same motion.
    runs = []
    for form in ("plane", "callback"):
        with cdyn.System(dim=2, integrator="rk4") as sys:
            sys.add_particle(1.0, [0, 0.1], [1, 0])
            sys.add_gravity([0, -9.81])
            if form == "plane":
                sys.add_ground_plane([0, 1], friction=0.3)
            else:
                def plane(s, t, x, grad, velocity):
                    grad[:] = [0, 1]
                    return x[1]
                g = sys.add_ground(plane, friction=0.3)
                assert g.kind == cdyn.GroundKind.CALLBACK
            sys.step(1e-3, steps=400)
            runs.append(sys.positions.copy())
    assert np.max(np.abs(runs[0] - runs[1])) < 1e-12


def test_moving_ground_does_work(sys2):
    p = sys2.add_particle(1.0, [0, 0.0])
    sys2.add_gravity([0, -9.81])
    plate = sys2.add_ground_plane([0, 1], 0.0, stiffness=1e5, damping=600.0)
    plate.motion = cdyn.Motion.linear(velocity=(0, 0.5))
    assert isinstance(plate.motion, cdyn.Motion)
    assert plate.motion.kind == cdyn.MotionKind.LINEAR
    sys2.integrator = "velocity_verlet"
    sys2.step(1e-3, steps=1000)
    assert p.velocity[1] == pytest.approx(0.5, abs=1e-3)  # carried up
    assert sys2.drive_work > 0
    plate.motion = None
    assert plate.motion is None
