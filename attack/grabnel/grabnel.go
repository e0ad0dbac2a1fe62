package grabnel

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/boaopt/boa/attack"
)

// Config sets up an attack.
type Config struct {
	Method string // one of Methods(): "grabnel" (default), "random", "genetic"
	// Budget is the query budget B; 0: 50Δ capped at 20,000 (spec §2.5).
	Budget int
	// Delta is the perturbation budget Δ, in edge flips; 0: max(1,
	// round(0.03·N²)) (spec §2.5), or, when only Budget is given,
	// max(1, min(round(0.03·N²), Budget/50)).
	Delta int
	// TwoHop admits an added edge (u, v) only when v is within 2 hops of u
	// in the original graph; removals are always admitted (spec §2.4,
	// Fig. 6.7's 2-hop scenario).
	TwoHop bool
	Seed   uint64
	// Progress, when set, is called after every answered query (the
	// Oracle's Progress).
	Progress func(q attack.Query, best float64)
}

// Result is an attack's outcome with the perturbation it ends with.
type Result struct {
	attack.Result[attack.Graph]
	Flips         [][2]int // the pairs in which Input differs from the origin, sorted, u < v
	Delta, Budget int      // the values used
}

// Methods returns the attack methods Run knows, the default first.
func Methods() []string { return []string{"grabnel", "random", "genetic"} }

// Defaults of spec §2.5.
const (
	perturbRatio   = 0.03   // Δ ≤ r·N²
	queriesPerEdit = 50     // B = 50Δ
	maxBudget      = 20_000 // … capped at 2×10⁴ per graph
)

// budgets returns Δ and B from the configuration and the origin's size
// (spec §2.5; Config).
func budgets(cfg Config, n int) (delta, budget int) {
	full := max(1, int(math.Round(perturbRatio*float64(n)*float64(n))))
	delta, budget = cfg.Delta, cfg.Budget
	switch {
	case delta == 0 && budget == 0:
		delta = full
	case delta == 0:
		delta = max(1, min(full, budget/queriesPerEdit))
	}
	if budget == 0 {
		budget = min(queriesPerEdit*delta, maxBudget)
	}
	return delta, budget
}

// Run attacks the victim v on the graph origin for goal with the method
// of cfg. Every query goes through one attack.Oracle with the graph loss
// of [000 Eq. 6.10]; the attack stops at the first success or when the
// budget is spent. A victim's error ends it and is returned with the
// Result so far.
func Run(v attack.Victim[attack.Graph], origin attack.Graph, goal attack.Goal, cfg Config) (Result, error) {
	method := cfg.Method
	if method == "" {
		method = Methods()[0]
	}
	if !slices.Contains(Methods(), method) {
		return Result{}, fmt.Errorf("grabnel: unknown method %q (want one of %v)", cfg.Method, Methods())
	}
	if cfg.Budget < 0 || cfg.Delta < 0 {
		return Result{}, fmt.Errorf("grabnel: budget %d and Δ %d must not be negative", cfg.Budget, cfg.Delta)
	}
	g, err := attack.NewGraph(origin.N, origin.Edges)
	if err != nil {
		return Result{}, fmt.Errorf("grabnel: origin: %w", err)
	}
	if g.N < 2 {
		return Result{}, fmt.Errorf("grabnel: origin has %d nodes: no pair to flip", g.N)
	}
	delta, budget := budgets(cfg, g.N)
	o := attack.NewOracle(v, goal, attack.GraphLoss, budget)
	o.Progress = cfg.Progress
	s := &search{
		o:      o,
		origin: g,
		delta:  delta,
		rng:    rand.New(rand.NewPCG(cfg.Seed, 0x6772616262656c)),
	}
	if cfg.TwoHop {
		s.near = twoHops(g)
	}
	switch method {
	case "grabnel":
		err = s.grabnel()
	case "random":
		err = s.random()
	case "genetic":
		err = s.genetic()
	}
	if errors.Is(err, attack.ErrBudget) || errors.Is(err, attack.ErrDone) {
		err = nil
	}
	res := Result{Result: o.Result(), Delta: delta, Budget: budget}
	if res.Queries > 0 {
		res.Flips = diff(g, res.Input)
	}
	return res, err
}

// search is the state one attack shares among its methods.
type search struct {
	o      *attack.Oracle[attack.Graph]
	origin attack.Graph
	delta  int
	near   []bool // near[u·N + v]: v within 2 hops of u in the origin; nil without TwoHop
	rng    *rand.Rand
}

// admissible reports whether flipping {u, v} of g satisfies the active
// constraint: a removal always, an addition when there is no 2-hop
// constraint or v is within 2 hops of u in the origin.
func (s *search) admissible(g attack.Graph, u, v int) bool {
	return s.near == nil || s.near[u*g.N+v] || g.Has(u, v)
}

// pairs returns the admissible flips of g, (u, v) with u < v in ascending
// order.
func (s *search) pairs(g attack.Graph) [][2]int {
	var ps [][2]int
	for u := range g.N {
		for v := u + 1; v < g.N; v++ {
			if s.admissible(g, u, v) {
				ps = append(ps, [2]int{u, v})
			}
		}
	}
	return ps
}

// twoHops returns near[u·N + v]: v ≠ u is a neighbour of u or a
// neighbour of one in g.
func twoHops(g attack.Graph) []bool {
	nb := make([][]int, g.N)
	for _, e := range g.Edges {
		nb[e[0]] = append(nb[e[0]], e[1])
		nb[e[1]] = append(nb[e[1]], e[0])
	}
	near := make([]bool, g.N*g.N)
	for u := range g.N {
		for _, w := range nb[u] {
			near[u*g.N+w] = true
			for _, x := range nb[w] {
				if x != u {
					near[u*g.N+x] = true
				}
			}
		}
	}
	return near
}

// diff returns the pairs in which a and b differ, sorted (both edge lists
// are sorted).
func diff(a, b attack.Graph) [][2]int {
	var d [][2]int
	i, j := 0, 0
	for i < len(a.Edges) || j < len(b.Edges) {
		switch {
		case j == len(b.Edges) || i < len(a.Edges) && attack.CompareEdges(a.Edges[i], b.Edges[j]) < 0:
			d = append(d, a.Edges[i])
			i++
		case i == len(a.Edges) || attack.CompareEdges(a.Edges[i], b.Edges[j]) > 0:
			d = append(d, b.Edges[j])
			j++
		default:
			i++
			j++
		}
	}
	return d
}

// pairHash is the Zobrist key of the pair {u, v} (u < v) in a graph of n
// nodes: a graph's key is the XOR of its edges' keys, so that flipping a
// pair XORs its key (splitmix64 of the pair's index).
func pairHash(n, u, v int) uint64 {
	z := uint64(u*n+v) + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// graphHash is the Zobrist key of g.
func graphHash(g attack.Graph) uint64 {
	var h uint64
	for _, e := range g.Edges {
		h ^= pairHash(g.N, e[0], e[1])
	}
	return h
}
