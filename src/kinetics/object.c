/* The kinetics object's lifetime: creation and destruction reach every
 * store and the work space, so they sit above them (no include loop). */
#include "core/alloc.h"
#include "kinetics/kinetics.h"
#include "kinetics/workspace.h"

static cdyn_status create(const cdyn_allocator *allocator, cdyn_kinetics **out)
{
    cdyn_allocator a;
    if (!out)
        return CDYN_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (!cdyn__allocator_init(&a, allocator))
        return CDYN_ERR_INVALID_ARGUMENT;
    cdyn_kinetics *kin = cdyn__calloc_array(&a, 1, sizeof *kin);
    if (!kin)
        return CDYN_ERR_NO_MEMORY;
    kin->alloc = a;
    cdyn_kinetics_options_init(&kin->opt);
    kin->stats.size = sizeof kin->stats;
    *out = kin;
    return CDYN_OK;
}

cdyn_status cdyn_kinetics_create(cdyn_kinetics **out)
{
    return create(NULL, out);
}

cdyn_status cdyn_kinetics_create_with_allocator(const cdyn_allocator *allocator,
                                                cdyn_kinetics **out)
{
    return create(allocator, out);
}

void cdyn_kinetics_destroy(cdyn_kinetics *kin)
{
    if (!kin)
        return;
    cdyn_allocator a = kin->alloc;
    cdyn__kin_work_free(kin);
    cdyn__kin_moieties_free(kin);
    cdyn__kin_reactions_free(kin);
    cdyn__kin_species_free(kin);
    cdyn__free_array(&a, kin->atol, kin->atol_n, sizeof(double));
    cdyn__free_array(&a, kin, 1, sizeof *kin);
}

const char *cdyn_kinetics_last_error(const cdyn_kinetics *kin)
{
    return kin ? kin->err : "";
}

