package svmcbo

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/boaopt/boa/forest"
	"github.com/boaopt/boa/qmc"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
)

// Surrogate is the model of phase 2.
type Surrogate int

const (
	GP     Surrogate = iota // Gaussian process: the original SVM-CBO (spec §4.3)
	Forest                  // random forest: SVM-CBO_RF (spec §4.2)
)

// Defaults of spec §3.4.
const (
	DefaultBudget     = 100   // History.Budget when the study has none (spec §3.1: 10 + 60 + 30)
	DefaultCandidates = 10000 // points per focus-search iteration and per discrete sampling
	Kappa             = 1.96  // LCB multiplier of phase 2 (the code's fixed value)
	phase1Starts      = 30    // multistart L-BFGS of phase 1
	phase1Iter        = 100   // its iteration limit
	restarts          = 3     // focus-search restarts, and local searches on discrete spaces
	focusIters        = 5     // focus-search iterations per restart
	shrink            = 0.25  // focus search keeps x* ± shrink·(box range)
	localSteps        = 100   // bound of a discrete local search
)

// CBO is SVM-CBO (Surrogate GP) or SVM-CBO_RF (Surrogate Forest) of spec
// §3: phase 0 a Latin hypercube of InitPoints configurations, phase 1
// (up to 70 % of the budget, Decision a) the point that minimises Eq. 6.2,
// |d(γ)| + coverage, to learn the feasible region with an SVM, phase 2
// (the rest) the minimiser of the surrogate's LCB μ − 1.96σ inside the
// SVM's feasible region Ω̃ = {d > 0}. CodeCompat reproduces the reference
// code, with its bugs, as spec §3.5 defines it; the zero value is the
// corrected algorithm. The choices are listed in the package comment.
//
// Nothing is kept between calls: every suggestion recomputes the SVM and
// the surrogate from the History, and every random choice comes from the
// rng Suggest is given or, for the design, the study's seed.
type CBO struct {
	Surrogate  Surrogate
	CodeCompat bool
	InitPoints int  // phase-0 design size; 0: 10 % of the budget (Decision f: 20 keeps the total, 20 + 50 + 30)
	Candidates int  // see DefaultCandidates; 0: the default (CI runs use 1000)
	Maximin    bool // a maximin Latin hypercube (best of 100) instead of the thesis's plain one (spec §3.5)
	// FeasibleOnly trains the surrogate on the feasible observations only
	// (Decision d, train_on = feasible) instead of every observation with
	// a value (train_on = computable). CodeCompat implies it.
	FeasibleOnly bool
	Forest       forest.Settings // the zero value is spec §4.2's Decision
}

// New returns the named variant: "svmcbo", "svmcbo-rf", "svmcbo-code" or
// "svmcbo-rf-code".
func New(s Surrogate, codeCompat bool) *CBO { return &CBO{Surrogate: s, CodeCompat: codeCompat} }

func (c *CBO) Name() string {
	n := "svmcbo"
	if c.Surrogate == Forest {
		n += "-rf"
	}
	if c.CodeCompat {
		n += "-code"
	}
	return n
}

func init() {
	for _, s := range []Surrogate{GP, Forest} {
		for _, code := range []bool{false, true} {
			sampler.Register(New(s, code).Name(), func() sampler.Sampler { return New(s, code) })
		}
	}
}

// Phase is the phase of the suggestion for h: 0 (design), 1 (feasibility
// determination) or 2 (optimisation inside Ω̃), by the trial number, with
// the cumulative guards of Decision a: phase 1 while m < m0 + M1 = 70 % of
// the budget, phase 2 after.
func (c *CBO) Phase(h *sampler.History) int {
	m0, end1 := c.split(h)
	switch {
	case h.Trials < m0:
		return 0
	case h.Trials < end1:
		return 1
	}
	return 2
}

// split returns the design size m0 and the end of phase 1, m0 + M1.
func (c *CBO) split(h *sampler.History) (m0, end1 int) {
	b := bo.OrDefault(h.Budget, DefaultBudget)
	m0 = bo.OrDefault(c.InitPoints, max(1, int(math.Round(0.1*float64(b)))))
	return m0, max(m0, int(math.Round(0.7*float64(b))))
}

// Designing reports whether the suggestion for h is a design point: in
// phase 0, or later while no trial has finished (no data for a model).
func (c *CBO) Designing(h *sampler.History) bool {
	return c.Phase(h) == 0 || len(h.Observed)+len(h.Failed) == 0
}

// designSalt separates the design's random stream from the other streams
// drawn from the study's seed.
const designSalt = 0x5c3b0

// Suggest returns the next point: a design point, phase 1's boundary and
// coverage minimiser, or phase 2's LCB minimiser in Ω̃.
func (c *CBO) Suggest(ctx context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	if c.Designing(h) {
		return c.designPoint(h, rng), nil
	}
	phase := c.Phase(h)
	b, err := c.boundary(h, phase)
	if err != nil {
		return nil, err
	}
	if phase == 2 && !b.none() {
		// Decision g: with every point infeasible Ω̃ is empty, and phase 2
		// keeps phase 1's acquisition until a feasible point is found.
		U, y := c.trainingSet(h)
		if len(y) > 0 {
			m, err := c.fit(U, y, h.Space, rng)
			if err != nil {
				return nil, err
			}
			return c.optimise(ctx, h, b, m, rng), nil
		}
	}
	return c.explore(ctx, h, b, rng), nil
}

// designPoint returns point h.Trials of the study's Latin hypercube (one
// column per parameter, spec §3.5), the same for every sampler with the
// same seed and design size, so that SVM-CBO and SVM-CBO_RF start from the
// same design (spec §9.1). A point already tried is replaced by an untried
// random one; past the design (its trials failed or none finished) an
// untried random point.
func (c *CBO) designPoint(h *sampler.History, rng *rand.Rand) []float64 {
	m0, _ := c.split(h)
	if h.Trials >= m0 {
		return bo.UntriedPoint(h, rng)
	}
	designs := 1
	if c.Maximin {
		designs = 100
	}
	pts := qmc.LatinHypercube(m0, h.Space.Len(), rand.New(rand.NewPCG(h.Seed, designSalt)), designs)
	u := pts[h.Trials]
	h.Space.Round(u)
	return bo.FreshDesignPoint(h, u, rng)
}

// Incumbent returns the best feasible observation with a finite value
// (Decision c: the result is the best feasible and computable point) and
// false when there is none.
func Incumbent(h *sampler.History) (sampler.Observation, bool) {
	var best sampler.Observation
	found := false
	for _, o := range h.Observed {
		if !o.Infeasible && finite(o.Y) && (!found || o.Y < best.Y) {
			best, found = o, true
		}
	}
	return best, found
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
