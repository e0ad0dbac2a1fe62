package acq

import (
	"math"
	"testing"
)

// Reference values computed with mpmath at 60 significant digits:
// erfcx(x) = exp(x²)·erfc(x) directly for |x| ≤ 1e4 and by the full
// asymptotic series Σ(−1)^k (2k−1)!!/(2x²)^k / (x√π) (summed to 1e-55)
// beyond; log h and log Φ from mpmath's npdf/ncdf, and for z < −1e4 from
// −z²/2 − ½log 2π + log(1 − tR(t)) with R from that erfcx.
func TestErfcxReference(t *testing.T) {
	for _, tc := range []struct{ x, want float64 }{
		{-26, 7.6577249314905683515e+293},
		{-10, 5.3762342836322708968e+43},
		{-3, 16205.988853999586625},
		{-1, 5.0089800807622834663},
		{-0.5, 1.9523604891825570933},
		{-1e-3, 1.0011293799198485917},
		{0, 1.0},
		{1e-8, 0.99999998871620842904},
		{0.25, 0.77034654773099674392},
		{0.5, 0.61569034419292587487},
		{1, 0.42758357615580700441},
		{1.5, 0.32158541645431750235},
		{2, 0.25539567631050574387},
		{3, 0.17900115118138995042},
		{3.9999999999, 0.1369994576282997405},
		{4, 0.13699945762506138989},
		{4.0000000001, 0.13699945762182303928},
		{5, 0.11070463773306862637},
		{7.5, 0.074573693062876683005},
		{10, 0.056140992743822585858},
		{12, 0.04685422101489376262},
		{20, 0.028174348741051319319},
		{24.999, 0.02255047301404208302},
		{25, 0.022549572432641358944},
		{26, 0.021683584850562906616},
		{27, 0.020881607990420940674},
		{30, 0.018795888861416751497},
		{50, 0.0112815362653237725},
		{100, 0.0056416137829894329036},
		{1e3, 0.0005641893014533876542},
		{1e5, 5.6418958351954680777e-6},
		{1e8, 5.6418958354775625874e-9},
		{1e50, 5.6418958354775628695e-51},
		{1e300, 5.6418958354775628695e-301},
	} {
		got := Erfcx(tc.x)
		if rel := math.Abs(got-tc.want) / tc.want; rel > 2e-15 {
			t.Errorf("Erfcx(%g) = %.17g, want %.17g (rel err %.2g)", tc.x, got, tc.want, rel)
		}
	}
}

func TestErfcxSpecial(t *testing.T) {
	if v := Erfcx(math.Inf(1)); v != 0 {
		t.Errorf("Erfcx(+Inf) = %g, want 0", v)
	}
	for _, x := range []float64{-27, -1e10, math.Inf(-1)} {
		if v := Erfcx(x); !math.IsInf(v, 1) {
			t.Errorf("Erfcx(%g) = %g, want +Inf", x, v)
		}
	}
	if v := Erfcx(math.NaN()); !math.IsNaN(v) {
		t.Errorf("Erfcx(NaN) = %g, want NaN", v)
	}
}

// TestErfcxConsistency checks Erfcx against independent formulas on grids:
// exp(x²)·erfc(x) (exact up to the rounding of x², which costs ~x²ε) where
// erfc does not underflow, and the asymptotic series for large x; and that
// it is smooth across the branch point x = 4.
func TestErfcxConsistency(t *testing.T) {
	for x := 0.0; x < 20; x += 0.0173 {
		naive := math.Exp(x*x) * math.Erfc(x)
		tol := 4e-16 * (1 + 2*x*x)
		if rel := math.Abs(Erfcx(x)-naive) / naive; rel > tol {
			t.Errorf("Erfcx(%g) = %.17g, exp(x²)erfc(x) = %.17g (rel %.2g > %.2g)", x, Erfcx(x), naive, rel, tol)
		}
	}
	for x := 25.0; x < 1e6; x *= 1.37 {
		// Asymptotic series, summed while its terms decrease.
		s, term := 0.0, 1.0
		for k := 1; math.Abs(term) > 1e-20; k++ {
			s += term
			term *= -float64(2*k-1) / (2 * x * x)
		}
		want := s / (x * sqrtPi)
		if rel := math.Abs(Erfcx(x)-want) / want; rel > 1e-15 {
			t.Errorf("Erfcx(%g) = %.17g, series %.17g (rel %.2g)", x, Erfcx(x), want, rel)
		}
	}
	// Across the split, the relative step must match the derivative
	// erfcx'(x) = 2x·erfcx(x) − 2/√π.
	for _, x0 := range []float64{erfcxSplit} {
		h := 1e-9
		lo, hi := Erfcx(x0-h), Erfcx(x0)
		d := 2*x0*hi - 2/sqrtPi
		if math.Abs((hi-lo)-d*h) > 1e-15*hi {
			t.Errorf("Erfcx jumps at %g: %.17g → %.17g", x0, lo, hi)
		}
	}
}

func TestLogHReference(t *testing.T) {
	for _, tc := range []struct{ z, want float64 }{
		{40, 3.6888794541139363029},
		{5, 1.6094379231264313851},
		{1, 0.080026218849306940029},
		{0.1, -0.79643133955074713399},
		{0, -0.91893853320467274178},
		{-0.5, -1.6205162643873199193},
		{-0.99999999, -2.4851210066699290396},
		{-1, -2.4851210257126413368},
		{-1.00000001, -2.4851210447553537062},
		{-2, -4.7687835239171141569},
		{-3, -7.8696860596030285171},
		{-3.99999999, -11.849061533225825738},
		{-4, -11.849061577550663111},
		{-4.00000001, -11.849061621875500576},
		{-5, -16.744301162660990143},
		{-10, -55.553122036122355927},
		{-20, -206.91783850942509785},
		{-38, -730.19618340211373916},
		{-40, -808.29856835661996024},
		{-100, -5010.1295788002497923},
		{-1e3, -500014.73445209115845},
		{-1e4, -50000019.339619307157},
		{-1e6, -500000000028.54995965},
		{-1e8, -5000000000000037.7603},
		{-1e10, -50000000000000000047.0},
		{-1e100, -5e199},
	} {
		got := LogH(tc.z)
		if rel := math.Abs(got-tc.want) / math.Abs(tc.want); rel > 1e-14 {
			t.Errorf("LogH(%g) = %.17g, want %.17g (rel err %.2g)", tc.z, got, tc.want, rel)
		}
	}
}

func TestLogNormCDFReference(t *testing.T) {
	for _, tc := range []struct{ z, want float64 }{
		{40, 0},
		{8, -6.2209605742717860585e-16},
		{5, -2.8665161296376359338e-7},
		{1, -0.17275377902344988953},
		{0, -0.69314718055994530942},
		{-0.5, -1.1759117615936186089},
		{-1, -1.8410216450092635058},
		{-1.0000001, -1.8410217975227951264},
		{-2, -3.7831843336820319488},
		{-5, -15.064998393988725736},
		{-10, -53.231285150512470578},
		{-20, -203.91715537109726394},
		{-38, -726.5572160188201301},
		{-40, -804.60844201375378817},
		{-100, -5005.5242086942050886},
		{-1e3, -500007.82669481218431},
		{-1e4, -50000010.129278915181},
		{-1e8, -5000000000000019.3396},
		{-1e100, -5e199},
	} {
		got := LogNormCDF(tc.z)
		err := math.Abs(got - tc.want)
		if tc.want != 0 {
			err /= math.Abs(tc.want)
		}
		if err > 1e-14 {
			t.Errorf("LogNormCDF(%g) = %.17g, want %.17g (rel err %.2g)", tc.z, got, tc.want, err)
		}
	}
}

// TestLogTailsMonotone checks that log h and log Φ are finite and strictly
// increasing deep in the lower tail, and smooth across the branch points.
func TestLogTailsMonotone(t *testing.T) {
	for _, f := range []struct {
		name string
		f    func(float64) float64
	}{{"LogH", LogH}, {"LogNormCDF", LogNormCDF}} {
		prev := math.Inf(-1)
		for z := -1e4; z <= -5; z += 0.37 {
			v := f.f(z)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s(%g) = %g, want finite", f.name, z, v)
			}
			if v <= prev {
				t.Fatalf("%s not increasing at z = %g: %g after %g", f.name, z, v, prev)
			}
			prev = v
		}
		// Log-spaced sweep to the far tail.
		prev = math.Inf(-1)
		for u := 1e8; u >= 5; u /= 1.01 {
			v := f.f(-u)
			if math.IsNaN(v) || math.IsInf(v, 0) || v <= prev {
				t.Fatalf("%s(%g) = %g after %g: want finite and increasing", f.name, -u, v, prev)
			}
			prev = v
		}
		// Across branch points the jump must be that of the derivative.
		for _, z0 := range []float64{-1, -millsSplit} {
			h := 1e-7
			a, b, c := f.f(z0-h), f.f(z0), f.f(z0+h)
			if curv := math.Abs(a - 2*b + c); curv > 1e-12 {
				t.Errorf("%s not smooth at %g: second difference %g", f.name, z0, curv)
			}
		}
	}
}

// TestRatios checks Φ/h, φ/h and φ/Φ against high-precision forms built from
// the reference-checked LogH and LogNormCDF.
func TestRatios(t *testing.T) {
	for _, z := range []float64{3, 0.5, -0.5, -1, -2, -3.9, -4, -4.1, -7, -30, -1e3, -1e6} {
		cr, pr := hRatios(z)
		// d log h/dz = Φ/h, by central differences on LogH.
		h := 1e-6 * math.Max(1, math.Abs(z))
		fd := (LogH(z+h) - LogH(z-h)) / (2 * h)
		if rel := math.Abs(cr-fd) / math.Abs(cr); rel > 1e-6 {
			t.Errorf("Φ/h at z=%g: %g, finite difference %g", z, cr, fd)
		}
		// h = φ + zΦ ⇒ φ/h = 1 − z·Φ/h.
		if rel := math.Abs(pr-(1-z*cr)) / pr; rel > 1e-12 {
			t.Errorf("φ/h at z=%g: %g, 1 − zΦ/h = %g", z, pr, 1-z*cr)
		}
		r := invMills(z)
		fd = (LogNormCDF(z+h) - LogNormCDF(z-h)) / (2 * h)
		if rel := math.Abs(r-fd) / math.Abs(r); rel > 1e-6 {
			t.Errorf("φ/Φ at z=%g: %g, finite difference %g", z, r, fd)
		}
	}
}
