package image

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/opt"
	"github.com/boaopt/boa/qmc"
)

// bo is one BayesOpt attack by GP-BO (Alg. 8), ADDGP-BO (§6.4.3) or
// GP-BO-auto-d_r (Alg. 9) [000 §6.4]: y is maximised over the box of
// side s, one query per iteration.
type bo struct {
	p     *problem
	cfg   Config
	rng   *rand.Rand
	side  int
	sides []int // auto-dr: every side chosen

	full [][]float64 // g(δ) of every query, in image space (Alg. 9's D^d)
	us   [][]float64 // the queries as points of the current side's box
	y    []float64

	groups [][]int // the additive model's decomposition (addgp, addgp-fd)
	model  *gp.GP
}

func newBO(p *problem, cfg Config, rng *rand.Rand) *bo {
	return &bo{p: p, cfg: cfg, rng: rng, side: cfg.Side}
}

func (b *bo) dim() int { return b.side * b.side * b.p.origin.C }

func (b *bo) additive() bool { return b.cfg.Method == "addgp" || b.cfg.Method == "addgp-fd" }

// run spends the budget: a Latin-hypercube design of cfg.Init points,
// then one acquisition maximiser per iteration, until the Oracle stops.
func (b *bo) run() error {
	if b.cfg.Method == "auto-dr" {
		b.sides = append(b.sides, b.side)
	}
	for _, u := range qmc.LatinHypercube(min(b.cfg.Init, b.p.oracle.Left()), b.dim(), b.rng, 1) {
		if err := b.observe(u); err != nil {
			return err
		}
	}
	for it := 0; ; it++ {
		if err := b.update(it); err != nil {
			return err
		}
		if err := b.observe(b.propose()); err != nil {
			return err
		}
	}
}

func (b *bo) observe(u []float64) error {
	y, g, err := b.p.ask(u, b.side)
	if err != nil {
		return err
	}
	b.us, b.full, b.y = append(b.us, u), append(b.full, g), append(b.y, y)
	return nil
}

// update brings the model up to date before iteration it: d_r or the
// decomposition every learnEvery iterations, the hyper-parameters every
// refitEvery, else the last observation added at fixed hyper-parameters
// [spec §1.6, refits].
func (b *bo) update(it int) error {
	if it%learnEvery == 0 {
		switch b.cfg.Method {
		case "auto-dr":
			return b.chooseSide()
		case "addgp":
			return b.learnDecomposition()
		case "addgp-fd":
			b.groups = b.changeGroups()
			return b.fit(restarts)
		}
	}
	if it%refitEvery == 0 || b.model == nil {
		return b.fit(restarts)
	}
	if m, err := b.model.Extend(b.us[b.model.Len():], b.y); err == nil {
		b.model = m
		return nil
	}
	return b.fit(restarts) // the factor could not grow: factorise afresh
}

// newKernel is GPy's Matérn-5/2, non-ARD, of the reference code, one per
// group for the additive model [spec §1.3–1.4, §1.6]. A non-ARD
// lengthscale measures distances across all of its d coordinates, which
// grow as √d: its upper bound is the default's 2 scaled by √d (Decision;
// GPy leaves it unbounded).
func (b *bo) newKernel() kernel.Kernel {
	one := func(d int) *kernel.Stationary {
		k := kernel.NewStationary(kernel.Matern52, d, false)
		k.SetBounds(kernel.Bound{Lo: 0.01, Hi: 2 * math.Sqrt(float64(d))}, kernel.Bound{Lo: 1e-2, Hi: 1e2})
		return k
	}
	if !b.additive() {
		return one(b.dim())
	}
	terms := make([]kernel.Kernel, len(b.groups))
	for j, g := range b.groups {
		terms[j] = kernel.NewSubset(one(len(g)), g)
	}
	return kernel.NewSum(terms...)
}

// fitModel fits the GP on the points X with n starts, warm from warm
// when given (noise fixed at 1e-6, as the reference code's).
func (b *bo) fitModel(X [][]float64, n int, warm []float64) (*gp.GP, error) {
	return gp.Fit(X, b.y, gp.Config{Kernel: b.newKernel(), Noise: noise, FixNoise: true,
		Restarts: n, MaxIter: fitIters, Warm: warm, Rand: b.rng})
}

func (b *bo) fit(n int) error {
	var warm []float64
	if b.model != nil && len(b.model.Params()) == len(b.newKernel().Params(nil))+1 {
		warm = b.model.Params()
	}
	m, err := b.fitModel(b.us, n, warm)
	if err != nil {
		return err
	}
	b.model = m
	return nil
}

// propose maximises UCB, μ + κσ [000 Eq. 6.5; spec §1.6]: over the whole
// box for GP-BO, from cfg.Candidates uniform points plus the observed
// ones, the best 5 refined by L-BFGS; for ADDGP-BO, Add-GP-UCB on each
// group's own coordinates, the group's best random point refined, the
// sub-vectors concatenated [004 Eqs. 5.15–5.17; spec §1.4].
func (b *bo) propose() []float64 {
	if !b.additive() {
		x, _ := opt.Maximize(b.ucb(-1, nil), b.domain(b.dim()), opt.MaximizeSettings{
			Candidates: b.candidates(gpCandidates), Top: topCandidates, LocalIters: localIters,
			Starts: b.us, Batch: b.ucbBatch}, b.rng)
		return x.X
	}
	u := make([]float64, b.dim())
	for j, g := range b.groups {
		x, _ := opt.Maximize(b.ucb(j, g), b.domain(len(g)), opt.MaximizeSettings{
			Candidates: b.candidates(addCandidates), Top: 1, LocalIters: localIters,
			Batch: func(Z [][]float64, values []float64) { b.termBatch(j, g, Z, values) }}, b.rng)
		for i, c := range g {
			u[c] = x.X[i]
		}
	}
	return u
}

func (b *bo) candidates(def int) int {
	if b.cfg.Candidates > 0 {
		return b.cfg.Candidates
	}
	return def
}

// domain is the unit box of d coordinates with uniform random candidates,
// as the reference code draws them.
func (b *bo) domain(d int) opt.Domain {
	return opt.Domain{Dim: d, Candidates: func(n int, rng *rand.Rand) [][]float64 { return qmc.Uniform(n, d, rng) }}
}

// ucb is μ + κσ of the whole model (term < 0), or of its term-th
// additive component as a function of that group's coordinates.
func (b *bo) ucb(term int, group []int) opt.Objective {
	d := b.dim()
	x := make([]float64, d)
	dm, dv := make([]float64, d), make([]float64, d)
	return func(z, grad []float64) float64 {
		var mu, v float64
		var gm, gv []float64
		if grad != nil {
			gm, gv = dm, dv
		}
		if term < 0 {
			copy(x, z)
			mu, v = b.model.PredictGrad(x, gm, gv)
		} else {
			for i, c := range group {
				x[c] = z[i]
			}
			mu, v = b.model.PredictTerm(term, x, gm, gv)
		}
		s := math.Sqrt(v)
		if grad != nil {
			for i := range grad {
				c := i
				if term >= 0 {
					c = group[i]
				}
				grad[i] = dm[c] + kappa*dv[c]/(2*s)
			}
		}
		return mu + kappa*s
	}
}

// ucbBatch is ucb(-1, nil) at the rows of X.
func (b *bo) ucbBatch(X [][]float64, values []float64) {
	mean, v := make([]float64, len(X)), make([]float64, len(X))
	b.model.PredictBatch(X, mean, v)
	for i := range values {
		values[i] = mean[i] + kappa*math.Sqrt(v[i])
	}
}

// termBatch is ucb(term, group) at the rows of Z, the group's coordinates.
func (b *bo) termBatch(term int, group []int, Z [][]float64, values []float64) {
	X := make([][]float64, len(Z))
	for i, z := range Z {
		X[i] = make([]float64, b.dim())
		for k, c := range group {
			X[i][c] = z[k]
		}
	}
	mean, v := make([]float64, len(X)), make([]float64, len(X))
	b.model.PredictTermBatch(term, X, mean, v)
	for i := range values {
		values[i] = mean[i] + kappa*math.Sqrt(v[i])
	}
}

// groupCount is M: cfg.Groups, else min(12, ⌈d_r/4⌉), never above d_r.
func (b *bo) groupCount() int {
	m := b.cfg.Groups
	if m == 0 {
		m = min(12, (b.dim()+3)/4)
	}
	return min(m, b.dim())
}

// chunks cuts order into m contiguous near-equal groups, the first
// len%m one longer (196 dimensions in 12: 4 of 17 and 8 of 16, spec
// Corrections).
func chunks(order []int, m int) [][]int {
	groups := make([][]int, m)
	at := 0
	for j := range m {
		n := len(order) / m
		if j < len(order)%m {
			n++
		}
		groups[j] = slices.Clone(order[at : at+n])
		slices.Sort(groups[j])
		at += n
	}
	return groups
}

// learnDecomposition treats the decomposition as a hyper-parameter
// [spec §1.4; Kandasamy et al. 2015]: the current one and 20 random ones,
// each a random permutation cut into M chunks, are fitted (2 starts, the
// current one warm) and the largest marginal likelihood wins.
func (b *bo) learnDecomposition() error {
	var cands [][][]int
	if b.groups != nil {
		cands = append(cands, b.groups)
	}
	for range 20 {
		cands = append(cands, chunks(b.rng.Perm(b.dim()), b.groupCount()))
	}
	var best *gp.GP
	var bestGroups [][]int
	for i, g := range cands {
		b.groups = g
		var warm []float64
		if i == 0 && b.model != nil {
			warm = b.model.Params()
		}
		m, err := b.fitModel(b.us, 2, warm)
		if err != nil {
			continue // a decomposition whose Gram will not factorise loses
		}
		if best == nil || m.LogMarginal() > best.LogMarginal() {
			best, bestGroups = m, g
		}
	}
	if best == nil {
		return errors.New("image attack: no decomposition gave a GP that could be fitted")
	}
	b.groups, b.model = bestGroups, best
	return nil
}

// changeGroups is ADDGP-BO-FD's decomposition [spec §1.4, Decision]: the
// dimensions sorted by their mean absolute change over the last 5
// queries, cut into M contiguous groups, so that pixels that move alike
// share a group.
func (b *bo) changeGroups() [][]int {
	d := b.dim()
	change := make([]float64, d)
	n := len(b.us)
	for t := max(1, n-5); t < n; t++ {
		for i := range d {
			change[i] += math.Abs(b.us[t][i] - b.us[t-1][i])
		}
	}
	order := make([]int, d)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, c int) int {
		switch {
		case change[a] < change[c]:
			return -1
		case change[a] > change[c]:
			return 1
		}
		return 0
	})
	return chunks(order, b.groupCount())
}

// autoSides are the candidate sides of GP-BO-auto-d_r [spec §1.5,
// Decision]: 6, 8, …, min(20, side) of the image, and 2, 4, 6, 8 for
// images of side 8 or less.
func autoSides(short int) []int {
	lo, hi := 6, min(20, short)
	if short <= 8 {
		lo, hi = 2, short
	}
	var s []int
	for v := lo; v <= hi; v += 2 {
		s = append(s, v)
	}
	if len(s) == 0 {
		s = []int{short}
	}
	return s
}

// chooseSide is Alg. 9: the queries, kept in image space, are projected
// to each candidate side by bilinear down-sampling, a GP is fitted on
// each (5 starts) and the side of the largest maximum marginal likelihood
// is kept with its GP. It asks the victim nothing.
func (b *bo) chooseSide() error {
	var best *gp.GP
	var bestUs [][]float64
	bestSide := b.side
	for _, s := range autoSides(min(b.p.origin.H, b.p.origin.W)) {
		us := make([][]float64, len(b.full))
		for i, g := range b.full {
			us[i] = b.p.encode(g, s)
		}
		b.side = s
		m, err := b.fitModel(us, restarts, nil)
		if err != nil {
			continue
		}
		if best == nil || m.LogMarginal() > best.LogMarginal() {
			best, bestUs, bestSide = m, us, s
		}
	}
	b.side = bestSide
	if best == nil {
		return errors.New("image attack: no side gave a GP that could be fitted")
	}
	b.us, b.model = bestUs, best
	if bestSide != b.sides[len(b.sides)-1] {
		b.sides = append(b.sides, bestSide)
	}
	return nil
}
