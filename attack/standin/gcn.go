package standin

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/boaopt/boa/attack"
)

// The GCN victim's sizes and training (spec §3; Kipf and Welling's
// propagation rule).
const (
	gcnFeatures = 10 // one-hot of min(degree, 9)
	gcnHidden   = 16
	gcnClasses  = 2
	gcnTrainN   = 1000 // training graphs
	gcnTestN    = 300  // held-out graphs
	gcnEpochs   = 20
	gcnBatch    = 32
	gcnLR       = 0.01 // Adam's step; β₁ 0.9, β₂ 0.999, ε 1e-8
	initStream  = 0x91
	orderStream = 0x0d
)

// The parameters, one slice: W1 (10×16), b1, W2 (16×16), b2, Wo (16×2),
// bo, matrices row-major (input × output).
const (
	offW1    = 0
	offB1    = offW1 + gcnFeatures*gcnHidden
	offW2    = offB1 + gcnHidden
	offB2    = offW2 + gcnHidden*gcnHidden
	offWo    = offB2 + gcnHidden
	offBo    = offWo + gcnHidden*gcnClasses
	gcnParam = offBo + gcnClasses
)

// GCN is the graph stand-in of spec §3: a two-layer graph convolutional
// network with sum pooling trained on ERGraphs to tell disconnected
// graphs (1) from connected ones (0). With Â = D^-½(A + I)D^-½ and X the
// one-hot of each node's degree, capped at 9:
//
//	H1 = relu(Â X W1 + b1), H2 = relu(Â H1 W2 + b2), s = Σ_nodes H2,
//	scores = softmax(s Wo + bo).
//
// It implements attack.Victim[attack.Graph]; its weights do not change
// after training, so it is safe for concurrent use.
type GCN struct {
	w    []float64
	acc  float64
	test []GraphExample
}

// TrainGCN trains the victim on ERGraphs(1000, 2·seed) and measures it
// on ERGraphs(300, 2·seed + 1): Glorot-uniform weights and the order of
// the graphs drawn from seed, cross-entropy, Adam (step 0.01), 20 epochs
// of batches of 32.
func TrainGCN(seed uint64) (*GCN, error) {
	trainSet, test := ERGraphs(gcnTrainN, 2*seed), ERGraphs(gcnTestN, 2*seed+1)
	g := &GCN{w: initWeights(seed), test: test}
	prepared := make([]*prepared, len(trainSet))
	for i, e := range trainSet {
		prepared[i] = prepare(e.Graph)
	}
	rng := rand.New(rand.NewPCG(seed, orderStream))
	order := rng.Perm(len(trainSet))
	opt := newAdam(gcnParam, gcnLR)
	grad := make([]float64, gcnParam)
	for range gcnEpochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for start := 0; start < len(order); start += gcnBatch {
			batch := order[start:min(start+gcnBatch, len(order))]
			clear(grad)
			for _, i := range batch {
				g.backward(g.forward(prepared[i]), trainSet[i].Label, grad)
			}
			for i := range grad {
				grad[i] /= float64(len(batch))
			}
			opt.step(g.w, grad)
		}
	}
	right := 0
	for _, e := range test {
		p := g.forward(prepare(e.Graph)).p
		if argmax2(p) == e.Label {
			right++
		}
	}
	g.acc = float64(right) / float64(len(test))
	return g, nil
}

// Scores returns the softmax probabilities of connected (0) and
// disconnected (1). A graph with no node, or with an edge that is a
// loop, repeated or out of range, is an error.
func (g *GCN) Scores(x attack.Graph) ([]float64, error) {
	if x.N < 1 {
		return nil, fmt.Errorf("gcn victim: a graph of %d nodes, want at least 1", x.N)
	}
	if _, err := attack.NewGraph(x.N, x.Edges); err != nil {
		return nil, fmt.Errorf("gcn victim: %w", err)
	}
	return g.forward(prepare(x)).p, nil
}

// Accuracy is the share of the 300 held-out graphs classified right, in
// [0, 1].
func (g *GCN) Accuracy() float64 { return g.acc }

// Test returns the held-out graphs, as copies.
func (g *GCN) Test() []GraphExample {
	out := make([]GraphExample, len(g.test))
	for i, e := range g.test {
		out[i] = GraphExample{Graph: attack.Graph{N: e.Graph.N, Edges: append([][2]int(nil), e.Graph.Edges...)}, Label: e.Label}
	}
	return out
}

func argmax2(p []float64) int {
	if p[1] > p[0] {
		return 1
	}
	return 0
}

// initWeights draws the weight matrices Glorot-uniform from seed; the
// biases start at zero.
func initWeights(seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, initStream))
	w := make([]float64, gcnParam)
	for _, m := range []struct{ off, in, out int }{
		{offW1, gcnFeatures, gcnHidden}, {offW2, gcnHidden, gcnHidden}, {offWo, gcnHidden, gcnClasses},
	} {
		limit := math.Sqrt(6 / float64(m.in+m.out))
		for i := range m.in * m.out {
			w[m.off+i] = limit * (2*rng.Float64() - 1)
		}
	}
	return w
}

// prepared is what the network needs of a graph: each node's neighbours,
// 1/√(degree + 1), and Â X, which does not depend on the weights.
type prepared struct {
	n    int
	nbr  [][]int
	norm []float64
	ax   []float64 // n × gcnFeatures
}

func prepare(g attack.Graph) *prepared {
	p := &prepared{n: g.N, nbr: make([][]int, g.N), norm: make([]float64, g.N)}
	for _, e := range g.Edges {
		p.nbr[e[0]] = append(p.nbr[e[0]], e[1])
		p.nbr[e[1]] = append(p.nbr[e[1]], e[0])
	}
	x := make([]float64, g.N*gcnFeatures)
	for i, nb := range p.nbr {
		p.norm[i] = 1 / math.Sqrt(float64(len(nb)+1))
		x[i*gcnFeatures+min(len(nb), gcnFeatures-1)] = 1
	}
	p.ax = p.propagate(x, gcnFeatures)
	return p
}

// propagate returns Â M for an n × k matrix M: row i is
// norm_i Σ_{j ∈ N(i) ∪ {i}} norm_j M_j. Â is symmetric, so this is also
// the backward pass of a multiplication by Â.
func (p *prepared) propagate(m []float64, k int) []float64 {
	out := make([]float64, p.n*k)
	for i, nb := range p.nbr {
		o := out[i*k : (i+1)*k]
		add := func(j int) {
			for f, v := range m[j*k : (j+1)*k] {
				o[f] += p.norm[j] * v
			}
		}
		add(i)
		for _, j := range nb {
			add(j)
		}
		for f := range o {
			o[f] *= p.norm[i]
		}
	}
	return out
}

// pass is one graph's forward pass, kept for the backward one.
type pass struct {
	g      *prepared
	h1, a1 []float64 // H1, and Â H1
	h2     []float64 // H2
	s, p   []float64 // the pooled features and the scores
}

// affine returns relu(M W + b) for an n × in matrix M and the in × out
// W at off, with b after it, when relu is true; M W + b otherwise.
func (g *GCN) affine(m []float64, n, in, out, off int, relu bool) []float64 {
	w, b := g.w[off:off+in*out], g.w[off+in*out:off+in*out+out]
	z := make([]float64, n*out)
	for r := range n {
		zr := z[r*out : (r+1)*out]
		copy(zr, b)
		for i, v := range m[r*in : (r+1)*in] {
			if v == 0 {
				continue
			}
			for o, wv := range w[i*out : (i+1)*out] {
				zr[o] += v * wv
			}
		}
		if relu {
			for o := range zr {
				zr[o] = max(zr[o], 0)
			}
		}
	}
	return z
}

func (g *GCN) forward(pg *prepared) *pass {
	ps := &pass{g: pg}
	ps.h1 = g.affine(pg.ax, pg.n, gcnFeatures, gcnHidden, offW1, true)
	ps.a1 = pg.propagate(ps.h1, gcnHidden)
	ps.h2 = g.affine(ps.a1, pg.n, gcnHidden, gcnHidden, offW2, true)
	ps.s = make([]float64, gcnHidden)
	for r := range pg.n {
		for f, v := range ps.h2[r*gcnHidden : (r+1)*gcnHidden] {
			ps.s[f] += v
		}
	}
	z := g.affine(ps.s, 1, gcnHidden, gcnClasses, offWo, false)
	top := max(z[0], z[1])
	e0, e1 := math.Exp(z[0]-top), math.Exp(z[1]-top)
	ps.p = []float64{e0 / (e0 + e1), e1 / (e0 + e1)}
	return ps
}

// backward adds to grad the gradient of the cross-entropy −log p_label
// of the pass ps.
func (g *GCN) backward(ps *pass, label int, grad []float64) {
	n := ps.g.n
	dz := []float64{ps.p[0], ps.p[1]} // softmax cross-entropy: p − onehot
	dz[label]--
	ds := make([]float64, gcnHidden)
	for i, v := range ps.s {
		for o := range gcnClasses {
			grad[offWo+i*gcnClasses+o] += v * dz[o]
			ds[i] += g.w[offWo+i*gcnClasses+o] * dz[o]
		}
	}
	for o := range gcnClasses {
		grad[offBo+o] += dz[o]
	}
	// Every node's H2 receives ds through the sum; relu lets it through
	// where H2 > 0.
	dz2 := make([]float64, n*gcnHidden)
	for i, v := range ps.h2 {
		if v > 0 {
			dz2[i] = ds[i%gcnHidden]
		}
	}
	da1 := g.affineBack(ps.a1, dz2, n, gcnHidden, gcnHidden, offW2, grad)
	dz1 := ps.g.propagate(da1, gcnHidden)
	for i, v := range ps.h1 {
		if v <= 0 {
			dz1[i] = 0
		}
	}
	g.affineBack(ps.g.ax, dz1, n, gcnFeatures, gcnHidden, offW1, grad)
}

// affineBack is the backward pass of M W + b (affine without the relu)
// for the gradient dz of its output: it adds Mᵀ dz and Σ_rows dz to the
// gradients of W and b and returns dz Wᵀ.
func (g *GCN) affineBack(m, dz []float64, n, in, out, off int, grad []float64) []float64 {
	w, gw, gb := g.w[off:off+in*out], grad[off:off+in*out], grad[off+in*out:off+in*out+out]
	dm := make([]float64, n*in)
	for r := range n {
		dr := dz[r*out : (r+1)*out]
		for o, d := range dr {
			gb[o] += d
		}
		for i, v := range m[r*in : (r+1)*in] {
			s := 0.0
			for o, d := range dr {
				gw[i*out+o] += v * d
				s += w[i*out+o] * d
			}
			dm[r*in+i] = s
		}
	}
	return dm
}

// adam is Kingma and Ba's optimiser with β₁ = 0.9, β₂ = 0.999, ε = 1e-8.
type adam struct {
	lr   float64
	m, v []float64
	t    int
}

func newAdam(n int, lr float64) *adam {
	return &adam{lr: lr, m: make([]float64, n), v: make([]float64, n)}
}

func (a *adam) step(w, grad []float64) {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	a.t++
	c1, c2 := 1-math.Pow(b1, float64(a.t)), 1-math.Pow(b2, float64(a.t))
	for i, gr := range grad {
		a.m[i] = b1*a.m[i] + (1-b1)*gr
		a.v[i] = b2*a.v[i] + (1-b2)*gr*gr
		w[i] -= a.lr * (a.m[i] / c1) / (math.Sqrt(a.v[i]/c2) + eps)
	}
}
