"""Size-first structs of the headers as keyword arguments and dataclasses.

Options structs are filled by their *_init function (the library's
defaults), then by keyword arguments named after the struct's fields: the
fields come from the headers, so a renamed or new field is a renamed or new
keyword. Reports (stats, counters) come back as frozen dataclasses whose
fields are the struct's, made once per struct type from its declaration.
"""
import dataclasses

import numpy as np

from . import _enums
from ._ffi import ffi


def fields_of(ctype):
    return [name for name, _f in ffi.typeof(ctype).fields if name != "size"]


USED = set()  # the struct types made so far (the tests check they are all used)


def new(ctype, init=None, *init_args):
    """A new struct, filled by `init` (its *_init function) or with only its
    size set."""
    USED.add(ctype)
    p = ffi.new(ctype + " *")
    if init is not None:
        init(p, *init_args)
    elif "size" in dict(ffi.typeof(ctype).fields):
        p.size = ffi.sizeof(ctype)
    return p


def _assign(p, name, field_type, value, what):
    if field_type.kind == "enum":
        cls = _enums.ENUMS.get(field_type.cname)
        value = int(_enums.coerce(cls, value, what)) if cls else value
    elif field_type.kind == "array":
        arr = np.asarray(value)
        if arr.dtype.kind not in "iuf":
            raise TypeError("%s: expected numbers, got dtype %s" % (what, arr.dtype))
        if field_type.length == 3 and arr.shape == (2,):
            arr = np.append(arr, 0)  # a 2-D vector in a 3-vector field
        if arr.shape != (field_type.length,):
            raise ValueError("%s: expected %d values, got shape %s"
                             % (what, field_type.length, arr.shape))
        value = arr.tolist()
    elif field_type.kind == "primitive" and field_type.cname in ("int", "_Bool") \
            and isinstance(value, bool):
        value = int(value)
    try:
        setattr(p, name, value)
    except (TypeError, OverflowError) as e:
        raise type(e)("%s: %s" % (what, e)) from None


def fill(p, ctype, options, what, skip=()):
    """Sets the fields named in `options` (a dict) on the struct `p`."""
    fields = dict(ffi.typeof(ctype).fields)
    for name, value in options.items():
        if name == "size" or name not in fields or name in skip:
            valid = [f for f in fields if f != "size" and f not in skip]
            raise TypeError("%s: unknown option %r; the options are %s"
                            % (what, name, ", ".join(valid)))
        _assign(p, name, fields[name].type, value, "%s: %s" % (what, name))
    return p


def class_name(ctype):
    return "".join(w.capitalize() for w in ctype[len("cdyn_"):].split("_"))


_CLASSES = {}


def dataclass_of(ctype):
    """The frozen dataclass with the fields of `ctype` (size left out)."""
    cls = _CLASSES.get(ctype)
    if cls is None:
        cls = dataclasses.make_dataclass(class_name(ctype), fields_of(ctype), frozen=True)
        cls.__module__ = "cdyn"
        cls.__doc__ = "The fields of the C struct %s." % ctype
        _CLASSES[ctype] = cls
    return cls


def _value(field_type, value):
    if field_type.kind == "enum":
        return _enums.to_python(field_type.cname, value)
    if field_type.kind == "array":
        return tuple(value)
    if field_type.kind == "pointer":
        return value  # a cdata pointer: the wrappers that need it read it
    return value


def to_dataclass(p, ctype, **replace):
    """The struct `p` as the dataclass of its type; `replace` overrides
    fields (a handle turned into an object, say)."""
    values = {}
    for name, f in ffi.typeof(ctype).fields:
        if name == "size":
            continue
        values[name] = replace[name] if name in replace else _value(f.type, getattr(p, name))
    return dataclass_of(ctype)(**values)


def report_types():
    """The structs that come back as dataclasses: options, reports, states."""
    names = []
    for name in ffi.list_types()[0]:
        t = ffi.typeof(name)
        if t.kind == "struct" and t.fields is not None and \
                name.endswith(("_options", "_stats", "_counters", "_state")):
            names.append(name)
    return sorted(names)
