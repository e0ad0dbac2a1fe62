package peers

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/c-bata/goptuna"

	"github.com/boaopt/boa/space"
)

func TestEvenStep(t *testing.T) {
	for _, tc := range []struct {
		values []float64
		want   float64
	}{
		{[]float64{0, 0.3, 0.6}, 0.3},
		{[]float64{0.1, 0.2, 0.3}, 0.1}, // float64 differences are not all equal
		{[]float64{16, 32, 48, 64}, 16},
		{[]float64{-1, 1}, 2},
		{[]float64{1, 2, 4, 8}, 0},
		{[]float64{1e-8, 1e-7, 1e-6}, 0},
		{[]float64{5}, 0},
	} {
		if got := evenStep(tc.values); got != tc.want {
			t.Errorf("evenStep(%v) = %v, want %v", tc.values, got, tc.want)
		}
	}
}

func TestNearest(t *testing.T) {
	values := []float64{0.1, 0.2, 0.3}
	for _, tc := range []struct{ x, want float64 }{
		{0.1, 0.1}, {0.30000000000000004, 0.3}, {0.19999999999999998, 0.2},
		{-1, 0.1}, {9, 0.3}, {0.15, 0.1}, {0.26, 0.3},
	} {
		if got := nearest(values, tc.x); got != tc.want {
			t.Errorf("nearest(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
}

// TestPlans checks the suggest order: parents first, declaration order
// otherwise.
func TestPlans(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "grandchild", Kind: space.Float, Low: 0, High: 1, When: map[string][]string{"child": {"true"}}},
		space.Param{Name: "a", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "child", Kind: space.Bool, When: map[string][]string{"root": {"x"}}},
		space.Param{Name: "root", Kind: space.Categorical, Choices: []string{"x", "y"}},
		space.Param{Name: "b", Kind: space.Int, Low: 0, High: 3},
	)
	var got []string
	for _, pl := range plans(sp) {
		got = append(got, pl.Name)
	}
	want := []string{"a", "root", "child", "grandchild", "b"}
	if !slices.Equal(got, want) {
		t.Errorf("plan order %v, want %v", got, want)
	}
}

func TestActive(t *testing.T) {
	p := space.Param{Name: "c", When: map[string][]string{"k": {"2", "3"}, "o": {"0.5"}, "f": {"true"}}}
	for _, tc := range []struct {
		a    space.Assignment
		want bool
	}{
		{space.Assignment{"k": 2, "o": 0.5, "f": true}, true},
		{space.Assignment{"k": 4, "o": 0.5, "f": true}, false},
		{space.Assignment{"k": 3, "o": 0.25, "f": true}, false},
		{space.Assignment{"k": 3, "o": 0.5, "f": false}, false},
		{space.Assignment{"o": 0.5, "f": true}, false}, // inactive parent
	} {
		if got := active(p, tc.a); got != tc.want {
			t.Errorf("active(%v) = %v, want %v", tc.a, got, tc.want)
		}
	}
}

func TestWhenValue(t *testing.T) {
	for _, tc := range []struct {
		par  space.Param
		s    string
		want any
	}{
		{space.Param{Kind: space.Int, Low: 1, High: 9}, "3", 3},
		{space.Param{Kind: space.Ordinal, Values: []float64{1e-5, 0.1}}, "1e-05", 1e-5},
		{space.Param{Kind: space.Bool}, "true", true},
		{space.Param{Kind: space.Categorical, Choices: []string{"a"}}, "a", "a"},
	} {
		if got := whenValue(tc.par, tc.s); got != tc.want {
			t.Errorf("whenValue(%v, %q) = %#v, want %#v", tc.par.Kind, tc.s, got, tc.want)
		}
	}
}

// TestGoptunaDist checks the native goptuna form of each kind.
func TestGoptunaDist(t *testing.T) {
	for _, tc := range []struct {
		p    space.Param
		want any
	}{
		{space.Param{Kind: space.Float, Low: -1, High: 2}, goptuna.UniformDistribution{Low: -1, High: 2}},
		{space.Param{Kind: space.Float, Low: 1e-3, High: 1, Log: true}, goptuna.LogUniformDistribution{Low: 1e-3, High: 1}},
		{space.Param{Kind: space.Int, Low: 0, High: 9}, goptuna.IntUniformDistribution{Low: 0, High: 9}},
		{space.Param{Kind: space.Int, Low: 1, High: 64, Log: true}, goptuna.LogUniformDistribution{Low: 0.5, High: 64.5}},
		{space.Param{Kind: space.Ordinal, Values: []float64{0, 0.3, 0.6}}, goptuna.DiscreteUniformDistribution{Low: 0, High: 0.6, Q: 0.3}},
		{space.Param{Kind: space.Ordinal, Values: []float64{1, 2, 4}}, goptuna.IntUniformDistribution{Low: 0, High: 2}},
		{space.Param{Kind: space.Categorical, Choices: []string{"a", "b"}}, goptuna.CategoricalDistribution{Choices: []string{"a", "b"}}},
		{space.Param{Kind: space.Bool}, goptuna.CategoricalDistribution{Choices: []string{"false", "true"}}},
	} {
		pl := plan{Param: tc.p}
		if tc.p.Kind == space.Ordinal {
			pl.step = evenStep(tc.p.Values)
		}
		if got := pl.goptunaDist(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v: got %#v, want %#v", tc.p.Kind, got, tc.want)
		}
	}
}

// TestCMASearchSpace checks the space declared to goptuna's CMA-ES:
// unconditional parameters only, and none when fewer than two are numeric.
func TestCMASearchSpace(t *testing.T) {
	def := cmaSearchSpace(plans(mixedSpace()))
	var got []string
	for name := range def {
		got = append(got, name)
	}
	slices.Sort(got)
	if want := []string{"depth", "lr", "opt", "width", "x"}; !slices.Equal(got, want) {
		t.Errorf("CMA-ES space %v, want %v", got, want)
	}
	one := space.MustNew(
		space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "c", Kind: space.Categorical, Choices: []string{"a", "b"}},
	)
	if def := cmaSearchSpace(plans(one)); def != nil {
		t.Errorf("one numeric parameter: got %v, want nil", def)
	}
}

func TestTail(t *testing.T) {
	tl := &tail{max: 2}
	tl.Write([]byte("one\ntw"))
	tl.Write([]byte("o\nthree\nfour"))
	if got, want := tl.suffix(), "; its last stderr lines:\n\ttwo\n\tthree\n\tfour"; got != want {
		t.Errorf("suffix = %q, want %q", got, want)
	}
	if got := (&tail{max: 2}).suffix(); got != "" {
		t.Errorf("empty tail: %q", got)
	}
	if s := trim([]byte(strings.Repeat("x", 300))); len(s) > 210 {
		t.Errorf("trim left %d bytes", len(s))
	}
}
