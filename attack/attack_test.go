package attack

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// spec attacks §4: y > 0 implies argmax = t for the image loss; success
// is detected on the scores, also where y > 0 does not imply it (the
// targeted graph loss with three classes).
func TestLossSignAndSuccess(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		p := make([]float64, 2+rng.IntN(9))
		s := 0.0
		for i := range p {
			p[i] = rng.ExpFloat64() * float64(1+rng.IntN(3))
			s += p[i]
		}
		for i := range p {
			p[i] /= s
		}
		g := Goal{Origin: rng.IntN(len(p)), Target: rng.IntN(len(p))}
		if g.Target == g.Origin {
			g.Target = Untargeted
		}
		if y := ImageLoss(p, g); y > 0 && !g.Reached(p) {
			t.Fatalf("image loss %v > 0 on %v for %+v, but argmax = %d", y, p, g, Class(p))
		}
		if !g.Targeted() && (GraphLoss(p, g) > 0) != g.Reached(p) {
			t.Fatalf("untargeted graph loss %v on %v for %+v: sign is not success", GraphLoss(p, g), p, g)
		}
	}
	p := []float64{0.3, 0.25, 0.45} // t₀ = 0, t = 1: p_t < p_2, yet p_t/p_t₀ < 1
	g := Goal{Origin: 0, Target: 2}
	if !g.Reached(p) || GraphLoss(p, g) <= 0 {
		t.Fatalf("target 2 on %v: reached %v, loss %v", p, g.Reached(p), GraphLoss(p, g))
	}
	p = []float64{0.2, 0.35, 0.45}
	if g := (Goal{Origin: 0, Target: 1}); g.Reached(p) || GraphLoss(p, g) <= 0 {
		t.Fatalf("target 1 on %v: y = %v > 0 but argmax is 2, and it must not count as success", p, GraphLoss(p, g))
	}
	if y := ImageLoss([]float64{1, 0}, Goal{Origin: 0, Target: 1}); math.IsInf(y, 0) || math.IsNaN(y) {
		t.Fatalf("a zero score gives %v: the log floor is missing", y)
	}
}

type fixed [][]float64 // answers in turn; nil = an error

func (f *fixed) Scores(int) ([]float64, error) {
	p := (*f)[0]
	*f = (*f)[1:]
	if p == nil {
		return nil, errors.New("crashed")
	}
	return p, nil
}

func TestOracle(t *testing.T) {
	v := &fixed{{0.9, 0.1}, {0.6, 0.4}, nil, {0.7, 0.3, 0}, {0.2, 0.8}, {0.1, 0.9}}
	o := NewOracle[int](v, Goal{Origin: 0, Target: Untargeted}, ImageLoss, 5)
	for x := 1; x <= 2; x++ {
		if _, err := o.Ask(x); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := o.Ask(3); err == nil {
		t.Fatal("a victim's error was not returned")
	}
	if _, err := o.Ask(4); err == nil {
		t.Fatal("three scores after two were accepted")
	}
	if r := o.Result(); r.Queries != 2 || r.Input != 2 || r.Success {
		t.Fatalf("after a crash: %+v, want the 2 queries kept and the best input 2", r)
	}
	if _, err := o.Ask(5); err != nil || !o.Done() || !o.Result().Success || o.Result().Input != 5 {
		t.Fatalf("success not detected: %v %+v", err, o.Result())
	}
	if _, err := o.Ask(6); !errors.Is(err, ErrDone) {
		t.Fatalf("asked after success: %v", err)
	}
	o = NewOracle[int](&fixed{{0.9, 0.1}}, Goal{Origin: 0, Target: 1}, ImageLoss, 1)
	o.Ask(1)
	if _, err := o.Ask(2); !errors.Is(err, ErrBudget) || o.Left() != 0 {
		t.Fatalf("budget of 1: %v", err)
	}
	if _, err := NewOracle[int](&fixed{{math.NaN(), 1}}, Goal{}, ImageLoss, 1).Ask(1); err == nil {
		t.Fatal("a NaN score was accepted")
	}
}

func TestGraph(t *testing.T) {
	g, err := NewGraph(4, [][2]int{{2, 1}, {0, 3}})
	if err != nil || g.Edges[0] != [2]int{0, 3} || g.Edges[1] != [2]int{1, 2} {
		t.Fatalf("%v %v", g, err)
	}
	h := g.Flip(3, 0).Flip(1, 3)
	if h.Has(0, 3) || !h.Has(3, 1) || !g.Has(0, 3) || len(g.Edges) != 2 {
		t.Fatalf("flip: %v from %v", h, g)
	}
	for _, bad := range [][][2]int{{{1, 1}}, {{0, 4}}, {{0, 1}, {1, 0}}} {
		if _, err := NewGraph(4, bad); err == nil {
			t.Fatalf("%v accepted", bad)
		}
	}
}
