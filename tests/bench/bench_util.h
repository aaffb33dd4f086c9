/* Timing and memory figures for the benchmark programs. */
#ifndef CDYN_BENCH_UTIL_H
#define CDYN_BENCH_UTIL_H

#include <stddef.h>

/* Monotonic wall-clock time in seconds. */
double bench_now(void);

/* CPU time of the calling thread in seconds (0 if unknown). */
double bench_thread_cpu(void);

/* Peak resident set size of this process so far, in bytes (0 if unknown). */
size_t bench_peak_rss(void);

/* Current resident set size in bytes (0 if unknown). */
size_t bench_current_rss(void);

/* Median of n values (sorts the array in place). */
double bench_median(double *v, size_t n);

/* Prints a comment line "# <when>: CPU <model>, <n> CPUs online, load
 * average <1 min> <5 min> <15 min>" (Linux /proc; "unknown" elsewhere). */
void bench_print_machine(const char *when);

#endif
