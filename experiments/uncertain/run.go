package uncertain

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	model "github.com/boaopt/boa/uncertain"
)

// Results holds every (cell, model, seed) score of a run.
type Results struct {
	Cells  []Cell
	Models []string
	Seeds  []int
	// Scores[cell][model][i] is the score on seed Seeds[i].
	Scores map[Cell]map[string][]Score
}

// RunConfig configures Run.
type RunConfig struct {
	Restarts int // multi-start restarts of every fit (default 10, the chapter's)
	// Workers run (cell, model, seed) fits concurrently; at most 2 (the
	// machine's cores are shared), default 2.
	Workers int
	// Progress, when set, is called after each fit (from the workers, one
	// call at a time).
	Progress func(c Cell, model string, seed int, s Score)
}

// Run fits every model on every seed's data of every cell. Each fit is
// independent (its data and restart stream depend only on the cell, the
// model and the seed), so fits run on cfg.Workers goroutines and results go
// to fixed slots: a table does not depend on the scheduling.
func Run(cells []Cell, models []string, seeds []int, factories map[string]Factory, cfg RunConfig) (*Results, error) {
	tasks := map[string]Task{}
	for _, c := range cells {
		if _, ok := tasks[c.Task]; ok {
			continue
		}
		t, err := GetTask(c.Task)
		if err != nil {
			return nil, err
		}
		tasks[c.Task] = t
	}
	for _, m := range models {
		if factories[m] == nil {
			return nil, fmt.Errorf("experiments/uncertain: unknown model %q", m)
		}
	}
	res := &Results{Cells: cells, Models: models, Seeds: seeds, Scores: map[Cell]map[string][]Score{}}
	type job struct {
		c    Cell
		m    string
		seed int
		slot int
	}
	var jobs []job
	for _, c := range cells {
		res.Scores[c] = map[string][]Score{}
		for _, m := range models {
			res.Scores[c][m] = make([]Score, len(seeds))
			for i, s := range seeds {
				jobs = append(jobs, job{c, m, s, i})
			}
		}
	}
	workers := cfg.Workers
	if workers <= 0 || workers > 2 {
		workers = 2
	}
	restarts := cfg.Restarts
	if restarts <= 0 {
		restarts = Restarts
	}
	next := make(chan job)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range next {
				d := MakeData(tasks[j.c.Task], j.c, j.seed)
				m := factories[j.m](model.Config{Restarts: restarts, Rand: modelRand(j.c, j.m, j.seed)})
				s := Evaluate(m, d, j.c.SigmaX)
				mu.Lock()
				res.Scores[j.c][j.m][j.slot] = s
				if cfg.Progress != nil {
					cfg.Progress(j.c, j.m, j.seed, s)
				}
				mu.Unlock()
			}
		})
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
	return res, nil
}

// Stat summarises one metric over the seeds that did not fail.
type Stat struct {
	Mean, SD, SE float64 // SD with n − 1; SE = SD/√n
	Min, Median  float64
	N, Failed    int
}

// Summarize returns the Stat of v, skipping NaN (failed fits).
func Summarize(v []float64) Stat {
	s := Stat{Min: math.Inf(1)}
	var sum float64
	for _, x := range v {
		if math.IsNaN(x) {
			s.Failed++
			continue
		}
		s.N++
		sum += x
		s.Min = min(s.Min, x)
	}
	if s.N == 0 {
		nan := math.NaN()
		return Stat{nan, nan, nan, nan, nan, 0, s.Failed}
	}
	s.Mean = sum / float64(s.N)
	ok := make([]float64, 0, s.N)
	for _, x := range v {
		if !math.IsNaN(x) {
			ok = append(ok, x)
		}
	}
	slices.Sort(ok)
	s.Median = (ok[(s.N-1)/2] + ok[s.N/2]) / 2
	var ss float64
	for _, x := range v {
		if !math.IsNaN(x) {
			ss += (x - s.Mean) * (x - s.Mean)
		}
	}
	if s.N > 1 {
		s.SD = math.Sqrt(ss / float64(s.N-1))
		s.SE = s.SD / math.Sqrt(float64(s.N))
	} else {
		s.SD, s.SE = math.NaN(), math.NaN()
	}
	return s
}

// Metric picks one number out of a Score.
type Metric func(Score) float64

// The metrics of the tables.
var (
	MetricLL      Metric = func(s Score) float64 { return s.LL }
	MetricLLNoisy Metric = func(s Score) float64 { return s.LLNoisy }
	MetricSqErr   Metric = func(s Score) float64 { return s.SqErr }
	MetricMeanVar Metric = func(s Score) float64 { return s.MeanVar }
	MetricSeconds Metric = func(s Score) float64 { return s.Seconds }
)

// Values returns metric over the seeds of (c, model).
func (r *Results) Values(c Cell, model string, metric Metric) []float64 {
	sc := r.Scores[c][model]
	v := make([]float64, len(sc))
	for i, s := range sc {
		v[i] = metric(s)
	}
	return v
}

// Stat summarises metric over the seeds of (c, model).
func (r *Results) Stat(c Cell, model string, metric Metric) Stat {
	return Summarize(r.Values(c, model, metric))
}

// Selection is what the environment selects (Env).
type Selection struct {
	Tasks    []string
	SigmaXs  []float64
	NTrains  []int
	Seeds    []int
	Models   []string
	Restarts int
	Noisy    bool // score with V + σ_n² (BOA_SCORE=noisy)
}

// Env overrides def from the environment:
//
//	BOA_TASKS=ackley-2d,decaying-sin   tasks (TaskNames)
//	BOA_SIGMAX=0.05                   input-noise levels
//	BOA_NTRAIN=50,100                 training sizes
//	BOA_SEEDS=3 | 0-19 | 0,4,7        a count from 0, a range or a list
//	BOA_MODELS=rbf,utgp               models
//	BOA_RESTARTS=10                   restarts of every fit
//	BOA_SCORE=noisy                   log-likelihood with V + σ_n² (default: latent V)
func Env(def Selection) (Selection, error) {
	s := def
	var err error
	if v := os.Getenv("BOA_TASKS"); v != "" {
		s.Tasks = splitList(v)
		for _, t := range s.Tasks {
			if _, e := GetTask(t); e != nil {
				return s, e
			}
		}
	}
	if v := os.Getenv("BOA_MODELS"); v != "" {
		s.Models = splitList(v)
	}
	if v := os.Getenv("BOA_SIGMAX"); v != "" {
		if s.SigmaXs, err = parseFloats(v); err != nil {
			return s, fmt.Errorf("BOA_SIGMAX: %w", err)
		}
	}
	if v := os.Getenv("BOA_NTRAIN"); v != "" {
		if s.NTrains, err = parseInts(v); err != nil {
			return s, fmt.Errorf("BOA_NTRAIN: %w", err)
		}
	}
	if v := os.Getenv("BOA_SEEDS"); v != "" {
		if s.Seeds, err = ParseSeeds(v); err != nil {
			return s, fmt.Errorf("BOA_SEEDS: %w", err)
		}
	}
	if v := os.Getenv("BOA_RESTARTS"); v != "" {
		if s.Restarts, err = strconv.Atoi(v); err != nil || s.Restarts < 1 {
			return s, fmt.Errorf("BOA_RESTARTS=%q: want a positive integer", v)
		}
	}
	switch v := os.Getenv("BOA_SCORE"); v {
	case "":
	case "noisy":
		s.Noisy = true
	case "latent":
		s.Noisy = false
	default:
		return s, fmt.Errorf("BOA_SCORE=%q: want latent or noisy", v)
	}
	return s, nil
}

// Cells returns the selection's cells with test sets of nTest points, in
// the tables' order (task, σ_x, N_train).
func (s Selection) Cells(nTest int) []Cell {
	var cells []Cell
	for _, t := range s.Tasks {
		for _, sx := range s.SigmaXs {
			for _, n := range s.NTrains {
				cells = append(cells, Cell{t, sx, n, nTest})
			}
		}
	}
	return cells
}

// ParseSeeds reads "20" (seeds 0–19), "3-7" (3…7) or "0,4,7".
func ParseSeeds(v string) ([]int, error) {
	if lo, hi, ok := strings.Cut(v, "-"); ok {
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		b, err2 := strconv.Atoi(strings.TrimSpace(hi))
		if err1 != nil || err2 != nil || a < 0 || b < a {
			return nil, fmt.Errorf("%q: want a range a-b with 0 ≤ a ≤ b", v)
		}
		var seeds []int
		for i := a; i <= b; i++ {
			seeds = append(seeds, i)
		}
		return seeds, nil
	}
	if !strings.Contains(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q: want a count, a range a-b or a list", v)
		}
		seeds := make([]int, n)
		for i := range seeds {
			seeds[i] = i
		}
		return seeds, nil
	}
	var seeds []int
	for _, p := range splitList(v) {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%q: seed %q is not an integer ≥ 0", v, p)
		}
		seeds = append(seeds, n)
	}
	return seeds, nil
}

func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func parseFloats(v string) ([]float64, error) {
	var out []float64
	for _, p := range splitList(v) {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || f < 0 {
			return nil, fmt.Errorf("%q is not a number ≥ 0", p)
		}
		out = append(out, f)
	}
	return out, nil
}

func parseInts(v string) ([]int, error) {
	var out []int
	for _, p := range splitList(v) {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive integer", p)
		}
		out = append(out, n)
	}
	return out, nil
}
