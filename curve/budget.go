package curve

import "errors"

// OverfitLoss is the training loss below which a model is taken to have
// fitted its training set, after Jiang et al. (2020) [000 §8.4.2, App.
// A.8.1].
const OverfitLoss = 0.1

// EffectiveBudget is Algorithm 12 [000 §8.4.2]: given fully trained
// training-loss curves (one value per epoch, epoch t at index t−1), T_o is
// the earliest epoch at which any of them first drops below OverfitLoss (a
// curve that never does counts as its length), and the budget beyond
// which TSE stops helping is T_effective = 0.9·T_o epochs. The thesis's
// line 7 sets T_{i,o} = T; it must be t (spec §3, erratum). The thesis
// finds N_s = 10 curves enough (Fig. 8.6).
func EffectiveBudget(curves [][]float64) (float64, error) {
	if len(curves) == 0 {
		return 0, errors.New("curve: EffectiveBudget needs at least one curve")
	}
	to := -1
	for _, c := range curves {
		if len(c) == 0 {
			return 0, errors.New("curve: EffectiveBudget got an empty curve")
		}
		ti := len(c)
		for t, v := range c {
			if v < OverfitLoss {
				ti = t + 1
				break
			}
		}
		if to < 0 || ti < to {
			to = ti
		}
	}
	return 0.9 * float64(to), nil
}
