package constrained

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/boaopt/boa/space"
)

// Sense says how a constraint's value must compare with its limit.
type Sense int

// The senses. The printed problems use all four; the strict ones matter on
// the boundary (the literal Rosenbrock's x* fails "<" and holds "≤").
const (
	LessEq    Sense = iota // Value ≤ Limit
	Less                   // Value < Limit
	GreaterEq              // Value ≥ Limit
	Greater                // Value > Limit
)

var senseNames = [...]string{"<=", "<", ">=", ">"}

// String returns the comparison: "<=", "<", ">=" or ">".
func (s Sense) String() string {
	if s >= 0 && int(s) < len(senseNames) {
		return senseNames[s]
	}
	return fmt.Sprintf("Sense(%d)", int(s))
}

// Holds reports whether value compares with limit as s says. NaN never holds.
func (s Sense) Holds(value, limit float64) bool {
	switch s {
	case LessEq:
		return value <= limit
	case Less:
		return value < limit
	case GreaterEq:
		return value >= limit
	case Greater:
		return value > limit
	}
	return false
}

// Constraint is one constraint measured at a point: it holds iff Value
// compares with Limit as Sense says. The fields are those of the project's
// evaluation result [spec §1].
type Constraint struct {
	Name  string
	Value float64
	Limit float64
	Sense Sense
}

// Holds reports whether the constraint is satisfied.
func (c Constraint) Holds() bool { return c.Sense.Holds(c.Value, c.Limit) }

// String writes the constraint as "name = value <= limit".
func (c Constraint) String() string {
	return fmt.Sprintf("%s = %g %s %g", c.Name, c.Value, c.Sense, c.Limit)
}

// Result is a problem evaluated at one point. The objective is computed
// everywhere, also where the point is infeasible, so that tests and plots
// can see it; an optimiser must not: it takes Loss, which withholds it
// there [spec §7.1: infeasible points return no value].
type Result struct {
	F           float64      // objective, also at infeasible points
	Constraints []Constraint // in the problem's order
	Feasible    bool         // every constraint holds
}

// Loss returns the objective and true at a feasible point, NaN and false at
// an infeasible one: the optimiser records δ = −1 with no loss there
// [spec §1, §7.1].
func (r Result) Loss() (float64, bool) {
	if !r.Feasible {
		return math.NaN(), false
	}
	return r.F, true
}

// constraint is the definition of one constraint: g(x) compared with limit.
type constraint struct {
	name  string
	g     func(x []float64) float64
	limit float64
	sense Sense
}

// Problem is a constrained test problem to be minimised, in native
// coordinates. It is immutable and safe for concurrent use.
//
// Problem does not implement problems.Problem on purpose: its Evaluate
// returns a Result with the constraints, so that a harness without a notion
// of feasibility cannot score an infeasible point by mistake.
type Problem struct {
	name    string
	lo, hi  []float64
	grid    [][]float64 // the legal values of each coordinate; nil when continuous
	f       func(x []float64) float64
	cons    []constraint
	fopt    float64
	xopt    []float64
	literal bool
	sp      *space.Space
}

// newProblem makes a continuous problem on the box [lo, hi] with parameters
// x1..xd. The problems are fixed in code, so a bad declaration panics.
func newProblem(name string, lo, hi []float64, f func([]float64) float64, cons ...constraint) *Problem {
	if len(lo) != len(hi) {
		panic("constrained: bounds of different lengths")
	}
	ps := make([]space.Param, len(lo))
	for i := range ps {
		ps[i] = space.Param{Name: fmt.Sprintf("x%d", i+1), Kind: space.Float, Low: lo[i], High: hi[i]}
	}
	return &Problem{name: name, lo: lo, hi: hi, f: f, cons: cons, fopt: math.NaN(), sp: space.MustNew(ps...)}
}

// discretised returns p on the grid of n equally spaced values per
// coordinate, ends included, as ordinal parameters x1..xd.
func (p *Problem) discretised(name string, n int) *Problem {
	q := *p
	q.name = name
	q.grid = make([][]float64, len(p.lo))
	ps := make([]space.Param, len(p.lo))
	for i := range q.grid {
		v := make([]float64, n)
		for k := range v {
			// A weighted mean of the ends keeps them exact and the grid
			// symmetric, unlike lo + k·(hi − lo)/(n − 1).
			v[k] = (p.lo[i]*float64(n-1-k) + p.hi[i]*float64(k)) / float64(n-1)
		}
		q.grid[i] = v
		ps[i] = space.Param{Name: fmt.Sprintf("x%d", i+1), Kind: space.Ordinal, Values: v}
	}
	q.sp = space.MustNew(ps...)
	return &q
}

// withOptimum records the known minimum f* and a minimiser x*.
func (p *Problem) withOptimum(f float64, x ...float64) *Problem {
	p.fopt, p.xopt = f, x
	return p
}

// printedAsIs flags a literal printed variant.
func (p *Problem) printedAsIs() *Problem {
	p.literal = true
	return p
}

// Name returns the registered name.
func (p *Problem) Name() string { return p.name }

// Dim returns the number of variables.
func (p *Problem) Dim() int { return len(p.lo) }

// Bounds returns copies of the lower and upper bounds of the native box.
func (p *Problem) Bounds() (lower, upper []float64) {
	return slices.Clone(p.lo), slices.Clone(p.hi)
}

// Space returns the search space: floats x1..xd on the box, or, for a
// discretised problem, ordinals x1..xd whose values are the grid.
func (p *Problem) Space() *space.Space { return p.sp }

// Grid returns copies of the legal values of each coordinate of a
// discretised problem, nil for a continuous one.
func (p *Problem) Grid() [][]float64 {
	if p.grid == nil {
		return nil
	}
	g := make([][]float64, len(p.grid))
	for i, v := range p.grid {
		g[i] = slices.Clone(v)
	}
	return g
}

// Literal reports whether the problem is a variant as printed in the
// thesis, kept to show what the errata change, not the corrected problem
// [spec §7.1 Decision].
func (p *Problem) Literal() bool { return p.literal }

// Optimum returns the minimum of the objective over the feasible set (over
// the feasible grid points of a discretised problem); ok is false when it
// is not known.
func (p *Problem) Optimum() (f float64, ok bool) { return p.fopt, !math.IsNaN(p.fopt) }

// Minimizer returns a copy of a feasible point where the objective is
// Optimum, nil when it is not known.
func (p *Problem) Minimizer() []float64 { return slices.Clone(p.xopt) }

// Eval evaluates the problem at x in native coordinates. A discretised
// problem first moves each coordinate to its nearest grid value, so it is
// piecewise constant over the box. Points outside the box are evaluated as
// they are (Evaluate rejects them). It panics if len(x) != Dim().
func (p *Problem) Eval(x []float64) Result {
	x = p.point(x)
	r := Result{F: p.f(x), Constraints: make([]Constraint, len(p.cons)), Feasible: true}
	for i, c := range p.cons {
		r.Constraints[i] = Constraint{Name: c.name, Value: c.g(x), Limit: c.limit, Sense: c.sense}
		r.Feasible = r.Feasible && r.Constraints[i].Holds()
	}
	return r
}

// Objective returns the objective at x, feasible or not.
func (p *Problem) Objective(x []float64) float64 { return p.f(p.point(x)) }

// Feasible reports whether every constraint holds at x.
func (p *Problem) Feasible(x []float64) bool {
	x = p.point(x)
	for _, c := range p.cons {
		if !c.sense.Holds(c.g(x), c.limit) {
			return false
		}
	}
	return true
}

// Evaluate evaluates the problem at the assignment a, which must be valid
// in Space().
func (p *Problem) Evaluate(a space.Assignment) (Result, error) {
	c, err := p.sp.Canonical(a)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", p.name, err)
	}
	x := make([]float64, p.sp.Len())
	for i, name := range p.sp.Names() {
		x[i] = c[name].(float64) // Float and Ordinal values are float64 once canonical
	}
	return p.Eval(x), nil
}

// point checks the length of x and snaps it to the grid, if any.
func (p *Problem) point(x []float64) []float64 {
	if len(x) != len(p.lo) {
		panic(fmt.Sprintf("constrained: %s: len(x) = %d, want %d", p.name, len(x), len(p.lo)))
	}
	if p.grid == nil {
		return x
	}
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = nearest(p.grid[i], v)
	}
	return y
}

// nearest returns the value of the sorted slice vs closest to v (the lower
// one on a tie).
func nearest(vs []float64, v float64) float64 {
	k, _ := slices.BinarySearch(vs, v)
	switch {
	case k == 0:
		return vs[0]
	case k == len(vs):
		return vs[len(vs)-1]
	case v-vs[k-1] <= vs[k]-v:
		return vs[k-1]
	}
	return vs[k]
}

// ErrUnknownProblem is wrapped by Get when no problem has the name.
var ErrUnknownProblem = errors.New("unknown constrained test problem")

// registry maps each canonical name to its constructor.
var registry = map[string]func() *Problem{
	"branin_c":              newBraninC,
	"branin_c_literal":      newBraninCLiteral,
	"rosenbrock_c":          newRosenbrockC,
	"rosenbrock_c_literal":  newRosenbrockCLiteral,
	"michalewicz_c":         newMichalewiczC,
	"michalewicz_c_literal": newMichalewiczCLiteral,
	"mishra_bird_c":         newMishraBirdC,
	"mishra_bird_c_disc":    newMishraBirdCDisc,
	"gramacy_c":             newGramacyC,
	"alpine2_c":             newAlpine2C,
	"toy1":                  newToy1,
	"toy2":                  newToy2,
}

// aliases are other names Get accepts: the reference code's names for the
// same problems [reference code: ricky151192/SVMCBO] and short forms.
var aliases = map[string]string{
	"rosenbrock_fun_c_2": "rosenbrock_c",
	"mishra_c":           "mishra_bird_c",
	"mishra_c_disc":      "mishra_bird_c_disc",
	"test54":             "gramacy_c",
	"gramacy":            "gramacy_c",
	"alpine_n2_c":        "alpine2_c",
}

// Names returns the sorted canonical names Get accepts (aliases aside).
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Get returns the problem registered under name (case-insensitive; the
// aliases of the package documentation allowed). Errors wrap
// ErrUnknownProblem.
func Get(name string) (*Problem, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if a, ok := aliases[n]; ok {
		n = a
	}
	build, ok := registry[n]
	if !ok {
		return nil, fmt.Errorf("constrained: %w %q; known names: %s",
			ErrUnknownProblem, name, strings.Join(Names(), ", "))
	}
	return build(), nil
}
