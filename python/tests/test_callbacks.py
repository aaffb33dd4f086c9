"""Python callbacks: views of the C arrays, exceptions carried across the
step and re-raised, refused mutations, kept views, and lifetime."""
import gc
import math
import traceback
import weakref

import numpy as np
import pytest

import cdyn

M, K, R0, A = 2.0, 8.0, 1.0, 0.25  # w = 2 rad/s


def _oscillator(sys, force=None):
    anchor = sys.add_particle(1.0, [0, 0])
    anchor.fixed = True
    mass = sys.add_particle(M, [R0 + A, 0])
    j = mass.index

    def spring(s, t, x, v, f):
        d = x[j] - x[0]
        length = math.hypot(*d)
        f[j] += -K * (length - R0) * d / length

    fn = force or spring
    return mass, sys.add_force(fn)


def test_force_callback_matches_the_closed_form(sys2):
    sys2.integrator = "rk4"
    mass, force = _oscillator(sys2)
    assert force.kind == cdyn.ForceKind.CALLBACK and force.energy == 0.0
    sys2.step(1e-3, steps=2000)
    w = math.sqrt(K / M)
    assert mass.position[0] == pytest.approx(R0 + A * math.cos(w * 2.0), abs=1e-9)
    assert mass.velocity[0] == pytest.approx(-A * w * math.sin(w * 2.0), abs=1e-9)


def test_callback_arrays_are_views_of_c_memory(sys2):
    seen = {}

    def probe(s, t, x, v, f):
        seen["sys"] = s is sys2
        seen["shapes"] = (x.shape, v.shape, f.shape)
        seen["flags"] = (x.flags.writeable, v.flags.writeable, f.flags.writeable,
                         x.flags.owndata, f.flags.owndata)
        seen["addresses"] = (x.__array_interface__["data"][0],
                             f.__array_interface__["data"][0])
        seen["x"] = x.copy()
        try:
            x[0, 0] = 1.0
        except ValueError:
            seen["x_readonly"] = True

    sys2.add_particles(1.0, [[1, 2], [3, 4], [5, 6]])
    sys2.add_force(probe)
    sys2.step(1e-3)
    assert seen["sys"] and seen["shapes"] == ((3, 2), (3, 2), (3, 2))
    assert seen["flags"] == (False, False, True, False, False)
    assert seen["x_readonly"]
    assert np.array_equal(seen["x"], [[1, 2], [3, 4], [5, 6]])
    assert seen["addresses"][0] != 0


def test_a_raising_callback_fails_the_step_and_is_reraised(sys2):
    calls, fail_at = [], [None]

    def bad(s, t, x, v, f):
        calls.append(t)
        if len(calls) == fail_at[0]:
            raise ZeroDivisionError("deliberate")
        f[0, 0] += 1.0

    sys2.integrator = "rk4"
    sys2.add_particle(1.0, [0, 0], [1, 0])
    sys2.add_force(bad)
    sys2.step(1e-3)
    fail_at[0] = len(calls) + 2  # in the middle of the second step
    before = (sys2.positions.copy(), sys2.velocities.copy(), sys2.time)
    with pytest.raises(ZeroDivisionError, match="deliberate") as info:
        sys2.step(1e-3)
    tb = "".join(traceback.format_exception(info.type, info.value, info.tb))
    assert "in bad" in tb  # the callback's own frame is in the traceback
    assert isinstance(info.value.__cdyn_error__, cdyn.CallbackError)
    notes = getattr(info.value, "__notes__", ["cdyn_system_step"])
    assert any("cdyn_system_step" in n for n in notes)
    after = (sys2.positions, sys2.velocities, sys2.time)
    assert np.array_equal(before[0], after[0]) and np.array_equal(before[1], after[1])
    assert before[2] == after[2]


def test_a_callback_cannot_change_the_system(sys2):
    p = sys2.add_particle(1.0, [0, 0])

    def meddle(s, t, x, v, f):
        s.add_particle(1.0, [1, 1])

    def close(s, t, x, v, f):
        s.close()

    def move(s, t, x, v, f):
        p.position = [5, 5]

    for fn in (meddle, close, move):
        force = sys2.add_force(fn)
        with pytest.raises(cdyn.BusyError):
            sys2.step(1e-3)
        force.remove()
        assert sys2.particle_count == 1 and not sys2.closed
        assert np.array_equal(p.position, [0, 0]) and sys2.time == 0.0
    sys2.step(1e-3)


def test_a_callback_may_read_the_system(sys2):
    p = sys2.add_particle(1.0, [0, 0])
    read = []
    sys2.add_force(lambda s, t, x, v, f: read.append((s.time, s.particle_count,
                                                      p.mass)))
    sys2.step(1e-3)
    assert read == [(0.0, 1, 1.0)]


def test_a_callback_may_not_keep_a_view(sys2):
    kept = []
    sys2.add_particle(1.0, [0, 0])
    force = sys2.add_force(lambda s, t, x, v, f: kept.append(x[0]))
    with pytest.raises(cdyn.CallbackError, match="kept a view"):
        sys2.step(1e-3)
    assert sys2.time == 0.0
    with pytest.raises(cdyn.CallbackError, match="kept a view"):
        sys2.step(1e-3)  # and again: the kept view is not handed out again
    kept.clear()
    force.remove()
    copies = []
    sys2.add_force(lambda s, t, x, v, f: copies.append(x.copy()))
    sys2.step(1e-3)
    assert len(copies) == 1


def test_a_wrong_return_value_is_an_error(sys2):
    p = sys2.add_particle(1.0, [0, 1])
    sys2.add_implicit(p, lambda s, t, x, grad, hess: "zero")
    with pytest.raises(TypeError, match="must return c"):
        sys2.step(1e-3)


def test_callbacks_are_kept_alive_and_released(sys2):
    sys2.add_particle(1.0, [0, 0])
    calls = []

    class Push:
        def __call__(self, s, t, x, v, f):
            calls.append(t)
            f[0, 0] += 1.0

    push = Push()
    alive = weakref.ref(push)
    force = sys2.add_force(push)
    del push
    gc.collect()
    assert alive() is not None  # the System keeps it
    sys2.step(1e-3)
    assert calls == [0.0]
    force.remove()
    gc.collect()
    assert alive() is None  # released with its force: nothing can call it
    sys2.step(1e-3)
    assert calls == [0.0]


def test_callbacks_of_removed_objects_are_released(sys2):
    a = sys2.add_particle(1.0, [0, 0])

    def wire(s, t, x, grad, hess):
        grad[:] = [0, 1]
        hess[:] = 0
        return x[1]

    alive = weakref.ref(wire)
    sys2.add_implicit(a, wire)
    del wire
    gc.collect()
    assert alive() is not None
    a.remove()  # takes its constraint along
    gc.collect()
    assert alive() is None


def test_callbacks_are_released_at_close():
    sys = cdyn.System(dim=2)
    sys.add_particle(1.0, [0, 0])
    fn = lambda s, t, x, v, f: None  # noqa: E731
    alive = weakref.ref(fn)
    sys.add_force(fn)
    del fn
    sys.close()
    gc.collect()
    assert alive() is None


def test_user_constraint_callback(sys2):
    # Two beads held at distance L by a user constraint
    # g = (|x1 - x0|^2 - L^2) / 2, against the built-in rod.
    length = 0.5
    results = {}
    for form in ("user", "rod"):
        with cdyn.System(dim=2, integrator="rk4") as sys:
            a = sys.add_particle(1.0, [0, 0], [0, 1])
            b = sys.add_particle(2.0, [length, 0], [0, -1])

            def rod(s, t, x, v, g, jac, vt):
                d = x[1] - x[0]
                dv = v[1] - v[0]
                g[0] = (d @ d - length ** 2) / 2
                jac[0, 0], jac[0, 1] = -d, d
                vt[0] = dv @ dv

            c = (sys.add_user_constraint([a, b], 1, rod) if form == "user"
                 else sys.add_distance(a, b, length))
            sys.step(1e-3, steps=500)
            results[form] = (sys.positions, c.multipliers)
            assert c.row_count == 1
    assert np.max(np.abs(results["user"][0] - results["rod"][0])) < 1e-12
    assert results["user"][1] == pytest.approx(results["rod"][1], rel=1e-9)


def test_time_dependent_implicit_constraint(sys2):
    # A bead on a line y = s(t) moving up at 0.3 m/s: c = y - 0.3 t, with
    # its time derivatives given, and with them left to differences.
    for give in (True, False):
        with cdyn.System(dim=2, integrator="rk4") as sys:
            p = sys.add_particle(1.0, [0, 0], [0, 0.3])

            def line(s, t, x, grad, hess, c_t=None, grad_t=None, c_tt=None):
                grad[:] = [0, 1]
                hess[:] = 0
                if c_t is not None and give:
                    c_t[...] = -0.3
                    grad_t[:] = 0
                    c_tt[...] = 0
                return x[1] - 0.3 * t

            c = sys.add_implicit(p, line)
            c.time_dependent = True
            assert c.time_dependent
            sys.step(1e-2, steps=100)
            assert p.position[1] == pytest.approx(0.3, abs=1e-8)


def test_force_jacobian_callback_for_backward_euler():
    # A linear spring to the origin, F = -k x, as a callback with its
    # Jacobian: backward Euler's Newton converges in one update.
    k = 100.0
    with cdyn.System(dim=2, integrator="backward_euler") as sys:
        p = sys.add_particle(1.0, [1, 0])
        blocks = []

        def force(s, t, x, v, f):
            f[0] -= k * x[0]

        def jacobian(s, t, x, v, jac):
            blocks.append(t)
            jac.add_block(0, 0, dfdx=-k * np.eye(2))
            with pytest.raises(cdyn.InvalidArgumentError):
                jac.add_block(5, 0, dfdx=np.eye(2))  # out of range: refused

        sys.add_force(force, jacobian=jacobian)
        with pytest.raises(cdyn.CallbackError):
            sys.step(1e-2)  # the refused block fails the step
        assert blocks and p.position[0] == 1.0

    with cdyn.System(dim=2, integrator="backward_euler") as sys:
        p = sys.add_particle(1.0, [1, 0])

        def jacobian(s, t, x, v, jac):
            jac.add_block(0, 0, -k * np.eye(2), None)

        # The force's return value (f itself here) is ignored and not kept.
        sys.add_force(lambda s, t, x, v, f: f.__isub__(k * x), jacobian=jacobian)
        sys.step(1e-2)
        x1 = 1.0 / (1 + k * 1e-4)  # (1 + k dt^2) x1 = x0 + dt v0
        assert p.position[0] == pytest.approx(x1, rel=1e-10)
        assert sys.newton_stats.iterations <= 2
        assert len(sys.newton_residuals()) == sys.newton_stats.iterations + 1


def test_a_kept_jacobian_accumulator_is_dead():
    with cdyn.System(dim=2, integrator="backward_euler") as sys:
        sys.add_particle(1.0, [1, 0])
        kept = []

        def force(s, t, x, v, f):
            f[0] -= x[0]

        def jacobian(s, t, x, v, jac):
            jac.add_block(0, 0, -np.eye(2))
            kept.append(jac)

        sys.add_force(force, jacobian=jacobian)
        with pytest.raises(cdyn.CallbackError, match="kept a view"):
            sys.step(1e-2)
        with pytest.raises(cdyn.CallbackError, match="outside"):
            kept[0].add_block(0, 0)  # the library's accumulator is gone


def test_implicit_surface_in_3d(sys3):
    # A bead on the sphere |x| = R given as c = (|x|^2 - R^2) / 2, under
    # gravity: it stays on the sphere and keeps its energy.
    radius = 2.0
    p = sys3.add_particle(1.0, [radius, 0, 0], [0, 1.0, 0.5])

    def sphere(s, t, x, gradient, hessian):
        gradient[:] = x
        hessian[:] = np.eye(3)
        return (x @ x - radius ** 2) / 2

    sys3.add_implicit(p, sphere)
    sys3.add_gravity([0, 0, -9.81])
    sys3.integrator = "rk4"
    e0 = sys3.kinetic_energy + sys3.potential_energy
    sys3.step(1e-3, steps=1000)
    assert np.linalg.norm(p.position) == pytest.approx(radius, abs=1e-9)
    assert p.position[2] < -0.5  # it fell down the sphere
    assert sys3.kinetic_energy + sys3.potential_energy == pytest.approx(e0, abs=1e-8)
    pos, vel = sys3.constraint_residuals()
    assert pos < 1e-9 and vel < 1e-8


def test_views_follow_the_shape_as_particles_come_and_go(sys2):
    shapes = []

    def push(s, t, x, v, f):
        shapes.append(x.shape)
        f[:, 0] += 1.0

    sys2.add_force(push)
    for i in range(80):  # more shapes than the views kept per callback
        p = sys2.add_particle(1.0, [i, 0])
        sys2.step(1e-3)
        assert shapes[-1] == (i + 1, 2)
        assert p.velocity[0] == pytest.approx(1e-3)
