package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// realData finds digits.csv.gz from the package directory (go test runs
// there), or from $BOA_DIGITS, and skips the test when it is absent.
func realData(t *testing.T) string {
	t.Helper()
	path := os.Getenv("BOA_DIGITS")
	if path == "" {
		path = filepath.Join("..", "..", defaultData)
	}
	if _, err := os.Stat(path); err != nil {
		t.Skipf("digits data not found at %s (set BOA_DIGITS to the path of digits.csv.gz from ../shared/data/sklearn-datasets): %v", path, err)
	}
	return path
}

// protocol collects the BOA_* lines of a run's stdout.
type protocol struct {
	reports []float64
	metrics map[string]float64
	result  float64
	found   bool
}

func parseProtocol(t *testing.T, out string) protocol {
	t.Helper()
	p := protocol{metrics: map[string]float64{}}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		num := func(s string) float64 {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("line %q: bad number %q", line, s)
			}
			return v
		}
		switch {
		case len(f) == 3 && f[0] == "BOA_REPORT":
			if step := int(num(f[1])); step != len(p.reports)+1 {
				t.Fatalf("line %q: step %d, want %d", line, step, len(p.reports)+1)
			}
			p.reports = append(p.reports, num(f[2]))
		case len(f) == 3 && f[0] == "BOA_METRIC":
			p.metrics[f[1]] = num(f[2])
		case len(f) == 2 && f[0] == "BOA_RESULT":
			p.result, p.found = num(f[1]), true
		default:
			t.Fatalf("stdout line %q is not a protocol line", line)
		}
	}
	return p
}

func TestDefaultsOnRealData(t *testing.T) {
	path := realData(t)
	var out, errb bytes.Buffer
	if code := run([]string{"--data", path}, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, errb.String())
	}
	p := parseProtocol(t, out.String())
	if !p.found {
		t.Fatal("no BOA_RESULT line")
	}
	if p.result >= 0.1 {
		t.Errorf("validation error %g, want < 0.1", p.result)
	}
	if len(p.reports) != 20 {
		t.Errorf("%d BOA_REPORT lines, want one per epoch (20)", len(p.reports))
	}
	if last := p.reports[len(p.reports)-1]; last != p.result {
		t.Errorf("last report %g differs from the result %g", last, p.result)
	}
	if want := float64(64*32 + 32 + 32*10 + 10); p.metrics["params"] != want {
		t.Errorf("params = %g, want %g", p.metrics["params"], want)
	}
	if te, ok := p.metrics["train_error"]; !ok || te < 0 || te > p.result+0.05 {
		t.Errorf("train_error = %g (present %v), want a value in [0, %g]", te, ok, p.result+0.05)
	}

	// Same flags, same output: a study's trials are reproducible.
	var again bytes.Buffer
	run([]string{"--data", path}, &again, &errb)
	if again.String() != out.String() {
		t.Error("a second run with the same flags printed something else")
	}
}

func TestRealDataShape(t *testing.T) {
	d, err := loadDigits(realData(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.y) != 1797 {
		t.Fatalf("%d rows, want 1797", len(d.y))
	}
	train, val, err := stratifiedSplit(d.y, valFraction, rand.New(rand.NewPCG(splitSeed, 0)))
	if err != nil {
		t.Fatal(err)
	}
	var nTrain, nVal, nAll [nClasses]int
	for _, i := range train {
		nTrain[d.y[i]]++
	}
	for _, i := range val {
		nVal[d.y[i]]++
	}
	for _, c := range d.y {
		nAll[c]++
	}
	seen := map[int]bool{}
	for _, i := range append(append([]int(nil), train...), val...) {
		if seen[i] {
			t.Fatalf("row %d is in the split twice", i)
		}
		seen[i] = true
	}
	if len(seen) != len(d.y) {
		t.Fatalf("the split holds %d of %d rows", len(seen), len(d.y))
	}
	for c := range nClasses {
		if want := int(math.Round(valFraction * float64(nAll[c]))); nVal[c] != want || nTrain[c] != nAll[c]-want {
			t.Errorf("class %d: %d train, %d validation of %d, want %d validation", c, nTrain[c], nVal[c], nAll[c], want)
		}
	}
}

// row is a well-formed line: 64 pixels and a label.
func row(label int) string {
	px := make([]string, nPixels)
	for i := range px {
		px[i] = strconv.Itoa(i % (maxPixel + 1))
	}
	return strings.Join(px, ",") + "," + strconv.Itoa(label)
}

func gzipped(s string) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.String()
}

func TestLoadErrors(t *testing.T) {
	good := row(3)
	cut := strings.Split(good, ",")
	replace := func(col int, v string) string {
		f := append([]string(nil), cut...)
		f[col-1] = v
		return strings.Join(f, ",")
	}
	tests := []struct {
		name, content, want string
	}{
		{"empty", "", "no rows: the file is empty"},
		{"blank lines only", "\n\n  \n", "no rows"},
		{"too few fields", good + "\n1,2,3\n", "line 2: want 65 comma-separated values (64 pixels, then the label), got 3"},
		{"too many fields", good + ",7\n", "line 1: want 65 comma-separated values (64 pixels, then the label), got 66"},
		{"header line", "pixel_0,pixel_1\n" + good, "line 1: want 65"},
		{"pixel not a number", replace(5, "abc"), `line 1, column 5: pixel "abc" is not a number`},
		{"pixel empty", replace(1, ""), `line 1, column 1: pixel "" is not a number`},
		{"pixel too large", replace(64, "17"), "line 1, column 64: pixel 17 is outside 0..16"},
		{"pixel negative", replace(2, "-1"), "line 1, column 2: pixel -1 is outside 0..16"},
		{"pixel NaN", replace(3, "NaN"), "line 1, column 3: pixel NaN is outside 0..16"},
		{"label too large", replace(65, "10"), `line 1, column 65: label "10" is not a digit 0..9`},
		{"label negative", replace(65, "-1"), `line 1, column 65: label "-1" is not a digit 0..9`},
		{"label not an integer", replace(65, "3.5"), `line 1, column 65: label "3.5" is not a digit 0..9`},
		{"semicolons", strings.ReplaceAll(good, ",", ";"), "line 1: want 65 comma-separated values"},
		{"bad row after good ones", good + "\n" + good + "\n\n" + replace(65, "x"), "line 4, column 65"},
		{"gzip header only", "\x1f\x8b\x08", "unexpected EOF"},
		{"truncated gzip", gzipped(good + "\n" + good + "\n")[:30], "unexpected EOF"},
		{"gzip of a bad row", gzipped(replace(10, "99")), "line 1, column 10: pixel 99 is outside 0..16"},
	}
	dir := t.TempDir()
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("case%d.csv", i))
			if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			d, err := loadDigits(path)
			if err == nil {
				t.Fatalf("loaded %d rows, want an error containing %q", len(d.y), tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("error %q\nwant it to contain %q and the path", err, tc.want)
			}
		})
	}
}

func TestLoadPlainAndGzip(t *testing.T) {
	content := row(0) + "\n\n" + row(9) + "\r\n"
	dir := t.TempDir()
	for name, data := range map[string]string{"plain.csv": content, "packed.csv.gz": gzipped(content)} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		d, err := loadDigits(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(d.y) != 2 || d.y[0] != 0 || d.y[1] != 9 {
			t.Errorf("%s: labels %v, want [0 9]", name, d.y)
		}
		if x := d.x[1]; x[0] != 0 || x[16] != 1 || x[8] != 0.5 {
			t.Errorf("%s: pixels not scaled to [0,1]: %v", name, x[:17])
		}
	}
}

func TestMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nowhere", "digits.csv.gz")
	var out, errb bytes.Buffer
	if code := run([]string{"--data", path}, &out, &errb); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	msg := errb.String()
	for _, want := range []string{path, "--data", "BOA_DIGITS"} {
		if !strings.Contains(msg, want) {
			t.Errorf("stderr %q does not mention %q", msg, want)
		}
	}
	if out.Len() != 0 {
		t.Errorf("stdout %q, want nothing (no BOA_RESULT on failure)", out.String())
	}
}

// synthetic writes n random images with random labels to a temporary file.
func synthetic(t *testing.T, n int) string {
	rng := rand.New(rand.NewPCG(7, 7))
	var b strings.Builder
	for i := range n {
		for range nPixels {
			fmt.Fprintf(&b, "%d,", rng.IntN(maxPixel+1))
		}
		fmt.Fprintf(&b, "%d\n", i%nClasses)
	}
	path := filepath.Join(t.TempDir(), "synthetic.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDivergenceFails(t *testing.T) {
	path := synthetic(t, 60)
	var out, errb bytes.Buffer
	// With lr·l2 > 2(1+momentum) weight decay alone makes every weight
	// oscillate with a growing amplitude, whatever the data.
	code := run([]string{"--data", path, "--lr", "100", "--l2", "0.1", "--epochs", "200"}, &out, &errb)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stdout %q", code, out.String())
	}
	if !strings.Contains(errb.String(), "training diverged") || !strings.Contains(errb.String(), "--lr") {
		t.Errorf("stderr %q should say training diverged and point at --lr", errb.String())
	}
	if strings.Contains(out.String(), "BOA_RESULT") {
		t.Errorf("a diverged run printed a result: %q", out.String())
	}
}

func TestFlagErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--lr", "0"}, "--lr must be a positive number"},
		{[]string{"--l2", "-1e-3"}, "--l2 must be 0 or a positive number"},
		{[]string{"--hidden", "0"}, "--hidden must be at least 1"},
		{[]string{"--epochs", "0"}, "--epochs must be at least 1"},
		{[]string{"--batch", "0"}, "--batch must be at least 1"},
		{[]string{"--momentum", "1"}, "--momentum must be in [0, 1)"},
		{[]string{"--activation", "sigmoid"}, `--activation must be relu or tanh, got "sigmoid"`},
		{[]string{"--hidden", "many"}, `invalid value "many" for flag -hidden`},
		{[]string{"extra"}, `unexpected argument "extra"`},
	}
	for _, tc := range tests {
		var out, errb bytes.Buffer
		if code := run(tc.args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", tc.args, code)
		}
		if !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: stderr %q, want it to contain %q", tc.args, errb.String(), tc.want)
		}
	}
}

// TestGradient checks backpropagation against central finite differences
// of the loss, weight decay included.
func TestGradient(t *testing.T) {
	d, err := parseDigits(strings.NewReader(strings.Join([]string{row(1), row(4), row(7)}, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.x {
		for j := range d.x[i] {
			d.x[i][j] *= float64(i+1) / 3 // rows differ beyond the label
		}
	}
	idx := []int{0, 1, 2}
	for _, act := range []string{"relu", "tanh"} {
		m := newMLP(nPixels, 5, nClasses, act == "relu", rand.New(rand.NewPCG(3, 4)))
		_, b1, _, b2 := m.views(m.w)
		for i := range b1 {
			b1[i] = 0.1 // keep ReLU units away from their kink
		}
		for i := range b2 {
			b2[i] = 0.05 * float64(i)
		}
		s := m.newScratch()
		const l2 = 0.01
		grad := make([]float64, m.nWeights())
		m.lossGrad(d, idx, l2, grad, s)
		scratchGrad := make([]float64, m.nWeights())
		const h = 1e-5
		for i := range m.w {
			w := m.w[i]
			m.w[i] = w + h
			fp := m.lossGrad(d, idx, l2, scratchGrad, s)
			m.w[i] = w - h
			fm := m.lossGrad(d, idx, l2, scratchGrad, s)
			m.w[i] = w
			fd := (fp - fm) / (2 * h)
			// The floor of the denominator turns the test into an absolute
			// one (1e-9) for components so small that rounding in the
			// O(1) loss dominates their finite difference.
			if rel := math.Abs(fd-grad[i]) / max(1e-4, math.Abs(fd)+math.Abs(grad[i])); rel > 1e-5 {
				t.Errorf("%s: ∂L/∂w[%d] = %g, finite difference %g (relative error %.2g)", act, i, grad[i], fd, rel)
			}
		}
	}
}

func Example() {
	run([]string{"--activation", "sigmoid"}, os.Stdout, os.Stdout)
	// Output:
	// digits: --activation must be relu or tanh, got "sigmoid"
}
