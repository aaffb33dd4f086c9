/* Terrain settings of a lattice: where water leaves (outlet edges, an
 * outlet mask), where there is no data, the routing (D4 or D8) and the cell
 * size; and the neighbourhoods the drainage uses. */
#ifndef CDYN__LATTICE_TERRAIN_H
#define CDYN__LATTICE_TERRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lattice/lattice.h"

/* Bits of lat->cell (allocated only while a mask is set). */
#define CDYN__LATTICE_CELL_OUTLET 1u
#define CDYN__LATTICE_CELL_NODATA 2u

/* Every cdyn_lattice_edge bit. */
#define CDYN__LATTICE_EDGES_ALL 31u

/* Sets the terrain defaults: D4, unit cells at the origin, outlets on the
 * bottom edge, no masks. */
void cdyn__lattice_terrain_default(cdyn_lattice *lat);

/* true when the lattice is the erosion model's: outlets on row 0 only and
 * no masks (what rain needs). */
bool cdyn__lattice_terrain_is_plain(const cdyn_lattice *lat);

/* The 4-neighbours of site @p s (x = s % w given), in the order down, left,
 * right, up; those beyond a wall or the top and bottom rows left out. */
static inline int cdyn__lattice_nbrs4(size_t s, size_t x, size_t w, size_t n, bool periodic,
                                      uint32_t nb[4])
{
    int k = 0;
    if (s >= w)
        nb[k++] = (uint32_t)(s - w);
    if (x > 0)
        nb[k++] = (uint32_t)(s - 1);
    else if (periodic)
        nb[k++] = (uint32_t)(s + w - 1);
    if (x + 1 < w)
        nb[k++] = (uint32_t)(s + 1);
    else if (periodic)
        nb[k++] = (uint32_t)(s + 1 - w);
    if (s + w < n)
        nb[k++] = (uint32_t)(s + w);
    return k;
}

/* The 8-neighbours of site @p s in the order down, left, right, up,
 * down-left, down-right, up-left, up-right, each with its kind: 0 a move
 * along x, 1 along y, 2 diagonal. */
static inline int cdyn__lattice_nbrs8(size_t s, size_t x, size_t w, size_t n, bool periodic,
                                      uint32_t nb[8], uint8_t kind[8])
{
    bool down = s >= w, up = s + w < n;
    if (down && up && x - 1 < w - 2) {
        /* Inside (most sites): every neighbour, no wrapping. */
        nb[0] = (uint32_t)(s - w), nb[1] = (uint32_t)(s - 1);
        nb[2] = (uint32_t)(s + 1), nb[3] = (uint32_t)(s + w);
        nb[4] = (uint32_t)(s - w - 1), nb[5] = (uint32_t)(s - w + 1);
        nb[6] = (uint32_t)(s + w - 1), nb[7] = (uint32_t)(s + w + 1);
        static const uint8_t inside[8] = {1, 0, 0, 1, 2, 2, 2, 2};
        memcpy(kind, inside, 8);
        return 8;
    }
    bool has_left = x > 0 || periodic, has_right = x + 1 < w || periodic;
    size_t row = s - x;                        /* the site's row starts here */
    size_t xl = x > 0 ? x - 1 : w - 1;         /* the left column (wrapped) */
    size_t xr = x + 1 < w ? x + 1 : 0;         /* the right column (wrapped) */
    int k = 0;
    if (down)
        nb[k] = (uint32_t)(s - w), kind[k++] = 1;
    if (has_left)
        nb[k] = (uint32_t)(row + xl), kind[k++] = 0;
    if (has_right)
        nb[k] = (uint32_t)(row + xr), kind[k++] = 0;
    if (up)
        nb[k] = (uint32_t)(s + w), kind[k++] = 1;
    if (down && has_left)
        nb[k] = (uint32_t)(row - w + xl), kind[k++] = 2;
    if (down && has_right)
        nb[k] = (uint32_t)(row - w + xr), kind[k++] = 2;
    if (up && has_left)
        nb[k] = (uint32_t)(row + w + xl), kind[k++] = 2;
    if (up && has_right)
        nb[k] = (uint32_t)(row + w + xr), kind[k++] = 2;
    return k;
}

#endif
