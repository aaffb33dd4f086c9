/* libFuzzer target: the ESRI ASCII grid reader.
 *
 * Invariants:
 *  - a refused text creates nothing, says CDYN_ERR_FORMAT (or
 *    CDYN_ERR_NO_MEMORY) and names the reader first in its message;
 *  - nothing is allocated beyond a few times the text's length (sizes the
 *    text cannot hold are refused before allocating);
 *  - an accepted grid writes back to text that reads to the same heights,
 *    no-data cells, cell size and origin, bit for bit;
 *  - its drainage conserves water in D4 and D8 (the outlets' drainage adds
 *    up to the cells that hold data);
 *  - nothing leaks. */
#include "fuzz_util.h"

static void check_drainage(cdyn_lattice *lat, size_t n)
{
    uint32_t *d = malloc(n * sizeof *d), *r = malloc(n * sizeof *r);
    FUZZ_CHECK(d && r);
    for (int routing = 0; routing < 2; routing++) {
        FUZZ_CHECK(cdyn_lattice_set_routing(lat, (cdyn_lattice_routing)routing) == CDYN_OK);
        FUZZ_CHECK(cdyn_lattice_compute_drainage(lat, d, n) == CDYN_OK);
        FUZZ_CHECK(cdyn_lattice_compute_receivers(lat, r, n) == CDYN_OK);
        uint64_t out = 0, valid = 0;
        for (size_t i = 0; i < n; i++) {
            if (r[i] == CDYN_LATTICE_NO_RECEIVER) {
                FUZZ_CHECK(d[i] == 0);
                continue;
            }
            valid++;
            if (r[i] == i)
                out += d[i];
        }
        FUZZ_CHECK(out == valid);
    }
    free(d);
    free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_alloc a = {0};
    cdyn_allocator al = fuzz_allocator(&a);
    cdyn_lattice *lat = (cdyn_lattice *)&a;
    char err[256];
    cdyn_status st = cdyn_lattice_read_asc((const char *)data, size, &al, &lat, err, sizeof err);
    if (st != CDYN_OK) {
        FUZZ_CHECK(st == CDYN_ERR_FORMAT || st == CDYN_ERR_NO_MEMORY);
        FUZZ_CHECK(lat == NULL && a.live == 0);
        FUZZ_CHECK(strncmp(err, "cdyn_lattice_read_asc: ", 23) == 0);
        return 0;
    }
    size_t w, h;
    FUZZ_CHECK(cdyn_lattice_get_size(lat, &w, &h) == CDYN_OK);
    size_t n = w * h;
    /* The lattice (about 8 bytes per value) and a byte per value for the
     * mask: each value took two bytes of text at least. */
    FUZZ_CHECK(n <= size / 2 + 1);

    size_t len = 0;
    FUZZ_CHECK(cdyn_lattice_asc_size(lat, CDYN_LATTICE_GRID_HEIGHTS, &len) == CDYN_OK);
    char *text = malloc(len);
    FUZZ_CHECK(text && cdyn_lattice_write_asc(lat, CDYN_LATTICE_GRID_HEIGHTS, text, len, NULL) ==
                           CDYN_OK);
    cdyn_lattice *back = NULL;
    FUZZ_CHECK(cdyn_lattice_read_asc(text, len - 1, NULL, &back, err, sizeof err) == CDYN_OK);
    double *z1 = malloc(n * sizeof *z1), *z2 = malloc(n * sizeof *z2);
    uint8_t *m1 = malloc(n), *m2 = malloc(n);
    FUZZ_CHECK(z1 && z2 && m1 && m2);
    FUZZ_CHECK(cdyn_lattice_get_heights(lat, z1, n) == CDYN_OK);
    FUZZ_CHECK(cdyn_lattice_get_heights(back, z2, n) == CDYN_OK);
    FUZZ_CHECK(cdyn_lattice_get_nodata_mask(lat, m1, n) == CDYN_OK);
    FUZZ_CHECK(cdyn_lattice_get_nodata_mask(back, m2, n) == CDYN_OK);
    FUZZ_CHECK(memcmp(m1, m2, n) == 0);
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK(m1[i] || memcmp(&z1[i], &z2[i], sizeof z1[i]) == 0);
    double a1, b1, a2, b2;
    FUZZ_CHECK(cdyn_lattice_get_cell_size(lat, &a1, &b1) == CDYN_OK);
    FUZZ_CHECK(cdyn_lattice_get_cell_size(back, &a2, &b2) == CDYN_OK);
    FUZZ_CHECK(a1 == a2 && b1 == b2);
    FUZZ_CHECK(cdyn_lattice_get_origin(lat, &a1, &b1) == CDYN_OK);
    FUZZ_CHECK(cdyn_lattice_get_origin(back, &a2, &b2) == CDYN_OK);
    FUZZ_CHECK(memcmp(&a1, &a2, sizeof a1) == 0 && memcmp(&b1, &b2, sizeof b1) == 0);

    check_drainage(lat, n);
    free(text), free(z1), free(z2), free(m1), free(m2);
    cdyn_lattice_destroy(back);
    cdyn_lattice_destroy(lat);
    FUZZ_CHECK(a.live == 0);
    return 0;
}
