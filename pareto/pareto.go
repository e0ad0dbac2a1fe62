// Package pareto holds what several objectives need, all minimised:
// dominance, the Pareto front, NSGA-II's non-dominated sorting and
// crowding distance (Deb et al. 2002), and the hypervolume indicator, the
// measure of a front that multi-objective samplers improve and benchmarks
// report (issue 43).
//
// A point dominates another when it is no worse in every objective and
// better in one. The hypervolume of a set with respect to a reference
// point r is the Lebesgue measure of the region that the set dominates
// and that dominates r; it is computed exactly, by a sweep in two
// dimensions and by slicing along the last objective above (the HSO
// scheme of While et al. 2006), which is fast for the 2–3 objectives of
// BO and exact but exponential in the dimension beyond.
package pareto

import (
	"cmp"
	"math"
	"slices"
)

// Dominates reports whether a dominates b: a_i ≤ b_i for every i and
// a_i < b_i for one.
func Dominates(a, b []float64) bool {
	better := false
	for i := range a {
		if a[i] > b[i] {
			return false
		}
		if a[i] < b[i] {
			better = true
		}
	}
	return better
}

// Front returns the indices of the points no other point dominates, in
// increasing order. Equal points are all on the front.
//
// The points are visited in lexicographic order, in which a point comes
// after every point that dominates it, and each is compared with the
// front found so far only: a dominated point is dominated by a point of
// the front too. That is O(n log n + n·|front|) comparisons, where
// comparing all pairs was O(n²): a study's summary, which asks for the
// front of 20,000 trials of one objective, compares each with the few
// of the best value.
func Front(points [][]float64) []int {
	order := make([]int, len(points))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return slices.Compare(points[a], points[b]) })
	var front []int
	for _, i := range order {
		if !slices.ContainsFunc(front, func(j int) bool { return Dominates(points[j], points[i]) }) {
			front = append(front, i)
		}
	}
	slices.Sort(front)
	return front
}

// Sort is NSGA-II's fast non-dominated sort [Deb et al. 2002, §III-A]:
// fronts[0] is the Pareto front, fronts[k] the front of what remains
// without fronts[0..k−1]; each front's indices are in increasing order.
func Sort(points [][]float64) [][]int {
	n := len(points)
	dominated := make([][]int, n) // the points i dominates
	count := make([]int, n)       // how many points dominate i
	for i := range n {
		for j := i + 1; j < n; j++ {
			switch {
			case Dominates(points[i], points[j]):
				dominated[i] = append(dominated[i], j)
				count[j]++
			case Dominates(points[j], points[i]):
				dominated[j] = append(dominated[j], i)
				count[i]++
			}
		}
	}
	var fronts [][]int
	var current []int
	for i := range n {
		if count[i] == 0 {
			current = append(current, i)
		}
	}
	for len(current) > 0 {
		fronts = append(fronts, current)
		var next []int
		for _, i := range current {
			for _, j := range dominated[i] {
				if count[j]--; count[j] == 0 {
					next = append(next, j)
				}
			}
		}
		slices.Sort(next)
		current = next
	}
	return fronts
}

// Crowding returns NSGA-II's crowding distance of each point of a front
// [Deb et al. 2002, §III-B]: per objective, the points sorted by it, the
// two extremes get +Inf and each other one the gap between its neighbours
// divided by the objective's range; the distances are summed over the
// objectives. An objective with no range adds nothing.
func Crowding(front [][]float64) []float64 {
	n := len(front)
	d := make([]float64, n)
	if n == 0 {
		return d
	}
	order := make([]int, n)
	for m := range front[0] {
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(front[a][m], front[b][m]) })
		lo, hi := front[order[0]][m], front[order[n-1]][m]
		d[order[0]], d[order[n-1]] = math.Inf(1), math.Inf(1)
		if hi == lo {
			continue
		}
		for k := 1; k < n-1; k++ {
			d[order[k]] += (front[order[k+1]][m] - front[order[k-1]][m]) / (hi - lo)
		}
	}
	return d
}

// Hypervolume returns the hypervolume the points dominate up to ref
// (package documentation). Points that do not dominate ref strictly in
// every objective add nothing.
func Hypervolume(points [][]float64, ref []float64) float64 {
	var in [][]float64
	for _, p := range points {
		if !slices.ContainsFunc(p, func(v float64) bool { return math.IsNaN(v) }) && below(p, ref) {
			in = append(in, p)
		}
	}
	return volume(in, ref)
}

// below reports p_i < ref_i for every i.
func below(p, ref []float64) bool {
	for i := range p {
		if !(p[i] < ref[i]) {
			return false
		}
	}
	return true
}

// volume is Hypervolume of points all below ref.
func volume(points [][]float64, ref []float64) float64 {
	d := len(ref)
	switch {
	case len(points) == 0:
		return 0
	case d == 1:
		lo := ref[0]
		for _, p := range points {
			lo = min(lo, p[0])
		}
		return ref[0] - lo
	case d == 2:
		return area(points, ref)
	}
	// Slice along the last objective: between consecutive values z_k <
	// z_{k+1} the section is the (d−1)-dimensional hypervolume of the
	// points with z ≤ z_k.
	sorted := slices.Clone(points)
	slices.SortFunc(sorted, func(a, b []float64) int { return cmp.Compare(a[d-1], b[d-1]) })
	total := 0.0
	for k := range sorted {
		top := ref[d-1]
		if k+1 < len(sorted) {
			top = sorted[k+1][d-1]
		}
		if h := top - sorted[k][d-1]; h > 0 {
			section := make([][]float64, k+1)
			for i, p := range sorted[:k+1] {
				section[i] = p[:d-1]
			}
			total += h * volume(Nondominated(section), ref[:d-1])
		}
	}
	return total
}

// area is the two-dimensional hypervolume: the points sorted by the first
// objective, each adds the strip between it and the lowest second
// objective seen so far.
func area(points [][]float64, ref []float64) float64 {
	sorted := slices.Clone(points)
	slices.SortFunc(sorted, func(a, b []float64) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	})
	total, y := 0.0, ref[1]
	for _, p := range sorted {
		if p[1] < y {
			total += (ref[0] - p[0]) * (y - p[1])
			y = p[1]
		}
	}
	return total
}

// Nondominated returns the points of the Pareto front, one copy of each
// repeated point.
func Nondominated(points [][]float64) [][]float64 {
	var out [][]float64
	for _, i := range Front(points) {
		if !slices.ContainsFunc(out, func(q []float64) bool { return slices.Equal(q, points[i]) }) {
			out = append(out, points[i])
		}
	}
	return out
}
