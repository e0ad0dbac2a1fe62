package constrained

import "math"

// The six constrained 2-D functions of [004 §7.1.1, App. A.1] in their
// corrected forms [spec §7.1], and the literal printed variants the errata
// list. The minimisers were located on a grid of step 0.0005 of the range
// and refined: in the interior to a root of the gradient (Newton's method,
// or bisection in one variable), on the boundary by golden-section search
// along the active constraint; optima_test.go repeats the grid search.

// branin returns the Branin function at (u, v) with the shift and scale of
// Picheny et al. 2013, whose unconstrained minimum is −1.0474:
//
//	f = [(v − 5.1u²/(4π²) + 5u/π − 6)² + (10 − 10/(8π)) cos u − 44.81]/51.95.
func branin(u, v float64) float64 {
	q := v - 5.1*u*u/(4*math.Pi*math.Pi) + 5*u/math.Pi - 6
	return (q*q + (10-10/(8*math.Pi))*math.Cos(u) - 44.81) / 51.95
}

// ellipse is one feasible ellipse of Branin [004 Eq. A.2]: centre (cx, cy),
// semi-axes a and b, rotated by alpha.
type ellipse struct{ cx, cy, a, b, alpha float64 }

// braninEllipses are the two ellipses: the feasible region is their union,
// two disconnected regions [004 §7.1.1].
var braninEllipses = [2]ellipse{
	{1.0 / 3, 1.0 / 4, 0.45, 0.27, math.Pi / 4},
	{5.0 / 6, 7.0 / 8, 0.25, 0.1, 3 * math.Pi / 4},
}

// at returns c(x): below 1 inside the ellipse. The second bracket is the
// standard rotation, (x₂ − c₂) cos α − (x₁ − c₁) sin α, as the reference code
// writes it; printed (plus true) it has "+", which for α = π/4 and 3π/4
// makes both brackets the same up to sign, so the "ellipse" is the strip
// |(x₁ − c₁) ± (x₂ − c₂)| < √2·ab/√(a² + b²).
func (e ellipse) at(x []float64, plus bool) float64 {
	dx, dy := x[0]-e.cx, x[1]-e.cy
	s, c := math.Sincos(e.alpha)
	u := dx*c + dy*s
	v := dy*c - dx*s
	if plus {
		v = dy*c + dx*s
	}
	return u*u/(e.a*e.a) + v*v/(e.b*e.b)
}

// inEllipses is the one constraint of Branin: min(c₁, c₂) < 1 holds iff
// c₁ < 1 or c₂ < 1. Folding the "or" into a minimum keeps the rule of the
// evaluation result, feasible iff every constraint holds [spec §1].
func inEllipses(plus bool) constraint {
	return constraint{
		name: "min(c1,c2)",
		g: func(x []float64) float64 {
			return math.Min(braninEllipses[0].at(x, plus), braninEllipses[1].at(x, plus))
		},
		limit: 1,
		sense: Less,
	}
}

// newBraninC returns Branin rescaled to [0,1]² (x̄₁ = 15x₁ − 5, x̄₂ = 15x₂),
// feasible in either ellipse. Of the three unconstrained minimisers only
// x̄ = (π, 2.275) lies in an ellipse (the first), so f* is the
// unconstrained minimum (10/(8π) − 54.81)/51.95 [spec §7.1 #1].
func newBraninC() *Problem {
	return newProblem("branin_c", []float64{0, 0}, []float64{1, 1},
		func(x []float64) float64 { return branin(15*x[0]-5, 15*x[1]) },
		inEllipses(false),
	).withOptimum((10/(8*math.Pi)-54.81)/51.95, (math.Pi+5)/15, 2.275/15)
}

// newBraninCLiteral returns Branin as Eq. A.1–A.2 print it: no rescaling
// (the formula applied to x ∈ [0,1]² directly) and "+" in the second
// bracket of both ellipses, which turns them into strips [spec §7.1 errata].
// The grouping is the standard one; the seed's text also shows
// (x₂ − 5.1x₁²)/(4π²), which we take for a typesetting slip.
func newBraninCLiteral() *Problem {
	return newProblem("branin_c_literal", []float64{0, 0}, []float64{1, 1},
		func(x []float64) float64 { return branin(x[0], x[1]) },
		inEllipses(true),
	).withOptimum(braninLiteralOpt, braninLiteralArgmin[:]...).printedAsIs()
}

// The literal Branin decreases in both coordinates over the whole box (the
// square's base v − 5.1u²/(4π²) + 5u/π − 6 stays negative, its u-slope
// positive, and sin u ≥ 0), so its minimum is at the corner (1, 1), which
// lies in the second strip: f* = −0.52179.
var (
	braninLiteralOpt    = branin(1, 1)
	braninLiteralArgmin = [2]float64{1, 1}
)

// rosenbrock is Rosenbrock's function (1 − x₁)² + 100(x₂ − x₁²)².
func rosenbrock(x []float64) float64 {
	a, b := 1-x[0], x[1]-x[0]*x[0]
	return a*a + 100*b*b
}

// rosenbrockCubic is the cubic constraint (x₁ − 1)³ − x₂ + 1 ≤ 0 of
// Simionescu and Beale, 2002 [004 Eq. A.3].
var rosenbrockCubic = constraint{
	name: "cubic",
	g: func(x []float64) float64 {
		d := x[0] - 1
		return d*d*d - x[1] + 1
	},
	limit: 0,
	sense: LessEq,
}

// rosenbrockLine is the line x₁ + x₂ − 2 compared with 0 by sense.
func rosenbrockLine(sense Sense) constraint {
	return constraint{name: "line", g: func(x []float64) float64 { return x[0] + x[1] - 2 }, sense: sense}
}

// newRosenbrockC returns Rosenbrock on [−1.5, 1.5] × [−0.5, 2.5] constrained
// to a cubic and a line, both ≤ [spec §7.1 #2]. Both are active at
// x* = (1, 1), f* = 0.
func newRosenbrockC() *Problem {
	return newProblem("rosenbrock_c", []float64{-1.5, -0.5}, []float64{1.5, 2.5},
		rosenbrock, rosenbrockCubic, rosenbrockLine(LessEq),
	).withOptimum(0, 1, 1)
}

// newRosenbrockCLiteral returns Eq. A.3 as printed: the objective
// (1 − x₁)² + 100(x₁ + x₂²)² and the line with "<", so the stated
// x* = (1, 1) is infeasible and f(1, 1) = 400 [spec §7.1 errata]. Its own
// minimum lies on the cubic near (0.0081, 0.0241), f* = 0.99140.
func newRosenbrockCLiteral() *Problem {
	return newProblem("rosenbrock_c_literal", []float64{-1.5, -0.5}, []float64{1.5, 2.5},
		func(x []float64) float64 {
			a, b := 1-x[0], x[0]+x[1]*x[1]
			return a*a + 100*b*b
		},
		rosenbrockCubic, rosenbrockLine(Less),
	).withOptimum(rosenbrockLiteralOpt, rosenbrockLiteralArgmin[:]...).printedAsIs()
}

// The literal Rosenbrock's minimiser on its cubic x₂ = 1 + (x₁ − 1)³,
// found by golden-section search on x₁, then moved 1e-12 up in x₂ so that
// rounding cannot put it outside.
var (
	rosenbrockLiteralArgmin = [2]float64{0.0081019159076187869, 0.024109356417931237}
	rosenbrockLiteralOpt    = 0.99140156546319502
)

// michalewicz is Michalewicz's function with m = 10 in 2-D [004 Eq. A.4,
// where m is not given; spec §7.1].
func michalewicz(x []float64) float64 {
	var s float64
	for i, v := range x {
		t := math.Sin(float64(i+1) * v * v / math.Pi)
		s -= math.Sin(v) * math.Pow(t, 20)
	}
	return s
}

// cubes is x₁³ + x₂³.
func cubes(x []float64) float64 { return x[0]*x[0]*x[0] + x[1]*x[1]*x[1] }

// newMichalewiczC returns Michalewicz on [0, π]² with x₁³ + x₂³ ≤ 15, as
// the reference code has it [spec §7.1 #3]. The unconstrained minimiser
// (2.2029, π/2) is feasible (x₁³ + x₂³ = 14.566), so f* is the unconstrained
// 2-D minimum −1.8013034. (The code's gap metric uses −1.8011407, which is
// f at the printed, rounded x* = (2.20, 1.57).)
func newMichalewiczC() *Problem {
	return newProblem("michalewicz_c", []float64{0, 0}, []float64{math.Pi, math.Pi},
		michalewicz,
		constraint{name: "x1^3+x2^3", g: cubes, limit: 15, sense: LessEq},
	).withOptimum(-1.8013034100985528, 2.2029055201726093, math.Pi/2)
}

// newMichalewiczCLiteral returns Eq. A.4 as printed: x₁³ + x₂³ > 15 and
// x₁³ + x₂ < 30. The unconstrained minimiser is then infeasible and the
// minimum, −1.78846 near (2.2297, 1.5762), lies on x₁³ + x₂³ = 15
// [spec §7.1 errata].
func newMichalewiczCLiteral() *Problem {
	return newProblem("michalewicz_c_literal", []float64{0, 0}, []float64{math.Pi, math.Pi},
		michalewicz,
		constraint{name: "x1^3+x2^3", g: cubes, limit: 15, sense: Greater},
		constraint{name: "x1^3+x2", g: func(x []float64) float64 { return x[0]*x[0]*x[0] + x[1] }, limit: 30, sense: Less},
	).withOptimum(michalewiczLiteralOpt, michalewiczLiteralArgmin[:]...).printedAsIs()
}

// The literal Michalewicz's minimiser on x₁³ + x₂³ = 15, found by
// golden-section search on x₁ with x₂ = ∛(15 − x₁³). The constraint is
// strict, so the infimum −1.78845556876428 is not attained; x₂ is moved
// 1e-12 up, into the feasible set, which costs 4e-13.
var (
	michalewiczLiteralArgmin = [2]float64{2.2296538720668728, 1.5761563326425583}
	michalewiczLiteralOpt    = -1.7884555687638406
)

// mishraBird is Mishra's Bird function (Mishra 2006) [004 Eq. A.5]:
//
//	sin(x₂) e^{(1 − cos x₁)²} + cos(x₁) e^{(1 − sin x₂)²} + (x₁ − x₂)².
func mishraBird(x []float64) float64 {
	x1, x2 := x[0], x[1]
	a, b, d := 1-math.Cos(x1), 1-math.Sin(x2), x1-x2
	return math.Sin(x2)*math.Exp(a*a) + math.Cos(x1)*math.Exp(b*b) + d*d
}

// mishraDisc is Mishra's Bird's disc (x₁ + 5)² + (x₂ + 5)² < 25.
var mishraDisc = constraint{
	name: "disc",
	g: func(x []float64) float64 {
		a, b := x[0]+5, x[1]+5
		return a*a + b*b
	},
	limit: 25,
	sense: Less,
}

// newMishraBirdC returns Mishra's Bird on [−10, 0] × [−6.5, 0] inside the
// disc [spec §7.1 #4]. The minimiser is interior ((x₁ + 5)² + (x₂ + 5)² =
// 15.18): the thesis's remark that it lies on the boundary (004 §8.1) is
// wrong. The printed (−3.1302468, −1.5821422), f* = −106.7645367, was
// refined by Newton's method on the gradient.
func newMishraBirdC() *Problem {
	return newProblem("mishra_bird_c", []float64{-10, -6.5}, []float64{0, 0},
		mishraBird, mishraDisc,
	).withOptimum(-106.76453674926466, -3.1302468034445097, -1.5821421769486785)
}

// gramacy is the objective x₁ + x₂ of Gramacy et al. 2016.
func gramacy(x []float64) float64 { return x[0] + x[1] }

// newGramacyC returns the problem of Gramacy et al. 2016 on [0,1]²
// [004 Eq. A.6; spec §7.1 #5]: minimise x₁ + x₂ subject to
// ½ sin(2π(x₁² − 2x₂)) + x₁ + 2x₂ − 3/2 ≥ 0 and 3/2 − x₁² − x₂² ≥ 0. The
// minimiser lies on the first constraint's boundary.
func newGramacyC() *Problem {
	return newProblem("gramacy_c", []float64{0, 0}, []float64{1, 1},
		gramacy,
		constraint{
			name: "sine",
			g: func(x []float64) float64 {
				return 0.5*math.Sin(2*math.Pi*(x[0]*x[0]-2*x[1])) + x[0] + 2*x[1] - 1.5
			},
			sense: GreaterEq,
		},
		constraint{
			name:  "disc",
			g:     func(x []float64) float64 { return 1.5 - x[0]*x[0] - x[1]*x[1] },
			sense: GreaterEq,
		},
	).withOptimum(gramacyOpt, gramacyArgmin[:]...)
}

// Gramacy's minimiser: golden-section search on x₁ of x₁ + x₂(x₁), x₂(x₁)
// the root of the first constraint by bisection, then x₂ moved 1e-12 up so
// that rounding cannot put it outside. The thesis rounds it to
// (0.1954, 0.4044), f* = 0.5998.
var (
	gramacyArgmin = [2]float64{0.19512268374779768, 0.40466536826326993}
	gramacyOpt    = 0.59978805201106766
)

// alpine2 is Alpine N.2 (Jamil & Yang 2013) in its minimisation form
// −Π sin(x_i)√x_i [004 Eq. A.7].
func alpine2(x []float64) float64 {
	p := -1.0
	for _, v := range x {
		p *= math.Sin(v) * math.Sqrt(v)
	}
	return p
}

// newAlpine2C returns Alpine N.2 on [0, 10]² with
// (x₁ − 5)² + (x₂ − 5)² − 1/4 < 17 [spec §7.1 #6]. The unconstrained
// minimiser (t, t), where tan t = −2t, t = 7.917, is feasible with slack
// 0.23, so f* = −(sin t √t)² = −7.8856; the thesis prints −2.808² = −7.8849.
func newAlpine2C() *Problem {
	return newProblem("alpine2_c", []float64{0, 0}, []float64{10, 10},
		alpine2,
		constraint{
			name: "disc",
			g: func(x []float64) float64 {
				a, b := x[0]-5, x[1]-5
				return a*a + b*b - 0.25
			},
			limit: 17,
			sense: Less,
		},
	).withOptimum(alpine2Opt, alpine2T, alpine2T)
}

// alpine2T is the root of tan t = −2t near 7.917 (bisection on the
// derivative of sin t √t), and alpine2Opt = −(sin t √t)².
const (
	alpine2T   = 7.9170526846662064
	alpine2Opt = -7.8856007241275359
)

// newMishraBirdCDisc returns Mishra's Bird on the 25 × 25 grid of equally
// spaced values over the box, ends included: 625 points, as in Fig. 8.1 of
// 004 [spec §7.1 Decision; the reference code's mishra_bird_c_disc rounds
// unit coordinates to 1/50 instead]. The optimum is the best feasible grid
// value, found by enumeration: 480 of the 625 points are feasible and the
// best, −101.04691, is at grid indices (16, 18), (−10/3, −1.625).
func newMishraBirdCDisc() *Problem {
	p := newMishraBirdC().discretised("mishra_bird_c_disc", 25)
	return p.withOptimum(-101.04691267196571, p.grid[0][16], p.grid[1][18])
}
