package casmopolitan

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/samplertest"
)

// TestCasmopolitanReplayByOrigin: recorded design points do not move the
// trust-region counters, also beyond InitPoints (a parallel study's extra
// design points), and the first model point of an epoch joins it without
// a step. Without origins the first InitPoints trials are the design.
func TestCasmopolitanReplayByOrigin(t *testing.T) {
	sp := samplertest.MixedSpace(t, 4, 3, 1)
	cs, _ := newCasmoSpace(sp)
	c := New()
	c.InitPoints, c.SuccTol, c.FailTol = 2, 2, 3
	rng := rand.New(rand.NewPCG(1, 1))
	h := &sampler.History{Space: sp, Seed: 1}
	for _, y := range []float64{10, 9, 100, 100, 100} {
		h.Observed = append(h.Observed, sampler.Observation{X: sp.Sample(rng), Y: y, Origin: sampler.OriginDesign})
	}
	if st := c.replay(cs, h); st.fail != 0 || st.shrinks != 0 || len(st.local) != 5 {
		t.Errorf("5 design points: %d failures, %d shrinks, %d in the epoch; want 0, 0, 5", st.fail, st.shrinks, len(st.local))
	}
	h.Observed = samplertest.WithOrigins(h.Observed, func(int) sampler.Origin { return sampler.OriginUnrecorded })
	if st := c.replay(cs, h); st.shrinks != 1 {
		t.Errorf("5 trials without origins: %d shrinks; want 1 (3 failures after a design of 2)", st.shrinks)
	}
	h.Observed = samplertest.WithOrigins(h.Observed[:1], func(int) sampler.Origin { return sampler.OriginModel })
	if st := c.replay(cs, h); st.succ != 0 || st.fail != 0 || len(st.local) != 1 {
		t.Errorf("one model point: %d successes, %d failures, %d in the epoch; want 0, 0, 1", st.succ, st.fail, len(st.local))
	}
}

// TestCasmopolitanLateTrialOfAnEndedEpoch: a model's trial that completes
// after its epoch ended (proposed before the restart by a parallel study)
// joins neither epoch, so the new trust region is centred on the new
// epoch's trials, not pulled back to the old optimum.
func TestCasmopolitanLateTrialOfAnEndedEpoch(t *testing.T) {
	sp := samplertest.MixedSpace(t, 4, 3, 1)
	cs, _ := newCasmoSpace(sp)
	c := New()
	c.InitPoints, c.SuccTol, c.FailTol, c.LhInit = 2, 2, 3, 2
	rng := rand.New(rand.NewPCG(1, 1))
	h := &sampler.History{Space: sp, Seed: 1}
	add := func(o sampler.Origin, ys ...float64) {
		for _, y := range ys {
			h.Observed = append(h.Observed, sampler.Observation{X: sp.Sample(rng), Y: y, Origin: o})
		}
	}
	add(sampler.OriginDesign, 10, 9)
	add(sampler.OriginModel, 100, 100, 100) // three failures: the radius 2 shrinks to 1, the minimum: restart
	add(sampler.OriginModel, 5)             // proposed before the restart, completed after it
	add(sampler.OriginDesign, 50, 60)       // the guided-restart design
	add(sampler.OriginModel, 40)            // a success in the new epoch
	st := c.replay(cs, h)
	if st.epoch != 1 || !slices.Equal(st.local, []int{6, 7, 8}) || st.succ != 1 || st.centreOf(h).Y != 40 {
		t.Errorf("epoch %d with trials %v, %d successes, centre %v; want epoch 1 with trials [6 7 8], 1 success, centre 40",
			st.epoch, st.local, st.succ, st.centreOf(h).Y)
	}
	h.Observed = samplertest.WithOrigins(h.Observed, func(int) sampler.Origin { return sampler.OriginUnrecorded })
	if st := c.replay(cs, h); st.epoch != 1 || !slices.Equal(st.local, []int{5, 6, 7, 8}) {
		t.Errorf("without origins: epoch %d with trials %v; want the late trial in the new epoch, as before: [5 6 7 8]", st.epoch, st.local)
	}
}
