package standin

import (
	"errors"
	"io/fs"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boaopt/boa/attack"
)

// digits trains the victim of seed 1 once for the package's tests, or
// skips them without the data.
var digits = sync.OnceValues(func() (*Digits, error) { return TrainDigits(1) })

func trainedDigits(t *testing.T) *Digits {
	t.Helper()
	d, err := digits()
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("digits data absent, skipping: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDigitsVictim: the victim reaches 95 % on the held-out 30 %, its
// scores are probabilities whose argmax gives that accuracy, and the
// held-out set keeps the class proportions.
func TestDigitsVictim(t *testing.T) {
	start := time.Now()
	d := trainedDigits(t)
	t.Logf("digits victim: test accuracy %.2f %% on %d images (training %v, or less if another test trained it)", 100*d.Accuracy(), len(d.Test()), time.Since(start))
	if d.Accuracy() < 0.95 {
		t.Errorf("test accuracy %.3f, want at least 0.95", d.Accuracy())
	}
	test := d.Test()
	if len(test) < 530 || len(test) > 550 { // 30 % of 1797
		t.Errorf("%d held-out images, want about 539", len(test))
	}
	var counts [10]int
	right := 0
	for _, e := range test {
		counts[e.Label]++
		p, err := d.Scores(e.Image)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, v := range p {
			sum += v
		}
		if len(p) != 10 || math.Abs(sum-1) > 1e-9 {
			t.Fatalf("scores %v", p)
		}
		if (attack.Goal{Origin: e.Label, Target: e.Label}).Reached(p) {
			right++
		}
	}
	if got := float64(right) / float64(len(test)); math.Abs(got-d.Accuracy()) > 1e-12 {
		t.Errorf("argmax of Scores right on %.4f, Accuracy %.4f", got, d.Accuracy())
	}
	for c, n := range counts {
		if n < 50 || n > 57 { // 30 % of 174..183 per class
			t.Errorf("class %d: %d held-out images", c, n)
		}
	}
}

// TestDigitsDeterministic: the same seed gives the same scores, and a
// modified copy from Test does not change the victim's.
func TestDigitsDeterministic(t *testing.T) {
	d := trainedDigits(t)
	again, err := TrainDigits(1)
	if err != nil {
		t.Fatal(err)
	}
	x := d.Test()[0].Image
	p, _ := d.Scores(x)
	q, _ := again.Scores(again.Test()[0].Image)
	if !slices.Equal(p, q) || d.Accuracy() != again.Accuracy() {
		t.Errorf("seed 1 twice: %v, %v", p, q)
	}
	orig := x.Pix[0]
	x.Pix[0] = orig + 0.5
	if d.Test()[0].Image.Pix[0] != orig {
		t.Error("Test returned the victim's own images, not copies")
	}
}

// TestDigitsConcurrent: concurrent queries give the answers of serial
// ones (run with -race).
func TestDigitsConcurrent(t *testing.T) {
	d := trainedDigits(t)
	test := d.Test()[:40]
	want := make([][]float64, len(test))
	for i, e := range test {
		want[i], _ = d.Scores(e.Image)
	}
	var wg sync.WaitGroup
	for i, e := range test {
		wg.Go(func() {
			if p, err := d.Scores(e.Image); err != nil || !slices.Equal(p, want[i]) {
				t.Errorf("image %d concurrently: %v, %v", i, p, err)
			}
		})
	}
	wg.Wait()
}

// TestDigitsErrors: a wrong shape, a value outside [0, 1] and a missing
// file are errors; the last names where it looked.
func TestDigitsErrors(t *testing.T) {
	d := trainedDigits(t)
	for _, x := range []attack.Image{
		{H: 8, W: 8, C: 3, Pix: make([]float64, 192)},
		{H: 28, W: 28, C: 1, Pix: make([]float64, 784)},
		{H: 8, W: 8, C: 1, Pix: make([]float64, 63)},
		{H: 8, W: 8, C: 1, Pix: append(make([]float64, 63), 1.5)},
	} {
		if _, err := d.Scores(x); err == nil {
			t.Errorf("%d×%d×%d, %d values: no error", x.H, x.W, x.C, len(x.Pix))
		}
	}
	t.Setenv(EnvDigits, "/nonexistent/digits.csv.gz")
	_, err := TrainDigits(1)
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/digits.csv.gz") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
