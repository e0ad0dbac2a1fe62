package pruner

import (
	"fmt"
	"hash/crc32"
	"math"
	"math/big"
)

// Hyperband is Optuna's HyperbandPruner (spec tse-and-early-stopping
// §9.4): n_b successive-halving brackets that share MinResource,
// ReductionFactor and BootstrapCount, bracket b with early-stopping rate
// s₀ = b, so that bracket 0 prunes aggressively from the first rung and
// the last bracket lets its trials run long before judging them. Each
// trial belongs to one bracket, picked by a hash of the study name and
// its number, and competes only with the trials of that bracket; the
// brackets get trials in proportion to Hyperband's allocation
// ⌈n_b·η^s/(s+1)⌉, s = n_b − 1 − b.
//
// Each bracket is a SuccessiveHalving with a fixed MinResource, so it
// decides as Optuna does but for the multi-rung jump noted there. With
// MaxResource auto, Optuna fixes n_b and starts its brackets at the first
// check after the first trial completes; boa recomputes both at every call,
// the deviation SuccessiveHalving describes for an auto MinResource.
type Hyperband struct {
	// MinResource: the step of the first rung of bracket 0 (values below
	// 1 mean 1, Optuna's default).
	MinResource int64
	// MaxResource: the step a trial that is never pruned reaches; 0 means
	// auto, the largest last step of the complete trials + 1, and no
	// pruning while no trial is complete.
	MaxResource int64
	// ReductionFactor η (values below 2 mean 3, Optuna's default).
	ReductionFactor int
	// BootstrapCount is every bracket's (Optuna forbids it with an auto
	// MaxResource).
	BootstrapCount int
}

// NewHyperband returns Optuna's HyperbandPruner with its defaults:
// min_resource 1, max_resource auto, reduction_factor 3, bootstrap_count 0.
func NewHyperband() Hyperband {
	return Hyperband{MinResource: 1, MaxResource: 0, ReductionFactor: 3}
}

func (h Hyperband) params() (minRes int64, eta int) {
	minRes, eta = h.MinResource, h.ReductionFactor
	if minRes < 1 {
		minRes = 1
	}
	if eta < 2 {
		eta = 3
	}
	return minRes, eta
}

// Prune picks t's bracket and asks its successive halving with the
// trials of that bracket alone.
func (h Hyperband) Prune(s Study, t Trial) bool {
	maxRes := h.MaxResource
	if maxRes <= 0 {
		last, ok := maxCompleteStep(s)
		if !ok {
			return false // auto and no trial complete
		}
		maxRes = last + 1
	}
	minRes, eta := h.params()
	weights := bracketWeights(brackets(minRes, maxRes, eta), eta)
	if len(weights) == 0 {
		return false // MaxResource below MinResource: Optuna has no bracket
	}
	b := bracketOf(s.Name, t.Number, weights)
	in := Study{Name: s.Name, Maximize: s.Maximize}
	for _, u := range s.Trials {
		if bracketOf(s.Name, u.Number, weights) == b {
			in.Trials = append(in.Trials, u)
		}
	}
	sh := SuccessiveHalving{MinResource: minRes, ReductionFactor: eta, MinEarlyStoppingRate: b, BootstrapCount: h.BootstrapCount}
	return sh.Prune(in, t)
}

// brackets is n_b = ⌊log_η(max/min)⌋ + 1, computed as Optuna does, with
// floating-point logarithms, math.log(max/min, η) = log(max/min)/log(η):
// for max/min = 243, η = 3 that is 4.999999999999999, so Optuna has 5
// brackets where exact arithmetic gives 6, and boa follows. The logarithms
// are rounded correctly, as glibc's are for CPython (Go's math.Log is off
// by an ulp at 243).
func brackets(minRes, maxRes int64, eta int) int {
	ratio := float64(maxRes) / float64(minRes)
	if !(ratio > 0) {
		return 0
	}
	return int(math.Floor(lnRounded(ratio)/lnRounded(float64(eta)))) + 1
}

// bracketWeights is each bracket's trial allocation ⌈n_b·η^s/(s+1)⌉,
// s = n_b − 1 − b (Optuna's _calculate_trial_allocation_budget; Hyperband
// paper, Algorithm 1's n). A weight saturates at 2^53/(s+1): any weight
// above 2^32 picks the same bracket, the checksum being below it, and the
// sum of at most 64 of them cannot overflow.
func bracketWeights(n, eta int) []int64 {
	const limit = 1 << 53
	w := make([]int64, max(n, 0))
	for b := range w {
		s := n - 1 - b
		num := int64(n)
		for range s {
			if num > limit/int64(eta) {
				num = limit
				break
			}
			num *= int64(eta)
		}
		w[b] = (num + int64(s)) / int64(s+1)
	}
	return w
}

// bracketOf is Optuna's _get_bracket_id: CRC-32 (IEEE) of "name_number"
// modulo the sum of the weights, then walking the cumulative weights
// (§9.4: the same string and checksum, so that boa and Optuna put a trial
// of equally named studies in the same bracket).
func bracketOf(name string, number int, weights []int64) int {
	var total int64
	for _, w := range weights {
		total += w
	}
	n := int64(uint64(crc32.ChecksumIEEE(fmt.Appendf(nil, "%s_%d", name, number))) % uint64(total))
	for b, w := range weights {
		if n -= w; n < 0 {
			return b
		}
	}
	panic("unreachable")
}

// lnRounded is ln x rounded to the nearest float64, x > 0: the series
// ln m = 2·atanh((m−1)/(m+1)) for x = m·2^e, m in [√½, √2), evaluated to
// 160 bits.
func lnRounded(x float64) float64 {
	const prec = 160
	m := new(big.Float).SetPrec(prec)
	e := big.NewFloat(x).SetPrec(prec).MantExp(m)
	if m.Cmp(big.NewFloat(math.Sqrt2/2)) < 0 {
		m.SetMantExp(m, 1)
		e--
	}
	one := big.NewFloat(1).SetPrec(prec)
	num := new(big.Float).SetPrec(prec).Sub(m, one)
	den := new(big.Float).SetPrec(prec).Add(m, one)
	ln := atanh2(num.Quo(num, den), prec)
	third := new(big.Float).SetPrec(prec).Quo(one, big.NewFloat(3))
	ln2 := atanh2(third, prec)
	ln.Add(ln, ln2.Mul(ln2, new(big.Float).SetPrec(prec).SetInt64(int64(e))))
	f, _ := ln.Float64()
	return f
}

// atanh2 is 2·atanh(z) = 2·Σ z^(2k+1)/(2k+1) for |z| ≤ 1/3.
func atanh2(z *big.Float, prec uint) *big.Float {
	sum := new(big.Float).SetPrec(prec)
	pow := new(big.Float).SetPrec(prec).Set(z)
	z2 := new(big.Float).SetPrec(prec).Mul(z, z)
	term := new(big.Float).SetPrec(prec)
	for k := int64(0); pow.Sign() != 0 && (k == 0 || pow.MantExp(nil) > -int(prec)-8); k++ {
		term.Quo(pow, new(big.Float).SetPrec(prec).SetInt64(2*k+1))
		sum.Add(sum, term)
		pow.Mul(pow, z2)
	}
	return sum.Mul(sum, big.NewFloat(2))
}
