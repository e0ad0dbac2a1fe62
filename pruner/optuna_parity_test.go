package pruner

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
)

//go:embed testdata/parity.py
var parityScript string

// parityPython is the Python with Optuna 3.1: Debian's python3-optuna,
// which scripts/install-peers.sh installs, or $BOA_PYTHON.
func parityPython() string {
	if p := os.Getenv("BOA_PYTHON"); p != "" {
		return p
	}
	return "/usr/bin/python3"
}

// A parity scenario: trials with planned curves and the order of their
// actions (see testdata/parity.py, which runs it through Optuna).
type scenario struct {
	Name      string    `json:"name"`
	Direction string    `json:"direction"`
	Pruner    Spec      `json:"pruner"`
	Curves    [][]point `json:"curves"`
	Order     []int     `json:"order"`
	kind      string
}

// point is a Point as [step, value], NaN as null (JSON has no NaN).
type point Point

func (p point) MarshalJSON() ([]byte, error) {
	if math.IsNaN(p.Value) {
		return fmt.Appendf(nil, "[%d,null]", p.Step), nil
	}
	return json.Marshal([]any{p.Step, p.Value})
}

// The pruners compared, each with its own draw of arguments.
var parityKinds = []string{"median", "percentile25", "sh", "sh-auto", "hyperband", "hyperband-243", "hyperband-auto", "threshold"}

// Every should_prune decision of Optuna 3.1 on random studies (several
// trials interleaved, random step gaps, both directions, NaNs, ties) is
// boa's decision on the same study. The scenarios stay clear of the
// deviations SuccessiveHalving documents: no report passes two rungs at
// once, and in the auto modes the first trial runs alone, reports NaN
// only and ends where every complete trial ends.
func TestOptunaParity(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the Optuna parity test runs Python")
	}
	py := parityPython()
	if out, err := exec.Command(py, "-c", "import optuna; assert optuna.__version__.startswith('3.')").CombinedOutput(); err != nil {
		t.Skipf("Optuna 3 cannot be imported by %s (%v: %s); install python3-optuna with scripts/install-peers.sh or set BOA_PYTHON",
			py, err, strings.TrimSpace(string(out)))
	}
	var scs []scenario
	for seed := range uint64(10 * len(parityKinds)) {
		scs = append(scs, genScenario(seed))
	}
	in, err := json.Marshal(scs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "-c", parityScript)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s testdata/parity.py: %v\n%s", py, err, stderr.String())
	}
	var want [][]bool
	if err := json.Unmarshal(out, &want); err != nil || len(want) != len(scs) {
		t.Fatalf("parity.py output: %v (%d scenarios for %d)", err, len(want), len(scs))
	}
	decisions, prunes := map[string]int{}, map[string]int{}
	for i, sc := range scs {
		p, err := sc.Pruner.Build()
		if err != nil {
			t.Fatalf("scenario %d: %v", i, err)
		}
		bad := replay(sc, p, want[i])
		for _, w := range want[i] {
			decisions[sc.kind]++
			if w {
				prunes[sc.kind]++
			}
		}
		if len(bad) > 0 {
			js, _ := json.Marshal(sc)
			t.Errorf("scenario %d (%s, %s): %d of %d decisions differ from Optuna's:\n  %s\nscenario: %s",
				i, sc.Pruner, sc.Direction, len(bad), len(want[i]), strings.Join(bad, "\n  "), js)
		}
	}
	total := 0
	for _, k := range parityKinds {
		total += decisions[k]
		t.Logf("%-15s %5d decisions, %4d prunes", k, decisions[k], prunes[k])
	}
	t.Logf("compared %d decisions in %d scenarios", total, len(scs))
}

// replay runs sc through p, following Optuna's decisions want so that one
// difference does not change the rest, and lists the differences.
func replay(sc scenario, p Pruner, want []bool) []string {
	s := Study{Name: sc.Name, Maximize: sc.Direction == "maximize"}
	pos := map[int]int{}
	done := map[int]bool{}
	var bad []string
	k := 0
	for _, i := range sc.Order {
		switch {
		case done[i]:
		case i == len(s.Trials):
			s.Trials = append(s.Trials, Trial{Number: i, State: Running})
		case pos[i] < len(sc.Curves[i]):
			tr := &s.Trials[i]
			tr.Curve = append(tr.Curve, Point(sc.Curves[i][pos[i]]))
			pos[i]++
			if k >= len(want) {
				return append(bad, "Optuna made fewer decisions")
			}
			if got := p.Prune(s, *tr); got != want[k] {
				last := tr.Curve[len(tr.Curve)-1]
				bad = append(bad, fmt.Sprintf("decision %d: trial %d at step %d (value %v): boa prunes %v, Optuna %v",
					k, i, last.Step, last.Value, got, want[k]))
			}
			if want[k] {
				tr.State, done[i] = Pruned, true
			}
			k++
		default:
			s.Trials[i].State, done[i] = Complete, true
		}
	}
	if k != len(want) {
		bad = append(bad, fmt.Sprintf("boa made %d decisions, Optuna %d", k, len(want)))
	}
	return bad
}

// genScenario draws scenario seed: the pruner kind seed mod the kinds,
// then its arguments, the curves and the interleaving.
func genScenario(seed uint64) scenario {
	rng := rand.New(rand.NewPCG(seed, 0x9a7e))
	sc := scenario{Name: fmt.Sprintf("parity-%d", seed), Direction: "minimize", kind: parityKinds[seed%uint64(len(parityKinds))]}
	if rng.IntN(2) == 1 {
		sc.Direction = "maximize"
	}
	ip := func(v int) *int { return &v }
	i64 := func(v int64) *int64 { return &v }
	f64 := func(v float64) *float64 { return &v }
	budget := []int64{12, 30, 81, 100}[rng.IntN(4)]
	nTrials := 8 + rng.IntN(13)
	var rungs []int64 // the steps no report may pass two of
	geometric := func(r int64, eta int) {
		for x := r; x <= 4*budget; x *= int64(eta) {
			rungs = append(rungs, x)
		}
	}
	auto := false
	switch sc.kind {
	case "median", "percentile25":
		sc.Pruner = Spec{Type: "median", NStartupTrials: ip(rng.IntN(6)), NWarmupSteps: i64(int64(rng.IntN(5))),
			IntervalSteps: i64(int64(1 + rng.IntN(3))), NMinTrials: ip(1 + rng.IntN(3))}
		if sc.kind == "percentile25" {
			sc.Pruner.Type, sc.Pruner.Percentile = "percentile", f64(25)
		}
	case "sh":
		eta, r := 2+rng.IntN(3), int64(1+rng.IntN(3))
		sc.Pruner = Spec{Type: "successive_halving", MinResource: i64(r), ReductionFactor: ip(eta),
			MinEarlyStoppingRate: ip(rng.IntN(2)), BootstrapCount: ip(2 * rng.IntN(2))}
		geometric(r, eta)
	case "sh-auto":
		eta := 2 + rng.IntN(3)
		budget = []int64{30, 150, 250, 320}[rng.IntN(4)]
		sc.Pruner = Spec{Type: "successive_halving", ReductionFactor: ip(eta), MinEarlyStoppingRate: ip(rng.IntN(2))}
		geometric(max(budget/100, 1), eta)
		auto = true
	case "hyperband", "hyperband-243", "hyperband-auto":
		eta, r := 2+rng.IntN(3), int64(1+rng.IntN(2))
		sc.Pruner = Spec{Type: "hyperband", MinResource: i64(r), ReductionFactor: ip(eta)}
		switch sc.kind {
		case "hyperband-243":
			// log(243)/log(3) is 4.999999999999999 in floating point:
			// Optuna has 5 brackets, not 6.
			eta = 3
			sc.Pruner.ReductionFactor, sc.Pruner.MaxResource = ip(eta), i64(243*r)
		case "hyperband":
			// Half the time an exact power of η over min_resource, where
			// Optuna's floating-point bracket count may fall short (243/1,
			// η = 3: 5 brackets, not 6).
			sc.Pruner.MaxResource = i64(budget + int64(rng.IntN(30)))
			if rng.IntN(2) == 0 {
				sc.Pruner.MaxResource = i64(r * int64(math.Pow(float64(eta), float64(2+rng.IntN(4)))))
			}
			sc.Pruner.BootstrapCount = ip(2 * rng.IntN(2))
		default:
			auto = true
		}
		geometric(r, eta)
	case "threshold":
		lo, hi := 0.2+0.2*rng.Float64(), 0.8+0.3*rng.Float64()
		if sc.Direction == "maximize" {
			lo, hi = 1-hi, 1-lo
		}
		sc.Pruner = Spec{Type: "threshold", NWarmupSteps: i64(int64(rng.IntN(4))), IntervalSteps: i64(int64(1 + rng.IntN(3)))}
		switch rng.IntN(3) {
		case 0:
			sc.Pruner.Lower = f64(lo)
		case 1:
			sc.Pruner.Upper = f64(hi)
		default:
			sc.Pruner.Lower, sc.Pruner.Upper = f64(lo), f64(hi)
		}
	}
	start := int64(rng.IntN(2))
	nanRate := []float64{0, 0.03}[rng.IntN(2)]
	round := rng.IntN(2) == 1 // 2 decimals: ties
	for i := range nTrials {
		quality := rng.NormFloat64()
		end := budget
		if !auto && rng.IntN(4) == 0 {
			end = start + rng.Int64N(budget-start+1) // complete trials of different lengths
		}
		var c []point
		for step := start; ; {
			v := math.Exp(0.3*quality)*(0.2+1/(1+0.1*float64(step))) + 0.03*rng.NormFloat64()
			if round {
				v = math.Round(v*100) / 100
			}
			if sc.Direction == "maximize" {
				v = 1 - v
			}
			if rng.Float64() < nanRate || (auto && i == 0) {
				v = math.NaN()
			}
			c = append(c, point{step, v})
			if step >= end {
				break
			}
			next := min(step+gap(rng), end)
			for j, x := range rungs {
				if x > step {
					if j+1 < len(rungs) && next >= rungs[j+1] {
						next = rungs[j+1] - 1
					}
					break
				}
			}
			step = next
		}
		sc.Curves = append(sc.Curves, c)
	}
	sc.Order = interleave(rng, sc.Curves, auto)
	return sc
}

// gap is a step gap: mostly 1, sometimes a few, now and then a jump.
func gap(rng *rand.Rand) int64 {
	switch x := rng.Float64(); {
	case x < 0.7:
		return 1
	case x < 0.9:
		return 2 + rng.Int64N(2)
	default:
		return 4 + rng.Int64N(6)
	}
}

// interleave orders the actions of the trials (an ask, one report per
// point, a tell) with up to 4 trials running at once, asked in number
// order; with first, trial 0 runs alone to the end first.
func interleave(rng *rand.Rand, curves [][]point, first bool) []int {
	var order, running []int
	left := map[int]int{}
	next, width := 0, 1+rng.IntN(4)
	for next < len(curves) || len(running) > 0 {
		w := width
		if first && next <= 1 && len(running) > 0 && running[0] == 0 {
			w = 1
		}
		if next < len(curves) && len(running) < w {
			left[next] = len(curves[next]) + 1
			order, running = append(order, next), append(running, next)
			next++
			continue
		}
		j := rng.IntN(len(running))
		i := running[j]
		order = append(order, i)
		if left[i]--; left[i] == 0 {
			running = append(running[:j], running[j+1:]...)
		}
	}
	return order
}
