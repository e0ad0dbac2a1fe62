package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
)

// errDiverged reports a non-finite training loss: the learning rate (or
// momentum) is too large for this network.
var errDiverged = errors.New("training diverged")

// hyper are the hyper-parameters of one training run.
type hyper struct {
	lr, l2, momentum      float64
	hidden, epochs, batch int
	activation            string // relu or tanh
	seed                  uint64
}

// mlp is a network 64 → hidden → 10 with a softmax output. All parameters
// live in one slice so that SGD, momentum and the gradient check treat them
// uniformly; views cuts it into W1 (hidden×in, row-major), b1, W2
// (out×hidden) and b2.
type mlp struct {
	in, hidden, out int
	relu            bool
	w               []float64
}

func newMLP(in, hidden, out int, relu bool, rng *rand.Rand) *mlp {
	m := &mlp{in: in, hidden: hidden, out: out, relu: relu}
	m.w = make([]float64, hidden*in+hidden+out*hidden+out)
	w1, _, w2, _ := m.views(m.w)
	// He initialisation for ReLU, Glorot-style 1/fan_in for tanh: both keep
	// the variance of the activations about constant from layer to layer.
	gain := 1.0
	if relu {
		gain = 2
	}
	s1, s2 := math.Sqrt(gain/float64(in)), math.Sqrt(gain/float64(hidden))
	for i := range w1 {
		w1[i] = s1 * rng.NormFloat64()
	}
	for i := range w2 {
		w2[i] = s2 * rng.NormFloat64()
	}
	return m
}

// nWeights is the number of trainable parameters, biases included.
func (m *mlp) nWeights() int { return len(m.w) }

// views cuts a parameter-shaped slice (the weights or a gradient) into its
// four blocks.
func (m *mlp) views(w []float64) (w1, b1, w2, b2 []float64) {
	a := m.hidden * m.in
	b := a + m.hidden
	c := b + m.out*m.hidden
	return w[:a], w[a:b], w[b:c], w[c:]
}

// scratch holds the per-example activations, reused across calls.
type scratch struct {
	z1, a1, z2, d1 []float64
}

func (m *mlp) newScratch() *scratch {
	return &scratch{
		z1: make([]float64, m.hidden), a1: make([]float64, m.hidden),
		z2: make([]float64, m.out), d1: make([]float64, m.hidden),
	}
}

// forward fills s.z1, s.a1 and the logits s.z2 for one image.
func (m *mlp) forward(x []float64, s *scratch) {
	w1, b1, w2, b2 := m.views(m.w)
	for j := range m.hidden {
		z := b1[j]
		row := w1[j*m.in : (j+1)*m.in]
		for i, xi := range x {
			z += row[i] * xi
		}
		s.z1[j] = z
		if m.relu {
			s.a1[j] = max(z, 0)
		} else {
			s.a1[j] = math.Tanh(z)
		}
	}
	for k := range m.out {
		z := b2[k]
		row := w2[k*m.hidden : (k+1)*m.hidden]
		for j, a := range s.a1 {
			z += row[j] * a
		}
		s.z2[k] = z
	}
}

// predict returns the most probable class of x.
func (m *mlp) predict(x []float64, s *scratch) int {
	m.forward(x, s)
	best := 0
	for k, z := range s.z2 {
		if z > s.z2[best] {
			best = k
		}
	}
	return best
}

// errorRate is the fraction of the rows idx of d that m misclassifies.
func (m *mlp) errorRate(d *dataset, idx []int, s *scratch) float64 {
	wrong := 0
	for _, i := range idx {
		if m.predict(d.x[i], s) != d.y[i] {
			wrong++
		}
	}
	return float64(wrong) / float64(len(idx))
}

// lossGrad returns the objective of a mini-batch,
//
//	L = (1/B) Σ_n [logsumexp(z2_n) − z2_n[y_n]] + (l2/2)(‖W1‖² + ‖W2‖²),
//
// the mean cross-entropy plus weight decay on the weights (not the biases),
// and writes ∂L/∂w into grad by backpropagation.
func (m *mlp) lossGrad(d *dataset, idx []int, l2 float64, grad []float64, s *scratch) float64 {
	clear(grad)
	w1, _, w2, _ := m.views(m.w)
	g1, gb1, g2, gb2 := m.views(grad)
	p := s.z2 // softmax overwrites the logits once they are used
	loss := 0.0
	for _, n := range idx {
		x, y := d.x[n], d.y[n]
		m.forward(x, s)
		// Subtracting the largest logit keeps exp from overflowing; the
		// loss is unchanged.
		zmax := s.z2[0]
		for _, z := range s.z2[1:] {
			zmax = max(zmax, z)
		}
		zy := s.z2[y]
		sum := 0.0
		for k, z := range s.z2 {
			p[k] = math.Exp(z - zmax)
			sum += p[k]
		}
		loss += math.Log(sum) + zmax - zy
		for k := range p {
			p[k] /= sum // δ2 = softmax − onehot(y), built in place
		}
		p[y]--
		clear(s.d1)
		for k, dk := range p {
			gb2[k] += dk
			row := w2[k*m.hidden : (k+1)*m.hidden]
			grow := g2[k*m.hidden : (k+1)*m.hidden]
			for j, a := range s.a1 {
				grow[j] += dk * a
				s.d1[j] += dk * row[j]
			}
		}
		for j, z := range s.z1 {
			dj := s.d1[j]
			if m.relu {
				if z <= 0 {
					continue
				}
			} else {
				dj *= 1 - s.a1[j]*s.a1[j]
			}
			gb1[j] += dj
			grow := g1[j*m.in : (j+1)*m.in]
			for i, xi := range x {
				if xi != 0 { // about half the pixels are blank
					grow[i] += dj * xi
				}
			}
		}
	}
	inv := 1 / float64(len(idx))
	loss *= inv
	for i := range grad {
		grad[i] *= inv
	}
	sq := 0.0
	for i, w := range w1 {
		sq += w * w
		g1[i] += l2 * w
	}
	for i, w := range w2 {
		sq += w * w
		g2[i] += l2 * w
	}
	return loss + 0.5*l2*sq
}

// result is what one training run reports at the end.
type result struct {
	valError, trainError float64
	params               int
}

// train fits an mlp by mini-batch SGD with (heavy-ball) momentum,
//
//	v ← μ·v − η·∇L,  w ← w + v,
//
// reshuffling the training rows every epoch, and writes
// `BOA_REPORT <epoch> <validation error>` to out after each epoch
// (DESIGN.md §2.3). A non-finite loss stops training with errDiverged.
func train(h hyper, d *dataset, trainIdx, valIdx []int, out io.Writer) (result, error) {
	rng := rand.New(rand.NewPCG(h.seed, 0x9e3779b97f4a7c15))
	m := newMLP(nPixels, h.hidden, nClasses, h.activation == "relu", rng)
	s := m.newScratch()
	grad := make([]float64, m.nWeights())
	vel := make([]float64, m.nWeights())
	order := append([]int(nil), trainIdx...)
	bs := min(h.batch, len(order))
	for epoch := 1; epoch <= h.epochs; epoch++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for start := 0; start < len(order); start += bs {
			batch := order[start:min(start+bs, len(order))]
			loss := m.lossGrad(d, batch, h.l2, grad, s)
			if math.IsNaN(loss) || math.IsInf(loss, 0) {
				return result{}, fmt.Errorf("%w in epoch %d: the training loss is %v; lower --lr (now %g)",
					errDiverged, epoch, loss, h.lr)
			}
			for i, g := range grad {
				vel[i] = h.momentum*vel[i] - h.lr*g
				m.w[i] += vel[i]
			}
		}
		// The last update of an epoch is not yet seen by a loss.
		if !allFinite(m.w) {
			return result{}, fmt.Errorf("%w in epoch %d: the weights are no longer finite; lower --lr (now %g)",
				errDiverged, epoch, h.lr)
		}
		fmt.Fprintf(out, "BOA_REPORT %d %s\n", epoch, fmtFloat(m.errorRate(d, valIdx, s)))
	}
	return result{
		valError:   m.errorRate(d, valIdx, s),
		trainError: m.errorRate(d, trainIdx, s),
		params:     m.nWeights(),
	}, nil
}

func allFinite(w []float64) bool {
	for _, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
