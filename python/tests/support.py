"""Helpers of the Python suite."""
import os

import pytest

from cdyn import _ffi


def source_path(*parts):
    """A path in the source tree (meson test sets CDYN_SOURCE_ROOT)."""
    root = os.environ.get("CDYN_SOURCE_ROOT")
    if not root:
        pytest.skip("CDYN_SOURCE_ROOT not set (run through meson test)")
    return os.path.join(root, *parts)


def struct_types():
    """Every struct of the headers that has fields (the opaque ones left out)."""
    names = []
    for name in _ffi.ffi.list_types()[0]:
        t = _ffi.ffi.typeof(name)
        if t.kind == "struct" and t.fields is not None:
            names.append(name)
    return sorted(names)
