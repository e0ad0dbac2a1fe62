package gpbo

import (
	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/space"
)

// warpPriorVar is σ² of each log a_d and log b_d of the input warping:
// LogNormal(0, 0.75), BoTorch's Warp priors (LogNormalPrior(0, 0.75^½)),
// so that a fit leaves an axis as it is unless the data ask for a warp.
const warpPriorVar = 0.75

// warpInputs makes cfg's kernel a kernel.Warp of it along the features of
// the ordered parameters (Float, Int, Ordinal: one-hot columns are 0 or 1
// and have nothing to warp), with BoTorch's priors on the shapes when the
// fit has priors (MAP), none with MLE. HEBO warps every input it fits
// (Cowen-Rivers et al. 2022, §4.1); docs/gp-defaults.md has what it does
// here.
func warpInputs(sp *space.Space, cfg *gp.Config) {
	var dims []int
	for i := range sp.Len() {
		if k := sp.Param(i).Kind; k != space.Categorical && k != space.Bool {
			dims = append(dims, sp.FeatureIndex(i))
		}
	}
	w := kernel.NewWarp(cfg.Kernel, dims)
	if cfg.Priors != nil {
		for range 2 * len(dims) {
			cfg.Priors = append(cfg.Priors, gp.LogNormalPrior(0, warpPriorVar))
		}
	}
	cfg.Kernel = w
}
