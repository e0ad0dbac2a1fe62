package onnx

import (
	"fmt"
	"slices"
)

// DType is the element type of a tensor; the values are those of ONNX's
// TensorProto.DataType, so a decoded data_type field is one directly.
type DType int32

// The element types the evaluator computes with. ONNX knows many more;
// a model that uses another one fails to load with an error naming it.
const (
	Float32 DType = 1
	Int32   DType = 6
	Int64   DType = 7
)

func (d DType) String() string {
	switch d {
	case Float32:
		return "float32"
	case Int32:
		return "int32"
	case Int64:
		return "int64"
	}
	return fmt.Sprintf("ONNX data type %d", int32(d))
}

// Tensor is a dense row-major tensor. Float32 elements live in Float,
// Int32 and Int64 elements in Int (int32 values widened, so that the
// integer ops are written once); the other slice is nil.
type Tensor struct {
	Type  DType
	Shape []int
	Float []float32
	Int   []int64
}

// NewFloat32 returns a float32 tensor of the given shape holding data
// (not copied). It panics if the sizes disagree: a programming error.
func NewFloat32(shape []int, data []float32) *Tensor {
	mustSize(shape, len(data))
	return &Tensor{Type: Float32, Shape: slices.Clone(shape), Float: data}
}

// NewInt32 returns an int32 tensor of the given shape holding a copy of data.
func NewInt32(shape []int, data []int32) *Tensor {
	mustSize(shape, len(data))
	v := make([]int64, len(data))
	for i, x := range data {
		v[i] = int64(x)
	}
	return &Tensor{Type: Int32, Shape: slices.Clone(shape), Int: v}
}

// NewInt64 returns an int64 tensor of the given shape holding data (not
// copied).
func NewInt64(shape []int, data []int64) *Tensor {
	mustSize(shape, len(data))
	return &Tensor{Type: Int64, Shape: slices.Clone(shape), Int: data}
}

func mustSize(shape []int, n int) {
	if size(shape) != n {
		panic(fmt.Sprintf("onnx: shape %v holds %d elements, data has %d", shape, size(shape), n))
	}
}

// size is the number of elements of a tensor of the given shape.
func size(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// Len is the number of elements.
func (t *Tensor) Len() int { return size(t.Shape) }

// check reports a tensor built by hand whose type, shape and data
// disagree.
func (t *Tensor) check() error {
	data, other, field := len(t.Int), len(t.Float), "Int"
	switch t.Type {
	case Float32:
		data, other, field = len(t.Float), len(t.Int), "Float"
	case Int32, Int64:
	default:
		return fmt.Errorf("element type %s is not supported", t.Type)
	}
	if data != t.Len() || other != 0 {
		return fmt.Errorf("a %s tensor of shape %v needs %d elements in %s and none in the other slice", t.Type, t.Shape, t.Len(), field)
	}
	return nil
}

// newTensor returns a zero tensor of type dt and the given shape.
func newTensor(dt DType, shape []int) *Tensor {
	t := &Tensor{Type: dt, Shape: shape}
	if dt == Float32 {
		t.Float = make([]float32, size(shape))
	} else {
		t.Int = make([]int64, size(shape))
	}
	return t
}

// ints returns the elements of an integer tensor, or an error naming what
// wanted them: shapes, axes and indices must be integers.
func (t *Tensor) ints(what string) ([]int64, error) {
	if t.Type == Float32 {
		return nil, fmt.Errorf("%s must be an integer tensor, got %s", what, t.Type)
	}
	return t.Int, nil
}

func (t *Tensor) String() string {
	if t.Type == Float32 {
		return fmt.Sprintf("%s%v %v", t.Type, t.Shape, t.Float)
	}
	return fmt.Sprintf("%s%v %v", t.Type, t.Shape, t.Int)
}
