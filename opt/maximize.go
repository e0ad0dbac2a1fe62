package opt

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/boaopt/boa/qmc"
)

// Domain describes the unit cube [0,1]^Dim over which an acquisition is
// maximised, possibly with discrete coordinates.
type Domain struct {
	Dim int
	// Free marks the coordinates refined by gradient steps (nil: all).
	// The others move only through Neighbours.
	Free []bool
	// Round snaps x to legal values in place (nil: identity). It must be
	// idempotent.
	Round func(x []float64)
	// Neighbours returns the discrete local-search moves from x (nil: none).
	// Moves of the wrong length are ignored; the others are clipped and
	// rounded like raw candidates.
	Neighbours func(x []float64) [][]float64
	// Candidates returns raw candidates (nil: n scrambled Sobol points drawn
	// with rng). It may return more or fewer than n, e.g. a full enumeration.
	Candidates func(n int, rng *rand.Rand) [][]float64
	// Lo and Hi bound the box searched, a trust region (nil: the unit
	// cube). The raw Sobol candidates are drawn in it; every point is
	// clipped to it.
	Lo, Hi []float64
	// Exclude reports points that must not be returned, e.g.
	// configurations already evaluated (nil: none). An excluded point may
	// still start a refinement: near a converged optimum the incumbent is
	// the best place to search from, though not a point to return.
	Exclude func(x []float64) bool
}

// MaximizeSettings controls Maximize. Zero fields take the library defaults
// of spec §6.1.
type MaximizeSettings struct {
	Candidates int         // raw candidates N_raw; default 2048
	Top        int         // distinct best raw candidates refined, m; default 5
	LocalIters int         // BoxLBFGS iterations per refinement; default 50
	Starts     [][]float64 // extra raw candidates: incumbents, previous proposals
	// Batch, if set, writes f(X[i], nil) into values[i] for every row of X
	// in one call (e.g. acq.EvalBatch), and Maximize makes all its
	// evaluations without a gradient through it: the raw candidates, the
	// local-search moves, the rounded end of each gradient run. It must
	// give the values f gives, or the result depends on the path taken.
	Batch func(X [][]float64, values []float64)
}

const (
	// maxRounds bounds the alternation of gradient refinement and discrete
	// local search for one start.
	maxRounds = 10
	// maxMoves bounds the best-improvement moves of one local search.
	maxMoves = 100
)

// point is a rounded point with a finite value.
type point struct {
	x        []float64
	v        float64
	excluded bool
}

// Maximize maximises f over the domain by sample-then-refine (spec §6.1):
//
//  1. Score the raw candidates (d.Candidates, or scrambled Sobol points from
//     rng) and s.Starts, each clipped to [0,1] and rounded, with f(x, nil)
//     or s.Batch; non-finite values are skipped.
//  2. Take the s.Top best distinct ones (excluded ones included).
//  3. Refine each by alternating BoxLBFGS on the Free coordinates (the others
//     fixed, at most s.LocalIters iterations, on −f), Round and a
//     re-evaluation, and best-improvement local search over Neighbours until
//     no move improves; the alternation repeats after a discrete move, for at
//     most 10 rounds. With no Free coordinate no gradient step is taken.
//  4. Return the best point seen that is not excluded; ties go to the
//     earlier start, that is to the higher raw score.
//
// Result.F is the maximum found (not negated); Iterations counts BoxLBFGS
// iterations plus accepted discrete moves. The result is deterministic given
// rng. Maximize returns an error if the domain is malformed, a candidate has
// the wrong dimension, rng is nil, or every candidate is excluded or has a
// non-finite value.
func Maximize(f Objective, d Domain, s MaximizeSettings, rng *rand.Rand) (Result, error) {
	if d.Dim < 1 {
		return Result{}, fmt.Errorf("opt: Maximize: domain dimension %d, want at least 1", d.Dim)
	}
	if d.Free != nil && len(d.Free) != d.Dim {
		return Result{}, fmt.Errorf("opt: Maximize: len(Free) = %d, domain dimension %d", len(d.Free), d.Dim)
	}
	if (d.Lo != nil || d.Hi != nil) && (len(d.Lo) != d.Dim || len(d.Hi) != d.Dim) {
		return Result{}, fmt.Errorf("opt: Maximize: box of %d and %d bounds, domain dimension %d", len(d.Lo), len(d.Hi), d.Dim)
	}
	for j := range d.Lo {
		if !(0 <= d.Lo[j] && d.Lo[j] <= d.Hi[j] && d.Hi[j] <= 1) {
			return Result{}, fmt.Errorf("opt: Maximize: box [%v, %v] on coordinate %d is not within [0, 1]", d.Lo[j], d.Hi[j], j)
		}
	}
	if rng == nil {
		return Result{}, errors.New("opt: Maximize needs a random source (rng is nil)")
	}
	if s.Candidates <= 0 {
		s.Candidates = 2048
	}
	if s.Top <= 0 {
		s.Top = 5
	}
	if s.LocalIters <= 0 {
		s.LocalIters = 50
	}
	m := &maximizer{f: f, d: d, s: s}
	m.free = m.freeIndices()

	var raw [][]float64
	if d.Candidates != nil {
		raw = d.Candidates(s.Candidates, rng)
	} else {
		raw = qmc.SobolPoints(s.Candidates, d.Dim, rng)
		if d.Lo != nil {
			for _, c := range raw {
				for j := range c {
					c[j] = d.Lo[j] + (d.Hi[j]-d.Lo[j])*c[j]
				}
			}
		}
	}
	nRaw := len(raw)
	raw = append(raw[:nRaw:nRaw], s.Starts...)
	xs := make([][]float64, len(raw))
	flat := make([]float64, len(raw)*d.Dim) // one allocation for all copies
	for i, c := range raw {
		if len(c) != d.Dim {
			what := "raw candidate"
			if i >= nRaw {
				what, i = "start", i-nRaw
			}
			return Result{}, fmt.Errorf("opt: Maximize: %s %d has %d coordinates, domain has %d", what, i, len(c), d.Dim)
		}
		xs[i] = flat[i*d.Dim : (i+1)*d.Dim : (i+1)*d.Dim]
		copy(xs[i], c)
	}
	scored := m.legal(xs...)
	slices.SortStableFunc(scored, func(a, b point) int { return cmp.Compare(b.v, a.v) })

	best := point{v: math.Inf(-1)}
	if i := slices.IndexFunc(scored, func(p point) bool { return !p.excluded }); i >= 0 {
		best = scored[i]
	}
	res := Result{Status: StatusRaw}
	var starts []point
	for _, p := range scored {
		if len(starts) == s.Top {
			break
		}
		if !slices.ContainsFunc(starts, func(q point) bool { return slices.Equal(p.x, q.x) }) {
			starts = append(starts, p)
		}
	}
	for _, p := range starts {
		if r := m.refine(p); r.v > best.v {
			best = r
			res.Status = StatusRefined
		}
	}
	if best.x == nil {
		return Result{}, fmt.Errorf("opt: Maximize: all %d candidates and their refinements are excluded or have a non-finite objective", len(raw))
	}
	res.X, res.F = best.x, best.v
	res.Iterations, res.Evaluations = m.iters, m.evals
	return res, nil
}

// maximizer holds the state shared by the steps of one Maximize call.
type maximizer struct {
	f            Objective
	d            Domain
	s            MaximizeSettings
	free         []int // indices of the Free coordinates
	iters, evals int
}

func (m *maximizer) freeIndices() []int {
	var idx []int
	for i := range m.d.Dim {
		if m.d.Free == nil || m.d.Free[i] {
			idx = append(idx, i)
		}
	}
	return idx
}

// bounds returns the box's bounds on coordinate j.
func (m *maximizer) bounds(j int) (lo, hi float64) {
	if m.d.Lo == nil {
		return 0, 1
	}
	return m.d.Lo[j], m.d.Hi[j]
}

// legal clips each x to the box, rounds it in place and scores it (with
// s.Batch when set); it returns the points with a finite value, in order.
func (m *maximizer) legal(xs ...[]float64) []point {
	for _, x := range xs {
		for j := range x {
			lo, hi := m.bounds(j)
			x[j] = math.Min(math.Max(x[j], lo), hi)
		}
		if m.d.Round != nil {
			m.d.Round(x)
		}
	}
	m.evals += len(xs)
	values := make([]float64, len(xs))
	if m.s.Batch != nil {
		m.s.Batch(xs, values)
	} else {
		for i, x := range xs {
			values[i] = m.f(x, nil)
		}
	}
	ps := make([]point, 0, len(xs))
	for i, x := range xs {
		if finite(values[i]) {
			ps = append(ps, point{x, values[i], m.d.Exclude != nil && m.d.Exclude(x)})
		}
	}
	return ps
}

// refine improves a start by alternating gradient steps on the free
// coordinates and discrete local search. The walk may start at an excluded
// point but never moves to one; refine returns the best point that is not
// excluded (v = −Inf if it never left an excluded start).
func (m *maximizer) refine(cur point) point {
	for range maxRounds {
		if len(m.free) > 0 {
			if p, ok := m.gradientStep(cur); ok && better(p, cur) {
				cur = p
			}
		}
		var moved bool
		cur, moved = m.localSearch(cur)
		if !moved || len(m.free) == 0 {
			break
		}
	}
	if cur.excluded {
		return point{v: math.Inf(-1)}
	}
	return cur
}

// better reports whether the walk should move from cur to p: never onto an
// excluded point, always off one, else uphill.
func better(p, cur point) bool {
	return !p.excluded && (cur.excluded || p.v > cur.v)
}

// gradientStep runs BoxLBFGS on −f over the free coordinates of cur within
// the box, then rounds and re-evaluates the result.
func (m *maximizer) gradientStep(cur point) (point, bool) {
	x := slices.Clone(cur.x)
	full := make([]float64, m.d.Dim)
	neg := func(z, gz []float64) float64 {
		for k, i := range m.free {
			x[i] = z[k]
		}
		if gz == nil {
			return -m.f(x, nil)
		}
		v := m.f(x, full)
		for k, i := range m.free {
			gz[k] = -full[i]
		}
		return -v
	}
	z0 := make([]float64, len(m.free))
	lo, hi := make([]float64, len(m.free)), make([]float64, len(m.free))
	for k, i := range m.free {
		z0[k] = cur.x[i]
		lo[k], hi[k] = m.bounds(i)
	}
	r := BoxLBFGS(neg, z0, lo, hi, LBFGSSettings{MaxIter: m.s.LocalIters})
	m.iters += r.Iterations
	m.evals += r.Evaluations
	for k, i := range m.free {
		x[i] = r.X[k]
	}
	if ps := m.legal(x); len(ps) == 1 {
		return ps[0], true
	}
	return point{}, false
}

// localSearch moves to the best neighbour while that is better (see
// better).
func (m *maximizer) localSearch(cur point) (point, bool) {
	if m.d.Neighbours == nil {
		return cur, false
	}
	moved := false
	for range maxMoves {
		var moves [][]float64
		for _, nb := range m.d.Neighbours(cur.x) {
			if len(nb) == m.d.Dim {
				moves = append(moves, slices.Clone(nb))
			}
		}
		var next *point
		for _, p := range m.legal(moves...) {
			if better(p, cur) && (next == nil || p.v > next.v) {
				next = &p
			}
		}
		if next == nil {
			break
		}
		cur, moved = *next, true
		m.iters++
	}
	return cur, moved
}
