/* Orthonormal frames built from the axes of a shape description. */
#ifndef CDYN__PARAMETRIC_FRAME_H
#define CDYN__PARAMETRIC_FRAME_H

#include <stdbool.h>

/* Copies the first @p dim components of @p src into @p out and clears the
 * rest (dim = 2 or 3). */
void cdyn__frame_load(double out[3], const double *src, int dim);

/* out = a / |a|. False when a is zero or not finite. */
bool cdyn__frame_unit(double out[3], const double a[3]);

/* Gram-Schmidt: out = the part of b orthogonal to the unit vector e,
 * normalized. False when b is zero, not finite, or parallel to e (its
 * orthogonal part is below 1e-12 |b|). */
bool cdyn__frame_orthogonal(double out[3], const double e[3], const double b[3]);

/* A right-handed orthonormal frame from a first direction @p a1 (made unit:
 * e1) and a second @p a2 (made orthogonal to e1: e2); e3 = e1 x e2. False as
 * for the two functions above. */
bool cdyn__frame_from_axes(const double a1[3], const double a2[3], double e1[3], double e2[3],
                           double e3[3]);

/* A right-handed frame about the pole @p pole (e3, made unit) with e1 from
 * @p ref made orthogonal to it and e2 = e3 x e1. */
bool cdyn__frame_from_pole(const double pole[3], const double ref[3], double e1[3],
                           double e2[3], double e3[3]);

#endif /* CDYN__PARAMETRIC_FRAME_H */
