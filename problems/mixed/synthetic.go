package mixed

import (
	"math"

	"github.com/boaopt/boa/space"
)

// The three terms of Func-2C/3C, written on X = 2x ∈ [−2,2]² and scaled as
// in the reference code [000 Table 5.1; spec §6.1; reference code:
// rubinxin/CoCaBO_code].

// ros is Rosenbrock/300, minimum 0 at X = (1, 1).
func ros(a, b float64) float64 {
	return (100*(b-a*a)*(b-a*a) + (a-1)*(a-1)) / 300
}

// cam is the six-hump camel/10, minimum −0.10316284534898774 at
// X = ±(0.08984201310073184, −0.7126564029511373).
func cam(a, b float64) float64 {
	a2, b2 := a*a, b*b
	return ((4-2.1*a2+a2*a2/3)*a2 + a*b + (-4+4*b2)*b2) / 10
}

// bea is Beale/50, minimum 0 at X = (3, 0.5), outside [−2,2]².
func bea(a, b float64) float64 {
	t1 := 1.5 - a + a*b
	t2 := 2.25 - a + a*b*b
	t3 := 2.625 - a + a*b*b*b
	return (t1*t1 + t2*t2 + t3*t3) / 50
}

// term is one choice of a Func-2C/3C categorical variable.
type term struct {
	name string
	f    func(a, b float64) float64
}

// The term tables, 0-based [spec §6.1]. F2 lists Beale three times; its
// choices need distinct names in a space, hence bea_b and bea_c. F3's
// weights are those of the reference code (h₃ = 0: 5·cam, 1: 2·ros, else
// h₃·bea).
var (
	func2cF1 = []term{{"ros", ros}, {"cam", cam}, {"bea", bea}}
	func2cF2 = []term{{"ros", ros}, {"cam", cam}, {"bea", bea}, {"bea_b", bea}, {"bea_c", bea}}
	func3cF3 = []term{
		{"5cam", func(a, b float64) float64 { return 5 * cam(a, b) }},
		{"2ros", func(a, b float64) float64 { return 2 * ros(a, b) }},
		{"2bea", func(a, b float64) float64 { return 2 * bea(a, b) }},
		{"3bea", func(a, b float64) float64 { return 3 * bea(a, b) }},
	}
)

// camMin is the minimum of the six-hump camel function (problems/functions,
// refined by Newton iterations).
const camMin = -1.0316284534898774

// Optima of Func-2C and Func-3C: with ros, bea ≥ 0 the best choice of every
// variable is its camel term, all minimised at the same X, so f* = 2·cam* and
// 7·cam* (= −0.2063257 and −0.7221399; the spec's −0.20631 and −0.72210 are
// the values on its 401² grid, within 1e-4).
const (
	Func2COptimum = 2 * camMin / 10
	Func3COptimum = 7 * camMin / 10
)

// syntheticNoise is the scale of the uniform noise of Func-2C/3C and
// Ackley-53 [reference code: rubinxin/CoCaBO_code; xingchenwan/Casmopolitan].
const syntheticNoise = 1e-6

func termNames(ts []term) []string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.name
	}
	return s
}

var unitBox2 = [2][]float64{{-1, -1}, {1, 1}}

func newFunc2C() *Problem {
	return newProblem("func2c", [][]string{termNames(func2cF1), termNames(func2cF2)}, unitBox2[0], unitBox2[1],
		func(h []int, x []float64) float64 {
			a, b := 2*x[0], 2*x[1]
			return func2cF1[h[0]].f(a, b) + func2cF2[h[1]].f(a, b)
		}).withOptimum(Func2COptimum).withNoise(syntheticNoise)
}

func newFunc3C() *Problem {
	return newProblem("func3c", [][]string{termNames(func2cF1), termNames(func2cF2), termNames(func3cF3)}, unitBox2[0], unitBox2[1],
		func(h []int, x []float64) float64 {
			a, b := 2*x[0], 2*x[1]
			return func2cF1[h[0]].f(a, b) + func2cF2[h[1]].f(a, b) + func3cF3[h[2]].f(a, b)
		}).withOptimum(Func3COptimum).withNoise(syntheticNoise)
}

// ackley is the Ackley function with a = 20, b = 0.2, c = 2π on unscaled
// coordinates [spec §6.2 Decision], written as 20(1 − e^{−0.2r}) + (e − e^{c̄})
// so that it is exactly 0 at the origin.
func ackley(z []float64) float64 {
	n := float64(len(z))
	var s2, sc float64
	for _, v := range z {
		s2 += v * v
		sc += math.Cos(2 * math.Pi * v)
	}
	return 20*(1-math.Exp(-0.2*math.Sqrt(s2/n))) + (math.E - math.Exp(sc/n))
}

// ackleyCGrid is Ackley-cC's grid: −1 + 0.125(j − 1), j = 1..17 [000 Table
// 5.1].
var ackleyCGrid = ackleyGrid(17)

// ackleyC5Grid is ackley-5C5's grid. 002 Table 5.1 prints −1 + 0.125(j − 1),
// j = 1..5, which stops at −0.5 and misses the optimum; the spec's Decision
// (§6.2) uses step 0.5: −1, −0.5, 0, 0.5, 1.
var ackleyC5Grid = ackleyGrid(5)

// ackleyGrid returns n equally spaced values from −1 to 1.
func ackleyGrid(n int) []float64 {
	v := make([]float64, n)
	for k := range v {
		v[k] = -1 + 2*float64(k)/float64(n-1)
	}
	return v
}

// newAckleyC returns an Ackley-cC problem: c coordinates restricted to grid,
// each a categorical variable whose choices are the values written with
// space.Format ("-1", ..., "0", ..., "1"), and one continuous coordinate in
// [−1,1]; f* = 0 at z = 0.
func newAckleyC(name string, c int, grid []float64) *Problem {
	vals := make([]string, len(grid))
	for k, v := range grid {
		vals[k] = space.Format(v)
	}
	choices := make([][]string, c)
	for i := range choices {
		choices[i] = vals
	}
	return newProblem(name, choices, []float64{-1}, []float64{1}, func(h []int, x []float64) float64 {
		z := make([]float64, 0, len(h)+1)
		for _, k := range h {
			z = append(z, grid[k])
		}
		return ackley(append(z, x[0]))
	}).withOptimum(0)
}

// newAckley53 returns Ackley-53: 50 binary coordinates (0/1 used as numbers)
// and 3 continuous ones in [−1,1] [000 §5.6.4; spec §6.3]; f* = 0 at all
// zeros.
func newAckley53() *Problem {
	const nb, nc = 50, 3
	choices := make([][]string, nb)
	for i := range choices {
		choices[i] = binary
	}
	lo, hi := make([]float64, nc), make([]float64, nc)
	for i := range lo {
		lo[i], hi[i] = -1, 1
	}
	return newProblem("ackley53", choices, lo, hi, func(h []int, x []float64) float64 {
		z := make([]float64, 0, nb+nc)
		for _, k := range h {
			z = append(z, float64(k))
		}
		return ackley(append(z, x...))
	}).withOptimum(0).withNoise(syntheticNoise)
}

// binary are the choices of a binary variable.
var binary = []string{"0", "1"}
