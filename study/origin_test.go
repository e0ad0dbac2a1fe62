package study

import (
	"context"
	"slices"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/casmopolitan"
	"github.com/boaopt/boa/sampler/cocabo"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/sampler/tpe"
	"github.com/boaopt/boa/space"
)

// TestOriginsAreRecorded: each trial keeps how its point was chosen, as
// the sampler said when it was asked (sampler.Designer), and the history
// gives it back to the sampler. Six asks before any result are all design
// points of a CoCaBO design of four (the half rule: two beyond the
// design), the next ask is the model's even while design trial 0 still
// runs, a queued configuration is the user's, and a sampler that does not
// say leaves the origin empty.
func TestOriginsAreRecorded(t *testing.T) {
	c := cocabo.New()
	c.InitPoints, c.Candidates = 4, 100
	s := newStudy(t, Options{Sampler: c, Seed: 5})
	var asked []Trial
	ask := func() Trial {
		t.Helper()
		tr, err := s.Ask(bg)
		if err != nil {
			t.Fatal(err)
		}
		asked = append(asked, tr)
		return tr
	}
	for range 6 {
		ask()
	}
	for _, tr := range asked[1:] {
		if err := s.Tell(bg, tr.ID, Result{Value: tr.Float("x")}); err != nil {
			t.Fatal(err)
		}
	}
	model := ask()
	if _, err := s.Enqueue(bg, space.Assignment{"x": 0.5, "n": int64(2), "act": "tanh"}); err != nil {
		t.Fatal(err)
	}
	queued := ask()
	want := []sampler.Origin{"design", "design", "design", "design", "design", "design", "model", "user"}
	var got []sampler.Origin
	for _, tr := range trials(t, s) {
		got = append(got, tr.Origin)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("origins %v, want %v", got, want)
	}
	if model.Origin != sampler.OriginModel || queued.Origin != sampler.OriginUser {
		t.Errorf("asked trials carry origins %q and %q, want model and user", model.Origin, queued.Origin)
	}

	h, err := s.history(mustRecords(t, s))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range h.Observed {
		if o.Origin != sampler.OriginDesign {
			t.Errorf("the history gives the sampler origin %q for a design point", o.Origin)
		}
	}

	plain := newStudy(t, Options{Sampler: &recorder{}, Seed: 5})
	if tr, err := plain.Ask(bg); err != nil || tr.Origin != sampler.OriginUnrecorded {
		t.Errorf("a sampler that does not say: origin %q, %v; want none", tr.Origin, err)
	}
}

// TestSequentialOriginsFollowPositions: in a sequential study the design
// points are exactly the first InitPoints trials, so the replays read the
// same design from the origins as from the positions, and a study run one
// trial at a time makes the same suggestions as before origins were kept.
func TestSequentialOriginsFollowPositions(t *testing.T) {
	const n0, trialsN = 4, 9
	gpbo, onehot, cocabo, casmo, tpe := gpbo.New(), gpbo.NewOneHot(), cocabo.New(), casmopolitan.New(), tpe.New()
	gpbo.InitPoints, onehot.InitPoints, cocabo.InitPoints, casmo.InitPoints, tpe.Startup = n0, n0, n0, n0, n0
	cocabo.Candidates, onehot.Candidates = 100, 100
	for _, smp := range []sampler.Sampler{gpbo, onehot, cocabo, casmo, tpe} {
		s := newStudy(t, Options{Sampler: smp, Seed: 2})
		err := s.Optimize(bg, func(_ context.Context, tr *Trial) (float64, error) { return tr.Float("x"), nil }, trialsN, OptimizeOptions{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range trials(t, s) {
			if want := map[bool]sampler.Origin{true: "design", false: "model"}[tr.Number < n0]; tr.Origin != want {
				t.Errorf("%s: trial %d has origin %q, want %q", smp.Name(), tr.Number, tr.Origin, want)
			}
		}
	}
}
