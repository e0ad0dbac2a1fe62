package acq

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// JointSampler draws joint posterior samples of the latent function. Sample
// returns n samples, each a slice with one value per point of X.
type JointSampler interface {
	Sample(X [][]float64, n int, rng *rand.Rand) ([][]float64, error)
}

// Thompson draws one joint posterior sample on the candidate set and returns
// the index of its minimum: the `exact` Thompson sampler of spec §4.4
// [000 §2.3.1, §4.6.1; 004 §4.2]. NaN sample values are skipped; ties go to
// the lowest index.
func Thompson(m JointSampler, candidates [][]float64, rng *rand.Rand) (int, error) {
	if len(candidates) == 0 {
		return -1, errors.New("acq: Thompson sampling needs at least one candidate")
	}
	s, err := m.Sample(candidates, 1, rng)
	if err != nil {
		return -1, fmt.Errorf("acq: Thompson sampling on %d candidates: %w", len(candidates), err)
	}
	if len(s) != 1 || len(s[0]) != len(candidates) {
		return -1, fmt.Errorf("acq: Thompson sampling: sampler returned %d samples (want 1) of %d values (want %d)",
			len(s), lenFirst(s), len(candidates))
	}
	best, arg := math.Inf(1), -1
	for i, v := range s[0] {
		if v < best || (arg < 0 && !math.IsNaN(v)) {
			best, arg = v, i
		}
	}
	if arg < 0 {
		return -1, errors.New("acq: Thompson sampling: every sampled value is NaN; check the model's hyper-parameters")
	}
	return arg, nil
}

func lenFirst(s [][]float64) int {
	if len(s) == 0 {
		return 0
	}
	return len(s[0])
}
