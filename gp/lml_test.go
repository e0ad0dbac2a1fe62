package gp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/kernel"
	"gonum.org/v1/gonum/mat"
)

func TestLogMarginalGrad(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	X, y := randData(20, 3, rng)
	kernels := map[string]kernel.Kernel{
		"matern52-ard": kernel.NewStationary(kernel.Matern52, 3, true),
		"rbf-iso":      kernel.NewStationary(kernel.RBF, 3, false),
		"rq-ard":       kernel.NewStationary(kernel.RQ, 3, true),
		"matern12-ard": kernel.NewStationary(kernel.Matern12, 3, true),
		"sum": kernel.NewSum(kernel.NewStationary(kernel.Matern32, 3, true),
			kernel.NewStationary(kernel.RBF, 3, false)),
	}
	priorSets := map[string]func(np int) ([]Prior, Prior){
		"mle": func(int) ([]Prior, Prior) { return nil, nil },
		"gamma": func(np int) ([]Prior, Prior) {
			p := make([]Prior, np)
			for j := range p {
				p[j] = GammaPrior(1+float64(j), 0.5)
			}
			return p, GammaPrior(1.1, 10)
		},
		"lognormal": func(np int) ([]Prior, Prior) {
			p := make([]Prior, np)
			for j := range p {
				if j%2 == 0 { // some parameters stay flat
					p[j] = LogNormalPrior(math.Log(0.3), 3)
				}
			}
			return p, LogNormalPrior(math.Log(1e-3), 0.1)
		},
	}
	const h = 1e-5
	for kname, k := range kernels {
		for pname, mk := range priorSets {
			priors, noisePrior := mk(k.NumParams())
			g, err := Fit(X, y, Config{Kernel: k, Priors: priors, NoisePrior: noisePrior, Restarts: 1, MaxIter: 2})
			if err != nil {
				t.Fatalf("%s/%s: %v", kname, pname, err)
			}
			np := k.NumParams() + 1
			for trial := 0; trial < 3; trial++ {
				p := make([]float64, np)
				for j := range p {
					p[j] = math.Log(0.1 + rng.Float64()) // θ in [0.1, 1.1]
				}
				p[np-1] = math.Log(1e-3 + 0.1*rng.Float64())
				checkLMLGrad(t, kname+"/"+pname, g, p, h)
			}
		}
	}
}

// TestLogMarginalValue checks the LML against a dense computation and the
// prior terms against their closed forms.
func TestLogMarginalValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	X, y := randData(15, 2, rng)
	k := kernel.NewStationary(kernel.Matern32, 2, true)
	k.SetLengthscales([]float64{0.3, 0.7})
	k.SetVariance(1.3)
	const noise = 0.02
	g, err := New(X, y, k, noise)
	if err != nil {
		t.Fatal(err)
	}
	ys, _, _ := standardize(y)
	n := len(X)
	A := denseCov(X, k, noise)
	var chol mat.Cholesky
	if !chol.Factorize(A) {
		t.Fatal("reference factorisation failed")
	}
	var alpha mat.VecDense
	if err := chol.SolveVecTo(&alpha, mat.NewVecDense(n, ys)); err != nil {
		t.Fatal(err)
	}
	want := -0.5*mat.Dot(mat.NewVecDense(n, ys), &alpha) - 0.5*chol.LogDet() - 0.5*float64(n)*math.Log(2*math.Pi)
	if got := g.LogMarginal(); math.Abs(got-want) > 1e-10*math.Abs(want) {
		t.Errorf("LogMarginal %v, want %v", got, want)
	}
	grad := make([]float64, len(g.Params()))
	if got, _ := g.LogMarginalGrad(g.Params(), grad); math.Abs(got-want) > 1e-10*math.Abs(want) {
		t.Errorf("LogMarginalGrad value %v, want %v", got, want)
	}

	u := 0.4
	if lp, d := GammaPrior(2, 3).LogDensity(u); math.Abs(lp-(2*u-3*math.Exp(u))) > 1e-15 || math.Abs(d-(2-3*math.Exp(u))) > 1e-15 {
		t.Errorf("Gamma prior: %v %v", lp, d)
	}
	if lp, d := LogNormalPrior(0.1, 0.5).LogDensity(u); math.Abs(lp+0.09) > 1e-15 || math.Abs(d+0.6) > 1e-15 {
		t.Errorf("LogNormal prior: %v %v", lp, d)
	}
}
