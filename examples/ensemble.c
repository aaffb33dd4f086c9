/* Independent runs over the ranks of an MPI job (ensemble.h). */
#include "ensemble.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

void ensemble_start(ensemble *e, const char *name, int *argc, char ***argv)
{
    memset(e, 0, sizeof *e);
    e->name = name;
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &e->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &e->ranks);
    e->start = ensemble_clock();
}

int ensemble_end(ensemble *e, int code)
{
    (void)e;
    MPI_Finalize();
    return code;
}

_Noreturn void ensemble_abort(const ensemble *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: rank %d: ", e->name, e->rank);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1); /* not reached */
}

/* splitmix64's output function: a bijection of 64-bit words that mixes
 * every input bit into every output bit. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

uint64_t ensemble_seed(uint64_t master, uint64_t run)
{
    /* Mixing the master first keeps runs of nearby masters apart. */
    return mix64(mix64(master) + 0x9e3779b97f4a7c15u * (run + 1));
}

double ensemble_clock(void)
{
    return MPI_Wtime();
}

double ensemble_cpu_clock(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

void ensemble_broadcast(void *data, size_t count)
{
    unsigned char *p = data;
    while (count > 0) { /* MPI counts are ints */
        int part = count > INT_MAX ? INT_MAX : (int)count;
        MPI_Bcast(p, part, MPI_BYTE, 0, MPI_COMM_WORLD);
        p += part;
        count -= (size_t)part;
    }
}

int ensemble_all(int ok)
{
    int mine = ok ? 1 : 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

void ensemble_gather(const ensemble *e, const uint64_t *mine, size_t n_mine, size_t words,
                     uint64_t *all, unsigned char *got, size_t runs)
{
    /* How many words each rank sends, then the words themselves. */
    if ((double)n_mine * (double)words > INT_MAX)
        ensemble_abort(e, "%zu records of %zu words are too many for one message", n_mine,
                       words);
    int count = (int)(n_mine * words);
    int *counts = NULL, *offsets = NULL;
    uint64_t *in = NULL;
    if (e->rank == 0) {
        counts = malloc((size_t)e->ranks * sizeof *counts);
        offsets = malloc((size_t)e->ranks * sizeof *offsets);
        if (!counts || !offsets)
            ensemble_abort(e, "out of memory");
    }
    MPI_Gather(&count, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    size_t total = 0;
    if (e->rank == 0) {
        for (int k = 0; k < e->ranks; k++) {
            if (total + (size_t)counts[k] > INT_MAX)
                ensemble_abort(e, "the records are too many for one message");
            offsets[k] = (int)total;
            total += (size_t)counts[k];
        }
        in = malloc((total ? total : 1) * sizeof *in);
        if (!in)
            ensemble_abort(e, "out of memory");
    }
    MPI_Gatherv(mine, count, MPI_UINT64_T, in, counts, offsets, MPI_UINT64_T, 0,
                MPI_COMM_WORLD);
    if (e->rank == 0) {
        /* Each record to its run's place: the order of arrival is gone. */
        for (size_t k = 0; k < total / words; k++) {
            const uint64_t *rec = in + k * words;
            if (rec[0] >= runs)
                ensemble_abort(e, "a record names run %llu of %zu", (unsigned long long)rec[0],
                               runs);
            memcpy(all + rec[0] * words, rec, words * sizeof *rec);
            if (got)
                got[rec[0]] = 1;
        }
    }
    free(in);
    free(offsets);
    free(counts);
}

void ensemble_report_time(const ensemble *e)
{
    double wall = ensemble_clock() - e->start;
    double mine[3] = {e->busy, e->cpu, (double)e->computed}, *all = NULL;
    if (e->rank == 0 && !(all = malloc(3 * (size_t)e->ranks * sizeof *all)))
        ensemble_abort(e, "out of memory");
    MPI_Gather(mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (e->rank == 0) {
        double busy = 0, cpu = 0, runs = 0, longest = 0;
        printf("time: %.2f s of wall clock on %d rank%s; runs computed (busy seconds):", wall,
               e->ranks, e->ranks > 1 ? "s" : "");
        for (int k = 0; k < e->ranks; k++) {
            const double *a = all + 3 * k;
            printf(" rank %d: %.0f (%.2f s)", k, a[2], a[0]);
            busy += a[0];
            cpu += a[1];
            runs += a[2];
            longest = a[0] > longest ? a[0] : longest;
        }
        printf("\n");
        if (runs > 0)
            printf("  per run: %.3f s busy, %.3f s of processor time (%.0f runs per hour per "
                   "core); the busiest rank worked %.0f %% of the wall time\n",
                   busy / runs, cpu / runs, 3600.0 * runs / cpu, 100.0 * longest / wall);
    }
    free(all);
}

uint64_t ensemble_word(double v)
{
    uint64_t w;
    memcpy(&w, &v, sizeof w);
    return w;
}

double ensemble_double(uint64_t w)
{
    double v;
    memcpy(&v, &w, sizeof v);
    return v;
}
