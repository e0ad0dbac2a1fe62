package kernel

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkExpOverlap evaluates the ARD exponentiated overlap and its
// hyper-parameter gradient on 50 binary coordinates that match at random,
// as casmopolitan's fits do on Ackley-53, Contamination and MaxSAT-60.
func BenchmarkExpOverlap(b *testing.B) {
	const d, pairs = 50, 1024
	rng := rand.New(rand.NewPCG(1, 2))
	cols := make([]int, d)
	for i := range cols {
		cols[i] = i
	}
	k := NewExpOverlap(cols, true, false)
	X := make([][]float64, pairs+1)
	for i := range X {
		X[i] = make([]float64, d)
		for j := range X[i] {
			X[i][j] = float64(rng.IntN(2))
		}
	}
	dst := make([]float64, k.NumParams())
	b.Run("Eval", func(b *testing.B) {
		for b.Loop() {
			for i := range pairs {
				k.Eval(X[i], X[i+1])
			}
		}
	})
	b.Run("ParamGrad", func(b *testing.B) {
		for b.Loop() {
			for i := range pairs {
				k.ParamGrad(X[i], X[i+1], dst)
			}
		}
	})
	// One likelihood-and-gradient's worth of the same pairs: each value,
	// then each gradient at the same parameters, directly and through the
	// Gram a GP fit uses (Bind), which finds the match masks once and
	// keeps each value for the gradient. SetParams makes every op start
	// from nothing kept.
	p := k.Params(nil)
	b.Run("EvalThenParamGrad", func(b *testing.B) {
		for b.Loop() {
			k.SetParams(p)
			for i := range pairs {
				k.Eval(X[i], X[i+1])
			}
			for i := range pairs {
				k.ParamGrad(X[i], X[i+1], dst)
			}
		}
	})
	g := Bind(k, X)
	b.Run("Gram/EvalThenParamGrad", func(b *testing.B) {
		for b.Loop() {
			k.SetParams(p)
			for i := range pairs {
				g.Eval(i, i+1)
			}
			for i := range pairs {
				g.ParamGrad(i, i+1, dst)
			}
		}
	})
}
