package uncertain

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// utRandSPD returns a random symmetric positive definite d × d matrix.
func utRandSPD(rng *rand.Rand, d int) *mat.SymDense {
	a := mat.NewDense(d, d, nil)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			a.Set(i, j, rng.NormFloat64())
		}
	}
	s := mat.NewSymDense(d, nil)
	s.SymOuterK(1, a)
	for i := 0; i < d; i++ {
		s.SetSym(i, i, s.At(i, i)+0.5)
	}
	return s
}

func utRelClose(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// Spec §9 / Corrections: W_m sums to 1 and W_c to 1 + (1 − α² + β).
func TestUTWeights(t *testing.T) {
	for _, u := range []UT{{}, {Alpha: 0.5, Beta: 2, Kappa: 1}, {Alpha: 1, Beta: 0, Kappa: 2}} {
		p := u.params()
		for _, d := range []int{1, 2, 5, 100} {
			wm0, wc0, w := u.Weights(d)
			sm := wm0 + 2*float64(d)*w
			sc := wc0 + 2*float64(d)*w
			if !utRelClose(sm, 1, 1e-9) {
				t.Errorf("%+v d=%d: Σ W_m = %v, want 1", p, d, sm)
			}
			if want := 1 + (1 - p.Alpha*p.Alpha + p.Beta); !utRelClose(sc, want, 1e-9) {
				t.Errorf("%+v d=%d: Σ W_c = %v, want %v", p, d, sc, want)
			}
		}
	}
	// The chapter's values at d = 1 (spec §5.2): W_m^(0) = 1 − 10⁶, W = 5×10⁵.
	wm0, _, w := UT{}.Weights(1)
	if !utRelClose(wm0, -999999, 1e-9) || !utRelClose(w, 5e5, 1e-9) {
		t.Errorf("d=1 weights %v, %v; want −999999, 5e5", wm0, w)
	}
}

// The sigma points are the mean and ±√(d+λ) times the columns of the lower
// Cholesky factor: their weighted mean and covariance reproduce (â, Σ).
func TestUTSigmaPoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	d := 3
	cov := utRandSPD(rng, d)
	mean := []float64{0.3, -1, 2}
	u := UT{Alpha: 0.7, Beta: 2}
	pts, err := u.SigmaPoints(mean, cov)
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 2*d+1 {
		t.Fatalf("%d sigma points, want %d", len(pts), 2*d+1)
	}
	_, _, w := u.Weights(d)
	for r := 0; r < d; r++ {
		for c := 0; c < d; c++ {
			var s float64
			for _, p := range pts[1:] {
				s += w * (p[r] - mean[r]) * (p[c] - mean[c])
			}
			if !utRelClose(s, cov.At(r, c), 1e-12) {
				t.Errorf("Σ W δδᵀ[%d,%d] = %v, want %v", r, c, s, cov.At(r, c))
			}
		}
	}
	diag := u.DiagOffsets([]float64{0.1, 0, 2})
	if diag[0][0] != u.scale(3)*0.1 || diag[3][0] != -u.scale(3)*0.1 || diag[1][1] != 0 {
		t.Errorf("DiagOffsets = %v", diag)
	}
}

// Mean exact for quadratic maps in any d (spec Corrections), at the default
// α = 1e-3 where the stable form matters.
func TestUTMeanExactQuadratic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, d := range []int{1, 2, 4} {
		cov := utRandSPD(rng, d)
		q := utRandSPD(rng, d) // any symmetric Q
		b := make([]float64, d)
		mu := make([]float64, d)
		for i := range b {
			b[i], mu[i] = rng.NormFloat64(), rng.NormFloat64()
		}
		c := 0.7
		g := func(a []float64) float64 {
			v := c
			for i := range a {
				v += b[i] * a[i]
				for j := range a {
					v += a[i] * q.At(i, j) * a[j]
				}
			}
			return v
		}
		// E[aᵀQa + bᵀa + c] = tr(QΣ) + μᵀQμ + bᵀμ + c.
		want := g(mu)
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				want += q.At(i, j) * cov.At(j, i)
			}
		}
		got, _, err := UT{}.Transform(g, mu, cov)
		if err != nil {
			t.Fatal(err)
		}
		if !utRelClose(got, want, 1e-8) {
			t.Errorf("d=%d: UT mean %v, want %v", d, got, want)
		}
	}
}

// Covariance exact for affine maps R^d → R^k in any d.
func TestUTCovExactAffine(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, d := range []int{1, 3, 6} {
		k := 2
		cov := utRandSPD(rng, d)
		a := mat.NewDense(k, d, nil)
		for i := 0; i < k; i++ {
			for j := 0; j < d; j++ {
				a.Set(i, j, rng.NormFloat64())
			}
		}
		off := []float64{1, -2}
		mu := make([]float64, d)
		for i := range mu {
			mu[i] = rng.NormFloat64()
		}
		g := func(x, dst []float64) {
			for i := 0; i < k; i++ {
				dst[i] = off[i] + mat.Dot(a.RowView(i), mat.NewVecDense(d, x))
			}
		}
		m, c, err := UT{}.TransformVec(g, k, mu, cov)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float64, k)
		g(mu, want)
		var ac, acat mat.Dense
		ac.Mul(a, cov)
		acat.Mul(&ac, a.T())
		for i := 0; i < k; i++ {
			if !utRelClose(m[i], want[i], 1e-8) {
				t.Errorf("d=%d: mean[%d] = %v, want %v", d, i, m[i], want[i])
			}
			for j := 0; j < k; j++ {
				if !utRelClose(c.At(i, j), acat.At(i, j), 1e-8) {
					t.Errorf("d=%d: cov[%d,%d] = %v, want %v", d, i, j, c.At(i, j), acat.At(i, j))
				}
			}
		}
		// The scalar Transform of the first output agrees.
		_, v, _ := UT{}.Transform(func(x []float64) float64 {
			o := make([]float64, k)
			g(x, o)
			return o[0]
		}, mu, cov)
		if !utRelClose(v, acat.At(0, 0), 1e-8) {
			t.Errorf("d=%d: scalar variance %v, want %v", d, v, acat.At(0, 0))
		}
	}
}

// The variance of a scalar quadratic is exact at d = 1 (β = 2, κ = 0):
// g = c a² + b a, a ~ N(μ, σ²): Var = (b + 2cμ)²σ² + 2c²σ⁴.
func TestUTVarExactQuadratic1D(t *testing.T) {
	for _, tc := range []struct{ c, b, mu, sd float64 }{
		{1, 0, 0, 1}, {0.5, -2, 0.3, 0.2}, {-3, 1, 1.5, 0.05},
	} {
		g := func(a []float64) float64 { return tc.c*a[0]*a[0] + tc.b*a[0] }
		cov := mat.NewSymDense(1, []float64{tc.sd * tc.sd})
		m, v, err := UT{}.Transform(g, []float64{tc.mu}, cov)
		if err != nil {
			t.Fatal(err)
		}
		s2 := tc.sd * tc.sd
		wantM := g([]float64{tc.mu}) + tc.c*s2
		wantV := (tc.b+2*tc.c*tc.mu)*(tc.b+2*tc.c*tc.mu)*s2 + 2*tc.c*tc.c*s2*s2
		if !utRelClose(m, wantM, 1e-8) || !utRelClose(v, wantV, 1e-8) {
			t.Errorf("%+v: UT (%v, %v), want (%v, %v)", tc, m, v, wantM, wantV)
		}
	}
}

// ... and not at d = 2 (spec Corrections): a ~ N(0, I₂), a₁² + a₂² has UT
// variance 8 (true 4), a₁a₂ has 0 (true 1). The test pins the transform's
// known limitation, so that nobody "fixes" it into another transform.
func TestUTVarNotExactQuadratic2D(t *testing.T) {
	id := mat.NewSymDense(2, []float64{1, 0, 0, 1})
	mu := []float64{0, 0}
	m, v, _ := UT{}.Transform(func(a []float64) float64 { return a[0]*a[0] + a[1]*a[1] }, mu, id)
	if !utRelClose(m, 2, 1e-8) || !utRelClose(v, 8, 1e-6) {
		t.Errorf("a₁²+a₂²: UT (%v, %v), want (2, 8) (true variance 4)", m, v)
	}
	m, v, _ = UT{}.Transform(func(a []float64) float64 { return a[0] * a[1] }, mu, id)
	if math.Abs(m) > 1e-12 || math.Abs(v) > 1e-12 {
		t.Errorf("a₁a₂: UT (%v, %v), want (0, 0) (true variance 1)", m, v)
	}
}

func TestUTCheck(t *testing.T) {
	if err := (UT{Alpha: -1, Beta: 2}).Check(1); err == nil {
		t.Error("α < 0 accepted")
	}
	if err := (UT{Alpha: 1, Kappa: -3}).Check(2); err == nil {
		t.Error("d + κ < 0 accepted")
	}
	if err := (UT{}).Check(3); err != nil {
		t.Error(err)
	}
	if _, err := (UT{}).Offsets(mat.NewSymDense(2, []float64{1, 1, 1, 1})); err == nil {
		t.Error("singular covariance accepted")
	}
}
