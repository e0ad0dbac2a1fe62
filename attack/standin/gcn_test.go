package standin

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/boaopt/boa/attack"
)

var gcn = sync.OnceValues(func() (*GCN, error) { return TrainGCN(1) })

func trainedGCN(t *testing.T) *GCN {
	t.Helper()
	g, err := gcn()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestComponents: the labels of hand graphs.
func TestComponents(t *testing.T) {
	for _, c := range []struct {
		name  string
		g     attack.Graph
		comps int
	}{
		{"two triangles", attack.Graph{N: 6, Edges: [][2]int{{0, 1}, {0, 2}, {1, 2}, {3, 4}, {3, 5}, {4, 5}}}, 2},
		{"a path", attack.Graph{N: 6, Edges: [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}}}, 1},
		{"one node", attack.Graph{N: 1}, 1},
		{"three isolated nodes", attack.Graph{N: 3}, 3},
		{"a cycle and an isolated node", attack.Graph{N: 5, Edges: [][2]int{{0, 1}, {0, 3}, {1, 2}, {2, 3}}}, 2},
	} {
		if got := Components(c.g); got != c.comps {
			t.Errorf("%s: %d components, want %d", c.name, got, c.comps)
		}
		if want := min(c.comps-1, 1); Disconnected(c.g) != want {
			t.Errorf("%s: label %d, want %d", c.name, Disconnected(c.g), want)
		}
	}
}

// TestERGraphs: sizes and densities in range, sorted edges, labels that
// are the components', the same graphs for the same seed; logs the class
// balance.
func TestERGraphs(t *testing.T) {
	ex := ERGraphs(2000, 3)
	ones := 0
	for _, e := range ex {
		g := e.Graph
		if g.N < 20 || g.N > 60 {
			t.Fatalf("%d nodes", g.N)
		}
		if d := 2 * float64(len(g.Edges)) / float64(g.N*(g.N-1)); d > 0.4 {
			t.Errorf("density %.2f", d)
		}
		if ng, err := attack.NewGraph(g.N, g.Edges); err != nil || !slices.Equal(ng.Edges, g.Edges) {
			t.Fatalf("edges not a sorted simple graph: %v", err)
		}
		if e.Label != Disconnected(g) {
			t.Fatal("label is not Disconnected")
		}
		ones += e.Label
	}
	t.Logf("class balance: %d of %d graphs disconnected (%.1f %%)", ones, len(ex), 100*float64(ones)/float64(len(ex)))
	if ones < 500 || ones > 1500 {
		t.Errorf("%d of 2000 disconnected: the classes are too unbalanced", ones)
	}
	a, b := ERGraphs(5, 7), ERGraphs(5, 7)
	for i := range a {
		if a[i].Graph.N != b[i].Graph.N || !slices.Equal(a[i].Graph.Edges, b[i].Graph.Edges) {
			t.Fatal("seed 7 twice: different graphs")
		}
	}
}

// TestGCNGradient: the backward pass matches central finite differences
// of the cross-entropy on a small graph, for both labels, at random
// weights (biases too, so that the relus are active at both signs).
func TestGCNGradient(t *testing.T) {
	x := attack.Graph{N: 7, Edges: [][2]int{{0, 1}, {0, 2}, {1, 2}, {2, 3}, {4, 5}}}
	rng := rand.New(rand.NewPCG(5, 6))
	g := &GCN{w: make([]float64, gcnParam)}
	for i := range g.w {
		g.w[i] = rng.NormFloat64() * 0.5
	}
	pg := prepare(x)
	for label := range 2 {
		grad := make([]float64, gcnParam)
		g.backward(g.forward(pg), label, grad)
		loss := func() float64 { return -math.Log(g.forward(pg).p[label]) }
		worst := 0.0
		for i := range g.w {
			w := g.w[i]
			g.w[i] = w + 1e-6
			up := loss()
			g.w[i] = w - 1e-6
			down := loss()
			g.w[i] = w
			num := (up - down) / 2e-6
			worst = max(worst, math.Abs(num-grad[i])/max(1e-4, math.Abs(num)+math.Abs(grad[i])))
		}
		if worst > 1e-5 {
			t.Errorf("label %d: worst relative gradient error %.2g", label, worst)
		}
	}
}

// TestGCNVictim: at least 85 % on the 300 held-out graphs, scores that
// are probabilities and agree with Accuracy, and concurrent queries.
func TestGCNVictim(t *testing.T) {
	start := time.Now()
	g := trainedGCN(t)
	test := g.Test()
	ones := 0
	for _, e := range test {
		ones += e.Label
	}
	t.Logf("GCN victim: test accuracy %.2f %% on %d graphs (%d disconnected), training %v", 100*g.Accuracy(), len(test), ones, time.Since(start))
	if g.Accuracy() < 0.85 {
		t.Errorf("test accuracy %.3f, want at least 0.85", g.Accuracy())
	}
	right := 0
	var wg sync.WaitGroup
	for _, e := range test {
		p, err := g.Scores(e.Graph)
		if err != nil || len(p) != 2 || math.Abs(p[0]+p[1]-1) > 1e-12 {
			t.Fatalf("scores %v, %v", p, err)
		}
		if argmax2(p) == e.Label {
			right++
		}
		wg.Go(func() {
			if q, _ := g.Scores(e.Graph); !slices.Equal(p, q) {
				t.Errorf("concurrent query: %v, serial %v", q, p)
			}
		})
	}
	wg.Wait()
	if got := float64(right) / float64(len(test)); got != g.Accuracy() {
		t.Errorf("Scores right on %.4f, Accuracy %.4f", got, g.Accuracy())
	}
}

// TestGCNDeterministic: the same seed gives the same scores, another
// seed other ones.
func TestGCNDeterministic(t *testing.T) {
	g := trainedGCN(t)
	again, _ := TrainGCN(1)
	other, _ := TrainGCN(2)
	x := g.Test()[0].Graph
	p, _ := g.Scores(x)
	q, _ := again.Scores(x)
	r, _ := other.Scores(x)
	if !slices.Equal(p, q) {
		t.Errorf("seed 1 twice: %v, %v", p, q)
	}
	if slices.Equal(p, r) {
		t.Errorf("seeds 1 and 2 give the same scores %v", p)
	}
}

// TestGCNBadGraphs: no node, an edge out of range, a loop and a repeated
// edge are errors.
func TestGCNBadGraphs(t *testing.T) {
	g := trainedGCN(t)
	for _, x := range []attack.Graph{
		{N: 0},
		{N: -1},
		{N: 3, Edges: [][2]int{{0, 3}}},
		{N: 3, Edges: [][2]int{{-1, 2}}},
		{N: 3, Edges: [][2]int{{1, 1}}},
		{N: 3, Edges: [][2]int{{0, 1}, {0, 1}}},
	} {
		if p, err := g.Scores(x); err == nil {
			t.Errorf("graph %v: scores %v, no error", x, p)
		}
	}
	if _, err := g.Scores(attack.Graph{N: 1}); err != nil {
		t.Errorf("one node: %v", err)
	}
}
