/* Callbacks in snapshots: the tag written in place of the functions, and
 * the functions found again at a load, from the caller's resolver or, for
 * a clone, from the system cloned. */
#include <string.h>

#include "snapshot/snapshot.h"

void cdyn_snapshot_options_init(cdyn_snapshot_options *options)
{
    if (!options)
        return;
    memset(options, 0, sizeof *options);
    options->size = sizeof *options;
}

void cdyn__save_callback(cdyn__save *S, cdyn_callback_kind kind, uint64_t tag,
                         const cdyn_callback_binding *b)
{
    (void)kind;
    cdyn__out_u64(&S->w, tag);
    if (S->bind)
        S->bind[S->n_bind] = *b;
    S->n_bind++;
}

static const char *kind_name(cdyn_callback_kind kind)
{
    static const char *const names[] = {"?",     "force",   "constraint", "implicit", "ground",
                                        "curve", "surface", "motion",     "schedule", "pair"};
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

/* The function of @p kind in @p b, as a test for NULL (no conversion of a
 * function pointer to an object pointer). */
static bool has_function(const cdyn_callback_binding *b, cdyn_callback_kind kind)
{
    switch (kind) {
    case CDYN_CALLBACK_FORCE:
        return b->force != NULL;
    case CDYN_CALLBACK_CONSTRAINT:
        return b->constraint != NULL;
    case CDYN_CALLBACK_IMPLICIT:
        return b->implicit != NULL;
    case CDYN_CALLBACK_GROUND:
        return b->ground != NULL;
    case CDYN_CALLBACK_CURVE:
        return b->curve != NULL;
    case CDYN_CALLBACK_SURFACE:
        return b->surface != NULL;
    case CDYN_CALLBACK_MOTION:
        return b->motion != NULL;
    case CDYN_CALLBACK_SCHEDULE:
        return b->schedule != NULL;
    case CDYN_CALLBACK_PAIR:
        return b->pair != NULL;
    }
    return false;
}

bool cdyn__load_callback(cdyn__load *L, cdyn_callback_kind kind, bool need_jacobian,
                         cdyn_callback_binding *b, uint64_t *tag)
{
    *tag = cdyn__in_u64(&L->r);
    memset(b, 0, sizeof *b);
    b->size = sizeof *b;
    if (!cdyn__load_ok(L))
        return false;
    if (L->bind) {
        /* A clone: the callbacks come in the order they were written. */
        if (L->next_bind >= L->n_bind)
            return cdyn__in_fail(&L->r, "more callbacks than the system cloned had");
        *b = L->bind[L->next_bind++];
    } else {
        int rc = L->resolve ? L->resolve(kind, *tag, b, L->resolve_user) : -1;
        bool ok = rc == 0 && has_function(b, kind) && (!need_jacobian || b->force_jacobian);
        if (!ok) {
            L->miss_kind = kind;
            L->miss_tag = *tag;
            return cdyn__load_fail(
                L, CDYN_ERR_UNRESOLVED, "%s callback with tag %llu: %s", kind_name(kind),
                (unsigned long long)*tag,
                !L->resolve ? "no resolver given"
                : rc != 0   ? "the resolver does not know it"
                : need_jacobian && has_function(b, kind)
                    ? "the resolver gave no force_jacobian (the force had one)"
                    : "the resolver gave no function");
        }
    }
    /* Only what the kind uses is kept. */
    cdyn_callback_binding keep;
    memset(&keep, 0, sizeof keep);
    keep.size = sizeof keep;
    keep.user = b->user;
    switch (kind) {
    case CDYN_CALLBACK_FORCE:
        keep.force = b->force;
        keep.force_jacobian = need_jacobian ? b->force_jacobian : NULL;
        break;
    case CDYN_CALLBACK_CONSTRAINT:
        keep.constraint = b->constraint;
        break;
    case CDYN_CALLBACK_IMPLICIT:
        keep.implicit = b->implicit;
        break;
    case CDYN_CALLBACK_GROUND:
        keep.ground = b->ground;
        break;
    case CDYN_CALLBACK_CURVE:
        keep.curve = b->curve;
        break;
    case CDYN_CALLBACK_SURFACE:
        keep.surface = b->surface;
        break;
    case CDYN_CALLBACK_MOTION:
        keep.motion = b->motion;
        break;
    case CDYN_CALLBACK_SCHEDULE:
        keep.schedule = b->schedule;
        break;
    case CDYN_CALLBACK_PAIR:
        keep.pair = b->pair;
        break;
    }
    *b = keep;
    return true;
}
