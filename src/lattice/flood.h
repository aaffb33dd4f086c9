/* Receivers by priority-flood from the outlets, in D4 or D8 (flood.c). */
#ifndef CDYN__LATTICE_FLOOD_H
#define CDYN__LATTICE_FLOOD_H

#include <stdbool.h>
#include <stdint.h>

#include "lattice/lattice.h"

/* Writes the receiver of every site into @p recv (n entries): the site's
 * own index at an outlet or a closed basin's sink, CDYN__LATTICE_UNSET at a
 * no-data cell. @p fifo (n entries) is scratch. The rest of the scratch
 * (a reached bit per site, the heap, in D8 a level per site) comes from the
 * lattice's allocator and is freed before return. Returns false when an
 * allocation fails (recv and fifo then hold garbage, nothing else changed). */
bool cdyn__lattice_flood(const cdyn_lattice *lat, uint32_t *recv, uint32_t *fifo);

#endif
