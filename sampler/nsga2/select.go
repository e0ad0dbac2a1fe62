package nsga2

import (
	"cmp"
	"math"
	"slices"

	"github.com/boaopt/boa/pareto"
	"github.com/boaopt/boa/sampler"
)

// member is a completed trial as NSGA-II ranks it.
type member struct {
	obs       int       // index in History.Observed
	y         []float64 // every objective, minimised
	feasible  bool
	violation float64 // the sum of the positive slacks of an infeasible trial
}

// members returns the completed trials of h. An infeasible trial's
// violation is the sum of its positive slacks, as Optuna sums its positive
// constraint values; one that no slack says is infeasible (a limit known
// before evaluation, an unreported metric) violates by +∞, as in tpe.
func members(h *sampler.History) []member {
	ms := make([]member, len(h.Observed))
	for i, o := range h.Observed {
		m := member{obs: i, y: o.Ys, feasible: !o.Infeasible}
		if h.Objectives <= 1 || len(o.Ys) == 0 {
			m.y = []float64{o.Y}
		}
		if o.Infeasible {
			for _, s := range o.Slack {
				if s > 0 { // NaN, not reported, adds nothing
					m.violation += s
				}
			}
			if m.violation == 0 {
				m.violation = math.Inf(1)
			}
		}
		ms[i] = m
	}
	return ms
}

// dominates is Optuna's constrained domination (its
// _constrained_dominates, after Deb et al. 2002, §VI): a feasible trial
// dominates an infeasible one, of two infeasible ones the smaller
// violation dominates, and of two feasible ones Pareto dominance decides.
// In a study without constraints every trial is feasible, and it is
// Optuna's _dominates.
func dominates(a, b member) bool {
	switch {
	case a.feasible && b.feasible:
		return pareto.Dominates(a.y, b.y)
	case a.feasible != b.feasible:
		return a.feasible
	}
	return a.violation < b.violation
}

// fronts sorts pop by constrained domination into fronts, listing each
// front in the order Optuna's _fast_non_dominated_sort does. The fronts
// are pareto.Sort's: of the feasible trials by their values, then of the
// infeasible ones by their violations (every feasible trial dominates
// every infeasible one, and two infeasible ones compare by violation
// alone). Optuna takes the trials of a front out of the population list
// as it scans it, moving its last trial into the place of each one taken,
// and the trials of a front come out in that order; the order decides
// which of the trials tied in crowding distance are kept (crowdingSort)
// and makes the parent population the same list as Optuna's.
func fronts(pop []member) [][]member {
	var feasible, infeasible []int
	for i, m := range pop {
		if m.feasible {
			feasible = append(feasible, i)
		} else {
			infeasible = append(infeasible, i)
		}
	}
	rank := make([]int, len(pop))
	levels := 0
	sortBy := func(idx []int, point func(member) []float64) {
		pts := make([][]float64, len(idx))
		for k, i := range idx {
			pts[k] = point(pop[i])
		}
		fs := pareto.Sort(pts)
		for r, f := range fs {
			for _, k := range f {
				rank[idx[k]] = levels + r
			}
		}
		levels += len(fs)
	}
	sortBy(feasible, func(m member) []float64 { return m.y })
	sortBy(infeasible, func(m member) []float64 { return []float64{m.violation} })
	rest := make([]int, len(pop)) // Optuna's list, as indices in pop
	for i := range rest {
		rest[i] = i
	}
	out := make([][]member, levels)
	for r := range out {
		for k := 0; k < len(rest); {
			if rank[rest[k]] != r {
				k++
				continue
			}
			out[r] = append(out[r], pop[rest[k]])
			rest[k] = rest[len(rest)-1]
			rest = rest[:len(rest)-1]
		}
	}
	return out
}

// crowding returns Optuna's crowding distance of each member of front,
// by History.Observed index (its _calc_crowding_distance, after Deb et
// al. 2002, §III-B), and leaves front in the order Optuna's leaves it:
// sorted stably by each objective in turn, in place, so that ties in the
// last objective keep the order of the one before. An objective in which
// every member is equal adds nothing, not even to the extremes; in the
// others the extremes get +∞ and each other member the gap between its
// neighbours over the range of the finite values. pareto.Crowding gives
// the extremes +∞ in every objective and sorts each objective from the
// front's order, so distances and their ties differ from Optuna's where
// values tie; hence Optuna's rule is written out here.
func crowding(front []member) map[int]float64 {
	d := make(map[int]float64, len(front))
	if len(front) == 0 {
		return d
	}
	n, inf := len(front), math.Inf(1)
	for m := range front[0].y {
		slices.SortStableFunc(front, func(a, b member) int { return cmp.Compare(a.y[m], b.y[m]) })
		v := func(k int) float64 { // the sorted values, −∞ before and +∞ after
			switch k {
			case 0:
				return -inf
			case n + 1:
				return inf
			}
			return front[k-1].y[m]
		}
		if v(1) == v(n) {
			continue
		}
		lo, hi := 1, n // the smallest and the largest finite values
		for v(lo) == -inf {
			lo++
		}
		for v(hi) == inf {
			hi--
		}
		width := v(hi) - v(lo)
		if width <= 0 {
			width = 1
		}
		for k := 1; k <= n; k++ {
			if v(k+1) != v(k-1) { // ∞ − ∞ is no gap
				d[front[k-1].obs] += (v(k+1) - v(k-1)) / width
			}
		}
	}
	return d
}

// crowdingSort sorts front by decreasing crowding distance as Optuna's
// _crowding_distance_sort does: a stable sort by increasing distance of
// the order crowding leaves, reversed, so that of tied members the one
// later in that order comes first.
func crowdingSort(front []member) {
	d := crowding(front)
	slices.SortStableFunc(front, func(a, b member) int { return cmp.Compare(d[a.obs], d[b.obs]) })
	slices.Reverse(front)
}

// elite is Optuna's _select_elite_population: the first n of pop by front
// and, in the front that does not fit whole, by crowding distance. A front
// that exactly fills the population is crowding-sorted too, as in Optuna,
// which changes the order of the parents, not who they are.
func elite(pop []member, n int) []member {
	out := make([]member, 0, n)
	for _, f := range fronts(pop) {
		if len(out)+len(f) < n {
			out = append(out, f...)
			continue
		}
		crowdingSort(f)
		return append(out, f[:n-len(out)]...)
	}
	return out
}
