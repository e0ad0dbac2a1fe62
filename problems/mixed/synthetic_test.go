package mixed

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func mustGet(t *testing.T, name string) *Problem {
	t.Helper()
	p, err := Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFunc2CStatedPoint checks the value the spec gives at its minimiser
// [spec §8].
func TestFunc2CStatedPoint(t *testing.T) {
	p := mustGet(t, "func2c")
	a := p.Assignment([]int{1, 1}, []float64{-0.0449, 0.3563})
	if a["h1"] != "cam" || a["h2"] != "cam" {
		t.Fatalf("h = (%v, %v), want (cam, cam)", a["h1"], a["h2"])
	}
	f, err := p.Evaluate(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(f-(-0.2063)) > 1e-4 {
		t.Errorf("func2c(cam, cam, −0.0449, 0.3563) = %.6f, want ≈ −0.2063", f)
	}
	// The mirror image is a minimiser too.
	if g := p.Value([]int{1, 1}, []float64{0.0449, -0.3563}); math.Abs(g-f) > 1e-12 {
		t.Errorf("mirror point: %.12f, want %.12f", g, f)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10 {
		g, _ := p.Evaluate(a, rng)
		if d := g - f; d < 0 || d >= 1e-6 {
			t.Errorf("noise %g outside [0, 1e-6)", d)
		}
	}
}

// minimiseBox returns the minimum of f over [−1,1]² by a 401² grid refined
// by a compass search from the best grid point.
func minimiseBox(f func(x []float64) float64) (float64, []float64) {
	const n = 401
	best, bx := math.Inf(1), []float64{0, 0}
	x := make([]float64, 2)
	for i := range n {
		x[0] = -1 + 2*float64(i)/(n-1)
		for j := range n {
			x[1] = -1 + 2*float64(j)/(n-1)
			if v := f(x); v < best {
				best, bx[0], bx[1] = v, x[0], x[1]
			}
		}
	}
	for step := 2.0 / (n - 1); step > 1e-12; {
		moved := false
		for _, d := range [][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			y := []float64{min(1, max(-1, bx[0]+step*d[0])), min(1, max(-1, bx[1]+step*d[1]))}
			if v := f(y); v < best {
				best, bx, moved = v, y, true
			}
		}
		if !moved {
			step /= 2
		}
	}
	return best, bx
}

// TestFuncOptima computes the optima of Func-2C and Func-3C over every
// category combination [spec §6.1, issue 5 acceptance].
func TestFuncOptima(t *testing.T) {
	for _, tc := range []struct {
		name   string
		spec   float64
		wantH  []int
		combos int
	}{
		{"func2c", -0.20631, []int{1, 1}, 15},
		{"func3c", -0.72210, []int{1, 1, 0}, 60},
	} {
		p := mustGet(t, tc.name)
		levels := p.Levels()
		h := make([]int, len(levels))
		best, combos := math.Inf(1), 0
		var bestH []int
		var bestX []float64
		for {
			combos++
			v, x := minimiseBox(func(x []float64) float64 { return p.Value(h, x) })
			if v < best {
				best, bestH, bestX = v, append([]int(nil), h...), x
			}
			i := 0 // next combination, odometer order
			for ; i < len(h); i++ {
				if h[i]++; h[i] < levels[i] {
					break
				}
				h[i] = 0
			}
			if i == len(h) {
				break
			}
		}
		if combos != tc.combos {
			t.Errorf("%s: %d combinations, want %d", tc.name, combos, tc.combos)
		}
		fopt, ok := p.Optimum()
		t.Logf("%s: min %.10f at h = %v, x = %.6f; Optimum() = %.10f", tc.name, best, bestH, bestX, fopt)
		if math.Abs(best-tc.spec) > 1e-4 {
			t.Errorf("%s: computed optimum %.6f, spec %.5f", tc.name, best, tc.spec)
		}
		if !ok || math.Abs(best-fopt) > 1e-9 {
			t.Errorf("%s: Optimum() = %.10f, %v; computed %.10f", tc.name, fopt, ok, best)
		}
		for i := range tc.wantH {
			if bestH[i] != tc.wantH[i] {
				t.Errorf("%s: minimiser h = %v, want %v", tc.name, bestH, tc.wantH)
				break
			}
		}
		if math.Abs(math.Abs(bestX[0])-0.0449) > 1e-4 || math.Abs(math.Abs(bestX[1])-0.3563) > 1e-4 || bestX[0]*bestX[1] > 0 {
			t.Errorf("%s: minimiser x = %v, want ±(−0.0449, 0.3563)", tc.name, bestX)
		}
	}
}

// TestAckley checks f = 0 at the origin and f > 0 elsewhere [spec §8].
func TestAckley(t *testing.T) {
	for _, tc := range []struct {
		name   string
		origin int // category index of 0
		nh, nx int
	}{
		{"ackley2c", 8, 2, 1}, {"ackley3c", 8, 3, 1}, {"ackley4c", 8, 4, 1},
		{"ackley5c", 8, 5, 1}, {"ackley5c5", 2, 5, 1}, {"ackley53", 0, 50, 3},
	} {
		p := mustGet(t, tc.name)
		if got := p.Levels(); len(got) != tc.nh {
			t.Fatalf("%s: %d categorical variables, want %d", tc.name, len(got), tc.nh)
		}
		h := make([]int, tc.nh)
		for i := range h {
			h[i] = tc.origin
		}
		a := p.Assignment(h, make([]float64, tc.nx))
		if a["h1"] != "0" {
			t.Errorf("%s: origin category is %q, want \"0\"", tc.name, a["h1"])
		}
		f, err := p.Evaluate(a, nil)
		if err != nil {
			t.Fatal(err)
		}
		if fopt, ok := p.Optimum(); f != 0 || !ok || fopt != 0 {
			t.Errorf("%s: f(0) = %g, Optimum() = %g, %v; want 0, 0, true", tc.name, f, fopt, ok)
		}
		h[0] = tc.origin + 1
		if v := p.Value(h, make([]float64, tc.nx)); !(v > 0) {
			t.Errorf("%s: f away from 0 is %g, want > 0", tc.name, v)
		}
	}
	p := mustGet(t, "ackley3c")
	if got := p.Space().Param(0).Choices; len(got) != 17 || got[0] != "-1" || got[1] != "-0.875" || got[16] != "1" {
		t.Errorf("ackley3c grid %v, want −1, −0.875, ..., 1 (17 values)", got)
	}
	if got := mustGet(t, "ackley5c5").Space().Param(4).Choices; !slices.Equal(got, []string{"-1", "-0.5", "0", "0.5", "1"}) {
		t.Errorf("ackley5c5 grid %v, want −1, −0.5, 0, 0.5, 1 (spec §6.2 Decision)", got)
	}
	// (c+1)-dimensional Ackley at z = (−1, 0.5, 0, x = 0.25), computed by hand.
	z := []float64{-1, 0.5, 0, 0.25}
	var s2, sc float64
	for _, v := range z {
		s2 += v * v
		sc += math.Cos(2 * math.Pi * v)
	}
	want := -20*math.Exp(-0.2*math.Sqrt(s2/4)) - math.Exp(sc/4) + 20 + math.E
	if got := p.Value([]int{0, 12, 8}, []float64{0.25}); math.Abs(got-want) > 1e-12 {
		t.Errorf("ackley3c = %.15f, want %.15f", got, want)
	}
}
