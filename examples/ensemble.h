/* ensemble: independent runs of one program spread over the ranks of an MPI
 * job, with results that do not depend on the number of ranks. Used by
 * ensemble_river and ensemble_polymer; not part of the library, which never
 * calls MPI.
 *
 * A run is known by its index r = 0 .. R-1. Its random seed comes from the
 * master seed and r alone (ensemble_seed), so a run gives the same bits on
 * whichever rank computes it. A run ends in a record: a fixed number of
 * 64-bit words, word 0 its index (doubles are stored as their bits).
 * Rank 0 collects the records in run order (ensemble_gather) and computes
 * every sum from them in that order, so no result depends on how the runs
 * were shared out or in what order the messages arrived.
 *
 *     ensemble e;
 *     ensemble_start(&e, "name", &argc, &argv);
 *     for (size_t k = e.rank; k < n_todo; k += e.ranks)
 *         ... run todo[k] with ensemble_seed(master, todo[k]) into mine ...
 *     ensemble_gather(&e, mine, n_mine, words, all, got, runs);
 *     if (e.rank == 0) ... reduce all[] in run order ...
 *     return ensemble_end(&e, 0);
 */
#ifndef CDYN_EXAMPLE_ENSEMBLE_H
#define CDYN_EXAMPLE_ENSEMBLE_H

#include <stddef.h>
#include <stdint.h>

typedef struct ensemble {
    int rank, ranks;
    const char *name; /* the program's name, for messages */
    double start;     /* wall clock at ensemble_start, seconds */
    double busy;      /* wall-clock seconds this rank spent in its runs (the caller adds) */
    double cpu;       /* processor seconds of the same (the caller adds) */
    size_t computed;  /* runs this rank computed (the caller counts) */
} ensemble;

/* MPI_Init and the rank; @p name prefixes messages. */
void ensemble_start(ensemble *e, const char *name, int *argc, char ***argv);

/* MPI_Finalize; returns @p code, for main to return. */
int ensemble_end(ensemble *e, int code);

/* Ends the whole job (every rank) after printing the message with the
 * rank's number: for errors that leave nothing to finish. */
_Noreturn void ensemble_abort(const ensemble *e, const char *fmt, ...);

/* The seed of run @p run: a mix of the master seed and the run index,
 * whatever the number of ranks. */
uint64_t ensemble_seed(uint64_t master, uint64_t run);

/* Seconds of wall clock since some fixed time. */
double ensemble_clock(void);

/* Processor seconds this process has used. */
double ensemble_cpu_clock(void);

/* Copies @p count bytes of rank 0's @p data to every rank. */
void ensemble_broadcast(void *data, size_t count);

/* Whether every rank passes a true @p ok (an agreement: all ranks call it). */
int ensemble_all(int ok);

/* Collects records: each rank gives its @p n_mine records of @p words
 * words (word 0: the run index, below @p runs); rank 0 receives them into
 * @p all (runs x words), each at its run's place, and marks that run in
 * @p got (runs bytes, may be NULL). Other ranks may pass NULL for both. */
void ensemble_gather(const ensemble *e, const uint64_t *mine, size_t n_mine, size_t words,
                     uint64_t *all, unsigned char *got, size_t runs);

/* Prints, on rank 0, the wall time, each rank's runs and busy time, and
 * the processor time per run (what capacity plans need: on a shared
 * machine the wall time also counts other jobs' turns). */
void ensemble_report_time(const ensemble *e);

/* A double's bits as a record word, and back. */
uint64_t ensemble_word(double v);
double ensemble_double(uint64_t w);

#endif
