"""System-level features from Python: applied forces, bulk reads, constraint
settings, drag, options and reports, allocators."""
import math

import numpy as np
import pytest

import cdyn


def test_applied_force_gives_constant_acceleration(sys2):
    # RK4 integrates a constant acceleration exactly.
    p = sys2.add_particle(2.0, [0, 0])
    q = sys2.add_particle(1.0, [1, 0])
    sys2.integrator = "rk4"
    p.apply_force([4.0, 0.0])
    assert np.array_equal(p.applied_force, [4, 0])
    sys2.apply_forces([[0, 0], [0, 3.0]])
    sys2.apply_forces([[0, 0], [0, 1.0]], mode="next_step")  # one step only
    assert np.array_equal(sys2.applied_forces, [[4, 0], [0, 4]])
    sys2.step(1e-2)
    assert np.array_equal(sys2.applied_forces, [[4, 0], [0, 3]])
    sys2.step(1e-2, steps=99)
    t = sys2.time
    assert p.position[0] == pytest.approx(0.5 * 2.0 * t * t, rel=1e-12)
    assert q.velocity[1] == pytest.approx(3.0 * t + 1.0 * 1e-2, rel=1e-12)
    p.clear_applied_force()
    assert np.array_equal(p.applied_force, [0, 0])
    sys2.clear_applied_forces()
    assert not sys2.applied_forces.any()
    with pytest.raises(ValueError):
        p.apply_force([1, 2], mode="sometimes")
    with pytest.raises(cdyn.InvalidArgumentError):
        sys2.apply_forces([[np.nan, 0], [0, 0]])


def test_bulk_reads_of_masses_flags_and_constraint_forces(sys2):
    pivot = sys2.add_particle(5.0, [0, 0])
    pivot.fixed = True
    assert pivot.fixed
    bob = sys2.add_particle(2.0, [0, -1], [3.0, 0])
    assert np.array_equal(sys2.masses, [5.0, 2.0])
    assert sys2.fixed_flags.tolist() == [True, False]
    rod = sys2.add_distance(pivot, bob, 1.0)
    sys2.add_gravity([0, -9.81])
    sys2.evaluate()
    # At the bottom the rod pulls m (g + v^2 / L) upwards.
    forces = sys2.constraint_forces
    assert forces[bob.index] == pytest.approx([0, 2.0 * (9.81 + 9.0)], rel=1e-12)
    assert forces[bob.index] == pytest.approx(rod.force(bob))
    assert forces[pivot.index] == pytest.approx(-forces[bob.index])


def test_constraint_settings(sys2):
    p = sys2.add_particle(1.0, [1, 1])
    pin = sys2.add_pin(p, [1, 1])
    assert pin.kind == cdyn.ConstraintKind.PIN and pin.row_count == 2
    assert pin.enabled and pin.compliance == 0.0
    pin.enabled = False
    assert not pin.enabled
    pin.compliance = 1e-3
    assert pin.compliance == 1e-3
    with pytest.raises(cdyn.InvalidArgumentError):
        pin.compliance = -1.0
    pin.remove()
    assert not pin.valid
    line = sys2.add_plane(p, [0, 2], 2.0)  # y = 1
    sys2.add_gravity([0, -9.81])
    sys2.integrator = "rk4"
    sys2.step(1e-3, steps=100)
    assert p.position[1] == pytest.approx(1.0, abs=1e-9)
    assert line.multipliers.shape == (1,)


def test_drag_decays_velocity(sys2):
    p = sys2.add_particle(2.0, [0, 0], [1, 0])
    sys2.add_drag(0.5)
    sys2.integrator = "rk4"
    sys2.step(1e-3, steps=2000)
    assert p.velocity[0] == pytest.approx(math.exp(-0.5 / 2.0 * 2.0), rel=1e-10)


def test_options_and_reports(sys2):
    p = sys2.add_particle(1.0, [0, -1], [1, 0])
    sys2.add_anchor(p, [0, 0], 1.0)
    sys2.add_gravity([0, -9.81])
    sys2.integrator = "rk45"
    sys2.set_rk45_options(abs_tol=1e-12, rel_tol=1e-12)
    assert sys2.rk45_options.abs_tol == 1e-12
    sys2.step(0.1)
    st = sys2.rk45_stats
    assert st.steps == 1 and st.accepted >= 1 and isinstance(st, cdyn.Rk45Stats)
    sys2.set_solver_options(solver="cg", cg_tolerance=1e-12)
    assert sys2.solver_options.solver == cdyn.ConstraintSolver.CG
    sys2.step(0.1)
    assert sys2.solver_stats.solves > 0
    with pytest.raises(cdyn.InvalidArgumentError):
        sys2.set_solver_options(ks=-1.0)
    assert sys2.solver_options.solver == cdyn.ConstraintSolver.CG  # unchanged
    sys2.set_newton_options(max_iterations=5)
    assert sys2.newton_options.max_iterations == 5
    sys2.time = 10.0
    assert sys2.time == 10.0
    with pytest.raises(cdyn.InvalidArgumentError):
        sys2.time = math.inf


def test_allocator_counts_and_refusals():
    alloc = cdyn.Allocator()
    with cdyn.System(dim=3, allocator=alloc) as sys:
        sys.add_particles(1.0, np.zeros((10, 3)))
        assert alloc.allocations > 0 and alloc.live_bytes > 0
    assert alloc.live_bytes == 0  # everything given back
    # Fail each allocation in turn: a call either succeeds or raises
    # NoMemoryError and changes nothing.
    for n in range(alloc.allocations + 2):
        failing = cdyn.Allocator(fail_after=n)
        try:
            sys = cdyn.System(dim=3, allocator=failing)
        except cdyn.NoMemoryError:
            continue
        with sys:
            made = []
            for i in range(10):
                try:
                    made.append(sys.add_particle(1.0, [i, 0, 0]))
                except cdyn.NoMemoryError:
                    break
            assert sys.particle_count == len(made)
        assert failing.live_bytes == 0


def test_stepping_in_threads_gives_the_same_bits():
    import threading

    def run(out, k):
        with cdyn.System(dim=2, integrator="rk4") as s:
            a = s.add_particle(1.0, [0, 0])
            a.fixed = True
            b = s.add_particle(1.0, [1, 0])
            s.add_spring(a, b, stiffness=10.0 * k, rest_length=0.5)
            s.step(1e-3, steps=2000)
            out[k] = s.positions

    serial, threaded = {}, {}
    for k in (1, 2):
        run(serial, k)
    threads = [threading.Thread(target=run, args=(threaded, k)) for k in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in (1, 2):
        assert np.array_equal(serial[k], threaded[k])


def test_calls_release_the_gil():
    # Another thread runs Python while this one is inside a long C call.
    import threading
    counted, done = [0], [False]

    def spin():
        while not done[0]:
            counted[0] += 1

    with cdyn.Lattice(128, 128, seed=1) as lat:
        t = threading.Thread(target=spin)
        t.start()
        try:
            lat.rain(10)  # the other thread is running
            before = counted[0]
            lat.rain(20000)
            during = counted[0] - before
        finally:
            done[0] = True
            t.join()
    assert during > 0


def test_force_parameters_change_after_they_were_added(sys2):
    p = sys2.add_particle(1.0, [0, 0], [1, 0])
    g = sys2.add_gravity([0, -9.81])
    assert np.array_equal(g.gravity, [0, -9.81])
    g.gravity = [0, -1.62]  # the Moon
    drag = sys2.add_drag(0.0)
    drag.drag = 0.5
    assert drag.drag == 0.5
    with pytest.raises(cdyn.InvalidArgumentError):
        drag.drag = -1.0
    with pytest.raises(cdyn.InvalidArgumentError):
        g.drag = 1.0  # not a drag generator
    sys2.integrator = "rk4"
    sys2.step(1e-3, steps=1000)
    b, t = 0.5, 1.0  # v' = -g - b v along y from rest: v = -(g / b)(1 - exp(-b t))
    assert p.velocity[1] == pytest.approx(-(1.62 / b) * (1 - np.exp(-b * t)), rel=1e-9)
    q = sys2.add_particle(1.0, [1, 0])
    spring = sys2.add_spring(p, q, stiffness=10.0, rest_length=1.0)
    assert spring.spring == (10.0, 0.0, 1.0)
    spring.set_spring(damping=0.2)
    assert spring.spring == cdyn.Spring(10.0, 0.2, 1.0)
