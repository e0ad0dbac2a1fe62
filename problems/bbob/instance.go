package bbob

import "math"

// The legacy BBOB 2009 instance generators. Every number that defines an
// instance (x_opt, f_opt, rotations, Gallagher's peaks) comes from these, and
// they must reproduce the original C code bit for bit: a different rounding
// in the uniform stream would move x_opt to a different grid point.

// Constants of the Park–Miller "minimal standard" generator as the legacy
// code evaluates it with Schrage's method (a = 16807, m = 2^31 − 1).
const (
	pmA = 16807
	pmM = 2147483647
	pmQ = 127773 // m / a
	pmR = 2836   // m % a
)

// step advances the Park–Miller state once.
func step(s int64) int64 {
	hi := s / pmQ // s > 0 always, so integer division equals the legacy floor
	s = pmA*(s-hi*pmQ) - pmR*hi
	if s < 0 {
		s += pmM
	}
	return s
}

// uniform returns n numbers in (0, 1) from the legacy generator: a
// Park–Miller stream shuffled through a 32-entry Bays–Durham table that is
// filled after 8 warm-up steps. Zero is replaced by 1e−99 as in the original.
func uniform(n int, seed int64) []float64 {
	if seed < 0 {
		seed = -seed
	}
	if seed < 1 {
		seed = 1
	}
	s := seed
	var table [32]int64
	for i := 39; i >= 0; i-- {
		s = step(s)
		if i < 32 {
			table[i] = s
		}
	}
	r := make([]float64, n)
	pick := table[0]
	for i := range r {
		s = step(s)
		k := pick / 67108865 // top 5 bits of a 31-bit number select the slot
		pick = table[k]
		table[k] = s
		r[i] = float64(pick) / 2.147483647e9
		if r[i] == 0 {
			r[i] = 1e-99
		}
	}
	return r
}

// gauss returns n standard normal numbers by Box–Muller on 2n uniforms
// seeded with seed: the first n uniforms give the radius, the last n the
// angle. Zero is replaced by 1e−99 as in the original.
func gauss(n int, seed int64) []float64 {
	u := uniform(2*n, seed)
	g := make([]float64, n)
	for i := range g {
		g[i] = math.Sqrt(-2*math.Log(u[i])) * math.Cos(2*math.Pi*u[n+i])
		if g[i] == 0 {
			g[i] = 1e-99
		}
	}
	return g
}

// rotation returns a d×d orthogonal matrix, row-major: d² Gaussians fill the
// matrix column by column, then classical Gram–Schmidt orthonormalises the
// columns in order.
func rotation(d int, seed int64) []float64 {
	g := gauss(d*d, seed)
	b := make([]float64, d*d)
	for i := range d {
		for j := range d {
			b[i*d+j] = g[j*d+i]
		}
	}
	for i := range d {
		for j := range i {
			var p float64
			for k := range d {
				p += b[k*d+i] * b[k*d+j]
			}
			for k := range d {
				b[k*d+i] -= p * b[k*d+j]
			}
		}
		var p float64
		for k := range d {
			p += b[k*d+i] * b[k*d+i]
		}
		n := math.Sqrt(p)
		for k := range d {
			b[k*d+i] /= n
		}
	}
	return b
}

// shiftVector returns the legacy x_opt: uniforms mapped onto the grid
// {−4, −4 + 8·10^−4, ...} of [−4, 4); an exact zero becomes −10^−5 so that
// sign-dependent functions have a defined sign.
func shiftVector(d int, seed int64) []float64 {
	x := uniform(d, seed)
	for i, u := range x {
		x[i] = 8*math.Floor(1e4*u)/1e4 - 4
		if x[i] == 0 {
			x[i] = -1e-5
		}
	}
	return x
}

// seedFunction is the function number that seeds an instance: f4
// (Büche–Rastrigin) reuses f3's numbers and f18 (ill-conditioned Schaffers)
// f17's, as in the 2009 code.
func seedFunction(fid int) int64 {
	switch fid {
	case 4:
		return 3
	case 18:
		return 17
	}
	return int64(fid)
}

// instanceSeed is the legacy rseed of function fid, instance iid.
func instanceSeed(fid, iid int) int64 {
	return seedFunction(fid) + 10000*int64(iid)
}

// optimalValue returns f_opt: a Cauchy-like ratio of two Gaussians, rounded
// to two decimals and clipped to [−1000, 1000].
func optimalValue(fid, iid int) float64 {
	s := instanceSeed(fid, iid)
	g1 := gauss(1, s)[0]
	g2 := gauss(1, s+1)[0]
	v := math.Floor(100*100*g1/g2+0.5) / 100
	return math.Min(1000, math.Max(-1000, v))
}
