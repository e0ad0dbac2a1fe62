package pruning

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/pruner"
)

// synthetic returns m runs with decaying noisy curves of 3..40
// checkpoints, so the simulator is tested without the data file.
func synthetic(m int) []Run {
	rng := rand.New(rand.NewPCG(1, 2))
	runs := make([]Run, m)
	for i := range runs {
		floor, c := 2+10*rng.Float64(), make([]float64, 3+rng.IntN(38))
		for j := range c {
			c[j] = floor + 20*math.Exp(-float64(j)/5) + rng.Float64()
		}
		runs[i] = Run{Index: i, Task: "scratch", Dataset: "synthetic", Curve: c}
	}
	return runs
}

// never is a pruner that keeps everything; always prunes at the first report.
type never struct{}

func (never) Prune(pruner.Study, pruner.Trial) bool { return false }

type always struct{}

func (always) Prune(pruner.Study, pruner.Trial) bool { return true }

// toyMedian is a minimal median-stopping rule, enough to exercise the
// simulator before the pruner package ships its own: prune when three
// trials are complete and the latest value is above the median of the
// complete trials' values at the same step.
type toyMedian struct{ log *[]string }

func (p toyMedian) Prune(s pruner.Study, t pruner.Trial) bool {
	last := t.Curve[len(t.Curve)-1]
	var at []float64
	complete := 0
	for _, u := range s.Trials {
		if u.State != pruner.Complete {
			continue
		}
		complete++
		if int(last.Step) <= len(u.Curve) {
			at = append(at, u.Curve[last.Step-1].Value)
		}
	}
	prune := false
	if complete >= 3 && len(at) > 0 {
		slices.Sort(at)
		prune = last.Value > at[len(at)/2]
	}
	if p.log != nil {
		*p.log = append(*p.log, fmt.Sprintf("%d@%d:%v", t.Number, last.Step, prune))
	}
	return prune
}

// checker wraps a pruner and fails the test when a snapshot breaks the
// simulator's contract.
type checker struct {
	t       *testing.T
	inner   pruner.Pruner
	workers int
	runs    map[int][]float64 // trial number → full curve, learnt at its first report
	calls   int
}

func (c *checker) Prune(s pruner.Study, t pruner.Trial) bool {
	c.calls++
	if s.Name != "nmtlc" || s.Maximize {
		c.t.Fatalf("study %q, maximize %v; want nmtlc, minimising", s.Name, s.Maximize)
	}
	if t.Number >= len(s.Trials) || t.State != pruner.Running || len(s.Trials[t.Number].Curve) != len(t.Curve) {
		c.t.Fatalf("decided trial %d (state %v) is not the snapshot's running trial", t.Number, t.State)
	}
	running := 0
	for j, u := range s.Trials {
		if u.Number != j {
			c.t.Fatalf("snapshot position %d holds trial %d", j, u.Number)
		}
		for i, p := range u.Curve {
			if p.Step != int64(i+1) {
				c.t.Fatalf("trial %d: point %d at step %d, want %d", j, i, p.Step, i+1)
			}
		}
		switch u.State {
		case pruner.Running:
			running++
		case pruner.Complete:
			if len(u.Curve) != len(c.runs[j]) {
				c.t.Fatalf("complete trial %d shows %d of %d points", j, len(u.Curve), len(c.runs[j]))
			}
		}
		// A trial started in this tick, not yet reported, is running with
		// an empty curve, as in a real study.
		if len(u.Curve) == 0 && u.State != pruner.Running {
			c.t.Fatalf("trial %d ended (state %v) without a report", j, u.State)
		}
	}
	if running > c.workers {
		c.t.Fatalf("%d trials running on %d workers", running, c.workers)
	}
	return c.inner.Prune(s, t)
}

func TestSimulateBounds(t *testing.T) {
	runs := Traces(synthetic(50))
	res, err := Simulate(runs, never{}, Config{Trials: 20, Workers: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if res.Cost != res.FullCost || res.Completed != 20 || res.Pruned != 0 || res.Regret != 0 || !res.KeptBest() {
		t.Errorf("never pruning: %+v, want the full cost, 20 complete, no regret", res)
	}
	if res.Time < res.FullCost/3 || res.Time > res.FullCost {
		t.Errorf("time %d for %d checkpoints on 3 workers", res.Time, res.FullCost)
	}
	res, err = Simulate(runs, always{}, Config{Trials: 20, Workers: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if res.Cost != 20 || res.Completed != 0 || res.Pruned != 20 || !math.IsInf(res.Best, 1) || res.KeptBest() {
		t.Errorf("always pruning: %+v, want one checkpoint per trial and nothing complete", res)
	}
	seq, err := Simulate(runs, never{}, Config{Trials: 20, Workers: 1, Seed: 7})
	if err != nil || seq.Time != seq.FullCost {
		t.Errorf("one worker: time %d for %d checkpoints (%v), want equal", seq.Time, seq.FullCost, err)
	}
}

func TestSimulateSnapshots(t *testing.T) {
	runs := synthetic(60)
	traces := Traces(runs)
	for _, k := range []int{1, 4} {
		var log []string
		c := &checker{t: t, inner: toyMedian{log: &log}, workers: k, runs: map[int][]float64{}}
		// Learn each trial's full curve from the draw the simulator makes:
		// the same seed draws the same runs.
		drawn := rand.New(rand.NewPCG(11, pcgStream)).Perm(len(runs))[:30]
		for i, j := range drawn {
			c.runs[i] = runs[j].Curve
		}
		res, err := Simulate(traces, c, Config{Trials: 30, Workers: k, Seed: 11})
		if err != nil {
			t.Fatal(err)
		}
		if c.calls != res.Cost || res.Completed+res.Pruned != 30 || res.Pruned == 0 || res.Cost >= res.FullCost {
			t.Errorf("k = %d: %+v after %d calls; want one call per checkpoint, every trial decided, some pruned", k, res, c.calls)
		}
		again, _ := Simulate(traces, toyMedian{}, Config{Trials: 30, Workers: k, Seed: 11})
		if again != res {
			t.Errorf("k = %d: rerun gave %+v, first run %+v", k, again, res)
		}
		if k == 1 && log[0] != "0@1:false" {
			t.Errorf("first decision %s, want trial 0 at step 1", log[0])
		}
	}
}

// A completed trial is worth its Quality, not its curve's values: Best
// and Oracle are Qualities, and the draw does not depend on the curves.
func TestSimulateQuality(t *testing.T) {
	runs := synthetic(40)
	traces := Traces(runs)
	flat := make([]Trace, len(runs)) // the same runs, reporting a flat curve, worth −index
	for i, r := range runs {
		if traces[i].Quality != r.Best() {
			t.Fatalf("run %d: Trace().Quality %v, want Best %v", i, traces[i].Quality, r.Best())
		}
		flat[i] = Trace{Curve: make([]float64, len(r.Curve)), Quality: -float64(i)}
	}
	cfg := Config{Trials: 15, Workers: 2, Seed: 5}
	drawn := rand.New(rand.NewPCG(cfg.Seed, pcgStream)).Perm(len(runs))[:cfg.Trials]
	oracle := 0.0
	for _, j := range drawn {
		oracle = min(oracle, -float64(j))
	}
	a, err := Simulate(traces, never{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Simulate(flat, never{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if b.FullCost != a.FullCost || b.Oracle != oracle || b.Best != oracle || b.Regret != 0 {
		t.Errorf("flat traces: %+v, want full cost %d (the same draw) and best = oracle = %v", b, a.FullCost, oracle)
	}
	// Pruning every trial but the first to start: the first trial's
	// Quality is the best found.
	c, err := Simulate(flat, firstOnly{}, Config{Trials: 15, Workers: 1, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if c.Completed != 1 || c.Best != -float64(drawn[0]) || c.Regret != c.Best-oracle {
		t.Errorf("first trial only: %+v, want best %v (trial 0 is trace %d), regret against %v", c, -float64(drawn[0]), drawn[0], oracle)
	}
}

// firstOnly prunes every trial except trial 0.
type firstOnly struct{}

func (firstOnly) Prune(_ pruner.Study, t pruner.Trial) bool { return t.Number != 0 }

func TestSimulateErrors(t *testing.T) {
	runs := Traces(synthetic(5))
	for _, c := range []struct {
		p   pruner.Pruner
		cfg Config
	}{
		{never{}, Config{Trials: 6, Workers: 1}},
		{never{}, Config{Trials: 0, Workers: 1}},
		{never{}, Config{Trials: 2, Workers: 0}},
		{nil, Config{Trials: 2, Workers: 1}},
	} {
		if _, err := Simulate(runs, c.p, c.cfg); err == nil {
			t.Errorf("%+v with %v: no error", c.cfg, c.p)
		}
	}
	runs[2].Curve = nil
	if _, err := Simulate(runs, never{}, Config{Trials: 5, Workers: 1}); err == nil {
		t.Error("a trace with an empty curve: no error")
	}
}
