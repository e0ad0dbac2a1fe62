package problems

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/problems/functions"
	"github.com/boaopt/boa/space"
)

// The new functions' names parse, through Parse (boa bench --problems) and
// Named (boa run --function). Of the GP samples only mat2 is built here
// (each costs a 1024-point Cholesky and 200 descents; problems/functions
// builds them all).
func TestNewFunctionNamesParse(t *testing.T) {
	for _, name := range []string{"branin_fitbo", "eggholder_fitbo", "hartmann6_fitbo", "mat2",
		"branin_fitbo:noisy", "eggholder_fitbo:noisy", "hartmann6_fitbo:noisy"} {
		p, err := Parse(name)
		if err != nil {
			t.Errorf("Parse(%q): %v", name, err)
			continue
		}
		if p.Name() != name {
			t.Errorf("Parse(%q).Name() = %q", name, p.Name())
		}
		if _, err := Named(name, 0); err != nil {
			t.Errorf("Named(%q, 0): %v", name, err)
		}
	}
	if _, err := Parse("branin:noisy"); err == nil {
		t.Error("branin:noisy parsed; only the FITBO benchmarks have a noisy variant")
	}
}

// The noisy FITBO variants: noise of variance 1e-3 from the run's rng (the
// same seed gives the same values), none with a nil rng, and the optimum
// and regret of the noise-free function.
func TestNoisyFITBO(t *testing.T) {
	p, err := Parse("branin_fitbo:noisy")
	if err != nil {
		t.Fatal(err)
	}
	n := p.(*Noisy)
	fn, _ := functions.Get("branin_fitbo", 0)
	if f, ok := p.Optimum(); !ok || f != fn.Optimum {
		t.Errorf("Optimum %v, %v; want the noise-free %v", f, ok, fn.Optimum)
	}
	x := fn.Minimizers[1]
	a := space.Assignment{"x1": x[0], "x2": x[1]}
	if v, _ := p.Evaluate(a, nil); v != fn.Eval(x) {
		t.Errorf("with a nil rng Evaluate = %v, want f(x) = %v", v, fn.Eval(x))
	}
	if r, ok := n.TestRegret(a); !ok || math.Abs(r) > 1e-12 {
		t.Errorf("regret at a minimiser %v, %v; want 0", r, ok)
	}
	r1, r2 := rand.New(rand.NewPCG(4, 4)), rand.New(rand.NewPCG(4, 4))
	const draws = 20000
	var s, s2 float64
	for range draws {
		v1, _ := p.Evaluate(a, r1)
		v2, _ := p.Evaluate(a, r2)
		if v1 != v2 {
			t.Fatal("the same seed gives different observations")
		}
		e := v1 - fn.Eval(x)
		s += e
		s2 += e * e
	}
	mean, v := s/draws, s2/draws-(s/draws)*(s/draws)
	// Standard errors: sd/√n for the mean, var·√(2/n) for the variance.
	if math.Abs(mean) > 4*math.Sqrt(1e-3/draws) || math.Abs(v-1e-3) > 4*1e-3*math.Sqrt(2.0/draws) {
		t.Errorf("noise mean %g, variance %g; want 0 and 1e-3", mean, v)
	}
	if n.NoiseVariance() != 1e-3 {
		t.Errorf("NoiseVariance %v", n.NoiseVariance())
	}
}
