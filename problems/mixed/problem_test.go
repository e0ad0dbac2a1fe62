package mixed

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/boaopt/boa/space"
)

// TestRegistry checks every registered problem: its space, that the
// assignments a sampler would produce are valid in it and evaluate to finite
// values, and its optimum.
func TestRegistry(t *testing.T) {
	want := map[string][2]int{ // categorical, continuous
		"func2c": {2, 2}, "func3c": {3, 2}, "ackley2c": {2, 1}, "ackley3c": {3, 1},
		"ackley4c": {4, 1}, "ackley5c": {5, 1}, "ackley5c5": {5, 1}, "ackley53": {50, 3}, "pest": {25, 0},
		"difficultpest": {80, 0}, "contamination": {25, 0}, "maxsat60": {60, 0}, "maxsat60-std": {60, 0},
	}
	if got := Names(); len(got) != len(want) {
		t.Fatalf("Names() = %v", got)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for _, name := range Names() {
		p, err := Get(name)
		if errors.Is(err, ErrNoData) {
			t.Logf("%s skipped: %v", name, err)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		sp := p.Space()
		nh, nx := len(p.Levels()), 0
		for i := range sp.Len() {
			if sp.Continuous(i) {
				nx++
				if i < nh {
					t.Errorf("%s: continuous %s before a categorical", name, sp.Param(i).Name)
				}
			} else if sp.Param(i).Kind != space.Categorical {
				t.Errorf("%s: %s is %v, want categorical", name, sp.Param(i).Name, sp.Param(i).Kind)
			}
		}
		if p.Name() != name || [2]int{nh, nx} != want[name] {
			t.Errorf("%s: name %q, %d categorical + %d continuous, want %v", name, p.Name(), nh, nx, want[name])
		}
		fopt, known := p.Optimum()
		for range 20 {
			a := sp.Decode(sp.Sample(rng))
			if err := sp.Validate(a); err != nil {
				t.Fatalf("%s: sampled %v invalid: %v", name, a, err)
			}
			f, err := p.Evaluate(a, rng)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if known && f < fopt-1e-9 {
				t.Errorf("%s: f = %v below the optimum %v", name, f, fopt)
			}
			h := randomH(rng, p.Levels())
			x := make([]float64, nx)
			for i := range x {
				x[i] = -1 + 2*rng.Float64()
			}
			if err := sp.Validate(p.Assignment(h, x)); err != nil {
				t.Errorf("%s: Assignment gives an invalid point: %v", name, err)
			}
		}
	}
}

// TestEvaluateErrors checks that bad assignments are rejected with the
// problem and the parameter named.
func TestEvaluateErrors(t *testing.T) {
	p := mustGet(t, "func2c")
	good := p.Assignment([]int{0, 4}, []float64{0.5, -0.5})
	if good["h2"] != "bea_c" {
		t.Errorf("h2 choice 4 is %v, want bea_c", good["h2"])
	}
	for _, tc := range []struct {
		name  string
		edit  func(space.Assignment)
		param string
	}{
		{"unknown choice", func(a space.Assignment) { a["h1"] = "sphere" }, "h1"},
		{"out of range", func(a space.Assignment) { a["x2"] = 1.5 }, "x2"},
		{"missing", func(a space.Assignment) { delete(a, "x1") }, "x1"},
		{"wrong type", func(a space.Assignment) { a["x1"] = "half" }, "x1"},
		{"extra", func(a space.Assignment) { a["x3"] = 0.0 }, "x3"},
	} {
		a := space.Assignment{}
		for k, v := range good {
			a[k] = v
		}
		tc.edit(a)
		_, err := p.Evaluate(a, nil)
		if err == nil || !strings.Contains(err.Error(), "func2c") || !strings.Contains(err.Error(), tc.param) {
			t.Errorf("%s: error %v, want one naming func2c and %s", tc.name, err, tc.param)
		}
	}
	// Any Go number is accepted for a float, as in space.Validate.
	good["x1"] = 0
	if _, err := p.Evaluate(good, nil); err != nil {
		t.Errorf("integer 0 for x1: %v", err)
	}
	if _, err := Get("ackley6c"); !errors.Is(err, ErrUnknownProblem) || !strings.Contains(err.Error(), "func2c") {
		t.Errorf("Get(ackley6c): %v, want ErrUnknownProblem listing the names", err)
	}
	if !slices.Contains(Names(), "maxsat60-std") {
		t.Error("maxsat60-std not registered")
	}
	defer func() {
		if recover() == nil {
			t.Error("Value with too few indices did not panic")
		}
	}()
	p.Value([]int{0}, []float64{0, 0})
}
