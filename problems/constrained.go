package problems

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/problems/constrained"
	"github.com/boaopt/boa/problems/gkls"
	"github.com/boaopt/boa/problems/mixed"
	"github.com/boaopt/boa/space"
)

// The constrained problems [spec constrained-autotinyml §7]: the 2-D
// functions, the discretised Mishra's Bird and the toys of
// problems/constrained, NB201 under a latency limit, and GKLS with the
// stand-in constraints of problems/gkls. Each reports its constraint
// values as metrics, limited by Constraints (a constraint.Set, the
// declaration every part of boa shares). Evaluate returns the objective
// at every point, feasible or not; the harness (bench) judges feasibility
// from Measure's metrics.

// ErrNoData is wrapped when a problem's data file is absent; a caller may
// skip the problem (boa bench does).
var ErrNoData = mixed.ErrNoData

// DataDirEnv names the environment variable that gives the folder holding
// nb201/ and nb201-latency/ (../shared/data). Without it the folder
// shared/data is looked for in the working directory and its parents.
const DataDirEnv = "BOA_DATA_DIR"

// constrainedProblem is a problem whose evaluations report metrics with
// limits on them.
type constrainedProblem struct {
	name    string
	sp      *space.Space
	limits  constraint.Set
	optimum float64 // NaN when unknown
	measure func(a space.Assignment) (float64, map[string]float64, error)
}

func (p *constrainedProblem) Name() string             { return p.name }
func (p *constrainedProblem) Space() *space.Space      { return p.sp }
func (p *constrainedProblem) Optimum() (float64, bool) { return p.optimum, !math.IsNaN(p.optimum) }

// Constraints returns a copy of the limits on the metrics.
func (p *constrainedProblem) Constraints() constraint.Set { return maps.Clone(p.limits) }

// Evaluate returns the objective, also where a is infeasible.
func (p *constrainedProblem) Evaluate(a space.Assignment, _ *rand.Rand) (float64, error) {
	v, _, err := p.measure(a)
	return v, err
}

// Measure returns the objective and the metrics, the constraint values
// by name.
func (p *constrainedProblem) Measure(a space.Assignment, _ *rand.Rand) (float64, map[string]float64, error) {
	return p.measure(a)
}

// latencyProblem adds the test regret of the chosen cell.
type latencyProblem struct {
	constrainedProblem
	lp *constrained.LatencyProblem
}

func (p *latencyProblem) TestRegret(a space.Assignment) (float64, bool) { return p.lp.TestRegret(a) }

// Known returns, in the decoupled mode, the latency of any cell without
// evaluating it, the free query of spec §7.4 (study.Known); nil in the
// coupled mode, where it is known only with the evaluation. A cell the
// table does not have has a NaN latency, which breaks the limit.
func (p *latencyProblem) Known() func(a space.Assignment) map[string]float64 {
	if p.lp.Mode() != constrained.Decoupled {
		return nil
	}
	return func(a space.Assignment) map[string]float64 {
		l, err := p.lp.Latency(a)
		if err != nil {
			l = math.NaN()
		}
		return map[string]float64{constrained.LatencyConstraint: l}
	}
}

// limitOf is the constraint.Limit of a constraint of problems/constrained.
// "<" and "≤" (or ">" and "≥") become the same Max (Min): they differ on
// the boundary only, a set of measure zero, where a sampler's proposals
// land with probability zero; the stored minimisers lie 1e-12 inside.
func limitOf(c constrained.Constraint) constraint.Limit {
	v := c.Limit
	if c.Sense == constrained.Less || c.Sense == constrained.LessEq {
		return constraint.Limit{Max: &v}
	}
	return constraint.Limit{Min: &v}
}

// fromResult splits a Result of problems/constrained into the objective
// and the metrics.
func fromResult(r constrained.Result) (float64, map[string]float64) {
	m := make(map[string]float64, len(r.Constraints))
	for _, c := range r.Constraints {
		m[c.Name] = c.Value
	}
	return r.F, m
}

// limitsOf reads the limits off an evaluation: the constraints, their
// limits and senses are the same at every point.
func limitsOf(r constrained.Result) constraint.Set {
	s := constraint.Set{}
	for _, c := range r.Constraints {
		s[c.Name] = limitOf(c)
	}
	return s
}

// newTestProblem wraps a 2-D function or a toy of problems/constrained.
func newTestProblem(p *constrained.Problem) *constrainedProblem {
	f, _ := p.Optimum()
	return &constrainedProblem{
		name: p.Name(), sp: p.Space(), optimum: f,
		limits: limitsOf(p.Eval(p.Minimizer())),
		measure: func(a space.Assignment) (float64, map[string]float64, error) {
			r, err := p.Evaluate(a)
			if err != nil {
				return math.NaN(), nil, err
			}
			v, m := fromResult(r)
			return v, m, nil
		},
	}
}

// GKLSPrefix and GKLSStandinPrefix start the names of the GKLS problems:
// gkls:D:CLASS:N is function number N (1..100) of spec §7.2's class CLASS
// (simple or hard) in dimension D (2..5); gkls-c:D:CLASS:N adds the
// stand-in constraints.
const (
	GKLSPrefix        = "gkls"
	GKLSStandinPrefix = "gkls-c"
)

// newGKLS makes gkls:D:CLASS:N or gkls-c:D:CLASS:N.
func newGKLS(name string) (Problem, error) {
	parts := strings.Split(name, ":")
	usage := fmt.Errorf("problem %q: want %s:D:CLASS:N or %s:D:CLASS:N (dimension 2..5, class simple or hard, function number 1..100), e.g. gkls-c:2:simple:1", name, GKLSPrefix, GKLSStandinPrefix)
	if len(parts) != 4 {
		return nil, usage
	}
	dim, err1 := strconv.Atoi(parts[1])
	nf, err2 := strconv.Atoi(parts[3])
	if err1 != nil || err2 != nil {
		return nil, usage
	}
	params, err := gkls.Class(dim, parts[2])
	if err != nil {
		return nil, fmt.Errorf("problem %q: %w", name, err)
	}
	g, err := gkls.New(params, nf)
	if err != nil {
		return nil, fmt.Errorf("problem %q: %w", name, err)
	}
	lo, hi := slices.Repeat([]float64{-1}, dim), slices.Repeat([]float64{1}, dim)
	if parts[0] == GKLSPrefix {
		return newFunction(name, dim, lo, hi, g.Eval, params.GlobalValue), nil
	}
	s, err := gkls.NewStandin(g, gkls.StandinBalls, gkls.StandinHalfSpaces, gkls.StandinSmooth, gkls.StandinActive)
	if err != nil {
		return nil, err
	}
	zero := 0.0
	limits := constraint.Set{}
	names := s.Constraints()
	for _, n := range names {
		limits[n] = constraint.Limit{Max: &zero}
	}
	box := newFunction(name, dim, lo, hi, nil, math.NaN())
	return &constrainedProblem{
		name: name, sp: box.sp, limits: limits, optimum: params.GlobalValue,
		measure: func(a space.Assignment) (float64, map[string]float64, error) {
			x, err := box.point(a)
			if err != nil {
				return math.NaN(), nil, err
			}
			m := make(map[string]float64, len(names))
			for i, v := range s.Values(x) {
				m[names[i]] = v
			}
			return s.Eval(x), m, nil
		},
	}, nil
}

// latencyData caches the joined NB201 latency and CIFAR-100 files.
var latencyData struct {
	sync.Mutex
	d   *constrained.NB201Latency
	dir string
}

// newLatency makes nb201-latency:DEVICE:L[:coupled|:decoupled] on the
// data found by dataDir. In the decoupled mode Known answers the free
// latency queries.
func newLatency(name string) (Problem, error) {
	latencyData.Lock()
	defer latencyData.Unlock()
	if latencyData.d == nil {
		dir, err := dataDir("nb201-latency/latency.csv", "nb201/cifar100.csv")
		if err != nil {
			return nil, err
		}
		d, err := constrained.LoadNB201Latency(filepath.Join(dir, "nb201-latency", "latency.csv"), filepath.Join(dir, "nb201", "cifar100.csv"))
		if err != nil {
			return nil, err
		}
		latencyData.d, latencyData.dir = d, dir
	}
	lp, err := latencyData.d.Get(name)
	if err != nil {
		return nil, err
	}
	l := lp.Limit()
	return &latencyProblem{lp: lp, constrainedProblem: constrainedProblem{
		name: lp.Name(), sp: lp.Space(), optimum: lp.Optimum().Objective,
		limits: constraint.Set{constrained.LatencyConstraint: {Max: &l}},
		measure: func(a space.Assignment) (float64, map[string]float64, error) {
			r, err := lp.Evaluate(a)
			if err != nil {
				return math.NaN(), nil, err
			}
			v, m := fromResult(r)
			return v, m, nil
		},
	}}, nil
}

// dataDir returns the folder holding the given files: $BOA_DATA_DIR, or
// shared/data in the working directory or a parent. An absent file gives
// an error wrapping ErrNoData that says where it looked.
func dataDir(files ...string) (string, error) {
	has := func(dir string) bool {
		for _, f := range files {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				return false
			}
		}
		return true
	}
	if dir := os.Getenv(DataDirEnv); dir != "" {
		if has(dir) {
			return dir, nil
		}
		return "", fmt.Errorf("%w: %s is not in %s (from %s)", ErrNoData, strings.Join(files, " and "), dir, DataDirEnv)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("%w: %v; set %s to the folder that holds %s", ErrNoData, err, DataDirEnv, strings.Join(files, " and "))
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if d := filepath.Join(dir, "shared", "data"); has(d) {
			return d, nil
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return "", fmt.Errorf("%w: %s not found in shared/data in %s or its parents; set %s to the folder that holds them (../shared/data beside the repository)",
		ErrNoData, strings.Join(files, " and "), wd, DataDirEnv)
}

// constrainedFixed returns the constrained problem of a name, found false
// when none has it.
func constrainedFixed(name string) (p Problem, found bool, err error) {
	head, _, _ := strings.Cut(name, ":")
	switch strings.ToLower(head) {
	case GKLSPrefix, GKLSStandinPrefix:
		p, err := newGKLS(name)
		return p, true, err
	case constrained.LatencyPrefix:
		p, err := newLatency(name)
		return p, true, err
	}
	c, err := constrained.Get(name)
	if errors.Is(err, constrained.ErrUnknownProblem) {
		return nil, false, nil
	}
	return newTestProblem(c), true, err
}

// Metrics returns the names of the metrics the built-in function name
// reports with its value, the ones a study's constraints may limit, in
// sorted order; nil for a function with none or a name that is not one.
// It needs no data: nb201-latency:... reports latency_ms.
func Metrics(name string) []string {
	head, _, _ := strings.Cut(name, ":")
	switch strings.ToLower(head) {
	case GKLSStandinPrefix:
		var names []string
		for k := range gkls.StandinBalls {
			names = append(names, fmt.Sprintf("ball%d", k+1))
		}
		for k := range gkls.StandinHalfSpaces {
			names = append(names, fmt.Sprintf("half%d", k+1))
		}
		for k := range gkls.StandinSmooth {
			names = append(names, fmt.Sprintf("smooth%d", k+1))
		}
		slices.Sort(names)
		return names
	case constrained.LatencyPrefix:
		return []string{constrained.LatencyConstraint}
	}
	c, err := constrained.Get(name)
	if err != nil {
		return nil
	}
	return limitsOf(c.Eval(c.Minimizer())).Names()
}

// constrainedFunction is the constrained problem name as FunctionOf's
// objective: the space's parameters in order are the problem's.
func constrainedFunction(name string, sp *space.Space) (func(space.Assignment) (float64, map[string]float64), error) {
	p, _, err := Fixed(name)
	if err != nil {
		return nil, err
	}
	own := p.Space().Params()
	if len(own) != sp.Len() {
		return nil, fmt.Errorf("%s takes %d parameters, the space has %d", name, len(own), sp.Len())
	}
	for _, q := range own {
		if q.Kind != space.Float {
			return nil, fmt.Errorf("%s has a %s parameter %s; a study file's objective.function takes float parameters only", name, q.Kind, q.Name)
		}
	}
	m := p.(interface {
		Measure(space.Assignment, *rand.Rand) (float64, map[string]float64, error)
	})
	return func(a space.Assignment) (float64, map[string]float64) {
		b := make(space.Assignment, len(own))
		for i, q := range sp.Params() {
			b[own[i].Name] = a[q.Name]
		}
		v, metrics, err := m.Measure(b, nil)
		if err != nil {
			return math.NaN(), nil // not computable
		}
		return v, metrics
	}, nil
}

// DataDir returns the folder holding the given files (paths relative to
// ../shared/data): $BOA_DATA_DIR, or shared/data in the working directory
// or a parent. An absent file gives an error wrapping ErrNoData that says
// where it looked.
func DataDir(files ...string) (string, error) { return dataDir(files...) }
