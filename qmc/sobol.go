package qmc

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// MaxSobolDim is the largest dimension for which Sobol direction numbers are
// shipped; NewSobol falls back to uniform draws above it.
const MaxSobolDim = 64

// sobolBits is the precision of the sequence: points are multiples of 2^-32,
// and at most 2^32 − 1 points (after the skipped origin) exist.
const sobolBits = 32

// Sobol generates a Sobol sequence in [0,1)^dim with Joe–Kuo
// new-joe-kuo-6.21201 direction numbers, in Gray-code order, with 32-bit
// precision [spec gp-and-acquisitions §6.2]. The first point (the origin) is
// skipped, so the unscrambled 1-D sequence starts 0.5, 0.75, 0.25, 0.375.
//
// With a non-nil rng the sequence is scrambled by a random digital shift: each
// coordinate's 32-bit integer is XORed with a per-dimension random word. The
// shift keeps every stratification property of the sequence (it permutes the
// elementary intervals) while making the points random, so that repeated
// designs differ and estimates built on them are unbiased.
//
// For dim > MaxSobolDim no direction numbers are available and Next returns
// uniform draws from rng instead; callers that care should check Fallback and
// warn the user. A Sobol is not safe for concurrent use.
type Sobol struct {
	dim   int
	v     [][sobolBits]uint32 // direction numbers V_1..V_32 per dimension
	x     []uint32            // integer state of the current point
	shift []uint32            // digital shift, zero when unscrambled
	n     uint64              // index of the current point; 0 is the origin
	rng   *rand.Rand          // only for the dim > MaxSobolDim fallback
}

// NewSobol returns a Sobol sequence of dimension dim, scrambled by a random
// digital shift drawn from rng when rng is non-nil. NewSobol panics if dim < 1,
// or if dim > MaxSobolDim and rng is nil (the uniform fallback needs a source).
func NewSobol(dim int, rng *rand.Rand) *Sobol {
	if dim < 1 {
		panic(fmt.Sprintf("qmc: Sobol dimension must be at least 1, got %d", dim))
	}
	s := &Sobol{dim: dim}
	if dim > MaxSobolDim {
		if rng == nil {
			panic(fmt.Sprintf("qmc: Sobol dimension %d exceeds %d; the uniform fallback needs a non-nil rng", dim, MaxSobolDim))
		}
		s.rng = rng
		return s
	}
	s.v = make([][sobolBits]uint32, dim)
	for j := range dim {
		s.v[j] = directions(j)
	}
	s.x = make([]uint32, dim)
	s.shift = make([]uint32, dim)
	if rng != nil {
		for j := range s.shift {
			s.shift[j] = rng.Uint32()
		}
	}
	return s
}

// directions returns the 32 direction numbers V_k = m_k·2^(32−k) of dimension
// j (0-based) by the Bratley–Fox recurrence
//
//	m_k = 2a_1 m_{k−1} ⊕ 4a_2 m_{k−2} ⊕ … ⊕ 2^(s−1)a_{s−1} m_{k−s+1} ⊕ 2^s m_{k−s} ⊕ m_{k−s},
//
// written directly on the scaled V_k.
func directions(j int) [sobolBits]uint32 {
	var v [sobolBits]uint32
	if j == 0 {
		for k := range sobolBits {
			v[k] = 1 << (sobolBits - 1 - k)
		}
		return v
	}
	row := joeKuo[j-1]
	s := int(row.s)
	for k := 0; k < s && k < sobolBits; k++ {
		v[k] = row.m[k] << (sobolBits - 1 - k)
	}
	for k := s; k < sobolBits; k++ {
		w := v[k-s] ^ (v[k-s] >> s)
		for i := 1; i < s; i++ {
			if (row.a>>(s-1-i))&1 == 1 {
				w ^= v[k-i]
			}
		}
		v[k] = w
	}
	return v
}

// Dim returns the dimension of the sequence.
func (s *Sobol) Dim() int { return s.dim }

// Fallback reports whether the sequence is uniform random draws because dim
// exceeds MaxSobolDim.
func (s *Sobol) Fallback() bool { return s.rng != nil }

// Next writes the next point into dst. It panics if len(dst) != dim, or if
// all 2^32 − 1 points of the sequence have been used.
func (s *Sobol) Next(dst []float64) {
	if len(dst) != s.dim {
		panic(fmt.Sprintf("qmc: Sobol.Next: len(dst) = %d, want %d", len(dst), s.dim))
	}
	if s.rng != nil {
		for j := range dst {
			dst[j] = s.rng.Float64()
		}
		return
	}
	// Gray-code order: point n differs from point n−1 in the direction
	// number indexed by the lowest zero bit of n−1 (Antonov–Saleev).
	c := bits.TrailingZeros64(^s.n)
	if c >= sobolBits {
		panic("qmc: Sobol sequence exhausted (2^32 points)")
	}
	s.n++
	for j := range dst {
		s.x[j] ^= s.v[j][c]
		dst[j] = float64(s.x[j]^s.shift[j]) * 0x1p-32
	}
}

// Skip advances the sequence by n points without generating them, at a cost
// independent of n. It panics if n < 0 or the sequence would be exhausted.
func (s *Sobol) Skip(n int) {
	if n < 0 {
		panic(fmt.Sprintf("qmc: Sobol.Skip: negative n = %d", n))
	}
	if n == 0 {
		return
	}
	if s.rng != nil {
		for range n * s.dim {
			s.rng.Float64()
		}
		return
	}
	m := s.n + uint64(n)
	if m >= 1<<sobolBits {
		panic("qmc: Sobol.Skip: past the end of the sequence (2^32 points)")
	}
	// Point m of the Gray-code order is the XOR of the direction numbers
	// selected by the bits of gray(m) = m ⊕ (m >> 1).
	g := m ^ (m >> 1)
	for j := range s.x {
		var x uint32
		for k := 0; g>>k != 0; k++ {
			if (g>>k)&1 == 1 {
				x ^= s.v[j][k]
			}
		}
		s.x[j] = x
	}
	s.n = m
}

// SobolPoints returns the first n points of a Sobol sequence of dimension dim
// (origin skipped), scrambled when rng is non-nil. See NewSobol for panics.
func SobolPoints(n, dim int, rng *rand.Rand) [][]float64 {
	s := NewSobol(dim, rng)
	pts := make([][]float64, max(n, 0))
	flat := make([]float64, len(pts)*dim)
	for i := range pts {
		pts[i] = flat[i*dim : (i+1)*dim : (i+1)*dim]
		s.Next(pts[i])
	}
	return pts
}

// Uniform returns n points drawn independently and uniformly from [0,1)^dim.
// It panics if rng is nil.
func Uniform(n, dim int, rng *rand.Rand) [][]float64 {
	if rng == nil {
		panic("qmc: Uniform needs a non-nil rng")
	}
	pts := make([][]float64, max(n, 0))
	flat := make([]float64, len(pts)*dim)
	for i := range pts {
		p := flat[i*dim : (i+1)*dim : (i+1)*dim]
		for j := range p {
			p[j] = rng.Float64()
		}
		pts[i] = p
	}
	return pts
}
