package curve

import (
	"fmt"
	"math"
)

// Estimator turns the first values of a learning curve (one per step, in
// step order, lower better) into a score, lower better.
type Estimator interface {
	Estimate(values []float64) float64
	// EstimateEach returns the estimate after every step,
	// out[i] = Estimate(values[:i+1]), in one pass: a pruner compares the
	// estimates at every step of every trial at each report.
	EstimateEach(values []float64) []float64
	String() string
}

// TSE is the area under the training curve, Σ_{t=1}^{T} L_t [000 Eq. 8.1].
type TSE struct{}

func (TSE) Estimate(values []float64) float64 {
	var s float64
	for _, v := range values {
		s += v
	}
	return s
}

func (TSE) EstimateEach(values []float64) []float64 {
	out := make([]float64, len(values))
	var s float64
	for i, v := range values {
		s += v
		out[i] = s
	}
	return out
}

func (TSE) String() string { return "tse" }

// TSEE sums the last E values only, Σ_{t=T−E+1}^{T} L_t: the earlier
// epochs are burn-in [000 §8.2.2]. E = 1, the default the thesis
// recommends (Fig. 8.1), is the latest epoch's mean training loss. A curve
// shorter than E is summed whole.
type TSEE struct{ E int }

func (e TSEE) Estimate(values []float64) float64 {
	return TSE{}.Estimate(values[max(0, len(values)-e.E):])
}

// EstimateEach sums each window afresh, O(n·E): a difference of running
// sums would carry a NaN, or round-off, past its window.
func (e TSEE) EstimateEach(values []float64) []float64 {
	out := make([]float64, len(values))
	for i := range values {
		out[i] = e.Estimate(values[:i+1])
	}
	return out
}

func (e TSEE) String() string { return fmt.Sprintf("tse-e(E=%d)", e.E) }

// TSEEMA is the exponentially weighted sum Σ_{t=1}^{T} γ^{T−t} L_t. The
// thesis recommends γ = 0.999 and finds it robust for γ ∈ [0.9, 0.999]
// (§8.4.1, Fig. 8.2); its §8.2.2 says 0.9, an erratum (spec §2).
type TSEEMA struct{ Gamma float64 }

func (e TSEEMA) Estimate(values []float64) float64 {
	var s float64
	for _, v := range values {
		s = e.Gamma*s + v
	}
	return s
}

func (e TSEEMA) EstimateEach(values []float64) []float64 {
	out := make([]float64, len(values))
	var s float64
	for i, v := range values {
		s = e.Gamma*s + v
		out[i] = s
	}
	return out
}

func (e TSEEMA) String() string { return fmt.Sprintf("tse-ema(γ=%g)", e.Gamma) }

// The thesis's defaults [000 §8.4.1]: "we set E = 1 and γ = 0.999 in all
// the following experiments and recommend them as the default".
const (
	DefaultE     = 1
	DefaultGamma = 0.999
)

// New returns the estimator called name: "tse", "tse-e" (with e, 0 for
// DefaultE) or "tse-ema" (with gamma, 0 for DefaultGamma). It refuses an
// unknown name, e < 0 and gamma outside [0, 1].
func New(name string, e int, gamma float64) (Estimator, error) {
	switch name {
	case "tse":
		return TSE{}, nil
	case "tse-e":
		if e < 0 {
			return nil, fmt.Errorf("tse-e: E = %d, want an integer ≥ 1 (the number of latest epochs summed)", e)
		}
		if e == 0 {
			e = DefaultE
		}
		return TSEE{E: e}, nil
	case "tse-ema":
		if math.IsNaN(gamma) || gamma < 0 || gamma > 1 {
			return nil, fmt.Errorf("tse-ema: γ = %v, want a value in (0, 1] (the thesis uses 0.999)", gamma)
		}
		if gamma == 0 {
			gamma = DefaultGamma
		}
		return TSEEMA{Gamma: gamma}, nil
	}
	return nil, fmt.Errorf("unknown estimator %q; the estimators are tse, tse-e and tse-ema", name)
}
