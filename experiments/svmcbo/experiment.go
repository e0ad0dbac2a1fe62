package svmcbo

import (
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"sync"

	"github.com/boaopt/boa/problems/constrained"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/smac"
	"github.com/boaopt/boa/sampler/svmcbo"
	"github.com/boaopt/boa/stats"
	"gonum.org/v1/gonum/stat"
)

// Problems are Table 8.1's functions, in its order, then the discretised
// Mishra's Bird of §8.1's text (Fig. 8.1).
var Problems = []string{"branin_c", "rosenbrock_c", "michalewicz_c", "mishra_bird_c", "gramacy_c", "alpine2_c", "mishra_bird_c_disc"}

// Published is Table A.1 (mean, std of SMAC, SVM-CBO, SVM-CBO_RF and the
// three p-values as printed), by problem; the discretised Mishra's Bird
// has no published numbers.
var Published = map[string][9]float64{
	"branin_c":      {-1.018, 0.046, -1.047, 0.001, -1.021, 0.026, 0, 0.647, 0},
	"rosenbrock_c":  {1.529, 0.855, 1.177, 0.232, 1.994, 0.534, 0.001, 0.001, 0},
	"michalewicz_c": {-1.463, 0.323, -1.286, 0.32, -1.38, 0.29, 0.041, 0.187, 0.243},
	"mishra_bird_c": {-81.248, 16.93, -106.761, 0.004, -103.943, 4.585, 0, 0, 0},
	"gramacy_c":     {0.734, 0.077, 0.693, 0.01, 0.693, 0.01, 0.022, 0.022, 0.761},
	"alpine2_c":     {-6.949, 0.971, -7.557, 0.588, -7.335, 0.827, 0, 0.027, 0.007},
}

// Protocol is what to run.
type Protocol struct {
	Problems   []string
	Runs       int      // seeds 1..Runs
	Budget     int      // evaluations per run
	Candidates int      // svmcbo's candidates (0: its default, 10,000)
	Workers    int      // runs in parallel (0: GOMAXPROCS)
	Methods    []string // nil: all of Methods
}

// Methods are the columns: SMAC, then SVM-CBO and SVM-CBO_RF in a mode.
var Methods = []string{"smac", "cbo-code", "rf-code", "cbo", "rf"}

func (p Protocol) sampler(method string) sampler.Sampler {
	if method == "smac" {
		return smac.New()
	}
	s := svmcbo.New(svmcbo.GP, strings.HasSuffix(method, "-code"))
	if strings.HasPrefix(method, "rf") {
		s.Surrogate = svmcbo.Forest
	}
	s.Candidates = p.Candidates
	return s
}

// Results holds the best feasible value of every run: [problem][method][run].
type Results map[string]map[string][]float64

// Experiment runs every method on every problem for every seed, with
// p.Workers runs at a time, printing progress to log.
func Experiment(ctx context.Context, p Protocol, log io.Writer) (Results, error) {
	res := Results{}
	type job struct {
		prob, method string
		run          int
	}
	var jobs []job
	methods := p.Methods
	if methods == nil {
		methods = Methods
	}
	for _, pn := range p.Problems {
		res[pn] = map[string][]float64{}
		for _, m := range methods {
			res[pn][m] = make([]float64, p.Runs)
			for r := range p.Runs {
				jobs = append(jobs, job{pn, m, r})
			}
		}
	}
	w := p.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		next int
		errs []error
	)
	for range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if next == len(jobs) || len(errs) > 0 {
					mu.Unlock()
					return
				}
				j := jobs[next]
				next++
				mu.Unlock()
				prob, err := constrained.Get(j.prob)
				var v float64
				if err == nil {
					v, err = Run(ctx, prob, p.sampler(j.method), p.Budget, uint64(j.run+1))
				}
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				}
				res[j.prob][j.method][j.run] = v
				if log != nil {
					fmt.Fprintf(log, "%s %s seed %d: %.6g\n", j.prob, j.method, j.run+1, v)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		return nil, errs[0]
	}
	return res, nil
}

// meanStd returns the mean and sample standard deviation of v, skipping
// NaN (a run without a feasible point), and how many were skipped.
func meanStd(v []float64) (mean, std float64, missing int) {
	f := finiteRuns(v)
	mean, std = stat.MeanStdDev(f, nil)
	return mean, std, len(v) - len(f)
}

// finiteRuns returns v without NaN (the runs without a feasible point).
func finiteRuns(v []float64) []float64 {
	var out []float64
	for _, x := range v {
		if !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	return out
}

// pairedRuns returns a and b without the runs where either is NaN, for the
// paired test.
func pairedRuns(a, b []float64) (x, y []float64) {
	for i := range a {
		if !math.IsNaN(a[i]) && !math.IsNaN(b[i]) {
			x, y = append(x, a[i]), append(y, b[i])
		}
	}
	return x, y
}

// pvalues returns the p-values of SMAC vs SVM-CBO and SMAC vs SVM-CBO_RF
// (Mann–Whitney U) and SVM-CBO vs SVM-CBO_RF (Wilcoxon signed-rank) for
// the runs of one problem, with cbo and rf the methods of one mode; NaN
// where a test cannot be made.
func pvalues(r map[string][]float64, cbo, rf string) [3]float64 {
	out := [3]float64{math.NaN(), math.NaN(), math.NaN()}
	s := finiteRuns(r["smac"])
	if _, p, err := stats.MannWhitneyU(s, finiteRuns(r[cbo])); err == nil {
		out[0] = p
	}
	if _, p, err := stats.MannWhitneyU(s, finiteRuns(r[rf])); err == nil {
		out[1] = p
	}
	if _, p, err := stats.WilcoxonSignedRank(pairedRuns(r[cbo], r[rf])); err == nil {
		out[2] = p
	}
	return out
}
