"""The C library through cffi in ABI mode: its declarations (generated from
the headers at build time, _cdef.py), where the shared library is found, and
the version check.

Search order for the shared library:
  1. the environment variable CDYN_LIBRARY (a path to the file);
  2. next to the package: the package directory itself, then the directory
     meson-python bundles libraries into (site-packages/.cdyn.mesonpy.libs);
  3. the library directory `meson install` put it in (recorded at build time);
  4. pkg-config's libdir for cdyn;
  5. the system's dynamic loader (LD_LIBRARY_PATH, ld.so.cache).
"""
import glob
import os
import subprocess

import cffi

from . import _cdef

ffi = cffi.FFI()
ffi.cdef(_cdef.CDEF)

MACROS = dict(_cdef.MACROS)
HEADER_VERSION = MACROS["CDYN_VERSION_NUMBER"]


class LibraryNotFoundError(ImportError):
    """The shared library libcdyn could not be found or loaded."""


class VersionMismatchError(ImportError):
    """The shared library found is not the one these bindings were built for."""


def _candidates():
    env = os.environ.get("CDYN_LIBRARY")
    if env:
        yield "the environment variable CDYN_LIBRARY", env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    bundled = os.path.join(os.path.dirname(here), ".cdyn.mesonpy.libs")
    for where, d in (("the package directory", here), ("the wheel's library directory", bundled),
                     ("the install directory", _cdef.INSTALL_LIBDIR)):
        exact = os.path.join(d, _cdef.SONAME)
        if os.path.exists(exact):
            yield where, exact
        else:
            for path in sorted(glob.glob(os.path.join(d, _cdef.SONAME + "*"))):
                yield where, path
    try:
        libdir = subprocess.run(["pkg-config", "--variable=libdir", "cdyn"], check=True,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                universal_newlines=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        libdir = ""
    if libdir:
        yield "pkg-config", os.path.join(libdir, _cdef.SONAME)
    yield "the dynamic loader", _cdef.SONAME


def _load():
    tried = []
    for where, path in _candidates():
        try:
            return ffi.dlopen(path), path
        except OSError as e:
            tried.append("  %s: %s (%s)" % (where, path, str(e).splitlines()[0]))
    raise LibraryNotFoundError(
        "cdyn: cannot load the shared library %s. Tried:\n%s\n"
        "Build and install it (meson setup build && meson install -C build), or point "
        "CDYN_LIBRARY at libcdyn.so." % (_cdef.SONAME, "\n".join(tried)))


lib, LIBRARY_PATH = _load()
_raw_lib = lib


def signature(name):
    """The ctype of the C function `name` (its arguments and result)."""
    return ffi.typeof(getattr(_raw_lib, name))


CALLED = set()  # with CDYN_TRACE_CALLS set: every C function called so far


class _TracingLib:
    """The library, recording the name of every function called (the test
    suite checks that it calls them all)."""

    def __init__(self, raw):
        self._raw = raw

    def __getattr__(self, name):
        value = getattr(self._raw, name)
        if not name.startswith("cdyn_"):
            return value

        def traced(*args):
            CALLED.add(name)
            return value(*args)
        return traced


if os.environ.get("CDYN_TRACE_CALLS"):
    lib = _TracingLib(_raw_lib)


def _check_version():
    found = _raw_lib.cdyn_version()
    major = HEADER_VERSION // 10000
    # The ABI only grows within a major version: a newer library of the
    # same major serves these declarations, an older one may lack some.
    if found // 10000 != major or found < HEADER_VERSION:
        raise VersionMismatchError(
            "cdyn: %s is version %s (%d); these bindings were generated from the headers of "
            "%s (%d) and need the same major version, at least as new"
            % (LIBRARY_PATH, ffi.string(_raw_lib.cdyn_version_string()).decode(), found,
               MACROS["CDYN_VERSION_STRING"], HEADER_VERSION))


_check_version()


def function_names():
    """Every function the headers declare, sorted."""
    return sorted(name for name in dir(_raw_lib)
                  if name.startswith("cdyn_") and not isinstance(getattr(_raw_lib, name), int)
                  and ffi.typeof(getattr(_raw_lib, name)).kind == "function")
