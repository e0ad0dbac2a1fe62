package graph

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Base is the kernel the WL kernel applies to each level's counts
// [000 App. B.3; 003 App. E.2].
type Base int

const (
	// Dot is the dot product φ_h(G)ᵀφ_h(G'); NAS-BOWL's choice on NB201.
	Dot Base = iota
	// Intersection is the optimal-assignment (histogram intersection)
	// kernel Σ_j min(φ^j(G), φ^j(G')), PSD on WL features (Kriege et al.
	// 2016) [000 §7.3.1]; NAS-BOWL's choice on NB101, DARTS and RWNN.
	Intersection
)

func (b Base) String() string {
	switch b {
	case Dot:
		return "dot"
	case Intersection:
		return "oa"
	}
	return fmt.Sprintf("Base(%d)", int(b))
}

// Kernel returns the WL kernel matrix of the graphs with features fs,
// k(G, G') = Σ_{h=0}^{H} base(φ_h(G), φ_h(G')) with weights w_h = 1
// [000 Eq. 7.5; 003 Eq. 3.1], cosine-normalised to K_ij/√(K_ii K_jj) so that
// every graph has unit variance and no signal variance is needed (spec §3.1
// Decision: the targets are standardised). H = 0 is the VH kernel
// (operation counts only). fs must come from w, whose Depth must be ≥ h.
func (w *WL) Kernel(fs []Features, h int, base Base) *mat.SymDense {
	return matrix(len(fs), w.Func(fs, h, base))
}

// Func is Kernel as a function of two indices into fs, which computes an
// entry only when asked: a GP on a training set and a large pool of
// candidates needs no entry between two candidates.
func (w *WL) Func(fs []Features, h int, base Base) func(i, j int) float64 {
	if h > w.Depth {
		panic(fmt.Sprintf("graph: WL kernel of depth %d from features of depth %d", h, w.Depth))
	}
	return cosine(len(fs), func(i, j int) float64 { return w.Similarity(fs[i], fs[j], h, base) })
}

// Similarity returns the WL kernel before normalisation, the base kernel
// summed over the features of levels ≤ h of two graphs.
func (w *WL) Similarity(a, b Features, h int, base Base) float64 {
	keep := func(id int) bool { return w.level[id] <= h }
	if base == Dot {
		return dot(a, b, keep)
	}
	s := 0.0
	merge(a, b, func(x, y Count) {
		if keep(x.ID) {
			s += min(x.N, y.N)
		}
	})
	return s
}

// dot returns φ(G)ᵀφ(G') over the features keep accepts (all when nil).
func dot(a, b Features, keep func(id int) bool) float64 {
	s := 0.0
	merge(a, b, func(x, y Count) {
		if keep == nil || keep(x.ID) {
			s += x.N * y.N
		}
	})
	return s
}

// merge calls fn for each feature the two sorted count lists share.
func merge(a, b Features, fn func(x, y Count)) {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i].ID < b[j].ID:
			i++
		case a[i].ID > b[j].ID:
			j++
		default:
			fn(a[i], b[j])
			i++
			j++
		}
	}
}

// cosine returns sim normalised to sim(i,j)/√(sim(i,i)·sim(j,j)), the
// diagonal computed at once, the rest when asked.
func cosine(n int, sim func(i, j int) float64) func(i, j int) float64 {
	d := make([]float64, n)
	for i := range d {
		d[i] = 1 / math.Sqrt(sim(i, i))
	}
	return func(i, j int) float64 {
		if i == j {
			return 1
		}
		return sim(i, j) * d[i] * d[j]
	}
}

// matrix returns the n×n matrix of the symmetric f.
func matrix(n int, f func(i, j int) float64) *mat.SymDense {
	if n == 0 {
		return &mat.SymDense{}
	}
	k := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			k.SetSym(i, j, f(i, j))
		}
	}
	return k
}
