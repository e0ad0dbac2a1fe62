package tse

import (
	"math"
	"math/rand/v2"
)

// Shape sizes a network: In inputs, Width features per node, Classes
// outputs, Cells stacked copies of the cell, and Rows the most rows one
// pass handles (the minibatch size); every buffer is allocated once for
// Rows rows.
type Shape struct{ In, Width, Classes, Cells, Rows int }

// dense is one affine layer y = x·W + b; W is in×out row-major, so both
// the forward pass and the weight gradient run along contiguous rows of W.
// Its slices are views into the network's flat parameter and gradient
// vectors, which keeps the optimiser and the gradient check one loop each.
type dense struct {
	in, out      int
	w, b, gw, gb []float64
}

// Net is a cell network: dense In→Width with relu, Cells copies of the
// cell (same ops, separate weights), dense Width→Classes, softmax
// cross-entropy. It owns all its buffers and is not safe for concurrent
// use; run one per goroutine.
type Net struct {
	arch          Arch
	sh            Shape
	params, grads []float64
	inp, outp     *dense
	edge          [][6]*dense // per cell; nil on parameter-free edges

	X      []float64      // the input rows, Rows×In, filled by the caller
	node   [][]float64    // cell c node j is node[3c+j]: a cell's output is the next one's input
	eout   [][6][]float64 // post-activation output of each dense edge
	logits []float64
	dnode  [][]float64
	dpre   []float64
	dlog   []float64
}

// NewNet builds the network for a with weights drawn from r: He normal
// (std √(2/in)) where a relu follows, Glorot normal (std √(2/(in+out)))
// for tanh and the output layer, biases zero.
func NewNet(a Arch, sh Shape, r *rand.Rand) *Net {
	n := &Net{arch: a, sh: sh, edge: make([][6]*dense, sh.Cells)}
	var layers []*dense
	var gains []float64 // variance numerator: 2 for He, 2·in/(in+out) for Glorot
	add := func(in, out int, he bool) *dense {
		d := &dense{in: in, out: out}
		layers = append(layers, d)
		if he {
			gains = append(gains, 2)
		} else {
			gains = append(gains, 2*float64(in)/float64(in+out))
		}
		return d
	}
	n.inp = add(sh.In, sh.Width, true)
	for c := range sh.Cells {
		for e, op := range a {
			if op == DenseReLU || op == DenseTanh {
				n.edge[c][e] = add(sh.Width, sh.Width, op == DenseReLU)
			}
		}
	}
	n.outp = add(sh.Width, sh.Classes, false)

	total := 0
	for _, d := range layers {
		total += d.in*d.out + d.out
	}
	n.params, n.grads = make([]float64, total), make([]float64, total)
	off := 0
	for k, d := range layers {
		nw := d.in * d.out
		d.w, d.gw = n.params[off:off+nw], n.grads[off:off+nw]
		d.b, d.gb = n.params[off+nw:off+nw+d.out], n.grads[off+nw:off+nw+d.out]
		off += nw + d.out
		std := math.Sqrt(gains[k] / float64(d.in))
		for i := range d.w {
			d.w[i] = std * r.NormFloat64()
		}
	}

	buf := func() []float64 { return make([]float64, sh.Rows*sh.Width) }
	n.X = make([]float64, sh.Rows*sh.In)
	n.node, n.dnode = make([][]float64, 3*sh.Cells+1), make([][]float64, 3*sh.Cells+1)
	for i := range n.node {
		n.node[i], n.dnode[i] = buf(), buf()
	}
	n.eout = make([][6][]float64, sh.Cells)
	for c := range sh.Cells {
		for e := range a {
			if n.edge[c][e] != nil {
				n.eout[c][e] = buf()
			}
		}
	}
	n.dpre = buf()
	n.logits = make([]float64, sh.Rows*sh.Classes)
	n.dlog = make([]float64, sh.Rows*sh.Classes)
	return n
}

// NumParams is the number of weights and biases.
func (n *Net) NumParams() int { return len(n.params) }

// forward computes y = act(x·W + b) for rows rows; act is DenseReLU,
// DenseTanh or Identity (no activation). Zero inputs are skipped, which
// after a relu is about half of them.
func (d *dense) forward(x, y []float64, rows int, act Op) {
	for r := range rows {
		yr := y[r*d.out : (r+1)*d.out]
		copy(yr, d.b)
		for k, xv := range x[r*d.in : (r+1)*d.in] {
			if xv == 0 {
				continue
			}
			wk := d.w[k*d.out : (k+1)*d.out]
			wk = wk[:len(yr)]
			for o := range yr {
				yr[o] += xv * wk[o]
			}
		}
		switch act {
		case DenseReLU:
			for o, v := range yr {
				yr[o] = max(v, 0)
			}
		case DenseTanh:
			for o, v := range yr {
				yr[o] = math.Tanh(v)
			}
		}
	}
}

// backward takes dy = ∂L/∂y for the rows of forward (x in, y out) and
// accumulates ∂L/∂W, ∂L/∂b and, unless dx is nil, ∂L/∂x += dpre·Wᵀ. The
// activation's derivative comes from its output: relu' = [y > 0],
// tanh' = 1 − y². tmp receives dpre = dy ⊙ act'; it may be dy itself,
// which is then overwritten (the output layer does that with dlog).
func (d *dense) backward(x, y, dy, dx, tmp []float64, rows int, act Op) {
	for r := range rows {
		dr := tmp[r*d.out : (r+1)*d.out]
		copy(dr, dy[r*d.out:(r+1)*d.out])
		yr := y[r*d.out : (r+1)*d.out]
		switch act {
		case DenseReLU:
			for o := range dr {
				if yr[o] <= 0 {
					dr[o] = 0
				}
			}
		case DenseTanh:
			for o := range dr {
				dr[o] *= 1 - yr[o]*yr[o]
			}
		}
		for o, v := range dr {
			d.gb[o] += v
		}
		xr := x[r*d.in : (r+1)*d.in]
		var dxr []float64
		if dx != nil {
			dxr = dx[r*d.in : (r+1)*d.in]
		}
		for k, xv := range xr {
			wk := d.w[k*d.out : (k+1)*d.out]
			wk = wk[:len(dr)]
			if xv != 0 {
				gk := d.gw[k*d.out : (k+1)*d.out]
				gk = gk[:len(dr)]
				for o, v := range dr {
					gk[o] += xv * v
				}
			}
			if dxr != nil {
				var s float64
				for o, v := range dr {
					s += v * wk[o]
				}
				dxr[k] += s
			}
		}
	}
}

// avgPoolAdd adds to y the mean of x over a window of 3 neighbouring
// features (stride 1, same size), padding with zeros and always dividing
// by 3, so the op is a fixed symmetric linear map and its backward pass is
// the same call on the gradients.
func avgPoolAdd(x, y []float64, rows, w int) {
	for r := range rows {
		xr, yr := x[r*w:(r+1)*w], y[r*w:(r+1)*w]
		for k := range yr {
			s := xr[k]
			if k > 0 {
				s += xr[k-1]
			}
			if k+1 < w {
				s += xr[k+1]
			}
			yr[k] += s / 3
		}
	}
}

func addTo(x, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += v
	}
}

// Forward runs the first rows rows of X through the network into the
// logits.
func (n *Net) Forward(rows int) {
	m := rows * n.sh.Width
	n.inp.forward(n.X, n.node[0], rows, DenseReLU)
	for c := range n.sh.Cells {
		nd := n.node[3*c : 3*c+4]
		for j := 1; j <= 3; j++ {
			clear(nd[j][:m])
		}
		for e, ij := range Edges {
			src, dst := nd[ij[0]][:m], nd[ij[1]][:m]
			switch op := n.arch[e]; op {
			case DenseReLU, DenseTanh:
				out := n.eout[c][e][:m]
				n.edge[c][e].forward(src, out, rows, op)
				addTo(out, dst)
			case Identity:
				addTo(src, dst)
			case AvgPool:
				avgPoolAdd(src, dst, rows, n.sh.Width)
			}
		}
	}
	n.outp.forward(n.node[3*n.sh.Cells], n.logits, rows, Identity)
}

// Loss is the softmax cross-entropy of the logits of rows rows against y,
// summed (not averaged) over the rows, and the number of rows whose
// largest logit is the label. It leaves ∂(mean loss)/∂logits in dlog for
// Backward.
func (n *Net) Loss(y []int, rows int) (sum float64, correct int) {
	k := n.sh.Classes
	for r := range rows {
		z, g := n.logits[r*k:(r+1)*k], n.dlog[r*k:(r+1)*k]
		best := 0
		for i, v := range z {
			if v > z[best] {
				best = i
			}
		}
		if best == y[r] {
			correct++
		}
		// log-sum-exp shifted by the maximum, so large logits stay finite.
		var s float64
		for i, v := range z {
			g[i] = math.Exp(v - z[best])
			s += g[i]
		}
		sum += math.Log(s) + z[best] - z[y[r]]
		for i := range g {
			g[i] /= s * float64(rows)
		}
		g[y[r]] -= 1 / float64(rows)
	}
	return sum, correct
}

// Backward accumulates into the gradient the derivative of the mean loss
// of the last Forward and Loss. Node gradients are accumulators: cell c's
// input gradient is cell c−1's output gradient (the same buffer), cleared
// just before cell c starts adding to it.
func (n *Net) Backward(rows int) {
	m, top := rows*n.sh.Width, 3*n.sh.Cells
	clear(n.dnode[top][:m])
	n.outp.backward(n.node[top], n.logits, n.dlog, n.dnode[top], n.dlog, rows, Identity)
	for c := n.sh.Cells - 1; c >= 0; c-- {
		nd, dn := n.node[3*c:3*c+4], n.dnode[3*c:3*c+4]
		for j := range 3 {
			clear(dn[j][:m])
		}
		for e := len(Edges) - 1; e >= 0; e-- {
			i, j := Edges[e][0], Edges[e][1]
			switch op := n.arch[e]; op {
			case DenseReLU, DenseTanh:
				n.edge[c][e].backward(nd[i], n.eout[c][e], dn[j], dn[i], n.dpre, rows, op)
			case Identity:
				addTo(dn[j][:m], dn[i])
			case AvgPool:
				avgPoolAdd(dn[j], dn[i], rows, n.sh.Width)
			}
		}
	}
	n.inp.backward(n.X, n.node[0], n.dnode[0], nil, n.dpre, rows, DenseReLU)
}
