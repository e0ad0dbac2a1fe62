package train

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/boaopt/boa/tinyml"
)

// layer is one step of the network on one example. forward reads in and
// returns its output (a buffer it owns); backward takes the gradient of
// the loss with respect to that output, adds its parameters' gradients
// and returns the gradient with respect to its input (nil for the first
// layer, which needs none).
type layer interface {
	forward(in []float64, train bool, rng *rand.Rand) []float64
	backward(dout []float64, first bool) []float64
}

// act is an activation by name: its value and its derivative from the
// value (every one here has one).
type act string

const (
	selu   = 1.0507009873554805
	seluA  = 1.6732632423543772
	seluLA = selu * seluA
)

func (a act) apply(z []float64) {
	switch a {
	case "relu":
		for i, v := range z {
			z[i] = max(v, 0)
		}
	case "sigmoid":
		for i, v := range z {
			z[i] = 1 / (1 + math.Exp(-v))
		}
	case "tanh":
		for i, v := range z {
			z[i] = math.Tanh(v)
		}
	case "selu":
		for i, v := range z {
			if v > 0 {
				z[i] = selu * v
			} else {
				z[i] = seluLA * (math.Exp(v) - 1)
			}
		}
	}
}

// grad multiplies d by the derivative at the activations y.
func (a act) grad(y, d []float64) {
	switch a {
	case "relu":
		for i, v := range y {
			if v <= 0 {
				d[i] = 0
			}
		}
	case "sigmoid":
		for i, v := range y {
			d[i] *= v * (1 - v)
		}
	case "tanh":
		for i, v := range y {
			d[i] *= 1 - v*v
		}
	case "selu":
		for i, v := range y {
			if v > 0 {
				d[i] *= selu
			} else {
				d[i] *= v + seluLA
			}
		}
	}
}

// conv is a stride-1 Conv2D, channels last; weights [kh][kw][cin][f].
type conv struct {
	h, w, c, kh, kw, f int // input shape and kernel
	oh, ow, top, left  int // output shape and the padding before
	a                  act
	wt, b, gw, gb      []float64
	in, out, din       []float64
}

func (l *conv) forward(in []float64, _ bool, _ *rand.Rand) []float64 {
	l.in = in
	out := l.out
	for oy := range l.oh {
		for ox := range l.ow {
			o := out[(oy*l.ow+ox)*l.f : (oy*l.ow+ox+1)*l.f]
			copy(o, l.b)
			for ky := range l.kh {
				y := oy + ky - l.top
				if y < 0 || y >= l.h {
					continue
				}
				for kx := range l.kw {
					x := ox + kx - l.left
					if x < 0 || x >= l.w {
						continue
					}
					px := in[(y*l.w+x)*l.c : (y*l.w+x+1)*l.c]
					wk := l.wt[(ky*l.kw+kx)*l.c*l.f:]
					for ci, v := range px {
						wr := wk[ci*l.f : (ci+1)*l.f]
						for fi, wv := range wr {
							o[fi] += v * wv
						}
					}
				}
			}
		}
	}
	l.a.apply(out)
	return out
}

func (l *conv) backward(dout []float64, first bool) []float64 {
	l.a.grad(l.out, dout)
	if !first {
		clear(l.din)
	}
	for oy := range l.oh {
		for ox := range l.ow {
			d := dout[(oy*l.ow+ox)*l.f : (oy*l.ow+ox+1)*l.f]
			for fi, v := range d {
				l.gb[fi] += v
			}
			for ky := range l.kh {
				y := oy + ky - l.top
				if y < 0 || y >= l.h {
					continue
				}
				for kx := range l.kw {
					x := ox + kx - l.left
					if x < 0 || x >= l.w {
						continue
					}
					base := (y*l.w + x) * l.c
					px := l.in[base : base+l.c]
					off := (ky*l.kw + kx) * l.c * l.f
					for ci, v := range px {
						gr := l.gw[off+ci*l.f : off+(ci+1)*l.f]
						wr := l.wt[off+ci*l.f : off+(ci+1)*l.f]
						s := 0.0
						for fi, dv := range d {
							gr[fi] += v * dv
							s += wr[fi] * dv
						}
						if !first {
							l.din[base+ci] += s
						}
					}
				}
			}
		}
	}
	return l.din
}

// pool is a MaxPooling2D of a ph×pw window, stride the window, valid.
type pool struct {
	h, w, c, ph, pw, oh, ow int
	arg                     []int // the input index of each output's maximum
	out, din                []float64
}

func (l *pool) forward(in []float64, _ bool, _ *rand.Rand) []float64 {
	for oy := range l.oh {
		for ox := range l.ow {
			for ci := range l.c {
				best, at := math.Inf(-1), 0
				for y := oy * l.ph; y < (oy+1)*l.ph; y++ {
					for x := ox * l.pw; x < (ox+1)*l.pw; x++ {
						if i := (y*l.w+x)*l.c + ci; in[i] > best {
							best, at = in[i], i
						}
					}
				}
				o := (oy*l.ow+ox)*l.c + ci
				l.out[o], l.arg[o] = best, at
			}
		}
	}
	return l.out
}

func (l *pool) backward(dout []float64, _ bool) []float64 {
	clear(l.din)
	for o, i := range l.arg {
		l.din[i] += dout[o]
	}
	return l.din
}

// dropout zeroes each input with probability rate while training and
// scales the others by 1/(1 − rate) (inverted dropout, as Keras).
type dropout struct {
	rate      float64
	mask, out []float64
}

func (l *dropout) forward(in []float64, train bool, rng *rand.Rand) []float64 {
	if !train || l.rate == 0 {
		copy(l.out, in)
		for i := range l.mask {
			l.mask[i] = 1
		}
		return l.out
	}
	keep := 1 / (1 - l.rate)
	for i, v := range in {
		l.mask[i] = 0
		if rng.Float64() >= l.rate {
			l.mask[i] = keep
		}
		l.out[i] = v * l.mask[i]
	}
	return l.out
}

func (l *dropout) backward(dout []float64, _ bool) []float64 {
	for i := range dout {
		dout[i] *= l.mask[i]
	}
	return dout
}

// dense is y = a(x·W + b), W in×out row-major. The output layer's
// activation is left to the loss (softmax cross-entropy).
type dense struct {
	n, m          int
	a             act
	wt, b, gw, gb []float64
	in, out, din  []float64
}

func (l *dense) forward(in []float64, _ bool, _ *rand.Rand) []float64 {
	l.in = in
	copy(l.out, l.b)
	for i, v := range in {
		if v == 0 {
			continue // after a relu, often
		}
		for j, wv := range l.wt[i*l.m : (i+1)*l.m] {
			l.out[j] += v * wv
		}
	}
	l.a.apply(l.out)
	return l.out
}

func (l *dense) backward(dout []float64, first bool) []float64 {
	l.a.grad(l.out, dout)
	for j, d := range dout {
		l.gb[j] += d
	}
	for i, v := range l.in {
		gr := l.gw[i*l.m : (i+1)*l.m]
		wr := l.wt[i*l.m : (i+1)*l.m]
		s := 0.0
		for j, d := range dout {
			gr[j] += v * d
			s += wr[j] * d
		}
		if !first {
			l.din[i] = s
		}
	}
	return l.din
}

// Net is a trainable network built from a tinyml.Network. It owns its
// buffers and is not safe for concurrent use.
type Net struct {
	layers        []layer
	params, grads []float64
	classes       int
	probs, dprobs []float64 // the output and its gradient, allocated once
}

// Build makes the network n for inputs of shape n.Input and classes
// outputs, with Keras's initialisation drawn from seed: Glorot uniform
// weights, zero biases. A network Analyze refuses (a kernel larger than
// its input) or whose output layer does not have classes units is an
// error.
func Build(n tinyml.Network, classes int, seed uint64) (*Net, error) {
	if _, err := tinyml.Analyze(n, 1); err != nil {
		return nil, err
	}
	last := -1
	for i, l := range n.Layers {
		if l.Type == tinyml.Dense {
			last = i
		}
	}
	if u := n.Layers[last].Units; u != classes {
		return nil, fmt.Errorf("network: layers[%d].units: the output layer has %d units, the data %d classes", last, u, classes)
	}
	if last != len(n.Layers)-1 {
		return nil, errors.New("network: the output Dense layer must be the last layer")
	}
	net := &Net{classes: classes}
	type init struct {
		w           []float64
		fanIn, fOut int
	}
	var inits []init
	var views []*[]float64 // filled once params is allocated: weights, biases, their gradients
	var sizes []int
	alloc := func(size int, dst ...*[]float64) {
		for _, d := range dst {
			views, sizes = append(views, d), append(sizes, size)
		}
	}
	h, w, c := n.Input[0], n.Input[1], n.Input[2]
	flat := false
	for i, spec := range n.Layers {
		a := act(strings.ToLower(spec.Activation))
		switch spec.Type {
		case tinyml.Conv2D:
			l := &conv{h: h, w: w, c: c, kh: spec.Kernel[0], kw: spec.Kernel[1], f: spec.Filters, a: a}
			l.oh, l.ow = h-l.kh+1, w-l.kw+1
			if spec.Padding == "same" { // Keras: the extra row and column go after
				l.oh, l.ow, l.top, l.left = h, w, (l.kh-1)/2, (l.kw-1)/2
			}
			k := l.kh * l.kw * c * l.f
			alloc(k, &l.wt, &l.gw)
			alloc(l.f, &l.b, &l.gb)
			inits = append(inits, init{nil, l.kh * l.kw * c, l.kh * l.kw * l.f})
			l.out, l.din = make([]float64, l.oh*l.ow*l.f), make([]float64, h*w*c)
			net.layers = append(net.layers, l)
			h, w, c = l.oh, l.ow, l.f
		case tinyml.MaxPool2D:
			if spec.Pool[0] == 1 && spec.Pool[1] == 1 {
				continue
			}
			l := &pool{h: h, w: w, c: c, ph: spec.Pool[0], pw: spec.Pool[1], oh: h / spec.Pool[0], ow: w / spec.Pool[1]}
			l.arg, l.out, l.din = make([]int, l.oh*l.ow*c), make([]float64, l.oh*l.ow*c), make([]float64, h*w*c)
			net.layers = append(net.layers, l)
			h, w = l.oh, l.ow
		case tinyml.Dropout:
			size := h * w * c
			net.layers = append(net.layers, &dropout{rate: spec.Rate, mask: make([]float64, size), out: make([]float64, size)})
		case tinyml.Flatten:
			flat = true
		case tinyml.Dense:
			in := h * w * c
			if i == last {
				a = "" // softmax, in the loss
			}
			l := &dense{n: in, m: spec.Units, a: a}
			alloc(in*spec.Units, &l.wt, &l.gw)
			alloc(spec.Units, &l.b, &l.gb)
			inits = append(inits, init{nil, in, spec.Units})
			l.out, l.din = make([]float64, spec.Units), make([]float64, in)
			net.layers = append(net.layers, l)
			h, w, c, flat = 1, 1, spec.Units, true
		}
	}
	_ = flat // a Dense flattens what it gets, as Analyze assumes
	total := 0
	for i := 0; i < len(sizes); i += 2 { // (param, grad) pairs
		total += sizes[i]
	}
	net.params, net.grads = make([]float64, total), make([]float64, total)
	off := 0
	for i := 0; i < len(views); i += 2 {
		*views[i], *views[i+1] = net.params[off:off+sizes[i]], net.grads[off:off+sizes[i]]
		off += sizes[i]
	}
	// Weights come first of each layer's pair of allocations, biases
	// (zero) second.
	rng := rand.New(rand.NewPCG(seed, 0x9107))
	k := 0
	for i := 0; i < len(views); i += 4 {
		limit := math.Sqrt(6 / float64(inits[k].fanIn+inits[k].fOut))
		for j := range *views[i] {
			(*views[i])[j] = limit * (2*rng.Float64() - 1)
		}
		k++
	}
	net.probs, net.dprobs = make([]float64, classes), make([]float64, classes)
	return net, nil
}

// NumParams is the number of trainable parameters.
func (n *Net) NumParams() int { return len(n.params) }

// forward returns the class probabilities of x (a buffer n owns).
func (n *Net) forward(x []float64, train bool, rng *rand.Rand) []float64 {
	v := x
	for _, l := range n.layers {
		v = l.forward(v, train, rng)
	}
	top := math.Inf(-1)
	for _, z := range v {
		top = max(top, z)
	}
	s := 0.0
	for j, z := range v {
		n.probs[j] = math.Exp(z - top)
		s += n.probs[j]
	}
	for j := range n.probs {
		n.probs[j] /= s
	}
	return n.probs
}

// step runs x forward and back with label y, adding the gradients of its
// cross-entropy loss, which it returns.
func (n *Net) step(x []float64, y int, rng *rand.Rand) float64 {
	p := n.forward(x, true, rng)
	loss := -math.Log(max(p[y], 1e-300))
	d := n.dprobs // softmax cross-entropy: p − onehot(y)
	copy(d, p)
	d[y]--
	for i := len(n.layers) - 1; i >= 0; i-- {
		d = n.layers[i].backward(d, i == 0)
	}
	return loss
}

// Accuracy is the share of d's examples n classifies right, in %.
func (n *Net) Accuracy(d Data) float64 {
	right := 0
	for i := range d.Len() {
		p := n.forward(d.example(i), false, nil)
		best := 0
		for j := range p {
			if p[j] > p[best] {
				best = j
			}
		}
		if best == d.Y[i] {
			right++
		}
	}
	return 100 * float64(right) / float64(d.Len())
}
