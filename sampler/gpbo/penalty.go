package gpbo

import (
	"math"
	"slices"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
)

// How GPBO.Constraints handles a constrained study's limits and its failed
// trials.
const (
	// ConstraintsModel (default) models each constraint and computability
	// and weights the acquisition by the probability of feasibility
	// (constrained.go).
	ConstraintsModel = "model"
	// ConstraintsPenalty is the naive constrained BO of 004 §5.1, the
	// ablation of spec constrained-autotinyml §6: an infeasible or failed
	// trial enters the GP at a penalty value (bo.Penalty: the worst
	// observed value plus 10 % of the range) and the acquisition is
	// unconstrained. Limits known before evaluation (History.Admissible)
	// are still met.
	ConstraintsPenalty = "penalty"
)

// penalise returns h as ConstraintsPenalty sees it: every infeasible
// observation and every failed point at the penalty value, no
// constraints and no failed trials left for the feasibility models. Without
// a finite observation there is nothing to penalise from and h is
// returned without its constraints.
func penalise(h *sampler.History) *sampler.History {
	var losses []float64
	for _, o := range h.Observed {
		if !math.IsNaN(o.Y) && !math.IsInf(o.Y, 0) {
			losses = append(losses, o.Y)
		}
	}
	p := *h
	p.Constraints = nil
	if len(losses) == 0 {
		return &p
	}
	penalty := bo.Penalty(losses)
	p.Observed = make([]sampler.Observation, 0, len(h.Observed)+len(h.Failed))
	for _, o := range h.Observed {
		if o.Infeasible || math.IsNaN(o.Y) || math.IsInf(o.Y, 0) {
			o.Y = penalty
		}
		o.Infeasible, o.Slack = false, nil
		p.Observed = append(p.Observed, o)
	}
	for _, u := range h.Failed {
		p.Observed = append(p.Observed, sampler.Observation{X: slices.Clone(u), Y: penalty, Origin: sampler.OriginModel})
	}
	p.Failed = nil
	return &p
}
