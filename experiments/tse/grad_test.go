package tse

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGradient compares Backward with central finite differences of the
// mean loss for every parameter of a tiny network: one cell made of each
// op alone, and mixed cells. Ops without parameters are checked through
// the input layer's gradient, which flows through them. Biases start
// random, not zero, so no relu sits exactly at its kink (a dense edge
// reading an all-zero node would otherwise see pre-activation b = 0).
func TestGradient(t *testing.T) {
	archs := map[string]Arch{}
	for o := range numOps {
		archs["all "+o.String()] = Arch{o, o, o, o, o, o}
	}
	archs["mixed"] = Arch{DenseReLU, Identity, DenseTanh, AvgPool, Zero, DenseReLU}
	archs["mixed 2"] = Arch{AvgPool, DenseTanh, Identity, Zero, DenseReLU, AvgPool}
	sh := Shape{In: 7, Width: 5, Classes: 3, Cells: 2, Rows: 4}
	for name, a := range archs {
		r := rand.New(rand.NewPCG(1, 2))
		n := NewNet(a, sh, r)
		for i := range n.params {
			n.params[i] += 0.3 * r.NormFloat64()
		}
		for i := range n.X {
			n.X[i] = r.Float64()
		}
		y := []int{0, 2, 1, 2}
		loss := func() float64 {
			n.Forward(sh.Rows)
			s, _ := n.Loss(y, sh.Rows)
			return s / float64(sh.Rows)
		}
		loss()
		clear(n.grads)
		n.Backward(sh.Rows)
		analytic := append([]float64(nil), n.grads...)
		const h = 1e-6
		worst := 0.0
		for i := range n.params {
			p := n.params[i]
			n.params[i] = p + h
			up := loss()
			n.params[i] = p - h
			down := loss()
			n.params[i] = p
			num := (up - down) / (2 * h)
			err := math.Abs(num-analytic[i]) / math.Max(1e-4, math.Abs(num)+math.Abs(analytic[i]))
			worst = math.Max(worst, err)
			if err > 1e-5 {
				t.Errorf("%s: parameter %d: backprop %.9g, finite difference %.9g", name, i, analytic[i], num)
			}
		}
		t.Logf("%-10s %3d parameters, worst relative error %.2g", name, n.NumParams(), worst)
	}
}
