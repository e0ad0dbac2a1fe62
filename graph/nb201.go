package graph

import (
	"fmt"
	"slices"
	"strings"

	"github.com/boaopt/boa/space"
)

// NAS-Bench-201 [nas-graph-bo.md §1.2] is the cell of 4 nodes: 6 edges,
// in the order of the arch string (1←0, 2←0, 2←1, 3←0, 3←1, 3←2), each
// carrying one of 5 operations.
const NB201Edges = 6

// NB201Ops are the operations of an NB201 edge, in NB201's order.
var NB201Ops = []string{None, Skip, "nor_conv_1x1", "nor_conv_3x3", "avg_pool_3x3"}

// NB201EdgeNames name the six edges as parameters of a search space, in
// the order of the arch string.
var NB201EdgeNames = [NB201Edges]string{"edge_1_0", "edge_2_0", "edge_2_1", "edge_3_0", "edge_3_1", "edge_3_2"} // CellEdgeName of CellEdges(4)

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

// NB201 returns the graph of the NB201 cell with the given edge
// operations (Cell with 4 nodes), refusing operations NB201 does not have.
func NB201(ops [NB201Edges]string) (*Graph, error) {
	for _, op := range ops {
		if !slices.Contains(NB201Ops, op) {
			return nil, fmt.Errorf("graph: %q is not an NB201 operation (%s)", op, strings.Join(NB201Ops, ", "))
		}
	}
	return Cell(4, ops[:])
}

// NB201Arch returns the NB201 arch string of ops,
// |op0~0|+|op1~0|op2~1|+|op3~0|op4~1|op5~2|.
func NB201Arch(ops [NB201Edges]string) string {
	return fmt.Sprintf("|%s~0|+|%s~0|%s~1|+|%s~0|%s~1|%s~2|", ops[0], ops[1], ops[2], ops[3], ops[4], ops[5])
}
