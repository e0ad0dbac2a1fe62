package sampler

import (
	"slices"
	"sync"
)

// warmStart is the only state a GP sampler keeps between calls: the last
// fitted log hyper-parameters (then the log noise), the start of the next
// fit or, between refits, the values reused as they are. key names the
// model layout they belong to, so a sampler reused on another space starts
// cold. It is safe for concurrent use.
type warmStart struct {
	mu  sync.Mutex
	key string
	p   []float64
}

// get returns a copy of the stored values if they belong to key and there
// are n of them, else nil.
func (w *warmStart) get(key string, n int) []float64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.key != key || len(w.p) != n {
		return nil
	}
	return slices.Clone(w.p)
}

// set stores the fitted values p for key.
func (w *warmStart) set(key string, p []float64) {
	w.mu.Lock()
	w.key, w.p = key, p
	w.mu.Unlock()
}
