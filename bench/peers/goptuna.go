package peers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"

	"github.com/c-bata/goptuna"
	"github.com/c-bata/goptuna/cmaes"
	"github.com/c-bata/goptuna/tpe"

	"github.com/boaopt/boa/space"
)

// tpeStartup is the number of random trials before goptuna's TPE models
// the history; goptuna's default, set explicitly because seededCategorical
// must agree with it.
const tpeStartup = 10

// Streams of math/rand/v2's PCG for the draws this package makes on behalf
// of goptuna (see seededCategorical).
const streamCategorical = 0x9e3779b97f4a7c15

// goptunaSession drives an in-process goptuna study through its storage
// (CreateNewTrial, suggest, SetTrialValue, SetTrialState), goptuna's
// ask/tell path (the one Katib uses), so no goroutine waits inside
// Study.Optimize.
type goptunaSession struct {
	study   *goptuna.Study
	plans   []plan
	pending int          // trial awaiting Tell, or -1
	out     map[int]bool // trials asked with AskTrial and not told yet
	closed  atomic.Bool  // set by Close, which may run on another goroutine (Session)
}

func newGoptuna(sp *space.Space, seed uint64, cma bool) (*goptunaSession, error) {
	pls := plans(sp)
	s64 := int64(seed) // goptuna seeds are int64; a uint64 wraps, which keeps seeds distinct
	cat := rand.New(rand.NewPCG(seed, streamCategorical))
	opts := []goptuna.StudyOption{
		goptuna.StudyOptionDirection(goptuna.StudyDirectionMinimize),
		goptuna.StudyOptionLogger(nil), // a StdLogger without a log.Logger writes nothing
	}
	if cma {
		// goptuna's CMA-ES is a relative sampler over the numeric parameters;
		// every other parameter (categoricals, conditional children) goes to
		// the study's independent sampler, random as in goptuna's own setup.
		random := goptuna.NewRandomSampler(goptuna.RandomSamplerOptionSeed(s64 ^ 0x5bd1e995))
		opts = append(opts, goptuna.StudyOptionSampler(&seededCategorical{inner: random, rng: cat, startup: -1}))
		if def := cmaSearchSpace(pls); def != nil {
			opts = append(opts,
				goptuna.StudyOptionRelativeSampler(cmaes.NewSampler(cmaes.SamplerOptionSeed(s64))),
				goptuna.StudyOptionDefineSearchSpace(def))
		}
	} else {
		t := tpe.NewSampler(tpe.SamplerOptionSeed(s64), tpe.SamplerOptionNumberOfStartupTrials(tpeStartup))
		opts = append(opts, goptuna.StudyOptionSampler(&seededCategorical{inner: t, rng: cat, startup: tpeStartup}))
	}
	study, err := goptuna.CreateStudy("boa-peer", opts...)
	if err != nil {
		return nil, fmt.Errorf("peers: creating the goptuna study: %w", err)
	}
	return &goptunaSession{study: study, plans: pls, pending: -1, out: map[int]bool{}}, nil
}

// cmaSearchSpace is the space CMA-ES works in: every unconditional
// parameter, declared up front with StudyOptionDefineSearchSpace (goptuna's
// advice for define-by-run objectives). goptuna's default, the intersection
// of the spaces of completed trials, would shrink the first time a
// conditional child is inactive, and goptuna v0.9.0 compares categorical
// distributions there with != on interfaces holding slices, which panics.
// CMA-ES itself keeps only the numeric entries and needs at least two of
// them (as in goptuna); with fewer, nil: every parameter is then sampled by
// the independent sampler.
func cmaSearchSpace(pls []plan) map[string]any {
	def := map[string]any{}
	numeric := 0
	for i := range pls {
		if len(pls[i].When) > 0 {
			continue
		}
		d := pls[i].goptunaDist()
		if _, cat := d.(goptuna.CategoricalDistribution); !cat {
			numeric++
		}
		def[pls[i].Name] = d
	}
	if numeric < 2 {
		return nil
	}
	return def
}

// goptunaDist is the goptuna distribution a parameter is suggested from; it
// equals what the trial's Suggest* method builds, so that goptuna matches it
// against the defined search space.
//
// Log-scale integers: goptuna v0.9.0 has no log-int distribution, so they
// are suggested as log-uniform floats on [low−½, high+½] and rounded, which
// gives each integer v the cell [v−½, v+½) on the log scale: Optuna's TPE
// treats IntDistribution(log=True) the same way, and so does boa's encoding.
func (pl *plan) goptunaDist() any {
	p := &pl.Param
	switch p.Kind {
	case space.Float:
		if p.Log {
			return goptuna.LogUniformDistribution{Low: p.Low, High: p.High}
		}
		return goptuna.UniformDistribution{Low: p.Low, High: p.High}
	case space.Int:
		if p.Log {
			return goptuna.LogUniformDistribution{Low: p.Low - 0.5, High: p.High + 0.5}
		}
		return goptuna.IntUniformDistribution{Low: int(p.Low), High: int(p.High)}
	case space.Ordinal:
		if pl.step > 0 {
			return goptuna.DiscreteUniformDistribution{Low: p.Values[0], High: p.Values[len(p.Values)-1], Q: pl.step}
		}
		return goptuna.IntUniformDistribution{Low: 0, High: len(p.Values) - 1} // the value's index
	case space.Categorical:
		return goptuna.CategoricalDistribution{Choices: p.Choices}
	case space.Bool:
		return goptuna.CategoricalDistribution{Choices: []string{"false", "true"}}
	}
	panic(fmt.Sprintf("peers: unknown kind %v", p.Kind))
}

// suggest asks the trial for one parameter and converts goptuna's value to
// boa's canonical type.
func (pl *plan) suggest(t *goptuna.Trial) (any, error) {
	p := &pl.Param
	switch d := pl.goptunaDist().(type) {
	case goptuna.UniformDistribution:
		x, err := t.SuggestFloat(p.Name, d.Low, d.High)
		return clampFloat(x, p.Low, p.High), err
	case goptuna.LogUniformDistribution:
		x, err := t.SuggestLogFloat(p.Name, d.Low, d.High)
		if p.Kind == space.Int {
			return int(clampFloat(math.Round(x), p.Low, p.High)), err
		}
		return clampFloat(x, p.Low, p.High), err
	case goptuna.IntUniformDistribution:
		v, err := t.SuggestInt(p.Name, d.Low, d.High)
		v = min(max(v, d.Low), d.High) // CMA-ES proposals are rounded, not checked
		if p.Kind == space.Ordinal {
			return p.Values[v], err
		}
		return v, err
	case goptuna.DiscreteUniformDistribution:
		x, err := t.SuggestDiscreteFloat(p.Name, d.Low, d.High, d.Q)
		return nearest(p.Values, x), err
	case goptuna.CategoricalDistribution:
		c, err := t.SuggestCategorical(p.Name, d.Choices)
		if err != nil {
			return nil, err
		}
		if p.Kind == space.Bool {
			return c == "true", nil
		}
		return c, nil
	}
	panic("peers: unreachable")
}

// Ask fails the trial of the previous Ask if it was not told, then asks
// for a new one.
func (g *goptunaSession) Ask(ctx context.Context) (a space.Assignment, err error) {
	if err := g.usable(ctx); err != nil {
		return nil, err
	}
	defer recoverPanic(&err)
	if g.pending >= 0 {
		if err := g.study.Storage.SetTrialState(g.pending, goptuna.TrialStateFail); err != nil {
			return nil, fmt.Errorf("peers: goptuna: failing the untold trial: %w", err)
		}
		g.pending = -1
	}
	id, a, err := g.newTrial()
	if err != nil {
		return nil, err
	}
	g.pending = id
	return a, nil
}

// AskTrial asks for a trial that stays out until TellTrial; goptuna's TPE
// and CMA-ES model the completed trials only, as Optuna's do by default.
func (g *goptunaSession) AskTrial(ctx context.Context) (id int64, a space.Assignment, err error) {
	if err := g.usable(ctx); err != nil {
		return 0, nil, err
	}
	defer recoverPanic(&err)
	t, a, err := g.newTrial()
	if err != nil {
		return 0, nil, err
	}
	g.out[t] = true
	return int64(t), a, nil
}

// newTrial creates a trial and suggests the active parameters in plan
// order.
func (g *goptunaSession) newTrial() (int, space.Assignment, error) {
	id, err := g.study.Storage.CreateNewTrial(g.study.ID)
	if err != nil {
		return 0, nil, fmt.Errorf("peers: goptuna: creating a trial: %w", err)
	}
	t := goptuna.Trial{Study: g.study, ID: id}
	if err := t.CallRelativeSampler(); err != nil {
		return 0, nil, fmt.Errorf("peers: goptuna: relative sampling: %w", err)
	}
	a := make(space.Assignment, len(g.plans))
	for i := range g.plans {
		pl := &g.plans[i]
		if !active(pl.Param, a) {
			continue
		}
		v, err := pl.suggest(&t)
		if err != nil {
			return 0, nil, fmt.Errorf("peers: goptuna: suggesting %s: %w", pl.Name, err)
		}
		a[pl.Name] = v
	}
	return id, a, nil
}

// Tell completes the pending trial with value.
func (g *goptunaSession) Tell(ctx context.Context, value float64) (err error) {
	if err := g.usable(ctx); err != nil {
		return err
	}
	if err := checkValue(value, g.pending >= 0); err != nil {
		return err
	}
	defer recoverPanic(&err)
	if err := g.complete(g.pending, value); err != nil {
		return err
	}
	g.pending = -1
	return nil
}

// TellTrial completes trial id, asked with AskTrial, with value.
func (g *goptunaSession) TellTrial(ctx context.Context, id int64, value float64) (err error) {
	if err := g.usable(ctx); err != nil {
		return err
	}
	if err := checkValue(value, g.out[int(id)]); err != nil {
		return fmt.Errorf("%w (trial %d)", err, id)
	}
	defer recoverPanic(&err)
	if err := g.complete(int(id), value); err != nil {
		return err
	}
	delete(g.out, int(id))
	return nil
}

func (g *goptunaSession) complete(id int, value float64) error {
	if err := g.study.Storage.SetTrialValue(id, value); err != nil {
		return fmt.Errorf("peers: goptuna: setting the trial value: %w", err)
	}
	if err := g.study.Storage.SetTrialState(id, goptuna.TrialStateComplete); err != nil {
		return fmt.Errorf("peers: goptuna: completing the trial: %w", err)
	}
	return nil
}

// Close ends the run; the study lives in memory, so nothing else is freed.
func (g *goptunaSession) Close() error {
	g.closed.Store(true)
	return nil
}

func (g *goptunaSession) usable(ctx context.Context) error {
	if g.closed.Load() {
		return errClosed
	}
	return ctx.Err()
}

var errClosed = errors.New("peers: the session is closed")

// checkValue rejects what no peer can rank.
func checkValue(value float64, asked bool) error {
	if !asked {
		return errors.New("peers: Tell without a pending Ask")
	}
	if math.IsNaN(value) || math.IsInf(value, 0) {
		return fmt.Errorf("peers: Tell needs a finite value, got %v", value)
	}
	return nil
}

// recoverPanic turns a panic inside goptuna into an error, so one peer's
// bug fails its run instead of the whole benchmark.
func recoverPanic(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("peers: goptuna panicked: %v", r)
	}
}

// seededCategorical passes every draw to goptuna's sampler except the
// random categorical ones: goptuna v0.9.0's RandomSampler draws categorical
// indices from math/rand's global source, which is seeded at random since
// Go 1.20 and shared by the whole process, so a seed would not fix the run.
// Here those draws come from rng, uniform over the choices as in goptuna.
//
// startup < 0 means inner always samples at random (the random sampler);
// otherwise inner is TPE, which samples a parameter at random while it has
// fewer than startup completed or pruned observations (tpe.Sampler.Sample).
type seededCategorical struct {
	inner   goptuna.Sampler
	rng     *rand.Rand
	startup int
	modeled map[string]bool // parameters past the TPE start-up; a count never drops
}

func (s *seededCategorical) Sample(study *goptuna.Study, trial goptuna.FrozenTrial, name string, dist any) (float64, error) {
	d, ok := dist.(goptuna.CategoricalDistribution)
	if !ok || !s.random(study, name) {
		return s.inner.Sample(study, trial, name, dist)
	}
	return float64(s.rng.IntN(len(d.Choices))), nil
}

func (s *seededCategorical) random(study *goptuna.Study, name string) bool {
	if s.startup < 0 {
		return true
	}
	if s.modeled[name] {
		return false
	}
	trials, err := study.GetTrials()
	if err != nil {
		return false // let TPE meet the same error
	}
	n := 0
	for i := range trials {
		st := trials[i].State
		if _, has := trials[i].InternalParams[name]; has && (st == goptuna.TrialStateComplete || st == goptuna.TrialStatePruned) {
			n++
		}
	}
	if n < s.startup {
		return true
	}
	if s.modeled == nil {
		s.modeled = map[string]bool{}
	}
	s.modeled[name] = true
	return false
}
