package gpbo

import (
	"bytes"
	"context"
	"log/slog"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/problems/functions"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/samplertest"
	"github.com/boaopt/boa/space"
)

// TestInformationTheoreticAcquisitions: every acquisition built on its
// models, and log-EI marginalised by ESS, minimises Branin from the
// study file's options: each suggestion is a point of the model (no
// fallback logged), inside the box, untried, and the run beats the
// Sobol design it started from; the same seed gives the same run.
func TestInformationTheoreticAcquisitions(t *testing.T) {
	fn, err := functions.Get("branin", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range []sampler.Options{
		{"acquisition": "fitbo", "samples": "10"},
		{"acquisition": "fitbo-mm", "samples": "10"},
		{"acquisition": "mes", "marginalise": "ess", "samples": "5"},
		{"acquisition": "mes", "minima": "rff", "mes_samples": "2"},
		{"acquisition": "pes", "pes_samples": "2"},
		{"acquisition": "kg"},
		{"acquisition": "logei", "marginalise": "ess", "samples": "5"},
		{"acquisition": "ucb", "marginalise": "ess", "samples": "5"},
		{"acquisition": "ts", "thompson": "rff"},
	} {
		run := func() ([]float64, string) {
			var logs bytes.Buffer
			g := New()
			g.Logger = slog.New(slog.NewTextHandler(&logs, nil))
			g.Candidates = 256
			if err := g.Configure(opts); err != nil {
				t.Fatalf("%v: %v", opts, err)
			}
			sp := samplertest.UnitSpace(t, 2)
			h := &sampler.History{Space: sp, Seed: 3}
			var ys []float64
			for i := range 12 {
				h.Trials = i
				u, err := g.Suggest(context.Background(), h, rand.New(rand.NewPCG(3, uint64(i))))
				if err != nil {
					t.Fatalf("%v: %v", opts, err)
				}
				for _, v := range u {
					if !(v >= 0 && v <= 1) {
						t.Fatalf("%v: suggestion %v outside the unit box", opts, u)
					}
				}
				for _, o := range h.Observed {
					if slices.Equal(o.X, u) {
						t.Fatalf("%v: suggestion %d repeats a tried point %v", opts, i, u)
					}
				}
				y := fn.EvalUnit(u)
				ys = append(ys, y)
				h.Observed = append(h.Observed, sampler.Observation{X: u, Y: y})
			}
			return ys, logs.String()
		}
		ys, logs := run()
		if logs != "" {
			t.Errorf("%v fell back:\n%s", opts, logs)
		}
		if design, all := slices.Min(ys[:5]), slices.Min(ys); !(all < design) {
			t.Errorf("%v: best %.4g after 12 trials, no better than the design's %.4g", opts, all, design)
		}
		if again, _ := run(); !slices.Equal(ys, again) {
			t.Errorf("%v: the same seed gave %v, then %v", opts, ys, again)
		}
	}
}

// TestInformationTheoreticConstrained: with a constraint the surface is
// weighted by the probability of feasibility, and while no feasible point
// is known the probability alone leads: MES proposes inside the feasible
// half x0 < 0.5 once it has seen both halves.
func TestInformationTheoreticConstrained(t *testing.T) {
	sp := samplertest.UnitSpace(t, 2)
	h := &sampler.History{Space: sp, Constraints: []string{"c"}}
	rng := rand.New(rand.NewPCG(5, 5))
	for range 12 {
		u := sp.Sample(rng)
		slack := u[0] - 0.5 // ≤ 0 where it holds
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: math.Sin(5*u[1]) + u[0], Slack: []float64{slack}, Infeasible: slack > 0})
	}
	h.Trials = len(h.Observed)
	for _, a := range []string{"mes", "kg", "fitbo-mm"} {
		g := New()
		g.Candidates = 256
		if err := g.Configure(sampler.Options{"acquisition": a, "samples": "8"}); err != nil {
			t.Fatal(err)
		}
		u, err := g.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if u[0] >= 0.5 {
			t.Errorf("%s proposed %v, in the infeasible half", a, u)
		}
	}
}

// TestOptionsRefused: a mistyped option or value names what is accepted.
func TestOptionsRefused(t *testing.T) {
	for _, o := range []sampler.Options{{"acquisition": "fitbo", "marginalise": "map"}, {"minima": "exact"}, {"thompson": "gumbel"}, {"samples": "-1"}, {"kernel": "cosine"}} {
		if err := New().Configure(o); err == nil {
			t.Errorf("%v accepted", o)
		}
	}
	if _, err := sampler.NewWith("fitbo", sampler.Options{"samples": "7"}); err != nil {
		t.Errorf("fitbo with samples: %v", err)
	}
	sp := space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1})
	if err := sampler.CheckWith("gpbo", sampler.Options{"acquisition": "nope"}, sp); err == nil {
		t.Error("an unknown acquisition passed CheckWith")
	}
}
