package svm

import "math"

// tau floors a_it = K_ii + K_tt − 2K_it, which is 0 for duplicate points, so
// that the two-variable step stays finite (spec constrained-autotinyml §4.1;
// Fan et al. 2005).
const tau = 1e-12

// solution is the SMO result: α, ρ (d(x) = Σ α_i y_i k(x_i, x) − ρ) and how the
// iterations ended.
type solution struct {
	alpha     []float64
	rho       float64
	iter      int
	converged bool
}

// solve minimises ½ αᵀQα − 1ᵀα subject to yᵀα = 0 and 0 ≤ α ≤ C, with
// Q_ij = y_i y_j K_ij (K row-major n×n, y ∈ {±1}ⁿ), by SMO with second-order
// working-set selection, as LIBSVM's Solver does without shrinking (Chang &
// Lin 2011). It starts from α = 0, where the gradient ∇f = Qα − 1 is −1.
func solve(K, y []float64, C, eps float64, maxIter int) solution {
	n := len(y)
	alpha := make([]float64, n)
	G := make([]float64, n) // ∇f(α) = Qα − 1
	for i := range G {
		G[i] = -1
	}
	q := func(i, j int) float64 { return y[i] * y[j] * K[i*n+j] }

	iter, converged := 0, false
	for ; iter < maxIter; iter++ {
		i, j := selectPair(K, y, alpha, G, C, eps)
		if i < 0 {
			converged = true
			break
		}
		oldI, oldJ := alpha[i], alpha[j]
		// The two-variable subproblem along yᵀα = 0 is a one-dimensional
		// quadratic; LIBSVM's closed-form step and clipping to the box
		// follow, written separately for y_i ≠ y_j (α_i − α_j constant) and
		// y_i = y_j (α_i + α_j constant).
		if y[i] != y[j] {
			quad := math.Max(q(i, i)+q(j, j)+2*q(i, j), tau)
			delta := (-G[i] - G[j]) / quad
			diff := alpha[i] - alpha[j]
			alpha[i] += delta
			alpha[j] += delta
			if diff > 0 {
				if alpha[j] < 0 {
					alpha[j], alpha[i] = 0, diff
				}
			} else if alpha[i] < 0 {
				alpha[i], alpha[j] = 0, -diff
			}
			// Both bounds are C, so LIBSVM's "diff > C_i − C_j" is diff > 0.
			if diff > 0 {
				if alpha[i] > C {
					alpha[i], alpha[j] = C, C-diff
				}
			} else if alpha[j] > C {
				alpha[j], alpha[i] = C, C+diff
			}
		} else {
			quad := math.Max(q(i, i)+q(j, j)-2*q(i, j), tau)
			delta := (G[i] - G[j]) / quad
			sum := alpha[i] + alpha[j]
			alpha[i] -= delta
			alpha[j] += delta
			if sum > C {
				if alpha[i] > C {
					alpha[i], alpha[j] = C, sum-C
				}
			} else if alpha[j] < 0 {
				alpha[j], alpha[i] = 0, sum
			}
			if sum > C {
				if alpha[j] > C {
					alpha[j], alpha[i] = C, sum-C
				}
			} else if alpha[i] < 0 {
				alpha[i], alpha[j] = 0, sum
			}
		}
		dI, dJ := alpha[i]-oldI, alpha[j]-oldJ
		for k := range n {
			G[k] += q(k, i)*dI + q(k, j)*dJ
		}
	}
	return solution{alpha: alpha, rho: rho(y, alpha, G, C), iter: iter, converged: converged}
}

// upper reports whether t ∈ I_up, the indices whose y_t α_t may increase:
// {α_t < C, y_t = +1} ∪ {α_t > 0, y_t = −1}.
func upper(y, alpha, C float64) bool {
	if y > 0 {
		return alpha < C
	}
	return alpha > 0
}

// lower reports whether t ∈ I_low, the indices whose y_t α_t may decrease:
// {α_t < C, y_t = −1} ∪ {α_t > 0, y_t = +1}.
func lower(y, alpha, C float64) bool {
	if y > 0 {
		return alpha > 0
	}
	return alpha < C
}

// selectPair is the second-order working-set selection of spec
// constrained-autotinyml §4.1 (Fan et al. 2005):
//
//	i = argmax_{t∈I_up} −y_t∇f_t,
//	j = argmin_{t∈I_low, −y_t∇f_t < −y_i∇f_i} −b_it²/a_it,
//	a_it = max(K_ii + K_tt − 2K_it, τ),  b_it = −y_i∇f_i + y_t∇f_t.
//
// It returns (−1, −1) when max_{I_up}(−y∇f) − min_{I_low}(−y∇f) ≤ ε, the
// stopping rule, or when no j qualifies. Ties go to the last index, as in
// LIBSVM, which scans with >= and <=.
func selectPair(K, y, alpha, G []float64, C, eps float64) (int, int) {
	n := len(y)
	gmax, i := math.Inf(-1), -1
	for t := range n {
		if upper(y[t], alpha[t], C) {
			if v := -y[t] * G[t]; v >= gmax {
				gmax, i = v, t
			}
		}
	}
	if i < 0 {
		return -1, -1
	}
	// gmin tracks min_{I_low}(−y∇f) over all of I_low for the stopping rule;
	// j only over the t that violate with i (b_it > 0).
	gmin, objMin, j := math.Inf(1), math.Inf(1), -1
	for t := range n {
		if !lower(y[t], alpha[t], C) {
			continue
		}
		v := -y[t] * G[t]
		gmin = math.Min(gmin, v)
		b := gmax - v
		if b > 0 {
			a := math.Max(K[i*n+i]+K[t*n+t]-2*K[i*n+t], tau)
			if obj := -b * b / a; obj <= objMin {
				objMin, j = obj, t
			}
		}
	}
	if gmax-gmin <= eps || j < 0 {
		return -1, -1
	}
	return i, j
}

// rho is LIBSVM's ρ (d(x) = Σ α_i y_i k(x_i, x) − ρ): the average of y_i∇f_i
// over the free α_i, or, when none is free, the midpoint of the interval
// [lb, ub] in which the KKT conditions at the bounds hold
// (spec constrained-autotinyml §4.1).
func rho(y, alpha, G []float64, C float64) float64 {
	ub, lb := math.Inf(1), math.Inf(-1)
	var sum float64
	var free int
	for t := range y {
		yg := y[t] * G[t]
		switch {
		case alpha[t] >= C:
			if y[t] < 0 {
				ub = math.Min(ub, yg)
			} else {
				lb = math.Max(lb, yg)
			}
		case alpha[t] <= 0:
			if y[t] > 0 {
				ub = math.Min(ub, yg)
			} else {
				lb = math.Max(lb, yg)
			}
		default:
			free++
			sum += yg
		}
	}
	if free > 0 {
		return sum / float64(free)
	}
	return (ub + lb) / 2
}
