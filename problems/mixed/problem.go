package mixed

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/boaopt/boa/space"
)

// ErrUnknownProblem is wrapped by Get when no problem has the name.
var ErrUnknownProblem = errors.New("unknown mixed benchmark problem")

// ErrNoData is wrapped by Get when a problem's data file is absent; callers
// such as the benchmark harness skip the problem with the message.
var ErrNoData = errors.New("benchmark data not found")

// Problem is a mixed categorical/continuous test problem to be minimised. It
// has the method set of problems.Problem. A Problem is immutable and safe for
// concurrent use.
type Problem struct {
	name   string
	sp     *space.Space
	levels []int            // number of choices of h1..hC
	index  []map[string]int // choice name → index, per categorical parameter
	pnames []string         // h1..hC, x1..xD
	lo, hi []float64        // bounds of x1..xD
	f      func(h []int, x []float64) float64
	noise  float64 // scale of the U(0,1) noise Evaluate adds; 0 for none
	fopt   float64
	known  bool
}

// newProblem builds a problem whose space has one categorical parameter per
// entry of choices (named h1..hC) followed by one float per bound (x1..xD).
// The spaces are fixed in code, so a bad declaration is a programmer error.
func newProblem(name string, choices [][]string, lo, hi []float64, f func([]int, []float64) float64) *Problem {
	if len(lo) != len(hi) {
		panic("mixed: bounds of different lengths")
	}
	p := &Problem{name: name, lo: lo, hi: hi, f: f}
	ps := make([]space.Param, 0, len(choices)+len(lo))
	for i, cs := range choices {
		ps = append(ps, space.Param{Name: fmt.Sprintf("h%d", i+1), Kind: space.Categorical, Choices: cs})
		m := make(map[string]int, len(cs))
		for k, c := range cs {
			m[c] = k
		}
		p.index = append(p.index, m)
		p.levels = append(p.levels, len(cs))
	}
	for i := range lo {
		ps = append(ps, space.Param{Name: fmt.Sprintf("x%d", i+1), Kind: space.Float, Low: lo[i], High: hi[i]})
	}
	p.sp = space.MustNew(ps...)
	p.pnames = p.sp.Names()
	return p
}

// withOptimum records the known minimum f*.
func (p *Problem) withOptimum(f float64) *Problem {
	p.fopt, p.known = f, true
	return p
}

// withNoise makes Evaluate add scale·U(0,1).
func (p *Problem) withNoise(scale float64) *Problem {
	p.noise = scale
	return p
}

// Name returns the registered name of the problem.
func (p *Problem) Name() string { return p.name }

// Space returns the search space: categorical h1..hC, then float x1..xD.
func (p *Problem) Space() *space.Space { return p.sp }

// Optimum returns the known minimum of the noise-free objective; ok is false
// when it is not known (pest, difficultpest, contamination).
func (p *Problem) Optimum() (f float64, ok bool) { return p.fopt, p.known }

// Levels returns the number of choices of each categorical parameter.
func (p *Problem) Levels() []int { return slices.Clone(p.levels) }

// Evaluate returns the objective at a, which must be valid in Space(). For
// the synthetic problems that the reference code makes noisy, it adds
// 1e-6·U(0,1) drawn from rng; with a nil rng no noise is added.
func (p *Problem) Evaluate(a space.Assignment, rng *rand.Rand) (float64, error) {
	c, err := p.sp.Canonical(a)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", p.name, err)
	}
	h := make([]int, len(p.levels))
	for i := range h {
		h[i] = p.index[i][c[p.pnames[i]].(string)]
	}
	x := make([]float64, len(p.lo))
	for i := range x {
		x[i] = c[p.pnames[len(h)+i]].(float64)
	}
	y := p.f(h, x)
	if p.noise > 0 && rng != nil {
		y += p.noise * rng.Float64()
	}
	return y, nil
}

// Value returns the noise-free objective at the 0-based category indices h
// (one per categorical parameter, in order) and continuous values x. It
// panics if the lengths are wrong or an index or value is out of range.
func (p *Problem) Value(h []int, x []float64) float64 {
	p.check(h, x)
	return p.f(h, x)
}

// Assignment returns the assignment of category indices h and continuous
// values x. It panics like Value.
func (p *Problem) Assignment(h []int, x []float64) space.Assignment {
	p.check(h, x)
	a := make(space.Assignment, len(h)+len(x))
	for i, k := range h {
		a[p.pnames[i]] = p.sp.Param(i).Choices[k]
	}
	for i, v := range x {
		a[p.pnames[len(h)+i]] = v
	}
	return a
}

func (p *Problem) check(h []int, x []float64) {
	if len(h) != len(p.levels) || len(x) != len(p.lo) {
		panic(fmt.Sprintf("mixed: %s takes %d category indices and %d reals, got %d and %d",
			p.name, len(p.levels), len(p.lo), len(h), len(x)))
	}
	for i, k := range h {
		if k < 0 || k >= p.levels[i] {
			panic(fmt.Sprintf("mixed: %s: h%d = %d is outside [0, %d)", p.name, i+1, k, p.levels[i]))
		}
	}
	for i, v := range x {
		if !(v >= p.lo[i] && v <= p.hi[i]) {
			panic(fmt.Sprintf("mixed: %s: x%d = %v is outside [%v, %v]", p.name, i+1, v, p.lo[i], p.hi[i]))
		}
	}
}

// names lists the registered problems in the order Names returns them.
var names = []string{
	"func2c", "func3c",
	"ackley2c", "ackley3c", "ackley4c", "ackley5c", "ackley5c5", "ackley53",
	"pest", "difficultpest", "contamination",
	"maxsat60", "maxsat60-std",
}

// Names returns the names Get accepts.
func Names() []string { return slices.Clone(names) }

// Get returns the named problem. The MaxSAT problems read their instance
// file (see MaxSATDirEnv); if it is absent the error wraps ErrNoData.
func Get(name string) (*Problem, error) {
	switch name {
	case "func2c":
		return newFunc2C(), nil
	case "func3c":
		return newFunc3C(), nil
	case "ackley2c", "ackley3c", "ackley4c", "ackley5c":
		return newAckleyC(name, int(name[6]-'0'), ackleyCGrid), nil
	case "ackley5c5":
		return newAckleyC(name, 5, ackleyC5Grid), nil
	case "ackley53":
		return newAckley53(), nil
	case "pest":
		return newPest("pest", pestStages), nil
	case "difficultpest":
		return newPest("difficultpest", difficultPestStages), nil
	case "contamination":
		return newContamination(), nil
	case "maxsat60", "maxsat60-std":
		w, err := loadMaxSAT(maxsat60File)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return NewMaxSAT(name, w, name == "maxsat60-std"), nil
	}
	return nil, fmt.Errorf("%w %q; want one of %s", ErrUnknownProblem, name, strings.Join(names, ", "))
}
