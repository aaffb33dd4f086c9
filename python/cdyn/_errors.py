"""Exceptions: one class per cdyn_status, made from the status enum of the
headers, so that a status added to the library gets its class without a
change here.

CDYN_ERR_INVALID_ARGUMENT -> InvalidArgumentError, CDYN_ERR_NO_MEMORY ->
NoMemoryError, ... (a name that would shadow a builtin gets the prefix
Cdyn: CDYN_ERR_IO -> CdynIOError). All derive from CdynError; some also
from the builtin a Python user would catch (ValueError, MemoryError, OSError).
"""
import builtins

from ._ffi import ffi, lib


class CdynError(Exception):
    """A cdyn call failed. `status` is the cdyn_status (a Status member),
    `function` the C function that returned it; the message is the object's
    last error (cdyn_system_last_error and its siblings)."""

    status = None

    def __init__(self, message="", function=None):
        super().__init__(message)
        self.function = function


class ClosedError(CdynError, ValueError):
    """The System, Lattice or Kinetics object (or an object of it) was used
    after close()."""


_ACRONYMS = {"IO"}
# Builtins a status class also derives from, by the status's name.
_ALSO = {"INVALID_ARGUMENT": ValueError, "NO_MEMORY": MemoryError, "IO": OSError}


def _class_name(enumerator):
    words = enumerator[len("CDYN_ERR_"):].split("_")
    name = "".join(w if w in _ACRONYMS else w.capitalize() for w in words) + "Error"
    return "Cdyn" + name if hasattr(builtins, name) else name


def _status_classes():
    classes = {}
    for value, enumerator in sorted(ffi.typeof("cdyn_status").elements.items()):
        if value == 0:
            continue
        bases = (CdynError,) + ((_ALSO[enumerator[9:]],) if enumerator[9:] in _ALSO else ())
        doc = "%s: %s." % (enumerator, ffi.string(lib.cdyn_status_string(value)).decode())
        classes[value] = type(_class_name(enumerator), bases, {"__doc__": doc, "status": value})
    return classes


STATUS_CLASSES = _status_classes()


class UnknownStatusError(CdynError):
    """A status this package has no class for (a newer library)."""


def error_class(status):
    return STATUS_CLASSES.get(int(status), UnknownStatusError)
