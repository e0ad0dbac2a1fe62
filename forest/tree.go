package forest

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// featureTol is the gap below which two values of a feature count as equal
// when splits are enumerated: scikit-learn's FEATURE_THRESHOLD, kept so that a
// tree here and a DecisionTreeRegressor cut at the same places (the reference
// code's forest is scikit-learn's, spec §3.4).
const featureTol = 1e-7

// node is one node of a tree, stored flat. A leaf has feature −1. Every node
// keeps the bootstrap-weighted mean and variance of its targets; Predict reads
// them at the leaves (scikit-learn's value and impurity, which the reference
// code's σ reads, spec §3.4).
type node struct {
	feature     int
	threshold   float64
	left, right int32
	mean        float64
	variance    float64
}

type tree struct{ nodes []node }

// leaf returns the leaf x falls in. x goes left when x[f] ≤ threshold or when
// x[f] is NaN: an inactive variable (the sentinel, see the package comment)
// sits below every number, as Fit stored it.
func (t *tree) leaf(x []float64) *node {
	i := 0
	for {
		n := &t.nodes[i]
		if n.feature < 0 {
			return n
		}
		if v := x[n.feature]; v <= n.threshold || v != v {
			i = int(n.left)
		} else {
			i = int(n.right)
		}
	}
}

// builder grows one tree of Alg. 1 [004 §4.1.2] on one bootstrap sample.
type builder struct {
	cols  [][]float64 // cols[f][i]: feature f of sample i, NaN stored as −Inf
	y     []float64
	w     []float64 // bootstrap count of sample i (1 without bootstrap, 0 if not drawn)
	s     Settings  // resolved: every field set
	rng   *rand.Rand
	feats []int // the features in the order this node draws them
	order []int // scratch: the node's samples sorted by one feature
	nodes []node
}

// grow adds the subtree over the distinct samples idx and returns its index.
// idx is reordered in place (the left child's samples first).
func (b *builder) grow(idx []int, depth int) int32 {
	mean, variance, pure := b.stats(idx)
	id := int32(len(b.nodes))
	b.nodes = append(b.nodes, node{feature: -1, mean: mean, variance: variance})
	// scikit-learn's stopping rules, counted on distinct samples as it does:
	// fewer than MinSplit samples, too few for two leaves of MinLeaf, the
	// depth limit, or all targets equal.
	n := len(idx)
	if pure || n < b.s.MinSplit || n < 2*b.s.MinLeaf || (b.s.MaxDepth > 0 && depth >= b.s.MaxDepth) {
		return id
	}
	f, thr, ok := b.bestSplit(idx, mean)
	if !ok {
		return id
	}
	col := b.cols[f]
	k := 0
	for j, i := range idx {
		if col[i] <= thr {
			idx[k], idx[j] = idx[j], idx[k]
			k++
		}
	}
	l := b.grow(idx[:k], depth+1)
	r := b.grow(idx[k:], depth+1)
	nd := &b.nodes[id]
	nd.feature, nd.threshold, nd.left, nd.right = f, thr, l, r
	return id
}

// stats returns the weighted mean and (population) variance of the targets
// of idx, two-pass for accuracy, and whether all targets are equal. A pure
// node is decided by equality rather than scikit-learn's variance ≤ machine
// ε, which would depend on the scale of y.
func (b *builder) stats(idx []int) (mean, variance float64, pure bool) {
	pure = true
	y0 := b.y[idx[0]]
	var W, S float64
	for _, i := range idx {
		W += b.w[i]
		S += b.w[i] * b.y[i]
		if b.y[i] != y0 {
			pure = false
		}
	}
	if pure {
		return y0, 0, true
	}
	mean = S / W
	var V float64
	for _, i := range idx {
		d := b.y[i] - mean
		V += b.w[i] * d * d
	}
	return mean, V / W, false
}

// bestSplit searches the features of the node in a random order and returns
// the best split among them, or ok = false when no feature admits one (all
// constant, or no cut leaves MinLeaf samples on both sides).
//
// As in scikit-learn, a feature found constant in the node does not use up
// the budget of m = Features: the search goes on until m features have been
// visited and at least one of them was not constant, or the features run out.
// With m = M (the default) every feature is searched. Ties between features
// go to the first one drawn, so the random order is part of the seed's
// forest.
func (b *builder) bestSplit(idx []int, mean float64) (feature int, threshold float64, ok bool) {
	n := len(idx)
	// Sums of the centred targets y − ȳ: the criterion is shift-invariant and
	// centring keeps Σy² − (Σy)²/W from cancelling when y has a large offset.
	var W, S, Q float64
	for _, i := range idx {
		yc := b.y[i] - mean
		W += b.w[i]
		S += b.w[i] * yc
		Q += b.w[i] * yc * yc
	}
	M := len(b.cols)
	for k := range b.feats {
		b.feats[k] = k
	}
	order := b.order[:n]
	best := math.Inf(-1)
	visited, constant := 0, 0
	for k := 0; k < M && (visited < b.s.Features || visited <= constant); k++ {
		j := k + b.rng.IntN(M-k)
		b.feats[k], b.feats[j] = b.feats[j], b.feats[k]
		f := b.feats[k]
		visited++
		col := b.cols[f]
		copy(order, idx)
		slices.SortFunc(order, func(a, c int) int { return cmp.Compare(col[a], col[c]) })
		if col[order[n-1]] <= col[order[0]]+featureTol {
			constant++
			continue
		}
		var wl, sl, ql float64
		for p := 1; p < n; p++ {
			i := order[p-1]
			yc := b.y[i] - mean
			wl += b.w[i]
			sl += b.w[i] * yc
			ql += b.w[i] * yc * yc
			// Cut only between distinct values: thresholds are midpoints of
			// the sorted unique values [spec §4.2].
			if col[order[p]] <= col[i]+featureTol {
				continue
			}
			if p < b.s.MinLeaf || n-p < b.s.MinLeaf {
				continue
			}
			imp := improvement(b.s.Criterion, wl, sl, ql, W-wl, S-sl, Q-ql)
			if imp > best {
				best, feature, ok = imp, f, true
				threshold = midpoint(col[i], col[order[p]])
			}
		}
	}
	return feature, threshold, ok
}

// improvement is the split criterion of spec §4.2 from the weighted sums
// (w, Σwy, Σwy²) of the two children.
//
// SquaredError is the weighted variance reduction
//
//	Var(S) − (|S_t|/|S|)·Var(S_t) − (|S_f|/|S|)·Var(S_f),
//
// scikit-learn's "mse"/"squared_error". Eq. 3.21 of [004 §3.4.1] prints it
// without the weights |S_t|/|S| and |S_f|/|S|; taken literally that rewards
// cutting off a single sample (whose variance is 0), so it is not
// implemented (spec §4.2).
//
// FriedmanMSE is Friedman's improvement n_l n_r/(n_l + n_r)·(ȳ_l − ȳ_r)²
// (Friedman 2001), scikit-learn's "friedman_mse". Within one node it is the
// weighted variance reduction times |S| (both equal n_l n_r (ȳ_l − ȳ_r)² up to
// a factor that depends on the node alone), so the two criteria choose the
// same splits; they differ only by rounding in near-ties.
func improvement(c Criterion, wl, sl, ql, wr, sr, qr float64) float64 {
	w := wl + wr
	if c == FriedmanMSE {
		d := sl/wl - sr/wr
		return wl * wr / w * d * d
	}
	varS := (ql+qr)/w - sq((sl+sr)/w)
	varL := ql/wl - sq(sl/wl)
	varR := qr/wr - sq(sr/wr)
	return varS - wl/w*varL - wr/w*varR
}

func sq(x float64) float64 { return x * x }

// midpoint is the threshold between two consecutive distinct values a < b,
// computed as scikit-learn does (a/2 + b/2, falling back to a when rounding
// reaches b or the sum is infinite) so that thresholds agree bit for bit. A
// cut between the inactive sentinel (−Inf) and an active value therefore has
// threshold −Inf: only inactive samples go left.
func midpoint(a, b float64) float64 {
	t := a/2 + b/2
	if t == b || math.IsInf(t, 0) || math.IsNaN(t) {
		t = a
	}
	return t
}
