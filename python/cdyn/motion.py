"""Prescribed motions and schedules (motion.h) as Python descriptions.

    Motion("oscillation", amplitude=(0, 0.01), frequency=2 * pi * 50)
    Motion.rotation(angular_velocity=1.0, center=(0, 0, 0), axis=(0, 0, 1))
    Motion(fn=my_motion)          # fn(sys, t, state): fill state.position, ...
    Schedule("linear", rate=0.1)
    Schedule(fn=lambda sys, t: (s, ds, dds))

Keyword arguments are the fields of cdyn_motion_desc / cdyn_schedule_desc,
their defaults those of cdyn_motion_desc_init / cdyn_schedule_desc_init.
Vectors take 3 values, or 2 in a 2-D system. A description is copied by the
library when attached; a callback's function is kept alive by the System.
"""
from . import _structs
from ._arrays import array_out
from ._call import binds, fail
from ._description import Description
from ._ffi import ffi, lib

_STATE_FIELDS = ("position", "velocity", "acceleration", "rotation", "angular_velocity",
                 "angular_acceleration")


class Motion(Description):
    """A rigid motion T(t) = (R(t), p(t)) (cdyn_motion_desc)."""

    _ctype, _init = "cdyn_motion_desc", "cdyn_motion_desc_init"
    _kind_enum, _callback_kind, _fn_type = "cdyn_motion_kind", "CALLBACK", "cdyn_motion_fn"
    __slots__ = ()

    @binds("cdyn_motion_desc_init")
    def __init__(self, kind=None, fn=None, **fields):
        super().__init__(kind, fn, **fields)

    @classmethod
    def linear(cls, velocity=(0, 0, 0), acceleration=(0, 0, 0)):
        return cls("linear", velocity=velocity, acceleration=acceleration)

    @classmethod
    def oscillation(cls, amplitude, frequency=1.0, phase=0.0):
        return cls("oscillation", amplitude=amplitude, frequency=frequency, phase=phase)

    @classmethod
    def rotation(cls, angular_velocity, center=(0, 0, 0), axis=(0, 0, 1)):
        return cls("rotation", angular_velocity=angular_velocity, center=center, axis=axis)

    @binds("cdyn_motion_evaluate")
    def evaluate(self, t, dim=3):
        """The transform at time t in a space of dimension dim: a MotionState
        (position, velocity, acceleration, rotation (3 x 3), angular_velocity,
        angular_acceleration)."""
        out = _structs.new("cdyn_motion_state")
        st = lib.cdyn_motion_evaluate(self._desc(), dim, t, out)
        if st:
            fail(None, st, "cdyn_motion_evaluate")
        values = {}
        for name in _STATE_FIELDS:
            arr, ptr = array_out((3, 3) if name == "rotation" else (3,))
            ffi.memmove(ptr, getattr(out, name), arr.nbytes)
            values[name] = arr
        return _structs.dataclass_of("cdyn_motion_state")(**values)


class Schedule(Description):
    """A scalar schedule s(t) with s' and s'' (cdyn_schedule_desc)."""

    _ctype, _init = "cdyn_schedule_desc", "cdyn_schedule_desc_init"
    _kind_enum, _callback_kind, _fn_type = "cdyn_schedule_kind", "CALLBACK", "cdyn_schedule_fn"
    __slots__ = ()

    @binds("cdyn_schedule_desc_init")
    def __init__(self, kind=None, fn=None, **fields):
        super().__init__(kind, fn, **fields)

    @binds("cdyn_schedule_evaluate")
    def evaluate(self, t):
        """(s, s', s'') at time t."""
        out = ffi.new("double[3]")
        st = lib.cdyn_schedule_evaluate(self._desc(), t, out)
        if st:
            fail(None, st, "cdyn_schedule_evaluate")
        return (out[0], out[1], out[2])


def attach(system, fname, handle, desc, what):
    """fname(sys, handle, desc or NULL); the System keeps a callback
    description alive while attached."""
    if desc is not None and not isinstance(desc, Description):
        raise TypeError("%s: expected a %s or None, got %s" % (fname, what, type(desc).__name__))
    st = getattr(lib, fname)(system._checked(), handle,
                             desc._desc() if desc is not None else ffi.NULL)
    if st:
        fail(system, st, fname)
    system._keep_for(handle, fname, desc if desc is not None and desc.callback else None)


def attached(system, fname, handle, cls):
    """The description fname(sys, handle, out, &flag) reports, or None."""
    out = _structs.new(cls._ctype)
    flag = ffi.new("bool *")
    st = getattr(lib, fname)(system._checked(), handle, out, flag)
    if st:
        fail(system, st, fname)
    return cls._from_desc(out) if flag[0] else None
