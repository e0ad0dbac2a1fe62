package study

import (
	"context"
	"maps"

	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/space"
)

// Known computes metrics from a configuration alone, before it is
// evaluated: a latency looked up in a table, the RAM and flash of a
// network not yet trained. These are the decoupled constraints of spec
// constrained-autotinyml §7.4 (004 §9): a study that knows some of its
// constrained metrics this way asks its sampler only for configurations
// that meet their limits (sampler.History.Admissible), so that no
// evaluation is spent on one that could be ruled out for free, and fills
// them in for a trial that does not report them itself. A metric Known
// cannot compute is NaN, which breaks its limit; metrics no constraint
// limits are ignored by the screening. Known gives the same metrics for
// every configuration.
//
// The sampler does not model the limits of known metrics: they are never
// broken, so a model of them would learn nothing, and gpbo's probability
// of feasibility would only hold it back from the admissible points near
// a limit, where the best ones often are (History.Constraints lists the
// other constraints only).
type Known func(a space.Assignment) map[string]float64

// SetKnown sets the metrics the study knows before evaluation (Known;
// Options.Known for New); nil, the default, knows none. Like the sampler
// instance it is not stored: each process that works on the study sets
// its own. The metrics it knows are those it gives for the configuration
// at the centre of the space.
func (s *Study) SetKnown(k Known) {
	s.known, s.modelled = k, s.cons
	if k == nil || len(s.cons) == 0 {
		return
	}
	centre := make([]float64, s.space.Len())
	for i := range centre {
		centre[i] = 0.5
	}
	s.space.Round(centre)
	s.modelled = constraint.Set{}
	known := k(s.space.Decode(centre))
	for name, l := range s.cons {
		if _, ok := known[name]; !ok {
			s.modelled[name] = l
		}
	}
}

// admits reports whether the configuration encoded as u meets the limits
// of the metrics s knows before evaluation.
func (s *Study) admits(u []float64) bool {
	for name, v := range s.known(s.space.Decode(u)) {
		if l, ok := s.cons[name]; ok && !(l.Slack(v) <= 0) {
			return false
		}
	}
	return true
}

// withKnown returns the metrics trial id reported, completed by those s
// knows of its configuration; a reported value wins. It reads the trial's
// configuration only when s knows some metrics.
func (s *Study) withKnown(ctx context.Context, id int64, reported map[string]float64) (map[string]float64, error) {
	if s.known == nil || len(s.cons) == 0 {
		return reported, nil
	}
	rec, err := s.store.GetTrial(ctx, id)
	if err != nil {
		return nil, err
	}
	t, err := fromRecord(s.space, rec)
	if err != nil {
		return nil, err
	}
	m := s.known(t.Params)
	if m == nil {
		return reported, nil
	}
	m = maps.Clone(m)
	maps.Copy(m, reported)
	return m, nil
}
