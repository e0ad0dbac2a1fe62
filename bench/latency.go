package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/problems/functions"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/space"
)

// LatencyResult is the suggestion time of one optimiser at one history
// size, next to one Cholesky factorisation of the same size in the same run.
type LatencyResult struct {
	Sampler         string  `json:"sampler"`
	N               int     `json:"n"`
	Dim             int     `json:"dim"`
	SuggestSeconds  float64 `json:"suggest_seconds"`  // mean over latencySteps(n) suggestions at n, n+1, ...
	CholeskySeconds float64 `json:"cholesky_seconds"` // one factorisation of an n × n kernel matrix
	Ratio           float64 `json:"ratio"`            // SuggestSeconds / CholeskySeconds
	Error           string  `json:"error,omitempty"`
}

// latencySteps is how many suggestions are timed at size n: 10, or
// beyond 200 observations one period of gpbo's full hyper-parameter
// refits (gpbo.RefitStep; 40 at n = 1,000), which then hold exactly one
// and their cost is counted at its true rate.
func latencySteps(n int) int { return max(10, gpbo.RefitStep(n)) }

// Latency times one suggestion of each optimiser with n observations of
// Ackley in dim dimensions (unit cube), for each n. boa's samplers are
// given the history directly, after a fit on the first n−1 observations
// (as in a running study); peers build theirs by asking and being told n
// times, untimed. An error says dim is not a dimension Ackley has.
func Latency(ctx context.Context, samplers []string, ns []int, dim int) ([]LatencyResult, error) {
	if dim < 1 { // Get would take 0 for the default dimension
		return nil, fmt.Errorf("bench: latency: %w: dimension %d < 1", functions.ErrDimension, dim)
	}
	if _, err := functions.Get("ackley", dim); err != nil {
		return nil, fmt.Errorf("bench: latency: %w", err)
	}
	var out []LatencyResult
	for _, n := range ns {
		chol := choleskySeconds(n, dim)
		for _, s := range samplers {
			r := LatencyResult{Sampler: s, N: n, Dim: dim, CholeskySeconds: chol}
			sec, err := suggestSeconds(ctx, s, n, dim)
			if err != nil {
				r.Error = err.Error()
			} else {
				r.SuggestSeconds, r.Ratio = sec, sec/chol
			}
			out = append(out, r)
		}
	}
	return out, nil
}

func latencyProblem(dim int) (*space.Space, func([]float64) float64) {
	fn, _ := functions.Get("ackley", dim) // dim checked by Latency
	ps := make([]space.Param, dim)
	for i := range ps {
		ps[i] = space.Param{Name: fmt.Sprintf("x%d", i+1), Kind: space.Float, Low: 0, High: 1}
	}
	return space.MustNew(ps...), fn.EvalUnit
}

func suggestSeconds(ctx context.Context, name string, n, dim int) (float64, error) {
	sp, f := latencyProblem(dim)
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	if !slices.Contains(sampler.Names(), name) {
		return peerSuggestSeconds(ctx, name, sp, f, n)
	}
	smp, err := sampler.New(name)
	if err != nil {
		return 0, err
	}
	h := &sampler.History{Space: sp, Seed: 1}
	steps := latencySteps(n)
	for range n + steps {
		u := sp.Sample(rng)
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: f(u)})
	}
	all := h.Observed
	h.Observed, h.Trials = all[:n-1], n-1
	if _, err := smp.Suggest(ctx, h, rng); err != nil { // warm-up fit, untimed
		return 0, err
	}
	start := time.Now()
	for s := range steps {
		h.Observed, h.Trials = all[:n+s], n+s
		if _, err := smp.Suggest(ctx, h, rand.New(rand.NewPCG(1, uint64(s)))); err != nil {
			return 0, err
		}
	}
	return time.Since(start).Seconds() / float64(steps), nil
}

func peerSuggestSeconds(ctx context.Context, name string, sp *space.Space, f func([]float64) float64, n int) (float64, error) {
	if ok, why := Available(name); !ok {
		return 0, fmt.Errorf("%s skipped: %s", name, why)
	}
	s, err := NewSession(ctx, name, sp, 1, 0)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	x := make([]float64, sp.Len())
	var asking time.Duration
	step := func() error {
		start := time.Now()
		a, err := s.Ask(ctx)
		asking += time.Since(start)
		if err != nil {
			return err
		}
		for i, name := range sp.Names() {
			x[i] = a[name].(float64)
		}
		return s.Tell(ctx, f(x))
	}
	for range n {
		if err := step(); err != nil {
			return 0, err
		}
	}
	asking = 0
	steps := latencySteps(n)
	for range steps {
		if err := step(); err != nil {
			return 0, err
		}
	}
	return asking.Seconds() / float64(steps), nil
}

// choleskySeconds times one factorisation of a Matérn-5/2 kernel matrix of
// n random points in dim dimensions (the best of 3, to damp noise).
func choleskySeconds(n, dim int) float64 {
	rng := rand.New(rand.NewPCG(uint64(n), 9))
	X := make([][]float64, n)
	for i := range X {
		X[i] = make([]float64, dim)
		for j := range X[i] {
			X[i][j] = rng.Float64()
		}
	}
	K := kernel.Matrix(kernel.NewStationary(kernel.Matern52, dim, true), X)
	for i := range n {
		K.SetSym(i, i, K.At(i, i)+1e-3)
	}
	best := 0.0
	for i := range 3 {
		var c mat.Cholesky
		start := time.Now()
		c.Factorize(K)
		if d := time.Since(start).Seconds(); i == 0 || d < best {
			best = d
		}
	}
	return best
}
