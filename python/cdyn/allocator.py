"""Allocators (cdyn_allocator) written in Python, for System, Lattice and
Kinetics objects and the lattice's receiver statistics.

Allocator() takes memory from the C library's malloc and counts it;
Allocator(fail_after=n) lets n allocations succeed and fails the next ones,
to see what a failed allocation does (the call raises NoMemoryError and
changes nothing). Subclasses may override alloc(size) and free(address,
size), working with integer addresses.
"""
import cffi

from . import _call, _structs
from ._ffi import ffi

_libc_ffi = cffi.FFI()
_libc_ffi.cdef("void *malloc(size_t size); void free(void *ptr);")
_libc = _libc_ffi.dlopen(None)


@ffi.callback("void *(*)(size_t, void *)")
def _alloc(size, user):
    allocator = ffi.from_handle(user)
    try:
        address = allocator.alloc(size)
    except BaseException as exc:
        _call.keep_pending(exc)
        return ffi.NULL
    return ffi.cast("void *", address or 0)


@ffi.callback("void (*)(void *, size_t, void *)")
def _free(ptr, size, user):
    ffi.from_handle(user).free(int(ffi.cast("uintptr_t", ptr)), size)


class Allocator:
    """An allocator the library calls on the caller's thread."""

    def __init__(self, fail_after=None):
        self.fail_after = fail_after
        self.allocations = 0   # successful allocations
        self.failures = 0      # refused allocations
        self.live_bytes = 0
        self.peak_bytes = 0
        self._handle = ffi.new_handle(self)
        self._c = _structs.new("cdyn_allocator")
        self._c.alloc = _alloc
        self._c.free = _free
        self._c.user = self._handle

    def alloc(self, size):
        """An address of `size` bytes aligned for any type, or 0."""
        if self.fail_after is not None and self.allocations >= self.fail_after:
            self.failures += 1
            return 0
        address = int(_libc_ffi.cast("uintptr_t", _libc.malloc(size)))
        if address:
            self.allocations += 1
            self.live_bytes += size
            self.peak_bytes = max(self.peak_bytes, self.live_bytes)
        return address

    def free(self, address, size):
        if address:
            self.live_bytes -= size
            _libc.free(_libc_ffi.cast("void *", address))
