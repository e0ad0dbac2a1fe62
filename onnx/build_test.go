package onnx

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// The tests build models as ONNX writes them, so that each op is tested
// through the decoder too. Field numbers are those of onnx.proto.

func appendBytes(b []byte, num protowire.Number, v []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

func appendVarint(b []byte, num protowire.Number, v int64) []byte {
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(v))
}

// packed encodes integers as one packed field.
func packed(num protowire.Number, vs []int64) []byte {
	var p []byte
	for _, v := range vs {
		p = protowire.AppendVarint(p, uint64(v))
	}
	return appendBytes(nil, num, p)
}

// tensorProto encodes t, its data in raw_data when raw is true, else in
// the typed fields (float_data, int32_data, int64_data).
func tensorProto(name string, t *Tensor, raw bool) []byte {
	var b []byte
	for _, d := range t.Shape { // dims unpacked, as some writers do
		b = appendVarint(b, 1, int64(d))
	}
	b = appendVarint(b, 2, int64(t.Type))
	if name != "" {
		b = appendBytes(b, 8, []byte(name))
	}
	switch {
	case raw && t.Type == Float32:
		var r []byte
		for _, v := range t.Float {
			r = binary.LittleEndian.AppendUint32(r, math.Float32bits(v))
		}
		b = appendBytes(b, 9, r)
	case raw && t.Type == Int32:
		var r []byte
		for _, v := range t.Int {
			r = binary.LittleEndian.AppendUint32(r, uint32(int32(v)))
		}
		b = appendBytes(b, 9, r)
	case raw:
		var r []byte
		for _, v := range t.Int {
			r = binary.LittleEndian.AppendUint64(r, uint64(v))
		}
		b = appendBytes(b, 9, r)
	case t.Type == Float32:
		var r []byte
		for _, v := range t.Float {
			r = binary.LittleEndian.AppendUint32(r, math.Float32bits(v))
		}
		b = appendBytes(b, 4, r)
	case t.Type == Int32:
		b = append(b, packed(5, t.Int)...)
	default:
		b = append(b, packed(7, t.Int)...)
	}
	return b
}

// attr is an encoded AttributeProto.
type attr []byte

func aInt(name string, v int64) attr {
	return appendVarint(appendBytes(nil, 1, []byte(name)), 3, v)
}

func aFloat(name string, v float32) attr {
	b := appendBytes(nil, 1, []byte(name))
	b = protowire.AppendTag(b, 2, protowire.Fixed32Type)
	return protowire.AppendFixed32(b, math.Float32bits(v))
}

func aInts(name string, vs ...int64) attr {
	return append(appendBytes(nil, 1, []byte(name)), packed(8, vs)...)
}

func aTensor(name string, t *Tensor) attr {
	return appendBytes(appendBytes(nil, 1, []byte(name)), 5, tensorProto("", t, true))
}

// nodeProto encodes a node of the default domain.
func nodeProto(op string, in, out []string, attrs ...attr) []byte {
	var b []byte
	for _, s := range in {
		b = appendBytes(b, 1, []byte(s))
	}
	for _, s := range out {
		b = appendBytes(b, 2, []byte(s))
	}
	b = appendBytes(b, 3, []byte(op+"_0"))
	b = appendBytes(b, 4, []byte(op))
	for _, a := range attrs {
		b = appendBytes(b, 5, a)
	}
	return b
}

// modelProto encodes a model of the given opset.
func modelProto(opset int64, nodes, inits [][]byte, inputs, outputs []string) []byte {
	var g []byte
	for _, n := range nodes {
		g = appendBytes(g, 1, n)
	}
	for _, t := range inits {
		g = appendBytes(g, 5, t)
	}
	for _, s := range inputs {
		g = appendBytes(g, 11, appendBytes(nil, 1, []byte(s)))
	}
	for _, s := range outputs {
		g = appendBytes(g, 12, appendBytes(nil, 1, []byte(s)))
	}
	m := appendVarint(nil, 1, 8) // ir_version
	m = appendBytes(m, 8, appendVarint(nil, 2, opset))
	return appendBytes(m, 7, g)
}

// inputNames are the names runOp gives its inputs: a, b, c, ...
func inputNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = string(rune('a' + i))
	}
	return names
}

// runOp runs a graph of one node of the given opset on the inputs.
func runOp(opset int64, op string, attrs []attr, in ...*Tensor) (*Tensor, error) {
	names := inputNames(len(in))
	m, err := Decode(modelProto(opset, [][]byte{nodeProto(op, names, []string{"y"}, attrs...)}, nil, names, []string{"y"}))
	if err != nil {
		return nil, err
	}
	feed := map[string]*Tensor{}
	for i, t := range in {
		feed[names[i]] = t
	}
	out, err := m.Run(feed)
	if err != nil {
		return nil, err
	}
	return out["y"], nil
}

// f32 and i64 are short constructors for the tables.
func f32(shape []int, v ...float32) *Tensor { return NewFloat32(shape, v) }
func i64(shape []int, v ...int64) *Tensor   { return NewInt64(shape, v) }

// same reports whether two tensors have the same type, shape and values,
// floats within tol (NaN equal to NaN).
func same(a, b *Tensor, tol float64) bool {
	if a == nil || b == nil || a.Type != b.Type || !slices.Equal(a.Shape, b.Shape) || !slices.Equal(a.Int, b.Int) || len(a.Float) != len(b.Float) {
		return false
	}
	for i, x := range a.Float {
		y := b.Float[i]
		if !(x == y || math.Abs(float64(x-y)) <= tol || (x != x && y != y)) {
			return false
		}
	}
	return true
}

// opCase is one op applied to inputs, with the expected output (or an
// error when want is nil).
type opCase struct {
	name  string
	opset int64
	op    string
	attrs []attr
	in    []*Tensor
	want  *Tensor
}

func runCases(t *testing.T, cases []opCase) {
	t.Helper()
	for _, c := range cases {
		opset := c.opset
		if opset == 0 {
			opset = 13
		}
		got, err := runOp(opset, c.op, c.attrs, c.in...)
		switch {
		case c.want == nil && err == nil:
			t.Errorf("%s: %s gave %v, want an error", c.name, c.op, got)
		case c.want == nil:
			t.Logf("%s: %v", c.name, err)
		case err != nil:
			t.Errorf("%s: %s: %v", c.name, c.op, err)
		case !same(got, c.want, 1e-6):
			t.Errorf("%s: %s gave %v, want %v", c.name, c.op, got, c.want)
		}
	}
}
