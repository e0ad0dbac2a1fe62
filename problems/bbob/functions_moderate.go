package bbob

import "math"

// Functions with low or moderate conditioning, f6–f9 (Hansen et al. 2009, §2).

// rosenbrockCore is Σ 100(z_i² − z_{i+1})² + (z_i − 1)², shared by f8 and f9.
func rosenbrockCore(z []float64) float64 {
	var s1, s2 float64
	for i := 0; i < len(z)-1; i++ {
		t := z[i]*z[i] - z[i+1]
		s1 += t * t
		t = z[i] - 1
		s2 += t * t
	}
	return 100*s1 + s2
}

// rosenbrockFactor is max(1, √d/8), which keeps the share of the search
// box in Rosenbrock's valley independent of d.
func rosenbrockFactor(d int) float64 {
	return math.Max(1, math.Sqrt(float64(d))/8)
}

// f6: attractive sector T_osz(Σ (s_i z_i)²)^0.9 with z = Q Λ^10 R (x − x_opt)
// and s_i = 100 where z_i has the sign of x_opt,i, else 1.
func buildAttractiveSector(f *Function, rseed int64) {
	d := f.Dim
	f.xopt = shiftVector(d, rseed)
	f.mat = conditioned(rotation(d, rseed+1000000), lambda(10, d), rotation(d, rseed))
	f.eval = func(f *Function, x, s []float64) float64 {
		a, z, _ := bufs(s, f.Dim)
		subtract(a, x, f.xopt)
		mulVec(z, f.mat, a)
		var r float64
		for i, v := range z {
			if f.xopt[i]*v > 0 {
				r += 100 * 100 * v * v
			} else {
				r += v * v
			}
		}
		return math.Pow(tosz(r), 0.9) + f.FOpt
	}
}

// f7: step ellipsoid. ẑ = Λ^10 R (x − x_opt) is rounded to integers (to
// tenths where |ẑ_i| ≤ 0.5), rotated by Q and fed to an ellipsoid of
// condition 100; the term 10^−4·|ẑ_1| keeps the plateaus from being flat at
// the optimum. f_pen weight 1.
func buildStepEllipsoid(f *Function, rseed int64) {
	d := f.Dim
	f.xopt = shiftVector(d, rseed)
	f.rot1 = rotation(d, rseed+1000000)
	l := make([]float64, d)
	f.w = make([]float64, d)
	for i := range l {
		l[i] = math.Sqrt(math.Pow(10, expo(i, d)))
		f.w[i] = math.Pow(100, expo(i, d))
	}
	f.mat = scaleRows(l, rotation(d, rseed))
	f.eval = func(f *Function, x, s []float64) float64 {
		a, zh, z := bufs(s, f.Dim)
		subtract(a, x, f.xopt)
		mulVec(zh, f.mat, a)
		z1 := zh[0]
		for i, v := range zh {
			if math.Abs(v) > 0.5 {
				zh[i] = math.Floor(v + 0.5)
			} else {
				zh[i] = math.Floor(10*v+0.5) / 10
			}
		}
		mulVec(z, f.rot1, zh)
		r := ellipsoidCore(z, f.w)
		return 0.1*math.Max(math.Abs(z1)*1e-4, r) + penalty(x) + f.FOpt
	}
}

// f8: Rosenbrock on z = max(1, √d/8)(x − x_opt) + 1, with x_opt shrunk by
// 0.75 so that the optimum lies in [−3, 3]^d.
func buildRosenbrock(f *Function, rseed int64) {
	f.xopt = shiftVector(f.Dim, rseed)
	for i := range f.xopt {
		f.xopt[i] *= 0.75
	}
	f.c = rosenbrockFactor(f.Dim)
	f.eval = func(f *Function, x, s []float64) float64 {
		z, _, _ := bufs(s, f.Dim)
		for i, v := range x {
			z[i] = f.c*(v-f.xopt[i]) + 1
		}
		return rosenbrockCore(z) + f.FOpt
	}
}

// f9: rotated Rosenbrock on z = max(1, √d/8) R x + 1/2; it has no random
// shift, its optimum is x = Rᵀ1 / (2 max(1, √d/8)).
func buildRosenbrockRotated(f *Function, rseed int64) {
	setRosenbrockRotation(f, rseed)
	f.eval = func(f *Function, x, s []float64) float64 {
		z, _, _ := bufs(s, f.Dim)
		mulVec(z, f.mat, x)
		for i := range z {
			z[i] += 0.5
		}
		return rosenbrockCore(z) + f.FOpt
	}
}

// setRosenbrockRotation sets the transform shared by f9 and f19:
// f.mat = max(1, √d/8)·R and the minimiser x = Rᵀ1/(2 max(1, √d/8)).
func setRosenbrockRotation(f *Function, rseed int64) {
	d := f.Dim
	r := rotation(d, rseed)
	c := rosenbrockFactor(d)
	f.mat = make([]float64, d*d)
	for i, v := range r {
		f.mat[i] = c * v
	}
	f.XOpt = transposeOnes(r, 2*c, d)
}
