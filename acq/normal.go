package acq

import "math"

const (
	sqrtPi      = 1.77245385090551602729816748334114518279754945612239
	sqrtPiOver2 = 1.25331413731550025120788264240552262650349337030496 // √(π/2)
	sqrt2OverPi = 0.79788456080286535587989211986876373695171726232986 // √(2/π)
	invSqrt2Pi  = 0.39894228040143267793994605993438186847585863116493 // 1/√(2π)
	logSqrt2Pi  = 0.91893853320467274178032973640561763986139747363778 // ½ log(2π)

	// erfcxSplit is where Erfcx switches from exp(x²)·erfc(x) to the
	// continued fraction; both are accurate to a few ulps there.
	erfcxSplit = 4
	// millsSplit is the |z| beyond which log h(z) and its ratios use the
	// Laplace continued fraction instead of 1 − tR(t), whose cancellation
	// grows like t².
	millsSplit = 4
)

// normPDF is φ(z).
func normPDF(z float64) float64 { return invSqrt2Pi * math.Exp(-0.5*z*z) }

// normCDF is Φ(z), accurate in relative terms in the lower tail down to
// underflow (erfc of a positive argument has no cancellation).
func normCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// expSquare returns exp(x²) without the relative error |x²|·ε that rounding
// x² first would cost: x² = hi + lo exactly (FMA) and exp(lo) ≈ 1 + lo.
func expSquare(x float64) float64 {
	hi := x * x
	if hi > 709.782712893384 { // exp overflows; also guards x = ±Inf
		return math.Inf(1)
	}
	lo := math.FMA(x, x, -hi)
	return math.Exp(hi) * (1 + lo)
}

// Erfcx returns the scaled complementary error function exp(x²)·erfc(x).
//
// For 0 ≤ x < 4 it is exp(x²)·erfc(x) with x² split exactly into two
// doubles, so no digits are lost to the rounding of x². For x ≥ 4 it is the
// continued fraction
//
//	erfcx(x) = 1/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …))))
//
// evaluated backwards with enough terms for full double precision, which
// avoids the underflow of erfc(x) for x > 26 and matches the asymptotic
// series 1/(x√π)·(1 − 1/(2x²) + 3/(4x⁴) − …) of the spec for large x.
// For x < 0, erfcx(x) = 2exp(x²) − erfcx(−x), which overflows to +Inf for
// x < −26.6. Erfcx(+Inf) = 0, Erfcx(−Inf) = +Inf, Erfcx(NaN) = NaN.
func Erfcx(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case x >= erfcxSplit:
		return erfcxContinued(x)
	case x >= 0:
		return expSquare(x) * math.Erfc(x)
	default:
		return 2*expSquare(x) - Erfcx(-x)
	}
}

// erfcxContinued evaluates the continued fraction of Erfcx for x ≥ 4. The
// number of terms, 9 + 320/x², was fitted against 40-digit references: the
// result is within a few ulps for every x ≥ 1.4 (29 terms at x = 4, 9 for
// x ≥ 13).
func erfcxContinued(x float64) float64 {
	n := 9 + int(320/(x*x))
	f := x
	for k := n; k >= 1; k-- {
		f = x + 0.5*float64(k)/f
	}
	return 1 / (sqrtPi * f)
}

// millsD returns D(t) = t + 2/(t + 3/(t + 4/(t + …))) for t ≥ 4, the tail of
// Laplace's continued fraction for the Mills ratio
// R(t) = Φ(−t)/φ(t) = 1/(t + 1/D(t)). It gives the quantities of log-EI
// without cancellation: 1 − tR(t) = 1/(1 + tD), R/(1 − tR) = D.
// 8 + 640/t² terms reach double precision (a few ulps) for every t ≥ 2.
func millsD(t float64) float64 {
	n := 8 + int(640/(t*t))
	f := t
	for k := n; k >= 2; k-- {
		f = t + float64(k)/f
	}
	return f
}

// mills returns R(t) = Φ(−t)/φ(t) = √(π/2)·erfcx(t/√2) for t ≥ 0.
func mills(t float64) float64 { return sqrtPiOver2 * Erfcx(t/math.Sqrt2) }

// LogNormCDF returns log Φ(z), accurate for all z: for z < −1 it is
// −z²/2 + log(erfcx(−z/√2)/2), which neither underflows nor loses digits in
// the lower tail, and for z ≥ 0 it is log1p(−Φ(−z)).
func LogNormCDF(z float64) float64 {
	switch {
	case math.IsNaN(z):
		return z
	case z < -1:
		return -0.5*z*z + math.Log(0.5*Erfcx(-z/math.Sqrt2))
	case z < 0:
		return math.Log(normCDF(z))
	default:
		return math.Log1p(-normCDF(-z))
	}
}

// invMills returns φ(z)/Φ(z), the derivative of log Φ(z), without forming
// the underflowing ratio in the lower tail.
func invMills(z float64) float64 {
	if z < -1 {
		return sqrt2OverPi / Erfcx(-z/math.Sqrt2)
	}
	return normPDF(z) / normCDF(z)
}

// LogH returns log h(z), h(z) = φ(z) + zΦ(z), the log of the expected
// improvement of a standard normal over −z. It is accurate for all z
// (spec §4.1 "Stable log h(z)"):
//
//	z > −1:        log(φ(z) + zΦ(z))
//	−4 < z ≤ −1:   log φ(z) + log1p(−tR(t)), t = −z, R(t) = √(π/2)·erfcx(t/√2)
//	z ≤ −4:        log φ(z) − log(1 + tD(t)), D from Laplace's continued fraction
//
// The last form replaces the spec's log1mexp branch and its z ≤ −1/√ε
// asymptote: 1 − tR(t) = 1/(1 + tD(t)) has no cancellation, so the result
// keeps full precision where 1 − tR would lose t²ε (all digits near
// t = 1e8), and tends to the asymptote −z²/2 − ½log(2π) − 2log|z| by itself.
// LogH(−Inf) = −Inf.
func LogH(z float64) float64 {
	switch {
	case math.IsNaN(z):
		return z
	case z > -1:
		return math.Log(normPDF(z) + z*normCDF(z))
	case z > -millsSplit:
		t := -z
		return -0.5*t*t - logSqrt2Pi + math.Log1p(-t*mills(t))
	default:
		t := -z
		// log(1 + tD) = log t + log(D + 1/t) cannot overflow.
		return -0.5*t*t - logSqrt2Pi - (math.Log(t) + math.Log(millsD(t)+1/t))
	}
}

// hFunc returns h(z) = φ(z) + zΦ(z) with the cancellation in the lower tail
// removed as in LogH; it underflows to 0 only when h does.
func hFunc(z float64) float64 {
	switch {
	case z > -1 || math.IsNaN(z):
		return normPDF(z) + z*normCDF(z)
	case z > -millsSplit:
		t := -z
		return normPDF(t) * (1 - t*mills(t))
	default:
		t := -z
		return normPDF(t) / (1 + t*millsD(t))
	}
}

// hRatios returns Φ(z)/h(z) and φ(z)/h(z), the derivatives of log h with
// respect to z and the factor of its σ-derivative, finite for all finite z.
func hRatios(z float64) (cdfRatio, pdfRatio float64) {
	switch {
	case z > -1 || math.IsNaN(z):
		pdf, cdf := normPDF(z), normCDF(z)
		h := pdf + z*cdf
		return cdf / h, pdf / h
	case z > -millsSplit:
		t := -z
		r := mills(t)
		q := 1 - t*r
		return r / q, 1 / q
	default:
		t := -z
		d := millsD(t)
		return d, 1 + t*d
	}
}
