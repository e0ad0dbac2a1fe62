package nsga2

import (
	_ "embed"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/boaopt/boa/internal/python"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
)

//go:embed testdata/parity.py
var parityScript string

// A parity scenario, as testdata/parity.py reads it.
type parityScenario struct {
	Population  int           `json:"population"`
	Objectives  int           `json:"objectives"`
	Constrained bool          `json:"constrained"`
	Crossover   string        `json:"crossover"` // uniform or sbx
	Space       [][3]any      `json:"space"`     // name, kind, args
	Trials      []parityTrial `json:"trials"`
	Pairs       [][2]int      `json:"pairs"`    // candidate positions in the last parents
	Children    [][]float64   `json:"children"` // the uniform draws of each child
}

type parityTrial struct {
	Params      [][2]any  `json:"params"`
	Values      []float64 `json:"values"`      // nil: failed
	Constraints []float64 `json:"constraints"` // nil: an unconstrained study
}

// What Optuna decided, by trial number (testdata/parity.py).
type parityResult struct {
	Parents  [][]int        `json:"parents"`  // after each full generation
	Fronts   [][]int        `json:"fronts"`   // of the last elite selection
	Crowding [][][2]float64 `json:"crowding"` // per front: [number, distance]
	Sorted   [][]int        `json:"sorted"`   // each front after _crowding_distance_sort
	Winners  []int          `json:"winners"`  // per pair
	Children []struct {
		Params map[string]any `json:"params"`
		Used   int            `json:"used"`
	} `json:"children"`
}

// replay is a source that returns the given uniforms, as the script's
// Replay does for Optuna: IntN(n) is ⌊u·n⌋, as its choice(n).
type replay struct {
	us   []float64
	used int
}

func (r *replay) Float64() float64 { u := r.us[r.used]; r.used++; return u }
func (r *replay) IntN(n int) int   { return int(r.Float64() * float64(n)) }

var paritySpace = space.MustNew(
	space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1},
	space.Param{Name: "lr", Kind: space.Float, Low: 1e-4, High: 1, Log: true},
	space.Param{Name: "n", Kind: space.Int, Low: 1, High: 10},
	space.Param{Name: "k", Kind: space.Int, Low: 1, High: 100, Log: true},
	space.Param{Name: "c", Kind: space.Categorical, Choices: []string{"a", "b", "c"}},
	space.Param{Name: "one", Kind: space.Categorical, Choices: []string{"only"}}, // one value: not inherited, in both
	space.Param{Name: "beta", Kind: space.Float, Low: 0, High: 1, When: map[string][]string{"c": {"a"}}},
)

// genParity draws a scenario: 1 to 3 objectives on a coarse grid (ties,
// duplicates, sometimes an objective equal in every trial), a third of
// the trials sharing their floats with an earlier one, a tenth of the
// trials failed, constraints in a third of the scenarios (ties in
// violation, limits met exactly), uniform or SBX crossover, 3 to 5 full
// generations and part of one more.
func genParity(seed uint64) (parityScenario, *sampler.History, []int) {
	rng := rand.New(rand.NewPCG(seed, 43))
	sc := parityScenario{
		Population:  []int{4, 5, 6, 8}[rng.IntN(4)],
		Objectives:  1 + rng.IntN(3),
		Constrained: seed%3 == 2,
		Crossover:   []string{"uniform", "sbx"}[seed/3%2],
		Space: [][3]any{
			{"x", "float", []any{0.0, 1.0, false}},
			{"lr", "float", []any{1e-4, 1.0, true}},
			{"n", "int", []any{1, 10, false}},
			{"k", "int", []any{1, 100, true}},
			{"c", "categorical", []string{"a", "b", "c"}},
			{"one", "categorical", []string{"only"}},
			{"beta", "float", []any{0.0, 1.0, false}},
		},
	}
	grid := []float64{2, 4, 10}[rng.IntN(3)]
	constant := rng.IntN(4) == 0
	bias := float64(1 + rng.IntN(3)) // how often limits are met: rarely to mostly
	h := &sampler.History{Space: paritySpace, Objectives: sc.Objectives}
	if sc.Constrained {
		h.Constraints = []string{"c0", "c1"}
	}
	var number []int // trial number of each observation
	gens := 3 + rng.IntN(3)
	for len(h.Observed) < gens*sc.Population+rng.IntN(sc.Population) {
		u := paritySpace.Sample(rng)
		if n := len(h.Observed); n > 0 && rng.IntN(3) == 0 {
			// The floats of an earlier trial, as a child inherits them:
			// parents equal in a parameter, where SBX's floor matters.
			copy(u[:2], h.Observed[rng.IntN(n)].X[:2])
		}
		a := paritySpace.Decode(u)
		t := parityTrial{}
		for _, name := range paritySpace.Names() {
			if v, ok := a[name]; ok { // beta when c is a
				t.Params = append(t.Params, [2]any{name, v})
			}
		}
		if rng.IntN(10) == 0 {
			sc.Trials = append(sc.Trials, t)
			h.Failed = append(h.Failed, u)
			continue
		}
		for m := range sc.Objectives {
			v := math.Round(rng.Float64()*grid) / grid
			if constant && m == sc.Objectives-1 {
				v = 0.5
			}
			t.Values = append(t.Values, v)
		}
		o := sampler.Observation{X: u, Y: t.Values[0], Ys: t.Values}
		if sc.Constrained {
			t.Constraints = []float64{math.Round(rng.Float64()*4-bias) / 2, math.Round(rng.Float64()*4-bias) / 2}
			o.Slack = t.Constraints
			o.Infeasible = slices.ContainsFunc(t.Constraints, func(c float64) bool { return c > 0 })
		}
		number = append(number, len(sc.Trials))
		sc.Trials = append(sc.Trials, t)
		h.Observed = append(h.Observed, o)
	}
	for i := range sc.Population {
		for j := range sc.Population {
			sc.Pairs = append(sc.Pairs, [2]int{i, j})
		}
	}
	for range 8 {
		us := make([]float64, 30)
		for k := range us {
			us[k] = rng.Float64()
		}
		sc.Children = append(sc.Children, us)
	}
	return sc, h, number
}

// TestParityWithOptuna: on 48 random studies (genParity), every decision
// of Optuna 3.1's NSGAIISampler (python3-optuna, through
// testdata/parity.py) that does not depend on its random generator is
// nsga2's: the parent population after each full generation, as an
// ordered list (so the elite selection with its crowding-distance ties,
// and the generations rebuilt from the history, failed trials in
// between); on the last selection, the fronts of the non-dominated sort
// in Optuna's order, the crowding distance of every trial and the order
// of each front after the crowding-distance sort; the winner of the
// binary tournament for every pair of candidates; and, replaying the
// same uniform draws through both, the child of 8 calls to
// sample_relative with UniformCrossover or SBXCrossover: which
// parameters it inherits (crossover or copy, then mutation), their
// values and the number of draws taken. Constrained domination is
// checked in a third of them, one objective in a third.
func TestParityWithOptuna(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the Optuna parity test runs Python")
	}
	py, err := python.Find("optuna", "numpy")
	if err != nil {
		t.Skipf("needs Optuna 3.1 (python3-optuna; scripts/install-peers.sh, or $BOA_PYTHON): %v", err)
	}
	var scs []parityScenario
	var hs []*sampler.History
	var numbers [][]int
	for seed := range uint64(48) {
		sc, h, num := genParity(seed)
		scs, hs, numbers = append(scs, sc), append(hs, h), append(numbers, num)
	}
	var want []parityResult
	if err := python.RunJSON(py, parityScript, scs, &want); err != nil {
		t.Fatalf("testdata/parity.py: %v", err)
	}
	if len(want) != len(scs) {
		t.Fatalf("parity.py answered %d scenarios of %d", len(want), len(scs))
	}
	checked := map[string]int{}
	for k, sc := range scs {
		h, num, w := hs[k], numbers[k], want[k]
		name := fmt.Sprintf("scenario %d (population %d, %d objectives, constrained %v, %s)", k, sc.Population, sc.Objectives, sc.Constrained, sc.Crossover)
		s := New()
		s.Population, s.Crossover = sc.Population, sc.Crossover
		nums := func(ms []member) []int {
			out := make([]int, len(ms))
			for i, m := range ms {
				out[i] = num[m.obs]
			}
			return out
		}
		// The parents after each full generation.
		var before, parents []member
		for g, wp := range w.Parents {
			hg := *h
			hg.Observed = h.Observed[:(g+1)*sc.Population]
			before, parents = parents, s.parents(&hg)
			if got := nums(parents); !slices.Equal(got, wp) {
				t.Errorf("%s: generation %d: parents %v, Optuna's %v", name, g, got, wp)
			}
			checked["parent populations"]++
		}
		// The last selection's sort and crowding distances.
		g := len(w.Parents) - 1
		all := members(h)
		pop := append(slices.Clone(all[g*sc.Population:(g+1)*sc.Population]), before...)
		fs := fronts(pop)
		var got [][]int
		for _, f := range fs {
			got = append(got, nums(f))
		}
		if !reflect.DeepEqual(got, w.Fronts) {
			t.Errorf("%s: fronts %v, Optuna's %v", name, got, w.Fronts)
			continue
		}
		checked["fronts"] += len(fs)
		for i, f := range fs {
			d := crowding(slices.Clone(f))
			for _, nd := range w.Crowding[i] {
				obs := slices.Index(num, int(nd[0]))
				if g := min(d[obs], 1e308); math.Abs(g-nd[1]) > 1e-12*(1+math.Abs(nd[1])) {
					t.Errorf("%s: trial %d: crowding distance %v, Optuna's %v", name, int(nd[0]), d[obs], nd[1])
				}
				checked["crowding distances"]++
			}
			sorted := slices.Clone(f)
			crowdingSort(sorted)
			if got := nums(sorted); !slices.Equal(got, w.Sorted[i]) {
				t.Errorf("%s: front %d after the crowding sort %v, Optuna's %v", name, i, got, w.Sorted[i])
			}
		}
		// Tournaments on the last parents.
		for i, p := range sc.Pairs {
			n := float64(len(parents))
			win := tournament(parents, &replay{us: []float64{(float64(p[0]) + 0.5) / n, (float64(p[1]) + 0.5) / n}})
			if num[win.obs] != w.Winners[i] {
				t.Errorf("%s: tournament of positions %v: trial %d wins, Optuna's %d", name, p, num[win.obs], w.Winners[i])
			}
			checked["tournaments"]++
		}
		// Children from the same draws.
		for i, us := range sc.Children {
			r := &replay{us: us}
			u, kept := s.child(h, parents, inherited(h), r)
			a := paritySpace.Decode(u)
			gotParams := map[string]any{}
			for j, name := range paritySpace.Names() {
				if kept[j] {
					gotParams[name] = a[name]
				}
			}
			wp := w.Children[i].Params
			if r.used != w.Children[i].Used || !sameParams(gotParams, wp) {
				t.Errorf("%s: child %d: %v from %d draws, Optuna's %v from %d", name, i, gotParams, r.used, wp, w.Children[i].Used)
			}
			checked["children"]++
		}
	}
	t.Logf("checked against Optuna: %v", checked)
}

// sameParams compares a child's parameters, boa's decoded and Optuna's
// read from JSON; floats to 1e-12 relative (Optuna maps a log-scale
// float to its log and back).
func sameParams(got map[string]any, want map[string]any) bool {
	if len(got) != len(want) {
		return false
	}
	for name, g := range got {
		w, ok := want[name]
		if !ok {
			return false
		}
		switch g := g.(type) {
		case float64:
			wf, ok := w.(float64)
			if !ok || math.Abs(g-wf) > 1e-12*math.Abs(wf) {
				return false
			}
		case int:
			if wf, ok := w.(float64); !ok || float64(g) != wf {
				return false
			}
		default:
			if g != w {
				return false
			}
		}
	}
	return true
}
