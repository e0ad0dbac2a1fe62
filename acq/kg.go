package acq

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/boaopt/boa/qmc"
)

// CrossModel is a BatchModel that also gives the posterior covariance of
// f between a set of points and x, and its noise variance; knowledge
// gradient needs both (gp.GP satisfies it).
type CrossModel interface {
	BatchModel
	// PostCov writes k_post(A[i], x) into out[i] (len(out) = len(A)), on
	// the scale of Predict.
	PostCov(A [][]float64, x []float64, out []float64)
	// NoiseVarY is the observation-noise variance σ_n² on the scale of
	// Predict (the original y scale).
	NoiseVarY() float64
}

// KGPoints is the size of KG's Sobol set S (spec §4.3, Decision).
const KGPoints = 256

// KG is the discrete knowledge gradient (spec §4.3, Decision) [000 Eqs.
// 2.18–2.19; 004 Eqs. 4.26–4.27; Frazier et al. 2009]: the expected drop
// of the posterior mean's minimum over the set A = X_n ∪ {x} ∪ S when y is
// observed at x,
//
//	KG(x) = min_a μ_n(a) − E_Z[min_a (μ_n(a) + b(a)Z)],
//	b(a) = k_post(a, x)/√(σ²(x) + σ_n²),  Z ~ N(0, 1),
//
// since after observing y the mean moves to μ_{n+1}(a) = μ_n(a) + b(a)Z
// with Z = (y − μ_n(x))/√(σ²(x) + σ_n²). The expectation is a 32-node
// Gauss–Hermite rule (GaussHermite). That rule has symmetric nodes and
// positive weights summing to 1, so it is itself ≤ min_a μ_n(a)
// (Σ_k w_k min_a(·) ≤ Σ_k w_k (μ_n(a*) + b(a*)z_k) = μ_n(a*)): KG ≥ 0 up
// to rounding, and is clipped at 0.
//
// The gradient is by central differences with step 1e-4 of the box width
// per coordinate (spec §4.3, Decision), 2d more evaluations.
//
// Train and S are fixed for the life of a KG, one maximisation of the
// acquisition, so that α is a deterministic function of x. Eval needs a
// CrossModel and panics on any other Model. It caches μ_n on X_n ∪ S per
// model (one PredictBatch each), so one KG serves M hyper-parameter
// samples (Bind it to each and Average); the model must be comparable
// (a pointer, as *gp.GP). Eval is safe for concurrent use.
type KG struct {
	Train        [][]float64 // X_n, the training inputs
	S            [][]float64 // the Sobol set S
	Lower, Upper []float64   // the box (finite-difference steps)

	mu    sync.Mutex
	means map[Model][]float64 // μ_n on Train ∪ S, per model
}

// NewKG returns knowledge gradient on the training inputs train (kept, not
// copied) in the box [lower, upper], with S = KGPoints Sobol points of
// that box, scrambled by rng.
func NewKG(train [][]float64, lower, upper []float64, rng *rand.Rand) *KG {
	d := len(lower)
	if d == 0 || len(upper) != d {
		panic(fmt.Sprintf("acq: NewKG with a box of %d lower and %d upper bounds", len(lower), len(upper)))
	}
	s := qmc.SobolPoints(KGPoints, d, rng)
	for _, p := range s {
		for j := range p {
			p[j] = lower[j] + p[j]*(upper[j]-lower[j])
		}
	}
	return &KG{Train: train, S: s, Lower: lower, Upper: upper}
}

// kgStep is the finite-difference step as a fraction of the box width
// (spec §4.3, Decision).
const kgStep = 1e-4

// Eval implements Function.
func (k *KG) Eval(m Model, x, grad []float64) float64 {
	cm, ok := m.(CrossModel)
	if !ok {
		panic(fmt.Sprintf("acq: KG needs a CrossModel (posterior cross-covariances), got %T", m))
	}
	fixed := k.fixedMeans(cm)
	v := k.value(cm, fixed, x)
	if grad == nil {
		return v
	}
	if len(grad) != len(x) {
		panic("acq: len(grad) != len(x)")
	}
	xp := append([]float64(nil), x...)
	for i := range x {
		h := kgStep * (k.Upper[i] - k.Lower[i])
		xp[i] = x[i] + h
		fp := k.value(cm, fixed, xp)
		xp[i] = x[i] - h
		fm := k.value(cm, fixed, xp)
		xp[i] = x[i]
		grad[i] = (fp - fm) / (2 * h)
	}
	return v
}

// evalBatch implements batchFunction: EvalBatch's moments-only models
// carry no cross-covariances, so KG evaluates each point on m itself.
func (k *KG) evalBatch(m BatchModel, X [][]float64, out []float64) {
	for i, x := range X {
		out[i] = k.Eval(m, x, nil)
	}
}

// fixedMeans returns μ_n on Train ∪ S for m, computing it on first use.
func (k *KG) fixedMeans(m CrossModel) []float64 {
	k.mu.Lock()
	defer k.mu.Unlock()
	if mu, ok := k.means[m]; ok {
		return mu
	}
	pts := k.fixed()
	mu, v := make([]float64, len(pts)), make([]float64, len(pts))
	m.PredictBatch(pts, mu, v)
	if k.means == nil {
		k.means = make(map[Model][]float64)
	}
	k.means[m] = mu
	return mu
}

// fixed returns X_n ∪ S, the part of A that does not move with x.
func (k *KG) fixed() [][]float64 {
	pts := make([][]float64, 0, len(k.Train)+len(k.S))
	return append(append(pts, k.Train...), k.S...)
}

// value is KG(x) given μ_n on Train ∪ S.
func (k *KG) value(m CrossModel, fixed []float64, x []float64) float64 {
	a := append(k.fixed(), x)
	muX, varX := m.Predict(x)
	sd := math.Sqrt(max(varX, 0) + m.NoiseVarY())
	if !(sd > 0) {
		return 0 // a noise-free observation where f is known teaches nothing
	}
	b := make([]float64, len(a))
	m.PostCov(a, x, b)
	mu := make([]float64, len(a))
	copy(mu, fixed)
	mu[len(a)-1] = muX
	best := math.Inf(1)
	for i := range b {
		b[i] /= sd
		best = min(best, mu[i])
	}
	return max(best-expectedMin(mu, b), 0)
}

// expectedMin returns E_Z[min_a (mu[a] + b[a]Z)] by KG's Gauss–Hermite
// rule.
func expectedMin(mu, b []float64) float64 {
	z, w := kgNodes()
	var e float64
	for q, zq := range z {
		lo := math.Inf(1)
		for i, m := range mu {
			lo = min(lo, m+b[i]*zq)
		}
		e += w[q] * lo
	}
	return e
}
