package config

import (
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/space"
)

// TestProblem: a study file with a test function is an unconstrained
// problem whose loss is the function's value; a maximised deploy file is
// a constrained one whose loss is minus the accuracy and whose metrics
// are the network's, known before evaluation.
func TestProblem(t *testing.T) {
	s, err := ParseYAML([]byte("name: b\nspace:\n  x1: {type: float, low: -5, high: 10}\n  x2: {type: float, low: 0, high: 15}\nobjective:\n  function: branin\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Problem()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(interface{ Constraints() constraint.Set }); ok {
		t.Error("branin's file is constrained")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	if v, err := p.Evaluate(map[string]any{"x1": 3.14159265, "x2": 2.275}, rng); err != nil || v > 0.3979 || v < 0.3978 {
		t.Errorf("branin at its minimiser: %v, %v", v, err)
	}
	d, err := Load("../examples/tinyml/har-tiny.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err = d.Problem()
	if err != nil {
		t.Fatal(err)
	}
	c, ok := p.(interface {
		Constraints() constraint.Set
		Known() func(space.Assignment) map[string]float64
	})
	if !ok {
		t.Fatal("the deploy file is not a constrained problem with known metrics")
	}
	if _, ok := c.Constraints()[MetricRAM]; !ok || c.Known() == nil {
		t.Errorf("constraints %v, known %v", c.Constraints(), c.Known() != nil)
	}
	sp := p.Space()
	u := sp.Sample(rng)
	sp.Round(u)
	a := sp.Decode(u)
	v, err := p.Evaluate(a, rng)
	want, _ := d.Deploy.Proxy(a, 0)
	if err != nil || !(v < -want+2 && v > -want-2) {
		t.Errorf("loss %v, %v; want about minus the proxy's %v", v, err, want)
	}
}
