package acq

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/boaopt/boa/opt"
)

// SamplePath is one posterior sample path of the objective that can be
// evaluated and differentiated anywhere, such as a random-Fourier-feature
// path of a GP (gp.Path satisfies it) [spec §4.4]. Grad returns f(x) and
// writes ∇f(x) into grad (len(x)).
type SamplePath interface {
	Eval(x []float64) float64
	Grad(x, grad []float64) float64
}

const (
	// pathTop is the number of best candidates MinimizePath refines by
	// default, the library's top m of spec §6.1.
	pathTop = 5
	// pathIters bounds the BoxLBFGS iterations of one refinement (the
	// LocalIters default of spec §6.1).
	pathIters = 50
)

// MinimizePath returns a minimiser of the sample path p over the box
// [lo, hi] and its value: the candidates (clipped into the box) are scored,
// and the top best distinct ones (top ≤ 0: 5) are refined with BoxLBFGS on
// p's analytic gradient, at most 50 iterations each [spec §4.4: "the sample
// path is minimised over C then refined with BoxLBFGS"; spec §6.1]. Ties
// go to the earlier candidate. Non-finite path values are skipped; if every
// candidate's is, MinimizePath returns an error.
func MinimizePath(p SamplePath, candidates [][]float64, lo, hi []float64, top int) ([]float64, float64, error) {
	if len(candidates) == 0 {
		return nil, 0, errors.New("acq: MinimizePath needs at least one candidate")
	}
	d := len(lo)
	if len(hi) != d {
		return nil, 0, fmt.Errorf("acq: MinimizePath: box bounds of lengths %d and %d", d, len(hi))
	}
	if top <= 0 {
		top = pathTop
	}
	type scored struct {
		x []float64
		v float64
	}
	pts := make([]scored, 0, len(candidates))
	for i, c := range candidates {
		if len(c) != d {
			return nil, 0, fmt.Errorf("acq: MinimizePath: candidate %d has %d coordinates, box has %d", i, len(c), d)
		}
		x := make([]float64, d)
		for j, v := range c {
			x[j] = math.Min(math.Max(v, lo[j]), hi[j])
		}
		if v := p.Eval(x); !math.IsNaN(v) && !math.IsInf(v, 0) {
			pts = append(pts, scored{x, v})
		}
	}
	if len(pts) == 0 {
		return nil, 0, fmt.Errorf("acq: MinimizePath: the path is not finite at any of the %d candidates", len(candidates))
	}
	slices.SortStableFunc(pts, func(a, b scored) int { return cmp.Compare(a.v, b.v) })
	best := pts[0]
	obj := func(x, grad []float64) float64 {
		if grad == nil {
			return p.Eval(x)
		}
		return p.Grad(x, grad)
	}
	var starts [][]float64
	for _, s := range pts {
		if len(starts) == top {
			break
		}
		if !slices.ContainsFunc(starts, func(q []float64) bool { return slices.Equal(q, s.x) }) {
			starts = append(starts, s.x)
		}
	}
	for _, x0 := range starts {
		r := opt.BoxLBFGS(obj, x0, lo, hi, opt.LBFGSSettings{MaxIter: pathIters})
		if r.F < best.v {
			best = scored{r.X, r.F}
		}
	}
	return best.x, best.v, nil
}

// ThompsonPath returns the minimiser of the sample path p in the box
// [lo, hi], found by MinimizePath from the candidates: Thompson sampling
// with the `rff` sampler of spec §4.4 [000 §2.3.1; 004 §4.2], and the x*_j
// samples of PES-lite (spec §4.5).
func ThompsonPath(p SamplePath, candidates [][]float64, lo, hi []float64) ([]float64, error) {
	x, _, err := MinimizePath(p, candidates, lo, hi, 0)
	if err != nil {
		return nil, fmt.Errorf("acq: Thompson sampling by sample path: %w", err)
	}
	return x, nil
}

// PathMinima returns the minimum of each sample path over the box, found
// by MinimizePath from the candidates: MES's option `rff`, f*_k = min of an
// RFF sample path (spec §4.5; the seeds' MES baseline drew one such sample
// [000 §3.3]). Unlike GumbelMinima the values are not capped at the
// incumbent: a path's minimum is a sample of the latent f*, which may lie
// above a noisy observation.
//
// Scoring the candidates dominates the cost (one path evaluation each,
// O(md) for m features), so the paths are minimised on all cores, one path
// per goroutine at a time; the result does not depend on the schedule. The
// paths must be distinct values that can be used concurrently with each
// other (gp.Path values are).
func PathMinima(paths []SamplePath, candidates [][]float64, lo, hi []float64) ([]float64, error) {
	out := make([]float64, len(paths))
	errs := make([]error, len(paths))
	workers := min(runtime.GOMAXPROCS(0), len(paths))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := w; k < len(paths); k += workers {
				_, out[k], errs[k] = MinimizePath(paths[k], candidates, lo, hi, 0)
			}
		})
	}
	wg.Wait()
	for k, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("acq: minimum of sample path %d: %w", k, err)
		}
	}
	return out, nil
}
