package bbob

import "math"

// Unimodal functions with high conditioning, f10–f14 (Hansen et al. 2009, §3).
// All but f13 use the single rotation seeded with rseed + 10^6.

// f10: rotated ellipsoid on z = T_osz(R (x − x_opt)).
func buildEllipsoidRotated(f *Function, rseed int64) {
	f.xopt = shiftVector(f.Dim, rseed)
	f.rot1 = rotation(f.Dim, rseed+1000000)
	f.w = ellipsoidWeights(f.Dim)
	f.eval = func(f *Function, x, s []float64) float64 {
		a, z, _ := bufs(s, f.Dim)
		subtract(a, x, f.xopt)
		mulVec(z, f.rot1, a)
		toszAll(z)
		return ellipsoidCore(z, f.w) + f.FOpt
	}
}

// f11: discus 10^6 z_1² + Σ_{i>1} z_i² on z = T_osz(R (x − x_opt)).
func buildDiscus(f *Function, rseed int64) {
	f.xopt = shiftVector(f.Dim, rseed)
	f.rot1 = rotation(f.Dim, rseed+1000000)
	f.eval = func(f *Function, x, s []float64) float64 {
		a, z, _ := bufs(s, f.Dim)
		subtract(a, x, f.xopt)
		mulVec(z, f.rot1, a)
		toszAll(z)
		r := 1e6 * z[0] * z[0]
		for _, v := range z[1:] {
			r += v * v
		}
		return r + f.FOpt
	}
}

// f12: bent cigar z_1² + 10^6 Σ_{i>1} z_i² on z = R T_asy^0.5(R (x − x_opt)).
// Unlike every other function, the legacy code draws x_opt from the seed
// rseed + 10^6 (the rotation's seed).
func buildBentCigar(f *Function, rseed int64) {
	f.xopt = shiftVector(f.Dim, rseed+1000000)
	f.rot1 = rotation(f.Dim, rseed+1000000)
	f.eval = func(f *Function, x, s []float64) float64 {
		a, b, _ := bufs(s, f.Dim)
		subtract(a, x, f.xopt)
		mulVec(b, f.rot1, a)
		tasy(b, 0.5)
		mulVec(a, f.rot1, b)
		r := a[0] * a[0]
		for _, v := range a[1:] {
			r += 1e6 * v * v
		}
		return r + f.FOpt
	}
}

// f13: sharp ridge z_1² + 100·‖z_{2..d}‖ on z = Q Λ^10 R (x − x_opt).
func buildSharpRidge(f *Function, rseed int64) {
	d := f.Dim
	f.xopt = shiftVector(d, rseed)
	f.mat = conditioned(rotation(d, rseed+1000000), lambda(10, d), rotation(d, rseed))
	f.eval = func(f *Function, x, s []float64) float64 {
		a, z, _ := bufs(s, f.Dim)
		subtract(a, x, f.xopt)
		mulVec(z, f.mat, a)
		var r float64
		for _, v := range z[1:] {
			r += v * v
		}
		return 100*math.Sqrt(r) + z[0]*z[0] + f.FOpt
	}
}

// f14: different powers √(Σ |z_i|^(2 + 4i/(d−1))) on z = R (x − x_opt).
func buildDifferentPowers(f *Function, rseed int64) {
	d := f.Dim
	f.xopt = shiftVector(d, rseed)
	f.rot1 = rotation(d, rseed+1000000)
	f.w = make([]float64, d)
	for i := range f.w {
		f.w[i] = 2 + 4*float64(i)/(float64(d)-1)
	}
	f.eval = func(f *Function, x, s []float64) float64 {
		a, z, _ := bufs(s, f.Dim)
		subtract(a, x, f.xopt)
		mulVec(z, f.rot1, a)
		var r float64
		for i, v := range z {
			r += math.Pow(math.Abs(v), f.w[i])
		}
		return math.Sqrt(r) + f.FOpt
	}
}
