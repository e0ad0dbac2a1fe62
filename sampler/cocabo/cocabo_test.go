package cocabo

import (
	"bytes"
	"cmp"
	"context"
	"log/slog"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/boaopt/boa/bandit"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/sampler/internal/samplertest"
	"github.com/boaopt/boa/space"
)

// fastCoCaBO is CoCaBO with a short design and few candidates, for tests.
func fastCoCaBO() *CoCaBO {
	c := New()
	c.InitPoints, c.Candidates, c.Budget = 8, 300, 40
	return c
}

func TestCoCaBONames(t *testing.T) {
	for _, name := range []string{"cocabo", "cocabo-auto", "cocabo-0", "cocabo-0.5", "cocabo-1", "onehot-gp"} {
		s, err := sampler.New(name)
		if err != nil || s.Name() != name {
			t.Errorf("New(%q) = %v, %v", name, s, err)
		}
	}
	for name, want := range map[string]float64{"cocabo-0": 0, "cocabo-0.5": 0.5, "cocabo-1": 1} {
		s, _ := sampler.New(name)
		if c := s.(*CoCaBO); c.LearnLambda || c.Lambda != want {
			t.Errorf("%s: λ = %v learned = %v", name, c.Lambda, c.LearnLambda)
		}
	}
	if _, ok := any(New()).(sampler.BatchSampler); !ok {
		t.Error("CoCaBO does not implement BatchSampler")
	}
}

// TestRewardNormalisation checks the reward of spec §4.1: best −y within
// the category, min–max normalised over all data so far.
func TestRewardNormalisation(t *testing.T) {
	l, err := newLayout(samplertest.ToySpace(t))
	if err != nil {
		t.Fatal(err)
	}
	tr := newRewardTracker(l)
	tr.add([]int{0, 1}, 5)
	if r := tr.reward(0, 0, false); r != 0.5 {
		t.Errorf("one observation: reward %v, want 0.5 (r_max = r_min)", r)
	}
	tr.add([]int{1, 1}, 1)  // r = −1, the best
	tr.add([]int{0, 0}, 3)  // r = −3
	tr.add([]int{2, 0}, 10) // r = −10, the worst
	for _, c := range []struct {
		j, c int
		want float64
	}{
		{0, 0, (-3 - -10) / 9.0}, // best of {−5, −3}
		{0, 1, 1},
		{0, 2, 0},
		{1, 1, 1},
		{1, 0, (-3 - -10) / 9.0},
	} {
		if r := tr.reward(c.j, c.c, false); math.Abs(r-c.want) > 1e-15 {
			t.Errorf("reward(%d, %d) = %v, want %v", c.j, c.c, r, c.want)
		}
	}
	// Over the categories' bests: variable 0 has bests −3, −1, −10.
	for c, want := range []float64{7. / 9, 1, 0} {
		if r := tr.reward(0, c, true); math.Abs(r-want) > 1e-15 {
			t.Errorf("reward over arms (0, %d) = %v, want %v", c, r, want)
		}
	}
	// Variable 1: bests −3 and −1.
	if r := tr.reward(1, 0, true); r != 0 {
		t.Errorf("reward over arms (1, 0) = %v, want 0", r)
	}
	// Finite values whose range overflows (a user's ±MaxFloat64
	// penalties) still give rewards in [0, 1], not NaN.
	tr.add([]int{0, 0}, -math.MaxFloat64)
	tr.add([]int{1, 0}, math.MaxFloat64)
	for c, want := range []float64{1, 0.5, 0.5} {
		if r := tr.reward(0, c, false); !(math.Abs(r-want) <= 1e-15) {
			t.Errorf("with ±MaxFloat64, reward (0, %d) = %v, want %v", c, r, want)
		}
	}
	for j, n := range l.levels {
		for c := range n {
			if r := tr.reward(j, c, true); !(r >= 0 && r <= 1) {
				t.Errorf("with ±MaxFloat64, reward over arms (%d, %d) = %v", j, c, r)
			}
		}
	}
}

// TestCoCaBOHorizon: T of the tuned γ is the field Budget when set, else
// the bandit rounds the study's budget leaves after the initial design
// (the reference code's 200 iterations after 24 points, 80 batches of 4),
// else 200; and the agents use it.
func TestCoCaBOHorizon(t *testing.T) {
	c := New()
	for _, tc := range []struct{ field, study, b, want int }{
		{0, 0, 1, 200},
		{0, 224, 1, 200},
		{0, 200, 1, 176},
		{0, 344, 4, 80},
		{0, 345, 4, 81},
		{0, 200, 8, 22},
		{0, 10, 1, 1}, // the budget ends inside the design
		{50, 344, 4, 50},
	} {
		c.Budget = tc.field
		if got := c.Horizon(&sampler.History{Budget: tc.study}, tc.b); got != tc.want {
			t.Errorf("Budget %d, study budget %d, b = %d: T = %d, want %d", tc.field, tc.study, tc.b, got, tc.want)
		}
	}
	h := samplertest.ToyHistory(t, fastCoCaBO(), 20, 3)
	fixed := fastCoCaBO() // Budget 40
	want, _ := fixed.ArmProbabilities(h)
	fromStudy := fastCoCaBO()
	fromStudy.Budget = 0
	h.Budget = fromStudy.InitPoints + 40
	got, _ := fromStudy.ArmProbabilities(h)
	h.Budget = 0
	other, _ := fromStudy.ArmProbabilities(h) // T = 200
	if !slices.Equal(got[0], want[0]) || slices.Equal(other[0], want[0]) {
		t.Errorf("agent 0 with the study's budget %v, with Budget = 40 %v, with T = 200 %v", got[0], want[0], other[0])
	}
}

// TestCoCaBOReplayIsDeterministic: the same history gives the same agents
// and, with the same rng, the same suggestion — also from a fresh sampler
// without a hyper-parameter cache when the iteration refits anyway.
func TestCoCaBOReplayIsDeterministic(t *testing.T) {
	c := fastCoCaBO()
	h := samplertest.ToyHistory(t, c, 20, 3) // 12 iterations after the design
	p1, err := c.ArmProbabilities(h)
	if err != nil {
		t.Fatal(err)
	}
	p2, _ := fastCoCaBO().ArmProbabilities(h)
	for j := range p1 {
		if !slices.Equal(p1[j], p2[j]) {
			t.Fatalf("agent %d: %v then %v", j, p1[j], p2[j])
		}
		if s := floatsSum(p1[j]); math.Abs(s-1) > 1e-12 {
			t.Fatalf("agent %d: probabilities sum to %v", j, s)
		}
	}
	if slices.Equal(p1[0], []float64{1. / 3, 1. / 3, 1. / 3}) {
		t.Fatal("12 updates left the first agent uniform")
	}
	h.Observed = h.Observed[:18] // iteration 10: a refit iteration
	h.Trials = 18
	u1, err := fastCoCaBO().Suggest(context.Background(), h, rand.New(rand.NewPCG(9, 9)))
	if err != nil {
		t.Fatal(err)
	}
	u2, _ := fastCoCaBO().Suggest(context.Background(), h, rand.New(rand.NewPCG(9, 9)))
	if !slices.Equal(u1, u2) {
		t.Fatalf("same history and rng, two suggestions %v and %v", u1, u2)
	}
}

func floatsSum(p []float64) float64 {
	var s float64
	for _, v := range p {
		s += v
	}
	return s
}

// TestCoCaBOKeepsDrawnCategories: the proposal carries exactly the h drawn
// from the replayed agents (the acquisition only moves x), and every
// proposal is a legal point of the space.
func TestCoCaBOKeepsDrawnCategories(t *testing.T) {
	c := fastCoCaBO()
	h := samplertest.ToyHistory(t, c, 12, 4)
	l, _ := newLayout(h.Space)
	for i := range 8 {
		h.Trials = 12 + i
		rng := func() *rand.Rand { return rand.New(rand.NewPCG(4, uint64(100+i))) }
		agents := replayEXP3(l, h.Observed, c.InitPoints, c.Budget, c.rewardOverArms())
		r := rng()
		want := make([]int, len(agents))
		for j, a := range agents {
			want[j] = a.Draw(r)
		}
		u, err := c.Suggest(context.Background(), h, rng())
		if err != nil {
			t.Fatal(err)
		}
		if got := l.arms(u); !slices.Equal(got, want) {
			t.Fatalf("iteration %d: proposal has categories %v, the agents drew %v", i, got, want)
		}
		checkLegal(t, h.Space, u)
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: samplertest.ToyValue(h.Space, u)})
	}
}

func checkLegal(t *testing.T, sp *space.Space, u []float64) {
	t.Helper()
	if len(u) != sp.Len() {
		t.Fatalf("proposal %v has %d coordinates, want %d", u, len(u), sp.Len())
	}
	r := slices.Clone(u)
	sp.Round(r)
	for i, v := range u {
		if !(v >= 0 && v <= 1) || r[i] != v {
			t.Fatalf("proposal %v is not a rounded point of the unit cube", u)
		}
	}
}

// TestCoCaBOFindsToyOptimum: 40 evaluations reach the best categories.
func TestCoCaBOFindsToyOptimum(t *testing.T) {
	h := samplertest.ToyHistory(t, fastCoCaBO(), 40, 5)
	best := h.Observed[bo.BestIndex(h.Observed)]
	if best.Y > 0.05 {
		t.Fatalf("best value %v after 40 evaluations (%v), want <= 0.05", best.Y, h.Space.Decode(best.X))
	}
}

// TestCoCaBOBatch: a batch holds exactly b distinct new points, also when
// b exceeds the number of category combinations (Π N_j = 6 here) and
// in a space whose only variables are categorical, as long as the space
// has b new points.
func TestCoCaBOBatch(t *testing.T) {
	c := fastCoCaBO()
	h := samplertest.ToyHistory(t, c, 12, 6)
	h.Pending = [][]float64{h.Space.Sample(rand.New(rand.NewPCG(1, 1)))}
	for _, b := range []int{1, 4, 9} {
		pts, err := c.SuggestBatch(context.Background(), h, b, rand.New(rand.NewPCG(6, uint64(b))))
		if err != nil {
			t.Fatal(err)
		}
		checkBatch(t, h, pts, b)
	}
	// Before the design is complete: b distinct random points.
	pts, err := c.SuggestBatch(context.Background(), &sampler.History{Space: h.Space}, 5, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	checkBatch(t, &sampler.History{Space: h.Space}, pts, 5)

	cat := space.MustNew(
		space.Param{Name: "a", Kind: space.Categorical, Choices: []string{"p", "q", "r"}},
		space.Param{Name: "b", Kind: space.Bool},
	)
	hc := &sampler.History{Space: cat}
	c2 := fastCoCaBO()
	c2.InitPoints = 2
	for _, k := range []int{0, 5} {
		u := []float64{(float64(k%3) + 0.5) / 3, (float64(k/3) + 0.5) / 2}
		hc.Observed = append(hc.Observed, sampler.Observation{X: u, Y: float64(k)})
	}
	pts, err = c2.SuggestBatch(context.Background(), hc, 4, rand.New(rand.NewPCG(2, 2)))
	if err != nil {
		t.Fatal(err)
	}
	checkBatch(t, hc, pts, 4)
	// A batch larger than what is left of the space takes every unseen
	// configuration and repeats for the rest, as Suggest does once a
	// space is exhausted, so that a study can use its whole budget.
	pts, err = c2.SuggestBatch(context.Background(), hc, 5, rand.New(rand.NewPCG(2, 3)))
	if err != nil || len(pts) != 5 {
		t.Fatalf("batch of 5 from 4 unseen configurations: %d points, %v", len(pts), err)
	}
	seen, repeats := bo.Seen(hc), 0
	for _, u := range pts {
		checkLegal(t, cat, u)
		if k := cat.Key(u); seen[k] {
			repeats++
		} else {
			seen[k] = true
		}
	}
	if repeats != 1 || len(seen) != 6 {
		t.Fatalf("batch of 5 from 4 unseen configurations: %d repeats, %d of 6 configurations covered; want 1 and 6", repeats, len(seen))
	}
}

func checkBatch(t *testing.T, h *sampler.History, pts [][]float64, b int) {
	t.Helper()
	if len(pts) != b {
		t.Fatalf("batch of %d points, want %d", len(pts), b)
	}
	seen := bo.Seen(h)
	for _, u := range pts {
		checkLegal(t, h.Space, u)
		k := h.Space.Key(u)
		if seen[k] {
			t.Fatalf("batch point %s repeats an evaluated, running or batch point", k)
		}
		seen[k] = true
	}
}

// TestBatchFantasiesUsePosteriorMeans: after Kriging Believer the model's
// mean is unchanged everywhere (each fantasy equals the mean there), while
// the variance at the picks has dropped.
func TestBatchFantasiesUsePosteriorMeans(t *testing.T) {
	c := fastCoCaBO()
	h := samplertest.ToyHistory(t, c, 14, 7)
	l, _ := newLayout(h.Space)
	rng := rand.New(rand.NewPCG(7, 7))
	m, err := c.model(l, h.Observed, 1, rng)
	if err != nil {
		t.Fatal(err)
	}
	pts, fm := c.krigingBeliever(l, m, []int{1, 0}, 3, h.Observed, bo.Seen(h), nil, rng)
	if fm.Len() != m.Len()+3 {
		t.Fatalf("model has %d points after 3 fantasies, want %d", fm.Len(), m.Len()+3)
	}
	probe := append(slices.Clone(pts), h.Space.Sample(rng), h.Space.Sample(rng))
	for k, u := range probe {
		z := l.features(u, nil)
		m0, v0 := m.Predict(z)
		m1, v1 := fm.Predict(z)
		if math.Abs(m1-m0) > 1e-7*(1+math.Abs(m0)) {
			t.Errorf("point %d: mean %v after the fantasies, %v before", k, m1, m0)
		}
		if k < len(pts) && !(v1 < v0) {
			t.Errorf("pick %d: variance %v after its fantasy, %v before", k, v1, v0)
		}
	}
}

func TestCoCaBOFallbacksAndErrors(t *testing.T) {
	ctx := context.Background()
	// No categorical parameter: gpbo's suggestion.
	sp := space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1}, space.Param{Name: "y", Kind: space.Float, Low: 0, High: 1})
	h := &sampler.History{Space: sp, Seed: 2}
	for i := range 8 {
		u := sp.Sample(rand.New(rand.NewPCG(3, uint64(i))))
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: u[0]*u[0] + u[1]})
	}
	got, err := New().Suggest(ctx, h, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := gpbo.New().Suggest(ctx, h, rand.New(rand.NewPCG(1, 1)))
	if !slices.Equal(got, want) {
		t.Errorf("continuous space: cocabo %v, gpbo %v", got, want)
	}
	pts, err := New().SuggestBatch(ctx, h, 3, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	checkBatch(t, h, pts, 3)

	// Conditional space: an error that names the problem.
	cond := space.MustNew(
		space.Param{Name: "opt", Kind: space.Categorical, Choices: []string{"sgd", "adam"}},
		space.Param{Name: "mom", Kind: space.Float, Low: 0, High: 1, When: map[string][]string{"opt": {"sgd"}}},
	)
	if _, err := New().Suggest(ctx, &sampler.History{Space: cond}, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("conditional space accepted")
	}
	if _, err := NewFixed(1.5).Suggest(ctx, &sampler.History{Space: samplertest.ToySpace(t)}, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("λ = 1.5 accepted")
	}
	bad := New()
	bad.Reward = "raw"
	if _, err := bad.Suggest(ctx, &sampler.History{Space: samplertest.ToySpace(t)}, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("unknown reward normalisation accepted")
	}
	if _, err := New().SuggestBatch(ctx, &sampler.History{Space: samplertest.ToySpace(t)}, 0, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("batch of 0 accepted")
	}
}

// TestReplayEXP3MIsDeterministic: the batch agents depend on the history
// only, and the n category vectors of a batch use each agent's plays.
func TestReplayEXP3MIsDeterministic(t *testing.T) {
	c := fastCoCaBO()
	h := samplertest.ToyHistory(t, c, 20, 8)
	l, _ := newLayout(h.Space)
	a := replayEXP3M(l, h.Observed, c.InitPoints, 4, c.Budget, c.rewardOverArms())
	b := replayEXP3M(l, h.Observed, c.InitPoints, 4, c.Budget, c.rewardOverArms())
	for j := range a {
		pa, _ := a[j].Probs()
		pb, _ := b[j].Probs()
		if !slices.Equal(pa, pb) {
			t.Fatalf("agent %d: %v then %v", j, pa, pb)
		}
	}
	hs := c.drawBatchArms(l, h, 2, rand.New(rand.NewPCG(1, 1)))
	// Variable a has 3 choices > 2 plays: the two plays are distinct.
	if hs[0][0] == hs[1][0] {
		t.Errorf("EXP3.M played arm %d twice for a 3-arm variable with b = 2", hs[0][0])
	}
	gs := groupArms([][]int{{1, 0}, {0, 1}, {1, 0}})
	if len(gs) != 2 || !slices.Equal(gs[0].arms, []int{0, 1}) || gs[1].count != 2 {
		t.Errorf("groupArms = %+v", gs)
	}
}

// TestReplayEXP3MFollowsRecordedBatches: the batch agents update batch by
// batch as the trials were proposed, also when a failed trial is missing
// from the history (consecutive groups of b would mix two batches) and
// when a batch of the initial design runs past its first n0 observations.
func TestReplayEXP3MFollowsRecordedBatches(t *testing.T) {
	c := fastCoCaBO()
	n0 := c.InitPoints
	h := samplertest.ToyHistory(t, c, n0+6, 8)
	l, _ := newLayout(h.Space)
	// batched gives the observations the batch numbers of study.AskBatch
	// for batches of b trials.
	batched := func(b int) []sampler.Observation {
		obs := slices.Clone(h.Observed)
		for i := range obs {
			obs[i].Batch = 1 + i/b*b
		}
		return obs
	}
	probs := func(agents []*bandit.EXP3M) [][]float64 {
		var ps [][]float64
		for _, a := range agents {
			p, _ := a.Probs()
			ps = append(ps, p)
		}
		return ps
	}
	// byHand replays the agents with the given batches after obs[:start],
	// which only enter the reward statistics.
	byHand := func(obs []sampler.Observation, start, b int, batches ...[]sampler.Observation) [][]float64 {
		agents := make([]*bandit.EXP3M, len(l.cat))
		for j, n := range l.levels {
			agents[j] = bandit.NewEXP3M(n, b, bandit.BatchGamma(n, b, c.Budget))
		}
		tr := newRewardTracker(l)
		for _, o := range obs[:start] {
			tr.add(l.arms(o.X), o.Y)
		}
		for _, batch := range batches {
			for _, o := range batch {
				tr.add(l.arms(o.X), o.Y)
			}
			for j, agent := range agents {
				var arms []int
				var rewards []float64
				for _, o := range batch {
					arm := l.arms(o.X)[j]
					arms, rewards = append(arms, arm), append(rewards, tr.reward(j, arm, c.rewardOverArms()))
				}
				agent.Update(arms, rewards)
			}
		}
		return probs(agents)
	}

	// b = 2 < 3 choices of variable a, so its agent learns. The second
	// trial of the first batch failed: batches of 1, 2 and 2 observations.
	obs := slices.Delete(batched(2), n0+1, n0+2)
	got := probs(replayEXP3M(l, obs, n0, 2, c.Budget, c.rewardOverArms()))
	if want := byHand(obs, n0, 2, obs[n0:n0+1], obs[n0+1:n0+3], obs[n0+3:]); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("failed trial: probabilities %v, want %v", got, want)
	}
	for i := range obs {
		obs[i].Batch = 0
	}
	if mixed := probs(replayEXP3M(l, obs, n0, 2, c.Budget, c.rewardOverArms())); slices.EqualFunc(got, mixed, slices.Equal) {
		t.Errorf("consecutive groups of b gave the same agents %v: the test does not tell the groupings apart", mixed)
	}

	// b = 3 does not divide n0 = 8: the batch of trials 6..8 was drawn at
	// random and does not update the agents; then batches 9..11, 12..13.
	obs = batched(3)
	got = probs(replayEXP3M(l, obs, n0, 3, c.Budget, c.rewardOverArms()))
	if want := byHand(obs, n0+1, 3, obs[n0+1:n0+4], obs[n0+4:]); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("initial batch past n0: probabilities %v, want %v", got, want)
	}
}

// TestCoCaBOCopula: with Copula the GP sees only the order of y, so
// stretching the values without reordering them (y ↦ 10^(4y), which puts
// the bad end four orders of magnitude away) leaves its predictions
// unchanged, where standardised y would not.
func TestCoCaBOCopula(t *testing.T) {
	h := samplertest.ToyHistory(t, fastCoCaBO(), 20, 3)
	l, err := newLayout(h.Space)
	if err != nil {
		t.Fatal(err)
	}
	stretched := slices.Clone(h.Observed)
	for i := range stretched {
		stretched[i].Y = math.Pow(10, 4*stretched[i].Y)
	}
	probes := make([][]float64, 30)
	rng := rand.New(rand.NewPCG(4, 4))
	for i := range probes {
		probes[i] = h.Space.Sample(rng)
	}
	predict := func(copula bool, obs []sampler.Observation) []float64 {
		c := fastCoCaBO()
		c.Copula = copula
		m, err := c.model(l, obs, 1, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		mean := make([]float64, len(probes))
		for i, u := range probes {
			mean[i], _ = m.Predict(l.features(u, nil))
		}
		return mean
	}
	if a, b := predict(true, h.Observed), predict(true, stretched); !slices.Equal(a, b) {
		t.Fatalf("copula: predictions %v change to %v when y is stretched", a, b)
	}
	// Without the copula the fit follows the stretched values: the ranking
	// of new points by predicted mean changes.
	rank := func(v []float64) []int {
		idx := make([]int, len(v))
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
		return idx
	}
	if a, b := predict(false, h.Observed), predict(false, stretched); slices.Equal(rank(a), rank(b)) {
		t.Fatalf("standardised y: the stretch did not change the fit's ranking %v; the test cannot tell the copula apart", rank(a))
	}
}

// TestCoCaBOWarnsWhenBanditsAlone: on a space of categorical parameters
// only, CoCaBO says once that it has no model there; on a mixed space it
// says nothing.
func TestCoCaBOWarnsWhenBanditsAlone(t *testing.T) {
	for _, tc := range []struct {
		sp    *space.Space
		warns int
	}{
		{space.MustNew(space.Param{Name: "a", Kind: space.Categorical, Choices: []string{"p", "q", "r"}}, space.Param{Name: "b", Kind: space.Bool}), 1},
		{samplertest.ToySpace(t), 0},
	} {
		var log bytes.Buffer
		c := fastCoCaBO()
		c.InitPoints = 2
		c.Logger = slog.New(slog.NewTextHandler(&log, nil))
		h := &sampler.History{Space: tc.sp, Seed: 1}
		for i := range 4 {
			h.Trials = i
			u, err := c.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, uint64(i))))
			if err != nil {
				t.Fatal(err)
			}
			h.Observed = append(h.Observed, sampler.Observation{X: u, Y: float64(i)})
		}
		if got := strings.Count(log.String(), "bandits alone"); got != tc.warns {
			t.Errorf("%d warnings on %v, want %d:\n%s", got, tc.sp.Params(), tc.warns, log.String())
		}
	}
}
