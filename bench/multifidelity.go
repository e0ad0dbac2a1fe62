package bench

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/boaopt/boa/bench/peers"
	"github.com/boaopt/boa/problems"
	"github.com/boaopt/boa/pruner"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// FidelityProblem is a problem whose evaluation trains: a configuration
// has a learning curve, one value (minimised) after each of its Steps, the
// epochs at which a trial reports, and its last value, at full fidelity,
// is its final value. Training to step s costs s epochs, so a trial
// stopped at step s has cost s and a complete one the last step.
type FidelityProblem interface {
	Name() string
	Space() *space.Space
	// Steps are the epochs after which a trial reports, increasing.
	Steps() []int64
	// Curve returns a's values after each step, noise drawn from rng.
	Curve(a space.Assignment, rng *rand.Rand) ([]float64, error)
	// Optimum is the lowest final value, the reference of regret; ok is
	// false when it is not known.
	Optimum() (f float64, ok bool)
}

// FidelityConfig is one multi-fidelity benchmark: every method on every
// problem for every seed 1..Seeds, Budget epochs each.
type FidelityConfig struct {
	Problems []FidelityProblem
	Methods  []string // Method names: a sampler or peer, perhaps with @pruner
	Seeds    int
	Budget   int // epochs per run, summed over its trials; 0 means BudgetFactor × the full fidelity
	Workers  int // trials training at once on a simulated clock (one epoch a time unit); <= 1 means one at a time
	Parallel int // runs at once; <= 0 means GOMAXPROCS
}

// BudgetFactor is the default budget of a multi-fidelity run in full
// trainings: 20 × the problem's full fidelity in epochs.
const BudgetFactor = 20

// ReductionFactor is η of every pruner of the multi-fidelity runs, ASHA's
// and Hyperband's, boa's and Optuna's: Hyperband's and Optuna's default,
// the value of the BOHB and MOBSTER papers' experiments.
const ReductionFactor = 3

// The pruners a method of a multi-fidelity run may name after "@".
const (
	PruneNone      = "none"
	PruneASHA      = "asha"
	PruneHyperband = "hyperband"
)

// DefaultPruner is the pruner a method runs with when its name gives
// none: ASHA for mobster (MOBSTER's stopping variant, Klein et al. 2020),
// Hyperband for bohb and random (Falkner et al. 2018; Li et al. 2018),
// none for the other samplers of boa, which run every trial at full
// fidelity. optuna-tpe-hb has Optuna's HyperbandPruner of its own.
func DefaultPruner(sampler string) string {
	switch sampler {
	case "mobster":
		return PruneASHA
	case "bohb", "random":
		return PruneHyperband
	}
	return PruneNone
}

// ParseMethod splits a multi-fidelity method, SAMPLER[@PRUNER], into the
// optimiser (a boa sampler, perhaps with options, or optuna-tpe-hb) and
// its pruner (DefaultPruner when not given), each checked.
func ParseMethod(name string) (optimiser, prune string, err error) {
	optimiser, prune, given := strings.Cut(name, "@")
	if optimiser == peers.OptunaTPEHB {
		if given {
			return "", "", fmt.Errorf("%s: Optuna's TPE runs with its own HyperbandPruner; it takes no @pruner", name)
		}
		return optimiser, "optuna-hyperband", nil
	}
	base, _, _, err := withTransform(optimiser)
	if err != nil {
		return "", "", err
	}
	if !slices.Contains(sampler.Names(), base) {
		return "", "", fmt.Errorf("%s: a multi-fidelity method is a boa sampler (%s) or %s", name, strings.Join(sampler.Names(), ", "), peers.OptunaTPEHB)
	}
	if !given {
		prune = DefaultPruner(base)
	}
	if !slices.Contains([]string{PruneNone, PruneASHA, PruneHyperband}, prune) {
		return "", "", fmt.Errorf("%s: unknown pruner %q (the pruners are %s, %s and %s)", name, prune, PruneNone, PruneASHA, PruneHyperband)
	}
	return optimiser, prune, nil
}

// fidelitySession is a run of one method that hears each trial's reports
// and is asked whether to stop it: a boa study with its pruner, or Optuna
// with its HyperbandPruner.
type fidelitySession interface {
	AskTrial(ctx context.Context) (int64, space.Assignment, error)
	Report(ctx context.Context, id, step int64, value float64) error
	ShouldPrune(ctx context.Context, id int64) (bool, error)
	TellTrial(ctx context.Context, id int64, value float64) error
	Prune(ctx context.Context, id int64, last float64) error
	Close() error
}

// newFidelitySession starts method on p with seed, its pruner's rungs
// from p's steps: the first rung at the first step, η = ReductionFactor,
// Hyperband's largest budget the last step.
func newFidelitySession(ctx context.Context, method string, p FidelityProblem, seed uint64) (fidelitySession, error) {
	name, prune, err := ParseMethod(method)
	if err != nil {
		return nil, err
	}
	steps := p.Steps()
	lo, hi := steps[0], steps[len(steps)-1]
	if name == peers.OptunaTPEHB {
		s, err := peers.NewPruned(ctx, name, p.Space(), seed, peers.Pruning{MinResource: lo, MaxResource: hi, ReductionFactor: ReductionFactor})
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	smp, tf, err := boaSampler(name)
	if err != nil {
		return nil, err
	}
	// The study's fidelity tells mobster which step is full fidelity: the
	// last step is never reported (it is the final value), and without it
	// mobster would take the last step reported.
	o := study.Options{Name: "bench", Sampler: smp, Seed: seed, Transform: tf, Fidelity: &study.Fidelity{Name: "epochs", Min: lo, Max: hi}}
	switch prune {
	case PruneASHA:
		o.Pruner = pruner.SuccessiveHalving{MinResource: lo, ReductionFactor: ReductionFactor}
	case PruneHyperband:
		o.Pruner = pruner.Hyperband{MinResource: lo, MaxResource: hi, ReductionFactor: ReductionFactor}
	}
	st, err := study.New(p.Space(), o)
	if err != nil {
		return nil, err
	}
	st.SetLease(noLease)
	return prunedStudy{st}, nil
}

// prunedStudy is a boa study as a fidelitySession.
type prunedStudy struct{ st *study.Study }

func (s prunedStudy) AskTrial(ctx context.Context) (int64, space.Assignment, error) {
	ts, err := s.st.AskBatch(ctx, 1)
	if err != nil {
		return 0, nil, err
	}
	return ts[0].ID, ts[0].Params, nil
}

func (s prunedStudy) Report(ctx context.Context, id, step int64, value float64) error {
	return s.st.Report(ctx, id, step, value)
}

func (s prunedStudy) ShouldPrune(ctx context.Context, id int64) (bool, error) {
	return s.st.ShouldPrune(ctx, id)
}

func (s prunedStudy) TellTrial(ctx context.Context, id int64, value float64) error {
	return s.st.Tell(ctx, id, study.Result{Value: value})
}

func (s prunedStudy) Prune(ctx context.Context, id int64, last float64) error {
	return s.st.Tell(ctx, id, study.Result{Value: last, Pruned: true})
}

func (s prunedStudy) Close() error { return nil }

// RunFidelity runs the multi-fidelity benchmark, as Run runs the
// others: runs in parallel, seed by seed and every method in turn, a
// failed run recorded and the others going on, and when ctx is cancelled
// the runs that finished returned with ctx's error.
//
// A run spends Budget epochs in all (runFidelity). Its result, a
// RunResult, has one entry of Best per epoch spent: the final value of
// the configuration the method would return after that epoch, the best
// complete trial (+Inf, null in JSON, before the first); FinalBest is its
// value at the budget, Regret its distance to the problem's optimum and,
// on a problem that scores held-out data (NB201's test accuracy),
// TestRegret that score. Trials still training when the budget runs out
// and trials stopped early never count: a user has no final value for
// them.
func RunFidelity(ctx context.Context, cfg FidelityConfig, progress func(RunResult)) ([]RunResult, error) {
	if cfg.Seeds < 1 || cfg.Budget < 0 {
		return nil, fmt.Errorf("bench: need at least one seed and a budget ≥ 0 epochs (seeds %d, budget %d)", cfg.Seeds, cfg.Budget)
	}
	for _, m := range cfg.Methods {
		if _, _, err := ParseMethod(m); err != nil {
			return nil, err
		}
	}
	return runGrid(ctx, cfg.Problems, cfg.Methods, cfg.Seeds, cfg.Parallel, func(p FidelityProblem, method string, seed int) RunResult {
		return runFidelity(ctx, p, method, seed, cfg)
	}, progress)
}

// trialRun is a trial training on a worker of the simulated clock.
type trialRun struct {
	id     int64
	a      space.Assignment
	curve  []float64
	next   int     // the index of the step it trains towards
	start  float64 // when it started
	worker int
}

// runFidelity is one run: max(1, Workers) workers train trials on a
// simulated clock, one epoch a time unit, each trial reporting after every
// step but the last and asking whether to stop, its last value told as
// the final one. The next event is the step reached first (ties to the
// lower worker); a worker whose trial completes or is stopped asks for
// the next configuration, which sees every earlier value and the trials
// still training as pending. The run ends when the epochs spent, those of
// the trials done and of those training up to that instant, would exceed
// the budget: the trials then training are left unfinished. With one
// worker the run is sequential; with several it is asynchronous and as
// deterministic as a sequential one.
func runFidelity(ctx context.Context, p FidelityProblem, method string, seed int, cfg FidelityConfig) RunResult {
	r := RunResult{Problem: p.Name(), Sampler: method, Seed: seed, FinalBest: Number(math.NaN()),
		Best: []float64{}, SuggestSeconds: []float64{}}
	steps := p.Steps()
	budget := cmp.Or(cfg.Budget, BudgetFactor*int(steps[len(steps)-1]))
	workers := max(cfg.Workers, 1)
	if workers > 1 {
		r.Workers = workers
	}
	s, err := newFidelitySession(ctx, method, p, uint64(seed))
	if err != nil {
		r.Error = err.Error()
		return r
	}
	defer s.Close()
	tester, _ := p.(problems.TestRegretter)
	noise := rand.New(rand.NewPCG(uint64(seed), 0xbe4c))
	var (
		busy      []trialRun
		spent     float64 // epochs of the trials done
		best      = math.Inf(1)
		incumbent space.Assignment
		testReg   = math.Inf(1)
	)
	// fill extends the traces to total epochs (at most the budget) with
	// the best so far.
	fill := func(total float64) {
		for len(r.Best) < min(int(total), budget) {
			r.Best = append(r.Best, best)
			if tester != nil {
				r.TestRegrets = append(r.TestRegrets, testReg)
			}
		}
	}
	start := func(worker int, now float64) error {
		t := time.Now()
		id, a, err := s.AskTrial(ctx)
		r.SuggestSeconds = append(r.SuggestSeconds, time.Since(t).Seconds())
		if err != nil {
			return fmt.Errorf("ask %d: %w", len(r.SuggestSeconds)-1, err)
		}
		c, err := p.Curve(a, noise)
		if err != nil {
			return fmt.Errorf("evaluation %d: %w", len(r.SuggestSeconds)-1, err)
		}
		busy = append(busy, trialRun{id: id, a: a, curve: c, start: now, worker: worker})
		return nil
	}
	run := func() error {
		for w := range workers {
			if err := start(w, 0); err != nil {
				return err
			}
		}
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			at := func(j trialRun) float64 { return j.start + float64(steps[j.next]) }
			i := 0
			for k, b := range busy {
				if c := cmp.Compare(at(b), at(busy[i])); c < 0 || c == 0 && b.worker < busy[i].worker {
					i = k
				}
			}
			j := &busy[i]
			now := at(*j)
			total := spent
			for _, b := range busy {
				total += now - b.start
			}
			if total > float64(budget) {
				return nil
			}
			// The epochs before this instant saw the best so far; the
			// one that ends now sees its value.
			fill(total - 1)
			v := j.curve[j.next]
			done := false
			if j.next == len(steps)-1 {
				if err := s.TellTrial(ctx, j.id, v); err != nil {
					return fmt.Errorf("tell trial %d: %w", j.id, err)
				}
				if v < best {
					best, incumbent = v, j.a
					if tester != nil {
						if tr, ok := tester.TestRegret(incumbent); ok {
							testReg = tr
						}
					}
				}
				done = true
			} else {
				if err := s.Report(ctx, j.id, steps[j.next], v); err != nil {
					return fmt.Errorf("report trial %d: %w", j.id, err)
				}
				prune, err := s.ShouldPrune(ctx, j.id)
				if err != nil {
					return fmt.Errorf("should prune trial %d: %w", j.id, err)
				}
				if prune {
					if err := s.Prune(ctx, j.id, v); err != nil {
						return fmt.Errorf("prune trial %d: %w", j.id, err)
					}
					done = true
				}
				j.next++
			}
			fill(total)
			if done {
				spent += now - j.start
				w := j.worker
				busy = slices.Delete(busy, i, i+1)
				if err := start(w, now); err != nil {
					return err
				}
			}
		}
	}
	if err := run(); err != nil {
		r.Error = err.Error()
		return r
	}
	fill(float64(budget))
	r.FinalBest = Number(best)
	if opt, ok := p.Optimum(); ok && !math.IsInf(best, 1) {
		reg := best - opt
		r.Regret, r.optimum = &reg, opt
	}
	if tester != nil && !math.IsInf(testReg, 1) {
		r.TestRegret = &testReg
	}
	return r
}
