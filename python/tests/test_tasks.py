"""Task systems from Python: a TaskPool of Python threads runs the
library's loops (the C loop bodies run with the GIL released) and the state
is the same, bit for bit, for any number of workers."""
import numpy as np
import pytest

import cdyn


def _chain(n, pool=None, steps=20, integrator="rattle"):
    # The standard chain under RATTLE (or the multiplier solve of symplectic
    # Euler), long enough for the partitioned kernel's loops to go to the
    # pool.
    with cdyn.System(dim=2, integrator=integrator) as s:
        ps = s.add_particles(1.0, [[0.1 * i, 0.0] for i in range(n + 1)])
        ps[0].fixed = True
        for a, b in zip(ps, ps[1:]):
            s.add_distance(a, b, 0.1)
        s.add_gravity([0, -9.81])
        if pool is not None:
            s.set_task_system(pool)
            assert s.task_workers == pool.workers
        s.step(1e-3, steps=steps)
        if pool is not None:
            s.set_task_system(None)
        assert s.task_workers == 1
        return s.get_positions(), s.get_velocities()


def test_pool_gives_the_same_bits():
    # Long chains are cut into segments only under a task system: the runs
    # with 1, 2 and 4 workers agree bit for bit, and with the serial run
    # (swept from both ends) to round-off: the same exact solution, summed
    # in another order, within a few units in the last place of the
    # coordinates (up to 1200 m).
    x0, v0 = _chain(12000)
    with cdyn.TaskPool(1) as pool:
        x1, v1 = _chain(12000, pool)
    assert np.allclose(x1, x0, rtol=0, atol=1e-14 * np.abs(x0).max())
    assert np.allclose(v1, v0, rtol=0, atol=1e-9)
    for workers in (2, 4):
        with cdyn.TaskPool(workers) as pool:
            x, v = _chain(12000, pool)
        assert np.array_equal(x, x1) and np.array_equal(v, v1), workers


def test_cut_multiplier_solve_gives_the_same_bits():
    # Symplectic Euler's multiplier solve is cut the same way: equal bits
    # for any number of workers, round-off from the uncut serial solve.
    x0, v0 = _chain(25000, integrator="symplectic_euler")
    runs = []
    for workers in (1, 2, 4):
        with cdyn.TaskPool(workers) as pool:
            runs.append(_chain(25000, pool, integrator="symplectic_euler"))
    assert np.allclose(runs[0][0], x0, rtol=0, atol=1e-12)
    assert np.allclose(runs[0][1], v0, rtol=0, atol=1e-9)
    for x, v in runs[1:]:
        assert np.array_equal(x, runs[0][0]) and np.array_equal(v, runs[0][1])


def test_bad_input():
    with cdyn.System(dim=2) as s:
        assert s.task_workers == 1
        with pytest.raises(TypeError):
            s.set_task_system("two")
    with pytest.raises(ValueError):
        cdyn.TaskPool(0)


def test_lattice_holds_a_pool():
    with cdyn.Lattice(16, 16, seed=1) as lat, cdyn.TaskPool(2) as pool:
        assert lat.task_workers == 1
        lat.set_task_system(pool)
        assert lat.task_workers == 2
        lat.set_task_system(None)
        assert lat.task_workers == 1
