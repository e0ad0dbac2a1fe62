package gkls

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestStandin: in every class, for functions 1..10, the GKLS minimiser
// satisfies every constraint, exactly StandinActive of them are active
// there (|g| ≤ 1e-9) and the others hold with a slack of at least 1e-3;
// feasible points surround x* (the active constraints share a feasible
// direction, so x* is not isolated), and none is below −1.
func TestStandin(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dim := range []int{2, 3, 4, 5} {
		for _, class := range []string{"simple", "hard"} {
			p, _ := Class(dim, class)
			for nf := 1; nf <= 10; nf++ {
				g, err := New(p, nf)
				if err != nil {
					t.Fatal(err)
				}
				s, err := NewStandin(g, StandinBalls, StandinHalfSpaces, StandinSmooth, StandinActive)
				if err != nil {
					t.Fatal(err)
				}
				names := s.Constraints()
				if len(names) != 32 || names[0] != "ball1" || names[20] != "half1" || names[31] != "smooth10" {
					t.Fatalf("constraint names %v", names)
				}
				active := 0
				for k, v := range s.Values(s.Minimizer()) {
					switch {
					case v > 0:
						t.Errorf("%dD %s #%d: %s = %v > 0 at x*", dim, class, nf, names[k], v)
					case v >= -1e-9:
						active++
					case v > -1e-3:
						t.Errorf("%dD %s #%d: %s = %v, neither active nor clearly inactive", dim, class, nf, names[k], v)
					}
				}
				if active != StandinActive || len(s.Active()) != StandinActive {
					t.Errorf("%dD %s #%d: %d constraints active at x* (Active: %v), want %d", dim, class, nf, active, s.Active(), StandinActive)
				}
				feasible := 0
				x := make([]float64, dim)
				xs := s.Minimizer()
				for range 2000 {
					for j := range x {
						x[j] = xs[j] - 0.05 + 0.1*rng.Float64()
					}
					if s.Eval(x) < -1 {
						t.Fatalf("f(%v) < −1", x)
					}
					if slicesMax(s.Values(x)) <= 0 {
						feasible++
					}
				}
				if feasible == 0 {
					t.Errorf("%dD %s #%d: no feasible point among 2,000 within 0.05 of x*", dim, class, nf)
				}
			}
		}
	}
	g, _ := New(Params{Dim: 2, Minima: 10, GlobalValue: -1, Dist: 0.5, Radius: 0.2}, 1)
	if _, err := NewStandin(g, 1, 1, 1, 4); err == nil {
		t.Error("4 active of 3 constraints: no error")
	}
}

func slicesMax(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		m = math.Max(m, x)
	}
	return m
}

// TestStandinShare: the feasible share of each class's function 1, by
// 100,000 uniform points, is at least 0.1 %, so that a random search of a
// few hundred evaluations can find the feasible set; -v prints the shares
// docs/constraints.md quotes.
func TestStandinShare(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, dim := range []int{2, 3, 4, 5} {
		for _, class := range []string{"simple", "hard"} {
			p, _ := Class(dim, class)
			g, _ := New(p, 1)
			s, _ := NewStandin(g, StandinBalls, StandinHalfSpaces, StandinSmooth, StandinActive)
			feasible, x := 0, make([]float64, dim)
			for range 100000 {
				for j := range x {
					x[j] = -1 + 2*rng.Float64()
				}
				if slicesMax(s.Values(x)) <= 0 {
					feasible++
				}
			}
			share := float64(feasible) / 100000
			t.Logf("%dD %s #1: feasible share %.3f", dim, class, share)
			if share < 0.001 {
				t.Errorf("%dD %s #1: feasible share %v < 0.001", dim, class, share)
			}
		}
	}
}
