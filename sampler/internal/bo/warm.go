package bo

import (
	"hash/fnv"
	"math"
	"slices"
	"sync"

	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
)

// WarmStart is the only state a GP sampler keeps between calls: the last
// fitted log hyper-parameters (then the log noise), the start of the next
// fit or, between refits, the values reused as they are, and beyond
// largeHistory observations the last model built at them. key names the
// model layout they belong to, so a sampler reused on another space starts
// cold. It is safe for concurrent use.
type WarmStart struct {
	mu    sync.Mutex
	key   string
	p     []float64
	data  uint64 // fingerprint of the data p was fitted to
	fits  int    // how many fits were stored, for tests
	grown int    // how many models extend grew, for tests

	// Beyond largeHistory observations, the last model Reuse built at p,
	// with its prior mean and the fingerprint of its inputs: the next
	// Reuse on the same inputs and more grows its factor (gp.Extend) in
	// O(n²) a row instead of factorising afresh in O(n³).
	model  *gp.GP
	mean   gp.Mean
	inputs uint64
}

// Get returns a copy of the stored values if they belong to key and there
// are n of them, else nil.
func (w *WarmStart) Get(key string, n int) []float64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.key != key || len(w.p) != n {
		return nil
	}
	return slices.Clone(w.p)
}

// FittedTo returns a copy of the stored values if they were fitted to
// the data of fingerprint data, with key and n values, else nil. A fit to
// the same data again is wasted: the points of a batch asked one by one
// (study.AskBatch), or an ask after a trial that failed, see the same
// observations, and at n = 1000 a full fit takes seconds.
func (w *WarmStart) FittedTo(key string, n int, data uint64) []float64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.key != key || len(w.p) != n || w.data != data {
		return nil
	}
	return slices.Clone(w.p)
}

// Reuse returns the GP on (X, y) with kernel k and prior mean mean at the
// stored values when they were fitted to this very data, or,
// betweenRefits, at the last fitted values whatever their data; nil when
// neither applies or the values no longer factorise, and the caller fits.
// data is the data's fingerprint, for set.
func (w *WarmStart) Reuse(key string, k kernel.Kernel, mean gp.Mean, X [][]float64, y []float64, betweenRefits bool) (m *gp.GP, data uint64) {
	n := k.NumParams() + 1
	data = fingerprint(X, y)
	p := w.FittedTo(key, n, data)
	if p == nil && betweenRefits {
		p = w.Get(key, n)
	}
	if p != nil {
		nk := k.NumParams()
		k.SetParams(p[:nk])
		if m := w.extend(p, mean, X, y); m != nil {
			return m, data
		}
		// With gp.MeanConstant, c comes out as the fit profiled it: it is
		// a function of the parameters and the data.
		if m, err := gp.NewWithMean(X, y, k, math.Exp(p[nk]), mean); err == nil {
			w.keep(m, mean, X)
			return m, data
		}
	}
	return nil, data
}

// extend returns the kept model grown to (X, y) when it is at the values
// p with prior mean mean and its inputs are the first rows of X, else nil.
func (w *WarmStart) extend(p []float64, mean gp.Mean, X [][]float64, y []float64) *gp.GP {
	w.mu.Lock()
	m, kept, inputs := w.model, w.mean, w.inputs
	w.mu.Unlock()
	if m == nil || kept != mean || m.Len() > len(X) || !slices.Equal(m.Params(), p) || fingerprint(X[:m.Len()], nil) != inputs {
		return nil
	}
	e, err := m.Extend(X[m.Len():], y)
	if err != nil {
		return nil
	}
	w.keep(e, mean, X)
	w.mu.Lock()
	w.grown++
	w.mu.Unlock()
	return e
}

// keep stores m, built on inputs X, for extend: beyond largeHistory
// observations only, where a factorisation costs more than the hash of
// the inputs that guards the reuse, and so every run of at most 200
// observations builds its models exactly as before.
func (w *WarmStart) keep(m *gp.GP, mean gp.Mean, X [][]float64) {
	if len(X) <= largeHistory {
		return
	}
	h := fingerprint(X, nil)
	w.mu.Lock()
	w.model, w.mean, w.inputs = m, mean, h
	w.mu.Unlock()
}

// Fits is how many fits were stored (Set), for tests.
func (w *WarmStart) Fits() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.fits
}

// Grown is how many models Reuse grew from the kept one, for tests.
func (w *WarmStart) Grown() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.grown
}

// Set stores the values p fitted for key to the data of fingerprint data.
func (w *WarmStart) Set(key string, p []float64, data uint64) {
	w.mu.Lock()
	w.key, w.p, w.data = key, p, data
	w.model = nil
	w.fits++
	w.mu.Unlock()
}

// fingerprint identifies a GP's training data for FittedTo, or with y
// nil its inputs alone, for extend.
func fingerprint(X [][]float64, y []float64) uint64 {
	h := fnv.New64a()
	var b [8]byte
	put := func(v float64) {
		u := math.Float64bits(v)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		h.Write(b[:])
	}
	for i, x := range X {
		for _, v := range x {
			put(v)
		}
		if y != nil {
			put(y[i])
		}
	}
	return h.Sum64()
}
