"""Curves, surfaces and height fields (shapes.h), for particles on shapes
(System.add_on_curve, add_on_surface), height-field grounds, and sampling
without a system.

    Curve("parabola", coefficient=-0.01)              # y = -x^2 / 100
    Curve("spline", points=xy, spline_end="closed")   # points: (n, dim)
    Curve(fn=wire, q_min=0, q_max=1)   # fn(sys, t, q, r, dr, ddr) fills r, r', r''
    Surface("sphere", radius=2.0)
    HeightField(z, spacing=(0.1, 0.1))                # z: (ny, nx), z[j, i] at (x_i, y_j)

Keyword arguments are the fields of cdyn_curve_desc / cdyn_surface_desc,
with the defaults of their *_init functions. Functions that sample a shape
alone take the dimension of its space (`dim`, default: the points', else 3)
and call a callback shape with sys = None and t = 0.
"""
import numpy as np

from . import _structs
from ._arrays import array_in, array_out, vector_in
from ._call import binds, fail
from ._description import Description
from ._ffi import ffi, lib


def _fail(st, fname):
    if st:
        fail(None, st, fname)


class Curve(Description):
    """A curve x = r(q) (cdyn_curve_desc)."""

    _ctype, _init = "cdyn_curve_desc", "cdyn_curve_desc_init"
    _kind_enum, _callback_kind, _fn_type = "cdyn_curve_kind", "CALLBACK", "cdyn_curve_fn"
    _skip = ("points", "num_points")
    __slots__ = ("dim", "_points")

    @binds("cdyn_curve_desc_init")
    def __init__(self, kind=None, fn=None, points=None, dim=None, **fields):
        super().__init__(kind, fn, **fields)
        self._points = None
        if points is not None:
            pts = np.asarray(points)
            if pts.ndim != 2 or pts.shape[1] not in (2, 3):
                raise ValueError("points: expected shape (n, 2) or (n, 3), got %s"
                                 % (pts.shape,))
            self._points = array_in(pts, pts.shape, "points")
            dim = dim or pts.shape[1]
        self.dim = dim or 3

    def _fill_extra(self, p):
        if self._points is not None:
            p.points = self._points[1]
            p.num_points = self._points[0].shape[0]

    def _dim(self, dim):
        return dim or self.dim

    @binds("cdyn_curve_evaluate")
    def evaluate(self, q, dim=None):
        """(r, r', r'') at parameter q, dim values each."""
        d = self._dim(dim)
        outs = [array_out((d,)) for _ in range(3)]
        _fail(lib.cdyn_curve_evaluate(self._desc(), d, q, *(o[1] for o in outs)),
              "cdyn_curve_evaluate")
        return tuple(o[0] for o in outs)

    @binds("cdyn_curve_get_domain")
    def domain(self, dim=None):
        """(q_min, q_max, periodic)."""
        lo, hi, per = ffi.new("double *"), ffi.new("double *"), ffi.new("int *")
        _fail(lib.cdyn_curve_get_domain(self._desc(), self._dim(dim), lo, hi, per),
              "cdyn_curve_get_domain")
        return lo[0], hi[0], bool(per[0])

    @binds("cdyn_curve_arc_length")
    def arc_length(self, q_from, q_to, dim=None):
        """Arc length from q_from to q_to (negative backwards)."""
        out = ffi.new("double *")
        _fail(lib.cdyn_curve_arc_length(self._desc(), self._dim(dim), q_from, q_to, out),
              "cdyn_curve_arc_length")
        return out[0]

    @binds("cdyn_curve_parameter_at_arc_length")
    def parameter_at_arc_length(self, q_from, length, dim=None):
        """The q at arc length `length` from q_from."""
        out = ffi.new("double *")
        _fail(lib.cdyn_curve_parameter_at_arc_length(self._desc(), self._dim(dim), q_from,
                                                     length, out),
              "cdyn_curve_parameter_at_arc_length")
        return out[0]

    @binds("cdyn_curve_closest_parameter")
    def closest_parameter(self, x):
        """The q of the point of the curve nearest to x (2 or 3 values)."""
        d = len(x)
        out = ffi.new("double *")
        _fail(lib.cdyn_curve_closest_parameter(self._desc(), d, vector_in(x, d, "x"), out),
              "cdyn_curve_closest_parameter")
        return out[0]


class HeightField:
    """Heights z[j, i] = f(origin[0] + i spacing[0], origin[1] + j spacing[1])
    on an nx x ny grid (cdyn_heightfield_desc); `heights` has shape (ny, nx)
    (a 1-D profile of nx heights for a 2-D ground)."""

    __slots__ = ("heights", "fields", "_ptr")

    @binds("cdyn_heightfield_desc_init")
    def __init__(self, heights, **fields):
        z = np.asarray(heights)
        if z.ndim == 1:
            z = z.reshape(1, -1)
        if z.ndim != 2:
            raise ValueError("heights: expected shape (ny, nx), got %s" % (z.shape,))
        self.heights, self._ptr = array_in(z, z.shape, "heights")
        _structs.fill(self._new(), "cdyn_heightfield_desc", fields, "HeightField",
                      ("nx", "ny", "samples"))
        self.fields = dict(fields)

    def _new(self):
        p = _structs.new("cdyn_heightfield_desc", lib.cdyn_heightfield_desc_init)
        p.ny, p.nx = self.heights.shape
        p.samples = self._ptr
        return p

    def _desc(self):
        return _structs.fill(self._new(), "cdyn_heightfield_desc", self.fields, "HeightField")

    @binds("cdyn_heightfield_evaluate")
    def evaluate(self, x, y):
        """(height, gradient (2,), Hessian (f_xx, f_xy, f_yy)) at grid point (x, y)."""
        h = ffi.new("double *")
        g, pg = array_out((2,))
        hs, ph = array_out((3,))
        _fail(lib.cdyn_heightfield_evaluate(self._desc(), x, y, h, pg, ph),
              "cdyn_heightfield_evaluate")
        return h[0], g, hs


class Surface(Description):
    """A surface x = r(u, v) in 3-D (cdyn_surface_desc). A height-field
    surface takes heightfield=HeightField(...)."""

    _ctype, _init = "cdyn_surface_desc", "cdyn_surface_desc_init"
    _kind_enum, _callback_kind, _fn_type = "cdyn_surface_kind", "CALLBACK", "cdyn_surface_fn"
    _skip = ("heightfield",)
    __slots__ = ("heightfield", "_hf_desc")

    @binds("cdyn_surface_desc_init")
    def __init__(self, kind=None, fn=None, heightfield=None, **fields):
        super().__init__(kind, fn, **fields)
        if heightfield is not None and not isinstance(heightfield, HeightField):
            raise TypeError("heightfield: expected a HeightField")
        self.heightfield = heightfield
        self._hf_desc = None

    def _fill_extra(self, p):
        if self.heightfield is not None:
            self._hf_desc = self.heightfield._desc()
            p.heightfield = self._hf_desc

    @binds("cdyn_surface_evaluate")
    def evaluate(self, u, v):
        """(r, r_u, r_v, r_uu, r_uv, r_vv) at (u, v), 3 values each."""
        outs = [array_out((3,)) for _ in range(6)]
        _fail(lib.cdyn_surface_evaluate(self._desc(), u, v, *(o[1] for o in outs)),
              "cdyn_surface_evaluate")
        return tuple(o[0] for o in outs)

    @binds("cdyn_surface_get_domain")
    def domain(self):
        """((u_min, u_max), (v_min, v_max), (periodic_u, periodic_v))."""
        u, pu = array_out((2,))
        v, pv = array_out((2,))
        per = ffi.new("int[2]")
        _fail(lib.cdyn_surface_get_domain(self._desc(), pu, pv, per), "cdyn_surface_get_domain")
        return tuple(u), tuple(v), (bool(per[0]), bool(per[1]))

    @binds("cdyn_surface_closest_parameters")
    def closest_parameters(self, x):
        """(u, v) of the point of the surface nearest to x (3 values)."""
        u, v = ffi.new("double *"), ffi.new("double *")
        _fail(lib.cdyn_surface_closest_parameters(self._desc(), vector_in(x, 3, "x"), u, v),
              "cdyn_surface_closest_parameters")
        return u[0], v[0]

