package curves

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/boaopt/boa/pruner"
)

// Config is one simulated study.
type Config struct {
	Trials  int    // n: runs drawn without replacement from the corpus
	Workers int    // k: trials training at once
	Seed    uint64 // the draw; equal seeds draw equal runs in equal order
	Name    string // the study name pruners see (Hyperband hashes it); "nmtlc" when empty
}

// Result is what one simulated study cost and what it found.
type Result struct {
	Cost      int // checkpoints trained, over all trials
	FullCost  int // checkpoints without pruning: the drawn curves' total length
	Time      int // simulated wall time until the last worker is idle
	Completed int // trials that reported their last checkpoint unpruned
	Pruned    int

	// Best is the lowest perplexity_optimal among completed trials (+Inf
	// if none completed): a pruned trial's model is not kept, because a
	// study returns completed trials. Oracle is the lowest among all n
	// drawn runs, what the study finds without pruning. Regret is
	// Best − Oracle, so 0 when a run as good as the best one completed.
	Best, Oracle, Regret float64
}

// KeptBest reports whether the study still found the best of its n runs.
// Runs that tie with it count: the scratch corpora repeat hyperparameter
// settings, and an exact tie is the same model quality.
func (r Result) KeptBest() bool { return r.Regret == 0 }

// pcgStream fixes the second PCG word so that a Config's Seed alone
// decides the draw.
const pcgStream = 0x6e6d746c63 // "nmtlc"

// Simulate runs one study of c.Trials runs drawn from runs (one corpus)
// with c.Workers asynchronous workers, asking p after every report.
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
// reported its whole curve completes.
func Simulate(runs []Run, p pruner.Pruner, c Config) (Result, error) {
	n, k := c.Trials, c.Workers
	if n < 1 || k < 1 {
		return Result{}, fmt.Errorf("%d trials on %d workers, want ≥ 1 of each", n, k)
	}
	if n > len(runs) {
		return Result{}, fmt.Errorf("%d trials drawn without replacement from %d runs", n, len(runs))
	}
	if p == nil {
		return Result{}, errors.New("nil pruner; use pruner.Nop{} for no pruning")
	}
	name := c.Name
	if name == "" {
		name = "nmtlc"
	}
	rng := rand.New(rand.NewPCG(c.Seed, pcgStream))
	drawn := rng.Perm(len(runs))[:n]

	res := Result{Best: math.Inf(1), Oracle: math.Inf(1)}
	curves := make([][]float64, n)        // the drawn runs' full curves, by trial number
	reported := make([][]pruner.Point, n) // what each trial reported
	states := make([]pruner.State, n)
	for i, j := range drawn {
		curves[i] = runs[j].Curve
		res.FullCost += len(curves[i])
		res.Oracle = min(res.Oracle, runs[j].Best())
		reported[i] = make([]pruner.Point, 0, len(curves[i]))
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
			reported[i] = append(reported[i], pruner.Point{Step: int64(step), Value: curves[i][step-1]})
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
			case step == len(curves[i]):
				states[i] = pruner.Complete
				res.Completed++
				res.Best = min(res.Best, slices.Min(curves[i]))
			default:
				still = append(still, i)
			}
		}
		running = still
	}
	res.Regret = res.Best - res.Oracle
	return res, nil
}
