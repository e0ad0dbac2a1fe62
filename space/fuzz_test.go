package space

import (
	"encoding/binary"
	"math"
	"testing"
)

func FuzzDecode(f *testing.F) {
	s := MustNew(
		Param{Name: "C", Kind: Float, Low: 1e-3, High: 1e3, Log: true},
		Param{Name: "x", Kind: Float, Low: -1, High: 1},
		Param{Name: "kernel", Kind: Categorical, Choices: []string{"rbf", "poly", "linear"}},
		Param{Name: "degree", Kind: Int, Low: 2, High: 5, When: map[string][]string{"kernel": {"poly"}}},
		Param{Name: "coef", Kind: Float, Low: 0, High: 1, When: map[string][]string{"degree": {"3", "4"}}},
		Param{Name: "width", Kind: Ordinal, Values: []float64{16, 32, 64, 128}},
		Param{Name: "on", Kind: Bool},
		Param{Name: "n", Kind: Int, Low: 1, High: 100000, Log: true},
		Param{Name: "m", Kind: Int, Low: -1e15, High: 1e15},
	)
	n := s.Len()
	enc := func(xs ...float64) []byte {
		b := make([]byte, 8*n)
		for i := range n {
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(xs[i%len(xs)]))
		}
		return b
	}
	f.Add(enc(0.5))
	f.Add(enc(0, 1))
	f.Add(enc(math.NaN(), math.Inf(1), math.Inf(-1), -0.0, 1e300, -1e-300, math.Nextafter(1, 0)))
	f.Fuzz(func(t *testing.T, data []byte) {
		u := make([]float64, n)
		for i := range u {
			if 8*i+8 <= len(data) {
				u[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
			}
		}
		a := s.Decode(u)
		if err := s.Validate(a); err != nil {
			t.Fatalf("Decode(%v) = %v is invalid: %v", u, a, err)
		}
		r := append([]float64(nil), u...)
		s.Round(r)
		if s.Key(r) != s.Key(u) {
			t.Fatalf("Round changed the configuration: %s → %s", s.Key(u), s.Key(r))
		}
		back, err := s.Encode(a)
		if err != nil {
			t.Fatalf("Encode(Decode(%v)): %v", u, err)
		}
		// Discrete values survive exactly, Float values up to rounding.
		again := s.Decode(back)
		for name, v := range a {
			w := again[name]
			if f, ok := v.(float64); ok && s.Continuous(s.index[name]) {
				if math.Abs(w.(float64)-f) > 1e-9*math.Abs(f) {
					t.Fatalf("%s: %v → %v through Encode and Decode", name, f, w)
				}
			} else if v != w {
				t.Fatalf("%s: %v → %v through Encode and Decode", name, v, w)
			}
		}
		if len(again) != len(a) {
			t.Fatalf("Encode(Decode(u)) changed which parameters are active: %v → %v", a, again)
		}
		s.Features(u, nil)
		s.Neighbours(u)
	})
}
