package svmcbo

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/problems/constrained"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/sampler/internal/samplertest"
	"github.com/boaopt/boa/space"
)

// study runs c on problem name for n sequential trials of a 100-trial study and calls check
// (when not nil) before each suggestion is evaluated. Infeasible points
// have no value, as the test functions give none (spec §7.1).
func study(t *testing.T, c *CBO, name string, n int, seed uint64, check func(h *sampler.History, u []float64)) *sampler.History {
	t.Helper()
	p, err := constrained.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	sp := p.Space()
	h := &sampler.History{Space: sp, Seed: seed, Budget: 100, Constraints: []string{"c"}}
	for i := range n {
		h.Trials = i
		u, err := c.Suggest(context.Background(), h, rand.New(rand.NewPCG(seed, uint64(i))))
		if err != nil {
			t.Fatalf("%s, trial %d: %v", c.Name(), i, err)
		}
		sp.Round(u)
		if check != nil {
			check(h, u)
		}
		r, err := p.Evaluate(sp.Decode(u))
		if err != nil {
			t.Fatal(err)
		}
		y, ok := r.Loss()
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: y, Infeasible: !ok})
	}
	return h
}

func TestRegistered(t *testing.T) {
	for _, name := range []string{"svmcbo", "svmcbo-rf", "svmcbo-code", "svmcbo-rf-code"} {
		s, err := sampler.New(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := s.(sampler.Designer); !ok || s.Name() != name {
			t.Errorf("%s: %T named %q, want a Designer named %[1]s", name, s, s.Name())
		}
	}
}

// The phases follow Decision a: cumulative guards at 10 % and 70 % of the
// budget (100 without one), and a 20-point design keeps the total
// (Decision f: 20 + 50 + 30).
func TestPhases(t *testing.T) {
	for _, tc := range []struct {
		budget, init, m0, end1 int
	}{{100, 0, 10, 70}, {0, 0, 10, 70}, {100, 20, 20, 70}, {50, 0, 5, 35}} {
		c := &CBO{InitPoints: tc.init}
		for i := range 110 {
			h := &sampler.History{Trials: i, Budget: tc.budget, Observed: make([]sampler.Observation, i)}
			want := 2
			if i < tc.m0 {
				want = 0
			} else if i < tc.end1 {
				want = 1
			}
			if got := c.Phase(h); got != want {
				t.Errorf("budget %d, design %d, trial %d: phase %d, want %d", tc.budget, tc.init, i, got, want)
			}
			if c.Designing(h) != (want == 0) {
				t.Errorf("budget %d, trial %d: Designing %v in phase %d", tc.budget, i, c.Designing(h), want)
			}
		}
	}
}

// SVM-CBO and SVM-CBO_RF start from the same Latin hypercube (spec §9.1),
// one point per stratum of each coordinate.
func TestSharedDesign(t *testing.T) {
	a := study(t, New(GP, false), "branin_c", 10, 5, nil)
	b := study(t, New(Forest, true), "branin_c", 10, 5, nil)
	for i := range a.Observed {
		if !slices.Equal(a.Observed[i].X, b.Observed[i].X) {
			t.Fatalf("design point %d: %v and %v", i, a.Observed[i].X, b.Observed[i].X)
		}
	}
	for j := range 2 {
		seen := make([]bool, 10)
		for _, o := range a.Observed {
			seen[int(o.X[j]*10)] = true
		}
		if slices.Contains(seen, false) {
			t.Errorf("coordinate %d: strata %v, want one point in each", j, seen)
		}
	}
}

// Every proposal of phase 2 lies in the SVM's estimated feasible region
// when it has one (the acceptance line of spec §10), in both modes, on a
// box (focus search) and on a grid (sampling and local search); and the
// incumbent (Decision c) is feasible.
func TestPhase2InFeasibleRegion(t *testing.T) {
	for _, name := range []string{"branin_c", "mishra_bird_c_disc"} {
		for _, c := range []*CBO{{Candidates: 500}, {CodeCompat: true, Candidates: 500}, {Surrogate: Forest, Candidates: 500}, {Surrogate: Forest, CodeCompat: true, Candidates: 500}} {
			checked := 0
			h := study(t, c, name, 100, 3, func(h *sampler.History, u []float64) {
				if c.Phase(h) < 2 {
					return
				}
				b, err := c.boundary(h, 2)
				if err != nil {
					t.Fatal(err)
				}
				if b.m == nil {
					return
				}
				checked++
				if !b.feasible(encode(h.Space, u)) {
					t.Errorf("%s, %s, trial %d: %v outside Ω̃ (d = %g)", name, c.Name(), h.Trials, u, b.margin(encode(h.Space, u)))
				}
			})
			if checked < 20 {
				t.Errorf("%s, %s: only %d phase-2 proposals had an SVM", name, c.Name(), checked)
			}
			p, _ := constrained.Get(name)
			o, ok := Incumbent(h)
			a := p.Space().Decode(o.X)
			if !ok || !p.Feasible([]float64{a["x1"].(float64), a["x2"].(float64)}) {
				t.Errorf("%s, %s: incumbent %v (found %v) is not feasible", name, c.Name(), o.X, ok)
			}
		}
	}
}

// Incumbent is the best feasible observation with a value, whatever the
// infeasible ones report.
func TestIncumbent(t *testing.T) {
	h := &sampler.History{Observed: []sampler.Observation{
		{X: []float64{0}, Y: 3},
		{X: []float64{1}, Y: -5, Infeasible: true},
		{X: []float64{2}, Y: math.NaN()},
		{X: []float64{3}, Y: 2},
		{X: []float64{4}, Y: math.NaN(), Infeasible: true},
	}}
	if o, ok := Incumbent(h); !ok || o.X[0] != 3 {
		t.Errorf("incumbent %v, %v; want the point 3", o, ok)
	}
	if _, ok := Incumbent(&sampler.History{Observed: h.Observed[1:3]}); ok {
		t.Error("an incumbent without a feasible observation")
	}
}

// Decision g: with every point feasible d ≡ +1 and phase 2 optimises the
// LCB over the whole space; with every point infeasible (also failed ones,
// Decision h) d ≡ −1 and phase 2 makes phase 1's proposal.
func TestOneClass(t *testing.T) {
	sp := space.MustNew(space.Param{Name: "x1", Kind: space.Float, Low: 0, High: 1}, space.Param{Name: "x2", Kind: space.Float, Low: 0, High: 1})
	rng := rand.New(rand.NewPCG(1, 1))
	h := &sampler.History{Space: sp, Seed: 1, Budget: 20, Trials: 15}
	for range 14 {
		u := sp.Sample(rng)
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: u[0] + u[1]})
	}
	c := &CBO{Candidates: 300}
	b, err := c.boundary(h, 2)
	if err != nil || b.m != nil || b.constant != 1 || !b.feasible([]float64{0.3, 0.3}) {
		t.Fatalf("all feasible: boundary %+v, %v; want d ≡ +1", b, err)
	}
	if u, err := c.Suggest(context.Background(), h, rand.New(rand.NewPCG(2, 2))); err != nil || u[0]+u[1] > 0.5 {
		t.Errorf("all feasible: phase 2 proposed %v (%v); the LCB of x1 + x2 should lead low", u, err)
	}
	for i := range h.Observed {
		h.Observed[i].Infeasible, h.Observed[i].Y = true, math.NaN()
	}
	h.Failed = [][]float64{{0.5, 0.5}}
	b, err = c.boundary(h, 2)
	if err != nil || b.m != nil || !b.none() {
		t.Fatalf("all infeasible: boundary %+v, %v; want d ≡ −1", b, err)
	}
	got, err := c.Suggest(context.Background(), h, rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	want := c.explore(context.Background(), h, b, rand.New(rand.NewPCG(3, 3)))
	if !slices.Equal(got, want) {
		t.Errorf("all infeasible: phase 2 proposed %v, phase 1 would %v", got, want)
	}
}

// The phase-1 acquisition's gradient (spec §3.4) agrees with central
// differences, in both modes.
func TestPhase1Gradient(t *testing.T) {
	for _, code := range []bool{false, true} {
		c := &CBO{CodeCompat: code}
		h := study(t, &CBO{Candidates: 200}, "mishra_bird_c", 25, 4, nil)
		b, err := c.boundary(h, 1)
		if err != nil || b.m == nil {
			t.Fatalf("boundary: %v, %v", b, err)
		}
		a := c.newPhase1(h, b)
		rng := rand.New(rand.NewPCG(9, 9))
		for range 20 {
			x := []float64{rng.Float64(), rng.Float64()}
			g := make([]float64, 2)
			a.eval(x, g)
			for j := range x {
				xp, xm := slices.Clone(x), slices.Clone(x)
				xp[j] += 1e-6
				xm[j] -= 1e-6
				num := (a.eval(xp, nil) - a.eval(xm, nil)) / 2e-6
				if math.Abs(num-g[j]) > 1e-4*(1+math.Abs(num)) {
					t.Errorf("code %v at %v, ∂/∂x%d: analytic %g, numeric %g", code, x, j+1, g[j], num)
				}
			}
		}
	}
}

// code_compat differs from the default where spec §3.5 says: the SVM's
// labels and kernel width, the phase-1 boundary term, the coverage width,
// the surrogate's training set and the GP's scale of y.
func TestCodeCompatDiffers(t *testing.T) {
	h := study(t, &CBO{Candidates: 200}, "branin_c", 30, 6, nil)
	def, code := &CBO{}, &CBO{CodeCompat: true}
	bd, err1 := def.boundary(h, 1)
	bc, err2 := code.boundary(h, 1)
	if err1 != nil || err2 != nil || bd.m == nil || bc.m == nil {
		t.Fatal(err1, err2)
	}
	x := []float64{0.3, 0.3}
	if math.Abs(bd.m.Decision(x)+bc.m.Decision(x)) > 1e-3 {
		// The labels are flipped: the same SVM with the sign reversed
		// (g agrees in 2-D: 1/(d·Var X) = 1/(2·Var X)).
		t.Errorf("flipped labels: d = %g and %g, want opposite", bd.m.Decision(x), bc.m.Decision(x))
	}
	// The two SVMs agree to 1e-3 (above), so points that close to the
	// boundary may fall on either side of it.
	rng := rand.New(rand.NewPCG(5, 5))
	for range 50 {
		u := []float64{rng.Float64(), rng.Float64()}
		if math.Abs(bd.m.Decision(u)) > 1e-3 && bd.feasible(u) != bc.feasible(u) {
			t.Errorf("Ω̃ differs at %v (decisions %g and %g)", u, bd.m.Decision(u), bc.m.Decision(u))
		}
	}
	if td, tc := bd.term(x, nil), bc.term(x, nil); math.Abs(td-tc) < 1e-6 || math.Abs(td-math.Abs(bd.m.Decision(x))) > 1e-12 {
		t.Errorf("boundary terms %g (default) and %g (code); want |d| and the code's other value", td, tc)
	}
	// A 3-D space: g = 1/(3·Var X) against the code's 1/(2·Var X).
	sp3 := space.MustNew(space.Param{Name: "a", Kind: space.Float, Low: 0, High: 1}, space.Param{Name: "b", Kind: space.Float, Low: 0, High: 1}, space.Param{Name: "c", Kind: space.Float, Low: 0, High: 1})
	h3 := &sampler.History{Space: sp3, Budget: 100, Trials: 20}
	rng = rand.New(rand.NewPCG(1, 2))
	for i := range 20 {
		h3.Observed = append(h3.Observed, sampler.Observation{X: sp3.Sample(rng), Y: 1, Infeasible: i%3 == 0})
	}
	g3d, _ := def.boundary(h3, 1)
	g3c, _ := code.boundary(h3, 1)
	if r := g3d.m.Settings().Gamma / g3c.m.Settings().Gamma; math.Abs(r-2.0/3) > 1e-12 {
		t.Errorf("3-D kernel coefficients: ratio %g, want 2/3", r)
	}
	// Coverage: ℓ = Var(X) is clamped to [1e-3, 1] in the default only.
	tight := &sampler.History{Space: h.Space, Observed: []sampler.Observation{{X: []float64{0.5, 0.5}}, {X: []float64{0.5, 0.5001}}}}
	if ld, lc := def.newPhase1(tight, bd).l2, code.newPhase1(tight, bc).l2; ld != 2e-6 || lc >= ld {
		t.Errorf("2ℓ²: default %g, code %g; want 2e-6 and below", ld, lc)
	}
	// Training set: an infeasible point with a value is the default's, not
	// the code's (train_on computable against feasible).
	hv := &sampler.History{Observed: []sampler.Observation{{X: []float64{0.1, 0.1}, Y: 1}, {X: []float64{0.9, 0.9}, Y: 2, Infeasible: true}}}
	if _, yd := def.trainingSet(hv); len(yd) != 2 {
		t.Errorf("default trains on %v, want both points", yd)
	}
	if _, yc := code.trainingSet(hv); len(yc) != 1 {
		t.Errorf("code_compat trains on %v, want the feasible point", yc)
	}
	U, y := def.trainingSet(h)
	md, _ := def.fit(U, y, h.Space, rand.New(rand.NewPCG(1, 1)))
	mc, _ := code.fit(U, y, h.Space, rand.New(rand.NewPCG(1, 1)))
	if _, s := md.g.Standardization(); s == 1 {
		t.Error("default GP: y not standardised")
	}
	if o, s := mc.g.Standardization(); o != 0 || s != 1 {
		t.Errorf("code_compat GP: standardisation (%g, %g), want none", o, s)
	}
}

// With pending trials, no proposal repeats a tried or pending
// configuration, on the 625-point grid where repeats are easy.
func TestPendingNotRepeated(t *testing.T) {
	p, _ := constrained.Get("mishra_bird_c_disc")
	sp := p.Space()
	for _, c := range []*CBO{{Candidates: 300}, {Surrogate: Forest, CodeCompat: true, Candidates: 300}} {
		h := &sampler.History{Space: sp, Seed: 8, Budget: 60}
		for i := range 60 {
			h.Trials = i
			u, err := c.Suggest(context.Background(), h, rand.New(rand.NewPCG(8, uint64(i))))
			if err != nil {
				t.Fatal(err)
			}
			sp.Round(u)
			if bo.Seen(h)[sp.Key(u)] {
				t.Fatalf("%s, trial %d: %v proposed again", c.Name(), i, sp.Decode(u))
			}
			h.Pending = append(h.Pending, u)
			if len(h.Pending) > 3 { // the oldest pending trial completes
				v := h.Pending[0]
				h.Pending = h.Pending[1:]
				r, _ := p.Evaluate(sp.Decode(v))
				y, ok := r.Loss()
				h.Observed = append(h.Observed, sampler.Observation{X: v, Y: y, Infeasible: !ok})
			}
		}
	}
}

// encode follows spec §2's Decision: a categorical one-hot scaled by
// 1/√2, an ordinal's rank/(n − 1), an inactive parameter 0 with its
// "active" column 0.
func TestEncode(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "k", Kind: space.Categorical, Choices: []string{"rbf", "poly", "lin"}},
		space.Param{Name: "deg", Kind: space.Ordinal, Values: []float64{2, 3, 5}, When: map[string][]string{"k": {"poly"}}},
		space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1},
	)
	s := 1 / math.Sqrt2
	for _, tc := range []struct {
		a    space.Assignment
		want []float64
	}{
		{space.Assignment{"k": "poly", "deg": 5.0, "x": 0.25}, []float64{0, s, 0, 1, 1, 0.25}},
		{space.Assignment{"k": "poly", "deg": 2.0, "x": 0.25}, []float64{0, s, 0, 0, 1, 0.25}},
		{space.Assignment{"k": "lin", "x": 0.5}, []float64{0, 0, s, 0, 0, 0.5}},
	} {
		u, err := sp.Encode(tc.a)
		if err != nil {
			t.Fatal(err)
		}
		if got := encode(sp, u); !slices.Equal(got, tc.want) {
			t.Errorf("encode(%v) = %v, want %v", tc.a, got, tc.want)
		}
	}
}

// On a mixed space both phases sample and search locally; every
// suggestion is a valid configuration, none repeated.
func TestMixedSpace(t *testing.T) {
	sp := samplertest.MixedSpace(t, 2, 3, 2)
	for _, c := range []*CBO{{Candidates: 300}, {Surrogate: Forest, CodeCompat: true, Candidates: 300}} {
		h := &sampler.History{Space: sp, Seed: 2, Budget: 30}
		for i := range 30 {
			h.Trials = i
			u, err := c.Suggest(context.Background(), h, rand.New(rand.NewPCG(2, uint64(i))))
			if err != nil {
				t.Fatal(err)
			}
			sp.Round(u)
			if err := sp.Validate(sp.Decode(u)); err != nil || bo.Seen(h)[sp.Key(u)] {
				t.Fatalf("%s, trial %d: %v (%v), or repeated", c.Name(), i, sp.Decode(u), err)
			}
			y := samplertest.MixedToy(sp, u)
			bad := u[2] > 0.7 // x0 > 0.4: infeasible, with no value
			if bad {
				y = math.NaN()
			}
			h.Observed = append(h.Observed, sampler.Observation{X: u, Y: y, Infeasible: bad})
		}
	}
}
