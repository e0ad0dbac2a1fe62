package entropy

import (
	"math"
	"sync"
)

const (
	// memeJitter is added to the dual's Hessian [000 Alg. 15, line 5].
	memeJitter = 1e-8
	// memeGradTol ends Newton's iteration when every moment matches to it
	// [000 Alg. 15, line 6: "until ∀j: g_j < ε"].
	memeGradTol = 1e-10
	memeMaxIter = 200
	// memeHalfWidth is the truncation of the mixture to mean ± 6 sd
	// before it is rescaled to [0, 1] (spec Corrections, MEMe).
	memeHalfWidth = 6
	// memePanels × 8 Gauss–Legendre nodes integrate the maximum-entropy
	// density on [0, 1].
	memePanels = 32
)

// MEMe returns the maximum-entropy estimate of H[q] from m moments
// [000 App. A.2, Alg. 15–16; spec §5.5] (Granziol et al. 2019). The
// mixture is truncated to its mean ± 6 sd and rescaled to z ∈ [0, 1]
// (spec Corrections); its first m moments there, γ_i = E[P_i(z)] (shifted
// Legendre polynomials P_i when legendre, else powers z^i; γ_0 = 1), are
// computed per component (Eqs. A.1–A.3 give them on the whole line; here
// they are truncated integrals, see componentMoments). The density
// p_α(z) = exp(−[1 + Σ_{i=0}^m α_i P_i(z)]) with the same moments
// minimises the convex dual ∫_0^1 p_α dz + Σ α_i γ_i (Eq. A.6), solved by
// Newton's method with the analytic gradient and Hessian (Eqs. A.7–A.8,
// jitter 1e-8) and a backtracking line search, and
//
//	H ≈ 1 + Σ_i α_i γ_i + log(scale)
//
// (Eq. A.11 — Alg. 16 line 5 prints its negative, spec Corrections — plus
// the log-Jacobian of the rescaling y = lo + scale·z), which bounds the
// truncated mixture's entropy from above (Eq. A.10). MEMeL-10 (m = 10,
// legendre) is the recommended setting [000 App. A.2.4].
func (q Mixture) MEMe(m int, legendre bool) float64 {
	if m < 1 {
		panic("entropy: MEMe needs m ≥ 1 moments")
	}
	w := q.weights()
	mean, v := q.Moments()
	sd := math.Sqrt(v)
	lo, scale := mean-memeHalfWidth*sd, 2*memeHalfWidth*sd
	gamma := make([]float64, m+1)
	part := make([]float64, m+1)
	var mass float64
	for j, mu := range q.Mean {
		componentMoments((mu-lo)/scale, math.Sqrt(q.Var[j])/scale, legendre, part)
		mass += w[j] * part[0]
		for i := range gamma {
			gamma[i] += w[j] * part[i]
		}
	}
	for i := range gamma {
		gamma[i] /= mass
	}
	alpha := maxEntDual(gamma, legendre)
	h := 1.0
	for i, a := range alpha {
		h += a * gamma[i]
	}
	return h + math.Log(scale)
}

// basis writes P_0(z)..P_m(z) into out (len m+1): shifted Legendre
// polynomials P_i(z) = L_i(2z − 1) by their three-term recurrence, or
// powers.
func basis(z float64, legendre bool, out []float64) {
	out[0] = 1
	if len(out) == 1 {
		return
	}
	if !legendre {
		for i := 1; i < len(out); i++ {
			out[i] = out[i-1] * z
		}
		return
	}
	t := 2*z - 1
	out[1] = t
	for n := 1; n+1 < len(out); n++ {
		out[n+1] = (float64(2*n+1)*t*out[n] - float64(n)*out[n-1]) / float64(n+1)
	}
}

// componentMoments writes ∫_0^1 P_i(z) N(z; μ, s²) dz, i = 0..m, into out,
// the component's moments on the truncated support. The integrals are
// taken by composite Gauss–Legendre quadrature over the part of [0, 1]
// within μ ± 12s (16 panels of 16 nodes: exact to round-off for these
// polynomial-times-Gaussian integrands). The three-term recurrence that
// integration by parts gives (zφ = μφ − s²φ') is exact in exact arithmetic
// but loses a factor of about e per order in floating point, 1e-7 by
// order 30, which is why it is not used.
func componentMoments(mu, s float64, legendre bool, out []float64) {
	clear(out)
	a, b := max(0, mu-12*s), min(1, mu+12*s)
	if !(a < b) {
		return
	}
	x, wx := gaussLegendre16()
	const panels = 16
	h := (b - a) / panels
	c := 1 / (s * math.Sqrt(2*math.Pi))
	p := make([]float64, len(out))
	for k := range panels {
		for i := range x {
			z := a + h*(float64(k)+0.5*(x[i]+1))
			r := (z - mu) / s
			d := 0.5 * h * wx[i] * c * math.Exp(-0.5*r*r)
			basis(z, legendre, p)
			for n := range out {
				out[n] += d * p[n]
			}
		}
	}
}

var (
	gl16Once     sync.Once
	gl16X, gl16W []float64
)

func gaussLegendre16() (x, w []float64) {
	gl16Once.Do(func() { gl16X, gl16W = gaussLegendre(16) })
	return gl16X, gl16W
}

// maxEntDual minimises D(α) = ∫_0^1 p_α + Σ α_i γ_i, p_α = exp(−1 − Σ α_i P_i),
// by damped Newton steps [000 Alg. 15, Eqs. A.6–A.8], from α = 0.
func maxEntDual(gamma []float64, legendre bool) []float64 {
	k := len(gamma)
	nodes, wts := memeNodes()
	// The basis at every node, once.
	P := make([][]float64, len(nodes))
	for i, z := range nodes {
		P[i] = make([]float64, k)
		basis(z, legendre, P[i])
	}
	alpha, trial := make([]float64, k), make([]float64, k)
	g, step := make([]float64, k), make([]float64, k)
	H := make([]float64, k*k)
	pw := make([]float64, len(nodes))
	dual := func(a []float64) float64 {
		var s float64
		for i := range nodes {
			e := -1.0
			for c, x := range a {
				e -= x * P[i][c]
			}
			pw[i] = wts[i] * math.Exp(e)
			s += pw[i]
		}
		for c, x := range a {
			s += x * gamma[c]
		}
		return s
	}
	d := dual(alpha)
	for range memeMaxIter {
		// pw holds the weighted density at alpha (set by the last dual call).
		copy(g, gamma)
		clear(H)
		for i, p := range P {
			for c := range k {
				g[c] -= pw[i] * p[c]
				for e := c; e < k; e++ {
					H[c*k+e] += pw[i] * p[c] * p[e]
				}
			}
		}
		worst := 0.0
		for _, x := range g {
			worst = max(worst, math.Abs(x))
		}
		if worst < memeGradTol {
			break
		}
		for c := range k {
			H[c*k+c] += memeJitter
			for e := 0; e < c; e++ {
				H[c*k+e] = H[e*k+c]
			}
		}
		copy(step, g)
		if !cholSolve(H, k, step) {
			break
		}
		t, moved := 1.0, false
		for range 60 {
			for c := range alpha {
				trial[c] = alpha[c] - t*step[c]
			}
			var slope float64
			for c := range g {
				slope += g[c] * step[c]
			}
			if dt := dual(trial); dt <= d-1e-4*t*slope {
				copy(alpha, trial)
				d, moved = dt, true
				break
			}
			t /= 2
		}
		if !moved {
			dual(alpha) // restore pw
			break
		}
	}
	return alpha
}

// cholSolve solves A x = b in place of b for the symmetric positive
// definite k×k matrix A (row-major, overwritten by its Cholesky factor);
// false when A is not positive definite.
func cholSolve(A []float64, k int, b []float64) bool {
	for j := range k {
		s := A[j*k+j]
		for p := range j {
			s -= A[j*k+p] * A[j*k+p]
		}
		if !(s > 0) {
			return false
		}
		l := math.Sqrt(s)
		A[j*k+j] = l
		for i := j + 1; i < k; i++ {
			t := A[i*k+j]
			for p := range j {
				t -= A[i*k+p] * A[j*k+p]
			}
			A[i*k+j] = t / l
		}
	}
	for i := range k {
		s := b[i]
		for p := range i {
			s -= A[i*k+p] * b[p]
		}
		b[i] = s / A[i*k+i]
	}
	for i := k - 1; i >= 0; i-- {
		s := b[i]
		for p := i + 1; p < k; p++ {
			s -= A[p*k+i] * b[p]
		}
		b[i] = s / A[i*k+i]
	}
	return true
}

var (
	memeOnce           sync.Once
	memeZ, memeWeights []float64
)

// memeNodes returns composite Gauss–Legendre nodes and weights on [0, 1]:
// memePanels panels of 8 nodes each.
func memeNodes() (z, w []float64) {
	memeOnce.Do(func() {
		x, wx := gaussLegendre(8)
		h := 1 / float64(memePanels)
		for p := range memePanels {
			for i := range x {
				memeZ = append(memeZ, h*(float64(p)+0.5*(x[i]+1)))
				memeWeights = append(memeWeights, 0.5*h*wx[i])
			}
		}
	})
	return memeZ, memeWeights
}

// gaussLegendre returns the n Gauss–Legendre nodes and weights on [−1, 1],
// the roots of L_n by Newton's method from Chebyshev-like starts.
func gaussLegendre(n int) (x, w []float64) {
	x, w = make([]float64, n), make([]float64, n)
	for i := range n {
		r := math.Cos(math.Pi * (float64(i) + 0.75) / (float64(n) + 0.5))
		var dp float64
		for range 100 {
			p0, p1 := 1.0, r
			for k := 2; k <= n; k++ {
				p0, p1 = p1, (float64(2*k-1)*r*p1-float64(k-1)*p0)/float64(k)
			}
			dp = float64(n) * (r*p1 - p0) / (r*r - 1)
			dr := p1 / dp
			r -= dr
			if math.Abs(dr) < 1e-16 {
				break
			}
		}
		x[i] = r
		w[i] = 2 / ((1 - r*r) * dp * dp)
	}
	return x, w
}
