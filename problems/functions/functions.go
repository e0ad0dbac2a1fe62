package functions

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Function is a test function to be minimised, written in its native domain.
type Function struct {
	Name         string
	Dim          int
	Lower, Upper []float64                 // native box
	Optimum      float64                   // f*; math.NaN() when not known for this dimension
	Minimizers   [][]float64               // known global minimisers (native), may be empty
	F            func(x []float64) float64 // native coordinates
}

// ErrUnknownFunction is wrapped by Get when no function is registered under a name.
var ErrUnknownFunction = errors.New("unknown test function")

// ErrDimension is wrapped by Get when a function does not exist in the requested dimension.
var ErrDimension = errors.New("unsupported dimension")

// MaxDim is the largest dimension Get accepts. It is far above any use of
// these functions; it is there so that a mistyped dimension (--dim
// 100000000) gets an error instead of exhausting memory on the box and
// minimiser slices.
const MaxDim = 100000

// Eval returns f(x) for x in native coordinates.
// It panics if len(x) != f.Dim.
func (f Function) Eval(x []float64) float64 {
	if len(x) != f.Dim {
		panic(fmt.Sprintf("functions: %s: len(x) = %d, want %d", f.Name, len(x), f.Dim))
	}
	return f.F(x)
}

// EvalUnit returns f at the point of the native box that u ∈ [0,1]^Dim maps to
// linearly (0 → Lower, 1 → Upper). Points outside the unit cube are
// extrapolated, not clamped. It panics if len(u) != f.Dim.
func (f Function) EvalUnit(u []float64) float64 {
	if len(u) != f.Dim {
		panic(fmt.Sprintf("functions: %s: len(u) = %d, want %d", f.Name, len(u), f.Dim))
	}
	x := make([]float64, len(u))
	for i, v := range u {
		x[i] = f.Lower[i] + v*(f.Upper[i]-f.Lower[i])
	}
	return f.F(x)
}

// Regret returns best − Optimum, the simple regret of the best value found.
// It is NaN when the optimum is not known for this dimension.
func (f Function) Regret(best float64) float64 {
	return best - f.Optimum
}

// entry describes one registered function family.
type entry struct {
	name    string
	aliases []string
	defDim  int  // dimension used when Get is called with dim == 0
	fixed   bool // only defDim is allowed
	minDim  int  // smallest dimension allowed when not fixed
	build   func(d int) Function
}

var registry = []entry{
	{name: "ackley", defDim: 2, minDim: 1, build: newAckley},
	{name: "ackley_small", aliases: []string{"ackley-small"}, defDim: 2, minDim: 1,
		build: func(d int) Function { return scaled(newAckley(d), "ackley_small", 20) }},
	{name: "beale", defDim: 2, fixed: true, build: func(int) Function { return newBeale() }},
	{name: "branin", aliases: []string{"branin-hoo", "braninhoo"}, defDim: 2, fixed: true,
		build: func(int) Function { return newBranin() }},
	{name: "camel6", aliases: []string{"sixhumpcamel", "six-hump-camel", "six_hump_camel"}, defDim: 2, fixed: true,
		build: func(int) Function { return newCamel6() }},
	// The 1-D regression target of the uncertain-input chapter [002 Eq. 3.63] (decayingsin.go).
	{name: "decaying_sin", aliases: []string{"decaying-sin", "decayingsin"}, defDim: 1, fixed: true,
		build: func(int) Function { return newDecayingSin() }},
	{name: "eggholder", defDim: 2, fixed: true, build: func(int) Function { return newEggholder() }},
	{name: "eggholder_small", aliases: []string{"eggholder-small"}, defDim: 2, fixed: true,
		build: func(int) Function { return scaled(newEggholder(), "eggholder_small", 100) }},
	{name: "hartmann3", aliases: []string{"hartmann-3"}, defDim: 3, fixed: true, build: func(int) Function { return newHartmann3() }},
	{name: "hartmann6", aliases: []string{"hartmann-6"}, defDim: 6, fixed: true, build: func(int) Function { return newHartmann6() }},
	{name: "levy", defDim: 2, minDim: 1, build: newLevy},
	{name: "michalewicz", defDim: 2, minDim: 1, build: newMichalewicz},
	{name: "rosenbrock", defDim: 2, minDim: 2, build: newRosenbrock},
	// FITBO's benchmarks on [0,1]^d, outputs rescaled [spec §9.3] (fitbo.go).
	{name: "branin_fitbo", aliases: []string{"branin-fitbo"}, defDim: 2, fixed: true,
		build: func(int) Function { return newBraninFITBO() }},
	{name: "eggholder_fitbo", aliases: []string{"eggholder-fitbo"}, defDim: 2, fixed: true,
		build: func(int) Function { return newEggholderFITBO() }},
	{name: "hartmann6_fitbo", aliases: []string{"hartmann6-fitbo", "hartmann-6-fitbo"}, defDim: 6, fixed: true,
		build: func(int) Function { return newHartmann6FITBO() }},
	// Posterior means of GP draws [spec §8.3] (gpsample.go).
	{name: "mat2", aliases: []string{"mat-2"}, defDim: 2, fixed: true, build: func(int) Function { return newGPSample("mat2") }},
	{name: "mat6", aliases: []string{"mat-6"}, defDim: 6, fixed: true, build: func(int) Function { return newGPSample("mat6") }},
	{name: "gpdraw2", defDim: 2, fixed: true, build: func(int) Function { return newGPSample("gpdraw2") }},
	{name: "gpdraw3", defDim: 3, fixed: true, build: func(int) Function { return newGPSample("gpdraw3") }},
	{name: "gpdraw4", defDim: 4, fixed: true, build: func(int) Function { return newGPSample("gpdraw4") }},
	{name: "styblinskitang", aliases: []string{"styblinski-tang", "styblinski_tang"}, defDim: 2, minDim: 1,
		build: newStyblinskiTang},
}

// byName maps canonical names and aliases (lower case) to registry entries.
var byName = func() map[string]*entry {
	m := make(map[string]*entry)
	for i := range registry {
		e := &registry[i]
		for _, n := range append([]string{e.name}, e.aliases...) {
			if _, dup := m[n]; dup {
				panic("functions: duplicate registration of " + n)
			}
			m[n] = e
		}
	}
	return m
}()

// Get returns the function registered under name (case-insensitive; aliases
// allowed) in dimension dim. dim == 0 means the function's default dimension.
// Fixed-dimension functions reject other dimensions, the others dimensions
// above MaxDim. Errors wrap ErrUnknownFunction or ErrDimension.
func Get(name string, dim int) (Function, error) {
	e, ok := byName[strings.ToLower(strings.TrimSpace(name))]
	if !ok {
		return Function{}, fmt.Errorf("functions: %w %q; known names: %s",
			ErrUnknownFunction, name, strings.Join(Names(), ", "))
	}
	switch {
	case dim == 0:
		dim = e.defDim
	case e.fixed && dim != e.defDim:
		return Function{}, fmt.Errorf("functions: %w: %s is defined only in dimension %d, got %d (use 0 or %d)",
			ErrDimension, e.name, e.defDim, dim, e.defDim)
	case !e.fixed && dim < e.minDim:
		return Function{}, fmt.Errorf("functions: %w: %s needs dimension >= %d, got %d",
			ErrDimension, e.name, e.minDim, dim)
	case dim > MaxDim:
		return Function{}, fmt.Errorf("functions: %w: %s: dimension %d is above the limit %d",
			ErrDimension, e.name, dim, MaxDim)
	}
	return e.build(dim), nil
}

// Names returns the sorted canonical names of all registered functions.
func Names() []string {
	names := make([]string, len(registry))
	for i, e := range registry {
		names[i] = e.name
	}
	slices.Sort(names)
	return names
}

// box returns lower and upper bounds of the cube [lo, hi]^d.
func box(d int, lo, hi float64) (lower, upper []float64) {
	return filled(d, lo), filled(d, hi)
}

// filled returns a slice of length d with every element set to v.
func filled(d int, v float64) []float64 {
	s := make([]float64, d)
	for i := range s {
		s[i] = v
	}
	return s
}

// scaled returns base with its output (and optimum) divided by c, so that the
// variant matches the PLAyBOOK benchmark scaling [spec §8.2].
func scaled(base Function, name string, c float64) Function {
	f := base.F
	base.Name = name
	base.Optimum /= c
	base.F = func(x []float64) float64 { return f(x) / c }
	return base
}
