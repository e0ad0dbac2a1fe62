package svmcbo

import (
	"errors"
	"math"
	"slices"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/svm"
)

// encode maps an encoded point to the input of the SVM, the GP and the
// coverage term (spec §2, Decision): Float and Int coordinates as they
// are (affine, or log when the parameter is), an Ordinal's rank/(n − 1), a
// categorical one-hot scaled by 1/√2 (two choices at distance 1), and an
// inactive parameter 0 plus, for every conditional parameter, an "active"
// column. On a space of Floats it is u itself.
func encode(sp *space.Space, u []float64) []float64 {
	if continuous(sp) {
		return u
	}
	act := sp.Active(u)
	x := make([]float64, 0, sp.NumFeatures())
	for i, p := range sp.Params() {
		L := sp.Levels(i)
		switch {
		case p.Kind == space.Categorical || p.Kind == space.Bool:
			oh := make([]float64, L)
			if act[i] {
				oh[bo.Level(u[i], L)] = 1 / math.Sqrt2
			}
			x = append(x, oh...)
		case !act[i]:
			x = append(x, 0)
		case p.Kind == space.Ordinal && L > 1:
			x = append(x, float64(bo.Level(u[i], L))/float64(L-1))
		default:
			x = append(x, u[i])
		}
		if sp.Conditional(i) {
			x = append(x, b2f(act[i]))
		}
	}
	return x
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// continuous reports whether every parameter of sp is an unconditional
// Float, where encode is the identity and phase 1 and 2 work in the box
// (multistart L-BFGS, focus search); elsewhere they sample and search
// locally (spec §3.4, Decisions).
func continuous(sp *space.Space) bool {
	for i := range sp.Len() {
		if !sp.Continuous(i) || sp.Conditional(i) {
			return false
		}
	}
	return true
}

// boundary is the SVM's view of the feasible region: d(γ) and the phase-1
// boundary term. With one class only there is no SVM (Decision g) and d is
// the constant +1 (all feasible: Ω̃ = Γ) or −1 (all infeasible: Ω̃ = ∅).
type boundary struct {
	m        *svm.Model // nil with one class
	constant float64    // d without an SVM
	// CodeCompat: labels are +1 infeasible (the code's 1), so Ω̃ = {d ≤ 0}
	// (scikit-learn's predict), and the phase-1 term is the code's
	// |Σ_k c_k exp(−(1/g)‖x − sv_k‖²)|, with 1/g for g and no intercept.
	code bool
}

// none reports whether the SVM says no point is feasible.
func (b *boundary) none() bool { return b.m == nil && b.constant < 0 }

// feasible reports whether x lies in Ω̃.
func (b *boundary) feasible(x []float64) bool {
	switch {
	case b.m == nil:
		return b.constant > 0
	case b.code:
		return b.m.Decision(x) <= 0
	}
	return b.m.Decision(x) > 0
}

// margin is d(x) signed so that Ω̃ = {margin > 0}.
func (b *boundary) margin(x []float64) float64 {
	switch {
	case b.m == nil:
		return b.constant
	case b.code:
		return -b.m.Decision(x)
	}
	return b.m.Decision(x)
}

// term returns Eq. 6.2's boundary term at x, |d(x)|, and, when grad is not
// nil, stores its gradient sign(d) ∇d (spec §3.4): with the code's form
// d = Σ_k c_k exp(−(1/g)‖x − sv_k‖²), ∇d = Σ_k c_k (−2/g)(x − sv_k) exp(…).
func (b *boundary) term(x, grad []float64) float64 {
	if grad != nil {
		clear(grad)
	}
	if b.m == nil {
		return math.Abs(b.constant)
	}
	var d float64
	switch {
	case !b.code && grad != nil:
		d = b.m.Gradient(x, grad)
	case !b.code:
		d = b.m.Decision(x)
	default:
		w := 1 / b.m.Settings().Gamma
		coef := b.m.DualCoef()
		for k, sv := range b.m.SupportVectors() {
			var r2 float64
			for j := range x {
				r2 += (x[j] - sv[j]) * (x[j] - sv[j])
			}
			e := coef[k] * math.Exp(-w*r2)
			d += e
			for j := range grad {
				grad[j] -= 2 * w * (x[j] - sv[j]) * e
			}
		}
	}
	if d < 0 {
		for j := range grad {
			grad[j] = -grad[j]
		}
	}
	return math.Abs(d)
}

// boundary trains the SVM of the suggestion for h on Δ (spec §3.1):
// every observation (δ = −1 when infeasible) and every failed trial (δ = −1,
// Decision h). In phase 2 the SVM "is retrained only when a phase-2 point
// turns out infeasible": the phase-2 observations after the last
// infeasible one, all feasible, are left out, which gives the SVM that
// retraining kept (see svmObservations).
func (c *CBO) boundary(h *sampler.History, phase int) (*boundary, error) {
	sp := h.Space
	obs := h.Observed
	if phase == 2 {
		obs = c.svmObservations(h)
	}
	var X [][]float64
	var y []int
	for _, o := range obs {
		X = append(X, encode(sp, o.X))
		y = append(y, label(!o.Infeasible, c.CodeCompat))
	}
	for _, u := range h.Failed {
		X = append(X, encode(sp, u))
		y = append(y, label(false, c.CodeCompat))
	}
	b := &boundary{code: c.CodeCompat}
	set := svm.Settings{C: svm.DefaultC} // Gamma 0: 1/(d·Var X), the project's Decision
	if c.CodeCompat {
		set.Gamma = 1 / (2 * variance(X)) // the code's 1/(2·Var X)
		if math.IsInf(set.Gamma, 0) || math.IsNaN(set.Gamma) {
			set.Gamma = 1
		}
	}
	m, err := svm.Fit(X, y, set)
	switch {
	case errors.Is(err, svm.ErrOneClass):
		b.constant = -1
		if y[0] == label(true, c.CodeCompat) {
			b.constant = 1
		}
	case err != nil:
		return nil, err
	default:
		b.m = m
	}
	return b, nil
}

// label is δ as the SVM is trained on it: +1 feasible, or in code_compat
// the code's labels, +1 (its 1) infeasible (spec §3.3 b, §3.5).
func label(feasible, code bool) int {
	if feasible != code {
		return 1
	}
	return -1
}

// svmObservations returns the observations the phase-2 SVM is trained on.
// History.Observed is in trial order, so the phase-2 observations are its
// last ones; the SVM was last retrained after the last infeasible one
// among them (or, with none, after the last phase-1 evaluation), so the
// feasible ones after it are left out. Deviation: History lists failed
// trials apart, without their trial numbers; they are taken to be phase 0
// and 1 trials, and the SVM always has them. When what is left holds no
// feasible point but the history does (a first feasible point found in
// phase 2 by Decision g), the SVM is trained on all, as a retraining at
// that point would be.
func (c *CBO) svmObservations(h *sampler.History) []sampler.Observation {
	obs := h.Observed
	_, end1 := c.split(h)
	k1 := min(max(end1-len(h.Failed)-len(h.Pruned), 0), len(obs))
	j := len(obs)
	for j > k1 && !obs[j-1].Infeasible {
		j--
	}
	feasible := func(o sampler.Observation) bool { return !o.Infeasible }
	if !slices.ContainsFunc(obs[:j], feasible) {
		return obs
	}
	return obs[:j]
}

// variance is the population variance of all coordinates of X (numpy's
// np.var of the evaluated points, the code's Var(X)); 0 with no points.
func variance(X [][]float64) float64 {
	var n, sum, ss float64
	for _, x := range X {
		for _, v := range x {
			n++
			sum += v
		}
	}
	if n == 0 {
		return 0
	}
	mean := sum / n
	for _, x := range X {
		for _, v := range x {
			ss += (v - mean) * (v - mean)
		}
	}
	return ss / n
}

// phase1 is Eq. 6.2's acquisition, minimised: the boundary term plus the
// coverage C(x) = Σ_l exp(−‖x − x_l‖²/(2ℓ²)) of the tried points, ℓ = Var(X)
// (the code's choice; clamped to [1e-3, 1] outside code_compat, spec
// §3.4 Decisions). The tried points are the evaluated, failed, pruned and
// pending ones, so that parallel workers spread out too.
type phase1 struct {
	b   *boundary
	pts [][]float64
	l2  float64 // 2ℓ²
}

func (c *CBO) newPhase1(h *sampler.History, b *boundary) *phase1 {
	var pts [][]float64
	for _, o := range h.Observed {
		pts = append(pts, encode(h.Space, o.X))
	}
	for _, u := range h.WithoutValue() {
		pts = append(pts, encode(h.Space, u))
	}
	l := variance(pts)
	if !c.CodeCompat || l == 0 {
		l = min(max(l, 1e-3), 1)
	}
	return &phase1{b: b, pts: pts, l2: 2 * l * l}
}

// eval returns the acquisition at x and, when grad is not nil, stores its
// gradient: ∂C/∂x = −Σ_l (x − x_l)/ℓ² exp(−‖x − x_l‖²/(2ℓ²)).
func (a *phase1) eval(x, grad []float64) float64 {
	v := a.b.term(x, grad)
	for _, p := range a.pts {
		var r2 float64
		for j := range x {
			r2 += (x[j] - p[j]) * (x[j] - p[j])
		}
		e := math.Exp(-r2 / a.l2)
		v += e
		for j := range grad {
			grad[j] -= 2 * (x[j] - p[j]) / a.l2 * e
		}
	}
	return v
}
