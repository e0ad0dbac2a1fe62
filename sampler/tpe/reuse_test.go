package tpe

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/boaopt/boa/problems/conditional"
	"github.com/boaopt/boa/problems/mixed"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
)

// reuseSpaces are the spaces the reuse tests ask on: continuous, mixed
// with every kind of parameter, conditional, and a constrained study.
func reuseSpaces(t testing.TB) []reuseSpace {
	t.Helper()
	jen, err := conditional.Get("jenatton")
	if err != nil {
		t.Fatal(err)
	}
	f3c, err := mixed.Get("func3c")
	if err != nil {
		t.Fatal(err)
	}
	cont := make([]space.Param, 4)
	for i := range cont {
		cont[i] = space.Param{Name: fmt.Sprint("x", i), Kind: space.Float, Low: -2, High: 3}
	}
	all := space.MustNew(
		space.Param{Name: "f", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "lf", Kind: space.Float, Low: 1e-4, High: 1, Log: true},
		space.Param{Name: "i", Kind: space.Int, Low: 1, High: 6},
		space.Param{Name: "li", Kind: space.Int, Low: 1, High: 300, Log: true},
		space.Param{Name: "o", Kind: space.Ordinal, Values: []float64{1, 2, 4, 8}},
		space.Param{Name: "c", Kind: space.Categorical, Choices: []string{"a", "b", "c"}},
		space.Param{Name: "b", Kind: space.Bool},
	)
	small := space.MustNew( // 48 configurations: repeats and the untried fallback
		space.Param{Name: "i", Kind: space.Int, Low: 1, High: 8},
		space.Param{Name: "c", Kind: space.Categorical, Choices: []string{"a", "b", "c"}},
		space.Param{Name: "b", Kind: space.Bool},
	)
	return []reuseSpace{
		{name: "continuous", sp: space.MustNew(cont...)},
		{name: "mixed", sp: all},
		{name: "small", sp: small},
		{name: "jenatton", sp: jen.Space()},
		{name: "func3c", sp: f3c.Space()},
		{name: "constrained", sp: space.MustNew(cont[:3]...), constrained: true},
	}
}

type reuseSpace struct {
	name        string
	sp          *space.Space
	constrained bool
}

// reuseTrial is a trial of a reuse sequence, as a study stores it.
type reuseTrial struct {
	x     []float64
	state int // one of the constants below
	y     float64
	slack float64
}

const (
	tComplete = iota
	tPending
	tFailed
	tPruned
)

// reuseSequence is a study's asks on each of the spaces in turn, 15 on
// one before the next (a sampler reused in another study): after
// each ask the new trial completes, fails, is pruned or keeps running,
// and the trials change as they do between a study's asks (a running
// one completes, in the middle of the observations; the values change,
// as a transform refitted to them does) and in ways a study does not
// (a trial removed, a point rewritten in place). ask is called with the
// space's index, the History of each ask and a maker of its random
// source (each call a new one, from the same seed), and returns the
// suggestion.
func reuseSequence(t testing.TB, spaces []reuseSpace, steps int, seed uint64, ask func(s int, h *sampler.History, rng func() *rand.Rand) []float64) {
	t.Helper()
	evt := rand.New(rand.NewPCG(seed, 99))
	trials := make([][]reuseTrial, len(spaces))
	for step := range steps {
		s := step / 15 % len(spaces) // runs of asks on one space, then the next
		rs := spaces[s]
		ts := trials[s]
		h := &sampler.History{Space: rs.sp, Trials: len(ts), Seed: seed}
		if rs.constrained {
			h.Constraints = []string{"c"}
		}
		ranks := step%7 == 3 // the values as ranks, every value changed
		var ys []float64
		for _, tr := range ts {
			switch tr.state {
			case tComplete:
				o := sampler.Observation{X: tr.x, Y: tr.y}
				if rs.constrained {
					o.Slack, o.Infeasible = []float64{tr.slack}, tr.slack > 0
				}
				h.Observed = append(h.Observed, o)
				ys = append(ys, tr.y)
			case tPending:
				h.Pending = append(h.Pending, tr.x)
			case tFailed:
				h.Failed = append(h.Failed, tr.x)
			case tPruned:
				h.Pruned = append(h.Pruned, tr.x)
			}
		}
		if ranks {
			sorted := slices.Clone(ys)
			slices.Sort(sorted)
			for k := range h.Observed {
				r, _ := slices.BinarySearch(sorted, h.Observed[k].Y)
				h.Observed[k].Y = float64(r)
			}
		}
		u := ask(s, h, func() *rand.Rand { return rand.New(rand.NewPCG(seed, uint64(step))) })
		if len(u) != rs.sp.Len() {
			t.Fatalf("step %d: %d coordinates", step, len(u))
		}
		x := slices.Clone(u)
		rs.sp.Round(x)
		tr := reuseTrial{x: x, y: reuseValue(x), slack: x[0] - 0.7}
		switch r := evt.Float64(); {
		case r < 0.08:
			tr.state = tFailed
		case r < 0.16:
			tr.state = tPruned
		case r < 0.3:
			tr.state = tPending
		}
		ts = append(ts, tr)
		switch r := evt.Float64(); {
		case r < 0.25: // a running trial completes
			for k := range ts {
				if ts[k].state == tPending {
					ts[k].state = tComplete
					break
				}
			}
		case r < 0.3 && len(ts) > 2: // a trial removed
			k := evt.IntN(len(ts))
			ts = slices.Delete(ts, k, k+1)
		case r < 0.35: // a completed trial's value changes
			k := evt.IntN(len(ts))
			ts[k].y += 0.5
		case r < 0.4: // a point rewritten in place
			k := evt.IntN(len(ts))
			v := rs.sp.Sample(evt)
			rs.sp.Round(v)
			copy(ts[k].x, v)
			ts[k].y = reuseValue(ts[k].x)
		}
		trials[s] = ts
	}
}

// reuseValue is a smooth function of the encoded point.
func reuseValue(u []float64) float64 {
	v := 0.0
	for i, x := range u {
		v += (x-0.3)*(x-0.3) + 0.1*math.Sin(float64(3+i)*x)
	}
	return v
}

// reuseConfigs are the settings the reuse test runs.
var reuseConfigs = map[string]func() *TPE{
	"default":      New,
	"multivariate": func() *TPE { t := New(); t.Multivariate = true; return t },
	"group":        func() *TPE { t := New(); t.Multivariate, t.Group = true, true; return t },
	"gamma":        func() *TPE { t := New(); t.Gamma, t.Startup = 0.25, 4; return t },
	"no-liar":      func() *TPE { t := New(); t.ConstantLiar, t.Candidates = false, 5; return t },
}

// A sampler reused across asks, on histories that grow, change and
// shrink and on different spaces in turn, suggests bit for bit what a
// fresh sampler suggests on each history with the same random source:
// what tpe keeps between asks changes no result.
func TestReuseMatchesFresh(t *testing.T) {
	spaces := reuseSpaces(t)
	steps := 6 * 60
	if testing.Short() {
		steps = 6 * 20
	}
	for name, cfg := range reuseConfigs {
		t.Run(name, func(t *testing.T) {
			reused := cfg()
			reuseSequence(t, spaces, steps, 7, func(s int, h *sampler.History, rng func() *rand.Rand) []float64 {
				want, err := cfg().Suggest(context.Background(), h, rng())
				if err != nil {
					t.Fatal(err)
				}
				got, err := reused.Suggest(context.Background(), h, rng())
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(bitsOf(got), bitsOf(want)) {
					t.Fatalf("%s, %d trials: reused %v, fresh %v", spaces[s].name, h.Trials, got, want)
				}
				return want
			})
		})
	}
}

// cloneHistory copies h's points, which the sequence may rewrite later.
func cloneHistory(h *sampler.History) *sampler.History {
	c := *h
	c.Observed = slices.Clone(h.Observed)
	for k := range c.Observed {
		c.Observed[k].X = slices.Clone(c.Observed[k].X)
	}
	clone := func(xs [][]float64) [][]float64 {
		out := make([][]float64, len(xs))
		for k, x := range xs {
			out[k] = slices.Clone(x)
		}
		return out
	}
	c.Pending, c.Failed, c.Pruned = clone(h.Pending), clone(h.Failed), clone(h.Pruned)
	return &c
}

// bo.Tried, kept across the asks of reuseSequence, excludes what
// bo.Excluded excludes on each History: the points of the history, those
// removed from it or rewritten since, and others.
func TestTriedIsSeen(t *testing.T) {
	spaces := reuseSpaces(t)
	var tried bo.Tried
	var pool [][]float64 // every point the histories have had, as it was
	rng := rand.New(rand.NewPCG(4, 4))
	reuseSequence(t, spaces, 6*80, 5, func(s int, h *sampler.History, r func() *rand.Rand) []float64 {
		for _, o := range h.Observed {
			pool = append(pool, slices.Clone(o.X))
		}
		for _, u := range h.WithoutValue() {
			pool = append(pool, slices.Clone(u))
		}
		got, done := tried.Excluded(h)
		want := bo.Excluded(h)
		for _, u := range pool {
			if len(u) == h.Space.Len() && got(u) != want(u) {
				t.Fatalf("%s, %d trials: %v excluded %v, want %v", spaces[s].name, h.Trials, u, got(u), want(u))
			}
		}
		done()
		u := h.Space.Sample(rng)
		h.Space.Round(u)
		return u
	})
}

// bitsOf is u's bit patterns, so that NaN compares equal to NaN.
func bitsOf(u []float64) []uint64 {
	b := make([]uint64, len(u))
	for i, x := range u {
		b[i] = math.Float64bits(x)
	}
	return b
}

// One sampler asked from several goroutines at once (two studies sharing
// it) suggests what a fresh one does on each history; run with -race.
func TestReuseConcurrent(t *testing.T) {
	spaces := reuseSpaces(t)[:2]
	type ask struct {
		h    *sampler.History
		seed uint64
		want []float64
	}
	var asks []ask
	reuseSequence(t, spaces, 80, 3, func(s int, h *sampler.History, rng func() *rand.Rand) []float64 {
		seed := rng().Uint64()
		u, err := New().Suggest(context.Background(), h, rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		asks = append(asks, ask{cloneHistory(h), seed, u})
		return u
	})
	shared := New()
	var wg sync.WaitGroup
	for g := range 3 {
		wg.Go(func() {
			for k := g; k < len(asks); k += 2 {
				a := asks[k]
				u, err := shared.Suggest(context.Background(), a.h, rand.New(rand.NewPCG(a.seed, 1)))
				if err != nil {
					t.Error(err)
					return
				}
				if !slices.Equal(bitsOf(u), bitsOf(a.want)) {
					t.Errorf("ask %d: %v, want %v", k, u, a.want)
				}
			}
		})
	}
	wg.Wait()
}

// smallest selects what a stable sort puts first, ties included.
func TestSmallest(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, size := range []int{0, 1, 5, 30, 200} {
		vals := make([]float64, size)
		var idx []int
		for k := range vals {
			vals[k] = float64(rng.IntN(7)) // many ties
			if rng.IntN(4) > 0 {
				idx = append(idx, k)
			}
		}
		f := func(a, b int) int { return cmp.Compare(vals[a], vals[b]) }
		sorted := slices.Clone(idx)
		slices.SortStableFunc(sorted, f)
		for _, n := range []int{0, 1, 3, 25, 64, 65, 300} {
			if got, want := smallest(idx, n, f), sorted[:min(n, len(sorted))]; !slices.Equal(got, want) {
				t.Errorf("size %d, n %d: %v, want %v", size, n, got, want)
			}
		}
	}
}

// sortKernels gives a stable sort's order by cmp.Compare on the centres,
// for the radix sort of many kernels as for pdqsort on few: with ties,
// NaN, ±0 and ±∞.
func TestSortKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	special := []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), -1e-300, 1, 0.5}
	for _, m := range []int{3, 255, 256, 1000, 5000} {
		for _, ties := range []bool{false, true} {
			order := make([]kernelAt, m)
			for k := range order {
				x := rng.Float64()
				switch {
				case rng.IntN(20) == 0:
					x = special[rng.IntN(len(special))]
				case ties:
					x = float64(rng.IntN(10)) / 10
				}
				order[k] = kernelAt{x, k}
			}
			want := slices.Clone(order)
			slices.SortStableFunc(want, func(a, b kernelAt) int { return cmp.Compare(a.mu, b.mu) })
			sortKernels(order)
			for r := range order {
				if order[r].k != want[r].k {
					t.Fatalf("m %d, ties %v: position %d holds kernel %d (%g), want %d (%g)", m, ties, r, order[r].k, order[r].mu, want[r].k, want[r].mu)
				}
			}
		}
	}
}
