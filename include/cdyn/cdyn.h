/* cdyn: constrained particle dynamics and lattice erosion models.
 *
 * The umbrella header: include this one. Topic headers beside it may also be
 * included alone; each compiles on its own as C11 and as C++.
 */
#ifndef CDYN_CDYN_H
#define CDYN_CDYN_H

#include "export.h"
#include "version.h"
#include "status.h"
#include "types.h"

#endif /* CDYN_CDYN_H */
