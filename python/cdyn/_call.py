"""Calling the library: statuses to exceptions, exceptions raised inside
callbacks carried across the C frames, and the table of which C function
each Python name binds.

A callback runs inside a C call on the caller's thread. When it raises, the
trampoline keeps the exception in a thread-local slot and returns failure
to the library, which stops the call (a step: CDYN_ERR_CALLBACK, state as
before). The wrapper of that call then finds the exception in the slot and
raises it again, with its own traceback and a note naming the call.
"""
import threading

from ._errors import ClosedError, error_class
from ._ffi import ffi, lib

_tls = threading.local()


def keep_pending(exc):
    """Called by a trampoline: remember the first exception of this call."""
    if getattr(_tls, "pending", None) is None:
        _tls.pending = exc


def take_pending():
    exc = getattr(_tls, "pending", None)
    _tls.pending = None
    return exc


def _string(ptr):
    return ffi.string(ptr).decode("utf-8", "replace") if ptr != ffi.NULL else ""


def fail(owner, status, function):
    """Raises for a non-OK status of `function` called on `owner` (an object
    with last_error, or None)."""
    message = owner.last_error if owner is not None else ""
    if not message:  # no object to ask: the status says what went wrong
        message = "%s: %s" % (function, _string(lib.cdyn_status_string(status)))
    pending = take_pending()
    err = error_class(status)(message, function=function)
    if pending is not None:
        note = ("raised in a callback during %s, which failed with %s (%s) and changed "
                "nothing" % (function, _string(lib.cdyn_status_name(status)), message))
        if hasattr(pending, "add_note"):
            pending.add_note(note)
        pending.__cdyn_error__ = err
        raise pending
    raise err


def closed(what):
    raise ClosedError("this %s was closed" % what)


class Owned:
    """The lifetime of a Python object that owns one C object (a system, a
    lattice, a reaction network): `closed`, `with`, and the pointer checked
    before each call. The owner sets `_ptr`, names itself in `_what` and
    defines close()."""

    _what = "object"

    @property
    def closed(self):
        return self._ptr is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _checked(self):
        ptr = self._ptr
        if ptr is None:
            closed(self._what)
        return ptr

    def _call(self, fname, *args):
        st = getattr(lib, fname)(self._checked(), *args)
        if st:
            fail(self, st, fname)


# ---- which C function each Python name binds ----------------------------------

BINDINGS = {}  # C function name -> [Python spellings]


def register(c_names, spelling):
    owner, _, attr = spelling.rpartition(".")
    if owner.endswith("Mixin"):
        spelling = "System." + attr  # the System is made of one mixin per concern
    for name in c_names:
        spellings = BINDINGS.setdefault(name, [])
        if spelling not in spellings:
            spellings.append(spelling)


def binds(*c_names):
    """Decorator: the function (method, property getter or setter) calls
    the C functions `c_names`."""
    def mark(fn):
        register(c_names, fn.__qualname__)
        return fn
    return mark


class bound_property(property):
    """A property that registers the C functions its getter and setter call
    under the name it is given in its class."""

    def __init__(self, fget=None, fset=None, doc=None, c_names=()):
        super().__init__(fget, fset, None, doc)
        self._c_names = tuple(c_names)

    def __set_name__(self, owner, name):
        register(self._c_names, "%s.%s" % (owner.__qualname__, name))
