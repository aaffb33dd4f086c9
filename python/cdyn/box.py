"""Periodic boxes (box.h) and the diagnostics of molecular dynamics."""
import collections

import numpy as np

from ._arrays import array_in, array_out, vector_in
from ._call import binds, fail
from ._ffi import ffi, lib
from ._handle import system_property

Box = collections.namedtuple("Box", "origin lengths periodic")
Box.__doc__ = "A system's box: origin and lengths (dim each), periodic (dim bools)."


class BoxMixin:
    """System methods of periodic boxes."""

    @binds("cdyn_system_set_box")
    def set_box(self, origin, lengths, periodic=True):
        """An orthorhombic box with corner `origin` and edge `lengths`,
        periodic along the axes where `periodic` (one bool, or dim) is true."""
        d = self.dimension
        per = np.broadcast_to(np.asarray(periodic, dtype=bool), (d,))
        per, pptr = array_in(per, (d,), "periodic", np.bool_)
        st = lib.cdyn_system_set_box(self._checked(), vector_in(origin, d, "origin"),
                                     vector_in(lengths, d, "lengths"), pptr)
        if st:
            fail(self, st, "cdyn_system_set_box")

    @binds("cdyn_system_clear_box")
    def clear_box(self):
        """Removes the box (positions become the unwrapped ones)."""
        st = lib.cdyn_system_clear_box(self._checked())
        if st:
            fail(self, st, "cdyn_system_clear_box")

    @property
    @binds("cdyn_system_get_box")
    def box(self):
        """The Box, or None without one."""
        d = self.dimension
        origin, po = array_out((d,))
        lengths, pl = array_out((d,))
        periodic, pp = array_out((d,), np.bool_)
        has = ffi.new("bool *")
        st = lib.cdyn_system_get_box(self._checked(), po, pl, pp, has)
        if st:
            fail(self, st, "cdyn_system_get_box")
        return Box(origin, lengths, periodic) if has[0] else None

    @binds("cdyn_system_get_unwrapped_positions")
    def get_unwrapped_positions(self, out=None):
        """Positions plus whole box lengths, (index_count, dim): continuous in
        time across periodic faces."""
        return self._bulk("cdyn_system_get_unwrapped_positions", out)

    unwrapped_positions = property(get_unwrapped_positions, None, None,
                                   get_unwrapped_positions.__doc__)

    degrees_of_freedom = system_property("cdyn_system_get_degrees_of_freedom",
                                         doc="N_f of the committed configuration.")
    temperature = system_property("cdyn_system_get_temperature",
                                  doc="kT = sum m v^2 / N_f (J), the kinetic temperature.")
    pressure = system_property("cdyn_system_get_pressure",
                               doc="The virial pressure in the box (Pa in 3-D, N/m in 2-D).")
