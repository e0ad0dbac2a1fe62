package functions

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// cases lists every function in several dimensions.
var cases = []struct {
	name string
	dims []int
}{
	{"branin", []int{2}},
	{"hartmann3", []int{3}},
	{"hartmann6", []int{6}},
	{"ackley", []int{1, 2, 5, 10}},
	{"ackley_small", []int{2, 5, 10}},
	{"michalewicz", []int{1, 2, 3, 4, 5, 8, 10}},
	{"eggholder", []int{2}},
	{"eggholder_small", []int{2}},
	{"rosenbrock", []int{2, 3, 10}},
	{"levy", []int{1, 2, 5, 10}},
	{"styblinskitang", []int{1, 2, 5, 10}},
	{"camel6", []int{2}},
	{"beale", []int{2}},
	{"branin_fitbo", []int{2}},
	{"eggholder_fitbo", []int{2}},
	{"hartmann6_fitbo", []int{6}},
	{"decaying_sin", []int{1}},
}

func forEachCase(t *testing.T, fn func(t *testing.T, f Function)) {
	t.Helper()
	for _, c := range cases {
		for _, d := range c.dims {
			f, err := Get(c.name, d)
			if err != nil {
				t.Fatalf("Get(%q, %d): %v", c.name, d, err)
			}
			t.Run(fmt.Sprintf("%s/%d", c.name, d), func(t *testing.T) { fn(t, f) })
		}
	}
}

// Every stored minimiser is known to full precision, so f(x*) must equal f*
// to 1e-9 (scaled relative to |f*| for eggholder's large values).
func TestOptimumAtMinimizers(t *testing.T) {
	forEachCase(t, func(t *testing.T, f Function) {
		if len(f.Minimizers) == 0 {
			t.Fatal("no minimisers stored")
		}
		tol := 1e-9 * math.Max(1, math.Abs(f.Optimum))
		for _, x := range f.Minimizers {
			if len(x) != f.Dim {
				t.Fatalf("minimiser %v has length %d", x, len(x))
			}
			for i, v := range x {
				if v < f.Lower[i] || v > f.Upper[i] {
					t.Errorf("minimiser %v outside the box in coordinate %d", x, i)
				}
			}
			if v := f.Eval(x); math.Abs(v-f.Optimum) > tol {
				t.Errorf("f(%v) = %.17g, want %.17g", x, v, f.Optimum)
			}
			if r := f.Regret(f.Eval(x)); math.Abs(r) > tol {
				t.Errorf("Regret at minimiser = %g", r)
			}
		}
	})
}

// The minimisers must be local minima in the box: moving any coordinate a
// little in either direction (staying inside) must not lower f. This catches
// optima that belong to a different set of constants.
func TestMinimizersAreLocalMinima(t *testing.T) {
	forEachCase(t, func(t *testing.T, f Function) {
		for _, x := range f.Minimizers {
			f0 := f.Eval(x)
			for i := range x {
				for _, s := range []float64{-1, 1} {
					y := append([]float64(nil), x...)
					y[i] += s * 1e-5 * (f.Upper[i] - f.Lower[i])
					if y[i] < f.Lower[i] || y[i] > f.Upper[i] {
						continue
					}
					if v := f.Eval(y); v < f0-1e-13*math.Max(1, math.Abs(f0)) {
						t.Errorf("f decreases from %.17g to %.17g moving coordinate %d by %+g",
							f0, v, i, y[i]-x[i])
					}
				}
			}
		}
	})
}

// A dense random search never finds a value below f*; 10⁵ points for the
// two-dimensional functions, 2·10⁴ otherwise.
func TestRandomSearchNeverBeatsOptimum(t *testing.T) {
	forEachCase(t, func(t *testing.T, f Function) {
		if math.IsNaN(f.Optimum) {
			t.Skip("optimum unknown")
		}
		rng := rand.New(rand.NewPCG(uint64(f.Dim), 7))
		n := 20000
		if f.Dim <= 2 {
			n = 100000
		}
		u := make([]float64, f.Dim)
		best := math.Inf(1)
		for range n {
			for i := range u {
				u[i] = rng.Float64()
			}
			best = math.Min(best, f.EvalUnit(u))
		}
		if best < f.Optimum-1e-9 {
			t.Errorf("random search found %.17g below f* = %.17g", best, f.Optimum)
		}
		for _, x := range f.Minimizers {
			if best < f.Eval(x)-1e-9 {
				t.Errorf("random search found %.17g below f(x*) = %.17g", best, f.Eval(x))
			}
		}
	})
}

// Published optima and minimisers (rounded) of spec §8.1 and the SFU library.
func TestPublishedValues(t *testing.T) {
	for _, tc := range []struct {
		name  string
		dim   int
		fstar float64
		ftol  float64   // precision of the published f*
		x     []float64 // published (rounded) minimiser, may be nil
	}{
		{"branin", 2, 0.397887, 1e-6, []float64{9.42478, 2.475}},
		{"hartmann3", 3, -3.86278, 1e-4, []float64{0.114614, 0.555649, 0.852547}},
		{"hartmann6", 6, -3.32237, 1e-5, []float64{0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573}},
		{"hartmann6", 6, -3.32236801141551, 1e-13, nil},
		{"michalewicz", 2, -1.8013034, 1e-7, nil},
		{"michalewicz", 5, -4.687658, 1e-6, nil},
		{"michalewicz", 10, -9.66015, 1e-5, nil},
		{"eggholder", 2, -959.6406627208510, 1e-9, []float64{512, 404.2319}},
		{"eggholder_small", 2, -9.596407, 1e-6, nil},
		{"camel6", 2, -1.0316284534898774, 1e-15, []float64{-0.0898, 0.7126}},
		{"styblinskitang", 3, -39.16616570377142 * 3, 1e-12, []float64{-2.903534, -2.903534, -2.903534}},
		{"beale", 2, 0, 0, []float64{3, 0.5}},
		{"rosenbrock", 4, 0, 0, []float64{1, 1, 1, 1}},
		{"levy", 3, 0, 0, []float64{1, 1, 1}},
		{"ackley", 3, 0, 0, []float64{0, 0, 0}},
	} {
		f, err := Get(tc.name, tc.dim)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(f.Optimum-tc.fstar) > tc.ftol {
			t.Errorf("%s/%d: Optimum %.17g, published %.17g", tc.name, tc.dim, f.Optimum, tc.fstar)
		}
		if tc.x != nil {
			if v := f.Eval(tc.x); math.Abs(v-tc.fstar) > 1e-4 {
				t.Errorf("%s/%d: f(%v) = %.10g, published f* %.10g", tc.name, tc.dim, tc.x, v, tc.fstar)
			}
		}
	}
}

// Each Michalewicz term minimum in the table must be attained and must not be
// beaten anywhere on a fine grid of [0, π].
func TestMichalewiczTermTable(t *testing.T) {
	var sum float64
	for i := 1; i <= len(michalewiczArgmin); i++ {
		g := func(v float64) float64 {
			return -math.Sin(v) * math.Pow(math.Sin(float64(i)*v*v/math.Pi), 2*michalewiczM)
		}
		gmin := g(michalewiczArgmin[i-1])
		const n = 200000
		for k := 0; k <= n; k++ {
			if v := g(math.Pi * float64(k) / n); v < gmin-1e-12 {
				t.Fatalf("term %d: grid value %.17g below table minimum %.17g", i, v, gmin)
			}
		}
		sum += gmin
		if math.Abs(sum-michalewiczOptimum[i-1]) > 1e-14 {
			t.Errorf("d=%d: running sum %.17g, table %.17g", i, sum, michalewiczOptimum[i-1])
		}
	}
}
