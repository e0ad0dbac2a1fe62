package nas_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/graph"
	"github.com/boaopt/boa/problems/nas"
)

// TestPlantedMotifIsAWLFeature: the oracle's motif is exactly the depth-1
// undirected WL feature PlantedMotif, so a motif score can name it; it is
// in a fair share of cells, neither rare nor everywhere.
func TestPlantedMotifIsAWLFeature(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	w := graph.NewWL(1, graph.Undirected)
	with, cells := 0, 0
	for range 2000 {
		var ops [graph.NB201Edges]string
		for e := range ops {
			ops[e] = graph.NB201Ops[rng.IntN(len(graph.NB201Ops))]
		}
		g, err := graph.NB201(ops)
		if err != nil {
			continue
		}
		cells++
		feat := slices.ContainsFunc(w.Features(g), func(c graph.Count) bool { return w.Name(c.ID) == nas.PlantedMotif })
		if feat {
			with++
		}
		// The value is the formula with the motif term 1.5·𝟙[feature].
		want, n3, n1 := 10.0, 0.0, 0.0
		for _, l := range g.Labels {
			switch l {
			case "nor_conv_3x3":
				want, n3 = want-1, n3+1
			case "nor_conv_1x1":
				want, n1 = want-0.5, n1+1
			case "avg_pool_3x3":
				want += 0.5
			}
		}
		want += 0.1 * n3 * n1
		if feat {
			want -= 1.5
		}
		if got := nas.Value(ops); math.Abs(got-want) > 1e-12 {
			t.Fatalf("%v (motif feature %v): value %v, want %v", ops, feat, got, want)
		}
	}
	if f := float64(with) / float64(cells); f < 0.1 || f > 0.4 {
		t.Errorf("motif in %.2f of %d cells", f, cells)
	}
}

// TestSyntheticOptimum: the enumerated optimum is below every random
// cell's value and is attained by a cell with the motif.
func TestSyntheticOptimum(t *testing.T) {
	s := nas.NewSynthetic()
	opt, ok := s.Optimum()
	if !ok {
		t.Fatal("no optimum")
	}
	// Five nor_conv_3x3 and the motif on 3←0: 10 − 5 − 0.5 − 1.5 + 0.5.
	best := [graph.NB201Edges]string{"nor_conv_3x3", "nor_conv_3x3", "nor_conv_3x3", "nor_conv_1x1", "nor_conv_3x3", "nor_conv_3x3"}
	if v := nas.Value(best); v != 3.5 || opt != 3.5 {
		t.Errorf("value of %v = %v, optimum %v; want 3.5 for both", best, v, opt)
	}
	rng := rand.New(rand.NewPCG(2, 2))
	for range 500 {
		a := s.Space().Decode(s.Space().Sample(rng))
		if v, err := s.Evaluate(a, rng); err != nil || v < opt-0.1 {
			t.Fatalf("%v: %v, %v below the optimum %v", a, v, err, opt)
		}
	}
}
