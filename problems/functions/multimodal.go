package functions

import "math"

// Multimodal functions of any dimension: Ackley, Levy and Michalewicz.

// newAckley returns Ackley's function on [−32.768, 32.768]^d [002 Table 3.1]
//
//	f(x) = −20 exp(−0.2 √((1/d)Σx_i²)) − exp((1/d)Σ cos 2πx_i) + 20 + e,
//
// zero at the origin.
func newAckley(d int) Function {
	lo, hi := box(d, -32.768, 32.768)
	return Function{
		Name:       "ackley",
		Dim:        d,
		Lower:      lo,
		Upper:      hi,
		Optimum:    0,
		Minimizers: [][]float64{make([]float64, d)},
		F: func(x []float64) float64 {
			var sq, cs float64
			for _, v := range x {
				sq += v * v
				cs += math.Cos(2 * math.Pi * v)
			}
			n := float64(len(x))
			return -20*math.Exp(-0.2*math.Sqrt(sq/n)) - math.Exp(cs/n) + 20 + math.E
		},
	}
}

// newLevy returns the Levy function on [−10, 10]^d
//
//	f(x) = sin²(πw₁) + Σ_{i<d} (w_i − 1)²[1 + 10 sin²(πw_i + 1)] + (w_d − 1)²[1 + sin²(2πw_d)],
//
// with w_i = 1 + (x_i − 1)/4, zero at x = 1.
func newLevy(d int) Function {
	lo, hi := box(d, -10, 10)
	return Function{
		Name:       "levy",
		Dim:        d,
		Lower:      lo,
		Upper:      hi,
		Optimum:    0,
		Minimizers: [][]float64{filled(d, 1)},
		F: func(x []float64) float64 {
			w := func(v float64) float64 { return 1 + (v-1)/4 }
			s := math.Sin(math.Pi * w(x[0]))
			sum := s * s
			for _, v := range x[:len(x)-1] {
				wi := w(v)
				s := math.Sin(math.Pi*wi + 1)
				sum += (wi - 1) * (wi - 1) * (1 + 10*s*s)
			}
			wd := w(x[len(x)-1])
			s = math.Sin(2 * math.Pi * wd)
			return sum + (wd-1)*(wd-1)*(1+s*s)
		},
	}
}

// michalewiczM is the steepness parameter m [002 Table 3.1].
const michalewiczM = 10

// michalewiczArgmin[i-1] is the minimiser of the i-th term
// g_i(t) = −sin t · sin^{2m}(i t²/π) on [0, π]. Michalewicz is a sum of such
// one-dimensional terms, so its global minimiser is the vector of these values
// and f* is the sum of the term minima. Each entry was located on a grid of
// 2·10⁶ points and refined by bisection on g_i'; terms 2, 6 and 10 peak
// exactly at π/2, where sin t = 1 and i(π/2)²/π is an odd multiple of π/2.
var michalewiczArgmin = [...]float64{
	2.2029055201726093,
	math.Pi / 2,
	1.2849915705529242,
	1.923058469866363,
	1.720469772565841,
	math.Pi / 2,
	1.4544139713623792,
	1.7560865209450265,
	1.655717416821029,
	math.Pi / 2,
}

// michalewiczOptimum[d-1] is f* in dimension d: the running sum of the term
// minima. The published values are −1.8013 (d = 2), −4.687658 (d = 5) and
// −9.66015 (d = 10) [spec §8.1].
var michalewiczOptimum = [...]float64{
	-0.8013034100985528,
	-1.8013034100985528,
	-2.760394679994559,
	-3.698857098466641,
	-4.687658179088147,
	-5.687658179088147,
	-6.680885314444027,
	-7.66375735071624,
	-8.660151715641341,
	-9.660151715641341,
}

// newMichalewicz returns the Michalewicz function on [0, π]^d with m = 10
// [002 Table 3.1]
//
//	f(x) = −Σ_{i=1}^{d} sin(x_i) sin^{2m}(i x_i²/π).
//
// The optimum and minimiser are known for d ≤ 10 (from the separable term
// minima above); for larger d Optimum is NaN and Minimizers is empty.
func newMichalewicz(d int) Function {
	lo, hi := box(d, 0, math.Pi)
	f := Function{
		Name:    "michalewicz",
		Dim:     d,
		Lower:   lo,
		Upper:   hi,
		Optimum: math.NaN(),
		F: func(x []float64) float64 {
			var sum float64
			for i, v := range x {
				s := math.Sin(float64(i+1) * v * v / math.Pi)
				sum -= math.Sin(v) * math.Pow(s, 2*michalewiczM)
			}
			return sum
		},
	}
	if d <= len(michalewiczArgmin) {
		f.Optimum = michalewiczOptimum[d-1]
		f.Minimizers = [][]float64{append([]float64(nil), michalewiczArgmin[:d]...)}
	}
	return f
}
