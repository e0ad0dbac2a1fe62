package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// wideExpOverlaps returns exponentiated overlaps on d binary columns
// (interleaved with unused ones, so that Subset gathers), for match masks
// of one, two and more than four words.
func wideExpOverlaps(rng *rand.Rand) (map[string]Kernel, int) {
	out := map[string]Kernel{}
	dim := 0
	for _, d := range []int{3, 70, 300} {
		cols := make([]int, d)
		for i := range cols {
			cols[i] = 2 * i
		}
		dim = max(dim, 2*d)
		for _, f := range []struct {
			name      string
			ard, norm bool
		}{{"ard", true, false}, {"ard-norm", true, true}, {"iso", false, false}} {
			k := NewExpOverlap(subCols(d), f.ard, f.norm)
			l := k.Lengthscales()
			for i := range l {
				l[i] = 0.01 + 0.49*rng.Float64()
			}
			k.SetLengthscales(l)
			out[fmt.Sprintf("expoverlap-%d/%s", d, f.name)] = NewSubset(k, cols)
			direct := NewExpOverlap(cols, f.ard, f.norm)
			direct.SetLengthscales(l)
			out[fmt.Sprintf("expoverlap-%d/%s/direct", d, f.name)] = direct
		}
	}
	return out, dim
}

// TestGramMatchesKernel checks that every kernel's Gram gives the values
// and gradients of the kernel itself, to the last bit, in both orders of
// each pair, also after the parameters change.
func TestGramMatchesKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	check := func(t *testing.T, k Kernel, X [][]float64) {
		g := Bind(k, X)
		for round := range 2 {
			if round == 1 { // the Gram follows SetParams
				p := k.Params(nil)
				for i := range p {
					p[i] += 0.1
				}
				k.SetParams(p)
			}
			want := make([]float64, k.NumParams())
			got := make([]float64, k.NumParams())
			evalFirst := round == 0 // then ParamGrad first, before any value is kept
			for i := range X {
				for j := range X {
					if evalFirst {
						if v, w := g.Eval(i, j), k.Eval(X[i], X[j]); v != w {
							t.Fatalf("round %d: Eval(%d, %d) = %v, kernel %v", round, i, j, v, w)
						}
					}
					v, w := g.ParamGrad(i, j, got), k.ParamGrad(X[i], X[j], want)
					if v != w {
						t.Fatalf("round %d: ParamGrad(%d, %d) value %v, kernel %v", round, i, j, v, w)
					}
					for p := range want {
						if got[p] != want[p] {
							t.Fatalf("round %d: ParamGrad(%d, %d)[%d] = %v, kernel %v", round, i, j, p, got[p], want[p])
						}
					}
					if v, w := g.Eval(i, j), k.Eval(X[i], X[j]); v != w {
						t.Fatalf("round %d: Eval(%d, %d) after ParamGrad = %v, kernel %v", round, i, j, v, w)
					}
				}
			}
		}
	}
	const n = 12
	for name, k := range mixedKernels(rng) {
		X := make([][]float64, n)
		for i := range X {
			X[i] = randMixed(rng)
		}
		t.Run("mixed/"+name, func(t *testing.T) { check(t, k, X) })
	}
	for name, k := range testKernels(3, rng) {
		X := make([][]float64, n)
		for i := range X {
			X[i] = randPoint(3, rng)
		}
		t.Run(name, func(t *testing.T) { check(t, k, X) })
	}
	wide, dim := wideExpOverlaps(rng)
	for name, k := range wide {
		X := make([][]float64, n)
		for i := range X {
			X[i] = make([]float64, dim)
			for c := range X[i] {
				X[i][c] = float64(rng.IntN(2))
			}
		}
		t.Run(name, func(t *testing.T) { check(t, k, X) })
	}
}

// TestExpOverlapLastBit checks the exponentiated overlap's ParamGrad,
// evaluated from the match mask, and Eval against Eq. 5.11 summed over
// every column, δ_i = 0 included: the sums over the matching columns alone
// must give the same numbers to the last bit (the form fitted before the
// masks, so the fits and every table measured with it are unchanged).
func TestExpOverlapLastBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	wide, dim := wideExpOverlaps(rng)
	for name, sk := range wide {
		k, ok := sk.(*ExpOverlap)
		if !ok {
			continue // the Subset copies were checked against this one above
		}
		for range 50 {
			x, y := make([]float64, dim), make([]float64, dim)
			for c := range x {
				x[c], y[c] = float64(rng.IntN(2)), float64(rng.IntN(2))
			}
			delta := make([]float64, len(k.cols))
			var a, s float64
			for i, c := range k.cols {
				if x[c] == y[c] {
					delta[i] = 1
				}
				l := k.ls[min(i, len(k.ls)-1)]
				a += l * delta[i]
				s += l
			}
			if !k.ard {
				a = k.ls[0] * float64(matches(k.cols, x, y))
			}
			if !k.ard || !k.normalised {
				s = float64(len(k.cols))
			}
			want := math.Exp(a / s)
			grad := make([]float64, k.NumParams())
			if got := k.ParamGrad(x, y, grad); got != want || k.Eval(x, y) != want {
				t.Fatalf("%s: k = %v (Eval %v), want %v", name, got, k.Eval(x, y), want)
			}
			if !k.ard {
				if w := want * (a / s); grad[0] != w {
					t.Fatalf("%s: gradient %v, want %v", name, grad[0], w)
				}
				continue
			}
			ratio := 0.0
			if k.normalised {
				ratio = a / s
			}
			for i := range grad {
				if w := want * k.ls[i] * (delta[i] - ratio) / s; grad[i] != w {
					t.Fatalf("%s: gradient %d = %v, want %v", name, i, grad[i], w)
				}
			}
		}
	}
}
