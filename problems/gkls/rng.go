package gkls

// The random numbers of the generator: Knuth's lagged-Fibonacci generator
// of real fractions, X_j = (X_{j−100} + X_{j−37}) mod 1, seeded by
// ranf_start (Knuth, TAOCP vol. 2, 3rd ed., §3.6, the version of 2000 that
// Alg. 829 ships), drawn in blocks of numRnd. Function numbers reproduce
// only with this stream, so it is the published one, not math/rand.
const (
	kk     = 100  // the long lag
	ll     = 37   // the short lag
	tt     = 70   // guaranteed separation between streams
	numRnd = 1009 // numbers per block (Knuth's QUALITY)
)

// ranf is the generator's state.
type ranf struct{ u [kk]float64 }

// modSum is (x + y) mod 1 for x, y ∈ [0, 1).
func modSum(x, y float64) float64 {
	s := x + y
	return s - float64(int(s))
}

// newRanf seeds a generator as ranf_start(seed) does: the seed's bits
// select one of 2³⁰ − 2 streams. ul tracks the lowest bit of each u, which
// the "squaring" of the polynomial needs.
func newRanf(seed int64) *ranf {
	const ulp = 1.0 / (1 << 52)
	var u, ul [kk + kk - 1]float64
	ss := 2 * ulp * float64((seed&0x3fffffff)+2)
	for j := range kk {
		u[j] = ss
		ss += ss
		if ss >= 1 {
			ss -= 1 - 2*ulp // a cyclic shift of 51 bits
		}
	}
	u[1] += ulp
	ul[1] = ulp // u[1], and only u[1], is "odd"
	s := seed & 0x3fffffff
	for t := tt - 1; t > 0; {
		for j := kk - 1; j > 0; j-- { // square
			ul[j+j], u[j+j] = ul[j], u[j]
		}
		for j := kk + kk - 2; j > kk-ll; j -= 2 {
			ul[kk+kk-1-j], u[kk+kk-1-j] = 0, u[j]-ul[j]
		}
		for j := kk + kk - 2; j >= kk; j-- {
			if ul[j] != 0 {
				ul[j-(kk-ll)] = ulp - ul[j-(kk-ll)]
				u[j-(kk-ll)] = modSum(u[j-(kk-ll)], u[j])
				ul[j-kk] = ulp - ul[j-kk]
				u[j-kk] = modSum(u[j-kk], u[j])
			}
		}
		if s&1 == 1 { // multiply by z
			for j := kk; j > 0; j-- {
				ul[j], u[j] = ul[j-1], u[j-1]
			}
			ul[0], u[0] = ul[kk], u[kk]
			if ul[kk] != 0 {
				ul[ll] = ulp - ul[ll]
				u[ll] = modSum(u[ll], u[kk])
			}
		}
		if s != 0 {
			s >>= 1
		} else {
			t--
		}
	}
	r := &ranf{}
	copy(r.u[kk-ll:], u[:ll])
	copy(r.u[:kk-ll], u[ll:kk])
	return r
}

// fill puts len(a) ≥ kk new fractions into a (ranf_array).
func (r *ranf) fill(a []float64) {
	n := len(a)
	copy(a, r.u[:])
	for j := kk; j < n; j++ {
		a[j] = modSum(a[j-kk], a[j-ll])
	}
	j := n
	for i := 0; i < ll; i, j = i+1, j+1 {
		r.u[i] = modSum(a[j-kk], a[j-ll])
	}
	for i := ll; i < kk; i, j = i+1, j+1 {
		r.u[i] = modSum(a[j-kk], r.u[i-ll])
	}
}

// stream hands out the numbers of a block in order, drawing the next block
// when one is used up, as the generator's rnd_counter does; restart draws
// a new block at once, as the generator does before the global minimiser
// and before every candidate local minimiser.
type stream struct {
	r     *ranf
	block [numRnd]float64
	next  int
}

func newStream(seed int64) *stream {
	s := &stream{r: newRanf(seed)}
	s.restart()
	return s
}

func (s *stream) restart() {
	s.r.fill(s.block[:])
	s.next = 0
}

func (s *stream) float() float64 {
	v := s.block[s.next]
	s.next++
	if s.next == numRnd {
		s.restart()
	}
	return v
}
