// Shared fitting helpers of the uncertain-input models. Owner: the author of
// standard.go, analytic.go, randfunc.go and nigp.go. UT/UTGP authors: use
// chapterKernel for the chapter's kernel and bounds (so every model searches
// the same box) and ask before changing anything here; egp is the
// explicit-Gram GP that Analytic, RandFunc and NIGP share.

package uncertain

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/opt"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Hyper-parameter boxes of the chapter, in natural units. The inputs live in
// [−1, 1]^d (spec §8.1), so the library's lengthscale box [0.01, 2] × box
// width (spec gp-and-acquisitions §3.1) is [0.02, 4]. The targets are not
// standardised (spec Corrections, "Output scale"), so the signal variance
// takes PLAyBOOK's wide box [1e-6, 1e3] rather than the library's [1e-2,
// 1e2], which assumes var ỹ = 1; the noise variance has the spec's lower
// bound 1e-6 (§8.1 Decision).
var (
	lenBound   = kernel.Bound{Lo: 0.02, Hi: 4}
	varBound   = kernel.Bound{Lo: 1e-6, Hi: 1e3}
	noiseBound = kernel.Bound{Lo: 1e-6, Hi: 1}
)

const (
	initLengthscale = 0.4  // the library's 0.2 × box width 2
	initNoise       = 1e-3 // the gp package's default start
	maxIter         = 200  // L-BFGS iterations per start, as gp.Fit
	screenKeep      = 2    // starts optimised after screening, as gp.Fit
	fdStep          = 1e-5 // central-difference step in log space (spec §3 Decision)
	varFloorRel     = 1e-12
	// Jitter schedule of the gp package (spec gp-and-acquisitions §1.2):
	// 1e-6·mean(diag K), ×10, at most 6 tries.
	jitterRel   = 1e-6
	jitterGrow  = 10
	jitterTries = 6
)

// errNotPD is wrapped when a Gram matrix cannot be factorised after jitter.
var errNotPD = errors.New("uncertain: Gram matrix is not positive definite")

// chapterKernel returns the ARD kernel of family f on d inputs with the
// chapter's boxes (ARD is stated in 002, spec Corrections). The signal
// variance starts at the second moment of y, clamped into its box: the GP
// has zero mean on uncentred y, so mean(y²), not var(y), is its prior
// variance scale.
func chapterKernel(f kernel.Family, d int, y []float64) *kernel.Stationary {
	k := kernel.NewStationary(f, d, true)
	k.SetBounds(lenBound, varBound)
	l := make([]float64, d)
	for i := range l {
		l[i] = initLengthscale
	}
	k.SetLengthscales(l)
	var m2 float64
	for _, v := range y {
		m2 += v * v
	}
	if len(y) > 0 {
		m2 /= float64(len(y))
	}
	k.SetVariance(min(max(m2, varBound.Lo), varBound.Hi))
	return k
}

// covariance is a GP prior given pair by pair, for the models whose
// train–train covariance is not a kernel of the two inputs alone (Analytic's
// diagonal differs from its off-diagonal, RandFunc's test covariances differ
// from its training ones) and which the gp package therefore cannot fit.
// p holds the kernel log-parameters (the order of bounds); the log noise
// variance is appended by egp.
type covariance struct {
	bounds []kernel.Bound // log units
	// train returns cov(g_i, g_j) without output noise; with grad != nil
	// (only when analytic) it also writes ∂/∂p.
	train func(p []float64, i, j int, grad []float64) float64
	// cross returns the covariance of training latent i and f(x).
	cross func(p []float64, i int, x []float64) float64
	// prior returns the prior variance of f(x).
	prior func(p []float64, x []float64) float64
	// analytic says train writes gradients; otherwise the LML gradient is
	// taken by central differences (step fdStep in log space).
	analytic bool
}

// egp is an explicit-Gram GP with zero mean on raw y: A = K + σ_n²I +
// diag(extra), extra a fixed per-point noise (NIGP's slope term, Eq. 3.35).
type egp struct {
	cov      *covariance
	y, extra []float64
	p        []float64 // kernel log-parameters, then log σ_n²
	ch       *mat.Cholesky
	u        blas64.Triangular // ch's upper factor, A = UᵀU
	alpha    []float64         // A⁻¹y
	lml      float64
	jitter   float64
	failures int // factorisations that failed after jitter during the fit
}

// egpConfig configures fitEGP. Starts as gp.Fit's: warm (if any), init, and
// restarts − 2 log-uniform draws in the box; restarts = 1 uses warm, or init.
type egpConfig struct {
	Config
	init, warm []float64 // kernel log-parameters then log noise
	extra      []float64 // nil for none
}

// factorize builds A at z and returns its Cholesky factorisation and the
// jitter it needed.
func factorize(cov *covariance, y, extra, z []float64) (*mat.Cholesky, float64, error) {
	n := len(y)
	nk := len(cov.bounds)
	for _, v := range z {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, 0, fmt.Errorf("%w: log-parameters %v are not finite", errNotPD, z)
		}
	}
	k := mat.NewSymDense(n, nil)
	var meanDiag float64
	for i := range n {
		for j := i; j < n; j++ {
			k.SetSym(i, j, cov.train(z[:nk], i, j, nil))
		}
		meanDiag += k.At(i, i)
	}
	meanDiag /= float64(n)
	noise := math.Exp(z[nk])
	a := mat.NewSymDense(n, nil)
	ch := new(mat.Cholesky)
	try := func(delta float64) bool {
		a.CopySym(k)
		for i := range n {
			d := k.At(i, i) + noise + delta
			if extra != nil {
				d += extra[i]
			}
			a.SetSym(i, i, d)
		}
		return ch.Factorize(a)
	}
	if try(0) {
		return ch, 0, nil
	}
	if meanDiag > 0 && !math.IsInf(meanDiag, 0) {
		delta := jitterRel * meanDiag
		for range jitterTries {
			if try(delta) {
				return ch, delta, nil
			}
			delta *= jitterGrow
		}
	}
	return nil, 0, fmt.Errorf("%w at log-parameters %.4g", errNotPD, z)
}

// newEGP factorises the GP at fixed log-parameters z (kernel, then log
// noise).
func newEGP(cov *covariance, y, extra, z []float64) (*egp, error) {
	ch, jit, err := factorize(cov, y, extra, z)
	if err != nil {
		return nil, err
	}
	u := ch.RawU().(*mat.TriDense).RawTriangular()
	g := &egp{cov: cov, y: slices.Clone(y), extra: slices.Clone(extra), p: slices.Clone(z), ch: ch, u: u, jitter: jit}
	g.alpha = slices.Clone(y)
	v := blas64.Vector{N: len(y), Data: g.alpha, Inc: 1}
	blas64.Trsv(blas.Trans, u, v)
	quad := blas64.Dot(v, v) // yᵀA⁻¹y = ‖U⁻ᵀy‖²
	blas64.Trsv(blas.NoTrans, u, v)
	// [002 Eq. 2.37]: L = −½ yᵀA⁻¹y − ½ log|A| − (n/2) log 2π.
	g.lml = -0.5*quad - 0.5*ch.LogDet() - 0.5*float64(len(y))*math.Log(2*math.Pi)
	if math.IsNaN(g.lml) {
		return nil, fmt.Errorf("%w: the log marginal likelihood is NaN", errNotPD)
	}
	return g, nil
}

// lmlGrad returns the LML of the factorised g and writes its analytic
// gradient: ∂L/∂θ = ½ tr((ααᵀ − A⁻¹) ∂A/∂θ) [002 Eq. 2.41], with ∂A/∂log σ_n²
// = σ_n² I (the extra noise is fixed).
func (g *egp) lmlGrad(grad []float64) {
	n, nk := len(g.y), len(g.cov.bounds)
	var inv mat.SymDense
	if err := g.ch.InverseTo(&inv); err != nil {
		for i := range grad {
			grad[i] = math.NaN()
		}
		return
	}
	for i := range grad {
		grad[i] = 0
	}
	pg := make([]float64, nk)
	var trW float64
	for i := range n {
		for j := i; j < n; j++ {
			w := g.alpha[i]*g.alpha[j] - inv.At(i, j)
			g.cov.train(g.p[:nk], i, j, pg)
			if i == j {
				trW += w
				w *= 0.5 // off-diagonal pairs count twice, cancelling the ½
			}
			for t, v := range pg {
				grad[t] += w * v
			}
		}
	}
	grad[nk] = 0.5 * math.Exp(g.p[nk]) * trW
}

// predict returns the posterior mean and latent variance of f(x), the
// variance floored at 1e-12 of the prior variance as the gp package does.
func (g *egp) predict(x []float64) (mean, variance float64) {
	nk := len(g.cov.bounds)
	kx := make([]float64, len(g.y))
	for i := range kx {
		kx[i] = g.cov.cross(g.p[:nk], i, x)
		mean += kx[i] * g.alpha[i]
	}
	v := blas64.Vector{N: len(kx), Data: kx, Inc: 1}
	blas64.Trsv(blas.Trans, g.u, v)
	prior := g.cov.prior(g.p[:nk], x)
	return mean, math.Max(prior-blas64.Dot(v, v), varFloorRel*prior)
}

// noiseVar returns the fitted output noise variance σ_n².
func (g *egp) noiseVar() float64 { return math.Exp(g.p[len(g.p)-1]) }

// fitEGP maximises the LML over the log-parameters in the box, as gp.Fit
// does (screen every start by its value, run projected L-BFGS on −L/n from
// the best two, warm always kept), and returns the GP at the best point
// evaluated. A failed factorisation counts as +Inf, so the line search backs
// off from it; the failures are counted (RandFunc flags its runs by them,
// spec §3 Decision), and the best hyper-parameters seen so far are kept. It
// fails only if no start could be evaluated.
func fitEGP(cov *covariance, y []float64, cfg egpConfig) (*egp, error) {
	nk := len(cov.bounds)
	lo, hi := make([]float64, nk+1), make([]float64, nk+1)
	for i, b := range cov.bounds {
		lo[i], hi[i] = b.Lo, b.Hi
	}
	lo[nk], hi[nk] = math.Log(noiseBound.Lo), math.Log(noiseBound.Hi)
	project := func(z []float64) []float64 {
		z = slices.Clone(z)
		for i := range z {
			z[i] = min(max(z[i], lo[i]), hi[i])
		}
		return z
	}
	var starts [][]float64
	if cfg.warm != nil {
		starts = append(starts, project(cfg.warm))
	}
	starts = append(starts, project(cfg.init))
	r := cfg.restarts()
	if r == 1 {
		starts = starts[:1]
	}
	if nr := r - 2; nr > 0 {
		if cfg.Rand == nil {
			return nil, errors.New("uncertain: Config.Rand is required for random restarts")
		}
		for range nr {
			z := make([]float64, nk+1)
			for i := range z {
				z[i] = lo[i] + cfg.Rand.Float64()*(hi[i]-lo[i])
			}
			starts = append(starts, z)
		}
	}

	failures := 0
	var firstErr error
	var best *egp
	value := func(z []float64) (*egp, float64) {
		g, err := newEGP(cov, y, cfg.extra, z)
		if err != nil {
			failures++
			if firstErr == nil {
				firstErr = err
			}
			return nil, math.Inf(-1)
		}
		return g, g.lml
	}
	visit := func(z []float64) (*egp, float64) {
		g, l := value(z)
		if g != nil && (best == nil || l > best.lml) {
			best = g
		}
		return g, l
	}
	n := float64(len(y))
	objective := func(z, grad []float64) float64 {
		g, l := visit(z)
		if g == nil {
			return math.Inf(1)
		}
		if grad == nil {
			return -l / n
		}
		if cov.analytic {
			g.lmlGrad(grad)
		} else {
			zz := slices.Clone(z)
			for t := range zz {
				zz[t] = z[t] + fdStep
				_, lp := value(zz)
				zz[t] = z[t] - fdStep
				_, lm := value(zz)
				zz[t] = z[t]
				grad[t] = (lp - lm) / (2 * fdStep)
			}
		}
		for t := range grad {
			grad[t] *= -1 / n
		}
		return -l / n
	}

	chosen := starts
	if len(starts) > screenKeep {
		vals := make([]float64, len(starts))
		order := make([]int, 0, len(starts))
		for i, z := range starts {
			_, vals[i] = visit(z)
			if !math.IsInf(vals[i], -1) {
				order = append(order, i)
			}
		}
		keepWarm := cfg.warm != nil && len(order) > 0 && order[0] == 0
		if keepWarm {
			order = order[1:]
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(vals[b], vals[a]) })
		if keepWarm {
			order = append([]int{0}, order...)
		}
		chosen = nil
		for _, i := range order[:min(screenKeep, len(order))] {
			chosen = append(chosen, starts[i])
		}
	}
	for _, z := range chosen {
		opt.BoxLBFGS(objective, z, lo, hi, opt.LBFGSSettings{MaxIter: maxIter})
	}
	if best == nil {
		if firstErr == nil {
			firstErr = errNotPD
		}
		return nil, fmt.Errorf("uncertain: every hyper-parameter start failed: %w", firstErr)
	}
	best.failures = failures
	return best, nil
}

// initParams returns the start of the explicit-Gram fits: the chapter
// kernel's parameters (ARD RBF) and the initial noise.
func initParams(d int, y []float64) []float64 {
	return append(chapterKernel(kernel.RBF, d, y).Params(nil), math.Log(initNoise))
}

// checkData validates a fit's arguments at the package edge.
func checkData(X [][]float64, y, sigmaX []float64) error {
	if len(X) == 0 || len(X) != len(y) {
		return fmt.Errorf("uncertain: %d inputs and %d targets", len(X), len(y))
	}
	d := len(X[0])
	if d == 0 || len(sigmaX) != d {
		return fmt.Errorf("uncertain: inputs of dimension %d with %d input-noise deviations", d, len(sigmaX))
	}
	for i, x := range X {
		if len(x) != d {
			return fmt.Errorf("uncertain: input %d has dimension %d, want %d", i, len(x), d)
		}
	}
	for _, s := range sigmaX {
		if !(s >= 0) || math.IsInf(s, 0) {
			return fmt.Errorf("uncertain: input-noise deviation %v must be finite and >= 0", s)
		}
	}
	return nil
}

func squares(s []float64) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = v * v
	}
	return out
}

// cloneRows copies X, so that a fitted model does not change with the
// caller's slices.
func cloneRows(X [][]float64) [][]float64 {
	out := make([][]float64, len(X))
	for i, x := range X {
		out[i] = slices.Clone(x)
	}
	return out
}
