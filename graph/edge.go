package graph

import (
	"cmp"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Edges computes the features of the naive edge kernel of thesis 001
// (§3.3, Eq. 3.3; nas-graph-bo.md §3.2): each edge is labelled by the
// ordered pair of its endpoints' labels, and a graph's features count its
// edge labels. The kernel is their normalised dot product, as the WL
// kernel's at depth 0 but over edges instead of nodes. Feature IDs come
// from a dictionary shared by every graph it sees, as WL's.
//
// An Edges is not safe for concurrent use.
type Edges struct {
	ids   map[string]int
	names []string
}

// Features returns the edge-label counts of g.
func (e *Edges) Features(g *Graph) Features {
	if e.ids == nil {
		e.ids = map[string]int{}
	}
	counts := map[int]float64{}
	for v, out := range g.Out {
		for _, w := range out {
			key := g.Labels[v] + "→" + g.Labels[w]
			id, ok := e.ids[key]
			if !ok {
				id = len(e.names)
				e.ids[key] = id
				e.names = append(e.names, key)
			}
			counts[id]++
		}
	}
	f := make(Features, 0, len(counts))
	for id, n := range counts {
		f = append(f, Count{id, n})
	}
	slices.SortFunc(f, func(a, b Count) int { return cmp.Compare(a.ID, b.ID) })
	return f
}

// Name returns the edge label of feature id, "from→to".
func (e *Edges) Name(id int) string { return e.names[id] }

// Kernel returns the normalised edge kernel matrix of the graphs with
// features fs, ⟨Φ_E(G), Φ_E(G')⟩/(‖Φ_E(G)‖‖Φ_E(G')‖), in [0, 1]. Every graph
// must have an edge.
func (e *Edges) Kernel(fs []Features) *mat.SymDense { return matrix(len(fs), e.Func(fs)) }

// Func is Kernel as a function of two indices into fs, computed when asked.
func (e *Edges) Func(fs []Features) func(i, j int) float64 {
	return cosine(len(fs), func(i, j int) float64 { return dot(fs[i], fs[j], nil) })
}
