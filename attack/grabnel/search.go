package grabnel

import (
	"cmp"
	"math"
	"slices"

	"github.com/boaopt/boa/attack"
	"gonum.org/v1/gonum/stat/distuv"
)

// GRABNEL's settings (spec §2.4–2.5).
const (
	nInit      = 5   // random single flips at the start of every stage
	batch      = 5   // candidates queried per surrogate fit
	gaPop      = 100 // the genetic optimiser's population
	gaTop      = 3   // parents of the initial population: the top-3 queried graphs
	gaCycles   = 10  // evolution cycles …
	gaChildren = 100 // … of this many offspring each
	gaTourney  = 3   // tournament size of parent selection (Decision)
)

// exhaustiveMax is the largest number of candidates on which EI is
// evaluated exhaustively; above it the genetic optimiser runs (spec §2.4,
// Decision). A variable so the tests can reach the optimiser on small
// graphs.
var exhaustiveMax = 5000

// observed is one queried graph and its loss.
type observed struct {
	g    attack.Graph
	pair [2]int // the flip of the stage's base that made it
	y    float64
}

// grabnel is Alg. 10 of [000 §6.6] with the spec's Corrections: the budget
// in S = min(Δ, B) stages of B/S queries (the last stage takes what is
// left); each stage starts with min(5, stage budget) random admissible
// single flips of G_base, then fits the surrogate on every graph observed
// so far and queries the batch of 5 single flips of G_base with the
// largest EI, refitting after each batch. At the stage's end G_base
// becomes the stage's best graph if it has a larger loss, else it stays
// (Correction); so each stage commits at most one flip and the result is
// at most Δ flips from the origin.
func (s *search) grabnel() error {
	stages := min(s.delta, s.o.Left())
	per := s.o.Left() / stages
	var all []observed
	seen := map[uint64]bool{}
	base, baseLoss := s.origin, math.Inf(-1) // the origin is not queried
	for stage := range stages {
		if s.o.Done() {
			break
		}
		quota := per
		if stage == stages-1 {
			quota = s.o.Left()
		}
		baseKey := graphHash(base)
		var fresh [][2]int // admissible flips of base not yet queried
		for _, p := range s.pairs(base) {
			if !seen[baseKey^pairHash(base.N, p[0], p[1])] {
				fresh = append(fresh, p)
			}
		}
		var mine []observed // this stage's queries
		ask := func(p [2]int) error {
			g := base.Flip(p[0], p[1])
			y, err := s.o.Ask(g)
			if err != nil {
				return err
			}
			seen[baseKey^pairHash(base.N, p[0], p[1])] = true
			fresh = slices.DeleteFunc(fresh, func(q [2]int) bool { return q == p })
			ob := observed{g: g, pair: p, y: y}
			all, mine = append(all, ob), append(mine, ob)
			return nil
		}
		for range min(nInit, quota, len(fresh)) {
			if err := ask(fresh[s.rng.IntN(len(fresh))]); err != nil {
				return err
			}
		}
		for len(mine) < quota && len(fresh) > 0 {
			for _, p := range s.propose(all, mine, base, fresh) {
				if len(mine) == quota {
					break
				}
				if err := ask(p); err != nil {
					return err
				}
			}
		}
		if len(mine) == 0 {
			continue
		}
		best := slices.MaxFunc(mine, func(a, b observed) int { return cmp.Compare(a.y, b.y) })
		if best.y > baseLoss {
			base, baseLoss = best.g, best.y
		}
	}
	return nil
}

// propose fits the surrogate on all observations and returns up to batch
// unique flips of base among fresh, by EI from the largest: EI of every
// candidate when there are at most exhaustiveMax, else of those the
// genetic optimiser visits (spec §2.4).
func (s *search) propose(all, mine []observed, base attack.Graph, fresh [][2]int) [][2]int {
	train := make([]attack.Graph, len(all))
	ys := make([]float64, len(all))
	for i, ob := range all {
		train[i], ys[i] = ob.g, ob.y
	}
	f, rows := newFeaturizer(train)
	z := standardise(ys)
	model := fitARD(rows, z)
	incumbent := slices.Max(z)
	ei := func(p [2]int) float64 {
		m, v := model.predict(f.vector(base.Flip(p[0], p[1])))
		return expectedImprovement(m, math.Sqrt(v), incumbent)
	}

	type scored struct {
		p  [2]int
		ei float64
	}
	var ranked []scored
	if len(fresh) <= exhaustiveMax {
		ranked = make([]scored, len(fresh))
		for i, p := range fresh {
			ranked[i] = scored{p, ei(p)}
		}
	} else {
		for p, a := range s.evolve(mine, fresh, ei) {
			ranked = append(ranked, scored{p, a})
		}
	}
	// By EI from the largest; ties (as where the surrogate has pruned
	// every feature) in random order: shuffled from pair order, so that
	// the seed decides.
	slices.SortFunc(ranked, func(a, b scored) int { return attack.CompareEdges(a.p, b.p) })
	s.rng.Shuffle(len(ranked), func(i, j int) { ranked[i], ranked[j] = ranked[j], ranked[i] })
	slices.SortStableFunc(ranked, func(a, b scored) int { return cmp.Compare(b.ei, a.ei) })
	out := make([][2]int, 0, batch)
	for _, r := range ranked[:min(batch, len(ranked))] {
		out = append(out, r.p)
	}
	return out
}

var normal = distuv.UnitNormal

// expectedImprovement is EI for maximisation at a posterior N(mean, sd²)
// over the incumbent, ξ = 0 (spec §2.4).
func expectedImprovement(mean, sd, incumbent float64) float64 {
	d := mean - incumbent
	if !(sd > 0) {
		return max(d, 0)
	}
	u := d / sd
	return d*normal.CDF(u) + sd*normal.Prob(u)
}

// evolve is the genetic acquisition optimiser (spec §2.4, Decisions) over
// single flips of the base: a population of 100 pairs, half mutations of
// the pairs of the stage's top-3 queried graphs, half uniformly random
// candidates; then 10 cycles of 100 offspring, each a mutation of the
// winner of a tournament of 3 on EI, the oldest member leaving as each
// child joins (ageing). It returns every candidate it evaluated with its
// EI. fresh are the admissible unqueried flips, more than exhaustiveMax.
func (s *search) evolve(mine []observed, fresh [][2]int, ei func([2]int) float64) map[[2]int]float64 {
	ok := make(map[[2]int]bool, len(fresh))
	for _, p := range fresh {
		ok[p] = true
	}
	seen := map[[2]int]float64{}
	score := func(p [2]int) float64 {
		a, done := seen[p]
		if !done {
			a = ei(p)
			seen[p] = a
		}
		return a
	}
	n := s.origin.N
	random := func() [2]int { return fresh[s.rng.IntN(len(fresh))] }
	// mutate replaces one endpoint of p by a random node with probability
	// 0.5, else draws a uniformly random candidate; a replacement that is
	// not a candidate is redrawn at random.
	mutate := func(p [2]int) [2]int {
		if s.rng.IntN(2) == 0 {
			return random()
		}
		w := s.rng.IntN(n)
		keep := p[s.rng.IntN(2)]
		q := [2]int{min(keep, w), max(keep, w)}
		if !ok[q] {
			return random()
		}
		return q
	}
	top := slices.Clone(mine)
	slices.SortStableFunc(top, func(a, b observed) int { return cmp.Compare(b.y, a.y) })
	top = top[:min(gaTop, len(top))]
	pop := make([][2]int, 0, gaPop)
	for i := range gaPop {
		if i < gaPop/2 && len(top) > 0 {
			pop = append(pop, mutate(top[i%len(top)].pair))
		} else {
			pop = append(pop, random())
		}
		score(pop[i])
	}
	for range gaCycles * gaChildren {
		parent := pop[s.rng.IntN(len(pop))]
		for range gaTourney - 1 {
			if q := pop[s.rng.IntN(len(pop))]; score(q) > score(parent) {
				parent = q
			}
		}
		child := mutate(parent)
		score(child)
		pop = append(pop[1:], child)
	}
	return seen
}
