package sampler

import (
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// copula returns the Gaussian copula transform of y, Φ⁻¹((rank − ½)/n),
// with tied values sharing their mean rank [mixed spec §5.6]. A GP fitted
// to it sees only the order of the observations, so neither an outlier nor
// a heavy tail (FCNet's validation errors span nine orders of magnitude)
// squeezes the good values together, as standardising y does.
func copula(y []float64) []float64 {
	n := len(y)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case y[a] < y[b]:
			return -1
		case y[a] > y[b]:
			return 1
		}
		return 0
	})
	z := make([]float64, n)
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && y[idx[hi]] == y[idx[lo]] {
			hi++
		}
		// 1-based ranks lo+1..hi share their mean (lo+1+hi)/2.
		q := (float64(lo+1+hi)/2 - 0.5) / float64(n)
		v := distuv.UnitNormal.Quantile(q)
		for _, j := range idx[lo:hi] {
			z[j] = v
		}
		lo = hi
	}
	return z
}
