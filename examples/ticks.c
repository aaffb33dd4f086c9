/* Round tick values for chart axes and colour keys. */
#include "ticks.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MINUS "\xe2\x88\x92" /* U+2212, the typographic minus */
#define TIMES "\xc3\x97"     /* U+00D7 */

/* A step of 1, 2 or 5 x 10^k no smaller than @p raw. */
static double round_step(double raw)
{
    double p = pow(10.0, floor(log10(raw))), m = raw / p;
    return (m <= 1.0 + 1e-9 ? 1 : m <= 2.0 + 1e-9 ? 2 : m <= 5.0 + 1e-9 ? 5 : 10) * p;
}

/* @p v written with the decimals that @p step needs; "-0" becomes "0". */
static void format_fixed(double v, double step, char *out, size_t size)
{
    int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    char digits[24];
    snprintf(digits, sizeof digits, "%.*f", decimals, fabs(v));
    int zero = strspn(digits, "0.") == strlen(digits);
    snprintf(out, size, "%s%s", v < 0 && !zero ? MINUS : "", digits);
}

static void format_power(int k, char *out, size_t size)
{
    snprintf(out, size, "10^{%s%d}", k < 0 ? MINUS : "", k < 0 ? -k : k);
}

/* Appends a tick; returns its label to fill, or NULL when full. */
static char *add(ticks *t, double v, int minor)
{
    if (t->n >= TICKS_MAX)
        return NULL;
    t->v[t->n] = v;
    t->minor[t->n] = minor;
    return t->label[t->n++];
}

void ticks_linear(double lo, double hi, double count, int round_ends, ticks *t)
{
    memset(t, 0, sizeof *t);
    if (!(hi > lo)) {
        double c = isfinite(lo) ? lo : 0, d = fabs(c) > 0 ? 0.1 * fabs(c) : 1;
        lo = c - d, hi = c + d;
    }
    count = fmin(fmax(count, 1.0), TICKS_MAX / 2.0);
    double step = round_step((hi - lo) / count);
    if (round_ends) {
        lo = step * floor(lo / step + 1e-9);
        hi = step * ceil(hi / step - 1e-9);
    }
    t->lo = lo, t->hi = hi;
    for (double i = ceil(lo / step - 1e-9); i <= floor(hi / step + 1e-9); i++)
        add(t, i * step, 0);
    /* Very large or small values share a factor 10^e written once. */
    double big = fmax(fabs(lo), fabs(hi));
    int e = big >= 1e5 || (big > 0 && big < 1e-3) ? (int)floor(log10(big)) : 0;
    double unit = pow(10.0, e);
    if (e != 0) {
        char power[24];
        format_power(e, power, sizeof power);
        snprintf(t->factor, sizeof t->factor, TIMES "%s", power);
    }
    for (int i = 0; i < t->n; i++)
        format_fixed(t->v[i] / unit, step / unit, t->label[i], sizeof t->label[i]);
}

/* 2 x 10^k and the like: plain decimals where they are short. */
static void format_mantissa(double v, char *out, size_t size)
{
    int k = (int)floor(log10(v) + 1e-9);
    double m = v / pow(10.0, k);
    if (k >= -3 && k <= 4) {
        format_fixed(v, pow(10.0, k), out, size);
    } else {
        char power[24];
        format_power(k, power, sizeof power);
        snprintf(out, size, "%.0f" TIMES "%s", m, power);
    }
}

void ticks_log(double lo, double hi, double count, int round_ends, ticks *t)
{
    if (!(lo > 0))
        lo = hi > 0 ? hi / 10 : 1;
    if (!(hi > lo))
        hi = 10 * lo;
    count = fmin(fmax(count, 1.0), TICKS_MAX / 2.0);
    double a = log10(lo), b = log10(hi);
    if (b - a < 1 - 1e-9) {
        /* Less than a decade: round linear values, still on the log scale. */
        ticks_linear(lo, hi, fmin(count, 5), round_ends, t);
        if (t->lo <= 0)
            ticks_linear(lo, hi, fmin(count, 5), 0, t);
        return;
    }
    memset(t, 0, sizeof *t);
    int d0 = (int)floor(a + 1e-9), d1 = (int)ceil(b - 1e-9);
    if (round_ends)
        lo = pow(10.0, d0), hi = pow(10.0, d1);
    t->lo = lo, t->hi = hi;
    /* Label every decade, or every 2nd, 3rd, 5th, ... when they are many. */
    static const int EVERY[] = {1, 2, 3, 5, 10, 20, 50, 100};
    int decades = d1 - d0, every = 100;
    for (size_t i = sizeof EVERY / sizeof EVERY[0]; i-- > 0;)
        if (decades <= count * EVERY[i])
            every = EVERY[i];
    int with_minor = every == 1 && 9 * decades < TICKS_MAX;
    int label_25 = decades <= 2;
    for (int k = d0; k <= d1; k++)
        for (int m = 1; m <= 9; m++) {
            double v = m * pow(10.0, k);
            if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9))
                continue;
            int labelled = m == 1 ? k % every == 0 : label_25 && (m == 2 || m == 5);
            if (!labelled && !(m == 1 || with_minor))
                continue;
            char *label = add(t, v, !labelled);
            if (label && labelled && m == 1)
                format_power(k, label, sizeof t->label[0]);
            else if (label && labelled)
                format_mantissa(v, label, sizeof t->label[0]);
        }
}
