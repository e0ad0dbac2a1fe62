package bo

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
)

// Feasibility fits the models of where a study's trials hold its
// constraints and where they compute at all, and keeps their warm starts
// between calls. Each model is gpbo's GP (Matérn-5/2 ARD on
// space.Features, MAP with MAPPriors, targets standardised by gp.Fit),
// and each gives one factor of the acquisition, acq.Feasible:
//
//   - one per constraint, fitted to the observations' slacks
//     (Observation.Slack; NaN ones, metrics a trial did not report, left
//     out): the probability of feasibility of constrained EI (Gardner et
//     al. 2014; Gelbart et al. 2014);
//   - one for computability, when the history has failed trials: GP
//     regression on the labels −1 (Observed) and +1 (Failed), the
//     least-squares classification of Rasmussen & Williams 2006 §6.5, so
//     that P(computable) = Φ(−μ/σ).
//
// Why a GP and not the package svm with Platt scaling: the GP's σ grows
// away from the data, so a region without a trial keeps a fair chance of
// computing, where an SVM's decision value falls back to its bias; the
// GP needs no cross-validation to calibrate, fits with gpbo's machinery,
// and gives the input gradient that the acquisition's L-BFGS uses. It is
// also the same factor as a constraint's, the label being a slack: ≤ 0
// where trials compute. The deviation from R&W §6.5: they calibrate the
// regression by Φ(y(aμ + b)/√(1 + a²σ²)) with a, b fitted to the
// leave-one-out predictions; boa takes Φ(−μ/σ), the posterior
// probability that the latent label lies on the computable side, with
// nothing fitted beyond the GP (Gelbart et al. 2014 put a GP classifier
// of binary outcomes in the same place).
//
// The zero value is ready to use; it is safe for concurrent use.
type Feasibility struct {
	// IgnoreFailed leaves the classifier of computability out, as boa
	// was before it, for the tests that compare the two.
	IgnoreFailed bool

	mu   sync.Mutex
	warm map[string]*WarmStart
}

// Factors returns the factors for h: the constraints' when constraints is
// set and h has any (History.Constraints), and computability's when h
// has failed trials; none for an unconstrained study without failures,
// so the acquisition is left exactly as it was. A model that cannot be
// fitted (fewer than two finite slacks, or a failed fit) gives no factor;
// the error says which, for the sampler to log.
func (f *Feasibility) Factors(h *sampler.History, constraints bool, rng *rand.Rand) ([]acq.Penalty, error) {
	sp := h.Space
	var out []acq.Penalty
	var errs []error
	add := func(key string, X [][]float64, y []float64) {
		if len(X) < 2 {
			errs = append(errs, fmt.Errorf("%s: %d values, too few to fit", key, len(X)))
			return
		}
		m, err := f.fit(sp, key, X, y, rng)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", key, err))
			return
		}
		out = append(out, acq.Feasible{Model: m})
	}
	if constraints {
		for j, name := range h.Constraints {
			var X [][]float64
			var y []float64
			for _, o := range h.Observed {
				if j < len(o.Slack) && !math.IsNaN(o.Slack[j]) {
					X, y = append(X, sp.Features(o.X, nil)), append(y, o.Slack[j])
				}
			}
			add("constraint "+name, X, y)
		}
	}
	if len(h.Failed) > 0 && !f.IgnoreFailed {
		X := make([][]float64, 0, len(h.Observed)+len(h.Failed))
		y := make([]float64, 0, cap(X))
		for _, o := range h.Observed {
			X, y = append(X, sp.Features(o.X, nil)), append(y, -1)
		}
		for _, u := range h.Failed {
			X, y = append(X, sp.Features(u, nil)), append(y, 1)
		}
		add("computability", X, y)
	}
	return out, errors.Join(errs...)
}

// fit fits the GP of one factor, warm-started from its last fit.
func (f *Feasibility) fit(sp *space.Space, key string, X [][]float64, y []float64, rng *rand.Rand) (*gp.GP, error) {
	f.mu.Lock()
	if f.warm == nil {
		f.warm = map[string]*WarmStart{}
	}
	w := f.warm[key]
	if w == nil {
		w = new(WarmStart)
		f.warm[key] = w
	}
	f.mu.Unlock()
	k := kernel.NewStationary(kernel.Matern52, sp.NumFeatures(), true)
	m, data := w.Reuse("", k, gp.MeanZero, X, y, false)
	if m != nil {
		return m, nil
	}
	cfg := gp.Config{Kernel: k, Rand: rng, Warm: w.Get("", k.NumParams()+1)}
	cfg.Priors, cfg.NoisePrior = MAPPriors(k)
	if cfg.Warm != nil && !FullFit(len(X)) {
		cfg.Restarts = 1
	}
	m, err := gp.Fit(X, y, cfg)
	if err != nil {
		return nil, err
	}
	w.Set("", m.Params(), data)
	return m, nil
}

// MAPPriors are gpbo's MAP priors on the standardised scale, in the order
// of the stationary kernel's parameters (lengthscales, signal variance,
// and RQ's α, which stays flat). The seeds fix none for plain GP-BO (spec
// gp-and-acquisitions §3.2 names only PLAyBOOK's), so these were chosen
// by measurement (docs/gp-defaults.md): log lengthscale ~ N(log 0.5, 1)
// (half the unit box), signal variance Gamma(2, 0.15), log noise variance
// ~ N(log 1e-4, 1), which suits the deterministic or nearly deterministic
// objectives of hyper-parameter tuning while the data can still raise it.
func MAPPriors(k *kernel.Stationary) ([]gp.Prior, gp.Prior) {
	priors := make([]gp.Prior, k.NumParams())
	nl := len(k.Lengthscales())
	for i := range nl {
		priors[i] = gp.LogNormalPrior(math.Log(0.5), 1)
	}
	priors[nl] = gp.GammaPrior(2, 0.15)
	return priors, gp.LogNormalPrior(math.Log(1e-4), 1)
}

// BestFeasible is the smallest Y of the feasible observations of obs
// (all of them in an unconstrained study), and whether there is one: the
// incumbent of constrained EI (Gardner et al. 2014).
func BestFeasible(obs []sampler.Observation) (float64, bool) {
	best, ok := math.Inf(1), false
	for _, o := range obs {
		if !o.Infeasible && o.Y < best {
			best, ok = o.Y, true
		}
	}
	return best, ok
}

// LogFeasible returns Σ_j log P_j at the encoded point u, the factors
// being on sp.Features(u), for the samplers whose own model has other
// inputs (cocabo, casmopolitan). With grad != nil it writes the gradient
// over u into grad: for each active Float, Int or Ordinal coordinate,
// whose feature is u's coordinate itself, and zero elsewhere (as
// AcqObjective).
func LogFeasible(sp *space.Space, factors []acq.Penalty, u, grad []float64) float64 {
	if grad != nil {
		clear(grad)
	}
	if len(factors) == 0 {
		return 0
	}
	x := sp.Features(u, nil)
	var fg []float64
	if grad != nil {
		fg = make([]float64, len(x))
	}
	var active []bool
	var v float64
	for _, f := range factors {
		v += f.LogEval(x, fg)
		if grad == nil {
			continue
		}
		if active == nil {
			active = sp.Active(u)
		}
		for i, p := range sp.Params() {
			if active[i] && (p.Kind == space.Float || p.Kind == space.Int || p.Kind == space.Ordinal) {
				grad[i] += fg[sp.FeatureIndex(i)]
			}
		}
	}
	return v
}

// Weighted returns an acquisition objective of the encoded point u and
// its batch scorer (opt.Domain's objective, opt.MaximizeSettings.Batch)
// weighted by factors in log space, log g(α(u)) + LogFeasible(u), as
// acq.Constrained does on a model's own inputs; pos is g, nil when α is
// a log acquisition already. The gradient gains the factors' only on the
// coordinates free marks (the ones the objective's gradient moves).
func Weighted(sp *space.Space, factors []acq.Penalty, pos acq.Positivity, free []bool,
	f func(u, grad []float64) float64, batch func(U [][]float64, values []float64),
) (func(u, grad []float64) float64, func(U [][]float64, values []float64)) {
	logG := func(a float64) (v, dv float64) {
		if pos == nil {
			return a, 1
		}
		g, dg := pos.Apply(a)
		return math.Log(g), dg / g
	}
	fg := make([]float64, sp.Len())
	weighted := func(u, grad []float64) float64 {
		v, dv := logG(f(u, grad))
		if grad == nil {
			return v + LogFeasible(sp, factors, u, nil)
		}
		v += LogFeasible(sp, factors, u, fg)
		for i := range grad {
			grad[i] *= dv
			if free[i] {
				grad[i] += fg[i]
			}
		}
		return v
	}
	weightedBatch := func(U [][]float64, values []float64) {
		batch(U, values)
		for i, u := range U {
			values[i], _ = logG(values[i])
			values[i] += LogFeasible(sp, factors, u, nil)
		}
	}
	return weighted, weightedBatch
}
