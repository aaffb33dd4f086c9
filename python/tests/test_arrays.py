"""numpy in and out: shapes, the C bulk index order, dtypes, refusals that
change nothing."""
import numpy as np
import pytest

import cdyn


def _three(sys):
    ps = sys.add_particles([1.0, 2.0, 3.0], [[0, 0], [1, 0], [2, 0]], [[0, 1], [0, 2], [0, 3]])
    return ps


def test_bulk_arrays_are_in_the_index_order(sys2):
    ps = _three(sys2)
    x, v = sys2.positions, sys2.velocities
    assert x.shape == (3, 2) and x.dtype == np.float64 and x.flags.c_contiguous
    for p in ps:
        assert np.array_equal(x[p.index], p.position)
        assert np.array_equal(v[p.index], p.velocity)
    # A removed particle leaves a row of zeros; its index is reused.
    ps[1].remove()
    assert sys2.index_count == 3 and sys2.particle_count == 2
    assert np.array_equal(sys2.positions[1], [0, 0])
    q = sys2.add_particle(1.0, [5, 5])
    assert q.index == 1


def test_writing_state_from_arrays(sys2):
    ps = _three(sys2)
    new = np.arange(6.0).reshape(3, 2)
    sys2.positions = new
    sys2.velocities = -new
    for p in ps:
        assert np.array_equal(p.position, new[p.index])
        assert np.array_equal(p.velocity, -new[p.index])
    # ints convert; a non-contiguous view too
    sys2.positions = np.arange(12).reshape(3, 4)[:, ::2]
    assert np.array_equal(sys2.positions, [[0, 2], [4, 6], [8, 10]])


def test_reading_into_a_buffer(sys2):
    _three(sys2)
    buf = np.empty((3, 2))
    out = sys2.get_positions(out=buf)
    assert out is buf and np.array_equal(buf, sys2.positions)
    with pytest.raises(ValueError, match="shape"):
        sys2.get_positions(out=np.empty((2, 2)))
    with pytest.raises(ValueError):
        sys2.get_positions(out=np.empty((3, 2), dtype=np.float32))
    with pytest.raises(ValueError, match="contiguous"):
        sys2.get_positions(out=np.empty((3, 4))[:, ::2])


@pytest.mark.parametrize("bad, error", [
    (np.zeros((2, 2)), ValueError),            # too few rows
    (np.zeros((3, 3)), ValueError),            # 3-D vectors in a 2-D system
    (np.zeros(6), ValueError),                 # flat
    (np.zeros((3, 2), dtype=complex), TypeError),
    (np.array([["a", "b"]] * 3), TypeError),
    ([[1, None]] * 3, TypeError),
    (np.zeros((3, 2), dtype=bool), TypeError),
])
def test_wrong_shapes_and_dtypes_are_refused(sys2, bad, error):
    ps = _three(sys2)
    before = sys2.positions.copy()
    with pytest.raises(error):
        sys2.positions = bad
    with pytest.raises(error):
        sys2.velocities = bad
    assert np.array_equal(sys2.positions, before)
    with pytest.raises((ValueError, TypeError)):
        ps[0].position = bad


def test_nan_is_refused_and_nothing_changes(sys2):
    ps = _three(sys2)
    before = sys2.positions.copy()
    bad = before.copy()
    bad[2, 1] = np.nan
    with pytest.raises(cdyn.InvalidArgumentError) as info:
        sys2.positions = bad
    assert info.value.function == "cdyn_system_set_positions"
    assert str(info.value) == sys2.last_error
    assert np.array_equal(sys2.positions, before)
    with pytest.raises(cdyn.InvalidArgumentError):
        ps[0].velocity = [np.inf, 0]
    with pytest.raises(cdyn.InvalidArgumentError):
        sys2.add_particle(np.nan, [0, 0])
    with pytest.raises(cdyn.InvalidArgumentError):
        sys2.step(float("nan"))
    assert sys2.particle_count == 3 and sys2.time == 0.0


def test_three_dimensions(sys3):
    p = sys3.add_particle(1.0, [1, 2, 3], [4, 5, 6])
    assert sys3.positions.shape == (1, 3)
    assert np.array_equal(sys3.velocities[0], [4, 5, 6])
    with pytest.raises(ValueError, match=r"\(3,\)"):
        p.position = [1, 2]


def test_evaluate_gives_accelerations(sys2):
    p = sys2.add_particle(2.0, [0, 0])
    sys2.add_gravity([0, -9.81])
    a = sys2.evaluate()
    assert a.shape == (1, 2) and np.array_equal(a[p.index], [0, -9.81])
    assert sys2.time == 0.0


def test_diagnostics(sys2):
    ps = sys2.add_particles([1.0, 3.0], [[0, 0], [4, 0]], [[1, 0], [0, 1]])
    assert sys2.kinetic_energy == pytest.approx(0.5 * 1 + 0.5 * 3)
    assert np.array_equal(sys2.momentum, [1, 3])
    assert np.array_equal(sys2.angular_momentum, [0, 0, 12])
    com, mass = sys2.center_of_mass()
    assert mass == 4 and np.array_equal(com, [3, 0])
    assert sys2.drive_work == 0.0
    assert sys2.potential_energy == 0.0
    assert ps[0].mass == 1.0
