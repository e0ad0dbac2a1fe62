package analysis

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/forest"
)

// cells returns the intervals of [0,1] cut at a tree's thresholds on one
// feature: their midpoints and widths.
func cells(nodes []forest.Node, f int) (mid, size []float64) {
	e := []float64{0, 1}
	for _, n := range nodes {
		if n.Feature == f && n.Threshold > 0 && n.Threshold < 1 {
			e = append(e, n.Threshold)
		}
	}
	slices.Sort(e)
	e = slices.Compact(e)
	for k := 0; k+1 < len(e); k++ {
		mid = append(mid, (e[k]+e[k+1])/2)
		size = append(size, e[k+1]-e[k])
	}
	return mid, size
}

func predict(nodes []forest.Node, x []float64) float64 {
	i := 0
	for nodes[i].Feature >= 0 {
		if x[nodes[i].Feature] <= nodes[i].Threshold {
			i = nodes[i].Left
		} else {
			i = nodes[i].Right
		}
	}
	return nodes[i].Value
}

// The leaf-box decomposition against the brute-force definition in two
// dimensions: the tree evaluated on every cell of the grid its cuts make
// (what Optuna's _FanovaTree enumerates), its variance and the variance of
// each marginal computed from those cells.
func TestDecomposeBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	X := make([][]float64, 150)
	y := make([]float64, len(X))
	for i := range X {
		X[i] = []float64{rng.Float64(), rng.Float64()}
		y[i] = math.Sin(5*X[i][0]) + X[i][1]*X[i][0] + 0.1*rng.NormFloat64()
	}
	f, err := forest.Fit(X, y, forest.Settings{Trees: 8, MaxDepth: 64}, rng)
	if err != nil {
		t.Fatal(err)
	}
	for k := range f.NumTrees() {
		nodes := f.Tree(k)
		tv := decompose(nodes, 2)
		m0, s0 := cells(nodes, 0)
		m1, s1 := cells(nodes, 1)
		var mean float64
		for a := range m0 {
			for b := range m1 {
				mean += s0[a] * s1[b] * predict(nodes, []float64{m0[a], m1[b]})
			}
		}
		var v, v0, v1 float64
		marg1 := make([]float64, len(m1))
		for a := range m0 {
			var marg0 float64
			for b := range m1 {
				z := predict(nodes, []float64{m0[a], m1[b]})
				v += s0[a] * s1[b] * (z - mean) * (z - mean)
				marg0 += s1[b] * z
				marg1[b] += s0[a] * z
			}
			v0 += s0[a] * (marg0 - mean) * (marg0 - mean)
		}
		for b := range m1 {
			v1 += s1[b] * (marg1[b] - mean) * (marg1[b] - mean)
		}
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"mean", tv.mean, mean}, {"variance", tv.variance, v},
			{"V0", tv.marginal(0), v0}, {"V1", tv.marginal(1), v1},
		} {
			if math.Abs(c.got-c.want) > 1e-12*(1+math.Abs(c.want)) {
				t.Errorf("tree %d: %s = %v, brute force %v", k, c.name, c.got, c.want)
			}
		}
	}
}
