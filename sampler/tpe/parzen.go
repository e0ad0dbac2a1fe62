package tpe

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
	"gonum.org/v1/gonum/stat/distuv"
)

// parzen is Optuna 3.1's _ParzenEstimator (optuna/samplers/_tpe/
// parzen_estimator.py) over one or more parameters (one per parameter in
// the default, independent TPE; a group of them with Multivariate): a
// mixture of one component per observation and a prior component, each
// a product of one kernel per parameter. It works on boa's encoded
// coordinates in [0,1], which are an affine image of the scale Optuna
// models in (the parameter's, its log for Log, and for an Int the bounds
// widened by ½ so that every integer owns a cell of width 1/L), and every
// rule below is invariant under that map: bandwidths scale with the range
// and the kernels carry no 1/σ (see continuous), so the log l − log g of
// a point is Optuna's to rounding.
type parzen struct {
	dims []dim
	w    []float64 // mixture weights, normalised: the observations', then the prior's
	logw []float64
	buf  []float64 // scratch for logPDF's terms
}

// A parameter's kernels are of one of three kinds.
type kernelKind int

const (
	// continuous: Float, and Int on a log scale, which Optuna models as a
	// continuous density and rounds its draws.
	continuous kernelKind = iota
	// cells: Int and Ordinal, L cells of width 1/L (Optuna's step q: the
	// bounds widened by q/2, a draw rounded to its cell, and a value's
	// probability the kernel's mass in its cell).
	cells
	// categorical: Categorical and Bool.
	categorical
)

// dim is one parameter of an estimator: its kernels, one per component.
type dim struct {
	i      int // the parameter's index in the space
	kind   kernelKind
	levels int
	// Int on a log scale: its bounds (for rounding a draw as space does).
	logInt             bool
	low, high, ta, tb  float64
	mu, sigma, logMass []float64 // numeric: each kernel's centre, bandwidth and log mass in [0,1]
	choice             []int     // categorical: each component's choice, −1 for the prior
	logHit, logMiss    float64   // categorical: log probability of an observation's own choice, and of another
}

// Optuna's _ParzenEstimatorParameters defaults: consider_prior with
// prior_weight 1, consider_magic_clip, not consider_endpoints.
const (
	priorWeight = 1.0
	sigma0Scale = 0.2 // SIGMA0_MAGNITUDE of the multivariate bandwidth
)

// newParzen returns the estimator of the parameters params of sp from the
// encoded points xs (at each of which every parameter of params is
// active), weighing point k by w[k]. With multivariate every bandwidth is
// Optuna's multivariate one; otherwise each point's comes from its
// neighbours.
func newParzen(sp *space.Space, params []int, xs [][]float64, w []float64, multivariate bool) *parzen {
	n := len(xs)
	p := &parzen{w: make([]float64, n+1), logw: make([]float64, n+1), buf: make([]float64, n+1)}
	copy(p.w, w)
	p.w[n] = priorWeight
	sum := 0.0
	for _, v := range p.w {
		sum += v
	}
	for k := range p.w {
		p.w[k] /= sum
		p.logw[k] = math.Log(p.w[k])
	}
	for _, i := range params {
		d := dim{i: i, levels: sp.Levels(i)}
		par := sp.Param(i)
		switch {
		case sp.Unordered(i):
			d.kind = categorical
		case par.Kind == space.Float:
			d.kind = continuous
		case par.Kind == space.Int && par.Log:
			d.kind, d.logInt = continuous, true
			d.low, d.high = par.Low, par.High
			d.ta, d.tb = math.Log(par.Low-0.5), math.Log(par.High+0.5)
		default:
			d.kind = cells
		}
		coords := make([]float64, n)
		for k, u := range xs {
			coords[k] = u[i]
		}
		if d.kind == categorical {
			d.setCategorical(coords)
		} else {
			d.setNumeric(coords, multivariate, len(params))
		}
		p.dims = append(p.dims, d)
	}
	return p
}

// setCategorical gives each observation the kernel that puts weight 1 on
// its choice and prior_weight/(n+1) on every choice, normalised, and the
// prior component the uniform distribution (_calculate_categorical_params).
func (d *dim) setCategorical(coords []float64) {
	n, c := len(coords), float64(d.levels)
	v := priorWeight / float64(n+1)
	d.logHit, d.logMiss = math.Log((v+1)/(1+c*v)), math.Log(v/(1+c*v))
	d.choice = make([]int, n+1)
	for k, x := range coords {
		d.choice[k] = bo.Level(x, d.levels)
	}
	d.choice[n] = -1
}

// setNumeric places a kernel on each observation and the prior's at the
// centre with bandwidth 1, the range (_calculate_numerical_params). A
// point's bandwidth is the larger of the gaps to its neighbours in sorted
// order, the prior's centre among them and the bounds 0 and 1 beyond the
// ends, except that the outermost two take the gap to their one inner
// neighbour (consider_endpoints off); with multivariate it is instead
// 0.2·n^(−1/(d+4)) for d parameters (Scott's rule as in BOHB, Falkner et
// al. 2018). Then the "magic clip": bandwidths lie in
// [1/min(100, m+1), 1] for m kernels, the prior's included.
func (d *dim) setNumeric(coords []float64, multivariate bool, nParams int) {
	n := len(coords)
	m := n + 1
	d.mu = append(slices.Clone(coords), 0.5)
	d.sigma = make([]float64, m)
	if multivariate {
		s := sigma0Scale * math.Pow(float64(max(n, 1)), -1/float64(nParams+4))
		for k := range d.sigma {
			d.sigma[k] = s
		}
	} else {
		// Ties keep their order, the prior last: numpy's argsort, which
		// Optuna calls, is an insertion sort, stable, up to 16 kernels;
		// beyond that its order among equal centres is unspecified. The
		// index breaks ties (sortKernels).
		order := make([]kernelAt, m)
		for k, x := range d.mu {
			order[k] = kernelAt{x, k}
		}
		sortKernels(order)
		pad := make([]float64, m+2) // 0, the sorted centres, 1
		pad[m+1] = 1
		for r, o := range order {
			pad[r+1] = o.mu
		}
		for r, o := range order {
			d.sigma[o.k] = math.Max(pad[r+1]-pad[r], pad[r+2]-pad[r+1])
		}
		if len(pad) >= 4 {
			d.sigma[order[0].k] = pad[2] - pad[1]
			d.sigma[order[m-1].k] = pad[m] - pad[m-1]
		}
	}
	lo := 1 / math.Min(100, float64(1+m))
	for k, s := range d.sigma {
		d.sigma[k] = math.Min(math.Max(s, lo), 1)
	}
	d.sigma[n] = 1
	d.logMass = make([]float64, m)
	for k := range d.mu {
		d.logMass[k] = logGaussMass(-d.mu[k]/d.sigma[k], (1-d.mu[k])/d.sigma[k])
	}
}

// kernelAt is a kernel's centre and index, for sorting.
type kernelAt struct {
	mu float64
	k  int
}

// compare orders by centre as cmp.Compare does (NaN first), then by
// index; the plain comparisons first, as cmp.Compare's NaN tests cost
// a fifth of the sort.
func (a kernelAt) compare(b kernelAt) int {
	switch {
	case a.mu < b.mu:
		return -1
	case a.mu > b.mu:
		return 1
	}
	return cmp.Or(cmp.Compare(a.mu, b.mu), cmp.Compare(a.k, b.k))
}

// sortKernels sorts order, which is by index, by centre as cmp.Compare
// orders them, ties by index: a stable sort's order. Many kernels are
// sorted by radix (a stable sort on the centres' bits), which at 20,000
// takes a third of the time of pdqsort by kernelAt.compare.
func sortKernels(order []kernelAt) {
	if len(order) < 256 {
		slices.SortFunc(order, kernelAt.compare)
		return
	}
	keys := make([]uint64, len(order))
	for r, o := range order {
		keys[r] = orderedBits(o.mu)
	}
	tmp, tkeys := make([]kernelAt, len(order)), make([]uint64, len(order))
	for shift := 0; shift < 64; shift += 8 {
		var count [257]int
		for _, k := range keys {
			count[k>>shift&0xff+1]++
		}
		if slices.Contains(count[1:], len(keys)) {
			continue // one digit for all: this pass would move nothing
		}
		for b := 1; b < len(count); b++ {
			count[b] += count[b-1]
		}
		for r, k := range keys {
			d := k >> shift & 0xff
			tmp[count[d]], tkeys[count[d]] = order[r], k
			count[d]++
		}
		copy(order, tmp)
		copy(keys, tkeys)
	}
}

// orderedBits maps x to an integer in the order of cmp.Compare: NaN
// first, −0 equal to 0.
func orderedBits(x float64) uint64 {
	if x != x {
		return 0 // below every number's: −∞ maps to 0x000f…
	}
	b := math.Float64bits(x + 0) // x + 0 is 0 for −0
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// logKernel is the log of component k's kernel at coordinate x: for a
// cell, its mass there; for a continuous parameter the truncated normal's
// log density as Optuna 3.1's _truncnorm.logpdf computes it, which leaves
// out the −log σ of the normal's density (optuna/optuna#5109, fixed in
// Optuna 3.5): a wide kernel counts as much at its centre as a narrow
// one, which flattens l and g where their narrow kernels are. That is
// what the parity test checks against, and the reason the scores are
// invariant under boa's encoding.
func (d *dim) logKernel(k int, x float64) float64 {
	switch d.kind {
	case categorical:
		switch d.choice[k] {
		case -1:
			return -math.Log(float64(d.levels))
		case bo.Level(x, d.levels):
			return d.logHit
		}
		return d.logMiss
	case cells:
		c := bo.Level(x, d.levels)
		L := float64(d.levels)
		a, b := (float64(c)/L-d.mu[k])/d.sigma[k], (float64(c+1)/L-d.mu[k])/d.sigma[k]
		return logGaussMass(a, b) - d.logMass[k]
	}
	z := (x - d.mu[k]) / d.sigma[k]
	return -0.5*z*z - logSqrt2Pi - d.logMass[k]
}

// logPDF is the estimator's log density (log probability for discrete
// parameters) at the encoded point u, over its parameters.
func (p *parzen) logPDF(u []float64) float64 { return p.logPDFWith(u, p.buf) }

// logPDFWith is logPDF with buf, of at least len(p.w), as the scratch of
// the kernels' terms, so that goroutines can share p.
func (p *parzen) logPDFWith(u, buf []float64) float64 {
	buf = buf[:len(p.w)]
	// top is the terms' maximum as math.Max would take it, by comparison
	// (math.Max was a tenth of a suggestion): on a NaN term the result is
	// NaN, and which of ±0 is the top changes no difference s − top.
	top, nan := math.Inf(-1), false
	if len(p.dims) == 1 && p.dims[0].kind == continuous {
		// The default TPE's case, logKernel's arithmetic inlined: a call
		// and a switch per kernel were a third of the loop.
		d := &p.dims[0]
		x := u[d.i]
		for k, lw := range p.logw {
			z := (x - d.mu[k]) / d.sigma[k]
			s := lw + (-0.5*z*z - logSqrt2Pi - d.logMass[k])
			buf[k] = s
			if s > top {
				top = s
			} else if s != s {
				nan = true
			}
		}
	} else {
		for k := range p.w {
			s := p.logw[k]
			for di := range p.dims {
				s += p.dims[di].logKernel(k, u[p.dims[di].i])
			}
			buf[k] = s
			if s > top {
				top = s
			} else if s != s {
				nan = true
			}
		}
	}
	switch {
	case nan:
		return math.NaN()
	case math.IsInf(top, -1):
		return top
	}
	sum := 0.0
	for _, s := range buf {
		// A term that math.Exp would round to 0 adds nothing: skipping it
		// leaves the sum as it was, bit for bit, and saves the call for
		// the kernels far from u (most of g's narrow ones).
		if v := s - top; !(v < expZero) { // NaN (∞ − ∞) is kept, as math.Exp would keep it
			sum += math.Exp(v)
		}
	}
	return math.Log(sum) + top
}

// expZero is a bound below which math.Exp returns exactly 0: e^−746 is
// below half the smallest subnormal (TestExpZero).
const expZero = -746

// sample sets, in u, the estimator's parameters to a draw: a component by
// its weight, then each parameter from its kernel, rounded as Optuna
// rounds it (to the cell or the integer; a choice's code).
func (p *parzen) sample(rng *rand.Rand, u []float64) {
	r, k := rng.Float64(), 0
	for ; k < len(p.w)-1; k++ {
		if r -= p.w[k]; r < 0 {
			break
		}
	}
	for di := range p.dims {
		d := &p.dims[di]
		u[d.i] = d.draw(k, rng)
	}
}

// draw returns a draw of component k's kernel.
func (d *dim) draw(k int, rng *rand.Rand) float64 {
	if d.kind == categorical {
		c := d.choice[k]
		r, j := rng.Float64(), 0
		for ; j < d.levels-1; j++ {
			pj := math.Exp(d.logMiss)
			switch {
			case c == -1:
				pj = 1 / float64(d.levels)
			case c == j:
				pj = math.Exp(d.logHit)
			}
			if r -= pj; r < 0 {
				break
			}
		}
		return (float64(j) + 0.5) / float64(d.levels)
	}
	m, s := d.mu[k], d.sigma[k]
	a, b := distuv.UnitNormal.CDF(-m/s), distuv.UnitNormal.CDF((1-m)/s)
	x := min(max(m+s*distuv.UnitNormal.Quantile(a+rng.Float64()*(b-a)), 0), 1)
	return d.round(x)
}

// round snaps coordinate x to its value's code as space.Round does: the
// centre of a cell, or the position of ln v for a log-scale Int v.
func (d *dim) round(x float64) float64 {
	switch {
	case d.logInt:
		v := math.Floor(math.Exp(d.ta+x*(d.tb-d.ta)) + 0.5)
		v = min(max(v, d.low), d.high)
		return (math.Log(d.low+(v-d.low)) - d.ta) / (d.tb - d.ta)
	case d.kind == cells:
		return (float64(bo.Level(x, d.levels)) + 0.5) / float64(d.levels)
	}
	return x
}
