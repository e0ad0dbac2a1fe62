package study

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
)

func testSpace(t *testing.T) *space.Space {
	t.Helper()
	sp, err := space.New(
		space.Param{Name: "x", Kind: space.Float, Low: -2, High: 2},
		space.Param{Name: "n", Kind: space.Int, Low: 1, High: 5},
		space.Param{Name: "act", Kind: space.Categorical, Choices: []string{"relu", "tanh"}},
	)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func newStudy(t *testing.T, o Options) *Study {
	t.Helper()
	if o.Sampler == nil {
		o.Sampler = sampler.Random{}
	}
	s, err := New(testSpace(t), o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestAskTell(t *testing.T) {
	s := newStudy(t, Options{Seed: 1})
	ctx := context.Background()
	tr, err := s.Ask(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Number != 0 || tr.State != Running {
		t.Fatalf("first trial = #%d %s, want #0 RUNNING", tr.Number, tr.State)
	}
	if err := s.space.Validate(tr.Params); err != nil {
		t.Fatalf("asked params invalid: %v", err)
	}
	if err := s.Tell(tr.Number, 1.5, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Tell(tr.Number, 2, nil); !errors.Is(err, ErrFinished) {
		t.Fatalf("second tell: err = %v, want ErrFinished", err)
	}
	if err := s.Tell(7, 2, nil); err == nil {
		t.Fatal("tell of an unknown trial succeeded")
	}
	best, ok := s.Best()
	if !ok || best.Value != 1.5 {
		t.Fatalf("best = %v %v, want 1.5", best.Value, ok)
	}
}

func TestBadResultsFailTheTrialOnly(t *testing.T) {
	for _, tc := range []struct {
		name   string
		value  float64
		err    error
		reason string
	}{
		{"nan", math.NaN(), nil, "NaN"},
		{"inf", math.Inf(1), nil, "+Inf"},
		{"error", 0, errors.New("training diverged"), "training diverged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStudy(t, Options{Seed: 2})
			ok, _ := s.Ask(context.Background())
			bad, _ := s.Ask(context.Background())
			if err := s.Tell(ok.Number, 3, nil); err != nil {
				t.Fatal(err)
			}
			if err := s.Tell(bad.Number, tc.value, tc.err); err != nil {
				t.Fatal(err)
			}
			got := s.Trials()[bad.Number]
			if got.State != Failed || !strings.Contains(got.Reason, tc.reason) {
				t.Fatalf("trial = %s %q, want FAILED mentioning %q", got.State, got.Reason, tc.reason)
			}
			if h := s.history(); len(h.Observed) != 1 || len(h.Pending) != 0 {
				t.Fatalf("history has %d observed, %d pending; want 1, 0", len(h.Observed), len(h.Pending))
			}
		})
	}
}

func TestMaximizeNegatesForTheSampler(t *testing.T) {
	s := newStudy(t, Options{Direction: Maximize, Seed: 3})
	for _, v := range []float64{1, 5, 3} {
		tr, _ := s.Ask(context.Background())
		_ = s.Tell(tr.Number, v, nil)
	}
	best, _ := s.Best()
	if best.Value != 5 {
		t.Fatalf("best = %v, want 5", best.Value)
	}
	for i, o := range s.history().Observed {
		if want := -[]float64{1, 5, 3}[i]; o.Y != want {
			t.Fatalf("observation %d: internal y = %v, want %v", i, o.Y, want)
		}
	}
}

func TestOptimizeRecordsPanicsAndErrors(t *testing.T) {
	s := newStudy(t, Options{Seed: 4})
	var calls int
	obj := func(_ context.Context, tr Trial) (float64, error) {
		calls++
		switch tr.Number % 3 {
		case 0:
			panic("boom")
		case 1:
			return 0, errors.New("bad config")
		}
		return tr.Float("x"), nil
	}
	if err := s.Optimize(context.Background(), obj, 9, OptimizeOptions{}); err != nil {
		t.Fatal(err)
	}
	states := map[State]int{}
	for _, tr := range s.Trials() {
		states[tr.State]++
		if tr.Number%3 == 0 && !strings.Contains(tr.Reason, "panicked: boom") {
			t.Fatalf("trial %d reason %q", tr.Number, tr.Reason)
		}
	}
	if calls != 9 || states[Failed] != 6 || states[Complete] != 3 {
		t.Fatalf("calls %d, states %v; want 9 calls, 6 FAILED, 3 COMPLETE", calls, states)
	}
}

func TestOptimizeWrongParamKindFailsTrial(t *testing.T) {
	s := newStudy(t, Options{Seed: 5})
	obj := func(_ context.Context, tr Trial) (float64, error) { return tr.Float("act"), nil }
	if err := s.Optimize(context.Background(), obj, 2, OptimizeOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, tr := range s.Trials() {
		if tr.State != Failed || !strings.Contains(tr.Reason, `parameter "act" is string`) {
			t.Fatalf("trial %d: %s %q", tr.Number, tr.State, tr.Reason)
		}
	}
}

// recorder is a sampler that remembers how many trials were pending at
// each suggestion.
type recorder struct {
	mu      sync.Mutex
	pending []int
}

func (r *recorder) Name() string { return "recorder" }
func (r *recorder) Suggest(_ context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	r.mu.Lock()
	r.pending = append(r.pending, len(h.Pending))
	r.mu.Unlock()
	return h.Space.Sample(rng), nil
}

func TestOptimizeWorkersPassPendingTrials(t *testing.T) {
	rec := &recorder{}
	s := newStudy(t, Options{Sampler: rec, Seed: 6})
	const workers = 4
	start := make(chan struct{})
	var running sync.WaitGroup
	running.Add(workers)
	obj := func(_ context.Context, tr Trial) (float64, error) {
		if tr.Number < workers {
			running.Done()
			<-start // hold the first trials so the others see them running
		}
		return tr.Float("x"), nil
	}
	go func() { running.Wait(); close(start) }()
	if err := s.Optimize(context.Background(), obj, 20, OptimizeOptions{Workers: workers}); err != nil {
		t.Fatal(err)
	}
	if n := len(s.Trials()); n != 20 {
		t.Fatalf("%d trials, want 20", n)
	}
	if want := []int{0, 1, 2, 3}; !slices.Equal(rec.pending[:4], want) {
		t.Fatalf("pending counts of the first asks = %v, want %v", rec.pending[:4], want)
	}
	for _, tr := range s.Trials() {
		if tr.State != Complete {
			t.Fatalf("trial %d is %s", tr.Number, tr.State)
		}
	}
}

func TestOptimizeInterrupted(t *testing.T) {
	s := newStudy(t, Options{Seed: 7})
	ctx, cancel := context.WithCancel(context.Background())
	obj := func(ctx context.Context, tr Trial) (float64, error) {
		if tr.Number == 2 {
			cancel()
			<-ctx.Done()
			return 0, ctx.Err()
		}
		return 1, nil
	}
	err := s.Optimize(ctx, obj, 10, OptimizeOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	trials := s.Trials()
	if len(trials) != 3 {
		t.Fatalf("%d trials after interruption, want 3", len(trials))
	}
	if last := trials[2]; last.State != Failed || !strings.HasPrefix(last.Reason, "interrupted") {
		t.Fatalf("interrupted trial: %s %q", last.State, last.Reason)
	}
}

func TestSameSeedSameRun(t *testing.T) {
	run := func(seed uint64) []float64 {
		s := newStudy(t, Options{Seed: seed})
		_ = s.Optimize(context.Background(), func(_ context.Context, tr Trial) (float64, error) {
			return tr.Float("x"), nil
		}, 5, OptimizeOptions{})
		var xs []float64
		for _, tr := range s.Trials() {
			xs = append(xs, tr.Float("x"))
		}
		return xs
	}
	if a, b := run(9), run(9); !slices.Equal(a, b) {
		t.Fatalf("same seed, different runs: %v vs %v", a, b)
	}
	if a, b := run(9), run(10); slices.Equal(a, b) {
		t.Fatal("different seeds gave the same run")
	}
}

func TestParseDirection(t *testing.T) {
	for in, want := range map[string]Direction{"minimize": Minimize, "MAX": Maximize, "maximise": Maximize, "": Minimize} {
		if got, err := ParseDirection(in); err != nil || got != want {
			t.Errorf("ParseDirection(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseDirection("up"); err == nil {
		t.Error("ParseDirection(up) succeeded")
	}
}
