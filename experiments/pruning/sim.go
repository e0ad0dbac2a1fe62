package pruning

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/boaopt/boa/pruner"
)

// Trace is one trial as the simulator replays it: what it reports and
// what it is worth once complete. The two differ when a trial reports one
// curve (say its training losses, for a pruner on TSE) but is judged by
// another number (its test error); an NMTLC run reports its perplexity and
// is worth the lowest one (Run.Trace).
type Trace struct {
	Curve   []float64 // the reported values, Curve[i] at step i+1; the pruner minimises them
	Quality float64   // what the trial is worth if it completes, lower better
}

// Trace is the run as a trial: its perplexity curve, worth Best.
func (r Run) Trace() Trace { return Trace{Curve: r.Curve, Quality: r.Best()} }

// Traces is Trace of every run, in order.
func Traces(runs []Run) []Trace {
	out := make([]Trace, len(runs))
	for i, r := range runs {
		out[i] = r.Trace()
	}
	return out
}

// Config is one simulated study.
type Config struct {
	Trials  int    // n: traces drawn without replacement
	Workers int    // k: trials training at once
	Seed    uint64 // the draw; equal seeds draw equal positions of traces in equal order
	Name    string // the study name pruners see (Hyperband hashes it); "nmtlc" when empty
}

// Result is what one simulated study cost and what it found.
type Result struct {
	Cost      int // checkpoints (steps) trained, over all trials
	FullCost  int // checkpoints without pruning: the drawn curves' total length
	Time      int // simulated wall time until the last worker is idle
	Completed int // trials that reported their last checkpoint unpruned
	Pruned    int

	// Best is the lowest Quality among completed trials (+Inf if none
	// completed; for NMTLC the perplexity_optimal): a pruned trial's model
	// is not kept, because a study returns completed trials. Oracle is the
	// lowest among all n drawn traces, what the study finds without
	// pruning. Regret is Best − Oracle, so 0 when a trial as good as the
	// best one completed.
	Best, Oracle, Regret float64
}

// KeptBest reports whether the study still found the best of its n
// traces. Traces that tie with it count: the scratch corpora of NMTLC
// repeat hyperparameter settings, and an exact tie is the same quality.
func (r Result) KeptBest() bool { return r.Regret == 0 }

// pcgStream fixes the second PCG word so that a Config's Seed alone
// decides the draw.
const pcgStream = 0x6e6d746c63 // "nmtlc"

// Simulate runs one study of c.Trials traces drawn from traces (one
// corpus, one search space) with c.Workers asynchronous workers, asking p
// after every report. The draw depends on c.Seed and len(traces) only, so
// equally long lists of traces of the same runs (reporting different
// curves) are drawn alike.
//
// Time is simulated: every checkpoint costs one unit, so at each tick
// every busy worker's trial reports its next checkpoint (step i+1 for the
// curve's i-th value). Within a tick the reports are handled in
// trial-number order, and a trial decided later in the tick sees the
// reports made earlier in it; then the freed workers start the next
// trials, in draw order. A started trial is in the snapshot at once, with
// an empty curve until its first report, as a real study lists a trial
// from its start. The pruner is asked after every report, the last
// one included (as Optuna users call should_prune after each report): a
// pruned trial stops and frees its worker, an unpruned trial that has
// reported its whole curve completes and is worth its Quality.
func Simulate(traces []Trace, p pruner.Pruner, c Config) (Result, error) {
	n, k := c.Trials, c.Workers
	if n < 1 || k < 1 {
		return Result{}, fmt.Errorf("%d trials on %d workers, want ≥ 1 of each", n, k)
	}
	if n > len(traces) {
		return Result{}, fmt.Errorf("%d trials drawn without replacement from %d traces", n, len(traces))
	}
	if p == nil {
		return Result{}, errors.New("nil pruner; use pruner.Nop{} for no pruning")
	}
	name := c.Name
	if name == "" {
		name = "nmtlc"
	}
	rng := rand.New(rand.NewPCG(c.Seed, pcgStream))
	drawn := rng.Perm(len(traces))[:n]

	res := Result{Best: math.Inf(1), Oracle: math.Inf(1)}
	trials := make([]Trace, n)            // the drawn traces, by trial number
	reported := make([][]pruner.Point, n) // what each trial reported
	states := make([]pruner.State, n)
	for i, j := range drawn {
		trials[i] = traces[j]
		if len(trials[i].Curve) == 0 {
			return Result{}, fmt.Errorf("trace %d has an empty curve", j)
		}
		res.FullCost += len(trials[i].Curve)
		res.Oracle = min(res.Oracle, trials[i].Quality)
		reported[i] = make([]pruner.Point, 0, len(trials[i].Curve))
	}

	// snap is reused by every call: only the Trial headers are rewritten,
	// O(trials) per call; the curves are shared, capped to their length so
	// that a pruner appending to one cannot overwrite the next report.
	snap := make([]pruner.Trial, 0, n)
	var running []int // trial numbers on a worker, ascending
	started := 0
	for {
		for len(running) < k && started < n {
			running = append(running, started) // started only grows: stays ascending
			started++
		}
		if len(running) == 0 {
			break
		}
		res.Time++
		still := running[:0]
		for _, i := range running {
			step := len(reported[i]) + 1
			reported[i] = append(reported[i], pruner.Point{Step: int64(step), Value: trials[i].Curve[step-1]})
			res.Cost++

			snap = snap[:started]
			for j := range snap {
				snap[j] = pruner.Trial{Number: j, State: states[j], Curve: reported[j][:len(reported[j]):len(reported[j])]}
			}
			study := pruner.Study{Name: name, Maximize: false, Trials: snap}
			switch {
			case p.Prune(study, snap[i]):
				states[i] = pruner.Pruned
				res.Pruned++
			case step == len(trials[i].Curve):
				states[i] = pruner.Complete
				res.Completed++
				res.Best = min(res.Best, trials[i].Quality)
			default:
				still = append(still, i)
			}
		}
		running = still
	}
	res.Regret = res.Best - res.Oracle
	return res, nil
}
