package acq

import (
	"math"
	"slices"

	"github.com/boaopt/boa/pareto"
)

// LogEHVI is the logarithm of the expected hypervolume improvement of a
// point whose objectives, all minimised, are independent Gaussians under
// one model each (Emmerich et al. 2006), computed exactly on the box
// decomposition of the region the current front does not dominate
// (pareto.Boxes): the improvement of y is Σ_b Π_k (u_bk − max(l_bk,
// y_k))⁺, and each factor's expectation has a closed form,
//
//	E[(u − max(l, Y))⁺] = g(u) − g(l),  g(c) = E[(c − Y)⁺] = σ·h((c − μ)/σ),
//
// the expected improvement of Y below c, h(z) = φ(z) + zΦ(z) as in EI
// (g(−∞) = 0). With independent objectives the expectation of the
// product is the product of the expectations, so
//
//	EHVI = Σ_b Π_k (g_k(u_bk) − g_k(l_bk)),
//
// the analytic EHVI of BoTorch (Daulton et al. 2020 for its box form).
// As LogEI does for EI (Ament et al. 2023), it is evaluated in log
// space: log g from LogH, log(g(u) − g(l)) = log g(u) + log(1 − e^(log
// g(l) − log g(u))), and a log-sum-exp over the boxes, so that it stays
// finite, with a useful gradient, far from the front where EHVI
// underflows. With one objective and the box (−∞, y*) it is LogEI at
// the incumbent y*.
//
// The zero value is not usable; build it with NewLogEHVI. It is safe for
// concurrent use.
type LogEHVI struct {
	models []BatchModel
	bounds [][]float64 // per objective, the distinct finite bounds of the boxes, sorted
	lo, hi [][]int     // per box and objective, the index in bounds of l and u; −1 for l = −∞
}

// NewLogEHVI returns the acquisition of models, one per objective, on
// the boxes of the non-dominated region (pareto.Boxes with a finite
// reference point: every upper bound finite).
func NewLogEHVI(models []BatchModel, boxes []pareto.Box) *LogEHVI {
	a := &LogEHVI{models: models, bounds: make([][]float64, len(models))}
	for k := range models {
		var b []float64
		for _, box := range boxes {
			if l := box.Lo[k]; !math.IsInf(l, -1) {
				b = append(b, l)
			}
			b = append(b, box.Hi[k])
		}
		slices.Sort(b)
		a.bounds[k] = slices.Compact(b)
	}
	for _, box := range boxes {
		lo, hi := make([]int, len(models)), make([]int, len(models))
		for k := range models {
			lo[k] = -1
			if l := box.Lo[k]; !math.IsInf(l, -1) {
				lo[k], _ = slices.BinarySearch(a.bounds[k], l)
			}
			hi[k], _ = slices.BinarySearch(a.bounds[k], box.Hi[k])
		}
		a.lo, a.hi = append(a.lo, lo), append(a.hi, hi)
	}
	return a
}

// Eval implements Surface.
func (a *LogEHVI) Eval(x, grad []float64) float64 {
	m := len(a.models)
	mu, sd := make([]float64, m), make([]float64, m)
	var dmu, dsd [][]float64
	if grad != nil {
		dmu, dsd = make([][]float64, m), make([][]float64, m)
	}
	for k, model := range a.models {
		if grad == nil {
			mu[k], sd[k] = sdOf(model.Predict(x))
			continue
		}
		dmu[k], dsd[k] = make([]float64, len(x)), make([]float64, len(x))
		var v float64
		mu[k], v = model.PredictGrad(x, dmu[k], dsd[k])
		mu[k], sd[k] = sdOf(mu[k], v)
		for i := range dsd[k] {
			dsd[k][i] /= 2 * max(sd[k], math.SmallestNonzeroFloat64) // ∂σ = ∂σ²/2σ; unused when σ = 0
		}
	}
	var cmu, csd []float64
	if grad != nil {
		cmu, csd = make([]float64, m), make([]float64, m)
	}
	v := a.value(mu, sd, cmu, csd, newEHVIScratch(a))
	if grad != nil {
		clear(grad)
		if !math.IsInf(v, -1) {
			for k := range m {
				for i := range grad {
					grad[i] += cmu[k]*dmu[k][i] + csd[k]*dsd[k][i]
				}
			}
		}
	}
	return v
}

// EvalBatch implements Surface.
func (a *LogEHVI) EvalBatch(X [][]float64, out []float64) {
	m := len(a.models)
	mu, vr := make([][]float64, m), make([][]float64, m)
	for k, model := range a.models {
		mu[k], vr[k] = make([]float64, len(X)), make([]float64, len(X))
		model.PredictBatch(X, mu[k], vr[k])
	}
	// The boxes of three objectives number hundreds: spread the points.
	parallel(len(X), len(a.lo)*len(X) > 1<<14, func(i int) {
		mi, si := make([]float64, m), make([]float64, m)
		for k := range m {
			mi[k], si[k] = sdOf(mu[k][i], vr[k][i])
		}
		out[i] = a.value(mi, si, nil, nil, newEHVIScratch(a))
	})
}

// sdOf returns the mean and the standard deviation of a prediction, σ = 0
// below varFloor.
func sdOf(mean, varF float64) (float64, float64) {
	if !(varF > varFloor) {
		if math.IsNaN(varF) {
			return mean, varF
		}
		return mean, 0
	}
	return mean, math.Sqrt(varF)
}

// ehviScratch holds, per objective and bound c, log g(c) and the
// derivatives of log g over μ and σ.
type ehviScratch struct{ lg, gmu, gsd [][]float64 }

func newEHVIScratch(a *LogEHVI) *ehviScratch {
	s := &ehviScratch{}
	for _, b := range a.bounds {
		s.lg = append(s.lg, make([]float64, len(b)))
		s.gmu = append(s.gmu, make([]float64, len(b)))
		s.gsd = append(s.gsd, make([]float64, len(b)))
	}
	return s
}

// value returns log EHVI at the moments mu, sd; with cmu != nil it
// writes ∂/∂μ_k into cmu[k] and ∂/∂σ_k into csd[k].
func (a *LogEHVI) value(mu, sd, cmu, csd []float64, s *ehviScratch) float64 {
	for k, bounds := range a.bounds {
		for j, c := range bounds {
			if sd[k] == 0 {
				continue // the deterministic limit is taken box by box
			}
			z := (c - mu[k]) / sd[k]
			s.lg[k][j] = math.Log(sd[k]) + LogH(z)
			cr, pr := hRatios(z)
			s.gmu[k][j], s.gsd[k][j] = -cr/sd[k], pr/sd[k]
		}
	}
	// log G_bk and its derivatives, box by box; the log-sum-exp runs
	// as it goes, scaled by its running maximum.
	top, sum := math.Inf(-1), 0.0
	var wmu, wsd []float64
	if cmu != nil {
		clear(cmu)
		clear(csd)
		wmu, wsd = make([]float64, len(mu)), make([]float64, len(mu))
	}
	for b := range a.lo {
		L := 0.0
		for k := range mu {
			lk, dm, ds := a.factor(k, a.lo[b][k], a.hi[b][k], mu[k], sd[k], s)
			L += lk
			if wmu != nil {
				wmu[k], wsd[k] = dm, ds
			}
		}
		if math.IsInf(L, -1) || math.IsNaN(L) {
			continue
		}
		if L > top { // rescale what was summed to the new maximum
			r := math.Exp(top - L)
			sum *= r
			for k := range cmu {
				cmu[k] *= r
				csd[k] *= r
			}
			top = L
		}
		w := math.Exp(L - top)
		sum += w
		for k := range cmu {
			cmu[k] += w * wmu[k]
			csd[k] += w * wsd[k]
		}
	}
	if sum == 0 {
		return math.Inf(-1)
	}
	for k := range cmu {
		cmu[k] /= sum
		csd[k] /= sum
	}
	return top + math.Log(sum)
}

// factor returns log(g(u) − g(l)) of objective k for the bounds of
// indices l (−1: −∞) and u, with its derivatives over μ and σ.
func (a *LogEHVI) factor(k, l, u int, mu, sd float64, s *ehviScratch) (v, dmu, dsd float64) {
	bounds := a.bounds[k]
	if sd == 0 {
		// G = (u − max(l, μ))⁺, whose σ-derivative is not needed: σ = 0
		// only where the model is certain.
		lo := mu
		if l >= 0 && bounds[l] > mu {
			lo = bounds[l]
		}
		d := bounds[u] - lo
		if !(d > 0) {
			return math.Inf(-1), 0, 0
		}
		if lo == mu {
			return math.Log(d), -1 / d, 0
		}
		return math.Log(d), 0, 0
	}
	lgu, mu1, sd1 := s.lg[k][u], s.gmu[k][u], s.gsd[k][u]
	if l < 0 {
		return lgu, mu1, sd1
	}
	t := s.lg[k][l] - lgu // log ρ, ρ = g(l)/g(u) ≤ 1
	if !(t < 0) {
		return math.Inf(-1), 0, 0
	}
	rho := math.Exp(t)
	q := -math.Expm1(t) // 1 − ρ
	// ∂log(g(u) − g(l)) = (∂g(u) − ∂g(l))/(g(u)(1 − ρ)), and ∂g(l)/g(u)
	// = ρ·∂log g(l).
	return lgu + math.Log(q), (mu1 - rho*s.gmu[k][l]) / q, (sd1 - rho*s.gsd[k][l]) / q
}
