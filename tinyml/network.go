// Package tinyml is AutoTinyML's view of a network that must fit a
// microcontroller (seed 004 §6.2.2, §7.2; spec constrained-autotinyml
// §5): a Keras-like description of a small CNN (Conv2D, MaxPooling2D,
// Dropout, Flatten, Dense), the analytic model of what STM32Cube.AI
// reports for it (parameters, ROM at compression ×1, ×4 or ×8, RAM of the
// activations, MACC, an X-CROSS estimate; spec §5.5, "virtual
// X-CUBE-AI"), and the boards it must fit (Board), each with its RAM, ROM
// and X-CROSS limits.
//
//	net, err := tinyml.ParseNetwork(jsonBytes)
//	r, err := tinyml.Analyze(net, 4)  // ×4 compression
//	v := tinyml.STM32L476.Check(r)    // deployable on the Big Board?
//
// The model is exact on the two published baselines (Tables 7.4–7.5:
// parameters, ROM and RAM to the byte); a network whose shapes do not
// work out (a kernel larger than its input, a pool that leaves nothing)
// is not computable, and Analyze says where.
package tinyml

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The layer types, as Keras names them (lower case).
const (
	Conv2D    = "conv2d"
	MaxPool2D = "maxpool2d"
	Dropout   = "dropout"
	Flatten   = "flatten"
	Dense     = "dense"
)

var layerTypes = []string{Conv2D, MaxPool2D, Dropout, Flatten, Dense}

// Activations a layer may name; they do not change the memory figures.
var activations = []string{"", "linear", "relu", "sigmoid", "selu", "tanh", "softmax"}

// Network is a feed-forward CNN: an input of Input = [height, width,
// channels] float32 values and its layers in order. A Dense layer after a
// three-dimensional output flattens it first, as a Flatten layer would.
// The last Dense layer is the output layer (kept in float32 by
// compression, spec §5.5).
type Network struct {
	Input  [3]int  `json:"input"`
	Layers []Layer `json:"layers"`
}

// Layer is one layer. Conv2D uses Filters, Kernel, Padding ("valid", the
// default, or "same"; stride 1) and Activation; MaxPool2D uses Pool
// (stride = window, "valid"; a 1×1 pool is the identity); Dropout uses
// Rate; Dense uses Units and Activation; Flatten uses nothing.
type Layer struct {
	Type       string  `json:"type"`
	Filters    int     `json:"filters,omitempty"`
	Kernel     Size    `json:"kernel,omitzero"`
	Padding    string  `json:"padding,omitempty"`
	Pool       Size    `json:"pool,omitzero"`
	Rate       float64 `json:"rate,omitempty"`
	Units      int     `json:"units,omitempty"`
	Activation string  `json:"activation,omitempty"`
}

// Size is a window's height and width; JSON takes one number for a square
// window (Keras's kernel_size=2) or [height, width].
type Size [2]int

// UnmarshalJSON implements json.Unmarshaler.
func (s *Size) UnmarshalJSON(b []byte) error {
	var n int
	if err := json.Unmarshal(b, &n); err == nil {
		*s = Size{n, n}
		return nil
	}
	var hw [2]int
	if err := json.Unmarshal(b, &hw); err != nil {
		return fmt.Errorf("want a number or [height, width], got %s", b)
	}
	*s = hw
	return nil
}

// ParseNetwork reads a network description in JSON; an unknown field,
// layer type, activation or padding, or a size below 1, is an error
// naming the field (layers[2].filters, ...).
func ParseNetwork(data []byte) (Network, error) {
	var n Network
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&n); err != nil {
		return Network{}, fmt.Errorf("network: %w", err)
	}
	return n, n.Validate()
}

// Validate checks every field for a value the model can use; the shapes
// are Analyze's to check.
func (n Network) Validate() error {
	for i, d := range n.Input {
		if d < 1 {
			return fmt.Errorf("network: input[%d]: %d must be ≥ 1 (input is [height, width, channels])", i, d)
		}
	}
	if len(n.Layers) == 0 {
		return errors.New("network: layers: none; a network needs at least its output Dense layer")
	}
	dense := false
	for i, l := range n.Layers {
		field := func(name string) string { return fmt.Sprintf("network: layers[%d].%s", i, name) }
		positive := func(name string, v int) error {
			if v < 1 {
				return fmt.Errorf("%s: %d must be ≥ 1", field(name), v)
			}
			return nil
		}
		if !in(activations, l.Activation) {
			return fmt.Errorf("%s: unknown activation %q (known: %s)", field("activation"), l.Activation, strings.Join(activations[1:], ", "))
		}
		var err error
		switch l.Type {
		case Conv2D:
			if l.Padding != "" && l.Padding != "valid" && l.Padding != "same" {
				return fmt.Errorf("%s: %q is not valid or same", field("padding"), l.Padding)
			}
			err = errors.Join(positive("filters", l.Filters), positive("kernel", min(l.Kernel[0], l.Kernel[1])))
		case MaxPool2D:
			err = positive("pool", min(l.Pool[0], l.Pool[1]))
		case Dropout:
			if !(l.Rate >= 0 && l.Rate < 1) {
				err = fmt.Errorf("%s: %v is not in [0, 1)", field("rate"), l.Rate)
			}
		case Dense:
			err, dense = positive("units", l.Units), true
		case Flatten:
		default:
			err = fmt.Errorf("%s: unknown layer %q (known: %s)", field("type"), l.Type, strings.Join(layerTypes, ", "))
		}
		if err != nil {
			return err
		}
	}
	if !dense {
		return errors.New("network: layers: no dense layer; the last dense layer is the output layer")
	}
	return nil
}

func in(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}
