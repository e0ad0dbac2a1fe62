package problems

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/boaopt/boa/problems/bbob"
	"github.com/boaopt/boa/problems/conditional"
	"github.com/boaopt/boa/problems/functions"
	"github.com/boaopt/boa/problems/mixed"
	"github.com/boaopt/boa/problems/nas"
	"github.com/boaopt/boa/problems/sklearn"
	"github.com/boaopt/boa/problems/tabular"
	"github.com/boaopt/boa/space"
)

// Problem is a benchmark problem: a search space and an objective to
// minimise. Evaluate may draw noise from rng.
type Problem interface {
	Name() string
	Space() *space.Space
	Evaluate(a space.Assignment, rng *rand.Rand) (float64, error)
	// Optimum is the known minimum, the reference of regret; ok is false
	// when it is not known.
	Optimum() (f float64, ok bool)
}

// TestRegretter is a problem that also scores the configuration a run
// would recommend on held-out data (NAS-Bench-201's test accuracy).
type TestRegretter interface {
	TestRegret(a space.Assignment) (float64, bool)
}

// Suites are the lists of problems a name given to --problems stands for:
// the real-task suite of issue 37 and the tasks kept out of it.
var Suites = map[string]func() []string{"sklearn-suite": sklearn.Suite, "sklearn-extra": sklearn.Extra}

// Expand replaces each suite name of names by its problems.
func Expand(names []string) []string {
	var out []string
	for _, n := range names {
		if suite, ok := Suites[n]; ok {
			out = append(out, suite()...)
		} else {
			out = append(out, n)
		}
	}
	return out
}

// Parse reads a problem name as given to --problems: a test
// function ("branin", "ackley:5" for a dimension), a BBOB instance
// ("bbob:F:D:I" for function F in dimension D, instance I), a mixed
// categorical problem of the CoCaBO and CASMOPOLITAN papers ("func2c",
// "pest", "maxsat60", ...), a problem on a conditional space
// ("jenatton"), the synthetic NAS-Bench-201 oracle ("nb201-synthetic"), a
// GKLS function ("gkls:2:simple:1") or a constrained problem ("branin_c",
// "gkls-c:2:hard:3", "nb201-latency:pixel2:18"; see Fixed) or a
// multi-objective one (MultiObjective: "zdt1", "zdt2:10", "dtlz2",
// "nb201-acc-latency:pixel2").
func Parse(spec string) (Problem, error) {
	if p, found, err := newMultiObjective(spec); found && err != nil {
		return nil, fmt.Errorf("problem %q: %w", spec, err)
	} else if found {
		return p, nil
	}
	if p, found, err := Fixed(spec); found && err != nil {
		return nil, fmt.Errorf("problem %q: %w", spec, err)
	} else if found {
		return p, nil
	}
	parts := strings.Split(spec, ":")
	if parts[0] == "bbob" {
		if len(parts) != 4 {
			return nil, fmt.Errorf("problem %q: want bbob:F:D:I (function 1..24, dimension, instance), e.g. bbob:15:5:1", spec)
		}
		var n [3]int
		for i, p := range parts[1:] {
			v, err := strconv.Atoi(p)
			if err != nil {
				return nil, fmt.Errorf("problem %q: %q is not an integer", spec, p)
			}
			n[i] = v
		}
		f, err := bbob.New(n[0], n[2], n[1])
		if err != nil {
			return nil, fmt.Errorf("problem %q: %w", spec, err)
		}
		return newBBOB(spec, f), nil
	}
	dim := 0
	if len(parts) == 2 {
		d, err := strconv.Atoi(parts[1])
		if err != nil || d < 1 {
			return nil, fmt.Errorf("problem %q: the dimension %q must be a positive integer", spec, parts[1])
		}
		dim = d
	} else if len(parts) > 2 {
		return nil, fmt.Errorf("problem %q: want NAME or NAME:DIM, e.g. ackley:5", spec)
	}
	fn, err := functions.Get(parts[0], dim)
	if err != nil {
		return nil, fmt.Errorf("problem %q: %w", spec, err)
	}
	return newFunction(spec, fn.Dim, fn.Lower, fn.Upper, fn.F, fn.Optimum), nil
}

// Fixed returns the named problem whose space is fixed: a constrained
// problem (constrained.go: branin_c, ..., gkls-c:2:simple:1,
// nb201-latency:pixel2:18), a real tuning task of scikit-learn
// (problems/sklearn: sklearn:MODEL:DATASET[:METRIC]), a noisy benchmark function
// (branin_fitbo:noisy, see Noisy), a GKLS function (gkls:D:CLASS:N), a mixed
// problem of the CoCaBO and CASMOPOLITAN papers, a conditional one or the
// synthetic NAS-Bench-201 oracle.
// found is false when no such problem has the name; err says why a found
// one could not be made (MaxSAT-60 or NB201 latencies without their data).
func Fixed(name string) (p Problem, found bool, err error) {
	if p, found, err := constrainedFixed(name); found {
		return p, found, err
	}
	if p, found, err := noisyFixed(name); found {
		return p, found, err
	}
	if strings.HasPrefix(name, sklearn.Prefix) {
		p, err := sklearn.New(name)
		if err != nil {
			return nil, true, err
		}
		return p, true, nil
	}
	if name == nas.SyntheticName {
		return nas.NewSynthetic(), true, nil
	}
	if c, err := conditional.Get(name); err == nil {
		return c, true, nil
	}
	m, err := mixed.Get(name)
	switch {
	case errors.Is(err, mixed.ErrUnknownProblem):
		return nil, false, nil
	case err != nil:
		return nil, true, err
	}
	return m, true, nil
}

// Function is the test function fn as a problem named after it,
// with the parameters x1..xd of Parse's functions.
func Function(fn functions.Function) Problem {
	return newFunction(fn.Name, fn.Dim, fn.Lower, fn.Upper, fn.F, fn.Optimum)
}

// FunctionOf is the test function name as the objective of a study file
// (objective.function, for demos and tests): a function of the space's
// parameters in order, which must be unconditional floats, returning the
// value and, for a constrained problem (Metrics), the metrics its
// constraints limit.
func FunctionOf(name string, sp *space.Space) (func(space.Assignment) (float64, map[string]float64), error) {
	for _, p := range sp.Params() {
		switch {
		case p.Kind != space.Float:
			return nil, fmt.Errorf("%s takes float parameters; %s is %s", name, p.Name, p.Kind)
		case len(p.When) > 0:
			return nil, fmt.Errorf("%s takes unconditional float parameters; %s has a when: condition", name, p.Name)
		}
	}
	if len(Metrics(name)) > 0 {
		return constrainedFunction(name, sp)
	}
	fn, err := functions.Get(name, sp.Len())
	if err != nil {
		return nil, err
	}
	return func(a space.Assignment) (float64, map[string]float64) {
		x := make([]float64, fn.Dim)
		for i, p := range sp.Params() {
			x[i] = a[p.Name].(float64) // checked above
		}
		return fn.F(x), nil
	}, nil
}

// Named is the problem boa run --function NAME --dim D minimises:
// a test function in dimension dim (0: its default), or a problem whose
// space is fixed (Fixed), for which dim must be 0.
func Named(name string, dim int) (Problem, error) {
	p, found, err := Fixed(name)
	switch {
	case found && err != nil:
		return nil, err // e.g. MaxSAT-60 without its data
	case found && dim != 0:
		return nil, fmt.Errorf("%s has a fixed space; --dim applies to the test functions only", name)
	case found:
		return p, nil
	}
	fn, err := functions.Get(name, dim)
	if errors.Is(err, functions.ErrUnknownFunction) {
		return nil, fmt.Errorf("unknown function %q; test functions: %s; mixed problems: %s; conditional: %s",
			name, strings.Join(functions.Names(), ", "), strings.Join(mixed.Names(), ", "), strings.Join(conditional.Names(), ", "))
	}
	if err != nil {
		return nil, err
	}
	return Function(fn), nil
}

// function is a continuous problem on a box, parameters x1..xd.
type function struct {
	name    string
	sp      *space.Space
	f       func([]float64) float64
	optimum float64
}

func newFunction(name string, d int, lo, hi []float64, f func([]float64) float64, optimum float64) *function {
	ps := make([]space.Param, d)
	for i := range ps {
		ps[i] = space.Param{Name: fmt.Sprintf("x%d", i+1), Kind: space.Float, Low: lo[i], High: hi[i]}
	}
	return &function{name: name, sp: space.MustNew(ps...), f: f, optimum: optimum}
}

func newBBOB(name string, f *bbob.Function) *function {
	lo, hi := make([]float64, f.Dim), make([]float64, f.Dim)
	for i := range lo {
		lo[i], hi[i] = -5, 5
	}
	return newFunction(name, f.Dim, lo, hi, f.Eval, f.FOpt)
}

func (p *function) Name() string        { return p.name }
func (p *function) Space() *space.Space { return p.sp }
func (p *function) Optimum() (float64, bool) {
	return p.optimum, !math.IsNaN(p.optimum)
}

func (p *function) Evaluate(a space.Assignment, _ *rand.Rand) (float64, error) {
	x, err := p.point(a)
	if err != nil {
		return 0, err
	}
	return p.f(x), nil
}

// point returns the coordinates of a, x1..xd in order.
func (p *function) point(a space.Assignment) ([]float64, error) {
	x := make([]float64, p.sp.Len())
	for i, name := range p.sp.Names() {
		v, ok := a[name].(float64)
		if !ok {
			return nil, fmt.Errorf("%s: parameter %s is %T, want a float", p.name, name, a[name])
		}
		x[i] = v
	}
	return x, nil
}

// table is a tabular benchmark problem.
type table struct {
	t     *tabular.Table
	noisy bool
}

// Table loads a tabular problem from "KIND:PATH" (--table).
func Table(spec string, noisy bool) (Problem, error) {
	kind, path, err := tabular.ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	t, err := tabular.Load(kind, path)
	if err != nil {
		return nil, err
	}
	return &table{t: t, noisy: noisy}, nil
}

func (p *table) Name() string {
	if p.noisy {
		return p.t.Name() + "-noisy"
	}
	return p.t.Name()
}
func (p *table) Space() *space.Space      { return p.t.Space() }
func (p *table) Optimum() (float64, bool) { return p.t.Optimum(), true }
func (p *table) Evaluate(a space.Assignment, rng *rand.Rand) (float64, error) {
	return p.t.Objective(a, p.noisy, rng)
}
func (p *table) TestRegret(a space.Assignment) (float64, bool) { return p.t.TestRegret(a) }
