package forest

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sums returns (Σw, Σwy, Σwy²) of one child; w nil means unit weights.
func sums(y, w []float64) (W, S, Q float64) {
	for i, v := range y {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		W += wi
		S += wi * v
		Q += wi * v * v
	}
	return W, S, Q
}

// The criterion on hand-computed examples [spec §4.2]. For {1,2,3} | {10}:
// Var(S) = 50/4 = 12.5, Var(S_t) = 2/3, Var(S_f) = 0, so the weighted
// reduction is 12.5 − (3/4)(2/3) = 12; Friedman's is 3·1/4·(2 − 10)² = 48.
// With bootstrap counts {1×2, 3×1} | {7×1}: W = 4, ȳ = 3, Var(S) = 24/4 = 6,
// ȳ_t = 5/3, Var(S_t) = 8/9, so 6 − (3/4)(8/9) = 16/3; Friedman 3/4·(16/3)².
func TestImprovementHandComputed(t *testing.T) {
	for _, tc := range []struct {
		name              string
		yl, wl, yr, wr    []float64
		squared, friedman float64
	}{
		{"unit weights", []float64{1, 2, 3}, nil, []float64{10}, nil, 12, 48},
		{"balanced", []float64{1, 3}, nil, []float64{5, 7}, nil, 4, 16},
		{"bootstrap counts", []float64{1, 3}, []float64{2, 1}, []float64{7}, []float64{1}, 16.0 / 3, 64.0 / 3},
		{"equal means", []float64{0, 2}, nil, []float64{1, 1}, nil, 0, 0},
	} {
		wl, sl, ql := sums(tc.yl, tc.wl)
		wr, sr, qr := sums(tc.yr, tc.wr)
		if got := improvement(SquaredError, wl, sl, ql, wr, sr, qr); math.Abs(got-tc.squared) > 1e-12 {
			t.Errorf("%s: squared_error = %v, want %v", tc.name, got, tc.squared)
		}
		if got := improvement(FriedmanMSE, wl, sl, ql, wr, sr, qr); math.Abs(got-tc.friedman) > 1e-12 {
			t.Errorf("%s: friedman_mse = %v, want %v", tc.name, got, tc.friedman)
		}
	}
}

func TestMidpoint(t *testing.T) {
	for _, tc := range []struct{ a, b, want float64 }{
		{0.25, 0.5, 0.375},
		{math.Inf(-1), 0, math.Inf(-1)},                                // the sentinel cut
		{1, math.Nextafter(1, 2), 1},                                   // rounding reaches b: fall back to a
		{math.MaxFloat64 / 2, math.MaxFloat64, 0.75 * math.MaxFloat64}, // a/2 + b/2 does not overflow
	} {
		if got := midpoint(tc.a, tc.b); got != tc.want {
			t.Errorf("midpoint(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// The σ of TotalVariance is the spec's formula
// σ² = (1/S) Σ_t (σ_t² + μ_t²) − μ² [spec §3.4], evaluated literally here
// from the trees' leaves.
func TestTotalVarianceFormula(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	X, y := noisy(rng, 80)
	for _, s := range []Settings{{}, {MinLeaf: 4}, {MaxDepth: 3, Trees: 25}} {
		f, err := Fit(X, y, s, rand.New(rand.NewPCG(5, 6)))
		if err != nil {
			t.Fatal(err)
		}
		for k := range 50 {
			x := []float64{float64(k) / 49, rng.Float64()}
			var m, m2 float64
			for _, tr := range f.trees {
				l := tr.leaf(x)
				m += l.mean
				m2 += l.variance + l.mean*l.mean
			}
			S := float64(len(f.trees))
			m /= S
			want := math.Sqrt(math.Max(m2/S-m*m, 0))
			mean, std := f.Predict(x)
			if math.Abs(mean-m) > 1e-12 || math.Abs(std-want) > 1e-6*(1+want) {
				t.Fatalf("%+v at %v: (μ, σ) = (%v, %v), spec formula (%v, %v)", s, x, mean, std, m, want)
			}
		}
	}
}

// noisy is a 2-D regression data set: a smooth trend plus noise.
func noisy(rng *rand.Rand, n int) ([][]float64, []float64) {
	X := make([][]float64, n)
	y := make([]float64, n)
	for i := range X {
		X[i] = []float64{rng.Float64(), rng.Float64()}
		y[i] = math.Sin(6*X[i][0]) + X[i][1] + 0.3*rng.NormFloat64()
	}
	return X, y
}

// FriedmanMSE and SquaredError differ within a node by the factor |S| only,
// so they grow the same trees (see improvement). One feature: with two, a
// node of two samples is cut equally well by either feature, and which exact
// tie wins is decided by rounding.
func TestFriedmanSameSplits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	X, y := noisy(rng, 60)
	for i := range X {
		X[i] = X[i][:1]
	}
	a, err := Fit(X, y, Settings{}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Fit(X, y, Settings{Criterion: FriedmanMSE}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for k := range a.trees {
		if len(a.trees[k].nodes) != len(b.trees[k].nodes) {
			t.Fatalf("tree %d: %d nodes with squared_error, %d with friedman_mse", k, len(a.trees[k].nodes), len(b.trees[k].nodes))
		}
		for j, n := range a.trees[k].nodes {
			if m := b.trees[k].nodes[j]; n.feature != m.feature || n.threshold != m.threshold {
				t.Fatalf("tree %d node %d: split (%d, %v) vs (%d, %v)", k, j, n.feature, n.threshold, m.feature, m.threshold)
			}
		}
	}
}

// Stopping rules: MaxDepth bounds the depth, MinLeaf the distinct samples of
// every leaf, MinSplit the size of every split node.
func TestStoppingRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	X, y := noisy(rng, 50)
	for _, s := range []Settings{
		{Trees: 1, NoBootstrap: true, MaxDepth: 2},
		{Trees: 1, NoBootstrap: true, MinLeaf: 7},
		{Trees: 1, NoBootstrap: true, MinSplit: 12},
	} {
		f, err := Fit(X, y, s, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		nodes := f.trees[0].nodes
		count := make([]int, len(nodes)) // training samples reaching each node
		depth := make([]int, len(nodes))
		for _, x := range X {
			i := 0
			for {
				count[i]++
				n := nodes[i]
				if n.feature < 0 {
					break
				}
				next := int(n.right)
				if x[n.feature] <= n.threshold {
					next = int(n.left)
				}
				depth[next] = depth[i] + 1
				i = next
			}
		}
		for i, n := range nodes {
			switch {
			case s.MaxDepth > 0 && depth[i] > s.MaxDepth:
				t.Errorf("%+v: node %d at depth %d", s, i, depth[i])
			case n.feature < 0 && count[i] < max(s.MinLeaf, 1):
				t.Errorf("%+v: leaf %d holds %d samples", s, i, count[i])
			case n.feature >= 0 && count[i] < max(s.MinSplit, 2):
				t.Errorf("%+v: node %d with %d samples was split", s, i, count[i])
			}
		}
		if len(nodes) < 3 {
			t.Errorf("%+v: %d nodes, the data should allow some splits", s, len(nodes))
		}
	}
}
