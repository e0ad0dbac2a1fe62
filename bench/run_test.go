package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"github.com/boaopt/boa/sampler/gpbo"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/problems"
	"github.com/boaopt/boa/problems/functions"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
	"github.com/boaopt/boa/transform"
)

func TestParseProblem(t *testing.T) {
	for spec, dim := range map[string]int{"branin": 2, "ackley:5": 5, "bbob:15:5:1": 5, "hartmann6": 6, "func3c": 5, "jenatton": 9} {
		p, err := problems.Parse(spec)
		if err != nil {
			t.Errorf("%s: %v", spec, err)
			continue
		}
		if p.Space().Len() != dim || p.Name() != spec {
			t.Errorf("%s: dimension %d, name %s", spec, p.Space().Len(), p.Name())
		}
		if _, ok := p.Optimum(); !ok {
			t.Errorf("%s: no optimum", spec)
		}
	}
	for _, spec := range []string{"nosuch", "ackley:x", "ackley:0", "bbob:1:5", "bbob:25:5:1", "bbob:1:x:1", "branin:3", "a:b:c"} {
		if _, err := problems.Parse(spec); err == nil {
			t.Errorf("%s: no error", spec)
		}
	}
}

func TestRunIsDeterministicAndComplete(t *testing.T) {
	p, _ := problems.Parse("branin")
	cfg := Config{Problems: []problems.Problem{p}, Samplers: []string{"random", "sobol"}, Seeds: 3, Budget: 12}
	a, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Run(context.Background(), cfg, nil)
	if len(a) != 6 {
		t.Fatalf("%d runs, want 6", len(a))
	}
	for i := range a {
		if a[i].Error != "" || len(a[i].Best) != 12 || len(a[i].SuggestSeconds) != 12 {
			t.Fatalf("run %d: %+v", i, a[i])
		}
		if !slices.Equal(a[i].Best, b[i].Best) {
			t.Fatalf("run %d differs between two runs with the same seeds", i)
		}
		if !slices.IsSortedFunc(a[i].Best, func(x, y float64) int { return -compare(x, y) }) {
			t.Fatalf("best-so-far is not non-increasing: %v", a[i].Best)
		}
		if *a[i].Regret < 0 || *a[i].Regret != float64(a[i].FinalBest)-0.39788735772973816 {
			t.Fatalf("regret %v of final best %v", *a[i].Regret, a[i].FinalBest)
		}
	}
}

func compare(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func TestUnknownSamplerFailsTheRun(t *testing.T) {
	p, _ := problems.Parse("branin")
	runs, err := Run(context.Background(), Config{Problems: []problems.Problem{p}, Samplers: []string{"magic"}, Seeds: 1, Budget: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(runs[0].Error, "magic") {
		t.Fatalf("error %q", runs[0].Error)
	}
	var buf bytes.Buffer
	if err := NewReport(runs).WriteJSON(&buf); err != nil || !strings.Contains(buf.String(), `"final_best":null`) {
		t.Fatalf("JSON of a failed run: %v %s", err, buf.String())
	}
}

func TestReportFiles(t *testing.T) {
	p, _ := problems.Parse("branin")
	runs, _ := Run(context.Background(), Config{Problems: []problems.Problem{p}, Samplers: []string{"random", "sobol"}, Seeds: 2, Budget: 8}, nil)
	dir := t.TempDir()
	if err := NewReport(runs).WriteDir(dir, "boa bench test"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"results.json", "report.md", "curve-branin.png", "suggest-time.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "results.json"))
	var r struct {
		Results []map[string]any `json:"results"`
		Summary []map[string]any `json:"summary"`
	}
	if err := json.Unmarshal(data, &r); err != nil || len(r.Results) != 4 || len(r.Summary) != 2 {
		t.Fatalf("results.json: %v, %d results, %d summaries", err, len(r.Results), len(r.Summary))
	}
	for _, k := range []string{"problem", "sampler", "median_final_best", "median_regret", "iqr_regret", "mean_rank", "median_suggest_seconds"} {
		if _, ok := r.Summary[0][k]; !ok {
			t.Errorf("summary lacks %s", k)
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if !strings.Contains(string(md), "| `random` |") || !strings.Contains(string(md), "median regret @8") {
		t.Errorf("report.md:\n%s", md)
	}
}

func TestTableProblemOnNB201(t *testing.T) {
	path := "../../shared/data/nb201/cifar10.csv"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s not found: NB201 harness test skipped", path)
	}
	p, err := problems.Table("nb201:"+path, true)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := Run(context.Background(), Config{Problems: []problems.Problem{p}, Samplers: []string{"random"}, Seeds: 2, Budget: 10}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.Error != "" || r.TestRegret == nil || *r.TestRegret < 0 || r.Problem != "nb201-cifar10-noisy" {
			t.Fatalf("run %+v", r)
		}
	}
}

// TestTestRegretIsPrimaryOnNoisyProblems: on a noisy function each run
// records its incumbent's noise-free regret after every evaluation, which
// only changes with the incumbent, and the report ranks and tabulates by it
// (issue 37: the observed best rewards lucky draws).
func TestTestRegretIsPrimaryOnNoisyProblems(t *testing.T) {
	p, err := problems.Parse("branin_fitbo:noisy")
	if err != nil {
		t.Fatal(err)
	}
	runs, err := Run(context.Background(), Config{Problems: []problems.Problem{p}, Samplers: []string{"random", "sobol"}, Seeds: 3, Budget: 12}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if len(r.TestRegrets) != 12 || r.TestRegret == nil || *r.TestRegret != r.TestRegrets[11] || *r.TestRegret < 0 {
			t.Fatalf("run %s/%d: test regrets %v, final %v", r.Sampler, r.Seed, r.TestRegrets, r.TestRegret)
		}
		for i := 1; i < 12; i++ {
			if r.Best[i] == r.Best[i-1] && r.TestRegrets[i] != r.TestRegrets[i-1] {
				t.Fatalf("run %s/%d: the test regret changed at %d without a new incumbent", r.Sampler, r.Seed, i)
			}
		}
	}
	var md strings.Builder
	if err := NewReport(runs).WriteMarkdown(&md, "", nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "median test regret @12") || !strings.Contains(md.String(), "median observed regret") {
		t.Errorf("report:\n%s", md.String())
	}
}

func TestLatency(t *testing.T) {
	res, err := Latency(context.Background(), []string{"random", "gpbo"}, []int{20}, 3)
	if err != nil || len(res) != 2 {
		t.Fatalf("%d results", len(res))
	}
	for _, r := range res {
		if r.Error != "" || r.SuggestSeconds <= 0 || r.CholeskySeconds <= 0 || r.Ratio != r.SuggestSeconds/r.CholeskySeconds {
			t.Fatalf("%+v", r)
		}
	}
}

// TestLatencyDimension: a dimension Ackley does not have is an error before
// anything is allocated (10⁸ ran out of memory building the problem).
func TestLatencyDimension(t *testing.T) {
	for _, dim := range []int{0, functions.MaxDim + 1, 100_000_000} {
		if res, err := Latency(context.Background(), []string{"random"}, []int{5}, dim); !errors.Is(err, functions.ErrDimension) || res != nil {
			t.Errorf("dim %d: %v, %v; want ErrDimension", dim, res, err)
		}
	}
}

func TestRunBatch(t *testing.T) {
	p, err := problems.Parse("func2c")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Problems: []problems.Problem{p}, Samplers: []string{"cocabo-0.5", "onehot-gp", "goptuna-tpe"}, Seeds: 1, Budget: 30, Batch: 4}
	runs, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs[:2] {
		if r.Error != "" || len(r.Best) != 30 || len(r.SuggestSeconds) != 8 || r.Batch != 4 {
			t.Fatalf("%s: error %q, %d evaluations in %d asks, batch %d; want 30 in 8 batches of 4", r.Sampler, r.Error, len(r.Best), len(r.SuggestSeconds), r.Batch)
		}
	}
	if r := runs[2]; !strings.Contains(r.Error, "no batch mode") || HasBatch("goptuna-tpe") || !HasBatch("cocabo-0.5") {
		t.Fatalf("a peer in batch mode: error %q", r.Error)
	}
}

// TestSessionHasTheRunsBudget: a boa sampler runs in a study with the
// run's budget (CoCaBO's bandit horizon comes from it), so the study
// refuses a trial beyond it.
func TestSessionHasTheRunsBudget(t *testing.T) {
	ctx := context.Background()
	p, err := problems.Parse("branin")
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(ctx, "random", p.Space(), 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 2 {
		if _, err := s.Ask(ctx); err != nil {
			t.Fatalf("ask %d: %v", i, err)
		}
		if err := s.Tell(ctx, 1); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Ask(ctx); !errors.Is(err, study.ErrBudget) {
		t.Fatalf("third ask of a 2-trial run: %v, want ErrBudget", err)
	}
}

// TestSessionNeverReaps: the harness's trials run on a simulated clock
// without heartbeats, so its studies must not fail them as stale while a
// slow sampler makes the other workers' suggestions (a 30 s lease did,
// with 16 workers on Ackley-10).
func TestSessionNeverReaps(t *testing.T) {
	p, err := problems.Parse("branin")
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(context.Background(), "random", p.Space(), 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if l := s.(*boaSession).st.Lease(); l < 365*24*time.Hour {
		t.Errorf("a benchmark study's lease is %v; its trials would be reaped", l)
	}
}

// TestSamplerWithTransform: "gpbo+log" is gpbo on a study with the log
// transform, a name only boa's samplers take.
func TestSamplerWithTransform(t *testing.T) {
	ctx := context.Background()
	p, _ := problems.Parse("branin")
	s, err := NewSession(ctx, "random+log", p.Space(), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if tf := s.(*boaSession).st.Transform(); tf != transform.Log {
		t.Errorf("random+log runs a study with transform %v", tf)
	}
	if !HasBatch("gpbo+copula") || Known("gpbo+copula") != nil {
		t.Error("gpbo+copula is not a known batch sampler")
	}
	for name, says := range map[string]string{"gpbo+sqrt": "unknown transform", "optuna-tpe+log": "boa's samplers only", "magic+log": "boa's samplers only"} {
		if err := Known(name); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("Known(%q) = %v, want it to say %q", name, err, says)
		}
		if ok, _ := Available(name); ok || HasBatch(name) {
			t.Errorf("%s is available", name)
		}
	}
}

// TestSamplerWithOptions: "gpbo+acquisition=mes+log" is gpbo with that
// option (the study file's mapping form) on a study with the log
// transform; a bad option is refused by name.
func TestSamplerWithOptions(t *testing.T) {
	p, _ := problems.Parse("branin")
	s, err := NewSession(context.Background(), "gpbo+acquisition=mes+log+samples=7", p.Space(), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	st := s.(*boaSession).st
	if g, ok := st.Sampler().(*gpbo.GPBO); !ok || g.Acquisition != "mes" || g.Samples != 7 || st.Transform() != transform.Log {
		t.Errorf("gpbo+acquisition=mes+log+samples=7 runs %+v with transform %v", st.Sampler(), st.Transform())
	}
	for name, says := range map[string]string{"gpbo+acquisition=nope": `unknown acquisition "nope"`, "random+samples=3": "takes no options"} {
		if err := Known(name); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("Known(%q) = %v, want it to say %q", name, err, says)
		}
	}
}

// TestRunRejectsRepeatedNames: the summary groups runs by problem and
// sampler name, so a name given twice would count its runs twice (runs,
// ranks and wins) instead of being compared with itself.
func TestRunRejectsRepeatedNames(t *testing.T) {
	p, _ := problems.Parse("branin")
	q, _ := problems.Parse("branin")
	for _, cfg := range []Config{
		{Problems: []problems.Problem{p}, Samplers: []string{"random", "random"}, Seeds: 1, Budget: 3},
		{Problems: []problems.Problem{p, q}, Samplers: []string{"random"}, Seeds: 1, Budget: 3},
	} {
		runs, err := Run(context.Background(), cfg, nil)
		if err == nil || !strings.Contains(err.Error(), "twice") {
			t.Errorf("%d runs, error %v; want an error about a repeated name", len(runs), err)
		}
	}
}

// TestLogTransformOfNonPositiveValuesFailsTheRun: a study with the log
// transform records a value ≤ 0 as a failed trial, so its sampler never
// sees it; the run must fail and say why, not go on as a random search
// under gpbo+log's name.
func TestLogTransformOfNonPositiveValuesFailsTheRun(t *testing.T) {
	p, _ := problems.Parse("hartmann6") // values in [−3.32, 0]
	runs, err := Run(context.Background(), Config{Problems: []problems.Problem{p}, Samplers: []string{"gpbo+log"}, Seeds: 1, Budget: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(runs[0].Error, "log") {
		t.Fatalf("run error %q, final best %v; want the run failed by the log transform", runs[0].Error, runs[0].FinalBest)
	}
}

// TestReportFilesWhenEveryRunFails: --out still writes results.json and
// report.md, with the errors, when no run succeeded (an Optuna that cannot
// start); plotting nothing on a log axis used to panic.
func TestReportFilesWhenEveryRunFails(t *testing.T) {
	p, _ := problems.Parse("branin")
	runs, err := Run(context.Background(), Config{Problems: []problems.Problem{p}, Samplers: []string{"magic"}, Seeds: 2, Budget: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := NewReport(runs).WriteDir(dir, "boa bench test"); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if !strings.Contains(string(md), "2 runs failed") {
		t.Errorf("report.md:\n%s", md)
	}
	if _, err := os.Stat(filepath.Join(dir, "results.json")); err != nil {
		t.Error(err)
	}
}

// TestFailedRunHasEmptyLists: best and suggest_seconds are lists in the
// JSON contract (DESIGN.md §2.5), empty for a run that failed before its
// first evaluation, not null.
func TestFailedRunHasEmptyLists(t *testing.T) {
	p, _ := problems.Parse("branin")
	runs, _ := Run(context.Background(), Config{Problems: []problems.Problem{p}, Samplers: []string{"magic"}, Seeds: 1, Budget: 3}, nil)
	var buf bytes.Buffer
	if err := NewReport(runs).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"best":[]`, `"suggest_seconds":[]`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("JSON lacks %s: %s", want, buf.String())
		}
	}
}

// TestRunInterruptedKeepsFinishedRuns: cancelling a benchmark returns the
// runs that finished, without the ones it stopped or never started.
func TestRunInterruptedKeepsFinishedRuns(t *testing.T) {
	p, _ := problems.Parse("branin")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := Config{Problems: []problems.Problem{p}, Samplers: []string{"random", "gpbo"}, Seeds: 5, Budget: 30, Parallel: 1}
	calls := 0
	runs, err := Run(ctx, cfg, func(RunResult) {
		if calls++; calls == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(runs) < 2 || len(runs) != calls || len(runs) == 10 {
		t.Fatalf("%d runs returned after %d progress calls; want the 2 or so that finished of 10", len(runs), calls)
	}
	for _, r := range runs {
		if r.Error != "" || len(r.Best) != 30 {
			t.Fatalf("an unfinished run was returned: %+v", r)
		}
	}
}

// asyncRecorder is a boa session that records, at each ask, how many
// trials were running, and the order in which trials were told.
type asyncRecorder struct {
	*boaSession
	running []int
	told    []int64
}

func (s *asyncRecorder) AskTrial(ctx context.Context) (int64, space.Assignment, error) {
	s.running = append(s.running, len(s.boaSession.running))
	return s.boaSession.AskTrial(ctx)
}

func (s *asyncRecorder) TellTrial(ctx context.Context, id int64, v float64) error {
	s.told = append(s.told, id)
	return s.boaSession.TellTrial(ctx, id, v)
}

// TestRunAsyncKeepsWorkersBusy: on the simulated clock, the workers start
// together (each ask sees the earlier ones running), every later ask comes
// from a worker that has just finished while the others still run, and
// trials finish in another order than they were asked for.
func TestRunAsyncKeepsWorkersBusy(t *testing.T) {
	ctx := context.Background()
	p, _ := problems.Parse("branin")
	s, err := NewSession(ctx, "random", p.Space(), 1, 20)
	if err != nil {
		t.Fatal(err)
	}
	rec := &asyncRecorder{boaSession: s.(*boaSession)}
	r := &running{RunResult: &RunResult{}, p: p, rng: rand.New(rand.NewPCG(1, 2))}
	err = runAsync(ctx, rec, 1, Config{Budget: 20, Workers: 4}, r)
	if err != nil {
		t.Fatal(err)
	}
	want := []int{0, 1, 2, 3}
	for range 16 {
		want = append(want, 3)
	}
	if !slices.Equal(rec.running, want) {
		t.Errorf("trials running at each ask: %v, want %v", rec.running, want)
	}
	if len(rec.told) != 20 || len(r.Best) != 20 || len(r.SuggestSeconds) != 20 {
		t.Fatalf("%d told, %d recorded, %d asks; want 20", len(rec.told), len(r.Best), len(r.SuggestSeconds))
	}
	if slices.IsSorted(rec.told) {
		t.Error("trials finished in the order they were asked for: the workers did not overlap")
	}
}

// TestRunAsync: boa's samplers and the peers run on asynchronous workers,
// and a boa run is as deterministic as a sequential one (goptuna's TPE
// draws from Go's global source, so its runs are not).
func TestRunAsync(t *testing.T) {
	p, err := problems.Parse("func2c")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Problems: []problems.Problem{p}, Samplers: []string{"cocabo-0.5", "casmopolitan", "playbook-hl", "playbook-l", "goptuna-tpe"}, Seeds: 1, Budget: 30, Workers: 4}
	runs, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Run(context.Background(), cfg, nil)
	for i, r := range runs {
		if r.Error != "" || len(r.Best) != 30 || len(r.SuggestSeconds) != 30 || r.Workers != 4 {
			t.Fatalf("%s: error %q, %d evaluations in %d asks, workers %d; want 30 in 30 asks on 4", r.Sampler, r.Error, len(r.Best), len(r.SuggestSeconds), r.Workers)
		}
		if r.Sampler != "goptuna-tpe" && !slices.Equal(r.Best, again[i].Best) {
			t.Errorf("%s: two runs with the same seed differ", r.Sampler)
		}
	}
	cfg.Batch = 4
	if _, err := Run(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), "choose one") {
		t.Errorf("batches and workers together: %v", err)
	}
}
