"""The erosion lattice from Python: the same bits as the C run, arrays in
the C site order, snapshots to bytes and files."""
import dataclasses
import os
import subprocess

import numpy as np
import pytest

import cdyn


def _fnv1a(data):
    h = 1469598103934665603
    for byte in data:
        h = ((h ^ byte) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def _python_run(nx, ny, seed, drops):
    with cdyn.Lattice(nx, ny, seed=seed) as lat:
        lat.rain(drops)
        stats, counters = lat.stats(), lat.counters
        values = {}
        for obj in (stats, counters):
            for f in dataclasses.fields(obj):
                v = getattr(obj, f.name)
                if f.name == "streams":
                    values.update({"streams[%d]" % k: int(s) for k, s in enumerate(v)})
                elif isinstance(v, float):
                    values[f.name] = v.hex()
                else:
                    values[f.name] = int(v)
        values["heights_fnv1a"] = _fnv1a(lat.heights.tobytes())
        values["drainage_fnv1a"] = _fnv1a(lat.drainage().tobytes())
    return values


def _c_run(nx, ny, seed, drops):
    program = os.environ.get("CDYN_LATTICE_RUN")
    if not program:
        pytest.skip("CDYN_LATTICE_RUN not set (run through meson test)")
    out = subprocess.run([program, str(nx), str(ny), str(seed), str(drops)], check=True,
                         stdout=subprocess.PIPE, universal_newlines=True).stdout
    values = {}
    for line in out.splitlines():
        name, value = line.split()
        try:
            values[name] = int(value)
        except ValueError:  # a hex float, or nan
            values[name] = float.fromhex(value).hex()
    return values


def test_lattice_run_reproduces_the_c_run_bit_for_bit():
    args = (48, 40, 20240607, 30000)
    c, py = _c_run(*args), _python_run(*args)
    assert set(c) == set(py), "fields printed by lattice_run.c differ from the dataclasses'"
    differ = {k: (c[k], py[k]) for k in c if c[k] != py[k]}
    assert not differ
    assert c["drops"] == 30000 and c["network_sites"] > 0


def test_arrays_are_in_the_c_site_order():
    with cdyn.Lattice(7, 5, seed=3) as lat:
        assert lat.shape == (5, 7) and (lat.nx, lat.ny) == (7, 5)
        h = lat.heights
        assert h.shape == (5, 7)
        # site i = y * nx + x: row y of the array
        z = np.arange(35.0).reshape(5, 7)
        lat.heights = z
        assert np.array_equal(lat.heights, z)
        rec = lat.receivers()
        assert rec.shape == (5, 7) and rec.dtype == np.uint32
        assert np.array_equal(rec[0], np.arange(7))  # row 0: the outlets
        # every other site drains to a 4-neighbour
        ys, xs = np.divmod(rec[1:].astype(int), 7)
        yy, xx = np.mgrid[1:5, 0:7]
        assert np.all(np.abs(ys - yy) + np.abs(xs - xx) == 1)
        a = lat.drainage()
        assert a.sum() == a[0].sum() + a[1:].sum() and a[0].sum() >= 35
        assert np.array_equal(cdyn.drainage_from_receivers(rec.ravel()), a.ravel())
        net = lat.network()
        assert net.dtype == bool and np.array_equal(net, a >= lat.get_param("R"))


def test_parameters_and_settings():
    with cdyn.Lattice(16, 16, seed=1, E=3.0, D=0.02) as lat:
        assert lat.get_param("E") == 3.0 and lat.get_param(cdyn.LatticeParam.D) == 0.02
        assert set(lat.params) == {"E", "D", "M", "S", "R"}
        with pytest.raises(cdyn.InvalidArgumentError):
            lat.set_param("S", 0.5)  # S > 1
        assert lat.get_param("S") == 2.0
        with pytest.raises(ValueError):
            lat.set_param("Q", 1.0)
        lat.walk_cap = 100
        assert lat.walk_cap == 100
        lat.boundary = "periodic"
        assert lat.boundary == cdyn.LatticeBoundary.PERIODIC
        lat.init_tilted(slope=1.0, noise=0.0)
        assert np.array_equal(lat.heights, np.repeat(np.arange(16.0)[:, None], 16, axis=1))
        lat.reseed(5)
        lat.rain_at(3, 8, 10)
        assert lat.counters.drops == 10
        with pytest.raises(cdyn.InvalidArgumentError):
            lat.rain_at(16, 0, 1)
        with pytest.raises(ValueError):
            lat.heights = np.zeros((15, 16))
        bad = lat.heights
        bad[2, 2] = np.nan
        with pytest.raises(cdyn.InvalidArgumentError):
            lat.heights = bad
        assert "heights" in lat.last_error or lat.last_error


def test_snapshots_resume_bit_for_bit(tmp_path):
    with cdyn.Lattice(32, 24, seed=11) as lat:
        lat.rain(5000)
        data = lat.save()
        assert isinstance(data, bytes) and len(data) == lat.snapshot_size
        path = tmp_path / "lat.snap"
        lat.save(path)
        lat.rain(5000)
        ref_h, ref_stats = lat.heights, lat.stats()
    for source in (data, path, str(path)):
        with cdyn.Lattice.load(source) as again:
            again.rain(5000)
            assert np.array_equal(again.heights, ref_h)
            assert again.stats() == ref_stats or np.isnan(ref_stats.bifurcation_ratio)
    with open(path, "rb") as f, cdyn.Lattice.load(f) as again:
        assert again.shape == (24, 32)
    with pytest.raises(cdyn.FormatError):
        cdyn.Lattice.load(data[:-1])
    corrupt = bytearray(data)
    corrupt[100] ^= 1
    with pytest.raises(cdyn.FormatError):
        cdyn.Lattice.load(bytes(corrupt))


def test_stats_options_and_receivers():
    # A single stream of 200 sites: site k drains to k - 1, site 0 the outlet.
    rec = np.maximum(np.arange(200) - 1, 0).astype(np.uint32)
    st = cdyn.stats_from_receivers(rec, points_per_decade=5)
    assert st.sites == 200 and st.outlets == 1 and st.max_drainage == 200
    assert isinstance(st, cdyn.LatticeStats)
    with pytest.raises(cdyn.InvalidArgumentError):
        cdyn.stats_from_receivers(np.array([1, 0], dtype=np.uint32))  # a cycle
    with pytest.raises(TypeError):
        cdyn.stats_from_receivers(np.array([0.5, 0.0]))
    with pytest.raises(ValueError):
        cdyn.stats_from_receivers(np.array([-1, 0]))
    with pytest.raises(TypeError, match="unknown option"):
        cdyn.stats_from_receivers(rec, bins=3)


def test_closed_lattice_raises():
    lat = cdyn.Lattice(8, 8)
    lat.close()
    with pytest.raises(cdyn.ClosedError):
        lat.rain(1)
    with pytest.raises(cdyn.ClosedError):
        lat.heights
    assert lat.last_error == "" and repr(lat) == "<cdyn.Lattice closed>"
    with pytest.raises(cdyn.InvalidArgumentError):
        cdyn.Lattice(1, 8)


def test_terrain_settings_and_d8_drainage():
    # A plane tilted along x and y, every edge an outlet except the top:
    # D8 sends every site down the diagonal of steepest descent.
    with cdyn.Lattice(6, 5) as lat:
        y, x = np.mgrid[0:5, 0:6]
        lat.heights = 1.0 * x + 1.0 * y
        lat.routing = "d8"
        assert lat.routing == cdyn.LatticeRouting.D8
        lat.cell_size = (2.0, 2.0)
        assert lat.cell_size == (2.0, 2.0)
        lat.origin = (100.0, 200.0)
        assert lat.origin == (100.0, 200.0)
        lat.outlet_edges = ["bottom", "left"]
        assert lat.outlet_edges == (cdyn.LatticeEdge.BOTTOM | cdyn.LatticeEdge.LEFT)
        rec = lat.receivers()
        inner = rec[1:, 1:]
        ys, xs = np.divmod(inner.astype(int), 6)
        assert np.all(ys == y[1:, 1:] - 1) and np.all(xs == x[1:, 1:] - 1)  # diagonal
        assert np.array_equal(lat.drainage_area(), lat.drainage() * 4.0)
        assert lat.slide_rule == cdyn.LatticeSlideRule.CASCADE
        lat.slide_rule = "once"
        assert lat.slide_rule == cdyn.LatticeSlideRule.ONCE


def test_masks_outlets_and_no_data():
    with cdyn.Lattice(5, 5, seed=2) as lat:
        lat.heights = np.tile(np.arange(5.0)[:, None], (1, 5)) + 10.0
        nodata = np.zeros((5, 5), dtype=bool)
        nodata[4, 4] = True
        lat.nodata_mask = nodata
        assert np.array_equal(lat.nodata_mask, nodata)
        sea = np.zeros((5, 5), dtype=np.uint8)
        sea[2, 2] = 1
        lat.outlet_mask = sea
        assert lat.outlet_mask[2, 2] and lat.outlet_mask.sum() == 1
        rec = lat.receivers()
        assert rec[4, 4] == cdyn.LATTICE_NO_RECEIVER and rec[2, 2] == 2 * 5 + 2
        assert lat.drainage()[4, 4] == 0
        with pytest.raises(cdyn.UnsupportedError):
            lat.rain(1)  # the erosion model drains to row 0 only
        with pytest.raises(TypeError):
            lat.outlet_mask = np.zeros((5, 5))
        lat.outlet_mask = None
        lat.nodata_mask = None
        assert not lat.outlet_mask.any() and not lat.nodata_mask.any()
        lat.rain(10)


def test_ascii_grids_round_trip(tmp_path):
    with cdyn.Lattice(12, 9, seed=4) as lat:
        lat.rain(500)
        lat.cell_size = (30.0, 30.0)
        lat.origin = (1000.0, 2000.0)
        text = lat.write_asc("heights")
        assert text.startswith("ncols") and "cellsize" in text
        heights = lat.heights
        path = tmp_path / "h.asc"
        lat.write_asc("heights", path)
        assert path.read_text() == text
        area = lat.write_asc(cdyn.LatticeGrid.DRAINAGE_AREA)
        assert area.count("\n") >= 9
    for source in (text, text.encode(), path):
        with cdyn.Lattice.read_asc(source) as back:
            assert back.shape == (9, 12) and np.array_equal(back.heights, heights)
            assert back.cell_size == (30.0, 30.0) and back.origin == (1000.0, 2000.0)
    with pytest.raises(cdyn.FormatError, match="line"):
        cdyn.Lattice.read_asc("ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2\n3\n")
    with pytest.raises(cdyn.CdynIOError):
        cdyn.Lattice.read_asc(tmp_path / "missing.asc")
