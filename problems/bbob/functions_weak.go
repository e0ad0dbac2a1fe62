package bbob

import "math"

// Multi-modal functions with weak global structure, f20, f23 and f24
// (Hansen et al. 2009, §5); Gallagher's f21 and f22 are in gallagher.go.

// schwefelOpt is |x_opt,i| of f20: half the 1-D optimum 420.96874637/100 of
// x·sin√|x|, known to 10 digits.
const schwefelOpt = 0.5 * 4.2096874637

// f20: Schwefel x·sin(x). With x̂ = 2·sign(x_opt)⊙x, ẑ_1 = x̂_1,
// ẑ_i = x̂_i + 0.25(x̂_{i−1} − 2|x_opt,i−1|) and
// z = 100(Λ^10(ẑ − 2|x_opt|) + 2|x_opt|):
// f = −1/(100d) Σ z_i sin√|z_i| + 4.189828872724339 + 100 f_pen(z/100).
// Only the signs of x_opt are random (uniforms seeded with rseed).
func buildSchwefel(f *Function, rseed int64) {
	d := f.Dim
	u := uniform(d, rseed)
	f.xopt = make([]float64, d)
	for i, v := range u {
		f.xopt[i] = schwefelOpt
		if v-0.5 < 0 {
			f.xopt[i] = -schwefelOpt
		}
	}
	f.w = lambda(10, d)
	f.eval = func(f *Function, x, s []float64) float64 {
		xh, _, _ := bufs(s, f.Dim)
		for i, v := range x {
			if f.xopt[i] < 0 {
				v = -v
			}
			xh[i] = 2 * v
		}
		const two = 2 * schwefelOpt
		var pen, sum float64
		prev := 0.0
		for i, v := range xh {
			zh := v
			if i > 0 {
				zh = v + 0.25*(prev-two)
			}
			prev = v
			z := 100 * (f.w[i]*(zh-two) + two)
			if t := math.Abs(z) - 500; t > 0 {
				pen += t * t
			}
			sum += z * math.Sin(math.Sqrt(math.Abs(z)))
		}
		return 0.01*(pen+418.9828872724339-sum/float64(f.Dim)) + f.FOpt
	}
}

// f23: Katsuura 10/d² Π_i (1 + i Σ_{j=1}^{32} |2^j z_i − [2^j z_i]|/2^j)^(10/d^1.2) − 10/d²
// on z = Q Λ^100 R (x − x_opt), [·] rounding half up; f_pen weight 1.
func buildKatsuura(f *Function, rseed int64) {
	d := f.Dim
	f.xopt = shiftVector(d, rseed)
	f.mat = conditioned(rotation(d, rseed+1000000), lambda(100, d), rotation(d, rseed))
	f.c = 10 / math.Pow(float64(d), 1.2)
	f.eval = func(f *Function, x, s []float64) float64 {
		a, z, _ := bufs(s, f.Dim)
		subtract(a, x, f.xopt)
		mulVec(z, f.mat, a)
		prod := 1.0
		for i, v := range z {
			var t float64
			p := 1.0
			for range 32 {
				p *= 2
				w := p * v
				t += math.Abs(w-math.Floor(w+0.5)) / p
			}
			prod *= 1 + float64(i+1)*t
		}
		n := float64(f.Dim)
		return 10/n/n*(-1+math.Pow(prod, f.c)) + f.FOpt + penalty(x)
	}
}

// f24: Lunacek bi-Rastrigin, a double funnel
// min(Σ(x̂_i − μ0)², d + s Σ(x̂_i − μ1)²) + 10(d − Σ cos 2πz_i) + 10^4 f_pen(x)
// with x̂ = 2·sign(x_opt)⊙x, z = Q Λ^100 R (x̂ − μ0), μ0 = 2.5,
// s = 1 − 1/(2√(d+20) − 8.2), μ1 = −√((μ0² − 1)/s).
// x_opt = (μ0/2)·sign(g) for Gaussians g seeded with rseed; it is the exact
// minimiser (x̂ = μ0 there, so both the funnel and the Rastrigin term vanish).
func buildLunacek(f *Function, rseed int64) {
	d := f.Dim
	g := gauss(d, rseed)
	f.xopt = make([]float64, d)
	for i, v := range g {
		f.xopt[i] = 0.5 * lunacekMu0
		if v < 0 {
			f.xopt[i] = -f.xopt[i]
		}
	}
	f.rot1 = rotation(d, rseed+1000000)
	f.mat = scaleRows(lambda(100, d), rotation(d, rseed))
	f.c = 1 - 0.5/(math.Sqrt(float64(d)+20)-4.1)
	f.eval = func(f *Function, x, s []float64) float64 {
		xh, a, z := bufs(s, f.Dim)
		n := float64(f.Dim)
		mu1 := -math.Sqrt((lunacekMu0*lunacekMu0 - 1) / f.c)
		var s1, s2, s3 float64
		for i, v := range x {
			v *= 2
			if f.xopt[i] < 0 {
				v = -v
			}
			xh[i] = v - lunacekMu0
			s1 += (v - lunacekMu0) * (v - lunacekMu0)
			s2 += (v - mu1) * (v - mu1)
		}
		mulVec(a, f.mat, xh)
		mulVec(z, f.rot1, a)
		for _, v := range z {
			s3 += math.Cos(2 * math.Pi * v)
		}
		return math.Min(s1, n+f.c*s2) + 10*(n-s3) + 1e4*penalty(x) + f.FOpt
	}
}

// lunacekMu0 is the centre μ0 of f24's first funnel.
const lunacekMu0 = 2.5
