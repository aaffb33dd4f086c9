/* Finiteness of a whole array. */
#include "core/finite.h"

bool cdyn__all_finite(const double *v, size_t n)
{
    uint64_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad |= cdyn__nonfinite_bit(v[i]);
    return bad == 0;
}
