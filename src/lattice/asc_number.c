/* Numbers of ESRI ASCII grids in the C notation, whatever the locale.
 * strtod and snprintf follow LC_NUMERIC's decimal point, so a number is
 * handed to strtod without one (its fraction's digits moved into the
 * exponent: "12.5e3" as "125e2"), and snprintf's decimal point, whatever
 * its bytes, is written back as '.'. No locale data is read: the grid
 * functions stay safe in threads. */
#include "lattice/asc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Checks the token's shape: [+-] digits [. digits] [e [+-] digits], with
 * at least one digit in the mantissa. Returns the position of the '.' in
 * *dot (len when none). */
static bool decimal_shape(const char *t, size_t len, size_t *dot)
{
    size_t i = 0, digits = 0;
    *dot = len;
    if (i < len && (t[i] == '+' || t[i] == '-'))
        i++;
    for (; i < len && is_digit(t[i]); i++)
        digits++;
    if (i < len && t[i] == '.') {
        *dot = i++;
        for (; i < len && is_digit(t[i]); i++)
            digits++;
    }
    if (digits == 0)
        return false;
    if (i < len && (t[i] == 'e' || t[i] == 'E')) {
        i++;
        if (i < len && (t[i] == '+' || t[i] == '-'))
            i++;
        size_t e = 0;
        for (; i < len && is_digit(t[i]); i++)
            e++;
        if (e == 0)
            return false;
    }
    return i == len;
}

bool cdyn__asc_parse_double(const char *tok, size_t len, double *out)
{
    size_t dot;
    if (len == 0 || len >= CDYN__ASC_TOKEN_MAX || !decimal_shape(tok, len, &dot))
        return false;
    /* Sign and digits without the point; the fraction's length comes off
     * the exponent. */
    char buf[CDYN__ASC_TOKEN_MAX + 32];
    size_t k = 0, i = 0;
    long frac = 0, exp10 = 0;
    if (tok[i] == '+' || tok[i] == '-')
        buf[k++] = tok[i++];
    for (; i < len && tok[i] != 'e' && tok[i] != 'E'; i++) {
        if (tok[i] == '.')
            continue;
        buf[k++] = tok[i];
        frac += i > dot;
    }
    if (i < len) { /* the exponent, saturated: beyond 10^5 all is 0 or inf */
        bool neg = tok[++i] == '-';
        if (tok[i] == '+' || tok[i] == '-')
            i++;
        for (; i < len; i++)
            if (exp10 < 100000)
                exp10 = exp10 * 10 + (tok[i] - '0');
        if (neg)
            exp10 = -exp10;
    }
    snprintf(buf + k, sizeof buf - k, "e%ld", exp10 - frac);
    char *end;
    double v = strtod(buf, &end);
    if (*end != '\0')
        return false;
    *out = v;
    return true;
}

bool cdyn__asc_parse_count(const char *tok, size_t len, size_t limit, size_t *out)
{
    size_t i = 0, v = 0;
    if (len > 0 && tok[0] == '+')
        i++;
    if (i == len)
        return false;
    for (; i < len; i++) {
        if (!is_digit(tok[i]))
            return false;
        size_t d = (size_t)(tok[i] - '0');
        if (v > (limit - d) / 10)
            return false; /* beyond the limit (or size_t) */
        v = v * 10 + d;
    }
    if (v < 1)
        return false;
    *out = v;
    return true;
}

size_t cdyn__asc_format_double(double v, char *buf)
{
    char tmp[CDYN__ASC_TOKEN_MAX];
    int n = snprintf(tmp, sizeof tmp, "%.17g", v);
    if (n < 0 || (size_t)n >= sizeof tmp)
        n = 0;
    /* Digits, signs and the exponent's 'e' are the same in every locale;
     * anything else is the decimal point (one or more bytes): '.'. */
    size_t k = 0;
    bool in_point = false;
    for (int i = 0; i < n; i++) {
        char c = tmp[i];
        if (is_digit(c) || c == '-' || c == '+' || c == 'e') {
            buf[k++] = c;
            in_point = false;
        } else if (!in_point) {
            buf[k++] = '.';
            in_point = true;
        }
    }
    buf[k] = '\0';
    return k;
}
