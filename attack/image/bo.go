package image

import (
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/boaopt/boa/acq"
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
	negY []float64   // −y: the GP models the loss to minimise, acq's convention

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
	b.us, b.full, b.negY = append(b.us, u), append(b.full, g), append(b.negY, -y)
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
	if len(b.negY) > maxData { // a new subset: refactorise at the same hyper-parameters
		X, y := b.data(b.us)
		m, err := gp.New(X, y, b.model.Kernel(), noise)
		if err != nil {
			return b.fit(restarts)
		}
		b.model = m
		return nil
	}
	if m, err := b.model.Extend(b.us[b.model.Len():], b.negY); err == nil {
		b.model = m
		return nil
	}
	return b.fit(restarts) // the factor could not grow: factorise afresh
}

// data returns the observations the GP is fitted to: all of them, or past
// maxData the maxData of largest y in their order, the reference code's
// subset of data for large n [spec §1.6]. Which subset is a Decision: the
// best ones, where UCB searches.
func (b *bo) data(us [][]float64) ([][]float64, []float64) {
	if len(us) <= maxData {
		return us, b.negY
	}
	idx := make([]int, len(us))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, c int) int { return cmp.Compare(b.negY[a], b.negY[c]) })
	idx = idx[:maxData]
	slices.Sort(idx)
	X, y := make([][]float64, maxData), make([]float64, maxData)
	for k, i := range idx {
		X[k], y[k] = us[i], b.negY[i]
	}
	return X, y
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

// fitModel fits the GP on the points us (data's subset of them) with n starts, warm from warm
// when given (noise fixed at 1e-6, as the reference code's).
func (b *bo) fitModel(us [][]float64, n int, warm []float64) (*gp.GP, error) {
	X, y := b.data(us)
	return gp.Fit(X, y, gp.Config{Kernel: b.newKernel(), Noise: noise, FixNoise: true,
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

// propose maximises UCB on y, μ + κσ [000 Eq. 6.5; spec §1.6], which is
// acq.LCB on the GP of −y: over the whole box for GP-BO, from
// cfg.Candidates uniform points plus the observed ones, the best 5
// refined by L-BFGS; for ADDGP-BO, Add-GP-UCB on each group's own
// coordinates, the group's best random point refined, the sub-vectors
// concatenated [004 Eqs. 5.15–5.17; spec §1.4].
func (b *bo) propose() []float64 {
	ucb := acq.LCB{Kappa: kappa}
	if !b.additive() {
		s := acq.Bind(ucb, b.model)
		x, _ := opt.Maximize(s.Eval, b.domain(b.dim()), opt.MaximizeSettings{
			Candidates: b.candidates(gpCandidates), Top: topCandidates, LocalIters: localIters,
			Starts: b.us, Batch: s.EvalBatch}, b.rng)
		return x.X
	}
	u := make([]float64, b.dim())
	for j, g := range b.groups {
		s := acq.Bind(ucb, termModel{gp: b.model, term: j, group: g, dim: b.dim()})
		x, _ := opt.Maximize(s.Eval, b.domain(len(g)), opt.MaximizeSettings{
			Candidates: b.candidates(addCandidates), Top: 1, LocalIters: localIters, Batch: s.EvalBatch}, b.rng)
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

// termModel is the posterior of one additive component f_j of the GP as
// a function of its group's coordinates alone (acq.BatchModel), the
// sub-posterior of spec §1.4.
type termModel struct {
	gp    *gp.GP
	term  int
	group []int
	dim   int
}

// full places z, the group's coordinates, in a point of the whole box;
// the component does not depend on the others.
func (m termModel) full(z []float64) []float64 {
	x := make([]float64, m.dim)
	for i, c := range m.group {
		x[c] = z[i]
	}
	return x
}

func (m termModel) Predict(z []float64) (mean, varF float64) {
	return m.gp.PredictTerm(m.term, m.full(z), nil, nil)
}

func (m termModel) PredictGrad(z, dmean, dvar []float64) (mean, varF float64) {
	dm, dv := make([]float64, m.dim), make([]float64, m.dim)
	mean, varF = m.gp.PredictTerm(m.term, m.full(z), dm, dv)
	for i, c := range m.group {
		dmean[i], dvar[i] = dm[c], dv[c]
	}
	return mean, varF
}

func (m termModel) PredictBatch(Z [][]float64, mean, varF []float64) {
	X := make([][]float64, len(Z))
	for i, z := range Z {
		X[i] = m.full(z)
	}
	m.gp.PredictTermBatch(m.term, X, mean, varF)
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
	slices.SortStableFunc(order, func(a, c int) int { return cmp.Compare(change[a], change[c]) })
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
