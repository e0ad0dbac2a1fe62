package constrained

import "math"

// The toys of [004 App. B], in its spirit: App. B gives no formulas, so
// they are the spec's [spec §7.3 Decision]. One variable x ∈ [0, 1];
// metric #1 is minimised, metric #2 is the constraint m₂(x) ≥ 0.8.

// toyThreshold is the least acceptable metric #2 [004 App. B].
const toyThreshold = 0.8

// toyMetric2 is the logistic switch m₂(x) = 1/(1 + e^{−12(x − 0.5)}).
func toyMetric2(x []float64) float64 { return 1 / (1 + math.Exp(-12*(x[0]-0.5))) }

// ToyCrossing is where metric #2 of both toys reaches 0.8,
// x = 0.5 + ln 4/12: the toys are feasible on [ToyCrossing, 1].
const ToyCrossing = 0.6155245300933242

// newToy builds a toy with metric #1 m1.
func newToy(name string, m1 func(x float64) float64) *Problem {
	return newProblem(name, []float64{0}, []float64{1},
		func(x []float64) float64 { return m1(x[0]) },
		constraint{name: "metric2", g: toyMetric2, limit: toyThreshold, sense: GreaterEq},
	)
}

// newToy1 returns toy 1: m₁(x) = e^{−3x}. Both metrics improve with x, so
// the constrained minimum is at x = 1, f* = e^{−3}, where m₂ = 0.9975 and
// the constraint is not active.
func newToy1() *Problem {
	return newToy("toy1", func(x float64) float64 { return math.Exp(-3 * x) }).
		withOptimum(math.Exp(-3), 1)
}

// newToy2 returns toy 2: m₁(x) = e^{−3x} + 0.05 sin(25x), a ripple on toy 1.
// Its minimum is interior, near x = 0.948, where the ripple's trough meets
// the decay.
func newToy2() *Problem {
	return newToy("toy2", func(x float64) float64 { return math.Exp(-3*x) + 0.05*math.Sin(25*x) }).
		withOptimum(toy2Opt, toy2Argmin)
}

// toy2Argmin is the root of m₁'(x) = −3e^{−3x} + 1.25 cos(25x) near 0.948
// (bisection), and toy2Opt = m₁ there.
const (
	toy2Argmin = 0.94808121728394479
	toy2Opt    = 0.0086680502450410535
)
