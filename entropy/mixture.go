package entropy

import (
	"fmt"
	"math"
)

const (
	logTwoPiE  = 2.83787706640934548356065947281123527972279494727556 // log(2πe)
	logSqrt2Pi = 0.91893853320467274178032973640561763986139747363778 // ½ log(2π)
	// tiny is the density below which q log q is taken as 0 [spec §5, Decision].
	tiny = 1e-300
)

// Mixture is the univariate Gaussian mixture q(y) = Σ_j w_j N(y; μ_j, v_j).
// Mean and Var have one entry per component (every Var > 0); Weight is nil
// for equal weights 1/M, else non-negative with a positive sum (normalised
// on use).
type Mixture struct {
	Mean, Var, Weight []float64
}

// Len is the number of components.
func (q Mixture) Len() int { return len(q.Mean) }

// weights returns the normalised weights (a fresh slice).
func (q Mixture) weights() []float64 {
	m := len(q.Mean)
	if len(q.Var) != m {
		panic(fmt.Sprintf("entropy: %d means but %d variances", m, len(q.Var)))
	}
	if m == 0 {
		panic("entropy: mixture of no components")
	}
	w := make([]float64, m)
	if q.Weight == nil {
		for j := range w {
			w[j] = 1 / float64(m)
		}
		return w
	}
	if len(q.Weight) != m {
		panic(fmt.Sprintf("entropy: %d means but %d weights", m, len(q.Weight)))
	}
	var s float64
	for _, x := range q.Weight {
		s += x
	}
	if !(s > 0) {
		panic("entropy: weights must have a positive sum")
	}
	for j, x := range q.Weight {
		w[j] = x / s
	}
	return w
}

// comps is a mixture prepared for fast evaluation of its density:
// component j contributes c_j exp(−a_j (y − μ_j)²).
type comps struct {
	mu, a, c []float64
}

func (q Mixture) prepare() comps {
	w := q.weights()
	p := comps{mu: q.Mean, a: make([]float64, len(w)), c: make([]float64, len(w))}
	for j, v := range q.Var {
		p.a[j] = 0.5 / v
		p.c[j] = w[j] / math.Sqrt(2*math.Pi*v)
	}
	return p
}

// density is q(y).
func (p comps) density(y float64) float64 {
	var s float64
	for j, m := range p.mu {
		d := y - m
		s += p.c[j] * math.Exp(-p.a[j]*d*d)
	}
	return s
}

// Density returns q(y).
func (q Mixture) Density(y float64) float64 { return q.prepare().density(y) }

// Moments returns the mixture's mean m_G = Σ w_j μ_j and variance
// v_G = Σ w_j (v_j + (μ_j − m_G)²) [000 Eqs. 3.14–3.15], the second form
// of Σ w_j (v_j + μ_j²) − m_G² free of its cancellation.
func (q Mixture) Moments() (mean, variance float64) {
	w := q.weights()
	for j, m := range q.Mean {
		mean += w[j] * m
	}
	for j, m := range q.Mean {
		d := m - mean
		variance += w[j] * (q.Var[j] + d*d)
	}
	return mean, variance
}

// MomentMatching is the entropy of the Gaussian with the mixture's mean
// and variance, ½ log(2πe v_G) [000 Eqs. 3.14–3.15; spec §5.2]: an upper
// bound on H[q], since the Gaussian has the largest entropy of all
// densities with that variance.
func (q Mixture) MomentMatching() float64 {
	_, v := q.Moments()
	return 0.5 * (logTwoPiE + math.Log(v))
}

// GaussianEntropy is the entropy of N(μ, v), ½ log(2πe v).
func GaussianEntropy(v float64) float64 { return 0.5 * (logTwoPiE + math.Log(v)) }
