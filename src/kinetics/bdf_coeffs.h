/* Coefficients of the variable-step BDF in Nordsieck form with a fixed
 * leading coefficient (derivations in docs/kinetics.md).
 *
 * The Nordsieck array z_j = h^j y^(j) / j! (j = 0..q) holds the
 * interpolating polynomial of the solution in x = (t - t_n) / h. A step
 * predicts z by Taylor's theorem (the Pascal matrix) and corrects it by
 * z += e_n l, where l holds the coefficients of
 *
 *     Lambda(x) = prod_{i=1}^{q-1} (1 + x / xi_i) (1 + x / xi*),
 *     xi_i = (t_n - t_{n-i}) / h,   1 / xi* = H_q - sum_{i<q} 1 / xi_i,
 *
 * H_q = 1 + 1/2 + ... + 1/q. Lambda vanishes at the past points, so the
 * corrected polynomial keeps the past values, and l_1 = H_q whatever the
 * steps were (the fixed leading coefficient), so that gamma = h / H_q
 * depends on h and q only. The correction e_n solves
 * H_q e_n = h f(t_n, y_pred + e_n) - z_1(pred).
 *
 * Error constants are those of constant steps: with P = 1 the error
 * constant of the predictor and E = -1 / ((q + 1) H_q) that of BDF-q (local
 * error y(t_n) - y_n = E h^(q+1) y^(q+1)), e_n = (P - E) h^(q+1) y^(q+1)
 * and the local error is E / (P - E) e_n (Milne's device). */
#ifndef CDYN__KINETICS_BDF_COEFFS_H
#define CDYN__KINETICS_BDF_COEFFS_H

#define CDYN__KIN_BDF_QMAX 5

/* H_q = sum_{j=1}^q 1 / j. */
double cdyn__kin_bdf_harmonic(int q);

/* l[0..q], the coefficients of Lambda for a step of size @p h at order
 * @p q after the accepted steps tau[1] (the latest), tau[2], ... */
void cdyn__kin_bdf_lambda(int q, double h, const double *tau, double *l);

/* The factor that turns the weighted norm of e_n into that of the local
 * error at order q: 1 / ((q + 1) H_q + 1). */
double cdyn__kin_bdf_error_q(int q);

/* The same for the local error order q - 1 would have made, from the norm
 * of z_q (= h^q y^(q) / q!): (q - 1)! / H_{q-1}. */
double cdyn__kin_bdf_error_down(int q);

/* The same for order q + 1, from the norm of the difference of successive
 * corrections e_n - (h_n / h_{n-1})^(q+1) e_{n-1} (about (P - E) h^(q+2)
 * y^(q+2)): 1 / ((P - E) (q + 2) H_{q+1}). */
double cdyn__kin_bdf_error_up(int q);

/* z_{q+1} of the raised order from e_n: 1 / ((P - E) (q + 1)!). */
double cdyn__kin_bdf_raise_factor(int q);

/* psi[0..m+2], the coefficients of x^2 prod_{i=1}^m (x + xi_i), xi_i =
 * (tau[1] + ... + tau[i]) / h: the polynomial that changes the order of
 * the Nordsieck array at t_n while keeping y_n, its slope and the values
 * at m past points. */
void cdyn__kin_bdf_psi(int m, double h, const double *tau, double *psi);

#endif
