package gp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/mcmc"
)

// Chain lengths of spec §3.3 (Decision): 300 transitions of burn-in at
// the first BO iteration, 100 when the chain restarts from the previous
// iteration's last state; M = 200 samples, thinning 1 [reference code:
// rubinxin/FITBO].
const (
	BurnFirst     = 300
	BurnNext      = 100
	DefaultM      = 200
	defaultEtaVar = 0.1
)

// ParamPrior is the Gaussian prior N(Mean, diag(Var)) of the log
// hyper-parameters that ESS samples, in the layout of GP.Params: the
// kernel's log-parameters, then log σ_n². Var holds variances.
type ParamPrior struct {
	Mean, Var []float64
}

// FITBOPrior returns the FITBO profile prior for k [spec §3.3, as
// corrected]: log l_d ~ N(log 0.3, 3) for each lengthscale (boa's inputs
// are in the unit box, where 0.3 is a third of the range), log s² ~ N(0, 3)
// on the signal variance (the parameter the reference code exponentiates,
// not log s), log σ_n² ~ N(log 1e-3, 0.1), all on the standardised scale.
// For a rational-quadratic kernel, log α ~ N(0, 3) is the library's
// choice (FITBO uses the SE kernel only). Only *kernel.Stationary is
// known; other kernels need a ParamPrior of their own.
func FITBOPrior(k kernel.Kernel) (ParamPrior, error) {
	s, ok := k.(*kernel.Stationary)
	if !ok {
		return ParamPrior{}, fmt.Errorf("gp: no FITBO prior for a %T kernel; give SampleConfig.Prior", k)
	}
	nl := 1
	if s.ARD() {
		nl = s.Dim()
	}
	var p ParamPrior
	for range nl {
		p.Mean = append(p.Mean, math.Log(0.3))
		p.Var = append(p.Var, 3)
	}
	for range k.NumParams() - nl { // log s², then log α for RQ
		p.Mean = append(p.Mean, 0)
		p.Var = append(p.Var, 3)
	}
	p.Mean = append(p.Mean, math.Log(1e-3))
	p.Var = append(p.Var, 0.1)
	return p, nil
}

// ess returns the sampler of p(u) ∝ exp(ll(u))·N(u; Mean, diag(Var)).
func (p ParamPrior) ess(n int, ll func([]float64) float64) (*mcmc.ESS, error) {
	if len(p.Mean) != n || len(p.Var) != n {
		return nil, fmt.Errorf("gp: prior of %d means and %d variances for %d log hyper-parameters", len(p.Mean), len(p.Var), n)
	}
	sd := make([]float64, n)
	for i, v := range p.Var {
		sd[i] = math.Sqrt(v)
	}
	return &mcmc.ESS{Mean: p.Mean, SD: sd, LogLik: ll}, nil
}

// SampleConfig configures SampleParams. The zero value of every field but
// Kernel and Rand selects a documented default.
type SampleConfig struct {
	Kernel kernel.Kernel // the parameter layout; its current values are not used
	Prior  *ParamPrior   // nil: FITBOPrior(Kernel)
	M      int           // number of samples (default DefaultM = 200)
	// Burn is the number of transitions discarded first: 0 selects
	// BurnFirst without Start and BurnNext with it; < 0 means none.
	Burn int
	Thin int // transitions per sample (≤ 1: every one)
	// Start is the state to continue from, GP.Params layout: the previous
	// BO iteration's Samples.Last (spec §3.3 Decision). nil starts at the
	// prior mean. The sampler keeps no state between calls: the caller
	// carries Last, and the same Start, data and seed give the same chain.
	Start []float64
	Rand  *rand.Rand // required
}

// Samples are the draws of SampleParams.
type Samples struct {
	Params [][]float64 // M draws, each in the GP.Params layout
	// Last is the chain's final state, the next iteration's Start.
	Last []float64
	// Restarted is set when Start had zero likelihood on the new data (its
	// Gram matrix could not be factorised), so that the chain began at the
	// prior mean with BurnFirst (when Burn was 0) instead.
	Restarted bool
	Chain     *mcmc.Chain // transition counts: Chain.Steps, Chain.Rejected
}

// SampleParams draws M samples of the log hyper-parameters of a GP on
// (X, y) from p(u | D) ∝ exp(L(u))·N(u; m₀, S) by elliptical slice
// sampling [000 Eqs. 2.13–2.14, §3.3; spec §3.3], where L is the log
// marginal likelihood on ỹ, y standardised as in Fit, with a zero prior
// mean. u is unbounded: the kernel's Bounds do not apply (the Gaussian
// prior keeps it in range). Each evaluation of L costs one Cholesky
// factorisation in a reused workspace; a point whose factorisation fails
// even with jitter has zero likelihood. Models builds the GPs at the
// draws.
func SampleParams(X [][]float64, y []float64, cfg SampleConfig) (*Samples, error) {
	if cfg.Kernel == nil {
		return nil, errors.New("gp: SampleConfig.Kernel is nil")
	}
	if cfg.Rand == nil {
		return nil, errors.New("gp: SampleConfig.Rand is nil")
	}
	xs, err := copyInputs(X, y, cfg.Kernel)
	if err != nil {
		return nil, err
	}
	ys, _, _ := standardize(y)
	w := newLMLWork(xs, ys, cfg.Kernel, MeanZero)
	ll := func(u []float64) float64 {
		if !finite(u) {
			return math.Inf(-1)
		}
		l, err := w.compute(u) // no cache: ESS never evaluates a point twice
		if err != nil {
			return math.Inf(-1)
		}
		return l
	}
	e, pr, err := samplerFor(cfg.Kernel, cfg.Prior, ll)
	if err != nil {
		return nil, err
	}
	c, restarted, err := startChain(e, cfg.Start, pr.Mean)
	if err != nil {
		return nil, err
	}
	s := &Samples{Restarted: restarted, Chain: c}
	m := cfg.M
	if m <= 0 {
		m = DefaultM
	}
	s.Params = e.Run(c, burnIn(cfg.Burn, cfg.Start != nil && !restarted), m, cfg.Thin, cfg.Rand)
	s.Last = append([]float64(nil), c.U...)
	return s, nil
}

// samplerFor returns the ESS over k's log-parameters and log σ_n² with the
// prior pr (FITBOPrior(k) when nil) and log-likelihood ll.
func samplerFor(k kernel.Kernel, pr *ParamPrior, ll func([]float64) float64) (*mcmc.ESS, ParamPrior, error) {
	var p ParamPrior
	if pr != nil {
		p = *pr
	} else {
		var err error
		if p, err = FITBOPrior(k); err != nil {
			return nil, p, err
		}
	}
	e, err := p.ess(k.NumParams()+1, ll)
	return e, p, err
}

// startChain starts e at start, or at the prior mean when start is nil or
// has zero likelihood (restarted reports the latter).
func startChain(e *mcmc.ESS, start, mean []float64) (c *mcmc.Chain, restarted bool, err error) {
	if start != nil {
		if len(start) != len(mean) {
			return nil, false, fmt.Errorf("gp: chain start of %d values, want %d (GP.Params layout)", len(start), len(mean))
		}
		if c, err = e.Start(start); err == nil {
			return c, false, nil
		}
		restarted = true
	}
	c, err = e.Start(mean)
	if err != nil {
		return nil, restarted, fmt.Errorf("gp: ESS cannot start at the prior mean: %w", err)
	}
	return c, restarted, nil
}

// burnIn resolves SampleConfig.Burn: BurnNext for a continued chain,
// BurnFirst for a new one [spec §3.3 Decision].
func burnIn(burn int, continued bool) int {
	switch {
	case burn < 0:
		return 0
	case burn > 0:
		return burn
	case continued:
		return BurnNext
	}
	return BurnFirst
}

func finite(u []float64) bool {
	for _, v := range u {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// Models returns the GPs on (X, y), y standardised as in New, at each
// draw of log hyper-parameters (GP.Params layout): kernel k (cloned) with
// the draw's kernel part and noise variance exp of its last entry. Each
// is sample j's posterior for a marginalised acquisition [spec §4.6] or
// for Mixture.
func Models(X [][]float64, y []float64, k kernel.Kernel, params [][]float64) ([]*GP, error) {
	if k == nil {
		return nil, errors.New("gp: Models with a nil kernel")
	}
	nk := k.NumParams()
	out := make([]*GP, len(params))
	for j, p := range params {
		if len(p) != nk+1 {
			return nil, fmt.Errorf("gp: draw %d has %d values, want %d (GP.Params layout)", j, len(p), nk+1)
		}
		kj := k.Clone()
		kj.SetParams(p[:nk])
		g, err := New(X, y, kj, math.Exp(p[nk]))
		if err != nil {
			return nil, fmt.Errorf("gp: draw %d: %w", j, err)
		}
		out[j] = g
	}
	return out, nil
}
