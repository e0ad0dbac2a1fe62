package study

import (
	"context"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/storage"
)

// History returns what the study's sampler sees now (sampler.History):
// for tools that ask a model about the study, such as NAS-BOWL's motif
// scores (boa motifs).
func (s *Study) History(ctx context.Context) (*sampler.History, error) {
	recs, err := s.store.Trials(ctx, s.rec.ID)
	if err != nil {
		return nil, s.errorf("load trials: %w", err)
	}
	return s.history(recs)
}

// history builds the sampler's view of the stored trials: the values of
// the completed ones transformed (Spec.Transform), then in the minimised
// sense. In a constrained study each completed trial's slacks and
// feasibility are judged again from its stored metrics, so that they
// follow the study's constraints (a NaN metric, which no storage keeps,
// reads back as not reported: infeasible either way). The slacks leave
// out the limits of the metrics known before evaluation (SetKnown).
func (s *Study) history(recs []storage.Trial) (*sampler.History, error) {
	h := &sampler.History{Space: s.space, Trials: len(recs), Seed: s.rec.Seed, Budget: s.Budget(), Objectives: len(s.objs), Fidelity: s.fid}
	if len(s.modelled) > 0 {
		h.Constraints = s.modelled.Names()
	}
	if len(s.cons) > 0 && s.known != nil {
		h.Admissible = s.admits
	}
	// Only a MultiFidelity sampler is given the reports: History loads
	// them for its tools whatever the sampler, and another sampler's view
	// must be the same from Ask and from History.
	_, multi := s.sampler.(sampler.MultiFidelity)
	// Sized for every trial completed, the usual case: grown one append
	// at a time, the two slices were a third of a random ask at 20,000
	// trials (growslice and the GC of what it left behind).
	h.Observed = make([]sampler.Observation, 0, len(recs))
	values := make([]float64, 0, len(recs))
	for _, r := range recs {
		if len(r.X) != s.space.Len() {
			continue // e.g. a trial enqueued without an encoding
		}
		switch {
		case r.State == Complete && r.Value != nil && s.tf.Check(*r.Value) == nil:
			o := sampler.Observation{X: r.X, Batch: r.Batch, Origin: sampler.Origin(r.Origin)}
			if len(s.cons) > 0 {
				// The stored verdict decides (an infinite metric, which no
				// storage keeps, was judged before it was dropped).
				o.Infeasible = !s.cons.Check(r.Metrics).Feasible
				if r.Feasible != nil {
					o.Infeasible = !*r.Feasible
				}
				if len(s.modelled) > 0 {
					o.Slack = s.modelled.Check(r.Metrics).Slack
				}
			}
			if len(s.objs) > 1 {
				if o.Ys = inMinimisedSense(s.objs, r.Values); o.Ys == nil {
					h.Failed = append(h.Failed, r.X) // not stored by this boa's Tell
					continue
				}
			}
			h.Observed = append(h.Observed, o)
			values = append(values, *r.Value)
		case r.State == Waiting || r.State == Running:
			h.Pending = append(h.Pending, r.X)
		case r.State == Failed, r.State == Complete:
			// A COMPLETE value the transform cannot take (Tell fails such
			// a trial, but an older boa that ignores the transform may
			// have recorded one) is kept from the model as a failure.
			h.Failed = append(h.Failed, r.X)
		case r.State == Pruned:
			h.Pruned = append(h.Pruned, r.X)
		}
		if multi && (r.State == Complete || r.State == Pruned) {
			for _, p := range r.Reports {
				y := p.Value
				if s.pruneDirection() == Maximize {
					y = -y
				}
				h.Partial = append(h.Partial, sampler.Partial{X: r.X, Step: p.Step, Y: y})
			}
		}
	}
	for i, v := range s.tf.Apply(values) {
		h.Observed[i].Y = s.internal(v)
	}
	return h, nil
}

// Trials returns every trial, in order.
func (s *Study) Trials(ctx context.Context) ([]Trial, error) {
	recs, err := s.store.Trials(ctx, s.rec.ID)
	if err != nil {
		return nil, s.errorf("load trials: %w", err)
	}
	return s.fromRecords(recs)
}

// fromRecords rebuilds the stored trials recs.
func (s *Study) fromRecords(recs []storage.Trial) ([]Trial, error) {
	out := make([]Trial, len(recs))
	for i, r := range recs {
		var err error
		if out[i], err = fromRecord(s.space, r); err != nil {
			return nil, s.errorf("%w", err)
		}
	}
	return out, nil
}

// Best returns the best COMPLETE trial in the study's direction (the
// highest value when it maximises; of equal ones, the first), and in a
// study with constraints the best feasible one; ok is false when there is
// none (Summary.NoBest says why). PRUNED trials do not count
// (Summary.Best). In a multi-objective study it is the trial of the
// Pareto front (Front) best in the first objective.
func (s *Study) Best(ctx context.Context) (best Trial, ok bool, err error) {
	recs, err := s.store.Trials(ctx, s.rec.ID)
	if err != nil {
		return Trial{}, false, s.errorf("load trials: %w", err)
	}
	trials, err := s.fromRecords(recs)
	if err != nil {
		return Trial{}, false, err
	}
	if b := bestOf(s.objs, recs); b >= 0 {
		return trials[b], true, nil
	}
	return Trial{}, false, nil
}
