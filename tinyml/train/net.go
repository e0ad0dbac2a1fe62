package train

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/boaopt/boa/tinyml"
)

// layer is one step of the network on a batch of b examples, stored
// one after the other. forward reads in and returns its output (a buffer
// it owns, room for the largest batch allocated once); backward takes the
// gradient of the loss with respect to that output, adds its parameters'
// gradients and returns the gradient with respect to its input (nil for
// the first layer, which needs none). A whole batch goes through each
// layer at once so that a dense layer reads each row of its weights once
// per batch, not once per example: the weights of the HAR baseline's first
// dense layer (5.8 MB) do not fit a cache (spec constrained-autotinyml
// §5.7 asks for about 10 s per baseline epoch). Each example's arithmetic,
// and each gradient's order of summation over the examples, is the same
// as one example at a time.
type layer interface {
	forward(in []float64, b int, train bool) []float64
	backward(dout []float64, b int, first bool) []float64
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

func (l *conv) forward(in []float64, b int, _ bool) []float64 {
	l.in = in
	inSize, outSize := l.h*l.w*l.c, l.oh*l.ow*l.f
	for e := range b {
		in, out := in[e*inSize:(e+1)*inSize], l.out[e*outSize:(e+1)*outSize]
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
	}
	out := l.out[:b*outSize]
	l.a.apply(out)
	return out
}

func (l *conv) backward(dout []float64, b int, first bool) []float64 {
	inSize, outSize := l.h*l.w*l.c, l.oh*l.ow*l.f
	l.a.grad(l.out[:b*outSize], dout)
	if !first {
		clear(l.din[:b*inSize])
	}
	for e := range b {
		in, dout := l.in[e*inSize:(e+1)*inSize], dout[e*outSize:(e+1)*outSize]
		din := l.din[e*inSize : (e+1)*inSize]
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
						px := in[base : base+l.c]
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
								din[base+ci] += s
							}
						}
					}
				}
			}
		}
	}
	return l.din[:b*inSize]
}

// pool is a MaxPooling2D of a ph×pw window, stride the window, valid.
type pool struct {
	h, w, c, ph, pw, oh, ow int
	arg                     []int // the input index of each output's maximum
	out, din                []float64
}

func (l *pool) forward(in []float64, b int, _ bool) []float64 {
	inSize, outSize := l.h*l.w*l.c, l.oh*l.ow*l.c
	for e := range b {
		in, out, arg := in[e*inSize:(e+1)*inSize], l.out[e*outSize:(e+1)*outSize], l.arg[e*outSize:(e+1)*outSize]
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
					out[o], arg[o] = best, at
				}
			}
		}
	}
	return l.out[:b*outSize]
}

func (l *pool) backward(dout []float64, b int, _ bool) []float64 {
	inSize, outSize := l.h*l.w*l.c, l.oh*l.ow*l.c
	clear(l.din[:b*inSize])
	for e := range b {
		din := l.din[e*inSize : (e+1)*inSize]
		for o, i := range l.arg[e*outSize : (e+1)*outSize] {
			din[i] += dout[e*outSize+o]
		}
	}
	return l.din[:b*inSize]
}

// dropout zeroes each input with probability rate while training and
// scales the others by 1/(1 − rate) (inverted dropout, as Keras). The
// masks are drawn before the batch goes forward (draw), example by
// example, so that the draws come in the same order as one example at a
// time through the whole network.
type dropout struct {
	size      int
	rate      float64
	mask, out []float64
}

// draw draws example e's mask.
func (l *dropout) draw(e int, rng *rand.Rand) {
	keep := 1 / (1 - l.rate)
	for i := range l.mask[e*l.size : (e+1)*l.size] {
		m := 0.0
		if rng.Float64() >= l.rate {
			m = keep
		}
		l.mask[e*l.size+i] = m
	}
}

func (l *dropout) forward(in []float64, b int, train bool) []float64 {
	out, mask := l.out[:b*l.size], l.mask[:b*l.size]
	if !train || l.rate == 0 {
		copy(out, in)
		for i := range mask {
			mask[i] = 1
		}
		return out
	}
	for i, v := range in[:b*l.size] {
		out[i] = v * mask[i]
	}
	return out
}

func (l *dropout) backward(dout []float64, b int, _ bool) []float64 {
	for i, m := range l.mask[:b*l.size] {
		dout[i] *= m
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

func (l *dense) forward(in []float64, b int, _ bool) []float64 {
	l.in = in
	out := l.out[:b*l.m]
	for e := range b {
		copy(out[e*l.m:(e+1)*l.m], l.b)
	}
	// Row i of the weights, once for the whole batch.
	for i := range l.n {
		wr := l.wt[i*l.m : (i+1)*l.m]
		for e := range b {
			v := in[e*l.n+i]
			if v == 0 {
				continue // after a relu, often
			}
			o := out[e*l.m : (e+1)*l.m]
			for j, wv := range wr {
				o[j] += v * wv
			}
		}
	}
	l.a.apply(out)
	return out
}

func (l *dense) backward(dout []float64, b int, first bool) []float64 {
	l.a.grad(l.out[:b*l.m], dout)
	for e := range b {
		for j, d := range dout[e*l.m : (e+1)*l.m] {
			l.gb[j] += d
		}
	}
	for i := range l.n {
		gr := l.gw[i*l.m : (i+1)*l.m]
		wr := l.wt[i*l.m : (i+1)*l.m]
		for e := range b {
			v, d := l.in[e*l.n+i], dout[e*l.m:(e+1)*l.m]
			s := 0.0
			for j, dv := range d {
				gr[j] += v * dv
				s += wr[j] * dv
			}
			if !first {
				l.din[e*l.n+i] = s
			}
		}
	}
	return l.din[:b*l.n]
}

// Net is a trainable network built from a tinyml.Network. It owns its
// buffers and is not safe for concurrent use.
type Net struct {
	layers        []layer
	params, grads []float64
	classes       int
	batch, inSize int        // the largest batch and an example's size
	x             []float64  // a training batch, gathered
	probs, dprobs []float64  // the output and its gradient
	drops         []*dropout // the dropout layers, to draw their masks
}

// Build makes the network n for inputs of shape n.Input and classes
// outputs, with Keras's initialisation drawn from seed: Glorot uniform
// weights, zero biases. A network Analyze refuses (a kernel larger than
// its input) or whose output layer does not have classes units is an
// error. Its buffers hold batches of up to 32 examples (Config's
// default).
func Build(n tinyml.Network, classes int, seed uint64) (*Net, error) {
	return build(n, classes, seed, 32)
}

// build is Build with buffers for batches of up to batch examples, all
// allocated here: training allocates nothing per batch or example.
func build(n tinyml.Network, classes int, seed uint64, batch int) (*Net, error) {
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
	net := &Net{classes: classes, batch: batch, inSize: n.Input[0] * n.Input[1] * n.Input[2]}
	buf := func(size int) []float64 { return make([]float64, batch*size) }
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
			l.out, l.din = buf(l.oh*l.ow*l.f), buf(h*w*c)
			net.layers = append(net.layers, l)
			h, w, c = l.oh, l.ow, l.f
		case tinyml.MaxPool2D:
			if spec.Pool[0] == 1 && spec.Pool[1] == 1 {
				continue
			}
			l := &pool{h: h, w: w, c: c, ph: spec.Pool[0], pw: spec.Pool[1], oh: h / spec.Pool[0], ow: w / spec.Pool[1]}
			l.arg, l.out, l.din = make([]int, batch*l.oh*l.ow*c), buf(l.oh*l.ow*c), buf(h*w*c)
			net.layers = append(net.layers, l)
			h, w = l.oh, l.ow
		case tinyml.Dropout:
			size := h * w * c
			l := &dropout{size: size, rate: spec.Rate, mask: buf(size), out: buf(size)}
			net.layers, net.drops = append(net.layers, l), append(net.drops, l)
		case tinyml.Flatten: // a Dense flattens what it gets, as Analyze assumes
		case tinyml.Dense:
			in := h * w * c
			if i == last {
				a = "" // softmax, in the loss
			}
			l := &dense{n: in, m: spec.Units, a: a}
			alloc(in*spec.Units, &l.wt, &l.gw)
			alloc(spec.Units, &l.b, &l.gb)
			inits = append(inits, init{nil, in, spec.Units})
			l.out, l.din = buf(spec.Units), buf(in)
			net.layers = append(net.layers, l)
			h, w, c = 1, 1, spec.Units
		}
	}
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
	net.x, net.probs, net.dprobs = buf(net.inSize), buf(classes), buf(classes)
	return net, nil
}

// NumParams is the number of trainable parameters.
func (n *Net) NumParams() int { return len(n.params) }

// forward returns the class probabilities of the b examples in x, one
// after the other (a buffer n owns). While training it first draws the
// dropout masks from rng, example by example.
func (n *Net) forward(x []float64, b int, train bool, rng *rand.Rand) []float64 {
	if train {
		for e := range b {
			for _, d := range n.drops {
				if d.rate > 0 {
					d.draw(e, rng)
				}
			}
		}
	}
	v := x
	for _, l := range n.layers {
		v = l.forward(v, b, train)
	}
	for e := range b {
		z, p := v[e*n.classes:(e+1)*n.classes], n.probs[e*n.classes:(e+1)*n.classes]
		top := math.Inf(-1)
		for _, zj := range z {
			top = max(top, zj)
		}
		s := 0.0
		for j, zj := range z {
			p[j] = math.Exp(zj - top)
			s += p[j]
		}
		for j := range p {
			p[j] /= s
		}
	}
	return n.probs[:b*n.classes]
}

// step runs the examples x, of classes y, forward and back, adding the
// gradients of their summed cross-entropy loss.
func (n *Net) step(x []float64, y []int, rng *rand.Rand) {
	p := n.forward(x, len(y), true, rng)
	d := n.dprobs[:len(p)] // softmax cross-entropy: p − onehot(y)
	copy(d, p)
	for e, c := range y {
		d[e*n.classes+c]--
	}
	for i := len(n.layers) - 1; i >= 0; i-- {
		d = n.layers[i].backward(d, len(y), i == 0)
	}
}

// Predict returns the class probabilities (softmax) of one example x of
// the network's input shape, in a new slice. Like every method of Net it
// uses n's buffers: one call at a time. A wrong length panics.
func (n *Net) Predict(x []float64) []float64 {
	if len(x) != n.inSize {
		panic(fmt.Sprintf("train: Predict: %d values for an input of %d", len(x), n.inSize))
	}
	return slices.Clone(n.forward(x, 1, false, nil))
}

// Accuracy is the share of d's examples n classifies right, in %.
func (n *Net) Accuracy(d Data) float64 {
	right := 0
	for start := 0; start < d.Len(); start += n.batch {
		b := min(n.batch, d.Len()-start)
		p := n.forward(d.X[start*n.inSize:(start+b)*n.inSize], b, false, nil)
		for e := range b {
			pe := p[e*n.classes : (e+1)*n.classes]
			best := 0
			for j := range pe {
				if pe[j] > pe[best] {
					best = j
				}
			}
			if best == d.Y[start+e] {
				right++
			}
		}
	}
	return 100 * float64(right) / float64(d.Len())
}
