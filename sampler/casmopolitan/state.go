package casmopolitan

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/boaopt/boa/qmc"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
)

// Stream tags of the seeded sources casmopolitan derives from the study
// seed, so that its designs do not depend on the per-call rng.
const (
	casmoStreamInit    = 0xca5_0001 // the uniform design of the first epoch
	casmoStreamRestart = 0xca5_0002 // guided restart of the epoch that starts at a given trial
	casmoStreamBest    = 0xca5_0003 // substitute for a repeated local optimum
)

// casmoLimits are the trust-region lengths for one space.
type casmoLimits struct {
	lh0, lhMin, lhMax int
	lx0, lxMin, lxMax float64
	hasCat, hasCont   bool
}

// limits clips the configured lengths to the space: the categorical
// radius to d_h (spec §5.3 Decision) and its minimum to below the initial
// radius, so that a space with d_h = 1 still gets a trust region.
func (c *Casmopolitan) limits(cs *casmoSpace) casmoLimits {
	dh := len(cs.cat)
	lim := casmoLimits{
		lx0: c.LxInit, lxMin: c.LxMin, lxMax: c.LxMax,
		hasCat: dh > 0, hasCont: len(cs.cont) > 0,
	}
	lim.lhMax = dh
	if c.LhMax > 0 {
		lim.lhMax = min(c.LhMax, dh)
	}
	lim.lh0 = min(c.LhInit, lim.lhMax)
	lim.lhMin = min(c.LhMin, lim.lh0-1)
	return lim
}

// casmoState is the state of Alg. 7 after a history has been replayed.
type casmoState struct {
	epoch      int                   // restarts so far
	start      int                   // index in h.Observed of the current epoch's first trial
	local      []int                 // indices in h.Observed of the current epoch's trials
	lh         int                   // categorical radius L^h
	lx         float64               // continuous side L^x
	succ, fail int                   // consecutive successes and failures
	bests      []sampler.Observation // best point of each finished epoch (D* of Eq. 5.13)
	expansions int                   // counts, for tests and logs
	shrinks    int
}

// replay runs the history, in trial order, through the trust-region state
// machine of Alg. 7 with the counters of the reference code [spec §5.3;
// reference code: xingchenwan/Casmopolitan]:
//
//   - the design points of an epoch and the enqueued trials (by their
//     Origin; the first InitPoints trials of the epoch when none is
//     recorded) do not move the counters, nor does a model's point that
//     is the first of the first epoch (it has nothing to be compared with);
//   - every later step is a success if min(y_new) ≤ min(y_local) −
//     1e-3·|min(y_local)| (y_local: the epoch's earlier trials), else a
//     failure; successes reset the failure count and vice versa. A step is
//     one trial, or the trials of one synchronous batch (consecutive
//     trials with the same Observation.Batch), as the reference code
//     adjusts its lengths once per batch;
//   - SuccTol consecutive successes expand both lengths by Rate (capped at
//     their maxima), FailTol consecutive failures shrink them by Rate (the
//     radius rounded down);
//   - a shrink that takes a used length to its minimum ends the epoch: its
//     best point joins D* (a random other point of the epoch if that
//     configuration is already in D*), the lengths and counters reset and
//     the next trials form the guided-restart design (spec §5.4). A
//     model's point that completes after its epoch ended, before any
//     trial of the next (in a parallel study, a trial proposed in the
//     old trust region before the restart: once an epoch ends, every
//     suggestion is a design point until the next has data), belongs to
//     neither: as the new epoch's first or best point it would pull the
//     new trust region back to the optimum the restart left.
//
// The result depends only on the history, the settings and h.Seed.
func (c *Casmopolitan) replay(cs *casmoSpace, h *sampler.History) *casmoState {
	lim := c.limits(cs)
	st := &casmoState{lh: lim.lh0, lx: lim.lx0}
	obs := h.Observed
	for i := 0; i < len(obs); {
		end := i + 1 // the step is obs[i:end]
		for obs[i].Batch != 0 && end < len(obs) && obs[end].Batch == obs[i].Batch {
			end++
		}
		if st.epoch > 0 && len(st.local) == 0 && obs[i].Origin == sampler.OriginModel {
			i = end // a step of the epoch that ended
			continue
		}
		for ; i < end && (len(st.local) == 0 || bo.ModelFree(obs[i], len(st.local) < c.InitPoints)); i++ {
			st.local = append(st.local, i) // the epoch's design, or its first point
		}
		if i == end {
			continue
		}
		best, yNew := math.Inf(1), math.Inf(1)
		for _, j := range st.local {
			best = min(best, obs[j].Y)
		}
		for ; i < end; i++ {
			yNew = min(yNew, obs[i].Y)
			st.local = append(st.local, i)
		}
		if yNew <= best-1e-3*math.Abs(best) {
			st.succ, st.fail = st.succ+1, 0
		} else {
			st.succ, st.fail = 0, st.fail+1
		}
		switch {
		case st.succ == c.SuccTol:
			st.lx = min(st.lx*c.Rate, lim.lxMax)
			st.lh = int(min(float64(st.lh)*c.Rate, float64(lim.lhMax)))
			st.succ = 0
			st.expansions++
		case st.fail == c.FailTol:
			st.lx /= c.Rate
			st.lh = int(float64(st.lh) / c.Rate)
			st.fail = 0
			st.shrinks++
			if (lim.hasCont && st.lx <= lim.lxMin) || (lim.hasCat && st.lh <= lim.lhMin) {
				c.endEpoch(cs, h, st, end-1)
				st.lh, st.lx = lim.lh0, lim.lx0
			}
		}
	}
	return st
}

// endEpoch records the best point of the current epoch in D* and starts a
// new epoch after trial i.
func (c *Casmopolitan) endEpoch(cs *casmoSpace, h *sampler.History, st *casmoState, i int) {
	known := map[string]bool{}
	for _, b := range st.bests {
		known[cs.sp.Key(b.X)] = true
	}
	best := st.local[0]
	for _, j := range st.local {
		if h.Observed[j].Y < h.Observed[best].Y {
			best = j
		}
	}
	if known[cs.sp.Key(h.Observed[best].X)] {
		// The epoch found an optimum already in D*: a random point of the
		// epoch stands in for it (spec §5.4), so that the auxiliary GP
		// learns something new.
		var fresh []int
		for _, j := range st.local {
			if !known[cs.sp.Key(h.Observed[j].X)] {
				fresh = append(fresh, j)
			}
		}
		best = -1
		if len(fresh) > 0 {
			rng := rand.New(rand.NewPCG(h.Seed, casmoStreamBest^uint64(i)<<20))
			best = fresh[rng.IntN(len(fresh))]
		}
	}
	if best >= 0 {
		o := h.Observed[best]
		st.bests = append(st.bests, sampler.Observation{X: slices.Clone(o.X), Y: o.Y})
	}
	st.epoch++
	st.start = i + 1
	st.local = nil
	st.succ, st.fail = 0, 0
}

// centreOf returns the best trial of the current epoch: the centre of the
// trust region and the incumbent of the acquisition (spec §5.5 Decision).
func (st *casmoState) centreOf(h *sampler.History) sampler.Observation {
	best := st.local[0]
	for _, j := range st.local {
		if h.Observed[j].Y < h.Observed[best].Y {
			best = j
		}
	}
	return h.Observed[best]
}

// design returns the design of the current epoch and the region it is
// drawn from: InitPoints uniform points for the first epoch, and for later
// ones the guided-restart centre followed by InitPoints − 1 random points
// of the initial trust region around it (spec §5.1, §5.4). Their
// continuous parts are TuRBO's perturbations [spec §5.4; reference code:
// xingchenwan/Casmopolitan]: a scrambled Sobol point in the box replaces
// each coordinate of the centre with probability min(20/d_x, 1), at least
// one per point, and the others keep the centre's value (above 64
// continuous parameters qmc.Sobol falls back to uniform draws). Both
// designs come from sources seeded by h.Seed (and the epoch's first
// trial), so every call sees the same design.
func (c *Casmopolitan) design(cs *casmoSpace, h *sampler.History, st *casmoState) ([][]float64, trustRegion) {
	if st.epoch == 0 {
		rng := rand.New(rand.NewPCG(h.Seed, casmoStreamInit))
		pts := make([][]float64, c.InitPoints)
		for i := range pts {
			pts[i] = cs.sp.Sample(rng)
		}
		return pts, trustRegion{whole: true}
	}
	kappa := c.restartKappa(cs, st.epoch)
	key := casmoDesignKey{seed: h.Seed, start: st.start, n: c.InitPoints, bests: len(st.bests), kappa: kappa}
	c.mu.Lock()
	if c.memo != nil && c.memo.key == key && c.memo.sp == cs.sp {
		pts, tr := c.memo.pts, c.memo.tr
		c.mu.Unlock()
		return pts, tr
	}
	c.mu.Unlock()
	rng := rand.New(rand.NewPCG(h.Seed, casmoStreamRestart^uint64(st.start)<<20))
	centre, _, _ := c.restartCentre(cs, st.bests, kappa, rng)
	lim := c.limits(cs)
	tr := trustRegion{centre: centre, radius: lim.lh0}
	tr.lo, tr.hi = box(cs, centre, nil, lim.lx0)
	pts := [][]float64{centre}
	var sobol *qmc.Sobol
	var q []float64
	if nc := len(cs.cont); nc > 0 {
		sobol, q = qmc.NewSobol(nc, rng), make([]float64, nc)
	}
	for len(pts) < c.InitPoints {
		if sobol != nil {
			sobol.Next(q)
		}
		pts = append(pts, cs.perturbFrom(tr, q, rng))
	}
	c.mu.Lock()
	c.memo = &casmoDesign{key: key, sp: cs.sp, pts: pts, tr: tr}
	c.mu.Unlock()
	return pts, tr
}

// casmoDesign memoises the last guided-restart design, which is the same
// on every call of an epoch's design phase (a cache: it changes no result).
type casmoDesign struct {
	key casmoDesignKey
	sp  *space.Space
	pts [][]float64
	tr  trustRegion
}

type casmoDesignKey struct {
	seed            uint64
	start, n, bests int
	kappa           float64
}

// casmoZeta is ζ of the theoretical β_i: the thesis leaves it free
// (Theorem 3 holds with probability 1 − ζ for any ζ in (0, 1)); 0.1 is
// the project's δ of GP-UCB (acq.GPUCBKappa).
const casmoZeta = 0.1

// restartKappa returns the multiplier κ of σ in the guided restart that
// starts epoch e ≥ 1: Kappa, or with RestartBetaTheory √β_i at the i-th
// restart, i = e + 1 (Alg. 7 starts with restart = true, so the first
// epoch is restart 1 and restart i fits D*_{i−1}, the i − 1 earlier bests).
func (c *Casmopolitan) restartKappa(cs *casmoSpace, e int) float64 {
	if c.RestartBeta != RestartBetaTheory {
		return c.Kappa
	}
	return math.Sqrt(restartBeta(cs, e+1))
}

// restartBeta is β_i = 2 log(|𝓗| i² π²/(6ζ)) of the categorical regret
// bound [000 App. C.3.4, Theorem 3; spec §3.4], in logs since |𝓗| = Π N_j
// overflows (5⁸⁰ on DifficultPest). Mixed spaces use it too, with |𝓗|
// the number of categorical configurations: the mixed bound's
// β_i = 2B + 300 γ_i log(i/ζ)³ (Theorem 4) needs B ≥ ‖g‖²_k, the RKHS
// norm of an unknown function, and the information gain γ_i, known only
// up to its order, so it cannot be computed. A purely continuous space
// has |𝓗| = 1.
func restartBeta(cs *casmoSpace, i int) float64 {
	logH := 0.0
	for _, j := range cs.cat {
		logH += math.Log(float64(cs.levels[j]))
	}
	return 2 * (logH + 2*math.Log(float64(i)) + math.Log(math.Pi*math.Pi/(6*casmoZeta)))
}

// box returns the continuous trust region around centre: per coordinate a
// half-width w_i·side/2 clipped to [0,1], where w are the ARD
// lengthscales normalised to mean 1 and then to geometric mean 1 (spec
// §5.2; TuRBO). ls = nil means w = 1. Categorical coordinates get [0,1].
func box(cs *casmoSpace, centre, ls []float64, side float64) (lo, hi []float64) {
	n := len(centre)
	lo, hi = make([]float64, n), make([]float64, n)
	for i := range hi {
		hi[i] = 1
	}
	w := make([]float64, len(cs.cont))
	for j := range w {
		w[j] = 1
	}
	if len(ls) == len(cs.cont) && len(ls) > 0 {
		var mean, logSum float64
		for _, l := range ls {
			mean += l
		}
		mean /= float64(len(ls))
		for j, l := range ls {
			w[j] = l / mean
			logSum += math.Log(w[j])
		}
		g := math.Exp(logSum / float64(len(ls)))
		for j := range w {
			w[j] /= g
		}
	}
	for j, i := range cs.cont {
		half := w[j] * side / 2
		lo[i] = max(centre[i]-half, 0)
		hi[i] = min(centre[i]+half, 1)
	}
	return lo, hi
}
