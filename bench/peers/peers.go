package peers

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/space"
)

// Session is one optimisation run of a peer. Ask and Tell alternate: Ask
// returns the next configuration to evaluate and Tell reports its value,
// which is minimised; AskTrial and TellTrial do the same for several
// configurations at once. A Session is not safe for concurrent use, except that
// Close may be called from another goroutine to abandon a run; Close must be
// called to release the peer (for Optuna, its process).
type Session interface {
	// Ask returns the next configuration. If the previous one was never
	// told, the peer records it as failed and moves on.
	Ask(ctx context.Context) (space.Assignment, error)
	// Tell reports the value of the configuration returned by the last Ask.
	// The value must be finite.
	Tell(ctx context.Context, value float64) error
	// AskTrial returns a configuration that stays out, with the id
	// TellTrial takes: many may be out at once and be told in any order
	// (asynchronous workers). It fails no earlier configuration.
	AskTrial(ctx context.Context) (id int64, a space.Assignment, err error)
	// TellTrial reports the value of the configuration AskTrial returned
	// with id. The value must be finite.
	TellTrial(ctx context.Context, id int64, value float64) error
	// Close ends the run. It is safe to call more than once.
	Close() error
}

// The peer names, as the benchmark harness spells its samplers.
const (
	GoptunaTPE   = "goptuna-tpe"
	GoptunaCMAES = "goptuna-cmaes"
	OptunaTPE    = "optuna-tpe"
	// OptunaTPECL is Optuna's TPE with its constant liar, which Optuna
	// recommends for parallel workers: running trials count as the worst
	// value seen, so that they push the next suggestions away.
	OptunaTPECL = "optuna-tpe-cl"
	// OptunaTPEC is Optuna's TPE with constraints_func: it reads the
	// constraint values a trial reported (stored as user attributes) and
	// prefers feasible trials [spec constrained-autotinyml §6; issue 34].
	// On a problem without constraints it is optuna-tpe.
	OptunaTPEC = "optuna-tpe-c"
	// OptunaTPEHB is Optuna's TPE with its HyperbandPruner, the BOHB-like
	// pairing Optuna's users build (issue 43): its sessions hear each
	// trial's reports and say when to stop it (NewPruned). In a benchmark
	// whose trials report nothing it is optuna-tpe, but for the brackets
	// the pruner splits TPE's trials into.
	OptunaTPEHB  = "optuna-tpe-hb"
	OptunaCMAES  = "optuna-cmaes"
	OptunaRandom = "optuna-random"
	// OptunaNSGA2 and OptunaMOTPE are Optuna's multi-objective samplers,
	// NSGAIISampler and MOTPESampler, with Optuna's defaults (issue 43).
	// On a problem of one objective they optimise it alone.
	OptunaNSGA2 = "optuna-nsga2"
	OptunaMOTPE = "optuna-motpe"
)

var names = []string{GoptunaTPE, GoptunaCMAES, OptunaTPE, OptunaTPECL, OptunaTPEC, OptunaTPEHB, OptunaCMAES, OptunaRandom, OptunaNSGA2, OptunaMOTPE}

// multi are the peers that optimise several objectives (NewMulti).
var multi = []string{OptunaNSGA2, OptunaMOTPE, OptunaRandom}

// MultiNames returns the names of the peers that optimise several
// objectives: Optuna's NSGA-II, MOTPE and random sampler.
func MultiNames() []string { return slices.Clone(multi) }

// MultiSession is a Session of several objectives: a tell carries every
// objective's value, each in the sense of its direction.
type MultiSession interface {
	Session
	TellValues(ctx context.Context, values []float64) error
	TellTrialValues(ctx context.Context, id int64, values []float64) error
}

// Directions of the objectives, as Optuna spells them.
const (
	Minimize = "minimize"
	Maximize = "maximize"
)

// NewMulti starts the named peer (MultiNames) on sp with a seed for a
// study of len(directions) objectives, each Minimize or Maximize; its
// session's tells are TellValues and TellTrialValues, in those senses.
func NewMulti(ctx context.Context, name string, sp *space.Space, seed uint64, directions []string) (MultiSession, error) {
	if sp == nil {
		return nil, fmt.Errorf("peers: %s: nil space", name)
	}
	if len(directions) == 0 {
		return nil, fmt.Errorf("peers: %s: no objectives", name)
	}
	for _, d := range directions {
		if d != Minimize && d != Maximize {
			return nil, fmt.Errorf("peers: %s: direction %q: want %s or %s", name, d, Minimize, Maximize)
		}
	}
	if !slices.Contains(multi, name) {
		if !slices.Contains(names, name) {
			return nil, fmt.Errorf("peers: %s", unknown(name))
		}
		return nil, fmt.Errorf("peers: %s optimises one objective; the multi-objective peers are %s", name, strings.Join(multi, ", "))
	}
	return newOptunaWith(ctx, sp, strings.TrimPrefix(name, "optuna-"), seed, nil, directions, nil)
}

// Names returns the names of all peers, whether or not they can run here.
func Names() []string { return slices.Clone(names) }

// Available reports whether the named peer can run on this machine. When it
// cannot, note says what is missing and how to install it; when it can,
// note says what runs it for an Optuna peer ("Optuna 3.1.0 in
// /usr/bin/python3", which the spec asks to be reported) and is empty for
// goptuna, which is compiled in and always available. The Optuna peers
// need a Python interpreter that can import Optuna 3 or later (see the
// package documentation for how it is found). The interpreter is probed
// once per process.
func Available(name string) (ok bool, note string) {
	switch name {
	case GoptunaTPE, GoptunaCMAES:
		return true, ""
	case OptunaTPE, OptunaTPECL, OptunaTPEC, OptunaTPEHB, OptunaCMAES, OptunaRandom, OptunaNSGA2, OptunaMOTPE:
		py := findPython()
		if py.path == "" {
			return false, py.reason
		}
		return true, fmt.Sprintf("Optuna %s in %s", py.version, py.path)
	}
	return false, unknown(name)
}

// New starts the named peer on sp with a seed. Each call is one independent
// optimisation run. ctx bounds only the start (for Optuna, starting the
// process and building its study); use Close to end the run.
func New(ctx context.Context, name string, sp *space.Space, seed uint64) (Session, error) {
	return NewConstrained(ctx, name, sp, seed, nil)
}

// NewConstrained is New for a problem with constraints: the peers that
// model them (optuna-tpe-c) are told the limits, and their sessions take
// each evaluation's metrics (TellMetrics, TellTrialMetrics); the others
// ignore them.
func NewConstrained(ctx context.Context, name string, sp *space.Space, seed uint64, limits constraint.Set) (Session, error) {
	if sp == nil {
		return nil, fmt.Errorf("peers: %s: nil space", name)
	}
	switch name {
	case GoptunaTPE:
		return newGoptuna(sp, seed, false)
	case GoptunaCMAES:
		return newGoptuna(sp, seed, true)
	case OptunaTPE:
		return newOptuna(ctx, sp, "tpe", seed, nil)
	case OptunaTPECL:
		return newOptuna(ctx, sp, "tpe-cl", seed, nil)
	case OptunaTPEC:
		return newOptuna(ctx, sp, "tpe-c", seed, limits)
	case OptunaTPEHB:
		return newOptunaPruned(ctx, sp, "tpe", seed, Pruning{})
	case OptunaCMAES:
		return newOptuna(ctx, sp, "cmaes", seed, nil)
	case OptunaRandom:
		return newOptuna(ctx, sp, "random", seed, nil)
	case OptunaNSGA2:
		return newOptuna(ctx, sp, "nsga2", seed, nil)
	case OptunaMOTPE:
		return newOptuna(ctx, sp, "motpe", seed, nil)
	}
	return nil, fmt.Errorf("peers: %s", unknown(name))
}

func unknown(name string) string {
	return fmt.Sprintf("unknown peer %q; the peers are %s", name, strings.Join(names, ", "))
}

// Pruning is the HyperbandPruner of optuna-tpe-hb, with Optuna's
// arguments; a zero field is Optuna's default (min_resource 1,
// max_resource "auto", reduction_factor 3).
type Pruning struct {
	MinResource, MaxResource int64
	ReductionFactor          int
}

// PrunedSession is a Session whose trials report intermediate values and
// may be stopped by the peer's pruner (Optuna's trial.report and
// trial.should_prune): the multi-fidelity benchmark's.
type PrunedSession interface {
	Session
	// Report records trial id's value after step.
	Report(ctx context.Context, id, step int64, value float64) error
	// ShouldPrune asks the pruner whether trial id should stop now.
	ShouldPrune(ctx context.Context, id int64) (bool, error)
	// Prune ends trial id as pruned; last is its last reported value.
	Prune(ctx context.Context, id int64, last float64) error
}

// NewPruned starts the named peer with the pruner pr: optuna-tpe-hb only.
func NewPruned(ctx context.Context, name string, sp *space.Space, seed uint64, pr Pruning) (PrunedSession, error) {
	if sp == nil {
		return nil, fmt.Errorf("peers: %s: nil space", name)
	}
	if name != OptunaTPEHB {
		return nil, fmt.Errorf("peers: %s has no pruner; the peer with one is %s", name, OptunaTPEHB)
	}
	return newOptunaPruned(ctx, sp, "tpe", seed, pr)
}
