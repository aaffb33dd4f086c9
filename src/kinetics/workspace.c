/* The work space: built for a network shape, kept until it changes. */
#include "kinetics/workspace.h"

#include "core/alloc.h"

static void free_work(const cdyn_allocator *a, cdyn__kin_work *w)
{
    for (int i = 0; i < CDYN__KIN_NVEC; i++)
        cdyn__free_array(a, w->vec[i], w->n, sizeof(double));
    cdyn__free_array(a, w->v, w->nr ? w->nr : 1, sizeof(double));
    if (w->implicit)
        cdyn__kin_newton_free(a, &w->nw);
    cdyn__free_array(a, w, 1, sizeof *w);
}

void cdyn__kin_work_free(cdyn_kinetics *kin)
{
    if (kin->work)
        free_work(&kin->alloc, kin->work);
    kin->work = NULL;
}

cdyn_status cdyn__kin_work_prepare(cdyn_kinetics *kin, const char *fn, bool implicit)
{
    const cdyn_allocator *a = &kin->alloc;
    cdyn__kin_work *w = kin->work;
    if (w && w->serial != kin->serial) {
        cdyn__kin_work_free(kin);
        w = NULL;
    }
    if (!w) {
        w = cdyn__calloc_array(a, 1, sizeof *w);
        if (!w)
            goto oom;
        w->serial = kin->serial;
        w->n = kin->sp.n;
        w->nr = kin->rx.n;
        bool ok = (w->v = cdyn__alloc_array(a, w->nr ? w->nr : 1, sizeof(double))) != NULL;
        for (int i = 0; ok && i < CDYN__KIN_NVEC && w->n; i++)
            ok = (w->vec[i] = cdyn__calloc_array(a, w->n, sizeof(double))) != NULL;
        if (!ok) {
            free_work(a, w);
            goto oom;
        }
        kin->work = w;
    }
    if (implicit && !w->implicit) {
        if (cdyn__kin_newton_init(kin, &w->nw))
            goto oom;
        w->implicit = true;
    }
    return CDYN_OK;
oom:
    return cdyn__kin_fail(kin, CDYN_ERR_NO_MEMORY, fn,
                          "out of memory for the work space of %zu species and %zu reactions",
                          kin->sp.n, kin->rx.n);
}
