package functions

import (
	"math"
	"testing"
)

// decaying_sin is Eq. 3.63 of 002 on x ∈ [−1, 1]: t = 5/2(x + 1) maps the
// box onto t ∈ [0, 5], f = t sin(3t) e^{−t}. The values are written out by
// hand: f(−1) = 0 (t = 0), f(1) = 5 sin 15 e^{−5}, and at x = −0.6 (t = 1)
// f = sin 3 / e.
func TestDecayingSin(t *testing.T) {
	for _, name := range []string{"decaying_sin", "decaying-sin", "DecayingSin"} {
		f, err := Get(name, 0)
		if err != nil {
			t.Fatalf("Get(%q): %v", name, err)
		}
		if f.Name != "decaying_sin" || f.Dim != 1 || f.Lower[0] != -1 || f.Upper[0] != 1 {
			t.Fatalf("Get(%q) = %s/%d on [%g, %g]", name, f.Name, f.Dim, f.Lower[0], f.Upper[0])
		}
	}
	f, _ := Get("decaying_sin", 1)
	for _, tc := range []struct{ x, want float64 }{
		{-1, 0},
		{-0.6, math.Sin(3) / math.E},
		{1, 5 * math.Sin(15) * math.Exp(-5)},
	} {
		if got := f.Eval([]float64{tc.x}); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("f(%g) = %.17g, want %.17g", tc.x, got, tc.want)
		}
	}
	if _, err := Get("decaying_sin", 2); err == nil {
		t.Error("Get(decaying_sin, 2): no error for a 1-D function")
	}
}
