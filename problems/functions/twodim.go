package functions

import "math"

// Two-dimensional classics: Branin, Eggholder, Beale and the six-hump camel.

// newBranin returns the Branin(-Hoo) function [002 Table 3.1]
//
//	f(x) = a(x₂ − b x₁² + c x₁ − r)² + s(1 − t) cos x₁ + s
//
// with a = 1, b = 5.1/(4π²), c = 5/π, r = 6, s = 10, t = 1/(8π) on
// x₁ ∈ [−5, 10], x₂ ∈ [0, 15].
// The minimum is exact: the square vanishes and cos x₁ = −1 at x₁ ∈ {−π, π, 3π},
// leaving f* = s·t = 5/(4π).
func newBranin() Function {
	const (
		a = 1.0
		b = 5.1 / (4 * math.Pi * math.Pi)
		c = 5 / math.Pi
		r = 6.0
		s = 10.0
		t = 1 / (8 * math.Pi)
	)
	return Function{
		Name:    "branin",
		Dim:     2,
		Lower:   []float64{-5, 0},
		Upper:   []float64{10, 15},
		Optimum: 0.39788735772973816, // 5/(4π)
		Minimizers: [][]float64{
			{-math.Pi, 12.275},
			{math.Pi, 2.275},
			{3 * math.Pi, 2.475},
		},
		F: func(x []float64) float64 {
			q := x[1] - b*x[0]*x[0] + c*x[0] - r
			return a*q*q + s*(1-t)*math.Cos(x[0]) + s
		},
	}
}

// newEggholder returns the Eggholder function on [−512, 512]² [002 Table 3.1]
//
//	f(x) = −(x₂ + 47) sin √|x₂ + x₁/2 + 47| − x₁ sin √|x₁ − (x₂ + 47)|.
//
// The minimiser lies on the boundary x₁ = 512 (∂f/∂x₁ < 0 there); x₂ was
// refined by golden-section search along that edge.
func newEggholder() Function {
	return Function{
		Name:       "eggholder",
		Dim:        2,
		Lower:      []float64{-512, -512},
		Upper:      []float64{512, 512},
		Optimum:    -959.6406627208506,
		Minimizers: [][]float64{{512, 404.2318055410942}},
		F: func(x []float64) float64 {
			x1, x2 := x[0], x[1]
			return -(x2+47)*math.Sin(math.Sqrt(math.Abs(x2+x1/2+47))) -
				x1*math.Sin(math.Sqrt(math.Abs(x1-(x2+47))))
		},
	}
}

// newBeale returns Beale's function on [−4.5, 4.5]²
//
//	f(x) = (1.5 − x₁ + x₁x₂)² + (2.25 − x₁ + x₁x₂²)² + (2.625 − x₁ + x₁x₂³)²,
//
// zero at (3, 0.5).
func newBeale() Function {
	return Function{
		Name:       "beale",
		Dim:        2,
		Lower:      []float64{-4.5, -4.5},
		Upper:      []float64{4.5, 4.5},
		Optimum:    0,
		Minimizers: [][]float64{{3, 0.5}},
		F: func(x []float64) float64 {
			x1, x2 := x[0], x[1]
			t1 := 1.5 - x1 + x1*x2
			t2 := 2.25 - x1 + x1*x2*x2
			t3 := 2.625 - x1 + x1*x2*x2*x2
			return t1*t1 + t2*t2 + t3*t3
		},
	}
}

// newCamel6 returns the six-hump camel function on [−3, 3] × [−2, 2]
//
//	f(x) = (4 − 2.1x₁² + x₁⁴/3)x₁² + x₁x₂ + (−4 + 4x₂²)x₂².
//
// f is even under x → −x, so the two global minimisers are mirror images;
// they were refined by Newton iterations from (0.0898, −0.7126).
func newCamel6() Function {
	const m1, m2 = 0.08984201310073184, -0.7126564029511373
	return Function{
		Name:       "camel6",
		Dim:        2,
		Lower:      []float64{-3, -2},
		Upper:      []float64{3, 2},
		Optimum:    -1.0316284534898774,
		Minimizers: [][]float64{{m1, m2}, {-m1, -m2}},
		F: func(x []float64) float64 {
			a, b := x[0], x[1]
			a2, b2 := a*a, b*b
			return (4-2.1*a2+a2*a2/3)*a2 + a*b + (-4+4*b2)*b2
		},
	}
}
