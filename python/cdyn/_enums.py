"""Python IntEnums made from every enum of the headers.

cdyn_integrator -> Integrator with members EXPLICIT_EULER = 1, ... (the
enumerators without their common prefix); cdyn_force_kind -> ForceKind.
Functions that take an enum accept a member, its integer value or its name
in any case ("rk4", "RATTLE").
"""
import enum

from ._ffi import ffi


def _class_name(ctype_name):
    return "".join(w.capitalize() for w in ctype_name[len("cdyn_"):].split("_"))


def _common_prefix(names):
    if len(names) == 1:
        return names[0].rsplit("_", 1)[0] + "_"
    prefix = names[0]
    for n in names[1:]:
        while not n.startswith(prefix):
            prefix = prefix[:-1]
    return prefix[:prefix.rfind("_") + 1]


def _make_enums():
    made = {}
    typedefs = ffi.list_types()[0]
    for ctype_name in sorted(typedefs):
        t = ffi.typeof(ctype_name)
        if t.kind != "enum":
            continue
        names = [n for _v, n in sorted(t.elements.items())]
        prefix = _common_prefix(names)
        members = [(n[len(prefix):], v) for v, n in sorted(t.elements.items())]
        cls = enum.IntEnum(_class_name(ctype_name), members, module=__name__)
        cls.__doc__ = "The C enum %s (values pinned by the library)." % ctype_name
        cls._ctype = ctype_name
        made[ctype_name] = cls
    return made


ENUMS = _make_enums()
BY_NAME = {cls.__name__: cls for cls in ENUMS.values()}


def coerce(cls, value, what="value"):
    """A member of `cls` from a member, an int or a name."""
    if isinstance(value, str):
        try:
            return cls[value.upper()]
        except KeyError:
            raise ValueError("%s: unknown %s %r; one of %s"
                             % (what, cls.__name__, value,
                                ", ".join(m.name.lower() for m in cls))) from None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("%s: expected a %s member, an int or a name, not %s"
                        % (what, cls.__name__, type(value).__name__))
    try:
        return cls(value)
    except ValueError:
        # The library refuses unknown values with a status; let it.
        return int(value)


def to_python(ctype_name, value):
    cls = ENUMS.get(ctype_name)
    if cls is None:
        return value
    try:
        return cls(value)
    except ValueError:
        return int(value)
