package stats

import (
	"fmt"
	"math"
	"slices"
)

// MannWhitneyU returns the Mann–Whitney statistic U of x (the number of
// pairs (x_i, y_j) with x_i > y_j, ties counting ½) and the two-sided
// p-value of the hypothesis that x and y come from the same distribution
// [spec constrained-autotinyml §8]: exact when both samples have at most
// 20 values and there are no ties, else the normal approximation with the
// tie correction of the variance and a continuity correction of ½ (as
// scipy.stats.mannwhitneyu and R's wilcox.test compute it). It returns an
// error for an empty sample or a NaN.
func MannWhitneyU(x, y []float64) (u, p float64, err error) {
	if err := check(x, y); err != nil {
		return math.NaN(), math.NaN(), err
	}
	n1, n2 := len(x), len(y)
	r, ties := ranks(slices.Concat(x, y))
	var r1 float64
	for _, v := range r[:n1] {
		r1 += v
	}
	u = r1 - float64(n1*(n1+1))/2
	low := min(u, float64(n1*n2)-u)
	if n1 <= 20 && n2 <= 20 && ties == 0 {
		return u, min(1, 2*cdf(mannWhitneyCounts(n1, n2), low)), nil
	}
	n := float64(n1 + n2)
	v := float64(n1*n2) / 12 * (n + 1 - ties/(n*(n-1)))
	return u, normalP(float64(n1*n2)/2-low, v), nil
}

// WilcoxonSignedRank returns the signed-rank statistic W+ (the sum of the
// ranks of |x_i − y_i| over the pairs with x_i > y_i) and the two-sided
// p-value of the hypothesis that the differences are symmetric about 0.
// Zero differences are dropped (Wilcoxon's rule); then the p-value is exact
// when fewer than 50 pairs remain and no |differences| tie, else from the
// normal approximation with the tie correction and a continuity
// correction of ½ (R's wilcox.test). With no non-zero difference p is 1.
// It returns an error when the samples differ in length, are empty or hold
// a NaN.
func WilcoxonSignedRank(x, y []float64) (w, p float64, err error) {
	if err := check(x, y); err != nil {
		return math.NaN(), math.NaN(), err
	}
	if len(x) != len(y) {
		return math.NaN(), math.NaN(), fmt.Errorf("stats: paired samples of %d and %d values", len(x), len(y))
	}
	var d []float64
	for i := range x {
		if x[i] != y[i] {
			d = append(d, x[i]-y[i])
		}
	}
	n := len(d)
	if n == 0 {
		return 0, 1, nil
	}
	abs := make([]float64, n)
	for i, v := range d {
		abs[i] = math.Abs(v)
	}
	r, ties := ranks(abs)
	for i, v := range d {
		if v > 0 {
			w += r[i]
		}
	}
	total := float64(n*(n+1)) / 2
	low := min(w, total-w)
	if n < 50 && ties == 0 {
		return w, min(1, 2*cdf(signedRankCounts(n), low)), nil
	}
	nf := float64(n)
	v := nf*(nf+1)*(2*nf+1)/24 - ties/48
	return w, normalP(total/2-low, v), nil
}

// Stars are the significance marks of the reports, the spec's Decision (§8):
// "***" for p < 0.001, "**" for p < 0.01, "*" for p < 0.05, else "".
func Stars(p float64) string {
	switch {
	case p < 0.001:
		return "***"
	case p < 0.01:
		return "**"
	case p < 0.05:
		return "*"
	}
	return ""
}

func check(x, y []float64) error {
	if len(x) == 0 || len(y) == 0 {
		return fmt.Errorf("stats: samples of %d and %d values; both need at least one", len(x), len(y))
	}
	if slices.ContainsFunc(x, math.IsNaN) || slices.ContainsFunc(y, math.IsNaN) {
		return fmt.Errorf("stats: a sample holds NaN; drop the runs without a value first")
	}
	return nil
}

// ranks returns the ranks of v (1 for the smallest; the mean rank for tied
// values) and Σ (t³ − t) over the groups of t tied values, 0 without ties.
func ranks(v []float64) (r []float64, ties float64) {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case v[a] < v[b]:
			return -1
		case v[a] > v[b]:
			return 1
		}
		return 0
	})
	r = make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && v[idx[j]] == v[idx[i]] {
			j++
		}
		mid := float64(i+j+1) / 2 // ranks i+1 … j
		for _, k := range idx[i:j] {
			r[k] = mid
		}
		t := float64(j - i)
		ties += t*t*t - t
		i = j
	}
	return r, ties
}

// normalP is the two-sided p-value of a statistic whose distance from its
// mean is dev ≥ 0, with variance v, after a continuity correction of ½.
func normalP(dev, v float64) float64 {
	if v <= 0 {
		return 1
	}
	z := max(dev-0.5, 0) / math.Sqrt(v)
	return min(1, math.Erfc(z/math.Sqrt2))
}

// cdf is P(S ≤ s) of the distribution whose counts are c (c[k] ways to get
// S = k).
func cdf(c []float64, s float64) float64 {
	var num, tot float64
	for k, v := range c {
		tot += v
		if float64(k) <= s {
			num += v
		}
	}
	return num / tot
}

// mannWhitneyCounts returns c[u], the number of orderings of n1 x's and
// n2 y's with U = u, by the recursion f(m, n, u) = f(m−1, n, u−n) +
// f(m, n−1, u) (the largest value is an x, adding n to U, or a y).
func mannWhitneyCounts(n1, n2 int) []float64 {
	// f[m][n] is the count slice for m x's and n y's.
	f := make([][][]float64, n1+1)
	for m := range f {
		f[m] = make([][]float64, n2+1)
		for n := range f[m] {
			c := make([]float64, m*n+1)
			switch {
			case m == 0 || n == 0:
				c[0] = 1
			default:
				for u := range c {
					if u >= n && u-n < len(f[m-1][n]) {
						c[u] += f[m-1][n][u-n]
					}
					if u < len(f[m][n-1]) {
						c[u] += f[m][n-1][u]
					}
				}
			}
			f[m][n] = c
		}
	}
	return f[n1][n2]
}

// signedRankCounts returns c[w], the number of subsets of {1, …, n} whose
// sum is w: the null distribution of W+ times 2ⁿ.
func signedRankCounts(n int) []float64 {
	c := make([]float64, n*(n+1)/2+1)
	c[0] = 1
	for k := 1; k <= n; k++ {
		for w := len(c) - 1; w >= k; w-- {
			c[w] += c[w-k]
		}
	}
	return c
}
