package gpbo

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/transform"
	"github.com/boaopt/boa/uncertain"
)

// Acquisition names accepted by GPBO.Acquisition.
const (
	AcqLogEI = "logei" // log expected improvement (default, spec §4.1)
	AcqEI    = "ei"
	AcqPI    = "pi"
	AcqLCB   = "lcb"    // confidence bound κσ − μ with a fixed κ (spec §4.2)
	AcqGPUCB = "gp-ucb" // confidence bound with the GP-UCB β schedule [000 Eq. 2.22]
	AcqTS    = "ts"     // Thompson sampling on a candidate set (spec §4.4, exact)
	// The information-theoretic acquisitions (spec §4.3–4.6; infotheoretic.go).
	AcqFITBO   = "fitbo"    // FITBO, the mixture entropy by quadrature [000 Ch. 3]
	AcqFITBOMM = "fitbo-mm" // FITBO with the entropy by moment matching [000 §3.2.3]
	AcqMES     = "mes"      // max-value entropy search (Wang & Jegelka 2017)
	AcqPES     = "pes"      // predictive entropy search, PES-lite (spec §4.5 Decision)
	AcqKG      = "kg"       // knowledge gradient, discrete (spec §4.3 Decision)
)

// How GPBO.Pending adds running trials to the model before the
// acquisition is maximised [000 §2.3.1; 002 §4.2.1; spec async-batch
// §2, §5]. Failed and pruned trials are always believed.
const (
	PendingBeliever = ""       // Kriging Believer: at their posterior mean, so the variance falls around them
	PendingLiar     = "liar"   // constant liar at the best observed value (cl-min)
	PendingIgnore   = "ignore" // left out: for Thompson sampling, whose independent draws spread a batch (Kandasamy et al. 2018)
)

// GPBO is Bayesian optimisation with an exact GP surrogate. The zero value
// is not ready; use New and change fields before the first Suggest.
type GPBO struct {
	Kernel      kernel.Family       // covariance family; default Matérn-5/2
	ARD         bool                // one lengthscale per feature; default true
	MLE         bool                // fit by maximum likelihood instead of MAP
	Priors      string              // the MAP priors: PriorsBoa (default) or PriorsDimScaled (priors.go)
	Warp        bool                // warp the ordered inputs by fitted Kumaraswamy CDFs, as HEBO (warp.go)
	Acquisition string              // one of the Acq* names; default AcqLogEI
	Kappa       float64             // κ for AcqLCB; default 2 [000 §5.5]
	XiRel       float64             // ξ = XiRel·σ(x) in EI, log-EI and PI; default 0, 0.01 is the spec's xi_rel (§4.1)
	InitPoints  int                 // size of the Sobol initial design; 0 means max(5, d+1)
	Restarts    int                 // hyper-parameter starts (spec §3.2); default 10
	Candidates  int                 // raw acquisition candidates (spec §6.1); default 2048
	RefitEvery  int                 // fit at 0, k, 2k, ... observations after the design, reuse the values in between (spec §3.2); default 1
	ExactLimit  int                 // observations up to which the GP is exact; default 2000 (subset.go)
	Subset      int                 // beyond ExactLimit, how many observations the GP is fitted to; default 1000 (subset.go)
	Pending     string              // how running trials enter the model: one of the Pending* names; default PendingBeliever
	Targets     transform.Transform // what the GP is fitted to, mapped from the study's values (after its own transform): None (default), Log, Copula or Power (auto's; targets.go)
	Marginalise string              // MarginaliseMAP (default) or MarginaliseESS; FITBO always samples
	Samples     int                 // hyper-parameter samples M with MarginaliseESS and FITBO; default 200 [spec §3.3]
	MESSamples  int                 // MES's minimum-value samples K per model; default 10 [spec §4.5]
	Minima      string              // how MES samples f*: MinimaGumbel (default) or MinimaRFF
	PESSamples  int                 // PES's minimiser samples J per model; default 10 [spec §4.5]
	Thompson    string              // how ts draws: ThompsonExact (default) or ThompsonRFF, continuous spaces only
	Constraints string              // ConstraintsModel (default) or ConstraintsPenalty (penalty.go)
	InputNoise  string              // InputNoiseUTGP (default) or InputNoiseIgnore, for a space with input noise (inputnoise.go)
	UT          uncertain.UT        // the UTGP's unscented transform; the zero value is gpbo's three-point rule (inputnoise.go)
	Logger      *slog.Logger        // where fallbacks are reported; nil means slog.Default()

	warm  bo.WarmStart   // last fitted hyper-parameters: the start of the next fit
	feas  bo.Feasibility // the constraints' and computability's models (constrained.go)
	chain chains         // the ESS chains' states (infotheoretic.go)
	name  string         // registry name when not "gpbo" (kb, cl-min, ts)
}

// New returns gpbo with its defaults: Matérn-5/2 ARD fitted by MAP,
// log-EI, a Sobol design of max(5, d+1) points and Kriging Believer for
// pending trials.
func New() *GPBO {
	return &GPBO{Kernel: kernel.Matern52, ARD: true, Acquisition: AcqLogEI, Kappa: 2}
}

func (g *GPBO) Name() string {
	if g.name != "" {
		return g.name
	}
	return "gpbo"
}

// newKB returns the registry's "kb": gpbo with the confidence bound,
// κ = 2, and Kriging Believer for running trials, the baseline of the
// PLAyBOOK experiments [000 §4.6.1; async-batch-playbook.md §2]; with
// liar, "cl-min", the constant liar at the best observed value, which the
// theses define but do not report (spec §2, Decision: cl_min).
func newKB(liar bool) *GPBO {
	g := New()
	g.Acquisition, g.name = AcqLCB, "kb"
	if liar {
		g.Pending, g.name = PendingLiar, "cl-min"
	}
	return g
}

// newTS returns the registry's "ts": Thompson sampling that leaves
// running trials out, the asynchronous TS of the PLAyBOOK experiments
// (spec async-batch §5: exact joint samples on 2000 uniform candidates).
func newTS() *GPBO {
	g := New()
	g.Acquisition, g.Pending, g.name = AcqTS, PendingIgnore, "ts"
	return g
}

func (g *GPBO) initPoints(sp *space.Space) int { return bo.OrDefault(g.InitPoints, bo.DesignSize(sp)) }

// Designing reports whether fewer than InitPoints trials have completed,
// so that the next suggestion is a point of the initial design.
func (g *GPBO) Designing(h *sampler.History) bool { return len(h.Observed) < g.initPoints(h.Space) }

// Suggest proposes the next point: a point of the Sobol initial design
// (bo.FreshDesignPoint) while fewer than InitPoints trials have completed,
// else the maximiser of the acquisition on the GP fitted to the completed
// trials, with pending, failed and pruned trials fantasised at their
// posterior mean (Kriging Believer, History.WithoutValue).
func (g *GPBO) Suggest(ctx context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	sp := h.Space
	if err := g.check(); err != nil {
		return nil, fmt.Errorf("gpbo: %w", err)
	}
	if g.Constraints == ConstraintsPenalty {
		h = penalise(h)
	}
	h = g.targets(h)
	if g.Designing(h) {
		return bo.FreshDesignPoint(h, bo.SobolPoint(h, h.Trials, g.Log()), rng), nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if g.marginal() {
		without := h.WithoutValue()
		if g.Pending != PendingBeliever {
			without = slices.Concat(h.Failed, h.Pruned) // running trials left out (liar: not for these acquisitions)
		}
		u, err := g.suggestMarginal(h, without, g.Factors(h, rng), rng)
		if err != nil {
			g.Log().Warn("gpbo: "+g.Acquisition+" found no new point; proposing an untried random point", "trial", h.Trials, "err", err)
			return bo.UntriedPoint(h, rng), nil
		}
		return u, nil
	}
	model, err := g.Fit(sp, h.Observed, rng)
	if err != nil {
		g.Log().Warn("gpbo: surrogate fit failed; proposing an untried random point", "trial", h.Trials, "err", err)
		return bo.UntriedPoint(h, rng), nil
	}
	without := h.WithoutValue()
	if g.Pending != PendingBeliever {
		if g.Pending == PendingLiar {
			model = bo.Lie(sp, model, h)
		}
		without = slices.Concat(h.Failed, h.Pruned)
	}
	model, fantasised := bo.Believe(sp, model, without)
	if strings.ToLower(g.Acquisition) == AcqTS {
		if strings.ToLower(g.Thompson) == ThompsonRFF && continuous(sp) {
			return g.thompsonPath(model, h, rng)
		}
		return g.thompson(model, h, rng)
	}
	u, err := g.maximize(sp, model, h, fantasised, g.Factors(h, rng), rng)
	if err != nil {
		g.Log().Warn("gpbo: acquisition optimisation found no new point; proposing an untried random point", "trial", h.Trials, "err", err)
		return bo.UntriedPoint(h, rng), nil
	}
	return u, nil
}

// Log is where g reports its fallbacks: Logger, or slog.Default().
func (g *GPBO) Log() *slog.Logger {
	if g.Logger != nil {
		return g.Logger
	}
	return slog.Default()
}

// Fit fits the GP to the completed trials (beyond ExactLimit, to those
// nearest the incumbent; subset.go), warm-started from the last fit, or
// reuses the last fitted values: between refits (RefitEvery,
// bo.FullFit), and when they were fitted to the same data
// (bo.WarmStart.Reuse).
func (g *GPBO) Fit(sp *space.Space, obs []sampler.Observation, rng *rand.Rand) (*gp.GP, error) {
	near, _, _ := g.local(sp, obs)
	X, y := observations(sp, near)
	return g.fitXY(sp, X, y, len(obs), rng)
}

// fitXY is Fit on the observations as the model's inputs and targets; n
// observations in all set the cadence of the fits.
func (g *GPBO) fitXY(sp *space.Space, X [][]float64, y []float64, n int, rng *rand.Rand) (*gp.GP, error) {
	k := kernel.NewStationary(g.Kernel, sp.NumFeatures(), g.ARD)
	cfg := gp.Config{Kernel: k, Restarts: g.Restarts, Rand: rng}
	g.priors(k, &cfg)
	if g.Warp {
		warpInputs(sp, &cfg)
	}
	// Beyond 200 observations the fits between full refits reuse the last
	// values as they are (docs/gp-defaults.md, item 6): polishing them took
	// 5–9 LML gradients, each an O(n³) inverse, to move parameters that one
	// new observation among hundreds barely moves. A polish remains the
	// fallback when the reused values do not factorise.
	between := (n-g.initPoints(sp))%max(1, g.RefitEvery) != 0 || !bo.FullFit(n)
	m, data := g.warm.Reuse("", cfg.Kernel, gp.MeanZero, X, y, between)
	if m != nil {
		return m, nil
	}
	cfg.Warm = g.warm.Get("", cfg.Kernel.NumParams()+1)
	if cfg.Warm != nil && !bo.FullFit(n) {
		cfg.Restarts = 1
	}
	m, err := gp.Fit(X, y, cfg)
	if err != nil {
		return nil, err
	}
	g.warm.Set("", m.Params(), data)
	return m, nil
}

// check refuses settings that could never suggest anything.
func (g *GPBO) check() error {
	if !slices.Contains(Acquisitions, strings.ToLower(cmp.Or(g.Acquisition, AcqLogEI))) {
		return fmt.Errorf("unknown acquisition %q (known: %s)", g.Acquisition, strings.Join(Acquisitions, ", "))
	}
	if !(g.XiRel >= 0 && g.XiRel <= math.MaxFloat64) {
		return fmt.Errorf("XiRel %v must be a finite number >= 0", g.XiRel)
	}
	if !slices.Contains([]string{PendingBeliever, PendingLiar, PendingIgnore}, g.Pending) {
		return fmt.Errorf("unknown Pending %q (known: %q, %q, %q)", g.Pending, PendingBeliever, PendingLiar, PendingIgnore)
	}
	if n := g.InputNoise; n != "" && n != InputNoiseUTGP && n != InputNoiseIgnore {
		return fmt.Errorf("unknown InputNoise %q (known: %s, %s)", n, InputNoiseUTGP, InputNoiseIgnore)
	}
	if c := g.Constraints; c != "" && c != ConstraintsModel && c != ConstraintsPenalty {
		return fmt.Errorf("unknown Constraints %q (known: %s, %s)", c, ConstraintsModel, ConstraintsPenalty)
	}
	if limit, size := g.limits(); size > limit || size < 2 {
		return fmt.Errorf("subset %d must be at least 2 and at most exact_limit %d: beyond exact_limit observations the GP is fitted to subset of them, half near the incumbent and half the latest", size, limit)
	}
	if g.MLE && g.Priors != PriorsBoa {
		return fmt.Errorf("priors %q and mle: maximum likelihood fits without priors", g.Priors)
	}
	if g.Warp && (g.fitbo() || strings.EqualFold(g.Marginalise, MarginaliseESS)) {
		return errors.New("warp: the warped inputs are fitted by MAP (marginalise: map, not fitbo or fitbo-mm)")
	}
	switch m := strings.ToLower(g.Marginalise); {
	case m != "" && m != MarginaliseMAP && m != MarginaliseESS:
		return fmt.Errorf("unknown Marginalise %q (known: %s, %s)", g.Marginalise, MarginaliseMAP, MarginaliseESS)
	case m == MarginaliseMAP && g.fitbo():
		return fmt.Errorf("acquisition %s samples its hyper-parameters with the minimum value η (ψ of [000 §3.3]); marginalise: map is not available for it", g.Acquisition)
	case g.Samples < 0:
		return fmt.Errorf("Samples %d must be >= 1 (0 for the default)", g.Samples)
	}
	return nil
}

func (g *GPBO) acquisition(best float64, n, dim int) (acq.Function, error) {
	if !(g.XiRel >= 0 && g.XiRel <= math.MaxFloat64) {
		return nil, fmt.Errorf("gpbo: XiRel %v must be a finite number >= 0", g.XiRel)
	}
	switch strings.ToLower(g.Acquisition) {
	case AcqLogEI, "":
		return acq.LogEI{Best: best, XiRel: g.XiRel}, nil
	case AcqEI:
		return acq.EI{Best: best, XiRel: g.XiRel}, nil
	case AcqPI:
		return acq.LogPI{Best: best, XiRel: g.XiRel}, nil
	case AcqLCB, "ucb":
		return acq.LCB{Kappa: g.Kappa}, nil
	case AcqGPUCB:
		return acq.LCB{Kappa: acq.GPUCBKappa(n, dim, 1, 0.1)}, nil
	case AcqTS:
		return nil, nil // Thompson sampling needs no acquisition function (see thompson)
	case AcqFITBO, AcqFITBOMM, AcqMES, AcqPES, AcqKG:
		return nil, fmt.Errorf("gpbo: acquisition %s is built on its models (infotheoretic.go)", g.Acquisition)
	}
	return nil, fmt.Errorf("gpbo: unknown acquisition %q (known: logei, ei, pi, lcb, ucb, gp-ucb, ts)", g.Acquisition)
}

// maximize maximises gpbo's acquisition, weighted by the probability of
// feasibility factors give (constrained.go). fantasised is the lowest
// value Believe gave a point without value. The incumbent is the best
// feasible value: the best value in an unconstrained study.
func (g *GPBO) maximize(sp *space.Space, model *gp.GP, h *sampler.History, fantasised float64, factors []acq.Penalty, rng *rand.Rand) ([]float64, error) {
	best, feasible := bo.BestFeasible(h.Observed)
	best = bo.FantasyIncumbent(best, fantasised)
	m := g.surrogate(sp, model)
	if m != acq.BatchModel(model) {
		best = expectedIncumbent(sp, m, h.Observed)
	}
	af, err := g.acquisition(best, len(h.Observed), sp.Len())
	if err != nil {
		return nil, err
	}
	af = constrain(af, model, factors, feasible)
	_, lo, hi := g.local(sp, h.Observed) // the model's trust region beyond ExactLimit
	return bo.MaximizeWithin(sp, acq.Bind(af, m), h, g.Candidates, lo, hi, rng)
}

// thompson draws one joint posterior sample on a candidate set and
// returns its minimiser (spec §4.4, exact, |C| = 2000 uniform points).
// Configurations tried already are not candidates, as the other
// acquisitions never propose them again (on a small discrete space the
// sample's minimiser would often be one), nor are repeats and points h
// does not admit.
func (g *GPBO) thompson(model *gp.GP, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	const size = 2000
	sp, seen := h.Space, bo.Seen(h)
	var cands, feats [][]float64
	for try := 0; len(cands) < size && try < 10*size; try++ {
		u := sp.Sample(rng)
		if k := sp.Key(u); !seen[k] && h.Admits(u) {
			seen[k] = true // distinct candidates: a repeat would only add jitter
			cands, feats = append(cands, u), append(feats, sp.Features(u, nil))
		}
	}
	if len(cands) == 0 {
		return bo.UntriedPoint(h, rng), nil // every configuration drawn was tried
	}
	i, err := acq.Thompson(model, feats, rng)
	if err != nil {
		return nil, fmt.Errorf("gpbo: thompson sampling: %w", err)
	}
	return cands[i], nil
}

func init() {
	sampler.Register("gpbo", func() sampler.Sampler { return New() })
	sampler.Register("onehot-gp", func() sampler.Sampler { return NewOneHot() })
	sampler.Register("kb", func() sampler.Sampler { return newKB(false) })
	sampler.Register("cl-min", func() sampler.Sampler { return newKB(true) })
	sampler.Register("ts", func() sampler.Sampler { return newTS() })
	// The penalty-based constrained BO of spec constrained-autotinyml §6,
	// the AutoTinyML comparisons' ablation (penalty.go).
	sampler.Register("gpbo-penalty", func() sampler.Sampler {
		g := New()
		g.Constraints, g.name = ConstraintsPenalty, "gpbo-penalty"
		return g
	})
	// The information-theoretic acquisitions under their own names, as
	// BoTorch users know them (infotheoretic.go).
	for _, a := range []string{AcqFITBO, AcqFITBOMM, AcqMES, AcqPES, AcqKG} {
		sampler.Register(a, func() sampler.Sampler { return newNamed(a) })
	}
}

// newNamed returns gpbo with acquisition a, registered under a's name.
func newNamed(a string) *GPBO {
	g := New()
	g.Acquisition, g.name = a, a
	return g
}
