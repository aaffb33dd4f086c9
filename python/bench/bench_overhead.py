#!/usr/bin/env python3
"""What calling the library from Python costs.

1. One cdyn_system_step on a 10-particle system (the system of
   step_overhead.c: a hanging chain of springs, symplectic Euler), called
   from Python once per step through System.step, and through the bare
   cffi function, against the same step from C: time per call and ratio.
2. Reading 10^6 positions into numpy (System.get_positions, into a new
   array and into an existing one) against numpy copying an array of the
   same shape: GB/s.

Prints the CPU model and the load, for the figures depend on both.

Usage: bench_overhead.py [--c-program PATH] [--particles N] [--steps N]
(meson: `meson test -C build --benchmark python_overhead -v`)
"""
import argparse
import os
import subprocess
import time

import numpy as np

import cdyn


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform
    return platform.processor() or "unknown"


def best(fn, repeats=5):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def chain(sys):
    """The system of step_overhead.c."""
    prev = None
    for i in range(10):
        p = sys.add_particle(1.0, [0.1 * i, 0.0])
        if prev is None:
            p.fixed = True
        else:
            sys.add_spring(prev, p, stiffness=100.0, damping=0.1, rest_length=0.1)
        prev = p
    sys.add_gravity([0.0, -9.81])


def step_costs(steps):
    with cdyn.System(dim=2) as sys:
        chain(sys)
        step, dt = sys.step, 1e-4

        def per_call():
            for _ in range(steps):
                step(dt)

        raw, ptr = cdyn.lib.cdyn_system_step, sys._ptr

        def bare():
            for _ in range(steps):
                raw(ptr, dt)

        def in_one_call():
            step(dt, steps=steps)

        return {name: best(fn) / steps * 1e9
                for name, fn in (("System.step(dt)", per_call),
                                 ("cffi lib.cdyn_system_step", bare),
                                 ("System.step(dt, steps=n)", in_one_call))}


def c_step_cost(program, steps):
    out = subprocess.run([program, str(steps)], check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    return float(out.split()[1])


def read_rates(n):
    with cdyn.System(dim=3) as sys:
        t0 = time.perf_counter()
        for i in range(n):
            sys.add_particle(1.0, (i, 0.0, 0.0))
        build = time.perf_counter() - t0
        buf = np.empty((n, 3))
        nbytes = buf.nbytes
        into = best(lambda: sys.get_positions(out=buf))
        new = best(lambda: sys.positions)
        src = sys.positions
        dst = np.empty_like(src)
        npcopy = best(lambda: np.copyto(dst, src))
        npnew = best(lambda: src.copy())
        assert np.array_equal(buf, src)
    gbs = lambda t: nbytes / t / 1e9  # noqa: E731
    return build, nbytes, {"System.get_positions(out=buf)": gbs(into),
                           "System.positions (new array)": gbs(new),
                           "numpy np.copyto(dst, src)": gbs(npcopy),
                           "numpy src.copy()": gbs(npnew)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--c-program", help="python_step_overhead (built by meson)")
    ap.add_argument("--particles", type=int, default=10 ** 6)
    ap.add_argument("--steps", type=int, default=100000)
    args = ap.parse_args()

    load = os.getloadavg() if hasattr(os, "getloadavg") else ("?",) * 3
    print("cdyn %s at %s" % (cdyn.version_string(), cdyn.LIBRARY_PATH))
    print("CPU: %s, %d logical CPUs; load average %s (1, 5, 15 min)"
          % (cpu_model(), os.cpu_count() or 0, ", ".join("%.2f" % x for x in load)))

    print("\n1. one step of a 10-particle system (ns per step, best of 5 runs of %d steps)"
          % args.steps)
    costs = step_costs(args.steps)
    c_ns = c_step_cost(args.c_program, args.steps) if args.c_program else None
    for name, ns in costs.items():
        ratio = "  %.2f x C" % (ns / c_ns) if c_ns else ""
        print("  %-28s %8.0f ns%s" % (name, ns, ratio))
    if c_ns:
        print("  %-28s %8.0f ns" % ("C cdyn_system_step", c_ns))
        print("  Python's overhead per call: %.0f ns (System.step) over C"
              % (costs["System.step(dt)"] - c_ns))

    print("\n2. reading %d positions (%d MB) into numpy (GB/s, best of 5)"
          % (args.particles, args.particles * 24 // 10 ** 6))
    build, nbytes, rates = read_rates(args.particles)
    for name, rate in rates.items():
        print("  %-32s %6.2f GB/s" % (name, rate))
    print("  ratio get_positions(out=buf) / np.copyto: %.2f"
          % (rates["System.get_positions(out=buf)"] / rates["numpy np.copyto(dst, src)"]))
    print("  (adding the %d particles one call each took %.1f s)" % (args.particles, build))


if __name__ == "__main__":
    main()
