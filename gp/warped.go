package gp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/mcmc"
)

// WarpedLikelihood selects the likelihood of FITBO's joint samples
// ψ = (θ, η) [spec gp-and-acquisitions §4.6, "Likelihood for sampling ψ"].
type WarpedLikelihood int

const (
	// LikWarped, the default, is the change-of-variables likelihood of
	// the parabolic model ỹ = η + ½g², g ~ GP(0, K_θ + σ_n²I) on the
	// positive branch g_i = √(2(ỹ_i − η)):
	//
	//	log p(ỹ | θ, η) = log N(g; 0, K_θ + σ_n²I) − Σ_i log g_i,
	//
	// −Σ log g_i being log |∂g/∂ỹ| (∂ỹ_i/∂g_i = g_i).
	LikWarped WarpedLikelihood = iota
	// LikReference is the form of [reference code: rubinxin/FITBO]:
	// ỹ ~ N(0, (m_g m_gᵀ) ∘ (K_θ + σ_n²I)), m_g the posterior mean of g at
	// the training points.
	LikReference
)

// WarpedState is the state a FITBO chain carries from one BO iteration to
// the next: θ in the GP.Params layout and η on the ORIGINAL y scale. η is
// carried, not u_η = log(ỹ_min − η), whose meaning changes when the
// minimum or the standardisation changes (spec §4.6, Corrections).
type WarpedState struct {
	Theta []float64
	Eta   float64
}

// WarpedConfig configures SampleWarped. The zero value of every field but
// Kernel and Rand selects a documented default.
type WarpedConfig struct {
	Kernel kernel.Kernel // the parameter layout; its current values are not used
	Prior  *ParamPrior   // prior of θ; nil: FITBOPrior(Kernel)
	// EtaMean and EtaVar are the prior u_η = log(ỹ_min − η) ~ N(μ_η, σ_η²)
	// [000 Eq. 3.9]: EtaVar = 0 selects the initial (0, 0.1) of spec §3.3;
	// afterwards pass the previous Warped's EtaMean, EtaVar (empirical Bayes).
	EtaMean, EtaVar float64
	Likelihood      WarpedLikelihood
	M, Burn, Thin   int // as in SampleConfig
	// Start is the previous iteration's Warped.Last; nil starts θ at its
	// prior mean and u_η at μ_η. An η that is not below the new ỹ_min
	// starts u_η at μ_η instead.
	Start *WarpedState
	Rand  *rand.Rand // required
}

// WarpedSample is one joint draw ψ_j = (θ_j, η_j) in the form FITBO's
// acquisition takes it (acq.FITBOSample).
type WarpedSample struct {
	G     *GP     // NewRaw on g^(j) = √(2(ỹ − η_j)) with θ_j's kernel and noise
	Eta   float64 // η_j on the standardised scale, below ỹ_min
	Noise float64 // σ_n²(j) on the standardised scale
}

// Warped is the result of SampleWarped.
type Warped struct {
	Samples []WarpedSample
	// Theta holds θ_j (GP.Params layout): Models(X, y, k, Theta) gives the
	// zero-mean GPs on ỹ whose Average is FITBO's recommendation mean
	// (1/M)Σ_j k*ᵀK_j⁻¹ỹ (spec §4.6 Decision in the Corrections), and the
	// comparators marginalised over the same samples.
	Theta [][]float64
	// U holds u_η,j = log(ỹ_min − η_j).
	U []float64
	// Last is the chain's final state, the next iteration's Start.
	Last WarpedState
	// EtaMean and EtaVar are the mean and variance of U, the refitted
	// prior of u_η for the next iteration (empirical Bayes, spec §3.3);
	// EtaVar is floored at minEtaVar.
	EtaMean, EtaVar float64
	YMin            float64 // ỹ_min, the standardised minimum
	Offset, Scale   float64 // y = Offset + Scale·ỹ; η on the y scale is Offset + Scale·Eta
	Restarted       bool    // Start had zero likelihood; the chain began at the prior mean
	Chain           *mcmc.Chain
}

// minEtaVar keeps the refitted σ_η² positive, which ESS needs.
const minEtaVar = 1e-6

// SampleWarped draws M joint samples ψ = (θ, u_η) of FITBO's warped GP
// by elliptical slice sampling [000 §3.2–3.3, Eq. 3.9; spec §3.3, §4.6]
// on y standardised as in Fit, with η = ỹ_min − exp(u_η) < ỹ_min always.
//
// The ESS prior is N(m₀, S) on θ times N(μ_η, σ_η²) on u_η, and its
// likelihood is p(ỹ | θ, η) alone. No Jacobian of η ↦ u_η enters: the
// prior of Eq. 3.9, p(η) = N(log(ỹ_min − η); μ_η, σ_η²)/(ỹ_min − η), is
// exactly the density of η induced by a Gaussian u_η, so the posterior of
// u_η is p(ỹ | θ, η(u))·N(u; μ_η, σ_η²), the factor 1/(ỹ_min − η) of
// p(η) cancelling |dη/du| = ỹ_min − η. (Sampling η itself would need it.)
// The Gaussian priors are not added again inside the likelihood, as the
// reference code does (spec Corrections).
func SampleWarped(X [][]float64, y []float64, cfg WarpedConfig) (*Warped, error) {
	if cfg.Kernel == nil {
		return nil, errors.New("gp: WarpedConfig.Kernel is nil")
	}
	if cfg.Rand == nil {
		return nil, errors.New("gp: WarpedConfig.Rand is nil")
	}
	if cfg.Likelihood != LikWarped && cfg.Likelihood != LikReference {
		return nil, fmt.Errorf("gp: unknown warped likelihood %d", cfg.Likelihood)
	}
	etaMean, etaVar := cfg.EtaMean, cfg.EtaVar
	if etaVar == 0 {
		etaMean, etaVar = 0, defaultEtaVar
	}
	if !(etaVar > 0) || math.IsInf(etaVar, 0) || math.IsNaN(etaMean) || math.IsInf(etaMean, 0) {
		return nil, fmt.Errorf("gp: η prior N(%v, %v) needs a finite mean and a positive finite variance", etaMean, etaVar)
	}
	xs, err := copyInputs(X, y, cfg.Kernel)
	if err != nil {
		return nil, err
	}
	ys, offset, scale := standardize(y)
	wl := newWarpedLik(xs, ys, cfg.Kernel, cfg.Likelihood)
	var pr ParamPrior
	if cfg.Prior != nil {
		pr = *cfg.Prior
	} else if pr, err = FITBOPrior(cfg.Kernel); err != nil {
		return nil, err
	}
	nt := cfg.Kernel.NumParams() + 1
	if len(pr.Mean) != nt || len(pr.Var) != nt {
		return nil, fmt.Errorf("gp: θ prior of %d means and %d variances for %d log hyper-parameters", len(pr.Mean), len(pr.Var), nt)
	}
	joint := ParamPrior{
		Mean: append(append([]float64(nil), pr.Mean...), etaMean),
		Var:  append(append([]float64(nil), pr.Var...), etaVar),
	}
	e, err := joint.ess(nt+1, wl.logLik)
	if err != nil {
		return nil, err
	}
	var start []float64
	if cfg.Start != nil {
		if len(cfg.Start.Theta) != nt {
			return nil, fmt.Errorf("gp: WarpedConfig.Start.Theta has %d values, want %d (GP.Params layout)", len(cfg.Start.Theta), nt)
		}
		u := etaMean
		if eta := (cfg.Start.Eta - offset) / scale; eta < wl.ymin {
			u = math.Log(wl.ymin - eta)
		}
		start = append(append([]float64(nil), cfg.Start.Theta...), u)
	}
	c, restarted, err := startChain(e, start, joint.Mean)
	if err != nil {
		return nil, err
	}
	m := cfg.M
	if m <= 0 {
		m = DefaultM
	}
	draws := e.Run(c, burnIn(cfg.Burn, start != nil && !restarted), m, cfg.Thin, cfg.Rand)
	w := &Warped{
		Samples: make([]WarpedSample, m), Theta: make([][]float64, m), U: make([]float64, m),
		YMin: wl.ymin, Offset: offset, Scale: scale, Restarted: restarted, Chain: c,
	}
	k := cfg.Kernel.Clone()
	g := make([]float64, len(ys))
	for j, d := range draws {
		w.Theta[j], w.U[j] = d[:nt:nt], d[nt]
		eta := wl.transform(d[nt], g)
		k.SetParams(d[:nt-1])
		noise := math.Exp(d[nt-1])
		gj, err := NewRaw(xs, g, k, noise)
		if err != nil {
			return nil, fmt.Errorf("gp: g-GP of draw %d: %w", j, err)
		}
		w.Samples[j] = WarpedSample{G: gj, Eta: eta, Noise: noise}
	}
	w.EtaMean, w.EtaVar = meanVar(w.U)
	w.EtaVar = max(w.EtaVar, minEtaVar)
	last := c.U
	w.Last = WarpedState{
		Theta: append([]float64(nil), last[:nt]...),
		Eta:   offset + scale*(wl.ymin-math.Exp(last[nt])),
	}
	return w, nil
}

// warpedLik evaluates log p(ỹ | θ, η) in one reused LML workspace whose
// targets are the g-data, rewritten at each evaluation.
type warpedLik struct {
	w    *lmlWork // targets: g
	y    []float64
	ymin float64
	lik  WarpedLikelihood
	z    []float64 // LikReference scratch
}

func newWarpedLik(x [][]float64, y []float64, k kernel.Kernel, lik WarpedLikelihood) *warpedLik {
	wl := &warpedLik{y: y, ymin: math.Inf(1), lik: lik}
	for _, v := range y {
		wl.ymin = min(wl.ymin, v)
	}
	wl.w = newLMLWork(x, make([]float64, len(y)), k, MeanZero)
	if lik == LikReference {
		wl.z = make([]float64, len(y))
	}
	return wl
}

// transform writes g_i = √(2(ỹ_i − η)) into g and returns η, with
// ỹ_i − η = (ỹ_i − ỹ_min) + e^u formed without cancellation.
func (wl *warpedLik) transform(u float64, g []float64) float64 {
	d := math.Exp(u)
	for i, v := range wl.y {
		g[i] = math.Sqrt(2 * ((v - wl.ymin) + d))
	}
	return wl.ymin - d
}

// logLik is the ESS likelihood at ψ = (θ, u_η); −Inf where the Gram
// matrix cannot be factorised.
func (wl *warpedLik) logLik(psi []float64) float64 {
	if !finite(psi) {
		return math.Inf(-1)
	}
	nt := len(psi) - 1
	w := wl.w
	wl.transform(psi[nt], w.y)
	lg, err := w.compute(psi[:nt]) // α = A⁻¹g, A = K_θ + (σ_n² + δ)I
	if err != nil {
		return math.Inf(-1)
	}
	var l float64
	switch wl.lik {
	case LikWarped:
		l = lg
		for _, g := range w.y {
			l -= math.Log(g)
		}
	case LikReference:
		l = wl.reference(math.Exp(psi[nt-1]) + w.jitter)
	}
	if math.IsNaN(l) {
		return math.Inf(-1)
	}
	return l
}

// reference is LikReference after compute: with D = diag(m_g), the
// covariance (m_g m_gᵀ) ∘ A is D A D, so one factor of A serves:
// ỹᵀ(DAD)⁻¹ỹ = zᵀA⁻¹z with z = ỹ/m_g, and log|DAD| = log|A| + 2Σ log|m_g,i|.
// m_g = K_θ A⁻¹ g = g − (σ_n² + δ)α needs no second factorisation either
// (shift = σ_n² + δ, the diagonal added to K_θ).
func (wl *warpedLik) reference(shift float64) float64 {
	w := wl.w
	n := len(wl.y)
	var logM float64
	for i, g := range w.y {
		m := g - shift*w.alpha[i]
		if m == 0 {
			return math.Inf(-1)
		}
		logM += math.Log(math.Abs(m))
		wl.z[i] = wl.y[i] / m
	}
	u := w.f.u()
	copy(w.alpha, wl.z)
	solve(u, w.alpha)
	return -0.5*dot(wl.z, w.alpha) - 0.5*logDet(u) - logM - 0.5*float64(n)*log2Pi
}

// meanVar returns the mean and the unbiased variance of v (0 for one value).
func meanVar(v []float64) (mean, variance float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	if len(v) < 2 {
		return mean, 0
	}
	for _, x := range v {
		variance += (x - mean) * (x - mean)
	}
	return mean, variance / float64(len(v)-1)
}
