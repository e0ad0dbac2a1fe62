package fitbo

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/qmc"
)

// Methods of the runtime study, in the order of Fig. 3.3 [000 §3.3.2].
var Methods = []string{"PI", "EI", "GP-UCB", "PES", "MES", "FITBO", "FITBO-MM"}

// Cell is one point of the runtime study: the acquisitions of every
// method, on 10 observations of a d-dimensional function, with M samples
// of the hyper-parameters ψ = (θ, η) drawn by ESS, and the 100 test points
// they are evaluated at. Sampling is not timed: only Eval (the
// acquisitions' EvalBatch at the 100 points) is [000 §3.3.2; spec §9.2].
type Cell struct {
	D, M   int
	Test   [][]float64
	Method map[string]acq.Surface
}

// initial and test are the study's sizes [000 §3.3.2].
const (
	initial = 10
	test    = 100
)

// objective is the study's d-dimensional test function on [0,1]^d: the
// thesis does not name it, so a smooth multimodal one (Michalewicz on
// [0, π]^d, spec §8.1).
func objective(x []float64) float64 {
	var s float64
	for i, u := range x {
		v := math.Pi * u
		s -= math.Sin(v) * math.Pow(math.Sin(float64(i+1)*v*v/math.Pi), 20)
	}
	return s
}

// NewCell builds the cell for dimension d and M samples, its observations
// and samples drawn from seed. The comparators are marginalised over the
// θ of the same ESS draws as FITBO (spec Corrections): PI, EI and GP-UCB
// average their values over the M GPs; MES takes one minimum per sample
// from a random-Fourier-feature path and PES one minimiser, the
// comparators of the thesis's figure (K = J = 1).
func NewCell(d, M int, seed uint64) (*Cell, error) {
	rng := rand.New(rand.NewPCG(seed, uint64(1000*d+M)))
	X := qmc.SobolPoints(initial, d, rng)
	y := make([]float64, len(X))
	for i, x := range X {
		y[i] = objective(x)
	}
	k := kernel.NewStationary(kernel.RBF, d, true) // SE-ARD [000 §3.3]
	w, err := gp.SampleWarped(X, y, gp.WarpedConfig{Kernel: k, M: M, Rand: rng})
	if err != nil {
		return nil, fmt.Errorf("FITBO samples: %w", err)
	}
	models, err := gp.Models(X, y, k, w.Theta)
	if err != nil {
		return nil, err
	}
	best := math.Inf(1)
	for _, v := range y {
		best = min(best, v)
	}
	c := &Cell{D: d, M: M, Test: qmc.SobolPoints(test, d, rng), Method: map[string]acq.Surface{}}
	kappa := acq.GPUCBKappa(initial, d, 1, 0.1)
	lo, hi := make([]float64, d), make([]float64, d)
	for i := range hi {
		hi[i] = 1
	}
	cands := qmc.SobolPoints(1000, d, rng)
	pi, ei, ucb, mes, pes := make(acq.Average, M), make(acq.Average, M), make(acq.Average, M), make(acq.Average, M), make(acq.Average, M)
	for j, m := range models {
		pi[j] = acq.Bind(acq.PI{Best: best}, m)
		ei[j] = acq.Bind(acq.EI{Best: best}, m)
		ucb[j] = acq.Bind(acq.LCB{Kappa: kappa}, m)
		p, err := m.SamplePath(0, rng)
		if err != nil {
			return nil, err
		}
		xs, fs, err := acq.MinimizePath(p, cands, lo, hi, 0)
		if err != nil {
			return nil, err
		}
		mes[j] = acq.Bind(acq.MES{Minima: []float64{fs}}, m)
		pes[j] = acq.NewPESLite(m, [][]float64{xs})
	}
	fitbo := acq.FITBO{}
	for _, s := range w.Samples {
		fitbo.Samples = append(fitbo.Samples, acq.FITBOSample{G: s.G, Eta: s.Eta, Noise: s.Noise})
	}
	mm := fitbo
	mm.MomentMatching = true
	c.Method["PI"], c.Method["EI"], c.Method["GP-UCB"] = pi, ei, ucb
	c.Method["PES"], c.Method["MES"] = pes, mes
	c.Method["FITBO"], c.Method["FITBO-MM"] = fitbo, mm
	return c, nil
}

// Eval evaluates method at the cell's 100 test points, the timed step.
func (c *Cell) Eval(method string, out []float64) { c.Method[method].EvalBatch(c.Test, out) }
