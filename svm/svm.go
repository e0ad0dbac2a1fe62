package svm

import (
	"errors"
	"fmt"
	"math"
)

// Defaults of Settings' zero fields.
const (
	// DefaultC is scikit-learn SVC's C, which the reference code keeps
	// (spec constrained-autotinyml §3.4).
	DefaultC = 1.0
	// DefaultTol is ε of the stopping rule (spec constrained-autotinyml
	// §4.1), LIBSVM's and scikit-learn's default tolerance.
	DefaultTol = 1e-3
	// minIter is the lower bound of LIBSVM's iteration limit
	// max(10,000,000, 100n): SMO rarely needs more than a few times n
	// iterations, so the limit only stops a solver that cycles on round-off.
	minIter = 10_000_000
)

// ErrOneClass is returned by Fit when every label is the same: no separating
// surface exists, and the caller's fallback decides (spec
// constrained-autotinyml §3.3, Decision g).
var ErrOneClass = errors.New("svm: the training labels hold one class only; both +1 and −1 are needed")

// Settings are the hyper-parameters of Fit. The zero value gives the
// defaults of spec constrained-autotinyml §3.4.
type Settings struct {
	// C bounds each α_i (the soft-margin penalty); 0 means DefaultC.
	C float64
	// Gamma is γ of the RBF kernel exp(−γ‖x − x'‖²); 0 means
	// 1/(d·Var(X)), scikit-learn's gamma="scale".
	Gamma float64
	// Tol is ε of the stopping rule max_{I_up}(−y∇f) − min_{I_low}(−y∇f)
	// ≤ ε; 0 means DefaultTol.
	Tol float64
	// MaxIter bounds the SMO iterations; 0 means max(10,000,000, 100n), as
	// LIBSVM does. Reaching it is not an error: the model is returned with
	// Converged() == false (LIBSVM and scikit-learn warn and return it too).
	MaxIter int
}

// Model is a fitted C-SVC: its support vectors x_i, their coefficients
// α_i y_i and the bias b.
type Model struct {
	sv    [][]float64 // support vectors (α_i > 0), copied from X
	coef  []float64   // α_i y_i of each support vector
	b     float64     // bias, −ρ in LIBSVM's notation
	gamma float64     // γ in use (resolved from Settings)
	set   Settings    // Settings with the defaults filled in
	alpha []float64   // α of every training point, for the KKT tests
	iter  int         // SMO iterations run
	conv  bool        // whether the stopping rule was met
	dim   int         // input dimension d
}

// Fit trains a C-SVC on the rows of X with labels y (+1 feasible, −1
// infeasible). It returns an error for malformed input (empty or ragged X,
// non-finite values, labels other than ±1, length mismatch, invalid
// Settings) and ErrOneClass when only one label occurs. X and y are not
// modified or retained. A fit that reaches Settings.MaxIter is not an error:
// the model is returned with Converged() == false.
func Fit(X [][]float64, y []int, s Settings) (*Model, error) {
	d, err := validate(X, y)
	if err != nil {
		return nil, err
	}
	s, err = resolve(s, X, d)
	if err != nil {
		return nil, err
	}
	n := len(X)
	K := gram(X, s.Gamma)
	yf := make([]float64, n)
	for i, v := range y {
		yf[i] = float64(v)
	}
	sol := solve(K, yf, s.C, s.Tol, s.MaxIter)

	m := &Model{
		b:     -sol.rho,
		gamma: s.Gamma,
		set:   s,
		alpha: sol.alpha,
		iter:  sol.iter,
		conv:  sol.converged,
		dim:   d,
	}
	// Support vectors are the points with α_i > 0, as LIBSVM counts them;
	// the others do not enter d(x).
	for i, a := range sol.alpha {
		if a > 0 {
			m.sv = append(m.sv, append([]float64(nil), X[i]...))
			m.coef = append(m.coef, a*yf[i])
		}
	}
	return m, nil
}

// validate checks the shapes, values and labels and returns the dimension d.
func validate(X [][]float64, y []int) (int, error) {
	if len(X) == 0 {
		return 0, errors.New("svm: no training points")
	}
	if len(y) != len(X) {
		return 0, fmt.Errorf("svm: %d points but %d labels", len(X), len(y))
	}
	d := len(X[0])
	if d == 0 {
		return 0, errors.New("svm: training points have dimension 0")
	}
	var pos, neg int
	for i, x := range X {
		if len(x) != d {
			return 0, fmt.Errorf("svm: point %d has dimension %d, point 0 has %d", i, len(x), d)
		}
		for j, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, fmt.Errorf("svm: point %d, coordinate %d is %v", i, j, v)
			}
		}
		switch y[i] {
		case 1:
			pos++
		case -1:
			neg++
		default:
			return 0, fmt.Errorf("svm: label %d is %d; labels must be +1 or −1", i, y[i])
		}
	}
	if pos == 0 || neg == 0 {
		return 0, ErrOneClass
	}
	return d, nil
}

// resolve checks s and fills in its defaults for the data X of dimension d.
func resolve(s Settings, X [][]float64, d int) (Settings, error) {
	for _, f := range []struct {
		name string
		v    float64
	}{{"C", s.C}, {"Gamma", s.Gamma}, {"Tol", s.Tol}} {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return s, fmt.Errorf("svm: Settings.%s = %v; it must be finite and >= 0 (0 for the default)", f.name, f.v)
		}
	}
	if s.MaxIter < 0 {
		return s, fmt.Errorf("svm: Settings.MaxIter = %d; it must be >= 0 (0 for the default)", s.MaxIter)
	}
	if s.C == 0 {
		s.C = DefaultC
	}
	if s.Gamma == 0 {
		s.Gamma = scaleGamma(X, d)
	}
	if s.Tol == 0 {
		s.Tol = DefaultTol
	}
	if s.MaxIter == 0 {
		s.MaxIter = max(minIter, 100*len(X))
	}
	return s, nil
}

// scaleGamma is scikit-learn's gamma="scale", 1/(d·Var(X)) with the
// (population) variance over all n·d coordinates, and 1 when that variance is
// 0 (spec constrained-autotinyml §3.4, Decisions). The mean is subtracted
// before squaring so that data far from the origin keep their precision.
func scaleGamma(X [][]float64, d int) float64 {
	var mean float64
	for _, x := range X {
		for _, v := range x {
			mean += v
		}
	}
	cnt := float64(len(X) * d)
	mean /= cnt
	var ss float64
	for _, x := range X {
		for _, v := range x {
			ss += (v - mean) * (v - mean)
		}
	}
	if ss == 0 {
		return 1
	}
	return 1 / (float64(d) * ss / cnt)
}

// rbf is exp(−γ‖a − b‖²).
func rbf(a, b []float64, gamma float64) float64 {
	var r2 float64
	for k := range a {
		t := a[k] - b[k]
		r2 += t * t
	}
	return math.Exp(-gamma * r2)
}

// gram is the full kernel matrix K_ij = k(x_i, x_j), row-major.
func gram(X [][]float64, gamma float64) []float64 {
	n := len(X)
	K := make([]float64, n*n)
	for i := range n {
		K[i*n+i] = 1
		for j := range i {
			v := rbf(X[i], X[j], gamma)
			K[i*n+j], K[j*n+i] = v, v
		}
	}
	return K
}

// Decision returns d(x) = Σ_i α_i y_i k(x_i, x) + b; d(x) > 0 predicts +1
// (feasible). x must have the training dimension, or Decision panics.
func (m *Model) Decision(x []float64) float64 {
	m.checkDim(x)
	d := m.b
	for i, sv := range m.sv {
		d += m.coef[i] * rbf(sv, x, m.gamma)
	}
	return d
}

// Gradient stores ∇d(x) = Σ_i α_i y_i (−2γ)(x − x_i) k(x_i, x) in grad and
// returns d(x). x and grad must have the training dimension, or Gradient
// panics.
func (m *Model) Gradient(x, grad []float64) float64 {
	m.checkDim(x)
	if len(grad) != len(x) {
		panic(fmt.Sprintf("svm: Gradient: len(grad) = %d, len(x) = %d", len(grad), len(x)))
	}
	clear(grad)
	d := m.b
	for i, sv := range m.sv {
		kc := m.coef[i] * rbf(sv, x, m.gamma)
		d += kc
		for k := range x {
			grad[k] -= 2 * m.gamma * (x[k] - sv[k]) * kc
		}
	}
	return d
}

// Predict returns +1 where Decision(x) > 0 and −1 elsewhere, as LIBSVM does
// with the positive class listed first.
func (m *Model) Predict(x []float64) int {
	if m.Decision(x) > 0 {
		return 1
	}
	return -1
}

// SupportVectors returns copies of the support vectors (the training points
// with α_i > 0) in training order.
func (m *Model) SupportVectors() [][]float64 {
	out := make([][]float64, len(m.sv))
	for i, sv := range m.sv {
		out[i] = append([]float64(nil), sv...)
	}
	return out
}

// DualCoef returns α_i y_i of each support vector, in the order of
// SupportVectors (scikit-learn's dual_coef_).
func (m *Model) DualCoef() []float64 { return append([]float64(nil), m.coef...) }

// Intercept returns the bias b of d(x) (−ρ in LIBSVM, scikit-learn's
// intercept_).
func (m *Model) Intercept() float64 { return m.b }

// Settings returns the settings used, with the defaults filled in (Gamma is
// the resolved γ).
func (m *Model) Settings() Settings { return m.set }

// Dim returns the input dimension d.
func (m *Model) Dim() int { return m.dim }

// Iterations returns the number of SMO iterations run.
func (m *Model) Iterations() int { return m.iter }

// Converged reports whether SMO met its stopping rule before MaxIter. A model
// that did not converge is still usable, but its α may violate the KKT
// conditions by more than Tol.
func (m *Model) Converged() bool { return m.conv }

func (m *Model) checkDim(x []float64) {
	if len(x) != m.dim {
		panic(fmt.Sprintf("svm: input has dimension %d, the model %d", len(x), m.dim))
	}
}
