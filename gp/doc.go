// Package gp implements exact Gaussian-process regression for Bayesian
// optimisation: the posterior of a zero-mean GP on standardised targets, its
// gradients with respect to the input, joint posterior sampling, cheap
// "fantasy" updates for pending evaluations, and point estimates (MLE or MAP)
// of the kernel and noise hyper-parameters by multi-start maximisation of the
// log marginal likelihood.
//
// Model [000 §2.1, Eqs. 2.1–2.8; 002 Eqs. 2.21–2.25]: y_i = f(x_i) + ε_i with
// f ~ GP(0, k) and ε_i ~ N(0, σ_n²). Targets are standardised before fitting,
// ỹ = (y − mean(y))/sd(y) (spec gp-and-acquisitions §1.3, Decision); every
// hyper-parameter, bound and prior refers to that scale, and predictions are
// mapped back to the original one. With A = K + σ_n² I = L Lᵀ,
//
//	μ(x)  = k_*ᵀ A⁻¹ ỹ,    σ²(x) = k(x,x) − k_*ᵀ A⁻¹ k_*.
//
// Config.Mean = MeanConstant (NewWithMean) gives f ~ GP(c, k) with a fitted
// constant c instead (CASMOPOLITAN's ConstantMean, spec §1.1): c is the
// generalised least-squares estimate at each kernel and noise setting,
// μ(x) = c + k_*ᵀ A⁻¹ (ỹ − c), and σ²(x) is unchanged.
//
// Predict returns the latent variance σ²(x); the variance of a noisy
// observation adds NoiseVarY (spec §1.1 erratum to [000 Eq. 2.8]).
//
// Hyper-parameters maximise the log marginal likelihood [000 Eq. 2.10; 002
// Eqs. 2.36–2.41], optionally plus log-priors (MAP) [000 Eqs. 2.10–2.12],
// with a projected L-BFGS in the box of log-parameter bounds and multiple
// starts [000 §2.1.2 fn. 2; spec §3.2 Decisions].
//
// Numerics (spec §1.2): A is factorised by Cholesky; when that fails a
// relative jitter 1e-6·mean(diag K), growing ×10 for at most 6 tries, is added
// to the diagonal. The jitter used is reported by GP.Jitter. Predictive
// variances are clamped below at 1e-12·k(x,x).
//
// A GP is immutable after construction; its methods may be called
// concurrently.
package gp
