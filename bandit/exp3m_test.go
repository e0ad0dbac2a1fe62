package bandit

import (
	"math"
	"sort"
	"testing"
)

// checkCapped verifies the EXP3.M invariants: Σp = b, 0 < p_i <= 1, capped
// arms at exactly 1, and capping only where needed.
func checkCapped(t *testing.T, name string, e *EXP3M) {
	t.Helper()
	p, capped := e.Probs()
	if s := sum(p); math.Abs(s-float64(e.b)) > 1e-9 {
		t.Errorf("%s: Σp = %v, want %d (p = %v)", name, s, e.b, p)
	}
	nCapped := 0
	for i, v := range p {
		if v > 1 || v < 0 || math.IsNaN(v) {
			t.Errorf("%s: p[%d] = %v outside [0, 1]", name, i, v)
		}
		if capped[i] {
			nCapped++
			if v != 1 {
				t.Errorf("%s: capped arm %d has p = %v, want 1", name, i, v)
			}
		}
	}
	if nCapped >= e.b {
		t.Errorf("%s: %d arms capped, at most b−1 = %d possible", name, nCapped, e.b-1)
	}
}

func TestEXP3MCapping(t *testing.T) {
	for _, tc := range []struct {
		name  string
		b     int
		gamma float64
		logw  []float64
		nCap  int
	}{
		{"uniform", 2, 0.1, []float64{0, 0, 0, 0, 0}, 0},
		{"one dominant", 2, 0.1, []float64{10, 0, 0, 0, 0}, 1},
		{"two dominant b=3", 3, 0.05, []float64{20, 19, 0, 0, 0, 0}, 2},
		{"mild", 2, 0.1, []float64{1, 0.5, 0, 0, 0, 0, 0, 0}, 0},
		{"ties at the top", 3, 0.2, []float64{8, 8, 0, 0, 0, 0, 0}, 2},
		{"gamma 0", 2, 0, []float64{3, 0, 0, 0}, 1},
		{"gamma 1", 2, 1, []float64{30, 0, 0, 0}, 0},
		{"huge", 4, 0.01, []float64{900, 700, 0, -900, 1, 2, 3, 4, 5, 6}, 3},
	} {
		e := NewEXP3M(len(tc.logw), tc.b, tc.gamma)
		copy(e.logw, tc.logw)
		checkCapped(t, tc.name, e)
		_, capped := e.Probs()
		n := 0
		for _, c := range capped {
			if c {
				n++
			}
		}
		if n != tc.nCap {
			t.Errorf("%s: %d capped arms, want %d", tc.name, n, tc.nCap)
		}
	}
}

func TestCapThresholdSolvesEquation(t *testing.T) {
	rng := newRNG(7)
	checked := 0
	for trial := 0; trial < 2000; trial++ {
		n := 2 + rng.IntN(12)
		b := 1 + rng.IntN(n-1)
		gamma := rng.Float64() * 0.9
		tau := (1/float64(b) - gamma/float64(n)) / (1 - gamma)
		l := make([]float64, n)
		scale := []float64{1, 10, 1000}[trial%3] // up to far beyond exp's range
		for i := range l {
			l[i] = scale * rng.NormFloat64()
		}
		if 1 < tau*sumRelative(l) {
			continue
		}
		checked++
		exact, bisect := logCapThreshold(l, tau), bisectLogThreshold(l, tau)
		if math.Abs(exact-bisect) > 1e-9*math.Max(1, math.Abs(exact)) {
			t.Fatalf("l=%v τ=%v: exact log α = %v, bisection %v", l, tau, exact, bisect)
		}
		// α/Σ min(w_i, α) = τ  ⇔  τ Σ exp(min(l_i − log α, 0)) = 1.
		var s float64
		for _, v := range l {
			s += math.Exp(math.Min(v-exact, 0))
		}
		if math.Abs(tau*s-1) > 1e-12 {
			t.Fatalf("l=%v τ=%v: τΣmin(w_i/α, 1) = %v, want 1", l, tau, tau*s)
		}
	}
	if checked < 500 {
		t.Fatalf("only %d capping cases exercised", checked)
	}
}

func TestEXP3MUpdate(t *testing.T) {
	e := NewEXP3M(5, 2, 0.1)
	copy(e.logw, []float64{10, 0, 0, 0, 0}) // arm 0 capped
	p, capped := e.Probs()
	if !capped[0] {
		t.Fatalf("arm 0 not capped: p = %v", p)
	}
	before := append([]float64(nil), e.logw...)
	e.Update([]int{0, 3}, []float64{1, 0.6})
	if e.logw[0] != before[0] {
		t.Errorf("capped arm's log-weight changed: %v -> %v", before[0], e.logw[0])
	}
	want := before[3] + 2*0.1*0.6/p[3]/5 // b γ r̂ / N
	if math.Abs(e.logw[3]-want) > 1e-15 {
		t.Errorf("log w[3] = %v, want %v", e.logw[3], want)
	}
	for _, i := range []int{1, 2, 4} {
		if e.logw[i] != before[i] {
			t.Errorf("unplayed arm %d changed", i)
		}
	}
}

func TestEXP3MRun(t *testing.T) {
	// A long run with stationary rewards drives weights into the capping
	// regime; invariants must hold every round and the two best arms win.
	means := []float64{0.2, 0.9, 0.3, 0.85, 0.1, 0.4}
	const rounds, b = 1500, 2
	e := NewEXP3M(len(means), b, BatchGamma(len(means), b, rounds))
	rng := newRNG(3)
	sawCap := false
	hits := 0
	for r := 0; r < rounds; r++ {
		checkCapped(t, "run", e)
		if _, c := e.Probs(); c[1] || c[3] {
			sawCap = true
		}
		arms := e.Draw(rng)
		if len(arms) != b || arms[0] == arms[1] {
			t.Fatalf("round %d: Draw = %v, want %d distinct arms", r, arms, b)
		}
		rewards := make([]float64, b)
		for k, a := range arms {
			if rng.Float64() < means[a] {
				rewards[k] = 1
			}
			if r >= rounds-500 && (a == 1 || a == 3) {
				hits++
			}
		}
		e.Update(arms, rewards)
	}
	if !sawCap {
		t.Error("capping never triggered; the test does not exercise S₀")
	}
	if f := float64(hits) / (500 * b); f < 0.8 {
		t.Errorf("best two arms make %.3f of the last 500 rounds' plays, want >= 0.8", f)
	}
}

func TestEXP3MWithReplacement(t *testing.T) {
	for _, tc := range []struct{ n, b int }{{3, 3}, {3, 5}, {1, 4}} {
		e := NewEXP3M(tc.n, tc.b, BatchGamma(tc.n, tc.b, 100))
		copy(e.logw, []float64{2, 0, 1}[:tc.n])
		e.gamma = 0.5 // non-uniform p to exercise the draw
		p, capped := e.Probs()
		if s := sum(p); math.Abs(s-float64(tc.b)) > 1e-12 {
			t.Errorf("n=%d b=%d: Σp = %v, want b", tc.n, tc.b, s)
		}
		for i := range capped {
			if capped[i] {
				t.Errorf("n=%d b=%d: arm %d capped, want no capping when b >= n", tc.n, tc.b, i)
			}
		}
		rng := newRNG(11)
		counts := make([]float64, tc.n)
		const draws = 20000
		for k := 0; k < draws; k++ {
			arms := e.Draw(rng)
			if len(arms) != tc.b {
				t.Fatalf("n=%d b=%d: %d arms drawn", tc.n, tc.b, len(arms))
			}
			for _, a := range arms {
				counts[a]++
			}
		}
		for i := range counts {
			// Expected count per round is p_i; binomial s.e. over b·draws trials.
			q := p[i] / float64(tc.b)
			se := math.Sqrt(q*(1-q)/float64(tc.b*draws)) * float64(tc.b)
			if got := counts[i] / draws; math.Abs(got-p[i]) > 3*se+1e-12 {
				t.Errorf("n=%d b=%d: arm %d played %.4f per round, want %.4f ± %.4f", tc.n, tc.b, i, got, p[i], 3*se)
			}
		}
		// Duplicates update once per occurrence.
		before := e.logw[0]
		e.Update([]int{0, 0}, []float64{1, 1})
		want := before + 2*float64(tc.b)*e.gamma/float64(tc.n)/p[0]
		if math.Abs(e.logw[0]-want) > 1e-12 {
			t.Errorf("n=%d b=%d: duplicate update gave %v, want %v", tc.n, tc.b, e.logw[0], want)
		}
	}
}

func TestEXP3MDeterministic(t *testing.T) {
	run := func() [][]int {
		rng := newRNG(5)
		e := NewEXP3M(7, 3, 0.2)
		var out [][]int
		for r := 0; r < 100; r++ {
			arms := e.Draw(rng)
			rewards := make([]float64, len(arms))
			for k, a := range arms {
				rewards[k] = float64(a) / 6
			}
			e.Update(arms, rewards)
			out = append(out, arms)
		}
		return out
	}
	a, b := run(), run()
	for r := range a {
		if !sort.IntsAreSorted(a[r]) || len(a[r]) != 3 {
			t.Fatalf("round %d: %v", r, a[r])
		}
		for k := range a[r] {
			if a[r][k] != b[r][k] {
				t.Fatalf("round %d: %v then %v with the same seed", r, a[r], b[r])
			}
		}
	}
}

func TestEXP3MPanics(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		f          func()
	}{
		{"lengths", "2 arms and 1 rewards", func() { NewEXP3M(4, 2, 0.1).Update([]int{0, 1}, []float64{1}) }},
		{"reward", "outside [0, 1]", func() { NewEXP3M(4, 2, 0.1).Update([]int{0, 1}, []float64{1, 2}) }},
		{"arm", "out of range", func() { NewEXP3M(4, 2, 0.1).Update([]int{0, -1}, []float64{1, 1}) }},
		{"b", "b >= 1", func() { NewEXP3M(4, 0, 0.1) }},
		{"gamma", "gamma", func() { NewEXP3M(4, 2, -0.1) }},
	} {
		mustPanic(t, tc.name, tc.want, tc.f)
	}
}
