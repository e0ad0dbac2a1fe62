package gkls

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Standin is a GKLS function under synthetic constraints, a stand-in for
// the "Emmental-type" constrained GKLS [Sergeyev et al. 2017], whose
// constraint formulas 004 does not give [spec §7.2 Decision]: p1 balls the point must stay out of, p2
// half-spaces and p3 smooth non-linear constraints, each g_k(x) ≤ 0, with
// Active of them made active at the GKLS global minimiser x* by
// construction and the others holding there with slack. x* is feasible
// and f(x*) = f* is the least value of f anywhere, so the constrained
// optimum is f* at x*, "at the limit of the feasible region" as in the
// Emmental class. It is not the published class: Tables A.2–A.5 are not
// reproduced with it. It is immutable and safe for concurrent use.
type Standin struct {
	*Function
	cons   []standinConstraint
	active []int // indices of the constraints active at x*
}

// StandinCounts are the constraint counts of spec §7.2's setting.
const (
	StandinBalls      = 20 // p1
	StandinHalfSpaces = 2  // p2
	StandinSmooth     = 10 // p3
	StandinActive     = 5
)

type standinConstraint struct {
	name string
	g    func(x []float64) float64
}

// NewStandin draws the constraints for g from a source seeded by the
// function's class and number, so a name always gives the same problem.
// Ball radii are drawn from [0.05, 0.25], half-space slacks from
// [0.1, 0.5]; a non-linear constraint is Σ_i a_i sin(ω_i x_i + φ_i)
// shifted to the wanted value at x*, a_i ∈ [−1, 1], ω_i ∈ [1, 4].
func NewStandin(g *Function, balls, halfSpaces, smooth, active int) (*Standin, error) {
	total := balls + halfSpaces + smooth
	if balls < 0 || halfSpaces < 0 || smooth < 0 || active < 0 || active > total {
		return nil, fmt.Errorf("gkls: %d balls, %d half-spaces, %d non-linear constraints with %d active: want counts ≥ 0 and at most %d active", balls, halfSpaces, smooth, active, total)
	}
	p := g.Params()
	seed := uint64(g.Number()) + uint64(p.Minima)*100 + uint64(p.Dim)*1000000
	rng := rand.New(rand.NewPCG(seed, math.Float64bits(p.Dist)^math.Float64bits(p.Radius)))
	s := &Standin{Function: g}
	isActive := make([]bool, total)
	for _, k := range rng.Perm(total)[:active] {
		isActive[k] = true
	}
	xs := g.Minimizer()
	n := g.Dim()
	unit := func() []float64 {
		u := make([]float64, n)
		var norm float64
		for norm == 0 {
			norm = 0
			for i := range u {
				u[i] = rng.NormFloat64()
				norm += u[i] * u[i]
			}
		}
		norm = math.Sqrt(norm)
		for i := range u {
			u[i] /= norm
		}
		return u
	}
	uniform := func(lo, hi float64) float64 { return lo + (hi-lo)*rng.Float64() }
	// The active constraints share a feasible direction d at x*, pointed
	// into the box: each one's outward normal there makes an obtuse angle
	// with d. Drawn independently, five active constraints in 2-D would
	// leave x* alone, a feasible set of measure zero.
	d := unit()
	var inward float64
	for i := range d {
		inward += d[i] * xs[i]
	}
	if inward > 0 {
		for i := range d {
			d[i] = -d[i]
		}
	}
	// away returns a unit normal u with ⟨u, d⟩ ≤ −1/4.
	away := func() []float64 {
		w, u := unit(), make([]float64, n)
		var norm float64
		for i := range u {
			u[i] = -d[i] + 0.6*w[i]
			norm += u[i] * u[i]
		}
		for i := range u {
			u[i] /= math.Sqrt(norm)
		}
		return u
	}
	for k := range total {
		var c standinConstraint
		switch {
		case k < balls:
			// Outside the ball: r² − ‖x − c‖² ≤ 0. An active ball touches
			// x* (its radius 1e-12 short, so that rounding cannot put x*
			// inside); another's centre is redrawn until x* is 0.05 out.
			r, centre := uniform(0.05, 0.25), make([]float64, n)
			if isActive[k] {
				u := away()
				for i := range centre {
					centre[i] = xs[i] + r*u[i]
				}
				r *= 1 - 1e-12
			} else {
				for dist(centre, xs) < r+0.05 {
					for i := range centre {
						centre[i] = uniform(-1, 1)
					}
				}
			}
			c = standinConstraint{fmt.Sprintf("ball%d", k+1), func(x []float64) float64 {
				d := dist(x, centre)
				return r*r - d*d
			}}
		case k < balls+halfSpaces:
			// ⟨a, x − x*⟩ − s ≤ 0: through x* when active (s = 0).
			a, slack := unit(), 0.0
			if isActive[k] {
				a = away()
			} else {
				slack = uniform(0.1, 0.5)
			}
			c = standinConstraint{fmt.Sprintf("half%d", k-balls+1), func(x []float64) float64 {
				var v float64
				for i := range x {
					v += a[i] * (x[i] - xs[i])
				}
				return v - slack
			}}
		default:
			amp, freq, phase := make([]float64, n), make([]float64, n), make([]float64, n)
			for i := range amp {
				amp[i], freq[i], phase[i] = uniform(-1, 1), uniform(1, 4), uniform(0, 2*math.Pi)
			}
			if isActive[k] {
				// Flip the wave if its gradient at x* does not point away from d.
				var slope float64
				for i := range amp {
					slope += amp[i] * freq[i] * math.Cos(freq[i]*xs[i]+phase[i]) * d[i]
				}
				if slope > 0 {
					for i := range amp {
						amp[i] = -amp[i]
					}
				}
			}
			wave := func(x []float64) float64 {
				var v float64
				for i := range x {
					v += amp[i] * math.Sin(freq[i]*x[i]+phase[i])
				}
				return v
			}
			// The same operations at x* give exactly 0 when active; an
			// inactive one holds at x* with a slack of 50–100 % of the
			// wave's amplitude Σ|a_i|, so that it removes a part of the box
			// without leaving almost nothing feasible.
			shift := wave(xs)
			if !isActive[k] {
				var amplitude float64
				for _, a := range amp {
					amplitude += math.Abs(a)
				}
				shift += uniform(0.5, 1) * amplitude
			}
			c = standinConstraint{fmt.Sprintf("smooth%d", k-balls-halfSpaces+1), func(x []float64) float64 { return wave(x) - shift }}
		}
		s.cons = append(s.cons, c)
		if isActive[k] {
			s.active = append(s.active, k)
		}
	}
	return s, nil
}

// Constraints returns the constraint names in order: ball1.., half1..,
// smooth1..; each holds where its value is ≤ 0.
func (s *Standin) Constraints() []string {
	names := make([]string, len(s.cons))
	for i, c := range s.cons {
		names[i] = c.name
	}
	return names
}

// Values returns the constraint values at x, in Constraints' order.
func (s *Standin) Values(x []float64) []float64 {
	v := make([]float64, len(s.cons))
	for i, c := range s.cons {
		v[i] = c.g(x)
	}
	return v
}

// Active returns the names of the constraints active at the minimiser.
func (s *Standin) Active() []string {
	names := make([]string, len(s.active))
	for i, k := range s.active {
		names[i] = s.cons[k].name
	}
	return names
}
