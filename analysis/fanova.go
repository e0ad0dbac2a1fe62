package analysis

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/boaopt/boa/forest"
	"github.com/boaopt/boa/study"
)

// Optuna's FanovaImportanceEvaluator defaults (n_trees=64, max_depth=64).
const (
	fanovaTrees = 64
	fanovaDepth = 64
	// contourTrees is smaller: a contour only averages the trees'
	// predictions, and 16 trees draw the same picture at a quarter of the
	// cost (BenchmarkContour50k).
	contourTrees = 16
)

// The fitting sample: at most sampleBest best COMPLETE trials plus
// sampleRest random others (see the package comment).
const (
	sampleBest = 2000
	sampleRest = 2000
)

// ErrNoVariance is returned by Importances when the forest explains no
// variance: every fitted value is the same.
var ErrNoVariance = errors.New("analysis: the values do not vary, so no parameter matters more than another")

// Importance of one parameter: its share of the variance of the objective
// (fANOVA, see the package comment).
type Importance struct {
	Param string
	Share float64
}

// Importances returns the fANOVA importance of each parameter active in
// every fitted COMPLETE trial, sorted by Share, descending (ties in
// declaration order); the shares sum to 1 (all 0 in the rare case where no
// single parameter explains any variance, only interactions). It is an
// error with fewer than 2 COMPLETE trials. The same seed gives the same
// importances.
func Importances(s Study, seed uint64) ([]Importance, error) {
	trials := sample(s, seed)
	if len(trials) < 2 {
		return nil, fmt.Errorf("analysis: importances need at least 2 COMPLETE trials, the study has %d", len(trials))
	}
	ps := s.Space.Params()
	// Optuna's intersection_search_space: only the parameters active in
	// every fitted trial.
	var cols []int
	for i, p := range ps {
		all := true
		for _, t := range trials {
			if _, ok := t.Params[p.Name]; !ok {
				all = false
				break
			}
		}
		if all {
			cols = append(cols, i)
		}
	}
	if len(cols) == 0 {
		return nil, errors.New("analysis: no parameter is active in every COMPLETE trial")
	}
	var vary []int // the columns with more than one legal value
	var out []Importance
	for _, i := range cols {
		if single(s, i) {
			out = append(out, Importance{Param: ps[i].Name}) // Optuna: share 0
		} else {
			vary = append(vary, i)
		}
	}
	if len(vary) > 0 {
		X := make([][]float64, len(trials))
		y := make([]float64, len(trials))
		for r, t := range trials {
			u := coded(s, t)
			row := make([]float64, len(vary))
			for c, i := range vary {
				row[c] = u[i]
			}
			X[r], y[r] = row, t.Value
		}
		shares, err := fanova(X, y, seed)
		if err != nil {
			return nil, err
		}
		for c, i := range vary {
			out = append(out, Importance{Param: ps[i].Name, Share: shares[c]})
		}
	}
	order := make(map[string]int, len(ps))
	for i, p := range ps {
		order[p.Name] = i
	}
	slices.SortStableFunc(out, func(a, b Importance) int {
		if c := cmp.Compare(b.Share, a.Share); c != 0 {
			return c
		}
		return order[a.Param] - order[b.Param]
	})
	return out, nil
}

// single reports whether parameter i has only one legal value.
func single(s Study, i int) bool {
	p := s.Space.Param(i)
	if L := s.Space.Levels(i); L > 0 {
		return L == 1
	}
	return p.Low == p.High
}

// coded returns a trial's point in the unit cube.
func coded(s Study, t *study.Trial) []float64 {
	if len(t.X) == s.Space.Len() {
		return t.X
	}
	u, err := s.Space.Encode(t.Params)
	if err != nil {
		// A trial read back from storage fits its space (study checks it),
		// so this is a caller's hand-built trial: its inactive placeholders
		// stand in.
		u = make([]float64, s.Space.Len())
		for i := range u {
			u[i] = 0.5
		}
	}
	return u
}

// sample returns the COMPLETE trials the forests are fitted on: all of
// them up to sampleBest+sampleRest; beyond, the sampleBest best and a
// seeded random sampleRest of the others, in number order.
func sample(s Study, seed uint64) []*study.Trial {
	var all []*study.Trial
	for i := range s.Trials {
		if complete(&s.Trials[i]) {
			all = append(all, &s.Trials[i])
		}
	}
	if len(all) <= sampleBest+sampleRest {
		return all
	}
	byValue := slices.Clone(all)
	slices.SortFunc(byValue, func(a, b *study.Trial) int { // ties by number, as a stable sort of all
		if s.Direction == study.Maximize {
			return cmp.Or(cmp.Compare(b.Value, a.Value), a.Number-b.Number)
		}
		return cmp.Or(cmp.Compare(a.Value, b.Value), a.Number-b.Number)
	})
	rest := byValue[sampleBest:]
	rng := rand.New(rand.NewPCG(seed, 0x5a4d))
	// A partial Fisher–Yates shuffle draws sampleRest of the rest.
	for k := range sampleRest {
		j := k + rng.IntN(len(rest)-k)
		rest[k], rest[j] = rest[j], rest[k]
	}
	out := append(byValue[:sampleBest:sampleBest], rest[:sampleRest]...)
	slices.SortFunc(out, func(a, b *study.Trial) int { return a.Number - b.Number })
	return out
}

// fitParts is how many forests fit grows side by side. It is fixed, not
// the number of cores, so that the trees, and the importances, are the
// same on any machine.
const fitParts = 4

// ensemble is fitParts forests of equal size grown concurrently: one
// forest of all their trees.
type ensemble []*forest.Forest

// fit grows trees trees with Optuna's other fANOVA settings on X, y, in
// fitParts forests of trees/fitParts, each seeded from seed and its index,
// at most GOMAXPROCS at a time (Fit only reads X and y).
func fit(X [][]float64, y []float64, trees int, seed uint64) (ensemble, error) {
	e := make(ensemble, fitParts)
	errs := make([]error, fitParts)
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for p := range e {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			st := forest.Settings{Trees: max(1, trees/fitParts), MaxDepth: fanovaDepth}
			e[p], errs[p] = forest.Fit(X, y, st, rand.New(rand.NewPCG(seed, 0xfa40+uint64(p))))
		}()
	}
	wg.Wait()
	return e, errors.Join(errs...)
}

// trees returns every tree's nodes.
func (e ensemble) trees() [][]forest.Node {
	var ts [][]forest.Node
	for _, f := range e {
		for k := range f.NumTrees() {
			ts = append(ts, f.Tree(k))
		}
	}
	return ts
}

// predict is the mean prediction of all the trees (the parts are of equal
// size, so the mean of their means).
func (e ensemble) predict(x []float64) float64 {
	var sum float64
	for _, f := range e {
		m, _ := f.Predict(x)
		sum += m
	}
	return sum / float64(len(e))
}

// fanova fits a forest to X (rows in [0,1]^d) and y and returns each
// column's normalised share of the variance.
func fanova(X [][]float64, y []float64, seed uint64) ([]float64, error) {
	f, err := fit(X, y, fanovaTrees, seed)
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	d := len(X[0])
	sum := make([]float64, d)
	used := 0
	for _, nodes := range f.trees() {
		tv := decompose(nodes, d)
		if !(tv.variance > 0) {
			continue
		}
		used++
		for c := range d {
			sum[c] += tv.marginal(c) / tv.variance
		}
	}
	if used == 0 {
		return nil, ErrNoVariance
	}
	var total float64
	for c := range sum {
		sum[c] /= float64(used)
		total += sum[c]
	}
	if total > 0 {
		for c := range sum {
			sum[c] /= total
		}
	}
	return sum, nil
}

// leaf is one leaf of a tree with its box in [0,1]^d.
type leaf struct {
	value  float64
	volume float64
	lo, hi []float64
}

// treeVar is one tree seen as a piecewise-constant function on [0,1]^d
// (Hutter et al. 2014b, §3): its leaves' boxes, mean and variance under the
// uniform measure, and the split points of each feature.
type treeVar struct {
	leaves   []leaf
	mean     float64
	variance float64
	splits   [][]float64 // per feature, sorted distinct cuts inside (0,1)
}

// decompose walks a tree once, recording every leaf's box.
func decompose(nodes []forest.Node, d int) *treeVar {
	tv := &treeVar{splits: make([][]float64, d)}
	lo := make([]float64, d)
	hi := make([]float64, d)
	for i := range hi {
		hi[i] = 1
	}
	var walk func(i int)
	walk = func(i int) {
		n := nodes[i]
		if n.Feature < 0 {
			vol := 1.0
			for c := range d {
				vol *= hi[c] - lo[c]
			}
			if vol > 0 {
				tv.leaves = append(tv.leaves, leaf{value: n.Value, volume: vol, lo: slices.Clone(lo), hi: slices.Clone(hi)})
			}
			return
		}
		f := n.Feature
		// A cut outside the box leaves one child empty (volume 0).
		t := min(max(n.Threshold, lo[f]), hi[f])
		if t > 0 && t < 1 {
			tv.splits[f] = append(tv.splits[f], t)
		}
		saved := hi[f]
		hi[f] = t
		walk(n.Left)
		hi[f] = saved
		saved = lo[f]
		lo[f] = t
		walk(n.Right)
		lo[f] = saved
	}
	walk(0)
	for f := range tv.splits {
		slices.Sort(tv.splits[f])
		tv.splits[f] = slices.Compact(tv.splits[f])
	}
	var m float64
	for _, l := range tv.leaves {
		m += l.volume * l.value
	}
	var v float64
	for _, l := range tv.leaves {
		v += l.volume * sq(l.value-m)
	}
	tv.mean, tv.variance = m, v
	return tv
}

// marginal is the variance of the tree's marginal over feature f: the
// other features integrated out uniformly, the marginal is constant
// between consecutive cuts of f; a leaf adds value·volume/width to every
// interval its box spans (a difference array over the intervals).
func (tv *treeVar) marginal(f int) float64 {
	cuts := tv.splits[f]
	if len(cuts) == 0 {
		return 0
	}
	edges := make([]float64, 0, len(cuts)+2)
	edges = append(edges, 0)
	edges = append(edges, cuts...)
	edges = append(edges, 1)
	diff := make([]float64, len(edges))
	for _, l := range tv.leaves {
		w := l.hi[f] - l.lo[f]
		a, _ := slices.BinarySearch(edges, l.lo[f])
		b, _ := slices.BinarySearch(edges, l.hi[f])
		h := l.value * l.volume / w
		diff[a] += h
		diff[b] -= h
	}
	var v, acc float64
	for k := 0; k+1 < len(edges); k++ {
		acc += diff[k]
		v += (edges[k+1] - edges[k]) * sq(acc-tv.mean)
	}
	return v
}

func sq(x float64) float64 { return x * x }
