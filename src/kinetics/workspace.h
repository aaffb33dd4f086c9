/* The work space of rate queries and integrations, allocated for the
 * network's shape (and, for the implicit methods, its Newton systems) and
 * kept until the shape changes, so that steps allocate nothing. */
#ifndef CDYN__KINETICS_WORKSPACE_H
#define CDYN__KINETICS_WORKSPACE_H

#include <stdbool.h>

#include "kinetics/kinetics.h"
#include "kinetics/newton.h"

/* Vectors of one value per species that the methods share. */
#define CDYN__KIN_NVEC 18

typedef struct cdyn__kin_work {
    uint64_t serial;            /* kin->serial it was built for */
    size_t n;                   /* species */
    size_t nr;                  /* reactions */
    double *vec[CDYN__KIN_NVEC];
    double *v;                  /* reaction rates, max(nr, 1) */
    bool implicit;              /* nw is set up */
    cdyn__kin_newton nw;
} cdyn__kin_work;

/* Makes kin->work fit the network (with the Newton systems when
 * @p implicit). CDYN_OK or CDYN_ERR_NO_MEMORY (message set, naming @p fn;
 * the object otherwise unchanged). */
cdyn_status cdyn__kin_work_prepare(cdyn_kinetics *kin, const char *fn, bool implicit);

/* Frees kin->work. */
void cdyn__kin_work_free(cdyn_kinetics *kin);

#endif
