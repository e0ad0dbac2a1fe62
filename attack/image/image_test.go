package image

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/attack"
)

func TestResizeIsLinear(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x, y := make([]float64, 5*7*2), make([]float64, 5*7*2)
	for i := range x {
		x[i], y[i] = rng.NormFloat64(), rng.NormFloat64()
	}
	for _, to := range [][2]int{{3, 4}, {9, 12}, {1, 1}, {5, 7}} {
		rx, ry := Resize(x, 5, 7, 2, to[0], to[1]), Resize(y, 5, 7, 2, to[0], to[1])
		comb := make([]float64, len(x))
		for i := range x {
			comb[i] = 2*x[i] - 3*y[i]
		}
		for i, v := range Resize(comb, 5, 7, 2, to[0], to[1]) {
			if want := 2*rx[i] - 3*ry[i]; math.Abs(v-want) > 1e-12 {
				t.Fatalf("%v: Resize(2x − 3y)[%d] = %v, want %v", to, i, v, want)
			}
		}
	}
}

func TestResizeConstantAndCorners(t *testing.T) {
	c := slices.Repeat([]float64{0.25}, 4*4*3)
	back := Resize(Resize(c, 4, 4, 3, 11, 9), 11, 9, 3, 4, 4)
	for i, v := range back {
		if math.Abs(v-0.25) > 1e-15 {
			t.Fatalf("constant round trip [%d] = %v", i, v)
		}
	}
	// 2×2 → 3×3: corners exact, the centre the mean, edges midpoints.
	got := Resize([]float64{0, 1, 2, 3}, 2, 2, 1, 3, 3)
	want := []float64{0, 0.5, 1, 1, 1.5, 2, 2, 2.5, 3}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-15 {
			t.Fatalf("Resize 2×2 → 3×3 = %v, want %v", got, want)
		}
	}
	// Identity at the same size.
	x := []float64{0.1, 0.7, 0.3, 0.9, 0.2, 0.4}
	if got := Resize(x, 2, 3, 1, 2, 3); !slices.Equal(got, x) {
		t.Fatalf("Resize to the same size = %v, want %v", got, x)
	}
}

// linear is a softmax classifier on the pixels with fixed random weights,
// smooth (a 2×2 pattern up-sampled) so that the attacks' 2×2
// perturbations can reach every class, and records the largest L∞ distance of any image it was asked about.
type linear struct {
	w      [][]float64
	bias   []float64 // nil: none
	origin attack.Image
	linf   float64
	asked  int
	failAt int // return an error at this query (0: never)
}

func newLinear(origin attack.Image, classes int, seed uint64) *linear {
	rng := rand.New(rand.NewPCG(seed, 9))
	w := make([][]float64, classes)
	for c := range w {
		coarse := make([]float64, 4*origin.C)
		for i := range coarse {
			coarse[i] = 0.05 * rng.NormFloat64()
		}
		w[c] = Resize(coarse, 2, 2, origin.C, origin.H, origin.W)
	}
	return &linear{w: w, origin: origin}
}

func (v *linear) Scores(x attack.Image) ([]float64, error) {
	v.asked++
	if v.asked == v.failAt {
		return nil, errors.New("victim crashed")
	}
	for i, p := range x.Pix {
		if p < 0 || p > 1 {
			return nil, errors.New("pixel outside [0, 1]")
		}
		v.linf = max(v.linf, math.Abs(p-v.origin.Pix[i]))
	}
	z := make([]float64, len(v.w))
	top := math.Inf(-1)
	for c, w := range v.w {
		if v.bias != nil {
			z[c] = v.bias[c]
		}
		for i, p := range x.Pix {
			z[c] += w[i] * p
		}
		top = max(top, z[c])
	}
	sum := 0.0
	for c := range z {
		z[c] = math.Exp(z[c] - top)
		sum += z[c]
	}
	for c := range z {
		z[c] /= sum
	}
	return z, nil
}

func testImage(seed uint64) attack.Image {
	rng := rand.New(rand.NewPCG(seed, 3))
	m := attack.Image{H: 8, W: 8, C: 1, Pix: make([]float64, 64)}
	for i := range m.Pix {
		m.Pix[i] = rng.Float64()
	}
	return m
}

// origin returns the class the victim gives x and the class it ranks
// last, a hard target.
func classes(t *testing.T, v *linear, x attack.Image) (top, last int) {
	p, err := v.Scores(x)
	if err != nil {
		t.Fatal(err)
	}
	v.asked = 0
	for i := range p {
		if p[i] > p[top] {
			top = i
		}
		if p[i] < p[last] {
			last = i
		}
	}
	return top, last
}

var small = Config{Budget: 45, Init: 10, Candidates: 300, Side: 2, Seed: 3}

func TestEveryMethodStaysInTheBall(t *testing.T) {
	x := testImage(1)
	for _, m := range Methods() {
		t.Run(m, func(t *testing.T) {
			v := newLinear(x, 4, 2)
			top, last := classes(t, v, x)
			cfg := small
			cfg.Method, cfg.Delta = m, 0.05
			res, err := Run(v, x, attack.Goal{Origin: top, Target: last}, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if v.linf > 0.05+1e-12 || res.Linf > 0.05+1e-12 {
				t.Fatalf("L∞ %v (result %v) > δ_max 0.05", v.linf, res.Linf)
			}
			if res.Queries != v.asked || res.Queries > cfg.Budget || (!res.Success && res.Queries != cfg.Budget) {
				t.Fatalf("%d queries, the victim was asked %d times, budget %d, success %v", res.Queries, v.asked, cfg.Budget, res.Success)
			}
			if m == "auto-dr" {
				for _, s := range res.Sides {
					if !slices.Contains(autoSides(8), s) {
						t.Fatalf("auto-dr chose side %d, not one of %v", s, autoSides(8))
					}
				}
				if res.Side != res.Sides[len(res.Sides)-1] {
					t.Fatalf("Side %d, Sides %v", res.Side, res.Sides)
				}
			}
		})
	}
}

// TestSuccessStopsTheAttack attacks a two-class victim whose target needs
// 60 % of the largest logit gain the 2×2 perturbation can make: out of the
// initial design's reach, so the methods must search.
func TestSuccessStopsTheAttack(t *testing.T) {
	x := attack.Image{H: 8, W: 8, C: 1, Pix: slices.Repeat([]float64{0.5}, 64)}
	const delta = 0.1
	v := newLinear(x, 2, 5)
	clear(v.w[0])
	gain := 0.0 // the largest: δ of the sign of each corner's weight
	for k := range 4 {
		corner := make([]float64, 4)
		corner[k] = delta
		c := 0.0
		for i, wi := range Resize(corner, 2, 2, 1, 8, 8) {
			c += v.w[1][i] * wi
		}
		gain += math.Abs(c)
	}
	v.bias = []float64{0, -0.6 * gain}
	for i := range x.Pix {
		v.bias[1] -= v.w[1][i] * x.Pix[i]
	}
	goal := attack.Goal{Origin: 0, Target: 1}
	for _, m := range []string{"gpbo", "addgp", "auto-dr", "genattack"} {
		v.asked = 0
		cfg := small
		cfg.Method, cfg.Budget, cfg.Delta = m, 1000, delta
		res, err := Run(v, x, goal, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Success || v.asked != res.Queries || res.Queries <= cfg.Init {
			t.Fatalf("%s: success %v after %d queries, victim asked %d times", m, res.Success, res.Queries, v.asked)
		}
		t.Logf("%s: success after %d queries", m, res.Queries)
		p, _ := v.Scores(res.Input)
		if !goal.Reached(p) || res.Loss <= 0 {
			t.Fatalf("%s: the adversarial image has scores %v, loss %v", m, p, res.Loss)
		}
	}
}

func TestSameSeedSameAttack(t *testing.T) {
	x := testImage(3)
	for _, m := range []string{"gpbo", "addgp-fd"} {
		var runs []Result
		for range 2 {
			v := newLinear(x, 4, 2)
			top, last := classes(t, v, x)
			cfg := small
			cfg.Method, cfg.Budget = m, 20
			res, err := Run(v, x, attack.Goal{Origin: top, Target: last}, cfg)
			if err != nil {
				t.Fatal(err)
			}
			runs = append(runs, res)
		}
		if runs[0].Loss != runs[1].Loss || !slices.Equal(runs[0].Input.Pix, runs[1].Input.Pix) {
			t.Fatalf("%s: two runs with seed 3 differ: loss %v and %v", m, runs[0].Loss, runs[1].Loss)
		}
	}
}

func TestVictimErrorKeepsTheQueries(t *testing.T) {
	x := testImage(4)
	v := newLinear(x, 4, 2)
	top, last := classes(t, v, x)
	v.failAt = 15
	cfg := small
	res, err := Run(v, x, attack.Goal{Origin: top, Target: last}, cfg)
	if err == nil || res.Queries != 14 || res.Input.Len() != 64 {
		t.Fatalf("error %v, %d queries kept (want 14), input of %d pixels", err, res.Queries, res.Input.Len())
	}
}

func TestChunksArePartitions(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	groups := chunks(rng.Perm(196), 12)
	seen := make([]bool, 196)
	sizes := map[int]int{}
	for _, g := range groups {
		sizes[len(g)]++
		for _, i := range g {
			if seen[i] {
				t.Fatalf("dimension %d in two groups", i)
			}
			seen[i] = true
		}
	}
	if slices.Contains(seen, false) || sizes[17] != 4 || sizes[16] != 8 {
		t.Fatalf("196 dimensions in 12 groups: sizes %v (want 4 of 17 and 8 of 16), all covered %v", sizes, !slices.Contains(seen, false))
	}
}

func TestAutoSides(t *testing.T) {
	for short, want := range map[int][]int{8: {2, 4, 6, 8}, 28: {6, 8, 10, 12, 14, 16, 18, 20}, 12: {6, 8, 10, 12}, 3: {2}, 1: {1}} {
		if got := autoSides(short); !slices.Equal(got, want) {
			t.Errorf("autoSides(%d) = %v, want %v", short, got, want)
		}
	}
}

func TestEncodeInvertsDecodeAtFullSize(t *testing.T) {
	x := testImage(5)
	p := &problem{origin: x, delta: 0.3}
	u := testImage(6).Pix
	back := p.encode(p.decode(u, 8), 8)
	for i := range u {
		if math.Abs(back[i]-u[i]) > 1e-12 {
			t.Fatalf("encode(decode(u))[%d] = %v, want %v", i, back[i], u[i])
		}
	}
}

func TestConfigErrors(t *testing.T) {
	x := testImage(1)
	v := newLinear(x, 3, 1)
	for _, c := range []Config{{Method: "zoo"}, {Delta: 2}, {Budget: -1}, {Side: 9}, {Groups: -1}} {
		if _, err := Run(v, x, attack.Goal{Origin: 0, Target: 1}, c); err == nil {
			t.Errorf("Run with %+v: no error", c)
		}
	}
	if v.asked != 0 {
		t.Fatalf("a bad configuration asked the victim %d times", v.asked)
	}
}

// Past maxData observations the GP sees the maxData of largest y, in
// their order (spec §1.6, subset of data).
func TestSubsetOfData(t *testing.T) {
	b := &bo{}
	var us [][]float64
	for i := range maxData + 3 {
		us = append(us, []float64{float64(i)})
		b.negY = append(b.negY, -float64((i*7919)%(maxData+3))) // 503 is prime: a permutation
	}
	X, y := b.data(us)
	if len(X) != maxData || len(y) != maxData {
		t.Fatalf("%d points, want %d", len(X), maxData)
	}
	for k := range X {
		if k > 0 && X[k][0] <= X[k-1][0] {
			t.Fatalf("the subset is not in the observations' order at %d", k)
		}
		if -y[k] < 3 {
			t.Fatalf("the subset holds y = %v, one of the 3 smallest", -y[k])
		}
	}
}
