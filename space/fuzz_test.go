package space

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"
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

// fuzzSpace is FuzzDecode's space: every kind, log scales, a chain of
// conditions (coef needs degree needs kernel).
func fuzzSpace() *Space {
	return MustNew(
		Param{Name: "C", Kind: Float, Low: 1e-3, High: 1e3, Log: true},
		Param{Name: "x", Kind: Float, Low: -1, High: 1},
		Param{Name: "kernel", Kind: Categorical, Choices: []string{"rbf", "poly", "linear", "1", "2.5", "true"}},
		Param{Name: "degree", Kind: Int, Low: 2, High: 5, When: map[string][]string{"kernel": {"poly", "1"}}},
		Param{Name: "coef", Kind: Float, Low: 0, High: 1, When: map[string][]string{"degree": {"3", "4"}}},
		Param{Name: "width", Kind: Ordinal, Values: []float64{0.1, 16, 32, 64, 1e6}},
		Param{Name: "on", Kind: Bool, When: map[string][]string{"kernel": {"linear", "true"}}},
		Param{Name: "n", Kind: Int, Low: 1, High: 100000, Log: true},
		Param{Name: "m", Kind: Int, Low: -1e15, High: 1e15},
	)
}

// FuzzAssignment checks Validate, Canonical, Encode and Decode on
// arbitrary assignments, written as JSON as the HTTP API and the client
// read them (numbers as float64, or as json.Number). Validate, Encode and
// Canonical agree on what is valid; a valid assignment's canonical form
// is valid, a fixed point of Canonical, encodes to the same point, and
// Decode gives it back (Float values up to rounding).
func FuzzAssignment(f *testing.F) {
	for _, s := range []string{
		`{"C":0.5,"x":0,"kernel":"rbf","width":16,"n":10,"m":0}`,
		`{"C":1e-3,"x":-1,"kernel":"poly","degree":3,"coef":0.25,"width":1e6,"n":100000,"m":-1e15}`,
		`{"C":1000,"x":1,"kernel":"poly","degree":5,"width":0.1,"n":1,"m":1000000000000000}`,
		`{"C":2,"x":0.5,"kernel":"linear","on":true,"width":32.0000000000001,"n":99999,"m":7}`,
		`{"C":2,"x":0.5,"kernel":true,"on":"false","width":64,"n":2,"m":-7}`,
		`{"C":2,"x":0.5,"kernel":1,"degree":4.0,"coef":1,"width":64,"n":3,"m":1}`,
		`{"C":2,"x":0.5,"kernel":2.5,"width":64,"n":3,"m":1}`,
		`{"C":2,"x":0.5,"kernel":"rbf","degree":3,"width":64,"n":3,"m":1}`,
		`{"C":0,"x":2,"kernel":"sigmoid","width":15,"n":0.5,"m":1e16,"zzz":null}`,
		`{"C":"1","x":[],"kernel":{},"width":null,"n":1e400,"m":-0}`,
		`{}`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	s := fuzzSpace()
	f.Fuzz(func(t *testing.T, data []byte, numbers bool) {
		var a Assignment
		dec := json.NewDecoder(bytes.NewReader(data))
		if numbers {
			dec.UseNumber()
		}
		if dec.Decode(&a) != nil || a == nil {
			return
		}
		verr := s.Validate(a)
		u, eerr := s.Encode(a)
		c, cerr := s.Canonical(a)
		if (verr == nil) != (eerr == nil) || (verr == nil) != (cerr == nil) {
			t.Fatalf("%s: Validate %v, Encode %v, Canonical %v", data, verr, eerr, cerr)
		}
		if verr != nil {
			if verr.Error() == "" {
				t.Fatalf("%s: empty error", data)
			}
			return
		}
		if len(c) != len(a) {
			t.Fatalf("Canonical(%v) = %v: other parameters", a, c)
		}
		if err := s.Validate(c); err != nil {
			t.Fatalf("Canonical(%v) = %v is invalid: %v", a, c, err)
		}
		if cc, err := s.Canonical(c); err != nil || !reflect.DeepEqual(cc, c) {
			t.Fatalf("Canonical is not idempotent: %v → %v, %v", c, cc, err)
		}
		uc, err := s.Encode(c)
		if err != nil || !reflect.DeepEqual(uc, u) {
			t.Fatalf("Encode(%v) = %v, %v; Encode(%v) = %v", a, u, err, c, uc)
		}
		r := append([]float64(nil), u...)
		s.Round(r)
		if !reflect.DeepEqual(r, u) {
			t.Fatalf("Round(Encode(%v)) = %v, want %v", a, r, u)
		}
		d := s.Decode(u)
		if len(d) != len(c) {
			t.Fatalf("Decode(Encode(%v)) = %v: other parameters", c, d)
		}
		for name, v := range c {
			w := d[name]
			if f, ok := v.(float64); ok && s.Continuous(s.index[name]) {
				if math.Abs(w.(float64)-f) > 1e-9*math.Abs(f)+1e-300 {
					t.Fatalf("%s: %v → %v through Encode and Decode", name, f, w)
				}
			} else if v != w {
				t.Fatalf("%s: %v (%T) → %v (%T) through Encode and Decode", name, v, v, w, w)
			}
		}
	})
}

// FuzzSpaceJSON feeds arbitrary JSON to the space reader (the space of
// POST /api/v1/studies). It must not panic; a space it accepts is written
// back by MarshalJSON and MarshalYAML to the same space, and its points
// decode to valid assignments.
func FuzzSpaceJSON(f *testing.F) {
	for _, s := range []string{
		`{"x":{"type":"float","low":0,"high":1}}`,
		`{"C":{"type":"float","low":1e-3,"high":1e3,"log":true},"kernel":{"type":"categorical","choices":["rbf","poly",1,2.5,true]},"degree":{"type":"int","low":2,"high":5,"when":{"kernel":["poly"]}},"width":{"type":"ordinal","values":[16,32,64,128]},"on":{"type":"bool","when":{"degree":[2,3],"kernel":"poly"}}}`,
		`{"n":{"type":"int","low":1,"high":1e13,"log":true},"m":{"type":"int","low":-1e15,"high":1e15}}`,
		`{"x":{"type":"float","low":2.2250738585072014e-308,"high":1.7976931348623157e308,"log":true}}`,
		`{"a":{"type":"bool","when":{"b":["true"]}},"b":{"type":"bool","when":{"a":["true"]}}}`,
		`{"x":{"type":"float","low":null,"high":1},"x":{"type":"int"}}`,
		`{"x":{"type":"ordinal","values":[3,2]},"y":{"type":"categorical","choices":["a","a"]}}`,
		`{"":{"type":"bool"}}`,
		`{}`,
		`[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Space
		if err := json.Unmarshal(data, &s); err != nil {
			if err.Error() == "" {
				t.Fatalf("%s: empty error", data)
			}
			return
		}
		j, err := json.Marshal(&s)
		if err != nil {
			t.Fatalf("MarshalJSON: %v", err)
		}
		var back Space
		if err := json.Unmarshal(j, &back); err != nil {
			t.Fatalf("%s → %s does not read back: %v", data, j, err)
		}
		if !reflect.DeepEqual(params(&back), params(&s)) {
			t.Fatalf("through JSON the space changed: %s → %s", data, j)
		}
		y, err := yaml.Marshal(&s)
		if err != nil {
			t.Fatalf("MarshalYAML: %v", err)
		}
		var backY Space
		if err := yaml.Unmarshal(y, &backY); err != nil {
			t.Fatalf("%s → %s does not read back: %v", data, y, err)
		}
		if !reflect.DeepEqual(params(&backY), params(&s)) {
			t.Fatalf("through YAML the space changed: %s → %s", data, y)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for range 3 {
			a := s.Decode(s.Sample(rng))
			if err := s.Validate(a); err != nil {
				t.Fatalf("%s: Decode gave invalid %v: %v", data, a, err)
			}
		}
	})
}

// params is s.Params() with an empty When as none, which means the same
// and is not written back.
func params(s *Space) []Param {
	ps := s.Params()
	for i := range ps {
		if len(ps[i].When) == 0 {
			ps[i].When = nil
		}
	}
	return ps
}
