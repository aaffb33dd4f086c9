"""The erosion lattice (lattice.h): rain on an nx x ny grid of heights grows
river networks.

Arrays are (ny, nx), row y = 0 first: element [y, x] is site y * nx + x of
the C arrays, the same memory order.
"""
import os
import weakref

import numpy as np

from . import _enums, _structs
from ._arrays import array_in, array_out
from ._call import bound_property, binds, closed, fail
from ._ffi import ffi, lib

_PARAM = _enums.ENUMS["cdyn_lattice_param"]


def _destroy(ptr, _allocator):
    lib.cdyn_lattice_destroy(ptr)


def _opts(options):
    if not options:
        return ffi.NULL
    p = _structs.new("cdyn_lattice_stats_options", lib.cdyn_lattice_stats_options_init)
    return _structs.fill(p, "cdyn_lattice_stats_options", options, "stats options")


def _alloc_ptr(allocator):
    return allocator._c if allocator is not None else ffi.NULL


class Lattice:
    """A W x H erosion lattice: Lattice(nx, ny, seed=1), then rain(),
    drainage(), stats(). Model parameters (E, D, M, S, R) as keyword
    arguments or with set_param."""

    @binds("cdyn_lattice_create")
    def __init__(self, nx, ny, seed=0, allocator=None, **params):
        out = ffi.new("cdyn_lattice **")
        st = lib.cdyn_lattice_create(nx, ny, seed, _alloc_ptr(allocator), out)
        if st:
            fail(None, st, "cdyn_lattice_create")
        self._own(out[0], allocator)
        for name, value in params.items():
            self.set_param(name, value)

    def _own(self, ptr, allocator):
        self._ptr = ptr
        self._finalizer = weakref.finalize(self, _destroy, ptr, allocator)

    @binds("cdyn_lattice_destroy")
    def close(self):
        if self._ptr is not None:
            self._ptr = None
            self._finalizer()

    @property
    def closed(self):
        return self._ptr is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _checked(self):
        if self._ptr is None:
            closed("Lattice")
        return self._ptr

    def _call(self, fname, *args):
        st = getattr(lib, fname)(self._checked(), *args)
        if st:
            fail(self, st, fname)

    @property
    @binds("cdyn_lattice_last_error")
    def last_error(self):
        if self._ptr is None:
            return ""
        return ffi.string(lib.cdyn_lattice_last_error(self._ptr)).decode("utf-8", "replace")

    @property
    @binds("cdyn_lattice_get_size")
    def shape(self):
        """(ny, nx), the shape of its arrays."""
        w, h = ffi.new("size_t *"), ffi.new("size_t *")
        self._call("cdyn_lattice_get_size", w, h)
        return (h[0], w[0])

    @property
    def nx(self):
        return self.shape[1]

    @property
    def ny(self):
        return self.shape[0]

    @binds("cdyn_lattice_set_param")
    def set_param(self, name, value):
        """A model parameter by name ('E', 'D', 'M', 'S', 'R') or LatticeParam."""
        self._call("cdyn_lattice_set_param", _enums.coerce(_PARAM, name, "parameter"), value)

    @binds("cdyn_lattice_get_param")
    def get_param(self, name):
        out = ffi.new("double *")
        self._call("cdyn_lattice_get_param", _enums.coerce(_PARAM, name, "parameter"), out)
        return out[0]

    @property
    def params(self):
        """{name: value} of every model parameter."""
        return {m.name: self.get_param(m) for m in _PARAM}

    def _get_walk_cap(self):
        out = ffi.new("uint64_t *")
        self._call("cdyn_lattice_get_walk_cap", out)
        return out[0]

    walk_cap = bound_property(_get_walk_cap,
                              lambda self, v: self._call("cdyn_lattice_set_walk_cap", v),
                              "Moves after which a drop stops.",
                              ["cdyn_lattice_get_walk_cap", "cdyn_lattice_set_walk_cap"])

    def _get_boundary(self):
        out = ffi.new("cdyn_lattice_boundary *")
        self._call("cdyn_lattice_get_boundary", out)
        return _enums.to_python("cdyn_lattice_boundary", out[0])

    def _set_boundary(self, value):
        cls = _enums.ENUMS["cdyn_lattice_boundary"]
        self._call("cdyn_lattice_set_boundary", _enums.coerce(cls, value, "boundary"))

    boundary = bound_property(_get_boundary, _set_boundary,
                              "Side boundary: LatticeBoundary, 'walls' or 'periodic'.",
                              ["cdyn_lattice_get_boundary", "cdyn_lattice_set_boundary"])

    @binds("cdyn_lattice_set_seed")
    def reseed(self, seed):
        """Re-seeds the random generator (heights and counters kept)."""
        self._call("cdyn_lattice_set_seed", seed)

    @binds("cdyn_lattice_init_tilted")
    def init_tilted(self, slope=0.5, noise=1.0):
        """h = slope * y + noise * u, u uniform in [0, 1)."""
        self._call("cdyn_lattice_init_tilted", slope, noise)

    @binds("cdyn_lattice_get_heights")
    def get_heights(self, out=None):
        from ._arrays import out_into
        arr, ptr = out_into(out, self.shape)
        self._call("cdyn_lattice_get_heights", ptr, arr.size)
        return arr

    @binds("cdyn_lattice_set_heights")
    def set_heights(self, heights):
        arr, ptr = array_in(heights, self.shape, "heights")
        self._call("cdyn_lattice_set_heights", ptr, arr.size)

    heights = property(get_heights, set_heights, None, "Heights, (ny, nx).")

    @binds("cdyn_lattice_rain")
    def rain(self, drops):
        """Rains `drops` drops, each on a random site."""
        self._call("cdyn_lattice_rain", drops)

    @binds("cdyn_lattice_rain_at")
    def rain_at(self, x, y, drops):
        """Rains `drops` drops, all starting at site (x, y)."""
        self._call("cdyn_lattice_rain_at", x, y, drops)

    @property
    @binds("cdyn_lattice_get_counters")
    def counters(self):
        """Running totals of what rain did (LatticeCounters)."""
        out = _structs.new("cdyn_lattice_counters")
        self._call("cdyn_lattice_get_counters", out)
        return _structs.to_dataclass(out, "cdyn_lattice_counters")

    def _sites(self, fname, dtype):
        arr, ptr = array_out(self.shape, dtype)
        self._call(fname, ptr, arr.size)
        return arr

    @binds("cdyn_lattice_drainage")
    def drainage(self):
        """The drainage area of every site (water units), (ny, nx) uint32."""
        return self._sites("cdyn_lattice_drainage", np.uint32)

    @binds("cdyn_lattice_get_receivers")
    def receivers(self):
        """The site index y * nx + x each site drains to (itself for an
        outlet), (ny, nx) uint32."""
        return self._sites("cdyn_lattice_get_receivers", np.uint32)

    @binds("cdyn_lattice_get_network")
    def network(self):
        """The river network: drainage >= R, (ny, nx) bool."""
        return self._sites("cdyn_lattice_get_network", np.uint8).astype(bool)

    @binds("cdyn_lattice_compute_stats", "cdyn_lattice_stats_options_init")
    def stats(self, **options):
        """Statistics of the river network (LatticeStats); options are the
        fields of cdyn_lattice_stats_options (area_min, area_max, hack_min,
        hack_max, points_per_decade, threshold)."""
        out = _structs.new("cdyn_lattice_stats")
        self._call("cdyn_lattice_compute_stats", _opts(options), out)
        return _structs.to_dataclass(out, "cdyn_lattice_stats")

    @property
    @binds("cdyn_lattice_snapshot_size")
    def snapshot_size(self):
        out = ffi.new("size_t *")
        self._call("cdyn_lattice_snapshot_size", out)
        return out[0]

    @binds("cdyn_lattice_save")
    def save(self, path=None):
        """A snapshot: the bytes, or written to `path` (a file name or an
        open binary file) when given."""
        n = self.snapshot_size
        buf = bytearray(n)
        written = ffi.new("size_t *")
        self._call("cdyn_lattice_save", ffi.from_buffer(buf), n, written)
        data = bytes(buf[:written[0]])
        if path is None:
            return data
        if hasattr(path, "write"):
            path.write(data)
        else:
            with open(path, "wb") as f:
                f.write(data)
        return None

    @classmethod
    @binds("cdyn_lattice_load")
    def load(cls, source, allocator=None):
        """A lattice from a snapshot: bytes, a file name or an open binary file."""
        if isinstance(source, (bytes, bytearray, memoryview)):
            data = bytes(source)
        elif hasattr(source, "read"):
            data = source.read()
        else:
            with open(os.fspath(source), "rb") as f:
                data = f.read()
        out = ffi.new("cdyn_lattice **")
        st = lib.cdyn_lattice_load(ffi.from_buffer(data), len(data), _alloc_ptr(allocator), out)
        if st:
            fail(None, st, "cdyn_lattice_load")
        obj = cls.__new__(cls)
        obj._own(out[0], allocator)
        return obj

    def __repr__(self):
        if self.closed:
            return "<cdyn.Lattice closed>"
        return "<cdyn.Lattice %d x %d>" % (self.nx, self.ny)


def _receivers_in(receivers):
    arr = np.asarray(receivers)
    return array_in(arr, arr.shape, "receivers", np.uint32)


@binds("cdyn_lattice_stats_from_receivers", "cdyn_lattice_stats_options_init")
def stats_from_receivers(receivers, allocator=None, **options):
    """Statistics (LatticeStats) of any drainage forest given by its receivers
    (receivers[i]: the site i drains to, i itself for an outlet)."""
    arr, ptr = _receivers_in(receivers)
    out = _structs.new("cdyn_lattice_stats")
    st = lib.cdyn_lattice_stats_from_receivers(arr.size, ptr, _alloc_ptr(allocator),
                                               _opts(options), out)
    if st:
        fail(None, st, "cdyn_lattice_stats_from_receivers")
    return _structs.to_dataclass(out, "cdyn_lattice_stats")


@binds("cdyn_lattice_drainage_from_receivers")
def drainage_from_receivers(receivers, allocator=None):
    """The drainage of any forest given by its receivers (same shape)."""
    arr, ptr = _receivers_in(receivers)
    out, optr = array_out(arr.shape, np.uint32)
    st = lib.cdyn_lattice_drainage_from_receivers(arr.size, ptr, _alloc_ptr(allocator), optr)
    if st:
        fail(None, st, "cdyn_lattice_drainage_from_receivers")
    return out
