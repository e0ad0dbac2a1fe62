package onnx

import (
	"math"
	"strings"
	"testing"
)

var e32 = float32(math.E)

func TestConstant(t *testing.T) {
	runCases(t, []opCase{
		{name: "tensor", op: "Constant", attrs: []attr{aTensor("value", i64([]int{2}, 3, -4))}, want: i64([]int{2}, 3, -4)},
		{name: "value_float", op: "Constant", attrs: []attr{aFloat("value_float", 1.5)}, want: f32(nil, 1.5)},
		{name: "value_ints", op: "Constant", attrs: []attr{aInts("value_ints", 1, 2)}, want: i64([]int{2}, 1, 2)},
		{name: "no value", op: "Constant", attrs: []attr{aInt("axis", 0)}},
	})
}

func TestGather(t *testing.T) {
	data := f32([]int{3, 2}, 1, 2, 3, 4, 5, 6)
	runCases(t, []opCase{
		{name: "rows, negative index", op: "Gather", in: []*Tensor{data, i64([]int{2}, 2, -3)}, want: f32([]int{2, 2}, 5, 6, 1, 2)},
		{name: "scalar index on axis 1", op: "Gather", attrs: []attr{aInt("axis", 1)}, in: []*Tensor{data, i64(nil, 1)}, want: f32([]int{3}, 2, 4, 6)},
		{name: "int32 indices of rank 2", op: "Gather", in: []*Tensor{i64([]int{4}, 10, 20, 30, 40), NewInt32([]int{2, 1}, []int32{3, 0})}, want: i64([]int{2, 1}, 40, 10)},
		{name: "embedding", op: "Gather", in: []*Tensor{data, NewInt32([]int{2}, []int32{1, 1})}, want: f32([]int{2, 2}, 3, 4, 3, 4)},
		{name: "index out of range", op: "Gather", in: []*Tensor{data, i64(nil, 3)}},
		{name: "float indices", op: "Gather", in: []*Tensor{data, f32(nil, 0)}},
	})
}

func TestConcat(t *testing.T) {
	a, b := f32([]int{2, 1}, 1, 2), f32([]int{2, 2}, 3, 4, 5, 6)
	runCases(t, []opCase{
		{name: "axis 1", op: "Concat", attrs: []attr{aInt("axis", 1)}, in: []*Tensor{a, b}, want: f32([]int{2, 3}, 1, 3, 4, 2, 5, 6)},
		{name: "axis -1", op: "Concat", attrs: []attr{aInt("axis", -1)}, in: []*Tensor{a, b}, want: f32([]int{2, 3}, 1, 3, 4, 2, 5, 6)},
		{name: "axis 0", op: "Concat", attrs: []attr{aInt("axis", 0)}, in: []*Tensor{f32([]int{1, 2}, 1, 2), b}, want: f32([]int{3, 2}, 1, 2, 3, 4, 5, 6)},
		{name: "one input", op: "Concat", attrs: []attr{aInt("axis", 1)}, in: []*Tensor{b}, want: b},
		{name: "int64", op: "Concat", in: []*Tensor{i64([]int{1}, 7), i64([]int{2}, 8, 9)}, want: i64([]int{3}, 7, 8, 9)},
		{name: "shapes differ off the axis", op: "Concat", attrs: []attr{aInt("axis", 0)}, in: []*Tensor{a, b}},
		{name: "types differ", op: "Concat", in: []*Tensor{i64([]int{1}, 7), f32([]int{1}, 8)}},
	})
}

func TestArithmetic(t *testing.T) {
	m23 := f32([]int{2, 3}, 1, 2, 3, 4, 5, 6)
	runCases(t, []opCase{
		{name: "row broadcast", op: "Add", in: []*Tensor{m23, f32([]int{3}, 10, 20, 30)}, want: f32([]int{2, 3}, 11, 22, 33, 14, 25, 36)},
		{name: "scalar right", op: "Sub", in: []*Tensor{m23, f32(nil, 1)}, want: f32([]int{2, 3}, 0, 1, 2, 3, 4, 5)},
		{name: "scalar left", op: "Sub", in: []*Tensor{f32(nil, 10), f32([]int{2}, 1, 2)}, want: f32([]int{2}, 9, 8)},
		{name: "outer broadcast", op: "Mul", in: []*Tensor{f32([]int{2, 1}, 1, 2), f32([]int{1, 3}, 1, 10, 100)}, want: f32([]int{2, 3}, 1, 10, 100, 2, 20, 200)},
		{name: "float division", op: "Div", in: []*Tensor{f32([]int{2}, 1, 3), f32([]int{2}, 2, 4)}, want: f32([]int{2}, 0.5, 0.75)},
		{name: "integer division truncates", op: "Div", in: []*Tensor{i64([]int{4}, 7, -7, 7, -7), i64([]int{4}, 2, 2, -2, -2)}, want: i64([]int{4}, 3, -3, -3, 3)},
		{name: "int Add of shape values", op: "Add", in: []*Tensor{i64([]int{1}, 910), i64([]int{1}, 1)}, want: i64([]int{1}, 911)},
		{name: "int Mul", op: "Mul", in: []*Tensor{i64([]int{1}, 455), i64([]int{1}, 2)}, want: i64([]int{1}, 910)},
		{name: "integer division by zero", op: "Div", in: []*Tensor{i64(nil, 1), i64(nil, 0)}},
		{name: "mixed types", op: "Add", in: []*Tensor{i64(nil, 1), f32(nil, 1)}},
		{name: "shapes do not broadcast", op: "Add", in: []*Tensor{f32([]int{2}, 1, 2), f32([]int{3}, 1, 2, 3)}},
		{name: "one input", op: "Add", in: []*Tensor{f32(nil, 1)}},
	})
}

func TestUnary(t *testing.T) {
	inf := float32(math.Inf(1))
	runCases(t, []opCase{
		{name: "float", op: "Neg", in: []*Tensor{f32([]int{2}, 1, -2)}, want: f32([]int{2}, -1, 2)},
		{name: "int", op: "Neg", in: []*Tensor{i64([]int{1}, 3)}, want: i64([]int{1}, -3)},
		{name: "float", op: "Log", in: []*Tensor{f32([]int{3}, 1, e32, 0)}, want: f32([]int{3}, 0, 1, -inf)},
		{name: "int", op: "Log", in: []*Tensor{i64(nil, 1)}},
		{name: "float", op: "Exp", in: []*Tensor{f32([]int{2}, 0, 1)}, want: f32([]int{2}, 1, e32)},
		{name: "halves to even", op: "Round", in: []*Tensor{f32([]int{7}, 0.5, 1.5, 2.5, -0.5, -1.5, 2.4, 2.6)}, want: f32([]int{7}, 0, 2, 2, 0, -2, 2, 3)},
		{name: "float", op: "Relu", in: []*Tensor{f32([]int{3}, -1, 0, 2)}, want: f32([]int{3}, 0, 0, 2)},
		{name: "int", op: "Relu", in: []*Tensor{i64([]int{2}, -3, 4)}, want: i64([]int{2}, 0, 4)},
		{name: "no overflow", op: "Sigmoid", in: []*Tensor{f32([]int{4}, 0, 100, -100, 2)}, want: f32([]int{4}, 0.5, 1, 0, 0.880797)},
	})
}

func TestCast(t *testing.T) {
	runCases(t, []opCase{
		{name: "float to int64 truncates", op: "Cast", attrs: []attr{aInt("to", 7)}, in: []*Tensor{f32([]int{3}, 1.7, -1.7, 2.5)}, want: i64([]int{3}, 1, -1, 2)},
		{name: "int64 to int32 wraps", op: "Cast", attrs: []attr{aInt("to", 6)}, in: []*Tensor{i64([]int{1}, 3000000000)}, want: NewInt32([]int{1}, []int32{-1294967296})},
		{name: "int32 to float", op: "Cast", attrs: []attr{aInt("to", 1)}, in: []*Tensor{NewInt32([]int{1}, []int32{-5})}, want: f32([]int{1}, -5)},
		{name: "float to float", op: "Cast", attrs: []attr{aInt("to", 1)}, in: []*Tensor{f32(nil, 0.25)}, want: f32(nil, 0.25)},
		{name: "to double", op: "Cast", attrs: []attr{aInt("to", 11)}, in: []*Tensor{f32(nil, 1)}},
	})
}

func TestShape(t *testing.T) {
	x := f32([]int{2, 3, 4}, make([]float32, 24)...)
	runCases(t, []opCase{
		{name: "all", op: "Shape", in: []*Tensor{x}, want: i64([]int{3}, 2, 3, 4)},
		{name: "start 1", opset: 15, op: "Shape", attrs: []attr{aInt("start", 1)}, in: []*Tensor{x}, want: i64([]int{2}, 3, 4)},
		{name: "end -1", opset: 15, op: "Shape", attrs: []attr{aInt("end", -1)}, in: []*Tensor{x}, want: i64([]int{2}, 2, 3)},
		{name: "scalar", op: "Shape", in: []*Tensor{f32(nil, 1)}, want: i64([]int{0})},
	})
}

func TestUnsqueeze(t *testing.T) {
	x := f32([]int{3}, 1, 2, 3)
	runCases(t, []opCase{
		{name: "axes input", op: "Unsqueeze", in: []*Tensor{x, i64([]int{2}, 0, -1)}, want: f32([]int{1, 3, 1}, 1, 2, 3)},
		{name: "scalar to column", op: "Unsqueeze", in: []*Tensor{f32(nil, 4), i64([]int{1}, 0)}, want: f32([]int{1}, 4)},
		{name: "axes attribute (opset 11)", opset: 11, op: "Unsqueeze", attrs: []attr{aInts("axes", 1)}, in: []*Tensor{x}, want: f32([]int{3, 1}, 1, 2, 3)},
		{name: "repeated axis", op: "Unsqueeze", in: []*Tensor{x, i64([]int{2}, 0, 0)}},
		{name: "axis out of range", op: "Unsqueeze", in: []*Tensor{x, i64([]int{1}, 2)}},
	})
}

func TestSlice(t *testing.T) {
	x := f32([]int{2, 4}, 0, 1, 2, 3, 4, 5, 6, 7)
	one := func(v int64) *Tensor { return i64([]int{1}, v) }
	runCases(t, []opCase{
		{name: "columns 1..3", op: "Slice", in: []*Tensor{x, one(1), one(3), one(1)}, want: f32([]int{2, 2}, 1, 2, 5, 6)},
		{name: "to the end, axis -1", op: "Slice", in: []*Tensor{x, one(2), one(math.MaxInt64), one(-1)}, want: f32([]int{2, 2}, 2, 3, 6, 7)},
		{name: "negative step", op: "Slice", in: []*Tensor{x, one(-1), one(math.MinInt64), one(1), one(-2)}, want: f32([]int{2, 2}, 3, 1, 7, 5)},
		{name: "no axes", op: "Slice", in: []*Tensor{x, i64([]int{2}, 0, 1), i64([]int{2}, 1, 4)}, want: f32([]int{1, 3}, 1, 2, 3)},
		{name: "empty", op: "Slice", in: []*Tensor{x, one(3), one(1), one(1)}, want: f32([]int{2, 0})},
		{name: "int64 data", op: "Slice", in: []*Tensor{i64([]int{3}, 9, 8, 7), one(1), one(5)}, want: i64([]int{2}, 8, 7)},
		{name: "attributes (opset 9)", opset: 9, op: "Slice", attrs: []attr{aInts("starts", 1), aInts("ends", 2), aInts("axes", 0)}, in: []*Tensor{x}, want: f32([]int{1, 4}, 4, 5, 6, 7)},
		{name: "step 0", op: "Slice", in: []*Tensor{x, one(0), one(2), one(1), one(0)}},
		{name: "starts and ends differ in length", op: "Slice", in: []*Tensor{x, i64([]int{2}, 0, 0), one(1)}},
	})
}

func TestGemm(t *testing.T) {
	a := f32([]int{2, 3}, 1, 2, 3, 4, 5, 6)
	b := f32([]int{3, 2}, 1, 0, 0, 1, 1, 1)
	ab := f32([]int{2, 2}, 4, 5, 10, 11)
	runCases(t, []opCase{
		{name: "A·B", op: "Gemm", in: []*Tensor{a, b}, want: ab},
		{name: "transB", op: "Gemm", attrs: []attr{aInt("transB", 1)}, in: []*Tensor{a, f32([]int{2, 3}, 1, 0, 1, 0, 1, 1)}, want: ab},
		{name: "transA", op: "Gemm", attrs: []attr{aInt("transA", 1)}, in: []*Tensor{f32([]int{3, 2}, 1, 4, 2, 5, 3, 6), b}, want: ab},
		{name: "alpha, beta, C a row", op: "Gemm", attrs: []attr{aFloat("alpha", 2), aFloat("beta", 0.5)}, in: []*Tensor{a, b, f32([]int{2}, 2, 4)}, want: f32([]int{2, 2}, 9, 12, 21, 24)},
		{name: "C a scalar", op: "Gemm", in: []*Tensor{a, b, f32(nil, 1)}, want: f32([]int{2, 2}, 5, 6, 11, 12)},
		{name: "C a column", op: "Gemm", in: []*Tensor{a, b, f32([]int{2, 1}, 1, 2)}, want: f32([]int{2, 2}, 5, 6, 12, 13)},
		{name: "inner sizes differ", op: "Gemm", in: []*Tensor{a, a}},
		{name: "C too large", op: "Gemm", in: []*Tensor{a, b, f32([]int{3}, 1, 2, 3)}},
	})
}

func TestBatchNormalization(t *testing.T) {
	stats := []*Tensor{f32([]int{2}, 1, 2), f32([]int{2}, 0, 1), f32([]int{2}, 1, 2), f32([]int{2}, 4, 0.25)}
	eps0 := []attr{aFloat("epsilon", 0)}
	// Channel 0: (x−1)/2; channel 1: (x−2)/0.5·2 + 1.
	runCases(t, []opCase{
		{name: "N×C", op: "BatchNormalization", attrs: eps0, in: append([]*Tensor{f32([]int{2, 2}, 1, 2, 3, 4)}, stats...), want: f32([]int{2, 2}, 0, 1, 1, 9)},
		{name: "N×C×L", op: "BatchNormalization", attrs: eps0, in: append([]*Tensor{f32([]int{1, 2, 2}, 1, 3, 2, 4)}, stats...), want: f32([]int{1, 2, 2}, 0, 1, 1, 9)},
		{name: "default epsilon", op: "BatchNormalization", in: append([]*Tensor{f32([]int{1, 2}, 3, 4)}, stats...), want: f32([]int{1, 2}, float32(2/math.Sqrt(4+1e-5)), float32(1+4/math.Sqrt(0.25+1e-5)))},
		{name: "training mode", opset: 14, op: "BatchNormalization", attrs: []attr{aInt("training_mode", 1)}, in: append([]*Tensor{f32([]int{2, 2}, 1, 2, 3, 4)}, stats...)},
		{name: "wrong channel count", op: "BatchNormalization", in: append([]*Tensor{f32([]int{1, 3}, 1, 2, 3)}, stats...)},
	})
}

// TestGraph runs a multi-node graph with initializers stored both ways:
// the half-split-and-gate block of the YAHPO networks, y = x[:, :h]·relu(x[:, h:])
// with h = (width+1)/2 computed from the shape at run time, after a Gemm.
func TestGraph(t *testing.T) {
	nodes := [][]byte{
		nodeProto("Gemm", []string{"x", "w", "b"}, []string{"z"}, aInt("transB", 1)),
		nodeProto("Shape", []string{"z"}, []string{"s"}),
		nodeProto("Constant", nil, []string{"last"}, aTensor("value", i64([]int{1}, -1))),
		nodeProto("Gather", []string{"s", "last"}, []string{"width"}),
		nodeProto("Constant", nil, []string{"one"}, aTensor("value", i64([]int{1}, 1))),
		nodeProto("Constant", nil, []string{"two"}, aTensor("value", i64([]int{1}, 2))),
		nodeProto("Constant", nil, []string{"zero"}, aTensor("value", i64([]int{1}, 0))),
		nodeProto("Add", []string{"width", "one"}, []string{"w1"}),
		nodeProto("Div", []string{"w1", "two"}, []string{"h"}),
		nodeProto("Mul", []string{"h", "two"}, []string{"h2"}),
		nodeProto("Slice", []string{"z", "zero", "h", "last"}, []string{"lo"}),
		nodeProto("Slice", []string{"z", "h", "h2", "last"}, []string{"hi"}),
		nodeProto("Relu", []string{"hi"}, []string{"r"}),
		nodeProto("Mul", []string{"lo", "r"}, []string{"y"}),
	}
	// w is the 4×2 identity stacked on its negative: z = [x, −x].
	inits := [][]byte{
		tensorProto("w", f32([]int{4, 2}, 1, 0, 0, 1, -1, 0, 0, -1), false),
		tensorProto("b", f32([]int{4}, 0, 0, 0, 0), true),
	}
	m, err := Decode(modelProto(13, nodes, inits, []string{"x", "w", "b"}, []string{"y"}))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Inputs(); len(got) != 1 || got[0] != "x" {
		t.Errorf("Inputs() = %q, want [x]: initializers listed as inputs need no feed", got)
	}
	out, err := m.Run(map[string]*Tensor{"x": f32([]int{2, 2}, 1, -2, -3, 4)})
	if err != nil {
		t.Fatal(err)
	}
	// Row (1, −2): lo = (1, −2), hi = (−1, 2) → (0, −4); row (−3, 4) → (−9, 0).
	if want := f32([]int{2, 2}, 0, -4, -9, 0); !same(out["y"], want, 0) {
		t.Errorf("y = %v, want %v", out["y"], want)
	}
}

func TestTensorEncodings(t *testing.T) {
	for _, raw := range []bool{true, false} {
		for _, want := range []*Tensor{
			f32([]int{2}, 1.5, -2),
			NewInt32([]int{3}, []int32{-1, 0, math.MaxInt32}),
			i64([]int{2}, math.MinInt64, 5),
			f32(nil, 3),
		} {
			got, _, err := decodeTensor(tensorProto("t", want, raw))
			if err != nil || !same(got, want, 0) {
				t.Errorf("raw %v: decoded %v (%v), want %v", raw, got, err, want)
			}
		}
	}
	bad := appendVarint(appendVarint(nil, 1, 2), 2, 11) // a double tensor
	if _, _, err := decodeTensor(bad); err == nil || !strings.Contains(err.Error(), "not supported") {
		t.Errorf("double tensor: error %v, want one saying it is not supported", err)
	}
	short := appendBytes(appendVarint(appendVarint(nil, 1, 2), 2, 1), 9, []byte{0, 0, 0, 0})
	if _, _, err := decodeTensor(short); err == nil {
		t.Error("raw_data of 4 bytes for 2 floats: no error")
	}
}

func TestErrors(t *testing.T) {
	conv := modelProto(13, [][]byte{nodeProto("Conv", []string{"x", "w"}, []string{"y"}), nodeProto("MatMul", []string{"y", "w"}, []string{"z"})}, nil, []string{"x", "w"}, []string{"z"})
	if _, err := Decode(conv); err == nil || !strings.Contains(err.Error(), "unsupported op(s) Conv, MatMul") {
		t.Errorf("Decode of Conv and MatMul: %v, want an error naming both", err)
	}
	custom := nodeProto("Relu", []string{"x"}, []string{"y"})
	custom = appendBytes(custom, 7, []byte("com.microsoft"))
	if _, err := Decode(modelProto(13, [][]byte{custom}, nil, []string{"x"}, []string{"y"})); err == nil || !strings.Contains(err.Error(), "com.microsoft") {
		t.Errorf("Decode of a node of another domain: %v, want an error naming it", err)
	}
	if _, err := Decode([]byte{0xff}); err == nil {
		t.Error("Decode of garbage: no error")
	}
	if _, err := Decode(appendVarint(nil, 1, 8)); err == nil {
		t.Error("Decode of a model without a graph: no error")
	}
	m, err := Decode(modelProto(13, [][]byte{nodeProto("Relu", []string{"x"}, []string{"y"})}, nil, []string{"x"}, []string{"y"}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Run(nil); err == nil || !strings.Contains(err.Error(), `input "x" not given`) {
		t.Errorf("Run without its input: %v", err)
	}
	if _, err := m.Run(map[string]*Tensor{"x": {Type: Float32, Shape: []int{3}, Float: []float32{1}}}); err == nil {
		t.Error("Run with a tensor of 1 element for shape [3]: no error")
	}
	if _, err := Load("testdata/does-not-exist.onnx"); err == nil {
		t.Error("Load of a missing file: no error")
	}
}

// TestGemmBlocks checks the four-row blocks of the transB product against
// a float64 sum, on 5 rows so that one row is left over, and that a row
// gives the same bits alone as in the batch.
func TestGemmBlocks(t *testing.T) {
	const M, N, K = 5, 3, 7
	a, b := make([]float32, M*K), make([]float32, N*K)
	for i := range a {
		a[i] = float32(math.Sin(float64(i)))
	}
	for i := range b {
		b[i] = float32(math.Cos(float64(3 * i)))
	}
	y, err := runOp(13, "Gemm", []attr{aInt("transB", 1), aFloat("alpha", 0.5)}, f32([]int{M, K}, a...), f32([]int{N, K}, b...))
	if err != nil {
		t.Fatal(err)
	}
	for i := range M {
		row, err := runOp(13, "Gemm", []attr{aInt("transB", 1), aFloat("alpha", 0.5)}, f32([]int{1, K}, a[i*K:(i+1)*K]...), f32([]int{N, K}, b...))
		if err != nil {
			t.Fatal(err)
		}
		for j := range N {
			var s float64
			for k := range K {
				s += float64(a[i*K+k]) * float64(b[j*K+k])
			}
			if got := y.Float[i*N+j]; math.Abs(float64(got)-0.5*s) > 1e-6 {
				t.Errorf("y[%d,%d] = %g, want %g", i, j, got, 0.5*s)
			}
			if row.Float[j] != y.Float[i*N+j] {
				t.Errorf("row %d alone gives y[%d] = %g, in the batch %g", i, j, row.Float[j], y.Float[i*N+j])
			}
		}
	}
}
