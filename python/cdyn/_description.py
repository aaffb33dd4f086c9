"""Description structs with a kind and perhaps a callback (motions,
schedules, curves, surfaces): keyword arguments named after the struct's
fields, defaults from its *_init function."""
from . import _enums, _structs
from ._callbacks import TRAMPOLINES, Callback
from ._ffi import ffi, lib


class Description:
    """A size-first description struct with a kind and an optional callback."""

    _ctype = _init = _kind_enum = _callback_kind = _fn_type = None
    _skip = ()  # fields set by a subclass's _fill_extra
    __slots__ = ("kind", "fields", "callback")

    def __init__(self, kind=None, fn=None, **fields):
        cls = _enums.ENUMS[self._kind_enum]
        if kind is None:
            if fn is None:
                raise TypeError("%s: give a kind or a function" % type(self).__name__)
            kind = self._callback_kind
        self.kind = _enums.coerce(cls, kind, type(self).__name__)
        if (fn is not None) != (self.kind == cls[self._callback_kind]):
            raise TypeError("%s: a function goes with kind %s, and only with it"
                            % (type(self).__name__, self._callback_kind.lower()))
        skip = ("kind", "callback", "user") + self._skip
        _structs.fill(_structs.new(self._ctype, getattr(lib, self._init), self.kind),
                      self._ctype, fields, type(self).__name__, skip)  # checks the names
        self.fields = dict(fields)
        self.callback = Callback(fn, self) if fn is not None else None

    def _desc(self):
        """A new C description (valid while this object lives)."""
        p = _structs.new(self._ctype, getattr(lib, self._init), self.kind)
        _structs.fill(p, self._ctype, self.fields, type(self).__name__)
        self._fill_extra(p)
        if self.callback is not None:
            p.callback = TRAMPOLINES[self._fn_type]
            p.user = self.callback.handle
        return p

    def _fill_extra(self, p):
        """Fields that are not plain values (pointers to arrays)."""

    @classmethod
    def _from_desc(cls, p):
        """The Python description of a C description the library returned."""
        callback = None
        if p.user != ffi.NULL and p.callback == TRAMPOLINES[cls._fn_type]:
            callback = ffi.from_handle(p.user)
            if callback.extra is not None:
                return callback.extra
            # a function a snapshot's resolver gave: the fields are the C ones
        obj = cls.__new__(cls)
        obj.kind = _enums.to_python(cls._kind_enum, p.kind)
        obj.fields = {name: _structs._value(f.type, getattr(p, name))
                      for name, f in ffi.typeof(cls._ctype).fields
                      if name not in ("size", "kind", "callback", "user")}
        obj.callback = callback
        return obj

    @property
    def fn(self):
        return self.callback.fn if self.callback is not None else None

    def __repr__(self):
        items = ", ".join("%s=%r" % kv for kv in sorted(self.fields.items()))
        return "%s(%r%s)" % (type(self).__name__, self.kind.name.lower(),
                             ", " + items if items else "")
