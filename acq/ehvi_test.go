package acq

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/pareto"
)

// PredictBatch makes constModel a BatchModel.
func (m constModel) PredictBatch(X [][]float64, mean, varF []float64) {
	for i := range X {
		mean[i], varF[i] = m.mu, m.v
	}
}

// ehviFronts are a two- and a three-objective front with their
// reference points.
var ehviFronts = []struct {
	front [][]float64
	ref   []float64
}{
	{[][]float64{{0.1, 0.9}, {0.4, 0.5}, {0.8, 0.2}}, []float64{1, 1}},
	{[][]float64{{0.1, 0.6, 0.7}, {0.5, 0.2, 0.6}, {0.6, 0.6, 0.1}, {0.3, 0.3, 0.9}}, []float64{1, 1, 1}},
}

// The expected improvement of a Gaussian point, by Monte Carlo over the
// hypervolume it adds (pareto.Improvement), agrees with LogEHVI.
func TestLogEHVIMatchesMonteCarlo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, f := range ehviFronts {
		boxes := pareto.Boxes(f.front, f.ref)
		for _, mean := range []float64{0.2, 0.5, 0.9} {
			d := len(f.ref)
			models := make([]BatchModel, d)
			mu, sd := make([]float64, d), make([]float64, d)
			for k := range models {
				mu[k], sd[k] = mean+0.05*float64(k), 0.1+0.1*float64(k)
				models[k] = constModel{mu[k], sd[k] * sd[k]}
			}
			a := NewLogEHVI(models, boxes)
			got := math.Exp(a.Eval([]float64{0}, nil))
			const n = 200000
			sum, sum2 := 0.0, 0.0
			y := make([]float64, d)
			for range n {
				for k := range y {
					y[k] = mu[k] + sd[k]*rng.NormFloat64()
				}
				v := pareto.Improvement(boxes, y)
				sum, sum2 = sum+v, sum2+v*v
			}
			want := sum / n
			se := math.Sqrt((sum2/n - want*want) / n)
			if math.Abs(got-want) > 4*se+1e-12 {
				t.Errorf("d %d mean %v: EHVI %v, Monte Carlo %v ± %v", d, mean, got, want, se)
			}
		}
	}
}

// With one objective the only box is (−∞, y*) and LogEHVI is LogEI.
func TestLogEHVIOfOneObjectiveIsLogEI(t *testing.T) {
	m := testModel{shift: 0.4, v0: 1e-3, v1: 0.8}
	a := NewLogEHVI([]BatchModel{m}, pareto.Boxes([][]float64{{0.5}}, []float64{0.6}))
	for _, x := range [][]float64{{0.1, 0.2}, {0.3, 0.5}, {0.9, 0.9}, {-2, 3}} {
		got, want := a.Eval(x, nil), (LogEI{Best: 0.5}).Eval(m, x, nil)
		if math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("at %v: LogEHVI %v, LogEI %v", x, got, want)
		}
	}
}

// The gradient is the finite difference of the value, near the front and
// far from it (where EHVI itself underflows), and EvalBatch gives Eval's
// values.
func TestLogEHVIGradientAndBatch(t *testing.T) {
	for _, f := range ehviFronts {
		boxes := pareto.Boxes(f.front, f.ref)
		for _, shift := range []float64{-1, 0, 3, 40} {
			var models []BatchModel
			for k := range f.ref {
				models = append(models, testModel{shift: shift + 0.2*float64(k), v0: 1e-3, v1: 0.05})
			}
			a := NewLogEHVI(models, boxes)
			X := [][]float64{{0.1, 0.2}, {0.3, 0.5}, {0.7, -0.4}, {-1, -0.6}}
			batch := make([]float64, len(X))
			a.EvalBatch(X, batch)
			for i, x := range X {
				grad := make([]float64, len(x))
				v := a.Eval(x, grad)
				if v != batch[i] {
					t.Errorf("shift %v at %v: Eval %v, EvalBatch %v", shift, x, v, batch[i])
				}
				if math.IsInf(v, 0) || math.IsNaN(v) {
					t.Fatalf("shift %v at %v: LogEHVI = %v, want finite", shift, x, v)
				}
				for j := range x {
					const h = 1e-6
					xp, xm := append([]float64(nil), x...), append([]float64(nil), x...)
					xp[j] += h
					xm[j] -= h
					fd := (a.Eval(xp, nil) - a.Eval(xm, nil)) / (2 * h)
					if math.Abs(grad[j]-fd) > 1e-5*math.Max(1, math.Abs(fd)) {
						t.Errorf("d %d shift %v at %v: ∂/∂x%d = %v, finite difference %v", len(f.ref), shift, x, j, grad[j], fd)
					}
				}
			}
		}
	}
}

// A certain model (σ = 0) gives the log of the hypervolume its mean adds.
func TestLogEHVIWithoutVariance(t *testing.T) {
	f := ehviFronts[0]
	boxes := pareto.Boxes(f.front, f.ref)
	for _, y := range [][]float64{{0.3, 0.4}, {0.05, 0.95}, {0.5, 0.6}} {
		a := NewLogEHVI([]BatchModel{constModel{y[0], 0}, constModel{y[1], 0}}, boxes)
		if got, want := a.Eval([]float64{0}, nil), math.Log(pareto.Improvement(boxes, y)); math.Abs(got-want) > 1e-12 && got != want {
			t.Errorf("at %v: LogEHVI %v, log improvement %v", y, got, want)
		}
	}
}
