package casmopolitan

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/opt"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/sampler/internal/bo"
)

// optimise is the trust-region step of Alg. 7: fit the local GP to the
// epoch's trials, build the trust region around the epoch's best trial
// and maximise the acquisition inside it.
func (c *Casmopolitan) optimise(ctx context.Context, cs *casmoSpace, h *sampler.History, st *casmoState, excluded func([]float64) bool, rng *rand.Rand) ([]float64, trustRegion, error) {
	X := make([][]float64, len(st.local))
	raw := make([]float64, len(st.local))
	for k, j := range st.local {
		X[k] = cs.features(h.Observed[j].X, nil)
		raw[k] = h.Observed[j].Y
	}
	y := c.transformY(raw)
	centre := st.centreOf(h)
	tr := trustRegion{centre: slices.Clone(centre.X), radius: st.lh}
	m, err := c.fitLocal(cs, X, y, rng)
	if err != nil {
		tr.lo, tr.hi = box(cs, tr.centre, nil, st.lx)
		c.logger().Warn("casmopolitan: surrogate fit failed; proposing a random point of the trust region", "trial", h.Trials, "err", err)
		u, tr := cs.sampleUnseen(tr, excluded, rng)
		return u, tr, nil
	}
	tr.lo, tr.hi = box(cs, tr.centre, contLengthscales(m.Kernel()), st.lx)
	if err := ctx.Err(); err != nil {
		return nil, trustRegion{}, err
	}
	pend := h.WithoutValue()
	for i, p := range pend {
		pend[i] = cs.features(p, nil)
	}
	m, fantasised := bo.BelieveAll(m, pend)
	// The incumbent is the best value inside the trust region (spec §5.5
	// Decision): the epoch's best, which is the centre, on the GP's scale,
	// or a fantasy below it, since Kriging Believer counts the fantasies
	// as observations (bo.FantasyIncumbent; 000 App. B.1, Alg. 17). Without
	// them EI peaked beside a pending point fantasised below the centre:
	// 47 of 70 batch points lay within 1e-6 of a pending one
	// (TestPendingPointsAreNotNearlyRepeated).
	best := bo.FantasyIncumbent(slices.Min(y), fantasised)
	// With failed trials the classifier of computability weights the
	// acquisition (a boa extension, not part of CASMOPOLITAN; bo.Feasibility):
	// log-EI + log P(computable), log-EI then also in place of EI, which
	// has the same maximiser. A study's constraints are not modelled: the
	// trust region's incumbent and its success counts know no
	// feasibility, and auto gives a constrained study gpbo.
	factors, err := c.feas.Factors(h, false, rng)
	if err != nil {
		c.logger().Warn("casmopolitan: the classifier of computability could not be fitted; the acquisition goes without it", "trial", h.Trials, "err", err)
	}
	var af acq.Function = acq.LogEI{Best: best}
	if strings.ToLower(c.Acquisition) == gpbo.AcqEI && len(factors) == 0 {
		af = acq.EI{Best: best}
	}
	s := &casmoSearch{c: c, cs: cs, model: m, af: af, factors: factors, tr: tr, excluded: excluded, rng: rng,
		fbuf: make([]float64, cs.sp.Len()), gbuf: make([]float64, cs.sp.Len()), ubuf: make([]float64, cs.sp.Len()),
		bestV: math.Inf(-1)}
	u, tr := s.run()
	return u, tr, nil
}

// casmoSearch maximises the acquisition inside a trust region
// [000 §5.6.3; spec §5.5]: LocalRestarts local searches, each at most
// LocalSteps steps. A step draws a random Hamming-1 neighbour of the
// current categorical part at Hamming distance 1 to L^h from the centre
// that is not yet on the trajectory (at most 100 tries) and moves there on
// strict improvement. In mixed spaces every start and every accepted move
// is followed by projected L-BFGS on the continuous part inside the TR box
// (GradIters iterations), which interleaves the two searches until
// neither improves (the code takes one Adam step per categorical trial;
// re-optimising x only after h changed converges to the same kind of
// point at less cost). The first search starts at the centre; in mixed and
// continuous spaces the others start at random points of the trust region
// (spec §5.5: random categorical part, random continuous part), in purely
// categorical spaces all start at the centre, as in the reference code.
type casmoSearch struct {
	c        *Casmopolitan
	cs       *casmoSpace
	model    *gp.GP
	af       acq.Function
	factors  []acq.Penalty // computability's, on the space's features (bo.LogFeasible)
	tr       trustRegion
	excluded func([]float64) bool // bo.Excluded
	rng      *rand.Rand

	fbuf, gbuf, ubuf []float64
	best             []float64 // best point that is neither evaluated nor pending
	bestV            float64
}

func (s *casmoSearch) value(u []float64) float64 {
	v := s.af.Eval(s.model, s.cs.features(u, s.fbuf), nil)
	if len(s.factors) > 0 {
		v += bo.LogFeasible(s.cs.sp, s.factors, u, nil)
	}
	if math.IsNaN(v) {
		return math.Inf(-1)
	}
	return v
}

// note keeps u if it is the best new configuration so far.
func (s *casmoSearch) note(u []float64, v float64) {
	if v > s.bestV && !s.excluded(u) {
		s.best, s.bestV = slices.Clone(u), v
	}
}

// run returns the best new point and the region it lies in.
func (s *casmoSearch) run() ([]float64, trustRegion) {
	cs, tr := s.cs, s.tr
	for r := range max(s.c.LocalRestarts, 1) {
		cur := slices.Clone(tr.centre)
		if r > 0 && len(cs.cont) > 0 {
			cur = cs.perturb(tr, s.rng)
		}
		v := s.value(cur)
		s.note(cur, v)
		cur, v = s.refine(cur, v)
		onPath := map[string]bool{s.catKey(cur): true}
		for range s.c.LocalSteps {
			nb := s.neighbour(cur, onPath)
			if nb == nil {
				break
			}
			onPath[s.catKey(nb)] = true
			nv := s.value(nb)
			s.note(nb, nv)
			if nv > v {
				cur, v = s.refine(nb, nv)
			}
		}
	}
	if s.best != nil {
		return s.best, tr
	}
	// Every point visited is evaluated or pending (a small, well-explored
	// region): any new point of the region will do.
	return cs.sampleUnseen(tr, s.excluded, s.rng)
}

// neighbour returns a random Hamming-1 neighbour of u whose categorical
// part is at distance 0 < d ≤ L^h from the centre's and off the
// trajectory, or nil after 100 tries: the validity test of the reference
// code's local search, in categorical and mixed spaces alike [spec §5.5;
// reference code: xingchenwan/Casmopolitan]. In a mixed space a point
// with the centre's categorical part would be new through its continuous
// part, but the reference code does not visit it either. When no neighbour is valid (L^h = 1 and u one category away from the
// centre on a binary variable, say) the tries run out and the search
// stops.
func (s *casmoSearch) neighbour(u []float64, onPath map[string]bool) []float64 {
	cs := s.cs
	if len(cs.moves) == 0 {
		return nil
	}
	for range 100 {
		i := cs.moves[s.rng.IntN(len(cs.moves))]
		k := s.rng.IntN(cs.levels[i] - 1)
		if k >= cs.level(u, i) {
			k++
		}
		nb := slices.Clone(u)
		nb[i] = cs.code(i, k)
		d := cs.hamming(nb, s.tr.centre)
		if d == 0 || d > s.tr.radius || onPath[s.catKey(nb)] {
			continue
		}
		return nb
	}
	return nil
}

// catKey identifies the categorical part of u.
func (s *casmoSearch) catKey(u []float64) string {
	b := make([]byte, 0, 2*len(s.cs.cat))
	for _, i := range s.cs.cat {
		k := s.cs.level(u, i)
		b = append(b, byte(k), byte(k>>8))
	}
	return string(b)
}

// refine maximises the acquisition over the continuous coordinates of u
// inside the TR box with the categorical part fixed, then rounds integer
// and ordinal coordinates; it returns the better of u and the result.
func (s *casmoSearch) refine(u []float64, v float64) ([]float64, float64) {
	cs := s.cs
	if len(cs.cont) == 0 {
		return u, v
	}
	n := len(cs.cont)
	x0, lo, hi := make([]float64, n), make([]float64, n), make([]float64, n)
	for j, i := range cs.cont {
		x0[j], lo[j], hi[j] = u[i], s.tr.lo[i], s.tr.hi[i]
	}
	w := slices.Clone(u)
	f := func(x, grad []float64) float64 {
		for j, i := range cs.cont {
			w[i] = x[j]
		}
		feat := cs.features(w, s.fbuf)
		if grad == nil {
			return -s.af.Eval(s.model, feat, nil) - bo.LogFeasible(cs.sp, s.factors, w, nil)
		}
		val := s.af.Eval(s.model, feat, s.gbuf) + bo.LogFeasible(cs.sp, s.factors, w, s.ubuf)
		for j, i := range cs.cont {
			grad[j] = -s.gbuf[i] - s.ubuf[i]
		}
		return -val
	}
	res := opt.BoxLBFGS(f, x0, lo, hi, opt.LBFGSSettings{MaxIter: max(s.c.GradIters, 1)})
	for j, i := range cs.cont {
		w[i] = res.X[j]
	}
	cs.sp.Round(w)
	wv := s.value(w)
	s.note(w, wv)
	if wv > v {
		return w, wv
	}
	return u, v
}
