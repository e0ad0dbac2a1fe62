package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/boaopt/boa/space"
)

// Config is one benchmark: every optimiser on every problem for every seed
// 1..Seeds, Budget evaluations each.
type Config struct {
	Problems []Problem
	Samplers []string
	Seeds    int
	Budget   int
	Batch    int // evaluations asked for together (synchronous batches); <= 1 means sequential
	Parallel int // runs at once; <= 0 means GOMAXPROCS
}

// RunResult is one run (DESIGN.md §2.5).
type RunResult struct {
	Problem        string    `json:"problem"`
	Sampler        string    `json:"sampler"`
	Seed           int       `json:"seed"`
	Batch          int       `json:"batch,omitempty"`       // batch size when > 1
	Best           []float64 `json:"best"`                  // best value so far after each evaluation
	FinalBest      Number    `json:"final_best"`            // Best at the budget; null if the run failed
	Regret         *float64  `json:"regret"`                // FinalBest − optimum; null when the optimum is unknown
	TestRegret     *float64  `json:"test_regret,omitempty"` // NAS-Bench-201: test-accuracy regret of the incumbent
	SuggestSeconds []float64 `json:"suggest_seconds"`       // time of each Ask
	Error          string    `json:"error,omitempty"`       // why the run stopped early

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
	type job struct {
		p       Problem
		sampler string
		seed    int
		at      int
	}
	// Seed by seed, every sampler in turn: a benchmark stopped half-way
	// has compared the samplers on the same seeds.
	var jobs []job
	for _, p := range cfg.Problems {
		for seed := 1; seed <= cfg.Seeds; seed++ {
			for _, s := range cfg.Samplers {
				jobs = append(jobs, job{p, s, seed, len(jobs)})
			}
		}
	}
	results := make([]RunResult, len(jobs))
	finished := make([]bool, len(jobs))
	work := make(chan job)
	var (
		wg sync.WaitGroup
		mu sync.Mutex
	)
	parallel := cfg.Parallel
	if parallel <= 0 {
		parallel = runtime.GOMAXPROCS(0)
	}
	for range min(parallel, len(jobs)) {
		wg.Go(func() {
			for j := range work {
				r := runOne(ctx, j.p, j.sampler, j.seed, cfg.Budget, cfg.Batch)
				if r.Error != "" && ctx.Err() != nil {
					continue // stopped, not failed
				}
				mu.Lock()
				results[j.at], finished[j.at] = r, true
				if progress != nil {
					progress(r)
				}
				mu.Unlock()
			}
		})
	}
send:
	for _, j := range jobs {
		select {
		case work <- j:
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

// runOne runs one optimiser on one problem with one seed, budget
// evaluations in all, asked for batch at a time when batch > 1 (the last
// batch may be smaller). SuggestSeconds has one entry per ask, so per batch.
func runOne(ctx context.Context, p Problem, sampler string, seed, budget, batch int) RunResult {
	// Empty lists, not nil: the JSON contract has lists there, also for a
	// run that fails before its first evaluation.
	r := RunResult{Problem: p.Name(), Sampler: sampler, Seed: seed, FinalBest: Number(math.NaN()),
		Best: []float64{}, SuggestSeconds: []float64{}}
	fail := func(err error) RunResult {
		r.Error = err.Error()
		return r
	}
	s, err := NewSession(ctx, sampler, p.Space(), uint64(seed), budget)
	if err != nil {
		return fail(err)
	}
	defer s.Close()
	ask := func(int) ([]space.Assignment, error) {
		a, err := s.Ask(ctx)
		return []space.Assignment{a}, err
	}
	if batch > 1 {
		r.Batch = batch
		bs, ok := s.(BatchSession)
		if !ok {
			return fail(fmt.Errorf("%s has no batch mode", sampler))
		}
		ask = func(n int) ([]space.Assignment, error) { return bs.AskBatch(ctx, n) }
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0xbe4c))
	best := math.Inf(1)
	var incumbent space.Assignment
	for len(r.Best) < budget {
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		start := time.Now()
		as, err := ask(min(max(batch, 1), budget-len(r.Best)))
		r.SuggestSeconds = append(r.SuggestSeconds, time.Since(start).Seconds())
		if err != nil {
			return fail(fmt.Errorf("ask %d: %w", len(r.Best), err))
		}
		if len(as) == 0 {
			return fail(fmt.Errorf("ask %d: no configuration proposed", len(r.Best)))
		}
		for _, a := range as {
			v, err := p.Evaluate(a, rng)
			if err != nil {
				return fail(fmt.Errorf("evaluation %d: %w", len(r.Best), err))
			}
			if v < best {
				best, incumbent = v, a
			}
			r.Best = append(r.Best, best)
			if err := s.Tell(ctx, v); err != nil {
				return fail(fmt.Errorf("tell %d: %w", len(r.Best)-1, err))
			}
		}
	}
	r.FinalBest = Number(best)
	if opt, ok := p.Optimum(); ok {
		reg := best - opt
		r.Regret, r.optimum = &reg, opt
	}
	if tr, ok := p.(TestRegretter); ok && incumbent != nil {
		if v, ok := tr.TestRegret(incumbent); ok {
			r.TestRegret = &v
		}
	}
	return r
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
