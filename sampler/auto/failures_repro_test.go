package auto_test

// How the samplers cope with failing trials (docs/samplers.md, "Failed
// trials"):
//
//	BOA_REPRO=1 go test ./sampler -run TestReproFailures -v
//
// 10 seeds per row. A trial fails either in a region (an optimiser that
// diverges, a net that runs out of memory) or at random with probability
// 0.3 (a flaky machine). The failures are shown to the sampler in one of
// three ways: not at all (boa before History.Failed; Optuna's TPE), as
// History.Failed (boa now: never proposed again, fantasised like pending
// trials, or for tpe counted among the bad), or as observations with the
// worst value seen so far (SMAC's crash cost).

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/problems/functions"
	"github.com/boaopt/boa/problems/mixed"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/cocabo"
	"github.com/boaopt/boa/sampler/internal/samplertest"
	"github.com/boaopt/boa/space"
)

// failing is a test problem whose trials may fail: value returns the
// objective of an encoded point and whether the trial fails.
type failing struct {
	name  string
	sp    *space.Space
	value func(u []float64, flaky *rand.Rand) (y float64, fails bool)
}

// runFailing runs s for trials suggestions on p with the failures shown as
// shown, and returns the number of failed trials and the best value. It
// runs inside samplertest.ParallelSeeds, so an error is reported with t.Error
// (t.Fatal must not leave another goroutine) and ends the run.
func runFailing(t *testing.T, s sampler.Sampler, p failing, shown string, seed uint64, trials int) (int, float64) {
	h := &sampler.History{Space: p.sp, Seed: seed, Budget: trials}
	flaky := rand.New(rand.NewPCG(seed, 77))
	best, failed := math.Inf(1), 0
	for i := range trials {
		h.Trials = i
		u, err := s.Suggest(context.Background(), h, rand.New(rand.NewPCG(seed, uint64(i))))
		if err != nil {
			t.Errorf("%s on %s, seed %d, trial %d: %v", s.Name(), p.name, seed, i, err)
			break
		}
		p.sp.Round(u)
		y, fails := p.value(u, flaky)
		if !fails {
			best = min(best, y)
			h.Observed = append(h.Observed, sampler.Observation{X: u, Y: y})
			continue
		}
		failed++
		switch shown {
		case "History.Failed":
			h.Failed = append(h.Failed, u)
		case "the worst value":
			if len(h.Observed) > 0 {
				worst := math.Inf(-1)
				for _, o := range h.Observed {
					worst = max(worst, o.Y)
				}
				h.Observed = append(h.Observed, sampler.Observation{X: u, Y: worst})
			}
		}
	}
	return failed, best
}

func TestReproFailures(t *testing.T) {
	samplertest.NeedRepro(t, "run the failed-trials comparison")
	const seeds = 10
	var problems []failing
	for _, name := range []string{"branin", "hartmann6"} {
		fn, err := functions.Get(name, 0)
		if err != nil {
			t.Fatal(err)
		}
		region := func(u []float64) bool { return u[0] > 0.7 || (fn.Dim > 2 && u[1] > 0.8) }
		problems = append(problems, failing{name + ", u₁ > 0.7 fails" + map[bool]string{true: " (and u₂ > 0.8)"}[fn.Dim > 2], samplertest.UnitSpace(t, fn.Dim),
			func(u []float64, _ *rand.Rand) (float64, bool) { return fn.EvalUnit(u), region(u) }})
		problems = append(problems, failing{name + ", 30% fail at random", samplertest.UnitSpace(t, fn.Dim),
			func(u []float64, flaky *rand.Rand) (float64, bool) { return fn.EvalUnit(u), flaky.Float64() < 0.3 }})
	}
	f3c, err := mixed.Get("func3c")
	if err != nil {
		t.Fatal(err)
	}
	sp := f3c.Space()
	problems = append(problems, failing{"func3c, h₁ = bea fails", sp, func(u []float64, noise *rand.Rand) (float64, bool) {
		a := sp.Decode(u)
		y, err := f3c.Evaluate(a, noise)
		return y, err != nil || a["h1"] == "bea"
	}})
	fmt.Println("| problem, failures | sampler | failed trials shown as | failed trials per run | best value (mean ± s.e.) |")
	fmt.Println("|---|---|---|---|---|")
	for _, p := range problems {
		trials, samplers := 40, []string{"gpbo", "tpe"}
		if p.sp == sp {
			trials, samplers = 60, []string{"auto", "casmopolitan", "tpe"}
		}
		for _, name := range samplers {
			for _, shown := range []string{"nothing", "History.Failed", "the worst value"} {
				failed, best := make([]float64, seeds), make([]float64, seeds)
				samplertest.ParallelSeeds(seeds, func(seed int) {
					s, err := sampler.New(name)
					if err != nil {
						t.Error(err)
						return
					}
					n, b := runFailing(t, s, p, shown, uint64(seed), trials)
					failed[seed-1], best[seed-1] = float64(n), b
				})
				f, _ := samplertest.MeanSE(failed)
				finite := slices.DeleteFunc(best, func(v float64) bool { return math.IsInf(v, 1) })
				m, se := samplertest.MeanSE(finite)
				none := ""
				if k := seeds - len(finite); k > 0 {
					none = fmt.Sprintf(" (%d runs had no completed trial)", k)
				}
				fmt.Printf("| %s | %s | %s | %.1f of %d | %.4g ± %.2g%s |\n", p.name, name, shown, f, trials, m, se, none)
			}
		}
	}
}

// TestReproBatchFailures compares batch CoCaBO replaying its EXP3.M agents
// by the recorded batches (Observation.Batch, as study.AskBatch stores
// them) with replaying them in consecutive groups of b, which mix two
// batches once a trial has failed (docs/cocabo.md, batch mode):
//
//	BOA_REPRO=1 go test ./sampler -run TestReproBatchFailures -v
//
// Func-3C, batches of 4, 120 trials of which a quarter fail at random,
// 20 seeds (about 2 minutes).
func TestReproBatchFailures(t *testing.T) {
	samplertest.NeedRepro(t, "run the batch replay comparison")
	const seeds, trials, b = 20, 120, 4
	p, err := mixed.Get("func3c")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("| batches replayed | best value (mean ± s.e.) | median |")
	fmt.Println("|---|---|---|")
	for _, recorded := range []bool{true, false} {
		best := make([]float64, seeds)
		samplertest.ParallelSeeds(seeds, func(seed int) {
			best[seed-1] = runBatchFailing(t, p, uint64(seed), trials, b, recorded)
		})
		m, se := samplertest.MeanSE(best)
		fmt.Printf("| %s | %.4f ± %.4f | %.4f |\n", map[bool]string{true: "as recorded", false: "in consecutive groups of b"}[recorded], m, se, samplertest.Median(best))
	}
}

// runBatchFailing runs batch CoCaBO on p in batches of b until trials
// trials were proposed, each failing with probability 1/4, and returns the
// best value. With recorded, the observations carry their batch number.
func runBatchFailing(t *testing.T, p *mixed.Problem, seed uint64, trials, b int, recorded bool) float64 {
	sp := p.Space()
	h := &sampler.History{Space: sp, Seed: seed, Budget: trials}
	noise, flaky := rand.New(rand.NewPCG(seed, 0xbe4c)), rand.New(rand.NewPCG(seed, 77))
	c, best := cocabo.New(), math.Inf(1)
	for h.Trials < trials {
		us, err := c.SuggestBatch(context.Background(), h, b, rand.New(rand.NewPCG(seed, uint64(h.Trials))))
		if err != nil {
			t.Error(err)
			return best
		}
		batch := h.Trials + 1
		for _, u := range us {
			sp.Round(u)
			h.Trials++
			if flaky.Float64() < 0.25 {
				h.Failed = append(h.Failed, u)
				continue
			}
			y, err := p.Evaluate(sp.Decode(u), noise)
			if err != nil {
				t.Error(err)
				return best
			}
			best = min(best, y)
			o := sampler.Observation{X: u, Y: y}
			if recorded {
				o.Batch = batch
			}
			h.Observed = append(h.Observed, o)
		}
	}
	return best
}
