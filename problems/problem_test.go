package problems

import (
	"strings"
	"testing"

	"github.com/boaopt/boa/space"
)

func TestNamedProblem(t *testing.T) {
	for name, dim := range map[string]int{"branin": 0, "ackley": 5, "func3c": 0, "jenatton": 0} {
		if _, err := Named(name, dim); err != nil {
			t.Errorf("Named(%q, %d): %v", name, dim, err)
		}
	}
	for _, c := range []struct {
		name string
		dim  int
		want string
	}{
		{"pest", 3, "pest has a fixed space; --dim applies to the test functions only"},
		{"nope", 0, `unknown function "nope"; test functions: `},
	} {
		if _, err := Named(c.name, c.dim); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Named(%q, %d) = %v, want an error with %q", c.name, c.dim, err, c.want)
		}
	}
}

func TestFunctionOf(t *testing.T) {
	sp, err := space.New(space.Param{Name: "a", Kind: space.Float, Low: -5, High: 10}, space.Param{Name: "b", Kind: space.Float, Low: 0, High: 15})
	if err != nil {
		t.Fatal(err)
	}
	f, err := FunctionOf("branin", sp)
	if err != nil {
		t.Fatal(err)
	}
	if got, m := f(space.Assignment{"a": 3.14159265358979, "b": 2.275}); m != nil || got > 0.3979 || got < 0.3978 {
		t.Errorf("branin at an optimum = %v, want 0.39789", got)
	}
	mixed, err := space.New(space.Param{Name: "a", Kind: space.Float, Low: 0, High: 1}, space.Param{Name: "k", Kind: space.Int, Low: 0, High: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FunctionOf("branin", mixed); err == nil || !strings.Contains(err.Error(), "branin takes float parameters; k is int") {
		t.Errorf("an int parameter: %v", err)
	}
}
