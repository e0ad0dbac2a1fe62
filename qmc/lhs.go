package qmc

import (
	"math"
	"math/rand/v2"
)

// LatinHypercube returns the best of designs random Latin hypercubes of n
// points in [0,1)^dim by the maximin criterion: the design whose smallest
// pairwise Euclidean distance is largest [spec gp-and-acquisitions §6.2].
// designs <= 0 means 100; designs = 1 gives a plain random Latin
// hypercube, without the O(n²) scoring. In every column each stratum [k/n, (k+1)/n) holds
// exactly one point, placed uniformly within it.
//
// The cost is O(designs·n²·dim). It panics if rng is nil.
func LatinHypercube(n, dim int, rng *rand.Rand, designs int) [][]float64 {
	if rng == nil {
		panic("qmc: LatinHypercube needs a non-nil rng")
	}
	if designs <= 0 {
		designs = 100
	}
	if n <= 0 {
		return [][]float64{}
	}
	best := make([]float64, n*dim)
	cur := make([]float64, n*dim)
	perm := make([]int, n)
	bestScore := math.Inf(-1)
	for range designs {
		randomLHS(cur, n, dim, perm, rng)
		if designs == 1 { // a plain Latin hypercube: nothing to compare, and scoring costs O(n²)
			best = cur
			break
		}
		score := minSqDist(cur, n, dim)
		if score > bestScore {
			bestScore = score
			best, cur = cur, best
		}
	}
	pts := make([][]float64, n)
	for i := range pts {
		pts[i] = best[i*dim : (i+1)*dim : (i+1)*dim]
	}
	return pts
}

// randomLHS fills x (row-major n×dim) with one random Latin hypercube.
func randomLHS(x []float64, n, dim int, perm []int, rng *rand.Rand) {
	inv := 1 / float64(n)
	for j := range dim {
		for i := range perm {
			perm[i] = i
		}
		rng.Shuffle(n, func(a, b int) { perm[a], perm[b] = perm[b], perm[a] })
		for i := range n {
			v := (float64(perm[i]) + rng.Float64()) * inv
			// Rounding may land exactly on the next stratum's edge; keep the
			// point inside its own stratum.
			if hi := float64(perm[i]+1) * inv; v >= hi {
				v = math.Nextafter(hi, 0)
			}
			x[i*dim+j] = v
		}
	}
}

// minSqDist returns the smallest squared pairwise distance of the n points in
// x, +Inf when n < 2.
func minSqDist(x []float64, n, dim int) float64 {
	m := math.Inf(1)
	for a := range n {
		pa := x[a*dim : (a+1)*dim]
		for b := a + 1; b < n; b++ {
			pb := x[b*dim : (b+1)*dim]
			var d float64
			for k, v := range pa {
				t := v - pb[k]
				d += t * t
				if d >= m {
					break
				}
			}
			if d < m {
				m = d
			}
		}
	}
	return m
}
