package playbook_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/problems/functions"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/samplertest"
	"github.com/boaopt/boa/sampler/playbook"
)

// TestPlaybookZeroAtRunningTrials checks HLP's property (iii) in the
// sampler's own model (spec §8.4): with three trials running, the
// penalised acquisition of playbook-h and -hl is exactly 0 at each and
// positive beside them; LP's (playbook-l, -ll) is positive at them.
func TestPlaybookZeroAtRunningTrials(t *testing.T) {
	h := samplertest.WellHistory(t, 1)
	h.Pending = [][]float64{{0.31, 0.62, 0.47}, {0.8, 0.2, 0.5}, {0.1, 0.9, 0.9}}
	for _, name := range []string{"playbook-l", "playbook-h", "playbook-ll", "playbook-hl"} {
		s, _ := sampler.New(name)
		af, err := playbook.Acquisition(s.(*playbook.Playbook), h, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		hard := s.(*playbook.Playbook).Hard
		for _, x := range h.Pending {
			at := af(x)
			if hard && at != 0 {
				t.Errorf("%s: α̃ at the running trial %v = %v, want exactly 0", name, x, at)
			}
			if !hard && !(at > 0) {
				t.Errorf("%s: α̃ at the running trial %v = %v, want > 0", name, x, at)
			}
			if beside := af([]float64{x[0] + 0.3, x[1], x[2] - 0.2}); !(beside > 0) {
				t.Errorf("%s: α̃ beside the running trial %v = %v, want > 0", name, x, beside)
			}
		}
	}
}

// TestPlaybookBatchIsSpread: in a synchronous batch of 8 on the well
// function, where the first point goes to the well's bottom, HLP keeps
// every later point out of the earlier ones' exclusion balls. Kriging
// Believer (kb, the same UCB) keeps them apart by less: its fantasies
// lower the variance beside a pending point, but not to zero.
func TestPlaybookBatchIsSpread(t *testing.T) {
	closest := func(name string, seed uint64) float64 {
		s, _ := sampler.New(name)
		h := samplertest.WellHistory(t, seed)
		us, _, err := sampler.SuggestBatch(context.Background(), s, h, 8, func(i int) *rand.Rand { return rand.New(rand.NewPCG(seed, uint64(i))) })
		if err != nil {
			t.Fatal(err)
		}
		low := math.Inf(1)
		for i, u := range us {
			for _, p := range us[:i] {
				low = min(low, math.Sqrt(samplertest.SqDist(u, p)))
			}
		}
		return low
	}
	for seed := uint64(1); seed <= 3; seed++ {
		hl, kb := closest("playbook-hl", seed), closest("kb", seed)
		t.Logf("seed %d: closest pair of the batch %.3g (playbook-hl), %.3g (kb)", seed, hl, kb)
		if hl < 0.02 {
			t.Errorf("seed %d: playbook-hl's batch has two points %.3g apart, want >= 0.02", seed, hl)
		}
	}
}

// TestPlaybookBranin: sequentially (no trial running, so no penalty)
// PLAyBOOK is GP-UCB and finds Branin's minimum as gpbo does.
func TestPlaybookBranin(t *testing.T) {
	fn, _ := functions.Get("branin", 0)
	if best := samplertest.Minimise(t, playbook.New(true, true), fn, 30, 1); best-fn.Optimum > 0.05 {
		t.Errorf("playbook-hl on Branin: best %v after 30 trials, optimum %v", best, fn.Optimum)
	}
}

// TestPlaybookSettings: a setting out of range is an error at the first
// suggestion past the design, naming the field.
func TestPlaybookSettings(t *testing.T) {
	h := samplertest.WellHistory(t, 1)
	for _, mut := range []func(p *playbook.Playbook){
		func(p *playbook.Playbook) { p.Kappa = -1 },
		func(p *playbook.Playbook) { p.Gamma = math.NaN() },
		func(p *playbook.Playbook) { p.P = 5 },
		func(p *playbook.Playbook) { p.Positivity = "exp" },
	} {
		p := playbook.New(true, true)
		mut(p)
		if _, err := p.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, 1))); err == nil {
			t.Errorf("%+v: no error", *p)
		}
	}
	p := playbook.New(true, false)
	p.Positivity = "offset"
	h.Pending = [][]float64{{0.5, 0.5, 0.5}}
	if _, err := p.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, 1))); err != nil {
		t.Errorf("offset positivity: %v", err)
	}
}
