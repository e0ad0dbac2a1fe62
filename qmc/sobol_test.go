package qmc

import (
	"math/rand/v2"
	"testing"
)

// polyOrder returns the multiplicative order of x modulo the degree-s
// polynomial p over GF(2) (bit i of p is the coefficient of x^i), or 0 if x
// never returns to 1 within 2^s steps.
func polyOrder(p uint64, s int) uint64 {
	r := uint64(1)
	for k := uint64(1); k <= 1<<s; k++ {
		r <<= 1
		if r>>s&1 == 1 {
			r ^= p
		}
		if r == 1 {
			return k
		}
	}
	return 0
}

func TestJoeKuoTable(t *testing.T) {
	seen := map[[2]uint32]bool{}
	prevS := uint32(0)
	for i, row := range joeKuo {
		d := i + 2
		if len(row.m) != int(row.s) {
			t.Errorf("d=%d: %d initial numbers for degree %d", d, len(row.m), row.s)
		}
		if row.s < prevS {
			t.Errorf("d=%d: degree %d after %d", d, row.s, prevS)
		}
		prevS = row.s
		if seen[[2]uint32{row.s, row.a}] {
			t.Errorf("d=%d: polynomial (s=%d, a=%d) repeated", d, row.s, row.a)
		}
		seen[[2]uint32{row.s, row.a}] = true
		// x^s + a_1 x^(s−1) + … + a_(s−1) x + 1 must be primitive: x has
		// order 2^s − 1.
		s := int(row.s)
		p := uint64(1)<<s | uint64(row.a)<<1 | 1
		if got, want := polyOrder(p, s), uint64(1)<<s-1; got != want {
			t.Errorf("d=%d: polynomial s=%d a=%d is not primitive (order %d, want %d)", d, s, row.a, got, want)
		}
		for k, m := range row.m {
			if m%2 == 0 || m >= 1<<(k+1) {
				t.Errorf("d=%d: m_%d = %d must be odd and < 2^%d", d, k+1, m, k+1)
			}
		}
	}
}

func TestSobolKnownPoints(t *testing.T) {
	tests := []struct {
		dim  int
		want [][]float64
	}{
		{1, [][]float64{{0.5}, {0.75}, {0.25}, {0.375}, {0.875}, {0.625}, {0.125}}},
		{2, [][]float64{{0.5, 0.5}, {0.75, 0.25}, {0.25, 0.75}, {0.375, 0.375}, {0.875, 0.875}}},
		// Reference values of the Joe–Kuo generator for three dimensions.
		{3, [][]float64{
			{0.5, 0.5, 0.5}, {0.75, 0.25, 0.25}, {0.25, 0.75, 0.75},
			{0.375, 0.375, 0.625}, {0.875, 0.875, 0.125}, {0.625, 0.125, 0.875},
			{0.125, 0.625, 0.375}, {0.1875, 0.3125, 0.9375}, {0.6875, 0.8125, 0.4375},
		}},
	}
	for _, tt := range tests {
		got := SobolPoints(len(tt.want), tt.dim, nil)
		for i := range tt.want {
			for j := range tt.want[i] {
				if got[i][j] != tt.want[i][j] {
					t.Fatalf("dim %d point %d = %v, want %v", tt.dim, i, got[i], tt.want[i])
				}
			}
		}
	}
}

// stratumCounts maps the first n = 2^k points (origin included) of dims
// (a subset of coordinates, using kb[j] bits of coordinate j) to cell counts.
func checkNet(t *testing.T, pts [][]float64, dims []int, kb []int) {
	t.Helper()
	total := 0
	for _, b := range kb {
		total += b
	}
	if 1<<total != len(pts) {
		t.Fatalf("bad test: %d points for %d bits", len(pts), total)
	}
	counts := make([]int, len(pts))
	for _, p := range pts {
		cell := 0
		for j, d := range dims {
			cell = cell<<kb[j] | int(p[d]*float64(int(1)<<kb[j]))
		}
		counts[cell]++
	}
	for c, n := range counts {
		if n != 1 {
			t.Fatalf("dims %v bits %v: cell %d holds %d points, want 1", dims, kb, c, n)
		}
	}
}

// withOrigin returns the origin followed by the first n−1 points of the
// sequence, i.e. the first n points of the unskipped sequence.
func withOrigin(n, dim int, rng *rand.Rand) [][]float64 {
	s := NewSobol(dim, rng)
	pts := make([][]float64, n)
	pts[0] = make([]float64, dim)
	for j := range pts[0] {
		pts[0][j] = float64(s.shift[j]) * 0x1p-32
	}
	for i := 1; i < n; i++ {
		pts[i] = make([]float64, dim)
		s.Next(pts[i])
	}
	return pts
}

func TestSobolMarginalStratification(t *testing.T) {
	for _, rng := range []*rand.Rand{nil, rand.New(rand.NewPCG(1, 2))} {
		pts := withOrigin(1<<10, MaxSobolDim, rng)
		for k := 0; k <= 10; k++ {
			for d := range MaxSobolDim {
				checkNet(t, pts[:1<<k], []int{d}, []int{k})
			}
		}
	}
}

func TestSobol2DStratification(t *testing.T) {
	// Joe–Kuo chose the direction numbers so that two-dimensional projections
	// are (t,2)-nets with small t; the first dimension pairs are (0,2)-nets.
	pts := withOrigin(1<<10, MaxSobolDim, rand.New(rand.NewPCG(3, 4)))
	for _, pair := range [][2]int{{0, 1}} {
		for k := 0; k <= 10; k++ {
			for b := 0; b <= k; b++ {
				checkNet(t, pts[:1<<k], pair[:], []int{b, k - b})
			}
		}
	}
	// Any pair of Sobol coordinates is a (t,2)-net with t ≤ s_i + s_j − 2
	// [Sobol 1967]; check elementary intervals of volume 2^(t−k) for a few
	// pairs, including high dimensions.
	for _, pair := range [][2]int{{1, 2}, {2, 5}, {10, 20}, {40, 63}, {62, 63}} {
		s := []int{1, 1}
		for i, d := range pair {
			if d > 0 {
				s[i] = int(joeKuo[d-1].s)
			}
		}
		tq := s[0] + s[1] - 2
		for k := tq; k <= 10; k++ {
			m := k - tq
			for b := 0; b <= m; b++ {
				// Coarsen: each cell of 2^m equal-volume boxes holds 2^tq points.
				counts := map[int]int{}
				for _, p := range pts[:1<<k] {
					c := int(p[pair[0]]*float64(int(1)<<b))<<(m-b) | int(p[pair[1]]*float64(int(1)<<(m-b)))
					counts[c]++
				}
				if len(counts) != 1<<m {
					t.Fatalf("pair %v k=%d: %d cells hit, want %d", pair, k, len(counts), 1<<m)
				}
				for c, n := range counts {
					if n != 1<<tq {
						t.Fatalf("pair %v k=%d b=%d: cell %d holds %d, want %d", pair, k, b, c, n, 1<<tq)
					}
				}
			}
		}
	}
}

func TestSobolSkip(t *testing.T) {
	for _, dim := range []int{1, 5, 64} {
		for _, skip := range []int{0, 1, 2, 7, 100, 1023} {
			rng := func() *rand.Rand { return rand.New(rand.NewPCG(5, 6)) }
			a := NewSobol(dim, rng())
			b := NewSobol(dim, rng())
			pa := make([]float64, dim)
			pb := make([]float64, dim)
			for range skip {
				a.Next(pa)
			}
			b.Skip(skip)
			for range 3 {
				a.Next(pa)
				b.Next(pb)
				for j := range pa {
					if pa[j] != pb[j] {
						t.Fatalf("dim %d skip %d: %v != %v", dim, skip, pa, pb)
					}
				}
			}
		}
	}
}

func TestSobolScrambledRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	pts := SobolPoints(4096, 10, rng)
	for _, p := range pts {
		for _, v := range p {
			if v < 0 || v >= 1 {
				t.Fatalf("point outside [0,1): %v", p)
			}
		}
	}
	// Same seed, same points.
	again := SobolPoints(4096, 10, rand.New(rand.NewPCG(7, 8)))
	for i := range pts {
		for j := range pts[i] {
			if pts[i][j] != again[i][j] {
				t.Fatal("same seed gave different points")
			}
		}
	}
}

func TestSobolFallback(t *testing.T) {
	s := NewSobol(MaxSobolDim+1, rand.New(rand.NewPCG(1, 1)))
	if !s.Fallback() {
		t.Fatal("dim 65 should fall back to uniform draws")
	}
	p := make([]float64, MaxSobolDim+1)
	s.Next(p)
	for _, v := range p {
		if v < 0 || v >= 1 {
			t.Fatalf("fallback point outside [0,1): %v", v)
		}
	}
	if NewSobol(MaxSobolDim, nil).Fallback() {
		t.Fatal("dim 64 should not fall back")
	}
}

func TestSobolPanics(t *testing.T) {
	tests := []struct {
		name string
		f    func()
	}{
		{"dim 0", func() { NewSobol(0, nil) }},
		{"dim 65 without rng", func() { NewSobol(MaxSobolDim+1, nil) }},
		{"short dst", func() { NewSobol(2, nil).Next(make([]float64, 1)) }},
		{"negative skip", func() { NewSobol(2, nil).Skip(-1) }},
		{"skip past end", func() { NewSobol(2, nil).Skip(1 << 32) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			tt.f()
		})
	}
}

func TestSobolEndOfSequence(t *testing.T) {
	s := NewSobol(1, nil)
	s.Skip(1<<32 - 2)
	p := make([]float64, 1)
	s.Next(p) // the last point, index 2^32 − 1
	if p[0] < 0 || p[0] >= 1 {
		t.Fatalf("last point %v", p[0])
	}
	defer func() {
		if recover() == nil {
			t.Error("no panic past the end")
		}
	}()
	s.Next(p)
}

func TestUniform(t *testing.T) {
	pts := Uniform(100, 3, rand.New(rand.NewPCG(1, 2)))
	if len(pts) != 100 {
		t.Fatalf("got %d points", len(pts))
	}
	for _, p := range pts {
		if len(p) != 3 {
			t.Fatalf("point of length %d", len(p))
		}
		for _, v := range p {
			if v < 0 || v >= 1 {
				t.Fatalf("point outside [0,1): %v", p)
			}
		}
	}
	if len(Uniform(0, 3, rand.New(rand.NewPCG(1, 2)))) != 0 {
		t.Fatal("n = 0 should give no points")
	}
}

func BenchmarkSobolNext(b *testing.B) {
	s := NewSobol(20, rand.New(rand.NewPCG(1, 2)))
	p := make([]float64, 20)
	for b.Loop() {
		s.Next(p)
		if s.n == 1<<32-1 {
			s.n = 0
		}
	}
}
