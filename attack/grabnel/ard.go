package grabnel

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// ARD settings: the defaults of scikit-learn's ARDRegression, which the
// reference code uses (spec §2.3, Decision).
const (
	ardA1        = 1e-6 // λ's Gamma prior (scikit-learn's lambda_1, lambda_2)
	ardA2        = 1e-6
	ardB1        = 1e-6 // α's Gamma prior (alpha_1, alpha_2)
	ardB2        = 1e-6
	ardThreshold = 1e4  // threshold_lambda: a feature with λ ≥ it is pruned
	ardTol       = 1e-3 // stop when Σ|m − m_old| < tol
	ardMaxIter   = 300
)

// ard is an ARD Bayesian linear regression (Wipf et al. 2007) fitted by
// evidence maximisation [000 Eqs. 6.11–6.13; spec §2.3]:
// y | Φ, w, α ~ N(Φw, α⁻¹I), w | λ ~ N(0, diag(λ)⁻¹). As scikit-learn's
// ARDRegression (fit_intercept), the columns of Φ and y are centred, and the
// intercept is the mean of y less the mean of Φ times the weights.
type ard struct {
	keep   []int         // the features kept (λ_i below the threshold), ascending
	w      []float64     // m, the posterior mean of the weights; zero where pruned
	sigma  *mat.SymDense // Σ over keep
	alpha  float64       // α, the noise precision
	lambda []float64     // λ_i
	xMean  []float64     // the column means of Φ
	yMean  float64
	iters  int // fixed-point iterations run
}

// fitARD fits the regression of y on the rows of x (n rows of d features).
func fitARD(x [][]float64, y []float64) *ard {
	n, d := len(x), 0
	if n > 0 {
		d = len(x[0])
	}
	a := &ard{w: make([]float64, d), lambda: make([]float64, d), xMean: make([]float64, d)}
	// Centre Φ and y (scikit-learn's _preprocess_data with fit_intercept).
	for _, row := range x {
		for j, v := range row {
			a.xMean[j] += v / float64(n)
		}
	}
	for _, v := range y {
		a.yMean += v / float64(n)
	}
	xc := mat.NewDense(max(n, 1), max(d, 1), nil)
	yc := make([]float64, n)
	varY := 0.0
	for i, row := range x {
		for j, v := range row {
			xc.Set(i, j, v-a.xMean[j])
		}
		yc[i] = y[i] - a.yMean
		varY += yc[i] * yc[i] / float64(n)
	}
	if n == 0 || d == 0 {
		a.alpha = 1
		return a
	}
	// ΦᵀΦ and Φᵀy once; each iteration takes the rows and columns it keeps.
	var gram mat.SymDense
	gram.SymOuterK(1, xc.T())
	xty := make([]float64, d)
	for j := range d {
		for i := range n {
			xty[j] += xc.At(i, j) * yc[i]
		}
	}

	// Start: α = 1/Var(y) (eps added as scikit-learn does), λ_i = 1.
	a.alpha = 1 / (varY + 2.220446049250313e-16)
	for j := range a.lambda {
		a.lambda[j] = 1
	}
	a.keep = make([]int, d)
	for j := range a.keep {
		a.keep[j] = j
	}
	old := make([]float64, d)
	for it := range ardMaxIter {
		a.iters = it + 1
		a.posterior(xc, &gram, xty)
		// Step 2–3: γ_i = 1 − λ_i Σ_ii, then the λ and α updates, with the
		// residual of the current mean.
		rss := 0.0
		for i := range n {
			r := yc[i]
			for _, j := range a.keep {
				r -= xc.At(i, j) * a.w[j]
			}
			rss += r * r
		}
		sumGamma := 0.0
		for k, j := range a.keep {
			g := 1 - a.lambda[j]*a.sigma.At(k, k)
			sumGamma += g
			a.lambda[j] = (g + 2*ardA1) / (a.w[j]*a.w[j] + 2*ardA2)
		}
		a.alpha = (float64(n) - sumGamma + 2*ardB1) / (rss + 2*ardB2)
		// Step 4: prune; a pruned feature's λ is no longer updated, so it
		// stays pruned.
		kept := a.keep[:0]
		for _, j := range a.keep {
			if a.lambda[j] < ardThreshold {
				kept = append(kept, j)
			} else {
				a.w[j] = 0
			}
		}
		a.keep = kept
		change := 0.0
		for j := range a.w {
			change += math.Abs(a.w[j] - old[j])
		}
		if it > 0 && change < ardTol {
			break
		}
		copy(old, a.w)
		if len(a.keep) == 0 {
			break
		}
	}
	// Σ and m from the last α and λ, as scikit-learn ends.
	a.posterior(xc, &gram, xty)
	return a
}

// posterior sets Σ = (αΦᵀΦ + diag(λ))⁻¹ and m = αΣΦᵀy over the kept
// features (step 1). As scikit-learn, it inverts the k × k precision when
// there are at least as many observations as kept features, else the n × n
// matrix of the Woodbury identity, Σ = Λ⁻¹ − Λ⁻¹Φᵀ(I/α + ΦΛ⁻¹Φᵀ)⁻¹ΦΛ⁻¹:
// once the fit interpolates, α is huge and the k × k precision
// numerically singular.
func (a *ard) posterior(xc *mat.Dense, gram *mat.SymDense, xty []float64) {
	k := len(a.keep)
	if k == 0 {
		a.sigma = nil
		return
	}
	n, _ := xc.Dims()
	if n >= k {
		prec := mat.NewSymDense(k, nil)
		for p, i := range a.keep {
			for q := p; q < k; q++ {
				v := a.alpha * gram.At(i, a.keep[q])
				if p == q {
					v += a.lambda[i]
				}
				prec.SetSym(p, q, v)
			}
		}
		a.sigma = inverse(prec)
	} else {
		b := mat.NewDense(n, k, nil)    // ΦΛ⁻¹
		half := mat.NewDense(n, k, nil) // ΦΛ^{−1/2}
		for i := range n {
			for p, j := range a.keep {
				v := xc.At(i, j)
				b.Set(i, p, v/a.lambda[j])
				half.Set(i, p, v/math.Sqrt(a.lambda[j]))
			}
		}
		m := mat.NewSymDense(n, nil) // I/α + ΦΛ⁻¹Φᵀ
		m.SymOuterK(1, half)
		for i := range n {
			m.SetSym(i, i, m.At(i, i)+1/a.alpha)
		}
		var c, bc mat.Dense
		c.Mul(inverse(m), b)
		bc.Mul(b.T(), &c)
		a.sigma = mat.NewSymDense(k, nil)
		for p, i := range a.keep {
			for q := p; q < k; q++ {
				v := -bc.At(p, q)
				if p == q {
					v += 1 / a.lambda[i]
				}
				a.sigma.SetSym(p, q, v)
			}
		}
	}
	for p, i := range a.keep {
		s := 0.0
		for q, j := range a.keep {
			s += a.sigma.At(p, q) * xty[j]
		}
		a.w[i] = a.alpha * s
	}
}

// inverse returns the inverse of the symmetric positive definite s by a
// Cholesky factorisation. Should rounding make s indefinite (a precision
// whose α is huge on linearly dependent features: WL counts of one level
// sum to N), the diagonal is raised by 1e-12, then 1e-10, …, 1e-6 times
// its largest entry; a last failure takes the pseudo-inverse (scikit-learn
// uses pinvh throughout).
func inverse(s *mat.SymDense) *mat.SymDense {
	k := s.SymmetricDim()
	inv := mat.NewSymDense(k, nil)
	var ch mat.Cholesky
	if ch.Factorize(s) && ch.InverseTo(inv) == nil {
		return inv
	}
	top := 0.0
	for i := range k {
		top = max(top, s.At(i, i))
	}
	for jitter := 1e-12; jitter <= 1e-6; jitter *= 100 {
		t := mat.NewSymDense(k, nil)
		t.CopySym(s)
		for i := range k {
			t.SetSym(i, i, t.At(i, i)+jitter*top)
		}
		if ch.Factorize(t) && ch.InverseTo(inv) == nil {
			return inv
		}
	}
	pinv(s, inv)
	return inv
}

// pinv writes the pseudo-inverse of the symmetric s into dst, dropping
// eigenvalues below a relative tolerance.
func pinv(s, dst *mat.SymDense) {
	var eig mat.EigenSym
	eig.Factorize(s, true)
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	top := 0.0
	for _, v := range vals {
		top = max(top, math.Abs(v))
	}
	tol := top * float64(len(vals)) * 2.220446049250313e-16
	n := len(vals)
	for p := range n {
		for q := p; q < n; q++ {
			s := 0.0
			for l, v := range vals {
				if v > tol {
					s += vecs.At(p, l) * vecs.At(q, l) / v
				}
			}
			dst.SetSym(p, q, s)
		}
	}
}

// predict returns the posterior mean of y at the features phi and the
// latent variance φᵀΣφ of the centred φ, without the noise 1/α (spec
// §2.3, Decision: EI on the latent). Features beyond the fitted ones are
// ignored.
func (a *ard) predict(phi []float64) (mean, variance float64) {
	mean = a.yMean
	c := make([]float64, len(a.keep))
	for p, j := range a.keep {
		if j < len(phi) {
			c[p] = phi[j] - a.xMean[j]
		} else {
			c[p] = -a.xMean[j]
		}
		mean += c[p] * a.w[j]
	}
	for p := range c {
		s := 0.0
		for q := range c {
			s += a.sigma.At(p, q) * c[q]
		}
		variance += c[p] * s
	}
	return mean, max(variance, 0)
}
