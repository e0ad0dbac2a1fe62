package opt

import "math"

// Objective returns f(x); when grad != nil it also writes ∇f(x) into grad,
// which has len(x) elements. An Objective may skip the gradient work when
// grad == nil.
type Objective func(x, grad []float64) float64

// Result is the outcome of an optimisation.
type Result struct {
	X           []float64 // best point found
	F           float64   // objective value at X
	Iterations  int       // accepted steps (BoxLBFGS) or refinement steps (Maximize)
	Evaluations int       // calls of the objective
	Status      string    // why the run stopped; one of the Status constants
}

// Reasons a run stops, reported in Result.Status.
const (
	StatusGradTol    = "projected gradient below tolerance"
	StatusRelTol     = "relative change of the objective below tolerance"
	StatusMaxIter    = "iteration limit reached"
	StatusLineSearch = "line search found no decrease (converged to working precision)"
	StatusNonFinite  = "objective not finite at the start point"
	StatusRaw        = "best raw candidate was not improved by refinement"
	StatusRefined    = "refined from a raw candidate"
)

// CentralDifference turns a value-only function into an Objective whose
// gradient is approximated by central differences with the given step
// (spec §6.1: step 1e-6 times the box width). It evaluates fn at x ± step
// along each axis, so fn must accept points up to step outside the box.
func CentralDifference(fn func(x []float64) float64, step float64) Objective {
	return func(x, grad []float64) float64 {
		v := fn(x)
		if grad == nil {
			return v
		}
		for i, xi := range x {
			x[i] = xi + step
			fp := fn(x)
			x[i] = xi - step
			fm := fn(x)
			x[i] = xi
			grad[i] = (fp - fm) / (2 * step)
		}
		return v
	}
}

// finite reports whether v is neither NaN nor ±Inf.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
