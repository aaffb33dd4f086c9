#!/usr/bin/env python3
"""FFI: Python ctypes drives the shared library through its plain C API.

A 2-D harmonic oscillator: a fixed anchor at the origin and a mass m on a
spring (stiffness k, rest length R0, no damping) stretched by A along x,
released at rest. The exact motion is x(t) = R0 + A cos(w t), y = 0,
v(t) = -A w sin(w t), w = sqrt(k / m). Stepped with RK4, the positions read
back with cdyn_system_get_positions into a ctypes double array agree with it
to 1e-9 (RK4's global error here is ~1e-13). The same oscillator with the
spring written as a Python callback force (cdyn_force_fn through
ctypes.CFUNCTYPE) agrees too. Also: version, status names and strings, the
stale and invalid handle statuses, an options struct (size first) set and
read back through a ctypes.Structure, and a force applied through a flat
array giving x = F t^2 / (2 m).

Usage: test_ffi.py PATH/TO/libcdyn.so
"""
import ctypes
import math
import sys

CDYN_OK = 0
CDYN_ERR_INVALID_ARGUMENT = 1
CDYN_ERR_INVALID_HANDLE = 2
CDYN_ERR_STALE_HANDLE = 3
CDYN_ERR_CALLBACK = 9
CDYN_INTEGRATOR_RK4 = 4
CDYN_INTEGRATOR_RK45 = 5
CDYN_APPLY_UNTIL_CLEARED = 1
CDYN_FORCE_SPRING = 2

c_system_p = ctypes.c_void_p
c_handle = ctypes.c_uint64
c_status = ctypes.c_int
c_double_p = ctypes.POINTER(ctypes.c_double)

# int (*)(const cdyn_system *, double t, size_t n, int dim, const double *x,
#         const double *v, double *f, void *user)
FORCE_FN = ctypes.CFUNCTYPE(ctypes.c_int, c_system_p, ctypes.c_double, ctypes.c_size_t,
                            ctypes.c_int, c_double_p, c_double_p, c_double_p, ctypes.c_void_p)


class Rk45Options(ctypes.Structure):
    """cdyn_rk45_options (system.h): the size first."""
    _fields_ = [("size", ctypes.c_size_t), ("abs_tol", ctypes.c_double),
                ("rel_tol", ctypes.c_double), ("initial_step", ctypes.c_double),
                ("max_step", ctypes.c_double)]


SIGNATURES = {
    "cdyn_version": (ctypes.c_uint, []),
    "cdyn_version_string": (ctypes.c_char_p, []),
    "cdyn_status_string": (ctypes.c_char_p, [c_status]),
    "cdyn_status_name": (ctypes.c_char_p, [c_status]),
    "cdyn_system_create": (c_status, [ctypes.c_int, ctypes.POINTER(c_system_p)]),
    "cdyn_system_destroy": (None, [c_system_p]),
    "cdyn_system_last_error": (ctypes.c_char_p, [c_system_p]),
    "cdyn_system_set_integrator": (c_status, [c_system_p, ctypes.c_int]),
    "cdyn_system_step": (c_status, [c_system_p, ctypes.c_double]),
    "cdyn_system_get_time": (c_status, [c_system_p, c_double_p]),
    "cdyn_system_get_index_count": (c_status, [c_system_p, ctypes.POINTER(ctypes.c_size_t)]),
    "cdyn_system_get_positions": (c_status, [c_system_p, c_double_p, ctypes.c_size_t]),
    "cdyn_system_get_velocities": (c_status, [c_system_p, c_double_p, ctypes.c_size_t]),
    "cdyn_particle_add": (c_status, [c_system_p, ctypes.c_double, c_double_p, c_double_p,
                                     ctypes.POINTER(c_handle)]),
    "cdyn_particle_remove": (c_status, [c_system_p, c_handle]),
    "cdyn_particle_set_fixed": (c_status, [c_system_p, c_handle, ctypes.c_bool]),
    "cdyn_particle_get_index": (c_status, [c_system_p, c_handle,
                                           ctypes.POINTER(ctypes.c_size_t)]),
    "cdyn_particle_get_position": (c_status, [c_system_p, c_handle, c_double_p]),
    "cdyn_particle_is_valid": (ctypes.c_bool, [c_system_p, c_handle]),
    "cdyn_force_add_spring": (c_status, [c_system_p, c_handle, c_handle, ctypes.c_double,
                                         ctypes.c_double, ctypes.c_double,
                                         ctypes.POINTER(c_handle)]),
    "cdyn_force_add_callback": (c_status, [c_system_p, FORCE_FN, ctypes.c_void_p, ctypes.c_bool,
                                           ctypes.POINTER(c_handle)]),
    "cdyn_force_remove": (c_status, [c_system_p, c_handle]),
    "cdyn_force_get_kind": (c_status, [c_system_p, c_handle, ctypes.POINTER(ctypes.c_int)]),
    "cdyn_force_is_valid": (ctypes.c_bool, [c_system_p, c_handle]),
    "cdyn_rk45_options_init": (None, [ctypes.POINTER(Rk45Options)]),
    "cdyn_system_set_rk45_options": (c_status, [c_system_p, ctypes.POINTER(Rk45Options)]),
    "cdyn_system_get_rk45_options": (c_status, [c_system_p, ctypes.POINTER(Rk45Options)]),
    "cdyn_system_apply_forces": (c_status, [c_system_p, c_double_p, ctypes.c_size_t,
                                            ctypes.c_int]),
    "cdyn_system_get_applied_forces": (c_status, [c_system_p, c_double_p, ctypes.c_size_t]),
}

M, K, R0, A = 2.0, 8.0, 1.0, 0.25  # w = 2 rad/s
W = math.sqrt(K / M)
DT, STEPS = 1e-3, 3000
TOL = 1e-9

failures = []


def check(cond, what):
    if cond:
        print("ok   " + what)
    else:
        print("FAIL " + what)
        failures.append(what)


def load(path):
    lib = ctypes.CDLL(path)
    for name, (restype, argtypes) in SIGNATURES.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib


def vec(*xs):
    return (ctypes.c_double * len(xs))(*xs)


def ok(lib, sys_p, st, what):
    if st != CDYN_OK:
        raise RuntimeError("%s: %s (%s)" % (what, lib.cdyn_status_name(st).decode(),
                                            lib.cdyn_system_last_error(sys_p).decode()))


def oscillator(lib, spring_in_python):
    """Builds and runs the oscillator; returns (positions, velocities, t, handles)."""
    sys_p = c_system_p()
    ok(lib, None, lib.cdyn_system_create(2, ctypes.byref(sys_p)), "create")
    anchor, mass = c_handle(), c_handle()
    ok(lib, sys_p, lib.cdyn_particle_add(sys_p, 1.0, vec(0.0, 0.0), None, ctypes.byref(anchor)),
       "add anchor")
    ok(lib, sys_p, lib.cdyn_particle_set_fixed(sys_p, anchor, True), "fix anchor")
    ok(lib, sys_p, lib.cdyn_particle_add(sys_p, M, vec(R0 + A, 0.0), vec(0.0, 0.0),
                                         ctypes.byref(mass)), "add mass")
    idx = ctypes.c_size_t()
    ok(lib, sys_p, lib.cdyn_particle_get_index(sys_p, mass, ctypes.byref(idx)), "index")
    force = c_handle()
    keep = None
    if spring_in_python:
        j = idx.value

        def spring(_sys, _t, n, dim, x, _v, f, _user):
            # The same spring from the Python side: F = -K (l - R0) d / l on the mass.
            if dim != 2 or n <= j:
                return 1
            dx, dy = x[j * dim], x[j * dim + 1]
            l = math.sqrt(dx * dx + dy * dy)
            f[j * dim] += -K * (l - R0) * dx / l
            f[j * dim + 1] += -K * (l - R0) * dy / l
            return 0

        keep = FORCE_FN(spring)  # keep the thunk alive while the system uses it
        ok(lib, sys_p, lib.cdyn_force_add_callback(sys_p, keep, None, False,
                                                   ctypes.byref(force)), "add callback")
    else:
        ok(lib, sys_p, lib.cdyn_force_add_spring(sys_p, anchor, mass, K, 0.0, R0,
                                                 ctypes.byref(force)), "add spring")
    ok(lib, sys_p, lib.cdyn_system_set_integrator(sys_p, CDYN_INTEGRATOR_RK4), "integrator")
    for _ in range(STEPS):
        ok(lib, sys_p, lib.cdyn_system_step(sys_p, DT), "step")
    count = ctypes.c_size_t()
    ok(lib, sys_p, lib.cdyn_system_get_index_count(sys_p, ctypes.byref(count)), "count")
    n = count.value * 2
    xs, vs = (ctypes.c_double * n)(), (ctypes.c_double * n)()
    ok(lib, sys_p, lib.cdyn_system_get_positions(sys_p, xs, n), "positions")
    ok(lib, sys_p, lib.cdyn_system_get_velocities(sys_p, vs, n), "velocities")
    t = ctypes.c_double()
    ok(lib, sys_p, lib.cdyn_system_get_time(sys_p, ctypes.byref(t)), "time")
    return sys_p, (anchor, mass, force), idx.value, list(xs), list(vs), t.value, keep


def options_and_applied_forces(lib):
    """RK45 options through a Structure; a held force through a flat array."""
    sys_p = c_system_p()
    ok(lib, None, lib.cdyn_system_create(2, ctypes.byref(sys_p)), "create")
    opts = Rk45Options()
    lib.cdyn_rk45_options_init(ctypes.byref(opts))
    check(opts.size == ctypes.sizeof(Rk45Options) and opts.abs_tol == 1e-9,
          "cdyn_rk45_options_init fills size %d and the defaults" % opts.size)
    opts.abs_tol, opts.rel_tol = 1e-12, 1e-12
    ok(lib, sys_p, lib.cdyn_system_set_rk45_options(sys_p, ctypes.byref(opts)), "set options")
    got = Rk45Options(size=ctypes.sizeof(Rk45Options))
    ok(lib, sys_p, lib.cdyn_system_get_rk45_options(sys_p, ctypes.byref(got)), "get options")
    check(got.abs_tol == 1e-12 and got.rel_tol == 1e-12, "RK45 options read back")
    opts.size = 3
    check(lib.cdyn_system_set_rk45_options(sys_p, ctypes.byref(opts))
          == CDYN_ERR_INVALID_ARGUMENT, "a wrong size field: CDYN_ERR_INVALID_ARGUMENT")
    mass = 2.0
    particles = [c_handle(), c_handle()]
    for i, p in enumerate(particles):
        ok(lib, sys_p, lib.cdyn_particle_add(sys_p, mass, vec(float(i), 0.0), None,
                                             ctypes.byref(p)), "add")
    forces = vec(1.0, 0.0, 0.0, -3.0)
    ok(lib, sys_p, lib.cdyn_system_apply_forces(sys_p, forces, 4, CDYN_APPLY_UNTIL_CLEARED),
       "apply forces")
    ok(lib, sys_p, lib.cdyn_system_set_integrator(sys_p, CDYN_INTEGRATOR_RK45), "integrator")
    ok(lib, sys_p, lib.cdyn_system_step(sys_p, 1.0), "step")
    xs, fs = (ctypes.c_double * 4)(), (ctypes.c_double * 4)()
    ok(lib, sys_p, lib.cdyn_system_get_positions(sys_p, xs, 4), "positions")
    ok(lib, sys_p, lib.cdyn_system_get_applied_forces(sys_p, fs, 4), "applied forces")
    check(abs(xs[0] - 0.25) < 1e-12 and abs(xs[3] + 0.75) < 1e-12 and xs[2] == 1.0,
          "applied forces: x = F t^2 / (2 m)")
    check(list(fs) == [1.0, 0.0, 0.0, -3.0], "applied forces read back")
    lib.cdyn_system_destroy(sys_p)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    lib = load(sys.argv[1])

    version = lib.cdyn_version()
    major, minor, patch = (int(p) for p in lib.cdyn_version_string().decode().split("."))
    check(version == major * 10000 + minor * 100 + patch,
          "cdyn_version() %d matches cdyn_version_string() %d.%d.%d"
          % (version, major, minor, patch))

    check(lib.cdyn_status_name(CDYN_ERR_STALE_HANDLE) == b"CDYN_ERR_STALE_HANDLE",
          "cdyn_status_name(3) is CDYN_ERR_STALE_HANDLE")
    text = lib.cdyn_status_string(CDYN_ERR_STALE_HANDLE).decode()
    check("stale" in text.lower(), "cdyn_status_string(3) says stale: %r" % text)
    check(lib.cdyn_status_name(CDYN_OK) == b"CDYN_OK", "cdyn_status_name(0) is CDYN_OK")
    check(lib.cdyn_status_name(9999) == b"CDYN_UNKNOWN", "unknown status has a name")

    for python_spring in (False, True):
        label = "Python callback spring" if python_spring else "library spring"
        sys_p, (anchor, mass, force), j, xs, vs, t, keep = oscillator(lib, python_spring)
        check(abs(t - STEPS * DT) < 1e-12, "%s: time %.15g after %d steps" % (label, t, STEPS))
        x_exact = R0 + A * math.cos(W * t)
        v_exact = -A * W * math.sin(W * t)
        ex = max(abs(xs[2 * j] - x_exact), abs(xs[2 * j + 1]))
        ev = max(abs(vs[2 * j] - v_exact), abs(vs[2 * j + 1]))
        check(ex < TOL and ev < TOL,
              "%s: RK4 matches x = R0 + A cos(wt) to %.2e (position), %.2e (velocity)"
              % (label, ex, ev))
        check(xs[0] == 0.0 and xs[1] == 0.0, "%s: the fixed anchor stayed at the origin" % label)

        if not python_spring:
            kind = ctypes.c_int()
            check(lib.cdyn_force_get_kind(sys_p, force, ctypes.byref(kind)) == CDYN_OK
                  and kind.value == CDYN_FORCE_SPRING, "force kind is CDYN_FORCE_SPRING")
            # Removing the mass removes its spring: both handles go stale.
            check(lib.cdyn_particle_remove(sys_p, mass) == CDYN_OK, "remove the mass")
            out = vec(0.0, 0.0)
            check(lib.cdyn_particle_get_position(sys_p, mass, out) == CDYN_ERR_STALE_HANDLE,
                  "removed particle: CDYN_ERR_STALE_HANDLE")
            check(lib.cdyn_force_get_kind(sys_p, force, ctypes.byref(kind))
                  == CDYN_ERR_STALE_HANDLE, "spring of a removed particle: CDYN_ERR_STALE_HANDLE")
            check(len(lib.cdyn_system_last_error(sys_p)) > 0,
                  "last error is set: %r" % lib.cdyn_system_last_error(sys_p))
            check(not lib.cdyn_particle_is_valid(sys_p, mass)
                  and not lib.cdyn_force_is_valid(sys_p, force)
                  and lib.cdyn_particle_is_valid(sys_p, anchor), "is_valid answers")
            check(lib.cdyn_particle_get_position(sys_p, 0, out) == CDYN_ERR_INVALID_HANDLE,
                  "zero handle: CDYN_ERR_INVALID_HANDLE")
            check(lib.cdyn_particle_get_position(sys_p, force.value, out)
                  == CDYN_ERR_INVALID_HANDLE, "force handle as particle: CDYN_ERR_INVALID_HANDLE")
            check(lib.cdyn_system_step(sys_p, -1.0) == CDYN_ERR_INVALID_ARGUMENT,
                  "negative dt: CDYN_ERR_INVALID_ARGUMENT")
        lib.cdyn_system_destroy(sys_p)
        del keep
    lib.cdyn_system_destroy(None)  # a no-op
    options_and_applied_forces(lib)

    print("%d checks failed" % len(failures) if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
