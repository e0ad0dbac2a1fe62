package transform

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// PowerTransform returns the values mapped by the power transform whose
// λ makes them most nearly Gaussian (maximum likelihood), as HEBO fits
// its GP (Cowen-Rivers et al. 2022, §4.1): Box–Cox of y/sd(y) when every
// value is positive, else Yeo–Johnson of the standardised values. Unlike
// Log it takes any sign and chooses its own strength, from none (λ = 1,
// an affine map) to a log (λ = 0) and beyond; unlike Copula it keeps the
// sizes of the differences. Fewer than 3 distinct values are returned as
// they are: λ is not identified.
func PowerTransform(y []float64) []float64 {
	z, psi, lambda, ok := fitPower(y)
	if !ok {
		return slices.Clone(y)
	}
	for i, v := range z {
		z[i] = psi(v, lambda)
	}
	return z
}

// fitPower returns the scaled values, the transform and its λ, or false
// when λ is not identified.
func fitPower(y []float64) (z []float64, psi func(x, lambda float64) float64, lambda float64, ok bool) {
	mean, sd := stat.MeanStdDev(y, nil)
	if len(y) < 3 || !(sd > 0) || math.IsInf(sd, 0) || distinct(y) < 3 {
		return nil, nil, 0, false
	}
	z = make([]float64, len(y))
	positive := slices.Min(y) > 0
	for i, v := range y {
		if positive {
			z[i] = v / sd
		} else {
			z[i] = (v - mean) / sd
		}
	}
	psi, logJac := yeoJohnson, yeoJohnsonLogJacobian
	if positive {
		psi, logJac = boxCox, boxCoxLogJacobian
	}
	// The profile log-likelihood of λ under a Gaussian of the transformed
	// values, −n/2·log σ̂²(ψ_λ(z)) + Σ log|∂ψ_λ/∂z|, is unimodal in
	// practice; a golden-section search on [−2, 2], the bracket of
	// scikit-learn's PowerTransformer, finds its maximum.
	w := make([]float64, len(z))
	ll := func(lambda float64) float64 {
		jac := 0.0
		for i, v := range z {
			w[i] = psi(v, lambda)
			jac += logJac(v, lambda)
		}
		variance := stat.Variance(w, nil)
		if !(variance > 0) || math.IsInf(variance, 0) {
			return math.Inf(-1)
		}
		return -0.5*float64(len(z))*math.Log(variance) + jac
	}
	return z, psi, goldenMax(ll, -2, 2, 60), true
}

// boxCox is (x^λ − 1)/λ, log x at λ = 0, for x > 0.
func boxCox(x, lambda float64) float64 {
	if math.Abs(lambda) < 1e-8 {
		return math.Log(x)
	}
	return math.Expm1(lambda*math.Log(x)) / lambda
}

func boxCoxLogJacobian(x, lambda float64) float64 { return (lambda - 1) * math.Log(x) }

// yeoJohnson is Box–Cox of 1 + x with power λ for x ≥ 0, and its mirror,
// −Box–Cox of 1 − x with power 2 − λ, for x < 0 (Yeo & Johnson 2000).
func yeoJohnson(x, lambda float64) float64 {
	if x >= 0 {
		return boxCox(1+x, lambda)
	}
	return -boxCox(1-x, 2-lambda)
}

func yeoJohnsonLogJacobian(x, lambda float64) float64 {
	return (lambda - 1) * math.Copysign(math.Log1p(math.Abs(x)), x)
}

// goldenMax returns the maximiser of a unimodal f on [lo, hi] by golden-
// section search with the given number of steps (each shrinks the
// bracket by 0.618).
func goldenMax(f func(float64) float64, lo, hi float64, steps int) float64 {
	r := (math.Sqrt(5) - 1) / 2
	a, b := hi-r*(hi-lo), lo+r*(hi-lo)
	fa, fb := f(a), f(b)
	for range steps {
		if fa >= fb {
			hi, b, fb = b, a, fa
			a = hi - r*(hi-lo)
			fa = f(a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + r*(hi-lo)
			fb = f(b)
		}
	}
	return (lo + hi) / 2
}

// distinct counts the distinct values of y.
func distinct(y []float64) int {
	s := slices.Clone(y)
	slices.Sort(s)
	return len(slices.Compact(s))
}
