package nasbowl

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
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

// edgeCell is a cell of n nodes whose every edge j←i is a categorical
// parameter edge_j_i, its choices the operations (graph.Cell): NB201's
// cell (n = 4, the six edges with NB201's five operations) or any other
// a user writes in a study file.
type edgeCell struct {
	sp      *space.Space
	n       int
	idx     []int      // position in sp of each edge's parameter, in graph.CellEdges order
	choices [][]string // the operations of each edge
}

// cellDescription says what an architecture space must look like.
var cellDescription = fmt.Sprintf("an architecture cell of n ≥ 2 nodes: one categorical parameter edge_j_i for each edge j←i, 0 ≤ i < j < n, "+
	"and nothing else, each choice an operation (%s cuts the edge, %s passes it through); NAS-Bench-201's cell has n = 4, "+
	"the parameters %s with the choices %s", graph.None, graph.Skip, strings.Join(graph.NB201EdgeNames[:], ", "), strings.Join(graph.NB201Ops, ", "))

// cellOf returns sp's cell, or an error that says what an architecture
// space must look like.
func cellOf(sp *space.Space) (cell, error) {
	refuse := func(format string, args ...any) (cell, error) {
		return nil, fmt.Errorf(format+"; architecture search needs "+cellDescription, args...)
	}
	n := 0
	for i := range sp.Len() {
		name := sp.Param(i).Name
		j, _, ok := parseEdgeName(name)
		if !ok {
			return refuse("parameter %q is not an edge edge_j_i with i < j", name)
		}
		n = max(n, j+1)
	}
	es := graph.CellEdges(n)
	if n < 2 || len(es) != sp.Len() {
		return refuse("the space has %d parameters, not the %d edges of a cell of %d nodes", sp.Len(), len(es), n)
	}
	c := &edgeCell{sp: sp, n: n}
	for _, e := range es {
		name := graph.CellEdgeName(e[0], e[1])
		i, ok := sp.Index(name)
		if !ok {
			return refuse("no parameter %q", name)
		}
		p := sp.Param(i)
		if p.Kind != space.Categorical || sp.Conditional(i) {
			return refuse("parameter %q is not an unconditional categorical", name)
		}
		if k := slices.IndexFunc(p.Choices, func(op string) bool { return op == graph.Input || op == graph.Output }); k >= 0 {
			return refuse("parameter %q has the choice %q, a name kept for the cell's ends", name, p.Choices[k])
		}
		c.idx = append(c.idx, i)
		c.choices = append(c.choices, p.Choices)
	}
	return c, nil
}

// parseEdgeName reads "edge_j_i" with 0 ≤ i < j.
func parseEdgeName(name string) (j, i int, ok bool) {
	rest, found := strings.CutPrefix(name, "edge_")
	js, is, found2 := strings.Cut(rest, "_")
	if !found || !found2 {
		return 0, 0, false
	}
	j, err1 := strconv.Atoi(js)
	i, err2 := strconv.Atoi(is)
	if err1 != nil || err2 != nil || i < 0 || i >= j || strconv.Itoa(j) != js || strconv.Itoa(i) != is {
		return 0, 0, false
	}
	return j, i, true
}

func (c *edgeCell) ops(u []float64) []string {
	a := c.sp.Decode(u)
	ops := make([]string, len(c.idx))
	for e, i := range c.idx {
		ops[e] = a[c.sp.Param(i).Name].(string)
	}
	return ops
}

func (c *edgeCell) encode(ops []string) []float64 {
	a := space.Assignment{}
	for e, i := range c.idx {
		a[c.sp.Param(i).Name] = ops[e]
	}
	u, err := c.sp.Encode(a)
	if err != nil {
		panic(err) // every operation is a choice
	}
	return u
}

func (c *edgeCell) labels() []string {
	ls := []string{graph.Input, graph.Output}
	for _, ch := range c.choices {
		for _, op := range ch {
			if !slices.Contains(ls, op) {
				ls = append(ls, op)
			}
		}
	}
	return ls
}

func (c *edgeCell) graph(u []float64) (*graph.Graph, error) { return graph.Cell(c.n, c.ops(u)) }

func (c *edgeCell) random(rng *rand.Rand) []float64 {
	ops := make([]string, len(c.idx))
	for e, ch := range c.choices {
		ops[e] = ch[rng.IntN(len(ch))]
	}
	return c.encode(ops)
}

// mutate changes each edge's operation with probability 1/L, L its number
// of operations, to another one drawn uniformly: NAS-BOWL's NB201
// mutation (1/5, spec §5.3). A draw that changes nothing is redrawn, so
// the child always differs; a cell whose every edge has one operation
// has no child and is returned as it is.
func (c *edgeCell) mutate(u []float64, rng *rand.Rand) []float64 {
	ops := c.ops(u)
	if !slices.ContainsFunc(c.choices, func(ch []string) bool { return len(ch) > 1 }) {
		return u
	}
	for {
		child, changed := slices.Clone(ops), false
		for e, ch := range c.choices {
			if len(ch) > 1 && rng.IntN(len(ch)) == 0 {
				k := rng.IntN(len(ch) - 1)
				if ch[k] == child[e] {
					k = len(ch) - 1
				}
				child[e], changed = ch[k], true
			}
		}
		if changed {
			return c.encode(child)
		}
	}
}
