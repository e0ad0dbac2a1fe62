package transform

import (
	"math"
	"testing"
)

// TestGaussianCopula checks Φ⁻¹(r/(n+1)) with tied values at the highest
// of their ranks, as the reference code's order statistics give them.
func TestGaussianCopula(t *testing.T) {
	z := GaussianCopula([]float64{3, -1, 7, 3, 100})
	// Ranks 3, 1, 4, 3, 5 of n = 5: quantiles 3/6, 1/6, 4/6, 3/6, 5/6.
	want := []float64{0, -0.9674215661017012, 0.4307272992954576, 0, 0.9674215661017012}
	for i := range want {
		if math.Abs(z[i]-want[i]) > 1e-12 {
			t.Fatalf("GaussianCopula = %v, want %v", z, want)
		}
	}
	if got := GaussianCopula(nil); len(got) != 0 {
		t.Errorf("GaussianCopula(nil) = %v", got)
	}
}

func TestParse(t *testing.T) {
	for s, want := range map[string]Transform{"": None, "none": None, "log": Log, " Copula ": Copula} {
		got, err := Parse(s)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", s, got, err, want)
		}
		if s != "" && got.String() != want.String() {
			t.Errorf("%v.String() = %q", want, got.String())
		}
	}
	if _, err := Parse("sqrt"); err == nil {
		t.Error(`Parse("sqrt") accepted`)
	}
}

func TestApply(t *testing.T) {
	y := []float64{1, math.E, 0.5}
	if z := Log.Apply(y); z[0] != 0 || z[1] != 1 || z[2] != math.Log(0.5) {
		t.Errorf("Log.Apply(%v) = %v", y, z)
	}
	z := None.Apply(y)
	z[0] = 9
	if y[0] != 1 {
		t.Error("None.Apply shares its result with its argument")
	}
	for _, v := range []float64{0, -1, math.NaN()} {
		if Log.Check(v) == nil {
			t.Errorf("Log.Check(%v) = nil", v)
		}
		if None.Check(v) != nil || Copula.Check(v) != nil {
			t.Errorf("None or Copula refuses %v", v)
		}
	}
	if Log.Check(1e-300) != nil {
		t.Error("Log.Check refuses a tiny positive value")
	}
}

func TestText(t *testing.T) {
	for _, tf := range []Transform{None, Log, Copula} {
		b, err := tf.MarshalText()
		var back Transform
		if err != nil || back.UnmarshalText(b) != nil || back != tf {
			t.Errorf("%v: text %q, %v; read back %v", tf, b, err, back)
		}
	}
	if _, err := Transform(7).MarshalText(); err == nil {
		t.Error("Transform(7) has a name")
	}
	var tf Transform
	if tf.UnmarshalText([]byte("sqrt")) == nil {
		t.Error(`"sqrt" read as a transform`)
	}
}
