package bohb

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/stat"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
)

// BOHB is the model of BOHB (Falkner et al. 2018 §4, Alg. 2) with the
// constants of spec §6:
//
//   - Budgets. The observations at budget b are the values the trials
//     reported at step b (History.Partial); a complete trial's final value
//     is an observation at a budget above every step. The model is fitted
//     on the largest budget with at least d + 1 observations (d the number
//     of parameters); before one has, suggestions are uniformly random
//     (the design).
//   - Densities. Sorted by value, the best max(d + 1, ⌊TopPercent·n/100⌋)
//     are good and the rest bad. With fewer than d + 1 bad ones the model
//     is used anyway (a Decision: hpbandster waits for d + 1 of each,
//     which on the largest budget comes late, and the spec asks for d + 1
//     observations): a bad density of a few points is still one, and with
//     none g is the uniform density of the cube, so l(x) alone decides.
//     Each is a product kernel
//     density over the unit-cube encoding: a Gaussian kernel for an
//     ordered coordinate (Float, Int, Ordinal), of bandwidth Scott's
//     normal reference 1.06·σ·n^(−1/5), and an Aitchison–Aitken kernel for
//     a categorical one, of weight λ on the other choices, λ the same rule
//     on the choice indices clipped to (L − 1)/L; both at least
//     MinBandwidth.
//   - Candidates. Samples candidates: a good observation drawn uniformly,
//     each ordered coordinate moved by a normal of BandwidthFactor times
//     its bandwidth truncated to [0, 1], each categorical one kept with
//     probability 1 − λ, else drawn uniformly. The untried admissible one
//     of largest l(x)/g(x) is proposed.
//   - Random fraction. BOHB draws a uniformly random configuration with
//     probability 1/3 (RandomFraction); here the fraction is spread over
//     the trial numbers, trial t random when ⌊(t+1)·f⌋ > ⌊t·f⌋ (every
//     third for 1/3, as smac-like interleaves every second), so that
//     Designing tells without an rng, as the study needs to record the
//     trial's Origin before suggesting, and a resumed study continues
//     alike.
//   - Infeasible and failed trials (BOHB has no constraints; a Decision):
//     their value is bo.Penalty's, the worst observed value plus 10 % of
//     the range, as smac-like's, at the final budget; their intermediate
//     values stay as reported. Limits known before evaluation
//     (History.Admissible) are met: only admissible candidates are kept.
//
// Every random choice comes from the rng Suggest is given, and nothing is
// kept between calls.
type BOHB struct {
	TopPercent      float64 // the good share, in %; default 15
	Samples         int     // candidates per suggestion; default 64
	RandomFraction  float64 // the share of uniformly random trials, in [0, 1]; default 1/3
	BandwidthFactor float64 // the candidates' bandwidths over the model's; default 3
	MinBandwidth    float64 // default 1e-3
}

// New returns bohb with the defaults of spec §6.
func New() *BOHB {
	return &BOHB{TopPercent: 15, Samples: 64, RandomFraction: 1.0 / 3, BandwidthFactor: 3, MinBandwidth: 1e-3}
}

func (b *BOHB) Name() string { return "bohb" }

// UsesPartial implements sampler.MultiFidelity.
func (b *BOHB) UsesPartial() {}

// Designing reports whether the suggestion for h is uniformly random: no
// budget has enough observations for the model yet, or trial h.Trials is
// one of the interleaved random ones.
func (b *BOHB) Designing(h *sampler.History) bool {
	if b.randomTrial(h.Trials) {
		return true
	}
	_, ok := b.budget(h)
	return !ok
}

// randomTrial reports whether trial t is one of the interleaved random
// ones. The small slack keeps ⌊3k·(1/3)⌋ = k, which float64's 1/3, a little
// below the third, could miss.
func (b *BOHB) randomTrial(t int) bool {
	f := b.RandomFraction
	if f <= 0 {
		return false
	}
	const slack = 1e-9
	return math.Floor(float64(t+1)*f+slack) > math.Floor(float64(t)*f+slack)
}

// point is an observation at one budget.
type point struct {
	x []float64
	y float64
}

// final is the budget of the complete trials' values, above every step.
const final = math.MaxInt64

// budget returns the observations of the largest budget with enough of
// them for the model, ok false when none has.
func (b *BOHB) budget(h *sampler.History) ([]point, bool) {
	byStep := map[int64][]point{}
	var losses []float64
	for _, o := range h.Observed {
		if !o.Infeasible && finite(o.Y) {
			losses = append(losses, o.Y)
		}
	}
	for _, p := range h.Partial {
		if finite(p.Y) {
			byStep[p.Step] = append(byStep[p.Step], point{p.X, p.Y})
		}
	}
	if len(losses) > 0 {
		penalty := bo.Penalty(losses)
		for _, o := range h.Observed {
			y := o.Y
			if o.Infeasible || !finite(y) {
				y = penalty
			}
			byStep[final] = append(byStep[final], point{o.X, y})
		}
		for _, u := range h.Failed {
			byStep[final] = append(byStep[final], point{u, penalty})
		}
	}
	steps := make([]int64, 0, len(byStep))
	for s := range byStep {
		steps = append(steps, s)
	}
	slices.Sort(steps)
	d := h.Space.Len()
	for i := len(steps) - 1; i >= 0; i-- {
		if pts := byStep[steps[i]]; len(pts) >= d+1 {
			return pts, true
		}
	}
	return nil, false
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Suggest returns a uniformly random untried configuration while
// Designing, else the best of Samples candidates under l(x)/g(x).
func (b *BOHB) Suggest(ctx context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	pts, ok := b.budget(h)
	if !ok || b.Designing(h) {
		return bo.UntriedPoint(h, rng), nil
	}
	sp := h.Space
	d := sp.Len()
	slices.SortStableFunc(pts, func(a, c point) int { return cmp.Compare(a.y, c.y) })
	nGood := min(len(pts), max(d+1, int(b.TopPercent*float64(len(pts))/100)))
	good := newKDE(sp, pts[:nGood], b.MinBandwidth)
	bad := newKDE(sp, pts[nGood:], b.MinBandwidth)
	excluded := bo.Excluded(h)
	var pick []float64
	top := math.Inf(-1)
	for range b.Samples {
		if ctx.Err() != nil {
			break
		}
		u := good.sample(rng, b.BandwidthFactor)
		sp.Round(u)
		if excluded(u) {
			continue
		}
		if s := good.logDensity(u) - bad.logDensity(u); s > top {
			pick, top = u, s
		}
	}
	if pick == nil { // every candidate was tried or inadmissible
		return bo.UntriedPoint(h, rng), nil
	}
	return pick, nil
}

// kde is a product kernel density over the unit-cube encoding (BOHB's
// statsmodels KDEMultivariate with the normal reference bandwidths).
type kde struct {
	sp     *space.Space
	pts    [][]float64
	bw     []float64 // σ of an ordered coordinate's kernel, λ of a categorical one's
	levels []int     // choices of a categorical coordinate, 0 for an ordered one
}

func newKDE(sp *space.Space, pts []point, minBW float64) *kde {
	k := &kde{sp: sp, bw: make([]float64, sp.Len()), levels: make([]int, sp.Len())}
	for _, p := range pts {
		k.pts = append(k.pts, p.x)
	}
	n := float64(len(pts))
	for j := range k.bw {
		vals := make([]float64, len(pts))
		if sp.Unordered(j) {
			k.levels[j] = sp.Levels(j)
		}
		for i, p := range pts {
			vals[i] = p.x[j]
			if L := k.levels[j]; L > 0 {
				vals[i] = float64(bo.Level(p.x[j], L))
			}
		}
		bw := 1.06 * stddev(vals) * math.Pow(n, -0.2)
		if L := k.levels[j]; L > 0 {
			bw = min(bw, float64(L-1)/float64(L))
		}
		k.bw[j] = max(bw, minBW)
	}
	return k
}

func stddev(v []float64) float64 {
	if len(v) < 2 {
		return 0
	}
	return stat.StdDev(v, nil)
}

// logDensity is the log of the density at u: the mean over the points of
// the product of their kernels, by log-sum-exp; 0, the uniform density of
// the cube, when k has no points (an empty bad set).
func (k *kde) logDensity(u []float64) float64 {
	if len(k.pts) == 0 {
		return 0
	}
	terms := make([]float64, len(k.pts))
	for i, p := range k.pts {
		var l float64
		for j, x := range u {
			if L := k.levels[j]; L > 0 {
				if bo.Level(x, L) == bo.Level(p[j], L) {
					l += math.Log(1 - k.bw[j])
				} else {
					l += math.Log(k.bw[j] / float64(L-1))
				}
				continue
			}
			z := (x - p[j]) / k.bw[j]
			l += -0.5*z*z - math.Log(k.bw[j]*math.Sqrt(2*math.Pi))
		}
		terms[i] = l
	}
	top := slices.Max(terms)
	var s float64
	for _, t := range terms {
		s += math.Exp(t - top)
	}
	return top + math.Log(s/float64(len(terms)))
}

// sample draws a candidate around a point of k chosen uniformly: ordered
// coordinates by a normal of factor × their bandwidth truncated to [0, 1],
// categorical ones kept with probability 1 − λ, else uniform.
func (k *kde) sample(rng *rand.Rand, factor float64) []float64 {
	p := k.pts[rng.IntN(len(k.pts))]
	u := slices.Clone(p)
	for j := range u {
		if L := k.levels[j]; L > 0 {
			if rng.Float64() >= 1-k.bw[j] {
				u[j] = (float64(rng.IntN(L)) + 0.5) / float64(L)
			}
			continue
		}
		sd := factor * k.bw[j]
		x := p[j] + sd*rng.NormFloat64()
		for try := 0; (x < 0 || x > 1) && try < 100; try++ { // truncated to the cube by rejection
			x = p[j] + sd*rng.NormFloat64()
		}
		u[j] = min(max(x, 0), 1)
	}
	return u
}

// options are the settings a study file may give bohb (the mapping form
// sampler: {type: bohb, top_n_percent: 15}), under hpbandster's names.
var options = map[string]sampler.Option[BOHB]{
	"top_n_percent": {Help: "a number in (0, 100), the good share in % (default 15)", Set: floatOption(func(b *BOHB) *float64 { return &b.TopPercent }, 0, 100)},
	"num_samples":   {Help: "an integer ≥ 1, the candidates per suggestion (default 64)", Set: sampler.IntOption(func(b *BOHB) *int { return &b.Samples }, 1)},
	"random_fraction": {Help: "a number in [0, 1], the share of uniformly random trials (default 1/3)", Set: func(b *BOHB, v string) error {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || !(x >= 0 && x <= 1) {
			return fmt.Errorf("%q is not a number in [0, 1]", v)
		}
		b.RandomFraction = x
		return nil
	}},
	"bandwidth_factor": {Help: "a number > 0, the candidates' bandwidths over the model's (default 3)", Set: floatOption(func(b *BOHB) *float64 { return &b.BandwidthFactor }, 0, math.MaxFloat64)},
	"min_bandwidth":    {Help: "a number in (0, 1), the bandwidths' floor (default 1e-3)", Set: floatOption(func(b *BOHB) *float64 { return &b.MinBandwidth }, 0, 1)},
}

// Configure implements sampler.Configurable.
func (b *BOHB) Configure(opts sampler.Options) error {
	return sampler.Configure(b, opts, options, nil)
}

// floatOption sets a number in the open interval (lo, hi).
func floatOption(field func(*BOHB) *float64, lo, hi float64) func(*BOHB, string) error {
	return func(b *BOHB, v string) error {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || !(x > lo && x < hi) {
			return fmt.Errorf("%q is not a number in (%g, %g)", v, lo, hi)
		}
		*field(b) = x
		return nil
	}
}

func init() { sampler.Register("bohb", func() sampler.Sampler { return New() }) }
