// Package svm is a binary C-SVC classifier with the RBF kernel, trained by
// SMO with second-order working-set selection (spec constrained-autotinyml
// §4.1; Fan et al. 2005). SVM-CBO uses it to estimate the feasible region
// of a constrained problem from the configurations tried so far, labelled +1
// feasible and −1 infeasible [004 §6.2.1, Eqs. 6.2–6.3].
//
// Fit solves the dual
//
//	minimise ½ αᵀQα − 1ᵀα  s.t.  yᵀα = 0,  0 ≤ α_i ≤ C,
//	Q_ij = y_i y_j k(x_i, x_j),  k(x, x') = exp(−γ‖x − x'‖²),
//
// by sequential minimal optimisation: each iteration moves the pair (i, j)
// chosen by second-order working-set selection (the spec's "WSS3", after
// Fan et al. 2005) and stops when the maximal violating pair violates by at
// most ε = 1e-3. The solver follows LIBSVM's (Chang & Lin 2011), including
// its update of a pair, its clipping to the box and its ρ, but without
// shrinking or a kernel cache: SVM-CBO trains on at most its budget of about
// a hundred evaluations, so the full kernel matrix is computed once.
//
// The model is the decision function
//
//	d(x) = Σ_i α_i y_i k(x_i, x) + b,
//
// with b = −ρ in LIBSVM's notation: the average of −y_i∇f(α)_i over the free
// support vectors (0 < α_i < C), or the midpoint of the interval the KKT
// conditions allow when there are none (spec constrained-autotinyml §4.1).
// Predict returns +1 where d(x) > 0 and −1 elsewhere, so the estimated
// feasible region is {d > 0} [spec constrained-autotinyml §3.3, Decision b];
// this is also the sign of scikit-learn's SVC.decision_function with classes
// {−1, +1}. Gradient returns ∇d(x), which phase 1 of SVM-CBO needs for its
// boundary term |d| (spec constrained-autotinyml §3.4).
//
// The defaults are those of the reference code's scikit-learn SVC
// [reference code: ricky151192/SVMCBO] with the project's Decision for γ
// (spec constrained-autotinyml §3.4): C = 1 and γ = 1/(d·Var(X)), the
// variance taken over all coordinates of all training points (scikit-learn's
// gamma="scale"; γ = 1 when that variance is 0, as scikit-learn does).
//
// A training set with one class only cannot be fitted (ErrOneClass): the
// caller decides what to do, as SVM-CBO does by its one-class fallback
// (spec constrained-autotinyml §3.3, Decision g).
//
// A Model is immutable after Fit and safe for concurrent use.
package svm
