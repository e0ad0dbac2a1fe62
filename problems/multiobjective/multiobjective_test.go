package multiobjective

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/pareto"
)

// The true fronts' hypervolumes are the limits of sampled fronts, from
// below, and no random point dominates the sampled front's ceiling.
func TestFronts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, name := range Names() {
		f, err := Get(name, 0)
		if err != nil {
			t.Fatal(err)
		}
		// the staircase of a sampled front leaves a gap that shrinks with
		// its size, wider in 3 objectives
		coarse := pareto.Hypervolume(f.Front(400), f.Ref)
		front := f.Front(2500)
		hv := pareto.Hypervolume(front, f.Ref)
		if !(coarse < hv && hv <= f.FrontHV+1e-9 && f.FrontHV-hv < 0.01*float64(f.Objectives-1)) {
			t.Errorf("%s: sampled fronts' hypervolumes %v (400 points), %v (2500); the true front's %v", name, coarse, hv, f.FrontHV)
		}
		// Random points add nothing to the true front's hypervolume
		// beyond the sampling gap.
		var pts [][]float64
		for range 200 {
			x := make([]float64, f.Dim)
			for i := range x {
				x[i] = rng.Float64()
			}
			y := f.F(x)
			if len(y) != f.Objectives {
				t.Fatalf("%s: %d objectives, want %d", name, len(y), f.Objectives)
			}
			pts = append(pts, y)
		}
		if with := pareto.Hypervolume(append(pts, front...), f.Ref); with > f.FrontHV+1e-9 {
			t.Errorf("%s: random points push the hypervolume to %v past the true front's %v", name, with, f.FrontHV)
		}
	}
}

// Points of the front by hand: ZDT1 at x = (¼, 0, …) is (¼, ½); DTLZ2 at
// x = (0, 0, ½, …) is (1, 0, 0).
func TestByHand(t *testing.T) {
	z, _ := Get("zdt1", 4)
	if y := z.F([]float64{0.25, 0, 0, 0}); y[0] != 0.25 || math.Abs(y[1]-0.5) > 1e-15 {
		t.Errorf("zdt1(¼, 0, 0, 0) = %v, want (¼, ½)", y)
	}
	if y := z.F([]float64{0.25, 1, 1, 1}); math.Abs(y[1]-10*(1-math.Sqrt(0.025))) > 1e-12 {
		t.Errorf("zdt1(¼, 1, 1, 1) = %v: g = 10", y)
	}
	d, _ := Get("dtlz2", 5)
	if y := d.F([]float64{0, 0, 0.5, 0.5, 0.5}); math.Abs(y[0]-1) > 1e-15 || math.Abs(y[1]) > 1e-15 || math.Abs(y[2]) > 1e-15 {
		t.Errorf("dtlz2(0, 0, ½, …) = %v, want (1, 0, 0)", y)
	}
	if _, err := Get("zdt4", 0); err == nil {
		t.Error("Get(zdt4): no error")
	}
	if _, err := Get("dtlz2", 2); err == nil {
		t.Error("Get(dtlz2, 2 variables): no error")
	}
}

// At (11, 11) the fronts' hypervolumes are BoTorch's for its ZDT
// problems [reference code: pytorch/botorch], and At(Ref) is the function
// itself.
func TestAt(t *testing.T) {
	for name, want := range map[string]float64{"zdt1": 120 + 2.0/3, "zdt2": 120 + 1.0/3, "zdt3": 128.77811613069076} {
		f, _ := Get(name, 0)
		g, err := f.At([]float64{11, 11})
		if err != nil || math.Abs(g.FrontHV-want) > 1e-6 {
			t.Errorf("%s at (11, 11): %v, %v; want %v", name, g.FrontHV, err, want)
		}
		if h := pareto.Hypervolume(f.Front(4000), g.Ref); !(h < g.FrontHV && g.FrontHV-h < 0.01) {
			t.Errorf("%s at (11, 11): a sampled front's hypervolume %v, the true front's %v", name, h, g.FrontHV)
		}
		if same, _ := f.At(f.Ref); math.Abs(same.FrontHV-f.FrontHV) > 1e-9 {
			t.Errorf("%s: At(Ref) gives %v, not %v", name, same.FrontHV, f.FrontHV)
		}
	}
	d, _ := Get("dtlz2", 0)
	if g, _ := d.At([]float64{2, 2, 2}); math.Abs(g.FrontHV-(8-math.Pi/6)) > 1e-12 {
		t.Errorf("dtlz2 at 2: %v", g.FrontHV)
	}
	if _, err := d.At([]float64{1.1, 1.1}); err == nil {
		t.Error("a reference point of two coordinates for three objectives: no error")
	}
	if _, err := d.At([]float64{1.1, 0.5, 1.1}); err == nil {
		t.Error("a reference point inside the front: no error")
	}
}
