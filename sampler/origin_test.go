package sampler

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// withOrigins returns a copy of obs whose i-th observation has origin o(i).
func withOrigins(obs []Observation, o func(i int) Origin) []Observation {
	out := slices.Clone(obs)
	for i := range out {
		out[i].Origin = o(i)
	}
	return out
}

// probs returns the play probabilities of the sequential agents replayed
// from obs with a design of n0.
func probs(t *testing.T, h *History, obs []Observation, n0 int) [][]float64 {
	t.Helper()
	l, err := newLayout(h.Space)
	if err != nil {
		t.Fatal(err)
	}
	var p [][]float64
	for _, a := range replayEXP3(l, obs, n0, 40, false) {
		p = append(p, a.Probs())
	}
	return p
}

// TestReplayEXP3ByOrigin: the agents learn from the observations a model
// chose, by their recorded origin, wherever the design points are in the
// history: an extra design point after the first n0 is not a play, and a
// design point still running does not make a model point take its place.
// Without origins the first n0 observations are the design, as before.
func TestReplayEXP3ByOrigin(t *testing.T) {
	c := fastCoCaBO()
	n0 := c.initPoints()
	h := toyHistory(t, c, 20, 3)
	byPlace := func(i int) Origin {
		if i < n0 {
			return OriginDesign
		}
		return OriginModel
	}
	legacy := probs(t, h, h.Observed, n0)
	if got := probs(t, h, withOrigins(h.Observed, byPlace), n0); !slices.EqualFunc(got, legacy, slices.Equal) {
		t.Fatalf("origins as the design rule gives them: %v; without origins %v", got, legacy)
	}

	// An extra design point at the end only enters the reward statistics.
	extra := append(withOrigins(h.Observed, byPlace), Observation{X: h.Observed[0].X, Y: h.Observed[0].Y, Origin: OriginDesign})
	if got := probs(t, h, extra, n0); !slices.EqualFunc(got, legacy, slices.Equal) {
		t.Errorf("an extra design point moved the agents: %v, want %v", got, legacy)
	}
	extra[len(extra)-1].Origin = OriginModel
	if got := probs(t, h, extra, n0); slices.EqualFunc(got, legacy, slices.Equal) {
		t.Error("a model point at the end did not move the agents")
	}
	extra[len(extra)-1].Origin = OriginUser
	if got := probs(t, h, extra, n0); !slices.EqualFunc(got, legacy, slices.Equal) {
		t.Errorf("an enqueued point moved the agents: %v, want %v", got, legacy)
	}

	// Design trial 3 still running: the n0 − 1 completed design points are
	// the design, and every model point is a play, as a replay by position
	// with a design of n0 − 1 has it.
	running := slices.Delete(withOrigins(h.Observed, byPlace), 3, 4)
	want := probs(t, h, slices.Delete(slices.Clone(h.Observed), 3, 4), n0-1)
	if got := probs(t, h, running, n0); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("design trial running: %v, want %v", got, want)
	}
}

// TestReplayEXP3MByOrigin: a batch of extra design points after the
// design is no play of the batch agents.
func TestReplayEXP3MByOrigin(t *testing.T) {
	c := fastCoCaBO()
	n0 := c.initPoints()
	h := toyHistory(t, c, 20, 3)
	l, err := newLayout(h.Space)
	if err != nil {
		t.Fatal(err)
	}
	batchProbs := func(obs []Observation) [][]float64 {
		var p [][]float64
		for _, a := range replayEXP3M(l, obs, n0, 2, 40, false) {
			pa, _ := a.Probs()
			p = append(p, pa)
		}
		return p
	}
	obs := withOrigins(h.Observed, func(i int) Origin {
		if i < n0 {
			return OriginDesign
		}
		return OriginModel
	})
	for i := range obs {
		obs[i].Batch = 1 + i/2
	}
	want := batchProbs(obs)
	for _, o := range h.Observed[:2] {
		obs = append(obs, Observation{X: o.X, Y: o.Y, Batch: 11, Origin: OriginDesign})
	}
	if got := batchProbs(obs); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("a batch of extra design points moved the agents: %v, want %v", got, want)
	}
	obs[len(obs)-1].Origin, obs[len(obs)-2].Origin = OriginModel, OriginModel
	if got := batchProbs(obs); slices.EqualFunc(got, want, slices.Equal) {
		t.Error("a batch of model points did not move the agents")
	}
}

// TestCasmopolitanReplayByOrigin: recorded design points do not move the
// trust-region counters, also beyond InitPoints (a parallel study's extra
// design points), and the first model point of an epoch joins it without
// a step. Without origins the first InitPoints trials are the design.
func TestCasmopolitanReplayByOrigin(t *testing.T) {
	sp := casmoTestSpace(t, 4, 3, 1)
	cs, _ := newCasmoSpace(sp)
	c := NewCasmopolitan()
	c.InitPoints, c.SuccTol, c.FailTol = 2, 2, 3
	rng := rand.New(rand.NewPCG(1, 1))
	h := &History{Space: sp, Seed: 1}
	for _, y := range []float64{10, 9, 100, 100, 100} {
		h.Observed = append(h.Observed, Observation{X: sp.Sample(rng), Y: y, Origin: OriginDesign})
	}
	if st := c.replay(cs, h); st.fail != 0 || st.shrinks != 0 || len(st.local) != 5 {
		t.Errorf("5 design points: %d failures, %d shrinks, %d in the epoch; want 0, 0, 5", st.fail, st.shrinks, len(st.local))
	}
	h.Observed = withOrigins(h.Observed, func(int) Origin { return OriginUnrecorded })
	if st := c.replay(cs, h); st.shrinks != 1 {
		t.Errorf("5 trials without origins: %d shrinks; want 1 (3 failures after a design of 2)", st.shrinks)
	}
	h.Observed = withOrigins(h.Observed[:1], func(int) Origin { return OriginModel })
	if st := c.replay(cs, h); st.succ != 0 || st.fail != 0 || len(st.local) != 1 {
		t.Errorf("one model point: %d successes, %d failures, %d in the epoch; want 0, 0, 1", st.succ, st.fail, len(st.local))
	}
}

// TestCasmopolitanLateTrialOfAnEndedEpoch: a model's trial that completes
// after its epoch ended (proposed before the restart by a parallel study)
// joins neither epoch, so the new trust region is centred on the new
// epoch's trials, not pulled back to the old optimum.
func TestCasmopolitanLateTrialOfAnEndedEpoch(t *testing.T) {
	sp := casmoTestSpace(t, 4, 3, 1)
	cs, _ := newCasmoSpace(sp)
	c := NewCasmopolitan()
	c.InitPoints, c.SuccTol, c.FailTol, c.LhInit = 2, 2, 3, 2
	rng := rand.New(rand.NewPCG(1, 1))
	h := &History{Space: sp, Seed: 1}
	add := func(o Origin, ys ...float64) {
		for _, y := range ys {
			h.Observed = append(h.Observed, Observation{X: sp.Sample(rng), Y: y, Origin: o})
		}
	}
	add(OriginDesign, 10, 9)
	add(OriginModel, 100, 100, 100) // three failures: the radius 2 shrinks to 1, the minimum: restart
	add(OriginModel, 5)             // proposed before the restart, completed after it
	add(OriginDesign, 50, 60)       // the guided-restart design
	add(OriginModel, 40)            // a success in the new epoch
	st := c.replay(cs, h)
	if st.epoch != 1 || !slices.Equal(st.local, []int{6, 7, 8}) || st.succ != 1 || st.centreOf(h).Y != 40 {
		t.Errorf("epoch %d with trials %v, %d successes, centre %v; want epoch 1 with trials [6 7 8], 1 success, centre 40",
			st.epoch, st.local, st.succ, st.centreOf(h).Y)
	}
	h.Observed = withOrigins(h.Observed, func(int) Origin { return OriginUnrecorded })
	if st := c.replay(cs, h); st.epoch != 1 || !slices.Equal(st.local, []int{5, 6, 7, 8}) {
		t.Errorf("without origins: epoch %d with trials %v; want the late trial in the new epoch, as before: [5 6 7 8]", st.epoch, st.local)
	}
}

// notDesigner is a sampler that does not say how it chose its points.
type notDesigner struct{}

func (notDesigner) Name() string { return "plain" }
func (notDesigner) Suggest(_ context.Context, h *History, rng *rand.Rand) ([]float64, error) {
	return h.Space.Sample(rng), nil
}

// TestSuggestBatchOrigins: each point of a batch asked one by one has the
// origin its own suggestion had (the pending points before it count), a
// joint batch has one origin, and a sampler that is not a Designer none.
func TestSuggestBatchOrigins(t *testing.T) {
	ctx := context.Background()
	sp := casmoTestSpace(t, 3, 3, 1)
	rngs := func(i int) *rand.Rand { return rand.New(rand.NewPCG(1, uint64(i))) }
	h := &History{Space: sp, Seed: 1, Trials: 2}
	rng := rand.New(rand.NewPCG(2, 2))
	for range 2 {
		u := sp.Sample(rng)
		h.Observed = append(h.Observed, Observation{X: u, Y: casmoToy(sp, u), Origin: OriginDesign})
	}
	casmo := NewCasmopolitan()
	casmo.InitPoints = 4
	coca := fastCoCaBO()
	coca.InitPoints = 2
	for _, tc := range []struct {
		s    Sampler
		want []Origin
	}{
		// 2 completed of 4: design while completed + pending < 4.
		{casmo, []Origin{OriginDesign, OriginDesign, OriginModel}},
		{coca, []Origin{OriginModel, OriginModel, OriginModel}},
		{Random{}, []Origin{OriginDesign, OriginDesign, OriginDesign}},
		{notDesigner{}, []Origin{OriginUnrecorded, OriginUnrecorded, OriginUnrecorded}},
	} {
		us, got, err := SuggestBatch(ctx, tc.s, h, 3, rngs)
		if err != nil || len(us) != 3 || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %d points with origins %v, %v; want %v", tc.s.Name(), len(us), got, err, tc.want)
		}
	}
	coca.InitPoints = 3
	if _, got, err := SuggestBatch(ctx, coca, h, 3, rngs); err != nil || !slices.Equal(got, []Origin{OriginDesign, OriginDesign, OriginDesign}) {
		t.Errorf("cocabo's joint batch in its design: origins %v, %v; want design for all", got, err)
	}
}
