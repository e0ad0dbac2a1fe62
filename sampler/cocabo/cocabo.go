package cocabo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"sync"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/sampler/internal/bo"
)

// CoCaBO defaults [mixed spec §4.1; reference code: rubinxin/CoCaBO_code].
// DefaultInitPoints is the size of CoCaBO's uniform initial design when
// InitPoints is 0 [000 §5.5; 002 §5.4].
const DefaultInitPoints = 24

const (
	cocaboHorizon    = 200  // T of the tuned γ when the study has no budget: the thesis's [000 §5.5]
	cocaboRefit      = 10   // hyper-parameters (and λ) re-learned every 10 iterations
	cocaboKappa      = 2    // UCB κ [000 §5.5; 002 §5.4]
	cocaboCandidates = 5000 // uniform acquisition candidates
	cocaboTopSeq     = 3    // refined candidates, sequential
	cocaboTopBatch   = 5    // refined candidates, batch
	cocaboRestarts   = 5    // hyper-parameter starts
)

// Bandit reward normalisations of CoCaBO.Reward.
const (
	CoCaBORewardArms = "arms" // (r_c − min_c' r_c')/(max_c' r_c' − min_c' r_c') over the variable's categories (default)
	CoCaBORewardData = "data" // (r_c − min −y)/(max −y − min −y) over all observations [mixed spec §4.1]
)

// CoCaBO is Continuous and Categorical Bayesian Optimisation [000 §5.4,
// Alg. 5; 002 Ch. 5, Alg. 7]: one EXP3 agent per categorical variable picks
// the categories h, and a GP with the CoCaBO mixture kernel
//
//	k = (1 − λ)(k_h + k_x) + λ k_h k_x   [000 Eq. 5.10]
//
// (k_h the overlap kernel on h, k_x a Matérn-5/2 on the rest) chooses the
// continuous part x by maximising UCB with h fixed. The zero value is not
// ready; use New or NewFixed and change fields before the first
// Suggest.
//
// Statelessness. The agents' weights are recomputed on every call by
// replaying h.Observed in trial order (see replayEXP3), so the suggestion
// depends only on the history and rng and a resumed study continues
// correctly. The only state kept is the last fitted hyper-parameters, used
// between refits as gpbo uses its warm start; without them (first call,
// after a resume) the sampler refits.
//
// Space handling:
//   - Categorical and Bool parameters are the bandit arms.
//   - Float parameters are the continuous part. Int and Ordinal parameters
//     are treated as continuous coordinates too: relaxed during the
//     acquisition's gradient steps and rounded by space.Round, as gpbo does
//     (the "basic" approach of [004 §4.1.1]); the kernel sees their rounded
//     codes, since every observed point is rounded.
//   - A space with no categorical parameter has nothing for the bandits to
//     do: Suggest falls back to gpbo's behaviour (NewGPBO defaults).
//   - A space with no continuous coordinate is optimised by the bandits
//     alone: the proposal is the drawn h. The logger is told once, since
//     casmopolitan does far better there (docs/samplers.md).
//   - Conditional spaces are rejected with an error: the bandits need every
//     categorical variable in every trial (mixed spec §1).
type CoCaBO struct {
	// Lambda is the mixture weight λ ∈ [0, 1]: fixed, or the initial value
	// when LearnLambda is set (0.5 [reference code: rubinxin/CoCaBO_code]).
	Lambda float64
	// LearnLambda learns λ with the other hyper-parameters by maximising
	// the marginal likelihood (CoCaBO-auto, [000 App. C.2]).
	LearnLambda bool
	// Budget is the iteration budget T in the tuned exploration rate
	// γ = min(1, √(N ln N / ((e − 1)·2T/3))) [mixed spec §2.1], counted
	// in bandit rounds (batches in batch mode). When it is 0, T is the
	// number of rounds the study's budget leaves after the initial design,
	// or the thesis's T = 200 [000 §5.5] for a study without a budget
	// (see horizon).
	Budget int
	// InitPoints is the number of uniform random initial points before the
	// bandits and the GP take over; default 24 [000 §5.5; 002 §5.4]. They
	// enter the reward statistics but do not update the weights.
	InitPoints int
	// RefitEvery is the number of iterations (suggestions after the
	// initial design; batches in batch mode) between hyper-parameter fits;
	// default 10 [000 §5.5; mixed spec §4.1 Decision]. In between, the
	// last fitted values are reused. Unlike the reference code, which keeps
	// the initial values for t < 10, the first iteration fits.
	RefitEvery int
	// Kappa is κ of the UCB acquisition κσ − μ (minimising); default 2.
	Kappa float64
	// Candidates is the number of uniform raw acquisition candidates;
	// default 5000 [reference code: rubinxin/CoCaBO_code].
	Candidates int
	// Restarts is the number of hyper-parameter starts; default 5.
	Restarts int
	// ARD gives the Matérn kernel one lengthscale per continuous
	// coordinate; off by default, as in the reference code.
	ARD bool
	// SumHalf selects the reference code's (1−λ)·0.5·(k_h + k_x) (see
	// kernel.Mixture.SetSumHalf); the default is the thesis form.
	SumHalf bool
	// Reward selects the normalisation to [0, 1] of the bandit reward, the
	// best −y so far among the observations with the played category
	// [002 §5.3.1]: CoCaBORewardArms, min–max over the variable's
	// per-category bests (the default, ""), or CoCaBORewardData, min–max
	// over all observations (mixed spec §4.1 Decision). The default
	// deviates from the spec's Decision by measurement: over the data's
	// range a few very bad observations squeeze the rewards of every
	// decent category together and EXP3 only random-walks; over the
	// categories' bests the best scores 1 and the worst 0, the scale-free
	// signal of the reference code's raw −y (docs/cocabo.md, Fig. 5.2).
	Reward string
	// Copula fits the GP to the Gaussian copula transform of y
	// (transform.GaussianCopula), as casmopolitan does, instead of to
	// standardised y. Off by default, as in the spec [mixed spec §4.1].
	// Auto sets it, a measured deviation: with standardised y a heavy tail
	// squeezes the good values together, the copula keeps only their
	// order (docs/samplers.md, on FCNet-naval, Func-2C and Func-3C).
	Copula bool
	// Logger receives the fallbacks; nil means slog.Default().
	Logger *slog.Logger

	name string // registry alias, when it differs from the derived name

	warm bo.WarmStart   // last fitted hyper-parameters, keyed by the model layout
	feas bo.Feasibility // the classifier of computability (computability)

	banditsOnly sync.Once // warns once that the space leaves the GP nothing to do

	mu   sync.Mutex // guards gpbo
	gpbo *gpbo.GPBO // fallback for spaces without categorical parameters
}

// New returns CoCaBO-auto: λ learned, starting at 0.5, with the
// defaults of the spec (see the CoCaBO fields).
func New() *CoCaBO { return &CoCaBO{Lambda: 0.5, LearnLambda: true} }

// NewFixed returns CoCaBO with the mixture weight fixed at lambda
// (CoCaBO-0, -0.5, -1 of [000 §5.5]). A lambda outside [0, 1] makes
// Suggest fail.
func NewFixed(lambda float64) *CoCaBO { return &CoCaBO{Lambda: lambda} }

// cocaboAlias is the registry's "cocabo": CoCaBO-auto under the short name.
func cocaboAlias() sampler.Sampler {
	c := New()
	c.name = "cocabo"
	return c
}

// Name returns cocabo-auto, or cocabo-λ for a fixed λ (e.g. cocabo-0.5).
func (c *CoCaBO) Name() string {
	switch {
	case c.name != "":
		return c.name
	case c.LearnLambda:
		return "cocabo-auto"
	}
	return "cocabo-" + strconv.FormatFloat(c.Lambda, 'g', -1, 64)
}

func (c *CoCaBO) initPoints() int { return bo.OrDefault(c.InitPoints, DefaultInitPoints) }
func (c *CoCaBO) refitEvery() int { return bo.OrDefault(c.RefitEvery, cocaboRefit) }

// Horizon returns T of the tuned γ for rounds of b plays: Budget when
// set; else the rounds that the study's budget B leaves after the n0
// initial points, ⌈(B − n0)/b⌉ (at least 1), because the reference code's
// T counts the iterations after its initial data (24 points, then T = 200
// [000 §5.5]; T = 80 batches of 4 [002 §5.4]) [reference code:
// rubinxin/CoCaBO_code]; else, for a study without a budget, 200.
func (c *CoCaBO) Horizon(h *sampler.History, b int) int {
	switch {
	case c.Budget > 0:
		return c.Budget
	case h.Budget > 0:
		return max(1, (h.Budget-c.initPoints()+b-1)/b)
	}
	return cocaboHorizon
}

func (c *CoCaBO) kappa() float64 {
	if c.Kappa > 0 {
		return c.Kappa
	}
	return cocaboKappa
}

func (c *CoCaBO) rewardOverArms() bool { return c.Reward != CoCaBORewardData }

func (c *CoCaBO) logger() *slog.Logger {
	if c.Logger != nil {
		return c.Logger
	}
	return slog.Default()
}

func (c *CoCaBO) check() error {
	if !(c.Lambda >= 0 && c.Lambda <= 1) {
		return fmt.Errorf("cocabo: Lambda = %v; the mixture weight must lie in [0, 1]", c.Lambda)
	}
	if c.Reward != "" && c.Reward != CoCaBORewardData && c.Reward != CoCaBORewardArms {
		return fmt.Errorf("cocabo: unknown reward normalisation %q (known: %s, %s)", c.Reward, CoCaBORewardData, CoCaBORewardArms)
	}
	if c.Kappa < 0 {
		return fmt.Errorf("cocabo: Kappa = %v; κ must be >= 0", c.Kappa)
	}
	return nil
}

// fallback returns the gpbo used for spaces without categorical parameters.
func (c *CoCaBO) fallback() *gpbo.GPBO {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gpbo == nil {
		c.gpbo = gpbo.New()
		c.gpbo.Logger = c.Logger
	}
	return c.gpbo
}

// prepare validates the settings and the space.
func (c *CoCaBO) prepare(h *sampler.History) (*mixedLayout, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if h == nil || h.Space == nil {
		return nil, errors.New("cocabo: the history has no search space")
	}
	l, err := newLayout(h.Space)
	if err == nil && len(l.cat) > 0 && len(l.cont) == 0 {
		c.banditsOnly.Do(func() {
			c.logger().Warn("cocabo: every parameter is categorical, so CoCaBO chooses them with its bandits alone and its GP has nothing to do; casmopolitan (and auto) model the categories jointly (docs/samplers.md, \"Purely categorical spaces\")")
		})
	}
	return l, err
}

// Designing reports whether the next suggestions are design points
// (bo.InDesign); for a space without categorical parameters, gpbo's rule.
func (c *CoCaBO) Designing(h *sampler.History) bool {
	if l, err := newLayout(h.Space); err == nil && len(l.cat) == 0 {
		return c.fallback().Designing(h)
	}
	return c.designing(h)
}

// designing is Designing on a space with categorical parameters.
func (c *CoCaBO) designing(h *sampler.History) bool {
	return bo.InDesign(len(h.Observed), len(h.Pending), c.initPoints())
}

// Suggest proposes the next point [000 Alg. 5]: an untried uniform random
// point (bo.FreshDesignPoint) while the completed and pending trials are
// fewer than InitPoints, or fewer than half of them have completed
// (bo.InDesign); then h drawn from the agents rebuilt from the history, and
// x maximising UCB (κ = Kappa) on the mixture-kernel GP with h fixed,
// pending, failed and pruned trials fantasised at their posterior mean
// (Kriging Believer).
func (c *CoCaBO) Suggest(ctx context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	l, err := c.prepare(h)
	if err != nil {
		return nil, err
	}
	if len(l.cat) == 0 {
		return c.fallback().Suggest(ctx, h, rng)
	}
	if c.designing(h) {
		return bo.UntriedPoint(h, rng), nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	agents := replayEXP3(l, h.Observed, c.initPoints(), c.Horizon(h, 1), c.rewardOverArms())
	arms := make([]int, len(agents))
	for j, a := range agents {
		arms[j] = a.Draw(rng)
	}
	seen := bo.Seen(h)
	model, err := c.model(l, h.Observed, 1, rng)
	if err != nil {
		c.logger().Warn("cocabo: surrogate fit failed; proposing a random point not tried yet, if one is left", "trial", h.Trials, "err", err)
		return unseenPoint(l, arms, seen, rng), nil
	}
	model = believeMixed(l, model, h.WithoutValue())
	u, err := c.argmax(l, model, arms, h.Observed, seen, c.computability(h, rng), cocaboTopSeq, rng)
	if err != nil {
		c.logger().Warn("cocabo: acquisition optimisation found no new point; proposing a random point not tried yet, if one is left", "trial", h.Trials, "err", err)
		return unseenPoint(l, arms, seen, rng), nil
	}
	return u, nil
}

// computability returns the classifier of computability of h's space
// when h has failed trials (bo.Feasibility), none otherwise: a boa
// extension (docs/samplers.md, "Failed trials"). A study's constraints
// are not modelled: CoCaBO's bandits and incumbent know no feasibility,
// and auto gives a constrained study gpbo.
func (c *CoCaBO) computability(h *sampler.History, rng *rand.Rand) []acq.Penalty {
	factors, err := c.feas.Factors(h, false, rng)
	if err != nil {
		c.logger().Warn("cocabo: the classifier of computability could not be fitted; the acquisition goes without it", "trial", h.Trials, "err", err)
	}
	return factors
}

// ArmProbabilities returns, for each categorical parameter in space order,
// the play probabilities of its EXP3 agent after replaying h (the
// distribution the next Suggest draws h from). It returns nil for a space
// without categorical parameters and an error for a conditional space.
func (c *CoCaBO) ArmProbabilities(h *sampler.History) ([][]float64, error) {
	l, err := c.prepare(h)
	if err != nil {
		return nil, err
	}
	if len(l.cat) == 0 {
		return nil, nil
	}
	agents := replayEXP3(l, h.Observed, c.initPoints(), c.Horizon(h, 1), c.rewardOverArms())
	p := make([][]float64, len(agents))
	for j, a := range agents {
		p[j] = a.Probs()
	}
	return p, nil
}

// randomWithArms returns a uniform point with the categories h.
func randomWithArms(l *mixedLayout, arms []int, rng *rand.Rand) []float64 {
	u := l.sp.Sample(rng)
	l.setArms(u, arms)
	l.sp.Round(u)
	return u
}

func init() {
	sampler.Register("cocabo", func() sampler.Sampler { return cocaboAlias() })
	sampler.Register("cocabo-auto", func() sampler.Sampler { return New() })
	sampler.Register("cocabo-0", func() sampler.Sampler { return NewFixed(0) })
	sampler.Register("cocabo-0.5", func() sampler.Sampler { return NewFixed(0.5) })
	sampler.Register("cocabo-1", func() sampler.Sampler { return NewFixed(1) })
}
