/* The scratch arrays of evaluations and steps. */
#include "core/workspace.h"

#include <string.h>

#include "core/alloc.h"
#include "core/system.h"

void cdyn__workspace_free(cdyn_system *sys)
{
    cdyn__workspace *ws = &sys->ws;
    cdyn__free_array(&sys->alloc, ws->block, ws->n_arrays * ws->cap_len, sizeof(double));
    memset(ws, 0, sizeof *ws);
}

/* The arrays of particles on shapes: their Cartesian scratch (2) and a
 * backup of the state (4) for steps split at spline knots. Kinematic
 * particles use the scratch too (their state replaced in a copy). */
#define SHAPE_ARRAYS 6

cdyn_status cdyn__workspace_ensure(cdyn_system *sys, size_t stages)
{
    cdyn__workspace *ws = &sys->ws;
    size_t len = (size_t)sys->particles.capacity * (size_t)sys->dim;
    size_t n_arrays = 1 + stages + (sys->param_of || sys->kin ? SHAPE_ARRAYS : 0);
    if (ws->block && ws->cap_len >= len && ws->n_arrays >= n_arrays)
        return CDYN_OK;
    if (len == 0)
        return CDYN_OK;
    if (n_arrays < ws->n_arrays)
        n_arrays = ws->n_arrays; /* keep what a previous integrator needed */
    if (cdyn__mul_overflows(n_arrays, len))
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY, "step: workspace size overflows");
    double *block = cdyn__calloc_array(&sys->alloc, n_arrays * len, sizeof(double));
    if (!block)
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY,
                          "step: out of memory for the integrator workspace (%zu doubles)",
                          n_arrays * len);
    cdyn__workspace_free(sys);
    ws->block = block;
    ws->n_arrays = n_arrays;
    ws->cap_len = len;
    ws->f = block;
    /* The arrays of shapes come last, when there are any. */
    if (n_arrays >= 1 + SHAPE_ARRAYS) {
        double *shape = block + (n_arrays - SHAPE_ARRAYS) * len;
        ws->px = shape;
        ws->pv = shape + len;
        for (size_t i = 0; i < 4; i++)
            ws->backup[i] = shape + (2 + i) * len;
    }
    for (size_t i = 0; i + 1 < n_arrays && i < sizeof ws->stage / sizeof ws->stage[0]; i++)
        ws->stage[i] = block + (1 + i) * len;
    return CDYN_OK;
}
