package forest

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Criterion is the split criterion [spec §4.2].
type Criterion int

const (
	// SquaredError is the weighted variance reduction (scikit-learn's
	// "mse"/"squared_error"), the criterion of the thesis-era reference code
	// and the default [spec §3.5].
	SquaredError Criterion = iota
	// FriedmanMSE is Friedman's improvement n_l n_r/(n_l+n_r)·(ȳ_l − ȳ_r)²,
	// the 2023 reference code's setting [spec §3.4]. It picks the same splits
	// as SquaredError (see improvement).
	FriedmanMSE
)

func (c Criterion) String() string {
	switch c {
	case SquaredError:
		return "squared_error"
	case FriedmanMSE:
		return "friedman_mse"
	}
	return fmt.Sprintf("Criterion(%d)", int(c))
}

// Variance selects the predictive σ.
type Variance int

const (
	// TotalVariance is the law of total variance over the trees [spec §3.4]
	// (Hutter et al. 2014 §4.3.2): σ²(x) = (1/S) Σ_t (σ_t²(x) + μ_t(x)²) − μ(x)²,
	// with σ_t² the bootstrap-weighted variance of the targets in x's leaf of
	// tree t. It is the default.
	TotalVariance Variance = iota
	// BetweenTrees is the thesis's "variance among the individual outputs"
	// [004 §4.1.2]: σ²(x) = (1/S) Σ_t (μ_t(x) − μ(x))², the spread of the
	// trees' outputs. It is 0 wherever all trees agree, for instance far from
	// every cut, however noisy the leaves.
	BetweenTrees
)

func (v Variance) String() string {
	switch v {
	case TotalVariance:
		return "total"
	case BetweenTrees:
		return "between-trees"
	}
	return fmt.Sprintf("Variance(%d)", int(v))
}

// Settings configure Fit. The zero value is the spec's Decision, the
// reference code's scikit-learn settings [spec §4.2]: 10 trees, all features
// at every split, min_samples_split 2, min_samples_leaf 1, no depth limit,
// bootstrap on, SquaredError, TotalVariance.
type Settings struct {
	Trees       int  // S, the number of trees; 0 means 10
	Features    int  // m, the features drawn at each node, 1..M; 0 means M (all)
	MinSplit    int  // n_min: a node with fewer distinct samples is a leaf; 0 means 2
	MinLeaf     int  // the fewest distinct samples a leaf may hold; 0 means 1
	MaxDepth    int  // the deepest level a split may be made at (root = 0); 0 means no limit
	NoBootstrap bool // grow every tree on the data itself instead of a bootstrap sample
	Criterion   Criterion
	Variance    Variance
}

// resolve fills the defaults for m features and checks the ranges.
func (s Settings) resolve(m int) (Settings, error) {
	if s.Trees == 0 {
		s.Trees = 10
	}
	if s.Features == 0 {
		s.Features = m
	}
	if s.MinSplit == 0 {
		s.MinSplit = 2
	}
	if s.MinLeaf == 0 {
		s.MinLeaf = 1
	}
	switch {
	case s.Trees < 0:
		return s, fmt.Errorf("forest: Trees = %d, want ≥ 1 (or 0 for the default 10)", s.Trees)
	case s.Features < 0 || s.Features > m:
		return s, fmt.Errorf("forest: Features = %d, want 1..%d (or 0 for all)", s.Features, m)
	case s.MinSplit < 2:
		return s, fmt.Errorf("forest: MinSplit = %d, want ≥ 2 (or 0 for the default 2)", s.MinSplit)
	case s.MinLeaf < 0:
		return s, fmt.Errorf("forest: MinLeaf = %d, want ≥ 1 (or 0 for the default 1)", s.MinLeaf)
	case s.MaxDepth < 0:
		return s, fmt.Errorf("forest: MaxDepth = %d, want ≥ 1 (or 0 for no limit)", s.MaxDepth)
	case s.Criterion != SquaredError && s.Criterion != FriedmanMSE:
		return s, fmt.Errorf("forest: unknown %v", s.Criterion)
	case s.Variance != TotalVariance && s.Variance != BetweenTrees:
		return s, fmt.Errorf("forest: unknown %v", s.Variance)
	}
	return s, nil
}

// Forest is a fitted random forest. It is immutable and safe for concurrent
// Predict calls.
type Forest struct {
	trees []tree
	dim   int
	s     Settings
}

// ErrNoData is returned by Fit for an empty training set.
var ErrNoData = errors.New("forest: no training data")

// Fit grows a forest on the rows of X (one configuration each, M features)
// and the targets y, following Alg. 1 [004 §4.1.2]: for each of the S trees,
// draw N samples with replacement, then grow the tree by splitting every node
// on the best cut among m randomly drawn features until a stopping rule
// holds (Settings).
//
// X may hold NaN for an inactive conditional variable (see the package
// comment); other entries and every y must be finite. Fit copies what it
// keeps. All randomness comes from rng, so the same seed gives the same
// forest; rng must not be nil.
func Fit(X [][]float64, y []float64, s Settings, rng *rand.Rand) (*Forest, error) {
	if len(X) == 0 {
		return nil, ErrNoData
	}
	if len(y) != len(X) {
		return nil, fmt.Errorf("forest: %d rows in X but %d targets", len(X), len(y))
	}
	if rng == nil {
		return nil, errors.New("forest: nil rng")
	}
	m := len(X[0])
	if m == 0 {
		return nil, errors.New("forest: rows have no features")
	}
	for i, row := range X {
		if len(row) != m {
			return nil, fmt.Errorf("forest: row %d has %d features, row 0 has %d", i, len(row), m)
		}
		for j, v := range row {
			if math.IsInf(v, 0) {
				return nil, fmt.Errorf("forest: X[%d][%d] = %v; use NaN for an inactive variable", i, j, v)
			}
		}
		if math.IsNaN(y[i]) || math.IsInf(y[i], 0) {
			return nil, fmt.Errorf("forest: y[%d] = %v, want a finite target", i, y[i])
		}
	}
	s, err := s.resolve(m)
	if err != nil {
		return nil, err
	}
	n := len(X)
	// Column-major copy with NaN stored as −Inf, so that sorting needs no
	// special case and the sentinel sorts below every value.
	cols := make([][]float64, m)
	for f := range cols {
		cols[f] = make([]float64, n)
		for i, row := range X {
			v := row[f]
			if math.IsNaN(v) {
				v = math.Inf(-1)
			}
			cols[f][i] = v
		}
	}
	yy := append([]float64(nil), y...)
	fr := &Forest{trees: make([]tree, s.Trees), dim: m, s: s}
	w := make([]float64, n)
	idx := make([]int, 0, n)
	for t := range fr.trees {
		// Each tree draws from its own generator seeded from rng, so a tree
		// does not depend on how much randomness the trees before it used.
		trng := rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
		for i := range w {
			w[i] = 0
		}
		if s.NoBootstrap {
			for i := range w {
				w[i] = 1
			}
		} else {
			// The bootstrap draw as weights (counts), as scikit-learn does:
			// a sample drawn k times counts k times in the means, variances
			// and the criterion, once in MinSplit and MinLeaf.
			for range n {
				w[trng.IntN(n)]++
			}
		}
		idx = idx[:0]
		for i, wi := range w {
			if wi > 0 {
				idx = append(idx, i)
			}
		}
		b := builder{
			cols:  cols,
			y:     yy,
			w:     w,
			s:     s,
			rng:   trng,
			feats: make([]int, m),
			order: make([]int, n),
		}
		b.grow(idx, 0)
		fr.trees[t] = tree{nodes: b.nodes}
	}
	return fr, nil
}

// Dim is the number of features M the forest was fitted on.
func (f *Forest) Dim() int { return f.dim }

// Settings returns the settings the forest was grown with, defaults filled in.
func (f *Forest) Settings() Settings { return f.s }

// Predict returns the predictive mean μ(x) = (1/S) Σ_t T_t(x) [004 Eq. 4.16]
// and the standard deviation chosen by Settings.Variance. Both variances are
// computed as sums of squares about μ, never as a difference of large terms,
// so σ² ≥ 0 needs no floor and TotalVariance ≥ BetweenTrees holds exactly:
// the total is the between-tree part plus the mean leaf variance. x must have
// Dim() entries (NaN for an inactive variable); otherwise Predict panics.
func (f *Forest) Predict(x []float64) (mean, std float64) {
	if len(x) != f.dim {
		panic(fmt.Sprintf("forest: Predict with %d features, fitted on %d", len(x), f.dim))
	}
	var buf [64]float64
	mu := buf[:0]
	var sum, within float64
	for k := range f.trees {
		l := f.trees[k].leaf(x)
		mu = append(mu, l.mean)
		sum += l.mean
		within += l.variance
	}
	S := float64(len(f.trees))
	mean = sum / S
	var between float64
	for _, m := range mu {
		between += sq(m - mean)
	}
	v := between / S
	if f.s.Variance == TotalVariance {
		v += within / S
	}
	return mean, math.Sqrt(v)
}

// PredictBatch is Predict for every row of X.
func (f *Forest) PredictBatch(X [][]float64) (mean, std []float64) {
	mean = make([]float64, len(X))
	std = make([]float64, len(X))
	for i, x := range X {
		mean[i], std[i] = f.Predict(x)
	}
	return mean, std
}
