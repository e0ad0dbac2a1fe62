package graph

import (
	"errors"
	"fmt"
	"slices"
)

// A cell of n nodes in the NAS-Bench-201 style [nas-graph-bo.md §1.2]:
// node 0 is the cell's input, node n−1 its output, and every edge j←i
// (0 ≤ i < j < n) carries an operation; node j sums what its edges bring.
// NB201's cell has n = 4. Two operations are special: None cuts the edge
// and Skip passes its input through.
const (
	None   = "none"
	Skip   = "skip_connect"
	Input  = "input"
	Output = "output"
)

// ErrEmpty reports a cell whose graph has no nodes or no edges (every path
// from input to output cut by none): the benchmark has a value for it, but
// the WL features cannot tell it from other empty cells.
var ErrEmpty = errors.New("graph: the cell has no path from input to output")

// CellEdges returns the edges j←i of a cell of n nodes as (j, i) pairs in
// the order of NB201's arch string: by j, then by i.
func CellEdges(n int) [][2]int {
	var es [][2]int
	for j := 1; j < n; j++ {
		for i := range j {
			es = append(es, [2]int{j, i})
		}
	}
	return es
}

// CellEdgeName is the parameter name of edge j←i in a search space,
// "edge_j_i".
func CellEdgeName(j, i int) string { return fmt.Sprintf("edge_%d_%d", j, i) }

// Cell returns the node-labelled graph of the cell of n nodes whose edges
// (CellEdges order) carry the operations ops, as NAS-BOWL builds NB201's
// [000 App. B.3: node-labelled WL "perform[s] empirically better"; the
// reference code's create_nasbench201_graph, spec §1.2 steps 1–6]: each
// edge's operation becomes a node, fed by the operations on the edges
// into its source (or the input) and feeding those on the edges out of
// its target (or the output); each skip_connect node is removed and its
// predecessors wired to its successors; each none node is removed without
// rewiring; then, in one pass, non-input nodes without in-edges and
// non-output nodes without out-edges are removed. A graph with no nodes or
// no edges left returns ErrEmpty.
func Cell(n int, ops []string) (*Graph, error) {
	es := CellEdges(n)
	if n < 2 || len(ops) != len(es) {
		return nil, fmt.Errorf("graph: a cell of %d nodes has %d edges, got %d operations", n, len(es), len(ops))
	}
	if k := slices.IndexFunc(ops, func(op string) bool { return op == "" || op == Input || op == Output }); k >= 0 {
		return nil, fmt.Errorf("graph: operation %q on edge %d is empty or reserved", ops[k], k)
	}
	labels := slices.Concat([]string{Input}, ops, []string{Output})
	out := len(labels) - 1
	var wiring [][2]int
	for a, ea := range es {
		if ea[1] == 0 {
			wiring = append(wiring, [2]int{0, a + 1})
		}
		if ea[0] == n-1 {
			wiring = append(wiring, [2]int{a + 1, out})
		}
		for b, eb := range es {
			if eb[1] == ea[0] { // b leaves the node a enters
				wiring = append(wiring, [2]int{a + 1, b + 1})
			}
		}
	}
	d := newDAG(labels, wiring)
	for k, op := range ops {
		if op == Skip {
			d.remove(k+1, true)
		}
	}
	for k, op := range ops {
		if op == None {
			d.remove(k+1, false)
		}
	}
	// One pass over the graph as it stands (spec §1.2 step 5: not
	// iterated), so decide every node before removing any.
	var dead []int
	for v := range labels {
		if !d.gone[v] && ((v != 0 && !d.hasIn(v)) || (v != out && !d.hasOut(v))) {
			dead = append(dead, v)
		}
	}
	for _, v := range dead {
		d.remove(v, false)
	}
	g := d.graph()
	if g.Len() == 0 || g.NumEdges() == 0 {
		return nil, ErrEmpty
	}
	return g, nil
}
