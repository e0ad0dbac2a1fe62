package acq

import (
	"math"
)

// Penalty is the factor φ(x | x_j) ∈ [0, 1] that one busy point x_j (a
// point under evaluation, or already chosen for the current batch) puts on
// the acquisition, so that the next point is chosen away from it (local
// penalisation; async-batch-playbook.md §3).
type Penalty interface {
	// LogEval returns log φ(x) (−Inf where φ = 0). When grad != nil it
	// writes ∂log φ/∂x into grad (len(x)); where φ = 0 it writes 0.
	LogEval(x, grad []float64) float64
}

// radiusFloor keeps a penaliser's radius and scale above zero, where they
// would divide by zero (a busy point predicted exactly at M̂ with σ = 0);
// the inputs are the unit box, so this is the spec's 1e-12 box widths
// (§3.2, Numerics).
const radiusFloor = 1e-12

// LocalPenalty is the local penaliser of González et al. (2016), LP
// [002 Eq. 4.1; spec §3.1]:
//
//	φ(x | x_j) = Φ((‖x − x_j‖ − r_j)/s_j),  r_j = |μ(x_j) − M̂|/L̂,  s_j = σ(x_j)/L̂,
//
// with σ the posterior standard deviation (002 calls it a variance, an
// erratum), M̂ the estimated minimum and L̂ a Lipschitz constant of f.
// φ(x_j | x_j) = Φ(−r_j/s_j) > 0: LP does not rule out the busy point
// itself, which is what the hard penaliser mends.
type LocalPenalty struct {
	Center []float64
	Radius float64 // r_j
	Scale  float64 // s_j
}

// NewLocalPenalty returns LP around a busy point with posterior mean and
// standard deviation mean, sd there, estimated minimum best and Lipschitz
// constant lipschitz > 0.
func NewLocalPenalty(center []float64, mean, sd, best, lipschitz float64) LocalPenalty {
	return LocalPenalty{
		Center: center,
		Radius: math.Abs(mean-best) / lipschitz,
		Scale:  max(sd/lipschitz, radiusFloor),
	}
}

// LogEval implements Penalty.
func (p LocalPenalty) LogEval(x, grad []float64) float64 {
	d := distance(x, p.Center)
	z := (d - p.Radius) / p.Scale
	if grad != nil {
		radialGrad(x, p.Center, d, invMills(z)/(p.Scale*d), grad)
	}
	return LogNormCDF(z)
}

// HardPenalty is the smooth hard local penaliser of PLAyBOOK, HLP
// [000 Eqs. 4.11–4.12; 002 Eqs. 4.14–4.15; spec §3.2]:
//
//	φ̂(x | x_j) = (ρ^p + 1)^{1/p},  ρ = ‖x − x_j‖/R_j,  R_j = (|μ(x_j) − M̂| + γσ(x_j))/L̂,
//
// a smooth min{ρ, 1}: exactly 0 at the busy point and close to 1 outside
// the ball of radius R_j in which, with probability about 0.99 (γ = 1.5;
// the experiments use γ = 1), the minimiser cannot lie when f is
// L̂-Lipschitz (Eqs. 4.7–4.10).
type HardPenalty struct {
	Center []float64
	Radius float64 // R_j
	P      float64 // the smoothing exponent p < 0; −5 in the seeds
}

// NewHardPenalty returns HLP around a busy point with posterior mean and
// standard deviation mean, sd there, estimated minimum best, Lipschitz
// constant lipschitz > 0, the width γ of the radius' confidence margin and
// the smoothing exponent p < 0. The absolute value |μ − M̂| is always
// taken (spec §3.3, Decision: the reference code omits it, and a negative
// radius has no meaning).
func NewHardPenalty(center []float64, mean, sd, best, lipschitz, gamma, p float64) HardPenalty {
	return HardPenalty{
		Center: center,
		Radius: max((math.Abs(mean-best)+gamma*sd)/lipschitz, radiusFloor),
		P:      p,
	}
}

// LogEval implements Penalty. log φ̂ = (1/p)·log(1 + ρ^p) is evaluated in
// the form that cannot overflow on either side of ρ = 1 (spec §3.2,
// Numerics), and ∂log φ̂/∂ρ = σ(p·log ρ)/ρ with σ the logistic function.
func (p HardPenalty) LogEval(x, grad []float64) float64 {
	d := distance(x, p.Center)
	if d == 0 {
		if grad != nil {
			clear(grad)
		}
		return math.Inf(-1)
	}
	t := p.P * math.Log(d/p.Radius) // p·log ρ
	var v float64
	if t < 0 {
		v = math.Log1p(math.Exp(t)) / p.P
	} else {
		v = math.Log(d/p.Radius) + math.Log1p(math.Exp(-t))/p.P
	}
	if grad != nil {
		radialGrad(x, p.Center, d, logistic(t)/(d*d), grad)
	}
	return v
}

// distance is the Euclidean distance ‖x − c‖.
func distance(x, c []float64) float64 {
	var s float64
	for i := range x {
		s += (x[i] - c[i]) * (x[i] - c[i])
	}
	return math.Sqrt(s)
}

// radialGrad writes a·(x − c) into grad: the gradient of a function of
// d = ‖x − c‖ whose derivative is a·d. At the centre it writes 0, where
// the penalisers have no gradient.
func radialGrad(x, c []float64, d, a float64, grad []float64) {
	for i := range grad {
		grad[i] = 0
		if d > 0 {
			grad[i] = a * (x[i] - c[i])
		}
	}
}

func logistic(t float64) float64 { return 1 / (1 + math.Exp(-t)) }

// Positivity maps an acquisition value to a positive one, so that
// multiplying it by penalties in [0, 1] lowers it (property (iii) of spec
// §3.2 needs α ≥ 0; the confidence bound can be negative).
type Positivity interface {
	// Apply returns g(a) > 0 and g'(a).
	Apply(a float64) (v, dv float64)
}

// Softplus is g(α) = log(1 + e^α) [002 Eq. 4.17], the library default
// (spec §3.4, Decision), computed as max(α, 0) + log1p(e^−|α|).
type Softplus struct{}

// Apply implements Positivity.
func (Softplus) Apply(a float64) (v, dv float64) {
	return max(a, 0) + math.Log1p(math.Exp(-math.Abs(a))), logistic(a)
}

// Offset is g(α) = max(α − Min + 1e-3, 1e-12) [002 Eq. 4.16], with Min the
// smallest α on 3000 uniform random points, as the reference code ran
// every experiment (spec §3.4); off-grid points can lie below Min, hence
// the clamp.
type Offset struct{ Min float64 }

// Apply implements Positivity.
func (o Offset) Apply(a float64) (v, dv float64) {
	v = a - o.Min + 1e-3
	if v < 1e-12 {
		return 1e-12, 0
	}
	return v, 1
}

// Penalised is a locally penalised acquisition [000 Eq. 4.6; 002 Eq. 4.6;
// spec §3.3]:
//
//	α̃(x) = g(α(x)) · Π_j φ(x | x_j),
//
// the base acquisition made positive by g and multiplied by one penalty
// per busy point, each clipped to [0, 1] on its own (the theses' form,
// spec §3.3 Decision). Positivity nil leaves α as it is, for
// acquisitions that are already non-negative (EI, PI).
type Penalised struct {
	Base       Function
	Positivity Positivity
	Penalties  []Penalty
}

// Eval implements Function. ∂α̃ = α̃·(g'(α)/g(α)·∂α + Σ_j ∂log φ_j).
func (p Penalised) Eval(m Model, x, grad []float64) float64 {
	a := p.Base.Eval(m, x, grad)
	v, dv := a, 1.0
	if p.Positivity != nil {
		v, dv = p.Positivity.Apply(a)
	}
	var logPhi float64
	var pg []float64
	if grad != nil {
		scale(grad, dv)
		pg = make([]float64, len(x))
	}
	for _, pen := range p.Penalties {
		logPhi += pen.LogEval(x, pg)
		if math.IsInf(logPhi, -1) {
			if grad != nil {
				clear(grad)
			}
			return 0
		}
		if grad != nil {
			for i := range grad {
				grad[i] += v * pg[i] // v·∂log φ_j; scaled by Π φ below
			}
		}
	}
	phi := math.Exp(logPhi)
	if grad != nil {
		scale(grad, phi)
	}
	return v * phi
}
