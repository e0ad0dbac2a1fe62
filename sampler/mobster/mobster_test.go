package mobster

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/samplertest"
)

// TestRegistered: mobster is registered, multi-fidelity, a Designer and
// Configurable, and refuses a bad option with what it accepts.
func TestRegistered(t *testing.T) {
	s, err := sampler.New("mobster")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.(sampler.MultiFidelity); !ok {
		t.Error("mobster is not sampler.MultiFidelity")
	}
	if _, ok := s.(sampler.Designer); !ok {
		t.Error("mobster is not sampler.Designer")
	}
	if _, err := sampler.NewWith("mobster", sampler.Options{"max_step": "52", "estimator": "tse-ema", "gamma": "0.9"}); err != nil {
		t.Errorf("good options refused: %v", err)
	}
	for _, bad := range []sampler.Options{{"max_step": "0"}, {"estimator": "tsx"}, {"gamma": "2"}, {"colour": "red"}} {
		if _, err := sampler.NewWith("mobster", bad); err == nil {
			t.Errorf("options %v accepted", bad)
		}
	}
}

// TestPoints: reports sit at their log-scaled step, final values at 1,
// and the estimator sums each curve with its final value as its end.
func TestPoints(t *testing.T) {
	sp := samplertest.UnitSpace(t, 1)
	h := &sampler.History{Space: sp,
		Partial:  []sampler.Partial{{X: []float64{0.5}, Step: 1, Y: 3}, {X: []float64{0.5}, Step: 3, Y: 2}, {X: []float64{0.2}, Step: 1, Y: math.NaN()}},
		Observed: []sampler.Observation{{X: []float64{0.5}, Y: 1}}}
	m := New()
	pts, err := m.points(h)
	if err != nil {
		t.Fatal(err)
	}
	want := []point{{u: []float64{0.5}, z: math.Log(2) / math.Log(4), y: 3}, {u: []float64{0.5}, z: 1, y: 2}, {u: []float64{0.5}, z: 1, y: 1, last: true}}
	if len(pts) != len(want) {
		t.Fatalf("points %v, want %v", pts, want)
	}
	for i := range want {
		if math.Abs(pts[i].z-want[i].z) > 1e-12 || pts[i].y != want[i].y || pts[i].last != want[i].last {
			t.Errorf("point %d: %+v, want %+v", i, pts[i], want[i])
		}
	}
	m.MaxStep, m.Estimator = 7, "tse"
	if pts, err = m.points(h); err != nil {
		t.Fatal(err)
	}
	if got := []float64{pts[0].y, pts[1].y, pts[2].y}; !slices.Equal(got, []float64{3, 5, 6}) {
		t.Errorf("TSE values %v, want the running sums 3, 5, 6", got)
	}
	if math.Abs(pts[1].z-2.0/3) > 1e-12 || pts[2].z != 1 {
		t.Errorf("with max step 7: z %v and %v, want log 4/log 8 = 2/3 and 1", pts[1].z, pts[2].z)
	}
}

// TestAcquisitionLevel: the largest fidelity with threshold observations,
// the smallest when none has (Syne Tune's "bohb" rule).
func TestAcquisitionLevel(t *testing.T) {
	var pts []point
	for _, z := range []float64{0.2, 0.2, 0.2, 0.2, 0.6, 0.6, 0.6, 1, 1} {
		pts = append(pts, point{z: z})
	}
	if z := acquisitionLevel(pts, 3); z != 0.6 {
		t.Errorf("level %v, want 0.6", z)
	}
	if z := acquisitionLevel(pts, 5); z != 0.2 {
		t.Errorf("level %v with none enough, want the smallest 0.2", z)
	}
}

// TestSubsample: every configuration's last observation is kept, then the
// highest fidelities.
func TestSubsample(t *testing.T) {
	var pts []point
	for c := range 10 {
		for s := 1; s <= 10; s++ {
			pts = append(pts, point{u: []float64{float64(c)}, z: float64(s) / 10, last: s == 10-c%3})
		}
	}
	got := subsample(pts, 30, rand.New(rand.NewPCG(1, 2)))
	if len(got) != 30 {
		t.Fatalf("%d points, want 30", len(got))
	}
	lasts := 0
	for _, p := range got {
		if p.last {
			lasts++
		}
		if !p.last && p.z < 0.8 {
			t.Errorf("kept %+v, below the highest fidelities", p)
		}
	}
	if lasts != 10 {
		t.Errorf("%d last points kept, want all 10", lasts)
	}
}

// TestSuggest: past the design the model proposes a new point that
// leaves the pending ones, in the region the data say is good.
func TestSuggest(t *testing.T) {
	sp := samplertest.UnitSpace(t, 2)
	f := func(u []float64, step int64) float64 {
		return (u[0]-0.2)*(u[0]-0.2) + (u[1]-0.7)*(u[1]-0.7) + 1/float64(step)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	h := &sampler.History{Space: sp, Trials: 30}
	for range 30 {
		u := sp.Sample(rng)
		for s := int64(1); s <= 9; s *= 3 {
			h.Partial = append(h.Partial, sampler.Partial{X: u, Step: s, Y: f(u, s)})
		}
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: f(u, 27)})
	}
	m := New()
	if m.Designing(h) {
		t.Fatal("still designing with 30 configurations")
	}
	var got [][]float64
	for range 3 {
		u, err := m.Suggest(context.Background(), h, rand.New(rand.NewPCG(5, uint64(len(got)))))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range got {
			if math.Hypot(u[0]-p[0], u[1]-p[1]) < 1e-6 {
				t.Errorf("proposal %v repeats the pending %v", u, p)
			}
		}
		got = append(got, u)
		h.Pending = append(h.Pending, u)
		h.Trials++
	}
	if d := math.Hypot(got[0][0]-0.2, got[0][1]-0.7); d > 0.25 {
		t.Errorf("first proposal %v is %.2f from the optimum (0.2, 0.7)", got[0], d)
	}
}

// TestOnlyNonFinite: with nothing but non-finite values past the design,
// a random untried point, not a panic.
func TestOnlyNonFinite(t *testing.T) {
	sp := samplertest.UnitSpace(t, 1)
	h := &sampler.History{Space: sp, Trials: 6}
	for i := range 6 {
		h.Observed = append(h.Observed, sampler.Observation{X: []float64{float64(i) / 6}, Y: math.NaN()})
	}
	if _, err := New().Suggest(context.Background(), h, rand.New(rand.NewPCG(1, 1))); err != nil {
		t.Fatal(err)
	}
}
