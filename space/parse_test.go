package space

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	sp, err := New(
		Param{Name: "lr", Kind: Float, Low: 1e-5, High: 0.1, Log: true},
		Param{Name: "n", Kind: Int, Low: 1, High: 4},
		Param{Name: "w", Kind: Ordinal, Values: []float64{16, 32}},
		Param{Name: "act", Kind: Categorical, Choices: []string{"relu", "1"}},
		Param{Name: "bn", Kind: Bool},
	)
	if err != nil {
		t.Fatal(err)
	}
	a := Assignment{}
	for name, text := range map[string]string{"lr": "0.01", "n": "3", "w": "32", "act": "1", "bn": "True"} {
		v, err := sp.Parse(name, text)
		if err != nil {
			t.Fatalf("Parse(%s, %q): %v", name, text, err)
		}
		a[name] = v
	}
	c, err := sp.Canonical(a)
	if err != nil {
		t.Fatal(err)
	}
	if c["lr"] != 0.01 || c["n"] != 3 || c["w"] != 32.0 || c["act"] != "1" || c["bn"] != true {
		t.Errorf("Canonical of the parsed values = %v", c)
	}
	for _, tc := range []struct{ name, text, want string }{
		{"lr", "big", `space.lr: want a number, got "big"`},
		{"n", "3.x", `space.n: want an integer in [1, 4], got "3.x"`},
		{"w", "", `space.w: want one of 16, 32, got ""`},
		{"bn", "yes", `space.bn: want true or false, got "yes"`},
		{"z", "1", "space.z: unknown parameter; the space has lr, n, w, act, bn"},
	} {
		if _, err := sp.Parse(tc.name, tc.text); err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%s, %q) = %v, want %q", tc.name, tc.text, err, tc.want)
		}
	}
}

func TestParamString(t *testing.T) {
	sp, err := New(
		Param{Name: "kernel", Kind: Categorical, Choices: []string{"rbf", "poly"}},
		Param{Name: "degree", Kind: Int, Low: 2, High: 5, When: map[string][]string{"kernel": {"poly"}}},
		Param{Name: "C", Kind: Float, Low: 1e-3, High: 1e3, Log: true},
		Param{Name: "bn", Kind: Bool},
		Param{Name: "knob", Kind: Float, Low: 0, High: 1, InputNoise: 0.05},
	)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, p := range sp.Params() {
		lines = append(lines, p.String())
	}
	want := "kernel: categorical, one of rbf, poly\ndegree: int, an integer in [2, 5], when kernel is poly\nC: float, a number in [0.001, 1000], log scale\nbn: bool, true or false\nknob: float, a number in [0, 1], applied with noise σ = 0.05"
	if got := strings.Join(lines, "\n"); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
