package tpe

import (
	"cmp"
	"math"
	"slices"

	"github.com/boaopt/boa/sampler"
)

// split returns the points that form l (below) and g (above), each in the
// trials' order, as Optuna 3.1's _get_observation_pairs and
// _split_observation_pairs do for one objective:
//
//   - The trials ranked are the completed ones, by value, then the pruned
//     ones, then (ConstantLiar) the running ones, whose value counts as
//     +∞. Optuna ranks a pruned trial by its last reported step and value;
//     History has no intermediate values, so the pruned keep their order,
//     as Optuna's do when they reported none.
//   - The best nGood(n) of them form l, n counting the completed and
//     pruned trials (not the running ones).
//   - In a constrained study (History.Constraints), as with Optuna's
//     constraints_func: when at least nGood(n)+1 trials are feasible, l is
//     the best nGood(n) feasible ones, and the infeasible ones join g;
//     otherwise l is the feasible trials and the least infeasible ones, by
//     the sum of their positive slacks (the pruned and running ones, which
//     have none, last).
//   - The failed trials join g, last: boa's choice, where Optuna leaves
//     them out (type TPE).
//
// Order matters for the weights (weights): within l and g the trials keep
// the order of History, the completed ones first, then the pruned, the
// failed and the running ones; Optuna's is the trials' numbers, which
// History does not carry.
func (t *TPE) split(h *sampler.History) (below, above [][]float64) {
	type entry struct {
		x          []float64
		tier, y, v float64 // rank by (tier, y); v: constraint violation
	}
	es := make([]entry, 0, len(h.Observed)+len(h.Pruned)+len(h.Pending))
	constrained := len(h.Constraints) > 0
	for _, o := range h.Observed {
		e := entry{x: o.X, tier: math.Inf(-1), y: o.Y}
		if constrained && o.Infeasible {
			for _, s := range o.Slack {
				if s > 0 {
					e.v += s
				}
			}
			if e.v == 0 {
				e.v = math.Inf(1) // infeasible without a slack that says by how much
			}
		}
		es = append(es, e)
	}
	for _, u := range h.Pruned {
		es = append(es, entry{x: u, tier: 1, v: math.Inf(1)})
	}
	if t.ConstantLiar {
		for _, u := range h.Pending {
			es = append(es, entry{x: u, tier: math.Inf(1), y: math.Inf(1), v: math.Inf(1)})
		}
	}
	nb := min(t.nGood(len(h.Observed)+len(h.Pruned)), len(es))
	byValue := func(a, b int) int {
		return cmp.Or(cmp.Compare(es[a].tier, es[b].tier), cmp.Compare(es[a].y, es[b].y))
	}
	all := make([]int, len(es))
	for k := range all {
		all[k] = k
	}
	// Only which trials are the best nb matters (l and g each keep the
	// trials' order), so they are selected, not every trial ranked.
	var good []int
	if !constrained {
		good = smallest(all, nb, byValue)
	} else {
		byViolation := func(a, b int) int { return cmp.Compare(es[a].v, es[b].v) }
		rank := smallest(all, nb+1, byViolation)
		if nb >= len(rank) || es[rank[nb]].v > 0 {
			good = rank[:nb]
		} else {
			var feasible []int
			for k, e := range es {
				if e.v == 0 {
					feasible = append(feasible, k)
				}
			}
			good = smallest(feasible, nb, byValue)
		}
	}
	slices.Sort(good)
	below = make([][]float64, 0, len(good))
	above = make([][]float64, 0, len(es)-len(good)+len(h.Failed))
	next := 0 // in good
	for k := range es {
		if next < len(good) && good[next] == k {
			below = append(below, es[k].x)
			next++
		} else {
			above = append(above, es[k].x)
		}
	}
	return below, append(above, h.Failed...)
}

// smallest returns the n first of idx, which is increasing, in the order
// of a stable sort by f (by f, then by index), or all of idx when it has
// fewer: an insertion into the n best so far, which for the default n
// ≤ 25 costs a fraction of sorting 20,000 trials.
func smallest(idx []int, n int, f func(a, b int) int) []int {
	by := func(a, b int) int { return cmp.Or(f(a, b), cmp.Compare(a, b)) }
	if n >= len(idx) || n > 64 {
		s := slices.Clone(idx)
		slices.SortFunc(s, by)
		return s[:min(n, len(s))]
	}
	best := make([]int, 0, n+1)
	for _, k := range idx {
		if len(best) == n && (n == 0 || by(k, best[n-1]) > 0) {
			continue
		}
		r, _ := slices.BinarySearchFunc(best, k, by)
		best = slices.Insert(best, r, k)
		if len(best) > n {
			best = best[:n]
		}
	}
	return best
}

// nGood is the number of the n trials that form l: ⌈Gamma·n⌉, or by
// default Optuna's default_gamma, min(⌈n/10⌉, 25); at least one.
func (t *TPE) nGood(n int) int {
	if t.Gamma > 0 && t.Gamma < 1 {
		return max(int(math.Ceil(t.Gamma*float64(n))), 1)
	}
	return min(max(int(math.Ceil(0.1*float64(n))), 1), 25)
}

// weights is Optuna's default_weights for n points in the trials' order:
// 1 each up to 25 points; beyond, the newest 25 weigh 1 and the older
// n − 25 rise linearly from 1/n (numpy.linspace(1/n, 1, n − 25)), so that
// the oldest trials, far from where the search now is, count less.
func weights(n int) []float64 {
	w := make([]float64, n)
	for k := range w {
		w[k] = 1
	}
	if n < 25 {
		return w
	}
	num, start := n-25, 1/float64(n)
	if num == 1 {
		w[0] = start
		return w
	}
	step := (1 - start) / float64(num-1)
	for k := range num - 1 {
		w[k] = float64(k)*step + start
	}
	return w // w[num−1] is linspace's stop, 1
}
