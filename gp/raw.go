package gp

import (
	"errors"
	"fmt"
	"math"

	"github.com/boaopt/boa/kernel"
)

// NewRaw builds a GP on y as given: a zero prior mean, no
// standardisation (offset 0, scale 1), the kernel k (cloned, at its
// current parameters) and noise variance noise on the scale of y — the
// path of Config.Raw in Fit, without optimising anything. FITBO's g-GP
// needs it: g_i = √(2(ỹ_i − η)) is already on the scale its
// hyper-parameters were sampled for, and a GP(0, k) on g must not be
// re-centred [000 Eq. 3.5; spec gp-and-acquisitions §4.6].
func NewRaw(X [][]float64, y []float64, k kernel.Kernel, noise float64) (*GP, error) {
	if k == nil {
		return nil, errors.New("gp: NewRaw with a nil kernel")
	}
	if math.IsNaN(noise) || noise < 0 || math.IsInf(noise, 0) {
		return nil, fmt.Errorf("gp: noise variance %v must be finite and >= 0", noise)
	}
	xs, err := copyInputs(X, y, k)
	if err != nil {
		return nil, err
	}
	return newGP(xs, rawTargets(y), 0, 1, k.Clone(), math.Log(noise), MeanZero)
}

// rawTargets returns a copy of y clipped to ±maxTarget, the targets of a
// GP that is not standardised (Config.Raw, NewRaw).
func rawTargets(y []float64) []float64 {
	ys := make([]float64, len(y))
	for i, v := range y {
		ys[i] = min(max(v, -maxTarget), maxTarget)
	}
	return ys
}
