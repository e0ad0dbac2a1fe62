package onnx

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// The decoder reads only the fields of onnx/onnx.proto (ONNX's own schema,
// https://github.com/onnx/onnx/blob/main/onnx/onnx.proto) that inference of
// a plain graph needs; every other field is skipped, as protobuf allows.
// The field numbers below are that schema's.

// field is one decoded protobuf field: u holds a varint, fixed32 or fixed64
// value, b the payload of a length-delimited one.
type field struct {
	num protowire.Number
	typ protowire.Type
	u   uint64
	b   []byte
}

// eachField calls fn on every field of the message b, in wire order.
func eachField(b []byte, fn func(f field) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		f := field{num: num, typ: typ}
		switch typ {
		case protowire.VarintType:
			f.u, n = protowire.ConsumeVarint(b)
		case protowire.Fixed32Type:
			var v uint32
			v, n = protowire.ConsumeFixed32(b)
			f.u = uint64(v)
		case protowire.Fixed64Type:
			f.u, n = protowire.ConsumeFixed64(b)
		case protowire.BytesType:
			f.b, n = protowire.ConsumeBytes(b)
		default: // groups, unused by ONNX
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

// varints appends the values of a repeated integer field, which a writer
// may send packed (one length-delimited field) or one field per value.
func varints(dst []int64, f field) ([]int64, error) {
	if f.typ == protowire.VarintType {
		return append(dst, int64(f.u)), nil
	}
	if f.typ != protowire.BytesType {
		return nil, fmt.Errorf("field %d: wire type %d for a repeated integer", f.num, f.typ)
	}
	for b := f.b; len(b) > 0; {
		v, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		dst = append(dst, int64(v))
		b = b[n:]
	}
	return dst, nil
}

// floats appends the values of a repeated float field, packed or not.
func floats(dst []float32, f field) ([]float32, error) {
	if f.typ == protowire.Fixed32Type {
		return append(dst, math.Float32frombits(uint32(f.u))), nil
	}
	if f.typ != protowire.BytesType || len(f.b)%4 != 0 {
		return nil, fmt.Errorf("field %d: malformed repeated float", f.num)
	}
	for i := 0; i < len(f.b); i += 4 {
		dst = append(dst, math.Float32frombits(binary.LittleEndian.Uint32(f.b[i:])))
	}
	return dst, nil
}

// decodeModel reads a ModelProto's graph (7). The opset is not needed:
// the ops whose form changed across opsets (Slice, Unsqueeze) show which
// form a node uses by its attributes.
func decodeModel(b []byte) (*Model, error) {
	var graph []byte
	err := eachField(b, func(f field) error {
		if f.num == 7 {
			graph = f.b
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if graph == nil {
		return nil, errors.New("the model has no graph")
	}
	m := &Model{}
	return m, m.decodeGraph(graph)
}

// decodeGraph reads a GraphProto: node (1), initializer (5), input (11)
// and output (12). Inputs that are also initializers are not inputs the
// caller must feed (older exporters list the weights among the inputs).
func (m *Model) decodeGraph(b []byte) error {
	m.inits = map[string]*Tensor{}
	var inputs []string
	err := eachField(b, func(f field) error {
		switch f.num {
		case 1:
			n, err := decodeNode(f.b)
			if err != nil {
				return fmt.Errorf("node %d: %w", len(m.nodes), err)
			}
			m.nodes = append(m.nodes, n)
		case 5:
			t, name, err := decodeTensor(f.b)
			if err != nil {
				return fmt.Errorf("initializer %q: %w", name, err)
			}
			m.inits[name] = t
		case 11, 12:
			name, err := valueName(f.b)
			if err != nil {
				return err
			}
			if f.num == 11 {
				inputs = append(inputs, name)
			} else {
				m.outputs = append(m.outputs, name)
			}
		}
		return nil
	})
	for _, in := range inputs {
		if _, ok := m.inits[in]; !ok {
			m.inputs = append(m.inputs, in)
		}
	}
	return err
}

// valueName reads the name (1) of a ValueInfoProto.
func valueName(b []byte) (string, error) {
	var name string
	err := eachField(b, func(f field) error {
		if f.num == 1 {
			name = string(f.b)
		}
		return nil
	})
	return name, err
}

// decodeNode reads a NodeProto: input (1), output (2), name (3), op_type
// (4), attribute (5), domain (7).
func decodeNode(b []byte) (*node, error) {
	n := &node{attrs: map[string]*attribute{}}
	var domain string
	err := eachField(b, func(f field) error {
		switch f.num {
		case 1:
			n.in = append(n.in, string(f.b))
		case 2:
			n.out = append(n.out, string(f.b))
		case 3:
			n.name = string(f.b)
		case 4:
			n.op = string(f.b)
		case 5:
			a, err := decodeAttribute(f.b)
			if err != nil {
				return err
			}
			n.attrs[a.name] = a
		case 7:
			domain = string(f.b)
		}
		return nil
	})
	if err == nil && domain != "" && domain != "ai.onnx" {
		err = fmt.Errorf("%s %q is in domain %q; only the default ONNX domain is supported", n.op, n.name, domain)
	}
	return n, err
}

// attribute is a decoded AttributeProto; which value is meaningful
// depends on the op that reads it.
type attribute struct {
	name   string
	f      float32
	i      int64
	s      []byte
	t      *Tensor
	floats []float32
	ints   []int64
}

// decodeAttribute reads name (1), f (2), i (3), s (4), t (5), floats (7)
// and ints (8); graphs, sparse tensors and type protos are not needed.
func decodeAttribute(b []byte) (*attribute, error) {
	a := &attribute{}
	err := eachField(b, func(f field) error {
		var err error
		switch f.num {
		case 1:
			a.name = string(f.b)
		case 2:
			a.f = math.Float32frombits(uint32(f.u))
		case 3:
			a.i = int64(f.u)
		case 4:
			a.s = f.b
		case 5:
			a.t, _, err = decodeTensor(f.b)
		case 7:
			a.floats, err = floats(a.floats, f)
		case 8:
			a.ints, err = varints(a.ints, f)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("attribute %q: %w", a.name, err)
	}
	return a, nil
}

// decodeTensor reads a TensorProto: dims (1), data_type (2), float_data
// (4), int32_data (5), int64_data (7), name (8), raw_data (9) and
// data_location (14). Exporters write either raw_data (little-endian) or
// the typed field; both are accepted.
func decodeTensor(b []byte) (*Tensor, string, error) {
	var (
		dims    []int64
		dt      DType
		name    string
		raw     []byte
		fl      []float32
		in      []int64
		hasRaw  bool
		extData bool
	)
	err := eachField(b, func(f field) error {
		var err error
		switch f.num {
		case 1:
			dims, err = varints(dims, f)
		case 2:
			dt = DType(f.u)
		case 4:
			fl, err = floats(fl, f)
		case 5, 7:
			in, err = varints(in, f)
		case 8:
			name = string(f.b)
		case 9:
			raw, hasRaw = f.b, true
		case 14:
			extData = f.u == 1
		}
		return err
	})
	if err != nil {
		return nil, name, err
	}
	if extData {
		return nil, name, errors.New("the tensor's data is stored outside the model file, which is not supported")
	}
	shape := make([]int, len(dims))
	for i, d := range dims {
		if d < 0 {
			return nil, name, fmt.Errorf("negative dimension %d", d)
		}
		shape[i] = int(d)
	}
	n := size(shape)
	t := &Tensor{Type: dt, Shape: shape}
	switch dt {
	case Float32:
		if hasRaw {
			if len(raw) != 4*n {
				return nil, name, fmt.Errorf("raw_data has %d bytes for %d float32 values", len(raw), n)
			}
			fl = make([]float32, n)
			for i := range fl {
				fl[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
			}
		}
		if len(fl) != n {
			return nil, name, fmt.Errorf("%d float32 values for shape %v", len(fl), shape)
		}
		t.Float = fl
	case Int32, Int64:
		width := 4
		if dt == Int64 {
			width = 8
		}
		if hasRaw {
			if len(raw) != width*n {
				return nil, name, fmt.Errorf("raw_data has %d bytes for %d %s values", len(raw), n, dt)
			}
			in = make([]int64, n)
			for i := range in {
				if dt == Int32 {
					in[i] = int64(int32(binary.LittleEndian.Uint32(raw[4*i:])))
				} else {
					in[i] = int64(binary.LittleEndian.Uint64(raw[8*i:]))
				}
			}
		} else if dt == Int32 {
			for i, v := range in { // int32_data holds each value sign-extended to 64 bits
				in[i] = int64(int32(v))
			}
		}
		if len(in) != n {
			return nil, name, fmt.Errorf("%d %s values for shape %v", len(in), dt, shape)
		}
		t.Int = in
	default:
		return nil, name, fmt.Errorf("element type %s is not supported (only float32, int32, int64)", dt)
	}
	return t, name, nil
}
