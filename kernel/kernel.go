package kernel

import "gonum.org/v1/gonum/mat"

// Bound is a closed interval for one log-hyper-parameter.
type Bound struct{ Lo, Hi float64 }

// Kernel is a covariance function whose hyper-parameters are stored and
// optimised as natural logarithms.
//
// Methods panic if slice lengths do not match (programmer error).
type Kernel interface {
	// NumParams returns the number of hyper-parameters.
	NumParams() int
	// Params returns the current log-parameters, appended to dst[:0]
	// (allocating when dst is nil or too short).
	Params(dst []float64) []float64
	// SetParams sets the log-parameters; len(p) must be NumParams().
	SetParams(p []float64)
	// Bounds returns the bounds of the log-parameters, in the order of Params.
	Bounds() []Bound
	// Eval returns k(x, y).
	Eval(x, y []float64) float64
	// ParamGrad returns k(x,y) and writes ∂k/∂(log θ_j) into dst (len NumParams()).
	ParamGrad(x, y, dst []float64) float64
	// InputGrad returns k(x,y) and writes ∂k(x,y)/∂x into dst (len(x)).
	InputGrad(x, y, dst []float64) float64
	// Clone returns a deep copy.
	Clone() Kernel
}

// Matrix returns K(X, X). Only the upper triangle is evaluated.
func Matrix(k Kernel, X [][]float64) *mat.SymDense {
	n := len(X)
	if n == 0 {
		return &mat.SymDense{}
	}
	s := mat.NewSymDense(n, nil)
	raw := s.RawSymmetric()
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+n]
		for j := i; j < n; j++ {
			row[j] = k.Eval(X[i], X[j])
		}
	}
	return s
}

// Cross returns K(X, Y), a len(X)×len(Y) matrix.
func Cross(k Kernel, X, Y [][]float64) *mat.Dense {
	if len(X) == 0 || len(Y) == 0 {
		return &mat.Dense{}
	}
	d := mat.NewDense(len(X), len(Y), nil)
	raw := d.RawMatrix()
	for i, x := range X {
		row := raw.Data[i*raw.Stride : i*raw.Stride+len(Y)]
		for j, y := range Y {
			row[j] = k.Eval(x, y)
		}
	}
	return d
}

// resize returns dst resized to n, allocating when its capacity is too small.
func resize(dst []float64, n int) []float64 {
	if cap(dst) < n {
		return make([]float64, n)
	}
	return dst[:n]
}
