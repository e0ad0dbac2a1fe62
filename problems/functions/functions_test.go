package functions

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	want := []string{
		"ackley", "ackley_small", "beale", "branin", "branin_fitbo", "camel6", "decaying_sin", "eggholder", "eggholder_fitbo",
		"eggholder_small", "gpdraw2", "gpdraw3", "gpdraw4", "hartmann3", "hartmann6", "hartmann6_fitbo", "levy",
		"mat2", "mat6", "michalewicz", "rosenbrock", "styblinskitang",
	}
	got := Names()
	if !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	for _, n := range got {
		f, err := Get(n, 0)
		if err != nil {
			t.Fatalf("Get(%q, 0): %v", n, err)
		}
		if f.Name != n {
			t.Errorf("Get(%q, 0).Name = %q", n, f.Name)
		}
	}
}

func TestGetAliasesAndDefaults(t *testing.T) {
	for _, tc := range []struct {
		name     string
		dim      int
		wantName string
		wantDim  int
	}{
		{"Branin", 0, "branin", 2},
		{"  BRANIN ", 2, "branin", 2},
		{"hartmann3", 0, "hartmann3", 3},
		{"Hartmann6", 0, "hartmann6", 6},
		{"ackley", 0, "ackley", 2},
		{"ackley", 10, "ackley", 10},
		{"ackley_small", 5, "ackley_small", 5},
		{"michalewicz", 0, "michalewicz", 2},
		{"michalewicz", 1, "michalewicz", 1},
		{"rosenbrock", 7, "rosenbrock", 7},
		{"levy", 3, "levy", 3},
		{"styblinski-tang", 0, "styblinskitang", 2},
		{"Styblinski-Tang", 4, "styblinskitang", 4},
		{"sixhumpcamel", 0, "camel6", 2},
		{"six-hump-camel", 2, "camel6", 2},
		{"camel6", 0, "camel6", 2},
		{"beale", 0, "beale", 2},
		{"eggholder_small", 0, "eggholder_small", 2},
	} {
		f, err := Get(tc.name, tc.dim)
		if err != nil {
			t.Errorf("Get(%q, %d): %v", tc.name, tc.dim, err)
			continue
		}
		if f.Name != tc.wantName || f.Dim != tc.wantDim {
			t.Errorf("Get(%q, %d) = %s/%d, want %s/%d", tc.name, tc.dim, f.Name, f.Dim, tc.wantName, tc.wantDim)
		}
		if len(f.Lower) != f.Dim || len(f.Upper) != f.Dim {
			t.Errorf("%s: box has %d/%d bounds for dim %d", f.Name, len(f.Lower), len(f.Upper), f.Dim)
		}
		for i := range f.Lower {
			if !(f.Lower[i] < f.Upper[i]) {
				t.Errorf("%s: empty box in coordinate %d: [%g, %g]", f.Name, i, f.Lower[i], f.Upper[i])
			}
		}
	}
}

func TestGetErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		dim     int
		want    error
		mention string // text a person needs to act on the error
	}{
		{"nosuch", 0, ErrUnknownFunction, "branin"},
		{"", 2, ErrUnknownFunction, "hartmann6"},
		{"branin", 3, ErrDimension, "2"},
		{"hartmann6", 3, ErrDimension, "6"},
		{"hartmann3", 6, ErrDimension, "3"},
		{"eggholder", 1, ErrDimension, "2"},
		{"beale", -1, ErrDimension, "2"},
		{"camel6", 4, ErrDimension, "2"},
		{"rosenbrock", 1, ErrDimension, ">= 2"},
		{"ackley", -3, ErrDimension, ">= 1"},
		{"levy", -1, ErrDimension, ">= 1"},
		// It allocated 2.4 GB for the box and minimiser before any use,
		// and boa run --function ackley --dim 100000000 died out of memory.
		{"ackley", 100000000, ErrDimension, "dimension 100000000 is above the limit 100000"},
		{"michalewicz", MaxDim + 1, ErrDimension, "limit"},
	} {
		_, err := Get(tc.name, tc.dim)
		if err == nil {
			t.Errorf("Get(%q, %d): no error", tc.name, tc.dim)
			continue
		}
		if !errors.Is(err, tc.want) {
			t.Errorf("Get(%q, %d) error %q does not wrap %v", tc.name, tc.dim, err, tc.want)
		}
		if !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("Get(%q, %d) error %q does not mention %q", tc.name, tc.dim, err, tc.mention)
		}
	}
}

// Callers may modify the returned slices; a later Get must not see that.
func TestGetReturnsFreshSlices(t *testing.T) {
	f, _ := Get("branin", 0)
	f.Lower[0] = 99
	f.Minimizers[0][0] = 99
	g, _ := Get("branin", 0)
	if g.Lower[0] != -5 || g.Minimizers[0][0] != -math.Pi {
		t.Fatalf("Get returned shared slices: Lower %v, Minimizers %v", g.Lower, g.Minimizers)
	}
	m, _ := Get("michalewicz", 3)
	m.Minimizers[0][1] = 0
	m2, _ := Get("michalewicz", 3)
	if m2.Minimizers[0][1] != math.Pi/2 {
		t.Fatal("michalewicz minimiser table was modified through a returned slice")
	}
}

func TestEvalUnit(t *testing.T) {
	for _, name := range Names() {
		f, _ := Get(name, 0)
		for _, u := range []float64{0, 0.25, 0.5, 1} {
			unit := filled(f.Dim, u)
			x := make([]float64, f.Dim)
			for i := range x {
				x[i] = f.Lower[i] + u*(f.Upper[i]-f.Lower[i])
			}
			if got, want := f.EvalUnit(unit), f.Eval(x); got != want {
				t.Errorf("%s: EvalUnit(%g…) = %g, Eval(native) = %g", name, u, got, want)
			}
		}
	}
}

func TestEvalPanicsOnLength(t *testing.T) {
	f, _ := Get("hartmann6", 0)
	for _, call := range []func(){
		func() { f.Eval(make([]float64, 5)) },
		func() { f.EvalUnit(make([]float64, 7)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic on wrong input length")
				}
			}()
			call()
		}()
	}
}

func TestRegret(t *testing.T) {
	f, _ := Get("branin", 0)
	if got := f.Regret(f.Optimum + 0.5); math.Abs(got-0.5) > 1e-15 {
		t.Errorf("Regret = %g, want 0.5", got)
	}
	m, _ := Get("michalewicz", 11)
	if !math.IsNaN(m.Optimum) || !math.IsNaN(m.Regret(-3)) || len(m.Minimizers) != 0 {
		t.Errorf("michalewicz d=11: Optimum %g, Regret %g, %d minimisers; want NaN, NaN, 0",
			m.Optimum, m.Regret(-3), len(m.Minimizers))
	}
}

// Hartmann-6 keeps the standard negative sign (the PLAyBOOK code's +Σ is not
// followed) [spec §8.2].
func TestHartmann6Sign(t *testing.T) {
	f, _ := Get("hartmann6", 0)
	if v := f.Eval(f.Minimizers[0]); !(v < -3.3) {
		t.Fatalf("hartmann6 at its minimiser = %g, want ≈ −3.32237", v)
	}
	if v := f.EvalUnit(filled(6, 0.5)); !(v < 0) {
		t.Fatalf("hartmann6 at the centre = %g, want negative", v)
	}
}

func TestScaledVariants(t *testing.T) {
	for _, tc := range []struct {
		small, base string
		dim         int
		c           float64
	}{
		{"ackley_small", "ackley", 5, 20},
		{"ackley_small", "ackley", 10, 20},
		{"eggholder_small", "eggholder", 2, 100},
	} {
		s, _ := Get(tc.small, tc.dim)
		b, _ := Get(tc.base, tc.dim)
		if s.Optimum != b.Optimum/tc.c {
			t.Errorf("%s: Optimum %g, want %g", tc.small, s.Optimum, b.Optimum/tc.c)
		}
		x := filled(tc.dim, 0.3)
		if got, want := s.EvalUnit(x), b.EvalUnit(x)/tc.c; got != want {
			t.Errorf("%s: f = %g, want %g", tc.small, got, want)
		}
	}
	// The PLAyBOOK value: f*_egg = −9.596407 at (1, 0.78951543) in [−1,1]² [spec §8.2].
	e, _ := Get("eggholder_small", 0)
	if v := e.Eval([]float64{512, 0.78951543 * 512}); math.Abs(v-(-9.596407)) > 1e-6 {
		t.Errorf("eggholder_small at the PLAyBOOK minimiser = %.8f, want −9.596407", v)
	}
}
