package nasbowl

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
)

// LocalSearch is local search as the NAS baseline of White et al. (2020)
// runs it [nas-graph-bo.md §8; thesis 001 Table 5.1]: from a random
// configuration, evaluate its untried neighbours (one parameter changed:
// Space.Neighbours) in random order, move to the first that is better,
// and at a local optimum, where every neighbour has been tried, restart
// from a random configuration.
//
// It keeps no state: the walk is replayed from the completed trials in
// order. A trial that is not a neighbour of the walk's current
// configuration is a restart, and becomes the current one; a neighbour
// that is better becomes the current one. Running trials count as tried,
// so parallel workers take different neighbours.
type LocalSearch struct{}

func (LocalSearch) Name() string { return "ls" }

// CheckSpace refuses spaces with a float parameter, which has no
// neighbours to step to.
func (LocalSearch) CheckSpace(sp *space.Space) error {
	for i := range sp.Len() {
		if sp.Continuous(i) {
			return fmt.Errorf("ls (local search) needs discrete parameters; %q is a float", sp.Param(i).Name)
		}
	}
	return nil
}

// Designing is true for the first configuration of the first walk.
func (LocalSearch) Designing(h *sampler.History) bool { return len(h.Observed) == 0 }

func (l LocalSearch) Suggest(_ context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	if l.Designing(h) {
		return bo.UntriedPoint(h, rng), nil
	}
	sp := h.Space
	cur := h.Observed[0]
	near := neighbourKeys(sp, cur.X)
	for _, o := range h.Observed[1:] {
		switch {
		case !near[sp.Key(o.X)]: // a restart
			cur, near = o, neighbourKeys(sp, o.X)
		case o.Y < cur.Y:
			cur, near = o, neighbourKeys(sp, o.X)
		}
	}
	seen := bo.Seen(h)
	var open [][]float64
	for _, v := range sp.Neighbours(cur.X) {
		if !seen[sp.Key(v)] {
			open = append(open, v)
		}
	}
	if len(open) == 0 { // a local optimum: restart
		return bo.UntriedPoint(h, rng), nil
	}
	return open[rng.IntN(len(open))], nil
}

// neighbourKeys returns the keys of u's neighbours.
func neighbourKeys(sp *space.Space, u []float64) map[string]bool {
	keys := map[string]bool{}
	for _, v := range sp.Neighbours(u) {
		keys[sp.Key(v)] = true
	}
	return keys
}
