package study

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/auto"
	"github.com/boaopt/boa/sampler/casmopolitan"
	"github.com/boaopt/boa/sampler/cocabo"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/sampler/playbook"
	"github.com/boaopt/boa/sampler/random"
	"github.com/boaopt/boa/sampler/tpe"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/transform"
)

var bg = context.Background()

func testSpace(t testing.TB) *space.Space {
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
		o.Sampler = random.Uniform{}
	}
	s, err := New(testSpace(t), o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func trials(t *testing.T, s *Study) []Trial {
	t.Helper()
	ts, err := s.Trials(bg)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func TestAskTell(t *testing.T) {
	s := newStudy(t, Options{Seed: 1})
	tr, err := s.Ask(bg)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Number != 0 || tr.State != Running {
		t.Fatalf("first trial = #%d %s, want #0 RUNNING", tr.Number, tr.State)
	}
	if err := s.space.Validate(tr.Params); err != nil {
		t.Fatalf("asked params invalid: %v", err)
	}
	if err := s.Tell(bg, tr.ID, Result{Value: 1.5, Metrics: map[string]float64{"acc": 0.9}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Tell(bg, tr.ID, Result{Value: 2}); !errors.Is(err, ErrFinished) {
		t.Fatalf("second tell: err = %v, want ErrFinished", err)
	}
	if err := s.Tell(bg, 999, Result{Value: 2}); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("tell of an unknown trial: err = %v, want ErrNotFound", err)
	}
	best, ok, err := s.Best(bg)
	if err != nil || !ok || best.Value != 1.5 || best.Metrics["acc"] != 0.9 {
		t.Fatalf("best = %+v %v %v, want value 1.5 with acc 0.9", best, ok, err)
	}
	if !slices.Equal(best.X, tr.X) || best.Params["act"] != tr.Params["act"] || best.Params["n"] != tr.Params["n"] {
		t.Fatalf("stored trial %v differs from asked %v", best.Params, tr.Params)
	}
}

func TestBadResultsFailTheTrialOnly(t *testing.T) {
	for _, tc := range []struct {
		name   string
		res    Result
		reason string
	}{
		{"nan", Result{Value: math.NaN()}, "NaN"},
		{"inf", Result{Value: math.Inf(1)}, "+Inf"},
		{"error", Result{Err: errors.New("training diverged")}, "training diverged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStudy(t, Options{Seed: 2})
			ok, _ := s.Ask(bg)
			bad, _ := s.Ask(bg)
			if err := s.Tell(bg, ok.ID, Result{Value: 3}); err != nil {
				t.Fatal(err)
			}
			if err := s.Tell(bg, bad.ID, tc.res); err != nil {
				t.Fatal(err)
			}
			got := trials(t, s)[bad.Number]
			if got.State != Failed || !strings.Contains(got.Reason, tc.reason) {
				t.Fatalf("trial = %s %q, want FAILED mentioning %q", got.State, got.Reason, tc.reason)
			}
			recs, _ := s.store.Trials(bg, s.ID())
			if h, _ := s.history(recs); len(h.Observed) != 1 || len(h.Pending) != 0 {
				t.Fatalf("history has %d observed, %d pending; want 1, 0", len(h.Observed), len(h.Pending))
			}
		})
	}
}

func TestMaximizeNegatesForTheSampler(t *testing.T) {
	s := newStudy(t, Options{Direction: Maximize, Seed: 3})
	for _, v := range []float64{1, 5, 3} {
		tr, _ := s.Ask(bg)
		_ = s.Tell(bg, tr.ID, Result{Value: v})
	}
	best, _, _ := s.Best(bg)
	if best.Value != 5 {
		t.Fatalf("best = %v, want 5", best.Value)
	}
	recs, _ := s.store.Trials(bg, s.ID())
	h, _ := s.history(recs)
	for i, o := range h.Observed {
		if want := -[]float64{1, 5, 3}[i]; o.Y != want {
			t.Fatalf("observation %d: internal y = %v, want %v", i, o.Y, want)
		}
	}
}

func TestBudget(t *testing.T) {
	s := newStudy(t, Options{Seed: 4, Budget: 3})
	for range 3 {
		if _, err := s.Ask(bg); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Ask(bg); !errors.Is(err, ErrBudget) {
		t.Fatalf("fourth ask: err = %v, want ErrBudget", err)
	}
	calls := 0
	err := s.Optimize(bg, func(context.Context, *Trial) (float64, error) { calls++; return 0, nil }, 0, OptimizeOptions{})
	if err != nil || calls != 0 {
		t.Fatalf("Optimize on a used budget: %d calls, err %v", calls, err)
	}
}

func TestOptimizeRecordsPanicsAndErrors(t *testing.T) {
	s := newStudy(t, Options{Seed: 4})
	var calls int
	obj := func(_ context.Context, tr *Trial) (float64, error) {
		calls++
		switch tr.Number % 3 {
		case 0:
			panic("boom")
		case 1:
			return 0, errors.New("bad config")
		}
		return tr.Float("x"), nil
	}
	if err := s.Optimize(bg, obj, 9, OptimizeOptions{}); err != nil {
		t.Fatal(err)
	}
	states := map[State]int{}
	for _, tr := range trials(t, s) {
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
	obj := func(_ context.Context, tr *Trial) (float64, error) { return tr.Float("act"), nil }
	if err := s.Optimize(bg, obj, 2, OptimizeOptions{}); !errors.Is(err, ErrAllFailed) {
		t.Fatalf("Optimize = %v, want every trial failed", err)
	}
	for _, tr := range trials(t, s) {
		if want := fmt.Sprintf(`trial %d: parameter "act" is a string (categorical), not a float: read it with t.String("act")`, tr.Number); tr.State != Failed || tr.Reason != want {
			t.Fatalf("trial %d: %s %q", tr.Number, tr.State, tr.Reason)
		}
	}
}

func TestMetricsAndReports(t *testing.T) {
	s := newStudy(t, Options{Seed: 5})
	obj := func(ctx context.Context, tr *Trial) (float64, error) {
		for step := range int64(3) {
			if err := tr.Report(ctx, step, float64(10-step)); err != nil {
				return 0, err
			}
		}
		tr.Metrics["size_kb"] = 42
		return 7, nil
	}
	if err := s.Optimize(bg, obj, 1, OptimizeOptions{}); err != nil {
		t.Fatal(err)
	}
	tr := trials(t, s)[0]
	if tr.Metrics["size_kb"] != 42 || len(tr.Reports) != 3 || tr.Reports[2] != (Report{Step: 2, Value: 8}) {
		t.Fatalf("metrics %v, reports %v", tr.Metrics, tr.Reports)
	}
}

// recorder is a sampler that remembers how many trials were pending at
// each suggestion, and the budget it was told.
type recorder struct {
	mu       sync.Mutex
	pending  []int
	budget   int
	failed   [][]float64
	pruned   [][]float64
	observed []sampler.Observation
}

func (r *recorder) Name() string { return "random" }
func (r *recorder) Suggest(_ context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	r.mu.Lock()
	r.pending = append(r.pending, len(h.Pending))
	r.budget = h.Budget
	r.failed = h.Failed
	r.observed = h.Observed
	r.pruned = h.Pruned
	r.mu.Unlock()
	return h.Space.Sample(rng), nil
}

// TestSamplerSeesBudget: the sampler's history carries the study's budget
// (CoCaBO sets its bandits' horizon by it).
func TestSamplerSeesBudget(t *testing.T) {
	rec := &recorder{}
	s := newStudy(t, Options{Sampler: rec, Seed: 6, Budget: 7})
	if _, err := s.Ask(bg); err != nil {
		t.Fatal(err)
	}
	if rec.budget != 7 {
		t.Fatalf("the sampler saw budget %d, want 7", rec.budget)
	}
}

// TestSamplerSeesFailedTrials: the points of failed trials, by an error or
// by a NaN, reach the sampler as History.Failed, so that it does not
// propose them again; completed ones do not.
func TestSamplerSeesFailedTrials(t *testing.T) {
	rec := &recorder{}
	s := newStudy(t, Options{Sampler: rec, Seed: 6})
	var want [][]float64
	for i, r := range []Result{{Err: errors.New("boom")}, {Value: math.NaN()}, {Value: 1}} {
		tr, err := s.Ask(bg)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Tell(bg, tr.ID, r); err != nil {
			t.Fatal(err)
		}
		if i < 2 {
			want = append(want, tr.X)
		}
	}
	if _, err := s.Ask(bg); err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(rec.failed, want, slices.Equal) {
		t.Fatalf("the sampler saw failed points %v, want %v", rec.failed, want)
	}
}

func TestOptimizeWorkersPassPendingTrials(t *testing.T) {
	rec := &recorder{}
	s := newStudy(t, Options{Sampler: rec, Seed: 6})
	const workers = 4
	start := make(chan struct{})
	var running sync.WaitGroup
	running.Add(workers)
	obj := func(_ context.Context, tr *Trial) (float64, error) {
		if tr.Number < workers {
			running.Done()
			<-start // hold the first trials so the others see them running
		}
		return tr.Float("x"), nil
	}
	go func() { running.Wait(); close(start) }()
	if err := s.Optimize(bg, obj, 20, OptimizeOptions{Workers: workers}); err != nil {
		t.Fatal(err)
	}
	ts := trials(t, s)
	if len(ts) != 20 {
		t.Fatalf("%d trials, want 20", len(ts))
	}
	if want := []int{0, 1, 2, 3}; !slices.Equal(rec.pending[:4], want) {
		t.Fatalf("pending counts of the first asks = %v, want %v", rec.pending[:4], want)
	}
	for _, tr := range ts {
		if tr.State != Complete {
			t.Fatalf("trial %d is %s", tr.Number, tr.State)
		}
	}
}

// TestInterruptedTrialIsRequeued: Ctrl-C fails the running trial as
// "interrupted" and queues its configuration, which the resumed study runs
// first, within the same budget.
func TestInterruptedTrialIsRequeued(t *testing.T) {
	s := newStudy(t, Options{Seed: 7, Budget: 5})
	ctx, cancel := context.WithCancel(bg)
	obj := func(ctx context.Context, tr *Trial) (float64, error) {
		if tr.Number == 2 {
			cancel()
			<-ctx.Done()
			return 0, ctx.Err()
		}
		return 1, nil
	}
	if err := s.Optimize(ctx, obj, 0, OptimizeOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	ts := trials(t, s)
	if len(ts) != 4 || ts[2].State != Failed || !strings.HasPrefix(ts[2].Reason, "interrupted") {
		t.Fatalf("after interruption: %d trials, trial 2 %s %q; want 4 trials, trial 2 FAILED interrupted", len(ts), ts[2].State, ts[2].Reason)
	}
	if ts[3].State != Waiting || ts[3].RetryOf != 2 {
		t.Fatalf("trial 3 = %s retry of %d, want WAITING retry of 2", ts[3].State, ts[3].RetryOf)
	}
	var xs []float64
	err := s.Optimize(bg, func(_ context.Context, tr *Trial) (float64, error) {
		xs = append(xs, tr.Float("x"))
		return 1, nil
	}, 0, OptimizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts = trials(t, s)
	if len(xs) != 3 || xs[0] != ts[2].Params["x"] {
		t.Fatalf("resumed run evaluated %v; want 3 trials starting with the interrupted x = %v", xs, ts[2].Params["x"])
	}
	if len(ts) != 6 || used(mustRecords(t, s)) != 5 {
		t.Fatalf("%d trials using %d of the budget; want 6 using 5", len(ts), used(mustRecords(t, s)))
	}
}

// TestPrunedTrialsAreNotRepeated: the sampler sees pruned trials
// (History.Pruned), and the model-based ones never propose a pruned
// configuration again. Before, 4 to 8 of the 16 suggestions after the
// initial design re-ran a pruned configuration.
func TestPrunedTrialsAreNotRepeated(t *testing.T) {
	sp, err := space.New(
		space.Param{Name: "a", Kind: space.Categorical, Choices: []string{"p", "q", "r"}},
		space.Param{Name: "b", Kind: space.Categorical, Choices: []string{"p", "q", "r"}},
		space.Param{Name: "c", Kind: space.Bool},
	)
	if err != nil {
		t.Fatal(err)
	}
	const init = 2
	gpbo, onehot, cocabo, casmo, tpe := gpbo.New(), gpbo.NewOneHot(), cocabo.New(), casmopolitan.New(), tpe.New()
	gpbo.InitPoints, onehot.InitPoints, cocabo.InitPoints, casmo.InitPoints, tpe.Startup = init, init, init, init, init
	playbook := playbook.New(true, false)
	playbook.Model.InitPoints = init
	for _, smp := range []sampler.Sampler{gpbo, onehot, cocabo, casmo, tpe, playbook} {
		s, err := New(sp, Options{Sampler: smp, Seed: 1, Budget: 18})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for i := range 18 { // as many trials as configurations, every other one pruned
			tr, err := s.Ask(bg)
			if err != nil {
				t.Fatal(err)
			}
			if k := sp.Key(tr.X); seen[k] {
				t.Errorf("%s: trial %d repeats %v", smp.Name(), i, tr.Params)
			} else {
				seen[k] = true
			}
			if err := s.Tell(bg, tr.ID, Result{Value: float64(i % 5), Pruned: i%2 == 1}); err != nil {
				t.Fatal(err)
			}
		}
	}
	rec := &recorder{}
	s := newStudy(t, Options{Sampler: rec, Seed: 2})
	tr, err := s.Ask(bg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Tell(bg, tr.ID, Result{Value: 1, Pruned: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ask(bg); err != nil {
		t.Fatal(err)
	}
	if len(rec.pruned) != 1 || !slices.Equal(rec.pruned[0], tr.X) || len(rec.observed) != 0 {
		t.Errorf("sampler saw pruned %v and observed %v; want the pruned trial's point only in History.Pruned", rec.pruned, rec.observed)
	}
}

func mustRecords(t *testing.T, s *Study) []storage.Trial {
	recs, err := s.store.Trials(bg, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestStaleTrialIsReapedAndRerun: a worker that stops heart-beating (as a
// killed process does) loses its trial to the next Ask, which re-runs the
// configuration once.
func TestStaleTrialIsReapedAndRerun(t *testing.T) {
	store := storage.NewMemory()
	spec := Spec{Name: "s", Space: testSpace(t), Sampler: "random", Seed: 8, Budget: 3}
	dead, err := Create(bg, store, spec)
	if err != nil {
		t.Fatal(err)
	}
	lost, err := dead.Ask(bg) // its worker dies without a heartbeat
	if err != nil {
		t.Fatal(err)
	}
	live, err := Open(bg, store, "s")
	if err != nil {
		t.Fatal(err)
	}
	live.SetLease(50 * time.Millisecond)
	time.Sleep(100 * time.Millisecond)
	var got []space.Assignment
	err = live.Optimize(bg, func(_ context.Context, tr *Trial) (float64, error) {
		got = append(got, tr.Params)
		return tr.Float("x"), nil
	}, 0, OptimizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts := trials(t, live)
	if ts[0].State != Failed || !strings.HasPrefix(ts[0].Reason, "stale") {
		t.Fatalf("lost trial: %s %q, want FAILED stale", ts[0].State, ts[0].Reason)
	}
	if len(got) != 3 || got[0]["x"] != lost.Params["x"] {
		t.Fatalf("evaluated %v; want 3 trials, the first re-running x = %v", got, lost.Params["x"])
	}
}

// TestTwoProcessesShareASQLiteStudy: two Study values on one SQLite file
// (as two processes would be) finish the budget with no duplicates.
func TestTwoProcessesShareASQLiteStudy(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "boa.db")
	open := func() *Study {
		store, err := storage.Open(bg, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		s, err := Create(bg, store, Spec{Name: "shared", Space: testSpace(t), Sampler: "gpbo", Seed: 9, Budget: 24})
		if errors.Is(err, storage.ErrExists) {
			s, err = Open(bg, store, "shared")
		}
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := open(), open()
	obj := func(_ context.Context, tr *Trial) (float64, error) {
		return tr.Float("x")*tr.Float("x") + float64(tr.Int("n")), nil
	}
	var wg sync.WaitGroup
	for _, s := range []*Study{a, b} {
		wg.Go(func() {
			if err := s.Optimize(bg, obj, 0, OptimizeOptions{Workers: 2}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	ts := trials(t, a)
	seen := map[string]bool{}
	for _, tr := range ts {
		if tr.State != Complete {
			t.Errorf("trial %d is %s (%s)", tr.Number, tr.State, tr.Reason)
		}
		k := a.space.Key(tr.X)
		if seen[k] {
			t.Errorf("configuration %s evaluated twice (trial %d, retry of %d, worker %s)", k, tr.Number, tr.RetryOf, tr.Worker)
		}
		seen[k] = true
	}
	if len(ts) != 24 {
		t.Fatalf("%d trials, want 24", len(ts))
	}
}

func TestSameSeedSameRun(t *testing.T) {
	run := func(seed uint64) []float64 {
		s := newStudy(t, Options{Seed: seed})
		_ = s.Optimize(bg, func(_ context.Context, tr *Trial) (float64, error) {
			return tr.Float("x"), nil
		}, 5, OptimizeOptions{})
		var xs []float64
		for _, tr := range trials(t, s) {
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

// batchRecorder is a BatchSampler that records the batch sizes it is asked
// for and returns distinct uniform points.
type batchRecorder struct{ recorder }

func (b *batchRecorder) SuggestBatch(_ context.Context, h *sampler.History, n int, rng *rand.Rand) ([][]float64, error) {
	b.mu.Lock()
	b.pending = append(b.pending, -n) // negative: a batch of n
	b.mu.Unlock()
	us := make([][]float64, n)
	for i := range us {
		us[i] = h.Space.Sample(rng)
	}
	return us, nil
}

func TestAskBatch(t *testing.T) {
	t.Run("sequential sampler sees the batch as pending", func(t *testing.T) {
		rec := &recorder{}
		s := newStudy(t, Options{Sampler: rec, Seed: 3, Budget: 6})
		ts, err := s.AskBatch(bg, 4)
		if err != nil || len(ts) != 4 {
			t.Fatalf("AskBatch(4) = %d trials, %v", len(ts), err)
		}
		if want := []int{0, 1, 2, 3}; !slices.Equal(rec.pending, want) {
			t.Fatalf("pending counts = %v, want %v", rec.pending, want)
		}
		for i, tr := range ts {
			if tr.Number != i || tr.State != Running {
				t.Fatalf("trial %d: number %d, state %s", i, tr.Number, tr.State)
			}
			if err := s.Tell(bg, tr.ID, Result{Value: float64(i)}); err != nil {
				t.Fatal(err)
			}
		}
		ts, err = s.AskBatch(bg, 4) // the budget leaves 2
		if err != nil || len(ts) != 2 {
			t.Fatalf("AskBatch(4) with 2 left = %d trials, %v", len(ts), err)
		}
		if _, err := s.AskBatch(bg, 4); !errors.Is(err, ErrBudget) {
			t.Fatalf("AskBatch on a used budget: err = %v, want ErrBudget", err)
		}
		if _, err := s.AskBatch(bg, 0); err == nil {
			t.Fatal("AskBatch(0) succeeded")
		}
	})
	t.Run("batch sampler proposes jointly", func(t *testing.T) {
		rec := &batchRecorder{}
		s := newStudy(t, Options{Sampler: rec, Seed: 3})
		if ts, err := s.AskBatch(bg, 3); err != nil || len(ts) != 3 {
			t.Fatalf("AskBatch(3) = %d trials, %v", len(ts), err)
		}
		if _, err := s.Ask(bg); err != nil {
			t.Fatal(err)
		}
		if want := []int{-3, 3}; !slices.Equal(rec.pending, want) {
			t.Fatalf("calls = %v, want one batch of 3 then one Suggest with 3 pending", rec.pending)
		}
	})
	t.Run("batches are recorded", func(t *testing.T) {
		// The trials of a batch share a batch number and a re-queued trial
		// keeps it: batch CoCaBO replays its EXP3.M agents by it.
		rec := &batchRecorder{}
		s := newStudy(t, Options{Sampler: rec, Seed: 3})
		first, err := s.AskBatch(bg, 3)
		if err != nil {
			t.Fatal(err)
		}
		for i, tr := range first {
			r := Result{Value: float64(i)}
			if i == 1 {
				r = Result{Err: context.Canceled} // re-queued as trial 3
			}
			if err := s.Tell(bg, tr.ID, r); err != nil {
				t.Fatal(err)
			}
		}
		second, err := s.AskBatch(bg, 3) // the waiting trial 3, then trials 4 and 5
		if err != nil || len(second) != 3 || second[0].RetryOf != 1 {
			t.Fatalf("second AskBatch(3) = %+v, %v; want the re-queued trial first", second, err)
		}
		for _, tr := range second {
			if err := s.Tell(bg, tr.ID, Result{Value: 1}); err != nil {
				t.Fatal(err)
			}
		}
		var got []int
		for _, r := range mustRecords(t, s) {
			got = append(got, r.Batch)
		}
		if want := []int{1, 1, 1, 1, 5, 5}; !slices.Equal(got, want) {
			t.Errorf("stored batches = %v, want %v", got, want)
		}
		if _, err := s.Ask(bg); err != nil {
			t.Fatal(err)
		}
		got = got[:0]
		for _, o := range rec.observed {
			got = append(got, o.Batch)
		}
		if want := []int{1, 1, 1, 5, 5}; !slices.Equal(got, want) {
			t.Errorf("batches of the sampler's observations = %v, want %v (trial 1 failed)", got, want)
		}
	})
	t.Run("a batch of one is Ask", func(t *testing.T) {
		a, b := newStudy(t, Options{Seed: 5}), newStudy(t, Options{Seed: 5})
		for range 3 {
			ta, err := a.Ask(bg)
			if err != nil {
				t.Fatal(err)
			}
			tb, err := b.AskBatch(bg, 1)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ta.X, tb[0].X) {
				t.Fatalf("Ask %v, AskBatch(1) %v", ta.X, tb[0].X)
			}
		}
	})
	t.Run("batches use the whole budget of a small space", func(t *testing.T) {
		// 9 configurations, a budget of 20 in batches of 4: auto's cocabo
		// proposes every configuration once, then repeats, as every
		// sampler does one at a time; it used to fail once fewer than 4
		// were new.
		sp := space.MustNew(
			space.Param{Name: "c", Kind: space.Categorical, Choices: []string{"a", "b", "c"}},
			space.Param{Name: "i", Kind: space.Int, Low: 1, High: 3},
		)
		s, err := New(sp, Options{Sampler: auto.New(), Seed: 3, Budget: 20})
		if err != nil {
			t.Fatal(err)
		}
		distinct := map[string]bool{}
		for {
			ts, err := s.AskBatch(bg, 4)
			if errors.Is(err, ErrBudget) {
				break
			}
			if err != nil {
				t.Fatalf("after %d distinct configurations: %v", len(distinct), err)
			}
			for _, tr := range ts {
				distinct[sp.Key(tr.X)] = true
				if err := s.Tell(bg, tr.ID, Result{Value: float64(tr.Params["i"].(int))}); err != nil {
					t.Fatal(err)
				}
			}
		}
		if trials, _ := s.Trials(bg); len(trials) != 20 || len(distinct) != 9 {
			t.Fatalf("%d trials, %d distinct configurations; want 20 and 9", len(trials), len(distinct))
		}
	})
}

// TestTransformReachesTheSampler: the sampler sees the transformed values,
// in the minimised sense; the study and its trials keep the values as told.
func TestTransformReachesTheSampler(t *testing.T) {
	values := []float64{1, math.E, math.E * math.E, math.E}
	for _, tc := range []struct {
		tf   transform.Transform
		dir  Direction
		want []float64
	}{
		{transform.None, Minimize, values},
		{transform.Log, Minimize, []float64{0, 1, 2, 1}},
		{transform.Log, Maximize, []float64{0, -1, -2, -1}},
		// Ranks 1, 3, 4, 3 of 4 (ties at the highest): Φ⁻¹ of 1/5, 3/5, 4/5, 3/5.
		{transform.Copula, Minimize, []float64{-0.8416212335729142, 0.2533471031357997, 0.8416212335729143, 0.2533471031357997}},
		{transform.Copula, Maximize, []float64{0.8416212335729142, -0.2533471031357997, -0.8416212335729143, -0.2533471031357997}},
	} {
		rec := &recorder{}
		s := newStudy(t, Options{Sampler: rec, Seed: 4, Direction: tc.dir, Transform: tc.tf})
		for _, v := range values {
			tr, err := s.Ask(bg)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Tell(bg, tr.ID, Result{Value: v}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Ask(bg); err != nil {
			t.Fatal(err)
		}
		got := make([]float64, len(rec.observed))
		for i, o := range rec.observed {
			got[i] = o.Y
		}
		if !slices.EqualFunc(got, tc.want, func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }) {
			t.Errorf("%v, %v: the sampler saw %v, want %v", tc.tf, tc.dir, got, tc.want)
		}
		if best, _, _ := s.Best(bg); best.Value != map[Direction]float64{Minimize: 1, Maximize: math.E * math.E}[tc.dir] {
			t.Errorf("%v, %v: best value %v is not a value as told", tc.tf, tc.dir, best.Value)
		}
	}
}

// TestLogTransformFailsNonPositiveValues: a value log cannot take fails its
// trial, with the value in the reason; a pruned trial's last value is not
// the model's and is kept as it is.
func TestLogTransformFailsNonPositiveValues(t *testing.T) {
	rec := &recorder{}
	s := newStudy(t, Options{Sampler: rec, Seed: 5, Transform: transform.Log})
	for _, r := range []Result{{Value: 2}, {Value: 0}, {Value: -0.5}, {Value: -1, Pruned: true}} {
		tr, _ := s.Ask(bg)
		if err := s.Tell(bg, tr.ID, r); err != nil {
			t.Fatal(err)
		}
	}
	ts := trials(t, s)
	for i, want := range []State{Complete, Failed, Failed, Pruned} {
		if ts[i].State != want {
			t.Errorf("trial %d is %s, want %s", i, ts[i].State, want)
		}
	}
	if r := ts[2].Reason; !strings.Contains(r, "-0.5") || !strings.Contains(r, "transform log needs values > 0") {
		t.Errorf("reason %q does not give the value and the transform", r)
	}
	// A value recorded past Tell, as a boa that ignores the transform
	// would, is kept from the model as a failure.
	tr, _ := s.Ask(bg)
	if err := s.store.FinishTrial(bg, tr.ID, storage.Finish{State: Complete, Value: new(float64)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ask(bg); err != nil {
		t.Fatal(err)
	}
	if len(rec.observed) != 1 || rec.observed[0].Y != math.Log(2) || len(rec.failed) != 3 {
		t.Errorf("the sampler saw %v observed, %d failed; want log 2 and 3", rec.observed, len(rec.failed))
	}
}

// TestTransformIsStored: a study's transform is kept with it in the
// storage, and a study made without one (or by an older boa) has none.
func TestTransformIsStored(t *testing.T) {
	store, err := storage.Open(bg, "sqlite:"+filepath.Join(t.TempDir(), "boa.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	for name, tf := range map[string]transform.Transform{"plain": transform.None, "logged": transform.Log, "ranked": transform.Copula} {
		if _, err := Create(bg, store, Spec{Name: name, Space: testSpace(t), Transform: tf}); err != nil {
			t.Fatal(err)
		}
		s, err := Open(bg, store, name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Transform() != tf {
			t.Errorf("study %s reopened with transform %v, want %v", name, s.Transform(), tf)
		}
	}
	if rec, _ := store.GetStudy(bg, "plain"); rec.Config != nil {
		t.Errorf("a study without a transform stores settings %s", rec.Config)
	}
	if _, err := Create(bg, store, Spec{Name: "bad", Space: testSpace(t), Transform: 7}); err == nil {
		t.Error("an unknown transform was accepted")
	}
}

// TestSamplerMustTakeTheSpace: a sampler that cannot work on the space
// (CoCaBO on a conditional one) is refused when the study is created, and
// nothing is stored, so the name stays free.
func TestSamplerMustTakeTheSpace(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "k", Kind: space.Categorical, Choices: []string{"a", "b"}},
		space.Param{Name: "d", Kind: space.Int, Low: 1, High: 3, When: map[string][]string{"k": {"a"}}},
		space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1},
	)
	store := storage.NewMemory()
	for _, name := range []string{"cocabo", "cocabo-0.5", "casmopolitan"} {
		_, err := Create(bg, store, Spec{Name: "s", Space: sp, Sampler: name})
		if err == nil || !strings.Contains(err.Error(), `"d" is conditional`) {
			t.Errorf("sampler %s on a conditional space: err = %v", name, err)
		}
	}
	if _, err := Create(bg, store, Spec{Name: "s", Space: sp, Sampler: "auto"}); err != nil {
		t.Fatalf("the name is taken after the refusals, or auto refused: %v", err)
	}
}

// TestEnqueueKeepsTheValuesGiven: an enqueued configuration is run with
// the values given, not as they come back through the encoding (on a log
// scale 0.1 came back as 0.10000000000000007), and counts in the budget.
func TestEnqueueKeepsTheValuesGiven(t *testing.T) {
	sp := space.MustNew(space.Param{Name: "lr", Kind: space.Float, Low: 1e-5, High: 1, Log: true})
	s, err := New(sp, Options{Sampler: random.Uniform{}, Seed: 1, Budget: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Enqueue(bg, space.Assignment{"lr": 0.1}); err != nil {
		t.Fatal(err)
	}
	tr, err := s.Ask(bg)
	if err != nil || tr.Params["lr"] != 0.1 {
		t.Fatalf("ask after enqueue: %v, lr = %v; want exactly 0.1", err, tr.Params["lr"])
	}
	if _, err := s.Enqueue(bg, space.Assignment{"lr": 0.2}); !errors.Is(err, ErrBudget) {
		t.Fatalf("enqueue past the budget: %v, want ErrBudget", err)
	}
}

// TestTellWaitingTrial: an enqueued trial nobody has asked for takes no
// value (Optuna: "Cannot tell a WAITING trial"), but an error cancels it.
func TestTellWaitingTrial(t *testing.T) {
	sp := space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1})
	s, err := New(sp, Options{Sampler: random.Uniform{}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := s.Enqueue(bg, space.Assignment{"x": 0.5})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []Result{{Value: 1}, {Value: 1, Pruned: true}} {
		if err := s.Tell(bg, tr.ID, r); !errors.Is(err, ErrNotRunning) {
			t.Errorf("Tell(%+v) of a WAITING trial: %v, want ErrNotRunning", r, err)
		}
	}
	if err := s.Tell(bg, tr.ID, Result{Err: errors.New("cancelled")}); err != nil {
		t.Fatalf("cancelling a WAITING trial: %v", err)
	}
	if all, err := s.Trials(bg); err != nil || len(all) != 1 || all[0].State != Failed || all[0].Reason != "cancelled" {
		t.Errorf("trials after the cancel = %+v, %v; want one FAILED, cancelled", all, err)
	}
}
