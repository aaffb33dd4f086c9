#!/usr/bin/env python3
"""A bead on the wire x^2 + 100 y = 0, in both forms, from Python.

As in the C example bead_on_parabola, y points down and gravity is +9.81
along y, so the wire y = -x^2 / 100 is a bowl; the bead is released at rest
at x = 50. Once as an implicit constraint whose c(x), gradient and Hessian
are a Python function (System.add_implicit), once in the coordinate q of
r(q) = (q, -q^2 / 100) (System.add_on_curve with a parabola). Draws the
paths and how far each bead is from the wire, |c| / |grad c|, with the
energy error; writes bead_on_parabola_py.png (matplotlib) or .svg.

Usage: bead_on_parabola.py [--time T] [--dt DT] [--svg] [--out DIR]
"""
import argparse
import os

import numpy as np

import cdyn
import plot

X0, G = 50.0, 9.81


def wire(sys, t, x, gradient, hessian):
    """c(x, y) = x^2 + 100 y, its gradient and its Hessian."""
    gradient[0], gradient[1] = 2.0 * x[0], 100.0
    hessian[0, 0], hessian[0, 1], hessian[1, 0], hessian[1, 1] = 2.0, 0.0, 0.0, 0.0
    return x[0] * x[0] + 100.0 * x[1]


def run(form, duration, dt):
    with cdyn.System(dim=2, integrator="rk4") as sys:
        bead = sys.add_particle(1.0, [X0, -X0 * X0 / 100.0])
        if form == "implicit":
            sys.add_implicit(bead, wire)
        else:
            sys.add_on_curve(bead, cdyn.Curve("parabola", coefficient=-0.01))
        sys.add_gravity([0.0, G])
        e0 = sys.kinetic_energy + sys.potential_energy
        steps = int(round(duration / dt))
        xs, es = np.empty((steps + 1, 2)), np.empty(steps + 1)
        xs[0], es[0] = bead.position, 0.0
        for k in range(1, steps + 1):
            sys.step(dt)
            xs[k] = bead.position
            es[k] = abs(sys.kinetic_energy + sys.potential_energy - e0) / e0
    c = xs[:, 0] ** 2 + 100 * xs[:, 1]
    distance = np.abs(c) / np.hypot(2 * xs[:, 0], 100.0)
    return np.arange(steps + 1) * dt, xs, distance, es


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--time", type=float, default=20.0)
    ap.add_argument("--dt", type=float, default=1e-3)
    ap.add_argument("--svg", action="store_true", help="draw with the SVG writer")
    ap.add_argument("--out", default=".", help="directory for the picture")
    args = ap.parse_args()
    if args.svg:
        plot.backend("svg")
    runs = {form: run(form, args.time, args.dt) for form in ("implicit", "parametric")}
    colors = {"implicit": "#d62728", "parametric": "#1f77b4"}

    fig = plot.Figure(2, 1, "Bead on the wire x\u00b2 + 100 y = 0 (y down, gravity along +y), "
                      "RK4, dt = %g s" % args.dt)
    ax = fig.panel(0, title="the wire and the paths (y down)", xlabel="x (m)",
                   ylabel="height -y (m)")
    q = np.linspace(-1.2 * X0, 1.2 * X0, 200)
    ax.line(q, q * q / 100, color="#bbbbbb", width=5, label="wire")
    for form, (t, xs, d, e) in runs.items():
        ax.line(xs[:, 0], -xs[:, 1], color=colors[form], width=1.0, label=form)
    ax.legend()
    ax = fig.panel(1, title="distance from the wire and energy error", xlabel="t (s)",
                   ylog=True)
    for form, (t, xs, d, e) in runs.items():
        ax.line(t[1:], d[1:], color=colors[form], label="%s: |c| / |grad c| (m)" % form)
        ax.line(t[1:], e[1:], color=colors[form], dashed=True, label="%s: |E - E0| / E0" % form)
    ax.legend()
    path = fig.save(os.path.join(args.out, "bead_on_parabola_py"))

    xi, xp = runs["implicit"][1], runs["parametric"][1]
    print("bead_on_parabola.py: released at x = %g, %g s, RK4 dt = %g s" % (X0, args.time,
                                                                             args.dt))
    for form, (t, xs, d, e) in runs.items():
        print("  %-10s  largest distance from the wire %.1e m, energy error %.1e, "
              "leftmost x %.4f" % (form, d.max(), e.max(), xs[:, 0].min()))
    print("  the two forms' positions differ by at most %.1e m" % np.max(np.abs(xi - xp)))
    print("wrote %s" % path)


if __name__ == "__main__":
    main()
