package config

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"

	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/problems"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// Function is a built-in objective: a configuration's value, and the
// metrics it reports with it; seed draws its noise, if it has any.
type Function func(a space.Assignment, seed uint64) (float64, map[string]float64, error)

// BuiltIn returns the objective of a study file whose objective is a
// built-in function (objective.function): tinyml-proxy, tinyml-train, or a test function
// of the space's parameters in order (problems.FunctionOf).
func (s *Study) BuiltIn() (Function, error) {
	name := s.Objective.Function
	switch {
	case name == "":
		return nil, errors.New("objective: a command, not a built-in function")
	case name == FunctionTinyMLProxy:
		return func(a space.Assignment, seed uint64) (float64, map[string]float64, error) {
			v, err := s.Deploy.Proxy(a, seed)
			return v, nil, err
		}, nil
	case name == FunctionTinyMLTrain:
		return func(a space.Assignment, seed uint64) (float64, map[string]float64, error) {
			v, err := s.Deploy.Train(a, seed)
			return v, nil, err
		}, nil
	}
	f, err := problems.FunctionOf(name, s.Space)
	if err != nil {
		return nil, fmt.Errorf("objective.function: %w", err)
	}
	return func(a space.Assignment, _ uint64) (float64, map[string]float64, error) {
		v, m := f(a)
		return v, m, nil
	}, nil
}

// Problem returns the file as a problem of boa bench (`--problems
// examples/tinyml/har-tiny.yaml`): its space and its objective turned to a
// loss (negated when the file maximises). With constraints it is a
// constrained problem (bench.Constrained), and with a deploy block one
// whose deploy metrics are known before a trial runs (bench.Prescreened),
// which boa's studies are told and the peers are not. Each evaluation
// draws the objective's noise afresh. Its optimum is not known: the bench
// reports the best (feasible) value.
func (s *Study) Problem() (problems.Problem, error) {
	f, err := s.BuiltIn()
	if err != nil {
		return nil, err
	}
	spec, err := s.Spec()
	if err != nil {
		return nil, err
	}
	p := &fileProblem{s: s, f: f, sign: 1}
	if spec.Direction == study.Maximize {
		p.sign = -1
	}
	if len(spec.Constraints) == 0 {
		return p, nil
	}
	return &constrainedFileProblem{fileProblem: p, limits: spec.Constraints}, nil
}

type fileProblem struct {
	s    *Study
	f    Function
	sign float64
}

func (p *fileProblem) Name() string             { return p.s.Name }
func (p *fileProblem) Space() *space.Space      { return p.s.Space }
func (p *fileProblem) Optimum() (float64, bool) { return 0, false }
func (p *fileProblem) Evaluate(a space.Assignment, rng *rand.Rand) (float64, error) {
	v, _, err := p.Measure(a, rng)
	return v, err
}

// Measure returns a's loss and its metrics: the objective's and, with a
// deploy block, the network's (Deploy.Known).
func (p *fileProblem) Measure(a space.Assignment, rng *rand.Rand) (float64, map[string]float64, error) {
	v, m, err := p.f(a, rng.Uint64())
	if k := p.Known(); k != nil {
		m = maps.Clone(m)
		if m == nil {
			m = map[string]float64{}
		}
		maps.Copy(m, k(a))
	}
	return p.sign * v, m, err
}

// Known returns the deploy block's metrics of a configuration, nil
// without a deploy block.
func (p *fileProblem) Known() func(a space.Assignment) map[string]float64 {
	if p.s.Deploy == nil {
		return nil
	}
	return p.s.Deploy.Known()
}

type constrainedFileProblem struct {
	*fileProblem
	limits constraint.Set
}

func (p *constrainedFileProblem) Constraints() constraint.Set { return p.limits }
