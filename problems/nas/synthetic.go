package nas

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/boaopt/boa/graph"
	"github.com/boaopt/boa/space"
)

// Synthetic is the synthetic NB201 oracle (spec §10), an error to
// minimise:
//
//	y(G) = 10 − Σ_op c_op·count_op(G) − 1.5·𝟙[motif ∈ G] + 0.1·n₃·n₁ + ε,
//
// with c = 1 for nor_conv_3x3, 0.5 for nor_conv_1x1 and −0.5 for
// avg_pool_3x3 (n₃, n₁ the counts of the two convolutions, whose product
// is the interaction), ε ~ N(0, 0.01²), and the planted motif
// PlantedMotif: a nor_conv_1x1 node whose only neighbours are the input
// and the output. A cell without a graph (no path from input to output)
// scores 10. A Synthetic is immutable and safe for concurrent use.
type Synthetic struct {
	sp  *space.Space
	opt float64
}

// SyntheticName is the problem's name in boa bench --problems.
const SyntheticName = "nb201-synthetic"

// PlantedMotif is the planted motif as the WL feature that counts it:
// undirected WL of depth 1 names a node by its label and its neighbours'.
const PlantedMotif = "nor_conv_1x1(input, output)"

// syntheticNoise is the standard deviation of ε.
const syntheticNoise = 0.01

var opWeight = map[string]float64{"nor_conv_3x3": 1, "nor_conv_1x1": 0.5, "avg_pool_3x3": -0.5}

// NewSynthetic returns the oracle; its optimum is found by enumerating
// the 5⁶ cells.
func NewSynthetic() *Synthetic {
	s := &Synthetic{sp: graph.NB201Space(), opt: math.Inf(1)}
	var ops [graph.NB201Edges]string
	var walk func(e int)
	walk = func(e int) {
		if e == graph.NB201Edges {
			s.opt = min(s.opt, Value(ops))
			return
		}
		for _, op := range graph.NB201Ops {
			ops[e] = op
			walk(e + 1)
		}
	}
	walk(0)
	return s
}

func (s *Synthetic) Name() string             { return SyntheticName }
func (s *Synthetic) Space() *space.Space      { return s.sp }
func (s *Synthetic) Optimum() (float64, bool) { return s.opt, true }

// Evaluate returns Value of the cell plus ε drawn from rng.
func (s *Synthetic) Evaluate(a space.Assignment, rng *rand.Rand) (float64, error) {
	var ops [graph.NB201Edges]string
	for e, name := range graph.NB201EdgeNames {
		op, ok := a[name].(string)
		if !ok {
			return math.NaN(), fmt.Errorf("%s: no operation for %s in %v", SyntheticName, name, a)
		}
		ops[e] = op
	}
	return Value(ops) + syntheticNoise*rng.NormFloat64(), nil
}

// Value is the oracle without noise.
func Value(ops [graph.NB201Edges]string) float64 {
	g, err := graph.NB201(ops)
	if err != nil {
		return 10
	}
	y, n3, n1 := 10.0, 0.0, 0.0
	for _, l := range g.Labels {
		y -= opWeight[l]
		switch l {
		case "nor_conv_3x3":
			n3++
		case "nor_conv_1x1":
			n1++
		}
	}
	if hasMotif(g) {
		y -= 1.5
	}
	return y + 0.1*n3*n1
}

// hasMotif reports whether a nor_conv_1x1 node of g has the input and the
// output as its only neighbours.
func hasMotif(g *graph.Graph) bool {
	in := g.In()
	for v, l := range g.Labels {
		if l != "nor_conv_1x1" || len(in[v]) != 1 || len(g.Out[v]) != 1 {
			continue
		}
		if g.Labels[in[v][0]] == graph.Input && g.Labels[g.Out[v][0]] == graph.Output {
			return true
		}
	}
	return false
}
