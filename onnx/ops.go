package onnx

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// opFunc computes a node's outputs from its inputs; an omitted optional
// input is nil.
type opFunc func(m *Model, n *node, in []*Tensor) ([]*Tensor, error)

// ops are the supported op types, with their semantics as in ONNX's
// Operators.md for operator sets up to 13 (the YAHPO surrogates'), earlier
// attribute forms of Slice and Unsqueeze included. They are exactly the
// ops of YAHPO Gym's surrogates (spec peers-and-benchmarks §3).
var ops map[string]opFunc

func init() {
	ops = map[string]opFunc{
		"Constant":           constant,
		"Gather":             gather,
		"Concat":             concat,
		"Add":                arith(func(a, b float32) float32 { return a + b }, func(a, b int64) (int64, error) { return a + b, nil }),
		"Sub":                arith(func(a, b float32) float32 { return a - b }, func(a, b int64) (int64, error) { return a - b, nil }),
		"Mul":                arith(func(a, b float32) float32 { return a * b }, func(a, b int64) (int64, error) { return a * b, nil }),
		"Div":                arith(func(a, b float32) float32 { return a / b }, intDiv),
		"Neg":                unary(func(x float32) float32 { return -x }, func(x int64) int64 { return -x }),
		"Relu":               unary(func(x float32) float32 { return max(x, 0) }, func(x int64) int64 { return max(x, 0) }),
		"Log":                unary(f64(math.Log), nil),
		"Exp":                unary(f64(math.Exp), nil),
		"Round":              unary(f64(math.RoundToEven), nil), // ONNX rounds halves to even
		"Sigmoid":            unary(sigmoid, nil),
		"Cast":               cast,
		"Shape":              shape,
		"Unsqueeze":          unsqueeze,
		"Slice":              slice,
		"Gemm":               gemm,
		"BatchNormalization": batchNorm,
	}
}

// f64 lifts a float64 function to float32 elements: computing in float64
// and rounding once is at least as accurate as a float32 library.
func f64(f func(float64) float64) func(float32) float32 {
	return func(x float32) float32 { return float32(f(float64(x))) }
}

// sigmoid is 1/(1+e^−x), written so that neither branch overflows.
func sigmoid(x float32) float32 {
	if x >= 0 {
		return float32(1 / (1 + math.Exp(-float64(x))))
	}
	e := math.Exp(float64(x))
	return float32(e / (1 + e))
}

// intDiv truncates toward zero, as C and onnxruntime do.
func intDiv(a, b int64) (int64, error) {
	if b == 0 {
		return 0, errors.New("integer division by zero")
	}
	return a / b, nil
}

// attrInt returns an integer attribute, or def when the node lacks it.
func (n *node) attrInt(name string, def int64) int64 {
	if a, ok := n.attrs[name]; ok {
		return a.i
	}
	return def
}

// attrFloat returns a float attribute, or def when the node lacks it.
func (n *node) attrFloat(name string, def float32) float32 {
	if a, ok := n.attrs[name]; ok {
		return a.f
	}
	return def
}

// arity checks the number of inputs, lo to hi, counting omitted trailing
// optional ones as absent.
func arity(in []*Tensor, lo, hi int) error {
	n := len(in)
	for n > 0 && in[n-1] == nil {
		n--
	}
	if n < lo || n > hi {
		if lo == hi {
			return fmt.Errorf("takes %d inputs, got %d", lo, n)
		}
		return fmt.Errorf("takes %d to %d inputs, got %d", lo, hi, n)
	}
	for i := range lo {
		if in[i] == nil {
			return fmt.Errorf("input %d is required", i+1)
		}
	}
	return nil
}

// axis resolves a possibly negative axis against a rank.
func axis(a int64, rank int) (int, error) {
	if a < -int64(rank) || a >= int64(rank) {
		return 0, fmt.Errorf("axis %d out of range for rank %d", a, rank)
	}
	if a < 0 {
		a += int64(rank)
	}
	return int(a), nil
}

func constant(_ *Model, n *node, in []*Tensor) ([]*Tensor, error) {
	if err := arity(in, 0, 0); err != nil {
		return nil, err
	}
	if a, ok := n.attrs["value"]; ok && a.t != nil {
		return []*Tensor{a.t}, nil
	}
	if a, ok := n.attrs["value_float"]; ok {
		return []*Tensor{NewFloat32(nil, []float32{a.f})}, nil
	}
	if a, ok := n.attrs["value_floats"]; ok {
		return []*Tensor{NewFloat32([]int{len(a.floats)}, a.floats)}, nil
	}
	if a, ok := n.attrs["value_int"]; ok {
		return []*Tensor{NewInt64(nil, []int64{a.i})}, nil
	}
	if a, ok := n.attrs["value_ints"]; ok {
		return []*Tensor{NewInt64([]int{len(a.ints)}, a.ints)}, nil
	}
	return nil, errors.New("no value, value_float(s) or value_int(s) attribute (sparse and string constants are not supported)")
}

// take returns a tensor of t's type and the given shape whose element i
// is t's element idx[i]: the structural ops reduce to it.
func (t *Tensor) take(shape []int, idx []int) *Tensor {
	out := &Tensor{Type: t.Type, Shape: shape}
	if t.Type == Float32 {
		out.Float = make([]float32, len(idx))
		for i, j := range idx {
			out.Float[i] = t.Float[j]
		}
	} else {
		out.Int = make([]int64, len(idx))
		for i, j := range idx {
			out.Int[i] = t.Int[j]
		}
	}
	return out
}

// gather picks entries of data along axis: the output's shape is
// data.shape[:axis] ++ indices.shape ++ data.shape[axis+1:]. Negative
// indices count from the end.
func gather(_ *Model, n *node, in []*Tensor) ([]*Tensor, error) {
	if err := arity(in, 2, 2); err != nil {
		return nil, err
	}
	data, indices := in[0], in[1]
	ax, err := axis(n.attrInt("axis", 0), len(data.Shape))
	if err != nil {
		return nil, err
	}
	ind, err := indices.ints("indices")
	if err != nil {
		return nil, err
	}
	outer := size(data.Shape[:ax])
	dim := data.Shape[ax]
	inner := size(data.Shape[ax+1:])
	shape := slices.Concat(data.Shape[:ax], indices.Shape, data.Shape[ax+1:])
	idx := make([]int, 0, size(shape))
	for o := range outer {
		for _, k := range ind {
			if k < -int64(dim) || k >= int64(dim) {
				return nil, fmt.Errorf("index %d out of range for dimension %d", k, dim)
			}
			if k < 0 {
				k += int64(dim)
			}
			base := (o*dim + int(k)) * inner
			for i := range inner {
				idx = append(idx, base+i)
			}
		}
	}
	return []*Tensor{data.take(shape, idx)}, nil
}

// concat joins its inputs along axis; all other dimensions must agree.
func concat(_ *Model, n *node, in []*Tensor) ([]*Tensor, error) {
	if len(in) == 0 || slices.Contains(in, nil) {
		return nil, errors.New("needs one or more inputs")
	}
	first := in[0]
	ax, err := axis(n.attrInt("axis", 0), len(first.Shape))
	if err != nil {
		return nil, err
	}
	shape := slices.Clone(first.Shape)
	shape[ax] = 0
	for i, t := range in {
		if t.Type != first.Type || len(t.Shape) != len(first.Shape) {
			return nil, fmt.Errorf("input %d is %s%v, input 1 %s%v", i+1, t.Type, t.Shape, first.Type, first.Shape)
		}
		for d := range shape {
			if d != ax && t.Shape[d] != first.Shape[d] {
				return nil, fmt.Errorf("input %d has shape %v, input 1 %v: they differ off axis %d", i+1, t.Shape, first.Shape, ax)
			}
		}
		shape[ax] += t.Shape[ax]
	}
	out := newTensor(first.Type, shape)
	outer := size(shape[:ax])
	inner := size(shape[ax+1:])
	pos := 0
	for o := range outer {
		for _, t := range in {
			w := t.Shape[ax] * inner
			if t.Type == Float32 {
				pos += copy(out.Float[pos:], t.Float[o*w:(o+1)*w])
			} else {
				pos += copy(out.Int[pos:], t.Int[o*w:(o+1)*w])
			}
		}
	}
	return []*Tensor{out}, nil
}

// broadcastShape is the multidirectional (NumPy) broadcast of two shapes.
func broadcastShape(a, b []int) ([]int, error) {
	r := max(len(a), len(b))
	out := make([]int, r)
	for i := range r {
		da, db := 1, 1
		if j := i - (r - len(a)); j >= 0 {
			da = a[j]
		}
		if j := i - (r - len(b)); j >= 0 {
			db = b[j]
		}
		switch {
		case da == db, db == 1:
			out[i] = da
		case da == 1:
			out[i] = db
		default:
			return nil, fmt.Errorf("shapes %v and %v do not broadcast", a, b)
		}
	}
	return out, nil
}

// broadcastIndex maps each element of a tensor of shape out to the
// element of a tensor of shape s, broadcast to out, that it reads.
func broadcastIndex(s, out []int) []int {
	r := len(out)
	strides := make([]int, r) // 0 along broadcast dimensions
	st := 1
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] != 1 {
			strides[i+r-len(s)] = st
		}
		st *= s[i]
	}
	idx := make([]int, size(out))
	ctr := make([]int, r)
	off := 0
	for k := range idx {
		idx[k] = off
		for d := r - 1; d >= 0; d-- { // odometer increment
			ctr[d]++
			off += strides[d]
			if ctr[d] < out[d] {
				break
			}
			off -= ctr[d] * strides[d]
			ctr[d] = 0
		}
	}
	return idx
}

// arith builds an element-wise op with broadcasting; both inputs must
// have the same type, as ONNX requires.
func arith(f func(a, b float32) float32, g func(a, b int64) (int64, error)) opFunc {
	return func(_ *Model, _ *node, in []*Tensor) ([]*Tensor, error) {
		if err := arity(in, 2, 2); err != nil {
			return nil, err
		}
		a, b := in[0], in[1]
		if a.Type != b.Type {
			return nil, fmt.Errorf("inputs of types %s and %s", a.Type, b.Type)
		}
		shape, err := broadcastShape(a.Shape, b.Shape)
		if err != nil {
			return nil, err
		}
		var ia, ib indexMap // nil: the identity
		if !slices.Equal(a.Shape, shape) {
			ia = broadcastIndex(a.Shape, shape)
		}
		if !slices.Equal(b.Shape, shape) {
			ib = broadcastIndex(b.Shape, shape)
		}
		out := newTensor(a.Type, shape)
		if a.Type == Float32 {
			for i := range out.Float {
				out.Float[i] = f(a.Float[ia.at(i)], b.Float[ib.at(i)])
			}
			return []*Tensor{out}, nil
		}
		for i := range out.Int {
			if out.Int[i], err = g(a.Int[ia.at(i)], b.Int[ib.at(i)]); err != nil {
				return nil, err
			}
		}
		return []*Tensor{out}, nil
	}
}

// indexMap is an element map; nil means the identity, which spares the
// common same-shape case a table.
type indexMap []int

func (m indexMap) at(i int) int {
	if m == nil {
		return i
	}
	return m[i]
}

// unary builds an element-wise op; g nil means the op is defined on
// floats only.
func unary(f func(float32) float32, g func(int64) int64) opFunc {
	return func(_ *Model, _ *node, in []*Tensor) ([]*Tensor, error) {
		if err := arity(in, 1, 1); err != nil {
			return nil, err
		}
		x := in[0]
		out := newTensor(x.Type, x.Shape)
		switch {
		case x.Type == Float32:
			for i, v := range x.Float {
				out.Float[i] = f(v)
			}
		case g != nil:
			for i, v := range x.Int {
				out.Int[i] = g(v)
			}
		default:
			return nil, fmt.Errorf("not defined on %s", x.Type)
		}
		return []*Tensor{out}, nil
	}
}

// cast converts between the supported types: float to integer truncates
// toward zero and int64 to int32 wraps, as C casts (and onnxruntime) do.
func cast(_ *Model, n *node, in []*Tensor) ([]*Tensor, error) {
	if err := arity(in, 1, 1); err != nil {
		return nil, err
	}
	x, to := in[0], DType(n.attrInt("to", 0))
	if to != Float32 && to != Int32 && to != Int64 {
		return nil, fmt.Errorf("cast to %s is not supported", to)
	}
	out := newTensor(to, x.Shape)
	switch {
	case x.Type == to:
		return []*Tensor{x}, nil
	case to == Float32:
		for i, v := range x.Int {
			out.Float[i] = float32(v)
		}
	case x.Type == Float32:
		for i, v := range x.Float {
			out.Int[i] = int64(v)
			if to == Int32 {
				out.Int[i] = int64(int32(v))
			}
		}
	default: // between the integer types
		for i, v := range x.Int {
			out.Int[i] = v
			if to == Int32 {
				out.Int[i] = int64(int32(v))
			}
		}
	}
	return []*Tensor{out}, nil
}

// shape returns the input's shape as a 1-D int64 tensor, cut to
// [start, end) as opset 15 allows.
func shape(_ *Model, n *node, in []*Tensor) ([]*Tensor, error) {
	if err := arity(in, 1, 1); err != nil {
		return nil, err
	}
	r := int64(len(in[0].Shape))
	clampEnd := func(v int64) int64 {
		if v < 0 {
			v += r
		}
		return min(max(v, 0), r)
	}
	start, end := clampEnd(n.attrInt("start", 0)), clampEnd(n.attrInt("end", r))
	var dims []int64
	for _, d := range in[0].Shape[start:max(start, end)] {
		dims = append(dims, int64(d))
	}
	return []*Tensor{NewInt64([]int{len(dims)}, dims)}, nil
}

// unsqueeze inserts dimensions of size 1 at the given axes of the output;
// from opset 13 the axes are an input, before it an attribute.
func unsqueeze(_ *Model, n *node, in []*Tensor) ([]*Tensor, error) {
	if err := arity(in, 1, 2); err != nil {
		return nil, err
	}
	var axes []int64
	if len(in) > 1 && in[1] != nil {
		var err error
		if axes, err = in[1].ints("axes"); err != nil {
			return nil, err
		}
	} else if a, ok := n.attrs["axes"]; ok {
		axes = a.ints
	} else {
		return nil, errors.New("no axes")
	}
	x := in[0]
	r := len(x.Shape) + len(axes)
	ones := make([]bool, r)
	for _, a := range axes {
		ax, err := axis(a, r)
		if err != nil {
			return nil, err
		}
		if ones[ax] {
			return nil, fmt.Errorf("axis %d given twice", a)
		}
		ones[ax] = true
	}
	shape := make([]int, 0, r)
	rest := x.Shape
	for _, one := range ones {
		if one {
			shape = append(shape, 1)
		} else {
			shape = append(shape, rest[0])
			rest = rest[1:]
		}
	}
	return []*Tensor{{Type: x.Type, Shape: shape, Float: x.Float, Int: x.Int}}, nil
}

// slice cuts x along some axes: from opset 10 starts, ends, axes and steps
// are inputs, before it attributes (without steps). Out-of-range starts
// and ends are clamped as Operators.md specifies, so INT64_MAX means "to
// the end".
func slice(m *Model, n *node, in []*Tensor) ([]*Tensor, error) {
	var starts, ends, axes, steps []int64
	if _, ok := n.attrs["starts"]; ok {
		if err := arity(in, 1, 1); err != nil {
			return nil, err
		}
		starts, ends = n.attrs["starts"].ints, n.attrs["ends"].ints
		if a, ok := n.attrs["axes"]; ok {
			axes = a.ints
		}
	} else {
		if err := arity(in, 3, 5); err != nil {
			return nil, err
		}
		lists := []*[]int64{&starts, &ends, &axes, &steps}
		for i, name := range []string{"starts", "ends", "axes", "steps"} {
			if i+1 < len(in) && in[i+1] != nil {
				v, err := in[i+1].ints(name)
				if err != nil {
					return nil, err
				}
				*lists[i] = v
			}
		}
	}
	x := in[0]
	r := len(x.Shape)
	if len(ends) != len(starts) {
		return nil, fmt.Errorf("%d starts but %d ends", len(starts), len(ends))
	}
	if axes == nil {
		for i := range starts {
			axes = append(axes, int64(i))
		}
	}
	if steps == nil {
		steps = slices.Repeat([]int64{1}, len(starts))
	}
	if len(axes) != len(starts) || len(steps) != len(starts) {
		return nil, fmt.Errorf("%d starts, %d axes and %d steps", len(starts), len(axes), len(steps))
	}
	// Per axis: first index, step and count; untouched axes keep all.
	first := make([]int, r)
	step := slices.Repeat([]int{1}, r)
	shape := slices.Clone(x.Shape)
	seen := make([]bool, r)
	for i, a := range axes {
		ax, err := axis(a, r)
		if err != nil {
			return nil, err
		}
		if seen[ax] {
			return nil, fmt.Errorf("axis %d given twice", a)
		}
		seen[ax] = true
		if steps[i] == 0 {
			return nil, errors.New("a step is 0")
		}
		d := int64(x.Shape[ax])
		s, e, st := starts[i], ends[i], steps[i]
		if s < 0 {
			s += d
		}
		if e < 0 {
			e += d
		}
		var cnt int64
		if st > 0 {
			s, e = min(max(s, 0), d), min(max(e, 0), d)
			cnt = max(0, (e-s+st-1)/st)
		} else {
			s, e = min(max(s, 0), d-1), min(max(e, -1), d-1)
			cnt = max(0, (s-e-st-1)/(-st))
		}
		first[ax], step[ax], shape[ax] = int(s), int(st), int(cnt)
	}
	strides := make([]int, r)
	st := 1
	for d := r - 1; d >= 0; d-- {
		strides[d] = st
		st *= x.Shape[d]
	}
	idx := make([]int, size(shape))
	if len(idx) > 0 {
		ctr := make([]int, r)
		off := 0
		for d := range r {
			off += first[d] * strides[d]
		}
		for k := range idx {
			idx[k] = off
			for d := r - 1; d >= 0; d-- {
				ctr[d]++
				off += step[d] * strides[d]
				if ctr[d] < shape[d] {
					break
				}
				off -= ctr[d] * step[d] * strides[d]
				ctr[d] = 0
			}
		}
	}
	return []*Tensor{x.take(shape, idx)}, nil
}

// gemm is Y = alpha·A'·B' + beta·C with A' = A or Aᵀ, B' = B or Bᵀ (2-D)
// and C broadcast to Y's shape. Sums run in float32 in the order of the
// inner index, the same for every row whatever the batch (see the package
// documentation).
func gemm(_ *Model, n *node, in []*Tensor) ([]*Tensor, error) {
	if err := arity(in, 2, 3); err != nil {
		return nil, err
	}
	a, b := in[0], in[1]
	for i, t := range in {
		if t != nil && t.Type != Float32 {
			return nil, fmt.Errorf("input %d is %s; only float32 is supported", i+1, t.Type)
		}
	}
	if len(a.Shape) != 2 || len(b.Shape) != 2 {
		return nil, fmt.Errorf("A and B must be matrices, got shapes %v and %v", a.Shape, b.Shape)
	}
	alpha, beta := n.attrFloat("alpha", 1), n.attrFloat("beta", 1)
	if n.attrInt("transA", 0) != 0 {
		a = transpose(a)
	}
	transB := n.attrInt("transB", 0) != 0
	M, K := a.Shape[0], a.Shape[1]
	N, kb := b.Shape[1], b.Shape[0]
	if transB {
		N, kb = b.Shape[0], b.Shape[1]
	}
	if kb != K {
		return nil, fmt.Errorf("A' has %d columns but B' has %d rows", K, kb)
	}
	y := newTensor(Float32, []int{M, N})
	if transB {
		gemmTransB(a.Float, b.Float, y.Float, M, N, K, alpha)
	} else {
		for i := range M {
			yi := y.Float[i*N : (i+1)*N]
			for k, av := range a.Float[i*K : (i+1)*K] { // accumulate rows of B
				av *= alpha
				for j, bv := range b.Float[k*N : (k+1)*N] {
					yi[j] += av * bv
				}
			}
		}
	}
	if c := in2(in); c != nil && beta != 0 {
		shape, err := broadcastShape(c.Shape, y.Shape)
		if err != nil || !slices.Equal(shape, y.Shape) {
			return nil, fmt.Errorf("C of shape %v does not broadcast to %v", c.Shape, y.Shape)
		}
		ic := broadcastIndex(c.Shape, y.Shape)
		for i := range y.Float {
			y.Float[i] += beta * c.Float[ic[i]]
		}
	}
	return []*Tensor{y}, nil
}

// in2 returns the optional third input, nil when absent.
func in2(in []*Tensor) *Tensor {
	if len(in) > 2 {
		return in[2]
	}
	return nil
}

// gemmTransB sets y = alpha·a·bᵀ for a M×K, b N×K, y M×N. Rows of b are
// columns of bᵀ, so every sum is over two contiguous rows; four rows of a
// share each row of b, which quarters the reads of b (the weights, far
// larger than a batch's activations) and gives four independent sums.
func gemmTransB(a, b, y []float32, M, N, K int, alpha float32) {
	i := 0
	for ; i+4 <= M; i += 4 {
		a0, a1, a2, a3 := a[i*K:(i+1)*K], a[(i+1)*K:(i+2)*K], a[(i+2)*K:(i+3)*K], a[(i+3)*K:(i+4)*K]
		for j := range N {
			bj := b[j*K : (j+1)*K]
			a0, a1, a2, a3 := a0[:len(bj)], a1[:len(bj)], a2[:len(bj)], a3[:len(bj)] // no bounds checks below
			var s0, s1, s2, s3 float32
			for k, w := range bj {
				s0 += a0[k] * w
				s1 += a1[k] * w
				s2 += a2[k] * w
				s3 += a3[k] * w
			}
			y[i*N+j], y[(i+1)*N+j], y[(i+2)*N+j], y[(i+3)*N+j] = alpha*s0, alpha*s1, alpha*s2, alpha*s3
		}
	}
	for ; i < M; i++ {
		ai := a[i*K : (i+1)*K]
		for j := range N {
			bj := b[j*K : (j+1)*K]
			ai := ai[:len(bj)]
			var s float32
			for k, w := range bj {
				s += ai[k] * w
			}
			y[i*N+j] = alpha * s
		}
	}
}

// transpose returns the transpose of a float32 matrix.
func transpose(a *Tensor) *Tensor {
	r, c := a.Shape[0], a.Shape[1]
	t := newTensor(Float32, []int{c, r})
	for i := range r {
		for j := range c {
			t.Float[j*r+i] = a.Float[i*c+j]
		}
	}
	return t
}

// batchNorm is inference-mode batch normalisation over channel axis 1:
// Y = (X − mean)/√(var + ε)·scale + B with the stored statistics. The
// training form (running statistics as outputs) is not supported.
func batchNorm(_ *Model, n *node, in []*Tensor) ([]*Tensor, error) {
	if err := arity(in, 5, 5); err != nil {
		return nil, err
	}
	if n.attrInt("training_mode", 0) != 0 || slices.ContainsFunc(n.out[1:], func(s string) bool { return s != "" }) {
		return nil, errors.New("training mode (running statistics as outputs) is not supported")
	}
	x := in[0]
	if x.Type != Float32 || len(x.Shape) < 2 {
		return nil, fmt.Errorf("X must be float32 of rank ≥ 2, got %s%v", x.Type, x.Shape)
	}
	c := x.Shape[1]
	for i, t := range in[1:] {
		if t.Type != Float32 || len(t.Shape) != 1 || t.Shape[0] != c {
			return nil, fmt.Errorf("input %d is %s%v, want float32[%d]", i+2, t.Type, t.Shape, c)
		}
	}
	eps := float64(n.attrFloat("epsilon", 1e-5))
	// Fold into Y = X·g + h per channel, g = scale/√(var+ε), h = B − mean·g.
	g, h := make([]float32, c), make([]float32, c)
	for k := range c {
		g[k] = float32(float64(in[1].Float[k]) / math.Sqrt(float64(in[4].Float[k])+eps))
		h[k] = in[2].Float[k] - in[3].Float[k]*g[k]
	}
	inner := size(x.Shape[2:])
	y := newTensor(Float32, x.Shape)
	for i, v := range x.Float {
		k := i / inner % c
		y.Float[i] = v*g[k] + h[k]
	}
	return []*Tensor{y}, nil
}
