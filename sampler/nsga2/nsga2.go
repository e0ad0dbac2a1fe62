// Package nsga2 is the nsga2 sampler: NSGA-II (Deb et al. 2002), the
// elitist genetic algorithm of multi-objective optimisation, with the
// decisions of Optuna 3.1's NSGAIISampler at its defaults (issue 43;
// docs/samplers.md, "NSGA-II"). It works on one objective too, as
// Optuna's does.
package nsga2

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
)

// NSGAII is NSGA-II as Optuna 3.1's NSGAIISampler does it. The first
// Population completed trials are uniform random points. After that each
// trial is a child of the parent population: with probability
// CrossoverProb the crossover (uniform by default, or SBX) of two
// parents, each the winner of a binary tournament, else a copy of a
// random parent; then each of its parameters is drawn at random again
// with probability MutationProb. The parent population is the elite of
// the last full generation and of the parents before it: the Population
// best of them by non-dominated sorting and, in the front that does not
// fit whole, by crowding distance.
//
// Optuna records each trial's generation; boa's trials carry none, so the
// generations are rebuilt from the history on every call, which keeps the
// sampler stateless: the k-th completed trial in trial order (0-based)
// belongs to generation ⌊k/Population⌋. That is Optuna's sequential
// assignment exactly, failed and pruned trials included (they never
// count towards a generation in Optuna either); with parallel workers a
// trial completed late joins the generation its place in trial order
// gives it, where Optuna would keep it in the generation it was asked in.
// Rebuilding the generations costs O(n·Population) dominance tests per
// suggestion for n completed trials.
//
// In a study with constraints, domination is Optuna's constrained
// domination (dominates). Pending trials do not change a suggestion, and,
// as in Optuna, a child may repeat a tried configuration.
type NSGAII struct {
	// Population is the number of trials of a generation, and of parents
	// (population_size, at least 2; New's is 50).
	Population int
	// MutationProb is the probability of drawing each parameter of a
	// child at random again (mutation_prob); negative, as New sets it, is
	// Optuna's None: 1/max(1, d) for the d parameters a child inherits.
	MutationProb float64
	// CrossoverProb is the probability that a child is a crossover of two
	// parents rather than a copy of one (crossover_prob; New's is 0.9).
	CrossoverProb float64
	// SwappingProb is the uniform crossover's probability of taking each
	// parameter from the second parent (swapping_prob; New's is 0.5).
	SwappingProb float64
	// Crossover is how the numerical parameters cross over: "uniform" (or
	// "", the default: Optuna's UniformCrossover with SwappingProb) or
	// "sbx" (its SBXCrossover, sbx); the categorical ones always cross
	// over uniformly, as in Optuna.
	Crossover string
	// Eta is SBX's distribution index (SBXCrossover's eta); 0 is Optuna's
	// None: 20 with several objectives, 2 with one.
	Eta float64
}

// New returns nsga2 with Optuna's defaults.
func New() *NSGAII {
	return &NSGAII{Population: 50, MutationProb: -1, CrossoverProb: 0.9, SwappingProb: 0.5, Crossover: "uniform"}
}

func (s *NSGAII) Name() string { return "nsga2" }

// MultiObjective implements sampler.MultiObjective.
func (*NSGAII) MultiObjective() {}

// Designing reports whether the first generation, of random points, is
// not complete yet.
func (s *NSGAII) Designing(h *sampler.History) bool { return len(h.Observed) < s.Population }

// source is what NSGA-II draws from: a *rand.Rand, or in the parity test
// a replay of the draws Optuna's sampler was given.
type source interface {
	Float64() float64
	IntN(n int) int
}

// Suggest returns a uniform random point in the first generation, a child
// of the parent population (Parents) after it.
func (s *NSGAII) Suggest(_ context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	switch {
	case s.Population < 2:
		return nil, fmt.Errorf("nsga2: population %d, want at least 2", s.Population)
	case s.Crossover != "" && s.Crossover != "uniform" && s.Crossover != "sbx":
		return nil, fmt.Errorf("nsga2: crossover %q, want uniform or sbx", s.Crossover)
	}
	parents := s.parents(h)
	if parents == nil {
		return h.Space.Sample(rng), nil
	}
	u, kept := s.child(h, parents, inherited(h), rng)
	for i := range u {
		if !kept[i] {
			u[i] = rng.Float64() // a mutation, or a parameter not inherited: uniform, as h.Space.Sample
		}
	}
	h.Space.Round(u)
	return u, nil
}

// Parents returns the indices in h.Observed of the parent population of
// the next trial, in Optuna's order; nil in the first generation.
func (s *NSGAII) Parents(h *sampler.History) []int {
	var out []int
	for _, m := range s.parents(h) {
		out = append(out, m.obs)
	}
	return out
}

// parents is Optuna's _collect_parent_population on the generations of
// type NSGAII: each full generation with the parents before it gives the
// next parents (elite).
func (s *NSGAII) parents(h *sampler.History) []member {
	all := members(h)
	var parents []member
	for g := 0; (g+1)*s.Population <= len(all); g++ {
		pop := append(all[g*s.Population:(g+1)*s.Population:(g+1)*s.Population], parents...)
		parents = elite(pop, s.Population)
	}
	return parents
}

// inherited returns the parameters a child inherits, in the space's
// order: Optuna's search space for the relative sampling, the parameters
// of every completed trial (its IntersectionSearchSpace: the conditional
// ones active in every trial) that have more than one value. The others
// are drawn at random.
func inherited(h *sampler.History) []int {
	sp := h.Space
	always := make([]bool, sp.Len())
	conditional := false
	for i := range always {
		always[i] = sp.Continuous(i) || sp.Levels(i) > 1
		conditional = conditional || sp.Conditional(i)
	}
	for _, o := range h.Observed {
		if !conditional {
			break
		}
		for i, a := range sp.Active(o.X) {
			always[i] = always[i] && a
		}
	}
	var out []int
	for i, a := range always {
		if a {
			out = append(out, i)
		}
	}
	return out
}

// child is Optuna's sample_relative after the first generation, drawing
// from r in its order: whether to cross over; if so the parents
// (tournament), the uniform crossover of the categorical parameters
// (Categorical, Bool), each taken from the second parent when its draw is
// at least SwappingProb, then the crossover of the numerical ones,
// uniform in the same way or sbx; if not, a random parent to copy. Then
// one draw per inherited parameter, in the order Optuna lists them (the
// categorical ones first after a crossover), keeps it when it is at
// least the mutation probability. u holds the kept coordinates, kept
// says which they are.
func (s *NSGAII) child(h *sampler.History, parents []member, params []int, r source) (u []float64, kept []bool) {
	sp := h.Space
	u = make([]float64, sp.Len())
	kept = make([]bool, sp.Len())
	order := params
	if r.Float64() < s.CrossoverProb {
		first := tournament(parents, r)
		rest := make([]member, 0, len(parents)-1)
		for _, m := range parents {
			if m.obs != first.obs {
				rest = append(rest, m)
			}
		}
		second := tournament(rest, r)
		var cat, num []int
		for _, i := range params {
			if sp.Unordered(i) {
				cat = append(cat, i)
			} else {
				num = append(num, i)
			}
		}
		order = append(cat, num...)
		uniform := order
		if s.Crossover == "sbx" {
			uniform = cat
		}
		for _, i := range uniform {
			from := first
			if r.Float64() >= s.SwappingProb {
				from = second
			}
			u[i] = h.Observed[from.obs].X[i]
		}
		if s.Crossover == "sbx" {
			s.sbx(h, h.Observed[first.obs].X, h.Observed[second.obs].X, num, r, u)
		}
	} else {
		from := parents[r.IntN(len(parents))]
		for _, i := range params {
			u[i] = h.Observed[from.obs].X[i]
		}
	}
	pm := s.MutationProb
	if pm < 0 {
		pm = 1 / float64(max(1, len(params)))
	}
	for _, i := range order {
		kept[i] = r.Float64() >= pm
	}
	return u, kept
}

// sbx sets the parameters params of u to the simulated binary crossover
// of the parents x1 and x2 (Deb & Agrawal 1995) as Optuna's SBXCrossover
// does: one draw per parameter gives the spread factor of the two
// children c1 ≤ c2 of the pair, kept inside the bounds as Optuna keeps
// them; then per parameter one draw chooses between the children and the
// parents, and one more between the two. boa's coordinates are an affine
// image of the scale Optuna crosses over in (the value, its log for Log,
// an Int's bounds widened by ½, as space.Space encodes them), on which
// SBX does not depend, but for the floor Optuna puts under the parents'
// distance, 1e-10 on its scale, which is divided here by the width of
// that scale.
func (s *NSGAII) sbx(h *sampler.History, x1, x2 []float64, params []int, r source, u []float64) {
	eta := s.Eta
	if eta == 0 {
		eta = 2
		if h.Objectives > 1 {
			eta = 20
		}
	}
	us := make([]float64, len(params))
	for k := range us {
		us[k] = r.Float64()
	}
	spread := func(u, alpha float64) float64 { // Optuna's Eq. (3)
		if u > 1/alpha {
			return math.Pow(1/(2-u*alpha), 1/(eta+1))
		}
		return math.Pow(u*alpha, 1/(eta+1))
	}
	for k, i := range params {
		lo, hi := min(x1[i], x2[i]), max(x1[i], x2[i])
		diff := max(hi-lo, 1e-10/scaleWidth(h.Space.Param(i)))
		alpha1 := 2 - math.Pow(1+2*lo/diff, -(eta+1))
		alpha2 := 2 - math.Pow(1+2*(1-hi)/diff, -(eta+1))
		c1 := 0.5 * ((lo + hi) - spread(us[k], alpha1)*diff)
		c2 := 0.5 * ((lo + hi) + spread(us[k], alpha2)*diff)
		pick := func(a, b float64) float64 {
			if r.Float64() < 0.5 {
				return a
			}
			return b
		}
		if r.Float64() < 0.5 {
			u[i] = pick(c1, c2)
		} else {
			u[i] = pick(x1[i], x2[i])
		}
	}
}

// scaleWidth is the width of the scale Optuna crosses a numerical
// parameter over in (its _SearchSpaceTransform's bounds), 1 for an
// Ordinal, which Optuna does not have.
func scaleWidth(p space.Param) float64 {
	lo, hi := p.Low, p.High
	switch {
	case p.Kind == space.Ordinal:
		return 1
	case p.Kind == space.Int:
		lo, hi = lo-0.5, hi+0.5
	}
	if p.Log {
		lo, hi = math.Log(lo), math.Log(hi)
	}
	return hi - lo
}

// tournament is Optuna's _select_parent: of two trials drawn with
// replacement, the first if it dominates the second, else the second.
// Optuna 3.1 compares by domination only (its "TODO: Consider crowding
// distance"), not by rank and crowding distance as Deb et al. 2002's
// crowded-comparison operator does.
func tournament(pop []member, r source) member {
	a, b := pop[r.IntN(len(pop))], pop[r.IntN(len(pop))]
	if dominates(a, b) {
		return a
	}
	return b
}

// options are the settings a study file's mapping form may give nsga2
// (sampler: {type: nsga2, population_size: 20}), under Optuna's names.
var options = map[string]sampler.Option[NSGAII]{
	"population_size": {Help: "an integer ≥ 2", Set: sampler.IntOption(func(s *NSGAII) *int { return &s.Population }, 2)},
	"mutation_prob": {Help: "a probability in [0,1], or none for 1/(number of parameters)", Set: func(s *NSGAII, v string) error {
		if l := strings.ToLower(v); l == "none" || l == "null" || l == "~" {
			s.MutationProb = -1
			return nil
		}
		return setProb(&s.MutationProb, v)
	}},
	"crossover_prob": {Help: "a probability in [0,1]", Set: func(s *NSGAII, v string) error { return setProb(&s.CrossoverProb, v) }},
	"swapping_prob":  {Help: "a probability in [0,1]", Set: func(s *NSGAII, v string) error { return setProb(&s.SwappingProb, v) }},
	"crossover": {Help: "uniform or sbx", Set: func(s *NSGAII, v string) error {
		switch l := strings.ToLower(v); l {
		case "uniform", "sbx":
			s.Crossover = l
			return nil
		}
		return fmt.Errorf("%q is not a crossover boa has", v)
	}},
	"sbx_eta": {Help: "a number > 0, or 0 for Optuna's default (20 with several objectives, 2 with one)", Set: func(s *NSGAII, v string) error {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || !(x >= 0) || math.IsInf(x, 1) {
			return fmt.Errorf("%q is not a number ≥ 0", v)
		}
		s.Eta = x
		return nil
	}},
}

func setProb(p *float64, v string) error {
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || !(x >= 0 && x <= 1) {
		return fmt.Errorf("%q is not in [0,1]", v)
	}
	*p = x
	return nil
}

// Configure implements sampler.Configurable.
func (s *NSGAII) Configure(opts sampler.Options) error {
	return sampler.Configure(s, opts, options, map[string]string{"population": "population_size"})
}

func init() {
	sampler.Register("nsga2", func() sampler.Sampler { return New() })
}
