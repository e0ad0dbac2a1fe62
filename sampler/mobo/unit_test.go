package mobo

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/graph"
	"github.com/boaopt/boa/problems/multiobjective"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/samplertest"
	"github.com/boaopt/boa/space"
)

func TestRegistered(t *testing.T) {
	s, err := sampler.New("mobo")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.(sampler.MultiObjective); !ok {
		t.Error("mobo is not a sampler.MultiObjective")
	}
	if _, ok := s.(sampler.Designer); !ok {
		t.Error("mobo is not a sampler.Designer")
	}
	if _, ok := s.(sampler.BatchSampler); !ok {
		t.Error("mobo is not a sampler.BatchSampler")
	}
}

// history is n Sobol-then-mobo evaluations of f, sequential.
func history(t *testing.T, s *MOBO, f func([]float64) []float64, sp *space.Space, objectives, n int) *sampler.History {
	t.Helper()
	h := &sampler.History{Space: sp, Seed: 7, Objectives: objectives}
	for i := range n {
		h.Trials = i
		u, err := s.Suggest(context.Background(), h, rand.New(rand.NewPCG(7, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		sp.Round(u)
		y := f(u)
		o := sampler.Observation{X: u, Y: y[0]}
		if objectives > 1 {
			o.Ys = y
		}
		h.Observed = append(h.Observed, o)
	}
	return h
}

// A batch holds distinct points, none of them evaluated or pending, on a
// continuous space and on a small categorical one, where the acquisition
// is maximised by enumeration and would otherwise return the same cell.
func TestBatchIsNewAndDistinct(t *testing.T) {
	zdt, _ := multiobjective.Get("zdt1", 4)
	cells := func(u []float64) []float64 { // two objectives of a 3-edge cell
		a, b := 0.0, 0.0
		for i, v := range u {
			a += math.Abs(v - 0.3*float64(i))
			b += v * v
		}
		return []float64{a, b}
	}
	small := space.MustNew(
		space.Param{Name: "a", Kind: space.Categorical, Choices: graph.NB201Ops},
		space.Param{Name: "b", Kind: space.Categorical, Choices: graph.NB201Ops},
		space.Param{Name: "c", Kind: space.Categorical, Choices: graph.NB201Ops},
	)
	for _, c := range []struct {
		name string
		sp   *space.Space
		f    func([]float64) []float64
	}{
		{"zdt1-4", samplertest.UnitSpace(t, 4), zdt.F},
		{"categorical", small, cells},
	} {
		s := New()
		h := history(t, s, c.f, c.sp, 2, 12)
		h.Pending = [][]float64{h.Observed[11].X, c.sp.Sample(rand.New(rand.NewPCG(1, 1)))}
		h.Observed = h.Observed[:11]
		us, err := s.SuggestBatch(context.Background(), h, 4, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, o := range h.Observed {
			seen[c.sp.Key(o.X)] = true
		}
		for _, u := range h.Pending {
			seen[c.sp.Key(u)] = true
		}
		for _, u := range us {
			c.sp.Round(u)
			if k := c.sp.Key(u); seen[k] {
				t.Errorf("%s: batch point %v was tried or proposed already", c.name, u)
			} else {
				seen[k] = true
			}
		}
	}
}

// A single-objective history (Ys nil) is optimised as by EI: the model's
// suggestions go below the design's best.
func TestSingleObjective(t *testing.T) {
	sp := samplertest.UnitSpace(t, 2)
	f := func(u []float64) []float64 { return []float64{(u[0]-0.3)*(u[0]-0.3) + (u[1]-0.7)*(u[1]-0.7)} }
	s := New()
	h := history(t, s, f, sp, 0, 20)
	design := slices.MinFunc(h.Observed[:5], func(a, b sampler.Observation) int { return cmpFloat(a.Y, b.Y) }).Y
	best := slices.MinFunc(h.Observed, func(a, b sampler.Observation) int { return cmpFloat(a.Y, b.Y) }).Y
	if !(best < design/10) {
		t.Errorf("best %v after 20 evaluations, design's best %v: EI on one objective did not improve", best, design)
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Beyond three objectives ParEGO proposes new points in the cube, and
// with a batch each point has its own weights.
func TestParEGO(t *testing.T) {
	sp := samplertest.UnitSpace(t, 3)
	anchors := [][]float64{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	f := func(u []float64) []float64 {
		y := make([]float64, len(anchors))
		for k, a := range anchors {
			y[k] = samplertest.SqDist(u, a)
		}
		return y
	}
	s := New()
	h := history(t, s, f, sp, 4, 14)
	us, err := s.SuggestBatch(context.Background(), h, 3, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	for i, u := range us {
		for _, v := range u {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("point %v outside the cube", u)
			}
		}
		for _, w := range us[:i] {
			if slices.Equal(u, w) {
				t.Errorf("the batch repeats %v", u)
			}
		}
	}
}

// In a constrained study the front is the feasible observations': with
// none feasible the acquisition is the probability of feasibility, and
// the suggestion moves to where the slack is predicted below 0.
func TestConstrained(t *testing.T) {
	sp := samplertest.UnitSpace(t, 2)
	zdt, _ := multiobjective.Get("zdt1", 2)
	h := &sampler.History{Space: sp, Seed: 1, Objectives: 2, Constraints: []string{"c"}}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 12 {
		u := []float64{rng.Float64(), 0.5 + 0.5*rng.Float64()} // x1 ≥ 0.5: infeasible
		y := zdt.F(u)
		slack := 0.4 - u[1] + 0.1*u[0] // feasible only for x1 < 0.4 + 0.1 x0
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: y[0], Ys: y, Slack: []float64{slack}, Infeasible: slack > 0})
	}
	h.Trials = len(h.Observed)
	u, err := New().Suggest(context.Background(), h, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if !(u[1] < 0.5) {
		t.Errorf("no feasible observation: suggested %v, want x1 below the infeasible observations", u)
	}
}

// The reference point: in two objectives the front's nadir plus 10 % of
// its range; in three, a dominance-resistant point (better by 1e-9 in
// two objectives, by far the worst in the third) does not set it.
func TestReference(t *testing.T) {
	near := func(a, b []float64) bool {
		for i := range a {
			if math.Abs(a[i]-b[i]) > 1e-8 {
				return false
			}
		}
		return true
	}
	if got, want := reference([][]float64{{0, 0.8}, {0.2, 0.5}, {0.6, 0.1}}, 0.1), []float64{0.66, 0.87}; !near(got, want) {
		t.Errorf("2-D reference %v, want %v", got, want)
	}
	if got, want := reference([][]float64{{0.3, 0.4}}, 0.1), []float64{0.4, 0.5}; !near(got, want) {
		t.Errorf("reference of one point %v, want %v", got, want)
	}
	front := [][]float64{{0.05, 0.45, 0.5}, {0.5, 0.05, 0.45}, {0.45, 0.5, 0.05}, {3, 1e-9, 1e-9}}
	got := reference(front, 0.1)
	if want := []float64{0.5 + 0.045, 0.5 + 0.05, 0.5 + 0.05}; !near(got, want) {
		t.Errorf("3-D reference %v, want %v (the point (3, 0, 0) left out)", got, want)
	}
}

func TestConfigure(t *testing.T) {
	s, err := sampler.NewWith("mobo", sampler.Options{"margin": "0.1", "init_points": "8", "rho": "0.1"})
	if err != nil {
		t.Fatal(err)
	}
	if m := s.(*MOBO); m.Margin != 0.1 || m.InitPoints != 8 || m.Rho != 0.1 {
		t.Errorf("configured %+v", m)
	}
	for _, bad := range []sampler.Options{{"margin": "0"}, {"margin": "x"}, {"kappa": "2"}} {
		if _, err := sampler.NewWith("mobo", bad); err == nil {
			t.Errorf("NewWith(mobo, %v) accepted", bad)
		}
	}
}

// Kriging Believer in the front as well as in the GPs: a batch's points
// do not crowd beside each other or beside the pending ones (gpbo's
// TestPendingPointsAreNotNearlyRepeated, in several objectives). With
// the fantasies in the GPs alone, two pairs of this batch lay 6e-5
// apart, along ZDT1's front.
func TestBatchIsSpread(t *testing.T) {
	zdt, _ := multiobjective.Get("zdt1", 4)
	sp := samplertest.UnitSpace(t, 4)
	s := New()
	h := history(t, s, zdt.F, sp, 2, 30)
	h.Pending = [][]float64{h.Observed[29].X}
	h.Observed = h.Observed[:29]
	us, err := s.SuggestBatch(context.Background(), h, 6, rand.New(rand.NewPCG(2, 3)))
	if err != nil {
		t.Fatal(err)
	}
	pts := append(slices.Clone(h.Pending), us...)
	for i, u := range pts {
		for _, w := range pts[:i] {
			if d := math.Sqrt(samplertest.SqDist(u, w)); d < 1e-3 {
				t.Errorf("points %v and %v are %.2g apart", u, w, d)
			}
		}
	}
}
