package mobster

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/curve"
	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
)

// MOBSTER is the model of MOBSTER's stopping variant (Klein et al. 2020;
// the package documentation says why stopping is the pruner's):
//
//   - Data. Every finite intermediate value (History.Partial) is an
//     observation at its step, and every complete trial's value one at
//     the final fidelity. The fidelity input is the step log-scaled to
//     [0, 1], z = log(1 + step)/log(1 + S), S = MaxStep, else the
//     maximum of the study's fidelity (History.Fidelity), else the
//     largest step reported; a final value is at z = 1. Learning curves
//     rise steeply in their first epochs and flatten later, so on the log
//     scale one lengthscale fits the early and the late steps alike.
//     Infeasible and non-finite final values are bo.Penalty's, as bohb's.
//   - Model. One GP over the configuration's features and z, fitted by MAP
//     with gpbo's priors, its kernel a sum of Matérn-5/2 terms in x, in z
//     and in both (fidelityKernel), where MOBSTER's default is an
//     exponential-decay kernel over the resource (a Decision: the sum
//     needs no parametric model of the curve's shape, and learns from its
//     lengthscales how far the early steps predict the final value).
//   - Size. Beyond MaxData observations the GP is fitted to MaxData of
//     them, so a suggestion stays one O(MaxData³) fit however many epochs
//     were reported: first every configuration's highest-fidelity
//     observation, then the others from the highest fidelity down, ties
//     broken at random (Syne Tune also caps its data, at 500, keeping the
//     high resources).
//   - Acquisition. Log-EI at one fidelity, with the incumbent the lowest
//     posterior mean there over the configurations observed: the largest
//     fidelity with at least Threshold observations, or the smallest when
//     none has, the rule of BOHB that Syne Tune's MOBSTER uses
//     (resource_acq "bohb", threshold 3) [reference code:
//     syne-tune/syne-tune]. Early on that is the first rung, where the
//     data are; once Threshold trials have completed it is the final
//     fidelity, so the model proposes what it expects to be best when
//     trained in full, informed by every curve it has seen.
//   - Running trials. Pending and failed configurations are fantasised at
//     their posterior mean at the acquisition's fidelity (Kriging
//     Believer, as gpbo), so asynchronous workers get distinct proposals;
//     pruned ones are in the data through their reports, and no
//     configuration tried is proposed again (bo.Excluded).
//   - Design. While fewer than InitPoints configurations have data, the
//     proposals are gpbo's Sobol design.
//   - Estimator (optional): with a curve.Estimator each configuration's
//     curve, its final value appended as the last point, is replaced by
//     the estimate after every step (TSE, package
//     curve [000 ch. 8]; tse-e with E = 1 is the raw values): the model then ranks
//     by the training-speed estimate at every fidelity.
//
// Partial values are not transformed (History.Partial); under a study
// transform other than none the final values are on another scale than
// the reports, so mobster is meant for studies without one.
type MOBSTER struct {
	InitPoints int    // configurations with data before the model is used; 0 means max(5, d+1), gpbo's design
	Threshold  int    // the acquisition's fidelity rule; 0 means 3, Syne Tune's
	MaxStep    int64  // the step of full fidelity; 0 means the study's fidelity's maximum, or without one the largest step reported
	MaxData    int    // observations the GP is fitted to at most; 0 means 256
	Restarts   int    // hyper-parameter starts of a full fit (gp.Config.Restarts); 0 means 10
	RefitEvery int    // a fit every this many trials, the last fitted values reused between; 0 means 5
	Candidates int    // raw acquisition candidates; 0 means the optimiser's default
	Estimator  string // "" (the reported values), tse, tse-e or tse-ema (curve.New)
	E          int    // tse-e's E; 0 means curve.DefaultE
	Gamma      float64
	Logger     *slog.Logger

	warm bo.WarmStart
}

// New returns mobster with its defaults.
func New() *MOBSTER { return &MOBSTER{} }

func (m *MOBSTER) Name() string { return "mobster" }

// UsesPartial implements sampler.MultiFidelity.
func (m *MOBSTER) UsesPartial() {}

func (m *MOBSTER) log() *slog.Logger { return cmp.Or(m.Logger, slog.Default()) }

// Designing reports whether fewer than InitPoints configurations have an
// observation, final or intermediate.
func (m *MOBSTER) Designing(h *sampler.History) bool {
	n := bo.OrDefault(m.InitPoints, bo.DesignSize(h.Space))
	seen := map[string]bool{}
	for _, o := range h.Observed {
		seen[h.Space.Key(o.X)] = true
	}
	for _, p := range h.Partial {
		seen[h.Space.Key(p.X)] = true
	}
	return len(seen) < n
}

// point is one observation of the model: configuration u (encoded), at
// fidelity z in [0, 1].
type point struct {
	u    []float64
	z, y float64
	last bool // the highest-fidelity observation of its configuration
}

// Suggest returns a design point while Designing, else the maximiser of
// log-EI at the acquisition's fidelity.
func (m *MOBSTER) Suggest(ctx context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	sp := h.Space
	if m.Designing(h) {
		return bo.FreshDesignPoint(h, bo.SobolPoint(h, h.Trials, m.log()), rng), nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pts, err := m.points(h)
	if err != nil {
		return nil, fmt.Errorf("mobster: %w", err)
	}
	if len(pts) == 0 { // only non-finite values so far
		return bo.UntriedPoint(h, rng), nil
	}
	zAcq := acquisitionLevel(pts, cmp.Or(m.Threshold, 3))
	pts = subsample(pts, cmp.Or(m.MaxData, 256), rng)
	model, err := m.fit(sp, pts, h.Trials, rng)
	if err != nil {
		m.log().Warn("mobster: surrogate fit failed; proposing an untried random point", "trial", h.Trials, "err", err)
		return bo.UntriedPoint(h, rng), nil
	}
	at := atLevel{model, zAcq}
	var F [][]float64
	for _, u := range slices.Concat(h.Pending, h.Failed) {
		F = append(F, at.input(sp.Features(u, nil)))
	}
	model, fantasised := bo.BelieveAll(model, F)
	at.m = model
	best := bo.FantasyIncumbent(incumbent(sp, at, pts), fantasised)
	u, err := bo.MaximizeWithin(sp, acq.Bind(acq.LogEI{Best: best}, at), h, m.Candidates, nil, nil, rng)
	if err != nil {
		m.log().Warn("mobster: acquisition optimisation found no new point; proposing an untried random point", "trial", h.Trials, "err", err)
		return bo.UntriedPoint(h, rng), nil
	}
	return u, nil
}

// points gathers the model's observations from h: the intermediate values
// at their fidelities and the final values at z = 1, through the
// estimator when one is set.
func (m *MOBSTER) points(h *sampler.History) ([]point, error) {
	S := m.MaxStep
	if S <= 0 && h.Fidelity != nil {
		S = h.Fidelity.Max
	}
	if S <= 0 {
		for _, p := range h.Partial {
			S = max(S, p.Step)
		}
	}
	level := func(step int64) float64 {
		if S <= 0 || step >= S {
			return 1
		}
		return math.Log1p(float64(max(step, 0))) / math.Log1p(float64(S))
	}
	type step struct {
		z, y float64
	}
	curves := map[string][]step{}
	xs := map[string][]float64{}
	var keys []string // in the order first seen, for a deterministic result
	add := func(u []float64, z, y float64) {
		k := h.Space.Key(u)
		if _, ok := xs[k]; !ok {
			xs[k] = u
			keys = append(keys, k)
		}
		curves[k] = append(curves[k], step{z, y})
	}
	for _, p := range h.Partial {
		if finite(p.Y) {
			add(p.X, level(p.Step), p.Y)
		}
	}
	// Final values after the reports, so that each curve ends with its final value.
	var losses []float64
	for _, o := range h.Observed {
		if !o.Infeasible && finite(o.Y) {
			losses = append(losses, o.Y)
		}
	}
	for _, o := range h.Observed {
		y := o.Y
		if o.Infeasible || !finite(y) {
			if len(losses) == 0 {
				continue
			}
			y = bo.Penalty(losses)
		}
		add(o.X, 1, y)
	}
	var est curve.Estimator
	if m.Estimator != "" {
		var err error
		if est, err = curve.New(m.Estimator, m.E, m.Gamma); err != nil {
			return nil, err
		}
	}
	var pts []point
	for _, k := range keys {
		c := curves[k]
		slices.SortStableFunc(c, func(a, b step) int { return cmp.Compare(a.z, b.z) })
		ys := make([]float64, len(c))
		for i, s := range c {
			ys[i] = s.y
		}
		if est != nil {
			ys = est.EstimateEach(ys)
		}
		for i, s := range c {
			pts = append(pts, point{u: xs[k], z: s.z, y: ys[i], last: i == len(c)-1})
		}
	}
	return pts, nil
}

// acquisitionLevel is the fidelity the acquisition is evaluated at: the
// largest with at least threshold observations, else the smallest.
func acquisitionLevel(pts []point, threshold int) float64 {
	count := map[float64]int{}
	for _, p := range pts {
		count[p.z]++
	}
	best, low := math.Inf(-1), math.Inf(1)
	for z, n := range count {
		low = min(low, z)
		if n >= threshold {
			best = max(best, z)
		}
	}
	if math.IsInf(best, -1) {
		return low
	}
	return best
}

// subsample keeps at most n of pts: every configuration's
// highest-fidelity observation before the others, and within each group
// the higher fidelities first, ties in random order.
func subsample(pts []point, n int, rng *rand.Rand) []point {
	if len(pts) <= n {
		return pts
	}
	order := rng.Perm(len(pts))
	slices.SortStableFunc(order, func(a, b int) int {
		pa, pb := pts[a], pts[b]
		if pa.last != pb.last {
			if pa.last {
				return -1
			}
			return 1
		}
		return cmp.Compare(pb.z, pa.z)
	})
	out := make([]point, n)
	for i, j := range order[:n] {
		out[i] = pts[j]
	}
	return out
}

// fit fits the GP to pts every RefitEvery trials, and when it has no
// fitted values yet; in between it reuses the last fitted values.
func (m *MOBSTER) fit(sp *space.Space, pts []point, trial int, rng *rand.Rand) (*gp.GP, error) {
	X, y := make([][]float64, len(pts)), make([]float64, len(pts))
	for i, p := range pts {
		X[i], y[i] = append(sp.Features(p.u, nil), p.z), p.y
	}
	k, priors := fidelityKernel(sp.NumFeatures())
	cfg := gp.Config{Kernel: k, Restarts: cmp.Or(m.Restarts, 10), Rand: rng, Priors: priors}
	_, cfg.NoisePrior = bo.MAPPriors(kernel.NewStationary(kernel.Matern52, 1, false))
	// Between full fits the last values are reused as they are, one
	// factorisation: a few new observations among hundreds barely move
	// them, and fitting every time cost 1.5 s a suggestion at 256
	// observations, most of a benchmark's time.
	between := trial%cmp.Or(m.RefitEvery, 5) != 0
	if model, data := m.warm.Reuse("", k, gp.MeanZero, X, y, between); model != nil {
		return model, nil
	} else {
		// All starts on the first fit and on every fifth; the others
		// polish the last values, briefly: they move little in between.
		cfg.Warm = m.warm.Get("", k.NumParams()+1)
		if cfg.Warm != nil && trial%(5*cmp.Or(m.RefitEvery, 5)) != 0 {
			cfg.Restarts, cfg.MaxIter = 1, 50
		}
		model, err := gp.Fit(X, y, cfg)
		if err != nil {
			return nil, err
		}
		m.warm.Set("", model.Params(), data)
		return model, nil
	}
}

// fidelityKernel is the kernel over f configuration features and the
// fidelity z (the last input), k = k_x(x) + k_z(z) + k_xz(x, z), three
// Matérn-5/2 terms (ARD but for k_z's one input) with gpbo's MAP priors
// each: a value is a(x) + b(z) + c(x, z), the configuration's own
// quality, the learning curve all configurations share, and how this
// configuration's curve departs from it. With the joint term alone the
// shared curve, as large as the differences between configurations, took
// a short lengthscale in z, and an early value said little about the
// final one: on a toy whose value after epoch e is f(x) + 1/e, a run
// proposed 40 near-copies of a point ASHA stopped at the first epoch each
// time (the additive a(x) is what carries an early value to full
// fidelity, as the configuration term of MOBSTER's exponential-decay
// kernel does).
func fidelityKernel(f int) (kernel.Kernel, []gp.Prior) {
	xcols := make([]int, f)
	for i := range xcols {
		xcols[i] = i
	}
	kx := kernel.NewStationary(kernel.Matern52, f, true)
	kz := kernel.NewStationary(kernel.Matern52, 1, false)
	kxz := kernel.NewStationary(kernel.Matern52, f+1, true)
	var priors []gp.Prior
	for _, k := range []*kernel.Stationary{kx, kz, kxz} {
		p, _ := bo.MAPPriors(k)
		priors = append(priors, p...)
	}
	return kernel.NewSum(kernel.NewSubset(kx, xcols), kernel.NewSubset(kz, []int{f}), kxz), priors
}

// incumbent is the lowest posterior mean at the acquisition's fidelity over
// the configurations observed.
func incumbent(sp *space.Space, at atLevel, pts []point) float64 {
	seen := map[string]bool{}
	var F [][]float64
	for _, p := range pts {
		if k := sp.Key(p.u); !seen[k] {
			seen[k] = true
			F = append(F, sp.Features(p.u, nil))
		}
	}
	mean, v := make([]float64, len(F)), make([]float64, len(F))
	at.PredictBatch(F, mean, v)
	return slices.Min(mean)
}

// atLevel is the GP as a model of the configuration's features alone, at
// fidelity z: what the acquisition maximises over.
type atLevel struct {
	m *gp.GP
	z float64
}

func (a atLevel) input(f []float64) []float64 { return append(slices.Clip(f), a.z) }

func (a atLevel) Predict(x []float64) (float64, float64) { return a.m.Predict(a.input(x)) }

func (a atLevel) PredictGrad(x, dmean, dvar []float64) (float64, float64) {
	var dm, dv []float64
	if dmean != nil {
		dm = make([]float64, len(x)+1)
	}
	if dvar != nil {
		dv = make([]float64, len(x)+1)
	}
	mean, v := a.m.PredictGrad(a.input(x), dm, dv)
	copy(dmean, dm)
	copy(dvar, dv)
	return mean, v
}

func (a atLevel) PredictBatch(X [][]float64, mean, varF []float64) {
	Z := make([][]float64, len(X))
	for i, x := range X {
		Z[i] = a.input(x)
	}
	a.m.PredictBatch(Z, mean, varF)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// options are the settings a study file may give mobster (sampler: {type:
// mobster, max_step: 52, estimator: tse-e}).
var options = map[string]sampler.Option[MOBSTER]{
	"init_points": {Help: "an integer ≥ 1, the configurations with data before the model is used (default max(5, d+1))", Set: sampler.IntOption(func(m *MOBSTER) *int { return &m.InitPoints }, 1)},
	"threshold":   {Help: "an integer ≥ 1: the acquisition is at the largest fidelity with this many observations (default 3)", Set: sampler.IntOption(func(m *MOBSTER) *int { return &m.Threshold }, 1)},
	"max_step": {Help: "an integer ≥ 1, the step of full fidelity (default: the largest step reported)", Set: func(m *MOBSTER, v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			return fmt.Errorf("%q is not an integer ≥ 1", v)
		}
		m.MaxStep = n
		return nil
	}},
	"max_data":    {Help: "an integer ≥ 2, the observations the GP is fitted to at most (default 256)", Set: sampler.IntOption(func(m *MOBSTER) *int { return &m.MaxData }, 2)},
	"restarts":    {Help: "an integer ≥ 1, the hyper-parameter starts of a full fit (default 10)", Set: sampler.IntOption(func(m *MOBSTER) *int { return &m.Restarts }, 1)},
	"refit_every": {Help: "an integer ≥ 1, trials between full fits (default 5)", Set: sampler.IntOption(func(m *MOBSTER) *int { return &m.RefitEvery }, 1)},
	"candidates":  {Help: "an integer ≥ 1, the raw acquisition candidates", Set: sampler.IntOption(func(m *MOBSTER) *int { return &m.Candidates }, 1)},
	"estimator": {Help: "none, tse, tse-e or tse-ema, the curve estimate the model is fitted to (default none: the reported values)", Set: func(m *MOBSTER, v string) error {
		if v == "none" {
			v = ""
		}
		m.Estimator = v
		return nil
	}},
	"e": {Help: "an integer ≥ 1, tse-e's number of latest epochs (default 1)", Set: sampler.IntOption(func(m *MOBSTER) *int { return &m.E }, 1)},
	"gamma": {Help: "a number in (0, 1], tse-ema's γ (default 0.999)", Set: func(m *MOBSTER, v string) error {
		g, err := strconv.ParseFloat(v, 64)
		if err != nil || !(g > 0 && g <= 1) {
			return fmt.Errorf("%q is not a number in (0, 1]", v)
		}
		m.Gamma = g
		return nil
	}},
}

// Configure implements sampler.Configurable.
func (m *MOBSTER) Configure(opts sampler.Options) error {
	if err := sampler.Configure(m, opts, options, nil); err != nil {
		return err
	}
	if m.Estimator != "" {
		if _, err := curve.New(m.Estimator, m.E, m.Gamma); err != nil {
			return fmt.Errorf("option estimator: %w", err)
		}
	}
	return nil
}

func init() { sampler.Register("mobster", func() sampler.Sampler { return New() }) }
