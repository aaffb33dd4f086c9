/* ESRI ASCII grids: heights round-trip bit for bit through text and files
 * (no-data, rectangular cells and the origin included), a hand-written grid
 * reads as the format says, malformed grids are refused with the line and
 * field in the message and huge declared sizes before any allocation, the
 * drainage-area and receiver fields hold what the lattice reports, and
 * the numbers ignore the locale's decimal comma. */
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cdyn/cdyn.h>

#include "support.h"

/* The text of @p field (malloc'd). */
static char *write_text(cdyn_lattice *lat, cdyn_lattice_grid field, size_t *len)
{
    size_t size = 0, written = 0;
    assert_int_equal(cdyn_lattice_asc_size(lat, field, &size), CDYN_OK);
    char *t = malloc(size);
    assert_int_equal(cdyn_lattice_write_asc(lat, field, t, size, &written), CDYN_OK);
    assert_int_equal(written + 1, size);
    assert_int_equal(strlen(t), written);
    *len = written;
    return t;
}

static cdyn_lattice *read_text(const char *text, size_t len)
{
    cdyn_lattice *lat = NULL;
    char err[256];
    cdyn_status st = cdyn_lattice_read_asc(text, len, NULL, &lat, err, sizeof err);
    if (st != CDYN_OK)
        fail_msg("read_asc: %s (%s)", cdyn_status_name(st), err);
    assert_string_equal(err, "");
    return lat;
}

/* A lattice worth writing: rained heights with every digit in use, the
 * ends of the range, a subnormal, -0, no-data cells, rectangular cells. */
static cdyn_lattice *worked_lattice(size_t w, size_t h)
{
    cdyn_lattice *lat;
    assert_int_equal(cdyn_lattice_create(w, h, 9, NULL, &lat), CDYN_OK);
    assert_int_equal(cdyn_lattice_rain(lat, 200), CDYN_OK);
    double *z = malloc(w * h * sizeof *z);
    assert_int_equal(cdyn_lattice_get_heights(lat, z, w * h), CDYN_OK);
    z[1] = CDYN_LATTICE_HEIGHT_MAX;
    z[2] = -CDYN_LATTICE_HEIGHT_MAX;
    z[3] = 5e-324;
    z[4] = -0.0;
    z[5] = -9999; /* the usual NODATA_value, here a height */
    z[6] = 1.0 / 3.0;
    assert_int_equal(cdyn_lattice_set_heights(lat, z, w * h), CDYN_OK);
    uint8_t *holes = calloc(w * h, 1);
    holes[w + 2] = holes[w * h - 1] = 1;
    assert_int_equal(cdyn_lattice_set_nodata_mask(lat, holes, w * h), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_cell_size(lat, 30.5, 0.125), CDYN_OK);
    assert_int_equal(cdyn_lattice_set_origin(lat, 654321.0625, -1e-7), CDYN_OK);
    free(z);
    free(holes);
    return lat;
}

static void check_same_grid(cdyn_lattice *a, cdyn_lattice *b)
{
    size_t w, h, w2, h2;
    assert_int_equal(cdyn_lattice_get_size(a, &w, &h), CDYN_OK);
    assert_int_equal(cdyn_lattice_get_size(b, &w2, &h2), CDYN_OK);
    assert_int_equal(w, w2);
    assert_int_equal(h, h2);
    size_t n = w * h;
    double *za = malloc(n * sizeof *za), *zb = malloc(n * sizeof *zb);
    uint8_t *ma = malloc(n), *mb = malloc(n);
    assert_int_equal(cdyn_lattice_get_heights(a, za, n), CDYN_OK);
    assert_int_equal(cdyn_lattice_get_heights(b, zb, n), CDYN_OK);
    assert_int_equal(cdyn_lattice_get_nodata_mask(a, ma, n), CDYN_OK);
    assert_int_equal(cdyn_lattice_get_nodata_mask(b, mb, n), CDYN_OK);
    assert_memory_equal(ma, mb, n);
    for (size_t i = 0; i < n; i++)
        if (!ma[i] && memcmp(&za[i], &zb[i], sizeof za[i]) != 0)
            fail_msg("site %zu: %.17g read back as %.17g", i, za[i], zb[i]);
    double x1, y1, x2, y2;
    assert_int_equal(cdyn_lattice_get_cell_size(a, &x1, &y1), CDYN_OK);
    assert_int_equal(cdyn_lattice_get_cell_size(b, &x2, &y2), CDYN_OK);
    assert_true(x1 == x2 && y1 == y2);
    assert_int_equal(cdyn_lattice_get_origin(a, &x1, &y1), CDYN_OK);
    assert_int_equal(cdyn_lattice_get_origin(b, &x2, &y2), CDYN_OK);
    assert_true(x1 == x2 && y1 == y2);
    free(za), free(zb), free(ma), free(mb);
}

static void test_heights_round_trip_bit_for_bit(void **state)
{
    (void)state;
    cdyn_lattice *lat = worked_lattice(13, 7);
    size_t len;
    char *text = write_text(lat, CDYN_LATTICE_GRID_HEIGHTS, &len);
    /* The header GIS tools and landlab expect; -9999 is a height here, so
     * another NODATA_value is chosen. */
    assert_non_null(strstr(text, "ncols 13\nnrows 7\nxllcorner 654321.0625\nyllcorner "));
    assert_non_null(strstr(text, "\ndx 30.5\ndy 0.125\nNODATA_value -1.0000000000000001e+300\n"));
    cdyn_lattice *back = read_text(text, len);
    check_same_grid(lat, back);
    /* The copy writes the same text, and has the map's outlets. */
    size_t len2;
    char *again = write_text(back, CDYN_LATTICE_GRID_HEIGHTS, &len2);
    assert_int_equal(len, len2);
    assert_memory_equal(text, again, len);
    uint32_t edges;
    assert_int_equal(cdyn_lattice_get_outlet_edges(back, &edges), CDYN_OK);
    assert_int_equal(edges, 31);
    free(text), free(again);

    /* Through a file too. */
    const char *path = "test_lattice_asc.tmp.asc";
    assert_int_equal(cdyn_lattice_write_asc_file(lat, CDYN_LATTICE_GRID_HEIGHTS, path), CDYN_OK);
    cdyn_lattice *from_file = NULL;
    char err[200];
    assert_int_equal(cdyn_lattice_read_asc_file(path, NULL, &from_file, err, sizeof err), CDYN_OK);
    check_same_grid(lat, from_file);
    remove(path);
    cdyn_lattice_destroy(from_file);
    cdyn_lattice_destroy(back);
    cdyn_lattice_destroy(lat);
}

/* A grid as GIS tools write it: centres, lower-case keys, CRLF lines,
 * -9999 for no data; the first row is the northernmost. */
static void test_hand_written_grid(void **state)
{
    (void)state;
    const char *text = "NCOLS 3\r\nNROWS 2\r\nXLLCENTER 100\r\nYLLCENTER 200\r\n"
                       "CELLSIZE 10\r\nnodata_value -9999\r\n"
                       "5 6.5 -9999\r\n1e1 -2.25E-1 +3\r\n";
    cdyn_lattice *lat = read_text(text, strlen(text));
    double z[6], x, y;
    uint8_t holes[6];
    assert_int_equal(cdyn_lattice_get_heights(lat, z, 6), CDYN_OK);
    assert_int_equal(cdyn_lattice_get_nodata_mask(lat, holes, 6), CDYN_OK);
    const double want[6] = {10, -0.225, 3, 5, 6.5};
    for (int i = 0; i < 5; i++)
        assert_true(z[i] == want[i]);
    const uint8_t want_holes[6] = {0, 0, 0, 0, 0, 1};
    assert_memory_equal(holes, want_holes, 6);
    assert_int_equal(cdyn_lattice_get_origin(lat, &x, &y), CDYN_OK);
    assert_true(x == 95 && y == 195); /* half a cell from the centre */
    assert_int_equal(cdyn_lattice_get_cell_size(lat, &x, &y), CDYN_OK);
    assert_true(x == 10 && y == 10);
    /* Water leaves at every edge: each site drains itself here (3 x 2). */
    uint32_t d[6];
    assert_int_equal(cdyn_lattice_compute_drainage(lat, d, 6), CDYN_OK);
    const uint32_t want_d[6] = {1, 1, 1, 1, 1, 0};
    assert_memory_equal(d, want_d, sizeof d);
    cdyn_lattice_destroy(lat);
}

static void expect_malformed(const char *text, const char *where)
{
    cdyn_lattice *lat = (cdyn_lattice *)&lat;
    char err[256];
    ts_counting_alloc st = {0};
    cdyn_allocator a = ts_counting_allocator(&st);
    cdyn_status s = cdyn_lattice_read_asc(text, strlen(text), &a, &lat, err, sizeof err);
    if (s != CDYN_ERR_FORMAT || !strstr(err, where) ||
        strncmp(err, "cdyn_lattice_read_asc: ", 23) != 0)
        fail_msg("status %s, message \"%s\", want \"%s\" for:\n%s", cdyn_status_name(s), err,
                 where, text);
    assert_null(lat);
    assert_int_equal(st.live_bytes, 0);
    /* Nothing sized by the header was allocated: at most the lattice. */
    assert_true(st.peak_bytes < 4096);
}

#define HEAD "ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n"

static void test_malformed_grids(void **state)
{
    (void)state;
    expect_malformed("", "line 1: the file ends in the header");
    expect_malformed("nrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2\n3 4\n",
                     "the header has no ncols");
    expect_malformed("ncols 3\nnrows 2\nfoo 3\n", "line 3: field 1: unknown header key 'foo'");
    expect_malformed("ncols 3\nncols 3\n", "line 2: field 1: ncols given twice");
    expect_malformed("ncols x\n", "line 1: field 2: ncols 'x' is not a whole number");
    expect_malformed("ncols 0\n", "line 1: field 2: ncols '0'");
    expect_malformed("ncols -3\n", "line 1: field 2: ncols '-3'");
    expect_malformed("ncols\n", "line 1: field 2: ncols has no value");
    expect_malformed("ncols 3 4\n", "line 1: field 3: unexpected '4'");
    expect_malformed("ncols 3\nnrows 2\nxllcorner 0\nxllcenter 0\nyllcorner 0\ncellsize 1\n"
                     "1 2 3\n4 5 6\n",
                     "exactly one of xllcorner and xllcenter");
    expect_malformed("ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ndx 1\n1 2 3\n4 5 6\n",
                     "cellsize, or dx and dy");
    expect_malformed("ncols 3\nnrows 2\nxllcorner nan\n", "line 3: field 2: xllcorner 'nan'");
    expect_malformed("ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 0\n1 2 3\n4 5 6\n",
                     "cell size 0 x 0");
    expect_malformed("ncols 1\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1\n2\n",
                     "at least 2 x 2");
    expect_malformed(HEAD "1 2 abc\n4 5 6\n", "line 6: field 3: 'abc' is not a number");
    expect_malformed(HEAD "1 2 3\n4 inf 6\n", "line 7: field 2: 'inf' is not a number");
    expect_malformed(HEAD "1 2 3\n4 0x10 6\n", "line 7: field 2: '0x10'");
    expect_malformed(HEAD "1 2,5 3\n4 5 6\n", "line 6: field 2: '2,5'");
    expect_malformed(HEAD "1 2\n4 5 6\n", "line 6: row 1 has 2 values, ncols is 3");
    expect_malformed(HEAD "1 2 3 4\n4 5 6\n", "line 6: row 1 has more than 3 values");
    expect_malformed("ncols 2\nnrows 3\nxllcorner 0\nyllcorner 0\ncellsize 1\n"
                     "1111 2222\n3333 4444\n", "line 8: the data ends after 2 of 3 rows");
    expect_malformed(HEAD "1 2 3\n\n4 5 6\n", "line 7: row 2 has 0 values");
    expect_malformed(HEAD "1 2 3\n4 5 6\n7 8 9\n", "line 8: data after the last of 2 rows");
    expect_malformed(HEAD "1 2 3\n4 1e200 6\n", "line 7: field 2: height 1e+200 is outside");
    expect_malformed("ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n"
                     "NODATA_value 7\n7 7 7\n7 7 7\n", "every cell is NODATA_value");
    /* Sizes the text cannot hold, refused before anything that large. */
    expect_malformed("ncols 100000\nnrows 100000\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2\n",
                     "declares more values than the 4 bytes after the header can hold");
    expect_malformed("ncols 4294967295\nnrows 4294967295\nxllcorner 0\nyllcorner 0\n"
                     "cellsize 1\n1\n", "declares more values");
    expect_malformed("ncols 99999999999999999999\n", "line 1: field 2: ncols");
}

/* The other fields hold what the lattice reports: receivers as indices
 * (no-data as NODATA_value), areas as drainage times dx dy. */
static void test_drainage_fields(void **state)
{
    (void)state;
    cdyn_lattice *lat = worked_lattice(9, 6);
    assert_int_equal(cdyn_lattice_set_routing(lat, CDYN_LATTICE_D8), CDYN_OK);
    size_t n = 54, len;
    uint32_t r[54], d[54];
    uint8_t holes[54];
    assert_int_equal(cdyn_lattice_compute_receivers(lat, r, n), CDYN_OK);
    assert_int_equal(cdyn_lattice_compute_drainage(lat, d, n), CDYN_OK);
    assert_int_equal(cdyn_lattice_get_nodata_mask(lat, holes, n), CDYN_OK);
    for (int field = 1; field <= 2; field++) {
        char *text = write_text(lat, (cdyn_lattice_grid)field, &len);
        assert_non_null(strstr(text, "NODATA_value -9999\n"));
        /* Read it back as a grid of numbers. */
        cdyn_lattice *back = read_text(text, len);
        double v[54];
        uint8_t m[54];
        assert_int_equal(cdyn_lattice_get_heights(back, v, n), CDYN_OK);
        assert_int_equal(cdyn_lattice_get_nodata_mask(back, m, n), CDYN_OK);
        assert_memory_equal(m, holes, n);
        for (size_t i = 0; i < n; i++) {
            if (holes[i])
                continue;
            if (field == CDYN_LATTICE_GRID_RECEIVERS)
                assert_true(v[i] == (double)r[i]);
            else
                assert_true(v[i] == (double)d[i] * 30.5 * 0.125);
        }
        free(text);
        cdyn_lattice_destroy(back);
    }
    cdyn_lattice_destroy(lat);
}

/* A locale with a decimal comma changes nothing (when one is installed;
 * without one: localedef -i de_DE -f UTF-8 DIR/de_DE.UTF-8, then run the
 * test with LOCPATH=DIR). */
static void test_locale_does_not_matter(void **state)
{
    (void)state;
    const char *names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8", "de_DE"};
    const char *got = NULL;
    for (size_t k = 0; k < sizeof names / sizeof *names && !got; k++)
        got = setlocale(LC_NUMERIC, names[k]);
    if (!got || strcmp(localeconv()->decimal_point, ",") != 0) {
        setlocale(LC_NUMERIC, "C");
        skip(); /* no locale with a decimal comma here */
    }
    cdyn_lattice *lat = worked_lattice(5, 4);
    size_t len;
    char *text = write_text(lat, CDYN_LATTICE_GRID_HEIGHTS, &len);
    assert_null(strchr(text, ','));
    cdyn_lattice *back = read_text(text, len);
    check_same_grid(lat, back);
    setlocale(LC_NUMERIC, "C");
    free(text);
    cdyn_lattice_destroy(back);
    cdyn_lattice_destroy(lat);
}

static void test_bad_arguments_and_files(void **state)
{
    (void)state;
    cdyn_lattice *lat = worked_lattice(5, 4), *out = NULL;
    char err[200], buf[8];
    size_t size;
    assert_int_equal(cdyn_lattice_read_asc(NULL, 3, NULL, &out, err, sizeof err),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(err, "text is NULL"));
    assert_int_equal(cdyn_lattice_read_asc("x", 1, NULL, NULL, NULL, 0), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_read_asc_file(NULL, NULL, &out, err, sizeof err),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_read_asc_file("/nonexistent/dir/x.asc", NULL, &out, err, 12),
                     CDYN_ERR_IO);
    assert_int_equal(strlen(err), 11); /* cut to the capacity */
    assert_null(out);
    cdyn_allocator half = {NULL, NULL, NULL};
    assert_int_equal(cdyn_lattice_read_asc("x", 1, &half, &out, NULL, 0), CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_asc_size(lat, (cdyn_lattice_grid)3, &size),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_lattice_last_error(lat), "cdyn_lattice_asc_size: unknown"));
    assert_int_equal(cdyn_lattice_asc_size(lat, CDYN_LATTICE_GRID_HEIGHTS, NULL),
                     CDYN_ERR_INVALID_ARGUMENT);
    memset(buf, 'x', sizeof buf);
    assert_int_equal(cdyn_lattice_write_asc(lat, CDYN_LATTICE_GRID_HEIGHTS, buf, sizeof buf, NULL),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(cdyn_lattice_last_error(lat), "cdyn_lattice_write_asc: capacity 8"));
    for (size_t i = 0; i < sizeof buf; i++)
        assert_int_equal(buf[i], 'x'); /* nothing written */
    assert_int_equal(cdyn_lattice_write_asc(lat, CDYN_LATTICE_GRID_HEIGHTS, NULL, 100, NULL),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_write_asc_file(lat, CDYN_LATTICE_GRID_HEIGHTS,
                                                 "/nonexistent/dir/x.asc"),
                     CDYN_ERR_IO);
    assert_non_null(strstr(cdyn_lattice_last_error(lat), "cdyn_lattice_write_asc_file: cannot"));
    assert_int_equal(cdyn_lattice_write_asc_file(lat, CDYN_LATTICE_GRID_HEIGHTS, NULL),
                     CDYN_ERR_INVALID_ARGUMENT);
    assert_int_equal(cdyn_lattice_write_asc_file(NULL, CDYN_LATTICE_GRID_HEIGHTS, "x"),
                     CDYN_ERR_INVALID_ARGUMENT);
    cdyn_lattice_destroy(lat);
}

/* Every allocation of a read failed in turn: NO_MEMORY, nothing leaked. */
static void test_read_out_of_memory(void **state)
{
    (void)state;
    cdyn_lattice *lat = worked_lattice(6, 5);
    size_t len;
    char *text = write_text(lat, CDYN_LATTICE_GRID_HEIGHTS, &len);
    for (size_t k = 1;; k++) {
        ts_counting_alloc st = {0};
        st.fail_at = k;
        cdyn_allocator a = ts_counting_allocator(&st);
        cdyn_lattice *out = NULL;
        char err[200];
        cdyn_status s = cdyn_lattice_read_asc(text, len, &a, &out, err, sizeof err);
        if (s == CDYN_OK) {
            assert_false(st.failed);
            cdyn_lattice_destroy(out);
            assert_int_equal(st.live_bytes, 0);
            break;
        }
        assert_int_equal(s, CDYN_ERR_NO_MEMORY);
        assert_non_null(strstr(err, "no memory"));
        assert_null(out);
        assert_int_equal(st.live_bytes, 0);
        assert_true(k < 20);
    }
    free(text);
    cdyn_lattice_destroy(lat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heights_round_trip_bit_for_bit),
        cmocka_unit_test(test_hand_written_grid),
        cmocka_unit_test(test_malformed_grids),
        cmocka_unit_test(test_drainage_fields),
        cmocka_unit_test(test_locale_does_not_matter),
        cmocka_unit_test(test_bad_arguments_and_files),
        cmocka_unit_test(test_read_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
