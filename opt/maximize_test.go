package opt

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// negBranin is −Branin on the unit square, mapped to x1 ∈ [−5, 10],
// x2 ∈ [0, 15]; its maximum −0.397887… is attained at three points.
func negBranin(u, grad []float64) float64 {
	const (
		b = 5.1 / (4 * math.Pi * math.Pi)
		c = 5 / math.Pi
		t = 1 / (8 * math.Pi)
	)
	x1, x2 := -5+15*u[0], 15*u[1]
	q := x2 - b*x1*x1 + c*x1 - 6
	if grad != nil {
		grad[0] = -15 * (2*q*(-2*b*x1+c) - 10*(1-t)*math.Sin(x1))
		grad[1] = -15 * 2 * q
	}
	return -(q*q + 10*(1-t)*math.Cos(x1) + 10)
}

var braninMaximisers = [][]float64{{-math.Pi, 12.275}, {math.Pi, 2.275}, {9.42478, 2.475}}

const braninMax = -0.397887357729738

func TestMaximizeBranin(t *testing.T) {
	for seed := range uint64(5) {
		r, err := Maximize(negBranin, Domain{Dim: 2}, MaximizeSettings{}, rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.F-braninMax) > 1e-4 {
			t.Errorf("seed %d: max %.8g at %v, want %.8g", seed, r.F, r.X, braninMax)
		}
		near := false
		for _, m := range braninMaximisers {
			if math.Hypot(-5+15*r.X[0]-m[0], 15*r.X[1]-m[1]) < 1e-3 {
				near = true
			}
		}
		if !near {
			t.Errorf("seed %d: argmax %v is not one of Branin's minimisers", seed, r.X)
		}
		if got := negBranin(r.X, nil); got != r.F {
			t.Errorf("seed %d: F = %g but f(X) = %g", seed, r.F, got)
		}
	}
}

func TestMaximizeDeterministic(t *testing.T) {
	a, _ := Maximize(negBranin, Domain{Dim: 2}, MaximizeSettings{Candidates: 256}, rand.New(rand.NewPCG(9, 9)))
	b, _ := Maximize(negBranin, Domain{Dim: 2}, MaximizeSettings{Candidates: 256}, rand.New(rand.NewPCG(9, 9)))
	if !slices.Equal(a.X, b.X) || a.F != b.F || a.Evaluations != b.Evaluations {
		t.Errorf("same seed, different results: %+v vs %+v", a, b)
	}
}

// A mixed domain: x[0] continuous, x[1] categorical with 4 levels encoded
// (i+0.5)/4. Level i has bonus[i] and optimum centre[i] for x[0].
var (
	bonus  = []float64{0.1, 0.5, 0.3, 0.45}
	centre = []float64{0.2, 0.7, 0.4, 0.9}
)

func level(v float64) int { return min(int(v*4), 3) }

func mixedObjective(x, grad []float64) float64 {
	k := level(x[1])
	d := x[0] - centre[k]
	if grad != nil {
		grad[0], grad[1] = -2*d, 0
	}
	return bonus[k] - d*d
}

func mixedDomain() Domain {
	return Domain{
		Dim:   2,
		Free:  []bool{true, false},
		Round: func(x []float64) { x[1] = (float64(level(x[1])) + 0.5) / 4 },
		Neighbours: func(x []float64) [][]float64 {
			var nb [][]float64
			for k := range 4 {
				if k != level(x[1]) {
					nb = append(nb, []float64{x[0], (float64(k) + 0.5) / 4})
				}
			}
			return nb
		},
	}
}

func TestMaximizeMixed(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n       int
		exclude func(x []float64) bool
		level   int
	}{
		{"many candidates", 2048, nil, 1},
		// With 3 raw candidates the right category is often missing at
		// first: the neighbour moves must find it.
		{"few candidates", 3, nil, 1},
		{"best level excluded", 64, func(x []float64) bool { return level(x[1]) == 1 }, 3},
	} {
		for seed := range uint64(10) {
			d := mixedDomain()
			d.Exclude = tc.exclude
			r, err := Maximize(mixedObjective, d, MaximizeSettings{Candidates: tc.n}, rand.New(rand.NewPCG(seed, 2)))
			if err != nil {
				t.Fatal(err)
			}
			k := level(r.X[1])
			if k != tc.level || math.Abs(r.X[0]-centre[k]) > 1e-6 || r.X[1] != (float64(k)+0.5)/4 {
				t.Errorf("%s, seed %d: %v (level %d, f = %g), want level %d at x0 = %g", tc.name, seed, r.X, k, r.F, tc.level, centre[tc.level])
			}
		}
	}
}

// TestMaximizeDiscrete enumerates a 3×3×3 grid (levels (i+0.5)/3) and checks
// that the exact argmax comes back, and the runner-up once it is excluded.
func TestMaximizeDiscrete(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	table := make([]float64, 27)
	for i := range table {
		table[i] = rng.NormFloat64()
	}
	index := func(x []float64) int {
		i := 0
		for _, v := range x {
			i = 3*i + min(int(v*3), 2)
		}
		return i
	}
	enumerate := func(int, *rand.Rand) [][]float64 {
		var all [][]float64
		for i := range 27 {
			all = append(all, []float64{(float64(i/9) + 0.5) / 3, (float64(i/3%3) + 0.5) / 3, (float64(i%3) + 0.5) / 3})
		}
		return all
	}
	f := func(x, grad []float64) float64 {
		if grad != nil {
			t.Fatal("gradient requested on a purely discrete domain")
		}
		return table[index(x)]
	}
	order := make([]int, 27)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return -cmpFloat(table[a], table[b]) })

	d := Domain{Dim: 3, Free: []bool{false, false, false}, Candidates: enumerate}
	r, err := Maximize(f, d, MaximizeSettings{}, rand.New(rand.NewPCG(1, 1)))
	if err != nil || index(r.X) != order[0] || r.F != table[order[0]] {
		t.Errorf("argmax: %v (index %d, f = %g, err %v), want index %d", r.X, index(r.X), r.F, err, order[0])
	}
	d.Exclude = func(x []float64) bool { return index(x) == order[0] }
	r, err = Maximize(f, d, MaximizeSettings{}, rand.New(rand.NewPCG(1, 1)))
	if err != nil || index(r.X) != order[1] {
		t.Errorf("argmax excluded: index %d (err %v), want %d", index(r.X), err, order[1])
	}
	d.Exclude = func([]float64) bool { return true }
	if _, err := Maximize(f, d, MaximizeSettings{}, rand.New(rand.NewPCG(1, 1))); err == nil || !strings.Contains(err.Error(), "excluded") {
		t.Errorf("everything excluded: error %v", err)
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestMaximizeExcludeContinuous: the optimum x0 = 0.8 lies in the excluded
// half x0 > 0.5, so the best legal point seen comes back.
func TestMaximizeExcludeContinuous(t *testing.T) {
	f := func(x, grad []float64) float64 {
		if grad != nil {
			grad[0], grad[1] = -2*(x[0]-0.8), -2*(x[1]-0.3)
		}
		return -(x[0]-0.8)*(x[0]-0.8) - (x[1]-0.3)*(x[1]-0.3)
	}
	d := Domain{Dim: 2, Exclude: func(x []float64) bool { return x[0] > 0.5 }}
	r, err := Maximize(f, d, MaximizeSettings{}, rand.New(rand.NewPCG(2, 3)))
	if err != nil {
		t.Fatal(err)
	}
	if r.X[0] > 0.5 || r.F < -0.09-0.01 {
		t.Errorf("got %v (f = %g), want x0 ≤ 0.5 and f near −0.09", r.X, r.F)
	}
}

// TestMaximizeStarts: a needle too narrow for the raw candidates is found
// when its location is passed as a start.
func TestMaximizeStarts(t *testing.T) {
	p := []float64{0.123456, 0.654321}
	f := func(x, grad []float64) float64 {
		r2 := (x[0]-p[0])*(x[0]-p[0]) + (x[1]-p[1])*(x[1]-p[1])
		v := math.Exp(-r2 / 1e-10)
		if grad != nil {
			grad[0] = -2 * (x[0] - p[0]) / 1e-10 * v
			grad[1] = -2 * (x[1] - p[1]) / 1e-10 * v
		}
		return v
	}
	r, err := Maximize(f, Domain{Dim: 2}, MaximizeSettings{Starts: [][]float64{p}}, rand.New(rand.NewPCG(4, 4)))
	if err != nil || r.F != 1 || !slices.Equal(r.X, p) {
		t.Errorf("got %v f = %g err %v, want the start %v", r.X, r.F, err, p)
	}
}

func TestMaximizeErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	nan := func(x, grad []float64) float64 { return math.NaN() }
	for _, tc := range []struct {
		name string
		f    Objective
		d    Domain
		s    MaximizeSettings
		rng  *rand.Rand
		want string
	}{
		{"dimension", negBranin, Domain{}, MaximizeSettings{}, rng, "dimension"},
		{"free length", negBranin, Domain{Dim: 2, Free: []bool{true}}, MaximizeSettings{}, rng, "Free"},
		{"nil rng", negBranin, Domain{Dim: 2}, MaximizeSettings{}, nil, "random source"},
		{"bad start", negBranin, Domain{Dim: 2}, MaximizeSettings{Starts: [][]float64{{0.5}}}, rng, "start 0 has 1"},
		{"bad candidate", negBranin, Domain{Dim: 2, Candidates: func(int, *rand.Rand) [][]float64 { return [][]float64{{1, 2, 3}} }}, MaximizeSettings{}, rng, "raw candidate 0 has 3"},
		{"all NaN", nan, Domain{Dim: 2}, MaximizeSettings{Candidates: 16}, rng, "non-finite"},
	} {
		if _, err := Maximize(tc.f, tc.d, tc.s, tc.rng); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// benchObjective is a cheap wavy 10-D objective with its gradient.
func benchObjective(x, grad []float64) float64 {
	v := 0.0
	for i, xi := range x {
		d := xi - 0.3
		v += -d*d + 0.05*math.Cos(12*xi)
		if grad != nil {
			grad[i] = -2*d - 0.6*math.Sin(12*xi)
		}
	}
	return v
}

func BenchmarkMaximize(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		if _, err := Maximize(benchObjective, Domain{Dim: 10}, MaximizeSettings{Candidates: 2048}, rng); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMaximizeRefinesFromAnExcludedStart: the incumbent may not be returned
// but is where the search should go on from.
func TestMaximizeRefinesFromAnExcludedStart(t *testing.T) {
	peak := []float64{0.3, 0.7}
	f := func(x, g []float64) float64 {
		dx, dy := x[0]-peak[0], x[1]-peak[1]
		if g != nil {
			g[0], g[1] = -2*dx, -2*dy
		}
		return -(dx*dx + dy*dy)
	}
	d := Domain{Dim: 2, Exclude: func(x []float64) bool { return slices.Equal(x, peak) }}
	r, err := Maximize(f, d, MaximizeSettings{Candidates: 4, Starts: [][]float64{peak}}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(r.X, peak) || math.Hypot(r.X[0]-peak[0], r.X[1]-peak[1]) > 1e-2 {
		t.Fatalf("returned %v; want a point near, but not at, the excluded peak %v", r.X, peak)
	}
}

// With Batch set, every value-only evaluation goes through it: the raw
// candidates, the rounded results of gradient steps and the local-search
// moves. The result is the one f alone gives.
func TestMaximizeBatch(t *testing.T) {
	for seed := range uint64(5) {
		for _, n := range []int{3, 256} {
			s := MaximizeSettings{Candidates: n}
			want, err := Maximize(mixedObjective, mixedDomain(), s, rand.New(rand.NewPCG(seed, 2)))
			if err != nil {
				t.Fatal(err)
			}
			batched := 0
			s.Batch = func(X [][]float64, values []float64) {
				batched += len(X)
				for i, x := range X {
					values[i] = mixedObjective(x, nil)
				}
			}
			valueOnly := 0
			f := func(x, grad []float64) float64 {
				if grad == nil {
					valueOnly++
				}
				return mixedObjective(x, grad)
			}
			got, err := Maximize(f, mixedDomain(), s, rand.New(rand.NewPCG(seed, 2)))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.X, want.X) || got.F != want.F || got.Evaluations != want.Evaluations {
				t.Errorf("seed %d, %d candidates: with Batch %+v, without %+v", seed, n, got, want)
			}
			if valueOnly != 0 || batched < n {
				t.Errorf("seed %d, %d candidates: %d value-only calls of f, %d points batched", seed, n, valueOnly, batched)
			}
		}
	}
}

// TestMaximizeInABox: with Lo and Hi every candidate and refinement stays
// in the box, and a maximum outside it is found on its boundary; a box
// that is not inside the unit cube, or of the wrong length, is refused.
func TestMaximizeInABox(t *testing.T) {
	// −‖u − (0.9, 0.9)‖², whose maximum lies outside [0.2, 0.5]².
	f := func(u, grad []float64) float64 {
		if grad != nil {
			grad[0], grad[1] = -2*(u[0]-0.9), -2*(u[1]-0.9)
		}
		return -((u[0]-0.9)*(u[0]-0.9) + (u[1]-0.9)*(u[1]-0.9))
	}
	var outside int
	inBox := func(u, grad []float64) float64 {
		if u[0] < 0.2 || u[0] > 0.5 || u[1] < 0.2 || u[1] > 0.5 {
			outside++
		}
		return f(u, grad)
	}
	d := Domain{Dim: 2, Lo: []float64{0.2, 0.2}, Hi: []float64{0.5, 0.5}}
	res, err := Maximize(inBox, d, MaximizeSettings{Candidates: 64}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(res.X[0]-0.5) > 1e-9 || math.Abs(res.X[1]-0.5) > 1e-9 || outside > 0 {
		t.Errorf("maximum at %v with %d evaluations outside the box, want (0.5, 0.5) and none", res.X, outside)
	}
	for _, bad := range []Domain{
		{Dim: 2, Lo: []float64{0.2}, Hi: []float64{0.5, 0.5}},
		{Dim: 2, Lo: []float64{0.2, 0.6}, Hi: []float64{0.5, 0.5}},
		{Dim: 2, Lo: []float64{-0.1, 0}, Hi: []float64{0.5, 0.5}},
	} {
		if _, err := Maximize(f, bad, MaximizeSettings{}, rand.New(rand.NewPCG(1, 2))); err == nil {
			t.Errorf("box %v, %v: no error", bad.Lo, bad.Hi)
		}
	}
}
