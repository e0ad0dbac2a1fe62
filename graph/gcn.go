package graph

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// The untrained GCN's shape (spec §3.3 Decisions: 001 gives 256 features
// per layer and "typically 2–3 layers").
const (
	gcnWidth  = 256
	gcnLayers = 3
)

// GCN is the untrained graph convolutional network of thesis 001 (§3.4,
// Eq. 3.6; nas-graph-bo.md §3.3): each layer computes
//
//	H⁽ʲ⁺¹⁾ = ReLU(D̂^{−1/2} Â D̂^{−1/2} H⁽ʲ⁾ W⁽ʲ⁾),  Â = A + Aᵀ + I,
//
// from the one-hot node labels H⁽⁰⁾, with Glorot-uniform weights drawn
// once and never trained; the graph's embedding is the sum of the last
// layer's rows, scaled to unit length. 001 writes the normalisation
// D⁻¹AD (Eq. 3.5, an erratum) and treats graphs as undirected, hence the
// symmetrised Â (spec Decisions: 3 layers of 256, ReLU, sum pooling). A
// GCN is safe for concurrent use.
type GCN struct {
	labels map[string]int // label → its one-hot column
	w      []*mat.Dense
}

// NewGCN returns a GCN over the given node labels, its weights drawn from
// rng (the same for every graph of a study).
func NewGCN(labels []string, rng *rand.Rand) *GCN {
	n := &GCN{labels: map[string]int{}}
	for i, l := range labels {
		n.labels[l] = i
	}
	in := len(labels)
	for range gcnLayers {
		a := math.Sqrt(6 / float64(in+gcnWidth))
		w := mat.NewDense(in, gcnWidth, nil)
		raw := w.RawMatrix().Data
		for i := range raw {
			raw[i] = a * (2*rng.Float64() - 1)
		}
		n.w = append(n.w, w)
		in = gcnWidth
	}
	return n
}

// Embed returns g's embedding, a unit vector of 256 numbers. It panics on
// a label NewGCN was not given.
func (n *GCN) Embed(g *Graph) []float64 {
	v := g.Len()
	h := mat.NewDense(v, len(n.labels), nil)
	for i, l := range g.Labels {
		c, ok := n.labels[l]
		if !ok {
			panic(fmt.Sprintf("graph: GCN has no label %q", l))
		}
		h.Set(i, c, 1)
	}
	// Â = A + Aᵀ + I, normalised by its degrees on both sides.
	adj := mat.NewDense(v, v, nil)
	for i := range v {
		adj.Set(i, i, 1)
	}
	for i, out := range g.Out {
		for _, j := range out {
			adj.Set(i, j, 1)
			adj.Set(j, i, 1)
		}
	}
	deg := make([]float64, v)
	for i := range v {
		deg[i] = 1 / math.Sqrt(mat.Sum(adj.RowView(i)))
	}
	for i := range v {
		for j := range v {
			adj.Set(i, j, adj.At(i, j)*deg[i]*deg[j])
		}
	}
	var ah mat.Dense
	for _, w := range n.w {
		ah.Mul(adj, h)
		next := mat.NewDense(v, gcnWidth, nil)
		next.Mul(&ah, w)
		raw := next.RawMatrix().Data
		for i, x := range raw {
			raw[i] = max(x, 0)
		}
		h = next
		ah.Reset()
	}
	e := make([]float64, gcnWidth)
	for i := range v {
		for j := range e {
			e[j] += h.At(i, j)
		}
	}
	if s := floats.Norm(e, 2); s > 0 {
		floats.Scale(1/s, e)
	}
	return e
}
