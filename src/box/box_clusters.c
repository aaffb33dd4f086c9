/* Clusters of a periodic box: particles joined by enabled distance
 * constraints or by a rigid body, kept whole (every member at the minimum
 * image of its bonded neighbour) and moved back into the box as one.
 *
 * The clusters are found anew whenever the system changed since the last
 * step (sys->revision): a breadth-first walk over the bonds from each
 * cluster's lowest slot gives every member a parent, and placing members in
 * walk order at the minimum image of their parent makes the cluster whole
 * however far it reaches (a polymer longer than the box). Rods are then
 * seen at their length by every kernel of the constraint solve and the
 * projections, with no periodic arithmetic in them. */
#include <math.h>
#include <string.h>

#include "box/box.h"
#include "constraint/constraint.h"
#include "core/alloc.h"
#include "core/holders.h"
#include "core/system.h"
#include "core/tasks.h"

#define NONE UINT32_MAX

void cdyn__box_free_clusters(cdyn_system *sys)
{
    cdyn__box *b = sys->box;
    if (!b)
        return;
    const cdyn_allocator *a = &sys->alloc;
    size_t cap = b->cap;
    cdyn__free_array(a, b->parent, cap, sizeof *b->parent);
    cdyn__free_array(a, b->walk, cap, sizeof *b->walk);
    cdyn__free_array(a, b->roots, cap, sizeof *b->roots);
    cdyn__free_array(a, b->pinned, cap, sizeof *b->pinned);
    cdyn__free_array(a, b->adj_start, cap + 1, sizeof *b->adj_start);
    cdyn__free_array(a, b->adj, b->adj_cap, sizeof *b->adj);
    cdyn__free_array(a, b->shift, cap * (size_t)sys->dim, sizeof *b->shift);
    cdyn__free_array(a, b->saved_x, 2 * cap * (size_t)sys->dim, sizeof *b->saved_x);
    cdyn__free_array(a, b->saved_image, cap * (size_t)sys->dim, sizeof *b->saved_image);
    b->parent = b->walk = b->roots = b->adj_start = b->adj = NULL;
    b->pinned = NULL;
    b->shift = b->saved_x = NULL;
    b->saved_image = NULL;
    b->saved = false;
    b->cap = 0;
    b->adj_cap = 0;
    b->whole_valid = b->links_valid = false;
}

/* Sizes the per-slot arrays for @p n slots and the bond array for
 * @p n_links entries. */
static cdyn_status reserve(cdyn_system *sys, uint32_t n, size_t n_links)
{
    cdyn__box *b = sys->box;
    const cdyn_allocator *a = &sys->alloc;
    const size_t d = (size_t)sys->dim;
    if (n > b->cap) {
        uint32_t cap = sys->particles.capacity > n ? sys->particles.capacity : n;
        uint32_t *parent = cdyn__alloc_array(a, cap, sizeof *parent);
        uint32_t *walk = cdyn__alloc_array(a, cap, sizeof *walk);
        uint32_t *roots = cdyn__alloc_array(a, cap, sizeof *roots);
        uint8_t *pinned = cdyn__alloc_array(a, cap, sizeof *pinned);
        uint32_t *start = cdyn__alloc_array(a, (size_t)cap + 1, sizeof *start);
        double *shift = cdyn__alloc_array(a, (size_t)cap * d, sizeof *shift);
        double *saved_x = cdyn__alloc_array(a, 2 * (size_t)cap * d, sizeof *saved_x);
        int64_t *saved_image = cdyn__alloc_array(a, (size_t)cap * d, sizeof *saved_image);
        if (!parent || !walk || !roots || !pinned || !start || !shift || !saved_x ||
            !saved_image) {
            cdyn__free_array(a, parent, cap, sizeof *parent);
            cdyn__free_array(a, walk, cap, sizeof *walk);
            cdyn__free_array(a, roots, cap, sizeof *roots);
            cdyn__free_array(a, pinned, cap, sizeof *pinned);
            cdyn__free_array(a, start, (size_t)cap + 1, sizeof *start);
            cdyn__free_array(a, shift, (size_t)cap * d, sizeof *shift);
            cdyn__free_array(a, saved_x, 2 * (size_t)cap * d, sizeof *saved_x);
            cdyn__free_array(a, saved_image, (size_t)cap * d, sizeof *saved_image);
            return CDYN_ERR_NO_MEMORY;
        }
        size_t adj_cap = b->adj_cap;
        uint32_t *adj = b->adj;
        b->adj = NULL;
        b->adj_cap = 0;
        cdyn__box_free_clusters(sys);
        b->adj = adj;
        b->adj_cap = adj_cap;
        b->parent = parent;
        b->walk = walk;
        b->roots = roots;
        b->pinned = pinned;
        b->adj_start = start;
        b->shift = shift;
        b->saved_x = saved_x;
        b->saved_image = saved_image;
        b->cap = cap;
    }
    if (n_links > b->adj_cap) {
        size_t cap = n_links + n_links / 2 + 16;
        uint32_t *adj = cdyn__alloc_array(a, cap, sizeof *adj);
        if (!adj)
            return CDYN_ERR_NO_MEMORY;
        cdyn__free_array(a, b->adj, b->adj_cap, sizeof *b->adj);
        b->adj = adj;
        b->adj_cap = cap;
    }
    return CDYN_OK;
}

/* Whether constraint @p c joins two particles by their separation alone. */
static bool is_bond(const cdyn__constraint *c)
{
    return c->enabled && c->kind == CDYN_CONSTRAINT_DISTANCE && c->n_particles == 2;
}

/* Calls @p link(ctx, s, t) for every bond, and marks pinned slots in
 * b->pinned (per slot). Rigid members are linked to the first member of
 * their body met, found through b->roots used as a map from body to slot. */
typedef void (*link_fn)(cdyn__box *b, uint32_t s, uint32_t t);

static void for_links(cdyn_system *sys, link_fn link, bool mark)
{
    cdyn__box *b = sys->box;
    const uint32_t n = sys->particles.count;
    const cdyn__constraints *k = sys->cons;
    for (uint32_t i = 0; k && i < k->slots.count; i++) {
        if (!k->slots.alive[i])
            continue;
        const cdyn__constraint *c = &k->c[i];
        if (is_bond(c))
            link(b, c->u.particle[0], c->u.particle[1]);
        else if (mark && c->kind != CDYN_CONSTRAINT_DISTANCE)
            for (uint32_t j = 0; j < c->n_particles; j++)
                b->pinned[cdyn__constraint_particle(c, j)] = 1;
    }
    for (uint32_t s = 0; s < n; s++)
        b->roots[s] = NONE;
    for (uint32_t s = 0; s < n; s++) {
        uint32_t body = sys->particles.alive[s] ? cdyn__holder_body(sys, s) : 0;
        if (!body)
            continue;
        if (body - 1 >= n) { /* no room in the map: keep the body where it is */
            if (mark)
                b->pinned[s] = 1;
            continue;
        }
        if (b->roots[body - 1] == NONE)
            b->roots[body - 1] = s;
        else
            link(b, b->roots[body - 1], s);
    }
}

static void count_link(cdyn__box *b, uint32_t s, uint32_t t)
{
    b->adj_start[s + 1]++;
    b->adj_start[t + 1]++;
}

static void fill_link(cdyn__box *b, uint32_t s, uint32_t t)
{
    b->adj[b->adj_start[s]++] = t; /* adj_start[s] runs as a cursor here */
    b->adj[b->adj_start[t]++] = s;
}

/* The bonds as adjacency lists, and the per-slot pin marks. */
static cdyn_status build_links(cdyn_system *sys)
{
    cdyn__box *b = sys->box;
    const uint32_t n = sys->particles.count;
    cdyn_status st = reserve(sys, n, 0);
    if (st)
        return st;
    memset(b->adj_start, 0, ((size_t)n + 1) * sizeof *b->adj_start);
    /* Held in space: particles on shapes and kinematic particles (their
     * motions say where they are). */
    for (uint32_t s = 0; s < n; s++)
        b->pinned[s] = sys->particles.alive[s] &&
                       ((sys->param_of && sys->param_of[s]) || cdyn__is_kinematic(sys, s));
    for_links(sys, count_link, true);
    for (uint32_t s = 0; s < n; s++)
        b->adj_start[s + 1] += b->adj_start[s];
    if ((st = reserve(sys, n, b->adj_start[n])))
        return st;
    for_links(sys, fill_link, false);
    /* The cursors ended at the next list's start: shift back. */
    for (uint32_t s = n; s > 0; s--)
        b->adj_start[s] = b->adj_start[s - 1];
    b->adj_start[0] = 0;
    return CDYN_OK;
}

/* Breadth-first walks from each cluster's lowest slot: parents, walk order,
 * roots, and pinned per root. */
static void walk_clusters(cdyn_system *sys)
{
    cdyn__box *b = sys->box;
    const uint32_t n = sys->particles.count;
    for (uint32_t s = 0; s < n; s++)
        b->parent[s] = NONE;
    b->n_walk = b->n_roots = 0;
    for (uint32_t r = 0; r < n; r++) {
        if (!sys->particles.alive[r] || b->parent[r] != NONE)
            continue;
        uint32_t head = b->n_walk;
        b->parent[r] = r;
        b->walk[b->n_walk++] = r;
        b->roots[b->n_roots++] = r;
        uint8_t pin = 0;
        for (; head < b->n_walk; head++) {
            uint32_t s = b->walk[head];
            pin |= b->pinned[s];
            for (uint32_t e = b->adj_start[s]; e < b->adj_start[s + 1]; e++) {
                uint32_t t = b->adj[e];
                if (b->parent[t] == NONE) {
                    b->parent[t] = s;
                    b->walk[b->n_walk++] = t;
                }
            }
        }
        b->pinned[r] = pin;
    }
}

/* Moves slot @p s by -n_k len_k along each axis (n in box lengths). */
/* Keeps the positions and image counters as they are, before the first
 * move of this preparation (cdyn__box_undo puts them back). */
static void save_before_move(cdyn_system *sys)
{
    cdyn__box *b = sys->box;
    if (b->saved)
        return;
    const size_t d = (size_t)sys->dim, n = sys->particles.count;
    memcpy(b->saved_x, sys->x, n * d * sizeof *b->saved_x);
    if (sys->u != sys->x)
        memcpy(b->saved_x + (size_t)b->cap * d, sys->u, n * d * sizeof *b->saved_x);
    size_t ni = n < b->image_cap ? n : b->image_cap;
    if (ni)
        memcpy(b->saved_image, b->image, ni * d * sizeof *b->saved_image);
    b->saved = true;
}

void cdyn__box_undo(cdyn_system *sys)
{
    cdyn__box *b = sys ? sys->box : NULL;
    if (!b || !b->saved)
        return;
    const size_t d = (size_t)sys->dim, n = sys->particles.count;
    memcpy(sys->x, b->saved_x, n * d * sizeof *b->saved_x);
    if (sys->u != sys->x)
        memcpy(sys->u, b->saved_x + (size_t)b->cap * d, n * d * sizeof *b->saved_x);
    size_t ni = n < b->image_cap ? n : b->image_cap;
    if (ni)
        memcpy(b->image, b->saved_image, ni * d * sizeof *b->saved_image);
    b->saved = false;
    b->whole_valid = false; /* made whole again at the next preparation */
    b->epoch++;             /* lists built on the moved positions are stale */
}

void cdyn__box_keep(cdyn_system *sys)
{
    if (sys->box)
        sys->box->saved = false;
}

static void shift_slot(cdyn_system *sys, uint32_t s, const double *n)
{
    const cdyn__box *b = sys->box;
    const size_t d = (size_t)sys->dim;
    for (size_t k = 0; k < d; k++) {
        if (n[k] == 0)
            continue;
        sys->x[s * d + k] -= n[k] * b->len[k];
        if (sys->u != sys->x)
            sys->u[s * d + k] -= n[k] * b->len[k];
    }
}

/* Box lengths between @p d and its minimum image, per axis; true if any. */
static bool image_shift(const cdyn__box *b, int dim, const double *d, double *n)
{
    bool any = false;
    for (int k = 0; k < dim; k++) {
        double m = d[k];
        n[k] = 0;
        if (!b->periodic[k] || !isfinite(m))
            continue;
        if (m > b->half[k] || m < -b->half[k]) {
            n[k] = floor(m * b->inv_len[k] + 0.5);
            any = any || n[k] != 0;
        }
    }
    return any;
}

/* Places every member of a free cluster at the minimum image of its parent
 * and gives it its root's image counter; refuses, with nothing moved, a
 * cluster whose bonds close a loop through the periodic faces (some bond
 * then still spans a face). The shifts are found first, checked, and only
 * then applied. */
static cdyn_status make_whole(cdyn_system *sys)
{
    cdyn__box *b = sys->box;
    const int dim = sys->dim;
    const size_t d = (size_t)dim;
    double *n = b->shift;
    bool moved = false;
    uint32_t root = NONE;
    for (uint32_t w = 0; w < b->n_walk; w++) {
        uint32_t s = b->walk[w], p = b->parent[s];
        memset(n + s * d, 0, d * sizeof *n);
        if (p == s)
            root = s;
        if (p == s || b->pinned[root])
            continue;
        double sep[3];
        for (size_t k = 0; k < d; k++)
            sep[k] = sys->x[s * d + k] - (sys->x[p * d + k] - n[p * d + k] * b->len[k]);
        moved |= image_shift(b, dim, sep, n + s * d); /* against the parent as moved */
    }
    for (uint32_t w = 0; w < b->n_walk; w++) {
        uint32_t s = b->walk[w];
        if (b->parent[s] == s)
            root = s;
        if (b->pinned[root])
            continue;
        for (uint32_t e = b->adj_start[s]; e < b->adj_start[s + 1]; e++) {
            uint32_t t = b->adj[e];
            double sep[3], m[3];
            for (size_t k = 0; k < d; k++)
                sep[k] = (sys->x[t * d + k] - n[t * d + k] * b->len[k]) -
                         (sys->x[s * d + k] - n[s * d + k] * b->len[k]);
            if (image_shift(b, dim, sep, m))
                return cdyn__fail(sys, CDYN_ERR_UNSUPPORTED,
                                  "periodic box: the particles of index %u and %u are bonded "
                                  "through a loop that winds around the box (a network bonded "
                                  "to its own images): use springs for such bonds",
                                  s, t);
        }
    }
    if (moved)
        cdyn__constraints_materialize_jac(sys);
    save_before_move(sys); /* members take their roots' image counters */
    for (uint32_t w = 0; w < b->n_walk; w++) {
        uint32_t s = b->walk[w];
        if (b->parent[s] == s)
            root = s;
        if (s == root || b->pinned[root])
            continue;
        shift_slot(sys, s, n + s * d);
        if (s < b->image_cap && root < b->image_cap)
            memcpy(b->image + s * d, b->image + (size_t)root * d, d * sizeof *b->image);
    }
    if (moved)
        b->epoch++;
    return CDYN_OK;
}

/* The check of wrap_if_due in ranges of roots on the host's threads when
 * the roots are many: each range sets its own flag (an "or" of flags is
 * the same in any order). */
#define DUE_RANGES 64u
#define PARALLEL_ROOTS 65536.0

typedef struct due_job {
    const cdyn_system *sys;
    uint32_t ranges;
    bool due[DUE_RANGES];
} due_job;

static void due_task(uint32_t begin, uint32_t end, void *context)
{
    due_job *j = context;
    const cdyn__box *b = j->sys->box;
    const int dim = j->sys->dim;
    const size_t d = (size_t)dim;
    for (uint32_t k = begin; k < end; k++) {
        const size_t i0 = cdyn__tasks_range_start(k, b->n_roots, j->ranges);
        const size_t i1 = cdyn__tasks_range_start(k + 1, b->n_roots, j->ranges);
        bool due = false;
        for (size_t i = i0; i < i1 && !due; i++) {
            const uint32_t r = b->roots[i];
            if (b->pinned[r])
                continue;
            for (int q = 0; q < dim; q++) {
                const double x = j->sys->x[r * d + (size_t)q];
                if (b->periodic[q] &&
                    (x < b->lo[q] - b->half[q] || x >= b->lo[q] + b->len[q] + b->half[q]))
                    due = true;
            }
        }
        j->due[k] = due;
    }
}

/* Moves the free clusters whose root left the box back into it, when some
 * root is more than half a box length out. */
static void wrap_if_due(cdyn_system *sys)
{
    cdyn__box *b = sys->box;
    const int dim = sys->dim;
    const size_t d = (size_t)dim;
    due_job job = {.sys = sys};
    job.ranges = b->n_roots / 4096u + 1u < DUE_RANGES ? b->n_roots / 4096u + 1u : DUE_RANGES;
    cdyn__tasks_run(&sys->tasks, job.ranges, 1, (double)b->n_roots, PARALLEL_ROOTS, due_task,
                    &job);
    bool due = false;
    for (uint32_t k = 0; k < job.ranges; k++)
        due |= job.due[k];
    if (!due)
        return;
    save_before_move(sys);
    cdyn__constraints_materialize_jac(sys);
    double n[3] = {0, 0, 0};
    uint32_t root = NONE;
    for (uint32_t w = 0; w < b->n_walk; w++) {
        uint32_t s = b->walk[w];
        if (b->parent[s] == s) {
            root = s;
            for (int k = 0; k < dim; k++) {
                double x = sys->x[s * d + (size_t)k];
                n[k] = b->periodic[k] && isfinite(x) ? cdyn__box_cells(b, k, x) : 0.0;
            }
        }
        if (b->pinned[root] || (n[0] == 0 && n[1] == 0 && n[2] == 0))
            continue;
        shift_slot(sys, s, n);
        if (s < b->image_cap)
            for (size_t k = 0; k < d; k++)
                cdyn__box_count_images(&b->image[s * d + k], n[k]);
    }
    b->epoch++;
}

cdyn_status cdyn__box_reserve(cdyn_system *sys)
{
    cdyn__box *b = sys->box;
    if (!b || !b->any_periodic || (b->whole_valid && b->made_whole == sys->revision) ||
        (b->links_valid && b->linked == sys->revision))
        return CDYN_OK;
    b->links_valid = false;
    cdyn_status st = build_links(sys);
    if (st)
        return cdyn__fail(sys, st, "periodic box: out of memory for the clusters of %u "
                                   "particles", sys->particles.count);
    b->linked = sys->revision;
    b->links_valid = true;
    return CDYN_OK;
}

cdyn_status cdyn__box_prepare(cdyn_system *sys)
{
    cdyn__box *b = sys->box;
    if (!b || !b->any_periodic)
        return CDYN_OK;
    b->saved = false;
    if (!b->whole_valid || b->made_whole != sys->revision) {
        cdyn_status st = cdyn__box_reserve(sys);
        if (st)
            return st;
        walk_clusters(sys);
        if ((st = make_whole(sys)))
            return st;
        b->made_whole = sys->revision;
        b->whole_valid = true;
        b->checks = 0;
    }
    /* Clusters may stray half a box length before they must be moved:
     * looking every few steps is enough, and costs a pass over the
     * positions less. */
    if (b->checks++ % 8 == 0)
        wrap_if_due(sys);
    return CDYN_OK;
}

cdyn_status cdyn__box_restore_clusters(cdyn_system *sys, bool whole)
{
    cdyn__box *b = sys->box;
    cdyn_status st = build_links(sys);
    if (st)
        return st;
    b->linked = sys->revision;
    b->links_valid = true;
    if (whole) {
        walk_clusters(sys);
        b->made_whole = sys->revision;
        b->whole_valid = true;
    }
    return CDYN_OK;
}
