package kernel

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Mixed test inputs: categorical columns catCols with catLevels categories
// each (0-based indices stored as float64), continuous columns contCols in
// [0, 1]. The columns are interleaved on purpose, to exercise Subset.
var (
	catCols   = []int{0, 2, 4}
	catLevels = []int{3, 5, 2}
	contCols  = []int{1, 3}
	mixedDim  = 5
)

func randMixed(rng *rand.Rand) []float64 {
	z := make([]float64, mixedDim)
	for i, c := range catCols {
		z[c] = float64(rng.IntN(catLevels[i]))
	}
	for _, c := range contCols {
		z[c] = rng.Float64()
	}
	return z
}

func isCat(col int) bool { return slices.Contains(catCols, col) }

// subCols returns 0..n−1, the columns of a sub-vector of length n.
func subCols(n int) []int {
	c := make([]int, n)
	for i := range c {
		c[i] = i
	}
	return c
}

func newExpOverlap(ard, normalised bool, rng *rand.Rand) Kernel {
	k := NewExpOverlap(subCols(len(catCols)), ard, normalised)
	l := k.Lengthscales()
	for i := range l {
		l[i] = 0.05 + 0.4*rng.Float64()
	}
	k.SetLengthscales(l)
	return NewSubset(k, catCols)
}

func newContinuous(rng *rand.Rand) Kernel {
	k := NewStationary(Matern52, len(contCols), true)
	k.SetLengthscales(randLengthscales(len(contCols), rng))
	k.SetVariance(1.3)
	return NewSubset(k, contCols)
}

// mixedKernels returns kernels on the mixed inputs, with non-default
// parameters. λ of the learned mixtures lies strictly inside (0, 1) unless
// the name says otherwise.
func mixedKernels(rng *rand.Rand) map[string]Kernel {
	out := map[string]Kernel{
		"overlap":              NewOverlap(catCols),
		"subset-overlap":       NewSubset(NewOverlap(subCols(len(catCols))), catCols),
		"expoverlap/ard":       newExpOverlap(true, false, rng),
		"expoverlap/iso":       newExpOverlap(false, false, rng),
		"expoverlap/ard-norm":  newExpOverlap(true, true, rng),
		"expoverlap/iso-norm":  newExpOverlap(false, true, rng),
		"subset-matern52":      newContinuous(rng),
		"subset-matern52/copy": newContinuous(rng),
	}
	for _, lam := range []float64{0, 0.5, 1, 0.3} {
		name := "mixture/" + ftoa(lam)
		m := NewMixture(newExpOverlap(true, false, rng), newContinuous(rng), lam, true)
		m.SetLearnedVariance(1.7, Bound{0.5, 5})
		out[name] = m
		o := NewMixture(NewOverlap(catCols), newContinuous(rng), lam, true)
		o.SetFixedVariance(1)
		o.SetSumHalf(true)
		out[name+"/overlap-fixedvar-half"] = o
		f := NewMixture(newExpOverlap(false, true, rng), newContinuous(rng), lam, false)
		out[name+"/fixedlambda"] = f
	}
	return out
}

func ftoa(v float64) string {
	switch v {
	case 0:
		return "0"
	case 0.5:
		return "0.5"
	case 1:
		return "1"
	}
	return "0.3"
}

func TestOverlapCountsMatches(t *testing.T) {
	k := NewOverlap(catCols)
	s := NewSubset(NewOverlap([]int{0, 1, 2}), catCols)
	for _, tc := range []struct {
		x, y []float64
		want float64
	}{
		{[]float64{0, 0.1, 1, 0.2, 1}, []float64{0, 0.9, 1, 0.3, 1}, 1},
		{[]float64{0, 0.1, 1, 0.2, 1}, []float64{2, 0.1, 1, 0.2, 1}, 2.0 / 3},
		{[]float64{0, 0.1, 1, 0.2, 1}, []float64{2, 0.1, 4, 0.2, 1}, 1.0 / 3},
		{[]float64{0, 0.1, 1, 0.2, 1}, []float64{1, 0.1, 2, 0.2, 0}, 0},
	} {
		if got := k.Eval(tc.x, tc.y); got != tc.want {
			t.Errorf("Overlap(%v, %v) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
		if got := s.Eval(tc.x, tc.y); got != tc.want {
			t.Errorf("Subset(Overlap)(%v, %v) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
	rng := rand.New(rand.NewPCG(21, 22))
	for trial := 0; trial < 200; trial++ {
		x, y := randMixed(rng), randMixed(rng)
		n := 0
		for _, c := range catCols {
			if x[c] == y[c] {
				n++
			}
		}
		if got, want := k.Eval(x, y), float64(n)/float64(len(catCols)); got != want {
			t.Fatalf("Overlap(%v, %v) = %v, want %v", x, y, got, want)
		}
	}
}

func TestExpOverlapClosedForm(t *testing.T) {
	x := []float64{0, 2, 1, 4}
	y := []float64{0, 2, 0, 3} // δ = (1, 1, 0, 0)
	l := []float64{0.1, 0.2, 0.3, 0.4}
	for _, tc := range []struct {
		ard, norm bool
		l         []float64
		want      float64
	}{
		{true, false, l, math.Exp((0.1 + 0.2) / 4)},
		{true, true, l, math.Exp((0.1 + 0.2) / (0.1 + 0.2 + 0.3 + 0.4))},
		{false, false, []float64{0.3}, math.Exp(0.3 * 2 / 4)},
		{false, true, []float64{0.3}, math.Exp(0.3 * 2 / 4)}, // code: iso ignores normalisation
	} {
		k := NewExpOverlap([]int{0, 1, 2, 3}, tc.ard, tc.norm)
		k.SetLengthscales(tc.l)
		if got := k.Eval(x, y); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("ard=%v norm=%v: got %v, want %v", tc.ard, tc.norm, got, tc.want)
		}
	}
	// Defaults [mixed spec §3.2].
	for _, ard := range []bool{true, false} {
		k := NewExpOverlap([]int{0, 1, 2}, ard, false)
		hi, n := 2.5, 1
		if ard {
			hi, n = 0.5, 3
		}
		if k.NumParams() != n {
			t.Errorf("ard=%v: %d params, want %d", ard, k.NumParams(), n)
		}
		for j, b := range k.Bounds() {
			if math.Abs(b.Lo-math.Log(0.01)) > 1e-15 || math.Abs(b.Hi-math.Log(hi)) > 1e-15 {
				t.Errorf("ard=%v: bound %d = %v", ard, j, b)
			}
		}
		for _, v := range k.Lengthscales() {
			if math.Abs(v-math.Sqrt(0.005)) > 1e-15 {
				t.Errorf("ard=%v: initial lengthscale %v, want √0.005", ard, v)
			}
		}
	}
}

func TestMixtureClosedForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	kh, kx := newExpOverlap(true, false, rng), newContinuous(rng)
	for _, lam := range []float64{0, 0.25, 1} {
		for _, half := range []bool{false, true} {
			m := NewMixture(kh, kx, lam, true)
			m.SetLearnedVariance(2, Bound{0.5, 5})
			m.SetSumHalf(half)
			c := 1.0
			if half {
				c = 0.5
			}
			for trial := 0; trial < 10; trial++ {
				x, y := randMixed(rng), randMixed(rng)
				h, k := kh.Eval(x, y), kx.Eval(x, y)
				want := 2 * ((1-lam)*c*(h+k) + lam*h*k)
				if got := m.Eval(x, y); math.Abs(got-want) > 1e-14 {
					t.Errorf("λ=%v half=%v: got %v, want %v", lam, half, got, want)
				}
			}
		}
	}
	// Parameter layout: k_h's, k_x's, λ, log s².
	m := NewMixture(kh, kx, 0.4, true)
	p := m.Params(nil)
	nh, nx := kh.NumParams(), kx.NumParams()
	if len(p) != nh+nx+2 || p[nh+nx] != 0.4 || p[nh+nx+1] != 0 {
		t.Errorf("params %v: want k_h (%d), k_x (%d), λ = 0.4, log s² = 0", p, nh, nx)
	}
	b := m.Bounds()
	if b[nh+nx] != (Bound{0, 1}) || math.Abs(b[nh+nx+1].Lo-math.Log(0.5)) > 1e-15 || math.Abs(b[nh+nx+1].Hi-math.Log(5)) > 1e-15 {
		t.Errorf("bounds of λ and log s²: %v", b[nh+nx:])
	}
	m.SetFixedVariance(1)
	if m.NumParams() != nh+nx+1 || len(m.Bounds()) != nh+nx+1 || !m.VarianceFixed() {
		t.Errorf("fixed variance: %d params", m.NumParams())
	}
	f := NewMixture(kh, kx, 0.4, false)
	f.SetFixedVariance(1)
	if f.NumParams() != nh+nx {
		t.Errorf("fixed λ and variance: %d params, want %d", f.NumParams(), nh+nx)
	}
	q := m.Params(nil)
	q[nh+nx] = 1.5
	m.SetParams(q)
	if m.Lambda() != 1 {
		t.Errorf("λ = 1.5 not clamped: %v", m.Lambda())
	}
}

func TestCategoricalPSD(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	const n = 200
	X := make([][]float64, n)
	for i := range X {
		X[i] = randMixed(rng)
	}
	for name, k := range mixedKernels(rng) {
		K := Matrix(k, X)
		var tr float64
		for i := range X {
			tr += K.At(i, i)
		}
		var eig mat.EigenSym
		if !eig.Factorize(K, false) {
			t.Fatalf("%s: eigendecomposition failed", name)
		}
		if min := eig.Values(nil)[0]; min < -1e-10*tr {
			t.Errorf("%s: min eigenvalue %v < -1e-10·trace (%v)", name, min, tr)
		}
	}
}

// fdParam returns the central finite difference of k(x, y) in parameter j,
// or a one-sided one where a central step would leave Bound{0, 1} (λ at 0 or
// 1, where k is linear in λ).
func fdParam(k Kernel, x, y []float64, j int, h float64) float64 {
	p := k.Params(nil)
	b := k.Bounds()[j]
	lo, hi := p[j]-h, p[j]+h
	if b == (Bound{0, 1}) {
		lo, hi = math.Max(lo, 0), math.Min(hi, 1)
	}
	q := slices.Clone(p)
	q[j] = hi
	k.SetParams(q)
	fp := k.Eval(x, y)
	q[j] = lo
	k.SetParams(q)
	fm := k.Eval(x, y)
	k.SetParams(p)
	return (fp - fm) / (hi - lo)
}

func TestCategoricalParamGrad(t *testing.T) {
	const h = 1e-5
	rng := rand.New(rand.NewPCG(27, 28))
	for name, k := range mixedKernels(rng) {
		grad := make([]float64, k.NumParams())
		for trial := 0; trial < 30; trial++ {
			x, y := randMixed(rng), randMixed(rng)
			if trial == 0 {
				y = slices.Clone(x)
			}
			val := k.ParamGrad(x, y, grad)
			if v := k.Eval(x, y); math.Abs(v-val) > 1e-15*math.Abs(v) {
				t.Errorf("%s: ParamGrad value %v != Eval %v", name, val, v)
			}
			for j := range grad {
				if fd := fdParam(k, x, y, j, h); !gradClose(grad[j], fd) {
					t.Errorf("%s param %d at %v,%v: analytic %v, fd %v", name, j, x, y, grad[j], fd)
				}
			}
		}
	}
}

func TestCategoricalInputGrad(t *testing.T) {
	const h = 1e-6
	rng := rand.New(rand.NewPCG(29, 30))
	for name, k := range mixedKernels(rng) {
		grad := make([]float64, mixedDim)
		for trial := 0; trial < 30; trial++ {
			x, y := randMixed(rng), randMixed(rng)
			if trial == 0 {
				y = slices.Clone(x)
			}
			for i := range grad {
				grad[i] = math.NaN() // every entry must be written
			}
			val := k.InputGrad(x, y, grad)
			if v := k.Eval(x, y); math.Abs(v-val) > 1e-15*math.Abs(v) {
				t.Errorf("%s: InputGrad value %v != Eval %v", name, val, v)
			}
			for d := range x {
				if isCat(d) {
					if grad[d] != 0 {
						t.Errorf("%s: gradient in categorical column %d is %v, want 0", name, d, grad[d])
					}
					continue
				}
				xp, xm := slices.Clone(x), slices.Clone(x)
				xp[d] += h
				xm[d] -= h
				fd := (k.Eval(xp, y) - k.Eval(xm, y)) / (2 * h)
				if !gradClose(grad[d], fd) {
					t.Errorf("%s column %d: analytic %v, fd %v", name, d, grad[d], fd)
				}
			}
		}
	}
}

func TestCategoricalCloneParams(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for name, k := range mixedKernels(rng) {
		p := k.Params(nil)
		if len(p) != k.NumParams() || len(k.Bounds()) != k.NumParams() {
			t.Fatalf("%s: %d params, %d bounds, NumParams %d", name, len(p), len(k.Bounds()), k.NumParams())
		}
		c := k.Clone()
		q := slices.Clone(p)
		for i := range q {
			q[i] = 0.5 * (q[i] + 0.1) // stays in [0, 1] for λ
		}
		c.SetParams(q)
		if got := k.Params(nil); !equal(got, p) {
			t.Errorf("%s: Clone shares state: %v became %v", name, p, got)
		}
		if got := c.Params(nil); !equal(got, q) {
			t.Errorf("%s: SetParams/Params round trip %v != %v", name, got, q)
		}
		if m, ok := c.(*Mixture); ok {
			before := k.NumParams()
			m.SetFixedVariance(3)
			m.SetSumHalf(!m.SumHalf())
			m.SetLambda(0.123)
			if k.NumParams() != before || k.(*Mixture).Lambda() == 0.123 || k.(*Mixture).Variance() == 3 {
				t.Errorf("%s: Clone shares Mixture settings", name)
			}
		}
	}
}

func TestNewPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"subset-empty":    func() { NewSubset(NewOverlap([]int{0}), nil) },
		"overlap-dup":     func() { NewOverlap([]int{1, 1}) },
		"expoverlap-neg":  func() { NewExpOverlap([]int{-1}, true, false) },
		"mixture-lambda":  func() { NewMixture(NewOverlap([]int{0}), NewOverlap([]int{1}), 1.5, false) },
		"mixture-fixvar0": func() { NewMixture(NewOverlap([]int{0}), NewOverlap([]int{1}), 0.5, false).SetFixedVariance(0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
