package bbob

import "math"

// Multi-modal functions with adequate global structure, f15–f19
// (Hansen et al. 2009, §4).

// weierstrassTerms is the number of summands k = 0..11 of f16.
const weierstrassTerms = 12

// f15: rotated Rastrigin on z = R Λ^10 Q T_asy^0.2(T_osz(R (x − x_opt))).
func buildRastriginRotated(f *Function, rseed int64) {
	d := f.Dim
	f.xopt = shiftVector(d, rseed)
	f.rot1 = rotation(d, rseed+1000000)
	f.mat = conditioned(f.rot1, lambda(10, d), rotation(d, rseed))
	f.eval = func(f *Function, x, s []float64) float64 {
		a, b, _ := bufs(s, f.Dim)
		subtract(a, x, f.xopt)
		mulVec(b, f.rot1, a)
		toszAll(b)
		tasy(b, 0.2)
		mulVec(a, f.mat, b)
		return rastriginCore(a) + f.FOpt
	}
}

// f16: Weierstrass 10(1/d Σ_i Σ_k 2^−k cos(2π3^k(z_i + 1/2)) − f0)³ on
// z = R Λ^(1/100) Q T_osz(R (x − x_opt)), f0 = Σ_k 2^−k cos(π3^k);
// f_pen weight 10/d.
func buildWeierstrass(f *Function, rseed int64) {
	d := f.Dim
	f.xopt = shiftVector(d, rseed)
	f.rot1 = rotation(d, rseed+1000000)
	f.mat = conditioned(f.rot1, lambda(1.0/100, d), rotation(d, rseed))
	for k := range weierstrassTerms {
		f.c += math.Pow(0.5, float64(k)) * math.Cos(2*math.Pi*math.Pow(3, float64(k))*0.5)
	}
	f.eval = func(f *Function, x, s []float64) float64 {
		a, b, _ := bufs(s, f.Dim)
		subtract(a, x, f.xopt)
		mulVec(b, f.rot1, a)
		toszAll(b)
		mulVec(a, f.mat, b)
		var r float64
		for _, v := range a {
			ak, bk := 1.0, 1.0
			for range weierstrassTerms {
				r += math.Cos(2*math.Pi*(v+0.5)*bk) * ak
				ak *= 0.5
				bk *= 3
			}
		}
		t := r/float64(f.Dim) - f.c
		return 10*t*t*t + f.FOpt + 10/float64(f.Dim)*penalty(x)
	}
}

// buildSchaffers returns the builder of Schaffers F7 with the given
// condition number: f17 (10) and f18 (1000, seeded like f17).
// f = (1/(d−1) Σ √s_i + √s_i sin²(50 s_i^0.2))², s_i = √(z_i² + z_{i+1}²),
// on z = Λ^cond Q T_asy^0.5(R (x − x_opt)); f_pen weight 10.
func buildSchaffers(cond float64) builder {
	return func(f *Function, rseed int64) {
		d := f.Dim
		f.xopt = shiftVector(d, rseed)
		f.rot1 = rotation(d, rseed+1000000)
		f.mat = scaleRows(lambda(cond, d), rotation(d, rseed))
		f.eval = func(f *Function, x, s []float64) float64 {
			a, b, _ := bufs(s, f.Dim)
			subtract(a, x, f.xopt)
			mulVec(b, f.rot1, a)
			tasy(b, 0.5)
			mulVec(a, f.mat, b)
			var r float64
			for i := 0; i < len(a)-1; i++ {
				t := a[i]*a[i] + a[i+1]*a[i+1]
				sn := math.Sin(50 * math.Pow(t, 0.1))
				r += math.Pow(t, 0.25) * (1 + sn*sn)
			}
			r /= float64(f.Dim) - 1
			return r*r + f.FOpt + 10*penalty(x)
		}
	}
}

// f19: composite Griewank–Rosenbrock 10/(d−1) Σ (s_i/4000 − cos s_i) + 10
// with s_i the Rosenbrock terms of z = max(1, √d/8) R x + 1/2 (no random
// shift; the optimum is at z = 1, x = Rᵀ1/(2 max(1, √d/8))).
//
// COCO reports Rᵀ1/2 as the optimum, which is the same for d ≤ 64 (where
// the factor is 1) and wrong above; XOpt here is the true minimiser.
func buildGriewankRosenbrock(f *Function, rseed int64) {
	setRosenbrockRotation(f, rseed)
	f.eval = func(f *Function, x, s []float64) float64 {
		z, _, _ := bufs(s, f.Dim)
		mulVec(z, f.mat, x)
		var sum float64
		for i := range z {
			z[i] += 0.5
		}
		for i := 0; i < len(z)-1; i++ {
			c1 := z[i]*z[i] - z[i+1]
			c2 := 1 - z[i]
			t := 100*c1*c1 + c2*c2
			sum += t/4000 - math.Cos(t)
		}
		return 10 + 10*sum/(float64(f.Dim)-1) + f.FOpt
	}
}
