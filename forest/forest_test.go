package forest_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/boaopt/boa/forest"
)

func step(x float64) float64 {
	if x < 0.5 {
		return 0
	}
	return 1
}

// stepData is the step function on the grid 0, 0.05, ..., 0.95.
func stepData() ([][]float64, []float64) {
	var X [][]float64
	var y []float64
	for i := range 20 {
		x := float64(i) / 20
		X = append(X, []float64{x})
		y = append(y, step(x))
	}
	return X, y
}

// A single tree grown on the data itself recovers the step exactly: one cut
// at the midpoint 0.475 of the two grid points around the jump, two pure
// leaves, σ = 0 [spec §10].
func TestStepSingleTree(t *testing.T) {
	X, y := stepData()
	for _, v := range []forest.Variance{forest.TotalVariance, forest.BetweenTrees} {
		f, err := forest.Fit(X, y, forest.Settings{Trees: 1, NoBootstrap: true, Variance: v}, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		for k := range 201 {
			x := float64(k)/200*1.2 - 0.1 // also outside the data's range
			want := 0.0
			if x > 0.475 {
				want = 1
			}
			if mean, std := f.Predict([]float64{x}); mean != want || std != 0 {
				t.Fatalf("%v: Predict(%v) = (%v, %v), want (%v, 0)", v, x, mean, std, want)
			}
		}
	}
}

// The forest's mean is close to the step: exact far from the jump, where
// every tree agrees, and uncertain only near it, where the bootstrap moves
// each tree's cut [spec §10].
func TestStepForest(t *testing.T) {
	X, y := stepData()
	f, err := forest.Fit(X, y, forest.Settings{}, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	var mae float64
	maxStd := 0.0
	for k := range 101 {
		x := float64(k) / 100
		mean, std := f.Predict([]float64{x})
		mae += math.Abs(mean-step(x)) / 101
		if x <= 0.2 || x >= 0.8 {
			if mean != step(x) || std != 0 {
				t.Errorf("Predict(%v) = (%v, %v), want (%v, 0) far from the jump", x, mean, std, step(x))
			}
		}
		maxStd = math.Max(maxStd, std)
	}
	// The trees' cuts spread over the gaps that their bootstrap samples leave
	// around the jump (seed (3, 4): μ = 0.1–0.4 on [0.38, 0.50], 0.9 at 0.52),
	// which costs 0.035 on average over [0, 1].
	if mae > 0.05 {
		t.Errorf("mean absolute error %v over [0, 1], want ≤ 0.05", mae)
	}
	if maxStd == 0 {
		t.Error("σ = 0 everywhere; the trees should disagree near the jump")
	}
}

// σ with the law of total variance is never below the between-tree σ, and
// exceeds it where leaves are impure; the means are the same [spec §10].
func TestTotalAtLeastBetween(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 80
	X := make([][]float64, n)
	y := make([]float64, n)
	for i := range X {
		X[i] = []float64{rng.Float64(), rng.Float64(), float64(rng.IntN(3))}
		y[i] = math.Sin(6*X[i][0]) + X[i][1]*X[i][2] + 0.3*rng.NormFloat64()
	}
	for _, tc := range []struct {
		name   string
		s      forest.Settings
		strict bool // some leaves are impure, so total > between somewhere
	}{
		{"defaults", forest.Settings{}, false},
		{"min leaf 5", forest.Settings{MinLeaf: 5}, true},
		{"one feature per node", forest.Settings{Features: 1}, false},
		{"depth 2", forest.Settings{MaxDepth: 2, Trees: 30}, true},
		{"friedman", forest.Settings{Criterion: forest.FriedmanMSE, MinSplit: 10}, true},
		{"no bootstrap, one tree", forest.Settings{NoBootstrap: true, Trees: 1, MinLeaf: 3}, true},
	} {
		total := tc.s
		total.Variance = forest.TotalVariance
		between := tc.s
		between.Variance = forest.BetweenTrees
		ft, err := forest.Fit(X, y, total, rand.New(rand.NewPCG(7, 8)))
		if err != nil {
			t.Fatal(err)
		}
		fb, err := forest.Fit(X, y, between, rand.New(rand.NewPCG(7, 8)))
		if err != nil {
			t.Fatal(err)
		}
		larger := false
		for range 500 {
			x := []float64{rng.Float64(), rng.Float64(), float64(rng.IntN(3))}
			mt, st := ft.Predict(x)
			mb, sb := fb.Predict(x)
			if mt != mb {
				t.Fatalf("%s: means differ at %v: %v vs %v", tc.name, x, mt, mb)
			}
			if st < sb {
				t.Fatalf("%s: total σ %v < between-tree σ %v at %v", tc.name, st, sb, x)
			}
			larger = larger || st > sb
		}
		if tc.strict && !larger {
			t.Errorf("%s: total σ never exceeds the between-tree σ", tc.name)
		}
	}
}

// The same seed gives the same forest; another seed gives another one.
func TestDeterminism(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	X := make([][]float64, 40)
	y := make([]float64, 40)
	for i := range X {
		X[i] = []float64{rng.Float64(), rng.Float64(), rng.Float64()}
		y[i] = X[i][0] - 2*X[i][1]*X[i][2] + 0.1*rng.NormFloat64()
	}
	fit := func(seed uint64) *forest.Forest {
		f, err := forest.Fit(X, y, forest.Settings{Features: 2}, rand.New(rand.NewPCG(seed, 0)))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a, b, c := fit(1), fit(1), fit(2)
	var Q [][]float64
	for range 200 {
		Q = append(Q, []float64{rng.Float64(), rng.Float64(), rng.Float64()})
	}
	ma, sa := a.PredictBatch(Q)
	mb, sb := b.PredictBatch(Q)
	mc, _ := c.PredictBatch(Q)
	differs := false
	for i := range Q {
		if ma[i] != mb[i] || sa[i] != sb[i] {
			t.Fatalf("same seed, different predictions at %v: (%v, %v) vs (%v, %v)", Q[i], ma[i], sa[i], mb[i], sb[i])
		}
		differs = differs || ma[i] != mc[i]
	}
	if !differs {
		t.Error("seeds 1 and 2 gave identical forests")
	}
}

// Eq. 3.21 of [004 §3.4.1] as printed (no child weights) would cut
// y = 3, 6, 9, 9 after the first sample (3 | 6, 9, 9); the weighted variance
// reduction cuts in the middle (3, 6 | 9, 9) [spec §4.2].
func TestWeightedNotLiteral(t *testing.T) {
	X := [][]float64{{1}, {2}, {3}, {4}}
	y := []float64{3, 6, 9, 9}
	f, err := forest.Fit(X, y, forest.Settings{Trees: 1, NoBootstrap: true, MaxDepth: 1}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ x, want float64 }{{1, 4.5}, {2, 4.5}, {3, 9}, {4, 9}} {
		if mean, _ := f.Predict([]float64{tc.x}); mean != tc.want {
			t.Errorf("Predict(%v) = %v, want %v (the literal Eq. 3.21 cut gives 3 or 8)", tc.x, mean, tc.want)
		}
	}
}

// An inactive conditional variable is NaN: it sorts below every value, the
// cut between inactive and active samples has threshold −Inf, and an active
// value below every training value still goes with the active samples. A
// finite sentinel (−1) puts the cut at the midpoint −0.5 instead, so −100
// goes with the inactive samples (see the package comment).
func TestSentinel(t *testing.T) {
	// Feature 0: a parent choice (0 or 1); feature 1 active only when it is 1.
	// Inactive configurations score 10; active ones follow a step in x1.
	build := func(inactive float64) ([][]float64, []float64) {
		var X [][]float64
		var y []float64
		for i := range 10 {
			X = append(X, []float64{0, inactive})
			y = append(y, 10)
			x1 := float64(i) / 10
			X = append(X, []float64{1, x1})
			y = append(y, step(x1))
		}
		return X, y
	}
	nan := math.NaN()
	for _, tc := range []struct {
		name     string
		inactive float64
		features []int // which columns to keep
		x        []float64
		want     float64
	}{
		{"NaN, both features, inactive", nan, []int{0, 1}, []float64{0, nan}, 10},
		{"NaN, both features, active low", nan, []int{0, 1}, []float64{1, 0.2}, 0},
		{"NaN, both features, active high", nan, []int{0, 1}, []float64{1, 0.9}, 1},
		{"NaN alone, inactive", nan, []int{1}, []float64{nan}, 10},
		{"NaN alone, active low", nan, []int{1}, []float64{0.2}, 0},
		{"NaN alone, active below the data", nan, []int{1}, []float64{-100}, 0},
		{"NaN alone, active high", nan, []int{1}, []float64{0.9}, 1},
		{"-1 alone, inactive", -1, []int{1}, []float64{-1}, 10},
		{"-1 alone, active low", -1, []int{1}, []float64{0.2}, 0},
		{"-1 alone, active below the midpoint", -1, []int{1}, []float64{-100}, 10},
	} {
		X, y := build(tc.inactive)
		for i, row := range X {
			var r []float64
			for _, j := range tc.features {
				r = append(r, row[j])
			}
			X[i] = r
		}
		// A single tree on the data itself, and the default forest: every
		// bootstrap sample holds inactive and active points on both sides of
		// the step with overwhelming probability; the seed fixes it.
		for _, s := range []forest.Settings{{Trees: 1, NoBootstrap: true}, {}} {
			f, err := forest.Fit(X, y, s, rand.New(rand.NewPCG(11, 12)))
			if err != nil {
				t.Fatal(err)
			}
			if mean, _ := f.Predict(tc.x); mean != tc.want {
				t.Errorf("%s (%+v): Predict(%v) = %v, want %v", tc.name, s, tc.x, mean, tc.want)
			}
		}
	}
}

func TestValidation(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	good := [][]float64{{0, 1}, {1, 0}, {0.5, 0.5}}
	y := []float64{1, 2, 3}
	for _, tc := range []struct {
		name string
		X    [][]float64
		y    []float64
		s    forest.Settings
		rng  *rand.Rand
		want string
	}{
		{"no rows", nil, nil, forest.Settings{}, rng, "no training data"},
		{"length mismatch", good, []float64{1, 2}, forest.Settings{}, rng, "3 rows in X but 2 targets"},
		{"no features", [][]float64{{}, {}}, []float64{1, 2}, forest.Settings{}, rng, "no features"},
		{"ragged", [][]float64{{0, 1}, {1}, {2, 3}}, y, forest.Settings{}, rng, "row 1 has 1 features, row 0 has 2"},
		{"NaN target", good, []float64{1, math.NaN(), 3}, forest.Settings{}, rng, "y[1] = NaN"},
		{"infinite target", good, []float64{1, 2, math.Inf(1)}, forest.Settings{}, rng, "y[2] = +Inf"},
		{"infinite feature", [][]float64{{0, 1}, {math.Inf(-1), 0}, {1, 1}}, y, forest.Settings{}, rng, "X[1][0] = -Inf; use NaN"},
		{"nil rng", good, y, forest.Settings{}, nil, "nil rng"},
		{"negative trees", good, y, forest.Settings{Trees: -1}, rng, "Trees = -1"},
		{"too many features", good, y, forest.Settings{Features: 3}, rng, "Features = 3, want 1..2"},
		{"min split 1", good, y, forest.Settings{MinSplit: 1}, rng, "MinSplit = 1"},
		{"negative min leaf", good, y, forest.Settings{MinLeaf: -2}, rng, "MinLeaf = -2"},
		{"negative depth", good, y, forest.Settings{MaxDepth: -1}, rng, "MaxDepth = -1"},
		{"unknown criterion", good, y, forest.Settings{Criterion: 7}, rng, "Criterion(7)"},
		{"unknown variance", good, y, forest.Settings{Variance: 7}, rng, "Variance(7)"},
	} {
		f, err := forest.Fit(tc.X, tc.y, tc.s, tc.rng)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Fit = (%v, %v), want an error containing %q", tc.name, f, err, tc.want)
		}
	}
	if _, err := forest.Fit(nil, nil, forest.Settings{}, rng); err != forest.ErrNoData {
		t.Errorf("empty data: %v, want ErrNoData", err)
	}
}

func TestPredictDimensionPanics(t *testing.T) {
	f, err := forest.Fit([][]float64{{0, 1}, {1, 0}}, []float64{1, 2}, forest.Settings{}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if recover() == nil {
			t.Error("Predict with 3 features on a 2-feature forest did not panic")
		}
	}()
	f.Predict([]float64{0, 1, 2})
}

// Degenerate data: one row, or constant features, give one leaf per tree
// predicting the (bootstrap) mean.
func TestDegenerate(t *testing.T) {
	f, err := forest.Fit([][]float64{{0.3}}, []float64{2.5}, forest.Settings{}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if mean, std := f.Predict([]float64{0.9}); mean != 2.5 || std != 0 {
		t.Errorf("one row: (%v, %v), want (2.5, 0)", mean, std)
	}
	X := [][]float64{{1, 1}, {1, 1}, {1, 1}, {1, 1}}
	y := []float64{0, 1, 2, 3}
	f, err = forest.Fit(X, y, forest.Settings{Trees: 1, NoBootstrap: true}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	// One leaf: mean 1.5, within-leaf variance 1.25.
	if mean, std := f.Predict([]float64{0, 5}); mean != 1.5 || math.Abs(std-math.Sqrt(1.25)) > 1e-15 {
		t.Errorf("constant features: (%v, %v), want (1.5, √1.25)", mean, std)
	}
	if got := f.Settings(); got.Trees != 1 || got.Features != 2 || got.MinSplit != 2 || got.MinLeaf != 1 || f.Dim() != 2 {
		t.Errorf("Settings() = %+v, Dim() = %d", got, f.Dim())
	}
}
