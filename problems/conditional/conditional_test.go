package conditional

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/space"
)

func TestJenatton(t *testing.T) {
	p, err := Get("jenatton")
	if err != nil {
		t.Fatal(err)
	}
	if f, ok := p.Optimum(); !ok || f != 0.1 {
		t.Fatalf("optimum %v, %v", f, ok)
	}
	for _, c := range []struct {
		a    space.Assignment
		want float64
	}{
		{space.Assignment{"x1": "0", "x2": "0", "x4": 0.0, "r8": 0.0}, 0.1},
		{space.Assignment{"x1": "0", "x2": "0", "x4": 0.5, "r8": 0.25}, 0.6},
		{space.Assignment{"x1": "0", "x2": "1", "x5": 1.0, "r8": 0.0}, 1.2},
		{space.Assignment{"x1": "1", "x3": "0", "x6": 0.0, "r9": 0.5}, 0.8},
		{space.Assignment{"x1": "1", "x3": "1", "x7": 0.5, "r9": 0.0}, 0.65},
	} {
		got, err := p.Evaluate(c.a, nil)
		if err != nil || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("f(%v) = %v, %v; want %v", c.a, got, err, c.want)
		}
	}
	// A parameter of another branch is refused, not ignored.
	if _, err := p.Evaluate(space.Assignment{"x1": "0", "x2": "0", "x4": 0.0, "r8": 0.0, "x6": 0.5}, nil); err == nil {
		t.Error("an inactive parameter was accepted")
	}
	// Every point of the space evaluates, and none beats the optimum.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		v, err := p.Evaluate(p.Space().Decode(p.Space().Sample(rng)), nil)
		if err != nil || v < 0.1 {
			t.Fatalf("f = %v, %v", v, err)
		}
	}
	if _, err := Get("nope"); !errors.Is(err, ErrUnknownProblem) {
		t.Errorf("Get(nope): %v", err)
	}
}
