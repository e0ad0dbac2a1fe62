package grabnel

import (
	"math"
	"strconv"

	"github.com/boaopt/boa/attack"
	"github.com/boaopt/boa/graph"
)

// wlDepth is H, the WL iterations of the experiments (spec §2.3, §2.5).
const wlDepth = 1

// toWL returns g as the labelled graph WL reads: node v labelled by its
// degree (spec §2.3, Decision: the TU graphs are unlabelled), each edge
// u < v stored once as u → v, which WL over Undirected neighbourhoods reads
// both ways.
func toWL(g attack.Graph) *graph.Graph {
	deg := make([]int, g.N)
	out := make([][]int, g.N)
	for _, e := range g.Edges { // sorted, so each Out list ascends
		deg[e[0]]++
		deg[e[1]]++
		out[e[0]] = append(out[e[0]], e[1])
	}
	labels := make([]string, g.N)
	for v, d := range deg {
		labels[v] = strconv.Itoa(d)
	}
	return &graph.Graph{Labels: labels, Out: out}
}

// featurizer maps graphs to the scaled WL feature vectors the surrogate
// is fitted on. Its vocabulary is that of the training graphs: Alg. 10
// recomputes the features of all observed graphs after every query, so a
// new featurizer is built at every refit. A subtree a graph has and no
// training graph had is outside the vocabulary and ignored: the
// regression has no weight for it.
type featurizer struct {
	wl     *graph.WL
	vocab  int       // features 0..vocab−1, those of the training graphs
	lo, hi []float64 // per feature, its range over the training graphs
}

// newFeaturizer builds the vocabulary of train and returns the training
// rows, each feature min–max scaled to [0, 1] over train (spec §2.3, code
// preprocessing); a feature constant over train is 0.
func newFeaturizer(train []attack.Graph) (*featurizer, [][]float64) {
	f := &featurizer{wl: graph.NewWL(wlDepth, graph.Undirected)}
	counts := make([]graph.Features, len(train))
	for i, g := range train {
		counts[i] = f.wl.Features(toWL(g))
	}
	f.vocab = f.wl.Len()
	f.lo = make([]float64, f.vocab)
	f.hi = make([]float64, f.vocab)
	rows := make([][]float64, len(train))
	for i, c := range counts {
		rows[i] = f.dense(c)
		for j, v := range rows[i] {
			if i == 0 || v < f.lo[j] {
				f.lo[j] = v
			}
			if i == 0 || v > f.hi[j] {
				f.hi[j] = v
			}
		}
	}
	for _, r := range rows {
		f.scale(r)
	}
	return f, rows
}

// dense returns the counts as a vector over the vocabulary, dropping the
// features outside it.
func (f *featurizer) dense(c graph.Features) []float64 {
	row := make([]float64, f.vocab)
	for _, e := range c {
		if e.ID < f.vocab {
			row[e.ID] = e.N
		}
	}
	return row
}

func (f *featurizer) scale(row []float64) {
	for j, v := range row {
		if f.hi[j] > f.lo[j] {
			row[j] = (v - f.lo[j]) / (f.hi[j] - f.lo[j])
		} else {
			row[j] = 0
		}
	}
}

// vector returns the scaled features of g on the training vocabulary; a
// value may fall outside [0, 1] when g counts a subtree more or less often
// than every training graph.
func (f *featurizer) vector(g attack.Graph) []float64 {
	row := f.dense(f.wl.Features(toWL(g)))
	f.scale(row)
	return row
}

// standardise returns (y − mean)/sd, sd the population standard
// deviation, or y − mean when y is constant (spec §2.3, code
// preprocessing).
func standardise(y []float64) []float64 {
	mean, sd := 0.0, 0.0
	for _, v := range y {
		mean += v / float64(len(y))
	}
	for _, v := range y {
		sd += (v - mean) * (v - mean) / float64(len(y))
	}
	if sd > 0 {
		sd = math.Sqrt(sd)
	} else {
		sd = 1
	}
	z := make([]float64, len(y))
	for i, v := range y {
		z[i] = (v - mean) / sd
	}
	return z
}
