package smac

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/problems/conditional"
	"github.com/boaopt/boa/problems/functions"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/samplertest"
	"github.com/boaopt/boa/sampler/random"
	"github.com/boaopt/boa/space"
)

func TestRegistered(t *testing.T) {
	s, err := sampler.New("smac-like")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.(*SMAC); !ok || s.Name() != "smac-like" {
		t.Errorf("New(smac-like) = %T %q", s, s.Name())
	}
	if _, ok := s.(sampler.Designer); !ok {
		t.Error("smac-like is not a Designer")
	}
}

// run makes n sequential suggestions of s on sp, with y giving each value,
// and returns the history and the suggestions' Designing flags.
func run(t *testing.T, s *SMAC, sp *space.Space, y func([]float64) float64, n int, seed uint64) (*sampler.History, []bool) {
	t.Helper()
	h := &sampler.History{Space: sp, Seed: seed}
	var designing []bool
	for i := range n {
		h.Trials = i
		designing = append(designing, s.Designing(h))
		u, err := s.Suggest(context.Background(), h, rand.New(rand.NewPCG(seed, uint64(i))))
		if err != nil {
			t.Fatalf("trial %d: %v", i, err)
		}
		if len(u) != sp.Len() {
			t.Fatalf("trial %d: %d coordinates, want %d", i, len(u), sp.Len())
		}
		sp.Round(u)
		if err := sp.Validate(sp.Decode(u)); err != nil {
			t.Fatalf("trial %d: %v", i, err)
		}
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: y(u)})
	}
	return h, designing
}

// On Branin smac-like's median regret over 10 seeds at 60 evaluations is
// below random search's with the same seeds (0.318 against 0.452 when
// written). The margin is modest: after the 10-point design only 25 of the
// 50 suggestions are the model's; without the interleaving
// (RandomEvery = −1) the median was 0.093.
func TestBeatsRandomOnBranin(t *testing.T) {
	fn, err := functions.Get("branin", 0)
	if err != nil {
		t.Fatal(err)
	}
	var smac, uniform []float64
	for seed := uint64(1); seed <= 10; seed++ {
		smac = append(smac, fn.Regret(samplertest.Minimise(t, New(), fn, 60, seed)))
		uniform = append(uniform, fn.Regret(samplertest.Minimise(t, random.Uniform{}, fn, 60, seed)))
	}
	ms, mr := samplertest.Median(smac), samplertest.Median(uniform)
	t.Logf("median regret at 60: smac-like %.3g, random %.3g", ms, mr)
	if ms >= mr {
		t.Errorf("median regret: smac-like %.3g, random %.3g; want smac-like below random's", ms, mr)
	}
}

// Failed trials, and observations whose value is not finite, enter the
// forest at the worst observed loss plus 10 % of the observed range (the
// spec's penalty), after the finite observations, History.Failed first;
// FeasibleOnly leaves them out. Inactive coordinates reach the forest as
// NaN.
func TestPenalty(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "kernel", Kind: space.Categorical, Choices: []string{"rbf", "poly"}},
		space.Param{Name: "degree", Kind: space.Int, Low: 2, High: 5, When: map[string][]string{"kernel": {"poly"}}},
		space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1},
	)
	rbf, poly := 0.25, 0.75
	h := &sampler.History{
		Space: sp,
		Observed: []sampler.Observation{
			{X: []float64{rbf, 0.5, 0.1}, Y: 3},
			{X: []float64{poly, 0.375, 0.2}, Y: -1},
			{X: []float64{poly, 0.625, 0.3}, Y: math.NaN()},
			{X: []float64{rbf, 0.5, 0.4}, Y: 7},
		},
		Failed:  [][]float64{{poly, 0.875, 0.5}, {rbf, 0.5, 0.6}},
		Pending: [][]float64{{rbf, 0.5, 0.7}},
		Pruned:  [][]float64{{rbf, 0.5, 0.8}},
	}
	s := New()
	X, y, best := s.trainingSet(h)
	if want := []float64{3, -1, 7, 7.8, 7.8, 7.8}; !slices.Equal(y, want) || best != -1 {
		t.Errorf("targets %v, best %g; want %v, -1", y, best, want)
	}
	if len(X) != 6 || !math.IsNaN(X[0][1]) || X[1][1] != 0.375 || X[1][0] != poly || X[3][1] != 0.875 || !math.IsNaN(X[4][1]) || X[5][1] != 0.625 {
		t.Errorf("inputs %v", X)
	}
	s.FeasibleOnly = true
	if _, y, _ := s.trainingSet(h); !slices.Equal(y, []float64{3, -1, 7}) {
		t.Errorf("feasible_only targets %v, want 3, -1, 7", y)
	}
	// Only failures: no model, a random untried point.
	none := &sampler.History{Space: sp, Failed: h.Failed, Trials: 12}
	for i := range 10 {
		none.Observed = append(none.Observed, sampler.Observation{X: sp.Sample(rand.New(rand.NewPCG(1, uint64(i)))), Y: math.Inf(1)})
	}
	if u, err := New().Suggest(context.Background(), none, rand.New(rand.NewPCG(1, 2))); err != nil || len(u) != 3 {
		t.Errorf("all failed: %v, %v", u, err)
	}
}

// After the 10-point design, every second trial (the odd-numbered ones) is
// a uniformly random configuration, recorded as a design point, and the
// others are the model's: the pattern is a function of the trial number,
// the same for every seed, and the random ones are exactly a uniform draw
// from the trial's rng.
func TestInterleaving(t *testing.T) {
	fn, _ := functions.Get("branin", 0)
	sp := samplertest.UnitSpace(t, 2)
	for seed := uint64(1); seed <= 3; seed++ {
		h, designing := run(t, New(), sp, fn.EvalUnit, 40, seed)
		random := 0
		for i, d := range designing {
			if want := i < 10 || i%2 == 1; d != want {
				t.Errorf("seed %d, trial %d: Designing %v, want %v", seed, i, d, want)
			}
			if i >= 10 && d {
				random++
				if u := sp.Sample(rand.New(rand.NewPCG(seed, uint64(i)))); !slices.Equal(u, h.Observed[i].X) {
					t.Errorf("seed %d, trial %d: %v is not the uniform draw %v", seed, i, h.Observed[i].X, u)
				}
			}
		}
		if random != 15 {
			t.Errorf("seed %d: %d of the 30 model-phase suggestions random, want 15", seed, random)
		}
	}
	s := New()
	s.RandomEvery = -1
	for i := 10; i < 20; i++ {
		if s.Designing(&sampler.History{Space: sp, Trials: i, Observed: make([]sampler.Observation, i)}) {
			t.Errorf("RandomEvery −1: trial %d is random", i)
		}
	}
}

// The same seed gives the same suggestions, and a sampler asked in the
// middle of a study (a resumed one: a new instance) continues exactly.
func TestDeterministic(t *testing.T) {
	fn, _ := functions.Get("hartmann6", 0)
	sp := samplertest.UnitSpace(t, 6)
	a, _ := run(t, New(), sp, fn.EvalUnit, 25, 7)
	b, _ := run(t, New(), sp, fn.EvalUnit, 25, 7)
	for i := range a.Observed {
		if !slices.Equal(a.Observed[i].X, b.Observed[i].X) {
			t.Fatalf("trial %d: %v and %v", i, a.Observed[i].X, b.Observed[i].X)
		}
	}
	h := &sampler.History{Space: sp, Seed: 7, Observed: a.Observed[:20], Trials: 20}
	u, err := New().Suggest(context.Background(), h, rand.New(rand.NewPCG(7, 20)))
	if err != nil || !slices.Equal(u, a.Observed[20].X) {
		t.Errorf("resumed at trial 20: %v, %v; want %v", u, err, a.Observed[20].X)
	}
}

// smac-like runs on a mixed space and on the conditional Jenatton
// function without error, proposing valid configurations (run checks each
// with Validate). Its regrets on Jenatton at 50 evaluations are logged,
// not checked: 0.0024 to 0.23 over seeds 1-5 when written.
func TestMixedAndConditional(t *testing.T) {
	mixed := samplertest.MixedSpace(t, 3, 4, 2)
	run(t, New(), mixed, func(u []float64) float64 { return samplertest.MixedToy(mixed, u) }, 30, 1)

	p, err := conditional.Get("jenatton")
	if err != nil {
		t.Fatal(err)
	}
	sp := p.Space()
	eval := func(u []float64) float64 {
		v, err := p.Evaluate(sp.Decode(u), nil)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	fopt, _ := p.Optimum()
	for seed := uint64(1); seed <= 5; seed++ {
		h, _ := run(t, New(), sp, eval, 50, seed)
		best := math.Inf(1)
		for _, o := range h.Observed {
			best = min(best, o.Y)
		}
		t.Logf("seed %d: regret %.3g", seed, best-fopt)
	}
}

// The local search climbs to a local optimum of the one-exchange
// neighbourhood: on a discrete space with one optimum it reaches it from a
// corner, one parameter at a time.
func TestLocalSearch(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "c", Kind: space.Categorical, Choices: []string{"a", "b", "c", "d"}},
		space.Param{Name: "n", Kind: space.Int, Low: 1, High: 8},
		space.Param{Name: "o", Kind: space.Ordinal, Values: []float64{1, 2, 4, 8, 16}},
	)
	target := sp.Sample(rand.New(rand.NewPCG(3, 3)))
	score := func(u []float64) float64 { return -samplertest.SqDist(u, target) }
	start := []float64{0, 0, 0}
	sp.Round(start)
	u, a := localSearch(sp, score, start, rand.New(rand.NewPCG(1, 1)))
	if sp.Key(u) != sp.Key(target) || a != 0 {
		t.Errorf("local search ended at %v (score %g), want %v", sp.Decode(u), a, sp.Decode(target))
	}
	// A Float's neighbours stay in [0,1] and change one coordinate.
	fsp := samplertest.UnitSpace(t, 3)
	x := []float64{0.01, 0.5, 0.99}
	nb := neighbours(fsp, x, rand.New(rand.NewPCG(2, 2)))
	if len(nb) != 3*NumericNeighbours {
		t.Fatalf("%d neighbours, want %d", len(nb), 3*NumericNeighbours)
	}
	for k, v := range nb {
		changed := 0
		for i := range v {
			if v[i] < 0 || v[i] > 1 {
				t.Errorf("neighbour %d: %v outside the cube", k, v)
			}
			if v[i] != x[i] {
				changed++
			}
		}
		if changed != 1 {
			t.Errorf("neighbour %d: %v changes %d coordinates", k, v, changed)
		}
	}
}
