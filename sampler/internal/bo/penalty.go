package bo

import "slices"

// Penalty is the loss given to a failed (non-computable or infeasible)
// trial by a sampler that models no constraint, spec
// constrained-autotinyml §6's penalty Decision: the worst observed loss
// plus 10 % of the observed range. losses must not be empty.
func Penalty(losses []float64) float64 {
	lo, hi := slices.Min(losses), slices.Max(losses)
	return hi + 0.1*(hi-lo)
}
