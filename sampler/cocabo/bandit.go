package cocabo

import (
	"math"

	"github.com/boaopt/boa/bandit"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
)

// rewardTracker holds the running statistics of CoCaBO's bandit reward
// [000 §5.4.1; 002 §5.3.1]: for variable j and category c, the best −y seen
// so far among the observations with h_j = c, r_j(c), min–max normalised
// to [0, 1] either over the per-category bests of variable j,
//
//	reward_j(c) = (r_j(c) − min_c' r_j(c'))/(max_c' r_j(c') − min_c' r_j(c')),
//
// (overArms, CoCaBO's default) or over all observations seen so far,
// (r_j(c) − r_min)/(r_max − r_min) [mixed spec §4.1 Decision]; 0.5 when the
// range is empty. Min–max normalisation is invariant to the affine
// standardisation of y, so −y serves for −ỹ; it keeps the reward in [0, 1]
// as EXP3 requires and exp(γ r̂/N) bounded.
type rewardTracker struct {
	best       [][]float64 // best[j][c]; −Inf while category c of variable j is unseen
	rmin, rmax float64
}

func newRewardTracker(l *mixedLayout) *rewardTracker {
	t := &rewardTracker{best: make([][]float64, len(l.cat)), rmin: math.Inf(1), rmax: math.Inf(-1)}
	for j, n := range l.levels {
		t.best[j] = make([]float64, n)
		for c := range t.best[j] {
			t.best[j][c] = math.Inf(-1)
		}
	}
	return t
}

// add records an observation with categories h and value y (minimised).
// Non-finite values, which the study never passes on, are ignored.
func (t *rewardTracker) add(h []int, y float64) {
	if math.IsNaN(y) || math.IsInf(y, 0) {
		return
	}
	r := -y
	t.rmin, t.rmax = math.Min(t.rmin, r), math.Max(t.rmax, r)
	for j, c := range h {
		t.best[j][c] = math.Max(t.best[j][c], r)
	}
}

// reward returns the normalised reward of category c of variable j; an
// unseen category (possible only for a non-finite observation) gets 0.
// With overArms the range is that of the variable's per-category bests
// instead of that of all observations (CoCaBORewardArms).
func (t *rewardTracker) reward(j, c int, overArms bool) float64 {
	b := t.best[j][c]
	if math.IsInf(b, -1) {
		return 0
	}
	lo, hi := t.rmin, t.rmax
	if overArms {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, v := range t.best[j] {
			if !math.IsInf(v, -1) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if !(hi > lo) {
		return 0.5
	}
	r := (b - lo) / (hi - lo)
	if math.IsInf(hi-lo, 1) {
		// Values beyond ±MaxFloat64/2 of both signs: the range overflows,
		// halved it does not (and halving is exact).
		r = (b/2 - lo/2) / (hi/2 - lo/2)
	}
	return math.Min(1, math.Max(0, r))
}

// replayEXP3 rebuilds the sequential agents, one EXP3 per categorical
// variable with γ_j = TunedGamma(N_j, budget) [000 Alg. 5; mixed spec §2.1],
// by replaying the observations in trial order: the design points (by their
// Origin; the first n0 when none is recorded) and the enqueued ones only
// enter the reward statistics, as the initial design does in the reference
// code; each other observation updates every agent's played arm with the
// joint reward computed on the data up to and including it [000 Alg. 5,
// line 8].
func replayEXP3(l *mixedLayout, obs []sampler.Observation, n0, budget int, overArms bool) []*bandit.EXP3 {
	agents := make([]*bandit.EXP3, len(l.cat))
	for j, n := range l.levels {
		agents[j] = bandit.NewEXP3(n, bandit.TunedGamma(n, budget))
	}
	t := newRewardTracker(l)
	for i, o := range obs {
		h := l.arms(o.X)
		t.add(h, o.Y)
		if bo.ModelFree(o, i < n0) || math.IsNaN(o.Y) || math.IsInf(o.Y, 0) {
			continue
		}
		for j, c := range h {
			agents[j].Update(c, t.reward(j, c, overArms))
		}
	}
	return agents
}

// replayEXP3M rebuilds the batch agents, one EXP3.M per categorical
// variable with b plays and γ_j = BatchGamma(N_j, b, budget) [002 Alg. 8;
// mixed spec §4.3], by replaying the observations batch by batch. The
// design points and the enqueued ones (bo.ModelFree) only enter the reward
// statistics, and so do the other members of their batches. The rest are
// grouped by the batch they were proposed in (Observation.Batch), so the
// replay keeps to the real batches when a trial failed (it is not in obs)
// or when study.AskBatch filled part of a batch with waiting trials;
// observations with no recorded batch (a hand-built history, a study
// stored before batches were recorded) are taken as consecutive batches of
// b in trial order. A batch's rewards are computed once the whole batch is
// in, at its last observation, as the reference code does, and each agent
// updates every played arm.
func replayEXP3M(l *mixedLayout, obs []sampler.Observation, n0, b, budget int, overArms bool) []*bandit.EXP3M {
	agents := make([]*bandit.EXP3M, len(l.cat))
	for j, n := range l.levels {
		agents[j] = bandit.NewEXP3M(n, b, bandit.BatchGamma(n, b, budget))
	}
	batch := make([]int, len(obs)) // the key of each observation's batch
	initial := map[int]bool{}      // batches with a model-free member
	last := map[int]int{}          // the index of each batch's last finite observation
	for i, o := range obs {
		switch {
		case o.Batch > 0:
			batch[i] = o.Batch
		case i >= n0:
			batch[i] = -1 - (i-n0)/b
		}
		if bo.ModelFree(o, i < n0) {
			initial[batch[i]] = true
		}
		if !math.IsNaN(o.Y) && !math.IsInf(o.Y, 0) {
			last[batch[i]] = i
		}
	}
	t := newRewardTracker(l)
	played := map[int][][]int{}
	for i, o := range obs {
		if math.IsNaN(o.Y) || math.IsInf(o.Y, 0) {
			continue
		}
		h := l.arms(o.X)
		t.add(h, o.Y)
		k := batch[i]
		if initial[k] {
			continue
		}
		played[k] = append(played[k], h)
		if last[k] != i {
			continue
		}
		for j, agent := range agents {
			arms := make([]int, len(played[k]))
			rewards := make([]float64, len(played[k]))
			for m, h := range played[k] {
				arms[m], rewards[m] = h[j], t.reward(j, h[j], overArms)
			}
			agent.Update(arms, rewards)
		}
		delete(played, k)
	}
	return agents
}
