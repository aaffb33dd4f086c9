"""cdyn: constrained particle dynamics, erosion lattices and chemical
kinetics, from the C library libcdyn through its C ABI (cffi, ABI mode).

    import cdyn
    with cdyn.System(dim=2, integrator="rk4") as sys:
        pivot = sys.add_particle(1.0, [0, 0]); pivot.fixed = True
        bob = sys.add_particle(1.0, [1, 0])
        sys.add_gravity([0, -9.81])
        sys.add_distance(pivot, bob, 1.0)
        sys.step(1e-3, steps=1000)
        print(sys.positions)            # (n, dim) numpy array

Guide: docs/python.md. Every C function and its Python spelling:
cdyn.bindings().
"""
from . import _enums
from ._call import BINDINGS
from ._errors import STATUS_CLASSES, ClosedError, CdynError, UnknownStatusError
from ._ffi import HEADER_VERSION, LIBRARY_PATH, MACROS, LibraryNotFoundError, \
    VersionMismatchError, ffi, lib
from ._callbacks import Jacobian, MotionStateView
from .allocator import Allocator
from .box import Box
from .constraint import Constraint
from .force import Force, Spring
from .ground import Ground
from .kinetics import Kinetics
from .lattice import Lattice, drainage_from_receivers, stats_from_receivers
from .motion import Motion, Schedule
from .particle import Particle
from .rigid import RigidBody, rigid_rotation
from .shapes import Curve, HeightField, Surface
from .system import System
from .tasks import TaskPool
from ._call import binds as _binds
from ._structs import dataclass_of as _dataclass_of
from ._structs import report_types as _ffi_types

# The enums of the headers (Integrator, ForceKind, Status, ...) and one
# exception class per status (InvalidArgumentError, StaleHandleError, ...).
globals().update(_enums.BY_NAME)
globals().update({cls.__name__: cls for cls in STATUS_CLASSES.values()})

# The constant macros of the headers without their prefix
# (CDYN_LATTICE_NO_RECEIVER -> cdyn.LATTICE_NO_RECEIVER).
_CONSTANTS = {name[len("CDYN_"):]: value for name, value in MACROS.items()}
globals().update(_CONSTANTS)

# The reports and descriptions as dataclasses (SolverStats, LatticeStats, ...).
for _ctype in _ffi_types():
    _cls = _dataclass_of(_ctype)
    globals()[_cls.__name__] = _cls


@_binds("cdyn_version")
def version():
    """The library's version number, MAJOR * 10000 + MINOR * 100 + PATCH."""
    return lib.cdyn_version()


@_binds("cdyn_version_string")
def version_string():
    """The library's version, "MAJOR.MINOR.PATCH"."""
    return ffi.string(lib.cdyn_version_string()).decode()


@_binds("cdyn_status_name")
def status_name(status):
    """The enumerator's name of a status ("CDYN_ERR_STALE_HANDLE")."""
    return ffi.string(lib.cdyn_status_name(int(status))).decode()


@_binds("cdyn_status_string")
def status_string(status):
    """A one-line description of a status."""
    return ffi.string(lib.cdyn_status_string(int(status))).decode()


def bindings():
    """{C function: [Python spellings]} for every function the package binds."""
    return {name: list(spellings) for name, spellings in sorted(BINDINGS.items())}


__version__ = MACROS["CDYN_VERSION_STRING"]

__all__ = ["System", "Box", "Spring", "Particle", "Force", "Constraint", "Ground", "RigidBody",
           "Jacobian", "MotionStateView", "Curve", "Surface", "HeightField", "Motion", "Schedule",
           "Lattice", "Kinetics", "Allocator", "TaskPool", "rigid_rotation", "stats_from_receivers",
           "drainage_from_receivers", "version", "version_string", "status_name",
           "status_string", "bindings", "CdynError", "ClosedError", "UnknownStatusError",
           "LibraryNotFoundError", "VersionMismatchError", "STATUS_CLASSES", "HEADER_VERSION",
           "LIBRARY_PATH", "MACROS", "ffi", "lib"]
__all__ += sorted(_enums.BY_NAME) + sorted(c.__name__ for c in STATUS_CLASSES.values())
__all__ += sorted(_dataclass_of(t).__name__ for t in _ffi_types()) + sorted(_CONSTANTS)
