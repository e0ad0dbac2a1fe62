package casmopolitan

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/samplertest"
	"github.com/boaopt/boa/space"
)

// fastCasmo returns casmopolitan with small tolerances and budgets, so
// that expansions, shrinks and restarts all happen in a short test.
func fastCasmo() *Casmopolitan {
	c := New()
	c.InitPoints, c.SuccTol, c.FailTol = 5, 2, 2
	c.LxMin = 0.3
	c.LocalSteps = 50
	c.FitIters = 50
	return c
}

// TestCasmopolitanStaysInTrustRegion runs short studies and checks every
// proposal against the trust region it was drawn from and the replayed
// state: Hamming distance ≤ L^h from the centre (the epoch's best point,
// or the restart centre during a restart design), continuous coordinates
// inside a box of volume at most (L^x)^d_x around the centre, no repeated
// configuration.
func TestCasmopolitanStaysInTrustRegion(t *testing.T) {
	for _, tc := range []struct {
		name       string
		nc, lv, nx int
		n          int
		beta       string
	}{
		{"mixed", 6, 3, 2, 45, RestartBetaFixed},
		{"mixed-theory-beta", 6, 3, 2, 45, RestartBetaTheory},
		{"categorical", 8, 3, 0, 40, RestartBetaFixed},
		{"continuous", 0, 0, 3, 30, RestartBetaFixed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sp := samplertest.MixedSpace(t, tc.nc, tc.lv, tc.nx)
			c := fastCasmo()
			c.RestartBeta = tc.beta
			cs, err := newCasmoSpace(sp)
			if err != nil {
				t.Fatal(err)
			}
			lim := c.limits(cs)
			h := &sampler.History{Space: sp, Seed: 3}
			seen := map[string]bool{}
			var bo, restartDesign, epochs int
			for i := range tc.n {
				h.Trials = i
				st := c.replay(cs, h)
				u, tr, err := c.propose(context.Background(), h, rand.New(rand.NewPCG(3, uint64(i))))
				if err != nil {
					t.Fatal(err)
				}
				if !cs.inside(u, tr) {
					t.Fatalf("trial %d: %v is outside its trust region %+v", i, u, tr)
				}
				switch {
				case len(st.local) >= c.InitPoints:
					bo++
					if tr.radius != st.lh || !slices.Equal(tr.centre, st.centreOf(h).X) {
						t.Fatalf("trial %d: region radius %d centre %v, state L^h %d centre %v", i, tr.radius, tr.centre, st.lh, st.centreOf(h).X)
					}
					vol := 1.0
					for _, j := range cs.cont {
						if tr.centre[j] < tr.lo[j] || tr.centre[j] > tr.hi[j] {
							t.Fatalf("trial %d: centre outside its box", i)
						}
						vol *= tr.hi[j] - tr.lo[j]
					}
					if vol > math.Pow(st.lx, float64(len(cs.cont)))*(1+1e-9) {
						t.Fatalf("trial %d: box volume %v > L^x^d = %v", i, vol, math.Pow(st.lx, float64(len(cs.cont))))
					}
				case st.epoch > 0:
					restartDesign++
					if tr.radius != lim.lh0 {
						t.Fatalf("trial %d: restart design radius %d, want %d", i, tr.radius, lim.lh0)
					}
				default:
					if !tr.whole {
						t.Fatalf("trial %d: the first design should be uniform", i)
					}
				}
				if !tr.whole {
					if d := cs.hamming(u, tr.centre); d > tr.radius {
						t.Fatalf("trial %d: Hamming distance %d > %d", i, d, tr.radius)
					}
				}
				k := sp.Key(u)
				if seen[k] {
					t.Fatalf("trial %d: %s proposed twice", i, k)
				}
				seen[k] = true
				h.Observed = append(h.Observed, sampler.Observation{X: u, Y: samplertest.MixedToy(sp, u)})
				epochs = st.epoch
			}
			if bo == 0 || epochs == 0 || restartDesign == 0 {
				t.Fatalf("the run did not exercise every phase: %d trust-region steps, %d restarts, %d restart-design points", bo, epochs, restartDesign)
			}
		})
	}
}

// TestCasmopolitanCounters replays a hand-made history: successes expand
// after SuccTol, failures shrink after FailTol (the radius rounded down),
// a near-miss within 1e-3 relative is a failure, and a restart fires when
// the radius reaches its minimum, recording the epoch's best in D*.
func TestCasmopolitanCounters(t *testing.T) {
	sp := samplertest.MixedSpace(t, 4, 3, 1)
	cs, _ := newCasmoSpace(sp)
	c := New()
	c.InitPoints, c.SuccTol, c.FailTol = 2, 2, 3
	c.LhInit, c.LxMin = 2, 0.1
	rng := rand.New(rand.NewPCG(1, 1))
	h := &sampler.History{Space: sp, Seed: 1}
	type want struct {
		lh         int
		lx         float64
		succ, fail int
		epoch      int
	}
	steps := []struct {
		y float64
		w want
	}{
		{10, want{2, 0.8, 0, 0, 0}},       // design
		{9, want{2, 0.8, 0, 0, 0}},        // design; best 9
		{5, want{2, 0.8, 1, 0, 0}},        // success
		{4, want{3, 1.2, 0, 0, 0}},        // second success: expand (radius capped at d_h = 4)
		{4 - 1e-3, want{3, 1.2, 0, 1, 0}}, // improvement below 1e-3·|best|: a failure
		{100, want{3, 1.2, 0, 2, 0}},      //
		{100, want{2, 0.8, 0, 0, 0}},      // third failure: shrink, ⌊3/1.5⌋ = 2
		{3, want{2, 0.8, 1, 0, 0}},        // a success resets the failures
		{100, want{2, 0.8, 0, 1, 0}},      // a failure resets the successes
		{100, want{2, 0.8, 0, 2, 0}},      //
		{100, want{2, 0.8, 0, 0, 1}},      // shrink to ⌊2/1.5⌋ = 1 = L^h_min: restart, lengths reset
		{50, want{2, 0.8, 0, 0, 1}},       // the new epoch's design
		{60, want{2, 0.8, 0, 0, 1}},       //
		{40, want{2, 0.8, 1, 0, 1}},       // compared with the new epoch's trials only
		{1000, want{2, 0.8, 0, 1, 1}},     //
		{1000, want{2, 0.8, 0, 2, 1}},     //
		{1000, want{2, 0.8, 0, 0, 2}},     // second restart
	}
	for i, s := range steps {
		h.Observed = append(h.Observed, sampler.Observation{X: sp.Sample(rng), Y: s.y})
		st := c.replay(cs, h)
		if st.lh != s.w.lh || math.Abs(st.lx-s.w.lx) > 1e-12 || st.succ != s.w.succ || st.fail != s.w.fail || st.epoch != s.w.epoch {
			t.Fatalf("after trial %d (y = %v): L^h %d, L^x %v, succ %d, fail %d, epoch %d; want %d, %v, %d, %d, %d",
				i, s.y, st.lh, st.lx, st.succ, st.fail, st.epoch, s.w.lh, s.w.lx, s.w.succ, s.w.fail, s.w.epoch)
		}
	}
	st := c.replay(cs, h)
	if len(st.bests) != 2 || st.bests[0].Y != 3 || st.bests[1].Y != 40 {
		t.Fatalf("D* = %v, want the bests 3 and 40 of the two epochs", st.bests)
	}
	if st.start != 17 || len(st.local) != 0 || st.expansions != 1 || st.shrinks != 3 {
		t.Fatalf("current epoch starts at %d with %d trials after %d expansions and %d shrinks, want 17, 0, 1, 3",
			st.start, len(st.local), st.expansions, st.shrinks)
	}
}

// TestCasmopolitanCountersPerBatch: the trials of a synchronous batch
// are one step of the counters (the reference code adjusts its lengths
// once per batch): FailTol failing batches shrink once, and a batch with
// one improvement is one success.
func TestCasmopolitanCountersPerBatch(t *testing.T) {
	sp := samplertest.MixedSpace(t, 4, 3, 1)
	cs, _ := newCasmoSpace(sp)
	c := New()
	c.InitPoints, c.SuccTol, c.FailTol = 2, 2, 3
	c.LhInit = 4
	rng := rand.New(rand.NewPCG(1, 1))
	h := &sampler.History{Space: sp, Seed: 1}
	add := func(batch int, ys ...float64) {
		for _, y := range ys {
			h.Observed = append(h.Observed, sampler.Observation{X: sp.Sample(rng), Y: y, Batch: batch})
		}
	}
	add(1, 10, 9) // the design, one batch
	add(2, 100, 100, 100)
	add(3, 100, 100, 100)
	if st := c.replay(cs, h); st.fail != 2 || st.shrinks != 0 {
		t.Fatalf("after 2 failing batches of 3: %d failures, %d shrinks; want 2, 0", st.fail, st.shrinks)
	}
	add(4, 100, 100, 100)
	if st := c.replay(cs, h); st.fail != 0 || st.shrinks != 1 || st.lh != 2 {
		t.Fatalf("after 3 failing batches: %d failures, %d shrinks, radius %d; want 0, 1, 2", st.fail, st.shrinks, st.lh)
	}
	add(5, 100, 5, 100) // one improvement: a success
	add(6, 4, 100, 100)
	if st := c.replay(cs, h); st.expansions != 1 || st.lh != 3 {
		t.Fatalf("after 2 batches with an improvement each: %d expansions, radius %d; want 1, 3", st.expansions, st.lh)
	}
	// The same trials one by one (no batch): every trial is a step.
	for i := range h.Observed {
		h.Observed[i].Batch = 0
	}
	if st := c.replay(cs, h); st.shrinks != 2 || st.epoch != 1 {
		t.Fatalf("trial by trial: %d shrinks, %d restarts; want 2 (the second to the minimum radius), 1", st.shrinks, st.epoch)
	}
}

// TestCasmopolitanContinuousRestart checks the restart trigger of the
// continuous length, the only one in a space without categoricals.
func TestCasmopolitanContinuousRestart(t *testing.T) {
	sp := samplertest.MixedSpace(t, 0, 0, 2)
	cs, _ := newCasmoSpace(sp)
	c := New()
	c.InitPoints, c.FailTol, c.LxMin = 1, 2, 0.5
	rng := rand.New(rand.NewPCG(1, 2))
	h := &sampler.History{Space: sp, Seed: 1}
	// Design, then failures: shrinks after trials 2 (0.8 → 0.533) and 4
	// (→ 0.356 ≤ 0.5, restart).
	for i, y := range []float64{1, 2, 2, 2, 2} {
		h.Observed = append(h.Observed, sampler.Observation{X: sp.Sample(rng), Y: y})
		st := c.replay(cs, h)
		if want := min(i/4, 1); st.epoch != want {
			t.Fatalf("after trial %d: epoch %d, want %d", i, st.epoch, want)
		}
	}
}

// TestCasmopolitanRestartCentre checks the guided restart: the centre is
// the minimiser of μ − 1.96σ of the auxiliary GP over its min(100·d, 5000)
// candidates, and the design of a new epoch starts with it.
func TestCasmopolitanRestartCentre(t *testing.T) {
	sp := samplertest.MixedSpace(t, 5, 4, 2)
	cs, _ := newCasmoSpace(sp)
	c := New()
	rng := rand.New(rand.NewPCG(5, 5))
	var bests []sampler.Observation
	for range 4 {
		u := sp.Sample(rng)
		bests = append(bests, sampler.Observation{X: u, Y: samplertest.MixedToy(sp, u)})
	}
	centre, cands, m := c.restartCentre(cs, bests, 1.96, rand.New(rand.NewPCG(9, 9)))
	if m == nil {
		t.Fatal("the auxiliary GP was not fitted")
	}
	if len(cands) != 100*sp.Len() {
		t.Fatalf("%d candidates, want %d", len(cands), 100*sp.Len())
	}
	score := func(u []float64) float64 {
		mu, v := m.Predict(cs.features(u, nil))
		return mu - 1.96*math.Sqrt(v)
	}
	best := math.Inf(1)
	for _, u := range cands {
		best = min(best, score(u))
	}
	if got := score(centre); got != best || !slices.ContainsFunc(cands, func(u []float64) bool { return slices.Equal(u, centre) }) {
		t.Fatalf("centre scores %v, best candidate %v", got, best)
	}

	// A new epoch's first design point is its restart centre.
	c.InitPoints, c.FailTol, c.LhInit = 3, 1, 2
	h := &sampler.History{Space: sp, Seed: 4}
	for i := 0; ; i++ {
		st := c.replay(cs, h)
		if st.epoch == 1 {
			u, tr, err := c.propose(context.Background(), h, rand.New(rand.NewPCG(1, 1)))
			if err != nil {
				t.Fatal(err)
			}
			want, _, _ := c.restartCentre(cs, st.bests, c.restartKappa(cs, st.epoch), rand.New(rand.NewPCG(h.Seed, casmoStreamRestart^uint64(st.start)<<20)))
			if !slices.Equal(u, want) || !slices.Equal(tr.centre, want) {
				t.Fatalf("first point of the restart design %v, centre %v; want the restart centre %v", u, tr.centre, want)
			}
			return
		}
		if i > 30 {
			t.Fatal("no restart after 30 failures")
		}
		u := sp.Sample(rng)
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: 100 + float64(i)})
		h.Trials++
	}
}

// TestCasmopolitanReplayIsDeterministic checks that the state and the
// proposals depend only on the history, the study seed and the call's
// rng, not on the sampler instance.
func TestCasmopolitanReplayIsDeterministic(t *testing.T) {
	sp := samplertest.MixedSpace(t, 6, 3, 2)
	cs, _ := newCasmoSpace(sp)
	run := fastCasmo()
	h := &sampler.History{Space: sp, Seed: 8}
	for i := range 30 {
		h.Trials = i
		u, err := run.Suggest(context.Background(), h, rand.New(rand.NewPCG(8, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: samplertest.MixedToy(sp, u)})
	}
	a, b := fastCasmo(), fastCasmo()
	if sa, sb := a.replay(cs, h), b.replay(cs, h); !reflect.DeepEqual(sa, sb) {
		t.Fatalf("two replays differ: %+v vs %+v", sa, sb)
	}
	if st := a.replay(cs, h); st.epoch == 0 {
		t.Fatal("the history has no restart; the test needs one")
	}
	ua, _ := a.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, 2)))
	ub, _ := b.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, 2)))
	if !slices.Equal(ua, ub) {
		t.Fatalf("fresh samplers proposed %v and %v", ua, ub)
	}
}

// TestCasmopolitanPendingAndErrors covers Kriging Believer (a pending
// point is not proposed again), the design skipping pending points, and
// the errors for conditional spaces and bad settings.
func TestCasmopolitanPendingAndErrors(t *testing.T) {
	sp := samplertest.MixedSpace(t, 4, 3, 1)
	c := fastCasmo()
	h := &sampler.History{Space: sp, Seed: 2}
	for i := range 8 {
		u, err := c.Suggest(context.Background(), h, rand.New(rand.NewPCG(2, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		h.Pending = append(h.Pending, u)
		v, err := c.Suggest(context.Background(), h, rand.New(rand.NewPCG(2, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		if sp.Key(u) == sp.Key(v) {
			t.Fatalf("trial %d: the pending point %v was proposed again", i, u)
		}
		h.Pending = h.Pending[:0]
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: samplertest.MixedToy(sp, u)})
	}

	cond := space.MustNew(
		space.Param{Name: "kind", Kind: space.Categorical, Choices: []string{"a", "b"}},
		space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1, When: map[string][]string{"kind": {"a"}}},
	)
	if _, err := c.Suggest(context.Background(), &sampler.History{Space: cond}, rand.New(rand.NewPCG(1, 1))); err == nil || !strings.Contains(err.Error(), "conditional") {
		t.Errorf("conditional space: err = %v", err)
	}
	bad := New()
	bad.Acquisition = "ucb"
	if _, err := bad.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("unknown acquisition accepted")
	}
	bad = New()
	bad.LxMin = 2
	if _, err := bad.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("LxMin > LxInit accepted")
	}
}

// TestScaledKernelGradient checks the outer-variance wrapper's parameter
// gradient against central differences.
func TestScaledKernelGradient(t *testing.T) {
	inner := kernel.NewExpOverlap([]int{0, 1, 2}, true, false)
	inner.SetLengthscales([]float64{0.1, 0.3, 0.45})
	k := newScaled(inner, 1.7, casmoVarBound)
	x, y := []float64{0, 1, 2}, []float64{0, 2, 2}
	p := k.Params(nil)
	g := make([]float64, len(p))
	v := k.ParamGrad(x, y, g)
	if math.Abs(v-k.Eval(x, y)) > 1e-14 {
		t.Fatalf("ParamGrad value %v, Eval %v", v, k.Eval(x, y))
	}
	const h = 1e-6
	for j := range p {
		q := slices.Clone(p)
		q[j] = p[j] + h
		k2 := k.Clone()
		k2.SetParams(q)
		fp := k2.Eval(x, y)
		q[j] = p[j] - h
		k2.SetParams(q)
		fm := k2.Eval(x, y)
		fd := (fp - fm) / (2 * h)
		if math.Abs(fd-g[j]) > 1e-5*math.Max(1, math.Abs(fd)) {
			t.Errorf("param %d: gradient %v, central difference %v", j, g[j], fd)
		}
	}
	if len(k.Bounds()) != len(p) {
		t.Fatalf("%d bounds for %d params", len(k.Bounds()), len(p))
	}
}

// TestScaledKernelGram checks that the outer-variance wrapper's Gram, which
// casmopolitan's fits use on purely categorical spaces, gives its values
// and gradients to the last bit, also after the parameters change.
func TestScaledKernelGram(t *testing.T) {
	inner := kernel.NewExpOverlap([]int{0, 1, 2}, true, false)
	inner.SetLengthscales([]float64{0.1, 0.3, 0.45})
	k := newScaled(inner, 1.7, casmoVarBound)
	X := [][]float64{{0, 1, 2}, {0, 2, 2}, {1, 2, 0}, {0, 1, 2}}
	g := kernel.Bind(k, X)
	want, got := make([]float64, k.NumParams()), make([]float64, k.NumParams())
	for round := range 2 {
		if round == 1 {
			k.SetParams([]float64{-1, -2, -3, 0.5})
		}
		for i := range X {
			for j := range X {
				if a, b := g.Eval(i, j), k.Eval(X[i], X[j]); a != b {
					t.Fatalf("round %d: Gram Eval(%d, %d) = %v, kernel %v", round, i, j, a, b)
				}
				a, b := g.ParamGrad(i, j, got), k.ParamGrad(X[i], X[j], want)
				if a != b || !slices.Equal(got, want) {
					t.Fatalf("round %d: Gram ParamGrad(%d, %d) = %v %v, kernel %v %v", round, i, j, a, got, b, want)
				}
			}
		}
	}
}

// TestCasmopolitanIntegersAndOrdinals runs a space with Int, log-Int and
// Ordinal parameters, which casmopolitan treats as continuous and rounds:
// every proposal is legal (Round leaves it unchanged) and new.
func TestCasmopolitanIntegersAndOrdinals(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "act", Kind: space.Categorical, Choices: []string{"relu", "tanh", "gelu"}},
		space.Param{Name: "layers", Kind: space.Int, Low: 1, High: 8},
		space.Param{Name: "width", Kind: space.Int, Low: 8, High: 512, Log: true},
		space.Param{Name: "drop", Kind: space.Ordinal, Values: []float64{0, 0.1, 0.2, 0.5}},
	)
	c := fastCasmo()
	h := &sampler.History{Space: sp, Seed: 6}
	seen := map[string]bool{}
	for i := range 25 {
		h.Trials = i
		u, err := c.Suggest(context.Background(), h, rand.New(rand.NewPCG(6, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		r := slices.Clone(u)
		sp.Round(r)
		if !slices.Equal(r, u) || seen[sp.Key(u)] {
			t.Fatalf("trial %d: %v is not rounded or repeats", i, u)
		}
		seen[sp.Key(u)] = true
		a := sp.Decode(u)
		y := float64(a["layers"].(int)-3)*float64(a["layers"].(int)-3) + a["drop"].(float64)
		if a["act"] != "gelu" {
			y++
		}
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: y})
	}
}

// TestCasmopolitanExhaustsSmallSpace runs casmopolitan on a space of 20
// configurations for 20 trials: its small discrete trust regions run out
// of untried configurations long before a restart, and each proposal must
// still be new (an untried one from outside the region), until the space
// itself is exhausted.
func TestCasmopolitanExhaustsSmallSpace(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "i", Kind: space.Int, Low: 1, High: 10},
		space.Param{Name: "b", Kind: space.Bool},
	)
	c := New()
	c.InitPoints = 5
	for seed := range uint64(5) {
		h := &sampler.History{Space: sp, Seed: seed, Budget: 21}
		seen := map[string]bool{}
		for i := range 21 {
			h.Trials = i
			u, err := c.Suggest(context.Background(), h, rand.New(rand.NewPCG(seed, uint64(i))))
			if err != nil {
				t.Fatal(err)
			}
			if k := sp.Key(u); seen[k] && i < 20 {
				t.Fatalf("seed %d, trial %d: %s proposed again while %d configurations are untried", seed, i, k, 20-i)
			}
			seen[sp.Key(u)] = true
			a := sp.Decode(u)
			y := float64((a["i"].(int) - 2) * (a["i"].(int) - 2))
			if a["b"].(bool) {
				y += 5
			}
			h.Observed = append(h.Observed, sampler.Observation{X: u, Y: y})
		}
	}
}
