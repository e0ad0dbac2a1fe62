package sampler

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/boaopt/boa/graph"
	"github.com/boaopt/boa/space"
)

// cell is a study space read as an architecture search space: it turns an
// encoded point into the architecture's graph, and draws and mutates
// architectures [nas-graph-bo.md §1, §5.3].
type cell interface {
	// graph returns u's graph, or graph.ErrEmpty for an architecture
	// without a path from input to output.
	graph(u []float64) (*graph.Graph, error)
	// random returns a uniform random architecture.
	random(rng *rand.Rand) []float64
	// mutate returns a child of u (BANANAS-style mutation, spec §5.3),
	// which differs from u in at least one place.
	mutate(u []float64, rng *rand.Rand) []float64
	// labels lists every node label a graph may have.
	labels() []string
}

// nb201Cell is NAS-Bench-201's cell as a space of six categorical
// parameters, one per edge, named as boa's nb201 table names them
// (edge_1_0 … edge_3_2, the arch string's order) with the five NB201
// operations as choices in any order.
type nb201Cell struct {
	sp  *space.Space
	idx [graph.NB201Edges]int // position of edge e's parameter in sp
}

// cellOf returns sp's cell, or an error that says what an architecture
// space must look like.
func cellOf(sp *space.Space) (cell, error) {
	want := fmt.Sprintf("a NAS-Bench-201 cell: exactly the categorical parameters %s, each with the choices %s",
		strings.Join(graph.NB201EdgeNames[:], ", "), strings.Join(graph.NB201Ops, ", "))
	if sp.Len() != graph.NB201Edges {
		return nil, fmt.Errorf("the space has %d parameters; architecture search needs %s", sp.Len(), want)
	}
	c := &nb201Cell{sp: sp}
	for e, name := range graph.NB201EdgeNames {
		i, ok := sp.Index(name)
		if !ok {
			return nil, fmt.Errorf("no parameter %q; architecture search needs %s", name, want)
		}
		p := sp.Param(i)
		if p.Kind != space.Categorical || sp.Conditional(i) || len(p.Choices) != len(graph.NB201Ops) ||
			slices.ContainsFunc(graph.NB201Ops, func(op string) bool { return !slices.Contains(p.Choices, op) }) {
			return nil, fmt.Errorf("parameter %q is not an unconditional categorical with the choices %s; architecture search needs %s",
				name, strings.Join(graph.NB201Ops, ", "), want)
		}
		c.idx[e] = i
	}
	return c, nil
}

func (c *nb201Cell) ops(u []float64) [graph.NB201Edges]string {
	a := c.sp.Decode(u)
	var ops [graph.NB201Edges]string
	for e, name := range graph.NB201EdgeNames {
		ops[e] = a[name].(string)
	}
	return ops
}

func (c *nb201Cell) encode(ops [graph.NB201Edges]string) []float64 {
	a := space.Assignment{}
	for e, name := range graph.NB201EdgeNames {
		a[name] = ops[e]
	}
	u, err := c.sp.Encode(a)
	if err != nil {
		panic(err) // every operation is a choice (cellOf)
	}
	return u
}

func (c *nb201Cell) labels() []string {
	return slices.Concat([]string{graph.Input, graph.Output}, graph.NB201Ops)
}

func (c *nb201Cell) graph(u []float64) (*graph.Graph, error) { return graph.NB201(c.ops(u)) }

func (c *nb201Cell) random(rng *rand.Rand) []float64 {
	var ops [graph.NB201Edges]string
	for e := range ops {
		ops[e] = graph.NB201Ops[rng.IntN(len(graph.NB201Ops))]
	}
	return c.encode(ops)
}

// mutate changes each operation with probability 1/5 to another one drawn
// uniformly, as NAS-BOWL's NB201 mutation (spec §5.3); a draw that
// changes nothing is redrawn, so the child always differs.
func (c *nb201Cell) mutate(u []float64, rng *rand.Rand) []float64 {
	ops := c.ops(u)
	for {
		child, changed := ops, false
		for e := range child {
			if rng.IntN(len(graph.NB201Ops)) == 0 {
				k := rng.IntN(len(graph.NB201Ops) - 1)
				if graph.NB201Ops[k] == child[e] {
					k = len(graph.NB201Ops) - 1
				}
				child[e], changed = graph.NB201Ops[k], true
			}
		}
		if changed {
			return c.encode(child)
		}
	}
}
