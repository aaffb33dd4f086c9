"""Curves, surfaces, motions and schedules from Python, alone and in systems."""
import math

import numpy as np
import pytest

import cdyn


def test_curves_sampled_alone():
    circle = cdyn.Curve("circle", radius=2.0, dim=2)
    r, dr, ddr = circle.evaluate(math.pi / 2)
    assert r == pytest.approx([0, 2]) and dr == pytest.approx([-2, 0], abs=1e-15)
    assert ddr == pytest.approx([0, -2], abs=1e-15)
    assert circle.domain() == (0.0, 2 * math.pi, True)
    assert circle.arc_length(0, math.pi) == pytest.approx(2 * math.pi)
    assert circle.parameter_at_arc_length(0, math.pi) == pytest.approx(math.pi / 2)
    assert circle.closest_parameter([0, -5]) == pytest.approx(3 * math.pi / 2)
    helix = cdyn.Curve("helix", radius=1.0, pitch=2.0)
    assert helix.evaluate(2 * math.pi)[0] == pytest.approx([1, 0, 2])
    with pytest.raises(TypeError, match="unknown option"):
        cdyn.Curve("line", radius_of_curvature=3)
    with pytest.raises(TypeError, match="function goes with kind callback"):
        cdyn.Curve("line", fn=lambda *a: None)
    with pytest.raises(cdyn.InvalidArgumentError):
        cdyn.Curve("circle", radius=-1.0).evaluate(0.0)


def test_spline_and_callback_curves():
    pts = np.array([[0, 0], [1, 1], [2, 0], [3, 1]], dtype=float)
    spline = cdyn.Curve("spline", points=pts)
    assert spline.dim == 2
    for i, p in enumerate(pts):
        assert spline.evaluate(float(i))[0] == pytest.approx(p, abs=1e-14)

    def line(sys, t, q, r, dr, ddr):
        r[:2] = [q, 2 * q]
        dr[:2] = [1, 2]

    curve = cdyn.Curve(fn=line, q_min=0.0, q_max=1.0, dim=2)
    assert curve.evaluate(0.5)[0] == pytest.approx([0.5, 1.0])
    assert curve.arc_length(0.0, 1.0) == pytest.approx(math.sqrt(5))
    assert curve.fn is line

    def bad(sys, t, q, r, dr, ddr):
        raise KeyError("no curve here")

    with pytest.raises(KeyError):
        cdyn.Curve(fn=bad, q_min=0.0, q_max=1.0).evaluate(0.5)


def test_bead_on_a_callback_curve_in_a_system():
    # A bead on the line y = 2 x (a Python curve) under gravity: it slides
    # down with g sin(a) along the line, a = atan 2.
    def line(sys, t, q, r, dr, ddr):
        r[:2] = [q, 2 * q]
        dr[:2] = [1, 2]

    with cdyn.System(dim=2, integrator="rk4") as sys:
        bead = sys.add_particle(1.0, [1, 2])
        wire = sys.add_on_curve(bead, cdyn.Curve(fn=line))
        sys.add_gravity([0, -9.81])
        sys.step(1e-3, steps=500)
        s = 0.5 * 9.81 * (2 / math.sqrt(5)) * 0.5 ** 2  # distance slid
        assert bead.position == pytest.approx([1 - s / math.sqrt(5), 2 - 2 * s / math.sqrt(5)],
                                              rel=1e-9)
        assert wire.coordinate_count == 1
        q, qdot = wire.get_coordinates()
        wire.set_coordinates(q=[0.5], qdot=[0.0])
        assert bead.position == pytest.approx([0.5, 1.0])
        normal = wire.force(bead)
        assert normal @ [1, 2] == pytest.approx(0, abs=1e-9)  # perpendicular to the wire
        assert sys.constraint_forces[bead.index] == pytest.approx(normal)


def test_surfaces():
    sphere = cdyn.Surface("sphere", radius=2.0)
    r, ru, rv, ruu, ruv, rvv = sphere.evaluate(0.0, math.pi / 2)
    assert r == pytest.approx([2, 0, 0], abs=1e-15)
    (u0, u1), (v0, v1), periodic = sphere.domain()
    assert (u0, u1, v0, v1) == pytest.approx((0, 2 * math.pi, 0, math.pi)) and periodic[0]
    assert sphere.closest_parameters([0, 5, 0]) == pytest.approx((math.pi / 2, math.pi / 2))
    z = np.fromfunction(lambda j, i: 0.5 * i * i, (4, 4))
    hf = cdyn.Surface("heightfield", heightfield=cdyn.HeightField(z))
    assert hf.evaluate(2.0, 1.0)[0] == pytest.approx([2, 1, 2])

    def plane(sys, t, u, v, r, ru, rv, ruu, ruv, rvv):
        r[:] = [u, v, 1.0]
        ru[:] = [1, 0, 0]
        rv[:] = [0, 1, 0]

    with cdyn.System(dim=3, integrator="rk4") as sys:
        p = sys.add_particle(1.0, [0, 0, 3], [1, 0, 0])
        c = sys.add_on_surface(p, cdyn.Surface(fn=plane))
        assert c.kind == cdyn.ConstraintKind.SURFACE and p.position[2] == 1.0
        sys.step(1e-3, steps=100)
        assert p.position == pytest.approx([0.1, 0, 1])


def test_motions_and_schedules():
    osc = cdyn.Motion.oscillation(amplitude=(0, 0.1), frequency=2.0)
    st = osc.evaluate(0.25, dim=2)
    assert isinstance(st, cdyn.MotionState)
    assert st.position[1] == pytest.approx(0.1 * math.sin(0.5))
    assert st.rotation == pytest.approx(np.eye(3))
    rot = cdyn.Motion.rotation(angular_velocity=1.0)
    assert rot.evaluate(math.pi / 2).rotation[0, 1] == pytest.approx(-1.0)
    assert "oscillation" in repr(osc)

    def turn(sys, t, state):
        c, s = math.cos(t), math.sin(t)
        state.rotation[:2, :2] = [[c, -s], [s, c]]
        state.angular_velocity[2] = 1.0

    mine = cdyn.Motion(fn=turn)
    assert mine.evaluate(math.pi / 2).rotation[1, 0] == pytest.approx(1.0)
    sched = cdyn.Schedule("linear", rate=0.5)
    assert sched.evaluate(2.0) == pytest.approx((1.0, 0.5, 0.0))
    squares = cdyn.Schedule(fn=lambda sys, t: (t * t, 2 * t, 2.0))
    assert squares.evaluate(3.0) == (9.0, 6.0, 2.0)
    with pytest.raises(TypeError, match="schedule"):
        cdyn.Schedule(fn=lambda sys, t: 1.0).evaluate(0.0)


def test_kinematic_particles_and_driven_constraints():
    with cdyn.System(dim=2, integrator="rk4") as sys:
        carrier = sys.add_particle(1.0, [0, 0])
        bob = sys.add_particle(1.0, [0, -1])
        rod = sys.add_distance(carrier, bob, 1.0)
        sys.add_gravity([0, -9.81])
        carrier.motion = cdyn.Motion.linear(velocity=(0.5, 0))
        assert carrier.kinematic and not bob.kinematic
        sys.step(1e-3, steps=1000)
        assert carrier.position == pytest.approx([0.5, 0])
        anchor = sys.add_anchor(bob, [0, 1], 2.0)
        anchor.length_schedule = cdyn.Schedule("linear", rate=-0.1)
        assert anchor.length_schedule.fields["rate"] == -0.1
        anchor.motion = cdyn.Motion(fn=lambda s, t, state: None)
        assert anchor.motion.fn is not None
        assert anchor.point == pytest.approx([0, 1])
        assert anchor.length == pytest.approx(2.0)
        anchor.motion = None
        anchor.length_schedule = None
        assert anchor.length_schedule is None and anchor.motion is None
        with pytest.raises(TypeError):
            anchor.motion = "up"
        with pytest.raises(cdyn.UnsupportedError):
            rod.motion = cdyn.Motion.linear()
        carrier.motion = None
        assert not carrier.kinematic
