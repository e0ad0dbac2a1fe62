package image

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/boaopt/boa/attack"
)

// Config is an attack's settings; the zero value of every field selects
// the default given beside it.
type Config struct {
	Method string  // one of Methods(); "" = "gpbo"
	Delta  float64 // δ_max, the L∞ radius in pixel units of [0, 1]; 0: 0.3 (MNIST's, spec §1.6)
	Budget int     // queries at most; 0: 1000 (spec §1.6)
	// Side is the perturbation's side s: δ has s × s × C values, d_r =
	// s²C. 0: ⌈min(H, W)/2⌉, the ratio of AutoZOOM's 14×14 on 28×28
	// images that the seed keeps (spec §1.6); 4 on sklearn's 8×8 digits.
	// auto-dr starts from it.
	Side int
	// Groups is M, the additive model's number of groups (addgp,
	// addgp-fd); 0: min(12, ⌈d_r/4⌉), the seed's 12 where d_r allows
	// groups of 4 at least (spec §1.4).
	Groups int
	// Candidates is the number of random points scored per acquisition
	// maximisation; 0: 10,000 for gpbo and auto-dr, 5,000 per group for
	// addgp (the reference code's, spec §1.6).
	Candidates int
	// Init is the size of the Latin-hypercube initial design; 0: 30
	// (spec §1.6). Not used by genattack.
	Init int
	Seed uint64
	// Progress, when set, is called after every query with it and the
	// best loss so far (attack.Oracle.Progress).
	Progress func(q attack.Query, best float64)
}

// Result is an attack's outcome: the Oracle's (success, queries, the
// adversarial or best image, its loss), its distances to the clean image,
// and the perturbation side it ended on (Sides: every side auto-dr chose,
// in order).
type Result struct {
	attack.Result[attack.Image]
	Linf, L2 float64 // ‖x_adv − x‖_∞ and ‖x_adv − x‖₂ (0 when no query was answered)
	Side     int
	Sides    []int
}

// The methods, in the order of seed 000 Table 6.1.
var methods = []string{"gpbo", "addgp", "addgp-fd", "auto-dr", "genattack"}

// Methods lists the attack methods Run accepts.
func Methods() []string { return slices.Clone(methods) }

// Constants of spec §1.6, all as the reference code or the thesis sets
// them (each row's Decision).
const (
	defaultDelta  = 0.3
	defaultBudget = 1000
	defaultInit   = 30
	kappa         = 2.0 // UCB trade-off (thesis, footnote 3)
	refitEvery    = 5   // hyper-parameters re-optimised every 5 iterations
	learnEvery    = 40  // d_r and the decomposition chosen every 40 iterations
	restarts      = 5   // GPy's 5 restarts
	fitIters      = 1000
	localIters    = 100 // L-BFGS-B iterations per refined candidate (Decision)
	topCandidates = 5
	gpCandidates  = 10000
	addCandidates = 5000
	noise         = 1e-6 // fixed, on the standardised scale, as GPy's
	maxData       = 500  // the GP's subset of data beyond (spec §1.6, large n)
)

// Run attacks the victim's classification of origin towards goal within
// cfg's budget, by cfg.Method [000 §6.4]. Every query is x_adv =
// clip(origin + g(δ), 0, 1) with ‖δ‖_∞ ≤ δ_max, g the bilinear decoder, so
// that ‖x_adv − origin‖_∞ ≤ δ_max holds for every image the victim sees;
// the attack stops at the first success [spec §1.2 Decisions].
//
// A victim's error ends the attack: Run returns it together with the
// Result of the queries made before it.
func Run(v attack.Victim[attack.Image], origin attack.Image, goal attack.Goal, cfg Config) (Result, error) {
	cfg, err := cfg.withDefaults(origin)
	if err != nil {
		return Result{Side: cfg.Side}, err
	}
	p := &problem{origin: origin, delta: cfg.Delta, oracle: attack.NewOracle(v, goal, attack.ImageLoss, cfg.Budget)}
	p.oracle.Progress = cfg.Progress
	rng := rand.New(rand.NewPCG(cfg.Seed, 0xa77ac))
	var sides []int
	side := cfg.Side
	if cfg.Method == "genattack" {
		err = genAttack(p, cfg, rng)
	} else {
		b := newBO(p, cfg, rng)
		err = b.run()
		side, sides = b.side, b.sides
	}
	if errors.Is(err, attack.ErrBudget) || errors.Is(err, attack.ErrDone) {
		err = nil
	}
	res := Result{Result: p.oracle.Result(), Side: side, Sides: sides}
	if res.Queries > 0 {
		res.Linf, res.L2 = distances(res.Input, origin)
	}
	return res, err
}

func (c Config) withDefaults(origin attack.Image) (Config, error) {
	if err := origin.Check(); err != nil {
		return c, err
	}
	if c.Method == "" {
		c.Method = "gpbo"
	}
	if !slices.Contains(methods, c.Method) {
		return c, fmt.Errorf("image attack: unknown method %q; choose one of %s", c.Method, strings.Join(methods, ", "))
	}
	if c.Delta == 0 {
		c.Delta = defaultDelta
	}
	if !(c.Delta > 0 && c.Delta <= 1) {
		return c, fmt.Errorf("image attack: δ_max %v: want a value in (0, 1]", c.Delta)
	}
	if c.Budget == 0 {
		c.Budget = defaultBudget
	}
	if c.Budget < 1 {
		return c, fmt.Errorf("image attack: budget %d: want at least 1 query", c.Budget)
	}
	short := min(origin.H, origin.W)
	if c.Side == 0 {
		c.Side = (short + 1) / 2
	}
	if c.Side < 1 || c.Side > short {
		return c, fmt.Errorf("image attack: side %d: want 1..%d (the image is %d×%d)", c.Side, short, origin.H, origin.W)
	}
	if c.Init == 0 {
		c.Init = defaultInit
	}
	if c.Groups < 0 || c.Candidates < 0 || c.Init < 1 {
		return c, fmt.Errorf("image attack: groups %d, candidates %d, init %d: none may be negative", c.Groups, c.Candidates, c.Init)
	}
	return c, nil
}

// problem is the attack's objective: a point u ∈ [0,1]^{s²C} of the
// search box stands for δ = δ_max(2u − 1), as the reference code searches
// [−1, 1]^{d_r} scaled by ε inside the objective [spec §1.2].
type problem struct {
	origin attack.Image
	delta  float64
	oracle *attack.Oracle[attack.Image]
}

// decode returns g(δ) for the point u of side s: the perturbation
// up-sampled to the image's size.
func (p *problem) decode(u []float64, s int) []float64 {
	d := make([]float64, len(u))
	for i, ui := range u {
		d[i] = p.delta * (2*min(max(ui, 0), 1) - 1)
	}
	return Resize(d, s, s, p.origin.C, p.origin.H, p.origin.W)
}

// encode is the inverse map of Alg. 9: a full-size perturbation
// down-sampled to side s, as a point of the search box.
func (p *problem) encode(full []float64, s int) []float64 {
	d := Resize(full, p.origin.H, p.origin.W, p.origin.C, s, s)
	for i, di := range d {
		d[i] = min(max((di/p.delta+1)/2, 0), 1)
	}
	return d
}

// ask queries the victim on the image of u (side s) and returns its loss
// and the full-size perturbation g(δ).
func (p *problem) ask(u []float64, s int) (float64, []float64, error) {
	g := p.decode(u, s)
	x := p.origin.Clone()
	for i, gi := range g {
		x.Pix[i] = min(max(x.Pix[i]+gi, 0), 1)
	}
	y, err := p.oracle.Ask(x)
	return y, g, err
}

func distances(x, origin attack.Image) (linf, l2 float64) {
	for i, v := range x.Pix {
		d := math.Abs(v - origin.Pix[i])
		linf = max(linf, d)
		l2 += d * d
	}
	return linf, math.Sqrt(l2)
}
