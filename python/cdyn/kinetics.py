"""Chemical kinetics (kinetics.h): mass-action reaction networks on BDF,
backward Euler and Dormand-Prince.

    with cdyn.Kinetics() as kin:
        kin.add_species("A", 1.0); kin.add_species("B", 0.0)
        kin.add_reaction({"A": 1}, {"B": 1}, 2.0)       # A -> B, k = 2
        c = kin.integrate(1.0, times=[0.5, 1.0])        # (2, species)

Species are named by their name or their index. A side of a reaction is a
dict {species: coefficient} or a list of species (coefficient 1 each).
"""
import weakref

import numpy as np

from . import _callbacks, _structs
from ._arrays import array_in, array_out
from ._call import Owned, bound_property, binds, fail
from ._callbacks import TRAMPOLINES, Callback
from ._errors import STATUS_CLASSES
from ._ffi import ffi, lib


def _destroy(ptr, _keep, _allocator):
    lib.cdyn_kinetics_destroy(ptr)


class Kinetics(Owned):
    """A reaction network and its state (cdyn_kinetics)."""

    _what = "Kinetics"

    @binds("cdyn_kinetics_create", "cdyn_kinetics_create_with_allocator")
    def __init__(self, allocator=None):
        self._ptr = None
        self._in_callback = 0
        self._keep = []
        out = ffi.new("cdyn_kinetics **")
        if allocator is None:
            st, fname = lib.cdyn_kinetics_create(out), "cdyn_kinetics_create"
        else:
            st = lib.cdyn_kinetics_create_with_allocator(allocator._c, out)
            fname = "cdyn_kinetics_create_with_allocator"
        if st:
            fail(None, st, fname)
        self._ptr = out[0]
        self._finalizer = weakref.finalize(self, _destroy, self._ptr, self._keep, allocator)
        _callbacks.register_owner(self._ptr, self)

    @binds("cdyn_kinetics_destroy")
    def close(self):
        if self._in_callback:
            raise STATUS_CLASSES[10]("Kinetics.close: called from a rate law")
        if self._ptr is not None:
            self._ptr = None
            self._finalizer()

    def _size(self, fname, *args):
        out = ffi.new("size_t *")
        self._call(fname, *args, out)
        return out[0]

    @property
    @binds("cdyn_kinetics_last_error")
    def last_error(self):
        if self._ptr is None:
            return ""
        return ffi.string(lib.cdyn_kinetics_last_error(self._ptr)).decode("utf-8", "replace")

    # ---- species -----------------------------------------------------------------

    @binds("cdyn_kinetics_add_species")
    def add_species(self, name, concentration=0.0):
        """Adds a species; returns its index."""
        return self._size("cdyn_kinetics_add_species", name.encode(), concentration)

    @binds("cdyn_kinetics_find_species")
    def find_species(self, name):
        return self._size("cdyn_kinetics_find_species", name.encode())

    @binds("cdyn_kinetics_get_species_name")
    def species_name(self, index):
        out = ffi.new("char **")
        self._call("cdyn_kinetics_get_species_name", index, out)
        return ffi.string(out[0]).decode()

    species_count = bound_property(
        lambda self: self._size("cdyn_kinetics_get_species_count"), None,
        "Number of species.", ["cdyn_kinetics_get_species_count"])

    @property
    def species(self):
        """The names of the species, in index order."""
        return [self.species_name(i) for i in range(self.species_count)]

    def _index(self, s):
        return self.find_species(s) if isinstance(s, str) else s

    # ---- reactions -------------------------------------------------------------------

    def _side(self, side, name):
        if isinstance(side, dict):
            items = list(side.items())
        else:
            items = [(s, 1) for s in side]
        idx = np.asarray([self._index(s) for s, _ in items], dtype=np.uintp)
        coef = np.asarray([c for _, c in items], dtype=np.int32)
        if len(items) == 0:
            return (0, ffi.NULL, ffi.NULL), (idx, coef)
        return (len(items), ffi.from_buffer("size_t[]", idx),
                ffi.from_buffer("int[]", coef)), (idx, coef)

    @binds("cdyn_kinetics_add_reaction")
    def add_reaction(self, reactants, products, rate_constant):
        """An irreversible mass-action reaction; returns its index."""
        r, _kr = self._side(reactants, "reactants")
        p, _kp = self._side(products, "products")
        return self._size("cdyn_kinetics_add_reaction", *r, *p, rate_constant)

    @binds("cdyn_kinetics_add_reversible_reaction")
    def add_reversible_reaction(self, reactants, products, forward, backward):
        """Two reactions, forward (returned index) and backward (index + 1)."""
        r, _kr = self._side(reactants, "reactants")
        p, _kp = self._side(products, "products")
        return self._size("cdyn_kinetics_add_reversible_reaction", *r, *p, forward, backward)

    @binds("cdyn_kinetics_add_rate_law")
    def add_rate_law(self, reactants, products, rate, deps=None, jacobian=None):
        """A reaction whose rate is rate(kin, t, c) -> float, c a read-only
        view of all concentrations. `deps`: the species it depends on
        (default: the reactants); `jacobian(kin, t, c, drate)` writes
        d rate / d c[deps[k]] into drate[k] (default: differences)."""
        r, _kr = self._side(reactants, "reactants")
        p, _kp = self._side(products, "products")
        dep_idx = np.asarray([self._index(s) for s in (deps or [])], dtype=np.uintp)
        n_deps = dep_idx.size or r[0]
        # One handle serves both functions: the Jacobian rides in `extra`.
        cb = Callback(rate, (jacobian, n_deps))
        if jacobian is not None and not callable(jacobian):
            raise TypeError("jacobian: expected a callable")
        index = self._size("cdyn_kinetics_add_rate_law", *r, *p, dep_idx.size,
                           ffi.from_buffer("size_t[]", dep_idx) if dep_idx.size else ffi.NULL,
                           TRAMPOLINES["cdyn_kinetics_rate_fn"],
                           TRAMPOLINES["cdyn_kinetics_rate_jacobian_fn"]
                           if jacobian is not None else ffi.NULL, cb.handle)
        self._keep.append(cb)
        return index

    reaction_count = bound_property(
        lambda self: self._size("cdyn_kinetics_get_reaction_count"), None,
        "Number of reactions (a reversible one counts two).",
        ["cdyn_kinetics_get_reaction_count"])

    @binds("cdyn_kinetics_set_rate_constant")
    def set_rate_constant(self, reaction, k):
        self._call("cdyn_kinetics_set_rate_constant", reaction, k)

    @binds("cdyn_kinetics_get_rate_constant")
    def rate_constant(self, reaction):
        out = ffi.new("double *")
        self._call("cdyn_kinetics_get_rate_constant", reaction, out)
        return out[0]

    @binds("cdyn_kinetics_get_stoichiometry", "cdyn_kinetics_get_stoichiometry_size")
    def stoichiometry(self):
        """The net stoichiometric matrix S, (species, reactions) int."""
        n = self._size("cdyn_kinetics_get_stoichiometry_size")
        sp, psp = array_out((n,), np.uintp)
        rx, prx = array_out((n,), np.uintp)
        co, pco = array_out((n,), np.int32)
        self._call("cdyn_kinetics_get_stoichiometry", psp, prx, pco, n)
        s = np.zeros((self.species_count, self.reaction_count), dtype=int)
        s[sp, rx] = co
        return s

    # ---- state ---------------------------------------------------------------------------

    @binds("cdyn_kinetics_get_concentrations")
    def get_concentrations(self):
        arr, ptr = array_out((self.species_count,))
        self._call("cdyn_kinetics_get_concentrations", ptr, arr.size)
        return arr

    @binds("cdyn_kinetics_set_concentrations")
    def set_concentrations(self, c):
        arr, ptr = array_in(c, (self.species_count,), "concentrations")
        self._call("cdyn_kinetics_set_concentrations", ptr, arr.size)

    concentrations = property(get_concentrations, set_concentrations, None,
                              "Concentrations, in species order.")

    def _get_time(self):
        out = ffi.new("double *")
        self._call("cdyn_kinetics_get_time", out)
        return out[0]

    time = bound_property(_get_time, lambda self, t: self._call("cdyn_kinetics_set_time", t),
                          "The time of the state.",
                          ["cdyn_kinetics_get_time", "cdyn_kinetics_set_time"])

    def _values(self, fname, n):
        arr, ptr = array_out((n,))
        self._call(fname, ptr, n)
        return arr

    @binds("cdyn_kinetics_get_reaction_rates")
    def reaction_rates(self):
        """The rate of every reaction now."""
        return self._values("cdyn_kinetics_get_reaction_rates", self.reaction_count)

    @binds("cdyn_kinetics_get_species_rates")
    def species_rates(self):
        """dc/dt of every species now."""
        return self._values("cdyn_kinetics_get_species_rates", self.species_count)

    moiety_count = bound_property(
        lambda self: self._size("cdyn_kinetics_get_moiety_count"), None,
        "Independent conserved moieties.", ["cdyn_kinetics_get_moiety_count"])

    @binds("cdyn_kinetics_get_moieties")
    def moieties(self):
        """The moiety basis, (moieties, species), reduced row echelon form."""
        m, n = self.moiety_count, self.species_count
        arr, ptr = array_out((m, n))
        self._call("cdyn_kinetics_get_moieties", ptr if arr.size else ffi.NULL, arr.size)
        return arr

    @binds("cdyn_kinetics_get_moiety_totals")
    def moiety_totals(self):
        m = self.moiety_count
        arr, ptr = array_out((m,))
        self._call("cdyn_kinetics_get_moiety_totals", ptr if m else ffi.NULL, m)
        return arr

    # ---- integration -------------------------------------------------------------------------

    @binds("cdyn_kinetics_set_options", "cdyn_kinetics_options_init")
    def set_options(self, **options):
        """Integration options: the fields of cdyn_kinetics_options (method,
        rtol, atol, max_steps, initial_step, max_step, fixed_step, max_order,
        max_newton_iterations), the others at the defaults of
        cdyn_kinetics_options_init."""
        p = _structs.new("cdyn_kinetics_options", lib.cdyn_kinetics_options_init)
        _structs.fill(p, "cdyn_kinetics_options", options, "set_options")
        self._call("cdyn_kinetics_set_options", p)

    @property
    @binds("cdyn_kinetics_get_options")
    def options(self):
        out = _structs.new("cdyn_kinetics_options")
        self._call("cdyn_kinetics_get_options", out)
        return _structs.to_dataclass(out, "cdyn_kinetics_options")

    @binds("cdyn_kinetics_set_absolute_tolerances")
    def set_absolute_tolerances(self, atol):
        """Per-species absolute tolerances, or None for options.atol for all."""
        if atol is None:
            self._call("cdyn_kinetics_set_absolute_tolerances", ffi.NULL, 0)
            return
        arr, ptr = array_in(atol, (self.species_count,), "atol")
        self._call("cdyn_kinetics_set_absolute_tolerances", ptr, arr.size)

    @binds("cdyn_kinetics_integrate")
    def integrate(self, t_end, times=None):
        """Integrates to t_end; returns the concentrations at `times`,
        (len(times), species) (empty without times)."""
        t = np.asarray([] if times is None else times, dtype=float)
        tin, tptr = array_in(t, (t.size,), "times")
        out, optr = array_out((t.size, self.species_count))
        self._call("cdyn_kinetics_integrate", t_end, tptr if t.size else ffi.NULL, t.size,
                   optr if out.size else ffi.NULL, out.size)
        return out

    @property
    @binds("cdyn_kinetics_get_stats")
    def stats(self):
        """What the last integration did (KineticsStats)."""
        out = _structs.new("cdyn_kinetics_stats")
        self._call("cdyn_kinetics_get_stats", out)
        return _structs.to_dataclass(out, "cdyn_kinetics_stats")

    def __repr__(self):
        if self.closed:
            return "<cdyn.Kinetics closed>"
        return "<cdyn.Kinetics species=%d reactions=%d>" % (self.species_count,
                                                            self.reaction_count)
