package bandit

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func newRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

// mustPanic fails unless f panics with a message containing want.
func mustPanic(t *testing.T, name, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Errorf("%s: no panic", name)
			return
		}
		if s, _ := r.(string); !strings.Contains(s, want) {
			t.Errorf("%s: panic %q, want it to mention %q", name, r, want)
		}
	}()
	f()
}

func sum(p []float64) float64 {
	var s float64
	for _, v := range p {
		s += v
	}
	return s
}
