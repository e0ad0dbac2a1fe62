package casmopolitan

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
)

// Casmopolitan is CASMOPOLITAN, trust-region Bayesian optimisation for
// categorical and mixed spaces [000 §5.6, Alg. 7; mixed spec §5]. The
// zero value is not ready; use New and change fields before
// the first Suggest.
//
// A trust region is a Hamming ball of radius L^h around the categorical
// part of the best point of the current epoch (Eq. 5.12, read as a
// Hamming distance, the spec's erratum) and, for the continuous part, a
// TuRBO box of side L^x shaped by the GP's ARD lengthscales (spec §5.2).
// The lengths grow after SuccTol consecutive successes and shrink after
// FailTol consecutive failures; when one reaches its minimum the search
// restarts, from the minimiser of μ − 1.96σ (or μ − √β_i σ, RestartBeta)
// of an auxiliary GP fitted to the best point of every earlier epoch
// (Eq. 5.13, spec §5.4).
//
// Statelessness: the trust-region lengths, counters, epochs and the bests
// of earlier epochs are not kept between calls. Every Suggest replays
// h.Observed in order through the state machine of Alg. 7 (see replay);
// the little randomness the replay needs is drawn from streams derived
// from h.Seed and the position in the history, so the state is a function
// of the history and the study seed, and a resumed study continues
// exactly. Only a warm start for the hyper-parameter fit is cached, as in
// gpbo.
//
// Integer and ordinal parameters are treated as continuous coordinates of
// the unit cube (Matérn part of the kernel, TR box) and rounded to legal
// values by space.Round before they are proposed. Conditional spaces are
// rejected with an error.
type Casmopolitan struct {
	InitPoints int // random points at the start and after each restart (n_init); default 20 (spec §5.7 Decision)

	// Trust-region counters and rates [spec §5.3; reference code:
	// xingchenwan/Casmopolitan].
	SuccTol int     // consecutive successes that expand the TR; default 3
	FailTol int     // consecutive failures that shrink the TR; default 40
	Rate    float64 // expansion factor α_e = 1/α_s; default 1.5

	// Continuous TR side (unit cube): initial, minimum, maximum; defaults
	// 0.8, 0.5⁷ and 1.6.
	LxInit, LxMin, LxMax float64
	// Categorical TR radius (Hamming distance): initial, minimum, maximum;
	// defaults 20, 1 and d_h (0 means d_h). All are clipped to d_h, and the
	// minimum to below the initial radius (spec §5.3 Decision).
	LhInit, LhMin, LhMax int

	Lambda        float64      // mixture weight λ of the mixed kernel, fixed; default 0.5 (spec §5.6)
	Normalised    bool         // code form exp(Σ l_i δ_i / Σ l_i) of the exponentiated overlap (spec §3.2); default the thesis form
	Acquisition   string       // gpbo.AcqEI or gpbo.AcqLogEI (default; the same maximiser as EI, without underflow)
	Restarts      int          // hyper-parameter starts of a full fit; default 5 (spec §5.6 Decision)
	RefitEvery    int          // a full multi-start fit every this many trials of an epoch, warm-started polishing in between; default 1 (every fit is full)
	FitIters      int          // L-BFGS iterations per hyper-parameter start; default 200 (gp's)
	LocalRestarts int          // local-search restarts of the acquisition; default 3 (spec §5.5)
	LocalSteps    int          // steps of each local search; default 200 (spec §5.5)
	GradIters     int          // L-BFGS iterations on the continuous part per interleave; default 10
	Kappa         float64      // restart centre = argmin μ − κσ of the auxiliary GP; default 1.96 (spec §5.4)
	RestartBeta   string       // RestartBetaFixed (default, κ = Kappa) or RestartBetaTheory (κ = √β_i, restartBeta)
	PlainY        bool         // standardise y instead of the copula transform of spec §5.6
	Logger        *slog.Logger // where fallbacks are reported; nil means slog.Default()

	mu   sync.Mutex
	warm bo.WarmStart   // last fitted hyper-parameters of the local GP
	feas bo.Feasibility // the classifier of computability (search.go)
	memo *casmoDesign   // last guided-restart design
}

// Values of Casmopolitan.RestartBeta, the multiplier of σ in the guided
// restart (spec §5.4 Decision: the reference code's fixed 1.96 by
// default, the theoretical β_i as an option).
const (
	RestartBetaFixed  = "fixed"  // κ = Kappa (1.96) at every restart [reference code: xingchenwan/Casmopolitan]
	RestartBetaTheory = "theory" // κ = √β_i, β_i = 2 log(|𝓗| i² π²/(6ζ)) with ζ = 0.1 (restartBeta)
)

// New returns casmopolitan with the defaults of spec §5.3–5.7.
func New() *Casmopolitan {
	return &Casmopolitan{
		InitPoints: 20,
		SuccTol:    3, FailTol: 40, Rate: 1.5,
		LxInit: 0.8, LxMin: math.Pow(0.5, 7), LxMax: 1.6,
		LhInit: 20, LhMin: 1,
		Lambda:        0.5,
		Acquisition:   gpbo.AcqLogEI,
		Restarts:      5,
		LocalRestarts: 3,
		LocalSteps:    200,
		GradIters:     10,
		Kappa:         1.96,
		RestartBeta:   RestartBetaFixed,
	}
}

func (c *Casmopolitan) Name() string { return "casmopolitan" }

func (c *Casmopolitan) logger() *slog.Logger {
	if c.Logger != nil {
		return c.Logger
	}
	return slog.Default()
}

// Suggest proposes the next point. While the current epoch's completed
// trials and the pending ones are fewer than InitPoints, or fewer than
// half of them have completed (bo.InDesign), it returns the next unused
// point of the epoch's design (uniform at the start, around the
// guided-restart centre later); otherwise it fits the local GP to the
// epoch's trials, fantasises the pending, failed and pruned ones at their
// posterior mean (Kriging Believer) and maximises the acquisition inside
// the trust region. These points are never proposed again, in the design
// either; when a small discrete region has no untried configuration left,
// the point is an untried one from anywhere in the space.
func (c *Casmopolitan) Suggest(ctx context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	u, _, err := c.propose(ctx, h, rng)
	return u, err
}

// Designing reports whether the next suggestion is a point of the current
// epoch's design (bo.InDesign, on the epoch's trials as replayed).
func (c *Casmopolitan) Designing(h *sampler.History) bool {
	cs, err := newCasmoSpace(h.Space)
	if err != nil {
		return false
	}
	return c.designing(c.replay(cs, h), h)
}

func (c *Casmopolitan) designing(st *casmoState, h *sampler.History) bool {
	return bo.InDesign(len(st.local), len(h.Pending), c.InitPoints)
}

// trustRegion is where a proposal must lie: categorical coordinates
// within Hamming distance radius of centre, the others in [lo, hi].
// Whole marks no constraint: the uniform design of the first epoch, or a
// region with no untried configuration left (sampleUnseen).
type trustRegion struct {
	centre []float64
	radius int
	lo, hi []float64
	whole  bool
}

// propose is Suggest that also returns the trust region the point was
// drawn from, for tests.
func (c *Casmopolitan) propose(ctx context.Context, h *sampler.History, rng *rand.Rand) ([]float64, trustRegion, error) {
	if err := c.check(); err != nil {
		return nil, trustRegion{}, err
	}
	cs, err := newCasmoSpace(h.Space)
	if err != nil {
		return nil, trustRegion{}, err
	}
	if err := ctx.Err(); err != nil {
		return nil, trustRegion{}, err
	}
	st := c.replay(cs, h)
	excluded := bo.Excluded(h)
	if c.designing(st, h) {
		pts, tr := c.design(cs, h, st)
		for _, u := range pts {
			if !excluded(u) {
				return u, tr, nil
			}
		}
		// Every design point is taken (pending trials of a parallel study)
		// or not admissible: any other point of the same region will do.
		u, tr := cs.sampleUnseen(tr, excluded, rng)
		return u, tr, nil
	}
	u, tr, err := c.optimise(ctx, cs, h, st, excluded, rng)
	if err != nil {
		return nil, trustRegion{}, err
	}
	return u, tr, nil
}

// check validates the settings.
func (c *Casmopolitan) check() error {
	switch {
	case c.InitPoints < 1:
		return fmt.Errorf("casmopolitan: InitPoints = %d; want at least 1", c.InitPoints)
	case c.SuccTol < 1 || c.FailTol < 1:
		return fmt.Errorf("casmopolitan: SuccTol = %d and FailTol = %d must be at least 1", c.SuccTol, c.FailTol)
	case !(c.Rate > 1):
		return fmt.Errorf("casmopolitan: Rate = %v; want > 1", c.Rate)
	case !(c.LxMin > 0 && c.LxMin < c.LxInit && c.LxInit <= c.LxMax):
		return fmt.Errorf("casmopolitan: continuous lengths LxMin %v, LxInit %v, LxMax %v must satisfy 0 < min < init <= max", c.LxMin, c.LxInit, c.LxMax)
	case c.LhInit < 1 || c.LhMin < 0 || c.LhMax < 0:
		return fmt.Errorf("casmopolitan: categorical radii LhInit %d, LhMin %d, LhMax %d must be >= 1, >= 0, >= 0", c.LhInit, c.LhMin, c.LhMax)
	case !(c.Lambda >= 0 && c.Lambda <= 1):
		return fmt.Errorf("casmopolitan: Lambda = %v; want a value in [0, 1]", c.Lambda)
	}
	switch strings.ToLower(c.Acquisition) {
	case gpbo.AcqEI, gpbo.AcqLogEI, "":
	default:
		return fmt.Errorf("casmopolitan: unknown acquisition %q (known: ei, logei)", c.Acquisition)
	}
	switch c.RestartBeta {
	case RestartBetaFixed, RestartBetaTheory, "":
	default:
		return fmt.Errorf("casmopolitan: unknown RestartBeta %q (known: %s, %s)", c.RestartBeta, RestartBetaFixed, RestartBetaTheory)
	}
	return nil
}

// casmoSpace is the view of a space that casmopolitan works in: the
// categorical parameters (Categorical, Bool) and the others, which are
// treated as continuous.
type casmoSpace struct {
	sp     *space.Space
	cat    []int // parameter indices of categorical parameters
	cont   []int // parameter indices of the others
	levels []int // number of levels of each parameter (0 for Float)
	moves  []int // categorical parameters with at least two levels
}

// CheckSpace returns an error for a conditional space (SpaceChecker).
func (c *Casmopolitan) CheckSpace(sp *space.Space) error {
	_, err := newCasmoSpace(sp)
	return err
}

func newCasmoSpace(sp *space.Space) (*casmoSpace, error) {
	cs := &casmoSpace{sp: sp, levels: make([]int, sp.Len())}
	for i, p := range sp.Params() {
		if sp.Conditional(i) {
			return nil, fmt.Errorf("casmopolitan: parameter %q is conditional; casmopolitan works on unconditional spaces only (mixed spec §1; auto, gpbo, onehot-gp and random take conditional spaces)", p.Name)
		}
		cs.levels[i] = sp.Levels(i)
		if sp.Unordered(i) {
			cs.cat = append(cs.cat, i)
			if cs.levels[i] > 1 {
				cs.moves = append(cs.moves, i)
			}
		} else {
			cs.cont = append(cs.cont, i)
		}
	}
	return cs, nil
}

// level returns the category index of categorical parameter i at u.
func (cs *casmoSpace) level(u []float64, i int) int {
	L := cs.levels[i]
	return min(max(int(u[i]*float64(L)), 0), L-1)
}

// code returns the coordinate of level k of parameter i.
func (cs *casmoSpace) code(i, k int) float64 { return (float64(k) + 0.5) / float64(cs.levels[i]) }

// features maps an encoded point to the GP input: the category index of
// each categorical parameter (the kernels' convention) and the coordinate
// of every other one, one value per parameter in parameter order.
func (cs *casmoSpace) features(u, dst []float64) []float64 {
	if cap(dst) < len(u) {
		dst = make([]float64, len(u))
	}
	dst = dst[:len(u)]
	copy(dst, u)
	for _, i := range cs.cat {
		dst[i] = float64(cs.level(u, i))
	}
	return dst
}

// hamming counts the categorical parameters on which u and v differ.
func (cs *casmoSpace) hamming(u, v []float64) int {
	n := 0
	for _, i := range cs.cat {
		if cs.level(u, i) != cs.level(v, i) {
			n++
		}
	}
	return n
}

// inside reports whether u lies in the trust region.
func (cs *casmoSpace) inside(u []float64, tr trustRegion) bool {
	if tr.whole {
		return true
	}
	if cs.hamming(u, tr.centre) > tr.radius {
		return false
	}
	for _, i := range cs.cont {
		if u[i] < tr.lo[i] || u[i] > tr.hi[i] {
			return false
		}
	}
	return true
}

// perturb returns a random point of the trust region around its centre
// (spec §5.4–5.5): min(radius, d_h) distinct categorical parameters
// redrawn uniformly (possibly to the same value, so the Hamming distance is
// at most the radius), and the continuous coordinates uniform in the box,
// each moved only with probability min(20/d_x, 1) (at least one), as in
// TuRBO's perturbation sampling.
func (cs *casmoSpace) perturb(tr trustRegion, rng *rand.Rand) []float64 {
	return cs.perturbFrom(tr, nil, rng)
}

// perturbFrom is perturb with the moved continuous coordinates taken from
// q, a point of [0,1)^d_x mapped onto the box, instead of uniform draws:
// with q a Sobol point this is the perturbation of TuRBO's candidates and
// of the restart design (spec §5.4). The mask still comes from rng.
func (cs *casmoSpace) perturbFrom(tr trustRegion, q []float64, rng *rand.Rand) []float64 {
	if tr.whole {
		return cs.sp.Sample(rng)
	}
	u := append([]float64(nil), tr.centre...)
	k := min(tr.radius, len(cs.cat))
	perm := rng.Perm(len(cs.cat))
	for _, j := range perm[:k] {
		i := cs.cat[j]
		u[i] = cs.code(i, rng.IntN(cs.levels[i]))
	}
	if nc := len(cs.cont); nc > 0 {
		move := func(j int) {
			var v float64
			if q != nil {
				v = q[j]
			} else {
				v = rng.Float64()
			}
			i := cs.cont[j]
			u[i] = tr.lo[i] + v*(tr.hi[i]-tr.lo[i])
		}
		p := min(20/float64(nc), 1)
		moved := false
		for j := range nc {
			if rng.Float64() < p {
				move(j)
				moved = true
			}
		}
		if !moved {
			move(rng.IntN(nc))
		}
	}
	cs.sp.Round(u)
	return u
}

// sampleUnseen draws points of the trust region until one is not excluded
// (tried, or not admissible: bo.Excluded; at most 100 tries). When the region yields none (every configuration in
// a small discrete region has been tried), it draws an untried point of the
// whole space and says so in the region it returns: evaluating a tried
// configuration again teaches a deterministic objective nothing, and the
// region would take FailTol such repeats to shrink. Only an exhausted space
// gets a repeat, as with every sampler.
func (cs *casmoSpace) sampleUnseen(tr trustRegion, excluded func([]float64) bool, rng *rand.Rand) ([]float64, trustRegion) {
	var u []float64
	for range 100 {
		if u = cs.perturb(tr, rng); !excluded(u) {
			return u, tr
		}
	}
	return bo.Untried(cs.sp, excluded, u, rng), trustRegion{centre: tr.centre, whole: true}
}

func init() { sampler.Register("casmopolitan", func() sampler.Sampler { return New() }) }
