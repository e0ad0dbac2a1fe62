// Package uncertain holds GP regression models for inputs with known
// Gaussian noise, y = f(x̂ + ε_x) + ε_y: the chapter of Alvi's thesis that
// compares four of them and proposes the unscented-transform GP [002 ch. 3;
// spec uncertain-inputs]. Each implements Model:
//
//   - rbf and rq, the standard GPs on the observed inputs (baselines,
//     Eqs. 3.7–3.8);
//   - analytic, the Gaussian input densities integrated into the RBF
//     kernel (Dallaire et al. 2011; §3.2, Eq. 3.24);
//   - randfunc, a second-order Taylor expansion of f (Girard &
//     Murray-Smith 2003; §3.3, Eq. 3.31);
//   - nigp, a first-order expansion with the posterior mean's slopes,
//     20 recursions (McHutchon & Rasmussen 2011; §3.4, Eqs. 3.35–3.36);
//   - utgp, the GP averaged over the scaled unscented transform's sigma
//     data sets, simple (one fit, shifted predictions) and full (§3.5.3,
//     Eqs. 3.52–3.62; the corrected standard form of spec §5.2).
//
// The scaled unscented transform itself is UT.
package uncertain
