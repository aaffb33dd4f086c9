"""The binding against the headers: every function bound and reachable,
every enum and callback type mapped, the guide's table up to date. A
function, enumerator, struct field or callback type added, renamed or
removed in a header fails one of these."""
import enum
import re

import numpy as np
import pytest

import cdyn
from cdyn import _callbacks, _ffi, _structs

from support import source_path, struct_types


def _resolve(spelling):
    obj = cdyn
    for part in spelling.split("."):
        obj = getattr(obj, part)
    return obj


def test_every_function_of_the_headers_is_bound():
    declared = set(_ffi.function_names())
    bound = set(cdyn.bindings())
    assert not declared - bound, "in the headers but not bound: %s" % sorted(declared - bound)
    assert not bound - declared, "bound but not in the headers: %s" % sorted(bound - declared)
    assert len(declared) > 100


def test_every_python_spelling_resolves():
    for c_name, spellings in cdyn.bindings().items():
        for spelling in spellings:
            assert _resolve(spelling) is not None, (c_name, spelling)


def test_every_enum_is_an_intenum_with_the_c_values():
    for ctype_name in _ffi.ffi.list_types()[0]:
        t = _ffi.ffi.typeof(ctype_name)
        if t.kind != "enum":
            continue
        cls = getattr(cdyn, "".join(w.capitalize() for w in ctype_name[5:].split("_")))
        assert issubclass(cls, enum.IntEnum)
        assert sorted(m.value for m in cls) == sorted(t.elements), ctype_name
        for value, enumerator in t.elements.items():
            assert enumerator.endswith("_" + cls(value).name), (enumerator, cls(value))
            assert getattr(_ffi.lib, enumerator) == value


def test_every_status_has_its_exception_class():
    for value, enumerator in _ffi.ffi.typeof("cdyn_status").elements.items():
        if value == 0:
            continue
        cls = cdyn.STATUS_CLASSES[value]
        assert issubclass(cls, cdyn.CdynError) and cls.status == value
        assert cdyn.status_name(value) == enumerator
    assert issubclass(cdyn.InvalidArgumentError, ValueError)
    assert issubclass(cdyn.NoMemoryError, MemoryError)
    assert cdyn.status_name(9999) == "CDYN_UNKNOWN"
    assert "stale" in cdyn.status_string(cdyn.Status.ERR_STALE_HANDLE).lower()


def test_every_callback_type_has_a_trampoline():
    typedefs = _ffi.ffi.list_types()[0]
    fn_types = {n for n in typedefs if _ffi.ffi.typeof(n).kind == "function"}
    assert fn_types == set(_callbacks.TRAMPOLINES)


def test_struct_fields_are_the_keywords():
    # Every field of the options structs is a keyword of its setter, and
    # comes back from the getter.
    with cdyn.System(dim=2) as s:
        values = {"enabled": 1, "method": cdyn.ProjectionMethod.SHAKE,
                  "position_tolerance": 1e-11, "velocity_tolerance": 2e-11,
                  "max_iterations": 77}
        assert set(values) == set(_structs.fields_of("cdyn_projection_options"))
        s.set_projection_options(**values)
        got = s.projection_options
        for name, value in values.items():
            assert getattr(got, name) == value
        with pytest.raises(TypeError, match="unknown option"):
            s.set_projection_options(tolerance=1e-3)
        # Every options family of the headers has its setter and getter;
        # the setter starts from the init function's defaults, which a new
        # system has.
        fresh = cdyn.System(dim=2)
        for ctype in struct_types():
            if ctype.endswith("_options") and "cdyn_system_set_%s" % ctype[5:] in \
                    _ffi.function_names():
                family = ctype[5:-8]
                getattr(s, "set_%s_options" % family)()
                assert getattr(s, family + "_options") == getattr(fresh, family + "_options")
        fresh.close()
    with cdyn.Kinetics() as k:
        defaults = k.options
        k.set_options(rtol=1e-8, method="dormand_prince")
        got = k.options
        assert got.rtol == 1e-8 and got.method == cdyn.KineticsMethod.DORMAND_PRINCE
        assert got.atol == defaults.atol  # the others at the init defaults
        assert set(vars(got)) == set(_structs.fields_of("cdyn_kinetics_options"))


def test_reports_have_the_struct_fields():
    for ctype in ("cdyn_solver_stats", "cdyn_newton_stats", "cdyn_projection_stats",
                  "cdyn_rk45_stats", "cdyn_lattice_stats", "cdyn_lattice_counters",
                  "cdyn_kinetics_stats"):
        cls = _structs.dataclass_of(ctype)
        assert [f for f in cls.__dataclass_fields__] == _structs.fields_of(ctype)
        assert getattr(cdyn, cls.__name__) is cls


def test_generated_declarations_match_the_headers():
    # Every CDYN_API declaration of the source headers is in the generated
    # declarations (the generator ran over these very headers).
    import glob
    declared = set()
    for h in glob.glob(source_path("include", "cdyn", "*.h*")):
        text = re.sub(r"/\*.*?\*/", " ", open(h, encoding="utf-8").read(), flags=re.S)
        declared |= set(re.findall(r"\bCDYN_API\b[^;{}()]*?\b(cdyn_\w+)\s*\(", text))
    assert declared == set(_ffi.function_names())


def test_guide_table_lists_every_function():
    from cdyn._table import markdown
    text = open(source_path("docs", "python.md"), encoding="utf-8").read()
    begin, end = "<!-- api-table -->", "<!-- /api-table -->"
    assert begin in text and end in text
    table = text[text.index(begin) + len(begin):text.index(end)].strip()
    assert table == markdown().strip(), (
        "docs/python.md's table is out of date: regenerate it with "
        "`PYTHONPATH=build/python python3 -m cdyn._table docs/python.md`")


def test_struct_layouts_and_sizes():
    # The package's own view of every struct agrees with the size the
    # library expects in the size-first ones (the build also checks every
    # offset against the compiler).
    for name in struct_types():
        fields = dict(_ffi.ffi.typeof(name).fields)
        if "size" in fields:
            p = _structs.new(name)
            assert p.size == _ffi.ffi.sizeof(name)
    assert np.dtype(np.uintp).itemsize == _ffi.ffi.sizeof("size_t")
