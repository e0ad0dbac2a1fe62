package sampler

// OneHotGP is the one-hot GP baseline of the CoCaBO experiments
// [000 §5.5; 002 §5.4; mixed spec §4.4]: gpbo, whose GP already sees
// categorical parameters one-hot (space.Features) and whose acquisition
// search keeps them at legal one-hot vectors (the "basic" approach of
// [004 §4.1.1]), with UCB κ = 2 instead of log-EI.
type OneHotGP struct{ *GPBO }

// NewOneHotGP returns the onehot-gp baseline: NewGPBO with the confidence
// bound acquisition (AcqLCB) and κ = 2.
func NewOneHotGP() *OneHotGP {
	g := NewGPBO()
	g.Acquisition, g.Kappa = AcqLCB, 2
	return &OneHotGP{g}
}

// Name returns "onehot-gp".
func (*OneHotGP) Name() string { return "onehot-gp" }
