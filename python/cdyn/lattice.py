"""The erosion lattice (lattice.h): rain on an nx x ny grid of heights grows
river networks.

Arrays are (ny, nx), row y = 0 first: element [y, x] is site y * nx + x of
the C arrays, the same memory order.
"""
import os
import types
import weakref

import numpy as np

from . import _enums, _structs
from ._arrays import array_in, array_out
from ._call import Owned, bound_property, binds, fail
from ._ffi import ffi, lib
from .tasks import pool_workers, set_pool

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


def _edge_bits(edges):
    """LatticeEdge bits from an int, a member or name, or a list of them."""
    cls = _enums.ENUMS["cdyn_lattice_edge"]
    if isinstance(edges, (str, cls)) or not hasattr(edges, "__iter__"):
        edges = [edges]
    bits = 0
    for e in edges:
        bits |= int(_enums.coerce(cls, e, "edge")) if isinstance(e, str) else int(e)
    return bits


class Lattice(Owned):
    """A W x H erosion lattice: Lattice(nx, ny, seed=1), then rain(),
    drainage(), stats(). Model parameters (E, D, M, S, R) as keyword
    arguments or with set_param."""

    _what = "Lattice"

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

    @binds("cdyn_lattice_set_task_system")
    def set_task_system(self, pool):
        """Gives the lattice a TaskPool (None: none). Its drainage does not
        use it yet."""
        set_pool(self, "cdyn_lattice_set_task_system", pool)

    @property
    @binds("cdyn_lattice_get_task_system")
    def task_workers(self):
        """The worker count of the task system held (1 without one)."""
        return pool_workers(self, "cdyn_lattice_get_task_system")

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

    def _enum_property(name, doc):
        enum_ctype = "cdyn_lattice_" + name

        def fget(self):
            out = ffi.new(enum_ctype + " *")
            self._call("cdyn_lattice_get_" + name, out)
            return _enums.to_python(enum_ctype, out[0])

        def fset(self, value):
            cls = _enums.ENUMS[enum_ctype]
            self._call("cdyn_lattice_set_" + name, _enums.coerce(cls, value, name))
        return bound_property(fget, fset, doc, ["cdyn_lattice_get_" + name,
                                                "cdyn_lattice_set_" + name])

    boundary = _enum_property("boundary", "Side boundary: LatticeBoundary, 'walls' or "
                                          "'periodic'.")
    slide_rule = _enum_property("slide_rule", "How slides relax the surface: "
                                              "LatticeSlideRule, 'cascade' or 'once'.")
    routing = _enum_property("routing", "Drainage routing: LatticeRouting, 'd4' or 'd8'.")

    def _pair_property(name, doc):
        def fget(self):
            a, b = ffi.new("double *"), ffi.new("double *")
            self._call("cdyn_lattice_get_" + name, a, b)
            return a[0], b[0]

        def fset(self, value):
            a, b = value
            self._call("cdyn_lattice_set_" + name, a, b)
        return bound_property(fget, fset, doc, ["cdyn_lattice_get_" + name,
                                                "cdyn_lattice_set_" + name])

    cell_size = _pair_property("cell_size", "(dx, dy): a cell's size in map units.")
    origin = _pair_property("origin", "(x, y) of the lower-left corner of site (0, 0)'s "
                                      "cell, in map units.")

    def _get_edges(self):
        out = ffi.new("uint32_t *")
        self._call("cdyn_lattice_get_outlet_edges", out)
        return out[0]

    def _set_edges(self, edges):
        self._call("cdyn_lattice_set_outlet_edges", _edge_bits(edges))

    outlet_edges = bound_property(
        _get_edges, _set_edges,
        "The outlet edges, a set of LatticeEdge bits (an int); set from an int, a "
        "name or a list of them: lat.outlet_edges = ['bottom', 'top'].",
        ["cdyn_lattice_get_outlet_edges", "cdyn_lattice_set_outlet_edges"])

    def _mask_property(name, doc):
        def fget(self):
            return self._sites("cdyn_lattice_get_%s_mask" % name, np.uint8).astype(bool)

        def fset(self, mask):
            if mask is None:
                self._call("cdyn_lattice_set_%s_mask" % name, ffi.NULL, 0)
                return
            arr = np.asarray(mask)
            if arr.dtype.kind not in "biu":
                raise TypeError("%s mask: expected booleans or integers, got %s"
                                % (name, arr.dtype))
            arr, ptr = array_in((arr != 0).astype(np.uint8), self.shape, name + " mask",
                                np.uint8)
            self._call("cdyn_lattice_set_%s_mask" % name, ptr, arr.size)
        return bound_property(fget, fset, doc, ["cdyn_lattice_get_%s_mask" % name,
                                                "cdyn_lattice_set_%s_mask" % name])

    outlet_mask = _mask_property("outlet", "Sites that are outlets besides the open "
                                           "edges, (ny, nx) bool; None clears it.")
    nodata_mask = _mask_property("nodata", "No-data sites, (ny, nx) bool; None clears it.")

    @binds("cdyn_lattice_reseed")
    def reseed(self, seed):
        """Re-seeds the random generator (heights and counters kept)."""
        self._call("cdyn_lattice_reseed", seed)

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

    @binds("cdyn_lattice_compute_drainage")
    def drainage(self):
        """The drainage of every site (units of water, itself included),
        (ny, nx) uint32; 0 at no-data cells."""
        return self._sites("cdyn_lattice_compute_drainage", np.uint32)

    @binds("cdyn_lattice_compute_receivers")
    def receivers(self):
        """The site index y * nx + x each site drains to (itself for an
        outlet or a sink, LATTICE_NO_RECEIVER for no-data), (ny, nx) uint32."""
        return self._sites("cdyn_lattice_compute_receivers", np.uint32)

    @binds("cdyn_lattice_compute_network")
    def network(self):
        """The river network: drainage >= R, (ny, nx) bool."""
        return self._sites("cdyn_lattice_compute_network", np.uint8).astype(bool)

    @binds("cdyn_lattice_compute_drainage_area")
    def drainage_area(self):
        """Drainage times dx dy (map units^2), (ny, nx)."""
        return self._sites("cdyn_lattice_compute_drainage_area", np.float64)

    # ---- ESRI ASCII grids -----------------------------------------------------

    @binds("cdyn_lattice_write_asc", "cdyn_lattice_asc_size", "cdyn_lattice_write_asc_file")
    def write_asc(self, field="heights", path=None):
        """An ESRI ASCII grid of `field` ('heights', 'drainage_area',
        'receivers'): the text, or written to the file `path` when given."""
        grid = _enums.coerce(_enums.ENUMS["cdyn_lattice_grid"], field, "field")
        if path is not None:
            self._call("cdyn_lattice_write_asc_file", grid, os.fsencode(path))
            return None
        size = ffi.new("size_t *")
        self._call("cdyn_lattice_asc_size", grid, size)
        buf = ffi.new("char[]", size[0])
        written = ffi.new("size_t *")
        self._call("cdyn_lattice_write_asc", grid, buf, size[0], written)
        return ffi.string(buf, written[0]).decode("ascii")

    @classmethod
    @binds("cdyn_lattice_read_asc", "cdyn_lattice_read_asc_file")
    def read_asc(cls, source, allocator=None):
        """A lattice from an ESRI ASCII grid: its text (str or bytes) or,
        given a path (os.PathLike), the file."""
        out = ffi.new("cdyn_lattice **")
        err = ffi.new("char[]", 512)
        if isinstance(source, (str, bytes, bytearray)):
            text = source.encode() if isinstance(source, str) else bytes(source)
            st = lib.cdyn_lattice_read_asc(text, len(text), _alloc_ptr(allocator), out, err, 512)
            fname = "cdyn_lattice_read_asc"
        else:
            st = lib.cdyn_lattice_read_asc_file(os.fsencode(source), _alloc_ptr(allocator), out,
                                                err, 512)
            fname = "cdyn_lattice_read_asc_file"
        if st:
            # No lattice to ask: the message came back in `err`.
            message = ffi.string(err).decode("utf-8", "replace")
            fail(types.SimpleNamespace(last_error=message), st, fname)
        obj = cls.__new__(cls)
        obj._own(out[0], allocator)
        return obj

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
