package bandit

import "math"

// TunedGamma returns Auer et al.'s tuned EXP3 exploration rate for n arms and
// an iteration budget: min(1, √(n ln n / ((e − 1) G))) with the "best upper
// bound" G = 2·budget/3 [reference code: rubinxin/CoCaBO_code; spec §2.1].
// It returns 1 (uniform play) when budget <= 0, where the formula is undefined.
// It panics if n < 1.
func TunedGamma(n, budget int) float64 {
	if n < 1 {
		panic("bandit: TunedGamma needs n >= 1 arms")
	}
	if budget <= 0 {
		return 1
	}
	g := 2 * float64(budget) / 3
	nf := float64(n)
	return math.Min(1, math.Sqrt(nf*math.Log(nf)/((math.E-1)*g)))
}

// BatchGamma returns the EXP3.M exploration rate for n arms, b plays per
// round and an iteration budget: √(n ln(n/b) / ((e − 1) b G)), G = 2·budget/3
// [reference code: rubinxin/CoCaBO_code; spec §2.2]. It returns 1 where the
// expression is undefined (n <= b, budget <= 0). The result is also capped at
// 1, because EXP3.M needs γ ∈ [0, 1] and the uncapped formula exceeds 1 for
// small budgets. It panics if n < 1 or b < 1.
func BatchGamma(n, b, budget int) float64 {
	if n < 1 || b < 1 {
		panic("bandit: BatchGamma needs n >= 1 arms and b >= 1 plays")
	}
	if n <= b || budget <= 0 {
		return 1
	}
	g := 2 * float64(budget) / 3
	nf, bf := float64(n), float64(b)
	return math.Min(1, math.Sqrt(nf*math.Log(nf/bf)/((math.E-1)*bf*g)))
}
