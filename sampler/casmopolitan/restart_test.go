package casmopolitan

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/samplertest"
)

// TestCasmopolitanNeighbourValid checks the validity test of the local
// search's neighbours [spec §5.5; reference code: xingchenwan/Casmopolitan]:
// a Hamming-1 neighbour of the current point whose categorical part is at
// distance 0 < d ≤ L^h from the centre's and off the trajectory, in mixed
// and categorical spaces; with none valid the search gets nil.
func TestCasmopolitanNeighbourValid(t *testing.T) {
	for _, nx := range []int{2, 0} {
		sp := samplertest.MixedSpace(t, 4, 3, nx)
		cs, _ := newCasmoSpace(sp)
		rng := rand.New(rand.NewPCG(7, uint64(nx)))
		for trial := range 200 {
			tr := trustRegion{centre: sp.Sample(rng), radius: 1 + trial%3}
			tr.lo, tr.hi = box(cs, tr.centre, nil, 0.8)
			s := &casmoSearch{cs: cs, tr: tr, rng: rng}
			u := cs.perturb(tr, rng)
			onPath := map[string]bool{s.catKey(u): true}
			for range 20 {
				nb := s.neighbour(u, onPath)
				if nb == nil {
					continue
				}
				d := cs.hamming(nb, tr.centre)
				if d == 0 || d > tr.radius || cs.hamming(nb, u) != 1 || onPath[s.catKey(nb)] {
					t.Fatalf("d_x = %d: neighbour of %v at distance %d from the centre %v (radius %d), %d from u",
						nx, u, d, tr.centre, tr.radius, cs.hamming(nb, u))
				}
				for _, i := range cs.cont {
					if nb[i] != u[i] {
						t.Fatalf("d_x = %d: a categorical step moved continuous coordinate %d", nx, i)
					}
				}
			}
		}
	}

	// L^h = 1 on binary variables, one step away from the centre: the only
	// Hamming-1 neighbours are the centre's categorical part (d = 0) and
	// points at distance 2, so there is none, and the search stops.
	sp := samplertest.MixedSpace(t, 3, 2, 1)
	cs, _ := newCasmoSpace(sp)
	centre := []float64{cs.code(0, 0), cs.code(1, 0), cs.code(2, 0), 0.5}
	tr := trustRegion{centre: centre, radius: 1}
	tr.lo, tr.hi = box(cs, centre, nil, 0.8)
	s := &casmoSearch{cs: cs, tr: tr, rng: rand.New(rand.NewPCG(1, 1))}
	u := slices.Clone(centre)
	u[0], u[3] = cs.code(0, 1), 0.7
	for range 20 {
		if nb := s.neighbour(u, map[string]bool{s.catKey(u): true}); nb != nil {
			t.Fatalf("L^h = 1: neighbour %v of %v, at distance %d from the centre; want none", nb, u, cs.hamming(nb, centre))
		}
	}
}

// restartHistory returns a history whose replay has just restarted:
// InitPoints design trials and one failure that shrinks L^h from 2 to the
// minimum 1.
func restartHistory(t *testing.T, c *Casmopolitan, cs *casmoSpace, seed uint64) (*sampler.History, *casmoState) {
	t.Helper()
	c.FailTol, c.LhInit = 1, 2
	sp := cs.sp
	rng := rand.New(rand.NewPCG(seed, 1))
	h := &sampler.History{Space: sp, Seed: seed}
	for i := range c.InitPoints + 1 {
		u := sp.Sample(rng)
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: samplertest.MixedToy(sp, u) + float64(i)})
		h.Trials++
	}
	st := c.replay(cs, h)
	if st.epoch != 1 || len(st.local) != 0 {
		t.Fatalf("the history should end the first epoch: epoch %d, %d trials in it", st.epoch, len(st.local))
	}
	return h, st
}

// TestCasmopolitanRestartDesignSobol checks the restart design of spec
// §5.4: the centre first, then points whose continuous coordinates are the
// centre's except the perturbed ones, at least one per point and a
// fraction min(20/d_x, 1) of all, inside the initial box; and the perturbed
// values are a Sobol sequence: with every coordinate perturbed (d_x ≤ 20),
// the 15 points after the centre fall in 15 different of the 16 cells of
// width 1/16 of the box in every coordinate (the Sobol points 1..15
// together with the origin stratify them; 15 uniform draws do so with
// probability 16!/16¹⁵ ≈ 2·10⁻⁵).
func TestCasmopolitanRestartDesignSobol(t *testing.T) {
	for _, tc := range []struct {
		nx, n int
	}{{8, 16}, {60, 40}} {
		sp := samplertest.MixedSpace(t, 3, 3, tc.nx)
		cs, _ := newCasmoSpace(sp)
		c := New()
		c.InitPoints = tc.n
		h, st := restartHistory(t, c, cs, 11)
		pts, tr := c.design(cs, h, st)
		if len(pts) != tc.n || !slices.Equal(pts[0], tr.centre) {
			t.Fatalf("d_x = %d: %d design points, first %v; want %d starting at the centre %v", tc.nx, len(pts), pts[0], tc.n, tr.centre)
		}
		p := min(20/float64(tc.nx), 1)
		moved := 0
		cells := make([]map[int]bool, tc.nx)
		for j := range cells {
			cells[j] = map[int]bool{}
		}
		for k, u := range pts[1:] {
			if !cs.inside(u, tr) {
				t.Fatalf("d_x = %d: design point %d outside the initial trust region", tc.nx, k+1)
			}
			n := 0
			for j, i := range cs.cont {
				if u[i] == tr.centre[i] {
					continue
				}
				n++
				q := (u[i] - tr.lo[i]) / (tr.hi[i] - tr.lo[i])
				cells[j][int(16*q)] = true
			}
			if n == 0 {
				t.Fatalf("d_x = %d: design point %d has the centre's continuous part", tc.nx, k+1)
			}
			moved += n
		}
		frac := float64(moved) / float64((tc.n-1)*tc.nx)
		if sd := math.Sqrt(p * (1 - p) / float64((tc.n-1)*tc.nx)); math.Abs(frac-p) > 5*sd+1e-12 {
			t.Fatalf("d_x = %d: %.3f of the coordinates perturbed, want %.3f", tc.nx, frac, p)
		}
		if p == 1 {
			for j, cl := range cells {
				if len(cl) != tc.n-1 {
					t.Fatalf("d_x = %d: coordinate %d of the %d perturbations falls in %d cells of width 1/16; a Sobol sequence fills %d",
						tc.nx, j, tc.n-1, len(cl), tc.n-1)
				}
			}
		}
		// The design is a function of the history: a fresh instance
		// replays it.
		d := New()
		d.InitPoints, d.FailTol, d.LhInit = c.InitPoints, c.FailTol, c.LhInit
		again, _ := d.design(cs, h, d.replay(cs, h))
		for k := range pts {
			if !slices.Equal(pts[k], again[k]) {
				t.Fatalf("d_x = %d: design point %d differs on a fresh instance", tc.nx, k)
			}
		}
	}
}

// TestCasmopolitanRestartBeta checks the theoretical β_i of the guided
// restart (RestartBetaTheory): the value of Theorem 3 [000 App. C.3.4;
// spec §3.4] with ζ = 0.1 and i = epoch + 1, and a centre that minimises
// μ − √β_i σ, which differs from the default's μ − 1.96σ here.
func TestCasmopolitanRestartBeta(t *testing.T) {
	sp := samplertest.MixedSpace(t, 5, 3, 1)
	cs, _ := newCasmoSpace(sp)
	for _, i := range []int{1, 2, 7} {
		want := 2 * math.Log(math.Pow(3, 5)*float64(i*i)*math.Pi*math.Pi/(6*0.1))
		if got := restartBeta(cs, i); math.Abs(got-want) > 1e-12*want {
			t.Fatalf("β_%d = %v, want %v", i, got, want)
		}
	}
	// Pest's 5²⁵ configurations, with the product written out.
	pest, _ := newCasmoSpace(samplertest.MixedSpace(t, 25, 5, 0))
	if got, want := restartBeta(pest, 3), 2*math.Log(math.Pow(5, 25)*9*math.Pi*math.Pi/0.6); math.Abs(got-want) > 1e-12*want {
		t.Fatalf("Pest: β_3 = %v, want %v", got, want)
	}

	// The state after four epochs, with their bests in D*.
	c := New()
	c.InitPoints = 3
	h := &sampler.History{Space: sp, Seed: 5}
	st := &casmoState{epoch: 4, start: 40}
	rng := rand.New(rand.NewPCG(5, 5))
	for range st.epoch {
		u := sp.Sample(rng)
		st.bests = append(st.bests, sampler.Observation{X: u, Y: samplertest.MixedToy(sp, u)})
	}
	if k := c.restartKappa(cs, st.epoch); k != 1.96 {
		t.Fatalf("default κ = %v, want 1.96", k)
	}
	fixed, _ := c.design(cs, h, st)
	c.RestartBeta = RestartBetaTheory
	kappa := c.restartKappa(cs, st.epoch)
	if want := math.Sqrt(restartBeta(cs, 5)); kappa != want {
		t.Fatalf("theory κ at the fourth restart = %v, want √β_5 = %v", kappa, want)
	}
	theory, _ := c.design(cs, h, st)
	_, cands, m := c.restartCentre(cs, st.bests, kappa, rand.New(rand.NewPCG(h.Seed, casmoStreamRestart^uint64(st.start)<<20)))
	if m == nil {
		t.Fatal("the auxiliary GP was not fitted")
	}
	score := func(u []float64, k float64) float64 {
		mu, v := m.Predict(cs.features(u, nil))
		return mu - k*math.Sqrt(v)
	}
	for _, tc := range []struct {
		name   string
		centre []float64
		k      float64
	}{{"fixed", fixed[0], 1.96}, {"theory", theory[0], kappa}} {
		best := math.Inf(1)
		for _, u := range cands {
			best = min(best, score(u, tc.k))
		}
		if got := score(tc.centre, tc.k); got != best {
			t.Fatalf("%s: the centre scores %v, the best candidate %v (κ = %v)", tc.name, got, best, tc.k)
		}
	}
	if slices.Equal(fixed[0], theory[0]) {
		t.Fatal("the theoretical β_i chose the same centre as 1.96; the test needs a case where they differ")
	}
	c.RestartBeta = "ucb"
	if err := c.check(); err == nil {
		t.Fatal("an unknown RestartBeta was accepted")
	}
}
