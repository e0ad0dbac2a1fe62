package auto_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/auto"
	"github.com/boaopt/boa/sampler/casmopolitan"
	"github.com/boaopt/boa/sampler/cocabo"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/space"
)

func TestAutoChoice(t *testing.T) {
	float := space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1}
	cat := func(i int) space.Param {
		return space.Param{Name: fmt.Sprint("c", i), Kind: space.Categorical, Choices: []string{"a", "b", "c"}}
	}
	seventeen := make([]string, 17)
	for i := range seventeen {
		seventeen[i] = fmt.Sprint(i)
	}
	// 3⁵ = 243 combinations is the most cocabo takes; 3⁶ = 729, 17 × 17 =
	// 289 and 2⁸ = 256 go to casmopolitan.
	few, many, wide, bools := []space.Param{float}, []space.Param{float}, []space.Param{float}, []space.Param{float}
	for i := range 6 {
		if i < 5 {
			few = append(few, cat(i))
		}
		many = append(many, cat(i))
	}
	for i := range 2 {
		wide = append(wide, space.Param{Name: fmt.Sprint("w", i), Kind: space.Categorical, Choices: seventeen})
	}
	for i := range 8 {
		bools = append(bools, space.Param{Name: fmt.Sprint("b", i), Kind: space.Bool})
	}
	child := space.Param{Name: "y", Kind: space.Float, Low: 0, High: 1, When: map[string][]string{"c0": {"a"}}}
	// Ten parameters without a categorical one go to the trust region.
	ordered := func(n int) []space.Param {
		ps := make([]space.Param, n)
		for i := range ps {
			ps[i] = space.Param{Name: fmt.Sprint("x", i), Kind: space.Float, Low: 0, High: 1}
		}
		ps[0] = space.Param{Name: "n", Kind: space.Int, Low: 1, High: 8}
		return ps
	}
	branch := append(ordered(10), cat(0), child)
	// One categorical of n values: its EXP3 agent's γ is 1 when
	// n ln n ≥ (e − 1)·2T/3, T the bandit rounds (budget − 5 design
	// points; 200 without a budget).
	values := func(n int) []space.Param {
		choices := make([]string, n)
		for i := range choices {
			choices[i] = fmt.Sprint(i)
		}
		return []space.Param{float, {Name: "v", Kind: space.Categorical, Choices: choices}}
	}
	for _, tc := range []struct {
		name   string
		params []space.Param
		budget int
		want   string
	}{
		{"30 values, budget 150 (γ = 0.78)", values(30), 150, "cocabo"},
		{"43 values, budget 150 (γ = 0.99)", values(43), 150, "cocabo"},
		{"44 values, budget 150 (γ = 1)", values(44), 150, "casmopolitan"},
		{"100 values, budget 150", values(100), 150, "casmopolitan"},
		{"50 values, no budget (γ = 0.92)", values(50), 0, "cocabo"},
		{"60 values, no budget (γ = 1)", values(60), 0, "casmopolitan"},
		{"60 values, budget 400 (γ = 0.77)", values(60), 400, "cocabo"},
		{"5 values, budget 8 (γ = 1)", values(5), 8, "casmopolitan"},
		{"3 values, budget 8 (γ = 0.98)", values(3), 8, "cocabo"},
		{"5 values, budget 5 (the design only)", values(5), 5, "cocabo"},
		{"continuous", []space.Param{float}, 0, "gpbo"},
		{"9 ordered", ordered(9), 0, "gpbo"},
		{"10 ordered", ordered(10), 0, "casmopolitan"},
		{"10 ordered, one categorical", append(ordered(10), cat(0)), 0, "cocabo"},
		{"10 ordered and a conditional one", branch, 0, "gpbo"},
		{"one categorical", []space.Param{float, cat(0)}, 0, "cocabo"},
		{"bool counts as categorical", []space.Param{float, {Name: "b", Kind: space.Bool}}, 0, "cocabo"},
		{"243 combinations", few, 0, "cocabo"},
		{"729 combinations", many, 0, "casmopolitan"},
		{"17 × 17 combinations", wide, 0, "casmopolitan"},
		{"8 booleans", bools, 0, "casmopolitan"},
		{"7 booleans", bools[:8], 0, "cocabo"},
		{"conditional", []space.Param{float, cat(0), child}, 0, "gpbo"},
		{"categorical only, 243 combinations", few[1:], 0, "casmopolitan"},
		{"categorical only, 729 combinations", many[1:], 0, "casmopolitan"},
	} {
		sp := space.MustNew(tc.params...)
		if got := auto.New().Choice(sp, tc.budget); got != tc.want {
			t.Errorf("%s: auto chose %s, want %s", tc.name, got, tc.want)
		}
	}
	// The choice is used: a mixed space runs through cocabo without error.
	sp := space.MustNew(float, cat(0))
	a := auto.New()
	h := &sampler.History{Space: sp, Seed: 1}
	for i := range 8 {
		h.Trials = i
		u, err := a.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: u[0]})
	}
}

// TestSuggestBatch: a batch under auto is the chosen sampler's joint batch
// when it has one (cocabo), and distinct sequential suggestions otherwise.
func TestSuggestBatch(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "c", Kind: space.Categorical, Choices: []string{"a", "b", "c"}},
	)
	h := &sampler.History{Space: sp, Seed: 4}
	src := rand.New(rand.NewPCG(4, 0))
	for i := range 8 {
		u := sp.Sample(src)
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: u[0] + u[1]})
		h.Trials = i + 1
	}
	rng := func(trial int) *rand.Rand { return rand.New(rand.NewPCG(4, uint64(trial))) }
	ctx := context.Background()
	got, _, err := sampler.SuggestBatch(ctx, auto.New(), h, 3, rng)
	if err != nil {
		t.Fatal(err)
	}
	c := cocabo.New()
	c.InitPoints, c.Copula = 5, true // auto's design size max(5, d+1), and the copula
	want, err := c.SuggestBatch(ctx, h, 3, rng(h.Trials))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("auto's batch %v, want cocabo's joint batch %v", got, want)
	}
	for _, s := range []sampler.Sampler{gpbo.New(), auto.New()} {
		pending := len(h.Pending)
		us, _, err := sampler.SuggestBatch(ctx, s, h, 3, rng)
		if err != nil || len(us) != 3 {
			t.Fatalf("%s: %d points, %v", s.Name(), len(us), err)
		}
		keys := map[string]bool{}
		for _, u := range us {
			keys[sp.Key(u)] = true
		}
		if len(keys) != 3 || len(h.Pending) != pending {
			t.Fatalf("%s: %d distinct points of 3; history's pending %d → %d", s.Name(), len(keys), pending, len(h.Pending))
		}
	}
}

// TestAutoDesignCap: auto's design of max(5, d+1) points stops at 10 for
// casmopolitan, so on 30 booleans the 11th suggestion comes from the trust
// region, not from a 31-point design.
func TestAutoDesignCap(t *testing.T) {
	params := make([]space.Param, 30)
	for i := range params {
		params[i] = space.Param{Name: fmt.Sprint("b", i), Kind: space.Bool}
	}
	sp := space.MustNew(params...)
	if got := auto.New().Choice(sp, 0); got != "casmopolitan" {
		t.Fatalf("auto chose %s for 30 booleans, want casmopolitan", got)
	}
	ctx := context.Background()
	rng := func(trial int) *rand.Rand { return rand.New(rand.NewPCG(5, uint64(trial))) }
	a := auto.New()
	h := &sampler.History{Space: sp, Seed: 5}
	for i := range 10 {
		h.Trials = i
		u, err := a.Suggest(ctx, h, rng(i))
		if err != nil {
			t.Fatal(err)
		}
		y := 0.0
		for _, v := range u {
			y += v
		}
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: y})
	}
	h.Trials = 10
	got, err := a.Suggest(ctx, h, rng(10))
	if err != nil {
		t.Fatal(err)
	}
	suggest := func(init int) string {
		c := casmopolitan.New()
		c.InitPoints = init
		u, err := c.Suggest(ctx, h, rng(10))
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(u)
	}
	if want, uncapped := suggest(10), suggest(31); fmt.Sprint(got) != want || want == uncapped {
		t.Fatalf("auto's 11th point %v; casmopolitan with 10 initial points gives %s, with 31 %s", got, want, uncapped)
	}
}

// TestAutoCoCaBO: auto's cocabo is CoCaBO-auto with gpbo's design size
// and the copula on y. On a heavy-tailed objective its first point after
// the design is that of such a CoCaBO, not that of one with the papers'
// standardised y.
func TestAutoCoCaBO(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "a", Kind: space.Categorical, Choices: []string{"p", "q", "r"}},
		space.Param{Name: "b", Kind: space.Bool},
	)
	ctx := context.Background()
	rng := func(trial int) *rand.Rand { return rand.New(rand.NewPCG(9, uint64(trial))) }
	const design = 5 // max(5, d+1)
	a := auto.New()
	h := &sampler.History{Space: sp, Seed: 9}
	for i := range design {
		h.Trials = i
		u, err := a.Suggest(ctx, h, rng(i))
		if err != nil {
			t.Fatal(err)
		}
		// Heavy-tailed in x, with a penalty per category.
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: math.Pow(10, 12*(u[0]-0.6)*(u[0]-0.6)) + u[1] + u[2]})
	}
	h.Trials = design
	got, err := a.Suggest(ctx, h, rng(design))
	if err != nil {
		t.Fatal(err)
	}
	suggest := func(copula bool) string {
		c := cocabo.New()
		c.InitPoints, c.Copula = design, copula
		u, err := c.Suggest(ctx, h, rng(design))
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(u)
	}
	if want, plain := suggest(true), suggest(false); fmt.Sprint(got) != want || want == plain {
		t.Fatalf("auto's point %v; CoCaBO with the copula gives %s, with standardised y %s", got, want, plain)
	}
}

// TestAutoSharedAcrossSpaces: one Auto (its zero value) serving studies of
// two spaces gives each the design of its own space, max(5, d+1) points:
// after 5 trials on a space of 9 parameters its cocabo is still in its
// 10-point design, although a 3-parameter space used it first.
func TestAutoSharedAcrossSpaces(t *testing.T) {
	ctx := context.Background()
	rng := func(trial int) *rand.Rand { return rand.New(rand.NewPCG(4, uint64(trial))) }
	cat := space.Param{Name: "a", Kind: space.Categorical, Choices: []string{"p", "q", "r"}}
	small := space.MustNew(cat, space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1}, space.Param{Name: "b", Kind: space.Bool})
	params := []space.Param{cat}
	for i := range 8 {
		params = append(params, space.Param{Name: fmt.Sprint("x", i), Kind: space.Float, Low: 0, High: 1})
	}
	large := space.MustNew(params...)
	a := &auto.Auto{}
	if _, err := a.Suggest(ctx, &sampler.History{Space: small, Seed: 4}, rng(0)); err != nil {
		t.Fatal(err)
	}
	h := &sampler.History{Space: large, Seed: 4}
	for i := range 5 {
		h.Trials = i
		u, err := a.Suggest(ctx, h, rng(i))
		if err != nil {
			t.Fatal(err)
		}
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: u[1] + u[0]})
	}
	h.Trials = 5
	got, err := a.Suggest(ctx, h, rng(5))
	if err != nil {
		t.Fatal(err)
	}
	suggest := func(init int) string {
		c := cocabo.New()
		c.InitPoints, c.Copula = init, true
		u, err := c.Suggest(ctx, h, rng(5))
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(u)
	}
	if want, other := suggest(10), suggest(5); fmt.Sprint(got) != want || want == other {
		t.Fatalf("auto's 6th point on the larger space %v; cocabo with its 10-point design gives %s, with the smaller space's 5 %s", got, want, other)
	}
}

// TestAutoConstrained: a constrained study gets gpbo, whose acquisition
// models the constraints, on a mixed space too; the same space without
// constraints, or with limits all known before evaluation (nothing to
// model), gets a mixed sampler.
func TestAutoConstrained(t *testing.T) {
	sp, err := space.New(
		space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "c", Kind: space.Categorical, Choices: []string{"a", "b", "c"}},
	)
	if err != nil {
		t.Fatal(err)
	}
	a := auto.New()
	h := &sampler.History{Space: sp, Budget: 100}
	if got := a.ChoiceFor(h); got != "cocabo" {
		t.Fatalf("unconstrained: %s, want cocabo", got)
	}
	h.Constraints = []string{"ram_kb"}
	if got := a.ChoiceFor(h); got != "gpbo" {
		t.Errorf("constrained: %s, want gpbo", got)
	}
	if _, ok := a.Chosen(h).(*gpbo.GPBO); !ok {
		t.Errorf("constrained: Chosen is %T, want *gpbo.GPBO", a.Chosen(h))
	}
	h.Constraints, h.Admissible = nil, func([]float64) bool { return true }
	if got := a.ChoiceFor(h); got != "cocabo" {
		t.Errorf("limits known before evaluation only: %s, want cocabo, the unconstrained choice", got)
	}
}
