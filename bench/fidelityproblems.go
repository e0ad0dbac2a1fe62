package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"

	"github.com/boaopt/boa/problems"
	"github.com/boaopt/boa/problems/lcbench"
	"github.com/boaopt/boa/problems/tabular"
	"github.com/boaopt/boa/space"
)

// NB201MFPrefix names the two-fidelity NAS-Bench-201 problems,
// nb201-mf:cifar10 and nb201-mf:cifar100.
const NB201MFPrefix = "nb201-mf"

// ParseFidelityProblem reads a problem of the multi-fidelity benchmark:
// nb201-mf:DATASET (cifar10, cifar100) from ../shared/data/nb201, or
// lcbench:TASK. Data that are not here give an error wrapping
// problems.ErrNoData.
func ParseFidelityProblem(spec string) (FidelityProblem, error) {
	head, arg, _ := strings.Cut(spec, ":")
	switch strings.ToLower(head) {
	case NB201MFPrefix:
		return newNB201MF(arg)
	case LCBenchPrefix:
		return newLCBench(arg)
	}
	return nil, fmt.Errorf("unknown multi-fidelity problem %q (the problems are %s:cifar10, %s:cifar100 and %s)", spec, NB201MFPrefix, NB201MFPrefix, lcbenchProblems)
}

// nb201MF is NAS-Bench-201 with the two trainings the table has: after 12
// epochs a trial reports the cell's test_acc_12ep, and trained in full,
// 200 epochs, its final value is the validation accuracy of one of its
// training runs drawn at random (valid_acc_seed*, as problems.Table's
// noisy mode). Both as errors, 100 − accuracy. The run's figure is the
// returned cell's test regret (test_acc, the mean over runs).
//
// The 12-epoch signal is a test accuracy, of a single run (the data's
// README): the only 12-epoch figure the data have. A method that stops
// at 12 epochs thus ranks on a few test images it never returns, which
// flatters the early signal a little; the figure the methods are judged
// by, the returned cell's 200-epoch test accuracy, is the same for all.
// NB201's 12-epoch numbers come from a separate, shorter schedule, not
// from the first 12 epochs of the 200-epoch one; here, as in the
// benchmarks built on NB201, a trial continued past 12 epochs costs 200
// in all, not 212.
type nb201MF struct {
	t *tabular.Table
}

func newNB201MF(dataset string) (*nb201MF, error) {
	if dataset != "cifar10" && dataset != "cifar100" {
		return nil, fmt.Errorf("%s:%s: the data sets are cifar10 and cifar100", NB201MFPrefix, dataset)
	}
	rel := filepath.Join("nb201", dataset+".csv")
	dir, err := problems.DataDir(rel)
	if err != nil {
		return nil, err
	}
	t, err := tabular.Load(tabular.NB201, filepath.Join(dir, rel))
	if err != nil {
		return nil, err
	}
	if _, ok := t.Accuracy12(t.Best()); !ok {
		return nil, fmt.Errorf("%s:%s: the table has no test_acc_12ep", NB201MFPrefix, dataset)
	}
	return &nb201MF{t: t}, nil
}

func (p *nb201MF) Name() string {
	return NB201MFPrefix + "-" + strings.TrimPrefix(p.t.Name(), "nb201-")
}
func (p *nb201MF) Space() *space.Space { return p.t.Space() }
func (p *nb201MF) Steps() []int64      { return []int64{12, 200} }

func (p *nb201MF) Curve(a space.Assignment, rng *rand.Rand) ([]float64, error) {
	acc12, ok := p.t.Accuracy12(a)
	if !ok {
		return nil, fmt.Errorf("%s: no 12-epoch accuracy for %v", p.Name(), a)
	}
	final, err := p.t.Objective(a, true, rng)
	if err != nil {
		return nil, err
	}
	return []float64{100 - acc12, final}, nil
}

// Optimum is the lowest seed-mean validation error: the regret of a noisy
// final value is against it, and TestRegret is the figure that counts.
func (p *nb201MF) Optimum() (float64, bool) { return p.t.Optimum(), true }

func (p *nb201MF) TestRegret(a space.Assignment) (float64, bool) { return p.t.TestRegret(a) }

// LCBenchPrefix names the LCBench problems, lcbench:TASK with TASK one
// of the surrogate's 34 OpenML task ids (lcbench.Surrogate.Tasks).
const LCBenchPrefix = "lcbench"

// lcbenchProblems describes the LCBench problems for errors.
const lcbenchProblems = LCBenchPrefix + ":TASK (an OpenML task id of YAHPO's LCBench, e.g. 3945)"

// LCBenchTasks are the tasks of the acceptance table
// (scripts/bench-multifidelity.sh): the first five of the surrogate's
// list, as they come, not chosen by any result.
var LCBenchTasks = []string{"3945", "7593", "34539", "126025", "126026"}

// The LCBench surrogate, loaded once per process: every task's problem
// shares it.
var (
	lcbenchOnce      sync.Once
	lcbenchSurrogate *lcbench.Surrogate
	lcbenchErr       error
)

// lcbenchMF is a task of YAHPO's LCBench surrogate (package
// problems/lcbench): a trial reports the validation error 100 −
// val_accuracy after each epoch 1..51 and its final value is epoch 52's.
// The surrogate is deterministic.
type lcbenchMF struct {
	p       *lcbench.Problem
	refOnce sync.Once
	ref     float64
	refErr  error
}

func newLCBench(task string) (*lcbenchMF, error) {
	lcbenchOnce.Do(func() { lcbenchSurrogate, lcbenchErr = lcbench.Load("") })
	if lcbenchErr != nil {
		return nil, lcbenchErr
	}
	p, err := lcbenchSurrogate.Problem(task)
	if err != nil {
		return nil, err
	}
	return &lcbenchMF{p: p}, nil
}

func (p *lcbenchMF) Name() string        { return p.p.Name() }
func (p *lcbenchMF) Space() *space.Space { return p.p.Space() }

func (p *lcbenchMF) Steps() []int64 {
	steps := make([]int64, 0, lcbench.MaxEpoch-lcbench.MinEpoch+1)
	for e := lcbench.MinEpoch; e <= lcbench.MaxEpoch; e++ {
		steps = append(steps, int64(e))
	}
	return steps
}

func (p *lcbenchMF) Curve(a space.Assignment, _ *rand.Rand) ([]float64, error) {
	errs, _, err := p.p.Curve(a)
	return errs, err
}

// ReferenceSample is how many configurations the reference of LCBench's
// regret is the best of: as many as LCBench trained per task.
const ReferenceSample = 2000

// Optimum is the surrogate's minimum over the space, which nobody has
// computed, estimated by the lowest 52-epoch error of ReferenceSample
// uniformly random configurations (seeded, the same in every run): the
// best that LCBench's own random sample of the task reached. A method
// that beats every one of them has a negative regret. It costs about a
// second a task, once per process.
func (p *lcbenchMF) Optimum() (float64, bool) {
	p.refOnce.Do(func() {
		rng := rand.New(rand.NewPCG(0x1cbe, 0xc4))
		sp := p.Space()
		p.ref = math.Inf(1)
		for range ReferenceSample {
			v, err := p.p.Evaluate(sp.Decode(sp.Sample(rng)), nil)
			if err != nil {
				p.refErr = err
				return
			}
			p.ref = min(p.ref, v)
		}
	})
	return p.ref, p.refErr == nil
}
