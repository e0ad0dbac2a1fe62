package graph

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/boaopt/boa/space"
)

// NAS-Bench-201 [nas-graph-bo.md §1.2]: a cell of 4 nodes whose 6 edges,
// in the order of the arch string (1←0, 2←0, 2←1, 3←0, 3←1, 3←2), each
// carry one of 5 operations.
const (
	NB201Edges = 6
	None       = "none"
	Skip       = "skip_connect"
	Input      = "input"
	Output     = "output"
)

// NB201Ops are the operations of an NB201 edge, in NB201's order.
var NB201Ops = []string{None, Skip, "nor_conv_1x1", "nor_conv_3x3", "avg_pool_3x3"}

// NB201EdgeNames name the six edges as parameters of a search space, in
// the order of the arch string.
var NB201EdgeNames = [NB201Edges]string{"edge_1_0", "edge_2_0", "edge_2_1", "edge_3_0", "edge_3_1", "edge_3_2"}

// NB201Space returns the NB201 cell as a search space: one categorical
// parameter per edge (NB201EdgeNames) with the choices NB201Ops. A study
// of real NB201 training, the nb201 benchmark tables and the samplers'
// architecture spaces all use it.
func NB201Space() *space.Space {
	ps := make([]space.Param, NB201Edges)
	for i, name := range NB201EdgeNames {
		ps[i] = space.Param{Name: name, Kind: space.Categorical, Choices: NB201Ops}
	}
	return space.MustNew(ps...)
}

// nb201Wiring are the edges of the node-labelled form before skip and none
// nodes are removed: node 0 is the input, nodes 1..6 the six edge
// operations in arch-string order, node 7 the output. Operation node i+1
// feeds every operation that leaves the cell node operation i enters.
var nb201Wiring = [][2]int{{0, 1}, {0, 2}, {0, 4}, {1, 3}, {1, 5}, {2, 6}, {3, 6}, {4, 7}, {5, 7}, {6, 7}}

// ErrEmpty reports a cell whose graph has no nodes or no edges (every path
// from input to output cut by none): the benchmark has a value for it, but
// the WL features cannot tell it from other empty cells.
var ErrEmpty = errors.New("graph: the cell has no path from input to output")

// NB201 returns the node-labelled graph of the NB201 cell with the given
// edge operations, as NAS-BOWL builds it [000 App. B.3: node-labelled WL
// "perform[s] empirically better"; the conversion is the reference code's
// create_nasbench201_graph, spec §1.2 steps 1–6]: the edge operations
// become nodes; each skip_connect node is removed and its predecessors
// wired to its successors; each none node is removed without rewiring;
// then, in one pass, non-input nodes without in-edges and non-output nodes
// without out-edges are removed. A graph with no nodes or no edges left
// returns ErrEmpty.
func NB201(ops [NB201Edges]string) (*Graph, error) {
	labels := slices.Concat([]string{Input}, ops[:], []string{Output})
	for _, op := range ops {
		if !slices.Contains(NB201Ops, op) {
			return nil, fmt.Errorf("graph: %q is not an NB201 operation (%s)", op, strings.Join(NB201Ops, ", "))
		}
	}
	d := newDAG(labels, nb201Wiring)
	for i, op := range ops {
		if op == Skip {
			d.remove(i+1, true)
		}
	}
	for i, op := range ops {
		if op == None {
			d.remove(i+1, false)
		}
	}
	// One pass over the graph as it stands (spec §1.2 step 5: not
	// iterated), so decide every node before removing any.
	var dead []int
	for v := range labels {
		if d.gone[v] {
			continue
		}
		if (v != 0 && !d.hasIn(v)) || (v != len(labels)-1 && !d.hasOut(v)) {
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

// NB201Arch returns the NB201 arch string of ops,
// |op0~0|+|op1~0|op2~1|+|op3~0|op4~1|op5~2|.
func NB201Arch(ops [NB201Edges]string) string {
	return fmt.Sprintf("|%s~0|+|%s~0|%s~1|+|%s~0|%s~1|%s~2|", ops[0], ops[1], ops[2], ops[3], ops[4], ops[5])
}
