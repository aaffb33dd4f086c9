"""The PEP 517 build backend of pyproject.toml: meson-python, after a check
that the tools it needs are present, so that a user without them is told
what to install instead of reading a compiler's or meson's error."""
import os
import shutil
import sys

_DEBIAN = ("sudo apt-get install gcc meson ninja-build pkg-config python3-mesonpy "
           "python3-numpy python3-cffi")


def _missing():
    missing = []
    try:
        __import__("mesonpy")
    except ImportError:
        missing.append("meson-python (Python module mesonpy)")
    if not shutil.which("meson"):
        missing.append("meson")
    if not any(shutil.which(n) for n in (os.environ.get("NINJA", "ninja"), "ninja-build",
                                          "samu")):
        missing.append("ninja")
    cc = os.environ.get("CC", "")
    if not (cc and shutil.which(cc.split()[0])) and not any(
            shutil.which(n) for n in ("cc", "gcc", "clang")):
        missing.append("a C compiler (gcc or clang)")
    for module in ("numpy", "cffi"):
        try:
            __import__(module)
        except ImportError:
            missing.append("the Python module %s" % module)
    return missing


def _check():
    missing = _missing()
    if missing:
        sys.stderr.write(
            "cdyn: building the C library and the Python package needs: %s.\n"
            "On Debian or Ubuntu:\n    %s\n"
            "then, in a virtual environment made with --system-site-packages:\n"
            "    pip install --no-build-isolation .\n" % ("; ".join(missing), _DEBIAN))
        raise SystemExit(1)


def _mesonpy():
    _check()
    import mesonpy
    return mesonpy


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _mesonpy().build_wheel(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory, config_settings=None):
    return _mesonpy().build_sdist(sdist_directory, config_settings)


def get_requires_for_build_wheel(config_settings=None):
    return _mesonpy().get_requires_for_build_wheel(config_settings)


def get_requires_for_build_sdist(config_settings=None):
    return _mesonpy().get_requires_for_build_sdist(config_settings)
