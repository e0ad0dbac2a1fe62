package sampler

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/opt"
	"github.com/boaopt/boa/qmc"
	"github.com/boaopt/boa/space"
)

// Acquisition names accepted by GPBO.Acquisition.
const (
	AcqLogEI = "logei" // log expected improvement (default, spec §4.1)
	AcqEI    = "ei"
	AcqPI    = "pi"
	AcqLCB   = "lcb"    // confidence bound κσ − μ with a fixed κ (spec §4.2)
	AcqGPUCB = "gp-ucb" // confidence bound with the GP-UCB β schedule [000 Eq. 2.22]
	AcqTS    = "ts"     // Thompson sampling on a candidate set (spec §4.4, exact)
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
// is not ready; use NewGPBO and change fields before the first Suggest.
type GPBO struct {
	Kernel      kernel.Family // covariance family; default Matérn-5/2
	ARD         bool          // one lengthscale per feature; default true
	MLE         bool          // fit by maximum likelihood instead of MAP
	Acquisition string        // one of the Acq* names; default AcqLogEI
	Kappa       float64       // κ for AcqLCB; default 2 [000 §5.5]
	XiRel       float64       // ξ = XiRel·σ(x) in EI, log-EI and PI; default 0, 0.01 is the spec's xi_rel (§4.1)
	InitPoints  int           // size of the Sobol initial design; 0 means max(5, d+1)
	Restarts    int           // hyper-parameter starts (spec §3.2); default 10
	Candidates  int           // raw acquisition candidates (spec §6.1); default 2048
	RefitEvery  int           // fit at 0, k, 2k, ... observations after the design, reuse the values in between (spec §3.2); default 1
	Pending     string        // how running trials enter the model: one of the Pending* names; default PendingBeliever
	Logger      *slog.Logger  // where fallbacks are reported; nil means slog.Default()

	warm warmStart // last fitted hyper-parameters: the start of the next fit
	name string    // registry name when not "gpbo" (kb, cl-min, ts)
}

// NewGPBO returns gpbo with its defaults: Matérn-5/2 ARD fitted by MAP,
// log-EI, a Sobol design of max(5, d+1) points and Kriging Believer for
// pending trials.
func NewGPBO() *GPBO {
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
	g := NewGPBO()
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
	g := NewGPBO()
	g.Acquisition, g.Pending, g.name = AcqTS, PendingIgnore, "ts"
	return g
}

func (g *GPBO) initPoints(sp *space.Space) int { return orDefault(g.InitPoints, designSize(sp)) }

// designSize is gpbo's default initial design, max(5, d+1) points; auto
// gives it to the mixed samplers too.
func designSize(sp *space.Space) int { return max(5, sp.Len()+1) }

// Designing reports whether fewer than InitPoints trials have completed,
// so that the next suggestion is a point of the initial design.
func (g *GPBO) Designing(h *History) bool { return len(h.Observed) < g.initPoints(h.Space) }

// Suggest proposes the next point: a point of the Sobol initial design
// (freshDesignPoint) while fewer than InitPoints trials have completed,
// else the maximiser of the acquisition on the GP fitted to the completed
// trials, with pending, failed and pruned trials fantasised at their
// posterior mean (Kriging Believer, History.WithoutValue).
func (g *GPBO) Suggest(ctx context.Context, h *History, rng *rand.Rand) ([]float64, error) {
	sp := h.Space
	if _, err := g.acquisition(0, 1, 1); err != nil {
		return nil, err
	}
	if !slices.Contains([]string{PendingBeliever, PendingLiar, PendingIgnore}, g.Pending) {
		return nil, fmt.Errorf("gpbo: unknown Pending %q (known: %q, %q, %q)", g.Pending, PendingBeliever, PendingLiar, PendingIgnore)
	}
	if g.Designing(h) {
		return freshDesignPoint(h, sobolPoint(h, h.Trials, g.logger()), rng), nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	model, err := g.fit(sp, h.Observed, rng)
	if err != nil {
		g.logger().Warn("gpbo: surrogate fit failed; proposing an untried random point", "trial", h.Trials, "err", err)
		return untriedPoint(h, rng), nil
	}
	without := h.WithoutValue()
	if g.Pending != PendingBeliever {
		if g.Pending == PendingLiar {
			model = lie(sp, model, h)
		}
		without = slices.Concat(h.Failed, h.Pruned)
	}
	model, fantasised := believe(sp, model, without)
	if strings.ToLower(g.Acquisition) == AcqTS {
		return g.thompson(model, h, rng)
	}
	u, err := g.maximize(sp, model, h, fantasised, rng)
	if err != nil {
		g.logger().Warn("gpbo: acquisition optimisation found no new point; proposing an untried random point", "trial", h.Trials, "err", err)
		return untriedPoint(h, rng), nil
	}
	return u, nil
}

func (g *GPBO) logger() *slog.Logger {
	if g.Logger != nil {
		return g.Logger
	}
	return slog.Default()
}

// fit fits the GP to the completed trials, warm-started from the last fit,
// or reuses the last fitted values: between refits (RefitEvery), and when
// they were fitted to the same data (warmStart.reuse).
func (g *GPBO) fit(sp *space.Space, obs []Observation, rng *rand.Rand) (*gp.GP, error) {
	X := make([][]float64, len(obs))
	y := make([]float64, len(obs))
	for i, o := range obs {
		X[i] = sp.Features(o.X, nil)
		y[i] = o.Y
	}
	k := kernel.NewStationary(g.Kernel, sp.NumFeatures(), g.ARD)
	cfg := gp.Config{Kernel: k, Restarts: g.Restarts, Rand: rng}
	if !g.MLE {
		cfg.Priors, cfg.NoisePrior = mapPriors(k)
	}
	m, data := g.warm.reuse("", k, gp.MeanZero, X, y, (len(obs)-g.initPoints(sp))%max(1, g.RefitEvery) != 0)
	if m != nil {
		return m, nil
	}
	cfg.Warm = g.warm.get("", k.NumParams()+1)
	if cfg.Warm != nil && !fullFit(len(obs)) {
		cfg.Restarts = 1
	}
	m, err := gp.Fit(X, y, cfg)
	if err != nil {
		return nil, err
	}
	g.warm.set("", m.Params(), data)
	return m, nil
}

// mapPriors are gpbo's MAP priors on the standardised scale, in the order
// of the stationary kernel's parameters (lengthscales, signal variance,
// and RQ's α, which stays flat). The seeds fix none for plain GP-BO (spec
// §3.2 names only PLAyBOOK's), so these were chosen by measurement
// (docs/gp-defaults.md): log lengthscale ~ N(log 0.5, 1) (half the unit
// box), signal variance Gamma(2, 0.15), log noise variance ~ N(log 1e-4,
// 1), which suits the deterministic or nearly deterministic objectives of
// hyper-parameter tuning while the data can still raise it.
func mapPriors(k *kernel.Stationary) ([]gp.Prior, gp.Prior) {
	priors := make([]gp.Prior, k.NumParams())
	nl := len(k.Lengthscales())
	for i := range nl {
		priors[i] = gp.LogNormalPrior(math.Log(0.5), 1)
	}
	priors[nl] = gp.GammaPrior(2, 0.15)
	return priors, gp.LogNormalPrior(math.Log(1e-4), 1)
}

// believe adds every pending point to the model as an observation at its
// posterior mean (Kriging Believer), so the acquisition does not propose
// what is already running. It also returns the lowest fantasised value
// (+Inf with none), which the improvement-based acquisitions must count as
// observed: see fantasyIncumbent.
//
// Kriging Believer adds the points one after another, each at the mean of
// the model that has the earlier ones [000 App. B.1, Alg. 17]; but an
// observation at the model's own mean leaves the mean everywhere
// unchanged (the update is proportional to y − μ = 0), so all are added
// at once, at their means under m: one copy of the Cholesky factor rather
// than one per point (at n = 800 with 64 pending, 389 MB per suggestion;
// BenchmarkGPBOSuggestPending). When that fails (a point the model cannot
// take, e.g. a duplicate), they are added one by one, skipping such points.
func believe(sp *space.Space, m *gp.GP, pending [][]float64) (*gp.GP, float64) {
	F := make([][]float64, len(pending))
	for i, p := range pending {
		F[i] = sp.Features(p, nil)
	}
	return believeAll(m, F)
}

// believeAll is believe on the model's inputs.
func believeAll(m *gp.GP, F [][]float64) (*gp.GP, float64) {
	if len(F) == 0 {
		return m, math.Inf(1)
	}
	means := make([]float64, len(F))
	m.PredictBatch(F, means, make([]float64, len(F)))
	return fantasize(m, F, means)
}

// lie adds every pending point of h to the model at the best observed
// value (the constant liar, cl-min).
func lie(sp *space.Space, m *gp.GP, h *History) *gp.GP {
	if len(h.Pending) == 0 {
		return m
	}
	best := bestValue(h.Observed)
	F, y := make([][]float64, len(h.Pending)), make([]float64, len(h.Pending))
	for i, p := range h.Pending {
		F[i], y[i] = sp.Features(p, nil), best
	}
	m, _ = fantasize(m, F, y)
	return m
}

// fantasize adds the points F (len > 0) to m with the targets y, all at
// once, or one by one when that fails, skipping those the model cannot
// take (e.g. a duplicate); it returns the lowest target added.
func fantasize(m *gp.GP, F [][]float64, y []float64) (*gp.GP, float64) {
	if fm, err := m.Fantasize(F, y); err == nil {
		return fm, slices.Min(y)
	}
	low := math.Inf(1)
	for i, f := range F {
		fm, err := m.Fantasize([][]float64{f}, y[i:i+1])
		if err != nil {
			continue // a point the model cannot take changes nothing
		}
		m, low = fm, min(low, y[i])
	}
	return m, low
}

// fantasyIncumbent is the incumbent y* of EI, log-EI and PI under Kriging
// Believer: the lower of the best observed value and the lowest fantasised
// one. Kriging Believer treats the fantasies as observations, D' = D ∪
// {(x_b, μ_D'(x_b))} [000 App. B.1, Alg. 17; async, busy points first:
// 000 §4.6.1; async-batch-playbook.md §2], and y* is the best observed
// target (gp-and-acquisitions.md §4), so it is the best of D'. With y*
// from D alone, a fantasy below it is a sure improvement y* − μ where the
// variance is small, and EI peaks right beside the pending point: in a
// batch of 8 after 120 trials, 61 of gpbo's 70 later points lay within
// 1e-6 of a pending one (TestPendingPointsAreNotNearlyRepeated;
// docs/samplers.md, "Pending trials"). Failed and pruned points are
// fantasised too (History.WithoutValue) and count the same way, so EI
// does not crowd beside them either.
func fantasyIncumbent(observed, fantasised float64) float64 { return min(observed, fantasised) }

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
	}
	return nil, fmt.Errorf("gpbo: unknown acquisition %q (known: logei, ei, pi, lcb, ucb, gp-ucb, ts)", g.Acquisition)
}

// maximize maximises gpbo's acquisition. fantasised is the lowest value
// believe gave a point without value.
func (g *GPBO) maximize(sp *space.Space, model *gp.GP, h *History, fantasised float64, rng *rand.Rand) ([]float64, error) {
	af, err := g.acquisition(fantasyIncumbent(bestValue(h.Observed), fantasised), len(h.Observed), sp.Len())
	if err != nil {
		return nil, err
	}
	return maximizeAcquisition(sp, model, af, h, g.Candidates, rng)
}

// maximizeAcquisition maximises af on model over the encoded space, from
// candidates raw points (0: opt's default) and the incumbent, never
// returning a configuration h has tried. Continuous and
// numeric discrete coordinates are refined by gradient steps (the latter
// relaxed, then rounded); categoricals move by local search; small
// discrete spaces are enumerated exactly.
func maximizeAcquisition(sp *space.Space, model acq.BatchModel, af acq.Function, h *History, candidates int, rng *rand.Rand) ([]float64, error) {
	objective, free := acqObjective(sp, model, af)
	continuous := false
	for _, p := range sp.Params() {
		continuous = continuous || p.Kind == space.Float
	}
	// Never propose a configuration that is already evaluated or running:
	// near a converged optimum the incumbent itself can win the search.
	seen := h.seen()
	dom := opt.Domain{
		Dim: sp.Len(), Free: free, Round: sp.Round, Neighbours: sp.Neighbours,
		Exclude: func(u []float64) bool { return seen[sp.Key(u)] },
	}
	if !continuous {
		// A small discrete space is enumerated exactly (issue 2, item 4).
		if pts, ok := sp.Enumerate(enumerateLimit); ok {
			dom.Candidates = func(int, *rand.Rand) [][]float64 { return pts }
		}
	} else if combos, ok := sp.Enumerate(comboLimit); ok && len(combos) > 1 {
		dom.Candidates = cycleCombos(sp, combos)
	}
	var starts [][]float64
	if x := incumbent(h); x != nil {
		starts = [][]float64{x}
	}
	res, err := opt.Maximize(objective, dom, opt.MaximizeSettings{
		Candidates: candidates,
		Starts:     starts,
		Batch:      acqBatch(model, af, sp.Features),
	}, rng)
	if err != nil {
		return nil, err
	}
	return res.X, nil
}

// acqObjective returns the acquisition af of model as a function of the
// encoded point u, with its gradient over the coordinates that gradient
// steps may move (free: Float, Int and Ordinal; Int and Ordinal are
// relaxed and rounded); categorical and inactive coordinates get 0.
func acqObjective(sp *space.Space, model acq.Model, af acq.Function) (f func(u, grad []float64) float64, free []bool) {
	fb := make([]float64, sp.NumFeatures())
	fg := make([]float64, sp.NumFeatures())
	free = make([]bool, sp.Len())
	for i, p := range sp.Params() {
		free[i] = p.Kind == space.Float || p.Kind == space.Int || p.Kind == space.Ordinal
	}
	return func(u, grad []float64) float64 {
		f := sp.Features(u, fb)
		if grad == nil {
			return af.Eval(model, f, nil)
		}
		v := af.Eval(model, f, fg)
		active := sp.Active(u)
		for i := range grad {
			grad[i] = 0
			if free[i] && active[i] {
				grad[i] = fg[sp.FeatureIndex(i)]
			}
		}
		return v
	}, free
}

// acqBatch is the opt.MaximizeSettings.Batch of an acquisition objective:
// it maps each encoded point to the model's inputs with features and
// scores them all with acq.EvalBatch, which gives the objective's values
// bit for bit in a fraction of the time (docs/performance.md).
func acqBatch(model acq.BatchModel, af acq.Function, features func(u, dst []float64) []float64) func(U [][]float64, values []float64) {
	return func(U [][]float64, values []float64) {
		F := make([][]float64, len(U))
		for i, u := range U {
			F[i] = features(u, nil)
		}
		acq.EvalBatch(af, model, F, values)
	}
}

// incumbent is the point of the best completed trial (the first of equal
// ones), nil with none. The acquisition's refinement starts there too,
// since near a narrow optimum the raw candidates rarely land close enough
// to it (without it, playbook-h's median regret on Ackley-5 with 4
// workers was 3.01 instead of 2.48; docs/playbook.md).
func incumbent(h *History) []float64 {
	if i := bestIndex(h.Observed); i >= 0 {
		return h.Observed[i].X
	}
	return nil
}

// bestValue is the smallest Y of obs, +Inf with none.
func bestValue(obs []Observation) float64 {
	if i := bestIndex(obs); i >= 0 {
		return obs[i].Y
	}
	return math.Inf(1)
}

// fullFit reports whether a hyper-parameter fit on n observations runs
// all its starts (spec §3.2). Deviation for speed (docs/gp-defaults.md):
// beyond largeHistory observations every LML gradient costs an O(n³)
// inverse, so only every fullRefitEvery-th fit restarts; the others
// polish the previous optimum, which one new observation barely moves.
func fullFit(n int) bool { return n <= largeHistory || n%fullRefitEvery == 0 }

const (
	largeHistory   = 200  // observations beyond which most fits only polish the warm start
	fullRefitEvery = 10   // ... and every this many a full multi-start fit runs
	enumerateLimit = 4096 // discrete spaces up to this size are searched exhaustively
	comboLimit     = 64   // mixed spaces with up to this many discrete settings get every setting among the candidates
)

// cycleCombos returns Sobol candidates whose discrete coordinates run
// through every discrete setting in turn, so each setting is scored.
func cycleCombos(sp *space.Space, combos [][]float64) func(int, *rand.Rand) [][]float64 {
	return func(n int, rng *rand.Rand) [][]float64 {
		pts := qmc.SobolPoints(n, sp.Len(), rng)
		for j, u := range pts {
			c := combos[j%len(combos)]
			for i := range u {
				if !sp.Continuous(i) {
					u[i] = c[i]
				}
			}
			sp.Round(u)
		}
		return pts
	}
}

// thompson draws one joint posterior sample on a candidate set and
// returns its minimiser (spec §4.4, exact, |C| = 2000 uniform points).
// Configurations tried already are not candidates, as the other
// acquisitions never propose them again (on a small discrete space the
// sample's minimiser would often be one), nor are repeats.
func (g *GPBO) thompson(model *gp.GP, h *History, rng *rand.Rand) ([]float64, error) {
	const size = 2000
	sp, seen := h.Space, h.seen()
	var cands, feats [][]float64
	for try := 0; len(cands) < size && try < 10*size; try++ {
		u := sp.Sample(rng)
		if k := sp.Key(u); !seen[k] {
			seen[k] = true // distinct candidates: a repeat would only add jitter
			cands, feats = append(cands, u), append(feats, sp.Features(u, nil))
		}
	}
	if len(cands) == 0 {
		return untriedPoint(h, rng), nil // every configuration drawn was tried
	}
	i, err := acq.Thompson(model, feats, rng)
	if err != nil {
		return nil, fmt.Errorf("gpbo: thompson sampling: %w", err)
	}
	return cands[i], nil
}
