// Package samplertest holds what the samplers' tests share: runs over
// seeds in parallel, summaries, the reproductions' switches (BOA_REPRO),
// a unit-cube space and a sequential minimisation loop.
package samplertest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/boaopt/boa/problems/functions"
	"github.com/boaopt/boa/problems/mixed"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
)

// ReproFull reports whether BOA_REPRO=1 asks for the full reproductions.
func ReproFull() bool { return os.Getenv("BOA_REPRO") == "1" }

// ParallelSeeds runs fn for seeds 1..n on GOMAXPROCS goroutines.
func ParallelSeeds(n int, fn func(seed int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range next {
				fn(s)
			}
		}()
	}
	for s := 1; s <= n; s++ {
		next <- s
	}
	close(next)
	wg.Wait()
}

// MeanSE is the mean of v and its standard error.
func MeanSE(v []float64) (mean, se float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	if len(v) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss/float64(len(v)-1)) / math.Sqrt(float64(len(v)))
}

// Median is the median of v.
func Median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// NeedRepro skips t unless BOA_REPRO=1: the reproductions take minutes.
func NeedRepro(t testing.TB, what string) {
	t.Helper()
	if os.Getenv("BOA_REPRO") != "1" {
		t.Skip("set BOA_REPRO=1 to " + what)
	}
}

// EnvInt is the positive integer in the environment variable name, else def.
func EnvInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// Minimise runs s sequentially on fn for n evaluations in the unit cube
// and returns the best value found.
func Minimise(t testing.TB, s sampler.Sampler, fn functions.Function, n int, seed uint64) float64 {
	t.Helper()
	sp := UnitSpace(t, fn.Dim)
	h := &sampler.History{Space: sp, Seed: seed}
	best := math.Inf(1)
	for i := range n {
		h.Trials = i
		u, err := s.Suggest(context.Background(), h, rand.New(rand.NewPCG(seed, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		y := fn.EvalUnit(u)
		best = min(best, y)
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: y})
	}
	return best
}

// UnitSpace is the unit cube in d dimensions, floats x0..x{d-1}.
func UnitSpace(t testing.TB, d int) *space.Space {
	t.Helper()
	ps := make([]space.Param, d)
	for i := range ps {
		ps[i] = space.Param{Name: fmt.Sprintf("x%d", i), Kind: space.Float, Low: 0, High: 1}
	}
	sp, err := space.New(ps...)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// WellHistory is 120 uniform points of a smooth 3-D function with a deep
// Gaussian well at c, whose bottom the model expects to be far below the
// best value observed.
func WellHistory(t testing.TB, seed uint64) *sampler.History {
	c := []float64{0.31, 0.62, 0.47}
	f := func(u []float64) float64 {
		s := 0.0
		for i := range u {
			s += (u[i] - c[i]) * (u[i] - c[i])
		}
		return 1 - math.Exp(-s/(2*0.1*0.1)) + 0.2*u[0]
	}
	src := rand.New(rand.NewPCG(seed, 7))
	h := &sampler.History{Space: UnitSpace(t, 3), Seed: seed}
	for range 120 {
		u := []float64{src.Float64(), src.Float64(), src.Float64()}
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: f(u)})
	}
	h.Trials = len(h.Observed)
	return h
}

// SqDist is the squared Euclidean distance between a and b.
func SqDist(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return s
}

// ToySpace is a small mixed space: two categorical variables (3 and 2
// choices), one float and one int.
func ToySpace(t testing.TB) *space.Space {
	t.Helper()
	sp, err := space.New(
		space.Param{Name: "a", Kind: space.Categorical, Choices: []string{"p", "q", "r"}},
		space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "b", Kind: space.Bool},
		space.Param{Name: "n", Kind: space.Int, Low: 1, High: 5},
	)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// ToyValue is minimised at a = q, b = false, x = 0.3, n = 2.
func ToyValue(sp *space.Space, u []float64) float64 {
	a := sp.Decode(u)
	x := a["x"].(float64)
	n := float64(a["n"].(int))
	v := (x-0.3)*(x-0.3) + 0.05*(n-2)*(n-2)
	v += map[string]float64{"p": 0.5, "q": 0, "r": 1}[a["a"].(string)]
	if a["b"].(bool) {
		v += 0.3
	}
	return v
}

// ToyHistory runs c sequentially for n suggestions on the toy problem.
func ToyHistory(t testing.TB, c sampler.Sampler, n int, seed uint64) *sampler.History {
	t.Helper()
	sp := ToySpace(t)
	h := &sampler.History{Space: sp, Seed: seed}
	for i := range n {
		h.Trials = i
		u, err := c.Suggest(context.Background(), h, rand.New(rand.NewPCG(seed, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: ToyValue(sp, u)})
	}
	return h
}

// MixedSpace builds a space of nc categorical parameters with levels
// choices each and nx floats.
func MixedSpace(t testing.TB, nc, levels, nx int) *space.Space {
	t.Helper()
	var ps []space.Param
	choices := make([]string, levels)
	for k := range choices {
		choices[k] = fmt.Sprint("c", k)
	}
	for i := range nc {
		ps = append(ps, space.Param{Name: fmt.Sprint("h", i), Kind: space.Categorical, Choices: choices})
	}
	for i := range nx {
		ps = append(ps, space.Param{Name: fmt.Sprint("x", i), Kind: space.Float, Low: -1, High: 1})
	}
	sp, err := space.New(ps...)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// MixedToy is a cheap mixed objective: the number of categorical
// parameters away from level 1, plus a quadratic in the floats, plus a
// deterministic wobble so that the counters see failures.
func MixedToy(sp *space.Space, u []float64) float64 {
	var v float64
	for i, p := range sp.Params() {
		if p.Kind == space.Float {
			v += (u[i] - 0.3) * (u[i] - 0.3)
		} else if int(u[i]*float64(sp.Levels(i))) != 1 {
			v++
		}
	}
	return v + 0.3*math.Sin(40*u[0]+17*u[len(u)-1])
}

// WithOrigins returns a copy of obs whose i-th observation has origin o(i).
func WithOrigins(obs []sampler.Observation, o func(i int) sampler.Origin) []sampler.Observation {
	out := slices.Clone(obs)
	for i := range out {
		out[i].Origin = o(i)
	}
	return out
}

// AckleyObservations returns the unit cube in d dimensions and n random
// observations of Ackley on it.
func AckleyObservations(n, d int, rng *rand.Rand) (*space.Space, []sampler.Observation) {
	fn, _ := functions.Get("ackley", d)
	ps := make([]space.Param, d)
	for i := range ps {
		ps[i] = space.Param{Name: fmt.Sprint("x", i), Kind: space.Float, Low: 0, High: 1}
	}
	sp := space.MustNew(ps...)
	obs := make([]sampler.Observation, n)
	for i := range obs {
		u := sp.Sample(rng)
		obs[i] = sampler.Observation{X: u, Y: fn.EvalUnit(u)}
	}
	return sp, obs
}

// RunSampler runs a configured sampler on p for budget sequential
// evaluations, as a study with that budget would (trial i draws from
// PCG(seed, i)), and returns the best value after each evaluation and the
// time spent in Suggest.
func RunSampler(t testing.TB, p *mixed.Problem, s sampler.Sampler, seed uint64, budget int) ([]float64, time.Duration) {
	t.Helper()
	h := &sampler.History{Space: p.Space(), Seed: seed, Budget: budget}
	return RunSession(t, p, s.Name(), &historySession{s: s, h: h}, seed, budget)
}

// historySession drives a sampler over a bare History, the way a study
// does without storage: trial i draws from PCG(seed, i).
type historySession struct {
	s    sampler.Sampler
	h    *sampler.History
	last []float64
}

func (hs *historySession) Ask(ctx context.Context) (space.Assignment, error) {
	u, err := hs.s.Suggest(ctx, hs.h, rand.New(rand.NewPCG(hs.h.Seed, uint64(hs.h.Trials))))
	if err != nil {
		return nil, err
	}
	hs.last = u
	return hs.h.Space.Decode(u), nil
}

func (hs *historySession) Tell(_ context.Context, y float64) error {
	hs.h.Observed = append(hs.h.Observed, sampler.Observation{X: hs.last, Y: y})
	hs.h.Trials++
	return nil
}

func (hs *historySession) Close() error { return nil }

// SequentialSession is the part of peers.Session that RunSession uses,
// which historySession has too.
type SequentialSession interface {
	Ask(ctx context.Context) (space.Assignment, error)
	Tell(ctx context.Context, value float64) error
	Close() error
}

// RunSession runs budget sequential evaluations of p (its noise drawn from
// PCG(seed, 0xbe4c)) and returns the best value after each evaluation and
// the time spent in Ask.
func RunSession(t testing.TB, p *mixed.Problem, name string, s SequentialSession, seed uint64, budget int) ([]float64, time.Duration) {
	t.Helper()
	ctx := context.Background()
	noise := rand.New(rand.NewPCG(seed, 0xbe4c))
	best := math.Inf(1)
	trace := make([]float64, 0, budget)
	var spent time.Duration
	for i := range budget {
		start := time.Now()
		a, err := s.Ask(ctx)
		spent += time.Since(start)
		if err != nil {
			t.Fatalf("%s on %s, seed %d, trial %d: %v", name, p.Name(), seed, i, err)
		}
		y, err := p.Evaluate(a, noise)
		if err != nil {
			t.Fatalf("%s on %s, seed %d, trial %d: %v", name, p.Name(), seed, i, err)
		}
		if err := s.Tell(ctx, y); err != nil {
			t.Fatal(err)
		}
		best = min(best, y)
		trace = append(trace, best)
	}
	return trace, spent
}

// DesignPoints is the design size of DesignCases.
const DesignPoints = 8

// DesignCases are states of a parallel study whose sampler has a design of
// DesignPoints points (bo.InDesign), with whether its next suggestion is
// a design point: the design ends once the completed and the pending
// trials make DesignPoints together (the pending ones are design points
// still running), not when DesignPoints have completed, which gave w
// workers w − 1 design points too many; with fewer than half of them
// completed the model has too little to fit, so the design goes on
// however many are pending.
var DesignCases = []struct {
	Done, Pending int
	Design        bool
}{
	{DesignPoints - 3, 2, true},              // 7 of 8: one design point left
	{DesignPoints - 3, 3, false},             // the design is complete once the pending ones are in
	{DesignPoints, 0, false},                 // sequential: as before
	{DesignPoints/2 - 1, DesignPoints, true}, // too few completed to fit
	{DesignPoints / 2, DesignPoints / 2, false},
}

// ParallelHistory is a study on sp with done uniform points evaluated
// (MixedToy) and pending ones running.
func ParallelHistory(sp *space.Space, done, pending int) *sampler.History {
	rng := rand.New(rand.NewPCG(7, 0))
	h := &sampler.History{Space: sp, Trials: done + pending, Seed: 1, Budget: 40}
	for range done {
		u := sp.Sample(rng)
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: MixedToy(sp, u)})
	}
	for range pending {
		h.Pending = append(h.Pending, sp.Sample(rng))
	}
	return h
}

// RunFailing runs s for n trials on the objective value, whose trials
// fail where fails holds (History.Failed), and returns how many of the
// trials after the design (sampler.Designer) failed and the best value.
func RunFailing(t testing.TB, s sampler.Sampler, sp *space.Space, value func(u []float64) float64, fails func(u []float64) bool, seed uint64, n int) (failed int, best float64) {
	h := &sampler.History{Space: sp, Seed: seed, Budget: n}
	best = math.Inf(1)
	for i := range n {
		h.Trials = i
		d, ok := s.(sampler.Designer)
		design := ok && d.Designing(h)
		u, err := s.Suggest(context.Background(), h, rand.New(rand.NewPCG(seed, uint64(i))))
		if err != nil {
			t.Error(err)
			return failed, best
		}
		sp.Round(u)
		if fails(u) {
			h.Failed = append(h.Failed, u)
			if !design {
				failed++
			}
			continue
		}
		y := value(u)
		best = min(best, y)
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: y})
	}
	return failed, best
}

// CompareClassifier runs RunFailing for seeds 1..4 (20 with BOA_REPRO=1)
// with the classifier of computability on and off (newSampler makes the
// sampler either way), logs a row of docs/samplers.md's "Failed trials"
// table for each, and fails t unless the mean number of failing
// proposals with the classifier is at most ratio times the one without.
func CompareClassifier(t *testing.T, row string, newSampler func(classifier bool) sampler.Sampler, sp *space.Space, value func(u []float64) float64, fails func(u []float64) bool, n int, ratio float64) {
	seeds := 4
	if ReproFull() {
		seeds = 20
	}
	failed := map[bool][]float64{true: make([]float64, seeds), false: make([]float64, seeds)}
	best := map[bool][]float64{true: make([]float64, seeds), false: make([]float64, seeds)}
	for _, classifier := range []bool{true, false} {
		ParallelSeeds(seeds, func(seed int) {
			f, b := RunFailing(t, newSampler(classifier), sp, value, fails, uint64(seed), n)
			failed[classifier][seed-1], best[classifier][seed-1] = float64(f), b
		})
		mf, sf := MeanSE(failed[classifier])
		mb, sb := MeanSE(best[classifier])
		t.Logf("| %s | classifier %v | %.1f ± %.1f of %d | %.4g ± %.2g |", row, classifier, mf, sf, n, mb, sb)
	}
	with, _ := MeanSE(failed[true])
	without, _ := MeanSE(failed[false])
	if with > ratio*without {
		t.Errorf("%s: %.1f failing proposals per run with the classifier, %.1f without: want at most %.2g times as many", row, with, without, ratio)
	}
}
