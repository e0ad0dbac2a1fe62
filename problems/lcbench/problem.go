package lcbench

import (
	"math/rand/v2"

	"github.com/boaopt/boa/space"
)

// Problem is one task of the surrogate as a problem to minimise: the
// validation error 100 − val_accuracy (percent) of a configuration, at
// MaxEpoch (Evaluate) or at any epoch (EvaluateAt, Curve). It implements
// problems.Problem. The surrogate is deterministic, so Evaluate ignores
// its rng.
type Problem struct {
	s    *Surrogate
	task string
}

// Problem returns task (an OpenML task id of Tasks) as a problem.
func (s *Surrogate) Problem(task string) (*Problem, error) {
	if _, err := s.code(task); err != nil {
		return nil, err
	}
	return &Problem{s: s, task: task}, nil
}

// Name is "lcbench:" and the task id.
func (p *Problem) Name() string { return "lcbench:" + p.task }

// Task is the OpenML task id.
func (p *Problem) Task() string { return p.task }

// Space is the surrogate's space of seven hyper-parameters.
func (p *Problem) Space() *space.Space { return p.s.space }

// Evaluate returns the validation error of a after MaxEpoch epochs.
func (p *Problem) Evaluate(a space.Assignment, _ *rand.Rand) (float64, error) {
	return p.EvaluateAt(a, MaxEpoch)
}

// EvaluateAt returns the validation error of a after epoch epochs.
func (p *Problem) EvaluateAt(a space.Assignment, epoch int) (float64, error) {
	c, err := ConfigOf(a)
	if err != nil {
		return 0, err
	}
	r, err := p.s.Evaluate(p.task, c, epoch)
	return 100 - r.ValAccuracy, err
}

// Curve returns the validation errors of a at epochs MinEpoch..MaxEpoch
// (element e−1 is epoch e) and the predicted training time up to each,
// the cost a multi-fidelity method pays to read the curve that far.
func (p *Problem) Curve(a space.Assignment) (errs, times []float64, err error) {
	c, err := ConfigOf(a)
	if err != nil {
		return nil, nil, err
	}
	rs, err := p.s.Curve(p.task, c)
	if err != nil {
		return nil, nil, err
	}
	errs, times = make([]float64, len(rs)), make([]float64, len(rs))
	for i, r := range rs {
		errs[i], times[i] = 100-r.ValAccuracy, r.Time
	}
	return errs, times, nil
}

// Optimum is unknown: the surrogate's minimum over the space has not been
// computed.
func (p *Problem) Optimum() (float64, bool) { return 0, false }
