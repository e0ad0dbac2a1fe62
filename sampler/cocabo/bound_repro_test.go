package cocabo

// Where CoCaBO falls short on Ackley-5C (docs/cocabo.md, "What limits
// CoCaBO on Ackley-5C"). CoCaBO chooses h with five EXP3 agents and x with
// its GP. This test gives it a perfect continuous part, x = 0 (the
// optimum) in every round, so that only the bandits are left, and asks how
// often the best value after 24 uniform points and 176 bandit rounds is
// below the one-hot GP's median at T = 200 (docs/cocabo.md). The agents are
// boa's, with Auer's tuned γ from the remaining budget [mixed spec §2.1],
// updated as replayEXP3 updates them; only the reward changes:
//
//   - boa's reward (best −y seen with the category, min–max normalised over
//     the variable's categories; 002 §5.3.1, docs/cocabo.md "Deviation");
//   - the spec's normalisation over all data [mixed spec §4.1 Decision];
//   - an oracle that pays 1 for the optimal level and 0 for any other, the
//     most an EXP3 reward in [0, 1] can tell an agent;
//   - no reward: the agents stay uniform.
//
// 200 runs per reward in go test; 1000 with BOA_REPRO=1:
//
//	BOA_REPRO=1 go test ./sampler -run TestReproAckley5CBanditBound -v

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/bandit"
	"github.com/boaopt/boa/problems/mixed"
	"github.com/boaopt/boa/sampler/internal/samplertest"
)

// oneHotMedianAckley5C is onehot-gp's median regret on Ackley-5C at T = 200
// over seeds 1–10 (docs/cocabo.md, sequential table).
const oneHotMedianAckley5C = 0.5469

// banditRun is the state a reward may look at: the reward statistics boa
// keeps (rewardTracker) and the whole history of category tuples and values.
type banditRun struct {
	t       *rewardTracker
	hs      [][]int
	ys      []float64
	effects [][]float64 // set by a reward's prepare
}

// banditReward gives the reward in [0, 1] of level c of variable j after the
// latest observation; prepare, when not nil, runs once per round first.
type banditReward struct {
	name    string
	prepare func(r *banditRun)
	reward  func(r *banditRun, j, c int) float64
}

// banditOnlyAckley5C runs CoCaBO's bandits on Ackley-5C with x = 0 and
// returns the best value found in budget evaluations.
func banditOnlyAckley5C(p *mixed.Problem, seed uint64, budget int, rw banditReward) float64 {
	const n0 = 24 // CoCaBO's design [mixed spec §4.1]
	l, err := newLayout(p.Space())
	if err != nil {
		panic(err)
	}
	rng := rand.New(rand.NewPCG(seed, 0xb0a))
	agents := make([]*bandit.EXP3, len(l.cat))
	for j, n := range l.levels {
		agents[j] = bandit.NewEXP3(n, bandit.TunedGamma(n, budget-n0))
	}
	run := &banditRun{t: newRewardTracker(l)}
	x := []float64{0}
	best := math.Inf(1)
	for i := range budget {
		h := make([]int, len(l.cat))
		for j, a := range agents {
			if i < n0 {
				h[j] = rng.IntN(l.levels[j])
			} else {
				h[j] = a.Draw(rng)
			}
		}
		y := p.Value(h, x)
		best = math.Min(best, y)
		run.t.add(h, y)
		run.hs, run.ys = append(run.hs, h), append(run.ys, y)
		if i < n0 {
			continue // design points only enter the reward statistics
		}
		if rw.prepare != nil {
			rw.prepare(run)
		}
		for j, c := range h {
			agents[j].Update(c, rw.reward(run, j, c))
		}
	}
	return best
}

// mainEffects fits y ≈ μ + Σ_j e_j(h_j) by backfitting with a ridge of one
// pseudo-observation per level (10 sweeps), the additive model of the
// categorical variables that CoCaBO's overlap kernel also assumes; it
// returns −e, so that larger is better.
func mainEffects(hs [][]int, ys []float64, levels int) [][]float64 {
	d := len(hs[0])
	var mu float64
	for _, y := range ys {
		mu += y
	}
	mu /= float64(len(ys))
	e := make([][]float64, d)
	for j := range e {
		e[j] = make([]float64, levels)
	}
	sum, cnt := make([]float64, levels), make([]float64, levels)
	for range 10 {
		for j := range d {
			clear(sum)
			clear(cnt)
			for i, h := range hs {
				r := ys[i] - mu
				for k, c := range h {
					if k != j {
						r -= e[k][c]
					}
				}
				sum[h[j]] += r
				cnt[h[j]]++
			}
			for c := range e[j] {
				e[j][c] = sum[c] / (cnt[c] + 1)
			}
		}
	}
	for j := range e {
		for c := range e[j] {
			e[j][c] = -e[j][c]
		}
	}
	return e
}

func TestReproAckley5CBanditBound(t *testing.T) {
	p, err := mixed.Get("ackley5c")
	if err != nil {
		t.Fatal(err)
	}
	runs := 200
	if samplertest.ReproFull() {
		runs = 1000
	}
	const budget, middle, levels = 200, 8, 17 // level 8 of 17 is z = 0
	fitEffects := func(r *banditRun) { r.effects = mainEffects(r.hs, r.ys, levels) }
	// minMax is the main effect of level c of variable j, min–max
	// normalised over the levels.
	minMax := func(r *banditRun, j, c int) float64 {
		e := r.effects[j]
		lo, hi := slices.Min(e), slices.Max(e)
		if !(hi > lo) {
			return 0.5
		}
		return (e[c] - lo) / (hi - lo)
	}
	rewards := []banditReward{
		{name: "boa's: best −y with the level, normalised over the levels", reward: func(r *banditRun, j, c int) float64 { return r.t.reward(j, c, true) }},
		{name: "the spec's: the same normalised over all data", reward: func(r *banditRun, j, c int) float64 { return r.t.reward(j, c, false) }},
		{name: "the level's main effect, normalised over the levels", prepare: fitEffects, reward: minMax},
		{name: "1 for the level of largest main effect, else 0", prepare: fitEffects, reward: func(r *banditRun, j, c int) float64 {
			if minMax(r, j, c) == 1 {
				return 1
			}
			return 0
		}},
		{name: "oracle: 1 for the optimal level, else 0", reward: func(_ *banditRun, _, c int) float64 {
			if c == middle {
				return 1
			}
			return 0
		}},
		{name: "none (the agents stay uniform)", reward: func(*banditRun, int, int) float64 { return 0 }},
	}
	below := make([]float64, len(rewards))
	t.Logf("| reward | median, runs 1–10 | median, %d runs | share of runs below %.4f |", runs, oneHotMedianAckley5C)
	for k, rw := range rewards {
		final := make([]float64, runs)
		samplertest.ParallelSeeds(runs, func(s int) { final[s-1] = banditOnlyAckley5C(p, uint64(s), budget, rw) })
		var n int
		for _, v := range final {
			if v < oneHotMedianAckley5C {
				n++
			}
		}
		below[k] = float64(n) / float64(runs)
		t.Logf("| %s | %.3f | %.3f | %.3f |", rw.name, samplertest.Median(final[:10]), samplertest.Median(final), below[k])
	}
	// The diagnosis docs/cocabo.md states: with a perfect x the seeds'
	// reward rarely gets below the one-hot GP's median, while a reward
	// that tells the agents the right level usually does.
	if below[0] > 0.25 || below[4] < 0.5 {
		t.Errorf("share below %.4f: boa's reward %.3f (want ≤ 0.25), oracle %.3f (want ≥ 0.5); docs/cocabo.md needs rewriting",
			oneHotMedianAckley5C, below[0], below[4])
	}
}
