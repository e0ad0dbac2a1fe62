package space

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestFeatures(t *testing.T) {
	s := svm() // C, kernel(3), degree|poly, width, shrinking(2), iters
	if s.NumFeatures() != 1+3+1+1+2+1 {
		t.Fatalf("NumFeatures = %d, want 9", s.NumFeatures())
	}
	wantIdx := []int{0, 1, 4, 5, 6, 8}
	for i, w := range wantIdx {
		if s.FeatureIndex(i) != w {
			t.Errorf("FeatureIndex(%d) = %d, want %d", i, s.FeatureIndex(i), w)
		}
	}
	u, err := s.Encode(Assignment{"C": 1.0, "kernel": "poly", "degree": 3, "width": 64.0, "shrinking": true, "iters": 1})
	if err != nil {
		t.Fatal(err)
	}
	got := s.Features(u, nil)
	want := []float64{u[0], 0, 1, 0, u[2], u[3], 0, 1, u[5]}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Features = %v, want %v", got, want)
	}
	// Inactive degree → 0; dst is reused.
	u, _ = s.Encode(Assignment{"C": 1.0, "kernel": "linear", "width": 64.0, "shrinking": false, "iters": 1})
	dst := make([]float64, 20)
	got = s.Features(u, dst)
	want = []float64{u[0], 0, 0, 1, 0, u[3], 1, 0, u[5]}
	if !reflect.DeepEqual(got, want) || &got[0] != &dst[0] {
		t.Errorf("Features = %v, want %v (in dst)", got, want)
	}
	// A categorical that is itself inactive has an all-zero block.
	c := MustNew(
		Param{Name: "on", Kind: Bool},
		Param{Name: "k", Kind: Categorical, Choices: []string{"a", "b"}, When: map[string][]string{"on": {"true"}}},
	)
	if got := c.Features([]float64{0.25, 0.75}, nil); !reflect.DeepEqual(got, []float64{1, 0, 0, 0}) {
		t.Errorf("inactive one-hot = %v", got)
	}
}

func TestNeighbours(t *testing.T) {
	s := svm()
	u, _ := s.Encode(Assignment{"C": 1.0, "kernel": "poly", "degree": 2, "width": 64.0, "shrinking": true, "iters": 1000})
	nb := s.Neighbours(u)
	// kernel: 2 others; degree 2: only 3; width 64: 32 and 128; shrinking: false;
	// iters 1000: only 999; C continuous: none.
	var keys []Assignment
	for _, v := range nb {
		keys = append(keys, s.Decode(v))
		if v[0] != u[0] {
			t.Errorf("neighbour moved the continuous coordinate: %v", v)
		}
		diff := 0
		for i := range v {
			if v[i] != u[i] {
				diff++
			}
		}
		if diff != 1 {
			t.Errorf("neighbour %v differs from %v in %d coordinates", v, u, diff)
		}
	}
	if len(nb) != 2+1+2+1+1 {
		t.Fatalf("%d neighbours, want 7: %v", len(nb), keys)
	}
	want := []string{"kernel=rbf", "kernel=linear", "degree=3", "width=32", "width=128", "shrinking=false", "iters=999"}
	for k, a := range keys {
		moved := ""
		base := s.Decode(u)
		for name, v := range a {
			if base[name] != v {
				moved = name + "=" + Format(v)
			}
		}
		if moved != want[k] {
			t.Errorf("neighbour %d moves %q, want %q", k, moved, want[k])
		}
	}
	// Inactive parameters do not move.
	u, _ = s.Encode(Assignment{"C": 1.0, "kernel": "rbf", "width": 16.0, "shrinking": true, "iters": 1})
	if n := len(s.Neighbours(u)); n != 2+1+1+1 {
		t.Errorf("%d neighbours with degree inactive, want 5", n)
	}
}

func TestEnumerate(t *testing.T) {
	tests := []struct {
		name   string
		params []Param
		want   int
	}{
		{"floats only", []Param{{Name: "x", Kind: Float, High: 1}}, 1},
		{"product", []Param{
			{Name: "a", Kind: Int, Low: 1, High: 3},
			{Name: "b", Kind: Bool},
			{Name: "c", Kind: Ordinal, Values: []float64{1, 2, 4, 8}},
			{Name: "x", Kind: Float, High: 1},
		}, 3 * 2 * 4},
		// kernel: rbf, linear alone; poly × degree 2..5 → 2 + 4.
		{"conditional", []Param{
			{Name: "degree", Kind: Int, Low: 2, High: 5, When: map[string][]string{"kernel": {"poly"}}},
			{Name: "kernel", Kind: Categorical, Choices: []string{"rbf", "poly", "linear"}},
		}, 6},
		// on=false: 1; on=true: k ∈ {a,b}, k=a adds n ∈ {1,2,3}: 3 + 1.
		{"chained", []Param{
			{Name: "on", Kind: Bool},
			{Name: "k", Kind: Categorical, Choices: []string{"a", "b"}, When: map[string][]string{"on": {"true"}}},
			{Name: "n", Kind: Int, Low: 1, High: 3, When: map[string][]string{"k": {"a"}}},
		}, 1 + 3 + 1},
	}
	for _, tt := range tests {
		s := MustNew(tt.params...)
		pts, ok := s.Enumerate(1000)
		if !ok || len(pts) != tt.want {
			t.Errorf("%s: Enumerate gave %d points (ok=%v), want %d", tt.name, len(pts), ok, tt.want)
			continue
		}
		seen := map[string]bool{}
		for _, p := range pts {
			k := s.Key(p)
			if seen[k] {
				t.Errorf("%s: %s listed twice", tt.name, k)
			}
			seen[k] = true
			r := append([]float64(nil), p...)
			s.Round(r)
			if !reflect.DeepEqual(r, p) {
				t.Errorf("%s: enumerated point %v is not rounded", tt.name, p)
			}
		}
		if _, ok := s.Enumerate(tt.want); !ok {
			t.Errorf("%s: Enumerate(%d) refused", tt.name, tt.want)
		}
		if pts, ok := s.Enumerate(tt.want - 1); ok || pts != nil {
			t.Errorf("%s: Enumerate(%d) = %d points, %v; want nil, false", tt.name, tt.want-1, len(pts), ok)
		}
	}
}

func TestKey(t *testing.T) {
	s := svm()
	a := Assignment{"C": 0.5, "kernel": "rbf", "width": 16.0, "shrinking": true, "iters": 7}
	u, _ := s.Encode(a)
	v := append([]float64(nil), u...)
	v[2] = 0.9 // inactive degree
	v[1] += 0.01
	if s.Key(u) != s.Key(v) {
		t.Errorf("Key differs for the same configuration: %s vs %s", s.Key(u), s.Key(v))
	}
	v[4] = 0.1
	if s.Key(u) == s.Key(v) {
		t.Error("Key equal for different configurations")
	}
	want := `"C"="` + Format(s.Decode(u)["C"]) + `" "kernel"="rbf" "width"="16" "shrinking"="true" "iters"="7"`
	if k := s.Key(u); k != want {
		t.Errorf("Key = %s, want %s", k, want)
	}
}

// keyByQuoting is Key as first written: each active parameter's name and
// formatted value, quoted. Key builds the same string from parts quoted
// once, and must stay equal to it.
func keyByQuoting(s *Space, u []float64) string {
	act := s.Active(u)
	var b strings.Builder
	for i, p := range s.params {
		if !act[i] {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Quote(p.Name) + "=" + strconv.Quote(Format(s.value(i, u[i]))))
	}
	return b.String()
}

func TestKeyMatchesQuoting(t *testing.T) {
	odd := MustNew(
		Param{Name: `say "hi"`, Kind: Categorical, Choices: []string{`a"b`, `c\d`, "é ✓", "tab\t"}},
		Param{Name: "n", Kind: Int, Low: -7, High: 3},
		Param{Name: "big", Kind: Int, Low: 1, High: 1e9, Log: true},
		Param{Name: "r", Kind: Ordinal, Values: []float64{-2.5, 0, 1e-7, 3e21}},
		Param{Name: "x", Kind: Float, Low: -1e-3, High: 1e6},
		Param{Name: "lr", Kind: Float, Low: 1e-9, High: 1, Log: true, When: map[string][]string{`say "hi"`: {`a"b`, "é ✓"}}},
	)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range []*Space{svm(), odd} {
		for range 2000 {
			u := s.Sample(rng)
			if rng.IntN(10) == 0 { // the ends of every range
				for i := range u {
					u[i] = float64(rng.IntN(2))
				}
			}
			if got, want := s.Key(u), keyByQuoting(s, u); got != want {
				t.Fatalf("Key = %s, quoting gives %s", got, want)
			}
		}
	}
}

func TestDesign(t *testing.T) {
	s := svm()
	for d := DesignUniform; d <= DesignLHS; d++ {
		for _, n := range []int{0, 1, 17} {
			pts := s.Design(d, n, rand.New(rand.NewPCG(1, 2)))
			if len(pts) != n {
				t.Fatalf("%v: %d points, want %d", d, len(pts), n)
			}
			for _, p := range pts {
				if err := s.Validate(s.Decode(p)); err != nil {
					t.Fatalf("%v: illegal point %v: %v", d, p, err)
				}
				r := append([]float64(nil), p...)
				s.Round(r)
				if !reflect.DeepEqual(r, p) {
					t.Fatalf("%v: point %v not rounded", d, p)
				}
			}
		}
	}
	// LHS over a categorical with n = 3·levels balances the levels.
	c := MustNew(Param{Name: "k", Kind: Categorical, Choices: []string{"a", "b", "c"}})
	counts := map[any]int{}
	for _, p := range c.Design(DesignLHS, 9, rand.New(rand.NewPCG(3, 4))) {
		counts[c.Decode(p)["k"]]++
	}
	if counts["a"] != 3 || counts["b"] != 3 || counts["c"] != 3 {
		t.Errorf("LHS levels %v, want 3 each", counts)
	}
	u := s.Sample(rand.New(rand.NewPCG(5, 6)))
	if err := s.Validate(s.Decode(u)); err != nil {
		t.Errorf("Sample gave an illegal point: %v", err)
	}
}
