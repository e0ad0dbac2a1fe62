package graph_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/graph"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

func TestNB201Conversion(t *testing.T) {
	const c1, c3, pool = "nor_conv_1x1", "nor_conv_3x3", "avg_pool_3x3"
	for _, tc := range []struct {
		name string
		ops  [6]string
		want string // Graph.String
	}{
		{"no skip, no none", [6]string{c1, c3, pool, c1, c3, pool},
			"input nor_conv_1x1 nor_conv_3x3 avg_pool_3x3 nor_conv_1x1 nor_conv_3x3 avg_pool_3x3 output; 0→1 0→2 0→4 1→3 1→5 2→6 3→6 4→7 5→7 6→7"},
		// The skip on 1←0 goes; the input feeds what it fed (2←1, 3←1).
		{"skip rewired", [6]string{graph.Skip, c3, pool, c1, c3, pool},
			"input nor_conv_3x3 avg_pool_3x3 nor_conv_1x1 nor_conv_3x3 avg_pool_3x3 output; 0→1 0→2 0→3 0→4 1→5 2→5 3→6 4→6 5→6"},
		// none on 3←2 leaves 2←0 and 2←1 without a successor: removed in
		// the clean-up pass, and nothing else.
		{"none pruned", [6]string{c1, c3, pool, c1, c3, graph.None},
			"input nor_conv_1x1 nor_conv_1x1 nor_conv_3x3 output; 0→1 0→2 1→3 2→4 3→4"},
		// One pass only: with 1←0 none, 2←1 and 3←1 lose their input and
		// go; nothing is removed in a second round.
		{"one pass", [6]string{graph.None, c3, c1, graph.None, c3, c1},
			"input nor_conv_3x3 nor_conv_1x1 output; 0→1 1→2 2→3"},
		// Only skips: the input connects straight to the output.
		{"all skip", [6]string{graph.Skip, graph.Skip, graph.Skip, graph.Skip, graph.Skip, graph.Skip},
			"input output; 0→1"},
		// Nothing reaches the output, but the pass decides on the graph as
		// it stands: 1←0 still feeds 2←1, which goes in the same pass, so
		// 1←0 stays (the reference code's graph; it is not empty).
		{"dead end kept", [6]string{c3, c3, c3, graph.None, graph.None, graph.None},
			"input nor_conv_3x3; 0→1"},
	} {
		g, err := graph.NB201(tc.ops)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := g.String(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
	for _, ops := range [][6]string{
		{graph.None, graph.None, graph.None, graph.None, graph.None, graph.None},
		{graph.None, c3, graph.None, graph.None, graph.None, graph.None}, // the input alone is left
	} {
		if _, err := graph.NB201(ops); !errors.Is(err, graph.ErrEmpty) {
			t.Errorf("%v: err = %v, want ErrEmpty", ops, err)
		}
	}
	if _, err := graph.NB201([6]string{"conv", c3, c3, c3, c3, c3}); err == nil {
		t.Error("unknown operation accepted")
	}
	if got, want := graph.NB201Arch([6]string{c1, c3, pool, c1, c3, graph.None}),
		"|nor_conv_1x1~0|+|nor_conv_3x3~0|avg_pool_3x3~1|+|nor_conv_1x1~0|nor_conv_3x3~1|none~2|"; got != want {
		t.Errorf("arch %s, want %s", got, want)
	}
}

// chain is a → b → c.
func chain() *graph.Graph {
	return &graph.Graph{Labels: []string{"a", "b", "c"}, Out: [][]int{{1}, {2}, {}}}
}

// TestNeighbourhoodsDiffer: WL on out-, in- and all neighbours gives three
// different feature sets on a chain (spec §2 Decision).
func TestNeighbourhoodsDiffer(t *testing.T) {
	names := map[graph.Neighbourhood][]string{}
	for _, nb := range []graph.Neighbourhood{graph.Successors, graph.Predecessors, graph.Undirected} {
		w := graph.NewWL(1, nb)
		for _, c := range w.Features(chain()) {
			if w.Level(c.ID) == 1 {
				names[nb] = append(names[nb], w.Name(c.ID))
			}
		}
		slices.Sort(names[nb])
	}
	want := map[graph.Neighbourhood][]string{
		graph.Successors:   {"a(b)", "b(c)", "c()"},
		graph.Predecessors: {"a()", "b(a)", "c(b)"},
		graph.Undirected:   {"a(b)", "b(a, c)", "c(b)"},
	}
	for nb, w := range want {
		if !slices.Equal(names[nb], w) {
			t.Errorf("%v: level-1 features %v, want %v", nb, names[nb], w)
		}
	}
}

// TestWLRelabelling: the multiset of neighbour labels is sorted before
// compression [001 §3.2, Fig. 3.5: label 1 with neighbours (2,2,3,5)], so
// the order of a node's edges does not matter; the node's own label is
// part of its new one; IDs never change as graphs are added.
func TestWLRelabelling(t *testing.T) {
	g1 := &graph.Graph{Labels: []string{"1", "2", "2", "3", "5"}, Out: [][]int{{1, 2, 3, 4}, {}, {}, {}, {}}}
	g2 := &graph.Graph{Labels: []string{"1", "5", "3", "2", "2"}, Out: [][]int{{4, 1, 3, 2}, {}, {}, {}, {}}}
	g3 := &graph.Graph{Labels: []string{"2", "2", "2", "3", "5"}, Out: [][]int{{1, 2, 3, 4}, {}, {}, {}, {}}}
	w := graph.NewWL(2, graph.Successors)
	f1 := w.Features(g1)
	ids := w.Len()
	if f2 := w.Features(g2); !slices.Equal(f1, f2) {
		t.Fatalf("the same graph with its edges listed in another order: %v and %v", f1, f2)
	}
	if w.Len() != ids {
		t.Fatalf("dictionary grew from %d to %d on a graph it has seen", ids, w.Len())
	}
	f3 := w.Features(g3)
	if again := w.Features(g1); !slices.Equal(again, f1) {
		t.Fatalf("features of g1 changed after g3 was added: %v then %v", f1, again)
	}
	root := func(f graph.Features, name string) bool {
		return slices.ContainsFunc(f, func(c graph.Count) bool { return w.Name(c.ID) == name })
	}
	if !root(f1, "1(2, 2, 3, 5)") || root(f3, "1(2, 2, 3, 5)") || !root(f3, "2(2, 2, 3, 5)") {
		t.Errorf("depth-1 motifs: g1 %v, g3 %v", names(w, f1), names(w, f3))
	}
	// Depth-0 counts: g1 has two nodes labelled 2.
	for _, c := range f1 {
		if w.Name(c.ID) == "2" && c.N != 2 {
			t.Errorf("count of label 2 = %v, want 2", c.N)
		}
	}
}

func names(w *graph.WL, f graph.Features) []string {
	var s []string
	for _, c := range f {
		s = append(s, w.Name(c.ID))
	}
	return s
}

func randomCells(n int, rng *rand.Rand) []*graph.Graph {
	var gs []*graph.Graph
	for len(gs) < n {
		var ops [6]string
		for i := range ops {
			ops[i] = graph.NB201Ops[rng.IntN(len(graph.NB201Ops))]
		}
		if g, err := graph.NB201(ops); err == nil {
			gs = append(gs, g)
		}
	}
	return gs
}

// TestKernelPSD: both WL kernels are PSD with unit diagonal (cosine
// normalisation) at every depth; the dot and intersection kernels differ.
func TestKernelPSD(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gs := randomCells(60, rng)
	w := graph.NewWL(3, graph.Successors)
	fs := make([]graph.Features, len(gs))
	for i, g := range gs {
		fs[i] = w.Features(g)
	}
	for _, base := range []graph.Base{graph.Dot, graph.Intersection} {
		for h := 0; h <= 3; h++ {
			k := w.Kernel(fs, h, base)
			for i := range len(gs) {
				if d := k.At(i, i); d < 1-1e-12 || d > 1+1e-12 {
					t.Fatalf("%v H=%d: K[%d,%d] = %v, want 1", base, h, i, i, d)
				}
			}
			var eig mat.EigenSym
			if !eig.Factorize(k, false) {
				t.Fatal("eigendecomposition failed")
			}
			if lo := eig.Values(nil)[0]; lo < -1e-10 {
				t.Errorf("%v H=%d: smallest eigenvalue %v < 0", base, h, lo)
			}
		}
	}
	if mat.EqualApprox(w.Kernel(fs, 2, graph.Dot), w.Kernel(fs, 2, graph.Intersection), 1e-9) {
		t.Error("dot and intersection kernels are equal")
	}
}

// TestIsomorphicCells: arch strings that differ only where a none edge
// cuts them off give the same graph and kernel value 1, while the VH
// kernel (H = 0) cannot tell two cells with the same operations in a
// different order apart and H = 1 can.
func TestIsomorphicCells(t *testing.T) {
	const c1, c3 = "nor_conv_1x1", "nor_conv_3x3"
	a, _ := graph.NB201([6]string{c1, c3, c1, c3, graph.None, graph.None})
	b, _ := graph.NB201([6]string{c1, c3, c3, c3, graph.None, graph.None}) // 2←1 feeds nothing
	c, _ := graph.NB201([6]string{c3, c1, c3, c1, c3, c1})
	d, _ := graph.NB201([6]string{c1, c3, c1, c3, c1, c3})
	w := graph.NewWL(2, graph.Successors)
	fs := []graph.Features{w.Features(a), w.Features(b), w.Features(c), w.Features(d)}
	k := w.Kernel(fs, 2, graph.Dot)
	if v := k.At(0, 1); v < 1-1e-12 {
		t.Errorf("k(a, b) = %v for the same graph %v", v, a)
	}
	if v := w.Kernel(fs, 0, graph.Dot).At(2, 3); v < 1-1e-12 {
		t.Errorf("VH k(c, d) = %v, want 1 (same operation counts)", v)
	}
	if v := w.Kernel(fs, 1, graph.Dot).At(2, 3); v > 1-1e-3 {
		t.Errorf("WL H=1 k(c, d) = %v, want < 1", v)
	}
}

func TestEdgeFeatures(t *testing.T) {
	var e graph.Edges
	f := e.Features(chain())
	var names []string
	for _, c := range f {
		names = append(names, e.Name(c.ID))
	}
	if want := []string{"a→b", "b→c"}; !slices.Equal(names, want) {
		t.Errorf("edge features %v, want %v", names, want)
	}
	gs := randomCells(40, rand.New(rand.NewPCG(3, 3)))
	fs := make([]graph.Features, len(gs))
	for i, g := range gs {
		fs[i] = e.Features(g)
	}
	k := e.Kernel(fs)
	var eig mat.EigenSym
	if !eig.Factorize(k, false) || eig.Values(nil)[0] < -1e-10 {
		t.Errorf("edge kernel not PSD: %v", eig.Values(nil)[:3])
	}
	for i := range fs {
		if d := k.At(i, i); d < 1-1e-12 || d > 1+1e-12 {
			t.Fatalf("K[%d,%d] = %v", i, i, d)
		}
	}
}

// TestGCNEmbedding: the untrained GCN's embedding has unit length, the
// same weights give the same embedding, and it does not depend on the
// order of the nodes or the direction of the edges (001 treats graphs as
// undirected), only on the graph.
func TestGCNEmbedding(t *testing.T) {
	labels := []string{"a", "b", "c"}
	n := graph.NewGCN(labels, rand.New(rand.NewPCG(1, 1)))
	e := n.Embed(chain())
	if s := floats.Norm(e, 2); math.Abs(s-1) > 1e-12 || len(e) != 256 {
		t.Fatalf("embedding of length %d and norm %v", len(e), s)
	}
	again := graph.NewGCN(labels, rand.New(rand.NewPCG(1, 1))).Embed(chain())
	if !slices.Equal(e, again) {
		t.Error("the same seed gave another embedding")
	}
	permuted := &graph.Graph{Labels: []string{"c", "a", "b"}, Out: [][]int{{}, {2}, {0}}} // a → b → c, numbered differently
	reversed := &graph.Graph{Labels: []string{"a", "b", "c"}, Out: [][]int{{}, {0}, {1}}} // c → b → a
	other := &graph.Graph{Labels: []string{"a", "b", "c"}, Out: [][]int{{1, 2}, {}, {}}}  // a → b, a → c
	for name, g := range map[string]*graph.Graph{"permuted": permuted, "reversed": reversed} {
		if d := floats.Distance(e, n.Embed(g), 2); d > 1e-12 {
			t.Errorf("%s chain: embedding %v away", name, d)
		}
	}
	if d := floats.Distance(e, n.Embed(other), 2); d < 1e-3 {
		t.Errorf("a different graph embeds %v away", d)
	}
}

// TestCell: NB201 is the 4-node cell, and a larger cell wires each edge's
// operation from the edges into its source and to the edges out of its
// target.
func TestCell(t *testing.T) {
	for k, e := range graph.CellEdges(4) {
		if name := graph.CellEdgeName(e[0], e[1]); name != graph.NB201EdgeNames[k] {
			t.Errorf("edge %d: %s, NB201 names it %s", k, name, graph.NB201EdgeNames[k])
		}
	}
	// 3 nodes: edges 1←0, 2←0, 2←1.
	g, err := graph.Cell(3, []string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := g.String(), "input a b c output; 0→1 0→2 1→3 2→4 3→4"; got != want {
		t.Errorf("3-node cell %s, want %s", got, want)
	}
	// 5 nodes, 10 edges: every operation is on a path from input to output.
	ops := slices.Repeat([]string{"conv"}, 10)
	g, err = graph.Cell(5, ops)
	if err != nil || g.Len() != 12 {
		t.Fatalf("5-node cell: %v, %v", g, err)
	}
	// Edge 4←3 (the last) is fed by the three edges into node 3.
	if in := g.In()[10]; !slices.Equal(in, []int{4, 5, 6}) {
		t.Errorf("edge 4←3 fed by %v, want the nodes of 3←0, 3←1, 3←2 (4, 5, 6)", in)
	}
	for _, bad := range [][]string{{"a", "b"}, {"a", "input", "c"}, {"a", "", "c"}} {
		if _, err := graph.Cell(3, bad); err == nil {
			t.Errorf("operations %q accepted", bad)
		}
	}
}
