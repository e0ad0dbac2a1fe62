package tpe

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
)

// TPE is the tree-structured Parzen estimator (Bergstra et al. 2011), the
// cheap model-based sampler of Optuna and Hyperopt, with the decisions of
// Optuna 3.1's TPESampler at its defaults, which a parity test checks
// against the installed python3-optuna (docs/samplers.md, "TPE"). After
// Startup random trials, the best min(⌈n/10⌉, 25) of the n completed and
// pruned trials give a density l(x) and the others g(x) (split); each is
// a Parzen estimator, a mixture with a truncated Gaussian kernel on each
// trial (a categorical kernel for Categorical and Bool, a kernel's mass
// in the cell for Int and Ordinal) and one prior kernel, the old trials
// of g weighed down when it has more than 25 (weights), the bandwidths
// from the neighbours' distances and clipped (newParzen). The next point
// maximises l(x)/g(x), which is expected improvement under that model,
// over Candidates draws from l. By default the estimators are univariate
// and each parameter takes its best draw on its own, so a suggestion
// costs O(d·n·Candidates) and no fit: TPE is for budgets beyond a GP's
// reach (thousands of trials). On a conditional space each parameter's
// estimators use only the trials in which it was active, as Optuna's
// independent TPE does.
//
// Where boa differs from Optuna's defaults, measured again with these
// estimators (docs/samplers.md, "TPE"): failed trials count among the bad
// (g), which Optuna leaves out: then the region where trials fail stays
// unmodelled and l/g is largest there; on Branin with a failing region
// 29 of 40 trials failed that way, 6 this way (TestReproFailedAmongBad).
// ConstantLiar is Optuna's constant_liar, off there and on here: running
// trials count among the bad too, so parallel workers do not crowd one
// point; with 4 workers it lowered the median regret on each of 6
// problems. A suggestion that repeats a tried configuration of a
// discrete space gives way to the best untried draw. None of these
// changes a sequential run on a continuous space, where the suggestions
// follow Optuna's rules throughout.
//
// Between asks tpe keeps the configurations tried (bo.Tried), which
// changes no suggestion; the estimators it builds again on every ask
// (docs/performance.md, "What a sampler keeps between asks").
type TPE struct {
	Gamma        float64 // fraction of the trials that forms l; 0 (default) is Optuna's rule, ⌈n/10⌉ up to 25; the spec's Decision is 0.25
	Candidates   int     // draws from l per parameter (per group with Multivariate); default 24, Optuna's n_ei_candidates
	Startup      int     // uniform random trials before the model starts; default 10
	ConstantLiar bool    // count pending trials among the bad ones; default true (docs/samplers.md, "TPE")
	// Multivariate is Optuna's multivariate TPE (Falkner et al. 2018): one
	// estimator over the parameters active in every trial, whose kernels
	// are products over them with the bandwidth 0.2·n^(−1/(d+4)) of the
	// range, so that l/g is maximised jointly; the others as without it.
	Multivariate bool
	// Group, with Multivariate, is Optuna's group option: one joint
	// estimator for each group of parameters that are active in the same
	// trials (a conditional space's branches), on those trials.
	Group bool

	tried bo.Tried // the configurations tried, kept between asks
}

// New returns tpe with its defaults.
func New() *TPE { return &TPE{Candidates: 24, Startup: 10, ConstantLiar: true} }

func (t *TPE) Name() string { return "tpe" }

// Designing reports whether fewer than Startup trials have completed or
// been pruned (Optuna's n_startup_trials counts both), so that the next
// suggestion is a uniform random point.
func (t *TPE) Designing(h *sampler.History) bool {
	return len(h.Observed)+len(h.Pruned) < bo.OrDefault(t.Startup, 10)
}

// Suggest draws Candidates values of each block of parameters (each
// parameter alone by default) from its l and takes the one with the
// largest l/g: since l/g is a product over the blocks, that maximises it
// over every combination of the draws. On a discrete space that
// combination may have been tried already, or it may break a limit known
// before evaluation (History.Admits); then the best other joint draw is
// taken, and failing that an untried random point, as the other
// model-based samplers never repeat a configuration while there are
// others (docs/samplers.md, "Repeated configurations").
func (t *TPE) Suggest(_ context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	if t.Designing(h) {
		u := h.Space.Sample(rng)
		excluded, done := t.tried.Excluded(h)
		defer done()
		return bo.Untried(h.Space, excluded, u, rng), nil // bo.UntriedPoint with the kept set
	}
	sp := h.Space
	models := t.models(h)
	d, nc := sp.Len(), bo.OrDefault(t.Candidates, 24)
	draws := make([][]float64, nc) // draws[j]: joint candidate j
	for j := range draws {
		draws[j] = make([]float64, d)
	}
	score := make([][]float64, nc) // score[j][b]: log l − log g of block b of draws[j]
	for j := range score {
		score[j] = make([]float64, len(models))
	}
	// Every draw first, in the order of the random source; then the
	// scores, which draw nothing, each (draw, block) on its own across
	// the cores, each worker with its own scratch for the kernels' terms.
	for _, m := range models {
		for j := range nc {
			m.l.sample(rng, draws[j])
		}
	}
	kernels := 0
	for _, m := range models {
		kernels = max(kernels, len(m.l.w), len(m.g.w))
	}
	inParallel(nc*len(models), parallelFrom(h), func() func(int) {
		buf := make([]float64, kernels)
		return func(task int) {
			j, b := task%nc, task/nc
			score[j][b] = models[b].scoreWith(draws[j], buf)
		}
	})
	best := make([]float64, d)
	for b, m := range models {
		top := 0
		for j := range nc {
			if score[j][b] > score[top][b] {
				top = j
			}
		}
		for _, i := range m.params {
			best[i] = draws[top][i]
		}
	}
	excluded, done := t.tried.Excluded(h)
	defer done()
	sp.Round(best)
	if !excluded(best) {
		return best, nil
	}
	return bestUntried(h, models, draws, score, excluded, rng), nil
}

// model is a block's pair of estimators.
type model struct {
	block
	l, g *parzen
}

// score is log l(u) − log g(u) over the block's parameters.
func (m model) score(u []float64) float64 { return m.l.logPDF(u) - m.g.logPDF(u) }

// scoreWith is score with buf, of at least either estimator's kernels,
// as the scratch of their terms.
func (m model) scoreWith(u, buf []float64) float64 {
	return m.l.logPDFWith(u, buf) - m.g.logPDFWith(u, buf)
}

// models returns the estimators of each block (blocks): l from the trials
// below (split), g from those above, each from the trials in which the
// block's parameters are active.
func (t *TPE) models(h *sampler.History) []model {
	below, above := t.split(h)
	blocks := t.blocks(h)
	out := make([]model, len(blocks))
	inParallel(len(blocks), parallelFrom(h), func() func(int) {
		return func(b int) {
			blk := blocks[b]
			good, bad := activeIn(h.Space, below, blk.params), activeIn(h.Space, above, blk.params)
			out[b] = model{block: blk,
				l: newParzen(h.Space, blk.params, good, weights(len(good)), blk.joint),
				g: newParzen(h.Space, blk.params, bad, weights(len(bad)), blk.joint)}
		}
	})
	return out
}

// parallelFrom reports whether h has enough trials for the blocks'
// estimators and scores to be worth spreading over the cores: each
// block's cost grows with the trials, a goroutine's does not.
func parallelFrom(h *sampler.History) bool {
	return len(h.Observed)+len(h.Pruned)+len(h.Pending)+len(h.Failed) >= 500
}

// inParallel calls f(0), …, f(n−1), on up to GOMAXPROCS workers when
// parallel, else in order on one; worker makes each worker's f. The
// calls must be independent.
func inParallel(n int, parallel bool, worker func() func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if !parallel || workers < 2 {
		f := worker()
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			f := worker()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				f(i)
			}
		})
	}
	wg.Wait()
}

// block is a set of parameters modelled together: one parameter of the
// independent TPE, or a multivariate group (joint).
type block struct {
	params []int
	joint  bool
}

// blocks returns the blocks of the space: each parameter alone, or with
// Multivariate the parameters active in every completed and pruned trial
// in one joint block (with Group, one per set of parameters active in
// the same such trials), the rest alone. Optuna leaves out of its joint
// search space the parameters with a single value; so does this.
func (t *TPE) blocks(h *sampler.History) []block {
	sp := h.Space
	var out []block
	if t.Multivariate {
		trials := slices.Concat(h.Pruned, nil)
		for _, o := range h.Observed {
			trials = append(trials, o.X)
		}
		sig := map[string][]int{} // activity over the trials → parameters
		var keys []string
		for i := range sp.Len() {
			if sp.Levels(i) == 1 {
				continue
			}
			key := make([]byte, len(trials))
			all, none := true, true
			for k, u := range trials {
				key[k] = '0'
				if sp.Active(u)[i] {
					key[k], none = '1', false
				} else {
					all = false
				}
			}
			if none || (!t.Group && !all) {
				continue
			}
			if !t.Group {
				key = nil // one joint block: the parameters active in every trial
			}
			// With Group, Optuna's _SearchSpaceGroup splits the groups on each
			// trial's parameters: two stay together exactly when they are
			// active in the same trials, the same key here.
			if _, ok := sig[string(key)]; !ok {
				keys = append(keys, string(key))
			}
			sig[string(key)] = append(sig[string(key)], i)
		}
		joint := make([]bool, sp.Len())
		for _, k := range keys {
			out = append(out, block{params: sig[k], joint: true})
			for _, i := range sig[k] {
				joint[i] = true
			}
		}
		for i := range sp.Len() {
			if !joint[i] {
				out = append(out, block{params: []int{i}})
			}
		}
		return out
	}
	for i := range sp.Len() {
		out = append(out, block{params: []int{i}})
	}
	return out
}

// activeIn returns the points of xs at which every parameter of params is
// active.
func activeIn(sp *space.Space, xs [][]float64, params []int) [][]float64 {
	if !slices.ContainsFunc(params, sp.Conditional) {
		return xs // active everywhere: no point to test (the Active calls were a tenth of a suggestion)
	}
	var out [][]float64
	for _, u := range xs {
		act := sp.Active(u)
		ok := true
		for _, i := range params {
			ok = ok && act[i]
		}
		if ok {
			out = append(out, u)
		}
	}
	return out
}

// bestUntried returns the joint draw, among those not excluded (tried, or
// not admitted by h), with the largest l/g over the blocks active at it,
// or an untried random point when every draw is excluded.
func bestUntried(h *sampler.History, blocks []model, draws, score [][]float64, excluded func([]float64) bool, rng *rand.Rand) []float64 {
	sp := h.Space
	var pick []float64
	top := math.Inf(-1)
	for j, u := range draws {
		if sp.Round(u); excluded(u) {
			continue
		}
		s := 0.0
		act := sp.Active(u)
		for b, blk := range blocks {
			if act[blk.params[0]] {
				s += score[j][b]
			}
		}
		if s > top {
			pick, top = u, s
		}
	}
	if pick == nil {
		return bo.UntriedPoint(h, rng)
	}
	return pick
}

func init() { sampler.Register("tpe", func() sampler.Sampler { return New() }) }
