package tse

import (
	"math"
	"slices"
)

// Ranks gives the fractional ranks of x (1-based; tied values share the
// mean of the ranks they span). NaN sorts below every number, so a
// diverged run (NaN loss) ranks as the smallest value.
func Ranks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	less := func(a, b float64) int {
		switch {
		case math.IsNaN(a) && math.IsNaN(b):
			return 0
		case math.IsNaN(a):
			return -1
		case math.IsNaN(b):
			return 1
		}
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	}
	slices.SortStableFunc(idx, func(i, j int) int { return less(x[i], x[j]) })
	r := make([]float64, len(x))
	for lo := 0; lo < len(idx); {
		hi := lo + 1
		for hi < len(idx) && less(x[idx[lo]], x[idx[hi]]) == 0 {
			hi++
		}
		// positions lo..hi−1 hold equal values: ranks lo+1..hi, mean (lo+1+hi)/2
		for _, i := range idx[lo:hi] {
			r[i] = float64(lo+1+hi) / 2
		}
		lo = hi
	}
	return r
}

// Spearman is Spearman's ρ of x and y with average ranks for ties (spec
// §4): the Pearson correlation of their fractional ranks. It is NaN when
// either is constant or the lengths differ or are below 2.
func Spearman(x, y []float64) float64 {
	if len(x) != len(y) || len(x) < 2 {
		return math.NaN()
	}
	rx, ry := Ranks(x), Ranks(y)
	m := float64(len(x)+1) / 2 // the mean of any fractional ranking of n items
	var sxy, sxx, syy float64
	for i := range rx {
		dx, dy := rx[i]-m, ry[i]-m
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}
