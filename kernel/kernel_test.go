package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// gradClose is the mixed absolute/relative criterion used against central
// finite differences: relative error 1e-5, with an absolute floor that is far
// above the finite-difference error (~1e-10 at h = 1e-5) but far below the
// scale of the kernel values (~1).
func gradClose(analytic, fd float64) bool {
	return math.Abs(analytic-fd) <= 1e-5*math.Max(math.Abs(analytic), math.Abs(fd))+1e-8
}

// testKernels returns every stationary family in d dimensions, ARD and
// isotropic, with non-default parameters, plus composites.
func testKernels(d int, rng *rand.Rand) map[string]Kernel {
	out := make(map[string]Kernel)
	for f := RBF; f <= RQ; f++ {
		for _, ard := range []bool{true, false} {
			k := NewStationary(f, d, ard)
			p := k.Params(nil)
			for i := range p {
				p[i] += 0.6 * (rng.Float64() - 0.5)
			}
			k.SetParams(p)
			out[fmt.Sprintf("%v/ard=%v", f, ard)] = k
		}
	}
	a := NewStationary(Matern52, d, true)
	a.SetLengthscales(randLengthscales(d, rng))
	b := NewStationary(RQ, d, false)
	b.SetAlpha(2.5)
	b.SetVariance(0.7)
	c := NewStationary(Matern12, d, true)
	c.SetLengthscales(randLengthscales(d, rng))
	out["sum"] = NewSum(a.Clone(), b.Clone())
	out["product"] = NewProduct(a.Clone(), b.Clone(), c.Clone())
	out["sum-of-product"] = NewSum(NewProduct(a.Clone(), c.Clone()), b.Clone())
	// Warped: every coordinate, and the first one alone, with shapes away
	// from a = b = 1.
	for _, name := range []string{"warp", "warp-first"} {
		dims := []int{0}
		if name == "warp" {
			dims = nil
			for i := range d {
				dims = append(dims, i)
			}
		}
		w := NewWarp(a.Clone(), dims)
		p := w.Params(nil)
		for i := a.NumParams(); i < len(p); i++ {
			p[i] = 1.2 * (rng.Float64() - 0.5)
		}
		w.SetParams(p)
		out[name] = w
	}
	return out
}

func randLengthscales(d int, rng *rand.Rand) []float64 {
	l := make([]float64, d)
	for i := range l {
		l[i] = 0.2 + 0.6*rng.Float64()
	}
	return l
}

func randPoint(d int, rng *rand.Rand) []float64 {
	x := make([]float64, d)
	for i := range x {
		x[i] = rng.Float64()
	}
	return x
}

func TestClosedForm(t *testing.T) {
	const s2, l, a = 1.7, 0.3, 0.8
	e := math.Exp
	closed := map[Family]func(r float64) float64{
		RBF:      func(r float64) float64 { return s2 * e(-r*r/2) },
		Matern12: func(r float64) float64 { return s2 * e(-r) },
		Matern32: func(r float64) float64 { return s2 * (1 + math.Sqrt(3)*r) * e(-math.Sqrt(3)*r) },
		Matern52: func(r float64) float64 {
			return s2 * (1 + math.Sqrt(5)*r + 5*r*r/3) * e(-math.Sqrt(5)*r)
		},
		RQ: func(r float64) float64 { return s2 * math.Pow(1+r*r/(2*a), -a) },
	}
	for f, want := range closed {
		for _, ard := range []bool{true, false} {
			k := NewStationary(f, 3, ard)
			k.SetVariance(s2)
			k.SetAlpha(a)
			ls := []float64{l}
			if ard {
				ls = []float64{l, 2 * l, 0.5 * l}
			}
			k.SetLengthscales(ls)
			for _, r := range []float64{0, 0.5, 1, 3} {
				// Put the whole scaled distance on the last axis, then
				// split it over all axes.
				x := []float64{0.1, 0.2, 0.3}
				y := append([]float64(nil), x...)
				ll := ls[len(ls)-1]
				y[2] += r * ll
				if got := k.Eval(x, y); math.Abs(got-want(r)) > 1e-14*s2 {
					t.Errorf("%v ard=%v r=%v: got %v, want %v", f, ard, r, got, want(r))
				}
				z := append([]float64(nil), x...)
				for d := range z {
					ld := ls[0]
					if ard {
						ld = ls[d]
					}
					z[d] -= r / math.Sqrt(3) * ld
				}
				if got := k.Eval(x, z); math.Abs(got-want(r)) > 1e-13*s2 {
					t.Errorf("%v ard=%v r=%v split: got %v, want %v", f, ard, r, got, want(r))
				}
			}
		}
	}
}

func TestParamGrad(t *testing.T) {
	const h = 1e-5
	rng := rand.New(rand.NewPCG(1, 2))
	for name, k := range testKernels(3, rng) {
		np := k.NumParams()
		grad := make([]float64, np)
		for trial := 0; trial < 20; trial++ {
			x, y := randPoint(3, rng), randPoint(3, rng)
			if trial == 0 {
				y = append([]float64(nil), x...) // r = 0
			}
			val := k.ParamGrad(x, y, grad)
			if v := k.Eval(x, y); v != val {
				t.Errorf("%s: ParamGrad value %v != Eval %v", name, val, v)
			}
			p := k.Params(nil)
			for j := 0; j < np; j++ {
				q := append([]float64(nil), p...)
				q[j] = p[j] + h
				k.SetParams(q)
				fp := k.Eval(x, y)
				q[j] = p[j] - h
				k.SetParams(q)
				fm := k.Eval(x, y)
				k.SetParams(p)
				fd := (fp - fm) / (2 * h)
				if !gradClose(grad[j], fd) {
					t.Errorf("%s param %d at %v,%v: analytic %v, fd %v", name, j, x, y, grad[j], fd)
				}
			}
		}
	}
}

func TestInputGrad(t *testing.T) {
	const h = 1e-6
	rng := rand.New(rand.NewPCG(3, 4))
	for name, k := range testKernels(4, rng) {
		grad := make([]float64, 4)
		for trial := 0; trial < 20; trial++ {
			x, y := randPoint(4, rng), randPoint(4, rng)
			val := k.InputGrad(x, y, grad)
			if v := k.Eval(x, y); math.Abs(v-val) > 1e-15*math.Abs(v) {
				t.Errorf("%s: InputGrad value %v != Eval %v", name, val, v)
			}
			for d := range x {
				xp := append([]float64(nil), x...)
				xp[d] += h
				xm := append([]float64(nil), x...)
				xm[d] -= h
				fd := (k.Eval(xp, y) - k.Eval(xm, y)) / (2 * h)
				if !gradClose(grad[d], fd) {
					t.Errorf("%s dim %d: analytic %v, fd %v", name, d, grad[d], fd)
				}
			}
		}
	}
}

// TestZeroDistance checks that every gradient at x = x' is finite, the input
// gradient is exactly zero (no 0/0 or sqrt(0) derivatives), and lengthscale
// derivatives of stationary kernels vanish.
func TestZeroDistance(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for name, k := range testKernels(3, rng) {
		x := randPoint(3, rng)
		y := append([]float64(nil), x...)
		g := make([]float64, 3)
		k.InputGrad(x, y, g)
		for d, v := range g {
			if v != 0 {
				t.Errorf("%s: input gradient[%d] at r=0 is %v, want 0", name, d, v)
			}
		}
		pg := make([]float64, k.NumParams())
		val := k.ParamGrad(x, y, pg)
		for j, v := range pg {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("%s: param gradient[%d] at r=0 is %v", name, j, v)
			}
		}
		if math.IsNaN(val) || val <= 0 {
			t.Errorf("%s: k(x,x) = %v", name, val)
		}
		if s, ok := k.(*Stationary); ok {
			for j := 0; j < len(s.logLen); j++ {
				if pg[j] != 0 {
					t.Errorf("%s: ∂k/∂log l_%d at r=0 is %v, want 0", name, j, pg[j])
				}
			}
		}
	}
	// Tiny but nonzero distances must not overflow the Matérn-1/2 k'(r)/r.
	k := NewStationary(Matern12, 2, true)
	g := make([]float64, 2)
	pg := make([]float64, 3)
	for _, eps := range []float64{1e-300, 1e-160, 1e-20} {
		x, y := []float64{0.5, 0.5}, []float64{0.5 + eps, 0.5}
		k.InputGrad(x, y, g)
		k.ParamGrad(x, y, pg)
		for _, v := range append(g, pg...) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("Matern12 at distance %v: non-finite gradient %v %v", eps, g, pg)
			}
		}
	}
}

func TestMatrixPSD(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for name, k := range testKernels(3, rng) {
		X := make([][]float64, 60)
		for i := range X {
			X[i] = randPoint(3, rng)
		}
		X[59] = X[0] // a duplicate keeps the matrix singular but PSD
		K := Matrix(k, X)
		var tr float64
		for i := range X {
			tr += K.At(i, i)
			for j := range X {
				if K.At(i, j) != K.At(j, i) || K.At(i, j) != k.Eval(X[i], X[j]) {
					t.Fatalf("%s: K[%d,%d] = %v, k = %v", name, i, j, K.At(i, j), k.Eval(X[i], X[j]))
				}
			}
		}
		var eig mat.EigenSym
		if !eig.Factorize(K, false) {
			t.Fatalf("%s: eigendecomposition failed", name)
		}
		if min := eig.Values(nil)[0]; min < -1e-10*tr {
			t.Errorf("%s: min eigenvalue %v < -1e-10·trace (%v)", name, min, tr)
		}
		C := Cross(k, X[:5], X[10:13])
		if r, c := C.Dims(); r != 5 || c != 3 {
			t.Fatalf("%s: Cross dims %d×%d", name, r, c)
		}
		if C.At(4, 2) != k.Eval(X[4], X[12]) {
			t.Errorf("%s: Cross entry mismatch", name)
		}
	}
}

func TestParamsCloneBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for name, k := range testKernels(2, rng) {
		p := k.Params(nil)
		if len(p) != k.NumParams() || len(k.Bounds()) != k.NumParams() {
			t.Fatalf("%s: %d params, %d bounds, NumParams %d", name, len(p), len(k.Bounds()), k.NumParams())
		}
		c := k.Clone()
		q := append([]float64(nil), p...)
		for i := range q {
			q[i] += 0.1
		}
		c.SetParams(q)
		if got := k.Params(make([]float64, 0, 1)); !equal(got, p) {
			t.Errorf("%s: Clone shares state: %v became %v", name, p, got)
		}
		if got := c.Params(nil); !equal(got, q) {
			t.Errorf("%s: SetParams/Params round trip %v != %v", name, got, q)
		}
	}
	k := NewStationary(RQ, 3, false)
	want := []float64{math.Log(0.2), 0, 0}
	if got := k.Params(nil); !equal(got, want) {
		t.Errorf("RQ defaults %v, want %v", got, want)
	}
	b := k.Bounds()
	if math.Abs(b[0].Lo-math.Log(0.01)) > 1e-15 || math.Abs(b[0].Hi-math.Log(2)) > 1e-15 ||
		math.Abs(b[1].Lo-math.Log(1e-2)) > 1e-15 || math.Abs(b[2].Hi-math.Log(1e2)) > 1e-15 {
		t.Errorf("default bounds %v", b)
	}
	k.SetBounds(Bound{0.05, 1}, Bound{1e-6, 1000})
	if b := k.Bounds(); math.Abs(b[0].Lo-math.Log(0.05)) > 1e-15 || math.Abs(b[1].Hi-math.Log(1000)) > 1e-12 {
		t.Errorf("SetBounds: %v", b)
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestParseFamily(t *testing.T) {
	for f := RBF; f <= RQ; f++ {
		g, err := ParseFamily(" " + f.String() + " ")
		if err != nil || g != f {
			t.Errorf("ParseFamily(%q) = %v, %v", f.String(), g, err)
		}
	}
	if _, err := ParseFamily("MATERN52"); err != nil {
		t.Errorf("ParseFamily is case-sensitive: %v", err)
	}
	if _, err := ParseFamily("matern72"); err == nil {
		t.Error("ParseFamily accepted matern72")
	}
}
