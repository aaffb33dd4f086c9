/* cdyn: constrained particle dynamics and lattice erosion models.
 *
 * The umbrella header: include this one. Topic headers beside it may also be
 * included alone; each compiles on its own as C11 and as C++.
 */
#ifndef CDYN_CDYN_H
#define CDYN_CDYN_H

#include "export.h"
#include "cdyn/version.h" /* generated into the build tree */
#include "status.h"
#include "types.h"
#include "system.h"
#include "particle.h"
#include "force.h"
#include "pair.h"
#include "diagnostics.h"
#include "constraint.h"
#include "motion.h"
#include "parametric.h"
#include "projection.h"
#include "ground.h"
#include "rigid.h"
#include "lattice.h"
#include "kinetics.h"
#include "shapes.h"
#include "tasks.h"

#endif /* CDYN_CDYN_H */
