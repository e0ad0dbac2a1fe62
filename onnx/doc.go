// Package onnx evaluates small ONNX models in pure Go: exactly the ops of
// the YAHPO Gym surrogates (Pfisterer et al. 2022; spec peers-and-benchmarks
// §3) — Constant, Gather, Concat, Add, Sub, Mul, Div, Neg, Log, Exp, Round,
// Relu, Sigmoid, Cast, Shape, Unsqueeze, Slice, Gemm and inference-mode
// BatchNormalization — on float32, int32 and int64 tensors. The native
// onnxruntime is not packaged for the project's machines (spec
// peers-and-benchmarks §3), and gonnx v1.1.0, which does resolve, brings
// gorgonia's tensors, Arrow, FlatBuffers and gogo/protobuf with it, for
// some 700 lines of ops here.
//
// The model file is decoded field by field with protowire, reading only
// the parts of onnx.proto that inference needs: the graph's nodes,
// initializers (raw_data or typed fields), inputs and outputs. A model
// with any other op fails in Load with an error listing the unsupported
// ops, not halfway through a Run.
//
//	m, err := onnx.Load("model.onnx")
//	out, err := m.Run(map[string]*onnx.Tensor{
//		"x_cat":  onnx.NewInt32([]int{1, 1}, []int32{34}),
//		"x_cont": onnx.NewFloat32([]int{1, 8}, cont),
//	})
//	y := out["output"].Float
//
// Float arithmetic is float32 as in onnxruntime; transcendental functions
// are computed in float64 and rounded once. Gemm sums in float32 in the
// order of the inner index, so results agree with other runtimes to
// float32 rounding, not bit for bit; but a row's result does not depend on
// the other rows of its batch, so evaluating points one at a time or
// together gives the same bits.
package onnx
