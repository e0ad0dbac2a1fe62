package bench

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/problems"
	"github.com/boaopt/boa/space"
)

// Config is one benchmark: every optimiser on every problem for every seed
// 1..Seeds, Budget evaluations each.
type Config struct {
	Problems []problems.Problem
	Samplers []string
	Seeds    int
	Budget   int
	Batch    int // evaluations asked for together (synchronous batches); <= 1 means sequential
	Workers  int // evaluations running at once, each asked for when a worker frees up (asynchronous, simulated clock); <= 1 means sequential
	Parallel int // runs at once; <= 0 means GOMAXPROCS
}

// RunResult is one run (DESIGN.md §2.5).
type RunResult struct {
	Problem        string    `json:"problem"`
	Sampler        string    `json:"sampler"`
	Seed           int       `json:"seed"`
	Batch          int       `json:"batch,omitempty"`          // batch size when > 1
	Workers        int       `json:"workers,omitempty"`        // asynchronous workers when > 1
	Best           Trace     `json:"best"`                     // best value so far after each evaluation (feasible ones only on a constrained problem; null before the first)
	FinalBest      Number    `json:"final_best"`               // Best at the budget; null if the run failed or found no feasible point
	Regret         *float64  `json:"regret"`                   // FinalBest − optimum (feasible regret); null when the optimum is unknown or no point was feasible
	TestRegret     *float64  `json:"test_regret,omitempty"`    // problems scored on held-out data or without noise (NAS-Bench-201, tabular, :noisy): the test regret of the incumbent at the budget
	TestRegrets    Trace     `json:"test_regrets,omitempty"`   // TestRegret after each evaluation (null before the first incumbent)
	FeasibleShare  *float64  `json:"feasible_share,omitempty"` // constrained problems: the share of evaluations that were feasible
	SuggestSeconds []float64 `json:"suggest_seconds"`          // time of each Ask
	Error          string    `json:"error,omitempty"`          // why the run stopped early

	// Multi-objective problems (MultiObjective): Best is the hypervolume
	// gap FrontHV − HV of the front so far after each evaluation,
	// FinalBest and Regret the gap at the budget (multiobjective.go).
	Objectives  []string    `json:"objectives,omitempty"`        // the objectives' names
	Values      [][]float64 `json:"values,omitempty"`            // every evaluation's objectives, in order
	Hypervolume Trace       `json:"hypervolume,omitempty"`       // the observed front's hypervolume after each evaluation (the problem's normalised units)
	FinalHV     *float64    `json:"final_hypervolume,omitempty"` // Hypervolume at the budget
	FrontHV     *float64    `json:"front_hypervolume,omitempty"` // the true front's, the ceiling
	HVRatio     *float64    `json:"hv_ratio,omitempty"`          // FinalHV / FrontHV
	LogHVGap    *Number     `json:"log_hv_gap,omitempty"`        // log10(FrontHV − FinalHV); null when the true front's hypervolume was reached
	Front       [][]float64 `json:"front,omitempty"`             // the observed Pareto front, in the objectives' units, sorted

	optimum float64 // the problem's, when Regret is set
}

// Run runs the benchmark. Runs are independent and deterministic per
// seed; they are spread over Parallel goroutines. progress, if not nil, is
// called after each run (never concurrently). A run that fails records its
// error and the others go on. When ctx is cancelled, Run returns the runs
// that finished before, in order, with ctx's error: the runs it stopped are
// left out, as are those it did not start.
func Run(ctx context.Context, cfg Config, progress func(RunResult)) ([]RunResult, error) {
	if cfg.Seeds < 1 || cfg.Budget < 1 {
		return nil, fmt.Errorf("bench: need at least one seed and an evaluation budget of at least 1 (seeds %d, budget %d)", cfg.Seeds, cfg.Budget)
	}
	if cfg.Batch > 1 && cfg.Workers > 1 {
		return nil, fmt.Errorf("bench: synchronous batches (%d) and asynchronous workers (%d) are two ways to run in parallel; choose one", cfg.Batch, cfg.Workers)
	}
	if i := slices.IndexFunc(cfg.Problems, IsMultiObjective); i >= 0 && (cfg.Batch > 1 || cfg.Workers > 1) {
		return nil, fmt.Errorf("bench: %s has several objectives, whose runs evaluate one configuration at a time (no batches or workers)", cfg.Problems[i].Name())
	}
	// Runs are summarised by problem and sampler name: a name given twice
	// would pool two sets of runs into one row and rank them against each
	// other.
	seen := map[string]bool{}
	for _, p := range cfg.Problems {
		if seen[p.Name()] {
			return nil, fmt.Errorf("bench: problem %s given twice (results are grouped by name; tables are named after their kind and file name)", p.Name())
		}
		seen[p.Name()] = true
	}
	clear(seen)
	for _, s := range cfg.Samplers {
		if seen[s] {
			return nil, fmt.Errorf("bench: sampler %s given twice", s)
		}
		seen[s] = true
	}
	return runGrid(ctx, cfg.Problems, cfg.Samplers, cfg.Seeds, cfg.Parallel, func(p problems.Problem, sampler string, seed int) RunResult {
		return runOne(ctx, p, sampler, seed, cfg)
	}, progress)
}

// runGrid runs every problem of ps with every optimiser of names on
// seeds 1..seeds through runJobs. The runs go problem by problem, seed
// by seed, every optimiser in turn: a benchmark stopped half-way has
// compared the optimisers on the same seeds.
func runGrid[P any](ctx context.Context, ps []P, names []string, seeds, parallel int, run func(p P, name string, seed int) RunResult, progress func(RunResult)) ([]RunResult, error) {
	type job struct {
		p    P
		name string
		seed int
	}
	var jobs []job
	for _, p := range ps {
		for seed := 1; seed <= seeds; seed++ {
			for _, n := range names {
				jobs = append(jobs, job{p, n, seed})
			}
		}
	}
	return runJobs(ctx, len(jobs), parallel, func(i int) RunResult {
		j := jobs[i]
		return run(j.p, j.name, j.seed)
	}, progress)
}

// runJobs runs run(0), …, run(n−1) on parallel goroutines (<= 0:
// GOMAXPROCS) and returns their results in order, calling progress after
// each (never concurrently). When ctx is cancelled it returns the runs
// that finished before, in order, with ctx's error: a run that failed
// because ctx was cancelled is left out, as are those not started.
func runJobs(ctx context.Context, n, parallel int, run func(i int) RunResult, progress func(RunResult)) ([]RunResult, error) {
	results := make([]RunResult, n)
	finished := make([]bool, n)
	work := make(chan int)
	var (
		wg sync.WaitGroup
		mu sync.Mutex
	)
	if parallel <= 0 {
		parallel = runtime.GOMAXPROCS(0)
	}
	for range min(parallel, n) {
		wg.Go(func() {
			for i := range work {
				r := run(i)
				if r.Error != "" && ctx.Err() != nil {
					continue // stopped, not failed
				}
				mu.Lock()
				results[i], finished[i] = r, true
				if progress != nil {
					progress(r)
				}
				mu.Unlock()
			}
		})
	}
send:
	for i := range n {
		select {
		case work <- i:
		case <-ctx.Done():
			break send
		}
	}
	close(work)
	wg.Wait()
	done := results[:0]
	for i, r := range results {
		if finished[i] {
			done = append(done, r)
		}
	}
	return done, ctx.Err()
}

// runOne runs one optimiser on one problem with one seed, cfg.Budget
// evaluations in all: one at a time, cfg.Batch at a time when that is > 1
// (the last batch may be smaller; SuggestSeconds has one entry per ask, so
// per batch), or on cfg.Workers simulated asynchronous workers when that
// is > 1 (runAsync).
func runOne(ctx context.Context, p problems.Problem, sampler string, seed int, cfg Config) RunResult {
	// Empty lists, not nil: the JSON contract has lists there, also for a
	// run that fails before its first evaluation.
	r := RunResult{Problem: p.Name(), Sampler: sampler, Seed: seed, FinalBest: Number(math.NaN()),
		Best: []float64{}, SuggestSeconds: []float64{}}
	fail := func(err error) RunResult {
		r.Error = err.Error()
		return r
	}
	if mo, ok := p.(MultiObjective); ok {
		if err := runMultiObjective(ctx, mo, sampler, seed, cfg, &r); err != nil {
			return fail(err)
		}
		return r
	}
	run := &running{RunResult: &r, p: p, rng: rand.New(rand.NewPCG(uint64(seed), 0xbe4c))}
	run.tester, _ = p.(problems.TestRegretter)
	if c, ok := p.(Constrained); ok {
		run.cons = c
		run.limits = c.Constraints()
	}
	s, err := newSession(ctx, sampler, p.Space(), uint64(seed), cfg.Budget, run.cons)
	if err != nil {
		return fail(err)
	}
	defer s.Close()
	if cfg.Workers > 1 {
		r.Workers = cfg.Workers
		err = runAsync(ctx, s, seed, cfg, run)
	} else {
		err = runBatches(ctx, s, sampler, cfg, run)
	}
	if err != nil {
		return fail(err)
	}
	r.FinalBest = Number(r.Best[len(r.Best)-1])
	if run.cons != nil {
		share := float64(run.feasible) / float64(len(r.Best))
		r.FeasibleShare = &share
	}
	if opt, ok := p.Optimum(); ok && !math.IsInf(float64(r.FinalBest), 1) {
		reg := float64(r.FinalBest) - opt
		r.Regret, r.optimum = &reg, opt
	}
	if n := len(r.TestRegrets); n > 0 && !math.IsInf(r.TestRegrets[n-1], 1) {
		v := r.TestRegrets[n-1]
		r.TestRegret = &v
	}
	return r
}

// running is a run under way: its result, its problem and the source of
// the problem's noise, drawn from in the order of the asks.
type running struct {
	*RunResult
	p         problems.Problem
	rng       *rand.Rand
	incumbent space.Assignment       // the best (feasible) configuration so far
	tester    problems.TestRegretter // p, when it scores an incumbent's test regret
	cons      Constrained            // p, when it is constrained
	limits    constraint.Set         // cons's constraints
	feasible  int                    // feasible evaluations so far
}

// evaluate returns a's value and, on a constrained problem, its metrics.
func (r *running) evaluate(a space.Assignment) (float64, map[string]float64, error) {
	if r.cons != nil {
		return r.cons.Measure(a, r.rng)
	}
	v, err := r.p.Evaluate(a, r.rng)
	return v, nil, err
}

// record appends a completed evaluation to the best-so-far trace. On a
// constrained problem only a feasible evaluation counts: the trace is the
// feasible regret's [spec constrained-autotinyml §7.4], +Inf (null in
// JSON) until the first feasible point.
func (r *running) record(a space.Assignment, v float64, metrics map[string]float64) {
	best := math.Inf(1)
	if n := len(r.Best); n > 0 {
		best = r.Best[n-1]
	}
	feasible := r.cons == nil || r.limits.Check(metrics).Feasible
	if feasible && r.cons != nil {
		r.feasible++
	}
	changed := feasible && v < best
	if changed {
		best, r.incumbent = v, a
	}
	r.Best = append(r.Best, best)
	if r.tester != nil {
		r.recordTest(changed)
	}
}

// recordTest appends the incumbent's test regret: the figure a user of a
// noisy or tabular problem gets, since the observed best of a noisy run
// rewards a lucky draw (issue 37). The incumbent is chosen by its observed
// value, as a user would choose it.
func (r *running) recordTest(changed bool) {
	tr := math.Inf(1)
	if n := len(r.TestRegrets); n > 0 && !changed {
		tr = r.TestRegrets[n-1]
	} else if r.incumbent != nil {
		if v, ok := r.tester.TestRegret(r.incumbent); ok {
			tr = v
		}
	}
	r.TestRegrets = append(r.TestRegrets, tr)
}

// runBatches asks for one configuration at a time, or cfg.Batch at a time
// when that is > 1, evaluates them and tells their values in order.
func runBatches(ctx context.Context, s Session, sampler string, cfg Config, r *running) error {
	ask := func(int) ([]space.Assignment, error) {
		a, err := s.Ask(ctx)
		return []space.Assignment{a}, err
	}
	if cfg.Batch > 1 {
		r.Batch = cfg.Batch
		bs, ok := s.(BatchSession)
		if !ok {
			return fmt.Errorf("%s has no batch mode", sampler)
		}
		ask = func(n int) ([]space.Assignment, error) { return bs.AskBatch(ctx, n) }
	}
	for len(r.Best) < cfg.Budget {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		as, err := ask(min(max(cfg.Batch, 1), cfg.Budget-len(r.Best)))
		r.SuggestSeconds = append(r.SuggestSeconds, time.Since(start).Seconds())
		if err != nil {
			return fmt.Errorf("ask %d: %w", len(r.Best), err)
		}
		if len(as) == 0 {
			return fmt.Errorf("ask %d: no configuration proposed", len(r.Best))
		}
		for _, a := range as {
			v, m, err := r.evaluate(a)
			if err != nil {
				return fmt.Errorf("evaluation %d: %w", len(r.Best), err)
			}
			r.record(a, v, m)
			if err := tell(ctx, s, v, m); err != nil {
				return fmt.Errorf("tell %d: %w", len(r.Best)-1, err)
			}
		}
	}
	return nil
}

// runAsync runs cfg.Workers workers on a simulated clock, as the
// simulated executor of spec async-batch §6.1: each evaluation takes σ|Z|
// time units, Z ~ N(0, 1), σ = √(π/2) (half-normal, mean 1), drawn from a
// stream of its own; at each completion (ties to the lower worker) the
// value is told and the free worker asks for the next configuration, so
// the sampler sees every value completed up to that instant and the
// others as pending. The workers start one after the other at time 0,
// each ask seeing the earlier ones pending. r.Best is in the order of
// completion; the run is as deterministic as a sequential one.
func runAsync(ctx context.Context, s Session, seed int, cfg Config, r *running) error {
	type job struct {
		id      int64
		a       space.Assignment
		v, end  float64
		metrics map[string]float64
		worker  int
	}
	durations := rand.New(rand.NewPCG(uint64(seed), 0xa5c1))
	sigma := math.Sqrt(math.Pi / 2)
	var (
		busy  []job // the evaluations under way
		asked int
	)
	start := func(worker int, now float64) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		t := time.Now()
		id, a, err := s.AskTrial(ctx)
		r.SuggestSeconds = append(r.SuggestSeconds, time.Since(t).Seconds())
		if err != nil {
			return fmt.Errorf("ask %d: %w", asked, err)
		}
		v, m, err := r.evaluate(a)
		if err != nil {
			return fmt.Errorf("evaluation %d: %w", asked, err)
		}
		asked++
		busy = append(busy, job{id: id, a: a, v: v, metrics: m, end: now + sigma*math.Abs(durations.NormFloat64()), worker: worker})
		return nil
	}
	for w := range min(cfg.Workers, cfg.Budget) {
		if err := start(w, 0); err != nil {
			return err
		}
	}
	for len(busy) > 0 {
		next := slices.MinFunc(busy, func(a, b job) int {
			return cmp.Or(cmp.Compare(a.end, b.end), cmp.Compare(a.worker, b.worker))
		})
		busy = slices.DeleteFunc(busy, func(j job) bool { return j.id == next.id })
		r.record(next.a, next.v, next.metrics)
		if err := tellTrial(ctx, s, next.id, next.v, next.metrics); err != nil {
			return fmt.Errorf("tell %d: %w", len(r.Best)-1, err)
		}
		if asked < cfg.Budget {
			if err := start(next.worker, next.end); err != nil {
				return err
			}
		}
	}
	return nil
}

// Number is a float64 that is written to JSON as null when it is NaN or
// infinite, which JSON cannot carry.
type Number float64

func (n Number) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

// Trace is a best-so-far trace, written to JSON with null where a value
// is not finite (before a constrained run's first feasible point).
type Trace []float64

func (t Trace) MarshalJSON() ([]byte, error) {
	ns := make([]Number, len(t))
	for i, v := range t {
		ns[i] = Number(v)
	}
	return json.Marshal(ns)
}
