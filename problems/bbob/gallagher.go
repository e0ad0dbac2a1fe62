package bbob

import (
	"math"
	"sort"
)

// gallagher holds the peaks of f21 (101 peaks) and f22 (21 peaks): in the
// rotated coordinates R x, peak i sits at loc[i], has height w[i] and the
// axis scales c[i] (both row-major, peaks × d).
type gallagher struct {
	n     int
	rot   []float64
	w     []float64
	loc   []float64
	scale []float64
}

// argsort returns the indices that sort v ascending. The legacy code uses
// qsort on (value, index) pairs; the values are distinct uniforms, so any
// correct sort gives the same permutation.
func argsort(v []float64) []int {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	return idx
}

// buildGallagher returns the builder of Gallagher's Gaussian peaks function
// with n = 101 (f21) or 21 (f22) peaks (Hansen et al. 2009, f21/f22):
// f = T_osz(10 − max_i w_i exp(−1/(2d) (z − y_i)ᵀ C_i (z − y_i)))² + f_pen(x),
// z = R x. Peak 0 is the global one (height 10); the other heights are
// spread evenly over [1.1, 9.1]. Each C_i is diagonal with condition α_i
// (peak 0: √1000 for f21, 1000 for f22; the others 1000^(k/(n−2)) for a
// random permutation k) and its axis exponents in random order.
func buildGallagher(n int) builder {
	return func(f *Function, rseed int64) {
		d := f.Dim
		b, c, cond0 := 10.0, 5.0, math.Sqrt(1000)
		if n == 21 {
			b, c, cond0 = 9.8, 4.9, 1000
		}
		g := &gallagher{
			n:     n,
			rot:   rotation(d, rseed),
			w:     make([]float64, n),
			loc:   make([]float64, n*d),
			scale: make([]float64, n*d),
		}
		perm := argsort(uniform(n-1, rseed))
		cond := make([]float64, n)
		cond[0] = cond0
		g.w[0] = 10
		for i := 1; i < n; i++ {
			cond[i] = math.Pow(1000, float64(perm[i-1])/float64(n-2))
			g.w[i] = float64(i-1)/float64(n-2)*(9.1-1.1) + 1.1
		}
		for i := range n {
			p := argsort(uniform(d, rseed+int64(1000*i)))
			for j := range d {
				g.scale[i*d+j] = math.Pow(cond[i], float64(p[j])/float64(d-1)-0.5)
			}
		}
		u := uniform(d*n, rseed)
		f.xopt = make([]float64, d)
		for k := range d {
			f.xopt[k] = 0.8 * (b*u[k] - c)
		}
		y := make([]float64, d)
		for i := range n {
			for k := range d {
				y[k] = b*u[i*d+k] - c
			}
			if i == 0 {
				// The legacy code scales R·y by 0.8; rotating x_opt itself
				// instead (equal up to rounding) makes Eval(XOpt) hit the
				// peak exactly, so that f(x_opt) == f_opt.
				copy(y, f.xopt)
			}
			mulVec(g.loc[i*d:i*d+d], g.rot, y)
		}
		f.gal = g
		f.eval = evalGallagher
	}
}

func evalGallagher(f *Function, x, s []float64) float64 {
	g := f.gal
	d := f.Dim
	z, _, _ := bufs(s, d)
	mulVec(z, g.rot, x)
	fac := -0.5 / float64(d)
	var best float64
	for i := range g.n {
		loc := g.loc[i*d : i*d+d]
		sc := g.scale[i*d : i*d+d]
		var q float64
		for j, v := range z {
			t := v - loc[j]
			q += sc[j] * t * t
		}
		best = math.Max(best, g.w[i]*math.Exp(fac*q))
	}
	t := tosz(10 - best)
	return t*t + penalty(x) + f.FOpt
}
