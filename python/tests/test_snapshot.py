"""Snapshots of a System from Python: a run saved and loaded (with its
Python callbacks given back by tag) continues to the same bits as the run
left alone; copies; damaged and foreign buffers; callbacks left unresolved."""
import copy
import gc
import math

import numpy as np
import pytest

import cdyn


def _spring_to_origin(sys, t, x, v, f):
    f -= 4.0 * x  # a Python spring of stiffness 4 N/m to the origin on every particle


def _circle(sys, t, x, gradient, hessian):
    # c(x) = (|x|^2 - 1) / 2: the unit circle
    gradient[:] = x
    hessian[:] = np.eye(len(x))
    return 0.5 * (x @ x - 1.0)


def _floor(sys, t, x, gradient, velocity):
    gradient[:] = [0, 1]
    return x[1] + 0.5  # H = 0 on y = -0.5


def _soft_pair(sys, t, i, j, r):
    # U = k (r0 - r)^2 / 2 inside r0: a soft repulsion
    k, r0 = 50.0, 0.3
    if r >= r0:
        return 0.0, 0.0, 0.0
    return 0.5 * k * (r0 - r) ** 2, k * (r0 - r), -k


FUNCTIONS = {1: _spring_to_origin, 2: _circle, 3: _floor, 4: _soft_pair}


def _build():
    """Three beads: one on the unit circle (a Python implicit constraint),
    all pulled to the origin by a Python spring, with gravity, a Python
    floor and a Python pair repulsion, RATTLE; every callback tagged."""
    sys = cdyn.System(dim=2, integrator="rattle")
    bead = sys.add_particle(1.0, [1.0, 0.0], [0.0, 1.5])
    others = sys.add_particles(0.5, [[0.2, 0.3], [-0.4, 0.1]])
    for p, v in zip(others, ([0.3, -0.2], [-0.1, 0.4])):
        p.velocity = v
    sys.add_gravity([0, -9.81])
    sys.add_force(_spring_to_origin, tag=1)
    sys.add_implicit(bead, _circle, tag=2)
    sys.add_ground(_floor, stiffness=1e4, damping=20.0, friction=0.2, tag=3)
    sys.add_pair_set([bead] + others, kind="callback", fn=_soft_pair, cutoff=0.3, tag=4)
    return sys, bead


def _bits(sys):
    return sys.positions.tobytes() + sys.velocities.tobytes() + np.float64(sys.time).tobytes()


def test_a_loaded_run_continues_bit_for_bit(tmp_path):
    dt = 1e-3
    with _build()[0] as sys:
        sys.step(dt, steps=300)
        data = sys.save()
        assert len(data) == sys.snapshot_size
        sys.save(tmp_path / "run.cdyn")
        sys.step(dt, steps=700)  # the run left alone
        expected = _bits(sys)
        energy = sys.kinetic_energy + sys.potential_energy

    for source, resolver in ((data, FUNCTIONS),
                             (tmp_path / "run.cdyn", lambda kind, tag: FUNCTIONS[tag])):
        with cdyn.System.load(source, resolver=resolver) as loaded:
            assert loaded.time == pytest.approx(300 * dt)
            loaded.step(dt, steps=700)
            assert _bits(loaded) == expected
            assert loaded.kinetic_energy + loaded.potential_energy == energy


def test_handles_and_tags_survive_the_load():
    sys, bead = _build()
    with sys:
        force = sys.add_force(_spring_to_origin)
        assert force.tag == 0
        force.tag = 9
        ring = sys.add_implicit(sys.add_particle(1.0, [0, 1]), _circle)
        assert ring.tag == 0
        ring.tag = 2
        floor = sys.add_ground(_floor, tag=11)
        assert floor.tag == 11
        kinds = []

        def resolver(kind, tag):
            kinds.append((kind, tag))
            return {9: _spring_to_origin, 11: _floor}.get(tag, FUNCTIONS.get(tag))

        with cdyn.System.load(sys.save(), resolver=resolver) as loaded:
            same = bead.on(loaded)
            assert same.valid and same.position.tobytes() == bead.position.tobytes()
            assert force.on(loaded).tag == 9
            assert cdyn.Constraint(loaded, ring.handle).tag == 2
            assert cdyn.Ground(loaded, floor.handle).tag == 11
        assert (cdyn.CallbackKind.FORCE, 1) in kinds and (cdyn.CallbackKind.FORCE, 9) in kinds
        assert (cdyn.CallbackKind.IMPLICIT, 2) in kinds
        assert (cdyn.CallbackKind.GROUND, 3) in kinds and (cdyn.CallbackKind.PAIR, 4) in kinds
        ground_tags = [k for k in kinds if k[0] == cdyn.CallbackKind.GROUND]
        assert ground_tags == [(cdyn.CallbackKind.GROUND, 3), (cdyn.CallbackKind.GROUND, 11)]


def test_a_copy_steps_like_the_original_and_apart_from_it():
    seen = []

    def spring(s, t, x, v, f):
        seen.append(s)
        f -= 4.0 * x

    with cdyn.System(dim=2, integrator="velocity_verlet") as sys:
        p = sys.add_particle(2.0, [1.0, 0.0], [0.0, 0.5])
        sys.add_force(spring)
        sys.step(1e-3, steps=50)
        twin = sys.copy()
        also = copy.deepcopy(sys)
        with twin, also:
            before = _bits(sys)
            twin.step(1e-3, steps=100)
            assert _bits(sys) == before  # the original did not move
            assert seen[-1] is twin  # the callback is given the copy
            sys.step(1e-3, steps=100)
            assert _bits(twin) == _bits(sys)
            p.on(twin).position = [0.0, 0.0]
            assert p.position[0] != 0.0
            also.step(1e-3, steps=100)
            assert _bits(also) == _bits(sys)
            # The harmonic oscillator's energy, m w^2 A^2 / 2 with k = 4
            # (velocity Verlet keeps it within O(dt^2)).
            e = 0.5 * 2.0 * np.sum(p.velocity ** 2) + 0.5 * 4.0 * np.sum(p.position ** 2)
            assert e == pytest.approx(0.5 * 4.0 * 1.0 + 0.5 * 2.0 * 0.25, rel=1e-5)
    assert twin.closed and also.closed


def test_a_callback_curve_comes_back_by_its_tag():
    # A bead on the line y = 2 x (a Python curve) sliding under gravity:
    # g sin(a) along the line, a = atan 2, through the save and load.
    def line(sys, t, q, r, dr, ddr):
        r[:2] = [q, 2 * q]
        dr[:2] = [1, 2]

    with cdyn.System(dim=2, integrator="rk4") as sys:
        bead = sys.add_particle(1.0, [1, 2])
        wire = sys.add_on_curve(bead, cdyn.Curve(fn=line, tag=7))
        sys.add_gravity([0, -9.81])
        sys.step(1e-3, steps=200)
        data = sys.save()

    with pytest.raises(cdyn.UnresolvedError) as err:
        cdyn.System.load(data)
    assert err.value.callback_kind == cdyn.CallbackKind.CURVE
    assert err.value.callback_tag == 7
    assert "7" in str(err.value)

    with cdyn.System.load(data, resolver={7: line}) as loaded:
        loaded.step(1e-3, steps=300)
        s = 0.5 * 9.81 * (2 / math.sqrt(5)) * 0.5 ** 2
        assert cdyn.Particle(loaded, bead.handle).position == pytest.approx(
            [1 - s / math.sqrt(5), 2 - 2 * s / math.sqrt(5)], rel=1e-9)
        assert cdyn.Constraint(loaded, wire.handle).valid


def test_damaged_and_foreign_buffers_raise_format_errors():
    with cdyn.System(dim=3) as sys:
        sys.add_particles(1.0, [[0, 0, 0], [1, 0, 0]])
        sys.add_gravity([0, 0, -9.81])
        data = bytearray(sys.save())
    damaged = bytearray(data)
    damaged[len(data) // 2] ^= 0x10
    for bad in (bytes(damaged), bytes(data[:-1]), bytes(data) + b"\0", b"not a snapshot",
                b""):
        with pytest.raises(cdyn.FormatError) as err:
            cdyn.System.load(bad)
        assert str(err.value).startswith("system_load")
        assert err.value.function == "cdyn_system_load"
        assert isinstance(err.value.offset, int)
    with cdyn.System.load(bytes(data)) as fine:  # the undamaged one loads
        assert fine.particle_count == 2


def test_resolver_failures():
    with _build()[0] as sys:
        data = sys.save()
    with pytest.raises(cdyn.UnresolvedError) as err:
        cdyn.System.load(data)  # no resolver for a system with callbacks
    assert err.value.callback_kind == cdyn.CallbackKind.FORCE and err.value.callback_tag == 1

    def raising(kind, tag):
        raise LookupError("no function for %s %d" % (kind.name, tag))

    with pytest.raises(LookupError, match="no function for FORCE 1"):
        cdyn.System.load(data, resolver=raising)
    with pytest.raises(TypeError):
        cdyn.System.load(data, resolver={1: "not a function"})
    with pytest.raises(TypeError):
        cdyn.System.load(data, resolver=42)
    with pytest.raises(cdyn.UnresolvedError):
        cdyn.System.load(data, resolver={1: _spring_to_origin})  # 2, 3, 4 missing


def test_save_and_copy_are_refused_inside_a_step_and_after_close():
    def sneaky(s, t, x, v, f):
        s.save()

    with cdyn.System(dim=2) as sys:
        sys.add_particle(1.0, [0, 0])
        sys.add_force(sneaky)
        with pytest.raises(cdyn.BusyError):
            sys.step(1e-3)
        assert sys.time == 0.0
    with pytest.raises(cdyn.ClosedError):
        sys.save()
    with pytest.raises(cdyn.ClosedError):
        sys.copy()


def test_load_and_copy_with_an_allocator():
    with cdyn.System(dim=2) as sys:
        sys.add_particles(1.0, [[0, 0], [1, 1]])
        data = sys.save()
        counting = cdyn.Allocator()
        with sys.copy(allocator=counting) as twin, \
                cdyn.System.load(data, allocator=counting) as loaded:
            assert counting.live_bytes > 0
            assert _bits(twin) == _bits(sys) == _bits(loaded)
        with pytest.raises(cdyn.NoMemoryError):
            cdyn.System.load(data, allocator=cdyn.Allocator(fail_after=0))
        with pytest.raises(cdyn.NoMemoryError):
            sys.copy(allocator=cdyn.Allocator(fail_after=0))


def test_a_copy_keeps_its_callbacks_alive_after_the_original_closes():
    calls = []

    def push(s, t, x, v, f):
        calls.append(s)
        f[:, 0] += 2.0  # 2 N on a 1 kg particle

    sys = cdyn.System(dim=2, integrator="velocity_verlet")
    p = sys.add_particle(1.0, [0, 0])
    sys.add_force(push)
    twin = sys.copy()
    sys.close()
    del push
    gc.collect()
    with twin:
        twin.step(0.01, steps=100)
        assert calls and all(s is twin for s in calls)
        # constant acceleration a = 2 m/s^2 for 1 s: x = a t^2 / 2, v = a t
        q = p.on(twin)
        assert q.position == pytest.approx([1.0, 0.0], rel=1e-12)
        assert q.velocity == pytest.approx([2.0, 0.0], rel=1e-12)
