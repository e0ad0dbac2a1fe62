package kernel

// Gram is a kernel on one fixed set of inputs X, evaluated by index:
// Eval(i, j) is k(X[i], X[j]) and ParamGrad(i, j, dst) is
// k.ParamGrad(X[i], X[j], dst), to the last bit. A GP fit evaluates the
// kernel on the same pairs at hundreds of hyper-parameter values, and a
// Gram lets a kernel do once what does not depend on them: the
// exponentiated overlap finds which categories of each pair agree once per
// fit instead of at every evaluation. The Grams of this package also keep
// each pair's value from Eval for the ParamGrad that a fit asks for next
// at the same parameters (docs/performance.md, "Grams").
//
// A Gram follows its kernel: after SetParams it evaluates at the new
// parameters. It is not safe for concurrent use, because it may keep
// values between calls.
type Gram interface {
	Eval(i, j int) float64
	// ParamGrad's dst has the kernel's NumParams() elements.
	ParamGrad(i, j int, dst []float64) float64
}

// Binder is implemented by kernels that have a Gram of their own.
type Binder interface {
	// Bind returns the kernel on the inputs X, which must not change
	// while the Gram is used.
	Bind(X [][]float64) Gram
}

// Bind returns k on the inputs X: k's own Gram if k is a Binder, else one
// that calls k on X[i] and X[j].
func Bind(k Kernel, X [][]float64) Gram {
	if b, ok := k.(Binder); ok {
		return b.Bind(X)
	}
	return pairs{k, X}
}

// pairs is the Gram of a kernel without one of its own.
type pairs struct {
	k Kernel
	x [][]float64
}

func (p pairs) Eval(i, j int) float64 { return p.k.Eval(p.x[i], p.x[j]) }

func (p pairs) ParamGrad(i, j int, dst []float64) float64 {
	return p.k.ParamGrad(p.x[i], p.x[j], dst)
}

// pair returns the index of the unordered pair {i, j} in a triangle of
// pairs i ≥ j.
func pair(i, j int) int {
	if i < j {
		i, j = j, i
	}
	return i*(i+1)/2 + j
}

// kept holds a value of type T per pair of a Gram, each valid for the
// kernel's parameters of one generation (a kernel counts the changes of
// its parameters): what Eval computed, for the ParamGrad at the same
// parameters that a GP fit asks for next.
type kept[T any] struct {
	val []T
	gen []uint64
}

func newKept[T any](n int) kept[T] {
	pairs := n * (n + 1) / 2
	return kept[T]{val: make([]T, pairs), gen: make([]uint64, pairs)}
}

// get returns the value of pair p if it was kept at generation gen, which
// counts from 1.
func (k *kept[T]) get(p int, gen uint64) (T, bool) { return k.val[p], k.gen[p] == gen }

func (k *kept[T]) put(p int, gen uint64, v T) { k.val[p], k.gen[p] = v, gen }
