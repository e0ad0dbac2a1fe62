package playbook

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
)

// Playbook is PLAyBOOK, asynchronous batch BO by local penalisation
// (Alvi, Ru et al., ICML 2019) [000 Ch. 4; 002 Ch. 4; spec
// async-batch-playbook.md]. Where gpbo fantasises each running trial at
// its posterior mean (Kriging Believer), PLAyBOOK leaves the model fitted
// to the completed trials and multiplies the acquisition by a penalty
// around every running trial x_j [000 Eq. 4.6]:
//
//	α̃(x) = g(α(x)) · Π_j φ(x | x_j),   α = κσ − μ (UCB, κ = 2),
//
// with g the softplus, which makes α positive (spec §3.4, Decision). The
// penalty excludes a ball whose radius is how far the minimiser must be
// from x_j if f is L-Lipschitz with minimum M: |μ(x_j) − M̂|/L̂ plus a
// margin for σ(x_j) (spec §3). The four variants of the seeds:
//
//	playbook-l   LP  (Φ-shaped, González et al.)   one global L̂
//	playbook-h   HLP (smooth min{ρ, 1}, γ=1, p=−5) one global L̂
//	playbook-ll  LP                                 one L̂ per running trial
//	playbook-hl  HLP                                one L̂ per running trial
//
// HLP is exactly 0 at a running trial, so its point is never proposed
// again, where LP leaves it a positive value. A local L̂_j is the largest
// slope of the posterior mean within one lengthscale of x_j [spec §4,
// Decision]: small in a flat region, whose running trial then excludes a
// large ball, large at a sharp peak, which stays open for its neighbours.
// "playbook" is playbook-h: over the runs of docs/playbook.md it has the
// best mean rank among -l, -h and -hl (1.8 against 2.1), needs one
// Lipschitz search per suggestion where -hl needs one per running trial,
// and has no cell as bad as -hl's with 16 workers on Ackley-5.
//
// A synchronous batch (SuggestBatch) penalises the points already chosen
// for it, one after another: the seeds' sync variants. Failed and pruned
// trials have no value to penalise with; they are fantasised at their
// posterior mean as in gpbo. The surrogate and the initial design are
// gpbo's (Matérn-5/2 ARD by MAP, a Sobol design of max(5, d+1) points);
// the seeds' experiment settings (MAP with the reference code's priors, a
// 3d uniform design) are their reproduction profile, not this default.
// All quantities, μ, σ, M̂ = min ỹ and L̂, are on the GP's standardised
// target scale and in its unit input box (spec §4), so the softplus and
// the flat-model guard do not depend on the objective's units.
type Playbook struct {
	Model      *gpbo.GPBO // the surrogate and the design; its Acquisition is not used
	Hard       bool       // HLP (true) or LP
	Local      bool       // one Lipschitz constant per running trial (true) or one global
	Kappa      float64    // UCB's κ; default 2 [000 §4.6.1]
	Gamma      float64    // HLP's γ, the σ margin of the radius; default 1 [000 §4.6.1]
	P          float64    // HLP's smoothing exponent p < 0; default −5 [000 Eq. 4.12]
	Positivity string     // "softplus" (default) or "offset" (α − min α + 1e-3, the reference code's)

	name string
}

// New returns a PLAyBOOK variant with the seeds' settings: hard
// chooses HLP over LP, local one Lipschitz constant per running trial.
func New(hard, local bool) *Playbook {
	return &Playbook{Model: gpbo.New(), Hard: hard, Local: local, Kappa: 2, Gamma: 1, P: -5, Positivity: "softplus"}
}

// Name returns playbook-l, -h, -ll or -hl (or playbook, the registry's
// short name for -h).
func (p *Playbook) Name() string {
	if p.name != "" {
		return p.name
	}
	n := "playbook-l"
	if p.Hard {
		n = "playbook-h"
	}
	if p.Local {
		n += "l"
	}
	return n
}

// Designing reports whether the next suggestion is a point of gpbo's
// initial design.
func (p *Playbook) Designing(h *sampler.History) bool { return p.Model.Designing(h) }

// Suggest proposes the next point: a design point while the design has
// not completed, else the maximiser of the penalised acquisition.
func (p *Playbook) Suggest(ctx context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if p.Designing(h) {
		return bo.FreshDesignPoint(h, bo.SobolPoint(h, h.Trials, p.Model.Log()), rng), nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	model, af, err := p.penalised(h, rng)
	if err != nil {
		p.Model.Log().Warn("playbook: surrogate fit failed; proposing an untried random point", "trial", h.Trials, "err", err)
		return bo.UntriedPoint(h, rng), nil
	}
	u, err := bo.MaximizeAcquisition(h.Space, model, af, h, p.Model.Candidates, rng)
	if err != nil {
		p.Model.Log().Warn("playbook: acquisition optimisation found no new point; proposing an untried random point", "trial", h.Trials, "err", err)
		return bo.UntriedPoint(h, rng), nil
	}
	return u, nil
}

func (p *Playbook) check() error {
	switch {
	case !(p.Kappa >= 0 && p.Kappa <= math.MaxFloat64):
		return fmt.Errorf("%s: Kappa %v must be a finite number >= 0", p.Name(), p.Kappa)
	case !(p.Gamma >= 0 && p.Gamma <= math.MaxFloat64):
		return fmt.Errorf("%s: Gamma %v must be a finite number >= 0", p.Name(), p.Gamma)
	case p.Hard && !(p.P < 0 && p.P >= -math.MaxFloat64):
		return fmt.Errorf("%s: P %v must be a finite number < 0", p.Name(), p.P)
	}
	switch strings.ToLower(p.Positivity) {
	case "", "softplus", "offset":
		return nil
	}
	return fmt.Errorf("%s: unknown Positivity %q (known: softplus, offset)", p.Name(), p.Positivity)
}

// penalised fits the model to the completed trials of h, with the failed
// and pruned ones fantasised at their mean, and builds α̃ on it.
func (p *Playbook) penalised(h *sampler.History, rng *rand.Rand) (standardised, acq.Function, error) {
	fitted, err := p.Model.Fit(h.Space, h.Observed, rng)
	if err != nil {
		return standardised{}, nil, err
	}
	believed, _ := bo.Believe(h.Space, fitted, slices.Concat(h.Failed, h.Pruned))
	model := newStandardised(believed)
	af := p.acquisition(h.Space, model, h, rng)
	// The probabilities of feasibility and computability are penalties
	// in [0, 1] like the local penalisers, and multiply α̃ the same way
	// (a boa extension; gpbo.GPBO.Factors).
	af.Penalties = append(af.Penalties, p.Model.Factors(h, rng)...)
	return model, af, nil
}

// acquisition builds α̃: UCB made positive and one penalty per running
// trial of h, with M̂ the best observed value (spec §3.1).
func (p *Playbook) acquisition(sp *space.Space, model standardised, h *sampler.History, rng *rand.Rand) acq.Penalised {
	base := acq.LCB{Kappa: p.Kappa}
	af := acq.Penalised{Base: base, Positivity: acq.Softplus{}}
	if strings.EqualFold(p.Positivity, "offset") {
		af.Positivity = acq.Offset{Min: minOnRandomPoints(sp, model, base, rng)}
	}
	best := model.toStandard(bo.BestValue(h.Observed))
	nf := sp.NumFeatures()
	lengths := lengthscales(model.GP, nf)
	local := p.Local && lengths != nil
	var global float64
	if !local && len(h.Pending) > 0 {
		hi := make([]float64, nf)
		for i := range hi {
			hi[i] = 1
		}
		global = acq.Lipschitz(model, make([]float64, nf), hi, acq.LipschitzSettings{Candidates: 1000}, rng)
	}
	for _, u := range h.Pending {
		x := sp.Features(u, nil)
		l := global
		if local {
			lo, hi := make([]float64, nf), make([]float64, nf)
			for i := range lo {
				lo[i], hi[i] = max(x[i]-lengths[i], 0), min(x[i]+lengths[i], 1)
			}
			l = acq.Lipschitz(model, lo, hi, acq.LipschitzSettings{Starts: [][]float64{x}}, rng)
		}
		mean, v := model.Predict(x)
		sd := math.Sqrt(max(v, 0))
		if p.Hard {
			af.Penalties = append(af.Penalties, acq.NewHardPenalty(x, mean, sd, best, l, p.Gamma, p.P))
		} else {
			af.Penalties = append(af.Penalties, acq.NewLocalPenalty(x, mean, sd, best, l))
		}
	}
	return af
}

// minOnRandomPoints is the offset transform's α_min: the smallest α on
// 3000 uniform random points, without local optimisation (002 Eq. 4.16;
// spec §3.4).
func minOnRandomPoints(sp *space.Space, model standardised, af acq.Function, rng *rand.Rand) float64 {
	const n = 3000
	F := make([][]float64, n)
	for i := range F {
		F[i] = sp.Features(sp.Sample(rng), nil)
	}
	values := make([]float64, n)
	acq.EvalBatch(af, model, F, values)
	low := math.Inf(1)
	for _, v := range values {
		low = min(low, v)
	}
	return low
}

// lengthscales returns the model kernel's lengthscale along each of the nf
// inputs, or nil when the kernel has none (not stationary).
func lengthscales(m *gp.GP, nf int) []float64 {
	k, ok := m.Kernel().(*kernel.Stationary)
	if !ok {
		return nil
	}
	l := k.Lengthscales()
	if len(l) == 1 {
		for len(l) < nf {
			l = append(l, l[0])
		}
	}
	return l
}

// standardised is a GP seen on its standardised target scale, ỹ = (y −
// offset)/scale, the scale on which PLAyBOOK's quantities are defined
// (spec §4).
type standardised struct {
	*gp.GP
	offset, scale float64
}

func newStandardised(m *gp.GP) standardised {
	offset, scale := m.Standardization()
	return standardised{GP: m, offset: offset, scale: scale}
}

func (s standardised) toStandard(y float64) float64 { return (y - s.offset) / s.scale }

func (s standardised) Predict(x []float64) (mean, varF float64) {
	mean, varF = s.GP.Predict(x)
	return s.toStandard(mean), varF / (s.scale * s.scale)
}

func (s standardised) PredictGrad(x, dmean, dvar []float64) (mean, varF float64) {
	mean, varF = s.GP.PredictGrad(x, dmean, dvar)
	for i := range dmean {
		dmean[i] /= s.scale
	}
	for i := range dvar {
		dvar[i] /= s.scale * s.scale
	}
	return s.toStandard(mean), varF / (s.scale * s.scale)
}

func (s standardised) PredictBatch(X [][]float64, mean, varF []float64) {
	s.GP.PredictBatch(X, mean, varF)
	for i := range mean {
		mean[i], varF[i] = s.toStandard(mean[i]), varF[i]/(s.scale*s.scale)
	}
}

func (s standardised) MeanGrad(x, dmean []float64) float64 {
	mean := s.GP.MeanGrad(x, dmean)
	for i := range dmean {
		dmean[i] /= s.scale
	}
	return s.toStandard(mean)
}

func init() {
	sampler.Register("playbook", func() sampler.Sampler { p := New(true, false); p.name = "playbook"; return p })
	sampler.Register("playbook-l", func() sampler.Sampler { return New(false, false) })
	sampler.Register("playbook-h", func() sampler.Sampler { return New(true, false) })
	sampler.Register("playbook-ll", func() sampler.Sampler { return New(false, true) })
	sampler.Register("playbook-hl", func() sampler.Sampler { return New(true, true) })
}
