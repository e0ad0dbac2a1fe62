package tinyml

import (
	"errors"
	"fmt"
)

// ErrNotComputable is wrapped by Analyze's error when a network's shapes
// do not work out: STM32Cube.AI would not convert it, and a search counts
// it as not computable (spec §5.4), not as an infeasible network.
var ErrNotComputable = errors.New("not computable")

// Compression factors of STM32Cube.AI's weight sharing (spec §5.2).
var Compressions = []int{1, 4, 8}

// compressMinWeights is τ₄: at ×4 only hidden dense layers of at least
// this many weights are compressed (spec §5.5 Decision, fitted: the HAR
// baseline's ×4 ROM needs its 128×128 layer kept in float32 while its
// 5632×128 layer is compressed).
const compressMinWeights = 32768

// RAMModel names the rule set of Report.RAM (spec §5.5: versioned, so
// that a better reconstruction of the tool's allocator can replace it
// without changing results silently).
const RAMModel = "v1"

// Report is what the analytic MCU model gives for a network at one
// compression factor.
type Report struct {
	Compression int
	Params      int     // weights and biases
	ROM         int     // bytes of the weights as stored ("weights (ro)")
	RAM         int     // bytes of the activations buffer ("activations (rw)"), RAMModel's rules
	MACC        int     // multiply–accumulates of one inference, activations and pooling included
	XCross      float64 // estimated X-CROSS accuracy, %: XCrossEstimate
	Compressed  int     // weights stored in the codebook (weight sharing)
}

// XCrossEstimate is the analytic X-CROSS accuracy of spec §5.5 (stand-in
// b, for searches without training): 100 % at ×1, else
// 100 − c·(compressed weights / 10⁶) % with c = 0.05 at ×4 and 2.5 at ×8
// (calibrated on the HAR baseline: 99.96 % and 98.16 % against the
// published 99.98 % and 98.04 %).
func XCrossEstimate(compression, compressed int) float64 {
	c := map[int]float64{1: 0, 4: 0.05, 8: 2.5}[compression]
	return 100 - c*float64(compressed)/1e6
}

// shape is a layer's output: height × width × channels, or a vector of
// Width values when flat.
type shape struct {
	h, w, c int
	flat    bool
}

func (s shape) size() int { return s.h * s.w * s.c }

// Analyze computes the network's Report at compression ×1, ×4 or ×8
// (spec §5.5):
//
//   - Params: conv k_h·k_w·C_in·F + F, dense n_in·n_out + n_out.
//   - ROM: 4 bytes per parameter; at ×4 and ×8 each selected hidden dense
//     layer (all of them at ×8, those of ≥ 32,768 weights at ×4) is
//     stored as b-bit indices into a 2^b-entry float32 codebook (b = 8 at
//     ×4, 4 at ×8) plus its float32 biases.
//   - RAM: 4 bytes per value of the largest execution unit's buffers. A
//     conv directly followed by a pool of window ≥ 2 is one fused unit,
//     every other conv and each dense layer a unit of its own, dropout
//     and flatten free; a unit needs its internal input (none for the
//     external input buffer) and its output, a fused one also p rows of
//     conv output as scratch and, when it writes its output over its
//     consumed input, a pooled-row staging buffer ((W_p + 1)·F, fitted to
//     the IR baseline: spec §5.5 Decision).
//   - MACC: conv and dense multiply–accumulates, one per conv output and
//     hidden dense output for the activation, p² per pooled output.
//
// A kernel or pool larger than its input is an error wrapping
// ErrNotComputable that names the layer.
func Analyze(n Network, compression int) (Report, error) {
	if err := n.Validate(); err != nil {
		return Report{}, err
	}
	bits := map[int]int{4: 8, 8: 4}[compression]
	if bits == 0 && compression != 1 {
		return Report{}, fmt.Errorf("compression: ×%d is not one of ×1, ×4, ×8", compression)
	}
	lastDense := lastDenseIndex(n)
	r := Report{Compression: compression}
	cur := shape{h: n.Input[0], w: n.Input[1], c: n.Input[2]}
	internal := false // whether cur is in the activations buffer (not the external input)
	need := 0         // the largest unit's values
	unit := func(v int) { need = max(need, v) }
	in := func() int { // the unit's internal input
		if internal {
			return cur.size()
		}
		return 0
	}
	notComputable := func(i int, format string, a ...any) error {
		return fmt.Errorf("network: layers[%d] (%s): %s: %w", i, n.Layers[i].Type, fmt.Sprintf(format, a...), ErrNotComputable)
	}
	for i := 0; i < len(n.Layers); i++ {
		l := n.Layers[i]
		switch l.Type {
		case Conv2D:
			if cur.flat {
				return Report{}, notComputable(i, "a Conv2D after a flat output")
			}
			kh, kw := l.Kernel[0], l.Kernel[1]
			out := shape{h: cur.h, w: cur.w, c: l.Filters}
			if l.Padding != "same" {
				out.h, out.w = cur.h-kh+1, cur.w-kw+1
			}
			if out.h < 1 || out.w < 1 {
				return Report{}, notComputable(i, "a %d×%d kernel on a %d×%d input", kh, kw, cur.h, cur.w)
			}
			params := kh*kw*cur.c*l.Filters + l.Filters
			r.Params += params
			r.ROM += 4 * params // convs stay float32
			r.MACC += out.size()*kh*kw*cur.c + out.size()
			if i+1 < len(n.Layers) && n.Layers[i+1].Type == MaxPool2D && max(n.Layers[i+1].Pool[0], n.Layers[i+1].Pool[1]) >= 2 {
				p := n.Layers[i+1].Pool
				pooled, err := pool(out, p)
				if err != nil {
					return Report{}, notComputable(i+1, "%v", err)
				}
				r.MACC += pooled.size() * p[0] * p[1]
				scratch := p[0] * out.w * out.c // p conv-output rows
				I, O := in(), pooled.size()
				switch {
				case !internal:
					unit(O + scratch)
				case O <= I:
					unit(I + scratch + (pooled.w+1)*out.c)
				default:
					unit(I + O + scratch)
				}
				cur, internal = pooled, true
				i++ // the pool is part of the unit
				continue
			}
			unit(in() + out.size())
			cur, internal = out, true
		case MaxPool2D:
			if cur.flat {
				return Report{}, notComputable(i, "a MaxPool2D after a flat output")
			}
			if max(l.Pool[0], l.Pool[1]) < 2 { // 1×1: the identity
				continue
			}
			pooled, err := pool(cur, l.Pool)
			if err != nil {
				return Report{}, notComputable(i, "%v", err)
			}
			r.MACC += pooled.size() * l.Pool[0] * l.Pool[1]
			unit(in() + pooled.size())
			cur, internal = pooled, true
		case Flatten:
			cur = shape{h: 1, w: cur.size(), c: 1, flat: true}
		case Dense:
			nIn := cur.size()
			r.Params += nIn*l.Units + l.Units
			r.MACC += nIn * l.Units
			weights := nIn * l.Units
			hidden := i != lastDense
			if hidden {
				r.MACC += l.Units
			}
			if hidden && bits > 0 && (compression == 8 || weights >= compressMinWeights) {
				r.ROM += weights*bits/8 + (1<<bits)*4 + 4*l.Units
				r.Compressed += weights
			} else {
				r.ROM += 4 * (weights + l.Units)
			}
			unit(in() + l.Units)
			cur, internal = shape{h: 1, w: l.Units, c: 1, flat: true}, true
		}
	}
	r.RAM = 4 * need
	r.XCross = XCrossEstimate(compression, r.Compressed)
	return r, nil
}

// pool is the output of a stride-p valid pool: ⌊(H − p)/p⌋ + 1 rows.
func pool(s shape, p Size) (shape, error) {
	out := shape{h: (s.h-p[0])/p[0] + 1, w: (s.w-p[1])/p[1] + 1, c: s.c}
	if s.h < p[0] || s.w < p[1] {
		return shape{}, fmt.Errorf("a %d×%d pool on a %d×%d input", p[0], p[1], s.h, s.w)
	}
	return out, nil
}
