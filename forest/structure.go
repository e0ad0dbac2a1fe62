package forest

// Node is one node of a fitted tree as read from outside the package, for
// analyses that need the trees themselves rather than their predictions
// (fANOVA, Hutter et al. 2014, in package analysis).
type Node struct {
	// Feature is the split feature, or −1 for a leaf.
	Feature int
	// Threshold is the cut: x goes Left when x[Feature] ≤ Threshold or is
	// NaN (see the package comment), Right otherwise.
	Threshold float64
	// Left and Right index the children in the same slice; 0 for a leaf.
	Left, Right int
	// Value is the bootstrap-weighted mean of the node's targets: a leaf's
	// prediction.
	Value float64
}

// NumTrees is the number of trees S.
func (f *Forest) NumTrees() int { return len(f.trees) }

// Tree returns a copy of tree k's nodes, the root first (index 0). Children
// always come after their parent.
func (f *Forest) Tree(k int) []Node {
	ns := f.trees[k].nodes
	out := make([]Node, len(ns))
	for i, n := range ns {
		out[i] = Node{Feature: n.feature, Threshold: n.threshold, Value: n.mean}
		if n.feature >= 0 {
			out[i].Left, out[i].Right = int(n.left), int(n.right)
		}
	}
	return out
}
