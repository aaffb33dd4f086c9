"""numpy arrays to and from C pointers without copies.

Inputs are checked before the call: a wrong shape is a ValueError, a dtype
that is not a real number (complex, object, strings, bool for positions) a
TypeError. Values (NaN, out of range) are the library's to refuse, with a
status and a message. Outputs are numpy arrays the library writes into
directly (ffi.from_buffer). Callbacks see views of the library's own arrays
(np.frombuffer over ffi.buffer): valid during the call only.
"""
import numpy as np

from ._ffi import ffi

_C_TYPES = {np.dtype(np.float64): "double", np.dtype(np.uint32): "uint32_t",
            np.dtype(np.uint8): "uint8_t", np.dtype(np.uint64): "uint64_t",
            np.dtype(np.int32): "int", np.dtype(np.uintp): "size_t",
            np.dtype(np.bool_): "bool", np.dtype(np.int64): "int64_t"}

_KINDS = {"f": "iuf", "u": "iu", "i": "iu", "b": "b"}


def _shape_text(shape):
    return "(" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


def array_in(value, shape, name, dtype=np.float64):
    """A C-contiguous array of `dtype` and exactly `shape` from `value`, and
    a pointer to its data. Copies only when dtype or layout differ."""
    dtype = np.dtype(dtype)
    arr = np.asarray(value)
    if arr.dtype.kind not in _KINDS[dtype.kind]:
        wanted = {"f": "real numbers", "b": "booleans"}.get(dtype.kind, "integers")
        raise TypeError("%s: expected %s, got an array of dtype %s" % (name, wanted, arr.dtype))
    if tuple(arr.shape) != tuple(shape):
        raise ValueError("%s: expected shape %s, got %s"
                         % (name, _shape_text(shape), _shape_text(arr.shape)))
    if dtype.kind in "iu" and arr.size:
        info = np.iinfo(dtype)
        if arr.min() < info.min or arr.max() > info.max:
            raise ValueError("%s: values outside %s" % (name, dtype))
    arr = np.ascontiguousarray(arr, dtype=dtype)
    return arr, ffi.from_buffer(_C_TYPES[dtype] + "[]", arr)


def vector_in(value, n, name):
    """A pointer to n doubles from a sequence of n numbers."""
    return array_in(value, (n,), name)[1]


def optional_vector_in(value, n, name):
    return ffi.NULL if value is None else vector_in(value, n, name)


def array_out(shape, dtype=np.float64):
    """A new array and a pointer for the library to write into."""
    arr = np.empty(shape, dtype=dtype)
    return arr, ffi.from_buffer(_C_TYPES[np.dtype(dtype)] + "[]", arr, require_writable=True)


def out_into(out, shape, dtype=np.float64):
    """The caller's array `out` (checked: shape, dtype, contiguous, writable)
    or a new one, and a pointer for the library to write into."""
    if out is None:
        return array_out(shape, dtype)
    if not isinstance(out, np.ndarray):
        raise TypeError("out: expected a numpy array, got %s" % type(out).__name__)
    if out.dtype != np.dtype(dtype) or tuple(out.shape) != tuple(shape):
        raise ValueError("out: expected a %s array of shape %s, got %s of shape %s"
                         % (np.dtype(dtype), _shape_text(shape), out.dtype,
                            _shape_text(out.shape)))
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError("out: must be C-contiguous and writable")
    return out, ffi.from_buffer(_C_TYPES[np.dtype(dtype)] + "[]", out, require_writable=True)


def view(ptr, shape, writable):
    """A float64 numpy view of `ptr` (C memory, no copy), and the buffer
    object that owns the view (for the retention check of callbacks)."""
    count = 1
    for s in shape:
        count *= s
    if count == 0 or ptr == ffi.NULL:
        return np.zeros(shape), None
    buf = ffi.buffer(ptr, 8 * count)
    arr = np.frombuffer(buf, dtype=np.float64).reshape(shape)
    if not writable:
        arr.flags.writeable = False
    return arr, buf
