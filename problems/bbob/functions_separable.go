package bbob

import "math"

// Separable functions f1–f5 (Hansen et al. 2009, §1).

// rastriginCore is 10·(d − Σ cos 2πz_i) + ‖z‖², shared by f3, f4 and f15.
func rastriginCore(z []float64) float64 {
	var c, s float64
	for _, v := range z {
		c += math.Cos(2 * math.Pi * v)
		s += v * v
	}
	return 10*(float64(len(z))-c) + s
}

// ellipsoidWeights returns 10^(6·i/(d−1)), the axis weights of f2 and f10.
func ellipsoidWeights(d int) []float64 {
	w := make([]float64, d)
	for i := range w {
		w[i] = math.Pow(1e6, expo(i, d))
	}
	return w
}

// ellipsoidCore is Σ w_i z_i².
func ellipsoidCore(z, w []float64) float64 {
	var s float64
	for i, v := range z {
		s += w[i] * v * v
	}
	return s
}

// f1: ‖x − x_opt‖² + f_opt.
func buildSphere(f *Function, rseed int64) {
	f.xopt = shiftVector(f.Dim, rseed)
	f.eval = func(f *Function, x, _ []float64) float64 {
		var s float64
		for i, v := range x {
			z := v - f.xopt[i]
			s += z * z
		}
		return s + f.FOpt
	}
}

// f2: separable ellipsoid with condition 10^6 on z = T_osz(x − x_opt).
func buildEllipsoid(f *Function, rseed int64) {
	f.xopt = shiftVector(f.Dim, rseed)
	f.w = ellipsoidWeights(f.Dim)
	f.eval = func(f *Function, x, s []float64) float64 {
		z, _, _ := bufs(s, f.Dim)
		subtract(z, x, f.xopt)
		toszAll(z)
		return ellipsoidCore(z, f.w) + f.FOpt
	}
}

// f3: separable Rastrigin on z = Λ^10 T_asy^0.2(T_osz(x − x_opt)).
func buildRastrigin(f *Function, rseed int64) {
	f.xopt = shiftVector(f.Dim, rseed)
	f.w = lambda(10, f.Dim)
	f.eval = func(f *Function, x, s []float64) float64 {
		z, _, _ := bufs(s, f.Dim)
		subtract(z, x, f.xopt)
		toszAll(z)
		tasy(z, 0.2)
		for i := range z {
			z[i] *= f.w[i]
		}
		return rastriginCore(z) + f.FOpt
	}
}

// f4: Büche–Rastrigin. It uses f3's seed, and the legacy code (not the
// written definition) makes the odd coordinates of x_opt (1-based) positive,
// so that the ×10 stretch of positive odd coordinates keeps the optimum
// inside the box. z_i = s_i·T_osz(x_i − x_opt,i) with s_i = 10^(i/(2(d−1))),
// ×10 more where z_i > 0 and i is odd (1-based); f_pen weight 100.
func buildBuecheRastrigin(f *Function, rseed int64) {
	f.xopt = shiftVector(f.Dim, rseed)
	for i := 0; i < f.Dim; i += 2 {
		f.xopt[i] = math.Abs(f.xopt[i])
	}
	f.w = lambda(10, f.Dim)
	f.eval = func(f *Function, x, s []float64) float64 {
		z, _, _ := bufs(s, f.Dim)
		subtract(z, x, f.xopt)
		for i, v := range z {
			v = tosz(v)
			k := f.w[i]
			if v > 0 && i%2 == 0 {
				k *= 10
			}
			z[i] = k * v
		}
		return rastriginCore(z) + f.FOpt + 100*penalty(x)
	}
}

// f5: linear slope Σ 5|s_i| − s_i z_i with s_i = sign(x_opt,i)·10^(i/(d−1)).
// The optimum is the box corner 5·sign(x_opt); beyond it (x_i·x_opt,i ≥ 25)
// z_i is frozen at x_opt,i so the function stays flat outside the box
// instead of decreasing forever.
func buildLinearSlope(f *Function, rseed int64) {
	raw := shiftVector(f.Dim, rseed)
	f.xopt = make([]float64, f.Dim)
	f.w = make([]float64, f.Dim)
	for i, v := range raw {
		// Legacy sign rule: x_opt,i > 0 is positive, everything else negative.
		si := math.Pow(math.Sqrt(100), expo(i, f.Dim))
		f.xopt[i] = 5
		if v <= 0 {
			si = -si
			f.xopt[i] = -5
		}
		f.w[i] = si
	}
	f.eval = func(f *Function, x, _ []float64) float64 {
		var r float64
		for i, v := range x {
			if v*f.xopt[i] >= 25 {
				v = f.xopt[i]
			}
			r += 5*math.Abs(f.w[i]) - f.w[i]*v
		}
		return r + f.FOpt
	}
}
