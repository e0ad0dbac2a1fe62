package bbob

import "math"

// The BBOB building blocks (Hansen et al. 2009, §0 "Symbols and
// definitions"): T_osz, T_asy^β, Λ^α and f_pen, plus the dense linear maps
// used to apply the rotations. Exponents are written i/(d−1) with 0-based i,
// as the legacy code does.

// expo returns i/(d−1), the position of coordinate i on the conditioning scale.
func expo(i, d int) float64 {
	return float64(i) / (float64(d) - 1)
}

// tosz is the oscillation T_osz, applied coordinate-wise to variables and,
// for f6 and Gallagher, to a function value: a smooth, monotone, sign- and
// zero-preserving irregularity of the log-scale.
func tosz(v float64) float64 {
	switch {
	case v > 0:
		t := math.Log(v) / 0.1
		return math.Pow(math.Exp(t+0.49*(math.Sin(t)+math.Sin(0.79*t))), 0.1)
	case v < 0:
		t := math.Log(-v) / 0.1
		return -math.Pow(math.Exp(t+0.49*(math.Sin(0.55*t)+math.Sin(0.31*t))), 0.1)
	}
	return 0
}

// toszAll applies T_osz to every coordinate of z in place.
func toszAll(z []float64) {
	for i, v := range z {
		z[i] = tosz(v)
	}
}

// tasy applies T_asy^β in place: positive coordinates are raised to
// 1 + β·i/(d−1)·√z_i, which breaks the symmetry around the optimum.
func tasy(z []float64, beta float64) {
	d := len(z)
	for i, v := range z {
		if v > 0 {
			z[i] = math.Pow(v, 1+beta*float64(i)/(float64(d)-1)*math.Sqrt(v))
		}
	}
}

// lambda returns the diagonal of Λ^α as the legacy code computes it,
// (√α)^(i/(d−1)).
func lambda(alpha float64, d int) []float64 {
	l := make([]float64, d)
	for i := range l {
		l[i] = math.Pow(math.Sqrt(alpha), expo(i, d))
	}
	return l
}

// penalty is f_pen without its factor: Σ max(0, |x_i| − 5)², zero inside the
// search box.
func penalty(x []float64) float64 {
	var p float64
	for _, v := range x {
		if t := math.Abs(v) - 5; t > 0 {
			p += t * t
		}
	}
	return p
}

// subtract writes x − c into dst.
func subtract(dst, x, c []float64) {
	for i := range dst {
		dst[i] = x[i] - c[i]
	}
}

// mulVec writes m·x into dst for a d×d row-major m; dst must not alias x.
func mulVec(dst, m, x []float64) {
	d := len(x)
	for i := range dst {
		row := m[i*d : i*d+d]
		var s float64
		for j, v := range row {
			s += v * x[j]
		}
		dst[i] = s
	}
}

// conditioned returns a·diag(l)·b for d×d row-major a and b, summing the
// products in the legacy order ((a_ik·l_k)·b_kj over k).
func conditioned(a, l, b []float64) []float64 {
	d := len(l)
	m := make([]float64, d*d)
	for i := range d {
		for j := range d {
			var s float64
			for k := range d {
				s += a[i*d+k] * l[k] * b[k*d+j]
			}
			m[i*d+j] = s
		}
	}
	return m
}

// scaleRows returns diag(l)·b.
func scaleRows(l, b []float64) []float64 {
	d := len(l)
	m := make([]float64, d*d)
	for i := range d {
		for j := range d {
			m[i*d+j] = l[i] * b[i*d+j]
		}
	}
	return m
}

// transposeOnes returns Bᵀ·1/den for an orthogonal B: the point that
// z = B·x sends to the constant vector 1/den (f9's and f19's optimum).
func transposeOnes(b []float64, den float64, d int) []float64 {
	x := make([]float64, d)
	for j := range d {
		var s float64
		for i := range d {
			s += b[i*d+j]
		}
		x[j] = s / den
	}
	return x
}
