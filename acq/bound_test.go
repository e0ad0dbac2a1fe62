package acq

import (
	"math"
	"testing"
)

func TestGPUCBKappa(t *testing.T) {
	for _, tc := range []struct {
		n, d     int
		c, delta float64
	}{
		{1, 1, 1, 0.1}, {10, 2, 1, 0.1}, {100, 6, 0.5, 0.05}, {0, 3, 1, 0.1},
	} {
		n := math.Max(float64(tc.n), 1)
		beta := 2 * tc.c * math.Log(math.Pow(n, float64(tc.d)/2+2)*math.Pi*math.Pi/(3*tc.delta))
		want := math.Sqrt(beta)
		if got := GPUCBKappa(tc.n, tc.d, tc.c, tc.delta); math.Abs(got-want) > 1e-12*want {
			t.Errorf("GPUCBKappa(%d, %d, %g, %g) = %.15g, want %.15g", tc.n, tc.d, tc.c, tc.delta, got, want)
		}
	}
	// A hand-worked value: n = 10, d = 2: β = 2·log(10³·π²/0.3) = 20.80238….
	if got := GPUCBKappa(10, 2, 1, 0.1); math.Abs(got-4.560962) > 1e-6 {
		t.Errorf("GPUCBKappa(10, 2, 1, 0.1) = %.7g, want 4.560962", got)
	}
	// κ grows with n.
	if GPUCBKappa(50, 4, 1, 0.1) <= GPUCBKappa(49, 4, 1, 0.1) {
		t.Error("GPUCBKappa does not grow with n")
	}
}

func TestGPUCBKappaPanics(t *testing.T) {
	for _, tc := range []struct {
		c, delta float64
		d        int
	}{{0, 0.1, 1}, {1, 0, 1}, {1, 1, 1}, {1, 0.1, 0}, {math.NaN(), 0.1, 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("GPUCBKappa(c=%g, δ=%g, d=%d) did not panic", tc.c, tc.delta, tc.d)
				}
			}()
			GPUCBKappa(5, tc.d, tc.c, tc.delta)
		}()
	}
}
