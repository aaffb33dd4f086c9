/* The neighbour-list kernel of Lennard-Jones pair sets (WCA and LJ without
 * damping): the hot loop of a liquid. With r2 = |d|^2 and s6 = (sigma^2 /
 * r2)^3 the force on q is d times F / r = 24 eps s6 (2 s6 - 1) / r2, so no
 * square root is taken.
 *
 * Members are visited in the list's sorted (cell) order; each member's own
 * sum is held in registers, its partners' shares added to an accumulator.
 * In a list built in cell order every unshifted partner q of p comes after
 * p, by at most the list's span, so once p is done nothing more is added to
 * it: its force is written out there and then (to f, or as an acceleration
 * W F to a) and its accumulator reused for the member span places on. The
 * accumulators form a ring of a few thousand members that stays in cache,
 * and the forces are written once. The pairs through periodic faces (few)
 * are evaluated beforehand, each once, and each member adds its own in
 * pair order when it is written out. */
#include <string.h>

#include "core/compiler.h"
#include "core/system.h"
#include "core/tasks.h"
#include "pair/pair.h"

typedef struct out {
    double *f;             /* forces added here, or */
    double *a;             /* accelerations a = W (0 + F) written here */
    const double *w;       /* inverse masses */
    const uint32_t *sslot; /* sorted position -> particle slot */
    const cdyn__nlist *nl; /* the pairs through faces (has_sh, sh_end, sh_force) */
} out;

/* Member p's force t (d values) written out, with its pairs through
 * faces: in pair order, +F as a pair's second member, -F as its first. */
static inline void emit(const out *o, size_t d, uint32_t p, double *t)
{
    const size_t s = o->sslot[p];
    const cdyn__nlist *nl = o->nl;
    if (nl->has_sh[p]) {
        double u[3] = {0, 0, 0};
        const uint32_t *end = nl->sh_end + nl->sh_at[p];
        for (uint32_t i = 0, count = nl->sh_count[p]; i < count; i++) {
            const double *g = nl->sh_force + (size_t)(end[i] >> 1) * d;
            for (size_t k = 0; k < d; k++)
                u[k] = (end[i] & 1) ? u[k] + g[k] : u[k] - g[k];
        }
        for (size_t k = 0; k < d; k++)
            t[k] += u[k];
    }
    if (o->a)
        for (size_t k = 0; k < d; k++)
            o->a[s * d + k] = o->w[s] * (0.0 + t[k]);
    else
        for (size_t k = 0; k < d; k++)
            o->f[s * d + k] += t[k];
}

/* The pairs through periodic faces [i0, i1): each one's force on its
 * second member into sh_force (0 beyond the cutoff). */
static void faces(const cdyn__nlist *nl, double rc2, double s2, double c24, size_t i0,
                  size_t i1)
{
    const size_t d = (size_t)nl->dim;
    const double *pos = nl->pos;
    double shift[27][3];
    for (int code = 0; code < 27; code++)
        cdyn__shift_of(code, nl->len, shift[code]);
    for (size_t i = i0; i < i1; i++) {
        const uint32_t p = nl->sh[2 * i], q = nl->sh[2 * i + 1];
        const double *sh = shift[nl->sh_code[i]];
        double dx[3] = {0, 0, 0}, r2 = 0;
        for (size_t k = 0; k < d; k++) {
            dx[k] = pos[q * d + k] - pos[p * d + k] + sh[k];
            r2 += dx[k] * dx[k];
        }
        double ff = 0;
        if (r2 < rc2 && r2 > 0) {
            const double ir2 = 1.0 / r2, sr2 = s2 * ir2, sr6 = sr2 * sr2 * sr2;
            ff = c24 * sr6 * (2.0 * sr6 - 1.0) * ir2;
        }
        for (size_t k = 0; k < d; k++)
            nl->sh_force[i * d + k] = ff * dx[k];
    }
}

/* List entries from which the pairs go to the host's threads (about
 * three nanoseconds an entry); the same for pairs through faces (each
 * reads two members far apart: about four times an entry's time), and
 * those per item of their parallel loop. */
#define PARALLEL_ENTRIES 20000.0
#define PARALLEL_FACES 5000.0
#define FACE_CHUNK 1024u

typedef struct face_job {
    const cdyn__nlist *nl;
    double rc2, s2, c24;
} face_job;

static void face_task(uint32_t begin, uint32_t end, void *context)
{
    const face_job *j = context;
    const size_t n = j->nl->n_sh;
    const size_t i1 = (size_t)end * FACE_CHUNK;
    faces(j->nl, j->rc2, j->s2, j->c24, (size_t)begin * FACE_CHUNK, i1 < n ? i1 : n);
}

/* The unshifted pairs, 3-D. With @p inline_out (ascending lists) each
 * member is written out when done and acc is a ring indexed by q & mask;
 * otherwise acc is a full array (mask all ones) written out afterwards. */
static void kernel3(const cdyn__nlist *nl, double rc2, double s2, double c24, double *acc,
                    uint32_t mask, const out *o, bool inline_out)
{
    const double *pos = nl->pos;
    const uint32_t *start = nl->start, *nbr = nl->nbr;
    for (uint32_t p = 0; p < nl->n; p++) {
        const double xp = pos[3 * p], yp = pos[3 * p + 1], zp = pos[3 * p + 2];
        double fx = 0, fy = 0, fz = 0;
        for (uint32_t e = start[p], end = start[p + 1]; e < end; e++) {
            const uint32_t q = nbr[e];
            const double dx = pos[3 * q] - xp, dy = pos[3 * q + 1] - yp,
                         dz = pos[3 * q + 2] - zp;
            const double r2 = dx * dx + dy * dy + dz * dz;
            if (r2 < rc2 && r2 > 0) {
                const double ir2 = 1.0 / r2, sr2 = s2 * ir2, sr6 = sr2 * sr2 * sr2;
                const double ff = c24 * sr6 * (2.0 * sr6 - 1.0) * ir2;
                const double gx = ff * dx, gy = ff * dy, gz = ff * dz;
                double *aq = acc + 3 * (size_t)(q & mask);
                aq[0] += gx;
                aq[1] += gy;
                aq[2] += gz;
                fx -= gx;
                fy -= gy;
                fz -= gz;
            }
        }
        double *ap = acc + 3 * (size_t)(p & mask);
        if (inline_out) {
            double t[3] = {ap[0] + fx, ap[1] + fy, ap[2] + fz};
            emit(o, 3, p, t);
            ap[0] = ap[1] = ap[2] = 0;
        } else {
            ap[0] += fx;
            ap[1] += fy;
            ap[2] += fz;
        }
    }
}

static void kernel2(const cdyn__nlist *nl, double rc2, double s2, double c24, double *acc,
                    uint32_t mask, const out *o, bool inline_out)
{
    const double *pos = nl->pos;
    const uint32_t *start = nl->start, *nbr = nl->nbr;
    for (uint32_t p = 0; p < nl->n; p++) {
        const double xp = pos[2 * p], yp = pos[2 * p + 1];
        double fx = 0, fy = 0;
        for (uint32_t e = start[p], end = start[p + 1]; e < end; e++) {
            const uint32_t q = nbr[e];
            const double dx = pos[2 * q] - xp, dy = pos[2 * q + 1] - yp;
            const double r2 = dx * dx + dy * dy;
            if (r2 < rc2 && r2 > 0) {
                const double ir2 = 1.0 / r2, sr2 = s2 * ir2, sr6 = sr2 * sr2 * sr2;
                const double ff = c24 * sr6 * (2.0 * sr6 - 1.0) * ir2;
                const double gx = ff * dx, gy = ff * dy;
                double *aq = acc + 2 * (size_t)(q & mask);
                aq[0] += gx;
                aq[1] += gy;
                fx -= gx;
                fy -= gy;
            }
        }
        double *ap = acc + 2 * (size_t)(p & mask);
        if (inline_out) {
            double t[2] = {ap[0] + fx, ap[1] + fy};
            emit(o, 2, p, t);
            ap[0] = ap[1] = 0;
        } else {
            ap[0] += fx;
            ap[1] += fy;
        }
    }
}

/* ------------------------------------------------------------------------
 * Blocks of members on the host's threads
 *
 * Members [b0, b1) form a block with a ring of its own. A member q of the
 * block receives, in the serial kernel, the shares of the members p < q
 * that meet it, in ascending p, then its own sum. The block first replays
 * the shares that come from members before b0 (no farther back than the
 * list's span, the farthest reach of an entry), in the same order and
 * with the same arithmetic, then runs the serial loop over its members: so
 * each member's force is the serial kernel's to the bit, whatever the
 * number of workers. Only the members of its own block are written out.
 * ------------------------------------------------------------------------ */

/* Members per block at least. */
#define BLOCK_MEMBERS 8192u

typedef struct block_job {
    const cdyn__nlist *nl;
    double rc2, s2, c24;
    const out *o;
    uint32_t block, ring;
} block_job;

/* Blocks [begin, end) in @p d dimensions (a constant, so that the loops
 * over coordinates unroll as in kernel2 and kernel3). */
static CDYN__ALWAYS_INLINE void blocks_in(const block_job *j, uint32_t begin, uint32_t end,
                                          const size_t d)
{
    const cdyn__nlist *nl = j->nl;
    const double *pos = nl->pos;
    const uint32_t *start = nl->start, *nbr = nl->nbr;
    const uint32_t mask = j->ring - 1;
    const double rc2 = j->rc2, s2 = j->s2, c24 = j->c24;
    for (uint32_t b = begin; b < end; b++) {
        const uint32_t b0 = b * j->block;
        const uint32_t b1 = nl->n - b0 > j->block ? b0 + j->block : nl->n;
        const uint32_t h0 = b0 > nl->span ? b0 - nl->span : 0;
        double *acc = nl->fs + (size_t)b * j->ring * d;
        memset(acc, 0, (size_t)j->ring * d * sizeof *acc);
        /* The shares of the members before the block. With ascending rows
         * those that reach the block are each row's last entries. */
        for (uint32_t p = h0; p < b0; p++) {
            uint32_t e = start[p];
            const uint32_t e1 = start[p + 1];
            if (nl->sorted) {
                uint32_t f = e1;
                while (f > e && nbr[f - 1] >= b0)
                    f--;
                e = f;
            }
            for (; e < e1; e++) {
                const uint32_t q = nbr[e];
                if (q < b0 || q >= b1)
                    continue;
                double dx[3], r2;
                if (d == 3) {
                    dx[0] = pos[3 * q] - pos[3 * p];
                    dx[1] = pos[3 * q + 1] - pos[3 * p + 1];
                    dx[2] = pos[3 * q + 2] - pos[3 * p + 2];
                    r2 = dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2];
                } else {
                    dx[0] = pos[2 * q] - pos[2 * p];
                    dx[1] = pos[2 * q + 1] - pos[2 * p + 1];
                    r2 = dx[0] * dx[0] + dx[1] * dx[1];
                }
                if (r2 < rc2 && r2 > 0) {
                    const double ir2 = 1.0 / r2, sr2 = s2 * ir2, sr6 = sr2 * sr2 * sr2;
                    const double ff = c24 * sr6 * (2.0 * sr6 - 1.0) * ir2;
                    double *aq = acc + d * (size_t)(q & mask);
                    for (size_t k = 0; k < d; k++)
                        aq[k] += ff * dx[k];
                }
            }
        }
        /* The block's members, as the serial kernel. */
        for (uint32_t p = b0; p < b1; p++) {
            const double *xp = pos + d * p;
            double fp[3] = {0, 0, 0};
            for (uint32_t e = start[p], e1 = start[p + 1]; e < e1; e++) {
                const uint32_t q = nbr[e];
                double dx[3], r2;
                if (d == 3) {
                    dx[0] = pos[3 * q] - xp[0];
                    dx[1] = pos[3 * q + 1] - xp[1];
                    dx[2] = pos[3 * q + 2] - xp[2];
                    r2 = dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2];
                } else {
                    dx[0] = pos[2 * q] - xp[0];
                    dx[1] = pos[2 * q + 1] - xp[1];
                    r2 = dx[0] * dx[0] + dx[1] * dx[1];
                }
                if (r2 < rc2 && r2 > 0) {
                    const double ir2 = 1.0 / r2, sr2 = s2 * ir2, sr6 = sr2 * sr2 * sr2;
                    const double ff = c24 * sr6 * (2.0 * sr6 - 1.0) * ir2;
                    double *aq = acc + d * (size_t)(q & mask);
                    for (size_t k = 0; k < d; k++) {
                        const double g = ff * dx[k];
                        aq[k] += g;
                        fp[k] -= g;
                    }
                }
            }
            double *ap = acc + d * (size_t)(p & mask);
            double t[3];
            for (size_t k = 0; k < d; k++) {
                t[k] = ap[k] + fp[k];
                ap[k] = 0;
            }
            emit(j->o, d, p, t);
        }
    }
}

static void block_task(uint32_t begin, uint32_t end, void *context)
{
    const block_job *j = context;
    if (j->nl->dim == 3)
        blocks_in(j, begin, end, 3);
    else
        blocks_in(j, begin, end, 2);
}

/* Runs the unshifted pairs in blocks on the host's threads when the list
 * is ascending with a ring, long enough, and the rings of the blocks fit in
 * the accumulators' room; returns false (nothing done) otherwise. */
static bool run_blocks(const cdyn_system *sys, const cdyn__nlist *nl, double rc2, double s2,
                       double c24, const out *o)
{
    if (!sys->tasks.parallel || !nl->ascending || nl->ring_mask == UINT32_MAX)
        return false;
    /* Blocks of equal size, about the least size each (a list shorter than
     * one and a half is one block). */
    const uint32_t ring = nl->ring_mask + 1;
    const uint32_t least = ring > BLOCK_MEMBERS / 4 ? 4 * ring : BLOCK_MEMBERS;
    const uint32_t blocks = (nl->n + least / 2) / least > 0 ? (nl->n + least / 2) / least : 1;
    const uint32_t block = (uint32_t)(((size_t)nl->n + blocks - 1) / blocks);
    const double entries = (double)nl->start[nl->n];
    if ((size_t)blocks * ring > nl->cap ||
        !cdyn__tasks_would_split(&sys->tasks, blocks, entries, PARALLEL_ENTRIES))
        return false;
    block_job job = {nl, rc2, s2, c24, o, block, ring};
    cdyn__tasks_run(&sys->tasks, blocks, 1, entries, PARALLEL_ENTRIES, block_task, &job);
    return true;
}

/* The forces of the list, written out through @p o. */
static void run(const cdyn_system *sys, cdyn__pair *p, const out *o)
{
    cdyn__nlist *nl = &p->list;
    const size_t d = (size_t)sys->dim, n = nl->n;
    const double rc2 = p->rc * p->rc, s2 = p->sigma * p->sigma, c24 = 24.0 * p->epsilon;
    if (nl->n_sh) {
        face_job job = {nl, rc2, s2, c24};
        const size_t chunks = (nl->n_sh + FACE_CHUNK - 1) / FACE_CHUNK;
        cdyn__tasks_run(&sys->tasks, (uint32_t)chunks, 1, (double)nl->n_sh, PARALLEL_FACES,
                        face_task, &job);
    }
    if (run_blocks(sys, nl, rc2, s2, c24, o))
        return;
    const bool ring = nl->ascending;
    const uint32_t mask = ring ? nl->ring_mask : UINT32_MAX;
    const size_t len = ring && nl->ring_mask != UINT32_MAX ? (size_t)nl->ring_mask + 1 : n;
    memset(nl->fs, 0, (len < n ? len : n) * d * sizeof *nl->fs);
    if (d == 3)
        kernel3(nl, rc2, s2, c24, nl->fs, mask, o, ring);
    else
        kernel2(nl, rc2, s2, c24, nl->fs, mask, o, ring);
    if (!ring)
        for (uint32_t q = 0; q < n; q++)
            emit(o, d, q, nl->fs + (size_t)q * d);
}

void cdyn__pair_fast_lj_accel(const cdyn_system *sys, cdyn__pair *p, double *a)
{
    const out o = {.a = a, .w = sys->inv_mass, .sslot = p->list.sslot, .nl = &p->list};
    run(sys, p, &o);
}

void cdyn__pair_fast_lj(const cdyn_system *sys, cdyn__pair *p, double *f)
{
    const out o = {.f = f, .sslot = p->list.sslot, .nl = &p->list};
    run(sys, p, &o);
}
