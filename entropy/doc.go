// Package entropy estimates the differential entropy of a univariate
// Gaussian mixture
//
//	q(y) = Σ_j w_j N(y; μ_j, v_j),   H[q] = −∫ q(y) log q(y) dy,
//
// which has no closed form. FITBO's acquisition is the entropy of such a
// mixture, one component per hyper-parameter sample with w_j = 1/M, less
// the mean of the components' entropies [000 §3.2.3, Eqs. 3.10–3.15].
// The estimators [000 §3.2.3, Eqs. 3.11–3.15; App. A.1–A.2; spec §5]:
//
//	Quadrature      adaptive Simpson on [min μ − 8√max v, max μ + 8√max v]  [000 §3.2.3; spec §5, Decision: tol 1e-4, depth ≤ 50]
//	MomentMatching  ½ log(2πe v_G), v_G the mixture variance; an upper bound  [000 Eqs. 3.14–3.15]
//	MonteCarlo      −Σ_j w_j (1/N) Σ_i log q(y_ij), y_ij ~ N(μ_j, v_j)      [000 Eq. 3.13]
//	Huber           2nd-order Taylor expansion of log q about each μ_j     [000 Eqs. 3.11–3.12] (Huber et al. 2008)
//	MEMe            maximum-entropy density matched to m moments, 1 + Σ α_i γ_i  [000 App. A.2, Alg. 15–16, Eq. A.11] (Granziol et al. 2019)
//
// Mixture.QuadratureGrad also integrates the derivative of H with respect
// to parameters the components depend on, −∫ log q ∂q, with the same
// quadrature: the gradient of FITBO's acquisition [000 App. C.1].
//
// Weights nil mean equal weights 1/M, FITBO's case (000 §3.2.3 writes 1/N
// where it means 1/M, spec §4.6 erratum); other weights are normalised to
// sum 1.
//
// "spec §N" in this package is a section of spec gp-and-acquisitions.
package entropy
