package acq

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// samples stands in for the GP posteriors at M = 3 hyper-parameter
// draws: the same smooth model family with different means and spreads.
var samples = []testModel{{shift: 0.1, v0: 0.01, v1: 0.5}, {shift: 0.3, v0: 0.05, v1: 0.2}, {shift: -0.2, v0: 0.002, v1: 0.9}}

func same(f Function) func(int) Function { return func(int) Function { return f } }

// TestMarginalIdentical: the average of M copies of one surface is that
// surface, for Marginal and MarginalLog, value and gradient.
func TestMarginalIdentical(t *testing.T) {
	m := samples[0]
	x := []float64{0.3, 0.6, 0.2}
	for name, f := range map[string]Function{"EI": EI{Best: 1.2}, "PI": PI{Best: 1.2}, "LCB": LCB{Kappa: 2}, "LogEI": LogEI{Best: 1.2}} {
		want := make([]float64, 3)
		v := f.Eval(m, x, want)
		copies := []testModel{m, m, m, m}
		for kind, s := range map[string]Surface{"Marginal": Marginal(same(f), copies), "MarginalLog": MarginalLog(same(f), copies)} {
			if kind == "MarginalLog" && name != "LogEI" {
				continue
			}
			g := make([]float64, 3)
			got := s.Eval(x, g)
			if math.Abs(got-v) > 1e-15*math.Abs(v) {
				t.Errorf("%s %s of identical surfaces: %v, the one %v", kind, name, got, v)
			}
			for i := range g {
				if math.Abs(g[i]-want[i]) > 1e-14*(math.Abs(want[i])+1e-300) {
					t.Errorf("%s %s gradient %v, the one %v", kind, name, g, want)
					break
				}
			}
		}
	}
}

// TestMarginalValues: Marginal is the mean of the α_j, MarginalLog the
// log of the mean of exp(α_j), each α_j on its own model, with f(j)
// handing out per-sample settings.
func TestMarginalValues(t *testing.T) {
	x := []float64{0.7, 0.1, 0.5}
	bests := []float64{1.0, 1.5, 0.8}
	f := func(j int) Function { return EI{Best: bests[j]} }
	lf := func(j int) Function { return LogEI{Best: bests[j]} }
	var mean, emean float64
	for j, m := range samples {
		mean += f(j).Eval(m, x, nil) / 3
		emean += math.Exp(lf(j).Eval(m, x, nil)) / 3
	}
	if got := Marginal(f, samples).Eval(x, nil); math.Abs(got-mean) > 1e-15*mean {
		t.Errorf("Marginal EI %v, mean of the three %v", got, mean)
	}
	if got := MarginalLog(lf, samples).Eval(x, nil); math.Abs(got-math.Log(emean)) > 1e-14 {
		t.Errorf("MarginalLog LogEI %v, log of the mean EI %v", got, math.Log(emean))
	}
	// A sample of zero EI (σ = 0, μ above the incumbent: LogEI = −Inf)
	// carries no weight in the log form.
	ms := []Model{samples[0], constModel{mu: 5, v: 0}}
	bm := []BatchModel{samples[0], constBatch{constModel{mu: 5, v: 0}}}
	one := LogEI{Best: 1}.Eval(ms[0], x, nil)
	g := make([]float64, 3)
	if got := MarginalLog(same(LogEI{Best: 1}), bm).Eval(x, g); math.Abs(got-(one+math.Log(0.5))) > 1e-14 || slices.ContainsFunc(g, math.IsNaN) {
		t.Errorf("MarginalLog with a −Inf sample: %v (gradient %v), want %v", got, g, one+math.Log(0.5))
	}
	allInf := MarginalLog(same(LogEI{Best: 1}), []BatchModel{constBatch{constModel{mu: 5, v: 0}}})
	if got := allInf.Eval(x, g); !math.IsInf(got, -1) || slices.ContainsFunc(g, func(v float64) bool { return v != 0 }) {
		t.Errorf("MarginalLog of −Inf samples: %v, gradient %v", got, g)
	}
}

type constBatch struct{ constModel }

func (m constBatch) PredictBatch(X [][]float64, mean, varF []float64) {
	for i, x := range X {
		mean[i], varF[i] = m.Predict(x)
	}
}

// TestMarginalGradients checks ∂α/∂x of the marginalised PI, EI, LCB,
// mean log-EI and log of the mean EI against central finite differences,
// down to the tail where every EI_j underflows (there only the log forms).
func TestMarginalGradients(t *testing.T) {
	points := [][]float64{{0.1, 0.9, 0.4}, {0.55, 0.2, 0.8}, {0.3, 0.4, 0.5}}
	for _, x := range points {
		mu, v := samples[0].Predict(x)
		for _, z := range []float64{1, -1, -4, -40} {
			best := mu + z*math.Sqrt(v)
			cases := map[string]Surface{
				"LogEI mean":  Marginal(same(LogEI{Best: best}), samples),
				"log mean EI": MarginalLog(same(LogEI{Best: best}), samples),
				"log mean PI": MarginalLog(same(LogPI{Best: best}), samples),
			}
			if z > -5 {
				cases["EI"] = Marginal(same(EI{Best: best, XiRel: 0.01}), samples)
				cases["PI"] = Marginal(same(PI{Best: best}), samples)
				cases["LCB"] = Marginal(same(LCB{Kappa: 2}), samples)
			}
			for name, s := range cases {
				g := make([]float64, len(x))
				val := s.Eval(x, g)
				if math.IsInf(val, 0) || math.IsNaN(val) {
					t.Fatalf("%s z≈%g at %v: α = %v", name, z, x, val)
				}
				const h = 1e-6
				for i := range x {
					xp, xm := slices.Clone(x), slices.Clone(x)
					xp[i] += h
					xm[i] -= h
					fd := (s.Eval(xp, nil) - s.Eval(xm, nil)) / (2 * h)
					if math.Abs(g[i]-fd) > 1e-5*max(math.Abs(g[i]), math.Abs(fd))+1e-9 {
						t.Errorf("%s z≈%g at %v: ∂α/∂x_%d = %v, finite differences %v", name, z, x, i, g[i], fd)
					}
				}
			}
		}
	}
}

// TestMarginalEvalBatch: EvalBatch gives Eval's values, bit for bit.
func TestMarginalEvalBatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	X := make([][]float64, 40)
	for i := range X {
		X[i] = []float64{rng.Float64(), rng.Float64(), rng.Float64()}
	}
	for i, s := range []Surface{
		Marginal(same(EI{Best: 0.9}), samples),
		Marginal(same(LCB{Kappa: 2}), samples),
		MarginalLog(same(LogEI{Best: 0.2}), samples),
		MarginalLog(same(LogPI{Best: -3}), samples),
	} {
		out := make([]float64, len(X))
		s.EvalBatch(X, out)
		for p, x := range X {
			if want := s.Eval(x, nil); out[p] != want {
				t.Errorf("%s point %d: EvalBatch %v, Eval %v", fmt.Sprint(i), p, out[p], want)
			}
		}
	}
}
