"""The physics the C suites check, from Python: closed forms and
conservation, not smoke."""
import math

import numpy as np
import pytest

import cdyn


def test_damped_spring_follows_the_closed_form():
    # A mass on a spring with a dashpot, from a fixed anchor along x:
    # m x'' = -k (x - R0) - c x', underdamped; RK4's error at dt = 1e-3 is
    # far below the tolerance.
    m, k, c, r0, a = 2.0, 50.0, 1.5, 1.0, 0.2
    gamma = c / (2 * m)
    wd = math.sqrt(k / m - gamma ** 2)
    with cdyn.System(dim=2, integrator="rk4") as sys:
        anchor = sys.add_particle(1.0, [0, 0])
        anchor.fixed = True
        mass = sys.add_particle(m, [r0 + a, 0])
        spring = sys.add_spring(anchor, mass, stiffness=k, rest_length=r0, damping=c)
        dt, worst = 1e-3, 0.0
        for step in range(1, 3001):
            sys.step(dt)
            t = step * dt
            exact = r0 + a * math.exp(-gamma * t) * (math.cos(wd * t)
                                                     + gamma / wd * math.sin(wd * t))
            worst = max(worst, abs(sys.positions[mass.index, 0] - exact))
        assert worst < 1e-9
        assert sys.positions[mass.index, 1] == 0.0
        assert sys.time == pytest.approx(3.0, abs=1e-12)
        # The tension the library reports is the spring law at this state.
        x, v = mass.position[0], mass.velocity[0]
        assert spring.tension == pytest.approx(k * (x - r0) + c * v, rel=1e-12)
        assert spring.kind == cdyn.ForceKind.SPRING
        assert spring.energy == pytest.approx(0.5 * k * (x - r0) ** 2, rel=1e-12)


def _elliptic_k(k):
    """K(k) by the arithmetic-geometric mean."""
    a, b = 1.0, math.sqrt(1.0 - k * k)
    for _ in range(8):  # quadratic convergence: 8 rounds reach round-off
        a, b = (a + b) / 2, math.sqrt(a * b)
    return math.pi / (2 * a)


def test_pendulum_period_at_large_amplitude():
    length, g, theta0 = 1.0, 9.81, 1.0
    exact = 4 * math.sqrt(length / g) * _elliptic_k(math.sin(theta0 / 2))
    with cdyn.System(dim=2, integrator="rk4") as sys:
        bob = sys.add_particle(1.0, [length * math.sin(theta0), -length * math.cos(theta0)])
        sys.add_anchor(bob, [0, 0], length)
        sys.add_gravity([0, -g])
        dt, crossings = 1e-3, []
        x_prev, t_prev = bob.position[0], 0.0
        while len(crossings) < 3:
            sys.step(dt)
            x, t = bob.position[0], sys.time
            if x_prev > 0 >= x:  # downwards through the bottom, right to left
                crossings.append(t_prev + (t - t_prev) * x_prev / (x_prev - x))
            x_prev, t_prev = x, t
    periods = np.diff(crossings)
    assert periods == pytest.approx(exact, rel=1e-6)


def _parabola(sys, t, x, gradient, hessian):
    # c(x, y) = x^2 + 100 y, its gradient and its Hessian.
    gradient[0], gradient[1] = 2 * x[0], 100.0
    hessian[:] = [[2.0, 0.0], [0.0, 0.0]]
    return x[0] ** 2 + 100 * x[1]


def test_bead_on_parabola_implicit_and_parametric_agree():
    # The wire x^2 + 100 y = 0 with gravity along +y (a bowl), the bead
    # released at rest at x = 50: once as an implicit constraint, once in
    # the coordinate q of r(q) = (q, -q^2 / 100).
    x0, g, dt, steps = 50.0, 9.81, 2e-3, 5000
    start = [x0, -x0 * x0 / 100]
    paths = {}
    for form in ("implicit", "parametric"):
        with cdyn.System(dim=2, integrator="rk4") as sys:
            bead = sys.add_particle(1.0, start)
            if form == "implicit":
                wire = sys.add_implicit(bead, _parabola)
            else:
                wire = sys.add_on_curve(bead, cdyn.Curve("parabola", coefficient=-0.01,
                                                         origin=(0, 0), axis1=(1, 0),
                                                         axis2=(0, 1)))
                assert wire.kind == cdyn.ConstraintKind.CURVE
            sys.add_gravity([0, g])
            e0 = sys.kinetic_energy + sys.potential_energy
            xs = np.empty((steps, 2))
            for i in range(steps):
                sys.step(dt)
                xs[i] = bead.position
            paths[form] = xs
            assert sys.kinetic_energy + sys.potential_energy == pytest.approx(e0, abs=1e-7)
            c = xs[:, 0] ** 2 + 100 * xs[:, 1]
            assert np.max(np.abs(c)) < 1e-6
            if form == "parametric":
                q, qdot = wire.get_coordinates()
                assert q[0] == pytest.approx(xs[-1, 0], abs=1e-12)
    assert np.max(np.abs(paths["implicit"] - paths["parametric"])) < 1e-7
    # It swung through the bottom to the other side.
    assert paths["implicit"][:, 0].min() < -40


def test_rattle_chain_keeps_its_rods():
    n, rod = 10, 0.1
    with cdyn.System(dim=2, integrator="rattle") as sys:
        pivot = sys.add_particle(1.0, [0, 0])
        pivot.fixed = True
        beads = sys.add_particles(1.0, [[rod * (i + 1), 0.0] for i in range(n)])
        chain = [pivot] + beads
        rods = [sys.add_distance(a, b, rod) for a, b in zip(chain, chain[1:])]
        sys.add_gravity([0, -9.81])
        e0 = sys.kinetic_energy + sys.potential_energy
        worst = 0.0
        for _ in range(100):
            sys.step(1e-3, steps=10)
            x = sys.positions
            lengths = np.linalg.norm(np.diff(x, axis=0), axis=1)
            worst = max(worst, np.max(np.abs(lengths - rod)))
        assert worst < 1e-11 * 10  # the tolerance 1e-10 relative of 0.1 m, with round-off
        pos, vel = sys.constraint_residuals()
        assert pos < 1e-11 and vel < 1e-9
        stats = sys.projection_stats
        assert stats.projections >= 1000 and stats.not_converged == 0
        assert stats.position_residual <= 1e-10
        # Symplectic on the manifold: the energy wobbles, it does not drift.
        e1 = sys.kinetic_energy + sys.potential_energy
        assert abs(e1 - e0) < 1e-3 * sum(9.81 * rod * (i + 1) for i in range(n))
        tensions = np.array([r.multipliers[0] for r in rods])
        assert np.all(np.isfinite(tensions))
        assert rods[0].length == rod
