package nasbowl

import (
	"context"
	"errors"
	"math/rand/v2"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
)

// Thesis 001's search settings [001 §4.3, §5.2–5.3; nas-graph-bo.md §5.1,
// §5.3, §8].
const (
	graphLCBCandidates = 3000 // candidates per iteration [001 §5.2]
	graphLCBHybrid     = 0.25 // ξ of hybrid sampling: the share of uniform candidates [001 Eq. 4.3]
	graphLCBKappa      = 2    // LCB μ − κσ; κ is not given (spec §5.1 Decision)
)

// GraphLCB is the Bayesian optimisation of thesis 001 (§4.2–4.4, the
// `001-bo-*` baselines of nas-graph-bo.md §8): a GP on a graph kernel (WL,
// edge or GCN, the same models as NASBOWL), and at each step the
// candidate of lowest μ − 2σ among 3000 drawn by hybrid sampling: each
// uniform with probability 0.25, else the best cell so far with one edge's
// operation changed (Eq. 4.2–4.3). The first 10 cells are uniform (001
// does not say; spec §9.4 Decision). 001 fits the validation error × 10;
// the GP here, as NASBOWL's, fits its log (the factor goes in the
// standardisation either way).
type GraphLCB struct {
	model *NASBOWL // its GP; only its Kernel is set
}

// NewGraphLCB returns thesis 001's search with the graph kernel kernel
// (GraphKernelWL, GraphKernelEdge or GraphKernelGCN).
func NewGraphLCB(kernel string) *GraphLCB { return &GraphLCB{model: &NASBOWL{Kernel: kernel}} }

func (g *GraphLCB) Name() string {
	if g.model.Kernel == GraphKernelWL {
		return "graph-lcb-wl"
	}
	return "graph-lcb-" + g.model.Kernel
}

// CheckSpace refuses spaces that are not architecture cells.
func (*GraphLCB) CheckSpace(sp *space.Space) error {
	_, err := cellOf(sp)
	return err
}

// Designing is true while the 10 uniform cells are proposed.
func (*GraphLCB) Designing(h *sampler.History) bool {
	return bo.InDesign(len(h.Observed), len(h.Pending), nasbowlInit)
}

func (g *GraphLCB) Suggest(_ context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	c, err := cellOf(h.Space)
	if err != nil {
		return nil, err
	}
	seen := bo.Seen(h)
	if g.Designing(h) {
		return randomCells(h, c, seen, 1, rng)[0], nil
	}
	pool := hybridPool(h, c, seen, rng)
	m, err := g.model.fit(h, c, pool)
	if errors.Is(err, errNoGraphs) || len(pool) == 0 {
		return randomCells(h, c, seen, 1, rng)[0], nil
	} else if err != nil {
		return nil, err
	}
	// The lowest μ − κσ is the highest κσ − μ.
	score := m.score(len(pool), acq.LCB{Kappa: graphLCBKappa})
	best := 0
	for i, v := range score {
		if v > score[best] {
			best = i
		}
	}
	return pool[best], nil
}

// hybridPool draws up to 3000 distinct untried cells with graphs, each
// uniform with probability ξ = 0.25 and otherwise a one-edge change of the
// best completed cell [001 Eq. 4.3]. A cell has few one-edge neighbours
// (24 on NB201), so most of those draws repeat and the pool is mostly
// uniform.
func hybridPool(h *sampler.History, c cell, seen map[string]bool, rng *rand.Rand) [][]float64 {
	incumbent := h.Observed[bo.BestIndex(h.Observed)].X
	near := h.Space.Neighbours(incumbent)
	in := map[string]bool{}
	var out [][]float64
	for range 2 * graphLCBCandidates {
		u := c.random(rng)
		if rng.Float64() > graphLCBHybrid && len(near) > 0 {
			u = near[rng.IntN(len(near))]
		}
		key := h.Space.Key(u)
		if seen[key] || in[key] {
			continue
		}
		if _, err := c.graph(u); err != nil {
			continue
		}
		in[key] = true
		out = append(out, u)
		if len(out) == graphLCBCandidates {
			break
		}
	}
	return out
}
