// Package forest is a random-forest regressor with a predictive mean and
// standard deviation: the phase-2 surrogate of SVM-CBO_RF
// [004 §4.1.2, Alg. 1, Eqs. 4.16–4.17; spec constrained-autotinyml §4.2].
//
// Fit follows Alg. 1 of [004 §4.1.2] (Breiman 2001): each of the S trees is
// grown on a bootstrap sample of the N observations; at every node m of the
// M features are drawn and the best cut among them is taken, and growth
// stops at the stopping rules of Settings. The mean is the average of the
// trees, μ(x) = (1/S) Σ_i T_i(x) [004 Eq. 4.16].
//
// The split criterion is the weighted variance reduction
// Var(S) − (|S_t|/|S|)·Var(S_t) − (|S_f|/|S|)·Var(S_f), with thresholds at the
// midpoints of the sorted distinct values of a feature; Friedman's
// improvement (Friedman 2001) is an option [spec §4.2]. Eq. 3.21 of
// [004 §3.4.1] omits the child weights and is deliberately not implemented
// literally (see improvement in tree.go).
//
// The predictive σ is, by default, the law of total variance over the
// trees (Hutter et al. 2014 §4.3.2), as the reference code computes it
// [spec §3.4; reference code: ricky151192/SVMCBO]: the variance of the trees'
// means plus the mean of the within-leaf variances. The thesis's "variance
// among the individual outputs" [004 §4.1.2], the between-tree part alone,
// is the BetweenTrees option; it vanishes wherever the trees agree.
//
// The zero Settings are the spec's Decision, the reference code's
// scikit-learn settings: S = 10, m = M, min_samples_split 2,
// min_samples_leaf 1, no depth limit, bootstrap on [spec §4.2]. Ties,
// thresholds and the bootstrap-as-weights bookkeeping follow scikit-learn, so
// a single tree grown on the data itself with all features makes the same
// cuts as a DecisionTreeRegressor (sklearn_test.go checks this when
// scikit-learn is installed).
//
// # Inactive conditional variables
//
// A conditional variable that is inactive in a configuration (rho and epsilon
// of the ANN space when the optimiser is SGD, spec §2) is encoded by the
// caller as NaN, the sentinel of [spec §4.2]. The forest treats NaN as lower
// than every number: at any split on that feature an inactive value goes to
// the left child, and a cut between the inactive and the active samples has
// threshold −Inf, so it separates them without moving any active value. A
// finite value outside the variable's range (−1 for a unit-cube coordinate)
// also works, but then the cut sits at the midpoint between the sentinel and
// the smallest active value seen, and an active value below that midpoint at
// prediction time is sent with the inactive ones. ±Inf is rejected by Fit.
//
// # Cost
//
// Each node sorts its samples once per searched feature, so a tree costs
// O(m n log² n) for a balanced tree (O(m n² log n) at worst), the forest S
// times that; n ≤ a few hundred in SVM-CBO_RF. Predict walks one path per
// tree.
//
// All randomness comes from the *rand.Rand (math/rand/v2) passed to Fit: the
// same seed gives the same forest. "spec §N" in this package is a section of
// spec constrained-autotinyml.
package forest
