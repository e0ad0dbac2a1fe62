package pareto

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The staircase {1,3}, {2,2}, {3,1} below (4,4) leaves four boxes: the
// strip left of the first point, two steps and the strip below the last.
func TestBoxesByHand(t *testing.T) {
	inf := math.Inf(-1)
	got := Boxes([][]float64{{2, 2}, {1, 3}, {3, 1}, {3, 3}, {5, 0}}, []float64{4, 4})
	want := []Box{
		{[]float64{inf, inf}, []float64{4, 1}},
		{[]float64{inf, 1}, []float64{3, 2}},
		{[]float64{inf, 2}, []float64{2, 3}},
		{[]float64{inf, 3}, []float64{1, 4}},
	}
	if len(got) != len(want) {
		t.Fatalf("Boxes = %v, want %v", got, want)
	}
	for i := range want {
		for j := range 2 {
			if got[i].Lo[j] != want[i].Lo[j] || got[i].Hi[j] != want[i].Hi[j] {
				t.Fatalf("box %d = %v, want %v", i, got[i], want[i])
			}
		}
	}
	if b := Boxes(nil, []float64{1, 2, 3}); len(b) != 1 || b[0].Hi[2] != 3 || b[0].Lo[0] != inf {
		t.Errorf("Boxes of no points = %v, want the region below the reference", b)
	}
}

// For random fronts in 1–4 objectives, the improvement the boxes give a
// random point is the hypervolume it adds, computed by Hypervolume.
func TestImprovementIsTheHypervolumeAdded(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for d := 1; d <= 4; d++ {
		ref := make([]float64, d)
		for i := range ref {
			ref[i] = 1
		}
		for trial := range 50 {
			n := rng.IntN(12)
			pts := make([][]float64, n)
			for i := range pts {
				pts[i] = make([]float64, d)
				for j := range pts[i] {
					// on a grid, so that ties and duplicates occur
					pts[i][j] = float64(rng.IntN(8)) / 7 * 1.1
				}
			}
			boxes := Boxes(pts, ref)
			base := Hypervolume(pts, ref)
			for range 20 {
				y := make([]float64, d)
				for j := range y {
					y[j] = rng.Float64()*1.2 - 0.1
				}
				want := Hypervolume(append(pts[:n:n], y), ref) - base
				if got := Improvement(boxes, y); math.Abs(got-want) > 1e-12 {
					t.Fatalf("d %d trial %d: Improvement(%v) = %v, want %v (points %v)", d, trial, y, got, want, pts)
				}
			}
		}
	}
}
