package kernel

// Indexed is a kernel on objects that are not vectors (graphs: the WL
// kernel of package graph), known by their index: an input is a row of
// one element, the object's index, and k(x, y) = F(x[0], y[0]). The GP,
// which knows inputs only as rows, then fits and predicts on such objects
// unchanged, as scikit-learn's kernel="precomputed" does, and evaluates F
// only for the pairs it needs (the training pairs and each candidate
// with the training rows and itself, never candidate pairs). It has no
// hyper-parameters and no input gradient.
type Indexed struct{ F func(i, j int) float64 }

func (Indexed) NumParams() int                 { return 0 }
func (Indexed) Params(dst []float64) []float64 { return resize(dst, 0) }
func (Indexed) SetParams(p []float64) {
	if len(p) != 0 {
		panic("kernel: Indexed has no parameters")
	}
}
func (Indexed) Bounds() []Bound { return nil }

// Dim is 1: the input is an index.
func (Indexed) Dim() int { return 1 }

// Eval returns F(x[0], y[0]).
func (k Indexed) Eval(x, y []float64) float64 { return k.F(int(x[0]), int(y[0])) }

// ParamGrad returns k(x, y); there are no parameters.
func (k Indexed) ParamGrad(x, y, _ []float64) float64 { return k.Eval(x, y) }

// InputGrad panics: an index has no gradient.
func (Indexed) InputGrad(_, _, _ []float64) float64 {
	panic("kernel: Indexed has no input gradient")
}

// Clone returns k; F must not depend on state that changes.
func (k Indexed) Clone() Kernel { return k }
