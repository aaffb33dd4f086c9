#!/usr/bin/env python3
"""A chain of 20 rods released from the horizontal, from Python.

A fixed pivot and 20 unit masses 0.1 m apart on rigid rods
(System.add_distance), under gravity, integrated with RATTLE. Draws the
chain every 0.1 s from early (blue) to late (red) with the path of its free
end, and the worst rod-length error and the energy error against time;
writes pendulum_chain_py.png (matplotlib) or .svg and prints what it
measured.

Usage: pendulum_chain.py [--links N] [--time T] [--dt DT] [--svg] [--out DIR]
"""
import argparse
import os

import numpy as np

import cdyn
import plot

ROD, G = 0.1, 9.81


def simulate(links, duration, dt):
    with cdyn.System(dim=2, integrator="rattle") as sys:
        pivot = sys.add_particle(1.0, [0.0, 0.0])
        pivot.fixed = True
        beads = sys.add_particles(1.0, [[ROD * (i + 1), 0.0] for i in range(links)])
        chain = [pivot] + beads
        for a, b in zip(chain, chain[1:]):
            sys.add_distance(a, b, ROD)
        sys.add_gravity([0.0, -G])
        order = [p.index for p in chain]  # rows of the bulk arrays, pivot to end
        e0 = sys.kinetic_energy + sys.potential_energy
        e_ref = sum(G * ROD * (i + 1) for i in range(links))  # what hanging releases
        steps = int(round(duration / dt))
        every = max(1, int(round(0.1 / dt)))
        t, rod_err, e_err, end, shots = [], [], [], [], []
        for k in range(steps + 1):
            if k:
                sys.step(dt)
            x = sys.positions[order]  # one call: every position, in chain order
            lengths = np.linalg.norm(np.diff(x, axis=0), axis=1)
            t.append(sys.time)
            rod_err.append(np.max(np.abs(lengths - ROD)))
            e_err.append(abs(sys.kinetic_energy + sys.potential_energy - e0) / e_ref)
            end.append(x[-1])
            if k % every == 0:
                shots.append(x)
        stats = sys.projection_stats
    return np.array(t), np.array(rod_err), np.array(e_err), np.array(end), shots, stats


def draw(t, rod_err, e_err, end, shots, links, stem):
    fig = plot.Figure(2, 1, "Chain of %d rods released from the horizontal (RATTLE)" % links)
    ax = fig.panel(0, title="the chain every 0.1 s, and the path of its end",
                   xlabel="x (m)", ylabel="y (m)", equal=True)
    for k, x in enumerate(shots):
        f = k / max(1, len(shots) - 1)
        color = "#%02x%02x%02x" % (int(40 + 200 * f), 70, int(220 - 190 * f))
        ax.line(x[:, 0], x[:, 1], color=color, width=1.0)
    ax.line(end[:, 0], end[:, 1], color="#888888", width=0.8, dashed=True, label="free end")
    ax.legend()
    ax = fig.panel(1, title="errors", xlabel="t (s)", ylabel="", ylog=True)
    ax.line(t[1:], rod_err[1:] / ROD, color="#1f77b4", label="worst |length - L| / L")
    ax.line(t[1:], e_err[1:], color="#d62728", label="|E - E(0)| / (energy released)")
    ax.legend()
    return fig.save(stem)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--links", type=int, default=20)
    ap.add_argument("--time", type=float, default=3.0)
    ap.add_argument("--dt", type=float, default=1e-3)
    ap.add_argument("--svg", action="store_true", help="draw with the SVG writer")
    ap.add_argument("--out", default=".", help="directory for the picture")
    args = ap.parse_args()
    if args.svg:
        plot.backend("svg")
    t, rod_err, e_err, end, shots, stats = simulate(args.links, args.time, args.dt)
    path = draw(t, rod_err, e_err, end, shots, args.links,
                os.path.join(args.out, "pendulum_chain_py"))
    print("pendulum_chain.py: %d rods of %g m, RATTLE, dt = %g s, %g s" % (
        args.links, ROD, args.dt, args.time))
    print("  worst rod-length error %.2e m (relative %.2e)" % (rod_err.max(),
                                                             rod_err.max() / ROD))
    print("  worst energy error %.2e of the energy released" % e_err.max())
    print("  projections: %d, %d position iterations in all, none failed: %s" % (
        stats.projections, stats.position_iterations_total, stats.not_converged == 0))
    print("wrote %s" % path)


if __name__ == "__main__":
    main()
