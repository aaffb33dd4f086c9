#!/usr/bin/env python3
"""Rain erodes a lattice into river networks, from Python.

A 256 x 256 erosion lattice (cdyn.Lattice) rained on with 256^2 / 4 drops,
as the C example river_network does by default. Draws the eroded relief,
the drainage map with the river network (drainage >= R) and the
distribution of drainage areas P(A >= a) with its fitted exponent; writes
river_network_py.png (matplotlib) or .svg and prints the statistics.

Usage: river_network.py [--size N] [--drops K] [--seed S] [--svg] [--out DIR]
"""
import argparse
import os
import time

import numpy as np

import cdyn
import plot

# Terrain colours from low (green) through brown to high (white).
TERRAIN = np.array([[40, 110, 60], [120, 160, 80], [170, 140, 90], [140, 110, 90],
                    [245, 245, 240]], dtype=float)


def relief(h):
    """Shaded relief: colour by height, light from the upper left."""
    t = (h - h.min()) / max(np.ptp(h), 1e-300)
    s = np.clip(t * (len(TERRAIN) - 1), 0, len(TERRAIN) - 1 - 1e-9)
    i = s.astype(int)
    f = (s - i)[..., None]
    rgb = TERRAIN[i] * (1 - f) + TERRAIN[i + 1] * f
    gy, gx = np.gradient(h)
    shade = 1.0 + 0.5 * np.tanh((gy - gx - (gy - gx).mean()) / max((gy - gx).std(), 1e-300))
    return np.clip(rgb * (0.55 + 0.45 * shade[..., None] / 1.5), 0, 255).astype(np.uint8)


def rivers(drainage, threshold):
    """Pale ground, rivers (drainage >= threshold) darker blue the larger."""
    rgb = np.full(drainage.shape + (3,), 238, dtype=float)
    net = drainage >= threshold
    a = np.log(drainage[net] / threshold) / np.log(drainage.max() / threshold)
    rgb[net] = np.stack([90 - 80 * a, 150 - 110 * a, 240 - 110 * a], axis=-1)
    return rgb.astype(np.uint8)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--drops", type=int, default=0, help="default size^2 / 4")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--svg", action="store_true", help="draw with the SVG writer")
    ap.add_argument("--out", default=".", help="directory for the picture")
    args = ap.parse_args()
    if args.svg:
        plot.backend("svg")
    n = args.size
    drops = args.drops or n * n // 4

    with cdyn.Lattice(n, n, seed=args.seed) as lat:
        t0 = time.perf_counter()
        lat.rain(drops)
        rain_s = time.perf_counter() - t0
        heights = lat.heights            # (ny, nx), row y = 0 (the outlets) first
        drainage = lat.drainage()        # the same layout
        stats = lat.stats(area_min=10, area_max=1000)  # the C example's fit range
        counters = lat.counters
        threshold = lat.get_param("R")

    # P(A >= a) over the areas that occur
    areas = np.sort(drainage.ravel())
    a = np.unique(areas)
    p = 1.0 - np.searchsorted(areas, a, side="left") / areas.size
    fit_a = np.array([stats.area_fit_min, stats.area_fit_max])
    anchor = np.interp(np.log(fit_a[0]), np.log(a), np.log(p))
    fit_p = np.exp(anchor - stats.area_exponent * np.log(fit_a / fit_a[0]))

    fig = plot.Figure(3, 1, "Rain on a %d x %d lattice: %d drops, seed %d" % (n, n, drops,
                                                                            args.seed),
                      width=5.0, height=5.0)
    ext = (0, n, 0, n)
    fig.panel(0, title="eroded surface (outlets along y = 0)", xlabel="x", ylabel="y",
              equal=True).image(relief(heights), ext)
    fig.panel(1, title="river network: drainage >= %g sites" % threshold, xlabel="x",
              ylabel="y", equal=True).image(rivers(drainage, threshold), ext)
    ax = fig.panel(2, title="drainage areas", xlabel="area a (sites)", ylabel="P(A >= a)",
                   xlog=True, ylog=True)
    ax.points(a, p, color="#1f77b4", size=6, label="the lattice")
    ax.line(fit_a, fit_p, color="#d62728", width=2,
            label="fit: a^-%.3f, tau = %.3f" % (stats.area_exponent, stats.tau))
    ax.legend()
    path = fig.save(os.path.join(args.out, "river_network_py"))

    print("river_network.py: %d x %d lattice, seed %d, %d drops in %.2f s"
          % (n, n, args.seed, drops, rain_s))
    print("  %.1f moves per drop, %d slides" % (counters.walk_steps / counters.drops,
                                                counters.slides))
    print("  P(A >= a) ~ a^-%.3f over a = %g..%g: tau = %.3f"
          % (stats.area_exponent, stats.area_fit_min, stats.area_fit_max, stats.tau))
    print("  Hack's law: main-stream length ~ A^%.3f" % stats.hack_exponent)
    print("  Strahler orders (drainage >= %g): max %d, streams %s, bifurcation ratio %.2f"
          % (stats.threshold, stats.max_order, list(stats.streams[:stats.max_order]),
             stats.bifurcation_ratio))
    print("wrote %s" % path)


if __name__ == "__main__":
    main()
