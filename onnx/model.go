package onnx

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// Model is a loaded ONNX graph, ready to run. It is immutable after Load
// and safe for concurrent use.
type Model struct {
	inputs  []string
	outputs []string
	nodes   []*node
	inits   map[string]*Tensor
}

// node is one NodeProto.
type node struct {
	op, name string
	in, out  []string
	attrs    map[string]*attribute
}

// Load reads and checks an ONNX model file.
func Load(path string) (*Model, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("onnx: %w", err)
	}
	m, err := Decode(b)
	if err != nil {
		return nil, fmt.Errorf("onnx: %s: %w", path, err)
	}
	return m, nil
}

// Decode decodes a serialised ModelProto. Every op must be one this
// package implements (see Ops); an unsupported one is reported here, not
// halfway through a Run.
func Decode(b []byte) (*Model, error) {
	m, err := decodeModel(b)
	if err != nil {
		return nil, err
	}
	var bad []string
	for _, n := range m.nodes {
		if _, ok := ops[n.op]; !ok && !slices.Contains(bad, n.op) {
			bad = append(bad, n.op)
		}
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("unsupported op(s) %s; supported: %s", strings.Join(bad, ", "), strings.Join(Ops(), ", "))
	}
	return m, nil
}

// Ops lists the supported op types, sorted.
func Ops() []string {
	names := make([]string, 0, len(ops))
	for k := range ops {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// Inputs are the names of the graph inputs a Run must feed.
func (m *Model) Inputs() []string { return slices.Clone(m.inputs) }

// Outputs are the names of the graph outputs a Run returns.
func (m *Model) Outputs() []string { return slices.Clone(m.outputs) }

// Run evaluates the graph on the given inputs and returns its outputs by
// name. The inputs are not modified. Nodes run in file order, which ONNX
// requires to be topological.
func (m *Model) Run(inputs map[string]*Tensor) (map[string]*Tensor, error) {
	env := make(map[string]*Tensor, len(m.inits)+len(m.nodes))
	for k, v := range m.inits {
		env[k] = v
	}
	for _, name := range m.inputs {
		t, ok := inputs[name]
		if !ok {
			return nil, fmt.Errorf("onnx: input %q not given (the model's inputs are %s)", name, strings.Join(m.inputs, ", "))
		}
		if err := t.check(); err != nil {
			return nil, fmt.Errorf("onnx: input %q: %w", name, err)
		}
		env[name] = t
	}
	for i, n := range m.nodes {
		args := make([]*Tensor, len(n.in))
		for j, name := range n.in {
			if name == "" { // an omitted optional input
				continue
			}
			t, ok := env[name]
			if !ok {
				return nil, fmt.Errorf("onnx: node %d (%s %q): input %q is not computed before it", i, n.op, n.name, name)
			}
			args[j] = t
		}
		res, err := ops[n.op](m, n, args)
		if err != nil {
			return nil, fmt.Errorf("onnx: node %d (%s %q): %w", i, n.op, n.name, err)
		}
		for j, name := range n.out {
			if j < len(res) && name != "" {
				env[name] = res[j]
			}
		}
	}
	out := make(map[string]*Tensor, len(m.outputs))
	for _, name := range m.outputs {
		t, ok := env[name]
		if !ok {
			return nil, fmt.Errorf("onnx: output %q is never computed", name)
		}
		out[name] = t
	}
	return out, nil
}
