package bench

import (
	"context"
	"math/rand/v2"

	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/problems"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// Constrained is a problem whose evaluations report metrics that limits
// apply to [spec constrained-autotinyml §1]: the constrained problems of
// package problems. The harness tells a sampler the metrics with the
// value, creates boa's studies with the constraints, and scores a run by
// its feasible evaluations only.
type Constrained interface {
	problems.Problem
	Constraints() constraint.Set
	// Measure returns a's objective, computed also where a is infeasible,
	// and its metrics, the constraint values by name.
	Measure(a space.Assignment, rng *rand.Rand) (float64, map[string]float64, error)
}

// MetricsSession is a Session that learns an evaluation's metrics with its
// value: boa's samplers (study.Result.Metrics) and optuna-tpe-c. Another
// session is told the value alone, as an unconstrained optimiser would be.
type MetricsSession interface {
	TellMetrics(ctx context.Context, value float64, metrics map[string]float64) error
	TellTrialMetrics(ctx context.Context, id int64, value float64, metrics map[string]float64) error
}

// tell tells the last asked configuration's value, with its metrics when
// s takes them.
func tell(ctx context.Context, s Session, v float64, metrics map[string]float64) error {
	if ms, ok := s.(MetricsSession); ok && metrics != nil {
		return ms.TellMetrics(ctx, v, metrics)
	}
	return s.Tell(ctx, v)
}

// tellTrial is tell for trial id.
func tellTrial(ctx context.Context, s Session, id int64, v float64, metrics map[string]float64) error {
	if ms, ok := s.(MetricsSession); ok && metrics != nil {
		return ms.TellTrialMetrics(ctx, id, v, metrics)
	}
	return s.TellTrial(ctx, id, v)
}

// Prescreened is a Constrained problem some of whose metrics are known
// before evaluation: nb201-latency's decoupled mode [spec
// constrained-autotinyml §7.4]. boa's studies are told them
// (study.Options.Known) and propose only configurations within their
// limits; a peer is not told, and meets the limits by evaluating, as in
// the coupled mode.
type Prescreened interface {
	Constrained
	// Known returns the metrics known before evaluation (study.Known); nil
	// when the problem knows none in its mode.
	Known() func(a space.Assignment) map[string]float64
}

// newStudy is the in-memory study of a boa sampler's run, with the
// constraints of c and the metrics it knows before evaluation (none when
// c is nil, an unconstrained problem).
func newStudy(sp *space.Space, o study.Options, c Constrained) (*study.Study, error) {
	if c != nil {
		o.Constraints = c.Constraints()
		if p, ok := c.(Prescreened); ok {
			o.Known = p.Known()
		}
	}
	return study.New(sp, o)
}
