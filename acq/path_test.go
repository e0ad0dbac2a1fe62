package acq

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
)

// bowl is a SamplePath with a known minimiser c: f(x) = Σ (x_i − c_i)² +
// 0.1 Σ sin(3x_i)·(x_i − c_i)², minimum 0 at c.
type bowl struct{ c []float64 }

func (b bowl) Eval(x []float64) float64 { return b.Grad(x, nil) }

func (b bowl) Grad(x, grad []float64) float64 {
	var f float64
	for i, xi := range x {
		u := xi - b.c[i]
		w := 1 + 0.1*math.Sin(3*xi)
		f += w * u * u
		if grad != nil {
			grad[i] = 2*w*u + 0.3*math.Cos(3*xi)*u*u
		}
	}
	return f
}

// MinimizePath refines beyond a coarse candidate grid to the minimiser, stays
// in the box when the minimiser is outside it, and reports bad input.
func TestMinimizePath(t *testing.T) {
	var grid [][]float64
	for i := range 5 {
		for j := range 5 {
			grid = append(grid, []float64{float64(i) / 4, float64(j) / 4})
		}
	}
	lo, hi := []float64{0, 0}, []float64{1, 1}
	x, f, err := MinimizePath(bowl{[]float64{0.37, 0.61}}, grid, lo, hi, 0)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(x[0]-0.37) > 1e-4 || math.Abs(x[1]-0.61) > 1e-4 || f > 1e-8 {
		t.Errorf("minimiser %v value %g, want (0.37, 0.61) and 0", x, f)
	}
	x, _, err = MinimizePath(bowl{[]float64{1.3, 0.2}}, grid, lo, hi, 1)
	if err != nil {
		t.Fatal(err)
	}
	if x[0] != 1 || math.Abs(x[1]-0.2) > 1e-4 {
		t.Errorf("minimiser %v, want (1, 0.2) on the boundary", x)
	}
	if _, _, err := MinimizePath(bowl{[]float64{0.5, 0.5}}, [][]float64{{0.5}}, lo, hi, 0); err == nil {
		t.Error("a candidate of the wrong dimension was accepted")
	}
	if _, _, err := MinimizePath(nanPath{}, grid, lo, hi, 0); err == nil {
		t.Error("a path that is NaN everywhere gave no error")
	}
}

type nanPath struct{}

func (nanPath) Eval([]float64) float64      { return math.NaN() }
func (nanPath) Grad(_, _ []float64) float64 { return math.NaN() }

// Thompson sampling by RFF paths on a 2-D GP whose posterior is sharp (40
// nearly noise-free observations of a bowl with minimiser (0.3, 0.7)):
// every draw lands within 0.02 of the posterior mean's minimiser, and each
// path's minimum (PathMinima) is its value at that point, below all its
// candidate values.
func TestThompsonPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	X, y := make([][]float64, 40), make([]float64, 40)
	for i := range X {
		X[i] = []float64{rng.Float64(), rng.Float64()}
		y[i] = 20 * ((X[i][0]-0.3)*(X[i][0]-0.3) + (X[i][1]-0.7)*(X[i][1]-0.7))
	}
	k := kernel.NewStationary(kernel.RBF, 2, true)
	k.SetLengthscales([]float64{0.5, 0.5})
	k.SetVariance(2)
	g, err := gp.New(X, y, k, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := []float64{0, 0}, []float64{1, 1}
	cands := make([][]float64, 500)
	for i := range cands {
		cands[i] = randPoint(2, rng)
	}
	meanPath := meanOf{g}
	xm, _, err := MinimizePath(meanPath, cands, lo, hi, 0)
	if err != nil {
		t.Fatal(err)
	}
	var paths []SamplePath
	for range 8 {
		p, err := g.SamplePath(0, rng)
		if err != nil {
			t.Fatal(err)
		}
		x, err := ThompsonPath(p, cands, lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		d := math.Hypot(x[0]-xm[0], x[1]-xm[1])
		if d > 0.02 { // the draws measured were within 0.006
			t.Errorf("Thompson draw %v is %.3f from the posterior minimiser %v", x, d, xm)
		}
		paths = append(paths, p)
	}
	mins, err := PathMinima(paths, cands, lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	for k, p := range paths {
		x, _ := ThompsonPath(p, cands, lo, hi)
		if math.Abs(mins[k]-p.Eval(x)) > 1e-12 {
			t.Errorf("path %d: minimum %v, value at its minimiser %v", k, mins[k], p.Eval(x))
		}
		for _, c := range cands {
			if p.Eval(c) < mins[k] {
				t.Fatalf("path %d: candidate %v has %v below the minimum %v", k, c, p.Eval(c), mins[k])
			}
		}
	}
}

// meanOf is the posterior mean of a GP as a SamplePath.
type meanOf struct{ g *gp.GP }

func (m meanOf) Eval(x []float64) float64 { mu, _ := m.g.Predict(x); return mu }

func (m meanOf) Grad(x, grad []float64) float64 { return m.g.MeanGrad(x, grad) }
