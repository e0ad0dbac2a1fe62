package pruner

import (
	"math"
	"slices"
)

// SuccessiveHalving is Optuna's SuccessiveHalvingPruner, asynchronous
// successive halving (ASHA; spec tse-and-early-stopping §9.3). Rung k sits
// at the promotion step r·η^(s₀+k), r = MinResource, η = ReductionFactor,
// s₀ = MinEarlyStoppingRate. A trial whose report reaches a rung's step
// competes there with every trial that reached the rung before, and goes
// on only when its value is among the best 1/η of them. No trial waits for
// a rung to fill: the first trials at a rung pass easily, later ones meet
// more competition.
//
// Optuna records a trial's value at each rung as a system attribute when
// the trial passes the rung's step; boa's pruners keep no state (see
// Pruner), so Prune recomputes the rungs from the curves: a trial's value
// at rung k is its value at its first report at or after the rung's step
// whose value is not NaN (Optuna prunes at a NaN before recording it), and
// the trial has reached rung k when it has such a report. This matches
// Optuna for every trial that stopped reporting when it was pruned, with
// two exceptions:
//
//   - A trial pruned at a report that jumped over several rungs counts at
//     all of them, while Optuna records it only up to the rung it failed
//     (the one edge-case deviation of a fixed MinResource).
//   - Failed trials never compete (pruners ignore them); Optuna keeps the
//     rung values a trial recorded before it failed.
//
// With MinResource auto (the default), Optuna fixes r at its first check
// after a trial completes and records rungs only from then on: the trials
// that reported before, the first complete one at least, never compete,
// and a trial running then records its next value at every rung it had
// passed. boa recomputes r from the complete trials at every call and
// puts every trial's reports on the rungs, so the first trials do compete
// and decisions early in a study can differ (the third deviation). They
// agree when the first trial runs alone and reports only NaNs and every
// complete trial ends at the same step, as in the parity test.
type SuccessiveHalving struct {
	// MinResource r: the step of the first rung, ≥ 1; 0 means auto,
	// max(⌊(largest last step of the complete trials)/100⌋, 1), and no
	// pruning while no trial is complete.
	MinResource int64
	// ReductionFactor η ≥ 2: a rung keeps the best 1/η of its trials and
	// the next rung is η times further (values below 2 mean 4).
	ReductionFactor int
	// MinEarlyStoppingRate s₀ ≥ 0: the first rung is at r·η^s₀.
	MinEarlyStoppingRate int
	// BootstrapCount: a trial is pruned at a rung that it reaches with at
	// most this many trials there, itself included (Optuna forbids it with
	// an auto MinResource).
	BootstrapCount int
}

// NewSuccessiveHalving returns Optuna's SuccessiveHalvingPruner with its
// defaults: min_resource auto, reduction_factor 4, min_early_stopping_rate
// 0, bootstrap_count 0.
func NewSuccessiveHalving() SuccessiveHalving {
	return SuccessiveHalving{MinResource: 0, ReductionFactor: 4}
}

func (h SuccessiveHalving) eta() int64 {
	if h.ReductionFactor < 2 {
		return 4
	}
	return int64(h.ReductionFactor)
}

// Prune follows Optuna's SuccessiveHalvingPruner.prune (§9.3).
func (h SuccessiveHalving) Prune(s Study, t Trial) bool {
	if len(t.Curve) == 0 {
		return false
	}
	last := t.Curve[len(t.Curve)-1]
	r := h.MinResource
	if r <= 0 {
		var ok bool
		if r, ok = autoMinResource(s); !ok {
			return false // auto and no trial complete: r is not known yet
		}
	}
	eta := h.eta()
	s0 := max(h.MinEarlyStoppingRate, 0)
	// The rungs this trial passed at its earlier reports; this report
	// starts at the next one (Optuna's _get_current_rung).
	earlier := int64(-1)
	for _, p := range t.Curve[:len(t.Curve)-1] {
		if !math.IsNaN(p.Value) {
			earlier = max(earlier, p.Step)
		}
	}
	rung := 0
	for step := promotionStep(r, eta, s0); step <= earlier && step < math.MaxInt64; {
		rung++
		step = promotionStep(r, eta, s0+rung)
	}
	// A report may pass several rungs at once: check each in turn.
	for ; ; rung++ {
		step := promotionStep(r, eta, s0+rung)
		if last.Step < step || step == math.MaxInt64 {
			return false
		}
		if math.IsNaN(last.Value) {
			return true
		}
		competing := []float64{last.Value}
		for _, u := range s.Trials {
			if u.Number == t.Number || u.State == Failed {
				continue
			}
			if v, ok := rungValue(u, step); ok {
				competing = append(competing, v)
			}
		}
		if len(competing) <= h.BootstrapCount {
			return true
		}
		if !promotable(last.Value, competing, eta, s.Maximize) {
			return true
		}
	}
}

// autoMinResource is Optuna's _estimate_min_resource: the largest last
// step of the complete trials over 100, at least 1; false while no trial
// with a report is complete.
func autoMinResource(s Study) (int64, bool) {
	last, ok := maxCompleteStep(s)
	if !ok {
		return 0, false
	}
	return max(floorDiv(last, 100), 1), true
}

// maxCompleteStep is the largest last step of the complete trials.
func maxCompleteStep(s Study) (int64, bool) {
	var last int64
	found := false
	for _, u := range s.Trials {
		if step, ok := u.LastStep(); ok && u.State == Complete && (!found || step > last) {
			last, found = step, true
		}
	}
	return last, found
}

// promotionStep is r·η^k, saturating at math.MaxInt64, a step no trial
// reaches.
func promotionStep(r, eta int64, k int) int64 {
	step := r
	for range k {
		if step > math.MaxInt64/eta {
			return math.MaxInt64
		}
		step *= eta
	}
	return step
}

// rungValue is u's value at the rung whose promotion step is step: its
// first non-NaN value at or after it.
func rungValue(u Trial, step int64) (float64, bool) {
	for _, p := range u.Curve {
		if p.Step >= step && !math.IsNaN(p.Value) {
			return p.Value, true
		}
	}
	return 0, false
}

// promotableIndex is the index, in the competing values sorted best
// first, of the worst value still promoted: the top ⌊n/η⌋ go on, and
// when that is none the best alone does (Optuna's
// _is_trial_promotable_to_next_rung, §9.3 step 5).
func promotableIndex(n int, eta int64) int {
	return max(int(int64(n)/eta)-1, 0)
}

// promotable reports whether value, one of competing, is promoted.
func promotable(value float64, competing []float64, eta int64, maximize bool) bool {
	i := promotableIndex(len(competing), eta)
	slices.Sort(competing)
	if maximize {
		return value >= competing[len(competing)-1-i]
	}
	return value <= competing[i]
}
