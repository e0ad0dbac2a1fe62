package bandit

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// roundTol is the distance from 0 or 1 below which a probability counts as
// integral (spec §2.3 step 4).
const roundTol = 1e-12

// DepRound returns exactly b distinct indices of p, in increasing order, such
// that index i is included with probability p_i (Gandhi et al. 2006;
// [002 Alg. 6, line 10]). p must satisfy 0 <= p_i <= 1 and Σp = b (up to
// round-off of 1e-9·max(1, b)); anything else is a programmer error and
// panics. p is not modified.
//
// Each step takes two fractional entries and moves mass between them so that
// at least one becomes 0 or 1 while both expectations and the sum are
// preserved; after at most len(p) − 1 steps all entries are integral.
func DepRound(p []float64, b int, rng *rand.Rand) []int {
	n := len(p)
	if b < 0 || b > n {
		panic(fmt.Sprintf("bandit: DepRound needs 0 <= b <= len(p), got b = %d, len(p) = %d", b, n))
	}
	q := make([]float64, n)
	var sum float64
	for i, v := range p {
		if !(v >= -roundTol && v <= 1+roundTol) {
			panic(fmt.Sprintf("bandit: DepRound p[%d] = %v outside [0, 1]", i, v))
		}
		q[i] = snap(v)
		sum += v
	}
	if math.Abs(sum-float64(b)) > 1e-9*math.Max(1, float64(b)) {
		panic(fmt.Sprintf("bandit: DepRound needs sum(p) = b, got sum = %v, b = %d", sum, b))
	}

	i := -1 // the one pending fractional index
	for j := 0; j < n; j++ {
		if !fractional(q[j]) {
			continue
		}
		if i < 0 {
			i = j
			continue
		}
		alpha := math.Min(1-q[i], q[j])
		beta := math.Min(q[i], 1-q[j])
		// With probability β/(α+β) move α from j to i, else β from i to j;
		// either way E[q_i] and E[q_j] are unchanged [spec §2.3 step 3].
		if rng.Float64()*(alpha+beta) < beta {
			q[i], q[j] = q[i]+alpha, q[j]-alpha
		} else {
			q[i], q[j] = q[i]-beta, q[j]+beta
		}
		q[i], q[j] = snap(q[i]), snap(q[j])
		switch {
		case fractional(q[i]):
			// j became integral; keep pairing i.
		case fractional(q[j]):
			i = j
		default:
			i = -1
		}
	}

	out := make([]int, 0, b)
	for k, v := range q {
		// A last fractional entry can only be round-off of Σp; round it.
		if v >= 0.5 {
			out = append(out, k)
		}
	}
	return out
}

func snap(v float64) float64 {
	switch {
	case v < roundTol:
		return 0
	case v > 1-roundTol:
		return 1
	}
	return v
}

func fractional(v float64) bool { return v > 0 && v < 1 }
