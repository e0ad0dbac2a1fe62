package tse

import (
	"testing"
)

// loadSplit reads the digits data in place and splits it, or skips the
// test when the file is not there (it is third-party data outside the
// repository).
func loadSplit(t *testing.T) *Split {
	t.Helper()
	d, err := LoadDigits(DigitsPath())
	if err != nil {
		t.Skipf("digits data not available (%v); set %s to sklearn's digits.csv.gz", err, EnvDigits)
	}
	sp := StratifiedSplit(d, SplitSeed, 0.6, 0.2)
	return &sp
}

func TestLoadDigits(t *testing.T) {
	d, err := LoadDigits(DigitsPath())
	if err != nil {
		t.Skipf("digits data not available (%v); set %s to sklearn's digits.csv.gz", err, EnvDigits)
	}
	if d.Len() != 1797 || len(d.X) != 1797*Pixels {
		t.Fatalf("%d rows, %d pixels; want 1797 rows of 64", d.Len(), len(d.X))
	}
	// The first image of sklearn's digits is a 0 whose first row is
	// 0,0,5,13,9,1,0,0.
	if d.Y[0] != 0 || d.X[2] != 5.0/16 || d.X[3] != 13.0/16 {
		t.Errorf("first row: label %d, pixels %v", d.Y[0], d.X[:8])
	}
	var counts [Classes]int
	for i, y := range d.Y {
		counts[y]++
		for _, v := range d.X[i*Pixels : (i+1)*Pixels] {
			if v < 0 || v > 1 {
				t.Fatalf("row %d: pixel %v outside [0, 1]", i, v)
			}
		}
	}
	for c, n := range counts {
		if n < 170 || n > 185 { // sklearn's digits has 174..183 per class
			t.Errorf("class %d: %d rows", c, n)
		}
	}

	sp := StratifiedSplit(d, SplitSeed, 0.6, 0.2)
	if n := sp.Train.Len() + sp.Val.Len() + sp.Test.Len(); n != d.Len() {
		t.Fatalf("split has %d rows, want %d", n, d.Len())
	}
	if sp.Train.Len() < 1070 || sp.Train.Len() > 1085 || sp.Val.Len() < 355 || sp.Test.Len() < 355 {
		t.Errorf("split %d / %d / %d, want about 60/20/20", sp.Train.Len(), sp.Val.Len(), sp.Test.Len())
	}
	for _, part := range []*Data{&sp.Train, &sp.Val, &sp.Test} {
		var k [Classes]int
		for _, y := range part.Y {
			k[y]++
		}
		for c := range k {
			if frac, want := float64(k[c])/float64(part.Len()), float64(counts[c])/float64(d.Len()); frac < want-0.01 || frac > want+0.01 {
				t.Errorf("class %d is %.3f of a part, %.3f of the data: not stratified", c, frac, want)
			}
		}
	}
	again := StratifiedSplit(d, SplitSeed, 0.6, 0.2)
	for i := range again.Test.Y {
		if again.Test.Y[i] != sp.Test.Y[i] || again.Test.X[i*Pixels+20] != sp.Test.X[i*Pixels+20] {
			t.Fatal("the split is not reproducible")
		}
	}
}

func TestLoadDigitsMissing(t *testing.T) {
	if _, err := LoadDigits("no/such/digits.csv.gz"); err == nil {
		t.Error("a missing file gave no error")
	}
}
