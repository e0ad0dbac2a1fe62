package sampler

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/boaopt/boa/bench/functions"
	"github.com/boaopt/boa/bench/mixed"
	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/space"
)

// BenchmarkGPBOSuggest times gpbo suggestions, hyper-parameter refit
// included, with n observations of Ackley in 10 dimensions. As in a
// running study, the sampler has fitted the n−1 earlier observations
// (warm start); each op is 10 consecutive suggestions at n..n+9
// observations, so the cadence of full refits is counted fairly, and
// "s/suggest" reports their mean.
func BenchmarkGPBOSuggest(b *testing.B) {
	for _, n := range []int{100, 500, 1000} {
		b.Run(fmt.Sprintf("n=%d/d=10", n), func(b *testing.B) { benchSuggest(b, n, 10) })
	}
}

// ackleyObservations returns the unit cube in d dimensions and n random
// observations of Ackley on it.
func ackleyObservations(n, d int, rng *rand.Rand) (*space.Space, []Observation) {
	fn, _ := functions.Get("ackley", d)
	ps := make([]space.Param, d)
	for i := range ps {
		ps[i] = space.Param{Name: fmt.Sprint("x", i), Kind: space.Float, Low: 0, High: 1}
	}
	sp := space.MustNew(ps...)
	obs := make([]Observation, n)
	for i := range obs {
		u := sp.Sample(rng)
		obs[i] = Observation{X: u, Y: fn.EvalUnit(u)}
	}
	return sp, obs
}

// BenchmarkGPBOBatchOneByOne times a batch of 4 asked one point at a
// time, as study.AskBatch asks a sampler without SuggestBatch: the four
// suggestions see the same n observations (a full-refit round, n = 500)
// and the earlier points of the batch as pending.
func BenchmarkGPBOBatchOneByOne(b *testing.B) {
	const n, d, batch = 500, 10, 4
	rng := rand.New(rand.NewPCG(1, 2))
	sp, obs := ackleyObservations(n, d, rng)
	g := NewGPBO()
	if _, err := g.fit(sp, obs[:n-1], rng); err != nil {
		b.Fatal(err)
	}
	warm := g.warm.Get("", len(g.warm.p))
	for b.Loop() {
		g.warm.Set("", warm, 0) // fitted to the n−1 earlier observations
		h := &History{Space: sp, Seed: 1, Trials: n, Observed: obs}
		for s := range batch {
			u, err := g.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, uint64(s))))
			if err != nil {
				b.Fatal(err)
			}
			h.Pending = append(h.Pending, u)
			h.Trials++
		}
	}
}

// BenchmarkGPBOSuggestPending times one gpbo suggestion with n = 800
// observations and 64 pending points (64 parallel workers): the fit is
// reused (the same data each op), so the op is Kriging Believer and the
// acquisition search.
func BenchmarkGPBOSuggestPending(b *testing.B) {
	h := pendingHistory(800, 10, 64)
	g := NewGPBO()
	for b.Loop() {
		if _, err := g.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, 1))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlaybookSuggestPending times one suggestion of each PLAyBOOK
// variant and of kb with 15 trials running (16 workers) after 200
// completed ones on Ackley-10: the global variants make one Lipschitz
// search, the local ones one per running trial.
func BenchmarkPlaybookSuggestPending(b *testing.B) {
	h := pendingHistory(200, 10, 15)
	for _, name := range []string{"kb", "playbook-l", "playbook-h", "playbook-ll", "playbook-hl"} {
		s, _ := New(name)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, 1))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// pendingHistory is n completed trials of Ackley-d and pending running
// ones at uniform random points.
func pendingHistory(n, d, pending int) *History {
	rng := rand.New(rand.NewPCG(1, 2))
	sp, obs := ackleyObservations(n, d, rng)
	h := &History{Space: sp, Seed: 1, Trials: n + pending, Observed: obs}
	for range pending {
		h.Pending = append(h.Pending, sp.Sample(rng))
	}
	return h
}

// BenchmarkCoCaBOSuggestPending is BenchmarkGPBOSuggestPending for CoCaBO
// on Func-3C: its Kriging Believer adds the pending points too.
func BenchmarkCoCaBOSuggestPending(b *testing.B) {
	const n, pending = 400, 64
	p, err := mixed.Get("func3c")
	if err != nil {
		b.Fatal(err)
	}
	sp := p.Space()
	rng := rand.New(rand.NewPCG(1, 2))
	h := &History{Space: sp, Seed: 1, Trials: n + pending, Budget: 2 * n, Observed: mixedObservations(b, p, n, rng)}
	for range pending {
		h.Pending = append(h.Pending, sp.Sample(rng))
	}
	c := NewCoCaBO()
	for b.Loop() {
		if _, err := c.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, 1))); err != nil {
			b.Fatal(err)
		}
	}
}

func benchSuggest(b *testing.B, n, d int) {
	const steps = 10
	rng := rand.New(rand.NewPCG(1, 2))
	sp, obs := ackleyObservations(n+steps, d, rng)
	g := NewGPBO()
	if _, err := g.fit(sp, obs[:n-1], rng); err != nil {
		b.Fatal(err)
	}
	warm := g.warm.Get("", len(g.warm.p))
	var spent time.Duration
	for b.Loop() {
		g.warm.Set("", warm, 0)
		start := time.Now()
		for s := range steps {
			h := &History{Space: sp, Seed: 1, Trials: n + s, Observed: obs[:n+s]}
			if _, err := g.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, uint64(s)))); err != nil {
				b.Fatal(err)
			}
		}
		spent += time.Since(start)
	}
	b.ReportMetric(spent.Seconds()/float64(b.N*steps), "s/suggest")
}

// BenchmarkMixedSuggest times suggestions of the mixed-space samplers with
// n uniform random observations of Func-3C (3 categorical, 2 continuous
// parameters), Ackley-5C (5 categorical with 17 levels, 1 continuous),
// Ackley-53 (50 binary, 3 continuous) and Pest (25 categorical with 5
// levels).
// Each op is a fresh sampler that first suggests once at n−1 observations
// untimed (its first, cold hyper-parameter fit), then 10 consecutive timed
// suggestions at n..n+9, so refits every 10 iterations are counted as in a
// running study; "s/suggest" reports their mean.
func BenchmarkMixedSuggest(b *testing.B) {
	samplers := []func() Sampler{
		func() Sampler { return NewCoCaBO() },
		func() Sampler { return NewCasmopolitan() },
		func() Sampler { return NewOneHotGP() },
	}
	for _, name := range []string{"func3c", "ackley5c", "ackley53", "pest"} {
		p, err := mixed.Get(name)
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range []int{100, 200} {
			for _, mk := range samplers {
				b.Run(fmt.Sprintf("%s/%s/n=%d", mk().Name(), name, n), func(b *testing.B) { benchMixedSuggest(b, p, mk, n) })
			}
		}
	}
}

func benchMixedSuggest(b *testing.B, p *mixed.Problem, mk func() Sampler, n int) {
	const steps = 10
	sp := p.Space()
	obs := mixedObservations(b, p, n+steps, rand.New(rand.NewPCG(1, 2)))
	suggest := func(s Sampler, m int) {
		h := &History{Space: sp, Seed: 1, Trials: m, Observed: obs[:m], Budget: n + steps}
		if _, err := s.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, uint64(m)))); err != nil {
			b.Fatal(err)
		}
	}
	var spent time.Duration
	for b.Loop() {
		s := mk()
		suggest(s, n-1)
		start := time.Now()
		for m := n; m < n+steps; m++ {
			suggest(s, m)
		}
		spent += time.Since(start)
	}
	b.ReportMetric(spent.Seconds()/float64(b.N*steps), "s/suggest")
}

// mixedObservations evaluates p at n uniform random points.
func mixedObservations(b *testing.B, p *mixed.Problem, n int, rng *rand.Rand) []Observation {
	sp := p.Space()
	obs := make([]Observation, n)
	for i := range obs {
		u := sp.Sample(rng)
		y, err := p.Evaluate(sp.Decode(u), rng)
		if err != nil {
			b.Fatal(err)
		}
		obs[i] = Observation{X: u, Y: y}
	}
	return obs
}

// BenchmarkCholesky times one factorisation of a Matérn-5/2 kernel matrix
// of the sizes BenchmarkGPBOSuggest uses: the unit its cost is read in.
func BenchmarkCholesky(b *testing.B) {
	for _, n := range []int{100, 500, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			X := make([][]float64, n)
			for i := range X {
				X[i] = make([]float64, 10)
				for j := range X[i] {
					X[i][j] = rng.Float64()
				}
			}
			K := kernel.Matrix(kernel.NewStationary(kernel.Matern52, 10, true), X)
			for i := range n {
				K.SetSym(i, i, K.At(i, i)+1e-3)
			}
			var c mat.Cholesky
			for b.Loop() {
				if !c.Factorize(K) {
					b.Fatal("not positive definite")
				}
			}
		})
	}
}

// BenchmarkNASBOWLSuggest is one NAS-BOWL batch of 5 after n evaluations
// of the synthetic NB201 oracle, 4 running: GPWL fitted at H = 1, 2, 3
// and a pool of 200 mutations scored (docs/nasbowl.md).
func BenchmarkNASBOWLSuggest(b *testing.B) {
	for _, n := range []int{50, 150, 400} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			h := synthHistory(n, 1)
			rng := rand.New(rand.NewPCG(5, 5))
			for range 4 {
				h.Pending = append(h.Pending, h.Space.Sample(rng))
			}
			s := NewNASBOWL()
			for b.Loop() {
				if _, err := s.SuggestBatch(context.Background(), h, 5, rand.New(rand.NewPCG(1, 1))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
