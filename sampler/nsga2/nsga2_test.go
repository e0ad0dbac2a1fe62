package nsga2

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/pareto"
	"github.com/boaopt/boa/problems/multiobjective"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/samplertest"
	"github.com/boaopt/boa/sampler/random"
	"github.com/boaopt/boa/space"
)

// run asks s for n trials of f, sequentially, and returns the history.
func run(t testing.TB, s sampler.Sampler, f multiobjective.Function, n int, seed uint64) *sampler.History {
	t.Helper()
	h := &sampler.History{Space: samplertest.UnitSpace(t, f.Dim), Seed: seed, Objectives: f.Objectives}
	for i := range n {
		h.Trials = i
		u, err := s.Suggest(context.Background(), h, rand.New(rand.NewPCG(seed, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		ys := f.F(u)
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: ys[0], Ys: ys})
	}
	return h
}

func hypervolume(h *sampler.History, ref []float64) float64 {
	pts := make([][]float64, len(h.Observed))
	for i, o := range h.Observed {
		pts[i] = o.Ys
	}
	return pareto.Hypervolume(pts, ref)
}

// On ZDT1 in 5 variables, after 500 evaluations (10 generations of 50)
// the fronts of nsga2, with uniform crossover and with SBX, have a larger
// hypervolume than random search's on every seed. BOA_REPRO=1 runs 10
// seeds instead of 3.
func TestZDT1BeatsRandom(t *testing.T) {
	f, err := multiobjective.Get("zdt1", 5)
	if err != nil {
		t.Fatal(err)
	}
	seeds := 3
	if samplertest.ReproFull() {
		seeds = 10
	}
	sbx := New()
	sbx.Crossover = "sbx"
	hv := map[string][]float64{}
	for seed := range uint64(seeds) {
		r := hypervolume(run(t, random.Uniform{}, f, 500, seed), f.Ref)
		hv["random"] = append(hv["random"], r)
		for name, s := range map[string]*NSGAII{"uniform": New(), "sbx": sbx} {
			v := hypervolume(run(t, s, f, 500, seed), f.Ref)
			hv[name] = append(hv[name], v)
			if v <= r {
				t.Errorf("seed %d: nsga2 (%s)'s hypervolume %.4f ≤ random's %.4f", seed, name, v, r)
			}
		}
	}
	t.Logf("ZDT1 (5 variables), 500 evaluations, %d seeds, true front's hypervolume %.4f", seeds, f.FrontHV)
	for _, name := range []string{"uniform", "sbx", "random"} {
		t.Logf("%-8s median %.4f %.4f", name, samplertest.Median(hv[name]), hv[name])
	}
}

// The sampler is deterministic given the history and the random source,
// random in the first generation, and its children differ from the
// random points of the same sources after it.
func TestDeterministic(t *testing.T) {
	f, _ := multiobjective.Get("zdt2", 4)
	s := New()
	s.Population = 6
	h := run(t, s, f, 20, 1)
	for i := range 6 {
		want := h.Space.Sample(rand.New(rand.NewPCG(1, uint64(i))))
		if !slices.Equal(h.Observed[i].X, want) {
			t.Fatalf("trial %d of the first generation is not a uniform point", i)
		}
	}
	g := run(t, s, f, 20, 1)
	for i := range h.Observed {
		if !slices.Equal(h.Observed[i].X, g.Observed[i].X) {
			t.Fatalf("trial %d differs between two runs", i)
		}
	}
	if s.Designing(h) || !s.Designing(&sampler.History{Observed: h.Observed[:5]}) {
		t.Error("Designing is not the first generation")
	}
}

// Generations count completed trials: a failed or pending trial, which
// History lists apart, changes no parent, as in Optuna's sequential runs.
func TestGenerationsCountCompletedTrials(t *testing.T) {
	f, _ := multiobjective.Get("zdt1", 3)
	s := New()
	s.Population = 5
	h := run(t, s, f, 17, 2)
	p := s.Parents(h)
	if len(p) != 5 {
		t.Fatalf("%d parents, want 5", len(p))
	}
	h2 := *h
	h2.Failed = [][]float64{{0.1, 0.2, 0.3}}
	h2.Pending = [][]float64{{0.3, 0.2, 0.1}}
	if !slices.Equal(s.Parents(&h2), p) {
		t.Error("failed and pending trials changed the parents")
	}
	// The last two trials are not a full generation: they change nothing.
	h2.Observed = h.Observed[:15]
	if !slices.Equal(s.Parents(&h2), p) {
		t.Error("an incomplete generation changed the parents")
	}
	if s.Parents(&sampler.History{Space: h.Space, Observed: h.Observed[:4]}) != nil {
		t.Error("parents before the first generation is complete")
	}
}

// One objective: the parents are the best Population trials.
func TestSingleObjective(t *testing.T) {
	sp := samplertest.UnitSpace(t, 2)
	h := &sampler.History{Space: sp}
	rng := rand.New(rand.NewPCG(3, 3))
	for range 20 {
		u := sp.Sample(rng)
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: u[0] + u[1]})
	}
	s := New()
	s.Population = 4
	ys := make([]float64, len(h.Observed))
	for i, o := range h.Observed {
		ys[i] = o.Y
	}
	got := s.Parents(h)
	for _, i := range got {
		better := 0
		for _, y := range ys {
			if y < ys[i] {
				better++
			}
		}
		if better >= 4 {
			t.Errorf("parent %d (y %.3f) has %d better trials", i, ys[i], better)
		}
	}
	if _, err := s.Suggest(context.Background(), h, rng); err != nil {
		t.Fatal(err)
	}
}

// In a constrained study every feasible trial ranks before the
// infeasible ones, which rank by violation.
func TestConstrainedFronts(t *testing.T) {
	pop := []member{
		{obs: 0, y: []float64{5, 5}, feasible: true},
		{obs: 1, y: []float64{0, 0}, violation: 2},
		{obs: 2, y: []float64{0, 1}, violation: 1},
		{obs: 3, y: []float64{6, 6}, feasible: true},
		{obs: 4, y: []float64{1, 0}, violation: 1},
	}
	var got [][]int
	for _, f := range fronts(pop) {
		var ids []int
		for _, m := range f {
			ids = append(ids, m.obs)
		}
		got = append(got, ids)
	}
	// Optuna's order within a front: scanning {1, 2, 4} (after 0 and 3
	// were taken out by moves from the end) finds 2, then 4 moved to its place.
	want := [][]int{{0}, {3}, {4, 2}, {1}}
	if len(got) != len(want) {
		t.Fatalf("fronts %v, want %v", got, want)
	}
	for k := range want {
		if !slices.Equal(got[k], want[k]) {
			t.Fatalf("fronts %v, want %v", got, want)
		}
	}
	if !dominates(pop[0], pop[1]) || !dominates(pop[2], pop[1]) || dominates(pop[1], pop[2]) || dominates(pop[2], pop[4]) {
		t.Error("constrained domination")
	}
}

// The crowding distance agrees with pareto.Crowding where no values tie.
func TestCrowdingAgreesWithPareto(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for range 20 {
		n, d := 2+rng.IntN(8), 2+rng.IntN(2)
		front := make([]member, n)
		pts := make([][]float64, n)
		for i := range front {
			pts[i] = make([]float64, d)
			for j := range pts[i] {
				pts[i][j] = rng.Float64()
			}
			front[i] = member{obs: i, y: pts[i]}
		}
		want := pareto.Crowding(pts)
		got := crowding(front)
		for i, w := range want {
			if g := got[i]; !(g == w || math.Abs(g-w) < 1e-12) {
				t.Fatalf("point %d: crowding %v, pareto.Crowding %v", i, g, w)
			}
		}
	}
}

// Conditional parameters active in some trials only are not inherited,
// and a space with one-valued parameters still works.
func TestInherited(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "opt", Kind: space.Categorical, Choices: []string{"sgd", "adam"}},
		space.Param{Name: "beta", Kind: space.Float, Low: 0, High: 1, When: map[string][]string{"opt": {"adam"}}},
		space.Param{Name: "one", Kind: space.Categorical, Choices: []string{"only"}},
		space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1},
	)
	h := &sampler.History{Space: sp}
	rng := rand.New(rand.NewPCG(5, 5))
	for range 12 {
		u := sp.Sample(rng)
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: u[3]})
	}
	if got := inherited(h); !slices.Equal(got, []int{0, 3}) {
		t.Fatalf("inherited %v, want opt and x", got)
	}
	adam := &sampler.History{Space: sp}
	for _, o := range h.Observed {
		if sp.Decode(o.X)["opt"] == "adam" {
			adam.Observed = append(adam.Observed, o)
		}
	}
	if got := inherited(adam); len(adam.Observed) == 0 || !slices.Equal(got, []int{0, 1, 3}) {
		t.Fatalf("inherited %v from %d trials with adam, want opt, beta and x", got, len(adam.Observed))
	}
	s := New()
	s.Population = 4
	for i := range 10 {
		u, err := s.Suggest(context.Background(), h, rand.New(rand.NewPCG(6, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		v := slices.Clone(u)
		sp.Round(v)
		if !slices.Equal(u, v) {
			t.Fatalf("suggestion %v is not rounded", u)
		}
	}
}

func TestConfigure(t *testing.T) {
	s, err := sampler.NewWith("nsga2", sampler.Options{"population_size": "10", "mutation_prob": "0.2", "crossover_prob": "1", "swapping_prob": "0.3", "crossover": "SBX", "sbx_eta": "15"})
	if err != nil {
		t.Fatal(err)
	}
	if n := s.(*NSGAII); *n != (NSGAII{Population: 10, MutationProb: 0.2, CrossoverProb: 1, SwappingProb: 0.3, Crossover: "sbx", Eta: 15}) {
		t.Errorf("configured %+v", *n)
	}
	for _, bad := range []sampler.Options{{"population_size": "1"}, {"mutation_prob": "2"}, {"crossover": "blxalpha"}, {"sbx_eta": "-1"}, {"seed": "1"}} {
		if _, err := sampler.NewWith("nsga2", bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if s, _ := sampler.NewWith("nsga2", sampler.Options{"mutation_prob": "none"}); s.(*NSGAII).MutationProb >= 0 {
		t.Error("mutation_prob none is not Optuna's default")
	}
	if _, ok := s.(sampler.MultiObjective); !ok {
		t.Error("nsga2 is not MultiObjective")
	}
}
