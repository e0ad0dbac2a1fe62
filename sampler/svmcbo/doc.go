// Package svmcbo is SVM-CBO and SVM-CBO_RF, constrained Bayesian
// optimisation with unknown feasibility [004 §5.1, §6.2.1, Alg. 3; spec
// constrained-autotinyml §3]. "spec §N" in this package is a section of
// that spec.
//
// Four samplers are registered:
//
//	svmcbo          phase 2 with a GP (the original SVM-CBO)
//	svmcbo-rf       phase 2 with a random forest (SVM-CBO_RF)
//	svmcbo-code     svmcbo in the code_compat mode of spec §3.5
//	svmcbo-rf-code  svmcbo-rf in the code_compat mode
//
// The phases (spec §3.1) split the study's budget (History.Budget, 100
// when it has none) 10/60/30 %, with cumulative guards (Decision a):
// phase 0, a plain Latin hypercube of 10 % of the budget; phase 1, until
// 70 %, the minimiser of Eq. 6.2, the distance |d(γ)| to the SVM's
// separating surface plus the coverage of the tried points; phase 2, the
// minimiser of the LCB μ − 1.96σ inside Ω̃ = {d > 0}.
//
// The SVM (package svm) is a C-SVC with C = 1 and an RBF kernel of
// coefficient g = 1/(d·Var X), trained on every evaluated point labelled
// +1 feasible, −1 infeasible; a failed (non-computable) trial is −1
// (Decision h). With one class there is no SVM (Decision g): d ≡ +1 when
// every point is feasible, and d ≡ −1 when none is, and then phase 2 keeps
// phase 1's acquisition until a feasible point turns up.
//
// code_compat reproduces the reference code [reference code:
// ricky151192/SVMCBO] with its bugs (spec §3.5): labels 1 = infeasible,
// g = 1/(2·Var X), the phase-1 boundary term |Σ_k c_k exp(−(1/g)‖x −
// sv_k‖²)| (1/g for g, no intercept), ℓ = Var(X) unclamped, focus search
// in the unit box whatever the shrink says, the surrogate trained on
// feasible points only, and the GP of scikit-learn's defaults (unit
// amplitude, y not standardised, α = 1e-10). The default mode is the
// corrected algorithm: the SVM's own decision function with its bias,
// ℓ = Var(X) clamped to [1e-3, 1], a focus search that shrinks, and a GP
// fitted by maximum likelihood on standardised y.
//
// docs/samplers.md, "SVM-CBO", lists every choice and deviation.
package svmcbo
