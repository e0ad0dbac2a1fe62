package acq

import "math"

// testModel is a smooth analytic stand-in for a GP posterior:
//
//	μ(x)  = Σ_i sin(1.3x_i + 0.2i) + ½x_i² + shift
//	σ²(x) = v0 + v1·exp(−‖x − c‖²), c_i = 0.3 + 0.1i
//
// with exact gradients, so acquisition gradients can be checked against
// finite differences.
type testModel struct {
	shift, v0, v1 float64
}

func (m testModel) Predict(x []float64) (float64, float64) {
	return m.PredictGrad(x, nil, nil)
}

func (m testModel) PredictGrad(x, dmean, dvar []float64) (float64, float64) {
	mu, r2 := m.shift, 0.0
	for i, xi := range x {
		mu += math.Sin(1.3*xi+0.2*float64(i)) + 0.5*xi*xi
		c := xi - (0.3 + 0.1*float64(i))
		r2 += c * c
	}
	e := math.Exp(-r2)
	for i, xi := range x {
		if dmean != nil {
			dmean[i] = 1.3*math.Cos(1.3*xi+0.2*float64(i)) + xi
		}
		if dvar != nil {
			dvar[i] = -2 * (xi - (0.3 + 0.1*float64(i))) * m.v1 * e
		}
	}
	return mu, m.v0 + m.v1*e
}

// constModel has a fixed mean and variance everywhere.
type constModel struct{ mu, v float64 }

func (m constModel) Predict([]float64) (float64, float64) { return m.mu, m.v }

func (m constModel) PredictGrad(x, dmean, dvar []float64) (float64, float64) {
	for i := range x {
		dmean[i], dvar[i] = 0, 0
	}
	return m.mu, m.v
}
