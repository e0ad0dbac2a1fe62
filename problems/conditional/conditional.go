// Package conditional provides test problems on tree-structured search
// spaces, where a parameter exists only on some branches of others (the
// `when:` of a study file). The mixed problems of package mixed have none.
//
//	jenatton   the function of Jenatton et al., "Bayesian optimization with
//	           tree-structured dependencies", ICML 2017: three binary
//	           choices x1, x2, x3 pick one of four branches, each with its
//	           own float (x4..x7) and a float shared by two (r8, r9), all in
//	           [0,1]; f* = 0.1 at x1 = x2 = 0, x4 = r8 = 0
//
// Every problem is minimised and noise-free.
package conditional

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/boaopt/boa/space"
)

// ErrUnknownProblem is wrapped by Get when no problem has the name.
var ErrUnknownProblem = errors.New("unknown conditional benchmark problem")

// Problem is a test problem on a conditional space, to be minimised. It has
// the method set of problems.Problem; it is immutable and safe for concurrent
// use.
type Problem struct {
	name string
	sp   *space.Space
	f    func(space.Assignment) float64 // on a canonical assignment
	fopt float64
}

func (p *Problem) Name() string             { return p.name }
func (p *Problem) Space() *space.Space      { return p.sp }
func (p *Problem) Optimum() (float64, bool) { return p.fopt, true }

// Evaluate returns the objective at a, which must be valid in Space(); the
// problems are noise-free, so rng is not used.
func (p *Problem) Evaluate(a space.Assignment, _ *rand.Rand) (float64, error) {
	c, err := p.sp.Canonical(a)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", p.name, err)
	}
	return p.f(c), nil
}

var names = []string{"jenatton"}

// Names returns the registered problem names.
func Names() []string { return slices.Clone(names) }

// Get returns the named problem.
func Get(name string) (*Problem, error) {
	switch name {
	case "jenatton":
		return newJenatton(), nil
	}
	return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownProblem, name, strings.Join(names, ", "))
}

// newJenatton builds the Jenatton function on its tree: x1 = 0 opens x2
// and r8, x1 = 1 opens x3 and r9; x2 and x3 each open one of two floats.
func newJenatton() *Problem {
	binary := func(name string, when map[string][]string) space.Param {
		return space.Param{Name: name, Kind: space.Categorical, Choices: []string{"0", "1"}, When: when}
	}
	unit := func(name, parent, value string) space.Param {
		return space.Param{Name: name, Kind: space.Float, Low: 0, High: 1, When: map[string][]string{parent: {value}}}
	}
	sp := space.MustNew(
		binary("x1", nil),
		binary("x2", map[string][]string{"x1": {"0"}}),
		binary("x3", map[string][]string{"x1": {"1"}}),
		unit("x4", "x2", "0"), unit("x5", "x2", "1"),
		unit("x6", "x3", "0"), unit("x7", "x3", "1"),
		unit("r8", "x1", "0"), unit("r9", "x1", "1"),
	)
	f := func(a space.Assignment) float64 {
		sq := func(name string) float64 { v := a[name].(float64); return v * v }
		if a["x1"] == "0" {
			if a["x2"] == "0" {
				return sq("x4") + 0.1 + a["r8"].(float64)
			}
			return sq("x5") + 0.2 + a["r8"].(float64)
		}
		if a["x3"] == "0" {
			return sq("x6") + 0.3 + a["r9"].(float64)
		}
		return sq("x7") + 0.4 + a["r9"].(float64)
	}
	return &Problem{name: "jenatton", sp: sp, f: f, fopt: 0.1}
}
