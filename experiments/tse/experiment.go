package tse

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/boaopt/boa/curve"
)

// Protocol is spec §8's experiment on one data set.
type Protocol struct {
	N        int    // architectures, sampled uniformly without repeats
	Seeds    int    // training seeds per architecture, 1..Seeds
	ArchSeed uint64 // seeds the architecture sample
	Budgets  []int  // the epochs T at which the estimators are compared
	Config   Config
	Workers  int // parallel trainings; 0 means GOMAXPROCS
}

// FullProtocol is spec §8 on digits: 300 architectures, T_end = 50,
// 3 seeds, budgets T ∈ {1, 2, 5, 10, 0.5·T_end}.
func FullProtocol() Protocol {
	return Protocol{N: 300, Seeds: 3, ArchSeed: 8, Budgets: []int{1, 2, 5, 10, 25}, Config: DefaultConfig()}
}

// CIProtocol is spec §8's CI version: 40 architectures, 10 epochs,
// 1 seed (budgets 1, 2, 5 = 0.5·T_end and 10).
func CIProtocol() Protocol {
	p := FullProtocol()
	p.N, p.Seeds, p.Budgets, p.Config.Epochs = 40, 1, []int{1, 2, 5, 10}, 10
	return p
}

// Result holds every run of an experiment.
type Result struct {
	P       Protocol
	Split   *Split
	Archs   []Arch
	Runs    [][]Run   // [architecture][seed]
	Final   []float64 // seed-mean final test accuracy: the quality to rank by
	Wall    float64   // seconds for all the training
	Workers int
}

// Experiment trains every (architecture, seed) pair, spread over the
// workers. Each run depends on its pair only and lands in its own slot, so
// the result does not depend on the scheduling.
func Experiment(sp *Split, p Protocol) *Result {
	start := time.Now()
	res := &Result{P: p, Split: sp, Archs: SampleArchs(p.N, p.ArchSeed)}
	res.Runs = make([][]Run, len(res.Archs))
	for i := range res.Runs {
		res.Runs[i] = make([]Run, p.Seeds)
	}
	workers := p.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	res.Workers = workers
	jobs := make(chan [2]int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				res.Runs[j[0]][j[1]] = Train(res.Archs[j[0]], sp, p.Config, uint64(j[1]+1))
			}
		})
	}
	for i := range res.Archs {
		for s := range p.Seeds {
			jobs <- [2]int{i, s}
		}
	}
	close(jobs)
	wg.Wait()
	res.Final = make([]float64, len(res.Archs))
	for i, runs := range res.Runs {
		for _, r := range runs {
			res.Final[i] += r.TestAcc / float64(len(runs))
		}
	}
	res.Wall = time.Since(start).Seconds()
	return res
}

// An Estimator scores a run from its first T epochs, higher better: the
// losses' signs are flipped [000 §8.4 footnote 2].
type Estimator struct {
	Name string
	F    func(r *Run, T int) float64
}

func trainLosses(r *Run, T int) []float64 {
	out := make([]float64, T)
	for t := range out {
		out[t] = r.Epochs[t].TrainLoss
	}
	return out
}

func fromTrain(e curve.Estimator) func(*Run, int) float64 {
	return func(r *Run, T int) float64 { return -e.Estimate(trainLosses(r, T)) }
}

// Estimators are the compared curve estimators (spec §2, §4). TLmini is
// not among them: it is a mean of per-minibatch correlations, not one
// score per run (see Rho).
var Estimators = []Estimator{
	{"TSE", fromTrain(curve.TSE{})},
	{"TSE-E (E=1)", fromTrain(curve.TSEE{E: 1})},
	{"TSE-E (E=2)", fromTrain(curve.TSEE{E: 2})},
	{"TSE-E (E=5)", fromTrain(curve.TSEE{E: 5})},
	{"TSE-EMA (γ=0.9)", fromTrain(curve.TSEEMA{Gamma: 0.9})},
	{"TSE-EMA (γ=0.999)", fromTrain(curve.TSEEMA{Gamma: 0.999})},
	{"SoVL", func(r *Run, T int) float64 {
		var s float64
		for _, e := range r.Epochs[:T] {
			s += e.ValLoss
		}
		return -s
	}},
	{"VAccES", func(r *Run, T int) float64 { return r.Epochs[T-1].ValAcc }},
}

// TLmini is the name of the minibatch-loss baseline in the tables.
const TLmini = "TLmini"

// Rho is Spearman's ρ between the seed-mean final test accuracy and the
// estimator called name at budget T, computed on each architecture's
// first-seed curve, as one NAS run would see it (the thesis ranks one
// training run per architecture against the benchmark's final accuracy).
// For TLmini it is the mean over epoch T's minibatches of ρ between the
// final accuracy and minus that minibatch's loss; all architectures of a
// seed see the same minibatches (Train), so minibatch i is one data subset.
func (res *Result) Rho(name string, T int) float64 {
	n := len(res.Archs)
	x := make([]float64, n)
	if name == TLmini {
		nb := len(res.Runs[0][0].Epochs[T-1].BatchLoss)
		var s float64
		for b := range nb {
			for i := range x {
				x[i] = -res.Runs[i][0].Epochs[T-1].BatchLoss[b]
			}
			s += Spearman(x, res.Final)
		}
		return s / float64(nb)
	}
	for _, e := range Estimators {
		if e.Name == name {
			for i := range x {
				x[i] = e.F(&res.Runs[i][0], T)
			}
			return Spearman(x, res.Final)
		}
	}
	return math.NaN()
}

// Names lists the table's rows: Estimators, then TLmini.
func Names() []string {
	var out []string
	for _, e := range Estimators {
		out = append(out, e.Name)
	}
	return append(out, TLmini)
}

// BudgetStats is Algorithm 12 resampled [000 §8.4.2, Fig. 8.6]: the
// training-loss curves (first seed) of random subsets of ns architectures,
// drawn without replacement, reps times with a PCG source seeded by seed;
// it returns T_effective of each subset.
func (res *Result) BudgetStats(ns, reps int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, uint64(ns)))
	all := make([][]float64, len(res.Archs))
	for i := range all {
		all[i] = trainLosses(&res.Runs[i][0], len(res.Runs[i][0].Epochs))
	}
	out := make([]float64, reps)
	for k := range out {
		perm := r.Perm(len(all))[:min(ns, len(all))]
		sub := make([][]float64, len(perm))
		for j, i := range perm {
			sub[j] = all[i]
		}
		out[k], _ = curve.EffectiveBudget(sub) // sub is never empty
	}
	return out
}
