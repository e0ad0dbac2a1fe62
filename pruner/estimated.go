package pruner

import "github.com/boaopt/boa/curve"

// Estimated is Base deciding on an estimator of each trial's curve instead
// of its reported values: at every step the value compared is the
// estimator of the curve up to that step, e.g. TSE-E, the latest epoch's
// training loss, or TSE-EMA (spec tse-and-early-stopping §9.5, a project
// extension). The trials report their training losses. TSE ranks models
// under one training set-up better than early validation values do
// [000 §8.4], so a pruner that compares it keeps better trials. Lower
// estimates are better: Estimated decides as a minimising study whatever
// the study's direction, because the estimators sum losses.
type Estimated struct {
	Base      Pruner
	Estimator curve.Estimator
}

func (e Estimated) Prune(s Study, t Trial) bool {
	est := Study{Name: s.Name, Trials: make([]Trial, len(s.Trials))}
	for i, u := range s.Trials {
		est.Trials[i] = e.transform(u)
	}
	return e.Base.Prune(est, e.transform(t))
}

// transform replaces each point of t's curve by the estimator of the curve
// up to it.
func (e Estimated) transform(t Trial) Trial {
	values := make([]float64, len(t.Curve))
	for i, p := range t.Curve {
		values[i] = p.Value
	}
	out := t
	out.Curve = make([]Point, len(t.Curve))
	for i, v := range e.Estimator.EstimateEach(values) {
		out.Curve[i] = Point{Step: t.Curve[i].Step, Value: v}
	}
	return out
}
