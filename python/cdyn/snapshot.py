"""Snapshots of a System (snapshot.h): save() into bytes or a file, load()
a new System from them, copy() one in memory.

A snapshot cannot hold Python functions. Each object made with one (a
callback force or pair potential, a user or implicit constraint, a
callback ground, curve, surface, motion or schedule) carries an integer
tag of the caller's choosing: `tag=` when it is made, or `obj.tag = n`
(forces, constraints, grounds), the `tag` field of the descriptions
(Curve(fn=..., tag=n), Motion, Schedule). load() asks a resolver for the
function of each tag: a mapping {tag: function} or a function
resolver(kind, tag) -> function (kind a CallbackKind); a force saved with a
Jacobian needs (function, jacobian). None, a missing key or no resolver
fails the load with UnresolvedError, which names the kind and the tag.
"""
import collections.abc
import os

from . import _call, _enums
from ._call import binds, fail
from ._callbacks import TRAMPOLINES, Callback
from ._errors import error_class
from ._ffi import ffi, lib

# The trampoline of each field of cdyn_callback_binding, found by the
# field's function type, so that a kind added to the library is served by
# the trampoline of its type.
_BY_TYPE = {ffi.typeof(name): fn for name, fn in TRAMPOLINES.items()}
_FIELDS = dict(ffi.typeof("cdyn_callback_binding").fields)


class _Loading:
    """What one load's resolver calls share: the caller's resolver and the
    callbacks made for the new system."""

    __slots__ = ("resolver", "made")

    def __init__(self, resolver):
        self.resolver = resolver
        self.made = []


def _lookup(resolver, kind, tag):
    if resolver is None:
        return None
    if isinstance(resolver, collections.abc.Mapping):
        return resolver.get(tag)
    if callable(resolver):
        return resolver(kind, tag)
    raise TypeError("resolver: expected a mapping {tag: function} or a function "
                    "resolver(kind, tag), got %s" % type(resolver).__name__)


def _function(value, kind, tag):
    fn = getattr(value, "fn", value)  # a Curve, Surface, Motion or Schedule: its function
    if not callable(fn):
        raise TypeError("the resolver gave %r for the %s callback of tag %d, not a function"
                        % (value, kind.name.lower(), tag))
    return fn


@ffi.callback("cdyn_callback_resolve_fn", error=1)
def _resolve(kind, tag, out, user):
    loading = ffi.from_handle(user)
    try:
        kind = _enums.to_python("cdyn_callback_kind", kind)
        field = kind.name.lower() if isinstance(kind, _enums.ENUMS["cdyn_callback_kind"]) \
            else None
        if field not in _FIELDS:
            return 1  # a kind this package does not know: unresolved
        value = _lookup(loading.resolver, kind, tag)
        if value is None:
            return 1
        jacobian = None
        if field == "force" and isinstance(value, tuple):
            if len(value) != 2:
                raise TypeError("the resolver gave %r for the force of tag %d: expected a "
                                "function or (function, jacobian)" % (value, tag))
            value, jacobian = value
        cb = Callback(_function(value, kind, tag), jacobian)
        setattr(out, field, _BY_TYPE[_FIELDS[field].type])
        if jacobian is not None:
            out.force_jacobian = TRAMPOLINES["cdyn_force_jacobian_fn"]
        out.user = cb.handle
        loading.made.append(cb)
        return 0
    except BaseException as exc:  # re-raised by System.load
        _call.keep_pending(exc)
        return 1


# The resolver is a callback type of the headers too: its trampoline is
# listed with the others.
TRAMPOLINES["cdyn_callback_resolve_fn"] = _resolve


def _read_source(source):
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if hasattr(source, "read"):
        return source.read()
    with open(os.fspath(source), "rb") as f:
        return f.read()


class SnapshotMixin:
    """System.save, System.load, System.copy."""

    @property
    @binds("cdyn_system_snapshot_size")
    def snapshot_size(self):
        """The bytes a save() would write now."""
        out = ffi.new("size_t *")
        st = lib.cdyn_system_snapshot_size(self._checked(), out)
        if st:
            fail(self, st, "cdyn_system_snapshot_size")
        return out[0]

    @binds("cdyn_system_save")
    def save(self, path=None):
        """A snapshot of the whole system: the bytes, or written to `path` (a
        file name or an open binary file) when given. Only reads the system:
        saving does not change the run."""
        n = self.snapshot_size
        buf = bytearray(n)
        written = ffi.new("size_t *")
        st = lib.cdyn_system_save(self._checked(), ffi.from_buffer(buf), n, written)
        if st:
            fail(self, st, "cdyn_system_save")
        data = bytes(memoryview(buf)[:written[0]])
        if path is None:
            return data
        if hasattr(path, "write"):
            path.write(data)
        else:
            with open(os.fspath(path), "wb") as f:
                f.write(data)
        return None

    @classmethod
    @binds("cdyn_system_load", "cdyn_snapshot_options_init")
    def load(cls, source, resolver=None, allocator=None):
        """A new System from a snapshot (bytes, a file name or an open binary
        file). `resolver` gives the functions of the snapshot's callbacks by
        their tags: {tag: function}, or resolver(kind, tag) -> function (a
        force saved with a Jacobian: (function, jacobian)). A damaged or
        foreign buffer raises FormatError (`.offset` says where), a callback
        left without a function UnresolvedError (`.callback_kind`,
        `.callback_tag`). Handles taken before the save name the same objects
        in the new system: p.on(new)."""
        data = _read_source(source)
        options = ffi.new("cdyn_snapshot_options *")
        lib.cdyn_snapshot_options_init(options)
        loading = _Loading(resolver)
        keep_loading = ffi.new_handle(loading)
        options.resolve = _resolve
        options.resolve_user = keep_loading
        if allocator is not None:
            options.allocator = allocator._c
        report = ffi.new("cdyn_snapshot_report *")
        report.size = ffi.sizeof("cdyn_snapshot_report")
        out = ffi.new("cdyn_system **")
        st = lib.cdyn_system_load(ffi.from_buffer(data), len(data), options, report, out)
        if st:
            _load_failed(st, report)
        keep = {(None, i): cb for i, cb in enumerate(loading.made)}
        return cls._adopt(out[0], keep, allocator)

    @binds("cdyn_system_clone")
    def copy(self, allocator=None):
        """A deep copy: a new System in the same state that steps to the same
        bits, sharing the Python callbacks (called with the copy) and the
        handles' values. `allocator`: the copy's, else this system's."""
        out = ffi.new("cdyn_system **")
        st = lib.cdyn_system_clone(self._checked(),
                                   allocator._c if allocator is not None else ffi.NULL, out)
        if st:
            fail(self, st, "cdyn_system_clone")
        return type(self)._adopt(out[0], dict(self._keep),
                                 allocator if allocator is not None else self._allocator)

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()


def _load_failed(status, report):
    message = ffi.string(report.message).decode("utf-8", "replace")
    if not message:
        message = "cdyn_system_load: %s" % ffi.string(lib.cdyn_status_string(status)).decode()
    err = error_class(status)(message, function="cdyn_system_load")
    err.callback_kind = (_enums.to_python("cdyn_callback_kind", report.callback_kind)
                         if report.callback_kind else None)
    err.callback_tag = report.callback_tag if report.callback_kind else None
    err.offset = report.offset
    pending = _call.take_pending()
    if pending is not None:
        note = "raised in the resolver during cdyn_system_load, which failed with %s" % message
        if hasattr(pending, "add_note"):
            pending.add_note(note)
        pending.__cdyn_error__ = err
        raise pending
    raise err
