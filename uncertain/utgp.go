package uncertain

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/opt"
)

// UTGP is the unscented-transform GP [002 §3.5.3, Eqs. 3.52–3.62; spec
// uncertain-inputs §6]: the posterior averaged over the sigma data sets of
// the scaled UT (the corrected standard form, UT) of the known input noise
// N(0, diag(σ_x²)),
//
//	μ_UT = Σ W_m^(i) μ^(i),   V_UTGP = V_mm + V_UT   (Eqs. 3.53–3.54),
//
// with V_mm the moment-matched variance of the mixture (Eq. 3.59, weights
// W_m by the spec's Decision) and V_UT the UT spread of the sigma means
// (Eq. 3.50, corrected), both in the difference form of the spec's
// Corrections because W_m^(0) ≈ −10⁶:
//
//	δ_i = μ^(i) − μ^(0),  m = Σ_{i≥1} W δ_i,  q = Σ_{i≥1} W δ_i² − m²,
//	μ_UT = μ^(0) + m,
//	V_mm = V^(0) + Σ_{i≥1} W (V^(i) − V^(0)) + q,
//	V_UT = q + (1 − α² + β) m².
//
// V_mm alone may be negative; only V_UTGP is clamped, at 1e-12·s² (s² the
// signal variance), and Clamped counts how often. Predict and PredictGrad
// are safe for concurrent use.
//
// The simple UTGP (NewUTGP, used in every experiment of the chapter) fits
// one RBF GP^(0) on X; each sigma data set X + s_i is a rigid shift of X, so
// with a stationary kernel and shared hyper-parameters GP^(i) at x* is
// GP^(0) at x* − s_i, and L_UT = L^(0). The full UTGP (NewFullUTGP) shifts
// each training point separately: noise dimension N·d, 2Nd + 1 sigma GPs
// trained jointly on L_UT (a Decision, spec §6; only for N·d ≤ 100).
type UTGP struct {
	// UT is the transform's parameters; the zero value is the chapter's
	// α = 1e-3, β = 2, κ = 0. Set it before Fit.
	UT UT

	cfg  Config
	full bool

	base *gp.GP      // GP^(0)
	off  [][]float64 // simple: the 2d training shifts s_i (GP^(i)(x) = GP^(0)(x − s_i))
	gps  []*gp.GP    // full: GP^(1…2Nd) on their own data sets
	dimW int         // the dimension of the weights: d (simple) or N·d (full)
	s2   float64     // prior variance k(x, x) on the y scale, for the clamp
	lml  float64
	nv   float64

	clamped atomic.Int64
}

var _ Model = (*UTGP)(nil)

// FullMaxNoiseDim is the largest N·d the full UTGP accepts (spec §6,
// Decision): each L_UT evaluation costs 2Nd + 1 Cholesky factorisations of
// N × N matrices.
const FullMaxNoiseDim = 100

// NewUTGP returns the simple UTGP (spec §6 "Simple UTGP").
func NewUTGP(cfg Config) *UTGP { return &UTGP{cfg: cfg} }

// NewFullUTGP returns the full UTGP (spec §6 "Full UTGP"); its Fit refuses
// data with N·d > FullMaxNoiseDim.
//
// L_UT with α = 1e-3 is ≈ L_0 + ½ Σ_p σ_x² ∂²L/∂x_p², which is unbounded
// above where two training points nearly coincide with different targets
// and the noise is small: on decaying-sin (N = 30, σ_x = 0.05) the
// maximiser goes to σ_n² = 1e-6 and a lengthscale of 0.04, with L_UT ≈ 1e7
// against L_0 ≈ −870, and L_UT changes by orders of magnitude with α. That
// is the objective as specified, not rounding: no sigma GP needs jitter and
// single L_i − L_0 reach O(1), times W ≈ 1.7×10⁴. Experiments should report
// it.
func NewFullUTGP(cfg Config) *UTGP { return &UTGP{cfg: cfg, full: true} }

// SimpleFrom returns the simple UTGP around an already fitted GP g (any
// stationary kernel, its hyper-parameters shared by every sigma GP) for
// input noise standard deviations sigmaX (len d, zeros allowed): what a BO
// surrogate built from gp.Fit needs. Its LogMarginalLikelihood is g's.
func SimpleFrom(g *gp.GP, sigmaX []float64, ut UT) (*UTGP, error) {
	if g == nil {
		return nil, errors.New("uncertain: SimpleFrom with a nil GP")
	}
	if err := checkSigma(sigmaX, len(sigmaX)); err != nil {
		return nil, err
	}
	if kd, ok := g.Kernel().(interface{ Dim() int }); ok && kd.Dim() != len(sigmaX) {
		return nil, fmt.Errorf("uncertain: SimpleFrom: %d noise deviations for a kernel of dimension %d", len(sigmaX), kd.Dim())
	}
	if err := ut.Check(len(sigmaX)); err != nil {
		return nil, err
	}
	u := &UTGP{UT: ut}
	u.setBase(g, sigmaX)
	return u, nil
}

// Name implements Model.
func (u *UTGP) Name() string {
	if u.full {
		return "utgp-full"
	}
	return "utgp"
}

// Base returns GP^(0), the GP on the observed inputs (nil before Fit).
func (u *UTGP) Base() *gp.GP { return u.base }

// Clamped returns how many predictions clamped V_UTGP at 1e-12·s².
func (u *UTGP) Clamped() int { return int(u.clamped.Load()) }

// LogMarginalLikelihood implements Model: L_UT (Eq. 3.61), which is L^(0)
// for the simple UTGP.
func (u *UTGP) LogMarginalLikelihood() float64 { return u.lml }

// NoiseVar implements Model.
func (u *UTGP) NoiseVar() float64 { return u.nv }

// priorVar returns the prior variance k(x, x) of g on the y scale, the s² of
// the clamp (the same at every x for a stationary kernel).
func priorVar(g *gp.GP, d int) float64 {
	_, scale := g.Standardization()
	zero := make([]float64, d)
	return g.Kernel().Eval(zero, zero) * scale * scale
}

func checkSigma(sigmaX []float64, d int) error {
	if len(sigmaX) != d {
		return fmt.Errorf("uncertain: %d input noise deviations for inputs of dimension %d", len(sigmaX), d)
	}
	for j, s := range sigmaX {
		if !(s >= 0) || math.IsInf(s, 0) {
			return fmt.Errorf("uncertain: input noise deviation σ_x[%d] = %v must be finite and >= 0", j, s)
		}
	}
	return nil
}

// fitBase fits the RBF GP^(0) exactly as the chapter's RBF baseline is fitted
// (fitStandard: ARD [spec Corrections], output noise ≥ 1e-6, multi-start MLE
// with cfg's restarts [spec §8.1], a zero-mean GP on uncentred y [spec
// Corrections, "Output scale"]), so that the simple UTGP differs from the
// RBF model only in its predictions.
func fitBase(X [][]float64, y []float64, cfg Config) (*gp.GP, error) {
	g, err := fitStandard(kernel.RBF, X, y, cfg, nil)
	if err != nil {
		return nil, fmt.Errorf("uncertain: fitting GP^(0): %w", err)
	}
	return g, nil
}

// setBase makes g the simple UTGP's GP^(0) for input noise sigmaX.
func (u *UTGP) setBase(g *gp.GP, sigmaX []float64) {
	u.base, u.gps = g, nil
	u.off = u.UT.DiagOffsets(sigmaX)
	u.dimW = len(sigmaX)
	u.s2 = priorVar(g, len(sigmaX))
	u.lml, u.nv = g.LogMarginal(), g.NoiseVarY()
	u.clamped.Store(0)
}

// Fit implements Model.
func (u *UTGP) Fit(X [][]float64, y []float64, sigmaX []float64) error {
	if err := checkData(X, y, sigmaX); err != nil {
		return err
	}
	d := len(X[0])
	if u.full && len(X)*d > FullMaxNoiseDim {
		return fmt.Errorf("uncertain: the full UTGP needs N·d ≤ %d (2Nd + 1 sigma GPs), got N = %d, d = %d; use the simple UTGP", FullMaxNoiseDim, len(X), d)
	}
	dimW := d
	if u.full {
		dimW = len(X) * d
	}
	if err := u.UT.Check(dimW); err != nil {
		return err
	}
	g, err := fitBase(X, y, u.cfg)
	if err != nil {
		return err
	}
	u.setBase(g, sigmaX)
	if u.full {
		return u.fitFull(X, y, sigmaX)
	}
	return nil
}

// sigma returns the mean and latent variance of GP^(i) (i ≥ 1) at x, and
// their gradients when dm, dv are not nil.
func (u *UTGP) sigma(i int, x, xs, dm, dv []float64) (float64, float64) {
	if u.gps != nil {
		if dm == nil {
			return u.gps[i-1].Predict(x)
		}
		return u.gps[i-1].PredictGrad(x, dm, dv)
	}
	// GP^(i)(x) = GP^(0)(x − s_i): the kernel is stationary and X^(i) = X + s_i.
	for j := range x {
		xs[j] = x[j] - u.off[i-1][j]
	}
	if dm == nil {
		return u.base.Predict(xs)
	}
	return u.base.PredictGrad(xs, dm, dv)
}

// PredictBatch writes Predict(X[i]) into mean[i] and varF[i]: with
// Predict and PredictGrad, the acq.BatchModel a BO acquisition scores its
// candidates on.
func (u *UTGP) PredictBatch(X [][]float64, mean, varF []float64) {
	for i, x := range X {
		mean[i], varF[i] = u.Predict(x)
	}
}

// allZero reports whether every element of s is 0.
func allZero(s []float64) bool {
	for _, v := range s {
		if v != 0 {
			return false
		}
	}
	return true
}

// Predict implements Model: μ_UT and V_UTGP at the noise-free x.
func (u *UTGP) Predict(x []float64) (mean, variance float64) {
	return u.predict(x, nil, nil)
}

// PredictGrad is Predict that also writes the gradients of μ_UT and V_UTGP
// with respect to x into dmean and dvar (len(x) each, or nil): the same
// combination applied to the sigma GPs' gradients, ∇μ^(i)(x) = ∇μ^(0)(x − s_i)
// for the simple UTGP. Where V_UTGP is clamped, dvar is 0. A BO
// acquisition optimiser on the simple UTGP needs it.
func (u *UTGP) PredictGrad(x, dmean, dvar []float64) (mean, variance float64) {
	d := len(x)
	if (dmean != nil && len(dmean) != d) || (dvar != nil && len(dvar) != d) {
		panic(fmt.Sprintf("uncertain: PredictGrad buffers of length %d and %d, want %d", len(dmean), len(dvar), d))
	}
	if dmean == nil {
		dmean = make([]float64, d)
	}
	if dvar == nil {
		dvar = make([]float64, d)
	}
	return u.predict(x, dmean, dvar)
}

// predict combines the 2·dimW + 1 sigma GPs at x; with dmean, dvar not nil
// it also differentiates the combination:
//
//	∇μ_UT = ∇μ_0 + ∇m,  ∇m = Σ W ∇δ_i,  ∇q = Σ 2W δ_i ∇δ_i − 2m ∇m,
//	∇V = ∇V_0 + Σ W (∇V_i − ∇V_0) + 2∇q + 2(1 − α² + β) m ∇m.
func (u *UTGP) predict(x, dmean, dvar []float64) (mean, variance float64) {
	if u.base == nil {
		panic("uncertain: UTGP.Predict before Fit")
	}
	d := len(x)
	grad := dmean != nil
	var dm0, dv0, dmi, dvi, dM, dQ, dV []float64
	var mu0, v0 float64
	if grad {
		dm0, dv0 = make([]float64, d), make([]float64, d)
		dmi, dvi = make([]float64, d), make([]float64, d)
		dM, dQ, dV = make([]float64, d), make([]float64, d), make([]float64, d)
		mu0, v0 = u.base.PredictGrad(x, dm0, dv0)
	} else {
		mu0, v0 = u.base.Predict(x)
	}
	ut := u.UT.params()
	_, _, w := ut.Weights(u.dimW)
	xs := make([]float64, d)
	var m, s2, dvSum float64
	n := 2 * u.dimW
	for i := 1; i <= n; i++ {
		if u.gps == nil && allZero(u.off[i-1]) {
			// A noise-free input's sigma points are x itself: δ_i = 0
			// and V_i = V_0, nothing to add (a BO space's exact
			// parameters; skipping them is exact, not an approximation).
			continue
		}
		var mui, vi float64
		if grad {
			mui, vi = u.sigma(i, x, xs, dmi, dvi)
		} else {
			mui, vi = u.sigma(i, x, xs, nil, nil)
		}
		delta := mui - mu0
		m += w * delta
		s2 += w * delta * delta
		dvSum += w * (vi - v0)
		if grad {
			for j := 0; j < d; j++ {
				dd := dmi[j] - dm0[j]
				dM[j] += w * dd
				dQ[j] += 2 * w * delta * dd
				dV[j] += w * (dvi[j] - dv0[j])
			}
		}
	}
	q := s2 - m*m
	vmm := v0 + dvSum + q
	vut := q + ut.extra()*m*m
	mean, variance = mu0+m, vmm+vut
	floor := 1e-12 * u.s2
	clamped := variance < floor
	if clamped {
		u.clamped.Add(1)
		variance = floor
	}
	if grad {
		for j := 0; j < d; j++ {
			dmean[j] = dm0[j] + dM[j]
			if clamped {
				dvar[j] = 0
				continue
			}
			dq := dQ[j] - 2*m*dM[j]
			dvar[j] = dv0[j] + dV[j] + 2*dq + 2*ut.extra()*m*dM[j]
		}
	}
	return mean, variance
}

// fullData returns the 2Nd sigma data sets of the full UTGP: X with the
// single coordinate X[p][j] moved by +c·σ_j (data set p·d + j + 1) or −c·σ_j
// (data set N·d + p·d + j + 1), c = √(Nd + λ) [spec §6 "Full UTGP":
// weights and λ of dimension N·d].
func fullData(ut UT, X [][]float64, sigmaX []float64) [][][]float64 {
	n, d := len(X), len(sigmaX)
	c := ut.scale(n * d)
	sets := make([][][]float64, 2*n*d)
	for p := 0; p < n; p++ {
		for j := 0; j < d; j++ {
			for sgn, off := range []int{0, n * d} {
				xs := make([][]float64, n)
				for r := range X {
					xs[r] = slices.Clone(X[r])
				}
				xs[p][j] += float64(1-2*sgn) * c * sigmaX[j]
				sets[off+p*d+j] = xs
			}
		}
	}
	return sets
}

// fullObjective evaluates −L_UT/N and its gradient over z = (log kernel
// parameters, log noise), L_UT = L_0 + Σ_{i≥1} W (L_i − L_0) and
// ∂L_UT = ∂L_0 + Σ_{i≥1} W (∂L_i − ∂L_0) [Eqs. 3.61–3.62 in the spec's
// difference form], each L_i from gp's LogMarginalGrad on sigma data set i.
type fullObjective struct {
	gps []*gp.GP // GP^(0), then the 2Nd sigma GPs; only their data are used
	w   float64
	n   int
	g0  []float64
	gi  []float64
}

func (o *fullObjective) lut(z, grad []float64) (float64, error) {
	l0, err := o.gps[0].LogMarginalGrad(z, o.g0)
	if err != nil {
		return math.Inf(-1), err
	}
	var dl float64
	if grad != nil {
		copy(grad, o.g0)
	}
	for _, g := range o.gps[1:] {
		li, err := g.LogMarginalGrad(z, o.gi)
		if err != nil {
			return math.Inf(-1), err
		}
		dl += o.w * (li - l0)
		for t := range grad {
			grad[t] += o.w * (o.gi[t] - o.g0[t])
		}
	}
	return l0 + dl, nil
}

func (o *fullObjective) eval(z, grad []float64) float64 {
	l, err := o.lut(z, grad)
	if err != nil || math.IsNaN(l) {
		return math.Inf(1) // a failed factorisation: the line search backs off
	}
	s := -1 / float64(o.n)
	for t := range grad {
		grad[t] *= s
	}
	return s * l
}

// fitFull trains the shared hyper-parameters of the full UTGP on L_UT, in
// the boxes of the chapter's kernel, starting from GP^(0)'s optimum, the
// chapter kernel's initial parameters and Restarts − 2
// log-uniform points in the box. As gp.Fit does (and for the same reason,
// speed), every start is first scored by value and projected L-BFGS runs
// from the best two.
func (u *UTGP) fitFull(X [][]float64, y []float64, sigmaX []float64) error {
	ut := u.UT.params()
	sets := fullData(ut, X, sigmaX)
	k := u.base.Kernel()
	nk := k.NumParams()
	build := func(z []float64) ([]*gp.GP, error) {
		k.SetParams(z[:nk])
		out := make([]*gp.GP, 0, len(sets)+1)
		for _, xs := range append([][][]float64{X}, sets...) {
			g, err := gp.NewRaw(xs, y, k, math.Exp(z[nk]))
			if err != nil {
				return nil, fmt.Errorf("uncertain: full UTGP sigma GP: %w", err)
			}
			out = append(out, g)
		}
		return out, nil
	}
	z0 := u.base.Params()
	gps, err := build(z0)
	if err != nil {
		return err
	}
	_, _, w := ut.Weights(len(X) * len(sigmaX))
	o := &fullObjective{gps: gps, w: w, n: len(X), g0: make([]float64, nk+1), gi: make([]float64, nk+1)}
	var lo, hi []float64
	for _, b := range k.Bounds() {
		lo, hi = append(lo, b.Lo), append(hi, b.Hi)
	}
	lo, hi = append(lo, math.Log(noiseBound.Lo)), append(hi, math.Log(noiseBound.Hi))
	def := chapterKernel(kernel.RBF, len(sigmaX), y).Params(nil)
	starts := [][]float64{z0, append(def, math.Log(initNoise))}
	for s := 2; s < u.cfg.restarts(); s++ {
		if u.cfg.Rand == nil {
			return errors.New("uncertain: Config.Rand is required for the random restarts")
		}
		z := make([]float64, len(lo))
		for t := range z {
			z[t] = lo[t] + u.cfg.Rand.Float64()*(hi[t]-lo[t])
		}
		starts = append(starts, z)
	}
	for _, z := range starts {
		for t := range z {
			z[t] = min(max(z[t], lo[t]), hi[t])
		}
	}
	vals := make([]float64, len(starts))
	order := make([]int, len(starts))
	for i, z := range starts {
		vals[i], order[i] = o.eval(z, nil), i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(vals[a], vals[b]) })
	best := opt.Result{F: math.Inf(1)}
	for _, i := range order[:min(2, len(order))] {
		if math.IsInf(vals[i], 1) {
			continue
		}
		r := opt.BoxLBFGS(o.eval, starts[i], lo, hi, opt.LBFGSSettings{})
		if r.Status != opt.StatusNonFinite && r.F < best.F {
			best = r
		}
	}
	if best.X == nil {
		return errors.New("uncertain: full UTGP: L_UT could not be evaluated at any start")
	}
	all, err := build(best.X)
	if err != nil {
		return err
	}
	u.gps = all[1:]
	u.base = all[0]
	u.s2 = priorVar(u.base, len(sigmaX))
	u.dimW = len(X) * len(sigmaX)
	u.lml = -best.F * float64(len(X))
	u.nv = math.Exp(best.X[nk])
	return nil
}
