package kernel

import "gonum.org/v1/gonum/mat"

// Precomputed is a kernel given by its matrix, for inputs that are not
// vectors (graphs: the WL kernel of package graph). An input is a row of
// one element, the index of its row in K, so that the GP, which knows
// inputs only as rows, fits and predicts on such objects unchanged (as
// scikit-learn's kernel="precomputed"). It has no hyper-parameters and no
// input gradient.
type Precomputed struct{ K *mat.SymDense }

func (Precomputed) NumParams() int                 { return 0 }
func (Precomputed) Params(dst []float64) []float64 { return dst[:0] }
func (Precomputed) SetParams(p []float64) {
	if len(p) != 0 {
		panic("kernel: Precomputed has no parameters")
	}
}
func (Precomputed) Bounds() []Bound { return nil }

// Dim is 1: the input is an index.
func (Precomputed) Dim() int { return 1 }

// Eval returns K[x[0], y[0]].
func (p Precomputed) Eval(x, y []float64) float64 { return p.K.At(int(x[0]), int(y[0])) }

// ParamGrad returns k(x, y); there are no parameters.
func (p Precomputed) ParamGrad(x, y, _ []float64) float64 { return p.Eval(x, y) }

// InputGrad panics: an index has no gradient.
func (Precomputed) InputGrad(_, _, _ []float64) float64 {
	panic("kernel: Precomputed has no input gradient")
}

// Clone returns p; K is shared, never written.
func (p Precomputed) Clone() Kernel { return p }
