package gkls

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Constants of the generator [Gaviano et al. 2003].
const (
	precision     = 1e-10 // GKLS_PRECISION, the generator's machine zero
	paraboloidMin = 0.0   // the paraboloid's minimum value t
	// pi is the generator's π, 3.14159265: the angles of the global
	// minimiser are drawn with it, so math.Pi would move the minimiser.
	pi = 3.14159265
	// outside is the value of a point outside the box, GKLS_MAX_VALUE.
	outside = 1e100
)

// Function is one D-type (continuously differentiable) GKLS function on
// [−1, 1]^Dim: the paraboloid ‖x − T‖² + t, t = 0, with m − 1 balls where
// a cubic makes a local minimum [spec §7.2]. It is immutable and safe for
// concurrent use.
type Function struct {
	dim      int
	number   int
	minimum  [][]float64 // M_i; M_0 = T, the paraboloid's vertex; M_1 the global minimiser
	f        []float64   // the value at M_i
	rho      []float64   // the radius of M_i's ball
	globals  []int       // indices i with f_i = the global value, in order
	params   Params
	globalAt int
}

// Params are the parameters of a GKLS class [Gaviano et al. 2003 §2].
type Params struct {
	Dim         int     // n ≥ 2
	Minima      int     // m ≥ 2, counting the paraboloid's and the global one
	GlobalValue float64 // f* < 0, the paraboloid's minimum
	Dist        float64 // r: distance from the paraboloid's vertex to the global minimiser, in (0, 1)
	Radius      float64 // ρ: radius of the global minimiser's ball, in (0, r/2]
}

// check reports the first parameter outside the generator's ranges, with
// the generator's own tolerances, so that the same classes are accepted.
func (p Params) check() error {
	switch {
	case p.Dim < 2 || p.Dim >= numRnd:
		return fmt.Errorf("gkls: dimension %d: want 2..%d", p.Dim, numRnd-1)
	case p.Minima < 2:
		return fmt.Errorf("gkls: %d minima: want at least 2 (the paraboloid's and the global one)", p.Minima)
	case !(p.GlobalValue < paraboloidMin-precision):
		return fmt.Errorf("gkls: global value %v: want less than the paraboloid's minimum, 0", p.GlobalValue)
	case !(p.Dist < 1-precision && p.Dist > precision): // half the side of [−1, 1]
		return fmt.Errorf("gkls: distance %v from the vertex to the global minimiser: want it in (0, 1)", p.Dist)
	case !(p.Radius < p.Dist/2+precision && p.Radius > precision):
		return fmt.Errorf("gkls: radius %v of the global minimiser's ball: want it in (0, %v], half the distance", p.Radius, p.Dist/2)
	}
	return nil
}

// New generates function number nf (1..100) of the class p, as
// GKLS_arg_generate does, so that function numbers are those of the
// literature: the same stream of random numbers (seeded by nf, m and n)
// is used in the same order.
func New(p Params, nf int) (*Function, error) {
	if nf < 1 || nf > 100 {
		return nil, fmt.Errorf("gkls: function number %d: want 1..100", nf)
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	n, m := p.Dim, p.Minima
	rnd := newStream(int64(nf-1) + int64(m-1)*100 + int64(n)*1000000)
	g := &Function{dim: n, number: nf, params: p,
		minimum: make([][]float64, m), f: make([]float64, m), rho: make([]float64, m)}
	for i := range g.minimum {
		g.minimum[i] = make([]float64, n)
	}
	// The paraboloid's vertex T, uniform in the box.
	for j := range n {
		g.minimum[0][j] = -1 + 2*rnd.float()
	}
	g.f[0] = paraboloidMin
	g.placeGlobal(rnd)
	g.f[1] = p.GlobalValue
	// A D2-type function draws its δ here; a D-type one skips the number.
	rnd.float()
	// The local minimisers, uniform in the box, each at least 2ρ from the
	// global one (its ball plus a gap of ρ), drawn again while any two of
	// them, or one and T, coincide.
	for {
		for i := 2; i < m; i++ {
			for {
				rnd.restart()
				for j := range n {
					g.minimum[i][j] = -1 + 2*rnd.float()
				}
				if 2*p.Radius-dist(g.minimum[i], g.minimum[1]) <= precision {
					break
				}
			}
		}
		if !g.coincide() {
			break
		}
	}
	if err := g.setBasins(rnd); err != nil {
		return nil, err
	}
	return g, nil
}

// placeGlobal puts the global minimiser at distance r from T in a
// direction of generalised spherical coordinates with random angles,
// mirroring a coordinate through T where it would leave the box.
func (g *Function) placeGlobal(rnd *stream) {
	rnd.restart()
	n, r := g.dim, g.params.Dist
	t, x := g.minimum[0], g.minimum[1]
	place := func(j int, d float64) {
		x[j] = t[j] + d
		if x[j] > 1-precision || x[j] < -1+precision {
			x[j] = t[j] - d
		}
	}
	phi := rnd.float()
	place(0, r*math.Cos(pi*phi))
	sinPhi := math.Sin(pi * phi)
	for j := 1; j < n-1; j++ {
		phi = rnd.float()
		place(j, r*math.Cos(2*pi*phi)*sinPhi)
		sinPhi *= math.Sin(2 * pi * phi)
	}
	place(n-1, r*sinPhi)
}

// coincide reports whether a local minimiser coincides with T or with
// another local minimiser.
func (g *Function) coincide() bool {
	m := len(g.minimum)
	for i := 2; i < m; i++ {
		if dist(g.minimum[i], g.minimum[0]) < precision {
			return true
		}
	}
	for i := 1; i < m-1; i++ {
		for j := i + 1; j < m; j++ {
			if dist(g.minimum[i], g.minimum[j]) < precision {
				return true
			}
		}
	}
	return false
}

// setBasins sets the radii and values of the local minima as
// GKLS_set_basins does: radii as large as they can be without the balls
// overlapping (the global one's fixed at ρ), shrunk by 0.99; values below
// the paraboloid's on each ball's boundary by a random peak, so that none
// is below the global value.
func (g *Function) setBasins(rnd *stream) error {
	m, p := len(g.minimum), g.params
	nearest := func(i int, less func(j int) float64) float64 {
		v := math.Inf(1)
		for j := range m {
			if j != i {
				v = math.Min(v, less(j))
			}
		}
		return v
	}
	for i := range m {
		g.rho[i] = nearest(i, func(j int) float64 { return dist(g.minimum[i], g.minimum[j]) }) / 2
	}
	g.rho[1] = p.Radius
	for i := 2; i < m; i++ {
		g.rho[i] = math.Min(g.rho[i], dist(g.minimum[i], g.minimum[1])-p.Radius-precision)
	}
	for i := range m {
		if i == 1 {
			continue
		}
		grown := nearest(i, func(j int) float64 { return dist(g.minimum[i], g.minimum[j]) - g.rho[j] })
		if grown > g.rho[i]+precision {
			g.rho[i] = grown
		}
	}
	for i := range m {
		if i != 1 {
			g.rho[i] *= 0.99
		}
	}
	for i := 2; i < m; i++ {
		d := dist(g.minimum[0], g.minimum[i])
		boundary := (g.rho[i]-d)*(g.rho[i]-d) + g.f[0] // the paraboloid's least value on the ball
		u := rnd.float()
		peak := math.Min((1+u)*g.rho[i], u*(boundary-p.GlobalValue))
		g.f[i] = boundary - peak
	}
	for i, v := range g.f {
		if v >= p.GlobalValue-precision && v <= p.GlobalValue+precision {
			g.globals = append(g.globals, i)
		}
	}
	if len(g.globals) == 0 {
		return errors.New("gkls: no minimum has the global value (a floating-point failure of the generator)")
	}
	g.globalAt = g.globals[0]
	return nil
}

// Dim returns n.
func (g *Function) Dim() int { return g.dim }

// Number returns the function number.
func (g *Function) Number() int { return g.number }

// Params returns the class.
func (g *Function) Params() Params { return g.params }

// Minimizer returns a copy of the global minimiser (the first, should the
// generator make several), where the value is Params().GlobalValue.
func (g *Function) Minimizer() []float64 { return slices.Clone(g.minimum[g.globalAt]) }

// Vertex returns a copy of the paraboloid's vertex T.
func (g *Function) Vertex() []float64 { return slices.Clone(g.minimum[0]) }

// Globals returns the number of global minimisers (1 but for ties).
func (g *Function) Globals() int { return len(g.globals) }

// LocalMinimum returns local minimiser i (0: T, 1: the global one, up to
// Minima − 1), its value and the radius of its ball.
func (g *Function) LocalMinimum(i int) (x []float64, f, rho float64) {
	return slices.Clone(g.minimum[i]), g.f[i], g.rho[i]
}

// Eval returns the D-type function at x: the cubic of the first ball
// that holds x, the paraboloid outside every ball, and 1e100 outside the
// box (up to the generator's 1e-10), as GKLS_D_func does. It panics if
// len(x) != Dim().
func (g *Function) Eval(x []float64) float64 {
	if len(x) != g.dim {
		panic(fmt.Sprintf("gkls: len(x) = %d, want %d", len(x), g.dim))
	}
	for _, v := range x {
		if v < -1-precision || v > 1+precision {
			return outside
		}
	}
	t := g.minimum[0]
	i := 1
	for i < len(g.minimum) && dist(g.minimum[i], x) > g.rho[i] {
		i++
	}
	if i == len(g.minimum) {
		d := dist(t, x)
		return d*d + g.f[0]
	}
	mi := g.minimum[i]
	norm := dist(x, mi)
	if norm < precision {
		return g.f[i]
	}
	d := dist(t, mi)
	a := d*d + g.f[0] - g.f[i]
	rho := g.rho[i]
	var scal float64
	for j := range x {
		scal += (x[j] - mi[j]) * (t[j] - mi[j])
	}
	return (2/rho/rho*scal/norm-2*a/rho/rho/rho)*norm*norm*norm +
		(1-4*scal/norm/rho+3*a/rho/rho)*norm*norm + g.f[i]
}

// dist is the Euclidean distance.
func dist(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return math.Sqrt(s)
}
