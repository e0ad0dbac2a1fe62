package qmc

import (
	"math/rand/v2"
	"testing"
)

func TestLatinHypercubeStrata(t *testing.T) {
	tests := []struct{ n, dim, designs int }{
		{1, 1, 0}, {2, 3, 5}, {10, 2, 0}, {37, 5, 20}, {64, 10, 10},
	}
	for _, tt := range tests {
		pts := LatinHypercube(tt.n, tt.dim, rand.New(rand.NewPCG(1, uint64(tt.n))), tt.designs)
		if len(pts) != tt.n {
			t.Fatalf("n=%d: got %d points", tt.n, len(pts))
		}
		for j := range tt.dim {
			seen := make([]bool, tt.n)
			for _, p := range pts {
				if p[j] < 0 || p[j] >= 1 {
					t.Fatalf("n=%d: coordinate %v outside [0,1)", tt.n, p[j])
				}
				k := int(p[j] * float64(tt.n))
				if seen[k] {
					t.Fatalf("n=%d dim %d: stratum %d holds two points", tt.n, j, k)
				}
				seen[k] = true
			}
		}
	}
}

func TestLatinHypercubeMaximin(t *testing.T) {
	const n, dim = 20, 3
	flat := func(pts [][]float64) []float64 {
		var x []float64
		for _, p := range pts {
			x = append(x, p...)
		}
		return x
	}
	for seed := range uint64(10) {
		best := minSqDist(flat(LatinHypercube(n, dim, rand.New(rand.NewPCG(seed, 9)), 100)), n, dim)
		// A single design from the same stream is the first candidate the
		// maximin search saw, so the best can only be at least as good.
		one := minSqDist(flat(LatinHypercube(n, dim, rand.New(rand.NewPCG(seed, 9)), 1)), n, dim)
		if best < one {
			t.Errorf("seed %d: maximin %v worse than one random LHS %v", seed, best, one)
		}
	}
}

func TestLatinHypercubeEmpty(t *testing.T) {
	if got := LatinHypercube(0, 3, rand.New(rand.NewPCG(1, 1)), 0); len(got) != 0 {
		t.Fatalf("n=0 gave %d points", len(got))
	}
}
