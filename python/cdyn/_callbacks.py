"""Trampolines: one C function per callback type of the headers, shared by
every Python callback of that type. The library passes the user pointer
back; it is a cffi handle of a Callback holding the Python function, so
that nothing but that handle needs to stay alive, and the object that owns
the C side (a System, a Kinetics, a description) keeps it.

The Python function gets the object (or None when a shape or motion is
evaluated alone) and the time first, then numpy views of the library's
arrays: read-only for inputs, writable for outputs. The views are valid
during the call only: a callback that keeps one (in a global, an attribute,
a closure) fails the call with CallbackError instead of leaving a view of
memory the library will reuse or free.

An exception raised by the function is kept (_call.keep_pending) and the
trampoline returns failure; the wrapper of the C call raises it again.
"""
import sys
import weakref

from . import _call
from ._arrays import view
from ._errors import STATUS_CLASSES
from ._ffi import ffi

OWNERS = weakref.WeakValueDictionary()  # address of a C object -> its Python object
_getrefcount = getattr(sys, "getrefcount", None)
_CALLBACK_ERROR = STATUS_CLASSES[9]


def register_owner(ptr, obj):
    OWNERS[int(ffi.cast("uintptr_t", ptr))] = obj


class Callback:
    """A Python function registered with the library, and its C handle.
    It also remembers the views it made (the library passes the same arrays
    call after call: reused, a view costs a dictionary lookup) and the owner
    it was last called for."""

    __slots__ = ("fn", "handle", "extra", "views", "running", "owner_ptr", "owner_ref",
                 "__weakref__")

    def __init__(self, fn, extra=None):
        if not callable(fn):
            raise TypeError("expected a callable, got %s" % type(fn).__name__)
        self.fn = fn
        self.extra = extra
        self.handle = ffi.new_handle(self)
        self.views = {}
        self.running = 0  # calls of this function in progress
        self.owner_ptr = self.owner_ref = None

    def owner(self, cptr):
        """The Python object of the C object `cptr` (None for NULL)."""
        if cptr == ffi.NULL:
            return None
        if cptr == self.owner_ptr:
            o = self.owner_ref()
            if o is not None and o._ptr == cptr:  # not closed, not another at that address
                return o
        o = OWNERS.get(int(ffi.cast("uintptr_t", cptr)))
        self.owner_ptr, self.owner_ref = cptr, weakref.ref(o) if o is not None else _none
        return o


def _none():
    return None


class _Views:
    """Views of C arrays for one call (and objects holding them), to tell
    after the call whether the Python function kept a reference."""

    __slots__ = ("items", "cache")

    def __init__(self, cache):
        self.items = []
        self.cache = cache

    def make(self, ptr, shape, writable):
        key = (ptr, shape, writable)
        arr = self.cache.get(key)
        if arr is None:
            arr, buf = view(ptr, shape, writable)
            if buf is None:
                return arr  # empty: nothing of the library's
            self.cache[key] = arr
        self.items.append(arr)
        self.items.append(arr.base)
        return arr

    def track(self, obj):
        self.items.append(obj)
        return obj

    def counts(self):
        if _getrefcount is None:
            return None
        return [_getrefcount(a) for a in self.items]


def _fn(cb):
    return cb.fn


def _extra(cb):
    return cb.extra


def _extra_first(cb):
    return cb.extra[0]


def _run(cptr, user, build, convert=None, pick=_fn):
    """Calls the function `pick` takes from the Callback `user` with the
    owner of `cptr` and the arguments `build` makes, its result turned into
    plain numbers by `convert`; returns (ok, converted result)."""
    cb = ffi.from_handle(user)
    owner = cb.owner(cptr)
    if cb.running == 0 and len(cb.views) > 64:
        cb.views.clear()  # shapes change as particles come and go; none in use now
    views = _Views(cb.views)
    cb.running += 1
    if owner is not None:
        owner._in_callback += 1
    try:
        args = build(views)
        before = views.counts()
        result = pick(cb)(owner, *args)
        result = convert(result) if convert is not None else None
        if before != views.counts():
            cb.views.clear()  # the kept views are never handed out again
            raise _CALLBACK_ERROR(
                "a callback kept a view of the library's arrays after it returned; "
                "copy what you need to keep (x.copy())")
        return True, result
    except BaseException as exc:  # re-raised by the wrapper of the C call
        _call.keep_pending(exc)
        return False, None
    finally:
        cb.running -= 1
        if owner is not None:
            owner._in_callback -= 1


def _number(what):
    def convert(value):
        try:
            return float(value)
        except (TypeError, ValueError) as exc:
            raise TypeError("%s must return %s as a number, not %r (%s)"
                            % ("a callback", what, value, exc)) from None
    return convert


# ---- cdyn_force_fn --------------------------------------------------------------

@ffi.callback("cdyn_force_fn", error=1)
def force_fn(csys, t, n, dim, x, v, f, user):
    ok, _ = _run(csys, user, lambda w: (t, w.make(x, (n, dim), False),
                                        w.make(v, (n, dim), False), w.make(f, (n, dim), True)))
    return 0 if ok else 1


class Jacobian:
    """What a force's Jacobian callback adds its blocks to; valid during the
    call only."""

    __slots__ = ("_jac", "_dim")

    def __init__(self, jac, dim):
        self._jac = jac
        self._dim = dim

    @_call.binds("cdyn_jacobian_add_block")
    def add_block(self, i, j, dfdx=None, dfdv=None):
        """Adds dF_i/dx_j (`dfdx`) and dF_i/dv_j (`dfdv`), each (dim, dim) or
        None, for particle indices i and j."""
        from ._arrays import array_in
        if self._jac is None:
            raise _CALLBACK_ERROR("Jacobian.add_block: used outside its callback")
        d = self._dim
        px = ffi.NULL if dfdx is None else array_in(dfdx, (d, d), "dfdx")[1]
        pv = ffi.NULL if dfdv is None else array_in(dfdv, (d, d), "dfdv")[1]
        from ._ffi import lib
        st = lib.cdyn_jacobian_add_block(self._jac, i, j, px, pv)
        if st:
            _call.fail(None, st, "cdyn_jacobian_add_block")


@ffi.callback("cdyn_force_jacobian_fn", error=1)
def force_jacobian_fn(csys, t, n, dim, x, v, jac, user):
    holder = Jacobian(jac, dim)
    ok, _ = _run(csys, user, lambda w: (t, w.make(x, (n, dim), False),
                                        w.make(v, (n, dim), False), w.track(holder)),
                 pick=_extra)
    holder._jac = None
    return 0 if ok else 1


# ---- constraints -------------------------------------------------------------------

@ffi.callback("cdyn_constraint_fn", error=1)
def constraint_fn(csys, t, n, dim, x, v, rows, g, jacobian, velocity_terms, g_t, user):
    def build(w):
        args = (t, w.make(x, (n, dim), False), w.make(v, (n, dim), False),
                w.make(g, (rows,), True), w.make(jacobian, (rows, n, dim), True),
                w.make(velocity_terms, (rows,), True))
        if g_t != ffi.NULL:
            args += (w.make(g_t, (rows,), True),)
        return args
    ok, _ = _run(csys, user, build)
    return 0 if ok else 1


@ffi.callback("cdyn_implicit_fn", error=1)
def implicit_fn(csys, t, dim, x, c, gradient, hessian, c_t, gradient_t, c_tt, user):
    def build(w):
        args = (t, w.make(x, (dim,), False), w.make(gradient, (dim,), True),
                w.make(hessian, (dim, dim), True))
        if c_t != ffi.NULL:
            args += (w.make(c_t, (), True), w.make(gradient_t, (dim,), True),
                     w.make(c_tt, (), True))
        return args
    ok, value = _run(csys, user, build, _number("c(x)"))
    if ok:
        c[0] = value
    return 0 if ok else 1


# ---- grounds -----------------------------------------------------------------------

@ffi.callback("cdyn_ground_fn", error=1)
def ground_fn(csys, t, dim, x, h, grad, velocity, user):
    ok, value = _run(csys, user, lambda w: (t, w.make(x, (dim,), False),
                                                 w.make(grad, (dim,), True),
                                                 w.make(velocity, (dim,), True)),
                     _number("H(x)"))
    if ok:
        h[0] = value
    return 0 if ok else 1


# ---- motions and schedules ---------------------------------------------------------

class MotionStateView:
    """The motion state a motion callback fills: numpy views of the C
    struct's arrays (position, velocity, acceleration: 3; rotation: 3 x 3;
    angular_velocity, angular_acceleration: 3)."""

    __slots__ = ("position", "velocity", "acceleration", "rotation", "angular_velocity",
                 "angular_acceleration")

    def __init__(self, w, state):
        for name in self.__slots__:
            shape = (3, 3) if name == "rotation" else (3,)
            setattr(self, name, w.make(getattr(state, name), shape, True))
        w.track(self)


@ffi.callback("cdyn_motion_fn", error=1)
def motion_fn(csys, t, out, user):
    ok, _ = _run(csys, user, lambda w: (t, MotionStateView(w, out)))
    return 0 if ok else 1


@ffi.callback("cdyn_schedule_fn", error=1)
def schedule_fn(csys, t, out, user):
    ok, value = _run(csys, user, lambda w: (t,), _three)
    if ok:
        out[0], out[1], out[2] = value
    return 0 if ok else 1


def _three(value):
    try:
        s = [float(x) for x in value]
        if len(s) == 3:
            return s
    except (TypeError, ValueError):
        pass
    raise TypeError("a schedule's function must return (s, s', s''), not %r" % (value,))


# ---- shapes ----------------------------------------------------------------------------

@ffi.callback("cdyn_curve_fn", error=1)
def curve_fn(csys, t, q, r, dr, ddr, user):
    ok, _ = _run(csys, user, lambda w: (t, q, w.make(r, (3,), True), w.make(dr, (3,), True),
                                        w.make(ddr, (3,), True)))
    return 0 if ok else 1


@ffi.callback("cdyn_surface_fn", error=1)
def surface_fn(csys, t, u, v, r, ru, rv, ruu, ruv, rvv, user):
    ok, _ = _run(csys, user, lambda w: (t, u, v) + tuple(w.make(p, (3,), True)
                                                         for p in (r, ru, rv, ruu, ruv, rvv)))
    return 0 if ok else 1


# ---- pair potentials ----------------------------------------------------------------

def _three_numbers(value):
    try:
        u = [float(x) for x in value]
        if len(u) == 3:
            return u
    except (TypeError, ValueError):
        pass
    raise TypeError("a pair potential must return (U, F, dF/dr), not %r" % (value,))


@ffi.callback("cdyn_pair_fn", error=1)
def pair_fn(csys, t, i, j, r, energy, force, dforce, user):
    ok, value = _run(csys, user, lambda w: (t, i, j, r), _three_numbers)
    if ok:
        for ptr, v in zip((energy, force, dforce), value):
            if ptr != ffi.NULL:
                ptr[0] = v
    return 0 if ok else 1


# ---- kinetics ---------------------------------------------------------------------------

@ffi.callback("cdyn_kinetics_rate_fn", error=1)
def rate_fn(ckin, t, c, n, rate, user):
    ok, value = _run(ckin, user, lambda w: (t, w.make(c, (n,), False)),
                     _number("the rate"))
    if ok:
        rate[0] = value
    return 0 if ok else 1


@ffi.callback("cdyn_kinetics_rate_jacobian_fn", error=1)
def rate_jacobian_fn(ckin, t, c, n, drate, user):
    n_deps = ffi.from_handle(user).extra[1]
    ok, _ = _run(ckin, user, lambda w: (t, w.make(c, (n,), False),
                                        w.make(drate, (n_deps,), True)),
                 pick=_extra_first)
    return 0 if ok else 1


# The trampoline of each callback type of the headers (checked by the tests:
# a new callback type needs one here).
TRAMPOLINES = {
    "cdyn_force_fn": force_fn,
    "cdyn_force_jacobian_fn": force_jacobian_fn,
    "cdyn_constraint_fn": constraint_fn,
    "cdyn_implicit_fn": implicit_fn,
    "cdyn_ground_fn": ground_fn,
    "cdyn_motion_fn": motion_fn,
    "cdyn_schedule_fn": schedule_fn,
    "cdyn_curve_fn": curve_fn,
    "cdyn_surface_fn": surface_fn,
    "cdyn_pair_fn": pair_fn,
    "cdyn_kinetics_rate_fn": rate_fn,
    "cdyn_kinetics_rate_jacobian_fn": rate_jacobian_fn,
}

