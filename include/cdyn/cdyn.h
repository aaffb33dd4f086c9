/** @file
 *  @brief The umbrella header: includes every topic header of cdyn.
 *
 *  cdyn simulates constrained particle dynamics and lattice erosion models.
 *  Include this header; each topic header beside it may also be included
 *  alone, and each compiles on its own as C11 and as C++.
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
#include "box.h"
#include "thermostat.h"
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
#include "snapshot.h"
#include "tasks.h"

#endif /* CDYN_CDYN_H */
