package casmopolitan

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/qmc"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/transform"
)

// GP settings of CASMOPOLITAN [spec §5.6; reference code:
// xingchenwan/Casmopolitan]: noise initialised at 0.005 in [1e-6, 0.1];
// lengthscales in [0.01, 0.5] with ARD and [0.01, 2.5] without (the
// continuous Matérn part the same as the categorical one); an outer
// signal variance in [0.5, 5].
var (
	casmoNoiseBound = kernel.Bound{Lo: 1e-6, Hi: 0.1}
	casmoLenARD     = kernel.Bound{Lo: 0.01, Hi: 0.5}
	casmoLenIso     = kernel.Bound{Lo: 0.01, Hi: 2.5}
	casmoVarBound   = kernel.Bound{Lo: 0.5, Hi: 5}
)

const (
	casmoNoiseInit = 0.005
	casmoMaxCands  = 5000 // guided-restart candidates: min(100·dim, 5000) (spec §5.4)
)

// newKernel returns the kernel of spec §5.6 on casmoSpace features:
// the exponentiated overlap (Eq. 5.11) on the categorical columns mixed
// with a Matérn-5/2 on the others by the CoCaBO mixture with λ fixed
// (Eq. 5.10; λ = 0.5 by default), under one outer variance. Spaces with
// only categorical (only continuous) parameters get the exponentiated
// overlap (the Matérn) alone, with its own outer variance. ard = false
// gives the isotropic kernels of the auxiliary GP (spec §5.4).
func (c *Casmopolitan) newKernel(cs *casmoSpace, ard bool) kernel.Kernel {
	lenBound := casmoLenARD
	if !ard {
		lenBound = casmoLenIso
	}
	matern := func(dim int, variance kernel.Bound) *kernel.Stationary {
		k := kernel.NewStationary(kernel.Matern52, dim, ard)
		k.SetBounds(lenBound, variance)
		return k
	}
	var kh *kernel.ExpOverlap
	if len(cs.cat) > 0 {
		kh = kernel.NewExpOverlap(cs.cat, ard, c.Normalised && ard)
		if !ard {
			kh.SetBound(casmoLenIso)
		}
	}
	switch {
	case len(cs.cont) == 0:
		return newScaled(kh, 1, casmoVarBound)
	case len(cs.cat) == 0:
		return matern(len(cs.cont), casmoVarBound)
	}
	// The Matérn's own variance is pinned at 1 so that the mixture's
	// outer variance is identifiable.
	kx := kernel.NewSubset(matern(len(cs.cont), kernel.Bound{Lo: 1, Hi: 1}), cs.cont)
	m := kernel.NewMixture(kh, kx, c.Lambda, false)
	m.SetLearnedVariance(1, casmoVarBound)
	return m
}

// contLengthscales returns the lengthscales of the continuous part of a
// kernel made by newKernel (nil if it has none).
func contLengthscales(k kernel.Kernel) []float64 {
	switch k := k.(type) {
	case *kernel.Stationary:
		return k.Lengthscales()
	case *kernel.Mixture:
		_, kx := k.Parts()
		if s, ok := kx.(*kernel.Subset); ok {
			if st, ok := s.Kernel().(*kernel.Stationary); ok {
				return st.Lengthscales()
			}
		}
	}
	return nil
}

// transformY returns the targets the GP is fitted to: the Gaussian copula
// transform of spec §5.6 (transform.GaussianCopula), which makes the fit
// insensitive to outliers and to the scale of y, or a copy of y with
// PlainY (gp.Fit standardises it).
func (c *Casmopolitan) transformY(y []float64) []float64 {
	if c.PlainY {
		return slices.Clone(y)
	}
	return transform.GaussianCopula(y)
}

// fitLocal fits the GP of the current epoch (the reference code resets
// it at each restart) by gp.Fit with Restarts starts, warm-started from
// the previous fit when the kernel has the same parameters, or reuses the
// previous fit when it was to the same data (bo.WarmStart.Reuse).
//
// The GP has a constant prior mean c fitted with the other
// hyper-parameters (gpytorch's ConstantMean) [spec §5.6; reference code:
// xingchenwan/Casmopolitan]: gp.MeanConstant profiles c out, so c needs
// no warm start of its own.
//
// Long epochs get gpbo's deviation for speed (bo.FullFit): the fit was 86 %
// of a suggestion at 300 trials on Ackley-53, 1.3 s; the papers' budgets
// (150–200) stay below it (docs/casmopolitan.md, "Long epochs").
func (c *Casmopolitan) fitLocal(cs *casmoSpace, X [][]float64, y []float64, rng *rand.Rand) (*gp.GP, error) {
	k := c.newKernel(cs, true)
	cfg := gp.Config{Kernel: k, Noise: casmoNoiseInit, NoiseBound: casmoNoiseBound, Mean: gp.MeanConstant, Restarts: c.Restarts, MaxIter: c.FitIters, Rand: rng}
	m, data := c.warm.Reuse("", k, gp.MeanConstant, X, y, false)
	if m != nil {
		return m, nil
	}
	cfg.Warm = c.warm.Get("", k.NumParams()+1)
	polish := c.RefitEvery > 1 && len(y)%c.RefitEvery != 0 || !bo.FullFit(len(y))
	if cfg.Warm != nil && polish {
		cfg.Restarts = 1
	}
	m, err := gp.Fit(X, y, cfg)
	if err != nil {
		return nil, err
	}
	c.warm.Set("", m.Params(), data)
	return m, nil
}

// restartCentre is the guided restart of spec §5.4 (Eq. 5.13, with the
// multiplier kappa of restartKappa): an isotropic auxiliary GP, with a constant
// mean as the local GP (the reference code fits both with the same
// train_gp and its ConstantMean [reference code:
// xingchenwan/Casmopolitan]), is fitted to the
// best points of the earlier epochs, and the centre is the minimiser of
// μ − κσ over min(100·dim, 5000) Latin-hypercube candidates, each rounded
// to legal values (for a categorical parameter, the cell the coordinate
// falls in: the analogue of the code's one-hot argmax). It also returns
// the candidates and the auxiliary GP (nil if it could not be fitted: the
// centre is then the first candidate), for tests.
func (c *Casmopolitan) restartCentre(cs *casmoSpace, bests []sampler.Observation, kappa float64, rng *rand.Rand) ([]float64, [][]float64, *gp.GP) {
	dim := cs.sp.Len()
	cands := qmc.LatinHypercube(min(100*dim, casmoMaxCands), dim, rng, 1)
	for _, u := range cands {
		cs.sp.Round(u)
	}
	if len(bests) == 0 {
		return slices.Clone(cands[0]), cands, nil
	}
	X := make([][]float64, len(bests))
	y := make([]float64, len(bests))
	for i, b := range bests {
		X[i] = cs.features(b.X, nil)
		y[i] = b.Y
	}
	m, err := gp.Fit(X, y, gp.Config{
		Kernel: c.newKernel(cs, false), Noise: casmoNoiseInit, NoiseBound: casmoNoiseBound,
		Mean: gp.MeanConstant, Restarts: c.Restarts, Rand: rng,
	})
	if err != nil {
		c.logger().Warn("casmopolitan: auxiliary GP fit failed; restarting from a random point", "err", err)
		return slices.Clone(cands[0]), cands, nil
	}
	best, bestV := 0, math.Inf(1)
	f := make([]float64, dim)
	for i, u := range cands {
		mu, v := m.Predict(cs.features(u, f))
		if s := mu - kappa*math.Sqrt(v); s < bestV {
			best, bestV = i, s
		}
	}
	return slices.Clone(cands[best]), cands, m
}

// scaled is s²·k with log s² a hyper-parameter: the ScaleKernel of the
// reference code around a kernel that has no variance of its own (the
// exponentiated overlap of a purely categorical space).
type scaled struct {
	k      kernel.Kernel
	logVar float64
	s2     float64      // exp(logVar), kept by setLogVar
	bound  kernel.Bound // log units
}

// newScaled returns s2·k with log s2 in the bounds b (natural units).
func newScaled(k kernel.Kernel, s2 float64, b kernel.Bound) *scaled {
	s := &scaled{k: k, bound: logBounds(b)}
	s.setLogVar(math.Log(s2))
	return s
}

func (s *scaled) setLogVar(v float64) { s.logVar, s.s2 = v, math.Exp(v) }

func logBounds(b kernel.Bound) kernel.Bound {
	return kernel.Bound{Lo: math.Log(b.Lo), Hi: math.Log(b.Hi)}
}

func (s *scaled) NumParams() int { return s.k.NumParams() + 1 }

func (s *scaled) Params(dst []float64) []float64 {
	n := s.NumParams()
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	s.k.Params(dst[: n-1 : n-1])
	dst[n-1] = s.logVar
	return dst
}

func (s *scaled) SetParams(p []float64) {
	if len(p) != s.NumParams() {
		panic(fmt.Sprintf("sampler: scaled kernel SetParams with %d values, want %d", len(p), s.NumParams()))
	}
	s.k.SetParams(p[:len(p)-1])
	s.setLogVar(p[len(p)-1])
}

func (s *scaled) Bounds() []kernel.Bound { return append(s.k.Bounds(), s.bound) }

func (s *scaled) Eval(x, y []float64) float64 { return s.s2 * s.k.Eval(x, y) }

func (s *scaled) ParamGrad(x, y, dst []float64) float64 {
	return s.paramGrad(s.k.ParamGrad(x, y, dst[:len(dst)-1]), dst)
}

// paramGrad completes ParamGrad from the inner kernel's value v and
// gradient, already in dst.
func (s *scaled) paramGrad(v float64, dst []float64) float64 {
	n := len(dst) - 1
	s2 := s.s2
	for i := range dst[:n] {
		dst[i] *= s2
	}
	dst[n] = s2 * v
	return s2 * v
}

// Bind implements kernel.Binder with the inner kernel's Gram, so that the
// exponentiated overlap of a purely categorical space keeps its speed-up.
func (s *scaled) Bind(X [][]float64) kernel.Gram { return scaledGram{s, kernel.Bind(s.k, X)} }

type scaledGram struct {
	s *scaled
	g kernel.Gram
}

func (g scaledGram) Eval(i, j int) float64 { return g.s.s2 * g.g.Eval(i, j) }

func (g scaledGram) ParamGrad(i, j int, dst []float64) float64 {
	return g.s.paramGrad(g.g.ParamGrad(i, j, dst[:len(dst)-1]), dst)
}

func (s *scaled) InputGrad(x, y, dst []float64) float64 {
	v := s.k.InputGrad(x, y, dst)
	s2 := s.s2
	for i := range dst {
		dst[i] *= s2
	}
	return s2 * v
}

func (s *scaled) Clone() kernel.Kernel { c := *s; c.k = s.k.Clone(); return &c }
