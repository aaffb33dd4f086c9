"""Rigid bodies and pair potentials from Python."""
import numpy as np
import pytest

import cdyn


def test_rigid_body_spins_freely(sys2):
    ps = sys2.add_particles([1.0, 1.0, 2.0], [[1, 0], [-1, 0], [0, 1]])
    body = sys2.add_rigid_body(ps)
    assert body.particle_count == 3 and body.particles == ps
    assert ps[0].rigid_body == body and body.mass == 4.0
    assert body.scheme == cdyn.RigidScheme.SECOND_ORDER
    body.scheme = "first_order"
    assert body.scheme == cdyn.RigidScheme.FIRST_ORDER
    body.angular_velocity = [0, 0, 2.0]
    assert body.angular_velocity == pytest.approx([0, 0, 2.0])
    body.velocity = [1, 0]
    L0 = body.angular_momentum.copy()
    sys2.step(1e-3, steps=500)
    assert body.angular_momentum == pytest.approx(L0, rel=1e-12)
    assert body.velocity == pytest.approx([1, 0])
    assert body.center_of_mass == pytest.approx([0.5, 0.5])
    q = body.orientation
    assert q @ q.T == pytest.approx(np.eye(3), abs=1e-12)
    assert body.inertia.shape == (3, 3) and body.body_inertia.shape == (3, 3)
    trans, rot = body.kinetic_energy
    assert trans + rot == pytest.approx(sys2.kinetic_energy)
    r = cdyn.rigid_rotation([0, 0, 2.0], np.pi / 4)
    assert r[:2, :2] == pytest.approx(np.array([[0.0, -1.0], [1.0, 0.0]]), abs=1e-15)
    with pytest.raises(cdyn.InvalidArgumentError):
        ps[0].position = [5, 5]  # members move with the body
    body.remove()
    assert ps[0].rigid_body is None
    with pytest.raises(cdyn.SingularError):
        sys2.add_rigid_body(ps[:1])


def test_hertz_pairs_conserve_momentum(sys2):
    a = sys2.add_particle(1.0, [0, 0], [1, 0])
    b = sys2.add_particle(2.0, [0.95, 0], [0, 0])
    hertz = sys2.add_pairs([(a, b)], "hertz", stiffness=1e5, radius=0.5)
    assert hertz.kind == cdyn.ForceKind.PAIR
    contacts = hertz.pair_contacts()
    assert contacts == [(a, b)]
    hertz.set_pair_radius(a, 0.45)
    assert hertz.pair_radius(a) == 0.45
    p0 = sys2.momentum.copy()
    sys2.integrator = "velocity_verlet"
    sys2.step(1e-4, steps=2000)
    assert sys2.momentum == pytest.approx(p0, abs=1e-12)
    assert b.velocity[0] > 0  # pushed


def test_pair_set_finds_the_close_pairs(sys2):
    ps = sys2.add_particles(1.0, [[0, 0], [0.5, 0], [5, 5]])
    wca = sys2.add_pair_set(ps, "lj_repulsive", epsilon=1.0, sigma=0.6)
    assert wca.pair_contacts() == [(ps[0], ps[1])] or wca.pair_contacts() == [(ps[1], ps[0])]
    assert wca.energy > 0
    with pytest.raises(cdyn.InvalidArgumentError):
        sys2.add_pair_set(ps, "hertz", stiffness=-1.0)
    with pytest.raises(ValueError):
        sys2.add_pair_set(ps, "gravity")
