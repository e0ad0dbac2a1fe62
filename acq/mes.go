package acq

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// DefaultMESSamples is MES's default number K of minimum-value samples
// (spec §4.5: K = 10).
const DefaultMESSamples = 10

// MES is max-value entropy search in the minimising form (Wang & Jegelka
// 2017; [000 Eqs. 2.23–2.25, 3.1–3.3; spec §4.5]): the expected reduction
// of the entropy of y(x) by learning the minimum value f*, estimated with K
// samples f*_k,
//
//	γ_k = (μ(x) − f*_k)/σ(x),  α = (1/K) Σ_k [γ_k φ(γ_k)/(2Φ(γ_k)) − log Φ(γ_k)].
//
// Each term is the entropy of N(μ, σ²) minus that of the normal truncated
// to f ≥ f*_k, so α ≥ 0. Every term is evaluated without cancellation in
// the lower tail γ ≪ 0 (where its two parts are ±γ²/2) through Laplace's
// continued fraction, and tends to log|γ| + ½log(2π) − ½ there; it
// underflows to 0 for γ ≫ 0. With σ(x) = 0, α = 0 (observing a known value
// teaches nothing) with a zero gradient.
//
// The samples come from GumbelMinima (the default) or PathMinima (option
// `rff`). MES acts on one model; marginalised over hyper-parameter samples
// it is an Average of Bind(MES{Minima_j}, model_j), each sample with its
// own minima.
type MES struct {
	Minima []float64 // the samples f*_k; at least one
}

// Eval implements Function. ∂α/∂μ = (1/K)Σψ'(γ_k)/σ and
// ∂α/∂σ = −(1/K)Σψ'(γ_k)γ_k/σ, ψ the term above.
func (a MES) Eval(m Model, x, grad []float64) float64 {
	if len(a.Minima) == 0 {
		panic("acq: MES with no minimum-value samples")
	}
	mu, sd, dsd := moments(m, x, grad)
	if sd == 0 {
		scale(grad, 0)
		return 0
	}
	var val, dMu, dSd float64
	for _, fs := range a.Minima {
		g := (mu - fs) / sd
		p, dp := mesTerm(g)
		val += p
		dMu += dp
		dSd -= dp * g
	}
	inv := 1 / float64(len(a.Minima))
	if grad != nil {
		chain(grad, dMu*inv/sd, dsd, dSd*inv/sd)
	}
	return val * inv
}

// mesTerm returns ψ(γ) = γλ/2 − log Φ(γ), λ = φ(γ)/Φ(γ), and
// ψ'(γ) = −(λ/2)(1 + γ(γ + λ)). For γ < −4, with t = −γ and Laplace's
// D(t) = t + e (see millsD), λ = t + 1/D and γ + λ = 1/D exactly, so
//
//	ψ = ½log(2π) + log λ − t/(2D),   ψ' = −(λ/2)·e/D,
//
// with e = D − t taken from the continued fraction itself, free of the
// cancellation of ±γ²/2 in the direct form.
func mesTerm(g float64) (psi, dpsi float64) {
	switch {
	case g > 40: // λ < 1e-340: ψ and ψ' underflow
		return 0, 0
	case g >= -millsSplit:
		lam := invMills(g)
		return 0.5*g*lam - LogNormCDF(g), -0.5 * lam * (1 + g*(g+lam))
	default:
		t := -g
		t3, _ := millsTail(t)
		e := 2 / t3
		d := t + e
		lam := t + 1/d
		return logSqrt2Pi + math.Log(lam) - t/(2*d), -0.5 * lam * e / d
	}
}

// millsTail returns T₃ and T₄ of Laplace's continued fraction for t ≥ 4,
// T_k = t + k/T_{k+1}, so that D(t) = T₂ = t + 2/T₃ (millsD) and its parts
// D − t = 2/T₃ and T₃ − t = 3/T₄ come without cancellation. It uses
// millsD's number of terms, 8 + 640/t².
func millsTail(t float64) (t3, t4 float64) {
	n := 8 + int(640/(t*t))
	f := t
	for k := n; k >= 4; k-- {
		f = t + float64(k)/f
	}
	return t + 3/f, f
}

// GumbelMinima draws K (K ≤ 0: DefaultMESSamples) samples of the minimum
// value f* by the Gumbel approximation of Wang & Jegelka 2017 [spec §4.5,
// Decision]. means and sds are the posterior moments of f on the candidate
// set C, the optimiser's raw candidates plus the observed inputs X_n
// (sds[i] = 0 is allowed: a point known exactly). With g = −f, the law of
// max g over C under independent marginals is P(max g ≤ z) =
// Π_i Φ((z + μ_i)/σ_i); its quantiles z_q for q ∈ {0.25, 0.5, 0.75}
// (bisection) fit a Gumbel with scale b = (z_.75 − z_.25)/(log(−log 0.25) −
// log(−log 0.75)) and location a = z_.5 + b log(−log 0.5), from which
// g*_k = a − b log(−log U_k), U_k ~ U(0,1), and f*_k = −g*_k capped at
// best − 1e-6, best the incumbent min ỹ (observed, on the scale of means).
// It panics if means and sds differ in length or are empty.
func GumbelMinima(means, sds []float64, K int, best float64, rng *rand.Rand) []float64 {
	if K <= 0 {
		K = DefaultMESSamples
	}
	a, b := fitGumbel(means, sds)
	out := make([]float64, K)
	for k := range out {
		u := rng.Float64()
		for u == 0 {
			u = rng.Float64()
		}
		out[k] = math.Min(-(a - b*math.Log(-math.Log(u))), best-1e-6)
	}
	return out
}

// fitGumbel returns the location a and scale b of the Gumbel law fitted to
// max_i g_i, g_i = −f_i ~ N(−μ_i, σ_i²) independent (see GumbelMinima).
func fitGumbel(means, sds []float64) (a, b float64) {
	if len(means) != len(sds) || len(means) == 0 {
		panic(fmt.Sprintf("acq: GumbelMinima with %d means and %d standard deviations", len(means), len(sds)))
	}
	z25 := maxQuantile(means, sds, 0.25)
	z50 := maxQuantile(means, sds, 0.5)
	z75 := maxQuantile(means, sds, 0.75)
	b = (z75 - z25) / (math.Log(-math.Log(0.25)) - math.Log(-math.Log(0.75)))
	return z50 + b*math.Log(-math.Log(0.5)), b
}

// logCDFMax returns log P(max_i g_i ≤ z) = Σ_i log Φ((z + μ_i)/σ_i); a
// term with σ_i = 0 is the step at −μ_i. Terms with (z + μ_i)/σ_i > 8.3
// (|log Φ| < 6e-17) are skipped: they cannot move the sum at the quantiles
// sought, and most candidates are such points.
func logCDFMax(means, sds []float64, z float64) float64 {
	var s float64
	for i, mu := range means {
		if sds[i] <= 0 {
			if z < -mu {
				return math.Inf(-1)
			}
			continue
		}
		if u := (z + mu) / sds[i]; u < 8.3 {
			s += LogNormCDF(u)
		}
	}
	return s
}

// maxQuantile solves logCDFMax(z) = log q by bisection, from a bracket
// around max_i(−μ_i) widened until it holds the root, to 1e-9·max_i σ_i.
func maxQuantile(means, sds []float64, q float64) float64 {
	lq := math.Log(q)
	zmax, hi, sdmax := math.Inf(-1), math.Inf(-1), 0.0
	for i, mu := range means {
		zmax = math.Max(zmax, -mu)
		hi = math.Max(hi, -mu+5*sds[i])
		sdmax = math.Max(sdmax, sds[i])
	}
	if sdmax == 0 {
		return zmax // max g is known exactly
	}
	// P(max g ≤ lo) ≤ Φ(−5) at the argmax of −μ; each term is ≥ Φ(5) at hi.
	lo := zmax - 5*sdmax
	width := hi - lo
	for logCDFMax(means, sds, lo) > lq {
		lo -= width
		width *= 2
	}
	for logCDFMax(means, sds, hi) < lq {
		hi += width
		width *= 2
	}
	for hi-lo > 1e-9*sdmax {
		mid := 0.5 * (lo + hi)
		if mid <= lo || mid >= hi {
			break
		}
		if logCDFMax(means, sds, mid) < lq {
			lo = mid
		} else {
			hi = mid
		}
	}
	return 0.5 * (lo + hi)
}
