/* Round tick values for chart axes and colour keys: 1, 2 or 5 x 10^k apart
 * on linear scales, decades (10^k) on log scales. Not part of the library. */
#ifndef CDYN_EXAMPLE_TICKS_H
#define CDYN_EXAMPLE_TICKS_H

enum { TICKS_MAX = 40 };

typedef struct ticks {
    double lo, hi;               /* the range, widened to round values if asked */
    int n;                       /* ticks in [lo, hi] */
    double v[TICKS_MAX];         /* their values */
    int minor[TICKS_MAX];        /* 1: a short unlabelled tick (log scales: 2..9 x 10^k) */
    char label[TICKS_MAX][32];   /* UTF-8; "^{...}" marks a superscript */
    char factor[32];             /* common factor of the labels ("x10^{-5}"), or "" */
} ticks;

/* Ticks on [lo, hi] about @p count apart or fewer (at most TICKS_MAX / 2).
 * With @p round_ends the range grows to the nearest ticks outside it. An
 * empty or reversed range is widened around lo. */
void ticks_linear(double lo, double hi, double count, int round_ends, ticks *t);

/* Ticks on [lo, hi] (0 < lo < hi) of a log scale: decades, every second or
 * fifth one labelled when they are many, 2 and 5 x 10^k as well when they
 * are few; with @p round_ends the range grows to whole decades. Spans under
 * a decade get round linear values. */
void ticks_log(double lo, double hi, double count, int round_ends, ticks *t);

#endif
