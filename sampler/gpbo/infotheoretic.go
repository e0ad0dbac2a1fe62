package gpbo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/qmc"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
)

// Settings of the information-theoretic acquisitions and of
// marginalisation [spec gp-and-acquisitions §3.3, §4.3–4.6].
const (
	defaultSamples = gp.DefaultM // hyper-parameter samples M (spec §3.3)
	pathFeatures   = 1024        // random Fourier features of a sample path (spec §4.4)
	pathCandidates = 2048        // candidates a sample path is minimised from
)

// fitbo reports whether g's acquisition is FITBO's, which samples the
// minimum value η with the hyper-parameters [000 §3.3; spec §4.6].
func (g *GPBO) fitbo() bool {
	a := strings.ToLower(g.Acquisition)
	return a == AcqFITBO || a == AcqFITBOMM
}

// marginal reports whether g leaves the MAP path of Suggest: its
// hyper-parameters are sampled, or its acquisition is built on its models
// (a Surface) rather than a Function of one model. The MAP path with the
// improvement and bound acquisitions stays as it was, suggestion for
// suggestion.
func (g *GPBO) marginal() bool {
	switch strings.ToLower(g.Acquisition) {
	case AcqFITBO, AcqFITBOMM, AcqMES, AcqPES, AcqKG:
		return true
	}
	return strings.ToLower(g.Marginalise) == MarginaliseESS
}

func (g *GPBO) samples() int { return bo.OrDefault(g.Samples, defaultSamples) }

// chains are the ESS states a gpbo carries from one suggestion to the
// next, so that each iteration's chain continues the last one with a
// short burn-in (spec §3.3 Decision). A new process starts them again
// with the first iteration's burn-in: the draws then differ, not their
// law.
type chains struct {
	theta           []float64       // SampleParams' Samples.Last
	warped          *gp.WarpedState // SampleWarped's Last
	etaMean, etaVar float64         // the refitted prior of u_η (empirical Bayes, spec §3.3)
}

// suggestMarginal is Suggest after the design for the acquisitions built
// on their models and for marginalised hyper-parameters: the models
// (one per hyper-parameter sample, or the MAP fit), the trials without a
// value believed in each, the acquisition surface, weighted by the
// feasibility factors, maximised over the space.
func (g *GPBO) suggestMarginal(h *sampler.History, without [][]float64, factors []acq.Penalty, rng *rand.Rand) ([]float64, error) {
	sp := h.Space
	X, y := observations(sp, h.Observed)
	k := kernel.NewStationary(g.Kernel, sp.NumFeatures(), g.ARD)
	best, feasible := bo.BestFeasible(h.Observed)
	var surface acq.Surface
	if g.fitbo() {
		w, err := gp.SampleWarped(X, y, gp.WarpedConfig{
			Kernel: k, M: g.samples(), Start: g.chain.warped,
			EtaMean: g.chain.etaMean, EtaVar: g.chain.etaVar, Rand: rng,
		})
		if err != nil {
			return nil, fmt.Errorf("FITBO's samples: %w", err)
		}
		g.chain.warped, g.chain.etaMean, g.chain.etaVar = &w.Last, w.EtaMean, w.EtaVar
		f := acq.FITBO{MomentMatching: strings.ToLower(g.Acquisition) == AcqFITBOMM}
		for _, s := range w.Samples {
			gm, _ := bo.Believe(sp, s.G, without)
			f.Samples = append(f.Samples, acq.FITBOSample{G: gm, Eta: s.Eta, Noise: s.Noise})
		}
		surface = constrainSurface(f, factors, feasible)
	} else {
		models, err := g.models(sp, X, y, k, rng)
		if err != nil {
			return nil, err
		}
		fantasised := math.Inf(1)
		for j, m := range models {
			var f float64
			models[j], f = bo.Believe(sp, m, without)
			fantasised = min(fantasised, f)
		}
		if surface, err = g.surface(sp, models, bo.FantasyIncumbent(best, fantasised), X, factors, feasible, rng); err != nil {
			return nil, err
		}
	}
	return bo.MaximizeSurface(sp, surface, h, g.Candidates, rng)
}

// models are the GPs the acquisition averages over: one per
// hyper-parameter sample drawn by ESS (spec §3.3), or the MAP fit.
func (g *GPBO) models(sp *space.Space, X [][]float64, y []float64, k kernel.Kernel, rng *rand.Rand) ([]*gp.GP, error) {
	if strings.ToLower(g.Marginalise) != MarginaliseESS {
		m, err := g.fitXY(sp, X, y, len(X), rng)
		return []*gp.GP{m}, err
	}
	s, err := gp.SampleParams(X, y, gp.SampleConfig{Kernel: k, M: g.samples(), Start: g.chain.theta, Rand: rng})
	if err != nil {
		return nil, fmt.Errorf("hyper-parameter samples: %w", err)
	}
	g.chain.theta = s.Last
	return gp.Models(X, y, k, s.Params)
}

// surface is the acquisition on models, averaged over them: each sample's
// acquisition on its own posterior (spec §4.6 Decision, the comparators
// of the FITBO experiments marginalised over the same samples). The
// improvement and bound acquisitions are weighted by the feasibility
// factors on each sample (constrain) and, being logs (log-EI, log-PI, the
// constrained forms), averaged as the log of the mean EI or PI: the mean
// of the logs would be a geometric mean, with another maximiser. An
// information gain is weighted as a whole (constrainSurface).
func (g *GPBO) surface(sp *space.Space, models []*gp.GP, best float64, X [][]float64, factors []acq.Penalty, feasible bool, rng *rand.Rand) (acq.Surface, error) {
	a := strings.ToLower(g.Acquisition)
	var kg *acq.KG
	if a == AcqKG {
		lo, hi := unitBox(sp.NumFeatures())
		kg = acq.NewKG(X, lo, hi, rng)
	}
	var cands [][]float64
	if a == AcqMES || a == AcqPES {
		cands = featureCandidates(sp, pathCandidates, rng)
	}
	per := make(acq.Average, len(models))
	for j, m := range models {
		switch a {
		case AcqMES:
			minima, err := g.minima(sp, m, cands, X, best, rng)
			if err != nil {
				return nil, err
			}
			per[j] = acq.Bind(acq.MES{Minima: minima}, m)
		case AcqPES:
			xs, _, err := pathMinima(sp, m, cands, bo.OrDefault(g.PESSamples, acq.DefaultPESSamples), rng)
			if err != nil {
				return nil, err
			}
			per[j] = acq.NewPESLite(m, xs)
		case AcqKG:
			per[j] = acq.Bind(kg, m)
		default:
			f, err := g.acquisition(best, len(X), sp.Len())
			if err != nil {
				return nil, err
			}
			per[j] = acq.Bind(constrain(f, m, factors, feasible), m)
		}
	}
	switch {
	case a == AcqMES || a == AcqPES || a == AcqKG:
		var s acq.Surface = per
		if len(per) == 1 {
			s = per[0]
		}
		return constrainSurface(s, factors, feasible), nil
	case a == AcqLogEI || a == "" || a == AcqPI || len(factors) > 0:
		return acq.LogAverage(per), nil
	}
	return per, nil
}

// minima are MES's K samples of the minimum value f* under m (spec §4.5):
// by the Gumbel fit to the candidates and the observed inputs (default),
// or as the minima of sample paths (minima: rff).
func (g *GPBO) minima(sp *space.Space, m *gp.GP, cands, X [][]float64, best float64, rng *rand.Rand) ([]float64, error) {
	K := bo.OrDefault(g.MESSamples, acq.DefaultMESSamples)
	if strings.ToLower(g.Minima) == MinimaRFF {
		_, fs, err := pathMinima(sp, m, cands, K, rng)
		return fs, err
	}
	C := slices.Concat(cands, X)
	mean, sd := make([]float64, len(C)), make([]float64, len(C))
	m.PredictBatch(C, mean, sd)
	for i, v := range sd {
		sd[i] = math.Sqrt(v)
	}
	return acq.GumbelMinima(mean, sd, K, best, rng), nil
}

// pathMinima draws n random-Fourier-feature sample paths of m (spec §4.4)
// and returns their minimisers and minima: refined by gradient in the
// unit box of a continuous space's features, the best candidate
// elsewhere (a path of one-hot features is meaningless between corners).
func pathMinima(sp *space.Space, m *gp.GP, cands [][]float64, n int, rng *rand.Rand) ([][]float64, []float64, error) {
	lo, hi := unitBox(sp.NumFeatures())
	xs, fs := make([][]float64, n), make([]float64, n)
	for j := range n {
		p, err := m.SamplePath(pathFeatures, rng)
		if err != nil {
			return nil, nil, fmt.Errorf("sample path: %w", err)
		}
		if continuous(sp) {
			if xs[j], fs[j], err = acq.MinimizePath(p, cands, lo, hi, 0); err != nil {
				return nil, nil, err
			}
			continue
		}
		fs[j] = math.Inf(1)
		for _, c := range cands {
			if v := p.Eval(c); v < fs[j] {
				fs[j], xs[j] = v, c
			}
		}
	}
	return xs, fs, nil
}

// thompsonPath is Thompson sampling by a random-Fourier-feature sample
// path (spec §4.4, rff) on a continuous space: the path's minimiser over
// Sobol candidates, refined by gradient; a configuration tried already
// gives way to an untried one.
func (g *GPBO) thompsonPath(model *gp.GP, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	sp := h.Space
	xs, _, err := pathMinima(sp, model, featureCandidates(sp, pathCandidates, rng), 1, rng)
	if err != nil {
		return nil, fmt.Errorf("gpbo: thompson sampling by sample path: %w", err)
	}
	u := slices.Clone(xs[0]) // the features of an unconditional all-float space are its coordinates
	sp.Round(u)
	return bo.Untried(sp, bo.Excluded(h), u, rng), nil
}

// constrainSurface weights an acquisition surface by the feasibility
// factors as constrain weights a Function: log α + Σ log P_j, the
// constrained form of Gardner et al. 2014 applied to an information
// gain (α ≥ 0; a boa extension, docs/infotheoretic.md); before any
// feasible point, the probability of feasibility alone.
func constrainSurface(s acq.Surface, factors []acq.Penalty, feasible bool) acq.Surface {
	if len(factors) == 0 {
		return s
	}
	return acq.ConstrainedSurface{Base: s, Feasibility: factors, Infeasible: !feasible}
}

// observations are the completed trials as the model's inputs and
// targets.
func observations(sp *space.Space, obs []sampler.Observation) ([][]float64, []float64) {
	X := make([][]float64, len(obs))
	y := make([]float64, len(obs))
	for i, o := range obs {
		X[i] = sp.Features(o.X, nil)
		y[i] = o.Y
	}
	return X, y
}

// featureCandidates are n Sobol points of the space, as model inputs.
func featureCandidates(sp *space.Space, n int, rng *rand.Rand) [][]float64 {
	pts := qmc.SobolPoints(n, sp.Len(), rng)
	out := make([][]float64, len(pts))
	for i, u := range pts {
		sp.Round(u)
		out[i] = sp.Features(u, nil)
	}
	return out
}

func unitBox(d int) (lo, hi []float64) {
	lo, hi = make([]float64, d), make([]float64, d)
	for i := range hi {
		hi[i] = 1
	}
	return lo, hi
}

// continuous reports whether every parameter of sp is a float, so that
// its features form a box a gradient may move in.
func continuous(sp *space.Space) bool {
	if sp.NumFeatures() != sp.Len() {
		return false
	}
	for i, p := range sp.Params() {
		if p.Kind != space.Float || sp.Conditional(i) {
			return false
		}
	}
	return true
}

// meanModels are the models whose averaged posterior mean Recommend
// minimises: the MAP fit, or one GP per hyper-parameter sample on the
// values (for FITBO, the zero-mean GPs at its θ samples: spec §4.6,
// Decision in the Corrections).
func (g *GPBO) meanModels(h *sampler.History, rng *rand.Rand) ([]acq.BatchModel, error) {
	sp := h.Space
	X, y := observations(sp, h.Observed)
	k := kernel.NewStationary(g.Kernel, sp.NumFeatures(), g.ARD)
	var ms []*gp.GP
	var err error
	switch {
	case g.fitbo():
		var w *gp.Warped
		if w, err = gp.SampleWarped(X, y, gp.WarpedConfig{Kernel: k, M: g.samples(), Rand: rng}); err == nil {
			ms, err = gp.Models(X, y, k, w.Theta)
		}
	default:
		ms, err = g.models(sp, X, y, k, rng)
	}
	if err != nil {
		return nil, err
	}
	out := make([]acq.BatchModel, len(ms))
	for i, m := range ms {
		out[i] = g.surrogate(sp, m)
	}
	return out, nil
}
