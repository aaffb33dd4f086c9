/* Numbers of ESRI ASCII grids in the C notation, whatever the locale:
 * strtod and snprintf follow LC_NUMERIC, so the decimal point is swapped
 * for the locale's on the way in and back to '.' on the way out. */
#include "lattice/asc.h"

#include <locale.h>
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
    /* The locale's decimal point in place of '.', for strtod. */
    const char *point = localeconv()->decimal_point;
    size_t plen = point && point[0] ? strlen(point) : 1;
    char buf[CDYN__ASC_TOKEN_MAX + 8];
    if (len + plen >= sizeof buf)
        return false;
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        if (i == dot && point && point[0]) {
            memcpy(buf + k, point, plen);
            k += plen;
        } else {
            buf[k++] = tok[i];
        }
    }
    buf[k] = '\0';
    char *end;
    double v = strtod(buf, &end);
    if ((size_t)(end - buf) != k)
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
    /* The locale's decimal point back to '.'. */
    const char *point = localeconv()->decimal_point;
    size_t plen = point && point[0] ? strlen(point) : 1, k = 0;
    for (size_t i = 0; i < (size_t)n;) {
        if (point && point[0] && strncmp(tmp + i, point, plen) == 0) {
            buf[k++] = '.';
            i += plen;
        } else {
            buf[k++] = tmp[i++];
        }
    }
    buf[k] = '\0';
    return k;
}
