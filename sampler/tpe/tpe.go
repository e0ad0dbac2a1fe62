package tpe

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat/distuv"
)

// TPE is the tree-structured Parzen estimator (Bergstra et al. 2011), the
// cheap model-based sampler of Optuna and Hyperopt, with the settings of
// spec constrained-autotinyml §6 [seed 004 §4.1.3, Eq. 4.18] but one: the
// best ⌈n/10⌉ observations, up to 25, give a density l(x), as in Optuna,
// where the spec's Decision takes the best quarter, which measured worse
// on 5 of 7 problems (docs/samplers.md, "TPE"). The others give g(x), and
// the next point maximises l(x)/g(x), which is expected improvement under
// that model. Both densities are products of univariate Parzen
// estimators, one per parameter, so a suggestion costs O(d·n·Candidates)
// and no fit: TPE is for budgets beyond a GP's reach (thousands of
// trials). On a conditional space each parameter's estimators use only
// the trials in which it was active, as Optuna's independent TPE does.
//
// Where the spec is silent: every observation weighs the same (no
// down-weighting of old trials), pruned trials count among the bad (g),
// since they were stopped for doing worse than the others, as in Optuna
// 3.1, and so do failed ones, which Optuna leaves out: then the region
// where trials fail stays unmodelled, l/g is largest there, and on Branin
// with a failing region 30 of 40 trials failed (docs/samplers.md, "Failed
// trials"). ConstantLiar is Optuna's constant_liar: running trials count
// among the bad too, so parallel workers do not crowd one point.
type TPE struct {
	Gamma        float64 // fraction of the observations that forms l; 0 (default) is Optuna's rule, ⌈n/10⌉ up to 25; the spec's Decision is 0.25
	Candidates   int     // draws from l per parameter; default 24
	Startup      int     // uniform random trials before the model starts; default 10
	ConstantLiar bool    // count pending trials among the bad ones; default true (docs/samplers.md, "TPE")
}

// New returns tpe with its defaults.
func New() *TPE { return &TPE{Candidates: 24, Startup: 10, ConstantLiar: true} }

func (t *TPE) Name() string { return "tpe" }

// Designing reports whether fewer than Startup trials have completed or
// been pruned (Optuna's n_startup_trials counts both), so that the next
// suggestion is a uniform random point.
func (t *TPE) Designing(h *sampler.History) bool {
	return len(h.Observed)+len(h.Pruned) < bo.OrDefault(t.Startup, 10)
}

// Suggest draws Candidates values of each parameter from its l and takes
// the one with the largest l/g: since l/g is a product over the
// parameters, that maximises it over every combination of the draws. On a
// discrete space that combination may have been tried already, or it may
// break a limit known before evaluation (History.Admits); then the best
// other joint draw is taken, and failing that an untried random point, as
// the other model-based samplers never repeat a configuration while there
// are others (docs/samplers.md, "Repeated configurations").
func (t *TPE) Suggest(_ context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	if t.Designing(h) {
		return bo.UntriedPoint(h, rng), nil
	}
	sp := h.Space
	good, bad := t.split(h)
	d, nc := sp.Len(), bo.OrDefault(t.Candidates, 24)
	draws := make([][]float64, nc) // draws[j]: joint candidate j
	for j := range draws {
		draws[j] = make([]float64, d)
	}
	score := make([][]float64, nc) // score[j][i]: log l − log g of draws[j][i]
	for j := range score {
		score[j] = make([]float64, d)
	}
	best := make([]float64, d)
	for i := range d {
		choices := 0 // unordered choices; ordered ones are numeric
		if sp.Unordered(i) {
			choices = sp.Levels(i)
		}
		l, g := newParzen(choices, good.coords(i)), newParzen(choices, bad.coords(i))
		top := 0
		for j := range nc {
			draws[j][i] = l.sample(rng)
			score[j][i] = l.logPDF(draws[j][i]) - g.logPDF(draws[j][i])
			if score[j][i] > score[top][i] {
				top = j
			}
		}
		best[i] = draws[top][i]
	}
	excluded := bo.Excluded(h)
	sp.Round(best)
	if !excluded(best) {
		return best, nil
	}
	return bestUntried(h, draws, score, excluded, rng), nil
}

// bestUntried returns the joint draw, among those not excluded (tried, or
// not admitted by h), with the largest l/g over the parameters active at
// it, or an untried random point when every draw is excluded.
func bestUntried(h *sampler.History, draws, score [][]float64, excluded func([]float64) bool, rng *rand.Rand) []float64 {
	sp := h.Space
	var pick []float64
	top := math.Inf(-1)
	for j, u := range draws {
		if sp.Round(u); excluded(u) {
			continue
		}
		s := 0.0
		for i, active := range sp.Active(u) {
			if active {
				s += score[j][i]
			}
		}
		if s > top {
			pick, top = u, s
		}
	}
	if pick == nil {
		return bo.UntriedPoint(h, rng)
	}
	return pick
}

// split returns the points of the best observations (their number by
// nGood; ties keep the trials' order) and of the others, with the pruned
// and failed trials, and the pending ones under ConstantLiar, among the
// bad.
func (t *TPE) split(h *sampler.History) (good, bad points) {
	obs := slices.Clone(h.Observed)
	slices.SortStableFunc(obs, func(a, b sampler.Observation) int { return cmp.Compare(a.Y, b.Y) })
	n := t.nGood(len(obs))
	good = points{sp: h.Space}
	bad = points{sp: h.Space}
	for k, o := range obs {
		if k < n {
			good.add(o.X)
		} else {
			bad.add(o.X)
		}
	}
	for _, u := range slices.Concat(h.Pruned, h.Failed) {
		bad.add(u)
	}
	if t.ConstantLiar {
		for _, u := range h.Pending {
			bad.add(u)
		}
	}
	return good, bad
}

// nGood is the number of the n observations that form l: ⌈Gamma·n⌉, or
// by default Optuna's min(⌈n/10⌉, 25); at least one.
func (t *TPE) nGood(n int) int {
	if t.Gamma > 0 && t.Gamma < 1 {
		return max(int(math.Ceil(t.Gamma*float64(n))), 1)
	}
	return min(max(int(math.Ceil(0.1*float64(n))), 1), 25)
}

// points are encoded points with the parameters active at each.
type points struct {
	sp     *space.Space
	xs     [][]float64
	active [][]bool
}

func (p *points) add(u []float64) {
	p.xs = append(p.xs, u)
	p.active = append(p.active, p.sp.Active(u))
}

// coords returns coordinate i of the points at which parameter i is active.
func (p *points) coords(i int) []float64 {
	var c []float64
	for k, u := range p.xs {
		if p.active[k][i] {
			c = append(c, u[i])
		}
	}
	return c
}

// parzen is the univariate Parzen estimator of one parameter's coordinate
// in [0,1] (spec constrained-autotinyml §6 Decision). For a categorical or
// Bool parameter it is the smoothed frequency of each choice, with a prior
// count of 1. For a numeric one (Float; Int and Ordinal by their cell
// codes, the candidate then rounded to its cell) it is an equal-weight
// mixture of Gaussians truncated to [0,1], one centred on each point and
// one prior component at the centre 0.5 with bandwidth 1, the range. A
// point's bandwidth is the larger distance to its neighbours in sorted
// order, the prior's centre among them as in Hyperopt, clipped to
// [1/min(100, n+1), 1].
type parzen struct {
	logp      []float64 // categorical: log probability of each choice
	mu, sigma []float64 // numeric: the components
	logNorm   []float64 // numeric: log of each component's normaliser, σ√(2π) times its mass in [0,1]
}

// newParzen returns the estimator of coordinates xs of a parameter with
// the given number of unordered choices, 0 for a numeric one.
func newParzen(choices int, xs []float64) *parzen {
	if choices > 0 {
		return newCategoricalParzen(choices, xs)
	}
	mu := append(slices.Clone(xs), 0.5)
	slices.Sort(mu)
	sigma := make([]float64, len(mu))
	lo, hi := 1/math.Min(100, float64(len(xs)+1)), 1.0
	prior := false
	for k, m := range mu {
		if !prior && m == 0.5 {
			prior = true // one of the 0.5s is the prior; its bandwidth is the range
			sigma[k] = 1
			continue
		}
		s := 0.0
		if k > 0 {
			s = m - mu[k-1]
		}
		if k < len(mu)-1 {
			s = math.Max(s, mu[k+1]-m)
		}
		sigma[k] = math.Min(math.Max(s, lo), hi)
	}
	p := &parzen{mu: mu, sigma: sigma, logNorm: make([]float64, len(mu))}
	for k, m := range mu {
		mass := distuv.UnitNormal.CDF((1-m)/sigma[k]) - distuv.UnitNormal.CDF(-m/sigma[k])
		p.logNorm[k] = math.Log(sigma[k] * math.Sqrt(2*math.Pi) * mass)
	}
	return p
}

func newCategoricalParzen(choices int, xs []float64) *parzen {
	count := make([]float64, choices)
	for k := range count {
		count[k] = 1
	}
	for _, x := range xs {
		count[bo.Level(x, choices)]++
	}
	sum := floats.Sum(count)
	p := &parzen{logp: make([]float64, choices)}
	for k, c := range count {
		p.logp[k] = math.Log(c / sum)
	}
	return p
}

// logPDF returns the log density (log probability of the choice) at x.
func (p *parzen) logPDF(x float64) float64 {
	if p.logp != nil {
		return p.logp[bo.Level(x, len(p.logp))]
	}
	terms := make([]float64, len(p.mu))
	for k, m := range p.mu {
		z := (x - m) / p.sigma[k]
		terms[k] = -0.5*z*z - p.logNorm[k]
	}
	return floats.LogSumExp(terms) - math.Log(float64(len(p.mu)))
}

// sample draws a coordinate: a choice's code (k+½)/L, or a component
// picked uniformly and a draw of its truncated Gaussian by inversion.
func (p *parzen) sample(rng *rand.Rand) float64 {
	if p.logp != nil {
		r, k := rng.Float64(), 0
		for ; k < len(p.logp)-1; k++ {
			if r -= math.Exp(p.logp[k]); r < 0 {
				break
			}
		}
		return (float64(k) + 0.5) / float64(len(p.logp))
	}
	k := rng.IntN(len(p.mu))
	m, s := p.mu[k], p.sigma[k]
	a, b := distuv.UnitNormal.CDF(-m/s), distuv.UnitNormal.CDF((1-m)/s)
	x := m + s*distuv.UnitNormal.Quantile(a+rng.Float64()*(b-a))
	return min(max(x, 0), 1)
}

func init() { sampler.Register("tpe", func() sampler.Sampler { return New() }) }
