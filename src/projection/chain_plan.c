/* The plan of the chain kernel (chain.h): the rods ordered along their
 * paths, the paths cut into segments, the segments paired into lanes and
 * the pairs into blocks. Everything here depends on the topology alone
 * (never on the host's workers), so the arithmetic of a step, and its bits,
 * are fixed by it. Made when the topology changes (may allocate the
 * segment arrays); the sweeps allocate nothing. */
#include <string.h>

#include "core/alloc.h"
#include "core/system.h"
#include "core/vec.h"
#include "constraint/constraint.h"
#include "kinematic/kinematic.h"
#include "projection/chain.h"
#include "projection/projection.h"

cdyn_status cdyn__chain_reserve_segs(cdyn_system *sys, cdyn__chain *c, uint32_t n_segs)
{
    if (n_segs <= c->cap_segs)
        return CDYN_OK;
    size_t cap = n_segs;
    cdyn__chain_seg *seg = cdyn__calloc_array(&sys->alloc, cap, sizeof *seg);
    cdyn__chain_block *block = cdyn__calloc_array(&sys->alloc, cap, sizeof *block);
    if (!seg || !block) {
        cdyn__free_array(&sys->alloc, seg, cap, sizeof *seg);
        cdyn__free_array(&sys->alloc, block, cap, sizeof *block);
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY,
                          "projection: out of memory for %u chain segments", n_segs);
    }
    cdyn__chain_free_segs(sys, c);
    c->seg = seg;
    c->block = block;
    c->cap_segs = cap;
    return CDYN_OK;
}

/* Makes room for @p n doubles of records (NO_MEMORY: nothing changed). */
static cdyn_status reserve_records(cdyn_system *sys, cdyn__chain *c, size_t n)
{
    if (n <= c->cap_pk)
        return CDYN_OK;
    double *pk = cdyn__calloc_array(&sys->alloc, n, sizeof *pk);
    if (!pk)
        return cdyn__fail(sys, CDYN_ERR_NO_MEMORY,
                          "projection: out of memory for the records of %zu chain rows",
                          n / (3 * (size_t)sys->dim + 4));
    cdyn__free_array(&sys->alloc, c->pk, c->cap_pk, sizeof *c->pk);
    c->pk = pk;
    c->cap_pk = n;
    return CDYN_OK;
}

void cdyn__chain_free_segs(cdyn_system *sys, cdyn__chain *c)
{
    cdyn__free_array(&sys->alloc, c->pk, c->cap_pk, sizeof *c->pk);
    c->pk = NULL;
    c->cap_pk = 0;
    cdyn__free_array(&sys->alloc, c->seg, c->cap_segs, sizeof *c->seg);
    cdyn__free_array(&sys->alloc, c->block, c->cap_segs, sizeof *c->block);
    c->seg = NULL;
    c->block = NULL;
    c->cap_segs = 0;
}

/* Segments of a path of @p n rows: about CDYN__CHAIN_SEGMENT rows each, one
 * for a short path, and one when @p split is false: on one thread the
 * segments' extra sweeps cost time and win none (the chain kernel of one
 * segment is the faster serial method). */
static uint32_t segments_of(uint32_t n, bool split)
{
    if (!split)
        return 1;
    uint32_t k = (n + CDYN__CHAIN_SEGMENT / 2) / CDYN__CHAIN_SEGMENT;
    return k > 0 ? k : 1;
}

/* Marks twistable segment @p g sequential when its particles and rows are
 * numbered in steps of one along it (chain.h). */
static void sequential(cdyn__chain *c, cdyn__chain_seg *g)
{
    const uint32_t a = g->start;
    const int64_t p0 = c->row_from[a], q0 = c->row_of[a] & ~CDYN__CHAIN_FLIP;
    const int64_t ps = (int64_t)c->row_to[a] - p0;
    const int64_t qs = (int64_t)(c->row_of[a + 1] & ~CDYN__CHAIN_FLIP) - q0;
    g->sequential = false;
    if ((ps != 1 && ps != -1) || (qs != 1 && qs != -1))
        return;
    for (uint32_t r = a; r < g->end; r++) {
        const int64_t k = (int64_t)(r - a);
        if (c->row_from[r] != (uint64_t)(p0 + ps * k) ||
            c->row_to[r] != (uint64_t)(p0 + ps * (k + 1)) ||
            (c->row_of[r] & ~CDYN__CHAIN_FLIP) != (uint64_t)(q0 + qs * k))
            return;
    }
    g->sequential = true;
    g->num.p_step = ps;
    g->num.p_base = p0 - ps * (int64_t)a;
    g->num.q_step = qs;
    g->num.q_base = q0 - qs * (int64_t)a;
}

/* Cuts the paths into segments (the first rem of a path's segments one
 * row longer) and marks who writes the particles at the ends. */
static cdyn_status partition(cdyn_system *sys, cdyn__chain *c, const uint8_t *hub)
{
    /* Cut for a task system of any worker count, so that the bits do not
     * depend on the workers; not without one. */
    const bool split = c->planned_split;
    uint32_t n_segs = 0;
    for (uint32_t q = 0; q < c->n_paths; q++)
        n_segs += segments_of(c->path_start[q + 1] - c->path_start[q], split);
    cdyn_status st = cdyn__chain_reserve_segs(sys, c, n_segs);
    if (st)
        return st;
    uint32_t k = 0;
    size_t records = 0; /* doubles, 3 D + 4 a row */
    for (uint32_t q = 0; q < c->n_paths; q++) {
        const uint32_t r0 = c->path_start[q], n = c->path_start[q + 1] - r0;
        const uint32_t m = segments_of(n, split), base = n / m, rem = n % m;
        uint32_t r = r0;
        for (uint32_t i = 0; i < m; i++, k++) {
            cdyn__chain_seg *g = &c->seg[k];
            memset(g, 0, sizeof *g);
            g->start = r;
            r += base + (i < rem);
            g->end = r;
            g->path_first = i == 0;
            g->path_last = i + 1 == m;
            g->own_first = g->path_first && !hub[c->row_from[g->start]];
            g->own_last = !g->path_last || !hub[c->row_to[g->end - 1]];
#if defined(CDYN__HAVE_V2D)
            g->twistable = m == 1 && n >= CDYN__CHAIN_TWIST_MIN && n <= CDYN__CHAIN_TWIST_MAX;
            if (g->twistable) { /* its rods' squared lengths in lane pairs (chain.h) */
                for (uint32_t j = 0; j < n / 2; j++) {
                    const double la = c->row_length[r0 + j], lb = c->row_length[r0 + n - 1 - j];
                    c->af[r0 + 2 * j] = la * la;
                    c->af[r0 + 2 * j + 1] = lb * lb;
                }
                g->pk_base = records;
                records += (size_t)n * (3 * (size_t)sys->dim + 4);
                sequential(c, g);
            }
#endif
        }
    }
    if ((st = reserve_records(sys, c, records)))
        return st;
    c->n_segs = n_segs;
    c->n_blocks = (n_segs + CDYN__CHAIN_BLOCK_SEGS - 1) / CDYN__CHAIN_BLOCK_SEGS;
    return CDYN_OK;
}

/* Orders the rods along their paths; leaves chain unset when a moving
 * particle is in three rows or more, or rows form a loop. Scratch: xs
 * (at least 2 * count doubles) holds per particle its row count and first
 * two rows, then the fixed hubs' marks; the Newton c array marks the rows
 * placed. */
cdyn_status cdyn__projection_chain_plan(cdyn_system *sys)
{
    cdyn__projection *pr = sys->proj;
    cdyn__chain *ch = &pr->chain;
    const cdyn__constraints *k = sys->cons;
    const uint32_t np = sys->particles.count, n = k->n_rows;
    const double *w = sys->inv_mass;
    const uint32_t *e = pr->ends;
    ch->usable = false;
    ch->planned_particles = np;
    ch->planned_split = sys->tasks.host.enqueue != NULL;
    if (!pr->rods || n == 0)
        return CDYN_OK;
    uint32_t *deg = (uint32_t *)(void *)pr->xs, *r1 = deg + np, *r2 = r1 + np;
    memset(deg, 0, np * sizeof *deg);
    uint32_t n_hubs = 0;
    for (uint32_t r = 0; r < n; r++)
        for (int j = 0; j < 2; j++) {
            uint32_t s = e[2 * (size_t)r + (size_t)j];
            if (deg[s] == 0)
                r1[s] = r;
            else if (deg[s] == 1)
                r2[s] = r;
            if (++deg[s] > 2 && w[s] != 0)
                return CDYN_OK;
        }
    /* Particles in no row get their closing kick apart; fixed ones in
     * several rows must stay fixed for the plan to hold. */
    uint32_t n_free = 0;
    for (uint32_t s = 0; s < np; s++) {
        if (deg[s] == 0)
            ch->free_particles[n_free++] = s;
        else if (deg[s] > 1 && w[s] == 0)
            ch->fixed_hubs[n_hubs++] = s;
    }
    /* Row r continues through its particle s when s moves and is in two
     * rows; a path starts at a row with at most one such particle. */
    double *placed = ch->nc;
    memset(placed, 0, n * sizeof *placed);
    uint32_t m = 0, n_paths = 0;
    for (uint32_t r0 = 0; r0 < n; r0++) {
        uint32_t a = e[2 * (size_t)r0], b = e[2 * (size_t)r0 + 1];
        bool la = w[a] != 0 && deg[a] == 2, lb = w[b] != 0 && deg[b] == 2;
        if (placed[r0] != 0 || (la && lb))
            continue;
        /* Start at the end that does not continue. */
        uint32_t r = r0, from = la ? b : a, to = la ? a : b;
        if (!la && !lb) {
            from = a;
            to = b;
        }
        ch->path_start[n_paths++] = m;
        for (;;) {
            placed[r] = 1;
            ch->row_from[m] = from;
            ch->row_to[m] = to;
            ch->row_of[m] = r | (from == e[2 * (size_t)r] ? 0 : CDYN__CHAIN_FLIP);
            ch->row_length[m] = pr->len[r];
            m++;
            if (w[to] == 0 || deg[to] != 2)
                break;
            uint32_t next = r1[to] == r ? r2[to] : r1[to];
            if (placed[next] != 0)
                break;
            from = to;
            to = e[2 * (size_t)next] == from ? e[2 * (size_t)next + 1] : e[2 * (size_t)next];
            r = next;
        }
    }
    if (m != n)
        return CDYN_OK; /* loops left */
    ch->path_start[n_paths] = n;
    ch->n_paths = n_paths;
    ch->n_free = n_free;
    ch->n_hubs = n_hubs;
    ch->n_rows = n;
    /* The hubs' marks (over the row counts, no longer needed). */
    uint8_t *hub = (uint8_t *)(void *)pr->xs;
    memset(hub, 0, np);
    for (uint32_t i = 0; i < n_hubs; i++)
        hub[ch->fixed_hubs[i]] = 1;
    cdyn_status st = partition(sys, ch, hub);
    if (st)
        return st;
    ch->usable = true;
    return CDYN_OK;
}

cdyn_status cdyn__projection_chain_usable(cdyn_system *sys, bool *usable)
{
    cdyn__projection *pr = sys->proj;
    *usable = false;
    /* Kinematic particles move on their own: the kernel, which drifts every
     * particle itself, takes systems without them. */
    if (pr->opt.method != CDYN_PROJECTION_NEWTON || !pr->rods || (sys->kin && sys->kin->count))
        return CDYN_OK;
    /* A task system handed over or taken back cuts the paths or joins them. */
    bool replan = pr->chain.planned_particles != sys->particles.count ||
                  pr->chain.planned_split != (sys->tasks.host.enqueue != NULL);
    for (uint32_t i = 0; i < pr->chain.n_hubs && !replan; i++)
        replan = sys->inv_mass[pr->chain.fixed_hubs[i]] != 0;
    if (replan) {
        cdyn_status st = cdyn__projection_chain_plan(sys);
        if (st) {
            /* Not planned for any particle count: the next step plans
             * again (it would otherwise find the plan current and unusable,
             * and take the general path until the shape changed). */
            pr->chain.planned_particles = 0;
            return st;
        }
    }
    *usable = pr->chain.usable;
    return CDYN_OK;
}
