package tse

import (
	"math/rand/v2"
	"strings"
)

// Op is the operation on one edge of the cell, the dense / 1-D analogue of
// NB201's {conv 1×1, conv 3×3, avg-pool 3×3, skip, zero} (spec §8).
type Op uint8

const (
	DenseReLU Op = iota // relu(W·x + b), W width×width, He initialised
	DenseTanh           // tanh(W·x + b), Glorot initialised
	Identity            // x
	Zero                // 0: the edge is absent
	AvgPool             // mean over a window of 3 features, stride 1 (see avgPool)
	numOps
)

var opNames = [numOps]string{"relu", "tanh", "skip", "zero", "pool"}

func (o Op) String() string { return opNames[o] }

// Edges lists the cell's six edges (from, to) in NB201's order, sorted by
// the target node so that a forward pass in this order has finished every
// node before an edge reads it, and a backward pass in reverse order has
// finished every node's gradient before an edge propagates it.
var Edges = [6][2]int{{0, 1}, {0, 2}, {1, 2}, {0, 3}, {1, 3}, {2, 3}}

// Arch is a cell: the op on each of Edges. Node 0 is the cell's input,
// node j = Σ_{i<j} op_ij(node i), node 3 its output.
type Arch [6]Op

// String writes the cell as NB201 writes its cells, one group per target
// node: |op~from|…+|op~from|…, e.g. |relu~0|+|skip~0|pool~1|+|….
func (a Arch) String() string {
	var b strings.Builder
	for j := 1; j <= 3; j++ {
		if j > 1 {
			b.WriteByte('+')
		}
		b.WriteByte('|')
		for e, ij := range Edges {
			if ij[1] == j {
				b.WriteString(a[e].String())
				b.WriteByte('~')
				b.WriteByte(byte('0' + ij[0]))
				b.WriteByte('|')
			}
		}
	}
	return b.String()
}

// Connected reports whether some path of non-zero edges leads from the
// cell's input to its output. A cell without one outputs zeros (or
// constants from biases) and its network cannot learn.
func (a Arch) Connected() bool {
	reach := [4]bool{true}
	for e, ij := range Edges {
		if a[e] != Zero && reach[ij[0]] {
			reach[ij[1]] = true
		}
	}
	return reach[3]
}

// SampleArchs draws n distinct cells uniformly from the 5^6 = 15,625 of
// the space, with a PCG source seeded by seed. Drawing without repeats
// mirrors the thesis, which uses NB201's unique architectures.
func SampleArchs(n int, seed uint64) []Arch {
	r := rand.New(rand.NewPCG(seed, 0xa4c))
	seen := make(map[Arch]bool, n)
	out := make([]Arch, 0, n)
	for len(out) < n && len(seen) < 15625 {
		var a Arch
		for e := range a {
			a[e] = Op(r.IntN(int(numOps)))
		}
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out
}
