package tse

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/boaopt/boa/bench"
	"github.com/boaopt/boa/curve"
)

// Acceptance is one of spec §8's acceptance lines, evaluated.
type Acceptance struct {
	ID   string
	Met  bool
	Text string // the numbers behind the verdict
}

func (a Acceptance) String() string {
	v := "not met"
	if a.Met {
		v = "met"
	}
	return fmt.Sprintf("(%s) %s: %s", a.ID, v, a.Text)
}

// Table is ρ for every estimator (rows, Names) and budget (columns).
func (res *Result) Table() map[string][]float64 {
	out := map[string][]float64{}
	for _, name := range Names() {
		for _, T := range res.P.Budgets {
			out[name] = append(out[name], res.Rho(name, T))
		}
	}
	return out
}

// Check evaluates spec §8's acceptance lines on the table (TSE-EMA is the
// default γ = 0.999 in (a)). A budget count needs 4 of 5, i.e. ⌈0.8·n⌉
// of n budgets.
func (res *Result) Check(tab map[string][]float64) []Acceptance {
	B := res.P.Budgets
	need := int(math.Ceil(0.8 * float64(len(B))))
	ema, ema9, va := tab["TSE-EMA (γ=0.999)"], tab["TSE-EMA (γ=0.9)"], tab["VAccES"]
	e1, e2, e5, sovl := tab["TSE-E (E=1)"], tab["TSE-E (E=2)"], tab["TSE-E (E=5)"], tab["SoVL"]

	both, nEMA, nE1 := 0, 0, 0
	var parts []string
	for k, T := range B {
		okA, okB := ema[k] >= va[k], e1[k] >= sovl[k]
		if okA {
			nEMA++
		}
		if okB {
			nE1++
		}
		if okA && okB {
			both++
		}
		parts = append(parts, fmt.Sprintf("T=%d %.3f vs %.3f, %.3f vs %.3f", T, ema[k], va[k], e1[k], sovl[k]))
	}
	a := Acceptance{"a", both >= need, fmt.Sprintf(
		"ρ(TSE-EMA γ=0.999) ≥ ρ(VAccES) at %d, ρ(TSE-E E=1) ≥ ρ(SoVL) at %d, both at %d of %d budgets (need ≥ %d); %s",
		nEMA, nE1, both, len(B), need, strings.Join(parts, "; "))}

	best := 0
	parts = parts[:0]
	for k, T := range B {
		if e1[k] >= e2[k] && e1[k] >= e5[k] {
			best++
		}
		parts = append(parts, fmt.Sprintf("T=%d %.3f/%.3f/%.3f", T, e1[k], e2[k], e5[k]))
	}
	b := Acceptance{"b", best == len(B), fmt.Sprintf(
		"E=1 best (ties count) at %d of %d budgets; ρ for E=1/2/5: %s", best, len(B), strings.Join(parts, "; "))}

	worst, at := 0.0, 0
	for k := range B {
		if d := math.Abs(ema9[k] - ema[k]); d > worst || math.IsNaN(d) {
			worst, at = d, B[k]
		}
	}
	c := Acceptance{"c", worst <= 0.05, fmt.Sprintf(
		"max over budgets |ρ(γ=0.9) − ρ(γ=0.999)| = %.4f (at T=%d), need ≤ 0.05", worst, at)}
	return []Acceptance{a, b, c, res.checkBudget()}
}

// checkBudget is acceptance line (d): Algorithm 12 on 100 random subsets
// of N_s = 10 training-loss curves against the N_s = 100 value, the mean
// over 100 subsets of 100 (Fig. 8.6 plots such means).
func (res *Result) checkBudget() Acceptance {
	ref := res.BudgetStats(100, 100, 12)
	small := res.BudgetStats(10, 100, 12)
	var mean float64
	for _, v := range ref {
		mean += v / float64(len(ref))
	}
	in := 0
	for _, v := range small {
		if math.Abs(v-mean) <= 0.2*mean {
			in++
		}
	}
	return Acceptance{"d", in >= 80, fmt.Sprintf(
		"Algorithm 12 on random subsets of the %d first-seed training-loss curves: N_s=100 mean T_effective %.2f (range %.1f–%.1f over 100 subsets); N_s=10: %d of 100 subsets within ±20%% (%.2f–%.2f), need ≥ 80; N_s=10 range %.1f–%.1f",
		len(res.Archs), mean, slices.Min(ref), slices.Max(ref), in, 0.8*mean, 1.2*mean, slices.Min(small), slices.Max(small))}
}

// Report writes the protocol, the timings, the ρ table in markdown and the
// acceptance lines.
func (res *Result) Report(w io.Writer) []Acceptance {
	p := res.P
	var secs []float64
	disconnected, slowA, slowS := 0, 0, 0
	for i, runs := range res.Runs {
		for s, r := range runs {
			secs = append(secs, r.Seconds)
			if r.Seconds > res.Runs[slowA][slowS].Seconds {
				slowA, slowS = i, s
			}
		}
		if !res.Archs[i].Connected() {
			disconnected++
		}
	}
	sp := res.Split
	fmt.Fprintf(w, "digits: train %d / validation %d / test %d; %d architectures (%d without an input→output path), T_end = %d, %d seed(s), width %d, %d cells, batch %d, lr %g cosine, momentum %g\n",
		sp.Train.Len(), sp.Val.Len(), sp.Test.Len(), len(res.Archs), disconnected, p.Config.Epochs, p.Seeds,
		p.Config.Width, p.Config.Cells, p.Config.Batch, p.Config.LR, p.Config.Momentum)
	fmt.Fprintf(w, "training: %d runs in %.1f s wall on %d workers; per run (one architecture, one seed) mean %.2f s, median %.2f s, max %.2f s (%s, seed %d)\n",
		len(secs), res.Wall, res.Workers, mean(secs), bench.Quantile(secs, 0.5), slices.Max(secs), res.Archs[slowA], slowS+1)
	fmt.Fprintf(w, "final test accuracy (seed mean): min %.3f, quartiles %.3f / %.3f / %.3f, max %.3f\n",
		slices.Min(res.Final), bench.Quantile(res.Final, 0.25), bench.Quantile(res.Final, 0.5), bench.Quantile(res.Final, 0.75), slices.Max(res.Final))
	if of := res.firstOverfit(); len(of) == 0 {
		fmt.Fprintf(w, "training loss below %g within T_end: no first-seed curve gets there, so Algorithm 12 gives 0.9·T_end\n\n", curve.OverfitLoss)
	} else {
		fmt.Fprintf(w, "training loss below %g within T_end: %d of %d first-seed curves; first such epoch min %d, median %g, max %d\n\n",
			curve.OverfitLoss, len(of), len(res.Archs), slices.Min(of), bench.Quantile(intsToFloats(of), 0.5), slices.Max(of))
	}

	tab := res.Table()
	fmt.Fprintf(w, "Spearman ρ with the seed-mean final test accuracy (estimators on the first seed's curve; losses sign-flipped)\n\n| estimator |")
	for _, T := range p.Budgets {
		fmt.Fprintf(w, " T=%d |", T)
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(p.Budgets)))
	for _, name := range Names() {
		fmt.Fprintf(w, "| %s |", name)
		for _, v := range tab[name] {
			fmt.Fprintf(w, " %.3f |", v)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	res.references(w)
	acc := res.Check(tab)
	for _, a := range acc {
		fmt.Fprintln(w, a)
	}
	return acc
}

// references prints what a single fully trained run achieves, as scales
// for the table: ρ of the first seed's final validation accuracy with the
// target, and ρ between two seeds' test accuracies, which bounds what any
// estimator from one run can reach.
func (res *Result) references(w io.Writer) {
	n := len(res.Archs)
	v, t1, t2 := make([]float64, n), make([]float64, n), make([]float64, n)
	for i, runs := range res.Runs {
		v[i] = runs[0].Epochs[len(runs[0].Epochs)-1].ValAcc
		t1[i] = runs[0].TestAcc
		if len(runs) > 1 {
			t2[i] = runs[1].TestAcc
		}
	}
	fmt.Fprintf(w, "references: ρ(validation accuracy at T_end, first seed) = %.3f", Spearman(v, res.Final))
	if res.P.Seeds > 1 {
		fmt.Fprintf(w, "; ρ(test accuracy of seed 1, of seed 2) = %.3f", Spearman(t1, t2))
	}
	fmt.Fprintf(w, "\n\n")
}

// firstOverfit lists, for the first-seed curves that get there, the first
// epoch whose training loss is below curve.OverfitLoss.
func (res *Result) firstOverfit() []int {
	var out []int
	for _, runs := range res.Runs {
		for t, e := range runs[0].Epochs {
			if e.TrainLoss < curve.OverfitLoss {
				out = append(out, t+1)
				break
			}
		}
	}
	return out
}

func mean(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

func intsToFloats(x []int) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}
