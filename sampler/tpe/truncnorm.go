package tpe

import (
	"math"
)

// The Gaussian masses of the truncated kernels, computed in log space as
// Optuna 3.1 does (optuna/samplers/_tpe/_truncnorm.py), so that a kernel
// far from a cell of an Int parameter still gives that cell a finite log
// mass, and l/g stays comparable where both are tiny.

var logSqrt2Pi = 0.5 * math.Log(2*math.Pi)

// ndtr is the standard normal CDF, Φ(a) = ½ + ½·erf(a/√2), the form
// Optuna uses in the central case of logGaussMass.
func ndtr(a float64) float64 { return 0.5 + 0.5*math.Erf(a/math.Sqrt2) }

// ndtrTail is Φ(a) by erfc away from 0, where ½ + ½·erf would cancel.
func ndtrTail(a float64) float64 {
	x := a / math.Sqrt2
	switch {
	case x < -1/math.Sqrt2:
		return 0.5 * math.Erfc(-x)
	case x < 1/math.Sqrt2:
		return 0.5 + 0.5*math.Erf(x)
	}
	return 1 - 0.5*math.Erfc(x)
}

// logNdtr is log Φ(a): −Φ(−a) above 6, log Φ(a) down to −20, and below
// that the asymptotic series of the Mills ratio, summed until it stops
// changing, where Φ(a) itself underflows.
func logNdtr(a float64) float64 {
	if a > 6 {
		return -ndtrTail(-a)
	}
	if a > -20 {
		return math.Log(ndtrTail(a))
	}
	logLHS := -0.5*a*a - math.Log(-a) - logSqrt2Pi
	last, rhs := 0.0, 1.0
	num, denom, c := 1.0, 1.0, 1/(a*a)
	sign := 1.0
	for i := 1; math.Abs(last-rhs) > 0x1p-52; i++ {
		last = rhs
		sign = -sign
		denom *= c
		num *= float64(2*i - 1)
		rhs += sign * num * denom
	}
	return logLHS + math.Log(rhs)
}

// logDiff is log(p − q) from log p and log q, q < p.
func logDiff(logP, logQ float64) float64 { return logP + math.Log1p(-math.Exp(logQ-logP)) }

// logGaussMass is the log of the standard normal's mass in [a, b]: by
// log Φ when the interval is in one tail (the right one by symmetry), by
// log1p when it holds 0.
func logGaussMass(a, b float64) float64 {
	switch {
	case b <= 0:
		return logDiff(logNdtr(b), logNdtr(a))
	case a > 0:
		return logDiff(logNdtr(-a), logNdtr(-b))
	}
	return math.Log1p(-ndtr(a) - ndtr(-b))
}
