package gp

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/opt"
)

// Library defaults [spec §2.3, §3.2 Decisions].
const (
	defaultNoise    = 1e-3
	defaultRestarts = 10
	defaultMaxIter  = 200
	// screenKeep is how many of the screened starts are optimised.
	screenKeep = 2
	// workspaceBudget bounds the memory of concurrent LML workspaces, so
	// that very large n runs them one at a time. Each holds three n×n
	// float64 matrices (the kernel matrix, its factor and the inverse for
	// the gradient): 24·n² bytes, measured with runtime.MemStats after one
	// valueGrad at n = 1000, d = 2 and 10.
	workspaceBudget = 256 << 20
	workspaceBytes  = 3 * 8 // per n²
)

var defaultNoiseBound = kernel.Bound{Lo: 1e-6, Hi: 1}

// Config configures Fit. The zero value of every field but Kernel selects a
// documented default.
type Config struct {
	Kernel     kernel.Kernel // cloned; its current params are one of the starts
	Noise      float64       // noise variance on the standardised scale; initial value (default 1e-3 when 0, unless FixNoise)
	FixNoise   bool          // keep Noise fixed (not optimised); Noise = 0 then means noiseless
	NoiseBound kernel.Bound  // natural units; default [1e-6, 1]
	Priors     []Prior       // one per kernel parameter (nil slice or nil entries = flat ⇒ MLE); MAP when any non-nil
	NoisePrior Prior         // prior on the noise variance (ignored with FixNoise)
	Mean       Mean          // prior mean: MeanZero (default) or MeanConstant (c fitted, profiled out)
	Restarts   int           // number of starts R (default 10)
	MaxIter    int           // L-BFGS iterations per start (default 200)
	Warm       []float64     // previous optimum (log kernel params followed by log noise) — warm start
	Rand       *rand.Rand    // for random restarts; required when Restarts > 2
	// Raw fits the targets as they are, not standardised: a zero prior
	// mean and a signal variance on the scale of y, scikit-learn's
	// normalize_y=False, which SVM-CBO's reference code uses (spec
	// constrained-autotinyml §4.3, its code_compat mode).
	Raw bool
}

// Fit standardises y [spec §1.3] (unless Config.Raw), chooses the kernel and noise
// hyper-parameters by maximising the log marginal likelihood plus the log
// priors [000 Eqs. 2.10–2.12; spec §3.2], factorises and returns the model.
//
// Starts (spec §3.2 Decision): Config.Warm when given, the kernel's current
// parameters with Config.Noise, and R − 2 points drawn uniformly in the box
// of log-parameter bounds (log-uniform in natural units). R = Restarts,
// default 10; R = 1 optimises only from Warm (or, without it, the current
// parameters).
//
// Deviation for speed: the objective (one Cholesky, no gradient) is first
// evaluated at every start, and projected L-BFGS runs only from the best two
// — always including Warm when it is given and finite. Starts whose
// factorisation fails count as −Inf and are skipped; if all fail, Fit
// returns that error (wrapping ErrNotPositiveDefinite). The local runs
// minimise −(LML + log prior)/n, so that the stopping tolerances of spec
// §3.2 do not depend on n (as GPyTorch scales its marginal likelihood).
func Fit(X [][]float64, y []float64, cfg Config) (*GP, error) {
	if cfg.Kernel == nil {
		return nil, errors.New("gp: Config.Kernel is nil")
	}
	xs, err := copyInputs(X, y, cfg.Kernel)
	if err != nil {
		return nil, err
	}
	ys, offset, scale := standardize(y)
	if cfg.Raw {
		ys, offset, scale = rawTargets(y), 0, 1
	}
	pr, err := newProblem(xs, ys, cfg)
	if err != nil {
		return nil, err
	}
	starts, err := pr.starts(cfg)
	if err != nil {
		return nil, err
	}
	res, err := pr.optimize(starts)
	if err != nil {
		return nil, err
	}
	k := cfg.Kernel.Clone()
	k.SetParams(res.X[:pr.nk])
	g, err := newGP(xs, ys, offset, scale, k, pr.logNoiseOf(res.X), cfg.Mean)
	if err != nil {
		return nil, err
	}
	g.priors, g.noisePrior, g.fixNoise = pr.priors, pr.noisePrior, pr.fixNoise
	return g, nil
}

// problem is the hyper-parameter optimisation problem over z: the kernel's
// log-parameters, then the log noise unless it is fixed.
type problem struct {
	x          [][]float64
	y          []float64
	k          kernel.Kernel
	nk         int
	fixNoise   bool
	logNoise   float64 // initial (or fixed) log noise
	lo, hi     []float64
	priors     []Prior
	noisePrior Prior
	mean       Mean
	maxIter    int
	hasWarm    bool
}

func newProblem(x [][]float64, y []float64, cfg Config) (*problem, error) {
	k := cfg.Kernel.Clone()
	nk := k.NumParams()
	if len(cfg.Priors) != 0 && len(cfg.Priors) != nk {
		return nil, fmt.Errorf("gp: %d priors for a kernel with %d parameters", len(cfg.Priors), nk)
	}
	if err := cfg.Mean.check(); err != nil {
		return nil, err
	}
	noise := cfg.Noise
	if math.IsNaN(noise) || math.IsInf(noise, 0) || noise < 0 {
		return nil, fmt.Errorf("gp: Config.Noise = %v must be finite and >= 0", noise)
	}
	if noise == 0 && !cfg.FixNoise {
		noise = defaultNoise
	}
	nb := cfg.NoiseBound
	if nb == (kernel.Bound{}) {
		nb = defaultNoiseBound
	}
	if !(nb.Lo > 0 && nb.Lo <= nb.Hi) || math.IsInf(nb.Hi, 0) {
		return nil, fmt.Errorf("gp: Config.NoiseBound %v must satisfy 0 < Lo <= Hi < Inf", nb)
	}
	pr := &problem{
		x: x, y: y, k: k, nk: nk,
		fixNoise: cfg.FixNoise, logNoise: math.Log(noise),
		priors: slices.Clone(cfg.Priors), noisePrior: cfg.NoisePrior,
		mean: cfg.Mean, maxIter: cfg.MaxIter,
	}
	if pr.maxIter <= 0 {
		pr.maxIter = defaultMaxIter
	}
	for j, b := range k.Bounds() {
		if !(b.Lo <= b.Hi) || math.IsInf(b.Lo, 0) || math.IsInf(b.Hi, 0) {
			return nil, fmt.Errorf("gp: kernel parameter %d has invalid log-bounds %v", j, b)
		}
		pr.lo = append(pr.lo, b.Lo)
		pr.hi = append(pr.hi, b.Hi)
	}
	if !pr.fixNoise {
		pr.lo = append(pr.lo, math.Log(nb.Lo))
		pr.hi = append(pr.hi, math.Log(nb.Hi))
	}
	return pr, nil
}

func (pr *problem) logNoiseOf(z []float64) float64 {
	if pr.fixNoise {
		return pr.logNoise
	}
	return z[pr.nk]
}

// starts returns the projected starting points, Warm first when given.
func (pr *problem) starts(cfg Config) ([][]float64, error) {
	dim := len(pr.lo)
	var starts [][]float64
	if cfg.Warm != nil {
		if len(cfg.Warm) != pr.nk+1 {
			return nil, fmt.Errorf("gp: Config.Warm has %d values, want %d (kernel log-parameters then log noise)", len(cfg.Warm), pr.nk+1)
		}
		if slices.ContainsFunc(cfg.Warm, math.IsNaN) {
			return nil, fmt.Errorf("gp: Config.Warm %v contains NaN", cfg.Warm)
		}
		starts = append(starts, slices.Clone(cfg.Warm[:dim]))
		pr.hasWarm = true
	}
	cur := pr.k.Params(nil)
	if !pr.fixNoise {
		cur = append(cur, pr.logNoise)
	}
	starts = append(starts, cur)
	r := cfg.Restarts
	if r <= 0 {
		r = defaultRestarts
	}
	if r == 1 {
		starts = starts[:1]
	}
	if nr := r - 2; nr > 0 {
		if cfg.Rand == nil {
			return nil, fmt.Errorf("gp: Config.Rand is required for %d random restarts (Restarts = %d)", nr, r)
		}
		for s := 0; s < nr; s++ {
			z := make([]float64, dim)
			for i := range z {
				z[i] = pr.lo[i] + cfg.Rand.Float64()*(pr.hi[i]-pr.lo[i])
			}
			starts = append(starts, z)
		}
	}
	for _, z := range starts {
		for i := range z {
			z[i] = math.Max(pr.lo[i], math.Min(pr.hi[i], z[i]))
		}
	}
	return starts, nil
}

// objective adapts an lmlWork to opt.BoxLBFGS: φ(z) = −(LML + log prior)/n.
type objective struct {
	pr  *problem
	w   *lmlWork
	p   []float64 // full log-params
	pg  []float64 // full gradient
	err error     // last failure
}

func (pr *problem) newObjective() *objective {
	return &objective{pr: pr, w: newLMLWork(pr.x, pr.y, pr.k, pr.mean), p: make([]float64, pr.nk+1), pg: make([]float64, pr.nk+1)}
}

func (o *objective) eval(z, grad []float64) (float64, bool) {
	pr := o.pr
	copy(o.p, z[:pr.nk])
	o.p[pr.nk] = pr.logNoiseOf(z)
	np := pr.noisePrior
	if pr.fixNoise {
		np = nil
	}
	var l float64
	var err error
	if grad == nil {
		l, err = o.w.value(o.p)
	} else {
		l, err = o.w.valueGrad(o.p, o.pg)
	}
	if err != nil {
		o.err = err
		return math.Inf(1), false
	}
	var g []float64
	if grad != nil {
		g = o.pg
	}
	l += logPrior(o.p, pr.priors, np, g)
	scale := -1 / float64(len(pr.x))
	for i := range grad {
		grad[i] = scale * o.pg[i]
	}
	return scale * l, !math.IsNaN(l)
}

// optimize screens the starts, runs projected L-BFGS from the best ones and
// returns the best local optimum.
func (pr *problem) optimize(starts [][]float64) (opt.Result, error) {
	chosen := starts
	var firstErr error
	if len(starts) > screenKeep {
		vals := make([]float64, len(starts))
		errs := make([]error, len(starts))
		pr.parallel(len(starts), func(o *objective, i int) {
			v, ok := o.eval(starts[i], nil)
			if !ok {
				v, errs[i] = math.Inf(1), o.err
			}
			vals[i] = v
		})
		order := make([]int, 0, len(starts))
		for i, v := range vals {
			if !math.IsInf(v, 1) {
				order = append(order, i)
			} else if firstErr == nil {
				firstErr = errs[i]
			}
		}
		// Warm (index 0) is kept whenever it could be evaluated.
		keepWarm := pr.hasWarm && len(order) > 0 && order[0] == 0
		if keepWarm {
			order = order[1:]
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(vals[a], vals[b]) })
		if keepWarm {
			order = append([]int{0}, order...)
		}
		chosen = chosen[:0:0]
		for _, i := range order[:min(screenKeep, len(order))] {
			chosen = append(chosen, starts[i])
		}
	}
	results := make([]opt.Result, len(chosen))
	oks := make([]bool, len(chosen))
	errs := make([]error, len(chosen))
	pr.parallel(len(chosen), func(o *objective, i int) {
		o.err = nil
		f := func(z, grad []float64) float64 {
			v, ok := o.eval(z, grad)
			if !ok {
				return math.Inf(1) // a failed factorisation: the line search backs off
			}
			return v
		}
		results[i] = opt.BoxLBFGS(f, chosen[i], pr.lo, pr.hi, opt.LBFGSSettings{MaxIter: pr.maxIter})
		oks[i] = results[i].Status != opt.StatusNonFinite
		errs[i] = o.err
	})
	best := -1
	for i := range results {
		if oks[i] && (best < 0 || results[i].F < results[best].F) {
			best = i
		}
		if !oks[i] && firstErr == nil {
			firstErr = errs[i]
		}
	}
	if best < 0 {
		if firstErr == nil {
			firstErr = fmt.Errorf("%w: no start could be evaluated", ErrNotPositiveDefinite)
		}
		return opt.Result{}, fmt.Errorf("gp: every hyper-parameter start failed: %w", firstErr)
	}
	return results[best], nil
}

// parallel runs fn(o, i) for i < n on a few goroutines, each with its own
// objective (workspace). Results are written by index, so the outcome does
// not depend on scheduling.
func (pr *problem) parallel(n int, fn func(o *objective, i int)) {
	nx := len(pr.x)
	workers := min(runtime.GOMAXPROCS(0), n, max(1, workspaceBudget/(workspaceBytes*nx*nx)))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := pr.newObjective()
			for i := w; i < n; i += workers {
				fn(o, i)
			}
		}()
	}
	wg.Wait()
}
