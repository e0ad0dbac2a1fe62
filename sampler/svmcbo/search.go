package svmcbo

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/boaopt/boa/opt"
	"github.com/boaopt/boa/qmc"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
)

func (c *CBO) candidates() int { return bo.OrDefault(c.Candidates, DefaultCandidates) }

// explore returns phase 1's point (Eq. 6.2): the untried minimiser of the
// boundary term plus the coverage. On a box, by L-BFGS with the analytic
// gradient from 30 Latin-hypercube starts, 100 iterations each, keeping
// the best local minimum (the code's L-BFGS-B); elsewhere by sampling and
// local search (discreteSearch).
func (c *CBO) explore(ctx context.Context, h *sampler.History, b *boundary, rng *rand.Rand) []float64 {
	a := c.newPhase1(h, b)
	sp := h.Space
	excluded := bo.Excluded(h)
	untried := func(u []float64) bool { return !excluded(u) }
	if continuous(sp) {
		d := sp.Len()
		lo, hi := make([]float64, d), slices.Repeat([]float64{1}, d)
		var best []float64
		bestF := math.Inf(1)
		for _, x0 := range qmc.LatinHypercube(phase1Starts, d, rng, 1) {
			if ctx.Err() != nil {
				break
			}
			r := opt.BoxLBFGS(a.eval, x0, lo, hi, opt.LBFGSSettings{MaxIter: phase1Iter})
			if r.F < bestF && untried(r.X) {
				best, bestF = r.X, r.F
			}
		}
		if best != nil {
			return best
		}
		return bo.UntriedPoint(h, rng)
	}
	score := func(U [][]float64) []float64 {
		v := make([]float64, len(U))
		for i, u := range U {
			v[i] = a.eval(encode(sp, u), nil)
		}
		return v
	}
	if u := c.discreteSearch(sp, score, untried, rng); u != nil {
		return u
	}
	return bo.UntriedPoint(h, rng)
}

// optimise returns phase 2's point (Eq. 6.4): the untried minimiser of the
// LCB inside Ω̃, by focus search on a box and by sampling and local search
// elsewhere. When neither finds an untried point of Ω̃, it returns the
// point closest to Ω̃ it can find (closest).
func (c *CBO) optimise(ctx context.Context, h *sampler.History, b *boundary, m *surrogate, rng *rand.Rand) []float64 {
	sp := h.Space
	excluded := bo.Excluded(h)
	keep := func(u []float64) bool { return !excluded(u) && b.feasible(encode(sp, u)) }
	var u []float64
	if continuous(sp) {
		// A random point of a box is never one tried before, so only the
		// winner is checked: a key for each of 150,000 candidates was most
		// of a suggestion's time.
		u = c.focus(ctx, sp.Len(), func(x []float64) bool { return b.feasible(x) && h.Admits(x) }, m.lcb, rng)
		if u != nil && excluded(u) {
			u = nil
		}
	} else {
		u = c.discreteSearch(sp, m.lcb, keep, rng)
	}
	if u != nil {
		return u
	}
	return c.closest(h, b, m, keep, rng)
}

// focus is the code's focus search (spec §3.4): restarts × focusIters
// iterations, each drawing Candidates Latin-hypercube points in the
// current box, keeping those keep accepts, taking the LCB's argmin x* and
// shrinking the box to x* ± 0.25·(its range); the best point over all
// wins, nil when none was kept. In code_compat the points are always
// drawn in the unit box, so the shrink never applies (the code's bug),
// and a restart returns its last iteration's point, as the code's does:
// only that iteration is drawn.
func (c *CBO) focus(ctx context.Context, d int, keep func([]float64) bool, score func([][]float64) []float64, rng *rand.Rand) []float64 {
	iters := focusIters
	if c.CodeCompat {
		iters = 1
	}
	var best []float64
	bestV := math.Inf(1)
	for range restarts {
		lo, hi := make([]float64, d), slices.Repeat([]float64{1}, d)
		for range iters {
			if ctx.Err() != nil {
				return best
			}
			var pts [][]float64
			for _, x := range qmc.LatinHypercube(c.candidates(), d, rng, 1) {
				for j := range x {
					x[j] = lo[j] + x[j]*(hi[j]-lo[j])
				}
				if keep(x) {
					pts = append(pts, x)
				}
			}
			if len(pts) == 0 {
				break
			}
			v := score(pts)
			i := argmin(v)
			if v[i] < bestV {
				best, bestV = pts[i], v[i]
			}
			for j, xj := range pts[i] {
				r := shrink * (hi[j] - lo[j])
				lo[j], hi[j] = max(lo[j], xj-r), min(hi[j], xj+r)
			}
		}
	}
	return best
}

// discreteSearch minimises score over the configurations of sp that keep
// accepts (spec §3.4, Decision for discrete and mixed spaces): it scores
// Candidates random configurations, or every configuration of a discrete
// space that has no more, then searches locally from the restarts best:
// it moves to the best kept neighbour (one ordinal step, one other
// category) while that strictly improves, at most localSteps times. It
// returns nil when no configuration is kept.
func (c *CBO) discreteSearch(sp *space.Space, score func([][]float64) []float64, keep func([]float64) bool, rng *rand.Rand) []float64 {
	var pts [][]float64
	all, ok := [][]float64(nil), false
	if !slices.ContainsFunc(sp.Params(), func(p space.Param) bool { return p.Kind == space.Float }) {
		all, ok = sp.Enumerate(c.candidates())
	}
	if !ok {
		all = make([][]float64, c.candidates())
		for i := range all {
			all[i] = sp.Sample(rng)
		}
	}
	for _, u := range all {
		if keep(u) {
			pts = append(pts, u)
		}
	}
	if len(pts) == 0 {
		return nil
	}
	v := score(pts)
	order := make([]int, len(pts))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	var best []float64
	bestV := math.Inf(1)
	for _, i := range order[:min(restarts, len(order))] {
		u, vu := pts[i], v[i]
		for range localSteps {
			var nb [][]float64
			for _, w := range sp.Neighbours(u) {
				sp.Round(w)
				if keep(w) {
					nb = append(nb, w)
				}
			}
			if len(nb) == 0 {
				break
			}
			vn := score(nb)
			k := argmin(vn)
			if vn[k] >= vu {
				break
			}
			u, vu = nb[k], vn[k]
		}
		if vu < bestV {
			best, bestV = u, vu
		}
	}
	return best
}

// closest is phase 2's point when the search found no untried point of Ω̃
// (a small or thin region, or every point of it tried): as the code does,
// Candidates fresh random points, the LCB's argmin among those in Ω̃; with
// none there, the code takes an arbitrary point (its last), the default
// the untried point of largest margin d, on a box climbed further by
// L-BFGS on −d, so that a region the sampling missed is still reached.
func (c *CBO) closest(h *sampler.History, b *boundary, m *surrogate, keep func([]float64) bool, rng *rand.Rand) []float64 {
	sp := h.Space
	excluded := bo.Excluded(h)
	var in, out [][]float64
	for range c.candidates() {
		u := sp.Sample(rng)
		switch {
		case keep(u):
			in = append(in, u)
		case !excluded(u):
			out = append(out, u)
		}
	}
	if len(in) > 0 {
		return in[argmin(m.lcb(in))]
	}
	if len(out) == 0 {
		return bo.UntriedPoint(h, rng)
	}
	if c.CodeCompat {
		return out[len(out)-1]
	}
	neg := make([]float64, len(out))
	for i, u := range out {
		neg[i] = -b.margin(encode(sp, u))
	}
	u := out[argmin(neg)]
	if continuous(sp) && b.m != nil { // margin = d outside code_compat
		d := sp.Len()
		negD := func(x, grad []float64) float64 {
			if grad == nil {
				return -b.m.Decision(x)
			}
			v := b.m.Gradient(x, grad)
			for j := range grad {
				grad[j] = -grad[j]
			}
			return -v
		}
		r := opt.BoxLBFGS(negD, u, make([]float64, d), slices.Repeat([]float64{1}, d), opt.LBFGSSettings{MaxIter: phase1Iter})
		if !excluded(r.X) {
			u = r.X
		}
	}
	return u
}

// argmin returns the index of the smallest value, the first of equal ones.
func argmin(v []float64) int {
	i := 0
	for k, x := range v {
		if x < v[i] {
			i = k
		}
	}
	return i
}
