package acq

import "math"

// EI is expected improvement below the incumbent [000 Eqs. 2.16–2.17;
// 002 Eq. 2.46; 004 Eqs. 4.21–4.24]:
//
//	α = σ·h(z) = (y* − μ − ξ)Φ(z) + σφ(z),  z = (y* − μ − ξ)/σ.
//
// With σ = 0, α = max(y* − μ − ξ, 0) and the gradient is the limit σ → 0 of
// the smooth one: −∂μ/∂x where y* − μ − ξ > 0, zero otherwise.
//
// ξ is Xi + XiRel·σ(x) in EI and in each of the forms below. XiRel = 0.01
// is the spec's option xi_rel, ξ = 0.01σ(x), which "works well in almost
// all cases" [000 §2.2.1, after Lizotte 2008; spec §4.1]; ξ then moves
// with σ. Each form depends on μ and ξ only through y* − μ − ξ, so
// ∂α/∂ξ = ∂α/∂μ, and ∂α/∂σ gains XiRel·∂α/∂μ.
type EI struct {
	Best  float64 // incumbent y*, the minimum observed (transformed) value
	Xi    float64 // exploration offset ξ ≥ 0; 0 by default [000 §2.2.1]
	XiRel float64 // adds XiRel·σ(x) to ξ; 0 by default, 0.01 for xi_rel
}

// Eval implements Function.
func (a EI) Eval(m Model, x, grad []float64) float64 {
	mu, sd, dsd := moments(m, x, grad)
	d := a.Best - mu - a.Xi - a.XiRel*sd
	if sd == 0 {
		if d > 0 {
			scale(grad, -1)
			return d
		}
		scale(grad, 0)
		return 0
	}
	z := d / sd
	if grad != nil {
		aMu := -normCDF(z)
		chain(grad, aMu, dsd, normPDF(z)+a.XiRel*aMu)
	}
	return sd * hFunc(z)
}

// LogEI is the logarithm of expected improvement, α = log σ + log h(z),
// evaluated with LogH so that it stays finite and accurate deep in the tail
// where EI underflows (spec §4.1). Its gradient (∂EI/∂·)/EI is formed from
// the ratios Φ(z)/h(z) and φ(z)/h(z), never from a difference of huge logs.
//
// With σ = 0, α = log(y* − μ − ξ) when that is positive (gradient
// −∂μ/∂x/(y* − μ − ξ)) and −Inf otherwise (gradient zero); an optimiser
// maximising LogEI treats −Inf as the worst value.
type LogEI struct {
	Best  float64 // incumbent y*
	Xi    float64 // exploration offset ξ ≥ 0
	XiRel float64 // adds XiRel·σ(x) to ξ (see EI)
}

// Eval implements Function.
func (a LogEI) Eval(m Model, x, grad []float64) float64 {
	mu, sd, dsd := moments(m, x, grad)
	d := a.Best - mu - a.Xi - a.XiRel*sd
	if sd == 0 {
		if d > 0 {
			scale(grad, -1/d)
			return math.Log(d)
		}
		scale(grad, 0)
		return math.Inf(-1)
	}
	z := d / sd
	if grad != nil {
		cr, pr := hRatios(z)
		aMu := -cr / sd
		chain(grad, aMu, dsd, pr/sd+a.XiRel*aMu)
	}
	return math.Log(sd) + LogH(z)
}

// PI is probability of improvement, α = Φ(z) [000 Eq. 2.15; 002 Eq. 2.44;
// 004 Eqs. 4.19–4.20]. ξ > 0 asks for improvement over y* − ξ
// [000 §2.2.1]. With σ = 0, α is 1 if y* − μ − ξ > 0 and 0 otherwise, with
// a zero gradient.
type PI struct {
	Best  float64 // incumbent y*
	Xi    float64 // required improvement ξ ≥ 0
	XiRel float64 // adds XiRel·σ(x) to ξ (see EI)
}

// Eval implements Function.
func (a PI) Eval(m Model, x, grad []float64) float64 {
	mu, sd, dsd := moments(m, x, grad)
	d := a.Best - mu - a.Xi - a.XiRel*sd
	if sd == 0 {
		scale(grad, 0)
		if d > 0 {
			return 1
		}
		return 0
	}
	z := d / sd
	if grad != nil {
		pdf := normPDF(z)
		aMu := -pdf / sd
		chain(grad, aMu, dsd, -z*pdf/sd+a.XiRel*aMu)
	}
	return normCDF(z)
}

// LogPI is log Φ(z), evaluated with LogNormCDF so that it stays finite for
// z ≪ 0; its gradient uses φ(z)/Φ(z) computed through Erfcx. With σ = 0,
// α is 0 if y* − μ − ξ > 0 and −Inf otherwise, with a zero gradient.
type LogPI struct {
	Best  float64 // incumbent y*
	Xi    float64 // required improvement ξ ≥ 0
	XiRel float64 // adds XiRel·σ(x) to ξ (see EI)
}

// Eval implements Function.
func (a LogPI) Eval(m Model, x, grad []float64) float64 {
	mu, sd, dsd := moments(m, x, grad)
	d := a.Best - mu - a.Xi - a.XiRel*sd
	if sd == 0 {
		scale(grad, 0)
		if d > 0 {
			return 0
		}
		return math.Inf(-1)
	}
	z := d / sd
	if grad != nil {
		r := invMills(z)
		aMu := -r / sd
		chain(grad, aMu, dsd, -z*r/sd+a.XiRel*aMu)
	}
	return LogNormCDF(z)
}
