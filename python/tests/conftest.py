"""Shared fixtures, and the check that the whole suite called every C
function of the headers and used every struct (when CDYN_TRACE_CALLS is set,
as meson test sets it, and every test passed)."""
import os

import pytest

import cdyn
from cdyn import _ffi, _structs

from support import struct_types


@pytest.fixture
def sys2():
    with cdyn.System(dim=2) as s:
        yield s


@pytest.fixture
def sys3():
    with cdyn.System(dim=3) as s:
        yield s


def pytest_sessionfinish(session, exitstatus):
    if not os.environ.get("CDYN_TRACE_CALLS") or exitstatus != 0:
        return
    if session.config.option.keyword or session.config.option.markexpr:
        return  # a selection: the whole suite did not run
    never = sorted(set(_ffi.function_names()) - _ffi.CALLED)
    unused = sorted(set(struct_types()) - _structs.USED)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    reporter.ensure_newline()
    for what, names in (("C functions the suite never called", never),
                        ("structs the package never made", unused)):
        if names:
            reporter.write_line("FAIL: %d %s: %s" % (len(names), what, ", ".join(names)))
    if never or unused:
        session.exitstatus = 1
    else:
        reporter.write_line("every one of the %d C functions was called"
                            % len(_ffi.function_names()))
