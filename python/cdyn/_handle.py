"""Objects a system owns (particles, forces, constraints, grounds, rigid
bodies) as small Python objects holding the System and the 64-bit handle.

A handle of a removed object raises StaleHandleError when used, one of the
wrong kind InvalidHandleError: the library checks, Python passes the
integer. Any call after System.close() raises ClosedError.

Properties are made from the C getter and setter: the output's type comes
from the function's declaration (a double, a bool, an enum), its length for
vectors from the shape given here ("dim", 3, (3, 3)).
"""
from . import _enums
from ._arrays import array_out, vector_in
from ._call import bound_property, fail
from ._ffi import ffi, lib, signature


def _shape(owner, shape):
    if shape == "dim":
        return (owner.dimension,)
    return shape if isinstance(shape, tuple) else (shape,)


def _out_scalar(fname):
    return signature(fname).args[-1]


def _from_c(ctype, value):
    if ctype.kind == "enum":
        return _enums.to_python(ctype.cname, value)
    if ctype.cname == "_Bool":
        return bool(value)
    return value


def _to_c(ctype, value, what):
    if ctype.kind == "enum":
        cls = _enums.ENUMS.get(ctype.cname)
        return int(_enums.coerce(cls, value, what)) if cls else value
    return value


def read(system, fname, head, shape=None):
    """Calls fname(sys, *head, out) and returns out: a scalar of the
    declared type, or an array of `shape`."""
    ptr = system._checked()
    if shape is None:
        out_type = _out_scalar(fname)
        out = ffi.new(out_type)
        st = getattr(lib, fname)(ptr, *head, out)
        if st:
            fail(system, st, fname)
        return _from_c(out_type.item, out[0])
    arr, out = array_out(_shape(system, shape))
    st = getattr(lib, fname)(ptr, *head, out)
    if st:
        fail(system, st, fname)
    return arr


def write(system, fname, head, value, shape=None):
    ptr = system._checked()
    if shape is None:
        ctype = signature(fname).args[-1]
        arg = _to_c(ctype, value, fname)
    else:
        arg = vector_in(value, _shape(system, shape)[0], fname)
    try:
        st = getattr(lib, fname)(ptr, *head, arg)
    except TypeError as e:
        raise TypeError("%s: %s" % (fname, e)) from None
    if st:
        fail(system, st, fname)


def handle_property(get=None, set=None, shape=None, doc=None):
    """A property of a handle object from cdyn_<kind>_get_x / _set_x."""
    fget = (lambda self: read(self.system, get, (self.handle,), shape)) if get else None
    fset = (lambda self, v: write(self.system, set, (self.handle,), v, shape)) if set else None
    return bound_property(fget, fset, doc, [n for n in (get, set) if n])


def system_property(get=None, set=None, shape=None, doc=None):
    """A property of System from cdyn_system_get_x / _set_x."""
    fget = (lambda self: read(self, get, (), shape)) if get else None
    fset = (lambda self, v: write(self, set, (), v, shape)) if set else None
    return bound_property(fget, fset, doc, [n for n in (get, set) if n])


def raw(obj):
    """The integer handle of a handle object, or an int given as one."""
    if isinstance(obj, Handle):
        return obj.handle
    if isinstance(obj, int) and not isinstance(obj, bool):
        return obj
    raise TypeError("expected a cdyn object (Particle, Force, ...) or an integer handle, "
                    "got %s" % type(obj).__name__)


class Handle:
    """Base of the objects a System owns."""

    __slots__ = ("system", "handle")

    def __init__(self, system, handle):
        self.system = system
        self.handle = int(handle)

    def __eq__(self, other):
        return (type(other) is type(self) and other.system is self.system
                and other.handle == self.handle)

    def __hash__(self):
        return hash((id(self.system), self.handle))

    def __int__(self):
        return self.handle

    def on(self, system):
        """The same object in another system that holds it under the same
        handle: a loaded snapshot or a copy of this one's system."""
        return type(self)(system, self.handle)

    def __repr__(self):
        return "<cdyn.%s 0x%016x>" % (type(self).__name__, self.handle)


def valid_property(is_valid):
    """Handle.valid from cdyn_<kind>_is_valid: whether the object is live in
    its system (False after remove(), after a removal that took it along,
    and after System.close())."""
    def fget(self):
        if self.system.closed:
            return False
        return bool(getattr(lib, is_valid)(self.system._checked(), self.handle))
    return bound_property(fget, None, valid_property.__doc__, [is_valid])


def tagged(obj, tag):
    """Sets the snapshot tag of a new callback object when one is given;
    a refused tag removes the object (all or nothing)."""
    if tag is not None:
        try:
            obj.tag = tag
        except BaseException:
            obj.remove()
            raise
    return obj


def remove(obj, fname):
    """Removes a handle object with cdyn_<kind>_remove; the System then
    drops what it kept alive for objects that are gone."""
    st = getattr(lib, fname)(obj.system._checked(), obj.handle)
    if st:
        fail(obj.system, st, fname)
    obj.system._prune()
