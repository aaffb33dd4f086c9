"""System options and reports, made from the headers' naming rule.

Every options family X of the library is a struct cdyn_X_options with
cdyn_X_options_init and cdyn_system_set_X_options / _get_X_options; every
report a struct cdyn_X_stats with cdyn_system_get_X_stats. Each becomes

    sys.set_X_options(**fields)   the other fields at cdyn_X_options_init's
                                  defaults (not at their current values)
    sys.X_options                 the options in use (a dataclass)
    sys.X_stats                   the report (a dataclass)

so that an options struct or report added to the library appears here with
its fields, and a renamed field is a renamed keyword.
"""
import re

from . import _structs
from ._arrays import array_out
from ._call import binds, bound_property, fail, register
from ._ffi import ffi, function_names, lib
from ._handle import system_property


def _setter(family, ctype):
    fname = "cdyn_system_set_%s_options" % family
    init = "cdyn_%s_options_init" % family

    def set_options(self, **options):
        p = _structs.new(ctype, getattr(lib, init))
        _structs.fill(p, ctype, options, "set_%s_options" % family)
        st = getattr(lib, fname)(self._checked(), p)
        if st:
            fail(self, st, fname)
    set_options.__name__ = set_options.__qualname__ = "set_%s_options" % family
    set_options.__doc__ = ("Sets the %s options (%s): keywords %s; the others at the "
                           "defaults of %s." % (family, ctype,
                                                ", ".join(_structs.fields_of(ctype)), init))
    return set_options, [fname, init]


def _getter(fname, ctype, name):
    def fget(self):
        out = _structs.new(ctype)
        st = getattr(lib, fname)(self._checked(), out)
        if st:
            fail(self, st, fname)
        return self._report(out, ctype)
    doc = "%s (%s), a dataclass of its fields." % (name, ctype)
    return bound_property(fget, None, doc, [fname])


class OptionsMixin:
    """System options and reports (one per family of the headers)."""

    integrator = system_property("cdyn_system_get_integrator", "cdyn_system_set_integrator",
                                 doc="The Integrator (a member, its value or its name).")

    @binds("cdyn_system_get_newton_residuals")
    def newton_residuals(self):
        """The scaled residuals of the last backward Euler step, one per iterate."""
        ptr = self._checked()
        count = ffi.new("size_t *")
        st = lib.cdyn_system_get_newton_residuals(ptr, ffi.NULL, 0, count)
        if st:
            fail(self, st, "cdyn_system_get_newton_residuals")
        arr, out = array_out((count[0],))
        st = lib.cdyn_system_get_newton_residuals(ptr, out if count[0] else ffi.NULL,
                                                  count[0], count)
        if st:
            fail(self, st, "cdyn_system_get_newton_residuals")
        return arr

    def _report(self, out, ctype):
        if ctype == "cdyn_projection_stats":
            from .constraint import Constraint
            return _structs.to_dataclass(out, ctype, worst=Constraint(self, out.worst)
                                         if out.worst else None)
        return _structs.to_dataclass(out, ctype)


def _install():
    names = set(function_names())
    for name in sorted(names):
        m = re.fullmatch(r"cdyn_system_set_(\w+)_options", name)
        if m and "cdyn_%s_options_init" % m.group(1) in names:
            family, ctype = m.group(1), "cdyn_%s_options" % m.group(1)
            fn, c_names = _setter(family, ctype)
            setattr(OptionsMixin, fn.__name__, fn)
            register(c_names, "System." + fn.__name__)
            prop = _getter("cdyn_system_get_%s_options" % family, ctype,
                           "The %s options in use" % family)
            setattr(OptionsMixin, family + "_options", prop)
            prop.__set_name__(OptionsMixin, family + "_options")
        m = re.fullmatch(r"cdyn_system_get_(\w+)_stats", name)
        if m:
            prop = _getter(name, "cdyn_%s_stats" % m.group(1), "The %s report" % m.group(1))
            setattr(OptionsMixin, m.group(1) + "_stats", prop)
            prop.__set_name__(OptionsMixin, m.group(1) + "_stats")


_install()
