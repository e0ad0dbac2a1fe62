package pareto

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestDominates(t *testing.T) {
	for _, c := range []struct {
		a, b []float64
		want bool
	}{
		{[]float64{1, 2}, []float64{2, 2}, true},
		{[]float64{1, 2}, []float64{1, 2}, false}, // equal: neither
		{[]float64{1, 3}, []float64{2, 2}, false}, // a trade-off
		{[]float64{0, 0, 0}, []float64{0, 0, 1}, true},
	} {
		if got := Dominates(c.a, c.b); got != c.want {
			t.Errorf("Dominates(%v, %v) = %v", c.a, c.b, got)
		}
	}
}

// Hand-computed hypervolumes: rectangles and boxes added and their
// overlaps taken away.
func TestHypervolumeByHand(t *testing.T) {
	for _, c := range []struct {
		name   string
		points [][]float64
		ref    []float64
		want   float64
	}{
		// strips 3·1 + 2·1 + 1·1
		{"staircase", [][]float64{{1, 3}, {2, 2}, {3, 1}}, []float64{4, 4}, 6},
		// a dominated point, a duplicate and one beyond the reference add nothing
		{"dominated and outside", [][]float64{{1, 3}, {2, 2}, {3, 1}, {3, 3}, {2, 2}, {0, 5}}, []float64{4, 4}, 6},
		{"on the reference", [][]float64{{4, 0}}, []float64{4, 4}, 0},
		{"one box", [][]float64{{1, 1, 1}}, []float64{2, 2, 2}, 1},
		// 2·2·1 + 1·1·2 − the shared 1·1·1
		{"two boxes", [][]float64{{0, 0, 1}, {1, 1, 0}}, []float64{2, 2, 2}, 5},
		// unit slabs along z: {(2,0)} 3, {(1,1),(2,0)} 4+1, all three 3+2+1
		{"three boxes", [][]float64{{0, 2, 2}, {1, 1, 1}, {2, 0, 0}}, []float64{3, 3, 3}, 3 + 5 + 6},
		{"empty", nil, []float64{1, 1}, 0},
		{"1-D", [][]float64{{0.25}, {0.5}}, []float64{1}, 0.75},
	} {
		if got := Hypervolume(c.points, c.ref); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: Hypervolume = %v, want %v", c.name, got, c.want)
		}
	}
}

// The exact hypervolume agrees with a Monte Carlo estimate of the
// dominated share of the box below the reference, in 2 to 4 dimensions.
func TestHypervolumeMonteCarlo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for d := 2; d <= 4; d++ {
		ref := slices.Repeat([]float64{1}, d)
		var points [][]float64
		for range 12 {
			p := make([]float64, d)
			norm := 0.0
			for i := range p {
				p[i] = rng.Float64()
				norm += p[i] * p[i]
			}
			for i := range p { // on a sphere: mostly mutually non-dominated
				p[i] = 0.9 * p[i] / math.Sqrt(norm)
			}
			points = append(points, p)
		}
		exact := Hypervolume(points, ref)
		const n = 200000
		hits := 0
		x := make([]float64, d)
		for range n {
			for i := range x {
				x[i] = rng.Float64()
			}
			if slices.ContainsFunc(points, func(p []float64) bool {
				for i := range p {
					if p[i] > x[i] {
						return false
					}
				}
				return true
			}) {
				hits++
			}
		}
		est := float64(hits) / n
		if se := math.Sqrt(est * (1 - est) / n); math.Abs(exact-est) > 5*se {
			t.Errorf("d = %d: exact %v, Monte Carlo %v ± %v", d, exact, est, se)
		}
	}
}

// Sort agrees with peeling Front off repeatedly.
func TestSortPeelsFronts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	points := make([][]float64, 60)
	for i := range points {
		points[i] = []float64{float64(rng.IntN(6)), float64(rng.IntN(6)), float64(rng.IntN(6))}
	}
	left := make([]int, len(points))
	for i := range left {
		left[i] = i
	}
	for k, front := range Sort(points) {
		sub := make([][]float64, len(left))
		for i, j := range left {
			sub[i] = points[j]
		}
		var want []int
		for _, i := range Front(sub) {
			want = append(want, left[i])
		}
		if !slices.Equal(front, want) {
			t.Fatalf("front %d = %v, peeling gives %v", k, front, want)
		}
		left = slices.DeleteFunc(left, func(i int) bool { return slices.Contains(front, i) })
	}
	if len(left) != 0 {
		t.Fatalf("%d points in no front", len(left))
	}
}

func TestCrowding(t *testing.T) {
	// (0,4) (1,2) (3,1) (4,0): ranges 4 and 4.
	got := Crowding([][]float64{{1, 2}, {0, 4}, {4, 0}, {3, 1}})
	want := []float64{(3-0)/4.0 + (4-1)/4.0, math.Inf(1), math.Inf(1), (4-1)/4.0 + (2-0)/4.0}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Crowding = %v, want %v", got, want)
		}
	}
	// No range: the extremes of the (stable) order are infinite, the rest 0.
	if d := Crowding([][]float64{{1, 1}, {1, 1}, {1, 1}}); !math.IsInf(d[0], 1) || d[1] != 0 || !math.IsInf(d[2], 1) {
		t.Fatalf("Crowding of equal points = %v", d)
	}
}

// TestFrontIsEveryUndominatedPoint: Front, which compares each point with
// the front found so far, finds what comparing every pair finds, on
// random points of 1–4 objectives on a coarse grid (ties, duplicates).
func TestFrontIsEveryUndominatedPoint(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 3))
	for trial := range 200 {
		m, n := 1+trial%4, 1+r.IntN(40)
		points := make([][]float64, n)
		for i := range points {
			points[i] = make([]float64, m)
			for k := range points[i] {
				points[i][k] = float64(r.IntN(5))
			}
		}
		var want []int
		for i, p := range points {
			if !slices.ContainsFunc(points, func(q []float64) bool { return Dominates(q, p) }) {
				want = append(want, i)
			}
		}
		if got := Front(points); !slices.Equal(got, want) {
			t.Fatalf("%v: Front %v, want %v", points, got, want)
		}
	}
}
