"""Molecular dynamics from Python: Lennard-Jones, tabulated and Python pair
potentials, periodic boxes, exclusions, the Langevin thermostat, the
kinetic temperature and the virial pressure."""
import numpy as np
import pytest

import cdyn


def _lj(r, eps=1.0, sigma=1.0, rc=2.5):
    """U, F, dF/dr of the Lennard-Jones potential shifted at rc."""
    s6 = (sigma / r) ** 6
    sc6 = (sigma / rc) ** 6
    u = 4 * eps * (s6 * s6 - s6) - 4 * eps * (sc6 * sc6 - sc6)
    f = 24 * eps / r * (2 * s6 * s6 - s6)
    df = -24 * eps / r ** 2 * (26 * s6 * s6 - 7 * s6)
    return u, f, df


def _two_atoms(kind, **params):
    with cdyn.System(dim=2, integrator="velocity_verlet") as sys:
        a = sys.add_particle(1.0, [0.0, 0.0], [0.3, 0.0])
        b = sys.add_particle(1.0, [1.3, 0.1], [-0.3, 0.0])
        lj = sys.add_pairs([(a, b)], kind, epsilon=1.0, sigma=1.0, cutoff=2.5, **params)
        energies = []
        for _ in range(400):
            sys.step(2e-3)
            energies.append(sys.kinetic_energy + sys.potential_energy)
        return sys.positions.copy(), np.array(energies), lj.energy


def test_python_and_tabulated_potentials_match_the_lennard_jones_kind():
    x_lj, e_lj, u_lj = _two_atoms("lj")
    calls = []

    def potential(sys, t, i, j, r):
        calls.append(r)
        return _lj(r)

    x_py, e_py, u_py = _two_atoms("callback", fn=potential)
    assert calls and np.max(np.abs(x_py - x_lj)) < 1e-12
    assert u_py == pytest.approx(u_lj, rel=1e-12)
    rs = np.linspace(0.8, 2.5, 4001)
    table = np.array([_lj(r)[:2] for r in rs])
    x_tab, e_tab, _ = _two_atoms("table", table=table, table_r_min=0.8)
    assert np.max(np.abs(x_tab - x_lj)) < 1e-6  # cubic Hermite between samples
    for e in (e_lj, e_py, e_tab):
        assert np.ptp(e) < 1e-3 * abs(e[0])  # velocity Verlet keeps the energy
    with pytest.raises(ValueError, match=r"\(n, 2\)"):
        _two_atoms("table", table=np.zeros(10))


def test_a_raising_pair_potential_fails_the_step():
    with cdyn.System(dim=2) as sys:
        a = sys.add_particle(1.0, [0.0, 0.0])
        b = sys.add_particle(1.0, [1.0, 0.0])

        def bad(s, t, i, j, r):
            return 1.0, 2.0  # two values, not three

        sys.add_pairs([(a, b)], "callback", fn=bad, cutoff=2.0)
        with pytest.raises(TypeError, match=r"\(U, F, dF/dr\)"):
            sys.step(1e-3)
        assert sys.time == 0.0


def test_periodic_box_wraps_and_unwraps(sys2):
    p = sys2.add_particle(1.0, [9.5, 5.0], [1.0, 0.0])
    sys2.set_box([0, 0], [10, 10], periodic=[True, False])
    box = sys2.box
    assert np.array_equal(box.lengths, [10, 10]) and box.periodic.tolist() == [True, False]
    sys2.step(0.01, steps=100)  # one metre along x: through the face
    assert p.position[0] == pytest.approx(0.5)
    assert p.unwrapped_position[0] == pytest.approx(10.5)
    assert p.image.tolist() == [1, 0] and p.image.dtype == np.int64
    assert sys2.unwrapped_positions[p.index] == pytest.approx([10.5, 5.0])
    sys2.clear_box()
    assert sys2.box is None and p.position[0] == pytest.approx(10.5)


def test_ideal_gas_pressure_and_temperature():
    # No interactions: P V = N kT exactly, with kT = sum m v^2 / (dim N).
    rng = np.random.default_rng(1)
    with cdyn.System(dim=3) as sys:
        sys.add_particles(1.0, rng.uniform(0, 4, (50, 3)), rng.normal(0, 1, (50, 3)))
        sys.set_box([0, 0, 0], [4, 4, 4])
        assert sys.degrees_of_freedom == 150
        kt = sys.temperature
        assert kt == pytest.approx(2 * sys.kinetic_energy / 150, rel=1e-14)
        assert sys.pressure * 64 == pytest.approx(50 * kt, rel=1e-12)


def test_langevin_thermostat_reaches_its_temperature():
    rng = np.random.default_rng(2)
    with cdyn.System(dim=3, integrator="velocity_verlet") as sys:
        sys.add_particles(1.0, rng.uniform(0, 10, (400, 3)))
        sys.set_langevin_options(kT=1.5, gamma=2.0, seed=7)
        assert sys.langevin_options.kT == 1.5
        sys.step(0.01, steps=300)  # 6 relaxation times
        temps = []
        for _ in range(300):
            sys.step(0.01)
            temps.append(sys.temperature)
        assert np.mean(temps) == pytest.approx(1.5, rel=0.05)
        sys.integrator = "rk4"
        with pytest.raises(cdyn.UnsupportedError):
            sys.step(0.01)


def test_pair_set_exclusions_skin_and_stats(sys2):
    ps = sys2.add_particles(1.0, [[0, 0], [0.9, 0], [1.8, 0], [2.7, 0]])
    for a, b in zip(ps, ps[1:]):
        sys2.add_distance(a, b, 0.9)
    wca = sys2.add_pair_set(ps, "lj_repulsive", epsilon=1.0, sigma=1.0)
    wca.pair_skin = 0.2
    assert wca.pair_skin == 0.2
    wca.pair_exclude_bonded = 1
    assert wca.pair_exclude_bonded == 1
    sys2.step(1e-3)
    stats = wca.pair_stats
    assert isinstance(stats, cdyn.PairStats) and stats.excluded == 3 and stats.evaluations > 0
    assert wca.energy == 0.0  # every close pair is bonded
    wca.pair_exclude_bonded = 0
    wca.add_pair_exclusions([(ps[0], ps[1])])
    sys2.step(1e-3)
    assert wca.pair_stats.excluded == 1
    wca.clear_pair_exclusions()
    sys2.step(1e-3)
    assert wca.pair_stats.excluded == 0 and wca.energy > 0
    with pytest.raises(cdyn.InvalidArgumentError):
        wca.pair_exclude_bonded = 3
