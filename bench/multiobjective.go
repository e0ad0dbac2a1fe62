package bench

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/boaopt/boa/bench/peers"
	"github.com/boaopt/boa/pareto"
	"github.com/boaopt/boa/problems"
	"github.com/boaopt/boa/study"
)

// Multi-objective problems (issue 43) have their own path through the
// harness, as the constrained ones do: the optimiser is told every
// objective's value (MultiSession), and a run is scored by the
// hypervolume of the Pareto front of its evaluations (every evaluation
// is feasible on these problems), normalised as the problem says, at its
// reference point, against the true front's (problems.MultiObjective):
// ZDT1–3 (Zitzler et al. 2000), DTLZ2 (Deb et al. 2005) and NB201's
// accuracy against latency (Dong & Yang 2020, Lee et al. 2021).
//
// The figure the tables and ranks share with the single-objective
// problems is the hypervolume gap, FrontHV − HV ≥ 0, lower better: a
// run's Best trace holds it after each evaluation, its FinalBest and
// Regret at the budget (the "hypervolume regret"); the run also reports
// the hypervolume itself, its ratio to the front's and log10 of the gap.
// The runs are sequential: synchronous batches and asynchronous workers
// are for one objective.

// MultiObjective is a problem of several objectives, all minimised.
type MultiObjective = problems.MultiObjective

// MultiSession is a Session told every objective's value (minimised) of
// the configuration it proposed last: boa's samplers through a study of
// several objectives, and the multi-objective peers (peers.MultiNames).
type MultiSession interface {
	Session
	TellValues(ctx context.Context, values []float64) error
}

// newMultiSession starts optimiser name on the multi-objective problem p.
func newMultiSession(ctx context.Context, name string, p MultiObjective, seed uint64, budget int) (MultiSession, error) {
	k := len(p.Objectives())
	if slices.Contains(peers.Names(), name) {
		return peers.NewMulti(ctx, name, p.Space(), seed, slices.Repeat([]string{peers.Minimize}, k))
	}
	smp, tf, err := boaSampler(name)
	if err != nil {
		return nil, err
	}
	return newBoaMulti(p.Space(), study.Options{Name: "bench", Sampler: smp, Seed: seed, Budget: budget, Transform: tf}, p.Objectives())
}

// runMultiObjective is runOne for a multi-objective problem.
func runMultiObjective(ctx context.Context, p MultiObjective, sampler string, seed int, cfg Config, r *RunResult) error {
	r.Objectives = p.Objectives()
	r.Values, r.Hypervolume = [][]float64{}, Trace{}
	front := p.FrontHV()
	r.FrontHV = &front
	s, err := newMultiSession(ctx, sampler, p, uint64(seed), cfg.Budget)
	if err != nil {
		return err
	}
	defer s.Close()
	var (
		observed [][]float64 // the Pareto front so far, normalised
		raw      [][]float64 // the same points in the objectives' units
		ref      = p.Ref()
		hv       float64
	)
	for len(r.Best) < cfg.Budget {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		a, err := s.Ask(ctx)
		r.SuggestSeconds = append(r.SuggestSeconds, time.Since(start).Seconds())
		if err != nil {
			return fmt.Errorf("ask %d: %w", len(r.Best), err)
		}
		y, err := p.EvaluateAll(a, nil)
		if err != nil {
			return fmt.Errorf("evaluation %d: %w", len(r.Best), err)
		}
		r.Values = append(r.Values, y)
		if n := p.Normalise(y); !dominatedByAny(n, observed) {
			observed, raw = keepFront(observed, raw, n, y)
			hv = pareto.Hypervolume(observed, ref)
		}
		r.Hypervolume = append(r.Hypervolume, hv)
		r.Best = append(r.Best, max(0, front-hv))
		if err := s.TellValues(ctx, y); err != nil {
			return fmt.Errorf("tell %d: %w", len(r.Best)-1, err)
		}
	}
	gap := r.Best[len(r.Best)-1]
	ratio, lg := hv/front, Number(math.Log10(gap))
	r.FinalHV, r.HVRatio, r.LogHVGap = &hv, &ratio, &lg
	r.FinalBest, r.Regret = Number(gap), &gap
	r.Front = raw
	slices.SortFunc(r.Front, slices.Compare)
	return nil
}

// dominatedByAny reports whether a point of front dominates y or equals it.
func dominatedByAny(y []float64, front [][]float64) bool {
	return slices.ContainsFunc(front, func(q []float64) bool { return slices.Equal(q, y) || pareto.Dominates(q, y) })
}

// keepFront adds y (normalised n) to the front and drops the points it
// dominates.
func keepFront(front, raw [][]float64, n, y []float64) ([][]float64, [][]float64) {
	var f, r [][]float64
	for i, q := range front {
		if !pareto.Dominates(n, q) {
			f, r = append(f, q), append(r, raw[i])
		}
	}
	return append(f, n), append(r, y)
}

// IsMultiObjective reports whether p has several objectives.
func IsMultiObjective(p problems.Problem) bool {
	_, ok := p.(MultiObjective)
	return ok
}
