import cdyn


def test_version():
    assert cdyn.version() == cdyn.HEADER_VERSION
