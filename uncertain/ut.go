package uncertain

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// UT is the scaled unscented transform in the standard form of Wan and
// van der Merwe (spec uncertain-inputs §5.2, Decision), which is
// [002 §3.5.2, Eqs. 3.45–3.50] with the simplex k = κ and the extra
// covariance term's coefficient corrected to 1 − α² + β (the printed
// W_s^(0) + 1 − α² + β double-counts W_s^(0)):
//
//	λ = α²(d + κ) − d
//	a^(0) = â,  a^(j) = â + (√((d + λ)Σ))_j,  a^(j+d) = â − (√((d + λ)Σ))_j
//	W_m^(0) = λ/(d + λ),  W_c^(0) = W_m^(0) + (1 − α² + β),
//	W^(i) = W_m^(i) = W_c^(i) = 1/(2(d + λ)),  i = 1…2d,
//
// with (√·)_j the j-th column of the lower Cholesky factor. There is no
// option for the thesis's double α-scaling (spec Corrections: with
// α_eff = 1e-6 float64 cancellation destroys it).
//
// The zero value means the chapter's parameters, α = 1e-3, β = 2, κ = 0
// [002 §3.5.2, after Eq. 3.51; Fisher 2009].
type UT struct {
	Alpha, Beta, Kappa float64
}

// DefaultUT returns the chapter's parameters α = 1e-3, β = 2, κ = 0.
func DefaultUT() UT { return UT{Alpha: 1e-3, Beta: 2, Kappa: 0} }

func (u UT) params() UT {
	if u == (UT{}) {
		return DefaultUT()
	}
	return u
}

// Check reports whether the parameters define a transform for dimension d:
// α > 0 and d + κ > 0 (so that d + λ = α²(d + κ) > 0).
func (u UT) Check(d int) error {
	u = u.params()
	if d < 1 {
		return fmt.Errorf("uncertain: unscented transform of dimension %d < 1", d)
	}
	if !(u.Alpha > 0) || math.IsInf(u.Alpha, 0) {
		return fmt.Errorf("uncertain: unscented transform α = %v must be finite and > 0", u.Alpha)
	}
	if math.IsNaN(u.Beta) || math.IsInf(u.Beta, 0) || !(float64(d)+u.Kappa > 0) || math.IsInf(u.Kappa, 0) {
		return fmt.Errorf("uncertain: unscented transform β = %v, κ = %v: need finite β and d + κ > 0 (d = %d)", u.Beta, u.Kappa, d)
	}
	return nil
}

// Lambda returns λ = α²(d + κ) − d.
func (u UT) Lambda(d int) float64 {
	u = u.params()
	return u.Alpha*u.Alpha*(float64(d)+u.Kappa) - float64(d)
}

// Weights returns W_m^(0), W_c^(0) and the common weight W^(i) of the 2d
// other sigma points, for dimension d.
func (u UT) Weights(d int) (wm0, wc0, w float64) {
	u = u.params()
	dl := u.Alpha * u.Alpha * (float64(d) + u.Kappa) // d + λ, without cancellation
	wm0 = u.Lambda(d) / dl
	return wm0, wm0 + u.extra(), 1 / (2 * dl)
}

// extra is the coefficient 1 − α² + β that W_c^(0) adds to W_m^(0).
func (u UT) extra() float64 { return 1 - u.Alpha*u.Alpha + u.Beta }

// scale returns √(d + λ) = α√(d + κ).
func (u UT) scale(d int) float64 {
	u = u.params()
	return u.Alpha * math.Sqrt(float64(d)+u.Kappa)
}

// Offsets returns the 2d sigma-point offsets a^(i) − â for covariance cov
// (d × d, positive definite): +√(d + λ)·L_j for j = 1…d, then −√(d + λ)·L_j,
// L the lower Cholesky factor of cov [002 §3.5.1, Eqs. 3.41–3.42].
func (u UT) Offsets(cov mat.Symmetric) ([][]float64, error) {
	d := cov.SymmetricDim()
	if err := u.Check(d); err != nil {
		return nil, err
	}
	var ch mat.Cholesky
	if !ch.Factorize(cov) {
		return nil, errors.New("uncertain: unscented transform: covariance is not positive definite")
	}
	var l mat.TriDense
	ch.LTo(&l)
	c := u.scale(d)
	out := make([][]float64, 2*d)
	for j := 0; j < d; j++ {
		p, m := make([]float64, d), make([]float64, d)
		for r := j; r < d; r++ {
			p[r], m[r] = c*l.At(r, j), -c*l.At(r, j)
		}
		out[j], out[j+d] = p, m
	}
	return out, nil
}

// DiagOffsets is Offsets for the diagonal covariance diag(sd²): the
// Cholesky factor is diag(sd), so the offsets are ±√(d + λ)·sd_j·e_j. A zero
// sd_j (a noise-free input) gives a zero offset, which Offsets would refuse
// as singular; the transform is then exact along that input. It panics if
// the parameters are invalid for d = len(sd) (see Check).
func (u UT) DiagOffsets(sd []float64) [][]float64 {
	d := len(sd)
	if err := u.Check(d); err != nil {
		panic(err)
	}
	c := u.scale(d)
	out := make([][]float64, 2*d)
	for j, s := range sd {
		p, m := make([]float64, d), make([]float64, d)
		p[j], m[j] = c*s, -c*s
		out[j], out[j+d] = p, m
	}
	return out
}

// SigmaPoints returns the 2d + 1 sigma points of N(mean, cov): â first, then
// â + Offsets(cov)[i].
func (u UT) SigmaPoints(mean []float64, cov mat.Symmetric) ([][]float64, error) {
	if len(mean) != cov.SymmetricDim() {
		return nil, fmt.Errorf("uncertain: mean of dimension %d, covariance %d", len(mean), cov.SymmetricDim())
	}
	off, err := u.Offsets(cov)
	if err != nil {
		return nil, err
	}
	pts := [][]float64{append([]float64(nil), mean...)}
	for _, s := range off {
		p := make([]float64, len(mean))
		for j := range p {
			p[j] = mean[j] + s[j]
		}
		pts = append(pts, p)
	}
	return pts, nil
}

// spread returns, for outputs b0 = g(a^(0)) and b[i−1] = g(a^(i)), the
// differences form of the transform (spec Corrections, "Stable UT
// numerics"): m = Σ_{i≥1} W δ_i and q = Σ_{i≥1} W δ_i² − m², δ_i = b_i − b_0.
// The mean is b_0 + m (Σ W_m = 1) and the variance q + (1 − α² + β)m². The
// textbook Σ W_m b_i is never formed: with α = 1e-3 its W_m^(0) ≈ −10⁶
// cancels against the other weights and loses six digits.
func spread(w, b0 float64, b []float64) (m, q float64) {
	var s2 float64
	for _, bi := range b {
		delta := bi - b0
		m += w * delta
		s2 += w * delta * delta
	}
	return m, s2 - m*m
}

// Moments returns the transform's mean and variance from the outputs of a
// scalar map at the sigma points of a d-dimensional input: b0 at a^(0) and
// b (2d values) at a^(1…2d), in the stable form
//
//	mean = b_0 + m,  variance = Σ_{i≥1} W δ_i² − m² + (1 − α² + β) m².
//
// It equals Σ W_m^(i) b_i and Σ W_c^(i)(b_i − mean)² in exact arithmetic.
func (u UT) Moments(d int, b0 float64, b []float64) (mean, variance float64) {
	if len(b) != 2*d {
		panic(fmt.Sprintf("uncertain: Moments with %d outputs for dimension %d, want %d", len(b), d, 2*d))
	}
	u = u.params()
	_, _, w := u.Weights(d)
	m, q := spread(w, b0, b)
	return b0 + m, q + u.extra()*m*m
}

// Transform returns the unscented estimates of the mean and variance of
// g(a), a ~ N(mean, cov), g: R^d → R. The mean is exact for quadratic g and
// the variance for affine g in any d; the variance of a quadratic is exact
// only for d = 1 (spec Corrections).
func (u UT) Transform(g func(a []float64) float64, mean []float64, cov mat.Symmetric) (m, v float64, err error) {
	pts, err := u.SigmaPoints(mean, cov)
	if err != nil {
		return 0, 0, err
	}
	b := make([]float64, len(pts)-1)
	for i, p := range pts[1:] {
		b[i] = g(p)
	}
	m, v = u.Moments(len(mean), g(pts[0]), b)
	return m, v, nil
}

// TransformVec is Transform for g: R^d → R^k, g(a, dst) writing g(a) into
// dst (len k): the mean and the k × k covariance
// Σ_{i≥1} W δ_i δ_iᵀ − m mᵀ + (1 − α² + β) m mᵀ, δ_i = b_i − b_0,
// m = Σ_{i≥1} W δ_i.
func (u UT) TransformVec(g func(a, dst []float64), k int, mean []float64, cov mat.Symmetric) ([]float64, *mat.SymDense, error) {
	pts, err := u.SigmaPoints(mean, cov)
	if err != nil {
		return nil, nil, err
	}
	u = u.params()
	_, _, w := u.Weights(len(mean))
	b0 := make([]float64, k)
	g(pts[0], b0)
	m := make([]float64, k)
	c := mat.NewSymDense(k, nil)
	bi, delta := make([]float64, k), make([]float64, k)
	for _, p := range pts[1:] {
		g(p, bi)
		for r := range delta {
			delta[r] = bi[r] - b0[r]
			m[r] += w * delta[r]
		}
		c.SymRankOne(c, w, mat.NewVecDense(k, delta))
	}
	// −m mᵀ + (1 − α² + β) m mᵀ.
	c.SymRankOne(c, u.extra()-1, mat.NewVecDense(k, m))
	out := make([]float64, k)
	for r := range out {
		out[r] = b0[r] + m[r]
	}
	return out, c, nil
}
