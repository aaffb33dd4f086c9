"""The library found and its version against the headers'."""
import os

import cdyn


def test_version_matches_the_headers():
    assert cdyn.version() == cdyn.HEADER_VERSION
    assert cdyn.version_string() == cdyn.__version__ == cdyn.MACROS["CDYN_VERSION_STRING"]
    major, minor, patch = (int(p) for p in cdyn.version_string().split("."))
    assert cdyn.version() == major * 10000 + minor * 100 + patch


def test_the_library_loaded_is_the_one_asked_for():
    want = os.environ.get("CDYN_LIBRARY")
    if want:
        assert os.path.samefile(cdyn.LIBRARY_PATH, want)
