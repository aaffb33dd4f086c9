"""Chemical kinetics from Python: closed forms, conservation, rate laws."""
import math

import numpy as np
import pytest

import cdyn


def test_first_order_decay_follows_the_closed_form():
    k = 2.0
    with cdyn.Kinetics() as kin:
        a = kin.add_species("A", 1.0)
        b = kin.add_species("B", 0.0)
        assert (a, b) == (0, 1) and kin.species == ["A", "B"]
        r = kin.add_reaction({"A": 1}, {"B": 1}, k)
        assert kin.rate_constant(r) == k and kin.reaction_count == 1
        kin.set_options(rtol=1e-10, atol=1e-14)
        times = np.linspace(0.1, 2.0, 20)
        c = kin.integrate(2.0, times=times)
        assert c.shape == (20, 2)
        assert c[:, 0] == pytest.approx(np.exp(-k * times), rel=1e-7)
        assert c.sum(axis=1) == pytest.approx(1.0, abs=1e-12)  # A + B conserved
        assert kin.time == 2.0
        st = kin.stats
        assert st.steps > 0 and isinstance(st, cdyn.KineticsStats)
        assert kin.moiety_count == 1
        assert np.array_equal(kin.moieties(), [[1.0, 1.0]])
        assert kin.moiety_totals() == pytest.approx([1.0])
        assert np.array_equal(kin.stoichiometry(), [[-1], [1]])


def test_reversible_reaction_reaches_its_equilibrium():
    with cdyn.Kinetics() as kin:
        kin.add_species("A", 1.0)
        kin.add_species("B", 0.0)
        first = kin.add_reversible_reaction(["A"], ["B"], 3.0, 1.0)
        assert first == 0 and kin.reaction_count == 2
        kin.integrate(20.0)
        c = kin.concentrations
        assert c[1] / c[0] == pytest.approx(3.0, rel=1e-5)
        assert kin.reaction_rates() == pytest.approx([3 * c[0], c[1]], rel=1e-12)
        assert kin.species_rates() == pytest.approx([0, 0], abs=1e-5)


def test_rate_law_callback_against_mass_action():
    # A + B -> C with a Python rate law k a b, against the built-in law.
    k = 0.7
    results = []
    for form in ("builtin", "python", "python+jacobian"):
        with cdyn.Kinetics() as kin:
            for name, c0 in (("A", 1.0), ("B", 0.5), ("C", 0.0)):
                kin.add_species(name, c0)
            if form == "builtin":
                kin.add_reaction(["A", "B"], ["C"], k)
            else:
                jac = None
                if form == "python+jacobian":
                    def jac(kn, t, c, d):
                        d[0], d[1] = k * c[1], k * c[0]
                kin.add_rate_law({"A": 1, "B": 1}, {"C": 1},
                                 lambda kn, t, c: k * c[0] * c[1], jacobian=jac)
                with pytest.raises(cdyn.InvalidArgumentError):
                    kin.rate_constant(0)  # a rate law has no constant
            kin.set_options(rtol=1e-9, atol=1e-13)
            results.append(kin.integrate(3.0, times=[1.0, 3.0]))
    assert results[1] == pytest.approx(results[0], rel=1e-6)
    assert results[2] == pytest.approx(results[0], rel=1e-6)


def test_a_raising_rate_law_rolls_back():
    with cdyn.Kinetics() as kin:
        kin.add_species("A", 1.0)
        kin.add_species("B", 0.0)

        def rate(kn, t, c):
            if t > 0.5:
                raise RuntimeError("boom")
            return c[0]

        kin.add_rate_law(["A"], ["B"], rate, deps=["A"])
        with pytest.raises(RuntimeError, match="boom"):
            kin.integrate(1.0)
        assert kin.time == 0.0 and np.array_equal(kin.concentrations, [1.0, 0.0])
        with pytest.raises(cdyn.BusyError):
            kin.add_rate_law(["A"], ["B"], lambda kn, t, c: kn.add_species("X", 1.0))
            kin.integrate(0.1)


def test_options_methods_and_refusals():
    with cdyn.Kinetics() as kin:
        kin.add_species("A", 2.0)
        kin.add_reaction(["A"], [], 1.0)  # a sink
        assert kin.find_species("A") == 0 and kin.species_name(0) == "A"
        with pytest.raises(cdyn.InvalidArgumentError):
            kin.find_species("nope")
        with pytest.raises(cdyn.InvalidArgumentError):
            kin.add_species("A", 1.0)  # taken
        with pytest.raises(cdyn.InvalidArgumentError):
            kin.concentrations = [-1.0]
        kin.set_options(method="backward_euler", fixed_step=1e-3)
        assert kin.options.method == cdyn.KineticsMethod.BACKWARD_EULER
        kin.set_absolute_tolerances([1e-10])
        kin.set_absolute_tolerances(None)
        c = kin.integrate(1.0, times=[1.0])
        assert c[0, 0] == pytest.approx(2 * math.exp(-1), rel=1e-3)
        kin.set_rate_constant(0, 2.0)
        assert kin.rate_constant(0) == 2.0
        kin.time = 5.0
        assert kin.time == 5.0
        kin.concentrations = [1.0]
        assert kin.concentrations[0] == 1.0
        with pytest.raises(cdyn.InvalidArgumentError):
            kin.integrate(4.0)  # before the current time
        assert "kinetics" in kin.last_error or kin.last_error


def test_kinetics_with_an_allocator_and_close():
    alloc = cdyn.Allocator()
    kin = cdyn.Kinetics(allocator=alloc)
    kin.add_species("A", 1.0)
    assert alloc.allocations > 0
    kin.close()
    assert alloc.live_bytes == 0
    with pytest.raises(cdyn.ClosedError):
        kin.add_species("B", 1.0)
    assert repr(kin) == "<cdyn.Kinetics closed>"
